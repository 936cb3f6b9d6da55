/* The only callers of the driver's calls that queue work on a stream: kernel launches and
 * asynchronous copies (tests/test_stream_use.py checks that no other file calls them). Each notes
 * the stream with the device's pool first, so that a block freed later is ordered after this work
 * whichever path queued it and whatever it tagged (runtime/queue_log.h). Neither raises: they
 * return the driver's result, so that they may run with the GIL released. */
#include "runtime/cuda_backend.h"
#include "runtime/memory.h"

CUresult
pg_cuda_queue_launch(PgDevice *dev, CUfunction f, const unsigned int grid[3], const unsigned int block[3],
                     unsigned int shared_mem, void *stream, void **params, int cooperative)
{
    pg_pool_note_queue(dev, stream);
    if (cooperative)
        return pg_cu.cuLaunchCooperativeKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                               shared_mem, (CUstream)stream, params);
    return pg_cu.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_mem,
                                (CUstream)stream, params, NULL);
}

CUresult
pg_cuda_queue_launch_1d(PgDevice *dev, CUfunction f, int64_t blocks, unsigned int threads, void *stream,
                        void **params)
{
    const unsigned int grid[3] = {(unsigned int)blocks, 1, 1}, block[3] = {threads, 1, 1};
    return pg_cuda_queue_launch(dev, f, grid, block, 0, stream, params, 0);
}

CUresult
pg_cuda_queue_copy(PgDevice *dev, void *dst, const void *src, size_t n, void *stream)
{
    pg_pool_note_queue(dev, stream);
    return pg_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, n, (CUstream)stream);
}
