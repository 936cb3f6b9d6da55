/* The reduction family, single source for both backends: reductions over any set of axes,
 * scans along one axis, reduceat's segments and ufunc.at's unbuffered updates.
 *
 * Reducers (kernels/reduce.def) are few: an op-table binary loop as the combiner (add_f32,
 * maximum_i64, logical_or_b, ...: one per op and accumulator type, never per input/output pair;
 * elements are converted as they are loaded, as elementwise.h does), argmin/argmax, and the
 * moments (count, mean, squared deviations) behind mean/var/std. Each reducer NAME defines, in
 * the common subset of C and CUDA C:
 *     pg_racc_NAME                         the accumulator type
 *     pg_rident_NAME(a)                    the empty accumulator (op reducers: the op's identity,
 *                                          or a neutral value such as -inf for maximum)
 *     pg_rload_NAME(a, p, r, &acc)         element at p (reduced index r) as an accumulator; 0
 *                                          when it does not count (NaN skipped by nan* functions)
 *     pg_rtyped_NAME(x, r)                 the same for an element already of the storage type
 *     pg_rcomb_NAME(x, y)                  merges two accumulators (associative; x comes first)
 *     pg_rstore_NAME(a, p, acc)            the final value (initial=, mean's division, var's ddof)
 * and the schedules below are written once over those: a new kind of reducer defines the six and
 * instantiates the templates. (A VM program as the combiner works on register lanes, not single
 * values: it has its own family with the same layouts, vm_reduce.h.)
 *
 * Layout (core/reduce_shape.c prepares it from the arrays): the output's axes ("kept") and the
 * reduced axes are each ordered and merged separately; output o and reduced element r are flat
 * indices over them, innermost last. `outer` says the innermost kept axis is the input's
 * fastest: then neighbouring threads take neighbouring outputs (coalesced on the GPU, vector
 * loops on the CPU); otherwise they share one output's reduced axis.
 *
 * CUDA: reduce_NAME is one kernel of 256-thread blocks; each block takes 256/lanes outputs with
 * `lanes` threads cooperating on each, over a split of the reduced range (grid = output blocks x
 * nsplit), and finishes in shared memory; split reductions write accumulators to a workspace that
 * a second launch (phase FINISH) merges. CPU: outputs or splits of the reduced range over the worker
 * threads (runtime/backend_cpu_reduce.c), pairwise (NumPy's blocks of 128 with 8 accumulators)
 * along an inner reduced axis, vector loops over outputs along an outer one. */
#ifndef PG_REDUCE_H
#define PG_REDUCE_H
#include "elementwise.h"
#include "reduce_types.h"

#ifdef __CUDACC__
#define PG_RDEV static __host__ __device__ __forceinline__
#else
#define PG_RDEV static inline
#endif

/* ------------------------------------------------------------------ accumulator suffixes */
/* b i32 u32 i64 u64 f32 f64 c64 c128: NaN test, a bool as the type, division by a count in double
 * (NumPy's mean divides by an intp: the quotient is computed in float64 and then narrowed),
 * ordering for argmax/argmin (complex: lexicographic). */
#define PG_RISNAN_b(v) 0
#define PG_RISNAN_i32(v) 0
#define PG_RISNAN_u32(v) 0
#define PG_RISNAN_i64(v) 0
#define PG_RISNAN_u64(v) 0
#define PG_RISNAN_f32(v) ((v) != (v))
#define PG_RISNAN_f64(v) ((v) != (v))
#define PG_RISNAN_c64(v) ((v).re != (v).re || (v).im != (v).im)
#define PG_RISNAN_c128(v) ((v).re != (v).re || (v).im != (v).im)

#define PG_RFROMB_b(x) ((pg_bool)(x))
#define PG_RFROMB_i32(x) ((int32_t)(x))
#define PG_RFROMB_u32(x) ((uint32_t)(x))
#define PG_RFROMB_i64(x) ((int64_t)(x))
#define PG_RFROMB_u64(x) ((uint64_t)(x))
#define PG_RFROMB_f32(x) ((float)(x))
#define PG_RFROMB_f64(x) ((double)(x))
#define PG_RFROMB_c64(x) pg_cmake_c64((float)(x), 0.0f)
#define PG_RFROMB_c128(x) pg_cmake_c128((double)(x), 0.0)

#define PG_RDIV_b(v, d) (v)
#define PG_RDIV_i32(v, d) ((int32_t)((double)(v) / (d)))
#define PG_RDIV_u32(v, d) ((uint32_t)((double)(v) / (d)))
#define PG_RDIV_i64(v, d) ((int64_t)((double)(v) / (d)))
#define PG_RDIV_u64(v, d) ((uint64_t)((double)(v) / (d)))
#define PG_RDIV_f32(v, d) ((float)((double)(v) / (d)))
#define PG_RDIV_f64(v, d) ((v) / (d))
#define PG_RDIV_c64(v, d) pg_rdiv_c64(v, d)
#define PG_RDIV_c128(v, d) pg_rdiv_c128(v, d)

/* A complex mean: the sum v over the count d as NumPy's true_divide(sum, intp(d)) computes it, in
 * double: Smith's division by (d + 0j), so an infinite part makes the other NaN (inf * 0), -0.0 +
 * 0.0 is +0.0, and the parts are multiplied by 1 / d (not divided by d); complex64 rounds the
 * double quotient, as NumPy casts it. */
PG_RDEV pg_t_c128 pg_rdiv_c128(pg_t_c128 v, double d)
{
    if (d == 0)
        return pg_cmake_c128(v.re / d, v.im / d);
    const double scl = 1.0 / d;
    return pg_cmake_c128((v.re + v.im * 0.0) * scl, (v.im - v.re * 0.0) * scl);
}
PG_RDEV pg_t_c64 pg_rdiv_c64(pg_t_c64 v, double d)
{
    pg_t_c128 q = pg_rdiv_c128(pg_cmake_c128(v.re, v.im), d);
    return pg_cmake_c64((float)q.re, (float)q.im);
}

#define PG_RCMP_GT(x, y) ((x) > (y))
#define PG_RCMP_LT(x, y) ((x) < (y))
#define PG_RBEFORE_REAL(CMP, x, y) PG_RCMP_##CMP(x, y)
#define PG_RBEFORE_CPLX(CMP, x, y) (PG_RCMP_##CMP((x).re, (y).re) || ((x).re == (y).re && PG_RCMP_##CMP((x).im, (y).im)))
#define PG_RBEFORE_i32(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_u32(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_i64(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_u64(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_f32(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_f64(CMP, x, y) PG_RBEFORE_REAL(CMP, x, y)
#define PG_RBEFORE_c64(CMP, x, y) PG_RBEFORE_CPLX(CMP, x, y)
#define PG_RBEFORE_c128(CMP, x, y) PG_RBEFORE_CPLX(CMP, x, y)

/* the moments' arithmetic: x - y, x + d * f (f real), |d|^2 */
#define PG_RSUB_f32(x, y) ((x) - (y))
#define PG_RSUB_f64(x, y) ((x) - (y))
#define PG_RSUB_c64(x, y) pg_cmake_c64((x).re - (y).re, (x).im - (y).im)
#define PG_RSUB_c128(x, y) pg_cmake_c128((x).re - (y).re, (x).im - (y).im)
#define PG_RAXPY_f32(x, d, f) ((x) + (d) * (f))
#define PG_RAXPY_f64(x, d, f) ((x) + (d) * (f))
#define PG_RAXPY_c64(x, d, f) pg_cmake_c64((x).re + (d).re * (f), (x).im + (d).im * (f))
#define PG_RAXPY_c128(x, d, f) pg_cmake_c128((x).re + (d).re * (f), (x).im + (d).im * (f))
#define PG_RABS2_f32(d) ((d) * (d))
#define PG_RABS2_f64(d) ((d) * (d))
#define PG_RABS2_c64(d) ((d).re * (d).re + (d).im * (d).im)
#define PG_RABS2_c128(d) ((d).re * (d).re + (d).im * (d).im)
/* one element's m2: 0, or NaN for an inf or a NaN (NumPy's (x - mean)**2 is NaN there) */
#define PG_RSELF_M2_f32(x) PG_RABS2_f32(PG_RSUB_f32(x, x))
#define PG_RSELF_M2_f64(x) PG_RABS2_f64(PG_RSUB_f64(x, x))
#define PG_RSELF_M2_c64(x) PG_RABS2_c64(PG_RSUB_c64(x, x))
#define PG_RSELF_M2_c128(x) PG_RABS2_c128(PG_RSUB_c128(x, x))
/* the merged mean x + (y - x) * f, or where y - x is not finite (an inf mean) the weighted sum,
 * which keeps inf where NumPy's sum does (inf + (1 - inf) * f would be NaN) */
#define PG_RMIX_REAL(x, y, d, f) (isfinite(d) ? (x) + (d) * (f) : (x) * (1 - (f)) + (y) * (f))
#define PG_RMERGE_MEAN_f32(x, y, d, f) PG_RMIX_REAL(x, y, d, f)
#define PG_RMERGE_MEAN_f64(x, y, d, f) PG_RMIX_REAL(x, y, d, f)
#define PG_RMERGE_MEAN_c64(x, y, d, f)                                                       \
    pg_cmake_c64(PG_RMIX_REAL((x).re, (y).re, (d).re, f), PG_RMIX_REAL((x).im, (y).im, (d).im, f))
#define PG_RMERGE_MEAN_c128(x, y, d, f)                                                      \
    pg_cmake_c128(PG_RMIX_REAL((x).re, (y).re, (d).re, f), PG_RMIX_REAL((x).im, (y).im, (d).im, f))
#define PG_RZERO_b ((pg_bool)0)
#define PG_RZERO_i32 ((int32_t)0)
#define PG_RZERO_u32 ((uint32_t)0)
#define PG_RZERO_i64 ((int64_t)0)
#define PG_RZERO_u64 ((uint64_t)0)
#define PG_RZERO_f32 0.0f
#define PG_RZERO_f64 0.0
#define PG_RZERO_c64 pg_cmake_c64(0.0f, 0.0f)
#define PG_RZERO_c128 pg_cmake_c128(0.0, 0.0)
#define PG_RNAN_f32 (0.0f / 0.0f)
#define PG_RNAN_f64 (0.0 / 0.0)
#define PG_RNAN_c64 pg_cmake_c64(0.0f / 0.0f, 0.0f / 0.0f)
#define PG_RNAN_c128 pg_cmake_c128(0.0 / 0.0, 0.0 / 0.0)

/* 16 bytes of launch arguments as a value of suffix S */
#define PG_RBITS(S, bits, v)                                                               \
    do {                                                                                   \
        union { uint64_t u[2]; pg_t_##S t; } c_;                                           \
        c_.u[0] = (bits)[0];                                                               \
        c_.u[1] = (bits)[1];                                                               \
        (v) = c_.t;                                                                        \
    } while (0)

/* A scan's running value after each step: a float16 output's is a float16 (NumPy's float16 loops
 * round every step of cumsum and cumprod; a float32 running sum drifted 0.4% from NumPy's in 3000
 * steps), so such scans round it there and run each row in order (scan launches) */
#define PG_SCAN_STEP(S, out_type, v) PG_SCAN_STEP_##S(out_type, v)
#define PG_SCAN_STEP_f32(out_type, v) ((out_type) == PG_FLOAT16 ? pg_half_to_float(pg_float_to_half(v)) : (v))
#define PG_SCAN_STEP_b(out_type, v) (v)
#define PG_SCAN_STEP_i32(out_type, v) (v)
#define PG_SCAN_STEP_i64(out_type, v) (v)
#define PG_SCAN_STEP_u32(out_type, v) (v)
#define PG_SCAN_STEP_u64(out_type, v) (v)
#define PG_SCAN_STEP_f64(out_type, v) (v)
#define PG_SCAN_STEP_c64(out_type, v) (v)
#define PG_SCAN_STEP_c128(out_type, v) (v)

/* ------------------------------------------------------------------ the op table's binary ops */
/* pg_op_<loop>(x0, x1): every binary loop of ops.def as a function (unused ones cost nothing) */
#define PG_DEF1(NAME, S0, SO, EXPR)
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR)
#define PG_DEF2(NAME, S0, S1, SO, EXPR)                                                     \
    PG_RDEV pg_t_##SO pg_op_##NAME(pg_t_##S0 x0, pg_t_##S1 x1) { return EXPR; }
