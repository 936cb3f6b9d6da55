/* A stand-in for cuSOLVER with the mock driver (libcuda_mock.c): every entry point pygpu takes,
 * recording calls and workspace requests and computing nothing, except that each factorisation
 * writes MOCK_CUSOLVER_INFO (default 0) into its info, so that tests/test_cuda_libs.py can check
 * the loader, the handles and how a failed factorisation becomes numpy.linalg.LinAlgError.
 * mock_cusolver_stats() reports what happened. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long creates, set_streams, params, calls;
    char last_call[64];
} MockSolverStats;
static MockSolverStats stats;

MockSolverStats *
mock_cusolver_stats(void)
{
    return &stats;
}

static int
info_value(void)
{
    const char *s = getenv("MOCK_CUSOLVER_INFO");
    return s && *s ? atoi(s) : 0;
}

static int
called(const char *name, int *info)
{
    stats.calls++;
    strncpy(stats.last_call, name, sizeof stats.last_call - 1);
    if (info)
        *info = info_value(); /* "device" memory is host memory under the mock driver */
    return 0;
}

typedef void *H;
int cusolverDnCreate(H *h) { *h = malloc(1); stats.creates++; return 0; }
int cusolverDnDestroy(H h) { free(h); return 0; }
int cusolverDnSetStream(H h, void *s) { (void)h; (void)s; stats.set_streams++; return 0; }
int cusolverDnCreateParams(H *p) { *p = malloc(1); stats.params++; return 0; }
int cusolverDnDestroyParams(H p) { free(p); return 0; }

