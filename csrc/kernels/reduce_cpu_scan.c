/* The CPU instantiation of the op reducers' scans, reduceat and ufunc.at (reduce.h), and their tables
 * by reducer id (runtime/backend_cpu_reduce.c). */
#include "reduce.h"
#include "reduce_ids.h"

#define PG_RED_ARG(NAME, S, CMP)
#define PG_RED_MOMENTS(NAME, S, R)
#define PG_RED_OP(NAME, S) PG_RBLOCK_OP(NAME, S) PG_SCAN_CPU(NAME, S) PG_RSEG_CPU(NAME) PG_RAT_CPU(NAME, S)
#include "reduce.def"
#undef PG_RED_OP

/* the op reducers come first in reduce.def: these tables stop at PG_NOP_REDUCERS */
#define PG_RED_OP(NAME, S) pg_cpu_scan_##NAME,
const PgCpuScan pg_cpu_scans[PG_NOP_REDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#define PG_RED_OP(NAME, S) pg_cpu_rseg_##NAME,
const PgCpuReduceSeg pg_cpu_rsegs[PG_NOP_REDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#define PG_RED_OP(NAME, S) pg_cpu_rat_##NAME,
const PgCpuReduceAt pg_cpu_rats[PG_NOP_REDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS
