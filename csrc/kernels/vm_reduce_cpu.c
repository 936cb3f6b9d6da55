/* The CPU instantiation of the VM reductions (vm_reduce.h): items in blocks of `lanes`
 * consecutive ones, the programs run by the interpreter built for the CPU at hand
 * (pg_vm_cpu_exec of vm_cpu.c). runtime/backend_cpu_vm_reduce.c splits the items over threads,
 * each with scratch of its own. */
#include "vm_reduce.h"

/* the scratch's parts, each 64-byte aligned: register file, lanes, offsets, take, save */
#define PG_VMR_ALIGN(x) (((x) + 63) & ~(size_t)63)

size_t
pg_vm_cpu_reduce_scratch(const PgVmReduceArgs *a, int lanes)
{
    return PG_VMR_ALIGN((size_t)(a->map_slots + a->comb_slots) * (size_t)lanes * 8) +
           PG_VMR_ALIGN(sizeof(PgVmrLane) * (size_t)lanes) +
           PG_VMR_ALIGN(sizeof(int64_t) * (size_t)PG_VMR_NBASE(a, lanes)) + PG_VMR_ALIGN((size_t)lanes) +
           PG_VMR_ALIGN((size_t)lanes * 16);
}

void
pg_vm_cpu_reduce_items(const PgVmReduceArgs *a, int lanes, char *scratch, int64_t i0, int64_t i1)
{
    const int64_t slot = (int64_t)lanes * 8;
    char *R = scratch;
    PgVmrLane *ln = (PgVmrLane *)(R + PG_VMR_ALIGN((size_t)(a->map_slots + a->comb_slots) * (size_t)slot));
    int64_t *base = (int64_t *)((char *)ln + PG_VMR_ALIGN(sizeof(PgVmrLane) * (size_t)lanes));
    char *take = (char *)base + PG_VMR_ALIGN(sizeof(int64_t) * (size_t)PG_VMR_NBASE(a, lanes));
    char *save = take + PG_VMR_ALIGN((size_t)lanes);
    pg_vmr_constants(a, R, slot, lanes);
    for (int64_t it = i0; it < i1; it += lanes) {
        int n = i1 - it < lanes ? (int)(i1 - it) : lanes;
        pg_vmr_setup(a, it, 1, n, ln, base);
        pg_vmr_items(a, n, ln, base, R, slot, take, save);
    }
}
