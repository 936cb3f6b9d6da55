/* Elementwise loop templates, single source for both backends.
 *
 * PG_LOOP1/2/3(NAME, S0.., SO, EXPR) define the loop NAME whose inputs are computed as the
 * suffix types S0.. (see convert.h) and whose result, EXPR over x0, x1, x2, is of suffix type SO.
 * Two paths come from each definition:
 *   - contiguous: every array operand is contiguous and stored as its loop type, so elements
 *     are read and written through typed pointers (vectorisable on the CPU, coalesced on the GPU);
 *   - strided: any merged shape and byte strides, each operand converted from its stored type
 *     as it is loaded (so int32 + float64 is one pass with no temporary).
 * An input whose data pointer is NULL is a scalar held in the launch arguments.
 * An expression may also use `i`, the element's position in the loop's iteration order (the
 * flat C index for a freshly allocated C-ordered output), for fills such as arange.
 * Compiled by nvcc, they become the kernels NAME_c(PgContigArgs) and NAME_s(PgLoopArgs); by the C
 * compiler, the function pg_cpu_NAME(args, contiguous, begin, end) that the CPU backend splits
 * over threads (cpu_loops.h instantiates them). */
#ifndef PG_ELEMENTWISE_H
#define PG_ELEMENTWISE_H
#include "convert.h"
#include "pg_math.h" /* scalar functions of the op table (ops.def) */
#include "vmath.h"   /* whole-array CPU versions of some loops */

/* Scalar value s<k> of input k (used only when its data pointer is NULL). */
#define PG_SCALAR_PROLOGUE(S, k, A)                                                         \
    pg_t_##S s##k;                                                                          \
    {                                                                                       \
        uint64_t sb_[2] = {(A).scalar[k][0], (A).scalar[k][1]};                             \
        s##k = pg_load_##S((const char *)sb_, (A).types[k]);                                \
    }
/* Typed pointer p<k> and scalar value s<k> of input k. */
#define PG_PROLOGUE(S, k, A)                                                                \
    const pg_s_##S *p##k = (const pg_s_##S *)(A).data[k];                                   \
    PG_SCALAR_PROLOGUE(S, k, A)
/* input k at element i: contiguous typed read, or strided converting read at byte offset off */
#define PG_CARG(S, k, i) (p##k ? PG_TO_COMPUTE_##S(p##k[i]) : s##k)
#define PG_SARG(S, k, A, off) ((A).data[k] ? pg_load_##S((A).data[k] + (off), (A).types[k]) : s##k)

#ifdef __CUDACC__
/* ---------------------------------------------------------------- CUDA kernels */
#define PG_GRID_LOOP(i, n)                                                                 \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);               \
         i += (int64_t)blockDim.x * gridDim.x)

/* Contiguous loops load PG_ILP elements per thread, a grid's stride apart (each load still
 * coalesced across the warp), before computing and storing any of them: PG_ILP loads per operand
 * in flight per thread instead of one, which the memory latency needs (with one, a + b float32
 * over 7e7 elements ran at 0.79x PyTorch's rate on an H200). The remainder runs one at a time.
 * PG_ILP_START opens the loop state; PG_ILP_FOR(n) is the unrolled part; i0_ is left at the first
 * element the remainder loop takes. Input k's values go through x<k>_[u] (its compute type). */
#define PG_ILP 4
#define PG_UNROLL _Pragma("unroll")
#define PG_ILP_START                                                                       \
    const int64_t step_ = (int64_t)blockDim.x * gridDim.x;                                 \
    int64_t i0_ = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
#define PG_ILP_FOR(n) for (; i0_ + (PG_ILP - 1) * step_ < (n); i0_ += PG_ILP * step_)
#define PG_REST_FOR(i, n) for (int64_t i = i0_; i < (n); i += step_)
#define PG_ILP_DECL(S, k) pg_t_##S x##k##_[PG_ILP];
#define PG_ILP_LOADP(S, k) x##k##_[u_] = PG_TO_COMPUTE_##S(p##k[i0_ + u_ * step_]);
#define PG_ILP_LOAD(S, k) x##k##_[u_] = PG_CARG(S, k, i0_ + u_ * step_);
#define PG_ILP_USE(S, k) pg_t_##S x##k = x##k##_[u_];
#define PG_ILP_EACH for (int u_ = 0; u_ < PG_ILP; u_++)

