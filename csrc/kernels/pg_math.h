/* Scalar functions used by the op table (csrc/ops.def), in the common subset of C and CUDA C.
 *
 * Real functions: PG_FN1/PG_FN2 pick the float or double variant of a <math.h> function from
 * the argument's type (C11 _Generic on the host; C++ overloads of CUDA's math library on the
 * device, and of <math.h> in host C++), so one expression serves f16 (computed as float), f32
 * and f64.
 * Integer helpers follow NumPy: wrapping arithmetic, floor division and remainder with Python's
 * signs, x // 0 == x % 0 == 0, shifts past the width give 0 (or -1 for negative >>).
 * Complex functions are written out once for both precisions (PG_COMPLEX_FUNCS), following C99
 * Annex G for the special values where NumPy does. */
#ifndef PG_MATH_H
#define PG_MATH_H
#include "convert.h"

#ifdef __CUDACC__
#define PG_FN1(f, x) f(x)
#define PG_FN2(f, x, y) f((x), (y))
#define PG_FN3(f, x, y, z) f((x), (y), (z))
#define PG_DEV static __host__ __device__ inline
#define PG_POW_HALF_IS_SQRT 1 /* pg_fpow: CUDA's pow is within 2 ulp, its sqrt correctly rounded */
/* The large complex functions: inlined into each elementwise kernel, but called (one copy each)
 * from the VM's interpreter, which would otherwise hold every one of them inline in one switch. */
#ifdef PG_MATH_CALL_HEAVY
#define PG_DEV_HEAVY static __host__ __device__ __noinline__
#else
#define PG_DEV_HEAVY PG_DEV
#endif
#elif defined(__cplusplus)
/* host C++ (the kernels cuda.jit emits, compiled for the CPU): <math.h>'s overloads, as CUDA's */
#include <math.h>
#define PG_FN1(f, x) f(x)
#define PG_FN2(f, x, y) f((x), (y))
#define PG_FN3(f, x, y, z) f((x), (y), (z))
#define PG_DEV static inline
#define PG_DEV_HEAVY static inline
#define PG_POW_HALF_IS_SQRT 0
#else
#include <math.h>
#define PG_FN1(fn, x) _Generic((x), float: fn##f, default: fn)(x)
#define PG_FN2(fn, x, y) _Generic((x), float: fn##f, default: fn)((x), (y))
#define PG_FN3(fn, x, y, z) _Generic((x), float: fn##f, default: fn)((x), (y), (z))
#define PG_DEV static inline
#define PG_DEV_HEAVY static inline
#define PG_POW_HALF_IS_SQRT 0
#endif

/* ------------------------------------------------------------------ float bits */

/* a float's and a double's bits and back (a union: the same in C, CUDA and NVRTC, and gcc
 * vectorises it) */
PG_DEV uint32_t
pg_bits_of_float(float x)
{
    union { float f; uint32_t u; } c;
    c.f = x;
    return c.u;
}

PG_DEV uint64_t
pg_bits_of(double x)
{
    union { double d; uint64_t u; } c;
    c.d = x;
    return c.u;
}

PG_DEV double
pg_double_of(uint64_t bits)
{
    union { double d; uint64_t u; } c;
    c.u = bits;
    return c.d;
}

/* signbit(x): in C the sign bit read from the bits, which gcc vectorises (<math.h>'s signbit on
 * a double it does not: 2.5x NumPy's time) */
#if defined(__CUDACC__) || defined(__cplusplus)
#define PG_SIGNBIT(x) signbit(x)
#else
PG_DEV int pg_signbit_f(float v) { return (int32_t)pg_bits_of_float(v) < 0; }
PG_DEV int pg_signbit_d(double v) { return (int64_t)pg_bits_of(v) < 0; }
#define PG_SIGNBIT(x) _Generic((x), float: pg_signbit_f, default: pg_signbit_d)(x)
#endif

#define PG_PI 3.141592653589793238462643383279502884
#define PG_LN2 0.693147180559945309417232121458176568
#define PG_LOG2E 1.442695040888963407359924681001892137

/* ------------------------------------------------------------------ integers */

/* wrapping + - * for every integer width: computed in uint64, truncated when stored */
#define PG_WADD(a, b) ((uint64_t)(a) + (uint64_t)(b))
#define PG_WSUB(a, b) ((uint64_t)(a) - (uint64_t)(b))
#define PG_WMUL(a, b) ((uint64_t)(a) * (uint64_t)(b))
#define PG_WNEG(a) ((uint64_t)0 - (uint64_t)(a))
/* x << y and x >> y with NumPy's out-of-range shift results */
#define PG_LSHIFT(a, b) ((uint64_t)(b) < sizeof(a) * 8 ? (uint64_t)(a) << (b) : (uint64_t)0)

