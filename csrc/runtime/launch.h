/* The host side of every elementwise launch: an op-table loop (kernel_table.h) run over operands
 * (core/shape.h) on a device's current stream. */
#ifndef PG_LAUNCH_H
#define PG_LAUNCH_H
#include "core/shape.h"
#include "runtime/device.h"
#include "runtime/kernel_table.h"

/* Runs kernel_id over the operands (inputs, then output) on dev's current stream. */
int pg_elementwise_launch(PgDevice *dev, int kernel_id, int nargs, const PgOperand *ops);
#endif
