/* Short correlations (numpy.correlate and numpy.convolve, whose kernels are usually a few taps),
 * single source for both backends (correlate.cu for CUDA, correlate_cpu.c for the CPU):
 * out[i] = sum over j < m of x'[i + j] * w[j], for i < n, where x' is x (nx elements) after
 * `lead` zeros and before as many as n + m - 1 takes: the products with those zeros are left out,
 * not added, as NumPy sums only where the two overlap (an inf or NaN tap times a zero would be
 * NaN). The host reverses w for a convolution and conjugates it for a complex correlation, and
 * hands contiguous operands of one floating or complex type. Each sum runs over the taps in
 * order, from zero. */
#ifndef PG_CORRELATE_H
#define PG_CORRELATE_H
#include "strided.h"

typedef struct {
    int32_t type;    /* PG_FLOAT32, PG_FLOAT64, PG_COMPLEX64 or PG_COMPLEX128 */
    int64_t n;       /* outputs */
    int64_t m;       /* taps */
    int64_t lead;    /* zeros before x (m - 1 for NumPy's 'full' sums, 0 for 'valid') */
    int64_t nx;      /* elements of x */
    const char *x;
    const char *w;   /* m elements */
    char *out;       /* n elements */
} PgCorrelateArgs;

/* Outputs are summed a run at a time, tap by tap into the run's sums: on a CPU a run of constant
 * length keeps its sums in vector registers, several outputs per instruction; a GPU thread takes
 * one output (neighbouring threads read neighbouring x). */
#ifdef __CUDACC__
#define PG_CORRELATE_RUN 1
#define PG_CORRELATE_LANES
#else
#define PG_CORRELATE_RUN 16
#define PG_CORRELATE_LANES _Pragma("omp simd")   /* gcc left the sums scalar without it */
#endif

/* BODY(len, checked) for a run of len outputs: a constant len for whole runs (the compiler
 * unrolls it), and checked 0 where every tap of the run meets x (the edges are checked). */
#define PG_CORRELATE_RUNS(begin, end, i0, BODY)                                              \
    for (int64_t i0 = (begin); i0 < (end); i0 += PG_CORRELATE_RUN) {                         \
        if ((end) - i0 >= PG_CORRELATE_RUN) {                                                \
            if (i0 >= lead && i0 + PG_CORRELATE_RUN + m - 2 - lead < nx) {                   \
                BODY(PG_CORRELATE_RUN, 0)                                                    \
            } else {                                                                         \
                BODY(PG_CORRELATE_RUN, 1)                                                    \
            }                                                                                \
        } else {                                                                             \
            BODY((end) - i0, 1)                                                              \
        }                                                                                    \
    }

/* the outputs [b0, b1) of the run whose tap j meets x, which starts at x + base (base < 0: the
 * run begins in the leading zeros) */
#define PG_CORRELATE_SPAN(len, checked)                                                      \
    const int64_t base = i0 + j - lead;                                                      \
    int64_t b0 = 0, b1 = (len);                                                              \
    if (checked) {                                                                           \
        b0 = base < 0 ? -base : 0;                                                           \
        b1 = nx - base < b1 ? nx - base : b1;                                                \
    }

#define PG_CORRELATE_REAL_RUN(len, checked)                                                  \
    {                                                                                        \
        elem_t acc[PG_CORRELATE_RUN];                                                        \
        for (int64_t b = 0; b < (len); b++)                                                  \
            acc[b] = 0;                                                                      \
        for (int64_t j = 0; j < m; j++) {                                                    \
            PG_CORRELATE_SPAN(len, checked)                                                  \
            const elem_t wj = w[j], *xj = x + base;                                          \
            PG_CORRELATE_LANES                                                               \
            for (int64_t b = b0; b < b1; b++)                                                \
                acc[b] += xj[b] * wj;                                                        \
        }                                                                                    \
        for (int64_t b = 0; b < (len); b++)                                                  \
            out[i0 + b] = acc[b];                                                            \
    }

/* Complex numbers as (re, im) pairs of T: NumPy's product, (a.re b.re - a.im b.im) + i(a.re b.im + a.im b.re). */
#define PG_CORRELATE_COMPLEX_RUN(len, checked)                                               \
    {                                                                                        \
        elem_t re[PG_CORRELATE_RUN], im[PG_CORRELATE_RUN];                                   \
        for (int64_t b = 0; b < (len); b++)                                                  \
            re[b] = im[b] = 0;                                                               \
        for (int64_t j = 0; j < m; j++) {                                                    \
            PG_CORRELATE_SPAN(len, checked)                                                  \
            const elem_t wr = w[2 * j], wi = w[2 * j + 1], *xj = x + 2 * base;               \
            PG_CORRELATE_LANES                                                               \
            for (int64_t b = b0; b < b1; b++) {                                              \
                elem_t xr = xj[2 * b], xi = xj[2 * b + 1];                                   \
                re[b] += xr * wr - xi * wi;                                                  \
                im[b] += xr * wi + xi * wr;                                                  \
            }                                                                                \
        }                                                                                    \
        for (int64_t b = 0; b < (len); b++) {                                                \
            out[2 * (i0 + b)] = re[b];                                                       \
            out[2 * (i0 + b) + 1] = im[b];                                                   \
        }                                                                                    \
    }

/* The function NAME over outputs [begin, end) for element type T, a run at a time by RUN */
#define PG_CORRELATE_FN(NAME, T, RUN)                                                        \
    PG_HOST_DEVICE PG_ALWAYS_INLINE void NAME(const PgCorrelateArgs *a, int64_t begin, int64_t end) \
    {                                                                                        \
        typedef T elem_t;                                                                    \
        const T *x = (const T *)a->x, *w = (const T *)a->w;                                  \
        T *out = (T *)a->out;                                                                \
        const int64_t m = a->m, lead = a->lead, nx = a->nx;                                  \
        PG_CORRELATE_RUNS(begin, end, i0, RUN)                                               \
    }

PG_CORRELATE_FN(pg_correlate_f32, float, PG_CORRELATE_REAL_RUN)
PG_CORRELATE_FN(pg_correlate_f64, double, PG_CORRELATE_REAL_RUN)
PG_CORRELATE_FN(pg_correlate_c64, float, PG_CORRELATE_COMPLEX_RUN)
PG_CORRELATE_FN(pg_correlate_c128, double, PG_CORRELATE_COMPLEX_RUN)

/* Outputs [begin, end). */
PG_HOST_DEVICE PG_ALWAYS_INLINE void
pg_correlate_range(const PgCorrelateArgs *a, int64_t begin, int64_t end)
{
    switch (a->type) {
    case PG_FLOAT32: pg_correlate_f32(a, begin, end); break;
    case PG_FLOAT64: pg_correlate_f64(a, begin, end); break;
    case PG_COMPLEX64: pg_correlate_c64(a, begin, end); break;
    default: pg_correlate_c128(a, begin, end); break;
    }
}

#ifndef __CUDACC__
/* correlate_cpu.c */
void pg_cpu_correlate_run(const PgCorrelateArgs *a, int64_t begin, int64_t end);
#endif

#endif
