/* The CUDA backend's gather/scatter and compaction: launches of the "index" module's kernels
 * (kernels/index.cu). */
#include "runtime/cuda_backend.h"
#include "runtime/memory.h"

#define PG_INDEX_THREADS 256
#define PG_COMPACT_THREADS 256
#define PG_COMPACT_CHUNK (256 * 16) /* threads x items of index.cu's compaction kernels */

static const char *const index_kernels[PG_INDEX_NOPS] = {
    "pg_index_gather", "pg_index_scatter", "pg_index_check", "pg_index_offsets", "pg_index_masked",
};

int
pg_cuda_launch(PgDevice *dev, const char *module, const char *name, int64_t blocks, int threads, void **params,
               void *stream)
{
    CUfunction f = pg_cuda_function(dev, module, name);
    if (f == NULL)
        return -1;
    CUresult r = pg_cuda_queue_launch_1d(dev, f, blocks, (unsigned int)threads, stream, params);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, name);
}

static int
launch(PgDevice *dev, const char *name, int64_t blocks, int threads, void **params, void *stream)
{
    return pg_cuda_launch(dev, "index", name, blocks, threads, params, stream);
}

static int
pg_cuda_index_in_context(PgDevice *dev, const PgIndexArgs *a, int op, void *stream)
{
    if (a->size == 0)
        return 0;
    int64_t blocks = (a->size + PG_INDEX_THREADS - 1) / PG_INDEX_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 32;
    if (blocks > cap)
        blocks = cap;
    void *params[1] = {(void *)a};
    return launch(dev, index_kernels[op], blocks, PG_INDEX_THREADS, params, stream);
}

PG_CUDA_ENTRY(pg_cuda_index, (PgDevice *dev, const PgIndexArgs *a, int op, void *stream), (dev, a, op, stream))

static int
pg_cuda_compact_in_context(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                           int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream)
{
    int64_t n = a->size;
    int64_t nchunks = n > 0 ? (n + PG_COMPACT_CHUNK - 1) / PG_COMPACT_CHUNK : 1;
    a->chunk = PG_COMPACT_CHUNK;
    PgBlock *b = pg_pool_alloc(dev, (size_t)(nchunks + 1) * sizeof(int64_t), PG_MEM_DEVICE, stream);
    if (b == NULL)
        return -1;
    a->counts = (int64_t *)b->ptr;
    int rc = -1;
    int64_t total = 0;
    void *params[2] = {(void *)a, NULL};
    if (launch(dev, "pg_compact_count", nchunks, PG_COMPACT_THREADS, params, stream) < 0)
        goto done;
    void *scan_params[2] = {&a->counts, &nchunks};
    if (launch(dev, "pg_compact_scan", 1, PG_COMPACT_THREADS, scan_params, stream) < 0)
        goto done;
    if (dev->backend->memcpy(dev, &total, a->counts + nchunks, sizeof total, PG_COPY_D2H, stream) < 0 ||
        dev->backend->stream_synchronize(dev, stream) < 0)
        goto done;
    *count = total;
    if (a->op == PG_COMPACT_COUNT) {
        rc = 0;
        goto done;
    }
    if (a->op != PG_COMPACT_RANK) {
        if (alloc(ctx, total, a) < 0)
            goto done;
        if (total == 0) {
            rc = 0;
            goto done;
        }
    }
    if (n > 0 && launch(dev, "pg_compact_write", nchunks, PG_COMPACT_THREADS, params, stream) < 0)
        goto done;
    rc = 0;
done:
    /* the pool reuses the block only after the work queued on this stream */
    pg_pool_free(b);
    a->counts = NULL;
    return rc;
}

PG_CUDA_ENTRY(pg_cuda_compact,
              (PgDevice *dev, PgCompactArgs *a, int64_t *count,
               int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream),
              (dev, a, count, alloc, ctx, stream))
