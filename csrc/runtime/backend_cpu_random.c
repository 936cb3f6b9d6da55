/* The CPU backend's random numbers: the kernels of kernels/random_cpu.c, run inline for small
 * draws and split over OpenMP threads for large ones. Each thread computes a contiguous range
 * of blocks; which thread computes a block changes nothing in it. */
#include "runtime/backend.h"
#include "kernels/random_cpu.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* Below this many blocks (elements, for samplers) a draw runs on the calling thread. */
#define PG_RANDOM_PARALLEL_BLOCKS 16384
#define PG_RANDOM_PARALLEL_SAMPLES 1024

int
pg_cpu_backend_random(PgDevice *dev, const PgRandomArgs *args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    int64_t n = pg_random_blocks(args);
    int64_t serial = args->dist >= PG_RAND_NDIRECT ? PG_RANDOM_PARALLEL_SAMPLES : PG_RANDOM_PARALLEL_BLOCKS;
    if (n < serial || pg_cpu_threads() == 1) {
        pg_cpu_random(args, 0, n);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef _OPENMP
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        int64_t chunk = (n + nt - 1) / nt;
        int64_t begin = chunk * t, end = begin + chunk < n ? begin + chunk : n;
        if (begin < end)
            pg_cpu_random(args, begin, end);
    }
#else
    pg_cpu_random(args, 0, n);
#endif
    Py_END_ALLOW_THREADS
    return 0;
}
