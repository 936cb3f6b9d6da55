/* The reductions of reduce_cpu.c built for x86-64-v3 CPUs (AVX2: the leaves' folds and the
 * column loops in 256-bit vectors). Without FMA instructions: gcc 12's vectoriser turns complex
 * products into vfmaddsub even under -ffp-contract=off; with every fold's order written out,
 * the results then equal the baseline build's bit for bit (tests/test_cpu_builds.py).
 * runtime/backend_cpu_reduce.c picks these tables at run time where the CPU has x86-64-v3. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("arch=x86-64-v3", "no-fma")
#define PG_CPU_REDUCERS pg_cpu_reducers_avx2
#define PG_CPU_REDUCER_FINISH pg_cpu_reducer_finish_avx2
#include "reduce_cpu.c"
#else
typedef int pg_reduce_cpu_avx2_unused; /* ISO C wants a declaration in every translation unit */
#endif
