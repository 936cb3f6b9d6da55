/* The CUDA backend's searches and counts: launches of the "search" module (kernels/search.cu). */
#include "runtime/cuda_backend.h"

#define PG_SEARCH_THREADS 256

static int
launch(PgDevice *dev, const char *name, int64_t n, void *args, void *stream)
{
    CUcontext saved;
    if (pg_cuda_enter(dev, &saved) < 0)
        return -1;
    int64_t blocks = (n + PG_SEARCH_THREADS - 1) / PG_SEARCH_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 32;
    blocks = blocks > cap ? cap : blocks < 1 ? 1 : blocks;
    void *params[1] = {args};
    int rc = pg_cuda_launch(dev, "search", name, blocks, PG_SEARCH_THREADS, params, stream);
    pg_cuda_leave(dev, saved);
    return rc;
}

int
pg_cuda_search(PgDevice *dev, const PgSearchArgs *s, void *stream)
{
    return s->size == 0 ? 0 : launch(dev, "pg_searchsorted", s->size, (void *)s, stream);
}

int
pg_cuda_histogram(PgDevice *dev, const PgHistArgs *h, void *stream)
{
    if (h->size == 0)
        return 0;
    return launch(dev, h->op == PG_HIST_MINMAX ? "pg_hist_minmax" : "pg_hist_count", h->size, (void *)h, stream);
}
