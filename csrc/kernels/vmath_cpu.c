/* The CPU's whole-array math (see vmath.h): one vectorised pass per function, built for three
 * instruction-set variants and chosen once at run time from what the CPU supports, then libm for
 * the arguments outside the pass's range.
 *
 *   - x86-64-v4 (AVX-512) and x86-64-v3 (AVX2 + FMA): fused multiply-adds.
 *   - baseline (any CPU, and other architectures): no FMA; float32 sin/cos reduce and evaluate in
 *     double precision instead, the float64 functions split products by halves where they need
 *     them exact.
 *
 * The element functions are in vmath_elements.h. Max errors measured over millions of arguments
 * (tests/test_vmath.py): float32 sin/cos 1.5 ulp, exp 1.0, log 0.8 (NumPy's own SIMD loops: 1.5,
 * 2.3, 3.6 on the same arguments), the float32 functions computed in double 0.5 (the exact value
 * rounded); float64 0.5 (cbrt) to 1.0 (tan), most about 0.8, power 0.64 (glibc's: 0.5-0.8), as
 * test_vmath.py's bounds say. Arguments outside a function's fast range (float32 sin/cos/tan:
 * |x| > 71476, float64: |x| > 823549, or not finite; logarithms: subnormal; and so on) set a flag
 * in the vector pass, and a second pass gives those elements to libm, so every result is libm's
 * or within the bounds; NaNs and the arguments outside a function's domain or at its edges
 * (logarithms of zero and negative numbers, arcsin past 1, ...) get libm's value in the pass. */
#include <math.h>
#include <string.h>
#include "vmath.h"
#include "vmath_elements.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define PG_VMATH_X86 1
#define PG_TARGET_V4 __attribute__((target("arch=x86-64-v4")))
#define PG_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
#else
#define PG_VMATH_X86 0
#endif

/* ------------------------------------------------------------------ the functions */

PG_ALWAYS_INLINE float
sin_float(float x, const int fused)
{
    return fused ? trig_float(x, 0, 1) : trig_double(x, 0);
}

PG_ALWAYS_INLINE float
cos_float(float x, const int fused)
{
    return fused ? trig_float(x, 1, 1) : trig_double(x, 1);
}

/* sqrt is exact in every variant (IEEE); a whole-array loop so that strided operands go through
 * blocks: scalar sqrtss in a strided loop waits on each previous result (it writes only the
 * register's low lane), 4x slower than the blocks' packed sqrt */
PG_ALWAYS_INLINE float
sqrt_float(float x, const int fused)
{
    (void)fused;
    return __builtin_sqrtf(x);
}

PG_ALWAYS_INLINE double
sqrt_double(double x, const int fused)
{
    (void)fused;
    return __builtin_sqrt(x);
}

PG_ALWAYS_INLINE int
never_slow_float(float x)
{
    (void)x;
    return 0;
}

PG_ALWAYS_INLINE int
never_slow_double(double x)
{
    (void)x;
    return 0;
}

/* Special arguments, whose results need no computation: NAME_is_T(v) says which, NAME_value_T(v)
 * gives libm's value: a NaN itself, quiet (v + v, as libm's functions of one argument give it);
 * outside the domain the invalid operation's NaN, computed as glibc does ((v - v) / (v - v): the
 * CPU's default NaN); at the domain's edges the infinity. */
