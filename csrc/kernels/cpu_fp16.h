/* CUDA's <cuda_fp16.h> for kernels compiled for the CPU (the toolkit's compiles under NVCC and
 * NVRTC only): __half and __half2 with their operators, and the conversions, arithmetic,
 * comparisons and math functions kernels use most. Arithmetic runs in float and rounds to
 * nearest even, which for + - * / is the correctly rounded binary16 result, as the GPU's
 * instructions give; the functions (hexp, hsin, ...) are float's rounded, within an ulp of CUDA's.
 * Conversions other than round-to-nearest name their mode (_rz truncates, _rd/_ru floor/ceil). */
#ifndef PG_CPU_FP16_H
#define PG_CPU_FP16_H
#ifndef PYGPU_CPU
#error "pygpu's cuda_fp16.h is for the CPU backend: NVRTC and NVCC have CUDA's"
#endif

#include "pg_math_unpolled.h" /* (half.h) */

#define PG_H static inline __attribute__((always_inline))

struct __half_raw {
    unsigned short x;
};
struct __half2_raw {
    unsigned short x, y;
};

struct alignas(2) __half {
    unsigned short __x;

    __half() = default;
    __half(const __half_raw &r) : __x(r.x) {}
    __half(float f) : __x(pg_float_to_half(f)) {}
    __half(double d) : __x(pg_double_to_half(d)) {}
    __half(int v) : __x(pg_double_to_half((double)v)) {}
    __half(unsigned int v) : __x(pg_double_to_half((double)v)) {}
    __half(short v) : __x(pg_double_to_half((double)v)) {}
    __half(unsigned short v) : __x(pg_double_to_half((double)v)) {}
    __half(long long v) : __x(pg_double_to_half((double)v)) {}
    __half(unsigned long long v) : __x(pg_double_to_half((double)v)) {}
    __half(long v) : __x(pg_double_to_half((double)v)) {}
    __half(unsigned long v) : __x(pg_double_to_half((double)v)) {}
    operator float() const { return pg_half_to_float(__x); }
    operator __half_raw() const
    {
        __half_raw r;
        r.x = __x;
        return r;
    }
    __half &operator=(const __half_raw &r)
    {
        __x = r.x;
        return *this;
    }
};

struct alignas(4) __half2 {
    __half x, y;

