/* The CPU backend's searches (split over threads) and counts (on one thread, in order: NumPy's
 * summation order for weighted counts). */
#include "runtime/cpu_backend.h"

static void
search_run(const void *ctx, int64_t begin, int64_t end)
{
    pg_cpu_search_run(ctx, begin, end);
}

int
pg_cpu_search(PgDevice *dev, const PgSearchArgs *s, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    /* each value costs a binary search: worth threads sooner than a copy */
    pg_cpu_parallel_for(s->size, PG_CPU_PARALLEL_MIN / 16, search_run, s);
    return 0;
}

int
pg_cpu_histogram(PgDevice *dev, const PgHistArgs *h, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_hist_run(h);
    Py_END_ALLOW_THREADS
    return 0;
}