#define PG_INVALID(v) (((v) - (v)) / ((v) - (v)))
#define PG_VMATH_SPECIALS(T, ABS)                                                                  \
    /* any function: NaN */                                                                        \
    PG_ALWAYS_INLINE int nan_is_##T(T v) { return v != v; }                                        \
    PG_ALWAYS_INLINE T nan_value_##T(T v) { return v + v; }                                        \
    /* log, log2, log10: 0 gives -inf, negative numbers NaN, +inf itself */                        \
    PG_ALWAYS_INLINE int logarithm_is_##T(T v) { return !(v > 0) || v == (T)INFINITY; }            \
    PG_ALWAYS_INLINE T logarithm_value_##T(T v)                                                    \
    {                                                                                              \
        return v != v ? v + v : v == 0 ? (T)-INFINITY : v < 0 ? PG_INVALID(v) : v;                 \
    }                                                                                              \
    /* log1p: -1 gives -inf, below it NaN, +inf itself */                                          \
    PG_ALWAYS_INLINE int log1p_is_##T(T v) { return !(v > -1) || v == (T)INFINITY; }               \
    PG_ALWAYS_INLINE T log1p_value_##T(T v)                                                        \
    {                                                                                              \
        return v != v ? v + v : v == -1 ? (T)-INFINITY : v < -1 ? PG_INVALID(v) : v;               \
    }                                                                                              \
    /* arcsin, arccos: NaN past +-1 */                                                             \
    PG_ALWAYS_INLINE int arcsin_is_##T(T v) { return !(ABS(v) <= 1); }                             \
    PG_ALWAYS_INLINE T arcsin_value_##T(T v) { return v != v ? v + v : PG_INVALID(v); }            \
    /* arccosh: NaN below 1, +inf itself */                                                        \
    PG_ALWAYS_INLINE int arccosh_is_##T(T v) { return !(v >= 1) || v == (T)INFINITY; }             \
    PG_ALWAYS_INLINE T arccosh_value_##T(T v) { return v != v ? v + v : v < 1 ? PG_INVALID(v) : v; } \
    /* arctanh: +-1 give +-inf, NaN past them */                                                   \
    PG_ALWAYS_INLINE int arctanh_is_##T(T v) { return !(ABS(v) < 1); }                             \
    PG_ALWAYS_INLINE T arctanh_value_##T(T v)                                                      \
    {                                                                                              \
        return v != v ? v + v : v == 1 ? (T)INFINITY : v == -1 ? (T)-INFINITY : PG_INVALID(v);     \
    }
PG_VMATH_SPECIALS(float, fabsf)
PG_VMATH_SPECIALS(double, fabs)

/* X(NAME, T, ELEMENT, SLOW, LIBM, SPECIAL, ...): the loop NAME over T computes ELEMENT(v, fused)
 * for each element v, SPECIAL's value where SLOW and SPECIAL's predicate hold (NaNs, and the
 * arguments outside the domain or at its edges), and LIBM(v) where SLOW(v) for the rest */
