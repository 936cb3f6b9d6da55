/* The CPU backend's random numbers: the kernels of kernels/random_cpu.c, run inline for small
 * draws and split over the worker team for large ones. Each thread computes a contiguous range
 * of blocks; which thread computes a block changes nothing in it. */
#include "runtime/cpu_backend.h"
#include "kernels/random_cpu.h"

/* Below this many blocks (elements, for samplers) a draw runs on the calling thread. */
#define PG_RANDOM_PARALLEL_BLOCKS 16384
#define PG_RANDOM_PARALLEL_SAMPLES 1024

static void
random_blocks(const void *ctx, int64_t begin, int64_t end)
{
    pg_cpu_random(ctx, begin, end);
}

int
pg_cpu_backend_random(PgDevice *dev, const PgRandomArgs *args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    int64_t n = pg_random_blocks(args);
    int64_t serial = args->dist >= PG_RAND_NDIRECT ? PG_RANDOM_PARALLEL_SAMPLES : PG_RANDOM_PARALLEL_BLOCKS;
    pg_cpu_parallel_for(n, serial, random_blocks, args);
    return 0;
}
