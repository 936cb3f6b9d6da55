/* Whole-array float32 sin, cos, exp and log and float64 exp and log for the CPU loops (see
 * vmath.h).
 *
 * Each function is a loop the compiler vectorises (no calls, no branches: selects), built three
 * times and chosen once at run time from what the CPU supports:
 *   - x86-64-v4 (AVX-512) and x86-64-v3 (AVX2 + FMA): float arithmetic with fused multiply-adds.
 *     sin/cos: Cody-Waite reduction by pi/2 in three parts (exact with FMA for |x| <= 71476),
 *     minimax polynomials on [-pi/4, pi/4]; exp: reduction by ln 2 and Cephes' polynomial, 2^k
 *     applied in two steps so subnormal results round once; log: x = 2^e m with m in
 *     [sqrt(1/2), sqrt(2)) and Cephes' polynomial of m - 1. Max errors measured over tens of
 *     millions of arguments (tests/test_vmath.py): sin/cos 1.5 ulp, exp 1.0, log 0.8 (NumPy's
 *     own SIMD loops: 1.5, 2.3, 3.6 on the same arguments).
 *   - baseline (any CPU, and other architectures): no FMA, so sin/cos reduce and evaluate in
 *     double precision (0.6 ulp); exp and log as above without fused operations (1.0 ulp).
 * float64 exp and log (every variant, fused where it has FMA): exp by Cody-Waite reduction and
 * the Taylor polynomial of e^r, log by 2 atanh(f / (2 + f)) as a series; max errors 0.77 and 0.86
 * ulp over 10^7 arguments against long double (glibc: 0.73 and 0.62).
 * Arguments outside a function's fast range (sin/cos: |x| > 71476 or not finite; log: zero,
 * negative, subnormal, inf, NaN) set a flag in the vector pass, and a second pass gives those
 * elements to libm, so every result is libm's or within the bounds above. */
#include <math.h>
#include <string.h>
#include "vmath.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define PG_VMATH_X86 1
#define PG_TARGET_V4 __attribute__((target("arch=x86-64-v4")))
#define PG_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
#else
#define PG_VMATH_X86 0
#endif
#define PG_ALWAYS_INLINE static inline __attribute__((always_inline))

/* a*b + c, fused where the variant has FMA (a compile-time constant after inlining) */
#define PG_FMA(a, b, c) (fused ? __builtin_fmaf((a), (b), (c)) : (a) * (b) + (c))

#define PG_MAGIC_F 12582912.0f            /* 1.5 * 2^23: x + M - M rounds x to an integer */
#define PG_MAGIC_D 6755399441055744.0     /* 1.5 * 2^52 */
#define PG_TRIG_LIMIT 71476.0f

PG_ALWAYS_INLINE uint32_t
float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

PG_ALWAYS_INLINE float
bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

PG_ALWAYS_INLINE uint64_t
double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

PG_ALWAYS_INLINE double
bits_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* ------------------------------------------------------------------ sin, cos */

/* sin (shift 0) or cos (shift 1) of x = q pi/2 + r: the quadrant (q + shift) mod 4 picks
 * +-sin r or +-cos r. */
PG_ALWAYS_INLINE float
trig_float(float x, int shift, const int fused)
{
    float t = PG_FMA(x, 0.636619772f, PG_MAGIC_F);
    int quadrant = (int)float_bits(t) + shift; /* t's low mantissa bits hold q */
    float q = t - PG_MAGIC_F;
    float r = PG_FMA(q, -0x1.921fb0p+00f, x);
    r = PG_FMA(q, -0x1.5110b4p-22f, r);
    r = PG_FMA(q, -0x1.846988p-48f, r);
    float z = r * r;
    float s = PG_FMA(PG_FMA(PG_FMA(-0x1.9943d4p-13f, z, 0x1.11073ap-7f), z, -0x1.555546p-3f) * z, r, r);
    float c = PG_FMA(PG_FMA(PG_FMA(PG_FMA(0x1.99eb8cp-16f, z, -0x1.6c0c34p-10f), z, 0x1.55554ap-5f), z, -0.5f), z, 1.0f);
    float y = (quadrant & 1) ? c : s;
    y = (quadrant & 2) ? -y : y;
    return (shift == 0 && x == 0.0f) ? x : y; /* sin(-0) is -0 */
}

