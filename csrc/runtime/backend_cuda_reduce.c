/* The CUDA side of the reduction family: launch configurations of kernels/reduce.cu.
 *
 * A reduction's block takes 256/lanes outputs with `lanes` threads each. Along an outer reduced
 * axis 32 neighbouring outputs share a block (a warp reads 32 neighbours), 8 threads each;
 * along an inner one lanes grow with the reduced length up to the whole block. When the output
 * blocks alone do not fill the GPU, the reduced range is split between blocks whose accumulators
 * go to a workspace from the pool, merged by a second launch. Scans: a thread per row along an
 * outer axis when the rows fill the GPU; otherwise a block per (row, chunk), long rows in chunks
 * whose totals are scanned in between. reduceat: a thread per segment, or up to 256 for long
 * ones. All launches are 1-d grids of 256 threads with static shared memory. */
#include "runtime/cuda_backend.h"
#include "runtime/memory.h"
#include "runtime/reducer_table.h"

#define IMPL(dev) PG_CUDA_IMPL(dev)
#define PG_RED_BLOCKS_PER_SM 8       /* enough resident blocks to keep loads in flight */
#define PG_RED_MIN_PER_THREAD 64     /* elements a thread reduces before a split pays */
#define PG_SCAN_MIN_CHUNK 4096       /* elements of a row chunk scanned by one block */
#define PG_SCAN_SHORT_ROW 64         /* shorter rows take a thread each, whatever their layout */
#define PG_SCAN_OUTER_ROWS_PER_SM 256 /* rows a thread each along an outer axis: a multiprocessor's worth */
#define PG_GRID_STRIDE_PER_SM 32
#define PG_SEG_MIN_PER_THREAD 64     /* reduceat: a mean segment length over which threads share one */

/* Launches the family's kernel PREFIX_<reducer> over a 1-d grid of 256-thread blocks. */
static int
launch(PgDevice *dev, const char *prefix, int reducer, int64_t blocks, void *args, void *stream)
{
    char name[96];
    snprintf(name, sizeof name, "%s_%s", prefix, pg_reducers[reducer].name);
    if (blocks > 0x7fffffff) {
        PyErr_Format(PyExc_ValueError, "%s: too many blocks for one CUDA grid", name);
        return -1;
    }
    void *params[1] = {args};
    return pg_cuda_launch(dev, "reduce", name, blocks < 1 ? 1 : blocks, PG_RBLOCK, params, stream);
}

