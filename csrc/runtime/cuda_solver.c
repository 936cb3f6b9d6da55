/* cuSOLVER's dense LAPACK (cuda_solver.h): its 64-bit generic API (cusolverDnX*, one entry point
 * for the four types), except orgqr/ungqr, which has none. Each routine asks for its workspace
 * once for the batch, takes it from the pool (device) and the heap (host), and queues one call per
 * matrix. */
#include "runtime/cuda_solver.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_libs.h"
#include "runtime/memory.h"
#include "core/dtype.h"
#include <limits.h>
#include <stdlib.h>

static int
data_type(int type)
{
    switch (type) {
    case PG_FLOAT32: return CUDA_R_32F;
    case PG_FLOAT64: return CUDA_R_64F;
    case PG_COMPLEX64: return CUDA_C_32F;
    default: return CUDA_C_64F;
    }
}

static int
real_data_type(int type)
{
    return type == PG_FLOAT32 || type == PG_COMPLEX64 ? CUDA_R_32F : CUDA_R_64F;
}

static int64_t
itemsize(int type)
{
    return pg_type_info[type].itemsize;
}

static int64_t
real_itemsize(int type)
{
    return type == PG_FLOAT32 || type == PG_COMPLEX64 ? 4 : 8;
}

/* The workspaces of one batch: device bytes from the pool, host bytes from the heap. */
typedef struct {
    PgBlock *dev_block;
    void *host;
} Workspace;

