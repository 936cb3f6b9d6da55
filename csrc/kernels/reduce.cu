/* The CUDA instantiation of the reduction family (reduce.h): per reducer of reduce.def, the
 * reduction kernel, and for the op reducers the scan, reduceat and ufunc.at kernels. */
#include "reduce.h"

#define PG_RED_OP(NAME, S) PG_REDUCE_KERNEL(NAME, S) PG_SCAN_KERNEL(NAME, S) PG_RSEG_KERNEL(NAME) PG_RAT_KERNEL(NAME, S)
#define PG_RED_ARG(NAME, S, CMP) PG_REDUCE_KERNEL(NAME, S)
#define PG_RED_MOMENTS(NAME, S, R) PG_REDUCE_KERNEL(NAME, S)
#include "reduce.def"
