/* The elementary functions of the random-number transforms, written once for every device so
 * that a draw gives the same bits on the CPU and on any GPU. libm and CUDA's math library
 * differ in the last bit here and there, so the transforms use these instead.
 *
 * Bit-identical by construction: only +, -, *, /, sqrt (all correctly rounded in IEEE binary32
 * and binary64 on both sides), conversions with round-to-nearest, floor/fabs, and bit
 * manipulation. Two things could still make a device differ, and both are shut out:
 *   - fused multiply-add: nvcc contracts a*b+c into one fma by default, the C build does not
 *     (-ffp-contract=off). On the device every rounding operation below is an explicit _rn
 *     intrinsic, which is never contracted.
 *   - flush-to-zero and approximate division/sqrt (nvcc --use_fast_math): the intrinsics are
 *     IEEE whatever the flags.
 * Accuracy (measured in tests/test_random_math.py against mpmath or float64 references):
 * pg_rlogf, pg_rsincosf within 1 ulp; pg_rlog, pg_rexp, pg_rsincos within 1 ulp; pg_rlog1p
 * and pg_rloggam within a few ulp. The polynomial coefficients are fitted by
 * tools/fit_random_math.py. */
#ifndef PG_RANDOM_MATH_H
#define PG_RANDOM_MATH_H
#include "kernel_types.h"

#ifdef __CUDA_ARCH__
#define PG_FADD(a, b) __fadd_rn((a), (b))
#define PG_FSUB(a, b) __fsub_rn((a), (b))
#define PG_FMUL(a, b) __fmul_rn((a), (b))
#define PG_FDIV(a, b) __fdiv_rn((a), (b))
#define PG_FSQRT(a) __fsqrt_rn(a)
#define PG_DADD(a, b) __dadd_rn((a), (b))
#define PG_DSUB(a, b) __dsub_rn((a), (b))
#define PG_DMUL(a, b) __dmul_rn((a), (b))
#define PG_DDIV(a, b) __ddiv_rn((a), (b))
#define PG_DSQRT(a) __dsqrt_rn(a)
#define PG_DFLOOR(a) floor(a)
#else
#include <math.h>
#include <string.h>
#define PG_FADD(a, b) ((a) + (b))
#define PG_FSUB(a, b) ((a) - (b))
#define PG_FMUL(a, b) ((a) * (b))
#define PG_FDIV(a, b) ((a) / (b))
#define PG_FSQRT(a) sqrtf(a)
#define PG_DADD(a, b) ((a) + (b))
#define PG_DSUB(a, b) ((a) - (b))
#define PG_DMUL(a, b) ((a) * (b))
#define PG_DDIV(a, b) ((a) / (b))
#define PG_DSQRT(a) sqrt(a)
#define PG_DFLOOR(a) floor(a)
#endif

PG_INLINE PG_HOST_DEVICE uint32_t
pg_f32_bits(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
#endif
}

PG_INLINE PG_HOST_DEVICE float
pg_f32_from_bits(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float x;
    memcpy(&x, &u, 4);
    return x;
#endif
}

PG_INLINE PG_HOST_DEVICE uint64_t
pg_f64_bits(double x)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
#endif
}

PG_INLINE PG_HOST_DEVICE double
pg_f64_from_bits(uint64_t u)
{
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)u);
#else
    double x;
    memcpy(&x, &u, 8);
    return x;
#endif
}

#define PG_R_INF pg_f64_from_bits(0x7ff0000000000000ull)
#define PG_R_NAN pg_f64_from_bits(0x7ff8000000000000ull)

/* ------------------------------------------------------------------ log
 * x = 2^k m with m in [sqrt(1/2), sqrt(2)); f = m - 1, s = f/(2+f), z = s*s:
 * log(m) = 2 atanh(s) = f - hfsq + s*(hfsq + z*G(z)) with hfsq = f*f/2 (the form of fdlibm's
 * e_log.c, whose small terms go last), and log(x) = k*ln2_hi + (that + k*ln2_lo). */
#define PG_LOGF_G0 0.666666850395758550224f
#define PG_LOGF_G1 0.399887805660219818994f
#define PG_LOGF_G2 0.295799493919727847094f
#define PG_LN2F_HI 0x1.62e4p-1f /* 16 significant bits: k*PG_LN2F_HI is exact */
#define PG_LN2F_LO 0x1.7f7d1cp-20f