/* Byte offsets of element i for every operand: one div/mod chain over the merged dimensions for
 * all operands, in 32-bit arithmetic when the loop is small enough (the common case). The
 * outermost index needs no division (i < size makes the quotient its index), so a 1-d strided
 * loop divides nothing and a 2-d one once. Inlined: a call would take the kernel parameters'
 * address and copy them to the stack of every thread. */
static __device__ __forceinline__ void
pg_offsets(const PgLoopArgs &a, int64_t i, int64_t *off)
{
    off[0] = off[1] = off[2] = off[3] = 0;
    if (a.ndim == 0)
        return;
    if (a.size <= 0x7fffffff) {
        uint32_t r = (uint32_t)i;
        for (int d = a.ndim - 1; d > 0; d--) {
            uint32_t n = (uint32_t)a.shape[d];
            uint32_t q = r / n;
            int64_t j = (int64_t)(r - q * n);
#pragma unroll
            for (int k = 0; k < PG_MAXARGS; k++) /* fixed bounds keep off[] in registers */
                off[k] += j * a.strides[k][d];
            r = q;
        }
#pragma unroll
        for (int k = 0; k < PG_MAXARGS; k++)
            off[k] += (int64_t)r * a.strides[k][0];
        return;
    }
    for (int d = a.ndim - 1; d > 0; d--) {
        int64_t n = a.shape[d];
        int64_t q = i / n;
        int64_t j = i - q * n;
#pragma unroll
        for (int k = 0; k < PG_MAXARGS; k++)
            off[k] += j * a.strides[k][d];
        i = q;
    }
#pragma unroll
    for (int k = 0; k < PG_MAXARGS; k++)
        off[k] += i * a.strides[k][0];
}

#define PG_LOOP1(NAME, S0, SO, EXPR)                                                        \
    extern "C" __global__ void NAME##_c(PgContigArgs a)                                      \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        pg_s_##SO *out = (pg_s_##SO *)a.data[1];                                            \
        PG_ILP_START                                                                         \
        PG_ILP_FOR(a.size) {                                                                 \
            PG_ILP_DECL(S0, 0)                                                               \
            PG_UNROLL PG_ILP_EACH { PG_ILP_LOAD(S0, 0) }                                     \
            PG_UNROLL PG_ILP_EACH {                                                          \
                const int64_t i = i0_ + u_ * step_;                                          \
                (void)i;                                                                     \
                PG_ILP_USE(S0, 0)                                                            \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
        }                                                                                    \
        PG_REST_FOR(i, a.size) { pg_t_##S0 x0 = PG_CARG(S0, 0, i); out[i] = PG_TO_STORAGE_##SO(EXPR); } \
    }                                                                                        \
    extern "C" __global__ void NAME##_s(PgLoopArgs a)                                        \
    {                                                                                        \
        PG_SCALAR_PROLOGUE(S0, 0, a)                                                         \
        PG_GRID_LOOP(i, a.size) {                                                            \
            int64_t off[PG_MAXARGS];                                                         \
            pg_offsets(a, i, off);                                                           \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off[0]);                                        \
            pg_store_##SO(a.data[1] + off[1], a.types[1], (EXPR));                           \
        }                                                                                    \
    }

