/* The passes of a VM reduction or scan: see vm_reduce_passes.h. Workspaces come from the pool on
 * the launch's stream (a CUDA block is reused only by later work on that stream). */
#include "runtime/vm_reduce_passes.h"
#include "runtime/memory.h"
#include "core/dtype.h"

/* C-contiguous byte strides over a's kept dimensions, the innermost `inner` */
static void
keep_strides(const PgVmReduceArgs *a, int64_t inner, int64_t *str)
{
    int64_t s = inner;
    for (int d = a->nkeep - 1; d >= 0; d--) {
        str[d] = s;
        s *= a->keep_shape[d];
    }
}

/* b: a's reduction (or scan) over the accumulators at w instead of a's inputs: one input of the
 * accumulator's type, no map, kept strides wkeep, the reduced axis of nchunks steps of kstep. */
static void
over_partials(PgVmReduceArgs *b, const PgVmReduceArgs *a, char *w, const int64_t *wkeep, int64_t kstep,
              int64_t nchunks)
{
    const int out = a->nin;
    *b = *a;
    b->nin = 1;
    b->map = NULL;
    b->map_slots = 0;
    b->data[0] = w;
    b->types[0] = a->acc_type;
    b->data[1] = a->data[out];
    b->types[1] = a->types[out];
    for (int d = 0; d < PG_VMR_MAXDIMS; d++) {
        b->keep_str[0][d] = d < a->nkeep ? wkeep[d] : 0;
        b->keep_str[1][d] = a->keep_str[out][d];
        b->red_str[0][d] = b->red_str[1][d] = 0;
        b->red_shape[d] = 0;
    }
    b->nred = 1;
    b->red_shape[0] = nchunks;
    b->red_str[0][0] = kstep;
    b->red_str[1][0] = a->red_str[out][0];
    b->nred_total = nchunks;
    b->outer = a->nkeep > 0 && wkeep[a->nkeep - 1] < kstep;
    b->out_chunk = 0;
    b->carry = NULL;
}

int
pg_vm_reduce_passes(PgDevice *dev, PgVmReduceArgs *a, void *stream, const PgVmrSchedule *s)
{
    const int64_t nout = a->nout, n = a->nred_total;
    int64_t c = s->chunk(dev, a);
    if (c < 1)
        c = 1;
    if (c >= n) {
        a->chunk = n;
        a->nchunks = 1;
        return s->pass(dev, a, stream);
    }
    const int64_t nchunks = (n + c - 1) / c, acc = pg_type_info[a->acc_type].itemsize;
    PgBlock *w = pg_pool_alloc(dev, (size_t)(nout * nchunks * acc), PG_MEM_DEVICE, stream);
    if (w == NULL)
        return -1;
    /* along an outer layout the chunks' accumulators of neighbouring outputs are neighbours */
    int64_t wkeep[PG_VMR_MAXDIMS], kstep = a->outer ? nout * acc : acc;
    keep_strides(a, a->outer ? acc : nchunks * acc, wkeep);

    PgVmReduceArgs p = *a, q;
    p.flags &= ~(PG_VMR_INITIAL | PG_VMR_SCAN);
    p.chunk = c;
    p.nchunks = nchunks;
    p.carry = NULL;
    p.data[p.nin] = (char *)w->ptr;
    p.types[p.nin] = a->acc_type;
    for (int d = 0; d < PG_VMR_MAXDIMS; d++) {
        p.keep_str[p.nin][d] = d < a->nkeep ? wkeep[d] : 0;
        p.red_str[p.nin][d] = 0;
    }
    p.out_chunk = kstep;
    int rc = s->pass(dev, &p, stream);
    if (rc == 0 && !(a->flags & PG_VMR_SCAN)) {
        over_partials(&q, a, (char *)w->ptr, wkeep, kstep, nchunks);
        rc = pg_vm_reduce_passes(dev, &q, stream, s);
    } else if (rc == 0) {
        /* the totals scanned in place (each element read and written by the same lane) */
        over_partials(&q, a, (char *)w->ptr, wkeep, kstep, nchunks);
        q.data[1] = (char *)w->ptr;
        q.types[1] = a->acc_type;
        for (int d = 0; d < PG_VMR_MAXDIMS; d++)
            q.keep_str[1][d] = q.keep_str[0][d];
        q.red_str[1][0] = kstep;
        q.flags = PG_VMR_SCAN;
        rc = pg_vm_reduce_passes(dev, &q, stream, s);
        if (rc == 0) {
            PgVmReduceArgs r = *a;
            r.chunk = c;
            r.nchunks = nchunks;
            r.carry = (const char *)w->ptr;
            for (int d = 0; d < PG_VMR_MAXDIMS; d++)
                r.carry_keep[d] = d < a->nkeep ? wkeep[d] : 0;
            r.carry_k = kstep;
            rc = s->pass(dev, &r, stream);
        }
    }
    pg_pool_free(w);
    return rc;
}
