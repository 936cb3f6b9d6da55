/* The CPU side of the reduction family: the functions of kernels/reduce_cpu*.c split over OpenMP
 * threads. A reduction splits its reduced range between the threads (each thread a part, merged
 * in order afterwards) when the outputs are few or the reduced axis is outer (whole rows read in
 * order), and its outputs otherwise; a scan splits its
 * rows, or a few long rows in parts: each part's total first, the totals scanned, then each part
 * scanned from the total before it. */
#include "runtime/backend.h"
#include "runtime/reducer_table.h"
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_thread_num() 0
#define omp_get_num_threads() 1
#endif

/* Below this many elements a reduction or scan runs on the calling thread. */
#define PG_CPU_REDUCE_MIN 32768
/* Parts of a reduced range or a scanned row start at multiples of this (pairwise leaves). */
#define PG_CPU_PART_ALIGN 128
/* The most bytes of partial accumulators a reduction split by reduced range may take. */
#define PG_CPU_PARTS_MAX ((size_t)16 << 20)

/* [begin, end) of part t of n items split in nt parts aligned to `align` */
static void
part_range(int64_t n, int t, int nt, int64_t align, int64_t *begin, int64_t *end)
{
    int64_t chunk = ((n + nt - 1) / nt + align - 1) / align * align;
    *begin = chunk * t < n ? chunk * t : n;
    *end = *begin + chunk < n ? *begin + chunk : n;
}

static int
threads_for(double work)
{
    int nt = pg_cpu_threads();
    return work < PG_CPU_REDUCE_MIN ? 1 : nt;
}

int
pg_cpu_reduce(PgDevice *dev, int reducer, PgReduceArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    PgCpuReduce fn = pg_cpu_reducers[reducer];
    const int64_t nout = a->nout, nred = a->nred_total;
    int nt = threads_for((double)nout * (double)(nred > 0 ? nred : 1));
    a->phase = PG_RPHASE_FINAL;
    if (nt == 1) {
        fn(a, 0, nout, 0, nred, NULL);
        return 0;
    }
    size_t acc = (size_t)pg_reducers[reducer].acc_size;
    /* along an outer reduced axis, parts of the reduced range read memory in order (each thread
     * whole rows); otherwise parts of the outputs, when there are enough of them */
    int split_reduced = a->outer ? nred >= 8 * (int64_t)nt && (size_t)nout * acc * (size_t)nt <= PG_CPU_PARTS_MAX
                                 : nout < 4 * (int64_t)nt && nred >= (int64_t)nt * PG_CPU_PART_ALIGN;
    if (!split_reduced) {
        Py_BEGIN_ALLOW_THREADS
#pragma omp parallel num_threads(nt)
        {
            int64_t o0, o1;
            part_range(nout, omp_get_thread_num(), omp_get_num_threads(), 16, &o0, &o1);
            if (o0 < o1)
                fn(a, o0, o1, 0, nred, NULL);
        }
        Py_END_ALLOW_THREADS
        return 0;
    }
    /* each thread a part of every output's reduced range, merged in order */
    char *parts = PyMem_RawMalloc((size_t)nt * (size_t)nout * acc);
    if (parts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel num_threads(nt)
    {
        /* every part is computed even if the team is smaller than asked */
        for (int k = omp_get_thread_num(); k < nt; k += omp_get_num_threads()) {
            int64_t r0, r1;
            part_range(nred, k, nt, PG_CPU_PART_ALIGN, &r0, &r1);
            /* an empty part still writes its (empty) accumulators */
            fn(a, 0, nout, r0, r1, parts + (size_t)k * (size_t)nout * acc);
        }
    }
    pg_cpu_reducer_finish[reducer](a, parts, nt, 0, nout);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(parts);
    return 0;
}

int
pg_cpu_scan(PgDevice *dev, int reducer, PgScanArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    PgCpuScan fn = pg_cpu_scans[reducer];
    const int64_t nrows = a->nrows, n = a->n;
    int nt = threads_for((double)nrows * (double)n);
    if (nt == 1) {
        fn(a, 0, nrows, 0, n, NULL, NULL);
        return 0;
    }
    if (nrows >= 4 * (int64_t)nt || n < (int64_t)nt * PG_CPU_PART_ALIGN) {
        Py_BEGIN_ALLOW_THREADS
#pragma omp parallel num_threads(nt)
        {
            int64_t j0, j1;
            part_range(nrows, omp_get_thread_num(), omp_get_num_threads(), 16, &j0, &j1);
            if (j0 < j1)
                fn(a, j0, j1, 0, n, NULL, NULL);
        }
        Py_END_ALLOW_THREADS
        return 0;
    }
    /* few long rows: totals[t][j] of part t of row j, scanned over t, then the parts */
    size_t acc = (size_t)pg_reducers[reducer].acc_size;
    char *totals = PyMem_RawMalloc((size_t)nt * (size_t)nrows * acc);
    if (totals == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PgScanArgs t = {0};
    t.nkeep = 1;
    t.keep_shape[0] = nrows;
    t.keep_in[0] = t.keep_out[0] = (int64_t)acc;
    t.nrows = nrows;
    t.n = nt;
    t.in_step = t.out_step = (int64_t)(nrows * acc);
    t.in = t.out = totals;
    t.in_type = t.out_type = pg_reducers[reducer].acc_type;
    t.typed = 1;
    t.ident[0] = a->ident[0];
    t.ident[1] = a->ident[1];
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel num_threads(nt)
    {
        int64_t i0, i1;
        for (int k = omp_get_thread_num(); k < nt; k += omp_get_num_threads()) {
            part_range(n, k, nt, PG_CPU_PART_ALIGN, &i0, &i1);
            fn(a, 0, nrows, i0, i1, NULL, totals + (size_t)k * (size_t)nrows * acc);
        }
#pragma omp barrier
#pragma omp single
        fn(&t, 0, nrows, 0, nt, NULL, NULL);
        /* part k starts from the (inclusive) scan of the totals before it */
        for (int k = omp_get_thread_num(); k < nt; k += omp_get_num_threads()) {
            part_range(n, k, nt, PG_CPU_PART_ALIGN, &i0, &i1);
            if (i0 < i1)
                fn(a, 0, nrows, i0, i1, k ? totals + (size_t)(k - 1) * (size_t)nrows * acc : NULL, NULL);
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(totals);
    return 0;
}

int
pg_cpu_reduceat(PgDevice *dev, int reducer, const PgReduceArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    PgCpuReduceSeg fn = pg_cpu_rsegs[reducer];
    int nt = threads_for((double)a->nout * 8);
    if (nt == 1) {
        fn(a, 0, a->nout);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel num_threads(nt)
    {
        int64_t o0, o1;
        part_range(a->nout, omp_get_thread_num(), omp_get_num_threads(), 16, &o0, &o1);
        if (o0 < o1)
            fn(a, o0, o1);
    }
    Py_END_ALLOW_THREADS
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