#define PG_LOOP2(NAME, S0, S1, SO, EXPR)                                                    \
    extern "C" __global__ void NAME##_c(PgContigArgs a)                                      \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        pg_s_##SO *out = (pg_s_##SO *)a.data[2];                                            \
        PG_ILP_START                                                                         \
        if (p0 && p1) {                                                                      \
            PG_ILP_FOR(a.size) {                                                             \
                PG_ILP_DECL(S0, 0)                                                           \
                PG_ILP_DECL(S1, 1)                                                           \
                PG_UNROLL PG_ILP_EACH { PG_ILP_LOADP(S0, 0) PG_ILP_LOADP(S1, 1) }            \
                PG_UNROLL PG_ILP_EACH {                                                      \
                    const int64_t i = i0_ + u_ * step_;                                      \
                    (void)i;                                                                 \
                    PG_ILP_USE(S0, 0)                                                        \
                    PG_ILP_USE(S1, 1)                                                        \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            }                                                                                \
            PG_REST_FOR(i, a.size) {                                                         \
                pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                    \
                pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                    \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
        } else {                                                                             \
            PG_ILP_FOR(a.size) {                                                             \
                PG_ILP_DECL(S0, 0)                                                           \
                PG_ILP_DECL(S1, 1)                                                           \
                PG_UNROLL PG_ILP_EACH { PG_ILP_LOAD(S0, 0) PG_ILP_LOAD(S1, 1) }              \
                PG_UNROLL PG_ILP_EACH {                                                      \
                    const int64_t i = i0_ + u_ * step_;                                      \
                    (void)i;                                                                 \
                    PG_ILP_USE(S0, 0)                                                        \
                    PG_ILP_USE(S1, 1)                                                        \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            }                                                                                \
            PG_REST_FOR(i, a.size) {                                                         \
                pg_t_##S0 x0 = PG_CARG(S0, 0, i);                                            \
                pg_t_##S1 x1 = PG_CARG(S1, 1, i);                                            \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    extern "C" __global__ void NAME##_s(PgLoopArgs a)                                        \
    {                                                                                        \
        PG_SCALAR_PROLOGUE(S0, 0, a)                                                         \
        PG_SCALAR_PROLOGUE(S1, 1, a)                                                         \
        PG_GRID_LOOP(i, a.size) {                                                            \
            int64_t off[PG_MAXARGS];                                                         \
            pg_offsets(a, i, off);                                                           \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off[0]);                                        \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, off[1]);                                        \
            pg_store_##SO(a.data[2] + off[2], a.types[2], (EXPR));                           \
        }                                                                                    \
    }

#define PG_LOOP3(NAME, S0, S1, S2, SO, EXPR)                                                \
    extern "C" __global__ void NAME##_c(PgContigArgs a)                                      \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        PG_PROLOGUE(S2, 2, a)                                                                \
        pg_s_##SO *out = (pg_s_##SO *)a.data[3];                                            \
        PG_GRID_LOOP(i, a.size) {                                                            \
            pg_t_##S0 x0 = PG_CARG(S0, 0, i);                                                \
            pg_t_##S1 x1 = PG_CARG(S1, 1, i);                                                \
            pg_t_##S2 x2 = PG_CARG(S2, 2, i);                                                \
            out[i] = PG_TO_STORAGE_##SO(EXPR);                                               \
        }                                                                                    \
    }                                                                                        \
    extern "C" __global__ void NAME##_s(PgLoopArgs a)                                        \
    {                                                                                        \
        PG_SCALAR_PROLOGUE(S0, 0, a)                                                         \
        PG_SCALAR_PROLOGUE(S1, 1, a)                                                         \
        PG_SCALAR_PROLOGUE(S2, 2, a)                                                         \
        PG_GRID_LOOP(i, a.size) {                                                            \
            int64_t off[PG_MAXARGS];                                                         \
            pg_offsets(a, i, off);                                                           \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off[0]);                                        \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, off[1]);                                        \
            pg_t_##S2 x2 = PG_SARG(S2, 2, a, off[2]);                                        \
            pg_store_##SO(a.data[3] + off[3], a.types[3], (EXPR));                           \
        }                                                                                    \
    }

#else
/* ---------------------------------------------------------------- CPU functions */
typedef void (*PgCpuLoop)(const PgLoopArgs *a, int contiguous, int64_t begin, int64_t end);
/* The loops are split over several translation units (cpu_loops.h) and gathered into one table:
 * shared between them, invisible outside the extension. */
#define PG_CPU_LOOP_FN __attribute__((visibility("hidden"))) void
/* a loop's function name: kernels_cpu_bool_{int,real}_avx2.c build some loops again under another */
#ifndef PG_CPU_FN
#define PG_CPU_FN(NAME) pg_cpu_##NAME
#endif

/* The CPU's strided path is buffered (except the in-place case below): each row of the merged iteration space is
 * processed in blocks of PG_CPU_BLOCK elements; every input block is gathered into a typed
 * buffer by a loop specialised for its stored type (the type switch is outside the loop), the
 * expression runs over the buffers (vectorisable), and the result is scattered. */