/* log(x) for a positive, normal, finite float x (the transforms' uniform variates). */
PG_INLINE PG_HOST_DEVICE float
pg_rlogf(float x)
{
    uint32_t ix = pg_f32_bits(x) + (0x3f800000u - 0x3f3504f3u);
    int32_t k = (int32_t)(ix >> 23) - 0x7f;
    float f = PG_FSUB(pg_f32_from_bits((ix & 0x007fffffu) + 0x3f3504f3u), 1.0f);
    float s = PG_FDIV(f, PG_FADD(2.0f, f));
    float z = PG_FMUL(s, s);
    float g = PG_FADD(PG_LOGF_G0, PG_FMUL(z, PG_FADD(PG_LOGF_G1, PG_FMUL(z, PG_LOGF_G2))));
    float hfsq = PG_FMUL(PG_FMUL(0.5f, f), f);
    float dk = (float)k;
    float t = PG_FADD(PG_FMUL(s, PG_FADD(hfsq, PG_FMUL(z, g))), PG_FMUL(dk, PG_LN2F_LO));
    return PG_FSUB(PG_FMUL(dk, PG_LN2F_HI), PG_FSUB(PG_FSUB(hfsq, t), f));
}

#define PG_LOG_G0 0.666666666666666968616
#define PG_LOG_G1 0.399999999998995044898
#define PG_LOG_G2 0.285714286259754849215
#define PG_LOG_G3 0.222222111347950798551
#define PG_LOG_G4 0.181828891252617220803
#define PG_LOG_G5 0.153317216005560412686
#define PG_LOG_G6 0.146164496850434058604
#define PG_LN2_HI 0x1.62e42ffp-1 /* 29 significant bits: k*PG_LN2_HI is exact */
#define PG_LN2_LO -0x1.718432a1b0e26p-35

/* log(x) for a positive, normal, finite double x. */
PG_INLINE PG_HOST_DEVICE double
pg_rlog_normal(double x)
{
    uint64_t ix = pg_f64_bits(x) + (0x3ff0000000000000ull - 0x3fe6a09e667f3bcdull);
    int32_t k = (int32_t)(ix >> 52) - 0x3ff;
    double f = PG_DSUB(pg_f64_from_bits((ix & 0x000fffffffffffffull) + 0x3fe6a09e667f3bcdull), 1.0);
    double s = PG_DDIV(f, PG_DADD(2.0, f));
    double z = PG_DMUL(s, s);
    double g = PG_LOG_G6;
    g = PG_DADD(PG_LOG_G5, PG_DMUL(z, g));
    g = PG_DADD(PG_LOG_G4, PG_DMUL(z, g));
    g = PG_DADD(PG_LOG_G3, PG_DMUL(z, g));
    g = PG_DADD(PG_LOG_G2, PG_DMUL(z, g));
    g = PG_DADD(PG_LOG_G1, PG_DMUL(z, g));
    g = PG_DADD(PG_LOG_G0, PG_DMUL(z, g));
    double hfsq = PG_DMUL(PG_DMUL(0.5, f), f);
    double dk = (double)k;
    double t = PG_DADD(PG_DMUL(s, PG_DADD(hfsq, PG_DMUL(z, g))), PG_DMUL(dk, PG_LN2_LO));
    return PG_DSUB(PG_DMUL(dk, PG_LN2_HI), PG_DSUB(PG_DSUB(hfsq, t), f));
}

/* log(x) for any double: -inf at 0, NaN below, +inf at +inf, subnormals scaled first. */
PG_INLINE PG_HOST_DEVICE double
pg_rlog(double x)
{
    if (!(x > 0))
        return x == 0 ? -PG_R_INF : PG_R_NAN;
    if (x == PG_R_INF)
        return x;
    if (x < 0x1p-1022)
        return PG_DSUB(pg_rlog_normal(PG_DMUL(x, 0x1p54)), PG_DMUL(54.0, 0x1.62e42fefa39efp-1));
    return pg_rlog_normal(x);
}

/* log(1 + x), accurate for small x: the rounding of 1 + x corrected by x/((1+x)-1). */
PG_INLINE PG_HOST_DEVICE double
pg_rlog1p(double x)
{
    double u = PG_DADD(1.0, x);
    if (u == 1.0)
        return x;
    if (u == PG_R_INF)
        return u;
    return PG_DMUL(pg_rlog(u), PG_DDIV(x, PG_DSUB(u, 1.0)));
}