    __half2() = default;
    __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __half2(const __half2_raw &r)
    {
        x.__x = r.x;
        y.__x = r.y;
    }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;

PG_H __half pg_h(float f) { return __half(f); }
PG_H __half pg_h_bits(unsigned short b)
{
    __half h;
    h.__x = b;
    return h;
}
PG_H float pg_f(__half h) { return pg_half_to_float(h.__x); }

/* ------------------------------------------------------------------ conversions */
PG_H __half __float2half(float f) { return pg_h(f); }
PG_H __half __float2half_rn(float f) { return pg_h(f); }
PG_H __half __double2half(double d) { return __half(d); }
PG_H float __half2float(__half h) { return pg_f(h); }
/* the float16 that does not exceed f in magnitude (rz), or the neighbour below or above (rd, ru) */
PG_H __half __float2half_rz(float f)
{
    __half h = pg_h(f);
    float back = pg_f(h);
    if (isfinite(f) && fabsf(back) > fabsf(f))
        h.__x = (unsigned short)(h.__x - 1); /* one step towards zero, whatever the sign */
    return h;
}
/* the float16 after h towards +inf (up) or -inf: a step of its bits away from or towards zero */
PG_H __half pg_h_step(__half h, bool up)
{
    if ((h.__x & 0x7fffu) == 0)
        return pg_h_bits(up ? 0x0001u : 0x8001u);
    bool away = up == ((h.__x & 0x8000u) == 0);
    return pg_h_bits((unsigned short)(away ? h.__x + 1 : h.__x - 1));
}
PG_H __half __float2half_rd(float f)
{
    __half h = pg_h(f);
    return isfinite(f) && pg_f(h) > f ? pg_h_step(h, false) : h;
}
PG_H __half __float2half_ru(float f)
{
    __half h = pg_h(f);
    return isfinite(f) && pg_f(h) < f ? pg_h_step(h, true) : h;
}
PG_H __half2 __float2half2_rn(float f) { return __half2(pg_h(f), pg_h(f)); }
PG_H __half2 __floats2half2_rn(float a, float b) { return __half2(pg_h(a), pg_h(b)); }
PG_H __half2 __float22half2_rn(float2 v) { return __half2(pg_h(v.x), pg_h(v.y)); }
PG_H float2 __half22float2(__half2 v) { return make_float2(pg_f(v.x), pg_f(v.y)); }
PG_H float __low2float(__half2 v) { return pg_f(v.x); }
PG_H float __high2float(__half2 v) { return pg_f(v.y); }
PG_H __half __low2half(__half2 v) { return v.x; }
PG_H __half __high2half(__half2 v) { return v.y; }
PG_H __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
PG_H __half2 __half2half2(__half a) { return __half2(a, a); }
PG_H __half2 make_half2(__half a, __half b) { return __half2(a, b); }
PG_H __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
PG_H __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
PG_H __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
PG_H short __half_as_short(__half h) { return (short)h.__x; }
PG_H unsigned short __half_as_ushort(__half h) { return h.__x; }
PG_H __half __short_as_half(short s) { return pg_h_bits((unsigned short)s); }
PG_H __half __ushort_as_half(unsigned short s) { return pg_h_bits(s); }
/* to integers: _rn to nearest even, _rz truncated, _rd floor, _ru ceil; NaN gives 0 and values
 * past the type saturate, as CUDA's conversions */
#define PG_H2INT(T, NAME, LO, HI)                                                                 \
    PG_H T pg_sat_##NAME(float f)                                                                 \
    {                                                                                             \
        if (f != f)                                                                               \
            return 0;                                                                             \
        if (f <= (float)(LO))                                                                     \
            return (T)(LO);                                                                       \
        if (f >= (float)(HI))                                                                     \
            return (T)(HI);                                                                       \
        return (T)f;                                                                              \
    }                                                                                             \
    PG_H T __half2##NAME##_rn(__half h) { return pg_sat_##NAME(rintf(pg_f(h))); }                 \
    PG_H T __half2##NAME##_rz(__half h) { return pg_sat_##NAME(truncf(pg_f(h))); }                \
    PG_H T __half2##NAME##_rd(__half h) { return pg_sat_##NAME(floorf(pg_f(h))); }                \
    PG_H T __half2##NAME##_ru(__half h) { return pg_sat_##NAME(ceilf(pg_f(h))); }                 \
    PG_H __half __##NAME##2half_rn(T v) { return __half((double)v); }
PG_H2INT(int, int, INT32_MIN, INT32_MAX)
PG_H2INT(unsigned int, uint, 0, UINT32_MAX)
PG_H2INT(short, short, INT16_MIN, INT16_MAX)
PG_H2INT(unsigned short, ushort, 0, UINT16_MAX)
PG_H2INT(long long, ll, INT64_MIN, INT64_MAX)
PG_H2INT(unsigned long long, ull, 0, UINT64_MAX)
#undef PG_H2INT

/* ------------------------------------------------------------------ arithmetic */
PG_H __half __hadd(__half a, __half b) { return pg_h(pg_f(a) + pg_f(b)); }
PG_H __half __hsub(__half a, __half b) { return pg_h(pg_f(a) - pg_f(b)); }
PG_H __half __hmul(__half a, __half b) { return pg_h(pg_f(a) * pg_f(b)); }
PG_H __half __hdiv(__half a, __half b) { return pg_h(pg_f(a) / pg_f(b)); }
PG_H __half __hneg(__half a) { return pg_h_bits((unsigned short)(a.__x ^ 0x8000u)); }
PG_H __half __habs(__half a) { return pg_h_bits((unsigned short)(a.__x & 0x7fffu)); }
/* a * b is exact in double and so is the sum's rounding to double, up to the rare tie */
PG_H __half __hfma(__half a, __half b, __half c) { return __half((double)pg_f(a) * pg_f(b) + pg_f(c)); }
PG_H __half __hadd_sat(__half a, __half b) { return pg_h(fminf(fmaxf(pg_f(a) + pg_f(b), 0.0f), 1.0f)); }
PG_H __half __hmul_sat(__half a, __half b) { return pg_h(fminf(fmaxf(pg_f(a) * pg_f(b), 0.0f), 1.0f)); }
PG_H __half __hmax(__half a, __half b) { return pg_h(fmaxf(pg_f(a), pg_f(b))); }
PG_H __half __hmin(__half a, __half b) { return pg_h(fminf(pg_f(a), pg_f(b))); }
#define PG_H2_BINARY(NAME) \
    PG_H __half2 NAME##2(__half2 a, __half2 b) { return __half2(NAME(a.x, b.x), NAME(a.y, b.y)); }
PG_H2_BINARY(__hadd)
PG_H2_BINARY(__hsub)
PG_H2_BINARY(__hmul)
PG_H2_BINARY(__hmax)
PG_H2_BINARY(__hmin)
#undef PG_H2_BINARY
PG_H __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
PG_H __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
PG_H __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
PG_H __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }

