/* cuBLAS and cuSOLVER handles, one per (device, stream): a handle is bound to its stream once,
 * when it is made, so a call never re-binds a handle another stream may be using, and each
 * cuBLAS handle has a workspace of its own from the device's pool. A small table, least recently
 * used entry replaced when full (programs use few streams). The GIL serialises access; callers
 * have made the device's context current (pg_cuda_enter). */
#include "runtime/cuda_backend.h"
#include "runtime/cuda_libs.h"
#include "runtime/memory.h"

#define NHANDLES 16

typedef struct {
    PgDevice *dev;              /* NULL: a free slot */
    void *stream;
    cublasHandle_t blas;
    PgBlock *blas_workspace;
    cusolverDnHandle_t solver;
    cusolverDnParams_t params;
    uint64_t last_use;
} HandleEntry;

static HandleEntry entries[NHANDLES];
static uint64_t use_clock;

/* Releases an entry's handles (destroying a handle waits for its work), in its device's context;
 * the calling thread's context is restored. */
static void
entry_clear(HandleEntry *e)
{
    CUcontext saved;
    if (e->dev != NULL && pg_cuda_enter(e->dev, &saved) == 0) {
        if (e->blas)
            pg_cublas.cublasDestroy(e->blas);
        if (e->params)
            pg_cusolver.cusolverDnDestroyParams(e->params);
        if (e->solver)
            pg_cusolver.cusolverDnDestroy(e->solver);
        pg_cuda_leave(e->dev, saved);
    }
    PyErr_Clear(); /* a failed device reports on its next use */
    if (e->blas_workspace)
        pg_pool_free(e->blas_workspace);
    memset(e, 0, sizeof *e);
}

static HandleEntry *
entry_for(PgDevice *dev, void *stream)
{
    HandleEntry *slot = NULL;
    for (int i = 0; i < NHANDLES; i++) {
        HandleEntry *e = &entries[i];
        if (e->dev == dev && e->stream == stream) {
            e->last_use = ++use_clock;
            return e;
        }
        if (slot == NULL || (slot->dev != NULL && (e->dev == NULL || e->last_use < slot->last_use)))
            slot = e;
    }
    if (slot->dev != NULL)
        entry_clear(slot);
    slot->dev = dev;
    slot->stream = stream;
    slot->last_use = ++use_clock;
    return slot;
}

/* cuBLAS's recommended workspace: 32 MiB on Hopper and newer, 4 MiB before. */
static size_t
workspace_size(PgDevice *dev)
{
    CUdevice d;
    int major = 0;
    if (pg_cu.cuDeviceGet(&d, dev->index) != CUDA_SUCCESS ||
        pg_cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d) != CUDA_SUCCESS)
        major = 0;
    return major >= 9 ? (size_t)32 << 20 : (size_t)4 << 20;
}

int
pg_cublas_handle(PgDevice *dev, void *stream, cublasHandle_t *handle)
{
    if (pg_cublas_load() < 0)
        return -1;
    pg_pool_note_queue(dev, stream); /* the caller queues library work on it next */
    HandleEntry *e = entry_for(dev, stream);
    if (e == NULL)
        return -1;
    if (e->blas == NULL) {
        cublasHandle_t h = NULL;
        int st = pg_cublas.cublasCreate(&h);
        if (st != CUBLAS_STATUS_SUCCESS)
            return pg_cuda_lib_raise(dev, "cuBLAS", st, "cublasCreate");
        if ((st = pg_cublas.cublasSetStream(h, (CUstream)stream)) != CUBLAS_STATUS_SUCCESS) {
            pg_cublas.cublasDestroy(h);
            return pg_cuda_lib_raise(dev, "cuBLAS", st, "cublasSetStream");
        }
        /* without a workspace of its own cuBLAS allocates one itself: not fatal */
        size_t size = workspace_size(dev);
        PgBlock *ws = pg_pool_alloc(dev, size, PG_MEM_DEVICE, stream);
        if (ws == NULL)
            PyErr_Clear();
        else if (pg_cublas.cublasSetWorkspace(h, ws->ptr, size) != CUBLAS_STATUS_SUCCESS) {
            pg_pool_free(ws);
            ws = NULL;
        }
        e->blas = h;
        e->blas_workspace = ws;
    }
    *handle = e->blas;
    return 0;
}

int
pg_cusolver_handle(PgDevice *dev, void *stream, cusolverDnHandle_t *handle, cusolverDnParams_t *params)
{
    if (pg_cusolver_load() < 0)
        return -1;
    pg_pool_note_queue(dev, stream); /* the caller queues library work on it next */
    HandleEntry *e = entry_for(dev, stream);
    if (e == NULL)
        return -1;
    if (e->solver == NULL) {
        cusolverDnHandle_t h = NULL;
        cusolverDnParams_t p = NULL;
        int st = pg_cusolver.cusolverDnCreate(&h);
        if (st != CUSOLVER_STATUS_SUCCESS)
            return pg_cuda_lib_raise(dev, "cuSOLVER", st, "cusolverDnCreate");
        const char *call = "cusolverDnSetStream";
        if ((st = pg_cusolver.cusolverDnSetStream(h, (CUstream)stream)) == CUSOLVER_STATUS_SUCCESS) {
            call = "cusolverDnCreateParams";
            st = pg_cusolver.cusolverDnCreateParams(&p);
        }
        if (st != CUSOLVER_STATUS_SUCCESS) {
            pg_cusolver.cusolverDnDestroy(h);
            return pg_cuda_lib_raise(dev, "cuSOLVER", st, call);
        }
        e->solver = h;
        e->params = p;
    }
    *handle = e->solver;
    *params = e->params;
    return 0;
}
