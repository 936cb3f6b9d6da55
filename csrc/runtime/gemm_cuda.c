/* The CUDA backend's matrix product (PgBackend.gemm): cuBLAS's GemmEx for one product and
 * GemmStridedBatchedEx for a batch, on the handle of the device and stream; float16 is stored
 * as half and computed in float32, float32 is exact float32 unless TF32 was asked for. Integer
 * and bool products run the kernel of kernels/matmul.h. */
#include "runtime/cuda_backend.h"
#include "runtime/cuda_libs.h"
#include "core/dtype.h"
#include <limits.h>

#define GEMM_INT_THREADS 256
#define GEMM_INT_BLOCKS_PER_SM 32 /* a grid-stride loop: enough blocks to fill every SM */

static int
gemm_int(PgDevice *dev, const PgGemmArgs *g, void *stream)
{
    CUfunction f = pg_cuda_function(dev, "matmul", "pg_gemm_int");
    if (f == NULL)
        return -1;
    PgGemmArgs args = *g;
    void *params[1] = {&args};
    int64_t blocks = (g->m * g->n * g->batch + GEMM_INT_THREADS - 1) / GEMM_INT_THREADS;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * GEMM_INT_BLOCKS_PER_SM;
    blocks = blocks > cap ? cap : blocks < 1 ? 1 : blocks;
    CUresult r = pg_cuda_queue_launch_1d(dev, f, blocks, GEMM_INT_THREADS, stream, params);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuLaunchKernel(pg_gemm_int)");
}

static int
cuda_data_type(int type)
{
    switch (type) {
    case PG_FLOAT16: return CUDA_R_16F;
    case PG_FLOAT32: return CUDA_R_32F;
    case PG_FLOAT64: return CUDA_R_64F;
    case PG_COMPLEX64: return CUDA_C_32F;
    default: return CUDA_C_64F;
    }
}

/* The product with dev's context current. */
static int
gemm_in_context(PgDevice *dev, const PgGemmArgs *g, void *stream)
{
    if (!PG_IS_FLOAT(g->type) && !PG_IS_COMPLEX(g->type))
        return gemm_int(dev, g, stream);
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX || g->ldb > INT_MAX ||
        g->ldc > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "matmul: a matrix of more than %d rows or columns is too large for cuBLAS",
                     INT_MAX);
        return -1;
    }
    cublasHandle_t h;
    if (pg_cublas_handle(dev, stream, &h) < 0)
        return -1;
    int dtype = cuda_data_type(g->type);
    int wide = g->type == PG_FLOAT64 || g->type == PG_COMPLEX128;
    int compute = wide ? CUBLAS_COMPUTE_64F
                       : (g->tf32 && g->type != PG_FLOAT16 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
    /* alpha = 1, beta = 0 in the scale type: double for 64-bit compute, float otherwise (complex: re, im) */
    static const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
    static const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
    const void *one = wide ? (const void *)one_d : (const void *)one_f;
    const void *zero = wide ? (const void *)zero_d : (const void *)zero_f;
    int64_t isz = pg_type_info[g->type].itemsize;
    int st;
    if (g->batch == 1) {
        st = pg_cublas.cublasGemmEx(h, g->transa, g->transb, (int)g->m, (int)g->n, (int)g->k, one, g->a, dtype,
                                    (int)g->lda, g->b, dtype, (int)g->ldb, zero, g->c, dtype, (int)g->ldc, compute,
                                    CUBLAS_GEMM_DEFAULT);
        return st == CUBLAS_STATUS_SUCCESS ? 0 : pg_cuda_lib_raise(dev, "cuBLAS", st, "cublasGemmEx");
    }
    /* batchCount is an int: a larger batch goes in pieces */
    for (int64_t first = 0; first < g->batch; first += INT_MAX) {
        int64_t count = g->batch - first < INT_MAX ? g->batch - first : INT_MAX;
        st = pg_cublas.cublasGemmStridedBatchedEx(
            h, g->transa, g->transb, (int)g->m, (int)g->n, (int)g->k, one, g->a + first * g->stride_a * isz, dtype,
            (int)g->lda, (long long)g->stride_a, g->b + first * g->stride_b * isz, dtype, (int)g->ldb,
            (long long)g->stride_b, zero, g->c + first * g->stride_c * isz, dtype, (int)g->ldc,
            (long long)g->stride_c, (int)count, compute, CUBLAS_GEMM_DEFAULT);
        if (st != CUBLAS_STATUS_SUCCESS)
            return pg_cuda_lib_raise(dev, "cuBLAS", st, "cublasGemmStridedBatchedEx");
    }
    return 0;
}

int
pg_cuda_gemm(PgDevice *dev, const PgGemmArgs *g, void *stream)
{
    if (g->m == 0 || g->n == 0 || g->batch == 0)
        return 0;
    CUcontext saved;
    if (pg_cuda_enter(dev, &saved) < 0)
        return -1;
    int rc = gemm_in_context(dev, g, stream);
    pg_cuda_leave(dev, saved);
    return rc;
}
