/* The VM's CPU instantiation for x86-64-v3 CPUs (AVX2, FMA: every instruction's lane loop in
 * 256-bit vectors; -ffp-contract=off still keeps a*b+c unfused, so results equal the baseline's).
 * vm_cpu.c picks it at run time where the CPU has it. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("arch=x86-64-v3")
#define PG_VM_CPU_RUN pg_vm_cpu_run_avx2
#define PG_VM_CPU_EXEC pg_vm_cpu_exec_avx2
#include "vm_cpu_run.h"
#else
typedef int pg_vm_cpu_avx2_unused; /* ISO C wants a declaration in every translation unit */
#endif
