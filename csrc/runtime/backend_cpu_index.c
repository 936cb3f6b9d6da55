/* The CPU backend's gather/scatter and compaction (kernels/index.h): ranges of the iteration
 * space split over OpenMP threads (pg_cpu_parallel_for, which the other families use too). */
#include "runtime/cpu_backend.h"
#ifdef _OPENMP
#include <omp.h>
#endif

void
pg_cpu_parallel_for(int64_t n, int64_t serial_below, void (*run)(const void *ctx, int64_t begin, int64_t end),
                    const void *ctx)
{
    if (n < serial_below || pg_cpu_threads() == 1) {
        run(ctx, 0, n);
        return;
    }
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel
    {
#ifdef _OPENMP
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
        int nt = 1, t = 0;
#endif
        int64_t chunk = (n + nt - 1) / nt;
        int64_t begin = chunk * t, end = begin + chunk < n ? begin + chunk : n;
        if (begin < end)
            run(ctx, begin, end);
    }
    Py_END_ALLOW_THREADS
}

typedef struct {
    const PgIndexArgs *a;
    int op;
} IndexRun;

static void
index_run(const void *ctx, int64_t begin, int64_t end)
{
    const IndexRun *r = ctx;
    pg_cpu_index_run(r->a, r->op, begin, end);
}

int
pg_cpu_index(PgDevice *dev, const PgIndexArgs *a, int op, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    IndexRun r = {a, op};
    /* a scatter runs in order, so that of repeated indices the last value wins, as in NumPy */
    pg_cpu_parallel_for(a->size, op == PG_INDEX_SCATTER ? INT64_MAX : PG_CPU_PARALLEL_MIN, index_run, &r);
    return 0;
}

int
pg_cpu_compact(PgDevice *dev, PgCompactArgs *a, int64_t *count,
               int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    int64_t n = a->size;
    int nt = n < PG_CPU_PARALLEL_MIN ? 1 : pg_cpu_threads();
    int64_t nchunks = nt;
    a->chunk = n > 0 ? (n + nchunks - 1) / nchunks : 1;
    a->counts = PyMem_Malloc((size_t)(nchunks + 1) * sizeof(int64_t));
    if (a->counts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t *counts = a->counts;
    const PgCompactArgs *ca = a;
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t begin = c * ca->chunk, end = begin + ca->chunk < n ? begin + ca->chunk : n;
        counts[c] = begin < end ? pg_cpu_compact_count(ca, begin, end) : 0;
    }
    Py_END_ALLOW_THREADS
    int64_t total = 0;
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t k = counts[c];
        counts[c] = total;
        total += k;
    }
    counts[nchunks] = total;
    *count = total;
    int rc = 0;
    if (a->op == PG_COMPACT_COUNT)
        goto done;
    if (a->op != PG_COMPACT_RANK && (rc = alloc(ctx, total, a)) < 0)
        goto done;
    if (a->op != PG_COMPACT_RANK && total == 0)
        goto done;
    Py_BEGIN_ALLOW_THREADS
#pragma omp parallel for num_threads(nt) schedule(static, 1)
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t begin = c * ca->chunk, end = begin + ca->chunk < n ? begin + ca->chunk : n;
        if (begin < end)
            pg_cpu_compact_write(ca, begin, end, counts[c]);
    }
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(a->counts);
    a->counts = NULL;
    return rc;
}
