/* <cupy/float16.cuh> for the kernels of pygpu's users, on a GPU (NVRTC) and on the CPU: CuPy's
 * float16, the type ElementwiseKernel and ReductionKernel give float16 parameters. It holds
 * binary16 bits and reads as a float, so arithmetic runs in float and an assignment rounds back
 * (the sum, difference, product or quotient of two float16 computed in float and rounded is the
 * correctly rounded float16 one, NumPy's); every number converts by rounding to nearest even, a
 * double directly (not through float, which could round twice). Embedded and written for the
 * compilers as user_complex.h is. */
#ifndef PG_USER_FLOAT16_H
#define PG_USER_FLOAT16_H

#include "pg_math_unpolled.h"

#ifdef PYGPU_CPU
#define PG_F16_FN inline __attribute__((always_inline))
#else
#define PG_F16_FN __host__ __device__ __forceinline__
#endif

class float16 {
    pg_half bits_;

  public:
    PG_F16_FN float16() : bits_(0) {}
    PG_F16_FN float16(float v) : bits_(pg_float_to_half(v)) {}
    PG_F16_FN float16(double v) : bits_(pg_double_to_half(v)) {}
    PG_F16_FN float16(bool v) : bits_(v ? 0x3c00u : 0u) {}
#define PG_F16_FROM(T) \
    PG_F16_FN float16(T v) : bits_(pg_double_to_half((double)v)) {}
    PG_F16_FROM(char)
    PG_F16_FROM(signed char)
    PG_F16_FROM(unsigned char)
    PG_F16_FROM(short)
    PG_F16_FROM(unsigned short)
    PG_F16_FROM(int)
    PG_F16_FROM(unsigned int)
    PG_F16_FROM(long)
    PG_F16_FROM(unsigned long)
    PG_F16_FROM(long long)
    PG_F16_FROM(unsigned long long)
#undef PG_F16_FROM
    PG_F16_FN operator float() const { return pg_half_to_float(bits_); }

    PG_F16_FN unsigned short as_bits() const { return bits_; }
    static PG_F16_FN float16 from_bits(unsigned short bits)
    {
        float16 h;
        h.bits_ = bits;
        return h;
    }
    PG_F16_FN float16 &operator+=(float v) { return *this = float16(float(*this) + v); }
    PG_F16_FN float16 &operator-=(float v) { return *this = float16(float(*this) - v); }
    PG_F16_FN float16 &operator*=(float v) { return *this = float16(float(*this) * v); }
    PG_F16_FN float16 &operator/=(float v) { return *this = float16(float(*this) / v); }
};

static PG_F16_FN bool isnan(float16 x) { return (x.as_bits() & 0x7fffu) > 0x7c00u; }
static PG_F16_FN bool isinf(float16 x) { return (x.as_bits() & 0x7fffu) == 0x7c00u; }
static PG_F16_FN bool isfinite(float16 x) { return (x.as_bits() & 0x7c00u) != 0x7c00u; }
static PG_F16_FN bool signbit(float16 x) { return (x.as_bits() & 0x8000u) != 0; }
static PG_F16_FN float16 copysign(float16 x, float16 y)
{
    return float16::from_bits((unsigned short)((x.as_bits() & 0x7fffu) | (y.as_bits() & 0x8000u)));
}
static PG_F16_FN bool iszero(float16 x) { return (x.as_bits() & 0x7fffu) == 0; }
/* CuPy's: float16 in, float16 out */
static PG_F16_FN float16 min(float16 x, float16 y) { return float16(::fminf(float(x), float(y))); }
static PG_F16_FN float16 max(float16 x, float16 y) { return float16(::fmaxf(float(x), float(y))); }
static PG_F16_FN float16 fmin(float16 x, float16 y) { return float16(::fminf(float(x), float(y))); }
static PG_F16_FN float16 fmax(float16 x, float16 y) { return float16(::fmaxf(float(x), float(y))); }
/* the next float16, not the next float */
static PG_F16_FN float16 nextafter(float16 x, float16 y) { return float16(pg_nextafter_half(float(x), float(y))); }

#endif
