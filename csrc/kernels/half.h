/* IEEE binary16 <-> binary32, identical on both backends (round to nearest even). The GPU uses
 * its conversion instructions for numbers, but NaNs take the software path there too: the
 * hardware gives a canonical NaN, which would lose the sign and payload NumPy keeps. */
#ifndef PG_HALF_H
#define PG_HALF_H
#include "kernel_types.h"

PG_HOST_DEVICE PG_INLINE float
pg_half_to_float(pg_half h)
{
#if defined(__CUDA_ARCH__) && !defined(PYGPU_CPU) /* cuda.jit on the CPU defines __CUDA_ARCH__ */
    if ((h & 0x7fffu) <= 0x7c00u) { /* not a NaN: the hardware conversion, exact like the below */
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
        return f;
    }
#endif
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do { e++; man <<= 1; } while ((man & 0x400u) == 0);
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    union { uint32_t u; float f; } v;
    v.u = bits;
    return v.f;
}

PG_HOST_DEVICE PG_INLINE pg_half
pg_float_to_half(float f)
{
    union { uint32_t u; float f; } v;
    v.f = f;
    uint32_t x = v.u;
#if defined(__CUDA_ARCH__) && !defined(PYGPU_CPU) /* cuda.jit on the CPU defines __CUDA_ARCH__ */
    if ((x & 0x7fffffffu) <= 0x7f800000u) { /* not a NaN: round to nearest even, as below */
        pg_half h;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
        return h;
    }
#endif
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) { /* inf, or NaN keeping its sign and the top of its payload (quiet or
                                * signaling: a float16 copy is bit-exact), as NumPy */
        uint32_t payload = absx > 0x7f800000u ? (absx >> 13) & 0x3ffu : 0u;
        if (absx > 0x7f800000u && payload == 0)
            payload = 1;
        return (pg_half)(sign | 0x7c00u | payload);
    }
    if (absx >= 0x477ff000u) /* rounds to beyond the largest half */
        return (pg_half)(sign | 0x7c00u);
    if (absx < 0x38800000u) { /* subnormal half or zero */
        if (absx < 0x33000000u)
            return (pg_half)sign;
        uint32_t e = absx >> 23;
        uint32_t man = (absx & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126 - e;           /* 14 + (113 - e) */
        uint32_t half_man = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_man & 1u)))
            half_man++;
        return (pg_half)(sign | half_man);
    }
    uint32_t r = absx - 0x38000000u; /* rebias exponent */
    uint32_t half_bits = r >> 13;
    uint32_t rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half_bits & 1u)))
        half_bits++;
    return (pg_half)(sign | half_bits);
}
/* double -> half rounded once, as NumPy: through a float rounded to odd (its last bit set where
 * the double is not a float), whose own rounding to half then sees a tie only where the double is
 * one (round to nearest twice moved 65519.999 to 65520, then to inf) */
PG_HOST_DEVICE PG_INLINE pg_half
pg_double_to_half(double d)
{
    union { uint32_t u; float f; } v;
    v.f = (float)d;
    if ((double)v.f != d && d == d && !(v.u & 1u))
        v.u += (d > 0 ? v.f > d : v.f < d) ? 0xffffffffu : 1u; /* to the odd neighbour towards d */
    return pg_float_to_half(v.f);
}

#endif
