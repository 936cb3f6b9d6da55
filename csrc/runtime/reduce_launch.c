/* The launches of the reduction family: check the device, then hand the layout to its backend on
 * the current stream. */
#include "runtime/reduce_launch.h"
#include "runtime/stream.h"

int
pg_reduce_launch(PgDevice *dev, int reducer, PgReduceArgs *a)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->nout == 0)
        return 0;
    return dev->backend->reduce(dev, reducer, a, pg_stream_current_handle(dev));
}

int
pg_scan_launch(PgDevice *dev, int reducer, PgScanArgs *a)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->nrows == 0 || a->n == 0)
        return 0;
    return dev->backend->scan(dev, reducer, a, pg_stream_current_handle(dev));
}

int
pg_reduceat_launch(PgDevice *dev, int reducer, const PgReduceArgs *a)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->nout == 0)
        return 0;
    return dev->backend->reduceat(dev, reducer, a, pg_stream_current_handle(dev));
}

int
pg_ufunc_at_launch(PgDevice *dev, int reducer, const PgAtArgs *a)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->nidx == 0 || a->trail_size == 0)
        return 0;
    return dev->backend->ufunc_at(dev, reducer, a, pg_stream_current_handle(dev));
}
