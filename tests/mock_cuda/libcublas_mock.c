/* A stand-in for cuBLAS with the mock driver (libcuda_mock.c), whose "device" memory is host
 * memory: handles, streams and workspaces are recorded, and GemmEx / GemmStridedBatchedEx compute
 * their column-major products for real (float32, float64, complex64, complex128; float16 is only
 * recorded), so tests/test_cuda_libs.py can check what pygpu's plan hands to cuBLAS: transpose
 * flags, leading dimensions, batch strides, compute types. Built as libcublas.so.13 (or .12) and
 * found by pygpu's search in a fake site-packages. mock_cublas_stats() reports what happened.
 * The mock driver runs copies on stream threads: a product first waits for its stream (through the
 * driver's cuStreamSynchronize), then computes, so it sees the data queued before it and work
 * queued after sees its result. With -DMOCK_CUBLAS_OLD the batched entry point is left out (an
 * old release). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long creates, destroys, set_streams, workspaces, gemms, batched_gemms;
    void *last_stream;
    size_t last_workspace_size;
    int transa, transb, m, n, k, lda, ldb, ldc, batch, compute, dtype;
    long long stride_a, stride_b, stride_c;
} MockBlasStats;
static MockBlasStats stats;

MockBlasStats *
mock_cublas_stats(void)
{
    return &stats;
}

typedef struct {
    void *stream;
} Handle;

int
cublasCreate_v2(Handle **h)
{
    *h = calloc(1, sizeof(Handle));
    stats.creates++;
    return 0;
}

int
cublasDestroy_v2(Handle *h)
{
    free(h);
    stats.destroys++;
    return 0;
}

int
cublasSetStream_v2(Handle *h, void *stream)
{
    h->stream = stream;
    stats.set_streams++;
    stats.last_stream = stream;
    return 0;
}

int
cublasSetWorkspace_v2(Handle *h, void *ws, size_t size)
{
    (void)h;
    if (ws == NULL)
        return 7;
    stats.workspaces++;
    stats.last_workspace_size = size;
    return 0;
}

enum { R_32F = 0, R_64F = 1, R_16F = 2, C_32F = 4, C_64F = 5 };

/* element (i, j) of op(X) for a column-major X with leading dimension ld: real and imaginary part */
static void
load(const void *x, int dtype, int op, int ld, int i, int j, double *re, double *im)
{
    long idx = op == 0 ? (long)i + (long)j * ld : (long)j + (long)i * ld;
    *im = 0;
    switch (dtype) {
    case R_32F: *re = ((const float *)x)[idx]; break;
    case R_64F: *re = ((const double *)x)[idx]; break;
    case C_32F: *re = ((const float *)x)[2 * idx]; *im = ((const float *)x)[2 * idx + 1]; break;
    default: *re = ((const double *)x)[2 * idx]; *im = ((const double *)x)[2 * idx + 1]; break;
    }
    if (op == 2)
        *im = -*im;
}

static void
store(void *c, int dtype, long idx, double re, double im)
{
    switch (dtype) {
    case R_32F: ((float *)c)[idx] = (float)re; break;
    case R_64F: ((double *)c)[idx] = re; break;
    case C_32F: ((float *)c)[2 * idx] = (float)re; ((float *)c)[2 * idx + 1] = (float)im; break;
    default: ((double *)c)[2 * idx] = re; ((double *)c)[2 * idx + 1] = im; break;
    }
}

static size_t
elsize(int dtype)
{
    return dtype == R_16F ? 2 : dtype == R_32F ? 4 : dtype == R_64F || dtype == C_32F ? 8 : 16;
}

/* Waits for the work queued on the handle's stream (the caller has a context current). */
static int
wait_stream(Handle *h)
{
    static int (*sync)(void *);
    if (sync == NULL) {
        void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (cuda == NULL || (sync = (int (*)(void *))dlsym(cuda, "cuStreamSynchronize")) == NULL)
            return 14; /* CUBLAS_STATUS_INTERNAL_ERROR */
    }
    return sync(h->stream) == 0 ? 0 : 13; /* CUBLAS_STATUS_EXECUTION_FAILED */
}

static void
product(int ta, int tb, int m, int n, int k, const void *a, int at, int lda, const void *b, int ldb, void *c, int ldc)
{
    if (at == R_16F)
        return;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double sr = 0, si = 0;
            for (int l = 0; l < k; l++) {
                double ar, ai, br, bi;
                load(a, at, ta, lda, i, l, &ar, &ai);
                load(b, at, tb, ldb, l, j, &br, &bi);
                sr += ar * br - ai * bi;
                si += ar * bi + ai * br;
            }
            store(c, at, (long)i + (long)j * ldc, sr, si);
        }
}

static void
record(int ta, int tb, int m, int n, int k, int lda, int ldb, int ldc, int dtype, int compute)
{
    stats.transa = ta;
    stats.transb = tb;
    stats.m = m;
    stats.n = n;
    stats.k = k;
    stats.lda = lda;
    stats.ldb = ldb;
    stats.ldc = ldc;
    stats.dtype = dtype;
    stats.compute = compute;
}

int
cublasGemmEx(Handle *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *a, int at, int lda,
             const void *b, int bt, int ldb, const void *beta, void *c, int ct, int ldc, int compute, int algo)
{
    (void)alpha; (void)beta; (void)algo;
    if (at != bt || at != ct || lda < 1 || ldb < 1 || ldc < (m > 1 ? m : 1))
        return 7;
    if (wait_stream(h) != 0)
        return 13;
    stats.gemms++;
    record(ta, tb, m, n, k, lda, ldb, ldc, at, compute);
    stats.batch = 1;
    stats.stride_a = stats.stride_b = stats.stride_c = 0;
    product(ta, tb, m, n, k, a, at, lda, b, ldb, c, ldc);
    return 0;
}

#ifndef MOCK_CUBLAS_OLD
int
cublasGemmStridedBatchedEx(Handle *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *a, int at,
                           int lda, long long sa, const void *b, int bt, int ldb, long long sb, const void *beta,
                           void *c, int ct, int ldc, long long sc, int batch, int compute, int algo)
{
    (void)alpha; (void)beta; (void)algo;
    if (at != bt || at != ct || lda < 1 || ldb < 1 || ldc < (m > 1 ? m : 1) || batch < 1)
        return 7;
    if (wait_stream(h) != 0)
        return 13;
    stats.batched_gemms++;
    record(ta, tb, m, n, k, lda, ldb, ldc, at, compute);
    stats.batch = batch;
    stats.stride_a = sa;
    stats.stride_b = sb;
    stats.stride_c = sc;
    size_t es = elsize(at);
    for (int i = 0; i < batch; i++)
        product(ta, tb, m, n, k, (const char *)a + i * sa * es, at, lda, (const char *)b + i * sb * es, ldb,
                (char *)c + i * sc * es, ldc);
    return 0;
}
#endif
