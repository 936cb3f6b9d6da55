/* The passes of a VM reduction or scan (kernels/vm_reduce.h), shared by the backends, which give
 * the chunk length and run one pass. */
#ifndef PG_VM_REDUCE_PASSES_H
#define PG_VM_REDUCE_PASSES_H
#include "runtime/backend.h"

typedef struct {
    /* reduced elements an item folds, for a's outputs and length (at least 1) */
    int64_t (*chunk)(PgDevice *dev, const PgVmReduceArgs *a);
    /* one pass over a's items (chunk and nchunks set) */
    int (*pass)(PgDevice *dev, const PgVmReduceArgs *a, void *stream);
} PgVmrSchedule;

/* Runs the reduction (or scan: PG_VMR_SCAN) a describes: one pass when an output is one chunk;
 * else each chunk's accumulator into a workspace (an output's chunks side by side, or the
 * outputs of a chunk side by side along an outer layout), then a reduction of those (of output
 * o's chunks, in order: the combiner need only be associative). A scan in chunks: the chunks'
 * totals, scanned in place, then each chunk scanned from the total before it. Needs a->nout > 0
 * and a->nred_total > 0. 0, or -1 with an exception. */
int pg_vm_reduce_passes(PgDevice *dev, PgVmReduceArgs *a, void *stream, const PgVmrSchedule *s);
#endif
