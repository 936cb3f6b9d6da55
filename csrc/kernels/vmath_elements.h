/* The element functions of the CPU's whole-array math (vmath_cpu.c): each computes one element
 * without calls or branches (selects only), inlined into loops that the compiler vectorises.
 * `fused` (a constant after inlining) says whether the instruction-set variant has FMA.
 *
 * float32 sin, cos, exp, log: float arithmetic. sin/cos: Cody-Waite reduction by pi/2 in three
 * parts (exact with FMA for |x| <= 71476), minimax polynomials on [-pi/4, pi/4]; without FMA
 * reduced and evaluated in double precision. exp: reduction by ln 2 and Cephes' polynomial, 2^k
 * applied in two steps so subnormal results round once; log: x = 2^e m with m in
 * [sqrt(1/2), sqrt(2)) and Cephes' polynomial of m - 1.
 * The float64 functions: double arithmetic with the low parts of sums and products kept where
 * the result needs them (each function's comment says how), Taylor series on reduced ranges.
 * The other float32 functions: simple formulas in double precision (exact to float32's
 * precision). */
#ifndef PG_VMATH_ELEMENTS_H
#define PG_VMATH_ELEMENTS_H
#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* sin r and cos r for x = q pi/2 + r, and the quadrant q, in double precision: pi/2 in two parts
 * (q * the first exact for q < 2^20), Taylor polynomials to r^11 and r^12 (truncation below
 * 1e-11) */
PG_ALWAYS_INLINE void
sincos_reduced_double(double x, double *s, double *c, int *quadrant)
{
    double t = x * 0.636619772367581343 + PG_MAGIC_D;
    *quadrant = (int)(uint32_t)double_bits(t);
    double q = t - PG_MAGIC_D;
    double r = (x - q * 1.57079632673412561417e+00) - q * 6.07710050650619224932e-11;
    double z = r * r;
    *s = r + r * z * (-1.66666666666666657415e-01 +
                      z * (8.33333333333333321769e-03 +
                           z * (-1.98412698412698412526e-04 +
                                z * (2.75573192239858925110e-06 + z * -2.50521083854417202239e-08))));
    *c = 1.0 + z * (-0.5 +
                    z * (4.16666666666666643537e-02 +
                         z * (-1.38888888888888894189e-03 +
                              z * (2.48015873015873015658e-05 +
                                   z * (-2.75573192239858882758e-07 + z * 2.08767569878680989792e-09)))));
}

