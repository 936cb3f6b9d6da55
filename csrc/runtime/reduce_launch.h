/* The host side of the reduction family's launches (kernels/reduce.h): a layout prepared by
 * core/reduce_shape.h, its pointers, types and reducer parameters filled by the caller, run on
 * the device's current stream by its backend, which picks the schedule.
 *
 * To reduce with an op-table binary loop k (PG_K_add_f64, ...): r = pg_reducer_of_loop(k)
 * (reducer_table.h), pg_reduce_layout(&a, ...), a.in/out/in_type/out_type, pg_reducer_identity(r,
 * a.ident), then pg_reduce_launch(dev, r, &a). math/reduction.h does all of it for arrays
 * (pg_reduce_with_loop). */
#ifndef PG_REDUCE_LAUNCH_H
#define PG_REDUCE_LAUNCH_H
#include "core/reduce_shape.h"
#include "runtime/device.h"
#include "runtime/reducer_table.h"

/* Each returns 0, or -1 with an exception; nothing runs for an empty output. */
int pg_reduce_launch(PgDevice *dev, int reducer, PgReduceArgs *a);
int pg_scan_launch(PgDevice *dev, int reducer, PgScanArgs *a);
int pg_reduceat_launch(PgDevice *dev, int reducer, const PgReduceArgs *a);
int pg_ufunc_at_launch(PgDevice *dev, int reducer, const PgAtArgs *a);
#endif
