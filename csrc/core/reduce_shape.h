/* Layouts of the reduction family's launches (kernels/reduce_types.h): the axes an operation
 * keeps and those it reduces (or scans), each ordered by the input's strides and merged where
 * every operand allows, as pg_loop_prepare does for elementwise launches. Data pointers, types and
 * the reducer's parameters are the caller's to fill. */
#ifndef PG_REDUCE_SHAPE_H
#define PG_REDUCE_SHAPE_H
#include "core/shape.h"
#include "kernels/reduce_types.h"
#include "kernels/vm_types.h"

/* A reduction of an array of `ndim` axes (shape, input strides) over the axes i with
 * reduced[i] != 0. out_strides: the output's stride for each input axis (any value for reduced
 * ones); mask_strides: where='s (0 on broadcast axes), or NULL. keep_order keeps the reduced axes
 * in the input's order, so that r counts them as a flat C index (argmin/argmax); otherwise they
 * are ordered by stride. Sets every layout field (nkeep, nred, nout, nred_total, outer, ...);
 * zeroes the rest of *a. */
void pg_reduce_layout(PgReduceArgs *a, int ndim, const int64_t *shape, const int64_t *in_strides,
                      const int64_t *out_strides, const int64_t *mask_strides, const char *reduced, int keep_order);
/* A scan along `axis` (input and output have the same shape). Zeroes the rest of *a. */
void pg_scan_layout(PgScanArgs *a, int ndim, const int64_t *shape, const int64_t *in_strides,
                    const int64_t *out_strides, int axis);
/* reduceat: the output's shape (its `axis` counting segments), the input's strides and the
 * output's; the segment axis is kept unmerged as seg_dim. Zeroes the rest of *a. */
void pg_reduceat_layout(PgReduceArgs *a, int ndim, const int64_t *out_shape, const int64_t *in_strides,
                        const int64_t *out_strides, int axis);
/* A VM reduction (kernels/vm_types.h' PgVmReduceArgs) of nops operands (the inputs, then the
 * output) over an iteration space `shape` of ndim axes: strides[k][i] is operand k's byte stride
 * on axis i (0 where it broadcasts; the output's is 0 on reduced axes, except along a scan's
 * axis). Kept axes are ordered by operand 0's strides, reduced ones stay in C order (a user's
 * combiner sees the elements in that order); both are merged where every operand allows. Fills the layout (nin = nops - 1, one chunk per output) and zeroes the rest;
 * -1 with ValueError when more than PG_VMR_MAXDIMS dimensions of either kind remain. */
int pg_vm_reduce_layout(PgVmReduceArgs *a, int nops, int ndim, const int64_t *shape, int64_t (*strides)[PG_MAXDIMS],
                        const char *reduced);
#endif