/* The same in double precision, for CPUs without FMA: pi/2 in two parts (q * the first exact for
 * q < 2^20), Taylor polynomials to r^11 and r^12 (truncation below 1e-11). */
PG_ALWAYS_INLINE float
trig_double(float xf, int shift)
{
    double x = xf;
    double t = x * 0.636619772367581343 + PG_MAGIC_D;
    int quadrant = (int)(uint32_t)double_bits(t) + shift;
    double q = t - PG_MAGIC_D;
    double r = (x - q * 1.57079632673412561417e+00) - q * 6.07710050650619224932e-11;
    double z = r * r;
    double s = r + r * z * (-1.66666666666666657415e-01 +
                            z * (8.33333333333333321769e-03 +
                                 z * (-1.98412698412698412526e-04 +
                                      z * (2.75573192239858925110e-06 + z * -2.50521083854417202239e-08))));
    double c = 1.0 + z * (-0.5 +
                          z * (4.16666666666666643537e-02 +
                               z * (-1.38888888888888894189e-03 +
                                    z * (2.48015873015873015658e-05 +
                                         z * (-2.75573192239858882758e-07 + z * 2.08767569878680989792e-09)))));
    double y = (quadrant & 1) ? c : s;
    y = (quadrant & 2) ? -y : y;
    return (shift == 0 && xf == 0.0f) ? xf : (float)y; /* sin(-0) is -0 */
}

PG_ALWAYS_INLINE int
trig_slow(float x)
{
    return !(fabsf(x) <= PG_TRIG_LIMIT);
}

/* ------------------------------------------------------------------ exp */

PG_ALWAYS_INLINE float
exp_float(float x, const int fused)
{
    /* past these e^x is inf or 0; NaN passes both comparisons and stays NaN */
    x = x > 88.7228394f ? 88.7228394f : x;
    x = x < -103.972084f ? -103.972084f : x;
    float t = PG_FMA(x, 1.44269504088896341f, PG_MAGIC_F);
    int k = (int)float_bits(t) - 0x4b400000; /* the rounded integer, from t's bits */
    float q = t - PG_MAGIC_F;
    float r = PG_FMA(q, -0.693359375f, x); /* ln 2 in two parts */
    r = PG_FMA(q, 2.12194440e-4f, r);
    float p = PG_FMA(PG_FMA(PG_FMA(PG_FMA(PG_FMA(1.9875691500e-4f, r, 1.3981999507e-3f), r, 8.3334519073e-3f), r,
                                   4.1665795894e-2f), r, 1.6666665459e-1f), r, 5.0000001201e-1f);
    float y = PG_FMA(p, r * r, r) + 1.0f;
    int k1 = k >> 1, k2 = k - k1; /* 2^k in two normal factors */
    return y * bits_float((uint32_t)(k1 + 127) << 23) * bits_float((uint32_t)(k2 + 127) << 23);
}

/* ------------------------------------------------------------------ log */

PG_ALWAYS_INLINE float
log_float(float x, const int fused)
{
    uint32_t ix = float_bits(x);
    uint32_t mbits = (ix & 0x007fffffu) | 0x3f800000u; /* m in [1, 2) */
    int e = (int)(ix >> 23) - 127;
    int high = mbits > 0x3fb504f3u; /* m > sqrt(2): use m / 2 */
    mbits -= high ? 0x00800000u : 0;
    e += high;
    float f = bits_float(mbits) - 1.0f;
    float z = f * f;
    float p = 7.0376836292e-2f;
    p = PG_FMA(p, f, -1.1514610310e-1f);
    p = PG_FMA(p, f, 1.1676998740e-1f);
    p = PG_FMA(p, f, -1.2420140846e-1f);
    p = PG_FMA(p, f, 1.4249322787e-1f);
    p = PG_FMA(p, f, -1.6668057665e-1f);
    p = PG_FMA(p, f, 2.0000714765e-1f);
    p = PG_FMA(p, f, -2.4999993993e-1f);
    p = PG_FMA(p, f, 3.3333331174e-1f);
    float fe = (float)e;
    float y = p * f * z;
    y = PG_FMA(fe, -2.12194440e-4f, y);
    y = PG_FMA(z, -0.5f, y);
    return PG_FMA(fe, 0.693359375f, f + y);
}