/* the generic API's *_bufferSize: the last two arguments receive the device and host bytes */
int cusolverDnXpotrf_bufferSize(H h, H p, int uplo, int64_t n, int t, const void *a, int64_t lda, int ct, size_t *d,
                                size_t *hb)
{
    (void)h; (void)p; (void)uplo; (void)n; (void)t; (void)a; (void)lda; (void)ct;
    *d = 1024;
    *hb = 16;
    return 0;
}
int cusolverDnXpotrf(H h, H p, int uplo, int64_t n, int t, void *a, int64_t lda, int ct, void *d, size_t ds, void *hb,
                     size_t hs, int *info)
{
    (void)h; (void)p; (void)uplo; (void)n; (void)t; (void)a; (void)lda; (void)ct; (void)d; (void)ds; (void)hb; (void)hs;
    return called("potrf", info);
}
int cusolverDnXgetrf_bufferSize(H h, H p, int64_t m, int64_t n, int t, const void *a, int64_t lda, int ct, size_t *d,
                                size_t *hb)
{
    (void)h; (void)p; (void)m; (void)n; (void)t; (void)a; (void)lda; (void)ct;
    *d = 1024;
    *hb = 0;
    return 0;
}
int cusolverDnXgetrf(H h, H p, int64_t m, int64_t n, int t, void *a, int64_t lda, int64_t *ipiv, int ct, void *d,
                     size_t ds, void *hb, size_t hs, int *info)
{
    (void)h; (void)p; (void)t; (void)a; (void)lda; (void)ct; (void)d; (void)ds; (void)hb; (void)hs;
    for (int64_t i = 0; i < (m < n ? m : n); i++)
        ipiv[i] = i + 1;
    return called("getrf", info);
}
int cusolverDnXgetrs(H h, H p, int tr, int64_t n, int64_t nrhs, int t, const void *a, int64_t lda, const int64_t *ipiv,
                     int bt, void *b, int64_t ldb, int *info)
{
    (void)h; (void)p; (void)tr; (void)n; (void)nrhs; (void)t; (void)a; (void)lda; (void)ipiv; (void)bt; (void)b; (void)ldb;
    return called("getrs", info);
}
int cusolverDnXgeqrf_bufferSize(H h, H p, int64_t m, int64_t n, int t, const void *a, int64_t lda, int tt,
                                const void *tau, int ct, size_t *d, size_t *hb)
{
    (void)h; (void)p; (void)m; (void)n; (void)t; (void)a; (void)lda; (void)tt; (void)tau; (void)ct;
    *d = 1024;
    *hb = 0;
    return 0;
}
int cusolverDnXgeqrf(H h, H p, int64_t m, int64_t n, int t, void *a, int64_t lda, int tt, void *tau, int ct, void *d,
                     size_t ds, void *hb, size_t hs, int *info)
{
    (void)h; (void)p; (void)m; (void)n; (void)t; (void)a; (void)lda; (void)tt; (void)tau; (void)ct; (void)d; (void)ds;
    (void)hb; (void)hs;
    return called("geqrf", info);
}
#define ORGQR(name)                                                                                          \
    int name##_bufferSize(H h, int m, int n, int k, const void *a, int lda, const void *tau, int *lwork)     \
    {                                                                                                        \
        (void)h; (void)m; (void)n; (void)k; (void)a; (void)lda; (void)tau;                                   \
        *lwork = 64;                                                                                         \
        return 0;                                                                                            \
    }                                                                                                        \
    int name(H h, int m, int n, int k, void *a, int lda, const void *tau, void *w, int lwork, int *info)     \
    {                                                                                                        \
        (void)h; (void)m; (void)n; (void)k; (void)a; (void)lda; (void)tau; (void)w; (void)lwork;             \
        return called(#name, info);                                                                          \
    }
ORGQR(cusolverDnSorgqr)
ORGQR(cusolverDnDorgqr)
ORGQR(cusolverDnCungqr)
ORGQR(cusolverDnZungqr)
int cusolverDnXgesvd_bufferSize(H h, H p, signed char ju, signed char jv, int64_t m, int64_t n, int t, const void *a,
                                int64_t lda, int st, const void *s, int ut, const void *u, int64_t ldu, int vt,
                                const void *v, int64_t ldv, int ct, size_t *d, size_t *hb)
{
    (void)h; (void)p; (void)ju; (void)jv; (void)m; (void)n; (void)t; (void)a; (void)lda; (void)st; (void)s; (void)ut;
    (void)u; (void)ldu; (void)vt; (void)v; (void)ldv; (void)ct;
    *d = 1024;
    *hb = 32;
    return 0;
}
int cusolverDnXgesvd(H h, H p, signed char ju, signed char jv, int64_t m, int64_t n, int t, void *a, int64_t lda,
                     int st, void *s, int ut, void *u, int64_t ldu, int vt, void *v, int64_t ldv, int ct, void *d,
                     size_t ds, void *hb, size_t hs, int *info)
{
    (void)h; (void)p; (void)ju; (void)jv; (void)m; (void)n; (void)t; (void)a; (void)lda; (void)st; (void)s; (void)ut;
    (void)u; (void)ldu; (void)vt; (void)v; (void)ldv; (void)ct; (void)d; (void)ds; (void)hb; (void)hs;
    return called("gesvd", info);
}
int cusolverDnXsyevd_bufferSize(H h, H p, int jobz, int uplo, int64_t n, int t, const void *a, int64_t lda, int wt,
                                const void *w, int ct, size_t *d, size_t *hb)
{
    (void)h; (void)p; (void)jobz; (void)uplo; (void)n; (void)t; (void)a; (void)lda; (void)wt; (void)w; (void)ct;
    *d = 1024;
    *hb = 0;
    return 0;
}
int cusolverDnXsyevd(H h, H p, int jobz, int uplo, int64_t n, int t, void *a, int64_t lda, int wt, void *w, int ct,
                     void *d, size_t ds, void *hb, size_t hs, int *info)
{
    (void)h; (void)p; (void)jobz; (void)uplo; (void)n; (void)t; (void)a; (void)lda; (void)wt; (void)w; (void)ct; (void)d;
    (void)ds; (void)hb; (void)hs;
    return called("syevd", info);
}
