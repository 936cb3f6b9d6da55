/* The CPU instantiation of the reductions of reduce.h, from the same source as reduce.cu, and their
 * tables by reducer id (runtime/backend_cpu_reduce.c); the scans, reduceat and ufunc.at are in
 * reduce_cpu_scan.c (two files: they compile side by side). */
#include "reduce.h"
#include "reduce_ids.h"

#define PG_RED_OP(NAME, S) PG_RBLOCK_OP(NAME, S) PG_REDUCE_CPU(NAME, S)
#define PG_RED_ARG(NAME, S, CMP) PG_RBLOCK_ARG(NAME, S, CMP) PG_REDUCE_CPU(NAME, S)
#define PG_RED_MOMENTS(NAME, S, R) PG_RBLOCK_MOMENTS(NAME, S, R) PG_REDUCE_CPU(NAME, S)
#include "reduce.def"
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

#define PG_RED_OP(NAME, S) pg_cpu_reduce_##NAME,
#define PG_RED_ARG(NAME, S, CMP) pg_cpu_reduce_##NAME,
#define PG_RED_MOMENTS(NAME, S, R) pg_cpu_reduce_##NAME,
const PgCpuReduce pg_cpu_reducers[PG_NREDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

#define PG_RED_OP(NAME, S) pg_cpu_rfinish_##NAME,
#define PG_RED_ARG(NAME, S, CMP) pg_cpu_rfinish_##NAME,
#define PG_RED_MOMENTS(NAME, S, R) pg_cpu_rfinish_##NAME,
const PgCpuReduceFinish pg_cpu_reducer_finish[PG_NREDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