static int
workspace_get(const PgSolverCall *c, size_t dev_bytes, size_t host_bytes, Workspace *w)
{
    w->dev_block = NULL;
    w->host = NULL;
    if ((w->dev_block = pg_pool_alloc(c->dev, dev_bytes, PG_MEM_DEVICE, c->stream)) == NULL)
        return -1;
    if (host_bytes > 0 && (w->host = PyMem_RawMalloc(host_bytes)) == NULL) {
        pg_pool_free(w->dev_block);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Host workspaces may be read by work still queued: wait for the stream before freeing them. */
static void
workspace_release(const PgSolverCall *c, Workspace *w)
{
    if (w->host) {
        c->dev->backend->stream_synchronize(c->dev, c->stream);
        PyErr_Clear();
        PyMem_RawFree(w->host);
    }
    if (w->dev_block)
        pg_pool_free(w->dev_block);
}

/* Makes the device's context current (the thread's previous one in *saved, *entered set) and
 * gives the handle for the call. Every routine ends with solver_leave. */
static int
solver_enter(const PgSolverCall *c, cusolverDnHandle_t *h, cusolverDnParams_t *p, CUcontext *saved, int *entered)
{
    *entered = 0;
    if (pg_cuda_enter(c->dev, saved) < 0)
        return -1;
    *entered = 1;
    return pg_cusolver_handle(c->dev, c->stream, h, p);
}

static void
solver_leave(const PgSolverCall *c, CUcontext saved, int entered)
{
    if (entered)
        pg_cuda_leave(c->dev, saved);
}

#define SOLVER_TRY(call, args)                                                 \
    do {                                                                       \
        int st_ = pg_cusolver.call args;                                       \
        if (st_ != CUSOLVER_STATUS_SUCCESS) {                                  \
            pg_cuda_lib_raise(c->dev, "cuSOLVER", st_, #call);                 \
            goto done;                                                         \
        }                                                                      \
    } while (0)

int
pg_cusolver_potrf(const PgSolverCall *c, int lower, int64_t n, char *a, int64_t lda, int64_t stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, t = data_type(c->type), uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    size_t dbytes = 0, hbytes = 0;
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    SOLVER_TRY(cusolverDnXpotrf_bufferSize, (h, p, uplo, n, t, a, lda, t, &dbytes, &hbytes));
    if (workspace_get(c, dbytes, hbytes, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++)
        SOLVER_TRY(cusolverDnXpotrf, (h, p, uplo, n, t, a + b * stride * itemsize(c->type), lda, t, w.dev_block->ptr,
                                      dbytes, w.host, hbytes, c->info + b));
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_getrf(const PgSolverCall *c, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride, int64_t *ipiv,
                  int64_t ipiv_stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, t = data_type(c->type);
    size_t dbytes = 0, hbytes = 0;
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    SOLVER_TRY(cusolverDnXgetrf_bufferSize, (h, p, m, n, t, a, lda, t, &dbytes, &hbytes));
    if (workspace_get(c, dbytes, hbytes, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++)
        SOLVER_TRY(cusolverDnXgetrf, (h, p, m, n, t, a + b * stride * itemsize(c->type), lda, ipiv + b * ipiv_stride, t,
                                      w.dev_block->ptr, dbytes, w.host, hbytes, c->info + b));
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_getrs(const PgSolverCall *c, int trans, int64_t n, int64_t nrhs, const char *a, int64_t lda,
                  int64_t stride_a, const int64_t *ipiv, int64_t ipiv_stride, char *b, int64_t ldb, int64_t stride_b)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    int rc = -1, t = data_type(c->type);
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    for (int64_t i = 0; i < c->batch; i++)
        SOLVER_TRY(cusolverDnXgetrs, (h, p, trans, n, nrhs, t, a + i * stride_a * itemsize(c->type), lda,
                                      ipiv + i * ipiv_stride, t, b + i * stride_b * itemsize(c->type), ldb,
                                      c->info + i));
    rc = 0;
done:
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_geqrf(const PgSolverCall *c, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride, char *tau,
                  int64_t tau_stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, t = data_type(c->type);
    size_t dbytes = 0, hbytes = 0;
    int64_t isz = itemsize(c->type);
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    SOLVER_TRY(cusolverDnXgeqrf_bufferSize, (h, p, m, n, t, a, lda, t, tau, t, &dbytes, &hbytes));
    if (workspace_get(c, dbytes, hbytes, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++)
        SOLVER_TRY(cusolverDnXgeqrf, (h, p, m, n, t, a + b * stride * isz, lda, t, tau + b * tau_stride * isz, t,
                                      w.dev_block->ptr, dbytes, w.host, hbytes, c->info + b));
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_orgqr(const PgSolverCall *c, int64_t m, int64_t n, int64_t k, char *a, int64_t lda, int64_t stride,
                  const char *tau, int64_t tau_stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, lwork = 0;
    int64_t isz = itemsize(c->type);
    if (m > INT_MAX || n > INT_MAX || lda > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "qr: a matrix of more than %d rows is too large for cuSOLVER's orgqr", INT_MAX);
        return -1;
    }
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    int (*size_fn)(cusolverDnHandle_t, int, int, int, const void *, int, const void *, int *);
    int (*fn)(cusolverDnHandle_t, int, int, int, void *, int, const void *, void *, int, int *);
    switch (c->type) {
    case PG_FLOAT32:
        size_fn = pg_cusolver.cusolverDnSorgqr_bufferSize;
        fn = pg_cusolver.cusolverDnSorgqr;
        break;
    case PG_FLOAT64:
        size_fn = pg_cusolver.cusolverDnDorgqr_bufferSize;
        fn = pg_cusolver.cusolverDnDorgqr;
        break;
    case PG_COMPLEX64:
        size_fn = pg_cusolver.cusolverDnCungqr_bufferSize;
        fn = pg_cusolver.cusolverDnCungqr;
        break;
    default:
        size_fn = pg_cusolver.cusolverDnZungqr_bufferSize;
        fn = pg_cusolver.cusolverDnZungqr;
        break;
    }
    int st = size_fn(h, (int)m, (int)n, (int)k, a, (int)lda, tau, &lwork);
    if (st != CUSOLVER_STATUS_SUCCESS) {
        pg_cuda_lib_raise(c->dev, "cuSOLVER", st, "cusolverDn<t>orgqr_bufferSize");
        goto done;
    }
    if (workspace_get(c, (size_t)lwork * (size_t)isz, 0, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++) {
        st = fn(h, (int)m, (int)n, (int)k, a + b * stride * isz, (int)lda, tau + b * tau_stride * isz, w.dev_block->ptr,
                lwork, c->info + b);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            pg_cuda_lib_raise(c->dev, "cuSOLVER", st, "cusolverDn<t>orgqr");
            goto done;
        }
    }
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_gesvd(const PgSolverCall *c, int full, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride,
                  char *s, int64_t s_stride, char *u, int64_t ldu, int64_t u_stride, char *vt, int64_t ldvt,
                  int64_t vt_stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, t = data_type(c->type), rt = real_data_type(c->type);
    signed char jobu = u == NULL ? 'N' : full ? 'A' : 'S', jobvt = vt == NULL ? 'N' : 'A';
    size_t dbytes = 0, hbytes = 0;
    int64_t isz = itemsize(c->type), rsz = real_itemsize(c->type);
    /* cuSOLVER wants leading dimensions of at least 1 even for arrays it does not touch */
    int64_t ldu_ = u ? ldu : 1, ldvt_ = vt ? ldvt : 1;
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    SOLVER_TRY(cusolverDnXgesvd_bufferSize,
               (h, p, jobu, jobvt, m, n, t, a, lda, rt, s, t, u, ldu_, t, vt, ldvt_, t, &dbytes, &hbytes));
    if (workspace_get(c, dbytes, hbytes, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++)
        SOLVER_TRY(cusolverDnXgesvd,
                   (h, p, jobu, jobvt, m, n, t, a + b * stride * isz, lda, rt, s + b * s_stride * rsz, t,
                    u ? u + b * u_stride * isz : NULL, ldu_, t, vt ? vt + b * vt_stride * isz : NULL, ldvt_, t,
                    w.dev_block->ptr, dbytes, w.host, hbytes, c->info + b));
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}

int
pg_cusolver_syevd(const PgSolverCall *c, int vectors, int lower, int64_t n, char *a, int64_t lda, int64_t stride,
                  char *w_out, int64_t w_stride)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t p;
    Workspace w = {NULL, NULL};
    int rc = -1, t = data_type(c->type), rt = real_data_type(c->type);
    int jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    int uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    size_t dbytes = 0, hbytes = 0;
    int64_t isz = itemsize(c->type), rsz = real_itemsize(c->type);
    CUcontext saved;
    int entered;
    if (solver_enter(c, &h, &p, &saved, &entered) < 0)
        goto done;
    SOLVER_TRY(cusolverDnXsyevd_bufferSize, (h, p, jobz, uplo, n, t, a, lda, rt, w_out, t, &dbytes, &hbytes));
    if (workspace_get(c, dbytes, hbytes, &w) < 0)
        goto done;
    for (int64_t b = 0; b < c->batch; b++)
        SOLVER_TRY(cusolverDnXsyevd, (h, p, jobz, uplo, n, t, a + b * stride * isz, lda, rt, w_out + b * w_stride * rsz,
                                      t, w.dev_block->ptr, dbytes, w.host, hbytes, c->info + b));
    rc = 0;
done:
    workspace_release(c, &w);
    solver_leave(c, saved, entered);
    return rc;
}
