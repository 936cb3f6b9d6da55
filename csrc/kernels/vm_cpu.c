/* The VM's CPU instantiation (vm.h, run by vm_cpu_run.h) for any CPU, and the entry point that
 * runs vm_cpu_avx2.c's build instead where the CPU supports x86-64-v3. */
#define PG_VM_CPU_RUN pg_vm_cpu_run_baseline
#define PG_VM_CPU_EXEC pg_vm_cpu_exec_baseline
#include "vm_cpu_run.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include "cpu_features.h"
void pg_vm_cpu_run_avx2(const PgVmArgs *a, int lanes, char *regs, int64_t begin, int64_t end);
void pg_vm_cpu_exec_avx2(const PgVmProgram *p, char *R, int64_t slot, int n);
#endif

void
pg_vm_cpu_run(const PgVmArgs *a, int lanes, char *regs, int64_t begin, int64_t end)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (pg_cpu_x86_64_v3()) {
        pg_vm_cpu_run_avx2(a, lanes, regs, begin, end);
        return;
    }
#endif
    pg_vm_cpu_run_baseline(a, lanes, regs, begin, end);
}

void
pg_vm_cpu_exec(const PgVmProgram *p, char *R, int64_t slot, int n)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (pg_cpu_x86_64_v3()) {
        pg_vm_cpu_exec_avx2(p, R, slot, n);
        return;
    }
#endif
    pg_vm_cpu_exec_baseline(p, R, slot, n);
}
