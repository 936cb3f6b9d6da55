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
 * Compiled by nvcc, they become the kernels NAME_c(PgContigArgs) and NAME_s(PgLoopArgs); by the C
 * compiler, the function pg_cpu_NAME(args, contiguous, begin, end) that the CPU backend splits
 * over threads. */
#ifndef PG_ELEMENTWISE_H
#define PG_ELEMENTWISE_H
#include "convert.h"
#include "pg_math.h" /* scalar functions of the op table (ops.def) */

/* Typed pointer p<k> and scalar value s<k> of input k (s<k> is used only when p<k> is NULL). */
#define PG_PROLOGUE(S, k, A)                                                                \
    const pg_s_##S *p##k = (const pg_s_##S *)(A).data[k];                                   \
    pg_t_##S s##k;                                                                          \
    {                                                                                       \
        uint64_t sb_[2] = {(A).scalar[k][0], (A).scalar[k][1]};                             \
        s##k = pg_load_##S((const char *)sb_, (A).types[k]);                                \
    }
/* input k at element i: contiguous typed read, or strided converting read at byte offset off */
#define PG_CARG(S, k, i) (p##k ? PG_TO_COMPUTE_##S(p##k[i]) : s##k)
#define PG_SARG(S, k, A, off) ((A).data[k] ? pg_load_##S((A).data[k] + (off), (A).types[k]) : s##k)

#ifdef __CUDACC__
/* ---------------------------------------------------------------- CUDA kernels */
#define PG_GRID_LOOP(i, n)                                                                 \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);               \
         i += (int64_t)blockDim.x * gridDim.x)

/* byte offset of element i for operand k */
__device__ PG_INLINE int64_t
pg_offset(const PgLoopArgs &a, int k, int64_t i)
{
    int64_t off = 0;
    for (int d = a.ndim - 1; d >= 0; d--) {
        int64_t n = a.shape[d];
        int64_t q = i / n;
        off += (i - q * n) * a.strides[k][d];
        i = q;
    }
    return off;
}

#define PG_LOOP1(NAME, S0, SO, EXPR)                                                        \
    extern "C" __global__ void NAME##_c(PgContigArgs a)                                      \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        pg_s_##SO *out = (pg_s_##SO *)a.data[1];                                            \
        PG_GRID_LOOP(i, a.size) { pg_t_##S0 x0 = PG_CARG(S0, 0, i); out[i] = PG_TO_STORAGE_##SO(EXPR); } \
    }                                                                                        \
    extern "C" __global__ void NAME##_s(PgLoopArgs a)                                        \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_GRID_LOOP(i, a.size) {                                                            \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, pg_offset(a, 0, i));                            \
            pg_store_##SO(a.data[1] + pg_offset(a, 1, i), a.types[1], (EXPR));               \
        }                                                                                    \
    }

#define PG_LOOP2(NAME, S0, S1, SO, EXPR)                                                    \
    extern "C" __global__ void NAME##_c(PgContigArgs a)                                      \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        pg_s_##SO *out = (pg_s_##SO *)a.data[2];                                            \
        if (p0 && p1) {                                                                      \
            PG_GRID_LOOP(i, a.size) {                                                        \
                pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                    \
                pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                    \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
        } else {                                                                             \
            PG_GRID_LOOP(i, a.size) {                                                        \
                pg_t_##S0 x0 = PG_CARG(S0, 0, i);                                            \
                pg_t_##S1 x1 = PG_CARG(S1, 1, i);                                            \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
        }                                                                                    \
    }                                                                                        \
    extern "C" __global__ void NAME##_s(PgLoopArgs a)                                        \
    {                                                                                        \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        PG_GRID_LOOP(i, a.size) {                                                            \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, pg_offset(a, 0, i));                            \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, pg_offset(a, 1, i));                            \
            pg_store_##SO(a.data[2] + pg_offset(a, 2, i), a.types[2], (EXPR));               \
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
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        PG_PROLOGUE(S2, 2, a)                                                                \
        PG_GRID_LOOP(i, a.size) {                                                            \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, pg_offset(a, 0, i));                            \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, pg_offset(a, 1, i));                            \
            pg_t_##S2 x2 = PG_SARG(S2, 2, a, pg_offset(a, 2, i));                            \
            pg_store_##SO(a.data[3] + pg_offset(a, 3, i), a.types[3], (EXPR));               \
        }                                                                                    \
    }

#else
/* ---------------------------------------------------------------- CPU functions */
typedef void (*PgCpuLoop)(const PgLoopArgs *a, int contiguous, int64_t begin, int64_t end);

/* Walks elements [begin, end) of a strided loop; BODY reads byte offsets off0..off3. The inner
 * dimension advances by pointer increments; the outer ones carry like an odometer. */
