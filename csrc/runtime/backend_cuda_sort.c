/* The CUDA backend's sort: runtime/sort_radix.c over the "sort" module (kernels/sort.cu). The
 * radix sort is CUB's onesweep, launched here as CUB's DeviceRadixSort dispatch launches it:
 * one histogram of every pass's digits, their exclusive sums, then per pass (and per portion of
 * at most 2^28 keys) one onesweep kernel whose blocks take their tiles in order and chain their
 * digit offsets through a decoupled look-back. Keys and values alternate between two buffers. */
#include "runtime/cuda_backend.h"
#include "runtime/memory.h"
#include "runtime/sort_radix.h"

#define PG_STEP_THREADS 256
#define RADIX_DIGITS (1 << PG_RADIX_BITS)

static const char *const step_kernels[PG_STEP_NOPS] = {
    "pg_sort_step_keys",     "pg_sort_step_unkey",     "pg_sort_step_iota",
    "pg_sort_step_segments", "pg_sort_step_positions", "pg_sort_step_gather",
};

static int
launch(PgDevice *dev, const char *name, int64_t blocks, int threads, void **params, void *stream)
{
    return pg_cuda_launch(dev, "sort", name, blocks, threads, params, stream);
}

static int64_t
grid_for(PgDevice *dev, int64_t n, int threads)
{
    int64_t blocks = (n + threads - 1) / threads;
    int64_t cap = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 32;
    return blocks > cap ? cap : blocks < 1 ? 1 : blocks;
}

/* Zeroes n 32-bit words. */
static int
zero(PgDevice *dev, void *p, int64_t n, void *stream)
{
    void *params[2] = {&p, &n};
    return launch(dev, "pg_sort_zero", grid_for(dev, n, PG_STEP_THREADS), PG_STEP_THREADS, params, stream);
}

static int
cuda_step(PgDevice *dev, int op, const PgSortStep *s, void *stream)
{
    void *params[1] = {(void *)s};
    return launch(dev, step_kernels[op], grid_for(dev, s->size, PG_STEP_THREADS), PG_STEP_THREADS, params, stream);
}

static int
cuda_radix(PgDevice *dev, void *keys[2], int64_t *vals[2], int64_t n, int kbytes, int bits, int *sel, void *stream)
{
    if (n <= 1 || bits == 0)
        return 0;
    int pairs = vals[0] != NULL;
    int items = kbytes == 4 ? (pairs ? PG_ONESWEEP_ITEMS_K32_V64 : PG_ONESWEEP_ITEMS_K32)
                            : (pairs ? PG_ONESWEEP_ITEMS_K64_V64 : PG_ONESWEEP_ITEMS_K64);
    const char *onesweep = kbytes == 4 ? (pairs ? "pg_onesweep_k32_v64" : "pg_onesweep_k32")
                                       : (pairs ? "pg_onesweep_k64_v64" : "pg_onesweep_k64");
    int64_t tile = (int64_t)PG_ONESWEEP_THREADS * items;
    /* portions bound the look-back's counters, as in CUB */
    int64_t portion = ((1 << 28) - 1) / tile * tile;
    int64_t nportions = (n + portion - 1) / portion;
    int64_t max_blocks = ((n < portion ? n : portion) + tile - 1) / tile;
    int npasses = (bits + PG_RADIX_BITS - 1) / PG_RADIX_BITS;
    size_t bins_bytes = (size_t)(nportions * npasses * RADIX_DIGITS) * sizeof(uint64_t);
    size_t lookback_bytes = (size_t)(max_blocks * RADIX_DIGITS) * sizeof(int32_t);
    size_t ctrs_bytes = (size_t)(nportions * npasses) * sizeof(int32_t);
    PgBlock *tmp = pg_pool_alloc(dev, bins_bytes + lookback_bytes + ctrs_bytes, PG_MEM_DEVICE, stream);
    if (tmp == NULL)
        return -1;
    int rc = -1;
    uint64_t *bins = tmp->ptr;
    int32_t *lookback = (int32_t *)((char *)tmp->ptr + bins_bytes);
    int32_t *ctrs = (int32_t *)((char *)lookback + lookback_bytes);
    if (zero(dev, ctrs, (int64_t)(ctrs_bytes / 4), stream) < 0 ||
        zero(dev, bins, (int64_t)npasses * RADIX_DIGITS * 2, stream) < 0)
        goto done;
    {
        unsigned long long un = (unsigned long long)n;
        void *kin = keys[*sel];
        void *params[4] = {&bins, &kin, &un, &bits};
        int64_t hist_blocks = (int64_t)PG_CUDA_IMPL(dev)->sm_count * 8;
        if (launch(dev, kbytes == 4 ? "pg_radix_histogram_k32" : "pg_radix_histogram_k64", hist_blocks,
                   PG_RADIX_HISTOGRAM_THREADS, params, stream) < 0)
            goto done;
        void *sum_params[1] = {&bins};
        if (launch(dev, "pg_radix_exclusive_sum", npasses, RADIX_DIGITS, sum_params, stream) < 0)
            goto done;
    }
    for (int pass = 0; pass < npasses; pass++) {
        int current_bit = pass * PG_RADIX_BITS;
        int num_bits = bits - current_bit < PG_RADIX_BITS ? bits - current_bit : PG_RADIX_BITS;
        int s = *sel;
        for (int64_t p = 0; p < nportions; p++) {
            int64_t count = n - p * portion < portion ? n - p * portion : portion;
            int64_t blocks = (count + tile - 1) / tile;
            if (zero(dev, lookback, blocks * RADIX_DIGITS, stream) < 0)
                goto done;
            int32_t *ctr = ctrs + p * npasses + pass;
            uint64_t *bins_out = p < nportions - 1 ? bins + ((p + 1) * npasses + pass) * RADIX_DIGITS : NULL;
            uint64_t *bins_in = bins + (p * npasses + pass) * RADIX_DIGITS;
            void *kout = keys[1 - s];
            void *kin = (char *)keys[s] + p * portion * kbytes;
            void *vout = pairs ? (void *)vals[1 - s] : NULL;
            void *vin = pairs ? (void *)(vals[s] + p * portion) : NULL;
            int icount = (int)count;
            void *params[11] = {&lookback, &ctr, &bins_out, &bins_in, &kout, &kin, &vout, &vin,
                                &icount, &current_bit, &num_bits};
            if (launch(dev, onesweep, blocks, PG_ONESWEEP_THREADS, params, stream) < 0)
                goto done;
        }
        *sel = 1 - s;
    }
    rc = 0;
done:
    pg_pool_free(tmp);
    return rc;
}

static const PgRadixOps cuda_radix_ops = {cuda_radix, cuda_step};

static int
pg_cuda_sort_in_context(PgDevice *dev, const PgSortArgs *a, void *stream)
{
    return pg_radix_sort(dev, &cuda_radix_ops, a, stream);
}

PG_CUDA_ENTRY(pg_cuda_sort, (PgDevice *dev, const PgSortArgs *a, void *stream), (dev, a, stream))