PG_ALWAYS_INLINE int
log_slow(float x)
{
    return !(x >= 1.17549435e-38f && x <= 3.40282347e+38f);
}

/* ------------------------------------------------------------------ float64 exp, log */

/* a*b + c in double precision, fused where the variant has FMA */
#define PG_FMAD(a, b, c) (fused ? __builtin_fma((a), (b), (c)) : (a) * (b) + (c))
/* ln 2 in two parts, the first with 21 trailing zero bits (its products with exponents are exact) */
#define PG_LN2_HI 6.93147180369123816490e-01
#define PG_LN2_LO 1.90821492927058770002e-10

/* e^x = 2^k e^r, k = round(x / ln 2), |r| <= ln 2 / 2 reduced in two parts; e^r by its Taylor
 * polynomial to r^13 (truncation below 2^-60), 1 + r kept exactly as two doubles and the rest
 * added to its low part; 2^k applied as two normal factors so that a subnormal result rounds
 * once. */
PG_ALWAYS_INLINE double
exp_double(double x, const int fused)
{
    /* past these e^x is inf or 0; NaN passes both comparisons and stays NaN */
    x = x > 720.0 ? 720.0 : x;
    x = x < -750.0 ? -750.0 : x;
    double t = PG_FMAD(x, 1.44269504088896338700e+00, PG_MAGIC_D);
    int64_t k = (int64_t)(double_bits(t) - double_bits(PG_MAGIC_D)); /* the rounded integer */
    double q = t - PG_MAGIC_D;
    double r = PG_FMAD(q, -PG_LN2_HI, x);
    r = PG_FMAD(q, -PG_LN2_LO, r);
    double p = 1.0 / 6227020800.0;                       /* 1/13! */
    p = PG_FMAD(p, r, 1.0 / 479001600.0);
    p = PG_FMAD(p, r, 1.0 / 39916800.0);
    p = PG_FMAD(p, r, 1.0 / 3628800.0);
    p = PG_FMAD(p, r, 1.0 / 362880.0);
    p = PG_FMAD(p, r, 1.0 / 40320.0);
    p = PG_FMAD(p, r, 1.0 / 5040.0);
    p = PG_FMAD(p, r, 1.0 / 720.0);
    p = PG_FMAD(p, r, 1.0 / 120.0);
    p = PG_FMAD(p, r, 1.0 / 24.0);
    p = PG_FMAD(p, r, 1.0 / 6.0);
    p = PG_FMAD(p, r, 0.5);
    double hi = 1.0 + r, lo = (1.0 - hi) + r; /* 1 + r and its rounding error, exactly */
    double y = hi + PG_FMAD(p, r * r, lo);
    int64_t k1 = k >> 1, k2 = k - k1;
    return y * bits_double((uint64_t)(k1 + 1023) << 52) * bits_double((uint64_t)(k2 + 1023) << 52);
}

/* log x = e ln 2 + log(1 + f), x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); with
 * s = f / (2 + f), log(1 + f) = 2 atanh s = f - f^2/2 + s (f^2/2 + R), R = sum 2 s^2k / (2k + 1)
 * (the series to s^20: |s| <= 0.172, truncation below 2^-60); the small terms first. */
