/* The CPU backend's gather/scatter and compaction (kernels/index.h): ranges of the iteration
 * space split over the worker team (pg_cpu_parallel_for, which the other families use too). */
#include "runtime/cpu_backend.h"
#include "runtime/cpu_team.h"

typedef struct {
    void (*run)(const void *ctx, int64_t begin, int64_t end);
    const void *ctx;
} ParallelFor;

static void
parallel_for_chunk(const void *ctx, int t, int64_t begin, int64_t end)
{
    const ParallelFor *p = ctx;
    (void)t;
    p->run(p->ctx, begin, end);
}

void
pg_cpu_parallel_for(int64_t n, int64_t serial_below, void (*run)(const void *ctx, int64_t begin, int64_t end),
                    const void *ctx)
{
    if (n < serial_below || pg_cpu_threads() == 1) {
        run(ctx, 0, n);
        return;
    }
    ParallelFor p = {run, ctx};
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_team_for(pg_cpu_threads(), n, pg_cpu_team_chunk(n, pg_cpu_threads(), 1), parallel_for_chunk, &p);
    Py_END_ALLOW_THREADS
}

typedef struct {
    const PgIndexArgs *a;
    int op;
} IndexRun;

typedef struct {
    const PgCompactArgs *a;
    int64_t nchunks;
    int write; /* 0: count each chunk's selected elements; 1: write them */
} CompactRun;

/* Member t of n does chunks t, t + n, ...: counts their selected elements, or writes them at the
 * offsets the counts' prefix sum gave. */
static void
compact_member(void *ctx, int t, int n)
{
    const CompactRun *r = ctx;
    const PgCompactArgs *a = r->a;
    for (int64_t c = t; c < r->nchunks; c += n) {
        int64_t begin = c * a->chunk, end = begin + a->chunk < a->size ? begin + a->chunk : a->size;
        if (!r->write)
            a->counts[c] = begin < end ? pg_cpu_compact_count(a, begin, end) : 0;
        else if (begin < end)
            pg_cpu_compact_write(a, begin, end, a->counts[c]);
    }
}

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
    CompactRun run = {a, nchunks, 0};
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_team(nt, compact_member, &run);
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
    run.write = 1;
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_team(nt, compact_member, &run);
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(a->counts);
    a->counts = NULL;
    return rc;
}
