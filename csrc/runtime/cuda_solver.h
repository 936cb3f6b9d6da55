/* LAPACK on cuSOLVER for CUDA devices: batches of column-major matrices (`batch` of them, `stride`
 * elements apart, each a leading dimension ld), one cuSOLVER call per matrix, queued on `stream`
 * with the device's handle for that stream. `type` is PG_FLOAT32, PG_FLOAT64, PG_COMPLEX64 or
 * PG_COMPLEX128; real results (singular values, eigenvalues) are of the matching real type.
 * info points to `batch` device ints that receive LAPACK's info of each matrix (> 0: singular,
 * not positive definite, not converged), read by the caller after synchronising. Workspaces come
 * from the device's pool. Each returns 0, or -1 with an exception (cuSOLVER not found, a failed
 * call). The CPU computes these through NumPy's LAPACK (pygpu/linalg.py). */
#ifndef PG_CUDA_SOLVER_H
#define PG_CUDA_SOLVER_H
#include "runtime/backend.h"

typedef struct {
    PgDevice *dev;
    void *stream;
    int type;
    int64_t batch;
    int *info;
} PgSolverCall;

/* Cholesky: the lower (or upper) triangle of each n x n matrix is overwritten by its factor. */
int pg_cusolver_potrf(const PgSolverCall *c, int lower, int64_t n, char *a, int64_t lda, int64_t stride);
/* LU with partial pivoting of each m x n matrix; ipiv: min(m, n) 1-based rows per matrix. */
int pg_cusolver_getrf(const PgSolverCall *c, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride,
                      int64_t *ipiv, int64_t ipiv_stride);
/* op(A) X = B from getrf's factors (trans: PG_TRANS_N/T/C), B (n x nrhs) overwritten by X. */
int pg_cusolver_getrs(const PgSolverCall *c, int trans, int64_t n, int64_t nrhs, const char *a, int64_t lda,
                      int64_t stride_a, const int64_t *ipiv, int64_t ipiv_stride, char *b, int64_t ldb,
                      int64_t stride_b);
/* QR of each m x n matrix: R above the diagonal, Householder reflectors below, tau: min(m, n). */
int pg_cusolver_geqrf(const PgSolverCall *c, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride, char *tau,
                      int64_t tau_stride);
/* The m x n matrix Q of k reflectors left by geqrf in the first k columns (orgqr / ungqr). */
int pg_cusolver_orgqr(const PgSolverCall *c, int64_t m, int64_t n, int64_t k, char *a, int64_t lda, int64_t stride,
                      const char *tau, int64_t tau_stride);
/* SVD of each m x n matrix, m >= n (a is destroyed): s (n), u (m x n, or m x m when full), vt (n x n);
 * u and vt NULL for singular values only. */
int pg_cusolver_gesvd(const PgSolverCall *c, int full, int64_t m, int64_t n, char *a, int64_t lda, int64_t stride,
                      char *s, int64_t s_stride, char *u, int64_t ldu, int64_t u_stride, char *vt, int64_t ldvt,
                      int64_t vt_stride);
/* Eigenvalues (ascending, into w) and, with `vectors`, eigenvectors (over a) of each Hermitian
 * n x n matrix, read from its lower (or upper) triangle. */
int pg_cusolver_syevd(const PgSolverCall *c, int vectors, int lower, int64_t n, char *a, int64_t lda, int64_t stride,
                      char *w, int64_t w_stride);
#endif
