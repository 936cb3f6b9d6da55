/* The CUDA instantiation of the VM reductions (vm_reduce.h): one kernel, pg_vm_reduce(args), one
 * pass. Each thread keeps one register file of PG_VM_GPU_SLOTS slots of PG_VM_GPU_LANES lanes for
 * both programs (the host checks that they fit) and takes PG_VM_GPU_LANES items interleaved by
 * lane across the block (lane j of thread t: item base + j * blockDim.x + t), so that neighbouring
 * threads load neighbouring outputs (outer layouts) or neighbouring chunks. Grid-stride over tiles
 * of blockDim.x * PG_VM_GPU_LANES items. */
#define PG_MATH_CALL_HEAVY 1 /* pg_math.h: the large complex functions are called, not inlined */
#include "vm_reduce.h"

extern "C" __global__ void
pg_vm_reduce(const __grid_constant__ PgVmReduceArgs a)
{
    uint64_t regs[PG_VM_GPU_SLOTS * PG_VM_GPU_LANES];
    char *R = (char *)regs;
    const int64_t slot = PG_VM_GPU_LANES * 8;
    if (a.map_slots + a.comb_slots > PG_VM_GPU_SLOTS) /* the host refuses these */
        return;
    PgVmrLane ln[PG_VM_GPU_LANES];
    int64_t base[PG_VM_GPU_LANES * (PG_VM_MAXARGS + 1)];
    char take[PG_VM_GPU_LANES];
    uint64_t save[PG_VM_GPU_LANES * 2];
    pg_vmr_constants(&a, R, slot, PG_VM_GPU_LANES);
    const int64_t nitems = a.nout * a.nchunks, tile = (int64_t)blockDim.x * PG_VM_GPU_LANES;
    for (int64_t item = (int64_t)blockIdx.x * tile + threadIdx.x; item - threadIdx.x < nitems;
         item += (int64_t)gridDim.x * tile) {
        pg_vmr_setup(&a, item, blockDim.x, PG_VM_GPU_LANES, ln, base);
        pg_vmr_items(&a, PG_VM_GPU_LANES, ln, base, R, slot, take, (char *)save);
    }
}