#define PG_CPU_STRIDED_WALK(a, begin, end, BODY)                                            \
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
        int64_t is_[PG_MAXARGS] = {0, 0, 0, 0};                                             \
        if (nd_)                                                                            \
            for (int k_ = 0; k_ < na_; k_++)                                                \
                is_[k_] = (a)->strides[k_][nd_ - 1];                                        \
        int64_t left_ = (end) - (begin);                                                    \
        while (left_ > 0) {                                                                 \
            int64_t cnt_ = nd_ ? (a)->shape[nd_ - 1] - idx_[nd_ - 1] : 1;                   \
            if (cnt_ > left_)                                                               \
                cnt_ = left_;                                                               \
            int64_t off0 = off_[0], off1 = off_[1], off2 = off_[2], off3 = off_[3];         \
            for (int64_t j_ = 0; j_ < cnt_; j_++) {                                         \
                BODY;                                                                       \
                off0 += is_[0]; off1 += is_[1]; off2 += is_[2]; off3 += is_[3];             \
            }                                                                               \
            left_ -= cnt_;                                                                  \
            if (left_ <= 0)                                                                 \
                break;                                                                      \
            for (int k_ = 0; k_ < na_; k_++)                                                \
                off_[k_] += cnt_ * is_[k_];                                                 \
            idx_[nd_ - 1] += cnt_;                                                          \
            for (int d_ = nd_ - 1; d_ > 0 && idx_[d_] >= (a)->shape[d_]; d_--) {            \
                for (int k_ = 0; k_ < na_; k_++)                                            \
                    off_[k_] += (a)->strides[k_][d_ - 1] - (a)->shape[d_] * (a)->strides[k_][d_]; \
                idx_[d_] = 0;                                                               \
                idx_[d_ - 1]++;                                                             \
            }                                                                               \
        }                                                                                   \
    } while (0)

#define PG_LOOP1(NAME, S0, SO, EXPR)                                                        \
    static void pg_cpu_##NAME(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[1];                                        \
            if (p0) {                                                                        \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            } else {                                                                         \
                pg_t_##S0 x0 = s0;                                                           \
                pg_s_##SO v = PG_TO_STORAGE_##SO(EXPR);                                      \
                for (int64_t i = begin; i < end; i++)                                        \
                    out[i] = v;                                                              \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        PG_CPU_STRIDED_WALK(ap, begin, end, {                                                \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off0);                                          \
            pg_store_##SO(a.data[1] + off1, a.types[1], (EXPR));                             \
        });                                                                                  \
    }

#define PG_LOOP2(NAME, S0, S1, SO, EXPR)                                                    \
    static void pg_cpu_##NAME(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[2];                                        \
            if (p0 && p1) {                                                                  \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                \
                    pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            } else if (p0) {                                                                 \
                pg_t_##S1 x1 = s1;                                                           \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S0 x0 = PG_TO_COMPUTE_##S0(p0[i]);                                \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            } else if (p1) {                                                                 \
                pg_t_##S0 x0 = s0;                                                           \
                for (int64_t i = begin; i < end; i++) {                                      \
                    pg_t_##S1 x1 = PG_TO_COMPUTE_##S1(p1[i]);                                \
                    out[i] = PG_TO_STORAGE_##SO(EXPR);                                       \
                }                                                                            \
            } else {                                                                         \
                pg_t_##S0 x0 = s0;                                                           \
                pg_t_##S1 x1 = s1;                                                           \
                pg_s_##SO v = PG_TO_STORAGE_##SO(EXPR);                                      \
                for (int64_t i = begin; i < end; i++)                                        \
                    out[i] = v;                                                              \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        PG_CPU_STRIDED_WALK(ap, begin, end, {                                                \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off0);                                          \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, off1);                                          \
            pg_store_##SO(a.data[2] + off2, a.types[2], (EXPR));                             \
        });                                                                                  \
    }

#define PG_LOOP3(NAME, S0, S1, S2, SO, EXPR)                                                \
    static void pg_cpu_##NAME(const PgLoopArgs *ap, int contiguous, int64_t begin, int64_t end) \
    {                                                                                        \
        const PgLoopArgs a = *ap;                                                            \
        PG_PROLOGUE(S0, 0, a)                                                                \
        PG_PROLOGUE(S1, 1, a)                                                                \
        PG_PROLOGUE(S2, 2, a)                                                                \
        if (contiguous) {                                                                    \
            pg_s_##SO *out = (pg_s_##SO *)a.data[3];                                        \
            for (int64_t i = begin; i < end; i++) {                                          \
                pg_t_##S0 x0 = PG_CARG(S0, 0, i);                                            \
                pg_t_##S1 x1 = PG_CARG(S1, 1, i);                                            \
                pg_t_##S2 x2 = PG_CARG(S2, 2, i);                                            \
                out[i] = PG_TO_STORAGE_##SO(EXPR);                                           \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        PG_CPU_STRIDED_WALK(ap, begin, end, {                                                \
            pg_t_##S0 x0 = PG_SARG(S0, 0, a, off0);                                          \
            pg_t_##S1 x1 = PG_SARG(S1, 1, a, off1);                                          \
            pg_t_##S2 x2 = PG_SARG(S2, 2, a, off2);                                          \
            pg_store_##SO(a.data[3] + off3, a.types[3], (EXPR));                             \
        });                                                                                  \
    }
#endif

#endif
