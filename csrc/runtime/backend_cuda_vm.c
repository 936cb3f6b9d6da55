/* The CUDA backend's VM launch: kernels/vm.cu's pg_vm_run over the prepared operands. Each thread
 * runs the program over PG_VM_CUDA_LANES elements, so a block covers 256 * lanes of them. */
#include "runtime/cuda_backend.h"

#define PG_VM_CUDA_THREADS 256
#define PG_VM_CUDA_LANES 4      /* PG_VM_GPU_LANES of kernels/vm.h */
#define PG_VM_CUDA_SLOTS 32     /* PG_VM_GPU_SLOTS of kernels/vm.h */
#define PG_VM_CUDA_BLOCKS_PER_SM 8

static int
vm_run_in_context(PgDevice *dev, const PgVmArgs *args, void *stream)
{
    CUfunction f = pg_cuda_function(dev, "vm", "pg_vm_run");
    if (f == NULL)
        return -1;
    int64_t per_block = (int64_t)PG_VM_CUDA_THREADS * PG_VM_CUDA_LANES;
    int64_t blocks = (args->size + per_block - 1) / per_block;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * PG_VM_CUDA_BLOCKS_PER_SM;
    if (blocks > cap)
        blocks = cap;
    if (blocks < 1)
        blocks = 1;
    void *params[1] = {(void *)args};
    CUresult r = pg_cuda_queue_launch_1d(dev, f, blocks, PG_VM_CUDA_THREADS, stream, params);
    if (r != CUDA_SUCCESS)
        return pg_cuda_raise(dev, r, "cuLaunchKernel(pg_vm_run)");
    return 0;
}

int
pg_cuda_vm_run(PgDevice *dev, const PgVmArgs *args, void *stream)
{
    if (args->program == NULL) {
        PyErr_SetString(PyExc_SystemError, "VM launch without a program");
        return -1;
    }
    if (args->nslots > PG_VM_CUDA_SLOTS) {
        PyErr_Format(PyExc_ValueError,
                     "this function needs %d registers; the CUDA interpreter has %d: split it into smaller functions",
                     (int)args->nslots, PG_VM_CUDA_SLOTS);
        return -1;
    }
    CUcontext saved;
    if (pg_cuda_enter(dev, &saved) < 0)
        return -1;
    int rc = vm_run_in_context(dev, args, stream);
    pg_cuda_leave(dev, saved);
    return rc;
}
