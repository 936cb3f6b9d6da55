/* The loops of kernels_cpu_bool_int.c built for x86-64-v3 CPUs: gcc vectorises a comparison of
 * 64-bit values into bools only with AVX2 (the baseline's SSE2 has no packing of 64-bit lanes).
 * kernels_cpu.c's pg_cpu_loops_avx2 table holds them; runtime/backend_cpu.c picks it at run time
 * where the CPU has x86-64-v3 (kernels/cpu_features.h). Comparisons are exact: both builds give
 * the same bools. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("arch=x86-64-v3", "no-fma")
#define PG_CPU_FN(NAME) pg_cpu_avx2_##NAME
#include "kernels_cpu_bool_int.c"
#else
typedef int pg_kernels_cpu_bool_int_avx2_unused; /* ISO C wants a declaration in every translation unit */
#endif