/* ------------------------------------------------------------------ exp
 * x = k ln2 + r, |r| <= ln2/2; with z = r*r and R(r) = r coth(r/2) = 2 + z*P(z),
 * c = r - z*P(z) and exp(r) = 1 + r + r*c/(2 - c) (fdlibm's e_exp.c form), then scaled by 2^k. */
#define PG_EXP_P0 0.166666666666666615452
#define PG_EXP_P1 -0.00277777777775645716727
#define PG_EXP_P2 0.0000661375647170787329
#define PG_EXP_P3 -0.00000165340601659726357982
#define PG_EXP_P4 0.0000000414377256535820176086
#define PG_LOG2E 0x1.71547652b82fep+0

PG_INLINE PG_HOST_DEVICE double
pg_rexp(double x)
{
    if (x != x)
        return x;
    if (x > 709.782712893384)
        return PG_R_INF;
    if (x < -745.1332191019412)
        return 0.0;
    double kd = PG_DFLOOR(PG_DADD(PG_DMUL(x, PG_LOG2E), 0.5));
    int32_t k = (int32_t)kd;
    double hi = PG_DSUB(x, PG_DMUL(kd, PG_LN2_HI));
    double lo = PG_DMUL(kd, PG_LN2_LO);
    double r = PG_DSUB(hi, lo);
    double z = PG_DMUL(r, r);
    double p = PG_EXP_P4;
    p = PG_DADD(PG_EXP_P3, PG_DMUL(z, p));
    p = PG_DADD(PG_EXP_P2, PG_DMUL(z, p));
    p = PG_DADD(PG_EXP_P1, PG_DMUL(z, p));
    p = PG_DADD(PG_EXP_P0, PG_DMUL(z, p));
    double c = PG_DSUB(r, PG_DMUL(z, p));
    double y = PG_DSUB(1.0, PG_DSUB(PG_DSUB(lo, PG_DDIV(PG_DMUL(r, c), PG_DSUB(2.0, c))), hi));
    if (k >= -1021) {
        if (k == 1024)
            return PG_DMUL(PG_DMUL(y, 2.0), 0x1p1023);
        return PG_DMUL(y, pg_f64_from_bits((uint64_t)(0x3ff + k) << 52));
    }
    /* subnormal results: one rounding, in the last multiply */
    return PG_DMUL(PG_DMUL(y, pg_f64_from_bits((uint64_t)(0x3ff + k + 1000) << 52)), 0x1p-1000);
}

/* ------------------------------------------------------------------ sin and cos
 * for |x| <= pi/4: sin x = x + x*z*S(z), cos x = 1 - z/2 + z*z*C(z) with z = x*x; 1 - z/2 is
 * summed with its rounding error carried, as in fdlibm's k_cos.c. */
#define PG_SINF_S0 -0.166666666638552895333f
#define PG_SINF_S1 0.00833333187471020878805f
#define PG_SINF_S2 -0.000198400867353848455976f
#define PG_SINF_S3 0.00000272499258030597923019f
#define PG_COSF_C0 0.0416666646595022067724f
#define PG_COSF_C1 -0.00138883030358948660366f
#define PG_COSF_C2 0.0000245479420850715725125f

PG_INLINE PG_HOST_DEVICE void
pg_rsincosf(float x, float *sn, float *cs)
{
    float z = PG_FMUL(x, x);
    float sp = PG_FADD(PG_SINF_S2, PG_FMUL(z, PG_SINF_S3));
    sp = PG_FADD(PG_SINF_S0, PG_FMUL(z, PG_FADD(PG_SINF_S1, PG_FMUL(z, sp))));
    *sn = PG_FADD(x, PG_FMUL(PG_FMUL(z, x), sp));
    float cp = PG_FADD(PG_COSF_C0, PG_FMUL(z, PG_FADD(PG_COSF_C1, PG_FMUL(z, PG_COSF_C2))));
    float hz = PG_FMUL(0.5f, z);
    float w = PG_FSUB(1.0f, hz);
    *cs = PG_FADD(w, PG_FADD(PG_FSUB(PG_FSUB(1.0f, w), hz), PG_FMUL(PG_FMUL(z, z), cp)));
}

