/* Whole-array float32 sin, cos, exp and log, and float64 exp and log, for the CPU: the loops of
 * these ops (the ufuncs' contiguous and buffered paths, and the VM) call them over a run of
 * elements instead of libm's scalar functions, which do not vectorise. vmath_cpu.c implements
 * them with polynomials that the compiler vectorises (float32 computed in double precision),
 * within about 1 ulp of the exact result, as accurate as NumPy's SIMD loops; built for several
 * x86 ISA levels picked at run time; inputs outside a function's fast range go to libm one by one.
 *
 * PG_IF_VMATH_<form> selects by loop name: PG_VMATH_CHOOSE(NAME, WITH, WITHOUT) expands to
 * WITH(NAME) when the loop NAME has a whole-array function pg_v_<NAME>, else WITHOUT(NAME).
 * On CUDA no loop has one (the device's own math library is fast). */
#ifndef PG_VMATH_H
#define PG_VMATH_H
#include "kernel_types.h"

#ifndef __CUDACC__
/* the loops that have one: PG_VMATH_<name> expands to "~, 1" */
#define PG_VMATH_sin_f32 ~, 1
#define PG_VMATH_cos_f32 ~, 1
#define PG_VMATH_exp_f32 ~, 1
#define PG_VMATH_log_f32 ~, 1
#define PG_VMATH_exp_f64 ~, 1
#define PG_VMATH_log_f64 ~, 1

/* y[i] = f(x[i]) for i < n; x and y may be the same array, or not overlap at all */
void pg_v_sin_f32(const float *x, float *y, int64_t n);
void pg_v_cos_f32(const float *x, float *y, int64_t n);
void pg_v_exp_f32(const float *x, float *y, int64_t n);
void pg_v_log_f32(const float *x, float *y, int64_t n);
void pg_v_exp_f64(const double *x, double *y, int64_t n);
void pg_v_log_f64(const double *x, double *y, int64_t n);
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
