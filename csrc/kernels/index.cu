/* The CUDA instantiation of index.h: gather/scatter kernels over PgIndexArgs (grid-stride, one
 * element per thread) and the three compaction phases, whose chunks are thread blocks that count
 * and place their elements with CUB's block reduce and block scan. */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include "index.h"

#define PG_INDEX_KERNEL(NAME, OP)                                                           \
    extern "C" __global__ void NAME(PgIndexArgs a)                                          \
    {                                                                                       \
        int ns = (OP) == PG_INDEX_MASKED ? PG_SET_IDX + 1 : PG_SET_IDX + a.nidx;            \
        PG_GRID_FOR(i, a.size) {                                                            \
            int64_t off[PG_SET_IDX + PG_MAXINDEX];                                          \
            pg_strided_offsets(a.ndim, a.shape, ns, a.strides, i, off);                     \
            pg_index_element(&a, (OP), off);                                                \
        }                                                                                   \
    }

PG_INDEX_KERNEL(pg_index_gather, PG_INDEX_GATHER)
PG_INDEX_KERNEL(pg_index_scatter, PG_INDEX_SCATTER)
PG_INDEX_KERNEL(pg_index_check, PG_INDEX_CHECK)
PG_INDEX_KERNEL(pg_index_offsets, PG_INDEX_OFFSETS)
PG_INDEX_KERNEL(pg_index_masked, PG_INDEX_MASKED)

/* ------------------------------------------------------------------ compaction */

#define PG_COMPACT_THREADS 256
#define PG_COMPACT_ITEMS 16 /* a chunk is PG_COMPACT_THREADS * PG_COMPACT_ITEMS elements */

/* The flags of a thread's run of elements (bit j: element first + j). */
static __device__ __forceinline__ unsigned
compact_flags(const PgCompactArgs &a, int64_t first)
{
    unsigned bits = 0;
    if (a.ndim == 1 && a.mask_type == PG_BOOL) {
        /* a 1-d bool mask: its bytes, 16 in one load when they are contiguous and aligned */
        const unsigned char *m = (const unsigned char *)a.mask;
        int64_t st = a.strides[0][0];
        if (st == 1 && first + PG_COMPACT_ITEMS <= a.size && ((uintptr_t)(m + first) & 15) == 0) {
            uint4 v = *(const uint4 *)(m + first);
            unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int j = 0; j < PG_COMPACT_ITEMS; j++)
                bits |= (unsigned)(((w[j >> 2] >> (8 * (j & 3))) & 0xffu) != 0) << j;
            return bits;
        }
#pragma unroll
        for (int j = 0; j < PG_COMPACT_ITEMS; j++)
            if (first + j < a.size)
                bits |= (unsigned)(m[(first + j) * st] != 0) << j;
        return bits;
    }
#pragma unroll
    for (int j = 0; j < PG_COMPACT_ITEMS; j++) {
        int64_t i = first + j;
        if (i < a.size) {
            int64_t off[2];
            pg_strided_offsets(a.ndim, a.shape, 1, a.strides, i, off);
            bits |= (unsigned)pg_load_b(a.mask + off[0], a.mask_type) << j;
        }
    }
    return bits;
}

extern "C" __global__ void __launch_bounds__(PG_COMPACT_THREADS) pg_compact_count(PgCompactArgs a)
{
    typedef cub::BlockReduce<int, PG_COMPACT_THREADS> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    int64_t first = (int64_t)blockIdx.x * a.chunk + (int64_t)threadIdx.x * PG_COMPACT_ITEMS;
    int n = __popc(compact_flags(a, first));
    int total = Reduce(tmp).Sum(n);
    if (threadIdx.x == 0)
        a.counts[blockIdx.x] = total;
}

/* One block: counts[0 .. n) become exclusive offsets, counts[n] the total. */
extern "C" __global__ void __launch_bounds__(PG_COMPACT_THREADS) pg_compact_scan(int64_t *counts, int64_t n)
{
    typedef cub::BlockScan<long long, PG_COMPACT_THREADS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    long long carry = 0;
    for (int64_t base = 0; base < n; base += PG_COMPACT_THREADS) {
        int64_t i = base + threadIdx.x;
        long long v = i < n ? counts[i] : 0, excl, sum;
        Scan(tmp).ExclusiveSum(v, excl, sum);
        if (i < n)
            counts[i] = carry + excl;
        carry += sum;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        counts[n] = carry;
}

extern "C" __global__ void __launch_bounds__(PG_COMPACT_THREADS) pg_compact_write(PgCompactArgs a)
{
    typedef cub::BlockScan<int, PG_COMPACT_THREADS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    int64_t first = (int64_t)blockIdx.x * a.chunk + (int64_t)threadIdx.x * PG_COMPACT_ITEMS;
    unsigned bits = compact_flags(a, first);
    int excl;
    Scan(tmp).ExclusiveSum(__popc(bits), excl);
    int64_t pos = a.counts[blockIdx.x] + excl;
    for (int j = 0; j < PG_COMPACT_ITEMS; j++) {
        int64_t i = first + j;
        if (i >= a.size)
            break;
        int flag = (bits >> j) & 1;
        if (a.op == PG_COMPACT_RANK) {
            pos += flag;
            ((int64_t *)a.out)[i] = pos;
        } else if (flag) {
            int64_t off[2];
            pg_strided_offsets(a.ndim, a.shape, 2, a.strides, i, off);
            pg_compact_emit(&a, i, off, pos++);
        }
    }
}
