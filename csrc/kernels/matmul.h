/* Integer and boolean matrix products (PgGemmArgs of kernel_types.h), single source for both
 * backends, with NumPy's exact results: integer sums of products wrap around in the result type
 * as NumPy's integer matmul loops do, and a boolean product is the OR of ANDs. Float and complex
 * products go to BLAS instead.
 *
 * Products accumulate in unsigned arithmetic of at least the operands' width: two's complement
 * multiplication and addition modulo 2^w do not depend on signedness, and the low bits of a wider
 * sum are the wrapped sum in the narrower type, so one loop per element width serves the signed
 * and unsigned types alike (5 instantiations: bool and widths 1, 2, 4, 8). Each call computes one
 * element of C; kernels.cu runs them one per thread, the CPU backend over its worker threads. */
#ifndef PG_MATMUL_H
#define PG_MATMUL_H
#include "kernel_types.h"

/* The dot product behind C[b](i, j): op(A) row i times op(B) column j, into acc. */
#define PG_GEMM_INT_DOT(T, ACC, g, b, i, j, acc)                                                     \
    do {                                                                                             \
        const T *a_ = (const T *)(g)->a + (b) * (g)->stride_a;                                       \
        const T *b_ = (const T *)(g)->b + (b) * (g)->stride_b;                                       \
        /* element (i, l) of op(A) is a_[oa_ + l * sa_], (l, j) of op(B) is b_[ob_ + l * sb_] */     \
        int64_t sa_ = (g)->transa == PG_TRANS_N ? (g)->lda : 1;                                       \
        int64_t oa_ = (g)->transa == PG_TRANS_N ? (i) : (i) * (g)->lda;                               \
        int64_t sb_ = (g)->transb == PG_TRANS_N ? 1 : (g)->ldb;                                       \
        int64_t ob_ = (g)->transb == PG_TRANS_N ? (j) * (g)->ldb : (j);                               \
        ACC s_ = 0;                                                                                  \
        for (int64_t l_ = 0; l_ < (g)->k; l_++)                                                      \
            s_ += (ACC)a_[oa_ + l_ * sa_] * (ACC)b_[ob_ + l_ * sb_];                                 \
        acc = s_;                                                                                    \
    } while (0)

/* Element `idx` of the batched product, counted with i fastest (C is column-major). */
PG_HOST_DEVICE PG_INLINE void
pg_gemm_int_element(const PgGemmArgs *g, int64_t idx)
{
    int64_t i = idx % g->m, rest = idx / g->m;
    int64_t j = rest % g->n, b = rest / g->n;
    int64_t at = b * g->stride_c + i + j * g->ldc; /* C's element, in elements */
    switch (g->type) {
    case PG_BOOL: {
        uint64_t s; /* how many ANDs are true: never wraps to 0 */
        PG_GEMM_INT_DOT(uint8_t, uint64_t, g, b, i, j, s);
        ((uint8_t *)g->c)[at] = s != 0;
        break;
    }
    case PG_INT8:
    case PG_UINT8: {
        uint32_t s;
        PG_GEMM_INT_DOT(uint8_t, uint32_t, g, b, i, j, s);
        ((uint8_t *)g->c)[at] = (uint8_t)s;
        break;
    }
    case PG_INT16:
    case PG_UINT16: {
        uint32_t s;
        PG_GEMM_INT_DOT(uint16_t, uint32_t, g, b, i, j, s);
        ((uint16_t *)g->c)[at] = (uint16_t)s;
        break;
    }
    case PG_INT32:
    case PG_UINT32: {
        uint32_t s;
        PG_GEMM_INT_DOT(uint32_t, uint32_t, g, b, i, j, s);
        ((uint32_t *)g->c)[at] = s;
        break;
    }
    default: {
        uint64_t s;
        PG_GEMM_INT_DOT(uint64_t, uint64_t, g, b, i, j, s);
        ((uint64_t *)g->c)[at] = s;
        break;
    }
    }
}

#ifdef __CUDACC__
extern "C" __global__ void
pg_gemm_int(PgGemmArgs g)
{
    int64_t total = g.m * g.n * g.batch;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)blockDim.x * gridDim.x)
        pg_gemm_int_element(&g, idx);
}
#endif
#endif