static int64_t
pow2_at_least(int64_t n)
{
    int64_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

static int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* lanes for `nout` outputs of `len` elements: outer layouts put neighbouring outputs in a warp */
static int
choose_lanes(int outer, int64_t nout, int64_t len)
{
    if (outer) {
        int64_t per = nout >= 32 ? 32 : pow2_at_least(nout);
        return (int)(PG_RBLOCK / per);
    }
    int64_t lanes = pow2_at_least(ceil_div(len, 8));
    return (int)(lanes > PG_RBLOCK ? PG_RBLOCK : lanes);
}

static int
pg_cuda_reduce_in_context(PgDevice *dev, int reducer, PgReduceArgs *a, void *stream)
{
    const int64_t nout = a->nout, nred = a->nred_total;
    const int64_t target = (int64_t)IMPL(dev)->sm_count * PG_RED_BLOCKS_PER_SM;
    a->lanes = choose_lanes(a->outer, nout, nred);
    int64_t per = PG_RBLOCK / a->lanes, nblk = ceil_div(nout, per);
    a->nsplit = 1;
    if (nblk < target && nred > (int64_t)a->lanes * PG_RED_MIN_PER_THREAD) {
        int64_t by_gpu = ceil_div(target, nblk);
        int64_t by_work = nred / ((int64_t)a->lanes * PG_RED_MIN_PER_THREAD);
        a->nsplit = by_gpu < by_work ? by_gpu : by_work;
    }
    a->chunk = nred > 0 ? ceil_div(nred, a->nsplit) : 0;
    if (a->chunk > 0)
        a->nsplit = ceil_div(nred, a->chunk);
    if (a->nsplit <= 1) {
        a->nsplit = 1;
        a->phase = PG_RPHASE_FINAL;
        a->work = NULL;
        return launch(dev, "reduce", reducer, nblk, a, stream);
    }
    /* split: partial accumulators, then one more launch merges them (a block per 32 outputs, or
     * for few outputs, lanes over the splits) */
    PgBlock *work = pg_pool_alloc(dev, (size_t)(a->nsplit * nout) * (size_t)pg_reducers[reducer].acc_size,
                                  PG_MEM_DEVICE, stream);
    if (work == NULL)
        return -1;
    a->work = (char *)work->ptr;
    a->phase = PG_RPHASE_PARTIAL;
    int rc = launch(dev, "reduce", reducer, nblk * a->nsplit, a, stream);
    if (rc == 0) {
        a->phase = PG_RPHASE_FINISH;
        a->outer = nout >= 32;
        a->lanes = choose_lanes(a->outer, nout, a->nsplit);
        rc = launch(dev, "reduce", reducer, ceil_div(nout, PG_RBLOCK / a->lanes), a, stream);
    }
    pg_pool_free(work); /* reused only by later work on this stream */
    return rc;
}

static int
pg_cuda_scan_in_context(PgDevice *dev, int reducer, PgScanArgs *a, void *stream)
{
    const int64_t target = (int64_t)IMPL(dev)->sm_count * PG_RED_BLOCKS_PER_SM;
    if (a->n <= PG_SCAN_SHORT_ROW || a->out_type == PG_FLOAT16) /* float16: every step rounded, in order */
        a->outer = 1;
    else if (a->outer && a->nrows < (int64_t)IMPL(dev)->sm_count * PG_SCAN_OUTER_ROWS_PER_SM)
        /* too few rows for a thread each to fill the GPU (cumsum(x, axis=0) of (10**7, 2) would
         * be two threads walking 10**7 steps): scan them in chunks, strided loads and all */
        a->outer = 0;
    a->carry = NULL;
    a->phase = PG_SPHASE_SCAN;
    if (a->outer) {
        int64_t cap = (int64_t)IMPL(dev)->sm_count * PG_GRID_STRIDE_PER_SM;
        int64_t blocks = ceil_div(a->nrows, PG_RBLOCK);
        a->nchunks = 1;
        a->chunk = a->n;
        return launch(dev, "rscan", reducer, blocks < cap ? blocks : cap, a, stream);
    }
    a->nchunks = 1;
    if (a->nrows < target && a->n > 2 * PG_SCAN_MIN_CHUNK) {
        int64_t by_gpu = ceil_div(target, a->nrows), by_work = a->n / PG_SCAN_MIN_CHUNK;
        a->nchunks = by_gpu < by_work ? by_gpu : by_work;
    }
    a->chunk = ceil_div(a->n, a->nchunks);
    a->nchunks = ceil_div(a->n, a->chunk);
    if (a->nchunks == 1)
        return launch(dev, "rscan", reducer, a->nrows, a, stream);
    /* chunk totals, their scan along each row (one block a row), then the chunks from them */
    size_t acc = (size_t)pg_reducers[reducer].acc_size;
    PgBlock *carry = pg_pool_alloc(dev, (size_t)(a->nrows * a->nchunks) * acc, PG_MEM_DEVICE, stream);
    if (carry == NULL)
        return -1;
    a->carry = (char *)carry->ptr;
    a->phase = PG_SPHASE_TOTALS;
    int rc = launch(dev, "rscan", reducer, a->nrows * a->nchunks, a, stream);
    if (rc == 0) {
        PgScanArgs t;
        memset(&t, 0, sizeof t);
        t.nkeep = 1;
        t.keep_shape[0] = a->nrows;
        t.keep_in[0] = t.keep_out[0] = (int64_t)(a->nchunks * acc);
        t.nrows = a->nrows;
        t.n = a->nchunks;
        t.in_step = t.out_step = (int64_t)acc;
        t.in = t.out = a->carry;
        t.in_type = t.out_type = pg_reducers[reducer].acc_type;
        t.typed = 1;
        t.ident[0] = a->ident[0];
        t.ident[1] = a->ident[1];
        t.nchunks = 1;
        t.chunk = t.n;
        t.phase = PG_SPHASE_SCAN;
        rc = launch(dev, "rscan", reducer, t.nrows, &t, stream);
    }
    if (rc == 0) {
        a->phase = PG_SPHASE_SCAN;
        rc = launch(dev, "rscan", reducer, a->nrows * a->nchunks, a, stream);
    }
    pg_pool_free(carry);
    return rc;
}

/* reduceat: a thread per segment, or for long segments (by their mean length) lanes threads each,
 * as choose_lanes gives an inner reduction */
static int
pg_cuda_reduceat_in_context(PgDevice *dev, int reducer, const PgReduceArgs *a, void *stream)
{
    PgReduceArgs args = *a;
    int64_t cap = (int64_t)IMPL(dev)->sm_count * PG_GRID_STRIDE_PER_SM;
    args.lanes = args.nred_total > PG_SEG_MIN_PER_THREAD ? choose_lanes(0, args.nout, args.nred_total) : 1;
    int64_t blocks = ceil_div(args.nout, PG_RBLOCK / args.lanes);
    return launch(dev, "rseg", reducer, blocks < cap ? blocks : cap, &args, stream);
}

static int
pg_cuda_ufunc_at_in_context(PgDevice *dev, int reducer, const PgAtArgs *a, void *stream)
{
    PgAtArgs args = *a;
    /* no 16-byte compare-and-swap before sm_90: complex128 targets of ops other than add run on
     * one thread, in order */
    args.serial = a->type == PG_COMPLEX128 && strncmp(pg_reducers[reducer].name, "add_", 4) != 0;
    int64_t cap = (int64_t)IMPL(dev)->sm_count * PG_GRID_STRIDE_PER_SM;
    int64_t blocks = args.serial ? 1 : ceil_div(a->nidx * a->trail_size, PG_RBLOCK);
    return launch(dev, "rat", reducer, blocks < cap ? blocks : cap, &args, stream);
}

PG_CUDA_ENTRY(pg_cuda_reduce, (PgDevice *dev, int reducer, PgReduceArgs *a, void *stream), (dev, reducer, a, stream))

PG_CUDA_ENTRY(pg_cuda_scan, (PgDevice *dev, int reducer, PgScanArgs *a, void *stream), (dev, reducer, a, stream))

PG_CUDA_ENTRY(pg_cuda_reduceat, (PgDevice *dev, int reducer, const PgReduceArgs *a, void *stream), (dev, reducer, a, stream))

PG_CUDA_ENTRY(pg_cuda_ufunc_at, (PgDevice *dev, int reducer, const PgAtArgs *a, void *stream), (dev, reducer, a, stream))
