/* Launching the index kernels: the bounds flag lives in the device's memory, zeroed before the
 * launch and read back after it. */
#include "runtime/indexing.h"
#include "runtime/memory.h"
#include "runtime/stream.h"

static int
needs_flag(const PgIndexArgs *a, int op)
{
    if (op == PG_INDEX_MASKED || a->mode != PG_INDEX_RAISE)
        return 0;
    for (int k = 0; k < a->nidx; k++)
        if (a->axis_len[k] >= 0)
            return 1;
    return 0;
}

int
pg_index_launch(PgDevice *dev, PgIndexArgs *a, int op)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->size == 0)
        return 0;
    void *stream = pg_stream_current_handle(dev);
    const PgBackend *be = dev->backend;
    if (!needs_flag(a, op)) {
        a->err = NULL;
        return be->index(dev, a, op, stream);
    }
    int rc = -1;
    int32_t flag = 0;
    PgBlock *b = pg_pool_alloc(dev, sizeof(int32_t), PG_MEM_DEVICE, stream);
    if (b == NULL)
        return -1;
    a->err = (int32_t *)b->ptr;
    if (be->memcpy(dev, a->err, &flag, sizeof flag, PG_COPY_H2D, stream) < 0 || be->index(dev, a, op, stream) < 0 ||
        be->memcpy(dev, &flag, a->err, sizeof flag, PG_COPY_D2H, stream) < 0 ||
        be->stream_synchronize(dev, stream) < 0)
        goto done;
    rc = flag != 0;
done:
    a->err = NULL;
    pg_pool_free(b);
    return rc;
}

int
pg_compact_launch(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                  int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    return dev->backend->compact(dev, a, count, alloc, ctx, pg_stream_current_handle(dev));
}
