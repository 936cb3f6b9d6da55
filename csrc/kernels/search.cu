/* The CUDA instantiation of search.h: one thread per searched value or counted element; bins
 * are counted with global atomics, the minimum and maximum with a block reduction and one
 * atomic per block. */
#include <cub/block/block_reduce.cuh>
#include "search.h"

extern "C" __global__ void pg_searchsorted(PgSearchArgs s)
{
    PG_GRID_FOR(i, s.size) {
        int64_t off[1];
        pg_strided_offsets(s.ndim, s.shape, 1, s.strides, i, off);
        pg_search_one(&s, i, off[0]);
    }
}

extern "C" __global__ void pg_hist_count(PgHistArgs h)
{
    PG_GRID_FOR(i, h.size) {
        int64_t off[2];
        pg_strided_offsets(h.ndim, h.shape, 2, h.strides, i, off);
        pg_hist_one(&h, off);
    }
}

#define PG_MINMAX_THREADS 256

struct PgMin {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a < b ? a : b; }
};
struct PgMax {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a > b ? a : b; }
};

/* out[0] and out[1] start as ~0 and 0 (the host sets them). */
extern "C" __global__ void __launch_bounds__(PG_MINMAX_THREADS) pg_hist_minmax(PgHistArgs h)
{
    typedef cub::BlockReduce<unsigned long long, PG_MINMAX_THREADS> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    unsigned long long lo = ~0ull, hi = 0;
    PG_GRID_FOR(i, h.size) {
        int64_t off[1];
        pg_strided_offsets(h.ndim, h.shape, 1, h.strides, i, off);
        unsigned long long k = pg_sort_key(h.x + off[0], h.type, 0);
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    lo = Reduce(tmp).Reduce(lo, PgMin());
    __syncthreads();
    hi = Reduce(tmp).Reduce(hi, PgMax());
    if (threadIdx.x == 0) {
        atomicMin((unsigned long long *)h.out, lo);
        atomicMax((unsigned long long *)h.out + 1, hi);
    }
}