#define PG_VMATH_FUNCTIONS(X, ...)                                                           \
    X(sin_f32, float, sin_float, trig_slow, sinf, nan, __VA_ARGS__)                          \
    X(cos_f32, float, cos_float, trig_slow, cosf, nan, __VA_ARGS__)                          \
    X(tan_f32, float, tan_float, trig_slow, tanf, nan, __VA_ARGS__)                          \
    X(arcsin_f32, float, arcsin_float, arcsin_float_slow, asinf, arcsin, __VA_ARGS__)        \
    X(arccos_f32, float, arccos_float, arcsin_float_slow, acosf, arcsin, __VA_ARGS__)        \
    X(arctan_f32, float, arctan_float, is_nan_f, atanf, nan, __VA_ARGS__)                    \
    X(sinh_f32, float, sinh_float, is_nan_f, sinhf, nan, __VA_ARGS__)                        \
    X(cosh_f32, float, cosh_float, is_nan_f, coshf, nan, __VA_ARGS__)                        \
    X(tanh_f32, float, tanh_float, is_nan_f, tanhf, nan, __VA_ARGS__)                        \
    X(arcsinh_f32, float, arcsinh_float, not_finite_f, asinhf, nan, __VA_ARGS__)             \
    X(arccosh_f32, float, arccosh_float, arccosh_float_slow, acoshf, arccosh, __VA_ARGS__)   \
    X(arctanh_f32, float, arctanh_float, arctanh_float_slow, atanhf, arctanh, __VA_ARGS__)   \
    X(exp_f32, float, exp_float, never_slow_float, expf, nan, __VA_ARGS__)                   \
    X(exp2_f32, float, exp2_float, is_nan_f, exp2f, nan, __VA_ARGS__)                        \
    X(expm1_f32, float, expm1_float, is_nan_f, expm1f, nan, __VA_ARGS__)                     \
    X(log_f32, float, log_float, log_slow, logf, logarithm, __VA_ARGS__)                     \
    X(log2_f32, float, log2_float, positive_normal_f_slow, log2f, logarithm, __VA_ARGS__)    \
    X(log10_f32, float, log10_float, positive_normal_f_slow, log10f, logarithm, __VA_ARGS__) \
    X(log1p_f32, float, log1p_float, log1p_float_slow, log1pf, log1p, __VA_ARGS__)           \
    X(cbrt_f32, float, cbrt_float, cbrt_float_slow, cbrtf, nan, __VA_ARGS__)                 \
    X(sqrt_f32, float, sqrt_float, never_slow_float, sqrtf, nan, __VA_ARGS__)                \
    X(sin_f64, double, sin_double, trig_double_slow, sin, nan, __VA_ARGS__)                  \
    X(cos_f64, double, cos_double, trig_double_slow, cos, nan, __VA_ARGS__)                  \
    X(tan_f64, double, tan_double, trig_double_slow, tan, nan, __VA_ARGS__)                  \
    X(arcsin_f64, double, arcsin_double, arcsin_double_slow, asin, arcsin, __VA_ARGS__)      \
    X(arccos_f64, double, arccos_double, arcsin_double_slow, acos, arcsin, __VA_ARGS__)      \
    X(arctan_f64, double, arctan_double, not_finite_d, atan, nan, __VA_ARGS__)               \
    X(sinh_f64, double, sinh_double, is_nan_d, sinh, nan, __VA_ARGS__)                       \
    X(cosh_f64, double, cosh_double, is_nan_d, cosh, nan, __VA_ARGS__)                       \
    X(tanh_f64, double, tanh_double, is_nan_d, tanh, nan, __VA_ARGS__)                       \
    X(arcsinh_f64, double, arcsinh_double, not_finite_d, asinh, nan, __VA_ARGS__)            \
    X(arccosh_f64, double, arccosh_double, arccosh_double_slow, acosh, arccosh, __VA_ARGS__) \
    X(arctanh_f64, double, arctanh_double, arctanh_double_slow, atanh, arctanh, __VA_ARGS__) \
    X(exp_f64, double, exp_double, never_slow_double, exp, nan, __VA_ARGS__)                 \
    X(exp2_f64, double, exp2_double, is_nan_d, exp2, nan, __VA_ARGS__)                       \
    X(expm1_f64, double, expm1_double, is_nan_d, expm1, nan, __VA_ARGS__)                    \
    X(log_f64, double, log_double, log_double_slow, log, logarithm, __VA_ARGS__)             \
    X(log2_f64, double, log2_double, log_double_slow, log2, logarithm, __VA_ARGS__)          \
    X(log10_f64, double, log10_double, log_double_slow, log10, logarithm, __VA_ARGS__)       \
    X(log1p_f64, double, log1p_double, log1p_double_slow, log1p, log1p, __VA_ARGS__)         \
    X(cbrt_f64, double, cbrt_double, cbrt_double_slow, cbrt, nan, __VA_ARGS__)               \
    X(sqrt_f64, double, sqrt_double, never_slow_double, sqrt, nan, __VA_ARGS__)

/* the binary ones: ELEMENT(v, w, fused), SLOW(v, w), LIBM(v, w) */
#define PG_VMATH_FUNCTIONS2(X, ...)                                                  \
    X(power_f32, float, power_float, power_float_slow, powf, __VA_ARGS__)            \
    X(arctan2_f32, float, arctan2_float, arctan2_float_slow, atan2f, __VA_ARGS__)    \
    X(power_f64, double, power_double, power_double_slow, pow, __VA_ARGS__)          \
    X(arctan2_f64, double, arctan2_double, arctan2_double_slow, atan2, __VA_ARGS__)