/* ------------------------------------------------------------------ comparisons */
PG_H bool __heq(__half a, __half b) { return pg_f(a) == pg_f(b); }
PG_H bool __hne(__half a, __half b) { return pg_f(a) < pg_f(b) || pg_f(a) > pg_f(b); }
PG_H bool __hlt(__half a, __half b) { return pg_f(a) < pg_f(b); }
PG_H bool __hle(__half a, __half b) { return pg_f(a) <= pg_f(b); }
PG_H bool __hgt(__half a, __half b) { return pg_f(a) > pg_f(b); }
PG_H bool __hge(__half a, __half b) { return pg_f(a) >= pg_f(b); }
PG_H bool __hequ(__half a, __half b) { return !(pg_f(a) < pg_f(b) || pg_f(a) > pg_f(b)); }
PG_H bool __hneu(__half a, __half b) { return !(pg_f(a) == pg_f(b)); }
PG_H bool __hltu(__half a, __half b) { return !(pg_f(a) >= pg_f(b)); }
PG_H bool __hleu(__half a, __half b) { return !(pg_f(a) > pg_f(b)); }
PG_H bool __hgtu(__half a, __half b) { return !(pg_f(a) <= pg_f(b)); }
PG_H bool __hgeu(__half a, __half b) { return !(pg_f(a) < pg_f(b)); }
PG_H bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
/* -1 for -inf, 1 for +inf, 0 otherwise */
PG_H int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }

/* ------------------------------------------------------------------ operators */
PG_H __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
PG_H __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
PG_H __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
PG_H __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
PG_H __half operator-(const __half &a) { return __hneg(a); }
PG_H __half operator+(const __half &a) { return a; }
PG_H __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
PG_H __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
PG_H __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
PG_H __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
PG_H bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
PG_H bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
PG_H bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
PG_H bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
PG_H bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
PG_H bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }
PG_H __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
PG_H __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
PG_H __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
PG_H __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
PG_H __half2 operator-(const __half2 &a) { return __hneg2(a); }
PG_H __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
PG_H __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
PG_H __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
PG_H __half2 &operator/=(__half2 &a, const __half2 &b) { return a = __h2div(a, b); }

/* ------------------------------------------------------------------ math */
#define PG_H_MATH(NAME, EXPR) \
    PG_H __half h##NAME(__half a) { float x = pg_f(a); return pg_h(EXPR); } \
    PG_H __half2 h2##NAME(__half2 a) { return __half2(h##NAME(a.x), h##NAME(a.y)); }
