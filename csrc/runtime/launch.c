/* The host side of every elementwise launch: broadcast and merge the operands, then hand the
 * prepared loop to the device's backend on the current stream. */
#include "runtime/launch.h"
#include "runtime/stream.h"

int
pg_elementwise_launch(PgDevice *dev, int kernel_id, int nargs, const PgOperand *ops)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    PgLoopArgs args;
    pg_loop_prepare(&args, nargs, ops);
    if (args.size == 0)
        return 0;
    return dev->backend->elementwise(dev, kernel_id, &args, pg_stream_current_handle(dev));
}