PG_ALWAYS_INLINE double
log_double(double x, const int fused)
{
    uint64_t ix = double_bits(x);
    uint64_t mbits = (ix & 0x000fffffffffffffull) | 0x3ff0000000000000ull; /* m in [1, 2) */
    int e = (int)(ix >> 52) - 1023;
    int high = mbits > 0x3ff6a09e667f3bcdull; /* m > sqrt(2): use m / 2 */
    mbits -= high ? 0x0010000000000000ull : 0;
    e += high;
    double f = bits_double(mbits) - 1.0;
    double s = f / (2.0 + f);
    double z = s * s;
    double R = 2.0 / 21.0;
    R = PG_FMAD(R, z, 2.0 / 19.0);
    R = PG_FMAD(R, z, 2.0 / 17.0);
    R = PG_FMAD(R, z, 2.0 / 15.0);
    R = PG_FMAD(R, z, 2.0 / 13.0);
    R = PG_FMAD(R, z, 2.0 / 11.0);
    R = PG_FMAD(R, z, 2.0 / 9.0);
    R = PG_FMAD(R, z, 2.0 / 7.0);
    R = PG_FMAD(R, z, 2.0 / 5.0);
    R = PG_FMAD(R, z, 2.0 / 3.0);
    R *= z;
    double hfsq = 0.5 * f * f;
    double de = (double)e;
    return de * PG_LN2_HI - ((hfsq - PG_FMAD(s, hfsq + R, de * PG_LN2_LO)) - f);
}

PG_ALWAYS_INLINE int
log_double_slow(double x)
{
    return !(x >= 2.2250738585072014e-308 && x <= 1.7976931348623157e+308);
}

/* ------------------------------------------------------------------ the variants */

/* One pass over n elements; returns whether some need libm. */
typedef int (*PgVmathPass)(const float *x, float *y, int64_t n);
typedef int (*PgVmathPassD)(const double *x, double *y, int64_t n);

#define PG_VMATH_PASS(NAME, ATTR, BODY, SLOW)                                               \
    ATTR static int NAME(const float *x, float *y, int64_t n)                               \
    {                                                                                       \
        int slow = 0;                                                                       \
        _Pragma("omp simd reduction(|:slow)") for (int64_t i = 0; i < n; i++)               \
        {                                                                                   \
            float v = x[i];                                                                 \
            slow |= SLOW(v);                                                                \
            y[i] = BODY;                                                                    \
        }                                                                                   \
        return slow;                                                                        \
    }
#define PG_VMATH_PASS_D(NAME, ATTR, BODY, SLOW)                                             \
    ATTR static int NAME(const double *x, double *y, int64_t n)                             \
    {                                                                                       \
        int slow = 0;                                                                       \
        _Pragma("omp simd reduction(|:slow)") for (int64_t i = 0; i < n; i++)               \
        {                                                                                   \
            double v = x[i];                                                                \
            slow |= SLOW(v);                                                                \
            y[i] = BODY;                                                                    \
        }                                                                                   \
        return slow;                                                                        \
    }
#define PG_NEVER_SLOW(v) 0

