/* The loops of kernels_cpu_double.c built for x86-64-v3 CPUs (see kernels_cpu_bool_int_avx2.c). */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("arch=x86-64-v3", "no-fma")
#define PG_CPU_FN(NAME) pg_cpu_avx2_##NAME
#include "kernels_cpu_double.c"
#else
typedef int pg_kernels_cpu_double_avx2_unused; /* ISO C wants a declaration in every translation unit */
#endif