/* ------------------------------------------------------------------ the variants */

/* One pass over n elements; returns whether some need libm (NaNs never do). */
typedef int (*PgVmathPass_float)(const float *x, float *y, int64_t n);
typedef int (*PgVmathPass_double)(const double *x, double *y, int64_t n);

/* A special argument that SLOW flags (a NaN, a logarithm's zero or negative number, ...) gets
 * libm's value in the pass: data with many of them would otherwise go element by element through
 * the second, branching one (30% NaNs: 7x NumPy's time for float32 log; half negatives: 40x). */
#define PG_VMATH_PASS(NAME, T, ELEMENT, SLOW, LIBM, SPECIAL, SUF, ATTR, FUSED)        \
    ATTR static int NAME##_##SUF(const T *x, T *y, int64_t n)                         \
    {                                                                                 \
        int slow = 0;                                                                 \
        _Pragma("omp simd reduction(|:slow)") for (int64_t i = 0; i < n; i++)         \
        {                                                                             \
            T v = x[i];                                                               \
            int s = SLOW(v), special = SPECIAL##_is_##T(v);                           \
            slow |= s & !special;                                                     \
            T r = ELEMENT(v, FUSED);                                                  \
            y[i] = s & special ? SPECIAL##_value_##T(v) : r;                          \
        }                                                                             \
        return slow;                                                                  \
    }

typedef int (*PgVmathPass2_float)(const float *x, const float *y, float *z, int64_t n);
typedef int (*PgVmathPass2_double)(const double *x, const double *y, double *z, int64_t n);

#define PG_VMATH_PASS2(NAME, T, ELEMENT, SLOW, LIBM, SUF, ATTR, FUSED)                \
    ATTR static int NAME##_##SUF(const T *x, const T *y, T *z, int64_t n)             \
    {                                                                                 \
        int slow = 0;                                                                 \
        _Pragma("omp simd reduction(|:slow)") for (int64_t i = 0; i < n; i++)         \
        {                                                                             \
            T v = x[i], w = y[i];                                                     \
            slow |= SLOW(v, w);                                                       \
            z[i] = ELEMENT(v, w, FUSED);                                              \
        }                                                                             \
        return slow;                                                                  \
    }

#define PG_VMATH_VARIANT(SUF, ATTR, FUSED)                                            \
    PG_VMATH_FUNCTIONS(PG_VMATH_PASS, SUF, ATTR, FUSED)                               \
    PG_VMATH_FUNCTIONS2(PG_VMATH_PASS2, SUF, ATTR, FUSED)
#if PG_VMATH_X86
PG_VMATH_VARIANT(v4, PG_TARGET_V4, 1)
PG_VMATH_VARIANT(v3, PG_TARGET_V3, 1)
#endif
PG_VMATH_VARIANT(base, , 0)

#define PG_VMATH_FIELD(NAME, T, ...) PgVmathPass_##T NAME;
#define PG_VMATH_FIELD2(NAME, T, ...) PgVmathPass2_##T NAME;
typedef struct {
    const char *name;
    PG_VMATH_FUNCTIONS(PG_VMATH_FIELD, ~)
    PG_VMATH_FUNCTIONS2(PG_VMATH_FIELD2, ~)
} PgVmathVariant;