#define PG_SIN_S0 -0.166666666666666666655
#define PG_SIN_S1 0.00833333333333333149208
#define PG_SIN_S2 -0.000198412698412650649465
#define PG_SIN_S3 0.00000275573192193391665175
#define PG_SIN_S4 -0.000000025052106232447577328
#define PG_SIN_S5 0.000000000160585316189861468364
#define PG_SIN_S6 -0.000000000000758669711770691798466
#define PG_COS_C0 0.0416666666666666653887
#define PG_COS_C1 -0.00138888888888873972367
#define PG_COS_C2 0.0000248015872987656879273
#define PG_COS_C3 -0.00000027557317271729792882
#define PG_COS_C4 0.00000000208761462684031978934
#define PG_COS_C5 -0.0000000000113826324255217180054

PG_INLINE PG_HOST_DEVICE void
pg_rsincos(double x, double *sn, double *cs)
{
    double z = PG_DMUL(x, x);
    double sp = PG_SIN_S6;
    sp = PG_DADD(PG_SIN_S5, PG_DMUL(z, sp));
    sp = PG_DADD(PG_SIN_S4, PG_DMUL(z, sp));
    sp = PG_DADD(PG_SIN_S3, PG_DMUL(z, sp));
    sp = PG_DADD(PG_SIN_S2, PG_DMUL(z, sp));
    sp = PG_DADD(PG_SIN_S1, PG_DMUL(z, sp));
    sp = PG_DADD(PG_SIN_S0, PG_DMUL(z, sp));
    *sn = PG_DADD(x, PG_DMUL(PG_DMUL(z, x), sp));
    double cp = PG_COS_C5;
    cp = PG_DADD(PG_COS_C4, PG_DMUL(z, cp));
    cp = PG_DADD(PG_COS_C3, PG_DMUL(z, cp));
    cp = PG_DADD(PG_COS_C2, PG_DMUL(z, cp));
    cp = PG_DADD(PG_COS_C1, PG_DMUL(z, cp));
    cp = PG_DADD(PG_COS_C0, PG_DMUL(z, cp));
    double hz = PG_DMUL(0.5, z);
    double w = PG_DSUB(1.0, hz);
    *cs = PG_DADD(w, PG_DADD(PG_DSUB(PG_DSUB(1.0, w), hz), PG_DMUL(PG_DMUL(z, z), cp)));
}

/* ------------------------------------------------------------------ log-gamma
 * log Gamma(x) for x >= 1 (the Poisson sampler's log k!): Stirling's series with the Bernoulli
 * coefficients B_2j / (2j (2j-1)), j = 1..10, after shifting x up to 7 or more. */
PG_INLINE PG_HOST_DEVICE double
pg_rloggam(double x)
{
    if (x == 1.0 || x == 2.0)
        return 0.0;
    double prod = 1.0, x0 = x;
    while (x0 < 7.0) {
        prod = PG_DMUL(prod, x0);
        x0 = PG_DADD(x0, 1.0);
    }
    double x2 = PG_DDIV(1.0, PG_DMUL(x0, x0));
    double s = -1.3924322169059011;
    s = PG_DADD(0.17964437236883057, PG_DMUL(x2, s));
    s = PG_DADD(-0.029550653594771242, PG_DMUL(x2, s));
    s = PG_DADD(0.00641025641025641, PG_DMUL(x2, s));
    s = PG_DADD(-0.0019175269175269176, PG_DMUL(x2, s));
    s = PG_DADD(0.0008417508417508417, PG_DMUL(x2, s));
    s = PG_DADD(-0.0005952380952380953, PG_DMUL(x2, s));
    s = PG_DADD(0.0007936507936507937, PG_DMUL(x2, s));
    s = PG_DADD(-0.002777777777777778, PG_DMUL(x2, s));
    s = PG_DADD(0.08333333333333333, PG_DMUL(x2, s));
    /* (x0 - 1/2) log x0 - x0 + log(2 pi)/2 + s/x0 - log(x (x+1) ... (x0-1)) */
    double lg = PG_DSUB(PG_DMUL(PG_DSUB(x0, 0.5), pg_rlog(x0)), x0);
    lg = PG_DADD(lg, PG_DADD(0.9189385332046728, PG_DDIV(s, x0)));
    return prod == 1.0 ? lg : PG_DSUB(lg, pg_rlog(prod));
}
#endif
