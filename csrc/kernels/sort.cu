/* The CUDA sort module: CUB's onesweep radix sort of unsigned 32/64-bit keys, with or without
 * int64 values (CUB's histogram and onesweep agents inside kernels of our own, launched by
 * runtime/backend_cuda_sort.c through the driver API as CUB's dispatch would launch them), and
 * the element-wise steps of sort.h around it. Keys are unsigned and already in sort order
 * (sort_keys.h: descending keys are complemented), so every kernel sorts ascending, and there
 * are only four onesweep instantiations. */
#ifdef __CUDACC_RTC__
/* CCCL 12's radix sort agents name std::uint32_t, std::is_same and std::is_pointer, which NVRTC
 * (build_nvrtc.py) has only as libcu++'s cuda::std ones */
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
namespace std {
using ::cuda::std::is_pointer;
using ::cuda::std::is_same;
using ::cuda::std::uint32_t;
}
#endif
#include <cub/agent/agent_radix_sort_histogram.cuh>
#include <cub/agent/agent_radix_sort_onesweep.cuh>
#include <cub/block/block_scan.cuh>
#include "sort.h"

typedef unsigned long long PgOffset; /* global offsets: the digit bins */

/* A fixed tile in place of CUB's register-bound scaling, so the host knows the tile's size. */
template <int THREADS, int ITEMS>
struct PgTile {
    static constexpr int BLOCK_THREADS = THREADS;
    static constexpr int ITEMS_PER_THREAD = ITEMS;
};

template <typename K, typename V, int ITEMS>
static __device__ __forceinline__ void
onesweep(int *lookback, int *ctrs, PgOffset *bins_out, const PgOffset *bins_in, K *keys_out, const K *keys_in,
         V *vals_out, const V *vals_in, int n, int current_bit, int num_bits)
{
    typedef cub::AgentRadixSortOnesweepPolicy<PG_ONESWEEP_THREADS, ITEMS, K, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                              cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT,
                                              PG_RADIX_BITS, PgTile<PG_ONESWEEP_THREADS, ITEMS>>
        Policy;
    typedef cub::detail::radix_sort::AgentRadixSortOnesweep<Policy, false, K, V, PgOffset, int> Agent;
    __shared__ typename Agent::TempStorage storage;
    Agent(storage, lookback, ctrs, bins_out, bins_in, keys_out, keys_in, vals_out, vals_in, n, current_bit, num_bits)
        .Process();
}

#define PG_ONESWEEP_KERNEL(NAME, K, V, ITEMS)                                               \
    extern "C" __global__ void __launch_bounds__(PG_ONESWEEP_THREADS)                       \
        NAME(int *lookback, int *ctrs, PgOffset *bins_out, const PgOffset *bins_in, K *keys_out,  \
             const K *keys_in, void *vals_out, const void *vals_in, int n, int current_bit, int num_bits) \
    {                                                                                        \
        onesweep<K, V, ITEMS>(lookback, ctrs, bins_out, bins_in, keys_out, keys_in, (V *)vals_out,  \
                              (const V *)vals_in, n, current_bit, num_bits);                \
    }

PG_ONESWEEP_KERNEL(pg_onesweep_k32, uint32_t, cub::NullType, PG_ONESWEEP_ITEMS_K32)
PG_ONESWEEP_KERNEL(pg_onesweep_k32_v64, uint32_t, int64_t, PG_ONESWEEP_ITEMS_K32_V64)
PG_ONESWEEP_KERNEL(pg_onesweep_k64, uint64_t, cub::NullType, PG_ONESWEEP_ITEMS_K64)
PG_ONESWEEP_KERNEL(pg_onesweep_k64_v64, uint64_t, int64_t, PG_ONESWEEP_ITEMS_K64_V64)

/* The digit counts of every pass in one read of the keys (bins zeroed beforehand). */
template <typename K>
static __device__ __forceinline__ void
histogram(PgOffset *bins, const K *keys, PgOffset n, int end_bit)
{
    typedef cub::AgentRadixSortHistogramPolicy<PG_RADIX_HISTOGRAM_THREADS, 16, 1, K, PG_RADIX_BITS> Policy;
    typedef cub::detail::radix_sort::AgentRadixSortHistogram<Policy, false, K, PgOffset> Agent;
    __shared__ typename Agent::TempStorage storage;
    Agent(storage, bins, keys, n, 0, end_bit).Process();
}

extern "C" __global__ void __launch_bounds__(PG_RADIX_HISTOGRAM_THREADS)
pg_radix_histogram_k32(PgOffset *bins, const uint32_t *keys, PgOffset n, int end_bit)
{
    histogram<uint32_t>(bins, keys, n, end_bit);
}

extern "C" __global__ void __launch_bounds__(PG_RADIX_HISTOGRAM_THREADS)
pg_radix_histogram_k64(PgOffset *bins, const uint64_t *keys, PgOffset n, int end_bit)
{
    histogram<uint64_t>(bins, keys, n, end_bit);
}

/* Each pass's counts (one block per pass) become the digits' first positions. */
extern "C" __global__ void __launch_bounds__(1 << PG_RADIX_BITS) pg_radix_exclusive_sum(PgOffset *bins)
{
    typedef cub::BlockScan<PgOffset, 1 << PG_RADIX_BITS> Scan;
    __shared__ typename Scan::TempStorage storage;
    PgOffset *b = bins + (size_t)blockIdx.x * (1 << PG_RADIX_BITS);
    PgOffset v = b[threadIdx.x];
    Scan(storage).ExclusiveSum(v, v);
    b[threadIdx.x] = v;
}

extern "C" __global__ void pg_sort_zero(uint32_t *p, int64_t n)
{
    PG_GRID_FOR(i, n) p[i] = 0;
}

#define PG_STEP_KERNEL(NAME, OP)                                                            \
    extern "C" __global__ void NAME(PgSortStep s)                                           \
    {                                                                                       \
        PG_GRID_FOR(i, s.size) pg_sort_step(&s, (OP), i);                                   \
    }

PG_STEP_KERNEL(pg_sort_step_keys, PG_STEP_KEYS)
PG_STEP_KERNEL(pg_sort_step_unkey, PG_STEP_UNKEY)
PG_STEP_KERNEL(pg_sort_step_iota, PG_STEP_IOTA)
PG_STEP_KERNEL(pg_sort_step_segments, PG_STEP_SEGMENTS)
PG_STEP_KERNEL(pg_sort_step_positions, PG_STEP_POSITIONS)
PG_STEP_KERNEL(pg_sort_step_gather, PG_STEP_GATHER)
