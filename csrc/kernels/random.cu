/* The CUDA instantiation of the random-number kernels of random.h: one thread per block of a
 * draw (per element, for samplers), in grid-stride loops. Four kernels, so that the cheap
 * distributions do not carry the registers of the expensive ones. */
#include "random.h"

#define PG_RANDOM_GRID_LOOP(i, n)                                                           \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                \
         i += (int64_t)blockDim.x * gridDim.x)

/* random bits and uniform floats */
extern "C" __global__ void
pg_random_uniform(PgRandomArgs a)
{
    int64_t n = pg_random_blocks(&a);
    PG_RANDOM_GRID_LOOP(b, n) { pg_random_uniform_block(&a, b); }
}

/* bounded integers */
extern "C" __global__ void
pg_random_integers(PgRandomArgs a)
{
    int64_t n = pg_random_blocks(&a);
    PG_RANDOM_GRID_LOOP(b, n) { pg_random_integers_block(&a, b); }
}

/* the other direct distributions: normal, exponential, ... */
extern "C" __global__ void
pg_random_transform(PgRandomArgs a)
{
    int64_t n = pg_random_blocks(&a);
    PG_RANDOM_GRID_LOOP(b, n) { pg_random_transform_block(&a, b); }
}

/* gamma, beta, poisson, binomial, ...: one element per thread */
extern "C" __global__ void
pg_random_sampler(PgRandomArgs a)
{
    PG_RANDOM_GRID_LOOP(i, a.size) { pg_random_sample(&a, i); }
}
