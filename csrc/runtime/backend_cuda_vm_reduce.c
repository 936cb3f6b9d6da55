/* The CUDA backend's VM reductions (kernels/vm_reduce.cu): enough items to fill the GPU
 * (PG_VMR_CUDA_BLOCKS_PER_SM blocks of 256 threads of 4 lanes per SM), each folding a chunk of at
 * least PG_VMR_CUDA_MIN_CHUNK elements in order, so that an output of 2^28 elements takes a few
 * passes of few launches. */
#include "runtime/cuda_backend.h"
#include "runtime/vm_reduce_passes.h"

#define PG_VMR_CUDA_THREADS 256
#define PG_VMR_CUDA_LANES 4      /* PG_VM_GPU_LANES of kernels/vm.h */
#define PG_VMR_CUDA_SLOTS 32     /* PG_VM_GPU_SLOTS of kernels/vm.h */
#define PG_VMR_CUDA_BLOCKS_PER_SM 8
#define PG_VMR_CUDA_MIN_CHUNK 32

static int64_t
cuda_chunk(PgDevice *dev, const PgVmReduceArgs *a)
{
    const int64_t target = (int64_t)PG_CUDA_IMPL(dev)->sm_count * PG_VMR_CUDA_BLOCKS_PER_SM * PG_VMR_CUDA_THREADS *
                           PG_VMR_CUDA_LANES;
    if (a->nout >= target)
        return a->nred_total;
    /* items per output to fill the GPU, but no shorter chunks than the minimum */
    int64_t per = (target + a->nout - 1) / a->nout;
    int64_t c = (a->nred_total + per - 1) / per;
    return c < PG_VMR_CUDA_MIN_CHUNK ? PG_VMR_CUDA_MIN_CHUNK : c;
}

static int
cuda_pass(PgDevice *dev, const PgVmReduceArgs *a, void *stream)
{
    int64_t per_block = (int64_t)PG_VMR_CUDA_THREADS * PG_VMR_CUDA_LANES;
    int64_t blocks = (a->nout * a->nchunks + per_block - 1) / per_block;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * PG_VMR_CUDA_BLOCKS_PER_SM;
    void *params[1] = {(void *)a};
    return pg_cuda_launch(dev, "vm_reduce", "pg_vm_reduce", blocks < cap ? blocks : cap, PG_VMR_CUDA_THREADS,
                          params, stream);
}

static const PgVmrSchedule cuda_schedule = {cuda_chunk, cuda_pass};

static int
pg_cuda_vm_reduce_in_context(PgDevice *dev, PgVmReduceArgs *a, void *stream)
{
    if (a->map == NULL && a->nin != 1) {
        PyErr_SetString(PyExc_SystemError, "VM reduction of several inputs without a map");
        return -1;
    }
    if (a->map_slots + a->comb_slots > PG_VMR_CUDA_SLOTS) {
        PyErr_Format(PyExc_ValueError,
                     "this reduction needs %d registers; the CUDA interpreter has %d: split it into smaller "
                     "functions",
                     (int)(a->map_slots + a->comb_slots), PG_VMR_CUDA_SLOTS);
        return -1;
    }
    return pg_vm_reduce_passes(dev, a, stream, &cuda_schedule);
}

PG_CUDA_ENTRY(pg_cuda_vm_reduce, (PgDevice *dev, PgVmReduceArgs *a, void *stream), (dev, a, stream))
