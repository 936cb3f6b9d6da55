/* The CUDA instantiation of the VM (vm.h): one kernel, pg_vm_run(PgVmArgs). Each thread keeps a
 * register file of PG_VM_GPU_SLOTS slots of PG_VM_GPU_LANES lanes in local memory and runs the
 * program over PG_VM_GPU_LANES elements at once; a block's elements are interleaved by lane
 * (lane j of thread t is element base + j * blockDim.x + t) so every load and store of a lane is
 * coalesced across the warp. Grid-stride over tiles of blockDim.x * PG_VM_GPU_LANES elements. */
#define PG_MATH_CALL_HEAVY 1 /* pg_math.h: the large complex functions are called, not inlined */
#include "vm.h"

/* Byte offsets of element e for every operand (one div/mod chain over the merged dimensions). */
static __device__ __forceinline__ void
vm_offsets(const PgVmArgs &a, int64_t e, int64_t *off)
{
    for (int k = 0; k < a.nargs; k++)
        off[k] = 0;
    if (a.ndim == 1) {
        for (int k = 0; k < a.nargs; k++)
            off[k] = e * a.strides[k][0];
        return;
    }
    for (int d = a.ndim - 1; d >= 0; d--) {
        int64_t n = a.shape[d];
        int64_t q = e / n;
        int64_t j = e - q * n;
        for (int k = 0; k < a.nargs; k++)
            off[k] += j * a.strides[k][d];
        e = q;
    }
}

extern "C" __global__ void
pg_vm_run(const __grid_constant__ PgVmArgs a)
{
    uint64_t regs[PG_VM_GPU_SLOTS * PG_VM_GPU_LANES];
    char *R = (char *)regs;
    const int64_t slot = PG_VM_GPU_LANES * 8;
    const PgVmProgram *p = a.program;
    if (p->nslots > PG_VM_GPU_SLOTS) /* the host refuses these; never overrun the register file */
        return;
    const PgVmInsn *code = PG_VM_CODE(p);
    const int ninsn = p->ninsn, nin = a.nargs - 1;
    const int out_reg = p->out_reg, out_type = p->out_type, out_size = pg_vm_type_size(out_type);

    pg_vm_fill_constants(p, R, slot, PG_VM_GPU_LANES);
    const int64_t tile = (int64_t)blockDim.x * PG_VM_GPU_LANES;
    for (int64_t base = (int64_t)blockIdx.x * tile + threadIdx.x; base - threadIdx.x < a.size;
         base += (int64_t)gridDim.x * tile) {
        /* scalar inputs, every tile: a program may reassign its parameters in their registers */
        for (int k = 0; k < nin; k++) {
            if (a.data[k])
                continue;
            int ct = p->in_types[k], size = pg_vm_type_size(ct);
            for (int j = 0; j < PG_VM_GPU_LANES; j++)
                pg_vm_load_value(R + p->in_regs[k] * slot + j * size, ct, (const char *)a.scalar[k], a.types[k]);
        }
        int n = 0;
        for (int j = 0; j < PG_VM_GPU_LANES; j++) {
            int64_t e = base + (int64_t)j * blockDim.x;
            if (e >= a.size)
                break;
            n = j + 1;
            int64_t off[PG_VM_MAXARGS];
            vm_offsets(a, e, off);
            for (int k = 0; k < nin; k++) {
                if (a.data[k] == NULL)
                    continue;
                int ct = p->in_types[k];
                pg_vm_load_value(R + p->in_regs[k] * slot + j * pg_vm_type_size(ct), ct, a.data[k] + off[k],
                                 a.types[k]);
            }
        }
        if (n == 0)
            continue;
        pg_vm_exec(code, ninsn, R, slot, n);
        for (int j = 0; j < n; j++) {
            int64_t off[PG_VM_MAXARGS];
            vm_offsets(a, base + (int64_t)j * blockDim.x, off);
            pg_vm_store_value(a.data[nin] + off[nin], a.types[nin], R + out_reg * slot + j * out_size, out_type);
        }
    }
}