#include "ops.def"
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

/* ------------------------------------------------------------------ the reducers */

#define PG_RED_OP_DEFINE(NAME, S)                                                           \
    typedef pg_t_##S pg_racc_##NAME;                                                         \
    PG_RDEV pg_t_##S pg_rident_##NAME(const PgReduceArgs *a)                                 \
    {                                                                                        \
        pg_t_##S v;                                                                          \
        PG_RBITS(S, a->ident, v);                                                            \
        return v;                                                                            \
    }                                                                                        \
    PG_RDEV pg_t_##S pg_rcomb_##NAME(pg_t_##S x, pg_t_##S y) { return pg_op_##NAME(x, y); } \
    PG_RDEV pg_t_##S pg_rnext_##NAME(pg_t_##S x, pg_t_##S y) { return pg_op_##NAME(x, y); } \
    PG_RDEV pg_t_##S pg_rtyped_##NAME(pg_s_##S x, int64_t r)                                 \
    {                                                                                        \
        (void)r;                                                                             \
        return PG_TO_COMPUTE_##S(x);                                                         \
    }                                                                                        \
    PG_RDEV int pg_rload_##NAME(const PgReduceArgs *a, const char *p, int64_t r, pg_t_##S *v) \
    {                                                                                        \
        (void)r;                                                                             \
        if (a->flags & PG_RED_NONZERO) {                                                     \
            *v = PG_RFROMB_##S(pg_load_b(p, a->in_type));                                    \
            return 1;                                                                        \
        }                                                                                    \
        *v = pg_load_##S(p, a->in_type);                                                     \
        return !((a->flags & PG_RED_SKIPNAN) && PG_RISNAN_##S(*v));                          \
    }                                                                                        \
    PG_RDEV void pg_rstore_##NAME(const PgReduceArgs *a, char *p, pg_t_##S v)                \
    {                                                                                        \
        if (a->flags & PG_RED_INITIAL) {                                                     \
            pg_t_##S i;                                                                      \
            PG_RBITS(S, a->init, i);                                                         \
            v = pg_op_##NAME(i, v);                                                          \
        }                                                                                    \
        if (a->flags & PG_RED_DIVIDE)                                                        \
            v = PG_RDIV_##S(v, a->divisor);                                                  \
        pg_store_##S(p, a->out_type, v);                                                     \
    }                                                                                        \
    /* m outputs at p, step bytes apart, stored in one loop when they are of the accumulator's  \
     * type, side by side and with no initial value (a call of pg_rstore per output took      \
     * longer than the sums of a reduction over a few rows); else 0: store them one by one */ \
    PG_RDEV int pg_rstore_run_##NAME(const PgReduceArgs *a, char *p, int64_t step, const pg_t_##S *acc, int64_t m) \
    {                                                                                        \
        if (a->out_type != PG_TYPE_##S || step != (int64_t)sizeof(pg_t_##S) || (a->flags & PG_RED_INITIAL)) \
            return 0;                                                                        \
        pg_t_##S *q = (pg_t_##S *)p;                                                         \
        if (a->flags & PG_RED_DIVIDE) {                                                      \
            for (int64_t j = 0; j < m; j++)                                                  \
                q[j] = PG_RDIV_##S(acc[j], a->divisor);                                      \
        } else {                                                                             \
            for (int64_t j = 0; j < m; j++)                                                  \
                q[j] = acc[j];                                                               \
        }                                                                                    \
        return 1;                                                                            \
    }

/* pg_rstore_run of the reducers whose outputs are stored one by one (arg and moments): none */
#define PG_RSTORE_RUN_NONE(NAME)                                                            \
    PG_RDEV int pg_rstore_run_##NAME(const PgReduceArgs *a, char *p, int64_t step, const pg_racc_##NAME *acc, \
                                     int64_t m)                                              \
    {                                                                                        \
        (void)a, (void)p, (void)step, (void)acc, (void)m;                                    \
        return 0;                                                                            \
    }

/* (value, index); index -1: empty. The first best wins: NaN is best (the first NaN), ties go to
 * the smaller index, so the merge order does not matter. */
#define PG_RED_ARG_DEFINE(NAME, S, CMP)                                                     \
    typedef struct {                                                                         \
        pg_t_##S v;                                                                          \
        int64_t i;                                                                           \
    } pg_racc_##NAME;                                                                        \
    PG_RDEV pg_racc_##NAME pg_rident_##NAME(const PgReduceArgs *a)                           \
    {                                                                                        \
        (void)a;                                                                             \
        pg_racc_##NAME e;                                                                    \
        e.v = PG_RZERO_##S; /* unused while empty */                                         \
        e.i = -1;                                                                            \
        return e;                                                                            \
    }                                                                                        \
    PG_RDEV pg_racc_##NAME pg_rtyped_##NAME(pg_s_##S x, int64_t r)                           \
    {                                                                                        \
        pg_racc_##NAME e;                                                                    \
        e.v = PG_TO_COMPUTE_##S(x);                                                          \
        e.i = r;                                                                             \
        return e;                                                                            \
    }                                                                                        \
    PG_RDEV int pg_rload_##NAME(const PgReduceArgs *a, const char *p, int64_t r, pg_racc_##NAME *e) \
    {                                                                                        \
        e->v = pg_load_##S(p, a->in_type);                                                   \
        e->i = r;                                                                            \
        return !((a->flags & PG_RED_SKIPNAN) && PG_RISNAN_##S(e->v));                        \
    }                                                                                        \
    PG_RDEV pg_racc_##NAME pg_rcomb_##NAME(pg_racc_##NAME x, pg_racc_##NAME y)               \
    {                                                                                        \
        if (x.i < 0)                                                                         \
            return y;                                                                        \
        if (y.i < 0)                                                                         \
            return x;                                                                        \
        int xn = PG_RISNAN_##S(x.v), yn = PG_RISNAN_##S(y.v);                                \
        int y_first = y.i < x.i;                                                             \
        if (xn || yn)                                                                        \
            return (yn && (!xn || y_first)) ? y : x;                                         \
        if (PG_RBEFORE_##S(CMP, y.v, x.v) || (y_first && !PG_RBEFORE_##S(CMP, x.v, y.v)))    \
            return y;                                                                        \
        return x;                                                                            \
    }                                                                                        \
    /* y comes after every element of x (a sequential fold): no index ties to break */      \
    PG_RDEV pg_racc_##NAME pg_rnext_##NAME(pg_racc_##NAME x, pg_racc_##NAME y)               \
    {                                                                                        \
        if (x.i < 0 || (y.i >= 0 && !PG_RISNAN_##S(x.v) && (PG_RISNAN_##S(y.v) || PG_RBEFORE_##S(CMP, y.v, x.v)))) \
            return y;                                                                        \
        return x;                                                                            \
    }                                                                                        \
    PG_RDEV void pg_rstore_##NAME(const PgReduceArgs *a, char *p, pg_racc_##NAME e)          \
    {                                                                                        \
        pg_store_i64(p, a->out_type, e.i);                                                   \
    }                                                                                        \
    PG_RSTORE_RUN_NONE(NAME)

/* count n, mean, m2 = sum of squared deviations; merged as Chan, Golub and LeVeque (one element
 * at a time this is Welford's update) */
#define PG_RED_MOMENTS_DEFINE(NAME, S, R)                                                   \
    typedef struct {                                                                         \
        int64_t n;                                                                           \
        pg_t_##S mean;                                                                       \
        pg_t_##R m2;                                                                         \
    } pg_racc_##NAME;                                                                        \
    PG_RDEV pg_racc_##NAME pg_rident_##NAME(const PgReduceArgs *a)                           \
    {                                                                                        \
        (void)a;                                                                             \
        pg_racc_##NAME e;                                                                    \
        e.n = 0;                                                                             \
        e.mean = PG_RZERO_##S;                                                               \
        e.m2 = PG_RZERO_##R;                                                                 \
        return e;                                                                            \
    }                                                                                        \
    PG_RDEV pg_racc_##NAME pg_rtyped_##NAME(pg_s_##S x, int64_t r)                           \
    {                                                                                        \
        (void)r;                                                                             \
        pg_racc_##NAME e;                                                                    \
        e.n = 1;                                                                             \
        e.mean = PG_TO_COMPUTE_##S(x);                                                       \
        e.m2 = PG_RSELF_M2_##S(e.mean);                                                      \
        return e;                                                                            \
    }                                                                                        \
    PG_RDEV int pg_rload_##NAME(const PgReduceArgs *a, const char *p, int64_t r, pg_racc_##NAME *e) \
    {                                                                                        \
        (void)r;                                                                             \
        e->n = 1;                                                                            \
        e->mean = pg_load_##S(p, a->in_type);                                                \
        e->m2 = PG_RSELF_M2_##S(e->mean);                                                    \
        return !((a->flags & PG_RED_SKIPNAN) && PG_RISNAN_##S(e->mean));                     \
    }                                                                                        \
    PG_RDEV pg_racc_##NAME pg_rcomb_##NAME(pg_racc_##NAME x, pg_racc_##NAME y)               \
    {                                                                                        \
        if (x.n == 0)                                                                        \
            return y;                                                                        \
        if (y.n == 0)                                                                        \
            return x;                                                                        \
        pg_racc_##NAME e;                                                                    \
        e.n = x.n + y.n;                                                                     \
        pg_t_##R f = (pg_t_##R)y.n / (pg_t_##R)e.n;                                          \
        pg_t_##S d = PG_RSUB_##S(y.mean, x.mean);                                            \
        e.mean = PG_RMERGE_MEAN_##S(x.mean, y.mean, d, f);                                   \
        e.m2 = x.m2 + y.m2 + PG_RABS2_##S(d) * ((pg_t_##R)x.n * f);                          \
        return e;                                                                            \
    }                                                                                        \
    PG_RDEV pg_racc_##NAME pg_rnext_##NAME(pg_racc_##NAME x, pg_racc_##NAME y)               \
    {                                                                                        \
        return pg_rcomb_##NAME(x, y);                                                        \
    }                                                                                        \
    PG_RDEV void pg_rstore_##NAME(const PgReduceArgs *a, char *p, pg_racc_##NAME e)          \
    {                                                                                        \
        if (a->flags & PG_RED_MEAN) {                                                        \
            pg_store_##S(p, a->out_type, e.n ? e.mean : PG_RNAN_##S);                        \
            return;                                                                          \
        }                                                                                    \
        double dof = (double)e.n - a->ddof;                                                  \
        pg_t_##R v = e.m2 / (pg_t_##R)(dof > 0 ? dof : 0);                                   \
        if (dof <= 0 && (a->flags & PG_RED_SKIPNAN))                                         \
            v = PG_RNAN_##R; /* nanvar's choice; var divides by 0 */                         \
        if (a->flags & PG_RED_STD)                                                           \
            v = PG_FN1(sqrt, v);                                                             \
        pg_store_##R(p, a->out_type, v);                                                     \
    }                                                                                        \
    PG_RSTORE_RUN_NONE(NAME)

#define PG_RED_OP(NAME, S) PG_RED_OP_DEFINE(NAME, S)
#define PG_RED_ARG(NAME, S, CMP) PG_RED_ARG_DEFINE(NAME, S, CMP)
#define PG_RED_MOMENTS(NAME, S, R) PG_RED_MOMENTS_DEFINE(NAME, S, R)
#include "reduce.def"
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

/* ------------------------------------------------------------------ shared index arithmetic */

/* Byte offsets of flat index i over the dimensions shape[0..nd) (innermost last) for three
 * strides arrays (s2 may be NULL). */
PG_RDEV void
pg_roffsets(int nd, const int64_t *shape, const int64_t *s0, const int64_t *s1, const int64_t *s2, int64_t i,
            int64_t *o0, int64_t *o1, int64_t *o2)
{
    int64_t a = 0, b = 0, c = 0;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t q = i / shape[d], j = i - q * shape[d];
        a += j * s0[d];
        b += j * s1[d];
        if (s2)
            c += j * s2[d];
        i = q;
    }
    *o0 = a;
    *o1 = b;
    *o2 = c;
}

/* Byte offsets of output o in the input, the output and the mask. */
PG_RDEV void
pg_rkeep_offsets(const PgReduceArgs *a, int64_t o, int64_t *in, int64_t *out, int64_t *mask)
{
    pg_roffsets(a->nkeep, a->keep_shape, a->keep_in, a->keep_out, a->keep_mask, o, in, out, mask);
}

/* Byte offsets of reduced element r in the input and the mask. */
PG_RDEV void
pg_rred_offsets(const PgReduceArgs *a, int64_t r, int64_t *in, int64_t *mask)
{
    int64_t unused;
    pg_roffsets(a->nred, a->red_shape, a->red_in, a->red_mask, NULL, r, in, mask, &unused);
}

/* Byte offsets of row j of a scan in the input and the output. */
PG_RDEV void
pg_scan_row_offsets(const PgScanArgs *a, int64_t j, int64_t *in, int64_t *out)
{
    int64_t unused;
    pg_roffsets(a->nkeep, a->keep_shape, a->keep_in, a->keep_out, NULL, j, in, out, &unused);
}

/* Byte offset of trailing element t of ufunc.at. */
PG_RDEV int64_t
pg_at_trail_offset(const PgAtArgs *a, int64_t t)
{
    int64_t off = 0;
    for (int d = a->ntrail - 1; d >= 0; d--) {
        int64_t n = a->trail_shape[d];
        int64_t q = t / n;
        off += (t - q * n) * a->trail_strides[d];
        t = q;
    }
    return off;
}

/* reduceat: the elements lane, lane + L, lane + 2L, ... of output o's segment (one segment of one
 * row) folded pairwise, and the byte offset of the output. Blocks of 8 merge as a tree; block
 * values merge through a binary counter (entry k of the stack holds 2^k blocks), so the error
 * of a sum grows with log2 of the segment's length, as NumPy's pairwise sum (a sequential fold
 * of 2^25 float32 ones stops at 2^24). */
#define PG_RSEG_STACK 64
#define PG_RSEG_ONE(NAME)                                                                   \
    PG_RDEV pg_racc_##NAME pg_rseg_fold_##NAME(const PgReduceArgs *a, int64_t o, int64_t lane, int64_t L, \
                                               int64_t *out_off)                             \
    {                                                                                        \
        int64_t i = 0, u = 0, s = 0, rest = o;                                               \
        for (int d = a->nkeep - 1; d >= 0; d--) {                                            \
            int64_t n = a->keep_shape[d];                                                    \
            int64_t q = rest / n, j = rest - q * n;                                          \
            i += j * a->keep_in[d];                                                          \
            u += j * a->keep_out[d];                                                         \
            if (d == a->seg_dim)                                                             \
                s = j;                                                                       \
            rest = q;                                                                        \
        }                                                                                    \
        *out_off = u;                                                                        \
        const pg_racc_##NAME id = pg_rident_##NAME(a);                                       \
        pg_racc_##NAME stack[PG_RSEG_STACK];                                                 \
        int depth = 0;                                                                       \
        uint64_t blocks = 0;                                                                 \
        const int64_t end = a->seg[2 * s + 1];                                               \
        for (int64_t r = a->seg[2 * s] + lane; r < end; r += 8 * L) {                        \
            pg_racc_##NAME v[8];                                                             \
            for (int k = 0; k < 8; k++) {                                                    \
                int64_t rk = r + k * L;                                                      \
                if (rk >= end || !pg_rload_##NAME(a, a->in + i + rk * a->red_in[0], rk, &v[k])) \
                    v[k] = id;                                                               \
            }                                                                                \
            for (int w = 1; w < 8; w *= 2)                                                   \
                for (int k = 0; k < 8; k += 2 * w)                                           \
                    v[k] = pg_rcomb_##NAME(v[k], v[k + w]);                                  \
            stack[depth++] = v[0];                                                           \
            for (uint64_t c = ++blocks; !(c & 1); c >>= 1, depth--)                          \
                stack[depth - 2] = pg_rcomb_##NAME(stack[depth - 2], stack[depth - 1]);      \
        }                                                                                    \
        pg_racc_##NAME acc = id;                                                             \
        for (int k = 0; k < depth; k++)                                                      \
            acc = pg_rcomb_##NAME(acc, stack[k]);                                            \
        return acc;                                                                          \
    }                                                                                        \
    PG_RDEV void pg_rseg_one_##NAME(const PgReduceArgs *a, int64_t o)                        \
    {                                                                                        \
        int64_t u;                                                                           \
        pg_racc_##NAME acc = pg_rseg_fold_##NAME(a, o, 0, 1, &u);                            \
        pg_rstore_##NAME(a, a->out + u, acc);                                                \
    }

#ifdef __CUDACC__
/* ---------------------------------------------------------------- CUDA kernels */

/* ufunc.at's update of one element: a compare-and-swap loop on the aligned 4- or 8-byte word
 * holding it (any op, any stored type up to 8 bytes); additions of the common types use the
 * hardware's atomicAdd, and complex additions add each part atomically. */
#define PG_RAT_CAS(W, NAME, S, p, type, val)                                               \
    do {                                                                                   \
        W *w_ = (W *)((uintptr_t)(p) & ~(uintptr_t)(sizeof(W) - 1));                       \
        unsigned sh_ = (unsigned)((uintptr_t)(p) - (uintptr_t)w_);                          \
        W old_ = *(volatile W *)w_, seen_;                                                 \
        do {                                                                               \
            seen_ = old_;                                                                  \
            union { W w; char c[sizeof(W)]; } u_;                                          \
            u_.w = seen_;                                                                  \
            pg_store_##S(u_.c + sh_, type, pg_op_##NAME(pg_load_##S(u_.c + sh_, type), val)); \
            old_ = atomicCAS(w_, seen_, u_.w);                                             \
        } while (old_ != seen_);                                                           \
    } while (0)

/* is the reducer an addition ("add_..."): a constant the compiler folds */
static __device__ __forceinline__ constexpr bool
pg_rat_is_add(const char *name)
{
    return name[0] == 'a' && name[1] == 'd' && name[2] == 'd' && name[3] == '_';
}
/* the hardware's atomic addition where the target is stored as the accumulator: 1 when done */
static __device__ __forceinline__ int pg_rat_add_b(char *p, int type, pg_bool v) { return 0; }
static __device__ __forceinline__ int pg_rat_add_u64(char *p, int type, uint64_t v) { return 0; }
static __device__ __forceinline__ int pg_rat_add_i32(char *p, int type, int32_t v) { return 0; }
static __device__ __forceinline__ int pg_rat_add_u32(char *p, int type, uint32_t v) { return 0; }
static __device__ __forceinline__ int
pg_rat_add_i64(char *p, int type, int64_t v)
{
    if (type == PG_INT64 || type == PG_UINT64)
        atomicAdd((unsigned long long *)p, (unsigned long long)v);
    else if (type == PG_INT32 || type == PG_UINT32)
        atomicAdd((unsigned int *)p, (unsigned int)v);
    else
        return 0;
    return 1;
}
static __device__ __forceinline__ int
pg_rat_add_f32(char *p, int type, float v)
{
    return type == PG_FLOAT32 ? (atomicAdd((float *)p, v), 1) : 0;
}
static __device__ __forceinline__ int
pg_rat_add_f64(char *p, int type, double v)
{
    return type == PG_FLOAT64 ? (atomicAdd((double *)p, v), 1) : 0;
}
static __device__ __forceinline__ int
pg_rat_add_c64(char *p, int type, pg_complex64 v)
{
    if (type != PG_COMPLEX64)
        return 0;
    atomicAdd((float *)p, v.re); /* the parts of a sum are independent */
    atomicAdd((float *)p + 1, v.im);
    return 1;
}
static __device__ __forceinline__ int
pg_rat_add_c128(char *p, int type, pg_complex128 v)
{
    if (type != PG_COMPLEX128)
        return 0;
    atomicAdd((double *)p, v.re);
    atomicAdd((double *)p + 1, v.im);
    return 1;
}

#define PG_RAT_UPDATE(NAME, S)                                                              \
    static __device__ __forceinline__ void pg_rat_update_##NAME(char *p, int type, pg_t_##S v) \
    {                                                                                        \
        if (pg_rat_is_add(#NAME) && pg_rat_add_##S(p, type, v))                              \
            return;                                                                          \
        switch (type) {                                                                      \
        case PG_INT64: case PG_UINT64: case PG_FLOAT64: case PG_COMPLEX64:                   \
            PG_RAT_CAS(unsigned long long, NAME, S, p, type, v);                             \
            return;                                                                          \
        default: /* 1, 2 and 4 bytes (16 bytes run serially: see PgAtArgs.serial) */        \
            PG_RAT_CAS(unsigned int, NAME, S, p, type, v);                                   \
            return;                                                                          \
        }                                                                                    \
    }

/* float32 and complex64 sums: a thread of a block that keeps a whole long row folds thousands
 * of its elements (nred / 256 each, when many outputs leave no room to split rows), so its chains
 * are compensated (Kahan; an overflow or a NaN drops the compensation, leaving IEEE's inf and
 * NaN) and keep float32's precision: rows of 2^20 x 0.1f err by 1e-7, not 1.6e-5. A constant
 * the compiler folds; every other reducer folds plainly. */
static __device__ __forceinline__ constexpr bool
pg_rcompensated(const char *n)
{
    return n[0] == 'a' && n[1] == 'd' && n[2] == 'd' && n[3] == '_' && n[7] == 0 &&
           ((n[4] == 'f' && n[5] == '3' && n[6] == '2') || (n[4] == 'c' && n[5] == '6' && n[6] == '4'));
}
static __device__ __forceinline__ void
pg_rkahan(float &s, float &c, float x)
{
    float y = x - c, t = s + y;
    c = isfinite(t) ? (t - s) - y : 0.0f;
    s = t;
}
static __device__ __forceinline__ void
pg_rkahan(pg_complex64 &s, pg_complex64 &c, pg_complex64 x)
{
    pg_rkahan(s.re, c.re, x.re);
    pg_rkahan(s.im, c.im, x.im);
}
template <typename T> static __device__ __forceinline__ void pg_rkahan(T &, T &, T) {} /* not compensated */
static __device__ __forceinline__ float pg_rkahan_sum(float s, float c) { return s - c; }
static __device__ __forceinline__ pg_complex64
pg_rkahan_sum(pg_complex64 s, pg_complex64 c)
{
    return pg_cmake_c64(s.re - c.re, s.im - c.im);
}
template <typename T> static __device__ __forceinline__ T pg_rkahan_sum(T s, T) { return s; }

/* acc folded with v: compensated (c its compensation) or plainly */
#define PG_RFOLD(NAME, acc, c, v)                                                           \
    do {                                                                                     \
        if (pg_rcompensated(#NAME))                                                          \
            pg_rkahan(acc, c, v);                                                            \
        else                                                                                 \
            acc = pg_rnext_##NAME(acc, v);                                                   \
    } while (0)

/* Reduction (phases FINAL and PARTIAL) or the merge of a split one's partials (FINISH). */
#define PG_REDUCE_KERNEL(NAME, S)                                                           \
    extern "C" __global__ void reduce_##NAME(PgReduceArgs a)    \
    {                                                                                        \
        __shared__ pg_racc_##NAME sm[PG_RBLOCK];                                             \
        const PgReduceArgs *ap = &a;                                                         \
        const int t = (int)threadIdx.x, L = a.lanes, per = PG_RBLOCK / L;                    \
        const int lane = a.outer ? t / per : t % L;                                          \
        const int slot = a.outer ? t % per : t / L;                                          \
        const int64_t nblk = (a.nout + per - 1) / per;                                       \
        const int64_t split = (int64_t)blockIdx.x / nblk;                                    \
        const int64_t o = ((int64_t)blockIdx.x - split * nblk) * per + slot;                 \
        pg_racc_##NAME acc = pg_rident_##NAME(ap);                                           \
        if (o < a.nout) {                                                                    \
            if (a.phase == PG_RPHASE_FINISH) {                                               \
                const pg_racc_##NAME *w = (const pg_racc_##NAME *)a.work;                    \
                for (int64_t k = lane; k < a.nsplit; k += L)                                 \
                    acc = pg_rcomb_##NAME(acc, w[k * a.nout + o]);                           \
            } else {                                                                         \
                int64_t ib, ob, mb;                                                          \
                pg_rkeep_offsets(ap, o, &ib, &ob, &mb);                                      \
                int64_t rb = split * a.chunk, re = rb + a.chunk;                             \
                if (re > a.nred_total)                                                       \
                    re = a.nred_total;                                                       \
                pg_racc_##NAME c0{}, c1{}; /* compensations (pg_rcompensated) */            \
                if (a.typed && a.nred <= 1) {                                                \
                    const pg_s_##S *p = (const pg_s_##S *)(a.in + ib);                       \
                    const int64_t st = a.nred ? a.red_in[0] / (int64_t)sizeof(pg_s_##S) : 0; \
                    /* 8 loads in flight per thread before they are merged */                \
                    pg_racc_##NAME a1 = acc;                                                 \
                    int64_t r = rb + lane;                                                   \
                    for (; r + 7 * (int64_t)L < re; r += 8 * (int64_t)L) {                   \
                        pg_s_##S x[8];                                                       \
                        _Pragma("unroll") for (int k = 0; k < 8; k++) x[k] = p[(r + k * L) * st]; \
                        _Pragma("unroll") for (int k = 0; k < 8; k += 2) {                   \
                            PG_RFOLD(NAME, acc, c0, pg_rtyped_##NAME(x[k], r + k * L));      \
                            PG_RFOLD(NAME, a1, c1, pg_rtyped_##NAME(x[k + 1], r + (k + 1) * L)); \
                        }                                                                    \
                    }                                                                        \
                    for (; r < re; r += L)                                                   \
                        PG_RFOLD(NAME, a1, c1, pg_rtyped_##NAME(p[r * st], r));              \
                    acc = pg_rcomb_##NAME(pg_rkahan_sum(acc, c0), pg_rkahan_sum(a1, c1));    \
                } else {                                                                     \
                    pg_racc_##NAME v;                                                        \
                    for (int64_t r = rb + lane; r < re; r += L) {                            \
                        int64_t io, mo;                                                      \
                        pg_rred_offsets(ap, r, &io, &mo);                                    \
                        if (a.mask && !a.mask[mb + mo])                                      \
                            continue;                                                        \
                        if (pg_rload_##NAME(ap, a.in + ib + io, r, &v))                      \
                            PG_RFOLD(NAME, acc, c0, v);                                      \
                    }                                                                        \
                    acc = pg_rkahan_sum(acc, c0);                                            \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
        sm[slot * L + lane] = acc;                                                           \
        __syncthreads();                                                                     \
        for (int s = L / 2; s > 0; s >>= 1) {                                                \
            if (lane < s)                                                                    \
                sm[slot * L + lane] = pg_rcomb_##NAME(sm[slot * L + lane], sm[slot * L + lane + s]); \
            __syncthreads();                                                                 \
        }                                                                                    \
        if (lane == 0 && o < a.nout) {                                                       \
            acc = sm[slot * L];                                                              \
            if (a.phase == PG_RPHASE_PARTIAL) {                                              \
                ((pg_racc_##NAME *)a.work)[split * a.nout + o] = acc;                        \
            } else {                                                                         \
                int64_t ib, ob, mb;                                                          \
                pg_rkeep_offsets(ap, o, &ib, &ob, &mb);                                      \
                pg_rstore_##NAME(ap, a.out + ob, acc);                                       \
            }                                                                                \
        }                                                                                    \
    }

/* Scan: rows along the input's fastest axis (outer) take a thread each, walking their axis in
 * order (coalesced across threads); otherwise a block scans one chunk of one row, 4 elements a
 * thread per tile, thread totals scanned in shared memory, the running total carried. */
#define PG_RSCAN_ITEMS 4
#define PG_SCAN_KERNEL(NAME, S)                                                             \
    extern "C" __global__ void rscan_##NAME(PgScanArgs a)       \
    {                                                                                        \
        pg_t_##S id;                                                                         \
        PG_RBITS(S, a.ident, id);                                                            \
        if (a.outer) {                                                                       \
            for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < a.nrows;    \
                 j += (int64_t)blockDim.x * gridDim.x) {                                     \
                int64_t ib, ob;                                                              \
                pg_scan_row_offsets(&a, j, &ib, &ob);                                        \
                pg_t_##S acc = id;                                                           \
                for (int64_t i = 0; i < a.n; i++) {                                          \
                    const pg_t_##S x = pg_load_##S(a.in + ib + i * a.in_step, a.in_type);    \
                    acc = i ? PG_SCAN_STEP(S, a.out_type, pg_rcomb_##NAME(acc, x)) : x;      \
                    pg_store_##S(a.out + ob + i * a.out_step, a.out_type, acc);              \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        __shared__ pg_t_##S sm[2][PG_RBLOCK];                                                \
        const int t = (int)threadIdx.x;                                                      \
        const int64_t row = (int64_t)blockIdx.x / a.nchunks;                                 \
        const int64_t c = (int64_t)blockIdx.x - row * a.nchunks;                             \
        int64_t ib, ob;                                                                      \
        pg_scan_row_offsets(&a, row, &ib, &ob);                                              \
        pg_t_##S *carry = (pg_t_##S *)a.carry;                                               \
        /* a row's first element starts its scan, as NumPy's: the identity is no identity for a \
         * complex product with an infinite part ((1 + 0j)(inf + 0j) is inf + nanj) */         \
        int has_run = a.phase == PG_SPHASE_SCAN && carry && c > 0;                           \
        pg_t_##S run = has_run ? carry[row * a.nchunks + c - 1] : id;                        \
        const int64_t begin = c * a.chunk, end = begin + a.chunk < a.n ? begin + a.chunk : a.n; \
        for (int64_t base = begin; base < end; base += PG_RBLOCK * PG_RSCAN_ITEMS) {         \
            pg_t_##S y[PG_RSCAN_ITEMS];                                                      \
            pg_t_##S tot = id;                                                               \
            for (int k = 0; k < PG_RSCAN_ITEMS; k++) {                                       \
                int64_t i = base + (int64_t)t * PG_RSCAN_ITEMS + k;                          \
                if (i < end) {                                                               \
                    const pg_t_##S x = pg_load_##S(a.in + ib + i * a.in_step, a.in_type);    \
                    tot = k ? pg_rcomb_##NAME(tot, x) : x;                                   \
                }                                                                            \
                y[k] = tot;                                                                  \
            }                                                                                \
            int cur = 0;                                                                     \
            sm[0][t] = tot;                                                                  \
            __syncthreads();                                                                 \
            for (int s = 1; s < PG_RBLOCK; s <<= 1) {                                        \
                sm[cur ^ 1][t] = t >= s ? pg_rcomb_##NAME(sm[cur][t - s], sm[cur][t]) : sm[cur][t]; \
                cur ^= 1;                                                                    \
                __syncthreads();                                                             \
            }                                                                                \
            /* the threads past the end hold the identity: the last one with elements ends the tile */ \
            const int64_t left = end - base;                                                 \
            const int last = left >= PG_RBLOCK * PG_RSCAN_ITEMS ? PG_RBLOCK - 1 : (int)((left - 1) / PG_RSCAN_ITEMS); \
            const int lead = t > 0 || has_run;                                               \
            pg_t_##S before = t == 0 ? run : has_run ? pg_rcomb_##NAME(run, sm[cur][t - 1]) : sm[cur][t - 1]; \
            if (a.phase == PG_SPHASE_SCAN) {                                                 \
                for (int k = 0; k < PG_RSCAN_ITEMS; k++) {                                   \
                    int64_t i = base + (int64_t)t * PG_RSCAN_ITEMS + k;                      \
                    if (i < end)                                                             \
                        pg_store_##S(a.out + ob + i * a.out_step, a.out_type, lead ? pg_rcomb_##NAME(before, y[k]) : y[k]); \
                }                                                                            \
            }                                                                                \
            run = has_run ? pg_rcomb_##NAME(run, sm[cur][last]) : sm[cur][last];            \
            has_run = 1;                                                                     \
            __syncthreads();                                                                 \
        }                                                                                    \
        if (a.phase == PG_SPHASE_TOTALS && t == 0)                                           \
            carry[row * a.nchunks + c] = run;                                                \
    }

/* reduceat: a thread per output (lanes 1), or `lanes` threads per output for long segments, each
 * folding every lanes-th element pairwise, merged in shared memory. */
#define PG_RSEG_KERNEL(NAME)                                                                \
    PG_RSEG_ONE(NAME)                                                                        \
    extern "C" __global__ void rseg_##NAME(PgReduceArgs a)                                   \
    {                                                                                        \
        if (a.lanes <= 1) {                                                                  \
            for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < a.nout;     \
                 o += (int64_t)blockDim.x * gridDim.x)                                       \
                pg_rseg_one_##NAME(&a, o);                                                   \
            return;                                                                          \
        }                                                                                    \
        __shared__ pg_racc_##NAME sm[PG_RBLOCK];                                             \
        const int t = (int)threadIdx.x, L = a.lanes, per = PG_RBLOCK / L;                    \
        const int lane = t % L, slot = t / L;                                                \
        for (int64_t o0 = (int64_t)blockIdx.x * per; o0 < a.nout; o0 += (int64_t)gridDim.x * per) { \
            const int64_t o = o0 + slot;                                                     \
            int64_t u = 0;                                                                   \
            sm[t] = o < a.nout ? pg_rseg_fold_##NAME(&a, o, lane, L, &u) : pg_rident_##NAME(&a); \
            __syncthreads();                                                                 \
            for (int w = L / 2; w > 0; w >>= 1) {                                            \
                if (lane < w)                                                                \
                    sm[t] = pg_rcomb_##NAME(sm[t], sm[t + w]);                               \
                __syncthreads();                                                             \
            }                                                                                \
            if (lane == 0 && o < a.nout)                                                     \
                pg_rstore_##NAME(&a, a.out + u, sm[t]);                                      \
            __syncthreads();                                                                 \
        }                                                                                    \
    }

#define PG_RAT_KERNEL(NAME, S)                                                              \
    PG_RAT_UPDATE(NAME, S)                                                                   \
    extern "C" __global__ void rat_##NAME(PgAtArgs a)                                        \
    {                                                                                        \
        const pg_t_##S *vals = (const pg_t_##S *)a.vals;                                     \
        const int64_t n = a.nidx * a.trail_size;                                             \
        if (a.serial) {                                                                      \
            if (blockIdx.x == 0 && threadIdx.x == 0)                                         \
                for (int64_t e = 0; e < n; e++) {                                            \
                    int64_t i = e / a.trail_size;                                            \
                    char *p = a.target + a.offsets[i] + pg_at_trail_offset(&a, e - i * a.trail_size); \
                    pg_store_##S(p, a.type, pg_op_##NAME(pg_load_##S(p, a.type), vals[e]));  \
                }                                                                            \
            return;                                                                          \
        }                                                                                    \
        for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < n;              \
             e += (int64_t)blockDim.x * gridDim.x) {                                         \
            int64_t i = e / a.trail_size;                                                    \
            char *p = a.target + a.offsets[i] + pg_at_trail_offset(&a, e - i * a.trail_size); \
            pg_rat_update_##NAME(p, a.type, vals[e]);                                        \
        }                                                                                    \
    }

#else
/* ---------------------------------------------------------------- CPU functions */
/* The functions of each reducer: see PgCpuReduce and its kin in reduce_types.h. */
#include <stdlib.h>
#define PG_RPW 128 /* pairwise leaf (NumPy's PW_BLOCKSIZE) */
#define PG_RCOLS 4096 /* outputs accumulated side by side along an outer reduction */

/* Folds n elements ELEM(NAME, i), in order, into OUT: 8 interleaved chains merged pairwise
 * (NumPy's leaf), written as loops over the chains so that the compiler vectorises them. */
/* the eight accumulators as one vector: gcc left max's selects scalar without the pragma (the
 * device compiler needs none) */
#ifdef __CUDACC__
#define PG_RLANES
#else
#define PG_RLANES _Pragma("omp simd")
#endif
#define PG_RFOLD8(NAME, ELEM, n, OUT)                                                       \
    do {                                                                                     \
        if ((n) < 8) {                                                                       \
            for (int64_t i = 0; i < (n); i++)                                                \
                OUT = pg_rcomb_##NAME(OUT, ELEM(NAME, i));                                   \
            break;                                                                           \
        }                                                                                    \
        pg_racc_##NAME q_[8];                                                                \
        for (int j = 0; j < 8; j++)                                                          \
            q_[j] = ELEM(NAME, j);                                                           \
        int64_t i = 8;                                                                       \
        for (; i + 8 <= (n); i += 8)                                                         \
            PG_RLANES for (int j = 0; j < 8; j++)                                            \
                q_[j] = pg_rnext_##NAME(q_[j], ELEM(NAME, i + j));                           \
        pg_racc_##NAME s_ = pg_rcomb_##NAME(pg_rcomb_##NAME(pg_rcomb_##NAME(q_[0], q_[1]), pg_rcomb_##NAME(q_[2], q_[3])), \
                                            pg_rcomb_##NAME(pg_rcomb_##NAME(q_[4], q_[5]), pg_rcomb_##NAME(q_[6], q_[7]))); \
        for (; i < (n); i++)                                                                 \
            s_ = pg_rcomb_##NAME(s_, ELEM(NAME, i));                                         \
        OUT = pg_rcomb_##NAME(OUT, s_);                                                      \
    } while (0)

/* PG_RFOLD8 over 32 chains merged by halving, for the reducers whose result does not depend on
 * the order (max, min, logical, bitwise, integer): eight chains of float32 are one vector, whose
 * dependency chain (a max and the NaN selects) bounded the fold. */
#define PG_RFOLD32(NAME, ELEM, n, OUT)                                                      \
    do {                                                                                     \
        if ((n) < 64) {                                                                      \
            PG_RFOLD8(NAME, ELEM, n, OUT);                                                   \
            break;                                                                           \
        }                                                                                    \
        pg_racc_##NAME q_[32];                                                               \
        for (int j = 0; j < 32; j++)                                                         \
            q_[j] = ELEM(NAME, j);                                                           \
        int64_t i = 32;                                                                      \
        for (; i + 32 <= (n); i += 32)                                                       \
            PG_RLANES for (int j = 0; j < 32; j++)                                           \
                q_[j] = pg_rnext_##NAME(q_[j], ELEM(NAME, i + j));                           \
        for (int w = 16; w >= 1; w /= 2)                                                     \
            for (int j = 0; j < w; j++)                                                      \
                q_[j] = pg_rcomb_##NAME(q_[j], q_[j + w]);                                   \
        for (; i < (n); i++)                                                                 \
            q_[0] = pg_rcomb_##NAME(q_[0], ELEM(NAME, i));                                   \
        OUT = pg_rcomb_##NAME(OUT, q_[0]);                                                   \
    } while (0)

/* Walks reduced elements [r0, r0 + n) from their multi-index: BODY sees r, io, mo (input and mask
 * byte offsets). */
#define PG_RWALK(a, r0, n, BODY)                                                            \
    do {                                                                                     \
        int64_t idx_[PG_MAXDIMS], io = 0, mo = 0, rest_ = (r0);                              \
        const int nd_ = (a)->nred;                                                           \
        for (int d_ = nd_ - 1; d_ >= 0; d_--) {                                              \
            idx_[d_] = rest_ % (a)->red_shape[d_];                                           \
            rest_ /= (a)->red_shape[d_];                                                     \
            io += idx_[d_] * (a)->red_in[d_];                                                \
            mo += idx_[d_] * (a)->red_mask[d_];                                              \
        }                                                                                    \
        for (int64_t r = (r0); r < (r0) + (n); r++) {                                        \
            BODY;                                                                            \
            for (int d_ = nd_ - 1; d_ >= 0; d_--) { /* odometer */                           \
                io += (a)->red_in[d_];                                                       \
                mo += (a)->red_mask[d_];                                                     \
                if (++idx_[d_] < (a)->red_shape[d_])                                         \
                    break;                                                                   \
                io -= (a)->red_shape[d_] * (a)->red_in[d_];                                  \
                mo -= (a)->red_shape[d_] * (a)->red_mask[d_];                                \
                idx_[d_] = 0;                                                                \
            }                                                                                \
        }                                                                                    \
    } while (0)

/* Folds n >= 1 plain values v[i] with the exact op FN (maximum, minimum) into OUT: W chains (32:
 * four vectors of float32; 128: two of bytes), so that the compiler vectorises them off one
 * dependency chain. */
#define PG_VFOLDW(T, FN, v, n, OUT, W)                                                      \
    do {                                                                                     \
        int64_t i = 0;                                                                       \
        if ((n) >= (W)) {                                                                    \
            T q_[W];                                                                         \
            for (int j = 0; j < (W); j++)                                                    \
                q_[j] = (v)[j];                                                              \
            for (i = (W); i + (W) <= (n); i += (W))                                          \
                PG_RLANES for (int j = 0; j < (W); j++)                                      \
                    q_[j] = FN(q_[j], (v)[i + j]);                                           \
            for (int w = (W) / 2; w >= 1; w /= 2)                                            \
                for (int j = 0; j < w; j++)                                                  \
                    q_[j] = FN(q_[j], q_[j + w]);                                            \
            OUT = q_[0];                                                                     \
        } else {                                                                             \
            OUT = (v)[0];                                                                    \
            i = 1;                                                                           \
        }                                                                                    \
        for (; i < (n); i++)                                                                 \
            OUT = FN(OUT, (v)[i]);                                                           \
    } while (0)
#define PG_VFOLD32(T, FN, v, n, OUT) PG_VFOLDW(T, FN, v, n, OUT, 32)

/* pg_rleaf_n_NAME(a): the longest leaf of a reduction over one axis without a mask. Pairwise
 * summation wants short leaves (its rounding depends on them, as NumPy's); where the order does
 * not change the result (max, min, logical, bitwise and integer reducers, the arg reducers'
 * positions) a leaf is long: a short one cost more in its ends (the chains' merge, the calls of
 * the recursion, the arg reducers' search) than in its values. */
#define PG_RPW_LONG 2048
#define PG_RSECOND_(a, b, ...) b
#define PG_RPROBE_(...) PG_RSECOND_(__VA_ARGS__, 0, 0)
#define PG_RPAIRWISE_MARK_ ~, 1
#define PG_RIS_PAIRWISE(NAME) PG_RPROBE_(PG_RCAT3(PG_RPAIRWISE_, NAME, ))
#define PG_RPAIRWISE_add_f32 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_add_f64 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_add_c64 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_add_c128 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_multiply_f32 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_multiply_f64 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_multiply_c64 PG_RPAIRWISE_MARK_
#define PG_RPAIRWISE_multiply_c128 PG_RPAIRWISE_MARK_
#define PG_RLEAF_N_OP(NAME)                                                                 \
    static inline int64_t pg_rleaf_n_##NAME(const PgReduceArgs *a)                          \
    {                                                                                        \
        if (pg_rnarrow_ok_##NAME(a, a->red_in[0]))                                         \
            return PG_RNARROW_LEAF;                                                          \
        return PG_RIS_PAIRWISE(NAME) ? PG_RPW : PG_RPW_LONG;                                 \
    }
#define PG_RLEAF_N_MOMENTS(NAME)                                                            \
    static inline int64_t pg_rleaf_n_##NAME(const PgReduceArgs *a)                          \
    {                                                                                        \
        (void)a;                                                                             \
        return PG_RPW;                                                                       \
    }
/* pg_rblock_NAME(v, r0, n, acc): acc merged with n plain values v[0..n) (reduced indices r0...),
 * the fast path of the CPU leaves, per kind of reducer. */
#define PG_RE_V(NAME, i) (v[i])
#define PG_RBLOCK_OP(NAME, S)                                                               \
    PG_RGATHER_OP(NAME, S)                                                                   \
    PG_RNARROW_FN(NAME, S, *e = PG_RFROMB_##S(best))                                         \
    PG_RLEAF_N_OP(NAME)                                                                      \
    static inline pg_t_##S pg_rblock_##NAME(const pg_t_##S *v, int64_t r0, int64_t n, pg_t_##S acc) \
    {                                                                                        \
        (void)r0;                                                                            \
        if (PG_RIS_PAIRWISE(NAME))                                                           \
            PG_RFOLD8(NAME, PG_RE_V, n, acc);                                                \
        else                                                                                 \
            PG_RFOLD32(NAME, PG_RE_V, n, acc);                                               \
        return acc;                                                                          \
    }
/* the best value by the op's own maximum/minimum (vectorised; NaN propagates), then its first
 * position (the first NaN when it is NaN) */
#define PG_RARGOP_GT maximum
#define PG_RARGOP_LT minimum
#define PG_RCAT3(a, b, c) PG_RCAT3_(a, b, c)
#define PG_RCAT3_(a, b, c) a##b##c
#define PG_RARGFN(CMP, S) PG_RCAT3(pg_op_, PG_RARGOP_##CMP, _##S)
#define PG_REQV_REAL(x, y) ((x) == (y))
#define PG_REQV_CPLX(x, y) ((x).re == (y).re && (x).im == (y).im)
#define PG_REQV_i32 PG_REQV_REAL
#define PG_REQV_u32 PG_REQV_REAL
#define PG_REQV_i64 PG_REQV_REAL
#define PG_REQV_u64 PG_REQV_REAL
#define PG_REQV_f32 PG_REQV_REAL
#define PG_REQV_f64 PG_REQV_REAL
#define PG_REQV_c64 PG_REQV_CPLX
#define PG_REQV_c128 PG_REQV_CPLX
/* K = the first index I in [0, n) where COND (an expression of I) holds, which exists: sixteen
 * at a time (vectorised), then one by one within the sixteen */
#define PG_RFIND(n, I, COND, K)                                                             \
    do {                                                                                     \
        K = 0;                                                                               \
        for (; K + 16 <= (n); K += 16) {                                                     \
            int hit_ = 0;                                                                    \
            _Pragma("omp simd reduction(|:hit_)") for (int64_t d_ = 0; d_ < 16; d_++) {      \
                const int64_t I = K + d_;                                                    \
                (void)I; /* unused where COND is constant (an integer's NaN test) */         \
                hit_ |= (COND);                                                              \
            }                                                                                \
            if (hit_)                                                                        \
                break;                                                                       \
        }                                                                                    \
        for (;; K++) {                                                                       \
            const int64_t I = K;                                                             \
            (void)I;                                                                         \
            if (COND)                                                                        \
                break;                                                                       \
        }                                                                                    \
    } while (0)
/* Narrow integers (8 and 16 bits, read in place, contiguous): max/min and argmax/argmin fold them
 * in their own type (64 lanes of a vector, where widening them to the 32-bit reducers' type first
 * cost 4-10x NumPy's time), count_nonzero counts bytes in byte lanes. The reducers that take them
 * are marked below; a u32 reducer takes only unsigned ones (a negative value would wrap). */
#define PG_RHAS(PREFIX, NAME) PG_RPROBE_(PG_RCAT3(PREFIX, NAME, )) /* 1 where PREFIX##NAME is a mark */
#define PG_RMARK_ ~, 1
#define PG_RMAXOF_maximum_i32 PG_RMARK_
#define PG_RMAXOF_maximum_u32 PG_RMARK_
#define PG_RMAXOF_argmax_i32 PG_RMARK_
#define PG_RMAXOF_argmax_u32 PG_RMARK_
#define PG_RMINOF_minimum_i32 PG_RMARK_
#define PG_RMINOF_minimum_u32 PG_RMARK_
#define PG_RMINOF_argmin_i32 PG_RMARK_
#define PG_RMINOF_argmin_u32 PG_RMARK_
#define PG_RARGOF_argmax_i32 PG_RMARK_
#define PG_RARGOF_argmax_u32 PG_RMARK_
#define PG_RARGOF_argmin_i32 PG_RMARK_
#define PG_RARGOF_argmin_u32 PG_RMARK_
#define PG_RCOUNTOF_add_i64 PG_RMARK_
#define PG_RNMAX_(x, y) ((x) > (y) ? (x) : (y))
#define PG_RNMIN_(x, y) ((x) < (y) ? (x) : (y))
#define PG_RNARROW_LEAF 65536 /* a leaf's elements when narrow: its ends cost more than 2048 bytes */
#define PG_RNARROW_BEST(T, UT, SUF)                                                         \
    /* the max (or min) of v[0..n), n >= 1, and where `find`, its first position: blocks of 64 \
     * compared by the min of their XOR with it (unsigned, so that it stays in byte lanes) */  \
    static inline int64_t pg_rnarrow_best_##SUF(const T *v, int64_t n, int max, int find, T *best) \
    {                                                                                        \
        T b;                                                                                 \
        if (max)                                                                             \
            PG_VFOLDW(T, PG_RNMAX_, v, n, b, (int)(256 / sizeof(T)));                        \
        else                                                                                 \
            PG_VFOLDW(T, PG_RNMIN_, v, n, b, (int)(256 / sizeof(T)));                        \
        *best = b;                                                                           \
        if (!find)                                                                           \
            return 0;                                                                        \
        const UT *u = (const UT *)v, ub = (UT)b;                                             \
        int64_t k = 0;                                                                       \
        for (; k + 64 <= n; k += 64) {                                                       \
            UT m = (UT)~(UT)0;                                                               \
            _Pragma("omp simd reduction(min:m)") for (int d = 0; d < 64; d++) {              \
                const UT x = (UT)(u[k + d] ^ ub);                                            \
                m = x < m ? x : m;                                                           \
            }                                                                                \
            if (m == 0)                                                                      \
                break;                                                                       \
        }                                                                                    \
        while (u[k] != ub)                                                                   \
            k++;                                                                             \
        return k;                                                                            \
    }
PG_RNARROW_BEST(int8_t, uint8_t, i8)
PG_RNARROW_BEST(uint8_t, uint8_t, u8)
PG_RNARROW_BEST(int16_t, uint16_t, i16)
PG_RNARROW_BEST(uint16_t, uint16_t, u16)

/* the nonzero bytes among n: per 64-byte lane counters, at most 255 steps before they are added */
static inline int64_t pg_rcount_bytes(const uint8_t *v, int64_t n)
{
    int64_t total = 0, i = 0;
    while (n - i >= 64) {
        uint8_t c[64] = {0};
        for (int64_t steps = 0; steps < 255 && n - i >= 64; steps++, i += 64)
            PG_RLANES for (int j = 0; j < 64; j++)
                c[j] += v[i + j] != 0;
        for (int j = 0; j < 64; j++)
            total += c[j];
    }
    for (; i < n; i++)
        total += v[i] != 0;
    return total;
}

/* pg_rnarrow_ok_NAME(a, st): whether the reducer folds the elements (byte stride st) narrow;
 * pg_rnarrow_NAME(a, p, r0, n, &e) then gives the leaf e of n >= 1 of them from p */
#define PG_RNARROW_TYPE_OK(TYPE, T)                                                         \
    (a->in_type == TYPE && st == (int64_t)sizeof(T) && !(unsigned_acc && (T)-1 < 0))
#define PG_RNARROW_CASE(TYPE, T, SUF, MAX, FIND)                                            \
    case TYPE: {                                                                             \
        T b_;                                                                                \
        at = pg_rnarrow_best_##SUF((const T *)p, n, MAX, FIND, &b_);                         \
        best = (int64_t)b_;                                                                  \
        break;                                                                               \
    }
#define PG_RNARROW_FN(NAME, S, SET)                                                         \
    static inline int pg_rnarrow_ok_##NAME(const PgReduceArgs *a, int64_t st)               \
    {                                                                                        \
        const int unsigned_acc = PG_TYPE_##S == PG_UINT32 || PG_TYPE_##S == PG_UINT64;      \
        if (a->mask)                                                                         \
            return 0;                                                                        \
        if (PG_RHAS(PG_RCOUNTOF_, NAME))                                                     \
            return a->flags == PG_RED_NONZERO && st == 1 &&                                  \
                   (a->in_type == PG_BOOL || a->in_type == PG_INT8 || a->in_type == PG_UINT8); \
        if (!(PG_RHAS(PG_RMAXOF_, NAME) || PG_RHAS(PG_RMINOF_, NAME)) || !PG_RPLAIN(a))      \
            return 0;                                                                        \
        return PG_RNARROW_TYPE_OK(PG_INT8, int8_t) || PG_RNARROW_TYPE_OK(PG_UINT8, uint8_t) || \
               PG_RNARROW_TYPE_OK(PG_INT16, int16_t) || PG_RNARROW_TYPE_OK(PG_UINT16, uint16_t); \
    }                                                                                        \
    static inline void pg_rnarrow_##NAME(const PgReduceArgs *a, const char *p, int64_t r0, int64_t n, \
                                         pg_racc_##NAME *e)                                  \
    {                                                                                        \
        int64_t best = 0, at = 0;                                                            \
        (void)r0, (void)at;                                                                  \
        if (PG_RHAS(PG_RCOUNTOF_, NAME)) {                                                   \
            best = pg_rcount_bytes((const uint8_t *)p, n);                                   \
        } else {                                                                             \
            const int mx = PG_RHAS(PG_RMAXOF_, NAME), find = PG_RHAS(PG_RARGOF_, NAME);      \
            switch (a->in_type) {                                                            \
                PG_RNARROW_CASE(PG_INT8, int8_t, i8, mx, find)                               \
                PG_RNARROW_CASE(PG_UINT8, uint8_t, u8, mx, find)                             \
                PG_RNARROW_CASE(PG_INT16, int16_t, i16, mx, find)                            \
                PG_RNARROW_CASE(PG_UINT16, uint16_t, u16, mx, find)                          \
            default:                                                                         \
                break;                                                                       \
            }                                                                                \
        }                                                                                    \
        SET;                                                                                 \
    }

/* The best of a leaf by one of two methods, whichever this machine's compiler vectorised better
 * (2-core AMD EPYC, gcc 12): 64-bit values by lanes (eight bests and their positions; a later
 * element replaces a lane's best only when strictly better, a NaN only a number; the lanes merged
 * by position), 32-bit, float32 and complex values in two passes (the best value by the op's maximum or
 * minimum, then its first position). */
#define PG_RARG_LANES_i32 0
#define PG_RARG_LANES_u32 0
#define PG_RARG_LANES_i64 1
#define PG_RARG_LANES_u64 1
#define PG_RARG_LANES_f64 1
#define PG_RARG_LANES_f32 0
#define PG_RARG_LANES_c64 0
#define PG_RARG_LANES_c128 0
#define PG_RBLOCK_ARG(NAME, S, CMP)                                                         \
    PG_RGATHER_PLAIN(NAME, S)                                                                \
    PG_RNARROW_FN(NAME, S, (e->v = PG_RFROMB_##S(best), e->i = r0 + at))                    \
    static inline int64_t pg_rleaf_n_##NAME(const PgReduceArgs *a)                          \
    {                                                                                        \
        if (pg_rnarrow_ok_##NAME(a, a->red_in[0]))                                         \
            return PG_RNARROW_LEAF;                                                          \
        return pg_rcan_gather_##NAME(a) ? PG_RPW_LONG : PG_RPW;                              \
    }                                                                                        \
    static inline pg_racc_##NAME pg_rblock_lanes_##NAME(const pg_t_##S *v, int64_t r0, int64_t n) \
    {                                                                                        \
        pg_t_##S bv[8];                                                                      \
        int64_t bi[8];                                                                       \
        for (int j = 0; j < 8; j++) {                                                        \
            bv[j] = v[j];                                                                    \
            bi[j] = j;                                                                       \
        }                                                                                    \
        int64_t i = 8;                                                                       \
        for (; i + 8 <= n; i += 8)                                                           \
            PG_RLANES for (int j = 0; j < 8; j++) {                                          \
                const pg_t_##S x = v[i + j];                                                 \
                /* bitwise, not short-circuit: gcc vectorises only this form */             \
                const int take = (!PG_RISNAN_##S(bv[j])) & (PG_RISNAN_##S(x) | PG_RBEFORE_##S(CMP, x, bv[j])); \
                bv[j] = take ? x : bv[j];                                                    \
                bi[j] = take ? i + j : bi[j];                                                \
            }                                                                                \
        pg_racc_##NAME e = pg_rtyped_##NAME(bv[0], r0 + bi[0]);                              \
        for (int j = 1; j < 8; j++)                                                          \
            e = pg_rcomb_##NAME(e, pg_rtyped_##NAME(bv[j], r0 + bi[j]));                     \
        for (; i < n; i++) /* after every lane's elements */                                 \
            e = pg_rnext_##NAME(e, pg_rtyped_##NAME(v[i], r0 + i));                          \
        return e;                                                                            \
    }                                                                                        \
    static inline pg_racc_##NAME pg_rblock_two_pass_##NAME(const pg_t_##S *v, int64_t r0, int64_t n) \
    {                                                                                        \
        pg_racc_##NAME e;                                                                    \
        PG_VFOLD32(pg_t_##S, PG_RARGFN(CMP, S), v, n, e.v);                                   \
        int64_t k;                                                                           \
        if (PG_RISNAN_##S(e.v))                                                              \
            PG_RFIND(n, k_, PG_RISNAN_##S(v[k_]), k);                                        \
        else                                                                                 \
            PG_RFIND(n, k_, PG_REQV_##S(v[k_], e.v), k);                                     \
        e.i = r0 + k;                                                                        \
        return e;                                                                            \
    }                                                                                        \
    static inline pg_racc_##NAME pg_rblock_##NAME(const pg_t_##S *v, int64_t r0, int64_t n, pg_racc_##NAME acc) \
    {                                                                                        \
        if (n <= 0)                                                                          \
            return acc;                                                                      \
        if (PG_RARG_LANES_##S && n >= 16)                                                    \
            return pg_rcomb_##NAME(acc, pg_rblock_lanes_##NAME(v, r0, n));                   \
        return pg_rcomb_##NAME(acc, pg_rblock_two_pass_##NAME(v, r0, n));                    \
    }
/* exact two passes over the block (mean, then squared deviations), merged as Chan */
#define PG_RBLOCK_MOMENTS(NAME, S, R)                                                       \
    PG_RGATHER_MOMENTS(NAME, S)                                                              \
    static inline int pg_rnarrow_ok_##NAME(const PgReduceArgs *a, int64_t st)               \
    {                                                                                        \
        (void)a, (void)st;                                                                   \
        return 0;                                                                            \
    }                                                                                        \
    static inline void pg_rnarrow_##NAME(const PgReduceArgs *a, const char *p, int64_t r0, int64_t n, \
                                         pg_racc_##NAME *e)                                  \
    {                                                                                        \
        (void)a, (void)p, (void)r0, (void)n, (void)e;                                        \
    }                                                                                        \
    PG_RLEAF_N_MOMENTS(NAME)                                                                 \
    static inline pg_racc_##NAME pg_rblock_##NAME(const pg_t_##S *v, int64_t r0, int64_t n, pg_racc_##NAME acc) \
    {                                                                                        \
        (void)r0;                                                                            \
        if (n <= 0)                                                                          \
            return acc;                                                                      \
        pg_t_##S sum = PG_RZERO_##S;                                                         \
        PG_RFOLD8(add_##S, PG_RE_V, n, sum);                                                 \
        pg_racc_##NAME e;                                                                    \
        e.n = n;                                                                             \
        e.mean = PG_RAXPY_##S(PG_RZERO_##S, sum, (pg_t_##R)1 / (pg_t_##R)n);                 \
        pg_t_##R m[4] = {0, 0, 0, 0};                                                        \
        int64_t i = 0;                                                                       \
        for (; i + 4 <= n; i += 4)                                                           \
            for (int j = 0; j < 4; j++)                                                      \
                m[j] += PG_RABS2_##S(PG_RSUB_##S(v[i + j], e.mean));                         \
        for (; i < n; i++)                                                                   \
            m[0] += PG_RABS2_##S(PG_RSUB_##S(v[i], e.mean));                                 \
        e.m2 = (m[0] + m[1]) + (m[2] + m[3]);                                                \
        return pg_rcomb_##NAME(acc, e);                                                      \
    }

/* pg_rgather_NAME(a, p, st, v, n): n elements from p (byte stride st) as plain values into v,
 * with the loading flags applied, or 0 when the kind of reducer cannot (pg_rcan_gather_NAME:
 * skipped elements are not values for argmin or the moments). Op reducers skip a NaN as their
 * identity. */
#define PG_RLOAD_FLAGS (PG_RED_SKIPNAN | PG_RED_NONZERO)
#define PG_RGATHER_OP(NAME, S)                                                              \
    static inline int pg_rcan_gather_##NAME(const PgReduceArgs *a) { (void)a; return 1; }    \
    static inline int pg_rgather_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, int64_t n) \
    {                                                                                        \
        if (a->flags & PG_RED_NONZERO) { /* bools, then widened forward (it vectorises) */   \
            pg_bool b[256];                                                                  \
            for (int64_t k = 0; k < n; k += 256) {                                           \
                const int64_t c = n - k < 256 ? n - k : 256;                                 \
                pg_gather_b(p + k * st, st, a->in_type, b, c);                               \
                for (int64_t i = 0; i < c; i++)                                              \
                    v[k + i] = PG_RFROMB_##S(b[i]);                                          \
            }                                                                                \
            return 1;                                                                        \
        }                                                                                    \
        pg_gather_##S(p, st, a->in_type, v, n);                                              \
        if (a->flags & PG_RED_SKIPNAN) {                                                     \
            const pg_t_##S id = pg_rident_##NAME(a);                                         \
            for (int64_t i = 0; i < n; i++)                                                  \
                if (PG_RISNAN_##S(v[i]))                                                     \
                    v[i] = id;                                                               \
        }                                                                                    \
        return 1;                                                                            \
    }                                                                                        \
    static inline int64_t pg_rgather_leaf_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, \
                                                 int64_t n)                                  \
    {                                                                                        \
        return pg_rgather_##NAME(a, p, st, v, n) ? n : -1;                                   \
    }
#define PG_RGATHER_PLAIN(NAME, S)                                                           \
    static inline int pg_rcan_gather_##NAME(const PgReduceArgs *a) { return !(a->flags & PG_RLOAD_FLAGS); } \
    static inline int pg_rgather_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, int64_t n) \
    {                                                                                        \
        if (a->flags & PG_RLOAD_FLAGS)                                                       \
            return 0;                                                                        \
        pg_gather_##S(p, st, a->in_type, v, n);                                              \
        return 1;                                                                            \
    }                                                                                        \
    static inline int64_t pg_rgather_leaf_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, \
                                                 int64_t n)                                  \
    {                                                                                        \
        return pg_rgather_##NAME(a, p, st, v, n) ? n : -1;                                   \
    }
/* the moments need no positions: a leaf skips NaNs by packing the others */
#define PG_RGATHER_MOMENTS(NAME, S)                                                         \
    static inline int pg_rcan_gather_##NAME(const PgReduceArgs *a) { return !(a->flags & PG_RLOAD_FLAGS); } \
    static inline int64_t pg_rgather_leaf_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, \
                                                 int64_t n)                                  \
    {                                                                                        \
        if (a->flags & PG_RED_NONZERO)                                                       \
            return -1;                                                                       \
        pg_gather_##S(p, st, a->in_type, v, n);                                              \
        if (!(a->flags & PG_RED_SKIPNAN))                                                    \
            return n;                                                                        \
        int64_t m = 0;                                                                       \
        for (int64_t i = 0; i < n; i++)                                                      \
            if (!PG_RISNAN_##S(v[i]))                                                        \
                v[m++] = v[i];                                                               \
        return m;                                                                            \
    }                                                                                        \
    static inline int pg_rgather_##NAME(const PgReduceArgs *a, const char *p, int64_t st, pg_t_##S *v, int64_t n) \
    {                                                                                        \
        return pg_rcan_gather_##NAME(a) && pg_rgather_leaf_##NAME(a, p, st, v, n) >= 0;      \
    }

/* The three pieces of a reduction's CPU function: leaves of up to PG_RPW elements loaded into
 * plain values (typed in place, or converted by the gathers of elementwise.h) and folded by the
 * block, or element by element when a mask, or NaN skipping for argmin and the moments, decides
 * which count; pairwise recursion over leaves; runs of outputs side by side along an outer
 * reduced axis. */
#define PG_RPLAIN(a) (!(a)->mask && !((a)->flags & (PG_RED_SKIPNAN | PG_RED_NONZERO)))
/* BODY for outputs O in [o0, o1), with OB its byte offset in the output: offsets computed once
 * per run along the innermost kept axis and stepped along it (a division chain per output took
 * longer than the sums of a reduction over a few rows) */
#define PG_ROUT_FOR(a, o0, o1, O, OB, BODY)                                                 \
    for (int64_t o_ = (o0); o_ < (o1);) {                                                     \
        int64_t ib_, ob_, mb_;                                                                \
        pg_rkeep_offsets(a, o_, &ib_, &ob_, &mb_);                                            \
        const int64_t kl_ = (a)->nkeep > 0 ? (a)->keep_shape[(a)->nkeep - 1] : 1;             \
        const int64_t os_ = (a)->nkeep > 0 ? (a)->keep_out[(a)->nkeep - 1] : 0;              \
        int64_t run_ = kl_ - o_ % kl_;                                                        \
        if (run_ > (o1) - o_)                                                                 \
            run_ = (o1) - o_;                                                                 \
        for (int64_t k_ = 0; k_ < run_; k_++) {                                               \
            const int64_t O = o_ + k_, OB = ob_ + k_ * os_;                                   \
            (void)O;                                                                          \
            BODY;                                                                             \
        }                                                                                     \
        o_ += run_;                                                                           \
    }
/* outputs [o0, o1) of an outer reduction, in runs of up to `cols` along the innermost kept axis
 * (in pg_cpu_reduce_NAME: acc, vbuf, cols, parts) */
#define PG_RCOLS_RUN(NAME)                                                                  \
    for (int64_t o = o0; o < o1;) {                                                          \
        int64_t m = row - o % row;                                                           \
        if (m > o1 - o)                                                                      \
            m = o1 - o;                                                                      \
        if (m > cols)                                                                        \
            m = cols;                                                                        \
        pg_rcols_##NAME(a, o, m, r0, r1, acc, vbuf);                                         \
        if (parts) {                                                                         \
            for (int64_t j = 0; j < m; j++)                                                  \
                parts[o + j - o0] = acc[j];                                                  \
        } else {                                                                             \
            int64_t ib_, ob_, mb_;                                                           \
            pg_rkeep_offsets(a, o, &ib_, &ob_, &mb_);                                        \
            if (!pg_rstore_run_##NAME(a, a->out + ob_, a->keep_out[a->nkeep - 1], acc, m))   \
                PG_ROUT_FOR(a, o, o + m, oj, ob, pg_rstore_##NAME(a, a->out + ob, acc[oj - o])); \
        }                                                                                    \
        o += m;                                                                              \
    }
/* Leaves out of line keep the recursion's frames small. */
#define PG_RLEAF_FN static __attribute__((noinline))
#define PG_REDUCE_CPU(NAME, S)                                                              \
    PG_RLEAF_FN pg_racc_##NAME pg_rleaf_##NAME(const PgReduceArgs *a, int64_t ib, int64_t mb, int64_t r0, int64_t n) \
    {                                                                                        \
        const pg_racc_##NAME id = pg_rident_##NAME(a);                                       \
        if (!a->mask && a->nred <= 1) {                                                      \
            const int64_t st = a->nred ? a->red_in[0] : 0;                                   \
            const char *p = a->in + ib + r0 * st;                                            \
            pg_t_##S v[PG_RPW_LONG];                                                         \
            if (PG_RPLAIN(a) && a->in_type == PG_TYPE_##S && st == (int64_t)sizeof(pg_t_##S)) \
                return pg_rblock_##NAME((const pg_t_##S *)p, r0, n, id);                     \
            if (pg_rnarrow_ok_##NAME(a, st)) { /* the only leaf longer than v */             \
                pg_racc_##NAME e;                                                            \
                pg_rnarrow_##NAME(a, p, r0, n, &e);                                          \
                return pg_rcomb_##NAME(id, e);                                               \
            }                                                                                \
            int64_t m = pg_rgather_leaf_##NAME(a, p, st, v, n);                              \
            if (m >= 0)                                                                      \
                return pg_rblock_##NAME(v, r0, m, id);                                       \
        }                                                                                    \
        pg_racc_##NAME buf[PG_RPW], acc = id;                                                \
        PG_RWALK(a, r0, n, {                                                                 \
            pg_racc_##NAME v;                                                                \
            int ok = !a->mask || a->mask[mb + mo];                                           \
            buf[r - r0] = ok && pg_rload_##NAME(a, a->in + ib + io, r, &v) ? v : id;         \
        });                                                                                  \
        PG_RFOLD8(NAME, PG_RE_BUF, n, acc);                                                  \
        return acc;                                                                          \
    }                                                                                        \
    static pg_racc_##NAME pg_rpair_##NAME(const PgReduceArgs *a, int64_t ib, int64_t mb, int64_t r0, int64_t n) \
    {                                                                                        \
        if (n <= PG_RPW || (!a->mask && a->nred == 1 && n <= pg_rleaf_n_##NAME(a)))          \
            return pg_rleaf_##NAME(a, ib, mb, r0, n);                                        \
        int64_t h = n / 2;                                                                   \
        h -= h % 8;                                                                          \
        /* the first half first: memory in order (arguments may be evaluated right to left) */ \
        pg_racc_##NAME first = pg_rpair_##NAME(a, ib, mb, r0, h);                            \
        return pg_rcomb_##NAME(first, pg_rpair_##NAME(a, ib, mb, r0 + h, n - h));            \
    }                                                                                        \
    /* outputs [o, o + m) of one run along the innermost kept axis, over [r0, r1); vbuf holds   \
     * m plain values */                                                                     \
    static void pg_rcols_##NAME(const PgReduceArgs *a, int64_t o, int64_t m, int64_t r0, int64_t r1, \
                                pg_racc_##NAME *acc, pg_t_##S *vbuf)                          \
    {                                                                                        \
        int64_t ib, ob, mb;                                                                  \
        pg_rkeep_offsets(a, o, &ib, &ob, &mb);                                               \
        const int64_t ks = a->keep_in[a->nkeep - 1], km = a->keep_mask[a->nkeep - 1];        \
        const pg_racc_##NAME id = pg_rident_##NAME(a);                                       \
        for (int64_t j = 0; j < m; j++)                                                      \
            acc[j] = id;                                                                     \
        if (r1 <= r0)                                                                        \
            return;                                                                          \
        if (!a->mask && pg_rcan_gather_##NAME(a)) {                                          \
            const int typed = PG_RPLAIN(a) && a->in_type == PG_TYPE_##S && ks == (int64_t)sizeof(pg_t_##S); \
            PG_RWALK(a, r0, r1 - r0, {                                                       \
                const char *row = a->in + ib + io;                                           \
                const pg_t_##S *v = (const pg_t_##S *)row;                                   \
                (void)mo;                                                                    \
                if (!typed) {                                                                \
                    pg_rgather_##NAME(a, row, ks, vbuf, m);                                  \
                    v = vbuf;                                                                \
                }                                                                            \
                /* lanes of independent outputs: gcc left the loop scalar without the pragma */ \
                _Pragma("omp simd") for (int64_t j = 0; j < m; j++)                          \
                    acc[j] = pg_rnext_##NAME(acc[j], pg_rtyped_##NAME(v[j], r));             \
            });                                                                              \
            return;                                                                          \
        }                                                                                    \
        PG_RWALK(a, r0, r1 - r0, {                                                           \
            for (int64_t j = 0; j < m; j++) {                                                \
                pg_racc_##NAME v;                                                            \
                if (a->mask && !a->mask[mb + mo + j * km])                                   \
                    continue;                                                                \
                if (pg_rload_##NAME(a, a->in + ib + io + j * ks, r, &v))                     \
                    acc[j] = pg_rnext_##NAME(acc[j], v);                                     \
            }                                                                                \
        });                                                                                  \
    }                                                                                        \
    static void pg_cpu_reduce_##NAME(const PgReduceArgs *a, int64_t o0, int64_t o1, int64_t r0, int64_t r1, \
                                        void *part)                                          \
    {                                                                                        \
        pg_racc_##NAME *parts = (pg_racc_##NAME *)part;                                      \
        if (a->outer && a->nkeep > 0) {                                                      \
            const int64_t row = a->keep_shape[a->nkeep - 1];                                 \
            int64_t cols = row < PG_RCOLS ? row : PG_RCOLS;                                  \
            pg_racc_##NAME *acc = (pg_racc_##NAME *)malloc((size_t)cols * sizeof(pg_racc_##NAME)); \
            pg_t_##S *vbuf = (pg_t_##S *)malloc((size_t)cols * sizeof(pg_t_##S));            \
            if (acc == NULL || vbuf == NULL) { /* out of memory: one column at a time */     \
                free(acc);                                                                   \
                free(vbuf);                                                                  \
                pg_racc_##NAME acc1;                                                         \
                pg_t_##S v1;                                                                 \
                acc = &acc1;                                                                 \
                vbuf = &v1;                                                                  \
                cols = 1;                                                                    \
                PG_RCOLS_RUN(NAME);                                                          \
                return;                                                                      \
            }                                                                                \
            PG_RCOLS_RUN(NAME);                                                              \
            free(acc);                                                                       \
            free(vbuf);                                                                      \
            return;                                                                          \
        }                                                                                    \
        for (int64_t o = o0; o < o1; o++) {                                                  \
            int64_t ib, ob, mb;                                                              \
            pg_rkeep_offsets(a, o, &ib, &ob, &mb);                                           \
            pg_racc_##NAME acc = r1 > r0 ? pg_rpair_##NAME(a, ib, mb, r0, r1 - r0) : pg_rident_##NAME(a); \
            if (parts)                                                                       \
                parts[o - o0] = acc;                                                         \
            else                                                                             \
                pg_rstore_##NAME(a, a->out + ob, acc);                                       \
        }                                                                                    \
    }                                                                                        \
    static void pg_cpu_rfinish_##NAME(const PgReduceArgs *a, const void *parts, int nparts, int64_t o0, \
                                         int64_t o1)                                         \
    {                                                                                        \
        const pg_racc_##NAME *w = (const pg_racc_##NAME *)parts;                             \
        PG_ROUT_FOR(a, o0, o1, o, ob, {                                                      \
            pg_racc_##NAME acc = w[o];                                                       \
            for (int k = 1; k < nparts; k++)                                                 \
                acc = pg_rcomb_##NAME(acc, w[k * a->nout + o]);                              \
            pg_rstore_##NAME(a, a->out + ob, acc);                                           \
        });                                                                                  \
    }

/* the elements of a leaf loaded one by one */
#define PG_RE_BUF(NAME, i) buf[i]
#define PG_SE_CONTIG(NAME, i) (p[i]) /* accumulator types load as they are stored */

#define PG_SCAN_CPU(NAME, S)                                                                \
    static void pg_cpu_scan_##NAME(const PgScanArgs *a, int64_t j0, int64_t j1, int64_t i0, int64_t i1, \
                                      const void *carry_in, void *totals)                    \
    {                                                                                        \
        pg_t_##S id;                                                                         \
        PG_RBITS(S, a->ident, id);                                                           \
        const pg_t_##S *cin = (const pg_t_##S *)carry_in;                                    \
        pg_t_##S *tot = (pg_t_##S *)totals;                                                  \
        if (a->outer && a->nkeep > 0 && !totals) {                                           \
            /* runs of rows along the innermost kept axis, side by side */                   \
            pg_t_##S acc[PG_RCOLS];                                                          \
            const int64_t rowlen = a->keep_shape[a->nkeep - 1];                              \
            const int64_t ks = a->keep_in[a->nkeep - 1], ko = a->keep_out[a->nkeep - 1];     \
            for (int64_t j = j0; j < j1;) {                                                  \
                int64_t m = rowlen - j % rowlen;                                             \
                if (m > j1 - j)                                                              \
                    m = j1 - j;                                                              \
                if (m > PG_RCOLS)                                                            \
                    m = PG_RCOLS;                                                            \
                int64_t ib, ob;                                                              \
                pg_scan_row_offsets(a, j, &ib, &ob);                                         \
                /* a row's first element starts its scan, as NumPy's (see rscan) */          \
                const int first = !cin && i0 < i1;                                           \
                for (int64_t k = 0; k < m; k++) {                                            \
                    acc[k] = cin ? cin[j - j0 + k] : id;                                     \
                    if (first) {                                                             \
                        acc[k] = pg_load_##S(a->in + ib + i0 * a->in_step + k * ks, a->in_type); \
                        pg_store_##S(a->out + ob + i0 * a->out_step + k * ko, a->out_type, acc[k]); \
                    }                                                                        \
                }                                                                            \
                const int typed = a->typed && ks == (int64_t)sizeof(pg_s_##S) && ko == ks;  \
                for (int64_t i = i0 + first; i < i1; i++) {                                  \
                    const char *pi = a->in + ib + i * a->in_step;                            \
                    char *po = a->out + ob + i * a->out_step;                                \
                    if (typed) {                                                             \
                        const pg_s_##S *x = (const pg_s_##S *)pi;                            \
                        pg_s_##S *y = (pg_s_##S *)po;                                        \
                        for (int64_t k = 0; k < m; k++) {                                    \
                            acc[k] = pg_rcomb_##NAME(acc[k], PG_TO_COMPUTE_##S(x[k]));       \
                            y[k] = PG_TO_STORAGE_##S(acc[k]);                                \
                        }                                                                    \
                    } else {                                                                 \
                        for (int64_t k = 0; k < m; k++) {                                    \
                            acc[k] = PG_SCAN_STEP(S, a->out_type,                             \
                                                  pg_rcomb_##NAME(acc[k], pg_load_##S(pi + k * ks, a->in_type))); \
                            pg_store_##S(po + k * ko, a->out_type, acc[k]);                  \
                        }                                                                    \
                    }                                                                        \
                }                                                                            \
                j += m;                                                                      \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        for (int64_t j = j0; j < j1; j++) {                                                  \
            int64_t ib, ob;                                                                  \
            pg_scan_row_offsets(a, j, &ib, &ob);                                             \
            pg_t_##S acc = cin ? cin[j - j0] : id;                                           \
            const char *pi = a->in + ib;                                                     \
            char *po = a->out + ob;                                                          \
            int64_t i0r = i0; /* after the row's first element, which starts the scan */      \
            if (!cin && i0 < i1) {                                                           \
                acc = pg_load_##S(pi + i0 * a->in_step, a->in_type);                         \
                if (!tot)                                                                    \
                    pg_store_##S(po + i0 * a->out_step, a->out_type, acc);                   \
                i0r = i0 + 1;                                                                \
            }                                                                                \
            const int typed_in = a->in_type == PG_TYPE_##S && a->in_step == (int64_t)sizeof(pg_t_##S); \
            if (tot) {                                                                       \
                for (int64_t i = i0r; i < i1; i += PG_RPW) {                                  \
                    int64_t m = i1 - i < PG_RPW ? i1 - i : PG_RPW;                           \
                    pg_t_##S vb[PG_RPW];                                                     \
                    const pg_t_##S *v = (const pg_t_##S *)(pi + i * a->in_step);             \
                    if (!typed_in) {                                                         \
                        pg_gather_##S(pi + i * a->in_step, a->in_step, a->in_type, vb, m);   \
                        v = vb;                                                              \
                    }                                                                        \
                    acc = pg_rblock_##NAME(v, i, m, acc);                                    \
                }                                                                            \
                tot[j - j0] = acc;                                                           \
            } else if (a->typed && typed_in && a->out_step == a->in_step) {                  \
                const pg_s_##S *x = (const pg_s_##S *)pi;                                    \
                pg_s_##S *y = (pg_s_##S *)po;                                                \
                for (int64_t i = i0r; i < i1; i++) {                                          \
                    acc = pg_rcomb_##NAME(acc, PG_TO_COMPUTE_##S(x[i]));                     \
                    y[i] = PG_TO_STORAGE_##S(acc);                                           \
                }                                                                            \
            } else { /* converted in blocks as they are loaded and stored */                 \
                for (int64_t i = i0r; i < i1; i += PG_RPW) {                                  \
                    int64_t m = i1 - i < PG_RPW ? i1 - i : PG_RPW;                           \
                    pg_t_##S vb[PG_RPW];                                                     \
                    pg_gather_##S(pi + i * a->in_step, a->in_step, a->in_type, vb, m);       \
                    for (int64_t k = 0; k < m; k++) {                                        \
                        acc = PG_SCAN_STEP(S, a->out_type, pg_rcomb_##NAME(acc, vb[k]));     \
                        vb[k] = acc;                                                         \
                    }                                                                        \
                    pg_scatter_##S(po + i * a->out_step, a->out_step, a->out_type, vb, m);   \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    }

#define PG_RSEG_CPU(NAME)                                                                   \
    PG_RSEG_ONE(NAME)                                                                        \
    static void pg_cpu_rseg_##NAME(const PgReduceArgs *a, int64_t o0, int64_t o1)         \
    {                                                                                        \
        for (int64_t o = o0; o < o1; o++)                                                    \
            pg_rseg_one_##NAME(a, o);                                                        \
    }

#define PG_RAT_CPU(NAME, S)                                                                 \
    static void pg_cpu_rat_##NAME(const PgAtArgs *a)                                      \
    {                                                                                        \
        const pg_t_##S *vals = (const pg_t_##S *)a->vals;                                    \
        for (int64_t e = 0; e < a->nidx * a->trail_size; e++) {                              \
            int64_t i = e / a->trail_size;                                                   \
            char *p = a->target + a->offsets[i] + pg_at_trail_offset(a, e - i * a->trail_size); \
            pg_store_##S(p, a->type, pg_op_##NAME(pg_load_##S(p, a->type), vals[e]));        \
        }                                                                                    \
    }
#endif

#endif