PG_H_MATH(sqrt, sqrtf(x))
PG_H_MATH(rsqrt, 1.0f / sqrtf(x))
PG_H_MATH(rcp, 1.0f / x)
PG_H_MATH(exp, expf(x))
PG_H_MATH(exp2, exp2f(x))
PG_H_MATH(exp10, powf(10.0f, x))
PG_H_MATH(log, logf(x))
PG_H_MATH(log2, log2f(x))
PG_H_MATH(log10, log10f(x))
PG_H_MATH(sin, sinf(x))
PG_H_MATH(cos, cosf(x))
PG_H_MATH(tanh, tanhf(x))
PG_H_MATH(trunc, truncf(x))
PG_H_MATH(ceil, ceilf(x))
PG_H_MATH(floor, floorf(x))
PG_H_MATH(rint, rintf(x))
#undef PG_H_MATH

/* ------------------------------------------------------------------ the rest of the API:
 * half2 comparisons as half2 (1.0 or 0.0 per lane), as masks and as bools,
 * saturated, ReLU, NaN-propagating and _rn (never contracted: all are) arithmetic, integers to
 * half with each rounding, and the atomics (a compare-and-swap on the 32-bit word) */
/* __h<op>2 (1.0 or 0.0 per lane), __h<op>2_mask and __hb<op>2 (both lanes) of the comparison __h<op> */
#define PG_H2_CMP(OP)                                                                             \
    PG_H __half2 __h##OP##2(__half2 a, __half2 b)                                                 \
    {                                                                                             \
        return __half2(pg_h_bits(__h##OP(a.x, b.x) ? 0x3c00u : 0u), pg_h_bits(__h##OP(a.y, b.y) ? 0x3c00u : 0u)); \
    }                                                                                             \
    PG_H unsigned int __h##OP##2_mask(__half2 a, __half2 b)                                       \
    {                                                                                             \
        return (__h##OP(a.x, b.x) ? 0xffffu : 0u) | (__h##OP(a.y, b.y) ? 0xffff0000u : 0u);       \
    }                                                                                             \
    PG_H bool __hb##OP##2(__half2 a, __half2 b) { return __h##OP(a.x, b.x) && __h##OP(a.y, b.y); }
PG_H2_CMP(eq)
PG_H2_CMP(ne)
PG_H2_CMP(lt)
PG_H2_CMP(le)
PG_H2_CMP(gt)
PG_H2_CMP(ge)
PG_H2_CMP(equ)
PG_H2_CMP(neu)
PG_H2_CMP(ltu)
PG_H2_CMP(leu)
PG_H2_CMP(gtu)
PG_H2_CMP(geu)
#undef PG_H2_CMP
PG_H __half2 __hisnan2(__half2 a)
{
    return __half2(pg_h_bits(__hisnan(a.x) ? 0x3c00u : 0u), pg_h_bits(__hisnan(a.y) ? 0x3c00u : 0u));
}
PG_H __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
PG_H __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
PG_H __half pg_h_sat(__half h) { return __hisnan(h) ? pg_h_bits(0) : pg_h(fminf(fmaxf(pg_f(h), 0.0f), 1.0f)); }
PG_H __half pg_h_relu(__half h) { return __hisnan(h) ? pg_h_bits(0x7fffu) : pg_f(h) < 0.0f ? pg_h_bits(0) : h; }
PG_H __half __hsub_sat(__half a, __half b) { return pg_h_sat(__hsub(a, b)); }
PG_H __half __hfma_sat(__half a, __half b, __half c) { return pg_h_sat(__hfma(a, b, c)); }
PG_H __half __hfma_relu(__half a, __half b, __half c) { return pg_h_relu(__hfma(a, b, c)); }
PG_H __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }
PG_H __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
PG_H __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
PG_H __half __hmax_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmax(a, b); }
PG_H __half __hmin_nan(__half a, __half b) { return __hisnan(a) ? a : __hisnan(b) ? b : __hmin(a, b); }
#define PG_H2_LANES(NAME) \
    PG_H __half2 NAME##2(__half2 a, __half2 b) { return __half2(NAME(a.x, b.x), NAME(a.y, b.y)); }
#define PG_H2_LANES_SUFFIX(NAME, SUFFIX) \
    PG_H __half2 NAME##2##SUFFIX(__half2 a, __half2 b) { return __half2(NAME##SUFFIX(a.x, b.x), NAME##SUFFIX(a.y, b.y)); }
PG_H2_LANES_SUFFIX(__hadd, _sat)
PG_H2_LANES_SUFFIX(__hsub, _sat)
PG_H2_LANES_SUFFIX(__hmul, _sat)
PG_H2_LANES_SUFFIX(__hadd, _rn)
PG_H2_LANES_SUFFIX(__hsub, _rn)
PG_H2_LANES_SUFFIX(__hmul, _rn)
PG_H2_LANES_SUFFIX(__hmax, _nan)
PG_H2_LANES_SUFFIX(__hmin, _nan)
#undef PG_H2_LANES
#undef PG_H2_LANES_SUFFIX
PG_H __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) { return __half2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); }
PG_H __half2 __hfma2_relu(__half2 a, __half2 b, __half2 c) { return __half2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)); }
/* a * b + c of complex numbers (re, im) */
PG_H __half2 __hcmadd(__half2 a, __half2 b, __half2 c)
{
    float ar = pg_f(a.x), ai = pg_f(a.y), br = pg_f(b.x), bi = pg_f(b.y);
    return __half2(pg_h(ar * br - ai * bi + pg_f(c.x)), pg_h(ar * bi + ai * br + pg_f(c.y)));
}
/* v rounded down (mode -1), up (1) or toward zero (0): nearest, then a step where it went past */
PG_H __half pg_h_directed(double v, int mode)
{
    __half h = __half(v);
    double f = pg_f(h);
    if (f == v || v != v)
        return h;
    bool down = mode < 0 || (mode == 0 && v > 0);
    if (down ? f > v : f < v)
        h = pg_h_step(h, !down);
    return h;
}
#define PG_INT2H(T, NAME)                                                                         \
    PG_H __half __##NAME##2half_rz(T v) { return pg_h_directed((double)v, 0); }                  \
    PG_H __half __##NAME##2half_rd(T v) { return pg_h_directed((double)v, -1); }                 \
    PG_H __half __##NAME##2half_ru(T v) { return pg_h_directed((double)v, 1); }
