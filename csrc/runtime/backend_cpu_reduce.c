/* The CPU side of the reduction family: the functions of kernels/reduce_cpu*.c split over the worker
 * threads (pg_cpu_parallel_for). A reduction splits its reduced range between the threads (each
 * thread a part, merged in order afterwards) when the outputs are few or the reduced axis is outer
 * (whole rows read in order), and its outputs otherwise; a scan splits its rows, or a few long
 * rows in parts: each part's total first, the totals scanned, then each part scanned from the
 * total before it. */
#include "runtime/cpu_backend.h"
#include "runtime/reducer_table.h"
#include "kernels/cpu_features.h"

/* Parts of a reduced range or a scanned row start at multiples of this (pairwise leaves). */
#define PG_CPU_PART_ALIGN 128
/* The most bytes of partial accumulators a reduction split by reduced range may take. */
#define PG_CPU_PARTS_MAX ((size_t)16 << 20)

/* [begin, end) of part k of n items split in nparts parts aligned to `align` */
static void
part_range(int64_t n, int64_t k, int64_t nparts, int64_t align, int64_t *begin, int64_t *end)
{
    int64_t chunk = ((n + nparts - 1) / nparts + align - 1) / align * align;
    *begin = chunk * k < n ? chunk * k : n;
    *end = *begin + chunk < n ? *begin + chunk : n;
}

typedef struct {
    PgCpuReduce fn;
    const PgReduceArgs *a;
    int64_t nparts;
    char *parts;     /* nparts * nout accumulators, or NULL: outputs split */
    size_t acc;
} ReduceRun;

static void
reduce_outputs(const void *ctx, int64_t o0, int64_t o1)
{
    const ReduceRun *r = ctx;
    r->fn(r->a, o0, o1, 0, r->a->nred_total, NULL);
}

static void
reduce_parts(const void *ctx, int64_t k0, int64_t k1)
{
    const ReduceRun *r = ctx;
    for (int64_t k = k0; k < k1; k++) {
        int64_t r0, r1;
        part_range(r->a->nred_total, k, r->nparts, PG_CPU_PART_ALIGN, &r0, &r1);
        /* an empty part still writes its (empty) accumulators */
        r->fn(r->a, 0, r->a->nout, r0, r1, r->parts + (size_t)k * (size_t)r->a->nout * r->acc);
    }
}

