/* The CUDA backend's short correlations: launches of the "correlate" module (kernels/correlate.cu). */
#include "runtime/cuda_backend.h"

#define PG_CORRELATE_THREADS 256

static int
pg_cuda_correlate_in_context(PgDevice *dev, const PgCorrelateArgs *a, void *stream)
{
    if (a->n == 0)
        return 0;
    int64_t blocks = (a->n + PG_CORRELATE_THREADS - 1) / PG_CORRELATE_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 32;
    blocks = blocks > cap ? cap : blocks;
    void *params[1] = {(void *)a};
    return pg_cuda_launch(dev, "correlate", "pg_correlate", blocks, PG_CORRELATE_THREADS, params, stream);
}

PG_CUDA_ENTRY(pg_cuda_correlate, (PgDevice *dev, const PgCorrelateArgs *a, void *stream), (dev, a, stream))
