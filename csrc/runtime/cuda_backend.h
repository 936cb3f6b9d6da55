/* The CUDA backend's private state and helpers, shared by the files that implement it
 * (backend_cuda.c: devices, memory, copies, streams, the elementwise launch; the kernel families
 * that follow add files of their own beside it). Nothing outside runtime/ includes this. */
#ifndef PG_CUDA_BACKEND_H
#define PG_CUDA_BACKEND_H
#include "runtime/backend.h"
#include "runtime/cuda_loader.h"
#include "runtime/fatbin.h"
#include "runtime/kernel_table.h"

typedef struct PgFunctionCache PgFunctionCache;

typedef struct {
    CUdevice cudev;
    CUcontext ctx;
    int sm_count;
    int cc;                              /* compute capability, major * 10 + minor */
    /* One module per embedded fatbin (pg_fatbin_modules), loaded on first use under module_lock
     * (the GIL is released while the driver loads, which may JIT PTX). */
    PyThread_type_lock module_lock;
    CUmodule *modules;
    PgFunctionCache *functions;          /* pg_cuda_function's cache */
    CUfunction funcs[PG_NKERNELS][2];    /* elementwise: [id][0] NAME_c, [id][1] NAME_s */
    /* Two pinned buffers through which large pageable copies are double-buffered, and the event
     * recorded after the last DMA that used each; allocated on the first such copy. */
    PyThread_type_lock stage_lock;
    void *stage[2];
    CUevent stage_done[2];
} CudaDev;

#define PG_CUDA_IMPL(dev) ((CudaDev *)(dev)->impl)

/* Sets pygpu.CUDAError for a failed call (message "<call> failed on cuda:N: CUDA_ERROR_X (code):
 * description", attributes .name and .code) and returns -1; a sticky error (illegal address,
 * launch failure, ...) also marks the device failed. dev may be NULL. */
int pg_cuda_raise(PgDevice *dev, CUresult r, const char *call);
/* Checks the device and makes its primary context current on the calling thread, saving the
 * thread's previous one (0, or -1 with an exception); pg_cuda_leave puts that one back. Every
 * entry point of the backend brackets its driver calls with the two, so the current context of
 * other libraries on the thread is left as they set it. */
int pg_cuda_enter(PgDevice *dev, CUcontext *saved);
void pg_cuda_leave(PgDevice *dev, CUcontext saved);
/* Defines the entry point `int name params` (storage class before it, if any): name##_in_context
 * called with `args` between pg_cuda_enter and pg_cuda_leave (the first parameter is `dev`). */
#define PG_CUDA_ENTRY(name, params, args)                   \
    int name params                                         \
    {                                                       \
        CUcontext saved_;                                   \
        if (pg_cuda_enter(dev, &saved_) < 0)                \
            return -1;                                      \
        int rc_ = name##_in_context args;                   \
        pg_cuda_leave(dev, saved_);                         \
        return rc_;                                         \
    }
/* The kernel `name` of the embedded module `module` ("elementwise", ...) on dev: the module is
 * loaded on first use, the function looked up once and cached per device. NULL with an exception
 * (CUDAError naming the kernel) when it is not there. Called with dev's context current. */
CUfunction pg_cuda_function(PgDevice *dev, const char *module, const char *name);

/* PgBackend.gemm (gemm_cuda.c): cuBLAS, and the integer kernel of the "matmul" module. */
int pg_cuda_gemm(PgDevice *dev, const PgGemmArgs *g, void *stream);

/* cuda_queue.c: the only callers of the driver's queueing calls (launches, asynchronous copies);
 * each notes the stream with dev's pool (memory.h) and returns the driver's result without raising,
 * so they may run with the GIL released. Called with dev's context current. */
CUresult pg_cuda_queue_launch(PgDevice *dev, CUfunction f, const unsigned int grid[3], const unsigned int block[3],
                              unsigned int shared_mem, void *stream, void **params, int cooperative);
CUresult pg_cuda_queue_launch_1d(PgDevice *dev, CUfunction f, int64_t blocks, unsigned int threads, void *stream,
                                 void **params);
CUresult pg_cuda_queue_copy(PgDevice *dev, void *dst, const void *src, size_t n, void *stream);

/* Launches module/name over a 1-d grid of `blocks` blocks of `threads` on stream, with dev's
 * context current (0, or -1 with CUDAError naming the kernel). */
int pg_cuda_launch(PgDevice *dev, const char *module, const char *name, int64_t blocks, int threads, void **params,
                   void *stream);

/* backend_cuda_index.c */
int pg_cuda_index(PgDevice *dev, const PgIndexArgs *a, int op, void *stream);
int pg_cuda_compact(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                    int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream);
/* backend_cuda_sort.c */
int pg_cuda_sort(PgDevice *dev, const PgSortArgs *a, void *stream);
/* backend_cuda_reduce.c */
int pg_cuda_reduce(PgDevice *dev, int reducer, PgReduceArgs *args, void *stream);
int pg_cuda_scan(PgDevice *dev, int reducer, PgScanArgs *args, void *stream);
int pg_cuda_reduceat(PgDevice *dev, int reducer, const PgReduceArgs *args, void *stream);
int pg_cuda_ufunc_at(PgDevice *dev, int reducer, const PgAtArgs *args, void *stream);
/* backend_cuda_correlate.c */
int pg_cuda_correlate(PgDevice *dev, const PgCorrelateArgs *a, void *stream);

/* backend_cuda_search.c */
int pg_cuda_search(PgDevice *dev, const PgSearchArgs *s, void *stream);
int pg_cuda_histogram(PgDevice *dev, const PgHistArgs *h, void *stream);
#endif
