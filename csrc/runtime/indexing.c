/* Launching the index kernels: the bounds flag lives in the device's memory, zeroed before the
 * launch and read back after it. */
#include "runtime/indexing.h"
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

PgBlock *
pg_flag_new(PgDevice *dev)
{
    void *stream = pg_stream_current_handle(dev);
    int32_t zero = 0;
    PgBlock *b = pg_pool_alloc(dev, sizeof(int32_t), PG_MEM_DEVICE, stream);
    if (b != NULL && dev->backend->memcpy(dev, b->ptr, &zero, sizeof zero, PG_COPY_H2D, stream) < 0) {
        pg_pool_free(b);
        return NULL;
    }
    return b;
}

int
pg_flag_take(PgDevice *dev, PgBlock *flag)
{
    void *stream = pg_stream_current_handle(dev);
    int32_t v = 0;
    int rc = dev->backend->memcpy(dev, &v, flag->ptr, sizeof v, PG_COPY_D2H, stream) < 0 ||
                     dev->backend->stream_synchronize(dev, stream) < 0
                 ? -1
                 : v != 0;
    pg_pool_free(flag);
    return rc;
}

int
pg_index_launch(PgDevice *dev, PgIndexArgs *a, int op)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->size == 0)
        return 0;
    void *stream = pg_stream_current_handle(dev);
    a->err = NULL;
    if (!needs_flag(a, op))
        return dev->backend->index(dev, a, op, stream);
    PgBlock *flag = pg_flag_new(dev);
    if (flag == NULL)
        return -1;
    a->err = (int32_t *)flag->ptr;
    int rc = dev->backend->index(dev, a, op, stream);
    a->err = NULL;
    if (rc < 0) {
        pg_pool_free(flag);
        return -1;
    }
    return pg_flag_take(dev, flag);
}

int
pg_compact_launch(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                  int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    return dev->backend->compact(dev, a, count, alloc, ctx, pg_stream_current_handle(dev));
}
