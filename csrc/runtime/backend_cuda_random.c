/* The CUDA backend's random numbers: the kernels of kernels/random.cu, one thread per block of
 * a draw (per element, for samplers) in grid-stride loops. */
#include "runtime/cuda_backend.h"
#include "kernels/random_args.h"

#define PG_RANDOM_THREADS 256
#define PG_RANDOM_BLOCKS_PER_SM 16

/* The kernel of a distribution: the cheap ones apart, so that their register count stays low. */
static const char *
kernel_name(int dist)
{
    switch (dist) {
    case PG_RAND_BITS:
    case PG_RAND_UNIFORM:
        return "pg_random_uniform";
    case PG_RAND_INTEGERS:
        return "pg_random_integers";
    default:
        return dist >= PG_RAND_NDIRECT ? "pg_random_sampler" : "pg_random_transform";
    }
}

static int
pg_cuda_backend_random_in_context(PgDevice *dev, const PgRandomArgs *args, void *stream)
{
    CUfunction f = pg_cuda_function(dev, "random", kernel_name(args->dist));
    if (f == NULL)
        return -1;
    int64_t units = pg_random_blocks(args);
    int64_t blocks = (units + PG_RANDOM_THREADS - 1) / PG_RANDOM_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * PG_RANDOM_BLOCKS_PER_SM;
    if (blocks > cap)
        blocks = cap;
    if (blocks < 1)
        blocks = 1;
    void *params[1] = {(void *)args};
    CUresult r = pg_cuda_queue_launch_1d(dev, f, blocks, PG_RANDOM_THREADS, stream, params);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuLaunchKernel");
}

PG_CUDA_ENTRY(pg_cuda_backend_random, (PgDevice *dev, const PgRandomArgs *args, void *stream), (dev, args, stream))
