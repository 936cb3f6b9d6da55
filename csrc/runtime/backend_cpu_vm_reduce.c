/* The CPU backend's VM reductions (kernels/vm_reduce_cpu.c): chunks of a few dozen elements, so
 * that a float sum's error grows about as in NumPy's pairwise summation (a chunk folded in order,
 * then chunks of chunks), unless the outputs alone fill the threads along an outer layout, where
 * each output is folded whole in order (as NumPy's axis=0 loops do). Items in blocks of up
 * to PG_VMR_CPU_LANES over the threads, each thread with scratch of its own; blocks whose lanes
 * read neighbouring memory (interleaved chunks, neighbouring outputs) take up to
 * PG_VMR_CPU_LANES_WIDE, so that each instruction's dispatch is paid for more elements. */
#include "runtime/cpu_backend.h"
#include "runtime/vm_reduce_passes.h"
#include "runtime/cpu_interrupt.h"
#include <stdlib.h>

#define PG_VMR_CPU_CHUNK 64          /* a block's lanes read 64 KiB apart at most: L1 and L2 hold them */
#define PG_VMR_CPU_CHUNK_COMMUTE 128 /* interleaved: a block reads contiguous memory */
#define PG_VMR_CPU_LANES 256
#define PG_VMR_CPU_LANES_WIDE 2048
#define PG_VMR_CPU_FILE_BYTES (256 * 1024) /* a block's register files: a core's L2 */

static int64_t
cpu_chunk(PgDevice *dev, const PgVmReduceArgs *a)
{
    PG_UNUSED(dev);
    if (a->outer && a->nout >= (int64_t)PG_VMR_CPU_LANES * 4 * pg_cpu_threads())
        return a->nred_total;
    return (a->flags & PG_VMR_COMMUTE) ? PG_VMR_CPU_CHUNK_COMMUTE : PG_VMR_CPU_CHUNK;
}

typedef struct {
    const PgVmReduceArgs *a;
    int lanes;
    int64_t nitems;
    size_t scratch;
    int failed;      /* a thread could not allocate its scratch */
} Run;

static void
run_blocks(const void *ctx, int64_t b0, int64_t b1)
{
    Run *r = (Run *)ctx;
    char *scratch = NULL;
    if (posix_memalign((void **)&scratch, 64, r->scratch) != 0) {
        r->failed = 1; /* any thread's report is enough */
        return;
    }
    int64_t i0 = b0 * r->lanes, i1 = b1 * r->lanes < r->nitems ? b1 * r->lanes : r->nitems;
    pg_vm_cpu_reduce_items(r->a, r->lanes, scratch, i0, i1);
    free(scratch);
}

static int
cpu_pass(PgDevice *dev, const PgVmReduceArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    const int wide = (a->flags & PG_VMR_COMMUTE) || a->outer;
    Run run = {a, wide ? PG_VMR_CPU_LANES_WIDE : PG_VMR_CPU_LANES, a->nout * a->nchunks, 0, 0};
    const int64_t slots = a->map_slots + a->comb_slots;
    while (run.lanes > 16 && slots * run.lanes * 8 > PG_VMR_CPU_FILE_BYTES)
        run.lanes /= 2;
    if (run.nitems < run.lanes) /* no more lanes than items: fewer wasted lanes per instruction */
        run.lanes = (int)(run.nitems > 0 ? run.nitems : 1);
    /* blocks of whole outputs: each output's chunks are a run of lanes one gather loads */
    if (!a->outer && a->nchunks > 1 && a->nchunks <= run.lanes)
        run.lanes -= run.lanes % (int)a->nchunks;
    run.scratch = pg_vm_cpu_reduce_scratch(a, run.lanes);
    int64_t nblocks = (run.nitems + run.lanes - 1) / run.lanes;
    int64_t work = a->nout * a->nred_total;
    if (work < PG_CPU_PARALLEL_MIN) {
        /* on this thread; a user's loop may still run long: other Python threads go on meanwhile
         * (pg_cpu_parallel_for lets the GIL go for its parallel runs itself) */
        Py_BEGIN_ALLOW_THREADS
        run_blocks(&run, 0, nblocks);
        Py_END_ALLOW_THREADS
    } else {
        pg_cpu_parallel_for(nblocks, 2, run_blocks, &run);
    }
    if (run.failed) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static const PgVmrSchedule cpu_schedule = {cpu_chunk, cpu_pass};

int
pg_cpu_vm_reduce(PgDevice *dev, PgVmReduceArgs *args, void *stream)
{
    if (pg_cpu_interrupt_begin() < 0) /* a user's loop may run long: Ctrl-C ends it */
        return -1;
    int rc = pg_vm_reduce_passes(dev, args, stream, &cpu_schedule);
    return pg_cpu_interrupt_end() < 0 ? -1 : rc;
}
