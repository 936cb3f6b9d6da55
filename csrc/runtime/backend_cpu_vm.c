/* The CPU backend's VM launch: the elements are split over the worker team like the
 * elementwise loops, each thread with a register file of its own (kernels/vm_cpu.c runs them).
 * Programs that branch run in smaller blocks, so lanes that diverge waste less work. */
#include "runtime/backend.h"
#include "runtime/cpu_interrupt.h"
#include "runtime/cpu_team.h"
#include <stdlib.h>

/* Elements per block: a straight-line program takes the most whose register file fits in
 * PG_VM_CPU_FILE_BYTES (a core's L2), between 256 and 4096 (the per-block costs amortised); a
 * program with branches or loops takes few, so lanes that diverge waste little. */
#define PG_VM_CPU_LANES_MIN 256
#define PG_VM_CPU_LANES_MAX 4096
#define PG_VM_CPU_FILE_BYTES (256 * 1024)
#define PG_VM_CPU_LANES_JUMPS 64
#define PG_VM_CPU_PARALLEL_MIN 16384 /* fewer elements run on the calling thread */
#define PG_VM_CPU_CHUNK 4096        /* elements a thread takes at a time from a branching program */

typedef struct {
    const PgVmArgs *args;
    int lanes;
    char *regs;     /* one register file per member */
    size_t file;    /* bytes per register file */
} VmRun;

/* the team's members take chunks in turn (pg_cpu_team_for): loops make the work per element
 * uneven, and a member the system descheduled leaves its share to the others */
static void
vm_chunk(const void *ctx, int t, int64_t begin, int64_t end)
{
    const VmRun *r = ctx;
    pg_vm_cpu_run(r->args, r->lanes, r->regs + r->file * (size_t)t, begin, end);
}

int
pg_cpu_vm_run(PgDevice *dev, const PgVmArgs *args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    int lanes = PG_VM_CPU_LANES_JUMPS;
    if (!(args->flags & PG_VM_HAS_JUMPS)) {
        lanes = PG_VM_CPU_LANES_MAX;
        while (lanes > PG_VM_CPU_LANES_MIN && (int64_t)args->nslots * lanes * 8 > PG_VM_CPU_FILE_BYTES)
            lanes /= 2;
    }
    int64_t n = args->size;
    int nt = n < PG_VM_CPU_PARALLEL_MIN ? 1 : pg_cpu_threads();
    if ((n + lanes - 1) / lanes < nt)
        nt = (int)((n + lanes - 1) / lanes);
    if (nt < 1)
        nt = 1;
    /* one register file per thread, each on its own cache lines */
    size_t file = ((size_t)(args->nslots ? args->nslots : 1) * (size_t)lanes * 8 + 63) & ~(size_t)63;
    char *regs = NULL;
    if (posix_memalign((void **)&regs, 64, file * (size_t)nt) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    /* a user's loop may run long: other Python threads go on meanwhile, and Ctrl-C ends it */
    if (pg_cpu_interrupt_begin() < 0) {
        free(regs);
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
    if (nt == 1) {
        pg_vm_cpu_run(args, lanes, regs, 0, n);
    } else {
        VmRun run = {args, lanes, regs, file};
        /* a branching program in small chunks, so that uneven work evens out; else a few
         * chunks of whole blocks per member */
        pg_cpu_team_for(nt, n, args->flags & PG_VM_HAS_JUMPS ? PG_VM_CPU_CHUNK : pg_cpu_team_chunk(n, nt, lanes),
                        vm_chunk, &run);
    }
    Py_END_ALLOW_THREADS
    free(regs);
    return pg_cpu_interrupt_end(); /* -1: interrupted, the output holds what was done */
}