#define PG_CPU_BLOCK 256

/* a run of elements Z bytes apart (contiguous: vectorised) or any stride */
#define PG_GATHER_CASE(SUF, T, Z)                                                           \
    case T:                                                                                 \
        if (stride == (Z))                                                                  \
            for (int64_t i = 0; i < n; i++)                                                 \
                out[i] = pg_load_##SUF(p + i * (Z), T);                                     \
        else                                                                                \
            for (int64_t i = 0; i < n; i++)                                                 \
                out[i] = pg_load_##SUF(p + i * stride, T);                                  \
        break;
#define PG_SCATTER_CASE(SUF, T, Z)                                                          \
    case T:                                                                                 \
        if (stride == (Z))                                                                  \
            for (int64_t i = 0; i < n; i++)                                                 \
                pg_store_##SUF(p + i * (Z), T, in[i]);                                      \
        else                                                                                \
            for (int64_t i = 0; i < n; i++)                                                 \
                pg_store_##SUF(p + i * stride, T, in[i]);                                   \
        break;
#define PG_ALL_TYPE_CASES(X, SUF)                                                           \
    X(SUF, PG_BOOL, 1) X(SUF, PG_INT8, 1) X(SUF, PG_INT16, 2) X(SUF, PG_INT32, 4)           \
    X(SUF, PG_INT64, 8) X(SUF, PG_UINT8, 1) X(SUF, PG_UINT16, 2) X(SUF, PG_UINT32, 4)       \
    X(SUF, PG_UINT64, 8) X(SUF, PG_FLOAT16, 2) X(SUF, PG_FLOAT32, 4) X(SUF, PG_FLOAT64, 8)  \
    X(SUF, PG_COMPLEX64, 8) default: X(SUF, PG_COMPLEX128, 16)

#define PG_DEFINE_GATHER_SCATTER(SUF)                                                       \
    static inline void pg_gather_##SUF(const char *p, int64_t stride, int type,             \
                                       pg_t_##SUF *out, int64_t n)                          \
    {                                                                                       \
        switch (type) { PG_ALL_TYPE_CASES(PG_GATHER_CASE, SUF) }                            \
    }                                                                                       \
    static inline void pg_scatter_##SUF(char *p, int64_t stride, int type,                  \
                                        const pg_t_##SUF *in, int64_t n)                    \
    {                                                                                       \
        switch (type) { PG_ALL_TYPE_CASES(PG_SCATTER_CASE, SUF) }                           \
    }
PG_DEFINE_GATHER_SCATTER(b)
PG_DEFINE_GATHER_SCATTER(i8)
PG_DEFINE_GATHER_SCATTER(i16)
PG_DEFINE_GATHER_SCATTER(i32)
PG_DEFINE_GATHER_SCATTER(i64)
PG_DEFINE_GATHER_SCATTER(u8)
PG_DEFINE_GATHER_SCATTER(u16)
PG_DEFINE_GATHER_SCATTER(u32)
PG_DEFINE_GATHER_SCATTER(u64)
PG_DEFINE_GATHER_SCATTER(f16)
PG_DEFINE_GATHER_SCATTER(f32)
PG_DEFINE_GATHER_SCATTER(f64)
PG_DEFINE_GATHER_SCATTER(c64)
PG_DEFINE_GATHER_SCATTER(c128)

/* Input k's block of m elements starting at byte offset off: gathered into buf<k>, or the
 * scalar s<k> repeated. */
#define PG_CPU_FETCH(S, k, off, m)                                                          \
    if (a.data[k])                                                                          \
        pg_gather_##S(a.data[k] + (off), rs_[k], a.types[k], b##k, (m));                    \
    else                                                                                    \
        for (int64_t i = 0; i < (m); i++)                                                   \
            b##k[i] = s##k;

/* Walks elements [begin, end) of a strided loop a row segment at a time: ROW sees the start
 * offsets off0..off3, the count cnt_ and the row strides rs_[k]. Outer dimensions carry like an
 * odometer. */