/* x ** e by squaring, wrapping modulo 2^64 like NumPy's integer power (callers narrow it). */
PG_DEV uint64_t
pg_upow(uint64_t x, uint64_t e)
{
    uint64_t r = 1;
    while (e) {
        if (e & 1)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

/* The 1 bits of x, a value of `width` bits (a constant where it is used): CUDA's popc; on the
 * host the shift-and-add count in lanes of that width, which vectorises (x86's popcnt is scalar,
 * and the baseline x86-64 lacks it; 64-bit lanes for a uint8 ran at 1/8 of NumPy's speed) */
PG_DEV uint8_t
pg_popcount(uint64_t x, int width)
{
#ifdef __CUDA_ARCH__
    (void)width;
    return (uint8_t)__popcll(x);
#else
    if (width <= 8) {
        uint8_t v = (uint8_t)x;
        v = (uint8_t)(v - ((v >> 1) & 0x55));
        v = (uint8_t)((v & 0x33) + ((v >> 2) & 0x33));
        return (uint8_t)((v + (v >> 4)) & 0x0f);
    }
    if (width <= 16) {
        uint16_t v = (uint16_t)x;
        v = (uint16_t)(v - ((v >> 1) & 0x5555));
        v = (uint16_t)((v & 0x3333) + ((v >> 2) & 0x3333));
        v = (uint16_t)((v + (v >> 4)) & 0x0f0f);
        return (uint8_t)((v + (v >> 8)) & 0x1f);
    }
    if (width <= 32) {
        uint32_t v = (uint32_t)x;
        v = v - ((v >> 1) & 0x55555555u);
        v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
        v = (v + (v >> 4)) & 0x0f0f0f0fu;
        v += v >> 8;
        return (uint8_t)((v + (v >> 16)) & 0x3f);
    }
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    x += x >> 8;
    x += x >> 16;
    x += x >> 32;
    return (uint8_t)(x & 0x7f);
#endif
}

/* 2.0 ** e for e in [-1022, 1023], exactly */
PG_DEV double
pg_two_to(int64_t e)
{
    return pg_double_of((uint64_t)(e + 1023) << 52);
}

/* frexp's parts (the float32 and float16 loops pass their values as doubles, exactly): x ==
 * mantissa * 2**exponent with 0.5 <= |mantissa| < 1; 0, inf and nan are their own mantissa, with
 * exponent 0. A subnormal is scaled by 2**64 first, into the normal range. */
#define PG_SUBNORMAL_BELOW 2.2250738585072014e-308 /* 2**-1022 */
PG_DEV double
pg_frexp_mantissa(double x)
{
    double s = x > -PG_SUBNORMAL_BELOW && x < PG_SUBNORMAL_BELOW ? x * 18446744073709551616.0 : x;
    double m = pg_double_of((pg_bits_of(s) & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
    return x != x || x == 0 || x - x != 0 ? x : m; /* x - x: nan for the infinities */
}

PG_DEV int32_t
pg_frexp_exponent(double x)
{
    int small = x > -PG_SUBNORMAL_BELOW && x < PG_SUBNORMAL_BELOW;
    double s = small ? x * 18446744073709551616.0 : x;
    int32_t e = (int32_t)((pg_bits_of(s) >> 52) & 0x7ff) - 1022 - (small ? 64 : 0);
    return x != x || x == 0 || x - x != 0 ? 0 : e;
}

/* ldexp: x * 2**n rounded once, as C's. A float32 or float16 x passes as a double: its product is
 * exact in double wherever the narrower result is not zero, so the store rounds once. A double
 * takes up to three exact steps (musl's scalbn): an underflowing one scales by 2**-969 first, so
 * that the last multiply is the only rounding. Past +-2200 every finite nonzero x has given inf
 * or 0 already. The steps are written with min, max and shifts, a factor 1 where one is not
 * needed: gcc turns selects of them back into branches, and the loop with branches does not
 * vectorise (3-4x NumPy's time). */
PG_DEV int64_t pg_min_i64(int64_t a, int64_t b) { return a < b ? a : b; }
PG_DEV int64_t pg_max_i64(int64_t a, int64_t b) { return a > b ? a : b; }

/* a step down: k itself where 2**k is a normal double, else -969 (2**-1022 * 2**53) */
PG_DEV int64_t
pg_ldexp_down(int64_t k)
{
    return pg_max_i64(k, -1022) + (((k + 1022) >> 63) & 53);
}

PG_DEV double
pg_ldexp(double x, int64_t n)
{
    int64_t k = pg_max_i64(pg_min_i64(n, 2200), -2200);
    int64_t up = pg_max_i64(k, 0), down = pg_min_i64(k, 0); /* one of them is 0 */
    int64_t u1 = pg_min_i64(up, 1023), u2 = pg_min_i64(up - u1, 1023), u3 = pg_min_i64(up - u1 - u2, 1023);
    int64_t d1 = pg_ldexp_down(down), d2 = pg_ldexp_down(down - d1), d3 = pg_max_i64(down - d1 - d2, -1022);
    return x * pg_two_to(u1 + d1) * pg_two_to(u2 + d2) * pg_two_to(u3 + d3);
}

/* hypot(x, y) (and so |z|) on the host C build and on CUDA, without branches so that the loops
 * vectorise (libm's, per element, was 9x NumPy's time for abs of a complex128). A float's is the double
 * sqrt of its squares' exact sum, rounded once more. A double's is the sqrt of the rounded sum of
 * squares b*b + s*s (b >= s), then one Newton step with the remainder h*h - b*b - s*s written,
 * as Borges (2019, "An improved algorithm for hypot(a, b)") shows, in terms of h - b or h - s
 * so that it is computed almost exactly without an fma (so every instruction set rounds alike);
 * inputs are scaled by a power of two into [2**-450, 2**450], where nothing overflows or loses
 * bits. Both give glibc's results bit for bit (checked over 2e7 pairs, subnormals and the special
 * values included): within 0.51 ulp, where NumPy's own SIMD complex abs is off by up to 2 ulp.
 * CUDA computes the same (IEEE double arithmetic and sqrt, no fma contraction under --fmad=false):
 * its library's hypot and hypotf are within 2 and 3 ulp, and differed from glibc's by 1 ulp on 22%
 * (double) and 5% (float) of test_edge_semantics' pairs on an H200. Host C++ (cuda.jit's kernels on the CPU)
 * uses glibc's. (2**450, 2**600 and their inverses are decimal literals: NVRTC under a user's
 * -std=c++11 has no hexadecimal floats.) */
#if defined(__cplusplus) && !defined(__CUDACC__)
#define PG_HYPOT(x, y) PG_FN2(hypot, x, y)
#else
#define PG_2P450 2.9073548971824276e+135
#define PG_2M450 3.4395525670743494e-136
#define PG_2P600 4.149515568880993e+180
#define PG_2M600 2.409919865102884e-181
PG_DEV double
pg_hypot_d(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    double big = ax > ay ? ax : ay, small = ax > ay ? ay : ax; /* a nan lands in small or both */
    double scale = big > PG_2P450 ? PG_2M600 : big < PG_2M450 ? PG_2P600 : 1.0;
    double unscale = big > PG_2P450 ? PG_2P600 : big < PG_2M450 ? PG_2M600 : 1.0;
    double b = big * scale, s = small * scale;
    double h = sqrt(b * b + s * s);
    int near = h <= 2.0 * s;
    double d = h - (near ? s : b);
    double t1 = near ? b * (2.0 * d - b) : 2.0 * d * (b - 2.0 * s);
    double t2 = near ? (d - 2.0 * (b - s)) * d : (4.0 * d - s) * s + d * d;
    double r = h > 0 ? h - (t1 + t2) / (2.0 * h) : h;
    return ax == INFINITY || ay == INFINITY ? (double)INFINITY : r * unscale;
}

PG_DEV float
pg_hypot_f(float x, float y)
{
    double dx = x, dy = y;
    float r = (float)sqrt(dx * dx + dy * dy);
    return fabsf(x) == INFINITY || fabsf(y) == INFINITY ? INFINITY : r;
}
#ifdef __CUDACC__
PG_DEV double pg_hypot_of(double x, double y) { return pg_hypot_d(x, y); }
PG_DEV float pg_hypot_of(float x, float y) { return pg_hypot_f(x, y); }
#define PG_HYPOT(x, y) pg_hypot_of((x), (y))
#else
#define PG_HYPOT(x, y) _Generic((x), float: pg_hypot_f, default: pg_hypot_d)((x), (y))
#endif
#endif

/* nextafter(x, y) by a step of the bits (no library call, so the CPU loop vectorises): toward
 * y, a zero x to the smallest subnormal of y's sign; y when equal, x + y when either is nan */
#define PG_NEXTAFTER(NAME, T, U, SIGN)                                                        \
    PG_DEV T NAME(T x, T y)                                                                    \
    {                                                                                          \
        union { T f; U u; } cx, cy;                                                            \
        cx.f = x;                                                                              \
        cy.f = y;                                                                              \
        cx.u = x == 0 ? (U)((cy.u & SIGN) | 1) : (U)(cx.u + ((x < y) == (x > 0) ? (U)1 : (U)-1)); \
        return x != x || y != y ? x + y : x == y ? y : cx.f;                                   \
    }
#if defined(__CUDACC__) || defined(__cplusplus)
PG_NEXTAFTER(pg_nextafter, float, uint32_t, 0x80000000u)
PG_NEXTAFTER(pg_nextafter, double, uint64_t, 0x8000000000000000ull)
#else
PG_NEXTAFTER(pg_nextafter_f, float, uint32_t, 0x80000000u)
PG_NEXTAFTER(pg_nextafter_d, double, uint64_t, 0x8000000000000000ull)
#define pg_nextafter(x, y) _Generic((x), float: pg_nextafter_f, default: pg_nextafter_d)((x), (y))
#endif

#define PG_SIGNED_HELPERS(S)                                                                   \
    PG_DEV pg_t_##S pg_floordiv_##S(pg_t_##S a, pg_t_##S b)                                    \
    {                                                                                          \
        if (b == 0)                                                                            \
            return 0;                                                                          \
        if (b == -1)                                                                           \
            return (pg_t_##S)PG_WNEG(a);                                                       \
        pg_t_##S q = (pg_t_##S)(a / b);                                                        \
        if (a % b != 0 && ((a < 0) != (b < 0)))                                                \
            q--;                                                                               \
        return q;                                                                              \
    }                                                                                          \
    PG_DEV pg_t_##S pg_rem_##S(pg_t_##S a, pg_t_##S b)                                         \
    {                                                                                          \
        if (b == 0 || b == -1)                                                                 \
            return 0;                                                                          \
        pg_t_##S r = (pg_t_##S)(a % b);                                                        \
        if (r != 0 && ((r < 0) != (b < 0)))                                                    \
            r = (pg_t_##S)(r + b);                                                             \
        return r;                                                                              \
    }                                                                                          \
    PG_DEV pg_t_##S pg_fmod_##S(pg_t_##S a, pg_t_##S b)                                        \
    {                                                                                          \
        return (b == 0 || b == -1) ? (pg_t_##S)0 : (pg_t_##S)(a % b);                          \
    }                                                                                          \
    PG_DEV pg_t_##S pg_rshift_##S(pg_t_##S a, pg_t_##S b)                                      \
    {                                                                                          \
        if ((uint64_t)b < sizeof(a) * 8)                                                       \
            return (pg_t_##S)(a >> b);                                                         \
        return a < 0 ? (pg_t_##S)-1 : (pg_t_##S)0;                                            \
    }                                                                                          \
    PG_DEV pg_t_##S pg_abs_##S(pg_t_##S a) { return a < 0 ? (pg_t_##S)PG_WNEG(a) : a; }       \
    PG_DEV uint8_t pg_bitcount_##S(pg_t_##S a)                                                 \
    {                                                                                          \
        return pg_popcount(a < 0 ? PG_WNEG(a) : (uint64_t)a, (int)sizeof(a) * 8);              \
    }                                                                                          \
    PG_DEV pg_t_##S pg_sign_##S(pg_t_##S a) { return (pg_t_##S)((a > 0) - (a < 0)); }          \
    PG_DEV pg_t_##S pg_ipow_##S(pg_t_##S a, pg_t_##S b)                                        \
    {                                                                                          \
        /* NumPy raises for negative exponents; a kernel cannot, so the limit value is given */ \
        if (b < 0)                                                                             \
            return a == 1 ? (pg_t_##S)1 : a == -1 ? (pg_t_##S)((b & 1) ? -1 : 1) : (pg_t_##S)0; \
        return (pg_t_##S)pg_upow((uint64_t)a, (uint64_t)b);                                   \
    }                                                                                          \
    PG_DEV pg_t_##S pg_irecip_##S(pg_t_##S a)                                                  \
    {                                                                                          \
        /* 1 / 0: NumPy's (T)(1.0 / 0): inf to int32 or int64 gives their minimum, narrowed to 0 */ \
        return a == 0 ? (pg_t_##S)(sizeof(a) >= 4 ? (uint64_t)1 << (sizeof(a) * 8 - 1) : 0) : (pg_t_##S)(1 / a); \
    }

#define PG_UNSIGNED_HELPERS(S)                                                                 \
    PG_DEV pg_t_##S pg_floordiv_##S(pg_t_##S a, pg_t_##S b) { return b ? (pg_t_##S)(a / b) : (pg_t_##S)0; } \
    PG_DEV pg_t_##S pg_rem_##S(pg_t_##S a, pg_t_##S b) { return b ? (pg_t_##S)(a % b) : (pg_t_##S)0; } \
    PG_DEV pg_t_##S pg_fmod_##S(pg_t_##S a, pg_t_##S b) { return b ? (pg_t_##S)(a % b) : (pg_t_##S)0; } \
    PG_DEV pg_t_##S pg_rshift_##S(pg_t_##S a, pg_t_##S b)                                      \
    {                                                                                          \
        return (uint64_t)b < sizeof(a) * 8 ? (pg_t_##S)(a >> b) : (pg_t_##S)0;                 \
    }                                                                                          \
    PG_DEV pg_t_##S pg_abs_##S(pg_t_##S a) { return a; }                                       \
    PG_DEV uint8_t pg_bitcount_##S(pg_t_##S a) { return pg_popcount((uint64_t)a, (int)sizeof(a) * 8); } \
    PG_DEV pg_t_##S pg_sign_##S(pg_t_##S a) { return (pg_t_##S)(a > 0); }                      \
    PG_DEV pg_t_##S pg_ipow_##S(pg_t_##S a, pg_t_##S b)                                        \
    {                                                                                          \
        return (pg_t_##S)pg_upow((uint64_t)a, (uint64_t)b);                                   \
    }                                                                                          \
    PG_DEV pg_t_##S pg_irecip_##S(pg_t_##S a) { return a ? (pg_t_##S)(1 / a) : (pg_t_##S)0; }

PG_SIGNED_HELPERS(i8)
PG_SIGNED_HELPERS(i16)
PG_SIGNED_HELPERS(i32)
PG_SIGNED_HELPERS(i64)
PG_UNSIGNED_HELPERS(u8)
PG_UNSIGNED_HELPERS(u16)
PG_UNSIGNED_HELPERS(u32)
PG_UNSIGNED_HELPERS(u64)

/* ------------------------------------------------------------------ reals (float and double) */

#define PG_REAL_HELPERS(T)                                                                     \
    /* NumPy's npy_divmod: floor division and the matching remainder */                        \
    PG_DEV T pg_floordiv(T a, T b)                                                             \
    {                                                                                          \
        if (b == 0)                                                                            \
            return a / b;                                                                      \
        T mod = PG_FN2(fmod, a, b);                                                            \
        T div = (a - mod) / b;                                                                 \
        if (mod != 0 && ((b < 0) != (mod < 0)))                                                \
            div -= (T)1;                                                                       \
        if (div == 0)                                                                          \
            return PG_FN2(copysign, (T)0, a / b);                                              \
        T fl = PG_FN1(floor, div);                                                             \
        if (div - fl > (T)0.5)                                                                 \
            fl += (T)1;                                                                        \
        return fl;                                                                             \
    }                                                                                          \
    PG_DEV T pg_remainder(T a, T b)                                                            \
    {                                                                                          \
        T mod = PG_FN2(fmod, a, b);                                                            \
        if (b == 0)                                                                            \
            return mod;                                                                        \
        if (mod != 0) {                                                                        \
            if ((b < 0) != (mod < 0))                                                          \
                mod += b;                                                                      \
        } else {                                                                               \
            mod = PG_FN2(copysign, (T)0, b);                                                   \
        }                                                                                      \
        return mod;                                                                            \
    }                                                                                          \
    /* NaN propagates (b's, else a's); equal: b, as NumPy. Three independent selects, so gcc   \
     * vectorises a reduction's fold (the nested form ran scalar: 2.3 against 0.9 ns/element) */ \
    PG_DEV T pg_maximum(T a, T b) { T m = a > b ? a : b; m = a != a ? a : m; return b != b ? b : m; } \
    PG_DEV T pg_minimum(T a, T b) { T m = a < b ? a : b; m = a != a ? a : m; return b != b ? b : m; } \
    /* fmax/fmin: NaN loses; on equal values (+0 and -0) the second, as NumPy and x86's maxsd     \
     * (CUDA's fmax prefers +0: not used, so both backends agree) */                          \
    PG_DEV T pg_fmax(T a, T b) { return (a > b || b != b) ? a : b; }                          \
    PG_DEV T pg_fmin(T a, T b) { return (a < b || b != b) ? a : b; }                          \
    /* x ** y: the exponents whose result is one correctly rounded operation give it exactly   \
     * on both backends (glibc's pow is correctly rounded, CUDA's within 2 ulp: 3.0 ** 1 was  \
     * 3.0000000000000004 on the GPU); the rest is the library's pow. On CUDA also x ** 0.5  \
     * as sqrt x, with pow's +0 for -0 and +inf for -inf (2.0 ** 0.5 was 1 ulp off sqrt 2 on \
     * an H200); not on the CPU, where glibc's pow is NumPy's (within 0.52 ulp: 1 in 1000 of \
     * its x ** 0.5 differ from the correctly rounded sqrt x) */                              \
    PG_DEV T pg_fpow(T x, T y)                                                                 \
    {                                                                                          \
        if (y == 1)                                                                            \
            return x;                                                                          \
        if (y == 2)                                                                            \
            return x * x;                                                                      \
        if (y == -1)                                                                           \
            return 1 / x;                                                                      \
        if (PG_POW_HALF_IS_SQRT && y == (T)0.5)                                                \
            return x == 0 ? (T)0 : x == -(T)INFINITY ? (T)INFINITY : PG_FN1(sqrt, x);         \
        return PG_FN2(pow, x, y);                                                              \
    }                                                                                          \
    PG_DEV T pg_sign(T a) { return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a; }         \
    PG_DEV T pg_logaddexp(T a, T b)                                                            \
    {                                                                                          \
        if (a == b) /* handles infinities of the same sign */                                  \
            return a + (T)PG_LN2;                                                              \
        T d = a - b;                                                                           \
        if (d > 0)                                                                             \
            return a + PG_FN1(log1p, PG_FN1(exp, -d));                                         \
        if (d <= 0)                                                                            \
            return b + PG_FN1(log1p, PG_FN1(exp, d));                                          \
        return d; /* nan */                                                                    \
    }                                                                                          \
    PG_DEV T pg_logaddexp2(T a, T b)                                                           \
    {                                                                                          \
        if (a == b)                                                                            \
            return a + (T)1;                                                                   \
        T d = a - b;                                                                           \
        if (d > 0)                                                                             \
            return a + PG_FN1(log1p, PG_FN1(exp2, -d)) * (T)PG_LOG2E;                          \
        if (d <= 0)                                                                            \
            return b + PG_FN1(log1p, PG_FN1(exp2, d)) * (T)PG_LOG2E;                           \
        return d;                                                                              \
    }                                                                                          \
    PG_DEV T pg_heaviside(T x, T h0)                                                           \
    {                                                                                          \
        return x < 0 ? (T)0 : x > 0 ? (T)1 : x == 0 ? h0 : x;                                  \
    }                                                                                          \
    PG_DEV T pg_clip(T x, T lo, T hi) { return pg_minimum(pg_maximum(x, lo), hi); }

#if defined(__CUDACC__) || defined(__cplusplus)
PG_REAL_HELPERS(float)
PG_REAL_HELPERS(double)
#else
/* C has no overloading: a float and a double copy under _Generic names */
#define pg_floordiv pg_floordiv_f
#define pg_remainder pg_remainder_f
#define pg_maximum pg_maximum_f
#define pg_minimum pg_minimum_f
#define pg_fmax pg_fmax_f
#define pg_fmin pg_fmin_f
#define pg_sign pg_sign_f
#define pg_fpow pg_fpow_f
#define pg_logaddexp pg_logaddexp_f
#define pg_logaddexp2 pg_logaddexp2_f
#define pg_heaviside pg_heaviside_f
#define pg_clip pg_clip_f
PG_REAL_HELPERS(float)
#undef pg_floordiv
#undef pg_remainder
#undef pg_maximum
#undef pg_minimum
#undef pg_fmax
#undef pg_fmin
#undef pg_sign
#undef pg_fpow
#undef pg_logaddexp
#undef pg_logaddexp2
#undef pg_heaviside
#undef pg_clip
#define pg_floordiv pg_floordiv_d
#define pg_remainder pg_remainder_d
#define pg_maximum pg_maximum_d
#define pg_minimum pg_minimum_d
#define pg_fmax pg_fmax_d
#define pg_fmin pg_fmin_d
#define pg_sign pg_sign_d
#define pg_fpow pg_fpow_d
#define pg_logaddexp pg_logaddexp_d
#define pg_logaddexp2 pg_logaddexp2_d
#define pg_heaviside pg_heaviside_d
#define pg_clip pg_clip_d
PG_REAL_HELPERS(double)
#undef pg_floordiv
#undef pg_remainder
#undef pg_maximum
#undef pg_minimum
#undef pg_fmax
#undef pg_fmin
#undef pg_sign
#undef pg_fpow
#undef pg_logaddexp
#undef pg_logaddexp2
#undef pg_heaviside
#undef pg_clip
#define PG_RG(f, x) _Generic((x), float: f##_f, default: f##_d)
#define pg_floordiv(a, b) PG_RG(pg_floordiv, a)(a, b)
#define pg_remainder(a, b) PG_RG(pg_remainder, a)(a, b)
#define pg_maximum(a, b) PG_RG(pg_maximum, a)(a, b)
#define pg_minimum(a, b) PG_RG(pg_minimum, a)(a, b)
#define pg_fmax(a, b) PG_RG(pg_fmax, a)(a, b)
#define pg_fmin(a, b) PG_RG(pg_fmin, a)(a, b)
#define pg_sign(a) PG_RG(pg_sign, a)(a)
#define pg_fpow(a, b) PG_RG(pg_fpow, a)(a, b)
#define pg_logaddexp(a, b) PG_RG(pg_logaddexp, a)(a, b)
#define pg_logaddexp2(a, b) PG_RG(pg_logaddexp2, a)(a, b)
#define pg_heaviside(a, b) PG_RG(pg_heaviside, a)(a, b)
#define pg_clip(a, b, c) PG_RG(pg_clip, a)(a, b, c)
#endif

/* nextafter in binary16 for a value held in a float (float16 loops compute in float) */
PG_DEV float
pg_nextafter_half(float x, float y)
{
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    pg_half h = pg_float_to_half(x);
    if (x == 0)
        h = (pg_half)(1u | (signbit(y) ? 0x8000u : 0u));
    else if ((x < y) == (x > 0))
        h++;
    else
        h--;
    return pg_half_to_float(h);
}

/* ------------------------------------------------------------------ complex */

#define PG_COMPLEX_FUNCS(S, C, T)                                                              \
    PG_DEV C pg_cmake_##S(T re, T im) { C z; z.re = re; z.im = im; return z; }                 \
    PG_DEV C pg_cadd_##S(C a, C b) { return pg_cmake_##S(a.re + b.re, a.im + b.im); }          \
    PG_DEV C pg_csub_##S(C a, C b) { return pg_cmake_##S(a.re - b.re, a.im - b.im); }          \
    PG_DEV C pg_cmul_##S(C a, C b)                                                             \
    {                                                                                          \
        return pg_cmake_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);             \
    }                                                                                          \
    /* Smith's algorithm, as NumPy's complex division */                                      \
    PG_DEV_HEAVY C pg_cdiv_##S(C a, C b)                                                             \
    {                                                                                          \
        T abr = PG_FN1(fabs, b.re), abi = PG_FN1(fabs, b.im);                                  \
        if (abr >= abi) {                                                                      \
            if (abr == 0 && abi == 0)                                                          \
                return pg_cmake_##S(a.re / abr, a.im / abi);                                   \
            T rat = b.im / b.re, scl = (T)1 / (b.re + b.im * rat);                             \
            return pg_cmake_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);         \
        }                                                                                      \
        T rat = b.re / b.im, scl = (T)1 / (b.im + b.re * rat);                                 \
        return pg_cmake_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);             \
    }                                                                                          \
    PG_DEV C pg_cneg_##S(C a) { return pg_cmake_##S(-a.re, -a.im); }                           \
    PG_DEV C pg_cpos_##S(C a) { return a; }                                                    \
    PG_DEV C pg_cconj_##S(C a) { return pg_cmake_##S(a.re, -a.im); }                           \
    PG_DEV C pg_csquare_##S(C a) { return pg_cmul_##S(a, a); }                                 \
    /* NumPy's reciprocal, formula for formula (so 1/(1+0i) is 1-0i and 1/0 is NaN+NaNi) */    \
    PG_DEV C pg_crecip_##S(C a)                                                                \
    {                                                                                          \
        if (PG_FN1(fabs, a.im) <= PG_FN1(fabs, a.re)) {                                        \
            T r = a.im / a.re, d = a.re + a.im * r;                                            \
            return pg_cmake_##S((T)1 / d, -r / d);                                             \
        }                                                                                      \
        T r = a.re / a.im, d = a.re * r + a.im;                                                \
        return pg_cmake_##S(r / d, (T)-1 / d);                                                 \
    }                                                                                          \
    PG_DEV T pg_cabs_##S(C a) { return PG_HYPOT(a.re, a.im); }                                 \
    PG_DEV T pg_cangle_##S(C a) { return PG_FN2(atan2, a.im, a.re); }                          \
    /* NumPy's sign: z/|z|, 0 for 0, NaN for NaN; an infinite part gives +-1 (or NaN for two) */ \
    PG_DEV_HEAVY C pg_csign_##S(C a)                                                           \
    {                                                                                          \
        T r = pg_cabs_##S(a), n = (T)NAN;                                                      \
        if (isnan(r))                                                                          \
            return pg_cmake_##S(n, n);                                                         \
        if (isinf(r)) {                                                                        \
            if (isinf(a.re))                                                                   \
                return isinf(a.im) ? pg_cmake_##S(n, n) : pg_cmake_##S(a.re > 0 ? (T)1 : (T)-1, (T)0); \
            return pg_cmake_##S((T)0, a.im > 0 ? (T)1 : (T)-1);                                \
        }                                                                                      \
        if (r == 0)                                                                            \
            return pg_cmake_##S((T)0, (T)0);                                                   \
        return pg_cmake_##S(a.re / r, a.im / r);                                               \
    }                                                                                          \
    PG_DEV int pg_cisnan_##S(C a) { return isnan(a.re) || isnan(a.im); }       \
    PG_DEV int pg_cisinf_##S(C a) { return isinf(a.re) || isinf(a.im); }       \
    PG_DEV int pg_cisfinite_##S(C a) { return isfinite(a.re) && isfinite(a.im); } \
    PG_DEV int pg_cnz_##S(C a) { return a.re != 0 || a.im != 0; }                              \
    PG_DEV int pg_cland_##S(C a, C b) { return pg_cnz_##S(a) && pg_cnz_##S(b); }               \
    PG_DEV int pg_clor_##S(C a, C b) { return pg_cnz_##S(a) || pg_cnz_##S(b); }                \
    PG_DEV int pg_clxor_##S(C a, C b) { return pg_cnz_##S(a) != pg_cnz_##S(b); }               \
    PG_DEV int pg_clnot_##S(C a) { return !pg_cnz_##S(a); }                                    \
    PG_DEV int pg_ceq_##S(C a, C b) { return a.re == b.re && a.im == b.im; }                   \
    PG_DEV int pg_cne_##S(C a, C b) { return !(a.re == b.re && a.im == b.im); }                \
    /* NumPy's lexicographic order: a NaN imaginary part makes the real comparison false */     \
    PG_DEV int pg_clt_##S(C a, C b)                                                            \
    {                                                                                          \
        return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im < b.im); \
    }                                                                                          \
    PG_DEV int pg_cle_##S(C a, C b)                                                            \
    {                                                                                          \
        return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im <= b.im); \
    }                                                                                          \
    PG_DEV int pg_cgt_##S(C a, C b)                                                            \
    {                                                                                          \
        return (a.re > b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im > b.im); \
    }                                                                                          \
    PG_DEV int pg_cge_##S(C a, C b)                                                            \
    {                                                                                          \
        return (a.re > b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im >= b.im); \
    }                                                                                          \
    PG_DEV C pg_cmaximum_##S(C a, C b) { return (pg_cge_##S(a, b) || pg_cisnan_##S(a)) ? a : b; } \
    PG_DEV C pg_cminimum_##S(C a, C b) { return (pg_cle_##S(a, b) || pg_cisnan_##S(a)) ? a : b; } \
    PG_DEV C pg_cfmax_##S(C a, C b) { return (pg_cge_##S(a, b) || pg_cisnan_##S(b)) ? a : b; } \
    PG_DEV C pg_cfmin_##S(C a, C b) { return (pg_cle_##S(a, b) || pg_cisnan_##S(b)) ? a : b; } \
    PG_DEV C pg_crint_##S(C a) { return pg_cmake_##S(PG_FN1(rint, a.re), PG_FN1(rint, a.im)); } \
    PG_DEV_HEAVY C pg_cexp_##S(C a)                                                                  \
    {                                                                                          \
        if (isinf(a.re) && !isfinite(a.im)) {                                  \
            if (a.re < 0) /* exp(-inf + i y) for non-finite y: +-0 */                         \
                return pg_cmake_##S((T)0, (T)0);                                               \
            return pg_cmake_##S(a.re, a.im - a.im); /* (inf, nan) */                           \
        }                                                                                      \
        if (a.im == 0) /* exact for real arguments, keeps the sign of a zero imaginary part */ \
            return pg_cmake_##S(PG_FN1(exp, a.re), a.im);                                      \
        T e = PG_FN1(exp, a.re);                                                               \
        if (isinf(e)) { /* avoid inf * 0 = nan when cos or sin is tiny */              \
            T h = PG_FN1(exp, a.re * (T)0.5);                                                  \
            return pg_cmake_##S(h * PG_FN1(cos, a.im) * h, h * PG_FN1(sin, a.im) * h);         \
        }                                                                                      \
        return pg_cmake_##S(e * PG_FN1(cos, a.im), e * PG_FN1(sin, a.im));                     \
    }                                                                                          \
    /* the error of s = a + b, exactly (Knuth's TwoSum: no fma, no ordering of a and b) */     \
    PG_DEV T pg_sum_err_##S(T a, T b, T s)                                                     \
    {                                                                                          \
        T bb = s - a;                                                                          \
        return (a - (s - bb)) + (b - bb);                                                      \
    }                                                                                          \
    PG_DEV_HEAVY C pg_clog_##S(C a)                                                            \
    {                                                                                          \
        /* Re log z = log|z|: scaled by a power of two where |z| would overflow or lose bits as a \
         * subnormal; near |z| = 1 log1p(x^2 + y^2 - 1)/2, the sum taken from the exact squares \
         * (fma) and their exact sums, whose cancellation then loses nothing */                \
        const int f = sizeof(T) == 4;                                                          \
        T x = a.re, y = a.im, ax = PG_FN1(fabs, x), ay = PG_FN1(fabs, y), re;                  \
        T big = ax > ay ? ax : ay, sml = ax > ay ? ay : ax;                                    \
        if (big > (f ? (T)1e37 : (T)1e307) && !isinf(big)) {                                   \
            re = PG_FN1(log, PG_HYPOT(x * (T)0.5, y * (T)0.5)) + (T)PG_LN2;                    \
        } else if (big < (f ? (T)1.1754943508222875e-38 : (T)2.2250738585072014e-308) && big > 0) { \
            T up = f ? (T)16777216.0 : (T)18014398509481984.0; /* 2^24, 2^54 */                \
            re = PG_FN1(log, PG_HYPOT(x * up, y * up)) - (T)((f ? 24 : 54) * PG_LN2);          \
        } else {                                                                               \
            T p1 = big * big, p2 = sml * sml, q = p1 + p2;                                     \
            if (q >= (T)0.5 && q <= 2) {                                                       \
                /* x^2 + y^2 - 1 = (q - 1) + qe + e1 + e2, q - 1 exact (Sterbenz) */           \
                T e1 = PG_FN3(fma, big, big, -p1), e2 = PG_FN3(fma, sml, sml, -p2);            \
                T qe = pg_sum_err_##S(p1, p2, q), d = q - 1;                                   \
                T u = d + qe, v = e1 + e2, w = u + v;                                          \
                T c = pg_sum_err_##S(d, qe, u) + pg_sum_err_##S(e1, e2, v) + pg_sum_err_##S(u, v, w); \
                re = PG_FN1(log1p, w + c) * (T)0.5;                                            \
            } else {                                                                           \
                re = PG_FN1(log, PG_HYPOT(x, y));                                              \
            }                                                                                  \
        }                                                                                      \
        return pg_cmake_##S(re, PG_FN2(atan2, y, x));                                          \
    }                                                                                          \
    PG_DEV_HEAVY C pg_csqrt_##S(C a)                                                           \
    {                                                                                          \
        if (a.re == 0 && a.im == 0)                                                            \
            return pg_cmake_##S((T)0, a.im);                                                   \
        if (isinf(a.im))                                                                       \
            return pg_cmake_##S(PG_FN1(fabs, a.im), a.im);                                     \
        if (isnan(a.re))                                                                       \
            return pg_cmake_##S(a.re, a.im - a.im + a.re);                                     \
        if (isinf(a.re)) {                                                                     \
            if (a.re > 0) /* inf + i 0 with y's sign (inf - 1i gives inf - 0i), or inf + i NaN */ \
                return pg_cmake_##S(a.re, isnan(a.im) ? a.im : PG_FN2(copysign, (T)0, a.im));  \
            return pg_cmake_##S(PG_FN1(fabs, a.im - a.im), PG_FN2(copysign, -a.re, a.im));     \
        }                                                                                      \
        /* Kahan's formula, scaled by 1/4 near overflow, and by an even power of two (2^48, 2^108) \
         * where both parts are near the subnormals: |x| + |z| must be normal to keep its bits */ \
        const int f = sizeof(T) == 4;                                                          \
        T ar = a.re, ai = a.im, m = PG_FN1(fabs, ar) > PG_FN1(fabs, ai) ? PG_FN1(fabs, ar) : PG_FN1(fabs, ai); \
        T p = f ? (T)16777216.0 : (T)18014398509481984.0, k = 1;                               \
        if (m > (T)1e30) {                                                                     \
            ar *= (T)0.25;                                                                     \
            ai *= (T)0.25;                                                                     \
            k = 2;                                                                             \
        } else if (m < (f ? (T)4.7e-38 : (T)8.9e-308)) {                                       \
            ar *= p * p;                                                                       \
            ai *= p * p;                                                                       \
            k = (T)1 / p;                                                                      \
        }                                                                                      \
        T t = PG_FN1(sqrt, (PG_FN1(fabs, ar) + PG_HYPOT(ar, ai)) * (T)0.5);                    \
        T re, im;                                                                              \
        if (ar >= 0) {                                                                         \
            re = t;                                                                            \
            im = ai / (2 * t);                                                                 \
        } else {                                                                               \
            re = PG_FN1(fabs, ai) / (2 * t);                                                   \
            im = PG_FN2(copysign, t, ai);                                                      \
        }                                                                                      \
        return pg_cmake_##S(re * k, im * k);                                                   \
    }                                                                                          \
    PG_DEV_HEAVY C pg_cpow_##S(C a, C b)                                                             \
    {                                                                                          \
        if (b.re == 0 && b.im == 0)                                                            \
            return pg_cmake_##S((T)1, (T)0);                                                   \
        if (a.re == 0 && a.im == 0) { /* 0 ** b: 0 where Re b > 0 (NumPy 2), else NaN */       \
            if (b.re > 0)                                                                      \
                return pg_cmake_##S((T)0, (T)0);                                               \
            T n = (T)NAN;                                                                      \
            return pg_cmake_##S(n, n);                                                         \
        }                                                                                      \
        if (b.im == 0 && b.re == PG_FN1(floor, b.re) && PG_FN1(fabs, b.re) <= 100) {           \
            /* small integer powers by repeated multiplication, as NumPy does; 1, 2 and 3 without \
             * the product with 1 + 0i, which would make NaN of an infinite part (0 * inf) */    \
            int n = (int)b.re, m = n < 0 ? -n : n;                                             \
            if (n == 1)                                                                        \
                return a;                                                                      \
            if (n == 2)                                                                        \
                return pg_cmul_##S(a, a);                                                      \
            if (n == 3)                                                                        \
                return pg_cmul_##S(a, pg_cmul_##S(a, a));                                      \
            C r = pg_cmake_##S((T)1, (T)0), x = a;                                             \
            while (m) {                                                                        \
                if (m & 1)                                                                     \
                    r = pg_cmul_##S(r, x);                                                     \
                x = pg_cmul_##S(x, x);                                                         \
                m >>= 1;                                                                       \
            }                                                                                  \
            return n < 0 ? pg_cdiv_##S(pg_cmake_##S((T)1, (T)0), r) : r; /* 1/r by Smith's division */ \
        }                                                                                      \
        return pg_cexp_##S(pg_cmul_##S(b, pg_clog_##S(a)));                                    \
    }                                                                                          \
    PG_DEV_HEAVY C pg_cexp2_##S(C a)                                                                 \
    {                                                                                          \
        return pg_cexp_##S(pg_cmake_##S(a.re * (T)PG_LN2, a.im * (T)PG_LN2));                  \
    }                                                                                          \
    PG_DEV_HEAVY C pg_clog2_##S(C a)                                                                 \
    {                                                                                          \
        C l = pg_clog_##S(a);                                                                  \
        return pg_cmake_##S(l.re * (T)PG_LOG2E, l.im * (T)PG_LOG2E);                           \
    }                                                                                          \
    PG_DEV_HEAVY C pg_clog10_##S(C a)                                                                \
    {                                                                                          \
        C l = pg_clog_##S(a);                                                                  \
        T k = (T)0.434294481903251827651128918916605082;                                       \
        return pg_cmake_##S(l.re * k, l.im * k);                                               \
    }                                                                                          \
    PG_DEV_HEAVY C pg_cexpm1_##S(C a)                                                                \
    {                                                                                          \
        /* exp(x)(cos y) - 1 = expm1(x) cos y - 2 sin^2(y/2), accurate near 0 */              \
        if (!isfinite(a.re) || !isfinite(a.im)) {                              \
            C e = pg_cexp_##S(a);                                                              \
            return pg_cmake_##S(e.re - 1, e.im);                                               \
        }                                                                                      \
        T s = PG_FN1(sin, a.im * (T)0.5);                                                      \
        T re = PG_FN1(expm1, a.re) * PG_FN1(cos, a.im) - 2 * s * s;                            \
        return pg_cmake_##S(re, PG_FN1(exp, a.re) * PG_FN1(sin, a.im));                        \
    }                                                                                          \
    PG_DEV_HEAVY C pg_clog1p_##S(C a)                                                                \
    {                                                                                          \
        /* log|1+z| = log1p(2x + x^2 + y^2)/2 keeps small arguments accurate */               \
        T x = a.re, y = a.im;                                                                  \
        if (isfinite(x) && isfinite(y) && PG_FN1(fabs, x) < (T)0.5 &&          \
            PG_FN1(fabs, y) < (T)0.5)                                                          \
            return pg_cmake_##S(PG_FN1(log1p, x * (2 + x) + y * y) * (T)0.5,                   \
                                PG_FN2(atan2, y, x + 1));                                      \
        return pg_clog_##S(pg_cmake_##S(x + 1, y));                                            \
    }                                                                                          \
    /* multiplication by i and -i, for the identities between trig and hyperbolic functions */ \
    PG_DEV C pg_cmuli_##S(C a) { return pg_cmake_##S(-a.im, a.re); }                           \
    PG_DEV C pg_cmulni_##S(C a) { return pg_cmake_##S(a.im, -a.re); }                          \
    /* csinh, ccosh, ctanh and catanh with C99 Annex G's values for infinities, NaNs and signed \
     * zeros (G.6.2), as glibc's, which NumPy calls */                                       \
    PG_DEV_HEAVY C pg_csinh_##S(C a)                                                           \
    {                                                                                          \
        T x = a.re, y = a.im;                                                                  \
        if (isfinite(x) && isfinite(y)) {                                                      \
            if (y == 0) /* sinh(x) + i y: no inf * 0 for large x */                            \
                return pg_cmake_##S(PG_FN1(sinh, x), y);                                       \
            return pg_cmake_##S(PG_FN1(sinh, x) * PG_FN1(cos, y), PG_FN1(cosh, x) * PG_FN1(sin, y)); \
        }                                                                                      \
        if (x == 0) /* +-0 + i inf or NaN: +-0 + i NaN */                                       \
            return pg_cmake_##S(x, y - y);                                                     \
        if (isfinite(x))                                                                       \
            return pg_cmake_##S(y - y, y - y);                                                 \
        if (isinf(x)) {                                                                        \
            if (y == 0)                                                                        \
                return pg_cmake_##S(x, y);                                                     \
            if (isfinite(y))                                                                   \
                return pg_cmake_##S(x * PG_FN1(cos, y), PG_FN1(fabs, x) * PG_FN1(sin, y));     \
            return pg_cmake_##S(PG_FN1(fabs, x), y - y);                                       \
        }                                                                                      \
        return pg_cmake_##S(x, y == 0 ? y : x);                                                \
    }                                                                                          \
    PG_DEV_HEAVY C pg_ccosh_##S(C a)                                                           \
    {                                                                                          \
        T x = a.re, y = a.im;                                                                  \
        if (isfinite(x) && isfinite(y)) {                                                      \
            if (y == 0) /* cosh(x) + i 0 with the sign of x y: no inf * 0 for large x */       \
                return pg_cmake_##S(PG_FN1(cosh, x), PG_FN2(copysign, (T)1, x) * y);           \
            return pg_cmake_##S(PG_FN1(cosh, x) * PG_FN1(cos, y), PG_FN1(sinh, x) * PG_FN1(sin, y)); \
        }                                                                                      \
        if (x == 0) /* +-0 + i inf or NaN: NaN + i 0 */                                         \
            return pg_cmake_##S(y - y, (T)0);                                                  \
        if (isfinite(x))                                                                       \
            return pg_cmake_##S(y - y, y - y);                                                 \
        if (isinf(x)) {                                                                        \
            if (y == 0)                                                                        \
                return pg_cmake_##S(PG_FN1(fabs, x), PG_FN2(copysign, (T)1, x) * y);           \
            if (isfinite(y))                                                                   \
                return pg_cmake_##S(PG_FN1(fabs, x) * PG_FN1(cos, y), x * PG_FN1(sin, y));     \
            return pg_cmake_##S(PG_FN1(fabs, x), y - y);                                       \
        }                                                                                      \
        return pg_cmake_##S(x, y == 0 ? y : x);                                                \
    }                                                                                          \
    PG_DEV_HEAVY C pg_ctanh_##S(C a)                                                           \
    {                                                                                          \
        T x = a.re, y = a.im;                                                                  \
        if (isnan(x))                                                                          \
            return pg_cmake_##S(x, y == 0 ? y : x);                                            \
        if (isinf(x)) /* +-1 + i 0 with the sign of sin 2y */                                  \
            return pg_cmake_##S(PG_FN2(copysign, (T)1, x),                                     \
                                PG_FN2(copysign, (T)0, isfinite(y) ? PG_FN1(sin, y) * PG_FN1(cos, y) : y)); \
        if (!isfinite(y))                                                                      \
            return pg_cmake_##S(x == 0 ? x : y - y, y - y);                                    \
        if (PG_FN1(fabs, x) > (T)22) {                                                         \
            /* tanh x is +-1 to the precision; Im = 4 sin y cos y e^-2|x| stays representable */ \
            T e = PG_FN1(exp, -PG_FN1(fabs, x));                                               \
            return pg_cmake_##S(PG_FN2(copysign, (T)1, x), 4 * PG_FN1(sin, y) * PG_FN1(cos, y) * e * e); \
        }                                                                                      \
        /* Kahan's formulation */                                                              \
        T t = PG_FN1(tan, y), beta = 1 + t * t, s = PG_FN1(sinh, x);                           \
        T rho = PG_FN1(sqrt, 1 + s * s), den = 1 + beta * s * s;                               \
        return pg_cmake_##S(beta * rho * s / den, t / den);                                    \
    }                                                                                          \
    PG_DEV C pg_csin_##S(C a)                                                                  \
    {                                                                                          \
        C r = pg_cmulni_##S(pg_csinh_##S(pg_cmuli_##S(a)));                                    \
        if (isnan(r.re) && isinf(r.im)) /* NaN + i inf, as glibc's csin (the sign is free) */  \
            r.im = PG_FN1(fabs, r.im);                                                         \
        return r;                                                                              \
    }                                                                                          \
    PG_DEV C pg_ccos_##S(C a) { return pg_ccosh_##S(pg_cmuli_##S(a)); }                        \
    PG_DEV C pg_ctan_##S(C a) { return pg_cmulni_##S(pg_ctanh_##S(pg_cmuli_##S(a))); }         \
    /* Hull, Fairgrieve and Tang's asin and acos (ACM TOMS 23(3), 1997) for x, y >= 0:         \
     * asin(x + iy) = *ras + i *im and acos(x + iy) = *rac - i *im, from A = (|z+1| + |z-1|)/2 \
     * (im = acosh A) and B = x/A (ras = asin B), with A - 1 and 1 - B written without their   \
     * cancellations; asin z = z where |z|^2 < eps, -i log(2iz) where 1/|z|^2 < eps (infinities \
     * included) */                                                                            \
    PG_DEV_HEAVY void pg_casin_xy_##S(T x, T y, T *ras, T *rac, T *im)                         \
    {                                                                                          \
        const int f = sizeof(T) == 4;                                                          \
        if (x > (f ? (T)1e5 : (T)1e9) || y > (f ? (T)1e5 : (T)1e9)) {                          \
            *ras = PG_FN2(atan2, x, y);                                                        \
            *rac = PG_FN2(atan2, y, x);                                                        \
            *im = pg_clog_##S(pg_cmake_##S(x, y)).re + (T)PG_LN2;                              \
            return;                                                                            \
        }                                                                                      \
        if (x < (f ? (T)1.2e-4 : (T)3.7e-9) && y < (f ? (T)1.2e-4 : (T)3.7e-9)) {              \
            *ras = x;                                                                          \
            *rac = (T)(PG_PI / 2) - x;                                                         \
            *im = y;                                                                           \
            return;                                                                            \
        }                                                                                      \
        T r = PG_HYPOT(x + 1, y), s = PG_HYPOT(x - 1, y), A = (r + s) * (T)0.5, B = x / A, y2 = y * y; \
        if (y < (f ? (T)1e-18 : (T)1e-150)) /* y^2 negligible (or subnormal): A - 1 from x alone */ \
            *im = x < 1 ? y / PG_FN1(sqrt, (1 - x) * (1 + x))                                  \
                : x == 1 ? PG_FN1(sqrt, y) : PG_FN1(log1p, (x - 1) + PG_FN1(sqrt, (x - 1) * (x + 1))); \
        else { /* acosh A = log1p(A - 1 + sqrt((A - 1)(A + 1))), A - 1 from sums of positive terms */ \
            T am1 = (y2 / (r + (x + 1)) + (x < 1 ? y2 / (s + (1 - x)) : s + (x - 1))) * (T)0.5; \
            *im = PG_FN1(log1p, am1 + PG_FN1(sqrt, am1 * (A + 1)));                            \
        }                                                                                      \
        if (B <= (T)0.6417) {                                                                  \
            *ras = PG_FN1(asin, B);                                                            \
            *rac = PG_FN1(acos, B);                                                            \
            return;                                                                            \
        }                                                                                      \
        /* d/x = tan(acos B) */                                                                \
        T d = x <= 1 ? PG_FN1(sqrt, (A + x) * (T)0.5 * (y2 / (r + (x + 1)) + (s + (1 - x))))   \
                     : y * PG_FN1(sqrt, ((A + x) / (r + (x + 1)) + (A + x) / (s + (x - 1))) * (T)0.5); \
        *ras = PG_FN2(atan2, x, d);                                                            \
        *rac = PG_FN2(atan2, d, x);                                                            \
    }                                                                                          \
    /* asinh(x + iy) = -i asin(i (x + iy)): C99 Annex G's values for NaNs (as glibc's), the rest \
     * from asin(|y| + i|x|) with the signs of z */                                            \
    PG_DEV_HEAVY C pg_casinh_##S(C a)                                                          \
    {                                                                                          \
        T x = a.re, y = a.im, ras, rac, im;                                                    \
        if (isnan(x) || isnan(y)) {                                                            \
            if (isinf(x))                                                                      \
                return pg_cmake_##S(x, y);                                                     \
            if (isinf(y))                                                                      \
                return pg_cmake_##S(PG_FN1(fabs, y), x);                                       \
            if (y == 0)                                                                        \
                return pg_cmake_##S(x, y);                                                     \
            return pg_cmake_##S(x + y, x + y);                                                 \
        }                                                                                      \
        pg_casin_xy_##S(PG_FN1(fabs, y), PG_FN1(fabs, x), &ras, &rac, &im);                    \
        return pg_cmake_##S(PG_FN2(copysign, im, x), PG_FN2(copysign, ras, y));                \
    }                                                                                          \
    PG_DEV C pg_casin_##S(C a)                                                                 \
    {                                                                                          \
        C r = pg_cmulni_##S(pg_casinh_##S(pg_cmuli_##S(a)));                                   \
        if (isinf(a.re) && isnan(a.im)) /* NaN + i inf, as glibc's casin */                    \
            r.im = PG_FN1(fabs, r.im);                                                         \
        return r;                                                                              \
    }                                                                                          \
    PG_DEV_HEAVY C pg_cacos_##S(C a)                                                           \
    {                                                                                          \
        /* acos(x + iy) from acos(|x| + i|y|): pi minus it for x < 0, the imaginary sign -y's */ \
        T x = a.re, y = a.im, ras, rac, im, n = (T)NAN;                                        \
        if (isnan(x) || isnan(y)) {                                                            \
            if (isinf(x))                                                                      \
                return pg_cmake_##S(y, -(T)INFINITY);                                          \
            if (isinf(y))                                                                      \
                return pg_cmake_##S(x, -y);                                                    \
            if (x == 0)                                                                        \
                return pg_cmake_##S((T)(PG_PI / 2), y);                                        \
            return pg_cmake_##S(n, n);                                                         \
        }                                                                                      \
        pg_casin_xy_##S(PG_FN1(fabs, x), PG_FN1(fabs, y), &ras, &rac, &im);                    \
        return pg_cmake_##S(PG_SIGNBIT(x) ? (T)PG_PI - rac : rac, -PG_FN2(copysign, im, y));   \
    }                                                                                          \
    PG_DEV_HEAVY C pg_cacosh_##S(C a)                                                          \
    {                                                                                          \
        /* acosh z = +-i acos z with a non-negative real part: acosh(x + iy) = im + i (+-rac), \
         * the sign y's, from the same parts as acos (so the branch follows z's signs, not the \
         * rounding of a computed real part) */                                                \
        T x = a.re, y = a.im, ras, rac, im, n = (T)NAN;                                        \
        if (isnan(x) || isnan(y)) {                                                            \
            if (isinf(x) || isinf(y))                                                          \
                return pg_cmake_##S((T)INFINITY, n);                                           \
            if (x == 0)                                                                        \
                return pg_cmake_##S(n, (T)(PG_PI / 2));                                        \
            return pg_cmake_##S(n, n);                                                         \
        }                                                                                      \
        pg_casin_xy_##S(PG_FN1(fabs, x), PG_FN1(fabs, y), &ras, &rac, &im);                    \
        return pg_cmake_##S(im, PG_FN2(copysign, PG_SIGNBIT(x) ? (T)PG_PI - rac : rac, y));    \
    }                                                                                          \
    PG_DEV_HEAVY C pg_catanh_##S(C a)                                                          \
    {                                                                                          \
        /* as FreeBSD's catanh (Hull, Fairgrieve and Tang's analysis): the real part from      \
         * log1p(4|x| / ((|x| - 1)^2 + y^2)) / 4, the imaginary from atan2, the signs from z */ \
        T x = a.re, y = a.im, ax = PG_FN1(fabs, x), ay = PG_FN1(fabs, y);                      \
        const T eps = sizeof(T) == 4 ? (T)1.1920928955078125e-7 : (T)2.220446049250313e-16;    \
        if (y == 0 && ax <= 1)                                                                 \
            return pg_cmake_##S(PG_FN1(atanh, x), y);                                          \
        if (x == 0) /* +-0 + i NaN stays so */                                                 \
            return pg_cmake_##S(x, isnan(y) ? y : PG_FN1(atan, y));                            \
        if (isnan(x) || isnan(y)) {                                                            \
            if (isinf(x))                                                                      \
                return pg_cmake_##S(PG_FN2(copysign, (T)0, x), y + y);                         \
            if (isinf(y))                                                                      \
                return pg_cmake_##S(PG_FN2(copysign, (T)0, x), PG_FN2(copysign, (T)(PG_PI / 2), y)); \
            return pg_cmake_##S(x + y, x + y);                                                 \
        }                                                                                      \
        if (ax > 1 / eps || ay > 1 / eps) { /* atanh z ~ 1/z: Re x/|z|^2, Im +-pi/2 */          \
            /* x/|z|^2 as (x/h)/4/h, h = |z|/2: no overflow of |z|, no early underflow */      \
            T h = PG_HYPOT(ax * (T)0.5, ay * (T)0.5);                                          \
            T re = (isinf(x) || isinf(y)) ? (T)0 : ax / h * (T)0.25 / h;                       \
            return pg_cmake_##S(PG_FN2(copysign, re, x), PG_FN2(copysign, (T)(PG_PI / 2), y)); \
        }                                                                                      \
        T rx, ry;                                                                              \
        if (ax == 1 && ay < PG_FN1(sqrt, eps) / 2)                                             \
            rx = ((T)PG_LN2 - PG_FN1(log, ay)) / 2;                                            \
        else                                                                                   \
            rx = PG_FN1(log1p, 4 * ax / ((ax - 1) * (ax - 1) + ay * ay)) / 4;                  \
        if (ax == 1)                                                                           \
            ry = PG_FN2(atan2, (T)2, -ay) / 2;                                                 \
        else if (ay < eps)                                                                     \
            ry = PG_FN2(atan2, 2 * ay, (1 - ax) * (1 + ax)) / 2;                               \
        else                                                                                   \
            ry = PG_FN2(atan2, 2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;                     \
        return pg_cmake_##S(PG_FN2(copysign, rx, x), PG_FN2(copysign, ry, y));                 \
    }                                                                                          \
    /* atan z = swap(atanh(swap z)), swap(x + iy) = y + ix, as FreeBSD's and NumPy's catan: no \
     * negation of a NaN part, whose sign a GPU need not keep (-NaN was +NaN on an H200), and    \
     * the zero of atan(inf + i NaN) takes the NaN's sign as NumPy's does */                   \
    PG_DEV C pg_catan_##S(C a)                                                                 \
    {                                                                                          \
        C r = pg_catanh_##S(pg_cmake_##S(a.im, a.re));                                         \
        return pg_cmake_##S(r.im, r.re);                                                       \
    }

PG_COMPLEX_FUNCS(c64, pg_complex64, float)
PG_COMPLEX_FUNCS(c128, pg_complex128, double)

#endif
