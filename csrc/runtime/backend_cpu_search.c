/* The CPU backend's searches (split over threads) and counts (on one thread, in order: NumPy's
 * summation order for weighted counts). */
#include "runtime/cpu_backend.h"
#ifdef _OPENMP
#include <omp.h>
#endif

int
pg_cpu_search(PgDevice *dev, const PgSearchArgs *s, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    int64_t n = s->size;
    /* each value costs a binary search: worth threads sooner than a copy */
    if (n < PG_CPU_PARALLEL_MIN / 16 || pg_cpu_threads() == 1) {
        pg_cpu_search_run(s, 0, n);
        return 0;
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
            pg_cpu_search_run(s, begin, end);
    }
    Py_END_ALLOW_THREADS
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
