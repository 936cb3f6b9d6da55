/* Whole-array math for the CPU: float32 and float64 sin, cos, tan and their inverses, arctan2,
 * the hyperbolic functions and their inverses, exp, exp2, expm1, log, log2, log10, log1p, cbrt,
 * power and sqrt. The loops of these ops (the ufuncs' contiguous and buffered paths, and
 * the VM) call them over a run of elements instead of libm's scalar functions, which do not
 * vectorise. vmath_cpu.c implements them with polynomials that the compiler vectorises
 * (vmath_elements.h), within about 1 ulp of the exact result, as accurate as NumPy's SIMD loops
 * or more; built for several x86 ISA levels picked at run time; inputs outside a function's fast
 * range go to libm one by one.
 *
 * The loops choose by name: PG_VMATH_CHOOSE(NAME, WITH, WITHOUT) expands to
 * WITH(NAME) when the loop NAME has a whole-array function pg_v_<NAME>, else WITHOUT(NAME).
 * On CUDA no loop has one (the device's own math library is fast). */
#ifndef PG_VMATH_H
#define PG_VMATH_H
#include "kernel_types.h"

#ifndef __CUDACC__
/* the loops that have one: PG_VMATH_<name> expands to "~, 1" */
#define PG_VMATH_sin_f32 ~, 1
#define PG_VMATH_cos_f32 ~, 1
#define PG_VMATH_tan_f32 ~, 1
#define PG_VMATH_arcsin_f32 ~, 1
#define PG_VMATH_arccos_f32 ~, 1
#define PG_VMATH_arctan_f32 ~, 1
#define PG_VMATH_arctan2_f32 ~, 1
#define PG_VMATH_sinh_f32 ~, 1
#define PG_VMATH_cosh_f32 ~, 1
#define PG_VMATH_tanh_f32 ~, 1
#define PG_VMATH_arcsinh_f32 ~, 1
#define PG_VMATH_arccosh_f32 ~, 1
#define PG_VMATH_arctanh_f32 ~, 1
#define PG_VMATH_exp_f32 ~, 1
#define PG_VMATH_exp2_f32 ~, 1
#define PG_VMATH_expm1_f32 ~, 1
#define PG_VMATH_log_f32 ~, 1
#define PG_VMATH_log2_f32 ~, 1
#define PG_VMATH_log10_f32 ~, 1
#define PG_VMATH_log1p_f32 ~, 1
#define PG_VMATH_cbrt_f32 ~, 1
#define PG_VMATH_sqrt_f32 ~, 1
#define PG_VMATH_power_f32 ~, 1
#define PG_VMATH_sin_f64 ~, 1
#define PG_VMATH_cos_f64 ~, 1
#define PG_VMATH_tan_f64 ~, 1
#define PG_VMATH_arcsin_f64 ~, 1
#define PG_VMATH_arccos_f64 ~, 1
#define PG_VMATH_arctan_f64 ~, 1
#define PG_VMATH_arctan2_f64 ~, 1
#define PG_VMATH_power_f64 ~, 1
#define PG_VMATH_sqrt_f64 ~, 1
#define PG_VMATH_sinh_f64 ~, 1
#define PG_VMATH_cosh_f64 ~, 1
#define PG_VMATH_tanh_f64 ~, 1
#define PG_VMATH_arcsinh_f64 ~, 1
#define PG_VMATH_arccosh_f64 ~, 1
#define PG_VMATH_arctanh_f64 ~, 1
#define PG_VMATH_exp_f64 ~, 1
#define PG_VMATH_exp2_f64 ~, 1
#define PG_VMATH_expm1_f64 ~, 1
#define PG_VMATH_log_f64 ~, 1
#define PG_VMATH_log2_f64 ~, 1
#define PG_VMATH_log10_f64 ~, 1
#define PG_VMATH_log1p_f64 ~, 1
#define PG_VMATH_cbrt_f64 ~, 1

/* X(NAME, T) for each unary one */
#define PG_VMATH_LOOPS(X) \
    X(sin_f32, float) \
    X(cos_f32, float) \
    X(tan_f32, float) \
    X(arcsin_f32, float) \
    X(arccos_f32, float) \
    X(arctan_f32, float) \
    X(sinh_f32, float) \
    X(cosh_f32, float) \
    X(tanh_f32, float) \
    X(arcsinh_f32, float) \
    X(arccosh_f32, float) \
    X(arctanh_f32, float) \
    X(exp_f32, float) \
    X(exp2_f32, float) \
    X(expm1_f32, float) \
    X(log_f32, float) \
    X(log2_f32, float) \
    X(log10_f32, float) \
    X(log1p_f32, float) \
    X(cbrt_f32, float) \
    X(sqrt_f32, float) \
    X(sin_f64, double) \
    X(cos_f64, double) \
    X(tan_f64, double) \
    X(arcsin_f64, double) \
    X(arccos_f64, double) \
    X(arctan_f64, double) \
    X(sinh_f64, double) \
    X(cosh_f64, double) \
    X(tanh_f64, double) \
    X(arcsinh_f64, double) \
    X(arccosh_f64, double) \
    X(arctanh_f64, double) \
    X(exp_f64, double) \
    X(exp2_f64, double) \
    X(expm1_f64, double) \
    X(log_f64, double) \
    X(log2_f64, double) \
    X(log10_f64, double) \
    X(log1p_f64, double) \
    X(cbrt_f64, double) \
    X(sqrt_f64, double)

/* and the binary ones */
#define PG_VMATH_LOOPS2(X) X(power_f32, float) X(arctan2_f32, float) X(power_f64, double) X(arctan2_f64, double)

/* y[i] = f(x[i]) for i < n; x and y may be the same array, or not overlap at all */
#define PG_VMATH_DECLARE(NAME, T) void pg_v_##NAME(const T *x, T *y, int64_t n);
PG_VMATH_LOOPS(PG_VMATH_DECLARE)
#undef PG_VMATH_DECLARE
/* z[i] = f(x[i], y[i]) for i < n; z may be x or y, or overlap neither */
#define PG_VMATH_DECLARE2(NAME, T) void pg_v_##NAME(const T *x, const T *y, T *z, int64_t n);
PG_VMATH_LOOPS2(PG_VMATH_DECLARE2)
#undef PG_VMATH_DECLARE2
/* The instruction-set variant in use ("x86-64-v4", "x86-64-v3", "baseline"); with a name,
 * switches to that variant when the CPU supports it (tests use this) and returns it, else NULL. */
const char *pg_vmath_variant(const char *name);
#endif

#define PG_VMATH_CAT(a, b) PG_VMATH_CAT_(a, b)
#define PG_VMATH_CAT_(a, b) a##b
#define PG_VMATH_SECOND(a, b, ...) b
#define PG_VMATH_SECOND_(args) PG_VMATH_SECOND args
/* 1 when loop NAME has a whole-array function, else 0 */
#define PG_HAS_VMATH(NAME) PG_VMATH_SECOND_((PG_VMATH_CAT(PG_VMATH_, NAME), 0, ~))
#define PG_VMATH_CHOOSE(NAME, WITH, WITHOUT) PG_VMATH_CAT(PG_VMATH_CHOOSE_, PG_HAS_VMATH(NAME))(NAME, WITH, WITHOUT)
#define PG_VMATH_CHOOSE_1(NAME, WITH, WITHOUT) WITH
#define PG_VMATH_CHOOSE_0(NAME, WITH, WITHOUT) WITHOUT

#endif
