/* Walking an N-d iteration space in C order with several sets of byte strides at once (an array
 * being indexed, the result, index arrays, a mask, ...), single source for both backends: the
 * kernel families of indexing, sorting and searching locate their elements with these.
 *   - pg_strided_offsets: the offsets of one element from its flat index (a GPU thread's view),
 *     one div/mod chain for all the sets, in 32-bit arithmetic when the space allows;
 *   - PG_STRIDED_FOR: a run of consecutive elements, the offsets stepped like an odometer (a CPU
 *     thread's view: no division per element). */
#ifndef PG_STRIDED_H
#define PG_STRIDED_H
#include "kernel_types.h"

#define PG_MAXSETS 6 /* most stride sets walked together */

/* Inlined even when large: the CPU code specialises a body per dtype by inlining it. */
#ifdef __CUDACC__
#define PG_ALWAYS_INLINE __forceinline__
#else
#define PG_ALWAYS_INLINE static inline __attribute__((always_inline))
#endif

/* off[k] = byte offset of element i in stride set k, for k < ns. */
PG_HOST_DEVICE PG_INLINE void
pg_strided_offsets(int ndim, const int64_t *shape, int ns, const int64_t (*strides)[PG_MAXDIMS], int64_t i,
                   int64_t *off)
{
    if (ndim == 1) { /* the common case, without a division */
        for (int k = 0; k < ns; k++)
            off[k] = i * strides[k][0];
        return;
    }
    for (int k = 0; k < ns; k++)
        off[k] = 0;
    if (i <= 0x7fffffff) {
        uint32_t r = (uint32_t)i;
        for (int d = ndim - 1; d >= 0 && r != 0; d--) {
            uint32_t n = (uint32_t)shape[d];
            uint32_t q = r / n;
            int64_t j = (int64_t)(r - q * n);
            for (int k = 0; k < ns; k++)
                off[k] += j * strides[k][d];
            r = q;
        }
        return;
    }
    for (int d = ndim - 1; d >= 0 && i != 0; d--) {
        int64_t q = i / shape[d];
        int64_t j = i - q * shape[d];
        for (int k = 0; k < ns; k++)
            off[k] += j * strides[k][d];
        i = q;
    }
}

/* Runs BODY for the elements [BEGIN, END) of the C-ordered space (ND, SHAPE), with OFF[k] (an
 * int64_t array the macro declares) the element's byte offset in stride set k < NS and IDX its
 * flat index. */
#define PG_STRIDED_FOR(ND, SHAPE, NS, STRIDES, BEGIN, END, IDX, OFF, BODY)                  \
    do {                                                                                    \
        int64_t c_[PG_MAXDIMS > 0 ? PG_MAXDIMS : 1];                                        \
        int64_t OFF[PG_MAXSETS];                                                            \
        int nd_ = (ND), ns_ = (NS);                                                         \
        int64_t r_ = (BEGIN);                                                               \
        for (int k_ = 0; k_ < ns_; k_++)                                                    \
            OFF[k_] = 0;                                                                    \
        for (int d_ = nd_ - 1; d_ >= 0; d_--) {                                             \
            c_[d_] = r_ % (SHAPE)[d_];                                                      \
            r_ /= (SHAPE)[d_];                                                              \
            for (int k_ = 0; k_ < ns_; k_++)                                                \
                OFF[k_] += c_[d_] * (STRIDES)[k_][d_];                                      \
        }                                                                                   \
        for (int64_t IDX = (BEGIN); IDX < (END); IDX++) {                                   \
            BODY;                                                                           \
            for (int d_ = nd_ - 1; d_ >= 0; d_--) {                                         \
                for (int k_ = 0; k_ < ns_; k_++)                                            \
                    OFF[k_] += (STRIDES)[k_][d_];                                           \
                if (++c_[d_] < (SHAPE)[d_])                                                 \
                    break;                                                                  \
                for (int k_ = 0; k_ < ns_; k_++)                                            \
                    OFF[k_] -= (SHAPE)[d_] * (STRIDES)[k_][d_];                             \
                c_[d_] = 0;                                                                 \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* Marks a flag shared by all threads (an error seen by any of them). */
#ifdef __CUDACC__
#define PG_FLAG_SET(p) (*(volatile int32_t *)(p) = 1)
#else
#define PG_FLAG_SET(p) __atomic_store_n((p), 1, __ATOMIC_RELAXED)
#endif

#ifdef __CUDACC__
#define PG_GRID_FOR(i, n)                                                                    \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);                \
         i += (int64_t)blockDim.x * gridDim.x)
#endif

#endif