int
pg_cpu_reduce(PgDevice *dev, int reducer, PgReduceArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    const int64_t nout = a->nout, nred = a->nred_total, nt = pg_cpu_threads();
    const PgCpuReduce *reducers = pg_cpu_reducers;
    const PgCpuReduceFinish *finish = pg_cpu_reducer_finish;
#if defined(__x86_64__) && defined(__GNUC__)
    if (pg_cpu_x86_64_v3()) {
        reducers = pg_cpu_reducers_avx2;
        finish = pg_cpu_reducer_finish_avx2;
    }
#endif
    ReduceRun run = {reducers[reducer], a, nt, NULL, (size_t)pg_reducers[reducer].acc_size};
    a->phase = PG_RPHASE_FINAL;
    if ((double)nout * (double)(nred > 0 ? nred : 1) < PG_CPU_PARALLEL_MIN || nt == 1) {
        run.fn(a, 0, nout, 0, nred, NULL);
        return 0;
    }
    /* along an outer reduced axis, parts of the reduced range read memory in order (each thread
     * whole rows); otherwise parts of the outputs, when there are enough of them */
    int split_reduced = a->outer ? nred >= 8 * nt && (size_t)nout * run.acc * (size_t)nt <= PG_CPU_PARTS_MAX
                                 : nout < 4 * nt && nred >= nt * PG_CPU_PART_ALIGN;
    if (!split_reduced) {
        pg_cpu_parallel_for(nout, 0, reduce_outputs, &run);
        return 0;
    }
    run.parts = PyMem_RawMalloc((size_t)nt * (size_t)nout * run.acc);
    if (run.parts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    pg_cpu_parallel_for(nt, 0, reduce_parts, &run);
    Py_BEGIN_ALLOW_THREADS
    finish[reducer](a, run.parts, (int)nt, 0, nout);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(run.parts);
    return 0;
}

typedef struct {
    PgCpuScan fn;
    const PgScanArgs *a;
    int64_t nparts;
    char *totals;    /* nparts * nrows accumulators: the parts' totals, then their running totals */
    size_t acc;
} ScanRun;

static void
scan_rows(const void *ctx, int64_t j0, int64_t j1)
{
    const ScanRun *r = ctx;
    r->fn(r->a, j0, j1, 0, r->a->n, NULL, NULL);
}

static void
scan_totals(const void *ctx, int64_t k0, int64_t k1)
{
    const ScanRun *r = ctx;
    for (int64_t k = k0; k < k1; k++) {
        int64_t i0, i1;
        part_range(r->a->n, k, r->nparts, PG_CPU_PART_ALIGN, &i0, &i1);
        r->fn(r->a, 0, r->a->nrows, i0, i1, NULL, r->totals + (size_t)k * (size_t)r->a->nrows * r->acc);
    }
}

static void
scan_parts(const void *ctx, int64_t k0, int64_t k1)
{
    const ScanRun *r = ctx;
    for (int64_t k = k0; k < k1; k++) {
        int64_t i0, i1;
        part_range(r->a->n, k, r->nparts, PG_CPU_PART_ALIGN, &i0, &i1);
        /* part k starts from the (inclusive) running total of the parts before it */
        if (i0 < i1)
            r->fn(r->a, 0, r->a->nrows, i0, i1,
                  k ? r->totals + (size_t)(k - 1) * (size_t)r->a->nrows * r->acc : NULL, NULL);
    }
}

int
pg_cpu_scan(PgDevice *dev, int reducer, PgScanArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    const int64_t nrows = a->nrows, n = a->n, nt = pg_cpu_threads();
    ScanRun run = {pg_cpu_scans[reducer], a, nt, NULL, (size_t)pg_reducers[reducer].acc_size};
    if ((double)nrows * (double)n < PG_CPU_PARALLEL_MIN || nt == 1) {
        run.fn(a, 0, nrows, 0, n, NULL, NULL);
        return 0;
    }
    /* a float16 output is rounded at every step (PG_SCAN_STEP): its rows run in order, unsplit */
    if (nrows >= 4 * nt || n < nt * PG_CPU_PART_ALIGN || a->out_type == PG_FLOAT16) {
        pg_cpu_parallel_for(nrows, 0, scan_rows, &run);
        return 0;
    }
    /* few long rows: the parts' totals, scanned over the parts (a row of nt), then the parts */
    run.totals = PyMem_RawMalloc((size_t)nt * (size_t)nrows * run.acc);
    if (run.totals == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PgScanArgs t = {0};
    t.nkeep = 1;
    t.keep_shape[0] = nrows;
    t.keep_in[0] = t.keep_out[0] = (int64_t)run.acc;
    t.nrows = nrows;
    t.n = nt;
    t.in_step = t.out_step = (int64_t)(nrows * run.acc);
    t.in = t.out = run.totals;
    t.in_type = t.out_type = pg_reducers[reducer].acc_type;
    t.typed = 1;
    t.ident[0] = a->ident[0];
    t.ident[1] = a->ident[1];
    pg_cpu_parallel_for(nt, 0, scan_totals, &run);
    run.fn(&t, 0, nrows, 0, nt, NULL, NULL);
    pg_cpu_parallel_for(nt, 0, scan_parts, &run);
    PyMem_RawFree(run.totals);
    return 0;
}

typedef struct {
    PgCpuReduceSeg fn;
    const PgReduceArgs *a;
} SegRun;

static void
seg_outputs(const void *ctx, int64_t o0, int64_t o1)
{
    const SegRun *r = ctx;
    r->fn(r->a, o0, o1);
}

int
pg_cpu_reduceat(PgDevice *dev, int reducer, const PgReduceArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    SegRun run = {pg_cpu_rsegs[reducer], a};
    pg_cpu_parallel_for(a->nout, PG_CPU_PARALLEL_MIN / 8, seg_outputs, &run);
    return 0;
}

int
pg_cpu_ufunc_at(PgDevice *dev, int reducer, const PgAtArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    /* in index order on one thread: repeated indices accumulate as NumPy's unbuffered loop */
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_rats[reducer](a);
    Py_END_ALLOW_THREADS
    return 0;
}