#define PG_VMATH_INIT(NAME, T, ELEMENT, SLOW, LIBM, SPECIAL, SUF) .NAME = NAME##_##SUF,
#define PG_VMATH_INIT2(NAME, T, ELEMENT, SLOW, LIBM, SUF) .NAME = NAME##_##SUF,
#define PG_VMATH_INITS(SUF) PG_VMATH_FUNCTIONS(PG_VMATH_INIT, SUF) PG_VMATH_FUNCTIONS2(PG_VMATH_INIT2, SUF)
static const PgVmathVariant variants[] = {
#if PG_VMATH_X86
    {.name = "x86-64-v4", PG_VMATH_INITS(v4)},
    {.name = "x86-64-v3", PG_VMATH_INITS(v3)},
#endif
    {.name = "baseline", PG_VMATH_INITS(base)},
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

/* run_T(pass, libm, is_slow, special, x, y, n): the vector pass, then libm for the elements it
 * flagged (slow and not special) */
#define PG_VMATH_RUN(T)                                                                            \
    static void run_##T(PgVmathPass_##T pass, T (*libm)(T), int (*is_slow)(T), int (*special)(T),  \
                        const T *x, T *y, int64_t n)                                               \
    {                                                                                              \
        if (is_slow == never_slow_##T) {                                                           \
            pass(x, y, n);                                                                         \
            return;                                                                                \
        }                                                                                          \
        for (int64_t start = 0; start < n; start += PG_VMATH_CHUNK) {                              \
            int64_t m = n - start < PG_VMATH_CHUNK ? n - start : PG_VMATH_CHUNK;                   \
            T keep[PG_VMATH_CHUNK];                                                                \
            const T *src = x + start;                                                              \
            if (x == y) {                                                                          \
                memcpy(keep, src, (size_t)m * sizeof(T));                                          \
                src = keep;                                                                        \
            }                                                                                      \
            if (pass(src, y + start, m))                                                           \
                for (int64_t i = 0; i < m; i++)                                                    \
                    if (is_slow(src[i]) && !special(src[i]))                                       \
                        y[start + i] = libm(src[i]);                                               \
        }                                                                                          \
    }
PG_VMATH_RUN(float)
PG_VMATH_RUN(double)

#define PG_VMATH_ENTRY(NAME, T, ELEMENT, SLOW, LIBM, SPECIAL, ...) \
    void pg_v_##NAME(const T *x, T *y, int64_t n) { run_##T(current()->NAME, LIBM, SLOW, SPECIAL##_is_##T, x, y, n); }
PG_VMATH_FUNCTIONS(PG_VMATH_ENTRY, ~)

/* run2_T: the same over two inputs, keeping both when z is one of them */
#define PG_VMATH_RUN2(T)                                                                             \
    static void run2_##T(PgVmathPass2_##T pass, T (*libm)(T, T), int (*is_slow)(T, T), const T *x,  \
                         const T *y, T *z, int64_t n)                                                \
    {                                                                                                \
        for (int64_t start = 0; start < n; start += PG_VMATH_CHUNK) {                                \
            int64_t m = n - start < PG_VMATH_CHUNK ? n - start : PG_VMATH_CHUNK;                     \
            T keep_x[PG_VMATH_CHUNK], keep_y[PG_VMATH_CHUNK];                                        \
            const T *xs = x + start, *ys = y + start;                                                \
            if (x == z) {                                                                            \
                memcpy(keep_x, xs, (size_t)m * sizeof(T));                                           \
                xs = keep_x;                                                                         \
            }                                                                                        \
            if (y == z) {                                                                            \
                memcpy(keep_y, ys, (size_t)m * sizeof(T));                                           \
                ys = keep_y;                                                                         \
            }                                                                                        \
            if (pass(xs, ys, z + start, m))                                                          \
                for (int64_t i = 0; i < m; i++)                                                      \
                    if (is_slow(xs[i], ys[i]))                                                       \
                        z[start + i] = libm(xs[i], ys[i]);                                           \
        }                                                                                            \
    }
PG_VMATH_RUN2(float)
PG_VMATH_RUN2(double)

#define PG_VMATH_ENTRY2(NAME, T, ELEMENT, SLOW, LIBM, ...) \
    void pg_v_##NAME(const T *x, const T *y, T *z, int64_t n) { run2_##T(current()->NAME, LIBM, SLOW, x, y, z, n); }
PG_VMATH_FUNCTIONS2(PG_VMATH_ENTRY2, ~)
