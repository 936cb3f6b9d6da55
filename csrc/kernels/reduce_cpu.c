/* The CPU instantiation of the reductions of reduce.h, from the same source as reduce.cu, and their
 * tables by reducer id (runtime/backend_cpu_reduce.c); the scans, reduceat and ufunc.at are in
 * reduce_cpu_scan.c (two files: they compile side by side). */
#include "reduce.h"
#include "reduce_ids.h"

/* reduce_cpu_avx2.c includes this file under other table names, for x86-64-v3 CPUs */
#ifndef PG_CPU_REDUCERS
#define PG_CPU_REDUCERS pg_cpu_reducers
#define PG_CPU_REDUCER_FINISH pg_cpu_reducer_finish
#endif

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
const PgCpuReduce PG_CPU_REDUCERS[PG_NREDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

#define PG_RED_OP(NAME, S) pg_cpu_rfinish_##NAME,
#define PG_RED_ARG(NAME, S, CMP) pg_cpu_rfinish_##NAME,
#define PG_RED_MOMENTS(NAME, S, R) pg_cpu_rfinish_##NAME,
const PgCpuReduceFinish PG_CPU_REDUCER_FINISH[PG_NREDUCERS] = {
#include "reduce.def"
};
#undef PG_RED_OP
#undef PG_RED_ARG
#undef PG_RED_MOMENTS