PG_INT2H(int, int)
PG_INT2H(unsigned int, uint)
PG_INT2H(short, short)
PG_INT2H(unsigned short, ushort)
PG_INT2H(long long, ll)
PG_INT2H(unsigned long long, ull)
#undef PG_INT2H
PG_H signed char __half2char_rz(__half h)
{
    float f = truncf(pg_f(h));
    return f != f ? 0 : f <= -128.0f ? -128 : f >= 127.0f ? 127 : (signed char)f;
}
PG_H unsigned char __half2uchar_rz(__half h)
{
    float f = truncf(pg_f(h));
    return f != f ? 0 : f <= 0.0f ? 0 : f >= 255.0f ? 255 : (unsigned char)f;
}
PG_H __half atomicAdd(__half *address, __half val)
{
    unsigned long long at = (unsigned long long)address;
    unsigned int *word = (unsigned int *)(at & ~2ull), shift = (at & 2ull) ? 16u : 0u;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __half sum = __hadd(pg_h_bits((unsigned short)(assumed >> shift)), val);
        old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | ((unsigned int)sum.__x << shift));
    } while (assumed != old);
    return pg_h_bits((unsigned short)(old >> shift));
}
PG_H __half2 atomicAdd(__half2 *address, __half2 val)
{
    unsigned int *word = (unsigned int *)address;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __half2 sum = __hadd2(__half2(pg_h_bits((unsigned short)assumed), pg_h_bits((unsigned short)(assumed >> 16))), val);
        old = atomicCAS(word, assumed, (unsigned int)sum.x.__x | ((unsigned int)sum.y.__x << 16));
    } while (assumed != old);
    return __half2(pg_h_bits((unsigned short)old), pg_h_bits((unsigned short)(old >> 16)));
}

#undef PG_H
#endif