/* float32 sin (shift 0) or cos (shift 1) in double precision, for CPUs without FMA */
PG_ALWAYS_INLINE float
trig_double(float xf, int shift)
{
    double s, c;
    int quadrant;
    sincos_reduced_double(xf, &s, &c, &quadrant);
    quadrant += shift;
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

/* ------------------------------------------------------------------ float64 helpers */

/* a*b + c in double precision, fused where the variant has FMA */
#define PG_FMAD(a, b, c) (fused ? __builtin_fma((a), (b), (c)) : (a) * (b) + (c))
/* ln 2 in two parts, the first with 21 trailing zero bits (its products with exponents are exact) */
#define PG_LN2_HI 6.93147180369123816490e-01
#define PG_LN2_LO 1.90821492927058770002e-10
/* ln 2 rounded to double, and the rest */
#define PG_LN2_D 6.93147180559945286227e-01
#define PG_LN2_D_TAIL 2.3190468138462996e-17
#define PG_PI_2 1.5707963267948966
#define PG_PI_4 0.7853981633974483

/* a*b - p exactly, for p = a*b rounded: one fused operation, or Dekker's product by halves */
PG_ALWAYS_INLINE double
two_prod_err(double a, double b, double p, const int fused)
{
    if (fused)
        return __builtin_fma(a, b, -p);
    double ca = 134217729.0 * a, ah = ca - (ca - a), al = a - ah; /* 2^27 + 1 splits in halves */
    double cb = 134217729.0 * b, bh = cb - (cb - b), bl = b - bh;
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/* (nh + nl) / (dh + dl) = *q + the value returned: the quotient rounded, and the rest from its
 * exact remainder nh - q dh (two_prod_err) with the low parts, over dh */
PG_ALWAYS_INLINE double
div_parts(double nh, double nl, double dh, double dl, double *q, const int fused)
{
    double w = nh / dh, p = w * dh;
    *q = w;
    return (((nh - p) - two_prod_err(w, dh, p, fused)) + nl - w * dl) / dh;
}

/* 2^k, for -1022 <= k <= 1023 (other k give a meaningless value that callers do not select) */
PG_ALWAYS_INLINE double
pow2_double(int64_t k)
{
    return bits_double((uint64_t)(k + 1023) << 52);
}

/* ------------------------------------------------------------------ float64 exp, exp2, expm1 */

/* p(r) with e^r = 1 + r + r^2 p(r): e^r's Taylor polynomial to r^13 (truncation below 2^-60 for
 * |r| <= ln 2 / 2) */
PG_ALWAYS_INLINE double
exp_poly(double r, const int fused)
{
    double p = 1.0 / 6227020800.0; /* 1/13! */
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
    return PG_FMAD(p, r, 0.5);
}

/* 2^k e^(r + rl), |r| <= ln 2 / 2 and rl below r's last bit: 1 + r kept exactly as two doubles
 * and the rest added to its low part; 2^k applied as two normal factors so that a subnormal
 * result rounds once. */
PG_ALWAYS_INLINE double
exp_tail(double r, double rl, int64_t k, const int fused)
{
    double p = exp_poly(r, fused);
    double hi = 1.0 + r, lo = (1.0 - hi) + r; /* 1 + r and its rounding error, exactly */
    double y = hi + PG_FMAD(p, r * r, PG_FMAD(rl, hi, lo));
    int64_t k1 = k >> 1, k2 = k - k1;
    return y * pow2_double(k1) * pow2_double(k2);
}

/* k = round(x / ln 2), in *k and as the double returned (|x| < 2^50) */
PG_ALWAYS_INLINE double
ln2_multiple(double x, int64_t *k, const int fused)
{
    double t = PG_FMAD(x, 1.44269504088896338700e+00, PG_MAGIC_D);
    *k = (int64_t)(double_bits(t) - double_bits(PG_MAGIC_D)); /* the rounded integer */
    return t - PG_MAGIC_D;
}

/* x = k ln 2 + r with k = round(x / ln 2), |r| <= ln 2 / 2, reduced in two parts (Cody-Waite) */
PG_ALWAYS_INLINE double
exp_reduce(double x, int64_t *k, const int fused)
{
    double q = ln2_multiple(x, k, fused);
    double r = PG_FMAD(q, -PG_LN2_HI, x);
    return PG_FMAD(q, -PG_LN2_LO, r);
}

PG_ALWAYS_INLINE double
exp_double(double x, const int fused)
{
    /* past these e^x is inf or 0; NaN passes both comparisons and stays NaN */
    x = x > 720.0 ? 720.0 : x;
    x = x < -750.0 ? -750.0 : x;
    int64_t k;
    double r = exp_reduce(x, &k, fused);
    return exp_tail(r, 0.0, k, fused);
}

/* 2^x = 2^k e^(y ln 2), k = round(x), y = x - k exact; y ln 2 as two doubles */
PG_ALWAYS_INLINE double
exp2_double(double x, const int fused)
{
    x = x > 1030.0 ? 1030.0 : x;
    x = x < -1080.0 ? -1080.0 : x;
    double t = x + PG_MAGIC_D;
    int64_t k = (int64_t)(double_bits(t) - double_bits(PG_MAGIC_D));
    double y = x - (t - PG_MAGIC_D);
    double r = y * PG_LN2_D;
    double rl = PG_FMAD(y, PG_LN2_D_TAIL, two_prod_err(y, PG_LN2_D, r, fused));
    return exp_tail(r, rl, k, fused);
}

/* e^x - 1 as hi + lo, lo below hi's last bit (about 2^-56 relative): with x = k ln 2 + r,
 * e^x - 1 = 2^k (e^r - 1) + (2^k - 1); 2^k r + (2^k - 1) added exactly (two-sum), 2^k - 1 as
 * two doubles (exact for -53 <= k <= 53); from k = 1000 (x > 693) the 1 is far
 * below half an ulp and e^x is scaled in two factors as exp's is. */
PG_ALWAYS_INLINE void
expm1_double_parts(double x, double *hi, double *lo, const int fused)
{
    double x0 = x;
    x = x > 720.0 ? 720.0 : x;
    x = x < -60.0 ? -60.0 : x; /* e^x - 1 rounds to -1 from here down */
    int64_t k;
    double q = ln2_multiple(x, &k, fused);
    double rh = PG_FMAD(q, -PG_LN2_HI, x); /* exact */
    double rl = q * -PG_LN2_LO;
    double r = rh + rl, c = (rh - r) + rl; /* r and its rounding error */
    /* e^(r + c) - 1 = r + m, m = r^2 p(r) + c e^r */
    double m = PG_FMAD(exp_poly(r, fused), r * r, PG_FMAD(c, r, c));
    double two_k = pow2_double(k);
    double a = two_k * r, b = two_k - 1.0;
    double b_err = k > 0 ? (two_k - b) - 1.0 : (-1.0 - b) + two_k; /* fast two-sum, larger first */
    double s = a + b, bb = s - a, err = (a - (s - bb)) + (b - bb);
    double tail = PG_FMAD(two_k, m, err + b_err);
    double sum = s + tail, sum_lo = (s - sum) + tail; /* fast two-sum: |tail| < |s| */
    double one_r = 1.0 + r, one_r_lo = (1.0 - one_r) + r;
    int64_t k1 = k >> 1, k2 = k - k1;
    double big = (one_r + (one_r_lo + m)) * pow2_double(k1) * pow2_double(k2);
    int large = k >= 1000;
    *hi = x0 == 0.0 ? x0 : large ? big : sum; /* expm1(-0) is -0 */
    *lo = x0 == 0.0 ? x0 : large ? 0.0 : sum_lo; /* hi + lo keeps the zero's sign */
}

PG_ALWAYS_INLINE double
expm1_double(double x, const int fused)
{
    double hi, lo;
    expm1_double_parts(x, &hi, &lo, fused);
    return hi + lo;
}

/* ------------------------------------------------------------------ float64 log, log2, log10, log1p */

/* m and *e with x = 2^e m, m in [sqrt(1/2), sqrt(2)), for x positive and normal */
PG_ALWAYS_INLINE double
log_mantissa(double x, int *e)
{
    uint64_t ix = double_bits(x);
    uint64_t mbits = (ix & 0x000fffffffffffffull) | 0x3ff0000000000000ull; /* m in [1, 2) */
    int high = mbits > 0x3ff6a09e667f3bcdull; /* m > sqrt(2): use m / 2 */
    *e = (int)(ix >> 52) - 1023 + high;
    return bits_double(mbits - (high ? 0x0010000000000000ull : 0));
}

/* f and *e with x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)) (m - 1 is exact) */
PG_ALWAYS_INLINE double
log_split(double x, int *e)
{
    return log_mantissa(x, e) - 1.0;
}

/* The logarithms' common part, declaring e, f, s, z, R, hfsq and de for x positive and normal:
 * log x = e ln 2 + log(1 + f), x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); with
 * s = f / (2 + f), log(1 + f) = 2 atanh s = f - f^2/2 + s (f^2/2 + R), R = sum 2 s^2k / (2k + 1)
 * (the series to s^20: |s| <= 0.172, truncation below 2^-60). */
#define PG_LOG_DOUBLE_PARTS                                                                  \
    int e;                                                                                   \
    double f = log_split(x, &e);                                                             \
    double s = f / (2.0 + f);                                                                \
    double z = s * s;                                                                        \
    double R = 2.0 / 21.0;                                                                   \
    R = PG_FMAD(R, z, 2.0 / 19.0);                                                           \
    R = PG_FMAD(R, z, 2.0 / 17.0);                                                           \
    R = PG_FMAD(R, z, 2.0 / 15.0);                                                           \
    R = PG_FMAD(R, z, 2.0 / 13.0);                                                           \
    R = PG_FMAD(R, z, 2.0 / 11.0);                                                           \
    R = PG_FMAD(R, z, 2.0 / 9.0);                                                            \
    R = PG_FMAD(R, z, 2.0 / 7.0);                                                            \
    R = PG_FMAD(R, z, 2.0 / 5.0);                                                            \
    R = PG_FMAD(R, z, 2.0 / 3.0);                                                            \
    R *= z;                                                                                  \
    double hfsq = 0.5 * f * f;                                                               \
    double de = (double)e;

/* log x + c for a small correction c (log1p's), for x positive and normal: the small terms first */
PG_ALWAYS_INLINE double
log_double_plus(double x, double c, const int fused)
{
    PG_LOG_DOUBLE_PARTS
    return de * PG_LN2_HI - ((hfsq - PG_FMAD(s, hfsq + R, de * PG_LN2_LO + c)) - f);
}

PG_ALWAYS_INLINE double
log_double(double x, const int fused)
{
    return log_double_plus(x, 0.0, fused);
}

PG_ALWAYS_INLINE int
log_double_slow(double x)
{
    return !(x >= 2.2250738585072014e-308 && x <= 1.7976931348623157e+308);
}

/* e u + log(1 + f) u' for log2 (u = 1, u' = 1/ln 2) and log10 (u = log10 2, u' = 1/ln 10):
 * log(1 + f) as hi + lo, hi cut to 26 bits so that its product with u' in two parts (26 bits
 * and the rest) is exact; e u's first part has 11 trailing zero bits (exact for any exponent);
 * the sums in order of size (fast two-sum: |e u| >= |hi u'| when e is not 0). */
PG_ALWAYS_INLINE double
log_base_double(double x, double u_hi, double u_lo, double v_hi, double v_lo, const int fused)
{
    PG_LOG_DOUBLE_PARTS
    double hi = f - hfsq;
    double lo = ((f - hi) - hfsq) + s * (hfsq + R);
    double hh = bits_double(double_bits(hi) & 0xfffffffff8000000ull);
    double hl = (hi - hh) + lo;
    double vh = hh * v_hi; /* exact */
    double vl = PG_FMAD(hl, v_hi + v_lo, hh * v_lo);
    double y = de * u_hi; /* exact */
    double w = y + vh;
    vl += ((y - w) + vh) + de * u_lo;
    return w + vl;
}

#define PG_INV_LN2_HI 1.4426950216293335      /* 1/ln 2 to 26 bits, and the rest */
#define PG_INV_LN2_LO 1.9259629911266175e-08
#define PG_INV_LN10_HI 0.4342944771051407     /* 1/ln 10 to 26 bits, and the rest */
#define PG_INV_LN10_LO 4.798111141615973e-09
#define PG_LOG10_2_HI 0.30102999566395283     /* log10 2 to 42 bits, and the rest */
#define PG_LOG10_2_LO 2.8363394551044964e-14

PG_ALWAYS_INLINE double
log2_double(double x, const int fused)
{
    return log_base_double(x, 1.0, 0.0, PG_INV_LN2_HI, PG_INV_LN2_LO, fused);
}

PG_ALWAYS_INLINE double
log10_double(double x, const int fused)
{
    return log_base_double(x, PG_LOG10_2_HI, PG_LOG10_2_LO, PG_INV_LN10_HI, PG_INV_LN10_LO, fused);
}

/* u = 1 + (y + yl) rounded, and c the rest over u (1 + y's rounding error is exact: y - (u - 1)
 * below 2, 1 - (u - y) from 2 up), so that log(1 + y + yl) = log u + log(1 + c) = log u + c */
PG_ALWAYS_INLINE double
one_plus(double y, double yl, double *c)
{
    double u = 1.0 + y;
    *c = ((u >= 2.0 ? 1.0 - (u - y) : y - (u - 1.0)) + yl) / u;
    return u;
}

/* log(1 + x) for x > -1 */
PG_ALWAYS_INLINE double
log1p_double(double x, const int fused)
{
    double c, u = one_plus(x, 0.0, &c);
    double y = log_double_plus(u, c, fused);
    return x == 0.0 ? x : y; /* log1p(-0) is -0 */
}

PG_ALWAYS_INLINE int
log1p_double_slow(double x)
{
    return !(x > -1.0 && x <= 1.7976931348623157e+308);
}

/* ------------------------------------------------------------------ float64 power
 * x^y = e^(y log x) for x > 0: log x as two doubles to about 2^-70 relative (|y log x| reaches 745,
 * so its absolute error must stay near 2^-62 for the result to be within 2^-60), y log x as two
 * doubles, and exp's reduction and polynomial taking the low part. */
#define PG_CBRT2 1.2599210498948732          /* 2^(1/3) and 2^(-1/3), centres of the outer thirds */
#define PG_CBRT2_INV 0.7937005259840998
#define PG_LOG_CBRT2_HI 0.23104906018664845  /* their logarithms, two doubles each */
#define PG_LOG_CBRT2_LO 9.78275379146626e-18
#define PG_LOG_CBRT2_INV_HI -0.23104906018664836
#define PG_LOG_CBRT2_INV_LO -4.02270473920663e-18
#define PG_TWO_THIRDS_HI 0.6666666666666666
#define PG_TWO_THIRDS_LO 3.700743415417188e-17

/* log x = *lo + the value returned, for x positive and normal: x = 2^e m with m in
 * [sqrt(1/2), sqrt(2)) split in thirds about c = 2^(-1/3), 1, 2^(1/3) (m - c exact), s = (m - c) /
 * (m + c) as two doubles (|s| <= 0.0578), log m = log c + 2 atanh s = log c + 2s + s^3 Q(s^2),
 * Q = sum 2 / (2j + 3) z^j to z^7 (truncation below 2^-75); s^3 and s^3 Q as two doubles (a
 * tenth of the sum, so their rounding counts); the sums two-sums. */
PG_ALWAYS_INLINE double
log_double_parts(double x, double *lo, const int fused)
{
    int e;
    double m = log_mantissa(x, &e);
    int upper = m > 1.122462048309373, lower = m < 0.8908987181403393; /* 2^(+-1/6) */
    double c = upper ? PG_CBRT2 : lower ? PG_CBRT2_INV : 1.0;
    double lc = upper ? PG_LOG_CBRT2_HI : lower ? PG_LOG_CBRT2_INV_HI : 0.0;
    double lcl = upper ? PG_LOG_CBRT2_LO : lower ? PG_LOG_CBRT2_INV_LO : 0.0;
    double n = m - c; /* exact: m within a factor 2 of c */
    double d = m + c, db = d - m, dl = (m - (d - db)) + (c - db); /* two-sum */
    double sh, sl = div_parts(n, 0.0, d, dl, &sh, fused);
    double z = sh * sh, zl = two_prod_err(sh, sh, z, fused);
    double ch = z * sh, cl = two_prod_err(z, sh, ch, fused) + PG_FMAD(zl, sh, 3.0 * z * sl); /* s^3 */
    double q = 2.0 / 17.0;
    q = PG_FMAD(q, z, 2.0 / 15.0);
    q = PG_FMAD(q, z, 2.0 / 13.0);
    q = PG_FMAD(q, z, 2.0 / 11.0);
    q = PG_FMAD(q, z, 2.0 / 9.0);
    q = PG_FMAD(q, z, 2.0 / 7.0);
    q = PG_FMAD(q, z, 2.0 / 5.0);
    double qt = PG_FMAD(q, z, PG_TWO_THIRDS_LO); /* Q - its first part */
    double th = ch * PG_TWO_THIRDS_HI;
    double tl = two_prod_err(ch, PG_TWO_THIRDS_HI, th, fused) + PG_FMAD(ch, qt, cl * PG_TWO_THIRDS_HI);
    double de = (double)e, a = de * PG_LN2_HI; /* exact */
    /* fast two-sums, the larger (or zero) first: |a| >= ln 2 > |lc| unless a = 0, |s1| >= 0.23
     * > |2s| unless s1 = 0, and |s2| > |s^3| */
    double s1 = a + lc, e1 = (a - s1) + lc;
    double s2 = s1 + 2.0 * sh, e2 = (s1 - s2) + 2.0 * sh;
    double s3 = s2 + th, e3 = (s2 - s3) + th;
    double rest = ((e1 + e2) + (e3 + tl)) + ((de * PG_LN2_LO + lcl) + 2.0 * sl);
    double hi = s3 + rest;
    *lo = (s3 - hi) + rest;
    return hi;
}

/* x^y for x > 0 normal and finite, y finite (and -x when y is an odd integer, +x when even) */
PG_ALWAYS_INLINE double
power_double(double x, double y, const int fused)
{
    double ax = fabs(x), lo;
    double hi = log_double_parts(ax, &lo, fused);
    double ph = y * hi;
    double pl = PG_FMAD(y, lo, two_prod_err(y, hi, ph, fused));
    int finite = fabs(ph) <= 750.0 && ph != 0.0; /* past that the result is inf or 0 */
    pl = finite ? pl : 0.0;                       /* (its low part meaningless, or NaN) */
    ph = ph > 720.0 ? 720.0 : ph;
    ph = ph < -760.0 ? -760.0 : ph;
    int64_t k;
    double q = ln2_multiple(ph, &k, fused);
    double rh = PG_FMAD(q, -PG_LN2_HI, ph); /* exact */
    double rl = PG_FMAD(q, -PG_LN2_LO, pl);
    double r = rh + rl, bb = r - rh, rr = (rh - (r - bb)) + (rl - bb); /* two-sum */
    double v = exp_tail(r, rr, k, fused);
    /* a negative base (with an integer y: others go to libm) gives y's parity's sign */
    double ay = fabs(y), t = ay < 0x1p52 ? ay + 0x1p52 : ay;
    int odd = (double_bits(t) & 1) && ay < 0x1p53;
    return x < 0.0 && odd ? -v : v;
}

/* zeros, infinities, NaN, subnormal bases and negative bases with a non-integer y to libm */
PG_ALWAYS_INLINE int
power_double_slow(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    double rounded = ay < 0x1p52 ? (ay + 0x1p52) - 0x1p52 : ay; /* y's magnitude rounded to an integer */
    int fast = ax >= 2.2250738585072014e-308 && ax <= 1.7976931348623157e+308 && ay <= 1.7976931348623157e+308;
    return (!fast) | ((x < 0.0) & (rounded != ay));
}

/* ------------------------------------------------------------------ float64 sinh, cosh, tanh */

/* e^a / 2 as *h + *hl (about 2^-60 relative) for a >= 0: exp's arithmetic with its last sum
 * left unevaluated, scaled by 2^(k-1) in two factors, so that no overflow comes before
 * e^a / 2's own (a is cut at 720, past it) */
PG_ALWAYS_INLINE void
half_exp_parts(double a, double *h, double *hl, const int fused)
{
    int64_t k;
    double r = exp_reduce(a > 720.0 ? 720.0 : a, &k, fused);
    double one_r = 1.0 + r, one_r_lo = (1.0 - one_r) + r;
    double s1 = pow2_double((k - 1) >> 1), s2 = pow2_double((k - 1) - ((k - 1) >> 1));
    *h = one_r * s1 * s2;
    *hl = PG_FMAD(exp_poly(r, fused), r * r, one_r_lo) * s1 * s2;
}

/* cosh x = h + 1/(4h), h = e^|x| / 2 as two doubles (the small term added to h's low part;
 * below h's last bit from |x| = 19 on) */
PG_ALWAYS_INLINE double
cosh_double(double x, const int fused)
{
    double a = fabs(x), h, hl;
    half_exp_parts(a, &h, &hl, fused);
    return h + (hl + 0.25 / (h + hl));
}

/* sinh x: below |x| = 1 its Taylor series to x^19 (truncation below 2^-65); above, h - 1/(4h)
 * with h = e^|x| / 2 as two doubles (the small term subtracted from h's low part). */
PG_ALWAYS_INLINE double
sinh_double(double x, const int fused)
{
    double a = fabs(x);
    double z = a * a;
    double p = 1.0 / 121645100408832000.0; /* 1/19! */
    p = PG_FMAD(p, z, 1.0 / 355687428096000.0);
    p = PG_FMAD(p, z, 1.0 / 1307674368000.0);
    p = PG_FMAD(p, z, 1.0 / 6227020800.0);
    p = PG_FMAD(p, z, 1.0 / 39916800.0);
    p = PG_FMAD(p, z, 1.0 / 362880.0);
    p = PG_FMAD(p, z, 1.0 / 5040.0);
    p = PG_FMAD(p, z, 1.0 / 120.0);
    p = PG_FMAD(p, z, 1.0 / 6.0);
    double small = PG_FMAD(a * z, p, a);
    double h, hl;
    half_exp_parts(a, &h, &hl, fused);
    double y = a < 1.0 ? small : h + (hl - 0.25 / (h + hl));
    return __builtin_copysign(y, x);
}

/* tanh |x| = -t / (t + 2), t = e^(-2|x|) - 1 in (-1, 0] as two doubles, the quotient corrected
 * once by its exact remainder; |x| >= 20 gives 1 to the precision. */
PG_ALWAYS_INLINE double
tanh_double(double x, const int fused)
{
    double a = fabs(x);
    a = a > 20.0 ? 20.0 : a;
    double th, tl;
    expm1_double_parts(-2.0 * a, &th, &tl, fused);
    double d = 2.0 + th, dl = ((2.0 - d) + th) + tl; /* t + 2 as two doubles */
    double q, ql = div_parts(-th, -tl, d, dl, &q, fused);
    return __builtin_copysign(q + ql, x);
}

/* ------------------------------------------------------------------ float64 sin, cos, tan
 * x = q pi/2 + r with pi/2 in three 33-bit parts and a rest (Cody-Waite: q times each part is
 * exact for |q| < 2^20, so |x| <= 2^19 pi/2; libm past that), r as two doubles; sin r and cos r
 * by their Taylor series to r^19 and r^20 (truncation below 2^-70 for |r| <= pi/4), each as two
 * doubles; tan as their quotient corrected by its exact remainder. */
#define PG_PIO2_1 0x1.921fb544p+0
#define PG_PIO2_2 0x1.0b4611a6p-34
#define PG_PIO2_3 0x1.3198a2ep-69
#define PG_PIO2_3T 8.4784276603689e-32
#define PG_TRIG_LIMIT_D 823549.6 /* 2^19 pi/2 */

/* the quadrant q (mod 4, in its low bits) and r = *rh + *rl */
PG_ALWAYS_INLINE int
reduce_pio2(double x, double *rh, double *rl)
{
    double t = x * 0.6366197723675814 + PG_MAGIC_D;
    int quadrant = (int)(uint32_t)double_bits(t);
    double q = t - PG_MAGIC_D;
    double a = x - q * PG_PIO2_1; /* exact: the product, and the difference of close values */
    double b = -q * PG_PIO2_2, c = -q * PG_PIO2_3;
    double r = a + b, bb = r - a, e = (a - (r - bb)) + (b - bb); /* two-sums */
    double r2 = r + c;
    bb = r2 - r;
    e += (r - (r2 - bb)) + (c - bb);
    e -= q * PG_PIO2_3T;
    *rh = r2 + e;
    *rl = (r2 - *rh) + e;
    return quadrant;
}

/* sin r and cos r for r = rh + rl, |r| <= pi/4, as (*sh, *sl) and (*ch, *cl) */
PG_ALWAYS_INLINE void
sincos_parts(double rh, double rl, double *sh, double *sl, double *ch, double *cl, const int fused)
{
    double z = rh * rh, zl = two_prod_err(rh, rh, z, fused);
    double S = -1.0 / 121645100408832000.0; /* -1/19! */
    S = PG_FMAD(S, z, 1.0 / 355687428096000.0);
    S = PG_FMAD(S, z, -1.0 / 1307674368000.0);
    S = PG_FMAD(S, z, 1.0 / 6227020800.0);
    S = PG_FMAD(S, z, -1.0 / 39916800.0);
    S = PG_FMAD(S, z, 1.0 / 362880.0);
    S = PG_FMAD(S, z, -1.0 / 5040.0);
    S = PG_FMAD(S, z, 1.0 / 120.0);
    S = PG_FMAD(S, z, -1.0 / 6.0);
    double stail = PG_FMAD(rh * z, S, rl * (1.0 - 0.5 * z)); /* sin r - rh */
    *sh = rh + stail;
    *sl = (rh - *sh) + stail;
    double C = 1.0 / 2432902008176640000.0; /* 1/20! */
    C = PG_FMAD(C, z, -1.0 / 6402373705728000.0);
    C = PG_FMAD(C, z, 1.0 / 20922789888000.0);
    C = PG_FMAD(C, z, -1.0 / 87178291200.0);
    C = PG_FMAD(C, z, 1.0 / 479001600.0);
    C = PG_FMAD(C, z, -1.0 / 3628800.0);
    C = PG_FMAD(C, z, 1.0 / 40320.0);
    C = PG_FMAD(C, z, -1.0 / 720.0);
    C = PG_FMAD(C, z, 1.0 / 24.0);
    double hz = 0.5 * z, w = 1.0 - hz;
    double ctail = (((1.0 - w) - hz) - 0.5 * zl) + PG_FMAD(z * z, C, -rh * rl); /* cos r - w */
    *ch = w + ctail;
    *cl = (w - *ch) + ctail;
}

/* sin x (shift 0) or cos x (shift 1) */
PG_ALWAYS_INLINE double
trig_double64(double x, int shift, const int fused)
{
    double rh, rl, sh, sl, ch, cl;
    int quadrant = reduce_pio2(x, &rh, &rl) + shift;
    sincos_parts(rh, rl, &sh, &sl, &ch, &cl, fused);
    double y = (quadrant & 1) ? ch : sh;
    y = (quadrant & 2) ? -y : y;
    return (shift == 0 && x == 0.0) ? x : y; /* sin(-0) is -0 */
}

PG_ALWAYS_INLINE double
sin_double(double x, const int fused)
{
    return trig_double64(x, 0, fused);
}

PG_ALWAYS_INLINE double
cos_double(double x, const int fused)
{
    return trig_double64(x, 1, fused);
}

/* tan x = sin r / cos r, or -cos r / sin r in odd quadrants */
PG_ALWAYS_INLINE double
tan_double(double x, const int fused)
{
    double rh, rl, sh, sl, ch, cl;
    int odd = reduce_pio2(x, &rh, &rl) & 1;
    sincos_parts(rh, rl, &sh, &sl, &ch, &cl, fused);
    double nh = odd ? ch : sh, nl = odd ? cl : sl, dh = odd ? sh : ch, dl = odd ? sl : cl;
    double q, ql = div_parts(nh, nl, dh, dl, &q, fused);
    double y = q + ql;
    return x == 0.0 ? x : odd ? -y : y; /* tan(-0) is -0 */
}

PG_ALWAYS_INLINE int
trig_double_slow(double x)
{
    return !(fabs(x) <= PG_TRIG_LIMIT_D);
}

/* ------------------------------------------------------------------ float64 arcsinh, arccosh, arctanh
 * Each is one log of an argument chosen by range (u, with a small correction c: log u + c). */

/* sqrt(p + pl) as *hi + *lo: the root rounded, corrected by its exact residual over twice itself */
PG_ALWAYS_INLINE void
sqrt_parts(double p, double pl, double *hi, double *lo, const int fused)
{
    double r = sqrt(p), rr = r * r;
    *hi = r;
    double lo_r = (((p - rr) - two_prod_err(r, r, rr, fused)) + pl) / (2.0 * r);
    *lo = r > 0.0 ? lo_r : 0.0;
}

/* asinh |x| = log1p(y): below 2, y = a + sqrt(1 + a^2) - 1 as two doubles (a^2, its sum with 1 and
 * the root each with their low parts; sqrt - 1 exact); to 2^28, y + 1 = 2a + 1 / (a + sqrt(a^2 + 1))
 * (the sum's rounding error kept); past that, log a + ln 2 (a^2 + 1 is a^2) */
PG_ALWAYS_INLINE double
arcsinh_double(double x, const int fused)
{
    double a = fabs(x);
    double b = a > 0x1p28 ? 0x1p28 : a;
    double z = b * b, zl = two_prod_err(b, b, z, fused);
    double w = 1.0 + z, wb = w - 1.0, wl = ((1.0 - (w - wb)) + (z - wb)) + zl; /* two-sum */
    double sq, sql;
    sqrt_parts(w, wl, &sq, &sql, fused);
    double r = sq - 1.0; /* exact: sq in [1, 2.24] */
    double y = b + r, yl = ((b - y) + r) + sql; /* fast two-sum: b >= r */
    double cs, us = one_plus(y, yl, &cs);
    double sm = 1.0 / (b + sqrt(z + 1.0)), um = 2.0 * b + sm, cm = ((2.0 * b - um) + sm) / um;
    double u = a < 2.0 ? us : a <= 0x1p28 ? um : a;
    double c = a < 2.0 ? cs : a <= 0x1p28 ? cm : PG_LN2_D;
    double v = log_double_plus(u, c, fused);
    return a < 0x1p-28 ? x : __builtin_copysign(v, x); /* x - x^3/6 is x to the precision */
}

/* acosh x for x >= 1 = log1p(y): to 2, y = t + sqrt(2t + t^2) with t = x - 1 (exact) and
 * 2t + t^2 and its root as two doubles; to 2^28, y + 1 = 2x - 1 / (x + sqrt(x^2 - 1)) (the
 * difference's rounding error kept); past that, log x + ln 2 */
PG_ALWAYS_INLINE double
arccosh_double(double x, const int fused)
{
    double b = x > 0x1p28 ? 0x1p28 : x, t = b - 1.0;
    double tt = t * t, ttl = two_prod_err(t, t, tt, fused);
    double p = 2.0 * t + tt, pl = ((2.0 * t - p) + tt) + ttl; /* fast two-sum: 2t >= t^2 for t <= 2 */
    double sq, sql;
    sqrt_parts(p, pl, &sq, &sql, fused);
    double y = sq + t, yl = ((sq - y) + t) + sql; /* fast two-sum: the root >= t */
    double cs, us = one_plus(y, yl, &cs);
    double sm = 1.0 / (b + sqrt(b * b - 1.0)), um = 2.0 * b - sm, cm = ((2.0 * b - um) - sm) / um;
    double u = x <= 2.0 ? us : x <= 0x1p28 ? um : x;
    double c = x <= 2.0 ? cs : x <= 0x1p28 ? cm : PG_LN2_D;
    return log_double_plus(u, c, fused);
}

/* atanh |x| = log1p(y) / 2, y = 2a / (1 - a) as two doubles (1 - a and the quotient each with
 * their exact remainders) */
PG_ALWAYS_INLINE double
arctanh_double(double x, const int fused)
{
    double a = fabs(x), t = a + a;
    double d = 1.0 - a, dl = (1.0 - d) - a; /* fast two-sum: 1 >= a */
    double q, yl = div_parts(t, 0.0, d, dl, &q, fused);
    double c, u = one_plus(q, yl, &c);
    double r = 0.5 * log_double_plus(u, c, fused);
    return a < 0x1p-28 ? x : __builtin_copysign(r, x); /* x + x^3/3 is x to the precision */
}

PG_ALWAYS_INLINE int
arccosh_double_slow(double x)
{
    return !(x >= 1.0 && x <= 1.7976931348623157e+308);
}

PG_ALWAYS_INLINE int
arctanh_double_slow(double x)
{
    return !(fabs(x) < 1.0);
}

PG_ALWAYS_INLINE int
not_finite_d(double x)
{
    return !(fabs(x) <= 1.7976931348623157e+308);
}

/* ------------------------------------------------------------------ float64 arctan, arctan2, arcsin, arccos
 * arctan and arctan2 from one angle (arcsin and arccos have a series of their own below): atan2
 * of two non-negative values given as two doubles each, with the x's sign. w = min / max in [0, 1] (two doubles: the quotient and its exact remainder), k =
 * round(8w), t = (w - k/8) / (1 + w k/8) in [-1/16, 1/16] (two doubles), atan t by its Taylor
 * series to t^15 (truncation below 2^-64), added to atan(k/8) (two doubles each, from 200-bit
 * values, picked by selects: the compilers' generic tuning makes no vector gathers from a table)
 * and to 0, pi/2 or pi by the octant. */
#define PG_ATAN_K8_HI_1 0.12435499454676144
#define PG_ATAN_K8_HI_2 0.24497866312686414
#define PG_ATAN_K8_HI_3 0.35877067027057225
#define PG_ATAN_K8_HI_4 0.4636476090008061
#define PG_ATAN_K8_HI_5 0.5585993153435624
#define PG_ATAN_K8_HI_6 0.6435011087932844
#define PG_ATAN_K8_HI_7 0.7188299996216245
#define PG_ATAN_K8_HI_8 0.7853981633974483
#define PG_ATAN_K8_LO_1 -3.1253241424539383e-18
#define PG_ATAN_K8_LO_2 1.0698755618734451e-17
#define PG_ATAN_K8_LO_3 -2.4623815582638635e-17
#define PG_ATAN_K8_LO_4 2.2698777452961687e-17
#define PG_ATAN_K8_LO_5 -5.4556305485916264e-18
#define PG_ATAN_K8_LO_6 1.5834785051444286e-17
#define PG_ATAN_K8_LO_7 -2.1478388444456983e-17
#define PG_ATAN_K8_LO_8 3.061616997868383e-17
#define PG_PI_2_LO 6.123233995736766e-17
#define PG_PI_HI 3.141592653589793
#define PG_PI_LO 1.2246467991473532e-16
#define PG_ATAN_PICK(J) hi = k == J ? PG_ATAN_K8_HI_##J : hi; lo = k == J ? PG_ATAN_K8_LO_##J : lo;

/* the angle of (x, y) for y = yh + yl >= 0, |x| = xh + xl, x negative or not; not both zero,
 * both finite */
PG_ALWAYS_INLINE double
atan2_parts_double(double yh, double yl, double xh, double xl, int x_negative, const int fused)
{
    int big = yh > xh;
    double mn = big ? xh : yh, mnl = big ? xl : yl, mx = big ? yh : xh, mxl = big ? yl : xl;
    /* without FMA, scaled down from 2^900 so that Dekker's split of the product below cannot
     * overflow (an mn that the scale makes subnormal gives a w that underflows anyway) */
    double scale = !fused && mx > 0x1p900 ? 0x1p-600 : 1.0;
    mn *= scale, mnl *= scale, mx *= scale, mxl *= scale;
    double w, wl = div_parts(mn, mnl, mx, mxl, &w, fused);
    double kd = w * 8.0 + 0.5;
    int k = (int)(kd >= 0.0 && kd < 9.0 ? kd : 0.0);
    double c = (double)k * 0.125;
    double n = w - c; /* exact: w is within 1/16 of c */
    double wc = w * c, d = 1.0 + wc;
    double dl = ((1.0 - d) + wc) + PG_FMAD(wl, c, two_prod_err(w, c, wc, fused));
    double t, tl = div_parts(n, wl, d, dl, &t, fused);
    double z = t * t;
    double poly = -1.0 / 15.0;
    poly = PG_FMAD(poly, z, 1.0 / 13.0);
    poly = PG_FMAD(poly, z, -1.0 / 11.0);
    poly = PG_FMAD(poly, z, 1.0 / 9.0);
    poly = PG_FMAD(poly, z, -1.0 / 7.0);
    poly = PG_FMAD(poly, z, 1.0 / 5.0);
    poly = PG_FMAD(poly, z, -1.0 / 3.0);
    double tail = PG_FMAD(t * z, poly, tl); /* atan(t + tl) - t */
    double hi = 0.0, lo = 0.0;              /* atan(k/8) */
    PG_ATAN_PICK(1) PG_ATAN_PICK(2) PG_ATAN_PICK(3) PG_ATAN_PICK(4)
    PG_ATAN_PICK(5) PG_ATAN_PICK(6) PG_ATAN_PICK(7) PG_ATAN_PICK(8)
    /* octants: atan w, pi/2 - atan w (y above x), pi - atan w (x negative), pi/2 + atan w */
    double sign = big != x_negative ? -1.0 : 1.0;
    double base = big ? PG_PI_2 : x_negative ? PG_PI_HI : 0.0;
    double base_lo = big ? PG_PI_2_LO : x_negative ? PG_PI_LO : 0.0;
    double sh = sign * hi, s = base + sh, bb = s - base;
    double err = (base - (s - bb)) + (sh - bb); /* two-sum */
    double small = (base_lo + sign * lo) + err;
    return s + sign * (t + (tail + sign * small));
}

PG_ALWAYS_INLINE double
arctan_double(double x, const int fused)
{
    return __builtin_copysign(atan2_parts_double(fabs(x), 0.0, 1.0, 0.0, 0, fused), x);
}

PG_ALWAYS_INLINE double
arctan2_double(double y, double x, const int fused)
{
    double r = atan2_parts_double(fabs(y), 0.0, fabs(x), 0.0, (double_bits(x) >> 63) != 0, fused);
    return __builtin_copysign(r, y);
}

/* asin and acos from one series: P(z) with asin t = t + t z P(z), z = t^2, for t in [0, 1/2]: a
 * Chebyshev fit of degree 13 on z in [0, 1/4] (relative error 2^-54 with the coefficients
 * rounded); arguments above 1/2 through asin t = pi/2 - 2 asin s, s = sqrt((1 - t) / 2) as two
 * doubles (z = s^2 exact). The tail t z P(z) is at most 9% of the result, so its few roundings
 * cost a few hundredths of an ulp. */
PG_ALWAYS_INLINE double
asin_poly(double z, const int fused)
{
    double p = 0.02961201126495512;
    p = PG_FMAD(p, z, -0.01924167174674304);
    p = PG_FMAD(p, z, 0.019554513336123378);
    p = PG_FMAD(p, z, 0.0030448799094556773);
    p = PG_FMAD(p, z, 0.009319560794767446);
    p = PG_FMAD(p, z, 0.009621842970100282);
    p = PG_FMAD(p, z, 0.011566459612121669);
    p = PG_FMAD(p, z, 0.01396378001220357);
    p = PG_FMAD(p, z, 0.017352816540325496);
    p = PG_FMAD(p, z, 0.02237215744350722);
    p = PG_FMAD(p, z, 0.03038194447553234);
    p = PG_FMAD(p, z, 0.044642857142551895);
    p = PG_FMAD(p, z, 0.07500000000000118);
    return PG_FMAD(p, z, 0.16666666666666666);
}

/* For t = |x| <= 1: *u and *ul, the series' argument (t, or s = sqrt((1 - t) / 2) as two doubles
 * above 1/2), and the tail u z P(z) returned (asin u = u + ul + tail to the precision) */
PG_ALWAYS_INLINE double
asin_parts(double t, int big, double *u, double *ul, const int fused)
{
    double w = (1.0 - t) * 0.5; /* exact for t >= 1/2 */
    double sh, sl;
    sqrt_parts(w, 0.0, &sh, &sl, fused);
    *u = big ? sh : t;
    *ul = big ? sl : 0.0;
    double z = big ? w : t * t;
    return *u * z * asin_poly(z, fused);
}

/* asin x: t + tail up to |x| = 1/2, pi/2 - 2 (s + tail) above (pi/2 - 2s as a two-sum) */
PG_ALWAYS_INLINE double
arcsin_double(double x, const int fused)
{
    double t = fabs(x), u, ul;
    int big = t > 0.5;
    double tail = asin_parts(t, big, &u, &ul, fused);
    double q = -2.0 * u, h = PG_PI_2 + q, hb = h - PG_PI_2;
    double herr = (PG_PI_2 - (h - hb)) + (q - hb);
    double outer = h + ((herr + PG_PI_2_LO) - 2.0 * (ul + tail));
    return __builtin_copysign(big ? outer : t + tail, x);
}

/* acos x: pi/2 - asin x up to |x| = 1/2; above, 2 (s + tail) for x > 0 and pi - 2 (s + tail) for
 * x < 0 (the differences as two-sums) */
PG_ALWAYS_INLINE double
arccos_double(double x, const int fused)
{
    double t = fabs(x), u, ul;
    int big = t > 0.5, negative = x < 0.0;
    double tail = asin_parts(t, big, &u, &ul, fused);
    double su = negative ? u : -u, st = negative ? tail : -tail; /* -asin x's parts, small x */
    double a = big ? PG_PI_HI : PG_PI_2, alo = big ? PG_PI_LO : PG_PI_2_LO;
    double q = big ? -2.0 * u : su;
    double h = a + q, hb = h - a, herr = (a - (h - hb)) + (q - hb);
    double rest = big ? (herr + alo) - 2.0 * (ul + tail) : (herr + alo) + st;
    double near = 2.0 * u + 2.0 * (ul + tail); /* x > 1/2 */
    return big && !negative ? near : h + rest;
}

PG_ALWAYS_INLINE int
arcsin_double_slow(double x) /* and arccos */
{
    return !(fabs(x) <= 1.0);
}

PG_ALWAYS_INLINE int
arctan2_double_slow(double y, double x)
{
    return !(fabs(y) <= 1.7976931348623157e+308 && fabs(x) <= 1.7976931348623157e+308) || (y == 0.0 && x == 0.0);
}

/* ------------------------------------------------------------------ float32 through float64
 * Simple formulas evaluated in double precision: their error (below 2^-35 relative) is far
 * below float32's half ulp, so the result is the exact value rounded but where the exact value
 * lies within 2^-12 ulp of a midpoint between two floats (arcsin: 68 of 213 million arguments,
 * 0.50004 ulp; arctan: 34 of 305 million; cbrt: none of 305 million). Their exp and log are the
 * float64 ones with shorter polynomials and no low parts. */

/* e^r - 1 for |r| <= ln 2 / 2: Taylor to r^10 (truncation below 2^-42) */
PG_ALWAYS_INLINE double
expm1_reduced_for_float(double r, const int fused)
{
    double p = 1.0 / 3628800.0; /* 1/10! */
    p = PG_FMAD(p, r, 1.0 / 362880.0);
    p = PG_FMAD(p, r, 1.0 / 40320.0);
    p = PG_FMAD(p, r, 1.0 / 5040.0);
    p = PG_FMAD(p, r, 1.0 / 720.0);
    p = PG_FMAD(p, r, 1.0 / 120.0);
    p = PG_FMAD(p, r, 1.0 / 24.0);
    p = PG_FMAD(p, r, 1.0 / 6.0);
    p = PG_FMAD(p, r, 0.5);
    return PG_FMAD(p, r * r, r);
}

/* e^x - 1 (for float32's range of x; x = k ln 2 + r, 2^k (e^r - 1) + (2^k - 1)) */
PG_ALWAYS_INLINE double
expm1_for_float(double x, const int fused)
{
    x = x > 200.0 ? 200.0 : x; /* inf past float32's range, still finite 2^k */
    x = x < -60.0 ? -60.0 : x;
    int64_t k;
    double r = PG_FMAD(ln2_multiple(x, &k, fused), -PG_LN2_D, x);
    double two_k = pow2_double(k);
    return PG_FMAD(two_k, expm1_reduced_for_float(r, fused), two_k - 1.0);
}

PG_ALWAYS_INLINE double
exp_for_float(double x, const int fused)
{
    x = x > 200.0 ? 200.0 : x;
    x = x < -200.0 ? -200.0 : x;
    int64_t k;
    double r = PG_FMAD(ln2_multiple(x, &k, fused), -PG_LN2_D, x);
    return (1.0 + expm1_reduced_for_float(r, fused)) * pow2_double(k);
}

/* log x for x positive, finite and normal in double (every float32 but 0): the float64 log's
 * series to s^12 (truncation below 2^-39) */
PG_ALWAYS_INLINE double
log_for_float(double x, const int fused)
{
    int e;
    double f = log_split(x, &e);
    double s = f / (2.0 + f);
    double z = s * s;
    double R = 2.0 / 13.0;
    R = PG_FMAD(R, z, 2.0 / 11.0);
    R = PG_FMAD(R, z, 2.0 / 9.0);
    R = PG_FMAD(R, z, 2.0 / 7.0);
    R = PG_FMAD(R, z, 2.0 / 5.0);
    R = PG_FMAD(R, z, 2.0 / 3.0);
    double hfsq = 0.5 * f * f;
    return PG_FMAD((double)e, PG_LN2_D, f - (hfsq - s * (hfsq + R * z)));
}

/* log(1 + x) for x > -1: below |x| = 2^-20 its series to x^3 (1 + x would round), else log(1 + x)
 * with 1 + x exact in double */
PG_ALWAYS_INLINE double
log1p_for_float(double x, const int fused)
{
    double series = x * (1.0 - x * (0.5 - x * (1.0 / 3.0)));
    return fabs(x) < 0x1p-20 ? series : log_for_float(1.0 + x, fused);
}

/* b^(-1/3) for b in float32's normal range: a first guess from the bits of b as a float
 * (exponent and mantissa divided by 3 and subtracted from a constant fitted for the smallest
 * error: 3.4% at most), then `steps` Newton steps r (4 - b r^3) / 3 in double, no division
 * (three steps: relative error below 2^-30; four: below 2^-49) */
PG_ALWAYS_INLINE double
inverse_cbrt(double b, int steps, const int fused)
{
    double third = b * (1.0 / 3.0);
    double r = bits_float(0x54a232a2u - float_bits((float)b) / 3u);
    for (int i = 0; i < steps; i++)
        r *= PG_FMAD(-third, r * r * r, 4.0 / 3.0);
    return r;
}

/* float64 cbrt |x| for |x| positive and finite: a = 2^(3k) b with b in [1/2, 4), b^(-1/3) from
 * float32 bits and three Newton steps r (4 - b r^3) / 3 (no division: relative error below
 * 2^-30), then one Newton step on the cube root with the exact residual a - y^3 (two doubles),
 * which leaves an error far below half an ulp before the last rounding; a is scaled by 2^-+999
 * towards 1 first at either end of the range (exactly, subnormals included), so that its
 * exponent is a normal number's and y^3 and its low part neither overflow nor underflow */
PG_ALWAYS_INLINE double
cbrt_double(double x, const int fused)
{
    double a = fabs(x);
    int big = a > 0x1p900, small = a < 0x1p-900;
    a *= big ? 0x1p-999 : small ? 0x1p999 : 1.0;
    double e = (double)((int)(double_bits(a) >> 52) - 1023);
    double t = e * (1.0 / 3.0) + PG_MAGIC_D; /* k = round(e / 3): e / 3 is never near a half */
    int64_t k = (int64_t)(double_bits(t) - double_bits(PG_MAGIC_D));
    double b = a * pow2_double(-3 * k), r = inverse_cbrt(b, 3, fused);
    double y = b * r * r * pow2_double(k);
    double y2 = y * y, e2 = two_prod_err(y, y, y2, fused);
    double y3 = y2 * y, e3 = PG_FMAD(e2, y, two_prod_err(y2, y, y3, fused));
    double residual = (a - y3) - e3; /* a - y^3: the difference of close values is exact */
    y += residual / (3.0 * y2);
    return __builtin_copysign(y * (big ? 0x1p333 : small ? 0x1p-333 : 1.0), x);
}

PG_ALWAYS_INLINE int
cbrt_double_slow(double x) /* zero, inf and NaN to libm (whose cbrt is 2.8 ulp off on subnormals) */
{
    return !(fabs(x) > 0.0 && fabs(x) <= 1.7976931348623157e+308);
}

PG_ALWAYS_INLINE float
exp2_float(float x, const int fused)
{
    double v = x > 200.0f ? 200.0 : x < -200.0f ? -200.0 : (double)x;
    double t = v + PG_MAGIC_D;
    int64_t k = (int64_t)(double_bits(t) - double_bits(PG_MAGIC_D));
    double r = (v - (t - PG_MAGIC_D)) * PG_LN2_D; /* the difference is exact */
    return (float)((1.0 + expm1_reduced_for_float(r, fused)) * pow2_double(k));
}

PG_ALWAYS_INLINE float
expm1_float(float x, const int fused)
{
    return x == 0.0f ? x : (float)expm1_for_float(x, fused); /* expm1(-0) is -0 */
}

PG_ALWAYS_INLINE float
log2_float(float x, const int fused)
{
    return (float)(log_for_float(x, fused) * 1.4426950408889634);
}

PG_ALWAYS_INLINE float
log10_float(float x, const int fused)
{
    return (float)(log_for_float(x, fused) * 0.4342944819032518);
}

PG_ALWAYS_INLINE float
log1p_float(float x, const int fused)
{
    return (float)log1p_for_float(x, fused);
}

PG_ALWAYS_INLINE float
sinh_float(float x, const int fused)
{
    double em = expm1_for_float(fabs((double)x), fused); /* finite: the argument stops at 200 */
    return (float)__builtin_copysign(0.5 * (em + em / (em + 1.0)), (double)x);
}

PG_ALWAYS_INLINE float
cosh_float(float x, const int fused)
{
    double e = exp_for_float(fabs((double)x), fused);
    return (float)(0.5 * (e + 1.0 / e));
}

PG_ALWAYS_INLINE float
tanh_float(float x, const int fused)
{
    double a = fabs((double)x);
    double t = expm1_for_float(-2.0 * a, fused); /* -1 from a = 30 on */
    return (float)__builtin_copysign(-t / (t + 2.0), (double)x);
}

PG_ALWAYS_INLINE float
arcsinh_float(float x, const int fused)
{
    double a = fabs((double)x), z = a * a; /* no overflow in double */
    return (float)__builtin_copysign(log1p_for_float(a + z / (1.0 + sqrt(1.0 + z)), fused), (double)x);
}

PG_ALWAYS_INLINE float
arccosh_float(float x, const int fused)
{
    double t = (double)x - 1.0; /* exact */
    return (float)log1p_for_float(t + sqrt(t * (t + 2.0)), fused);
}

PG_ALWAYS_INLINE float
arctanh_float(float x, const int fused)
{
    double a = fabs((double)x);
    return (float)__builtin_copysign(0.5 * log1p_for_float(2.0 * a / (1.0 - a), fused), (double)x);
}

/* cbrt |x| = |x| r^2 with r = |x|^(-1/3) by inverse_cbrt's four steps (relative error below
 * 2^-49); a subnormal x scaled by 2^24 first and its root by 2^-8 after */
PG_ALWAYS_INLINE float
cbrt_float(float x, const int fused)
{
    float ax = fabsf(x);
    int tiny = ax < 0x1p-126f;
    float as = tiny ? ax * 0x1p24f : ax;
    double a = as, r = inverse_cbrt(a, 4, fused);
    return (float)__builtin_copysign(a * r * r * (tiny ? 0x1p-8 : 1.0), (double)x);
}

/* tan x = sin r / cos r, or -cos r / sin r in odd quadrants (for |x| <= 71476) */
PG_ALWAYS_INLINE float
tan_float(float x, const int fused)
{
    (void)fused;
    double s, c;
    int quadrant;
    sincos_reduced_double(x, &s, &c, &quadrant);
    return x == 0.0f ? x : (float)((quadrant & 1) ? -c / s : s / c); /* tan(-0) is -0 */
}

/* atan a for a >= 0 (inf included): reduced to |t| <= tan(pi/8) by atan a = pi/2 - atan(1/a)
 * above tan(3pi/8) and pi/4 + atan((a - 1)/(a + 1)) above tan(pi/8), then t + t z P(z), z = t^2,
 * P a Chebyshev fit of degree 6 on [0, tan^2(pi/8)] (error below 2^-38 relative; for float32
 * results) */
PG_ALWAYS_INLINE double
atan_for_float(double a, const int fused)
{
    int big = a > 2.414213562373095, mid = a > 0.41421356237309503;
    double t = (big ? -1.0 : mid ? a - 1.0 : a) / (big ? a : mid ? a + 1.0 : 1.0);
    double base = big ? PG_PI_2 : mid ? PG_PI_4 : 0.0;
    double z = t * t;
    double p = -0.04043223436192419;
    p = PG_FMAD(p, z, 0.07135324464525214);
    p = PG_FMAD(p, z, -0.0902898338447586);
    p = PG_FMAD(p, z, 0.1110749512639246);
    p = PG_FMAD(p, z, -0.14285612511051807);
    p = PG_FMAD(p, z, 0.19999998917284234);
    p = PG_FMAD(p, z, -0.33333333331440723);
    return base + PG_FMAD(t * z, p, t);
}

PG_ALWAYS_INLINE float
arctan_float(float x, const int fused)
{
    return (float)__builtin_copysign(atan_for_float(fabs((double)x), fused), (double)x);
}

/* asin t for 0 <= t <= 1/2: t + t z P(z), z = t^2, P a Chebyshev fit of degree 7 on [0, 1/4]
 * (error below 2^-38 relative to asin t) */
PG_ALWAYS_INLINE double
asin_series_for_float(double t, const int fused)
{
    double z = t * t;
    double p = 0.02930523970533579;
    p = PG_FMAD(p, z, 0.0054431851027481075);
    p = PG_FMAD(p, z, 0.019306260869368045);
    p = PG_FMAD(p, z, 0.022132443623426794);
    p = PG_FMAD(p, z, 0.030397634130580702);
    p = PG_FMAD(p, z, 0.044642358484883196);
    p = PG_FMAD(p, z, 0.07500000598829049);
    p = PG_FMAD(p, z, 0.16666666665495086);
    return PG_FMAD(t * z, p, t);
}

/* asin |x| = the series at |x| up to 1/2, and pi/2 - 2 asin sqrt((1 - |x|) / 2) above (the
 * root's argument exact in double): one root, no division, no cancellation (the result is at
 * least pi/6 there) */
PG_ALWAYS_INLINE float
arcsin_float(float x, const int fused)
{
    double a = fabs((double)x);
    int big = a > 0.5;
    double t = big ? sqrt((1.0 - a) * 0.5) : a;
    double s = asin_series_for_float(t, fused);
    return (float)__builtin_copysign(big ? PG_PI_2 - 2.0 * s : s, (double)x);
}

/* acos x = pi/2 - asin x up to |x| = 1/2, and 2 asin sqrt((1 - |x|) / 2) above, subtracted from
 * pi for negative x */
PG_ALWAYS_INLINE float
arccos_float(float x, const int fused)
{
    double v = x, a = fabs(v);
    int big = a > 0.5;
    double t = big ? sqrt((1.0 - a) * 0.5) : a;
    double s = asin_series_for_float(t, fused);
    double small = PG_PI_2 - __builtin_copysign(s, v);
    double outer = v > 0.0 ? 2.0 * s : 3.141592653589793 - 2.0 * s;
    return (float)(big ? outer : small);
}

/* x^y = e^(y log x) for x positive and finite, y finite (log's error times |y| stays below 2^-36
 * where the result is in float32's range) */
PG_ALWAYS_INLINE float
power_float(float x, float y, const int fused)
{
    return (float)exp_for_float((double)y * log_for_float(x, fused), fused);
}

/* atan2(y, x) = +-atan(|y| / |x|), or +-(pi - atan(|y| / |x|)) for x negative (-0 included),
 * with y's sign; for finite arguments not both zero (the quotient is finite or inf in double) */
PG_ALWAYS_INLINE float
arctan2_float(float y, float x, const int fused)
{
    double r = atan_for_float(fabs((double)y) / fabs((double)x), fused);
    r = float_bits(x) >> 31 ? 3.141592653589793 - r : r; /* x negative, -0 included */
    return (float)__builtin_copysign(r, (double)y);
}

/* ------------------------------------------------------------------ the fast ranges
 * An argument outside a function's range goes to libm (vmath_cpu.c's second pass). */

PG_ALWAYS_INLINE int
is_nan_f(float x)
{
    return x != x;
}

PG_ALWAYS_INLINE int
is_nan_d(double x)
{
    return x != x;
}

PG_ALWAYS_INLINE int
not_finite_f(float x)
{
    return !(fabsf(x) <= 3.40282347e+38f);
}

PG_ALWAYS_INLINE int
positive_normal_f_slow(float x) /* log2, log10, cbrt of |x|: zero, negative, inf and NaN to libm */
{
    return !(x > 0.0f && x <= 3.40282347e+38f);
}

PG_ALWAYS_INLINE int
cbrt_float_slow(float x)
{
    return positive_normal_f_slow(fabsf(x));
}

PG_ALWAYS_INLINE int
log1p_float_slow(float x)
{
    return !(x > -1.0f && x <= 3.40282347e+38f);
}

PG_ALWAYS_INLINE int
arccosh_float_slow(float x)
{
    return !(x >= 1.0f && x <= 3.40282347e+38f);
}

PG_ALWAYS_INLINE int
arctanh_float_slow(float x)
{
    return !(fabsf(x) < 1.0f);
}

PG_ALWAYS_INLINE int
arcsin_float_slow(float x) /* and arccos */
{
    return !(fabsf(x) <= 1.0f);
}

PG_ALWAYS_INLINE int
power_float_slow(float x, float y)
{
    return !(x > 0.0f && x <= 3.40282347e+38f && fabsf(y) <= 3.40282347e+38f);
}

PG_ALWAYS_INLINE int
arctan2_float_slow(float y, float x)
{
    return not_finite_f(y) || not_finite_f(x) || (y == 0.0f && x == 0.0f);
}

#endif