#define PG_CPU_STRIDED_ROWS(a, begin, end, ROW)                                             \
    do {                                                                                    \
        int nd_ = (a)->ndim, na_ = (a)->nargs;                                              \
        int64_t idx_[PG_MAXDIMS];                                                           \
        int64_t off_[PG_MAXARGS] = {0, 0, 0, 0};                                            \
        int64_t rest_ = (begin);                                                            \
        for (int d_ = nd_ - 1; d_ >= 0; d_--) {                                             \
            idx_[d_] = rest_ % (a)->shape[d_];                                              \
            rest_ /= (a)->shape[d_];                                                        \
            for (int k_ = 0; k_ < na_; k_++)                                                \
                off_[k_] += idx_[d_] * (a)->strides[k_][d_];                                \
        }                                                                                   \
        int64_t rs_[PG_MAXARGS] = {0, 0, 0, 0};                                             \
        if (nd_)                                                                            \
            for (int k_ = 0; k_ < na_; k_++)                                                \
                rs_[k_] = (a)->strides[k_][nd_ - 1];                                        \
        int64_t left_ = (end) - (begin);                                                    \
        while (left_ > 0) {                                                                 \
            int64_t cnt_ = nd_ ? (a)->shape[nd_ - 1] - idx_[nd_ - 1] : 1;                   \
            if (cnt_ > left_)                                                               \
                cnt_ = left_;                                                               \
            int64_t off0 = off_[0], off1 = off_[1], off2 = off_[2], off3 = off_[3];         \
            (void)off0; (void)off1; (void)off2; (void)off3;                                 \
            ROW;                                                                            \
            left_ -= cnt_;                                                                  \
            if (left_ <= 0)                                                                 \
                break;                                                                      \
            for (int k_ = 0; k_ < na_; k_++)                                                \
                off_[k_] += cnt_ * rs_[k_];                                                 \
            idx_[nd_ - 1] += cnt_;                                                          \
            for (int d_ = nd_ - 1; d_ > 0 && idx_[d_] >= (a)->shape[d_]; d_--) {            \
                for (int k_ = 0; k_ < na_; k_++)                                            \
                    off_[k_] += (a)->strides[k_][d_ - 1] - (a)->shape[d_] * (a)->strides[k_][d_]; \
                idx_[d_] = 0;                                                               \
                idx_[d_ - 1]++;                                                             \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* The buffered strided path of a loop with NIN inputs: FETCHES gathers the inputs of a block,
 * BLOCK fills bo from b0.. (PG_CPU_BUFFERED: COMPUTE element by element, j_ and i the element's
 * place in the block and in the loop) */
#define PG_CPU_BUFFERED_BLOCKS(NIN, SO, FETCHES, BLOCK)                                     \
    PG_CPU_STRIDED_ROWS(ap, begin, end, {                                                   \
        for (int64_t c_ = 0; c_ < cnt_; c_ += PG_CPU_BLOCK) {                               \
            int64_t m_ = cnt_ - c_ < PG_CPU_BLOCK ? cnt_ - c_ : PG_CPU_BLOCK;               \
            FETCHES;                                                                        \
            BLOCK;                                                                          \
            pg_scatter_##SO(a.data[NIN] + off##NIN + c_ * rs_[NIN], rs_[NIN], a.types[NIN], bo, m_); \
        }                                                                                   \
    })
#define PG_CPU_BUFFERED(NIN, SO, FETCHES, COMPUTE)                                          \
    PG_CPU_BUFFERED_BLOCKS(NIN, SO, FETCHES, for (int64_t j_ = 0; j_ < m_; j_++) {          \
        const int64_t i = (end) - left_ + c_ + j_;                                          \
        (void)i;                                                                            \
        COMPUTE;                                                                            \
    })

/* A loop whose array inputs are all strided (no unit step along the row: a[::2] + b[::2],
 * a[::2] * 2, abs(a[::2])) and whose operands are all stored as the loop's own types reads and
 * writes the elements in place, one pass as NumPy's strided loops do: gathering them into blocks
 * first took 2-2.5x longer (2-core AMD EPYC). Elsewhere the buffered path stays: its gathers of
 * contiguous inputs vectorise, as does a whole-array exp or log over the gathered block. */
#define PG_CPU_STRIDED_IN(A, k, S) ((A).types[k] == PG_TYPE_##S && (A).ndim > 0 &&                 \
                                    (A).strides[k][(A).ndim - 1] != (int64_t)sizeof(pg_s_##S))
#define PG_CPU_ROW_ARG(S, k) ((a).data[k] ? PG_TO_COMPUTE_##S(*(const pg_s_##S *)(a.data[k] + off##k + j_ * rs_[k])) \
                                          : s##k)

/* A unary loop with a whole-array version (vmath.h) calls it on contiguous runs and blocks. */
#define PG_CPU_RUN1_VMATH(NAME, S0, SO, EXPR, src, dst, m) pg_v_##NAME((src), (dst), (m));
#define PG_CPU_RUN1_CONTIG(NAME, S0, SO, EXPR, src, dst, m)                                 \
    for (int64_t i = 0; i < (m); i++) {                                                      \
        pg_t_##S0 x0 = PG_TO_COMPUTE_##S0((src)[i]);                                         \
        (dst)[i] = PG_TO_STORAGE_##SO(EXPR);                                                 \
    }
#define PG_CPU_RUN1_BLOCK(NAME, S0, SO, EXPR, src, dst, m)                                  \
    for (int64_t j_ = 0; j_ < (m); j_++) {                                                   \
        pg_t_##S0 x0 = (src)[j_];                                                            \
        (dst)[j_] = (EXPR);                                                                  \
    }

#define PG_LOOP1(NAME, S0, SO, EXPR)                                                        \
    PG_CPU_LOOP_FN PG_CPU_FN(NAME)(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[1];                                        \
            if (p0) {                                                                        \
                PG_VMATH_CHOOSE(NAME, PG_CPU_RUN1_VMATH, PG_CPU_RUN1_CONTIG)                 \
                (NAME, S0, SO, EXPR, p0 + begin, out + begin, end - begin)                   \
            } else {                                                                         \
                pg_t_##S0 x0 = s0;                                                           \
                pg_s_##SO v = PG_TO_STORAGE_##SO(EXPR);                                      \
                for (int64_t i = begin; i < end; i++)                                        \
                    out[i] = v;                                                              \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        if (!PG_HAS_VMATH(NAME) && a.data[0] && PG_CPU_STRIDED_IN(a, 0, S0) && a.types[1] == PG_TYPE_##SO) { \
            PG_CPU_STRIDED_ROWS(ap, begin, end, {                                            \
                for (int64_t j_ = 0; j_ < cnt_; j_++) {                                      \
                    pg_t_##S0 x0 = PG_CPU_ROW_ARG(S0, 0);                                    \
                    *(pg_s_##SO *)(a.data[1] + off1 + j_ * rs_[1]) = PG_TO_STORAGE_##SO(EXPR); \
                }                                                                            \
            });                                                                              \
            return;                                                                          \
        }                                                                                    \
        pg_t_##S0 b0[PG_CPU_BLOCK];                                                          \
        pg_t_##SO bo[PG_CPU_BLOCK];                                                          \
        PG_CPU_STRIDED_ROWS(ap, begin, end, {                                                \
            for (int64_t c_ = 0; c_ < cnt_; c_ += PG_CPU_BLOCK) {                            \
                int64_t m_ = cnt_ - c_ < PG_CPU_BLOCK ? cnt_ - c_ : PG_CPU_BLOCK;            \
                PG_CPU_FETCH(S0, 0, off0 + c_ * rs_[0], m_)                                  \
                PG_VMATH_CHOOSE(NAME, PG_CPU_RUN1_VMATH, PG_CPU_RUN1_BLOCK)                  \
                (NAME, S0, SO, EXPR, b0, bo, m_)                                             \
                pg_scatter_##SO(a.data[1] + off1 + c_ * rs_[1], rs_[1], a.types[1], bo, m_); \
            }                                                                                \
        });                                                                                  \
    }

/* A binary loop over contiguous operands, one of which may be a scalar */
#define PG_CPU_RUN2_CONTIG(NAME, S0, S1, SO, EXPR)                                           \
    if (p0 && p1) {                                                                          \
        for (int64_t i = begin; i < end; i++) {                                              \
            pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                        \
            pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                        \
            out[i] = PG_TO_STORAGE_##SO(EXPR);                                               \
        }                                                                                    \
    } else if (p0) {                                                                         \
        pg_t_##S1 x1 = s1;                                                                   \
        for (int64_t i = begin; i < end; i++) {                                              \
            pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                        \
            out[i] = PG_TO_STORAGE_##SO(EXPR);                                               \
        }                                                                                    \
    } else if (p1) {                                                                         \
        pg_t_##S0 x0 = s0;                                                                   \
        for (int64_t i = begin; i < end; i++) {                                              \
            pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                        \
            out[i] = PG_TO_STORAGE_##SO(EXPR);                                               \
        }                                                                                    \
    } else {                                                                                 \
        pg_t_##S0 x0 = s0;                                                                   \
        pg_t_##S1 x1 = s1;                                                                   \
        pg_s_##SO v = PG_TO_STORAGE_##SO(EXPR);                                              \
        for (int64_t i = begin; i < end; i++)                                                \
            out[i] = v;                                                                      \
    }

/* A binary loop with a whole-array version calls it on contiguous runs (a scalar operand
 * repeated in a block) and on the buffered path's blocks. */
#define PG_CPU_RUN2_VMATH(NAME, S0, S1, SO, EXPR)                                            \
    if (p0 && p1) {                                                                          \
        pg_v_##NAME(p0 + begin, p1 + begin, out + begin, end - begin);                       \
    } else {                                                                                 \
        pg_s_##S0 c0[PG_CPU_BLOCK];                                                          \
        pg_s_##S1 c1[PG_CPU_BLOCK];                                                          \
        for (int k_ = 0; k_ < PG_CPU_BLOCK; k_++) {                                          \
            c0[k_] = p0 ? 0 : s0;                                                            \
            c1[k_] = p1 ? 0 : s1;                                                            \
        }                                                                                    \
        for (int64_t i = begin; i < end; i += PG_CPU_BLOCK) {                                \
            int64_t m_ = end - i < PG_CPU_BLOCK ? end - i : PG_CPU_BLOCK;                    \
            pg_v_##NAME(p0 ? p0 + i : c0, p1 ? p1 + i : c1, out + i, m_);                    \
        }                                                                                    \
    }
#define PG_CPU_BLOCK2_VMATH(NAME, S0, S1, SO, EXPR)                                          \
    PG_CPU_BUFFERED_BLOCKS(2, SO,                                                            \
                           PG_CPU_FETCH(S0, 0, off0 + c_ * rs_[0], m_)                       \
                           PG_CPU_FETCH(S1, 1, off1 + c_ * rs_[1], m_),                      \
                           pg_v_##NAME(b0, b1, bo, m_))
#define PG_CPU_BLOCK2_EACH(NAME, S0, S1, SO, EXPR)                                           \
    PG_CPU_BUFFERED(2, SO,                                                                   \
                    PG_CPU_FETCH(S0, 0, off0 + c_ * rs_[0], m_)                              \
                    PG_CPU_FETCH(S1, 1, off1 + c_ * rs_[1], m_),                             \
                    pg_t_##S0 x0 = b0[j_]; pg_t_##S1 x1 = b1[j_]; bo[j_] = (EXPR))

#define PG_LOOP2(NAME, S0, S1, SO, EXPR)                                                    \
    PG_CPU_LOOP_FN PG_CPU_FN(NAME)(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[2];                                        \
            PG_VMATH_CHOOSE(NAME, PG_CPU_RUN2_VMATH, PG_CPU_RUN2_CONTIG)(NAME, S0, S1, SO, EXPR) \
            return;                                                                          \
        }                                                                                    \
        if (!PG_HAS_VMATH(NAME) && (a.data[0] || a.data[1]) &&                               \
            (!a.data[0] || PG_CPU_STRIDED_IN(a, 0, S0)) &&                                   \
            (!a.data[1] || PG_CPU_STRIDED_IN(a, 1, S1)) && a.types[2] == PG_TYPE_##SO) {     \
            PG_CPU_STRIDED_ROWS(ap, begin, end, {                                            \
                for (int64_t j_ = 0; j_ < cnt_; j_++) {                                      \
                    pg_t_##S0 x0 = PG_CPU_ROW_ARG(S0, 0);                                    \
                    pg_t_##S1 x1 = PG_CPU_ROW_ARG(S1, 1);                                    \
                    *(pg_s_##SO *)(a.data[2] + off2 + j_ * rs_[2]) = PG_TO_STORAGE_##SO(EXPR); \
                }                                                                            \
            });                                                                              \
            return;                                                                          \
        }                                                                                    \
        pg_t_##S0 b0[PG_CPU_BLOCK];                                                          \
        pg_t_##S1 b1[PG_CPU_BLOCK];                                                          \
        pg_t_##SO bo[PG_CPU_BLOCK];                                                          \
        PG_VMATH_CHOOSE(NAME, PG_CPU_BLOCK2_VMATH, PG_CPU_BLOCK2_EACH)(NAME, S0, S1, SO, EXPR); \
    }

#define PG_LOOP3(NAME, S0, S1, S2, SO, EXPR)                                                \
    PG_CPU_LOOP_FN PG_CPU_FN(NAME)(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        PG_PROLOGUE(S2, 2, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[3];                                        \
            /* clip(x, lo, hi) with scalar bounds: the bounds repeated in blocks, so that the   \
             * loop is the all-arrays one, which gcc vectorises (with the scalars themselves it  \
             * left the float clip's loop scalar: 3.8x NumPy's time) */                        \
            if (p0 && !p1 && !p2) {                                                          \
                pg_t_##S1 c1[PG_CPU_BLOCK];                                                  \
                pg_t_##S2 c2[PG_CPU_BLOCK];                                                  \
                for (int k_ = 0; k_ < PG_CPU_BLOCK; k_++) {                                  \
                    c1[k_] = s1;                                                             \
                    c2[k_] = s2;                                                             \
                }                                                                            \
                for (int64_t i0 = begin; i0 < end; i0 += PG_CPU_BLOCK) {                     \
                    const int64_t m_ = end - i0 < PG_CPU_BLOCK ? end - i0 : PG_CPU_BLOCK;    \
                    const pg_s_##S0 *q0 = p0 + i0;                                           \
                    pg_s_##SO *o_ = out + i0;                                                \
                    for (int64_t j = 0; j < m_; j++) {                                       \
                        const int64_t i = i0 + j; /* the element's index (arange's EXPR) */   \
                        (void)i;                                                             \
                        pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(q0[j]);                            \
                        pg_t_##S1 x1 = c1[j];                                                \
                        pg_t_##S2 x2 = c2[j];                                                \
                        o_[j] = PG_TO_STORAGE_##SO(EXPR);                                    \
                    }                                                                        \
                }                                                                            \
            } else if (p0 && p1 && p2) {                                                     \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                \
                    pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                \
                    pg_t_##S2 x2 = PG_TO_COMPUTE_##S2(p2[i]);                                \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            } else {                                                                         \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S0 x0 = PG_CARG(S0, 0, i);                                        \
                    pg_t_##S1 x1 = PG_CARG(S1, 1, i);                                        \
                    pg_t_##S2 x2 = PG_CARG(S2, 2, i);                                        \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        pg_t_##S0 b0[PG_CPU_BLOCK];                                                          \
        pg_t_##S1 b1[PG_CPU_BLOCK];                                                          \
        pg_t_##S2 b2[PG_CPU_BLOCK];                                                          \
        pg_t_##SO bo[PG_CPU_BLOCK];                                                          \
        PG_CPU_BUFFERED(3, SO,                                                               \
                        PG_CPU_FETCH(S0, 0, off0 + c_ * rs_[0], m_)                          \
                        PG_CPU_FETCH(S1, 1, off1 + c_ * rs_[1], m_)                          \
                        PG_CPU_FETCH(S2, 2, off2 + c_ * rs_[2], m_),                         \
                        pg_t_##S0 x0 = b0[j_]; pg_t_##S1 x1 = b1[j_]; pg_t_##S2 x2 = b2[j_];\
                        bo[j_] = (EXPR));                                                     \
    }
#endif

#endif
