/* The VM's CPU instantiation for x86-64-v3 CPUs (AVX2: every instruction's lane loop in 256-bit
 * vectors). Without FMA instructions: gcc 12's vectoriser turns complex products into vfmaddsub
 * even under -ffp-contract=off, so results would differ from the baseline's (and the GPU's) in
 * the last bit (tests/test_cpu_builds.py). vm_cpu.c picks it at run time where the CPU has it. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC target("arch=x86-64-v3", "no-fma")
#define PG_VM_CPU_RUN pg_vm_cpu_run_avx2
#define PG_VM_CPU_EXEC pg_vm_cpu_exec_avx2
#include "vm_cpu_run.h"
#else
typedef int pg_vm_cpu_avx2_unused; /* ISO C wants a declaration in every translation unit */
#endif
