/* The launch arguments of the reduction family (reduce.h), in the common subset of C and CUDA C:
 * included by the kernels and by the host (runtime/backend.h), which prepares them. */
#ifndef PG_REDUCE_TYPES_H
#define PG_REDUCE_TYPES_H
#include "kernel_types.h"

enum {
    PG_RED_INITIAL = 0x1,  /* init holds initial=, merged into every output once */
    PG_RED_SKIPNAN = 0x2,  /* NaN elements do not count (nansum, nanargmin, nanvar, ...) */
    PG_RED_NONZERO = 0x4,  /* elements count as (x != 0) (count_nonzero) */
    PG_RED_DIVIDE = 0x8,   /* the result is divided by `divisor`, in double (mean) */
    PG_RED_MEAN = 0x10,    /* moments: store the mean */
    PG_RED_VAR = 0x20,     /* moments: store sum of squared deviations / max(n - ddof, 0) */
    PG_RED_STD = 0x40,     /* moments: its square root */
};

/* phases of a reduction launch */
enum { PG_RPHASE_FINAL = 0, PG_RPHASE_PARTIAL = 1, PG_RPHASE_FINISH = 2 };

#define PG_RBLOCK 256 /* threads per block of the CUDA kernels */

typedef struct {
    int32_t nkeep, nred;          /* merged kept (output) and reduced dimensions */
    int32_t outer;                /* the innermost kept axis is the input's fastest */
    int32_t typed;                /* the input stored as the accumulator's type, no mask, no
                                   * flags that change loading: typed reads (when nred <= 1) */
    int64_t nout;                 /* outputs */
    int64_t nred_total;           /* elements reduced into each output (reduceat: the mean) */
    int64_t keep_shape[PG_MAXDIMS];
    int64_t keep_in[PG_MAXDIMS], keep_out[PG_MAXDIMS], keep_mask[PG_MAXDIMS]; /* byte strides */
    int64_t red_shape[PG_MAXDIMS];
    int64_t red_in[PG_MAXDIMS], red_mask[PG_MAXDIMS];
    char *in, *out;
    const char *mask;             /* where=: a bool array (NULL: every element counts) */
    int32_t in_type, out_type;    /* PgType as stored */
    int32_t flags;                /* PG_RED_* */
    double divisor;               /* PG_RED_DIVIDE */
    double ddof;                  /* PG_RED_VAR, PG_RED_STD */
    uint64_t ident[2];            /* op reducers: the identity, as the accumulator's bits */
    uint64_t init[2];             /* op reducers: initial=, as the accumulator's bits */
    /* reduceat: kept dimension seg_dim counts segments, [seg[2s], seg[2s+1]) of the one reduced
     * dimension (its input stride is red_in[0]) */
    const int64_t *seg;
    int32_t seg_dim;
    /* the schedule, set by the backend */
    int32_t phase;                /* PG_RPHASE_* */
    int32_t lanes;                /* threads (CUDA) cooperating on one output, a power of 2 */
    int64_t nsplit, chunk;        /* the reduced range is split in nsplit parts of chunk elements */
    char *work;                   /* nsplit * nout accumulators (split reductions) */
} PgReduceArgs;

/* One axis of an array scanned (accumulate, cumsum): rows are the other axes, merged. */
enum { PG_SPHASE_SCAN = 0, PG_SPHASE_TOTALS = 1 };
typedef struct {
    int32_t nkeep;
    int32_t outer;                /* the innermost kept axis is the input's fastest */
    int32_t typed;                /* input and output stored as the accumulator's type */
    int32_t phase;                /* PG_SPHASE_*: scan (carrying in the previous chunk's total
                                   * when `carry` is set), or only each chunk's total into carry */
    int64_t nrows, n;             /* rows and the length of the scanned axis */
    int64_t keep_shape[PG_MAXDIMS], keep_in[PG_MAXDIMS], keep_out[PG_MAXDIMS];
    int64_t in_step, out_step;    /* bytes between neighbours along the scanned axis */
    char *in, *out;
    int32_t in_type, out_type;
    uint64_t ident[2];
    /* chunks of a row scanned in parallel: totals of chunk c of row j at carry[j * nchunks + c] */
    int64_t nchunks, chunk;
    char *carry;
} PgScanArgs;

/* ufunc.at(a, indices, b): target[offsets[i] + trailing offset] = op(that, vals[i, t]) for every
 * index i and trailing element t, unbuffered (repeated indices accumulate: atomics on the GPU).
 * Indices are checked and turned into byte offsets by the host. */
typedef struct {
    char *target;
    int32_t type;                 /* the target's PgType */
    int32_t ntrail;               /* merged dimensions of the axes not indexed */
    int32_t serial;               /* CUDA: one thread does it all (no atomic for this type) */
    const int64_t *offsets;       /* nidx byte offsets */
    int64_t nidx, trail_size;
    int64_t trail_shape[PG_MAXDIMS], trail_strides[PG_MAXDIMS];
    const char *vals;             /* nidx * trail_size values, contiguous, of the accumulator type */
} PgAtArgs;

#ifndef __CUDACC__
/* The CPU functions of each reducer (kernels/reduce_cpu.c; see the end of reduce.h), by id:
 *   reduce(a, o0, o1, r0, r1, part)    outputs [o0, o1) over reduced elements [r0, r1): stored,
 *       or (part != NULL) their accumulators written to part[o - o0]
 *   finish(a, parts, nparts, o0, o1)   merges parts[k * nout + o], k < nparts, and stores
 * and of the op reducers (ids below PG_NOP_REDUCERS):
 *   scan(a, j0, j1, i0, i1, carry_in, totals)   rows [j0, j1), elements [i0, i1): scanned from
 *       carry_in[j - j0] (NULL: the identity) and stored, or only each row's total written to
 *       totals[j - j0] (totals != NULL)
 *   seg(a, o0, o1)                     reduceat's outputs [o0, o1)
 *   at(a)                              ufunc.at, in index order */
typedef void (*PgCpuReduce)(const PgReduceArgs *a, int64_t o0, int64_t o1, int64_t r0, int64_t r1, void *part);
typedef void (*PgCpuReduceFinish)(const PgReduceArgs *a, const void *parts, int nparts, int64_t o0, int64_t o1);
typedef void (*PgCpuScan)(const PgScanArgs *a, int64_t j0, int64_t j1, int64_t i0, int64_t i1,
                          const void *carry_in, void *totals);
typedef void (*PgCpuReduceSeg)(const PgReduceArgs *a, int64_t o0, int64_t o1);
typedef void (*PgCpuReduceAt)(const PgAtArgs *a);
extern const PgCpuReduce pg_cpu_reducers[];
extern const PgCpuReduceFinish pg_cpu_reducer_finish[];
#if defined(__x86_64__) && defined(__GNUC__)
extern const PgCpuReduce pg_cpu_reducers_avx2[]; /* the same for x86-64-v3 (reduce_cpu_avx2.c) */
extern const PgCpuReduceFinish pg_cpu_reducer_finish_avx2[];
#endif
extern const PgCpuScan pg_cpu_scans[];
extern const PgCpuReduceSeg pg_cpu_rsegs[];
extern const PgCpuReduceAt pg_cpu_rats[];
#endif

#endif
