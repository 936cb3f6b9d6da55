/* The CUDA backend's searches and counts: launches of the "search" module (kernels/search.cu). */
#include "runtime/cuda_backend.h"

#define PG_SEARCH_THREADS 256

static int
launch(PgDevice *dev, const char *name, int64_t n, void *args, void *stream)
{
    int64_t blocks = (n + PG_SEARCH_THREADS - 1) / PG_SEARCH_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 32;
    blocks = blocks > cap ? cap : blocks < 1 ? 1 : blocks;
    void *params[1] = {args};
    return pg_cuda_launch(dev, "search", name, blocks, PG_SEARCH_THREADS, params, stream);
}

static int
pg_cuda_search_in_context(PgDevice *dev, const PgSearchArgs *s, void *stream)
{
    return s->size == 0 ? 0 : launch(dev, "pg_searchsorted", s->size, (void *)s, stream);
}

PG_CUDA_ENTRY(pg_cuda_search, (PgDevice *dev, const PgSearchArgs *s, void *stream), (dev, s, stream))

static int
pg_cuda_histogram_in_context(PgDevice *dev, const PgHistArgs *h, void *stream)
{
    if (h->size == 0)
        return 0;
    return launch(dev, h->op == PG_HIST_MINMAX ? "pg_hist_minmax" : "pg_hist_count", h->size, (void *)h, stream);
}

PG_CUDA_ENTRY(pg_cuda_histogram, (PgDevice *dev, const PgHistArgs *h, void *stream), (dev, h, stream))