#define PG_VMATH_VARIANT(SUF, ATTR, FUSED)                                                  \
    PG_VMATH_PASS(sin_##SUF, ATTR, trig_float(v, 0, FUSED), trig_slow)                      \
    PG_VMATH_PASS(cos_##SUF, ATTR, trig_float(v, 1, FUSED), trig_slow)                      \
    PG_VMATH_PASS(exp_##SUF, ATTR, exp_float(v, FUSED), PG_NEVER_SLOW)                      \
    PG_VMATH_PASS(log_##SUF, ATTR, log_float(v, FUSED), log_slow)                          \
    PG_VMATH_PASS_D(exp64_##SUF, ATTR, exp_double(v, FUSED), PG_NEVER_SLOW)                 \
    PG_VMATH_PASS_D(log64_##SUF, ATTR, log_double(v, FUSED), log_double_slow)

#if PG_VMATH_X86
PG_VMATH_VARIANT(v4, PG_TARGET_V4, 1)
PG_VMATH_VARIANT(v3, PG_TARGET_V3, 1)
#endif
PG_VMATH_PASS(sin_base, , trig_double(v, 0), trig_slow)
PG_VMATH_PASS(cos_base, , trig_double(v, 1), trig_slow)
PG_VMATH_PASS(exp_base, , exp_float(v, 0), PG_NEVER_SLOW)
PG_VMATH_PASS(log_base, , log_float(v, 0), log_slow)
PG_VMATH_PASS_D(exp64_base, , exp_double(v, 0), PG_NEVER_SLOW)
PG_VMATH_PASS_D(log64_base, , log_double(v, 0), log_double_slow)

typedef struct {
    const char *name;
    PgVmathPass sin, cos, exp, log;
    PgVmathPassD exp64, log64;
} PgVmathVariant;

static const PgVmathVariant variants[] = {
#if PG_VMATH_X86
    {"x86-64-v4", sin_v4, cos_v4, exp_v4, log_v4, exp64_v4, log64_v4},
    {"x86-64-v3", sin_v3, cos_v3, exp_v3, log_v3, exp64_v3, log64_v3},
#endif
    {"baseline", sin_base, cos_base, exp_base, log_base, exp64_base, log64_base},
};
#define PG_NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static int
variant_supported(int i)
{
#if PG_VMATH_X86
    __builtin_cpu_init();
    if (strcmp(variants[i].name, "x86-64-v4") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    if (strcmp(variants[i].name, "x86-64-v3") == 0)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
               __builtin_cpu_supports("f16c") && __builtin_cpu_supports("movbe");
#else
    (void)i;
#endif
    return 1;
}

static int active = -1; /* index into variants; set on first use (idempotent, so races are benign) */

static const PgVmathVariant *
current(void)
{
    if (active < 0) {
        int i = 0;
        while (i < PG_NVARIANTS - 1 && !variant_supported(i))
            i++;
        active = i;
    }
    return &variants[active];
}

const char *
pg_vmath_variant(const char *name)
{
    const PgVmathVariant *v = current();
    if (name == NULL)
        return v->name;
    for (int i = 0; i < PG_NVARIANTS; i++) {
        if (strcmp(variants[i].name, name) == 0 && variant_supported(i)) {
            active = i;
            return variants[i].name;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ entry points */

/* The vector pass writes y before slow elements are fixed from x: when y is x their arguments
 * are kept first, in chunks small enough to stay in cache. */
#define PG_VMATH_CHUNK 1024

/* run_T(pass, libm, is_slow, x, y, n): the vector pass, then libm for the elements it flagged */
#define PG_VMATH_RUN(NAME, T, PASS)                                                          \
    static void NAME(PASS pass, T (*libm)(T), int (*is_slow)(T), const T *x, T *y, int64_t n) \
    {                                                                                        \
        for (int64_t start = 0; start < n; start += PG_VMATH_CHUNK) {                        \
            int64_t m = n - start < PG_VMATH_CHUNK ? n - start : PG_VMATH_CHUNK;             \
            T keep[PG_VMATH_CHUNK];                                                          \
            const T *src = x + start;                                                        \
            if (x == y) {                                                                    \
                memcpy(keep, src, (size_t)m * sizeof(T));                                    \
                src = keep;                                                                  \
            }                                                                                \
            if (pass(src, y + start, m))                                                     \
                for (int64_t i = 0; i < m; i++)                                              \
                    if (is_slow(src[i]))                                                     \
                        y[start + i] = libm(src[i]);                                         \
        }                                                                                    \
    }
PG_VMATH_RUN(run, float, PgVmathPass)
PG_VMATH_RUN(run_double, double, PgVmathPassD)

static int
trig_slow_fn(float x)
{
    return trig_slow(x);
}

static int
log_slow_fn(float x)
{
    return log_slow(x);
}

void
pg_v_sin_f32(const float *x, float *y, int64_t n)
{
    run(current()->sin, sinf, trig_slow_fn, x, y, n);
}

void
pg_v_cos_f32(const float *x, float *y, int64_t n)
{
    run(current()->cos, cosf, trig_slow_fn, x, y, n);
}

void
pg_v_exp_f32(const float *x, float *y, int64_t n)
{
    current()->exp(x, y, n);
}

void
pg_v_log_f32(const float *x, float *y, int64_t n)
{
    run(current()->log, logf, log_slow_fn, x, y, n);
}

void
pg_v_exp_f64(const double *x, double *y, int64_t n)
{
    current()->exp64(x, y, n);
}

static int
log_double_slow_fn(double x)
{
    return log_double_slow(x);
}

void
pg_v_log_f64(const double *x, double *y, int64_t n)
{
    run_double(current()->log64, log, log_double_slow_fn, x, y, n);
}
