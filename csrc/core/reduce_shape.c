/* Layouts of reductions and scans: axes ordered by the input's strides (largest first, so the
 * fastest comes last) and merged where every operand steps through two axes as one. */
#include "core/reduce_shape.h"

/* Up to PG_VM_MAXARGS operands' strides per axis (the reduction family's layouts use three), and
 * the axes' lengths. */
typedef struct {
    int n, nops;
    int64_t shape[PG_MAXDIMS];
    int64_t s[PG_VM_MAXARGS][PG_MAXDIMS];
} Axes;

static int64_t
magnitude(int64_t v)
{
    return v < 0 ? -v : v;
}

static void
move_axis(Axes *x, int to, int from)
{
    x->shape[to] = x->shape[from];
    for (int k = 0; k < x->nops; k++)
        x->s[k][to] = x->s[k][from];
}

/* Stable insertion sort by operand 0's |stride|, largest first. */
static void
order_by_stride(Axes *x)
{
    for (int i = 1; i < x->n; i++) {
        int64_t sh = x->shape[i], s[PG_VM_MAXARGS];
        for (int k = 0; k < x->nops; k++)
            s[k] = x->s[k][i];
        int j = i;
        while (j > 0 && magnitude(x->s[0][j - 1]) < magnitude(s[0])) {
            move_axis(x, j, j - 1);
            j--;
        }
        x->shape[j] = sh;
        for (int k = 0; k < x->nops; k++)
            x->s[k][j] = s[k];
    }
}

/* Merges axis j into j-1 when every operand steps through them as one (axis `keep` never merges). */
static void
merge(Axes *x, int keep, int *kept_at)
{
    int w = 0;
    for (int j = 0; j < x->n; j++) {
        int mergeable = w > 0 && j != keep && (keep < 0 || *kept_at != w - 1);
        for (int k = 0; k < x->nops && mergeable; k++)
            mergeable = x->s[k][w - 1] == x->s[k][j] * x->shape[j];
        if (mergeable) {
            x->shape[w - 1] *= x->shape[j];
            for (int k = 0; k < x->nops; k++)
                x->s[k][w - 1] = x->s[k][j];
            continue;
        }
        if (j == keep)
            *kept_at = w;
        move_axis(x, w, j);
        w++;
    }
    x->n = w;
}

static void
add_axis(Axes *x, int64_t len, int64_t s0, int64_t s1, int64_t s2)
{
    x->nops = 3;
    x->shape[x->n] = len;
    x->s[0][x->n] = s0;
    x->s[1][x->n] = s1;
    x->s[2][x->n] = s2;
    x->n++;
}

void
pg_reduce_layout(PgReduceArgs *a, int ndim, const int64_t *shape, const int64_t *in_strides,
                 const int64_t *out_strides, const int64_t *mask_strides, const char *reduced, int keep_order)
{
    Axes kept = {0}, red = {0};
    int empty_reduction = 0, unused = -1;
    memset(a, 0, sizeof *a);
    for (int i = 0; i < ndim; i++) {
        int64_t ms = mask_strides ? mask_strides[i] : 0;
        if (reduced[i]) {
            if (shape[i] == 0)
                empty_reduction = 1;
            else if (shape[i] != 1)
                add_axis(&red, shape[i], in_strides[i], ms, 0);
        } else if (shape[i] != 1) {
            add_axis(&kept, shape[i], in_strides[i], out_strides[i], ms);
        }
    }
    order_by_stride(&kept);
    merge(&kept, -1, &unused);
    if (!keep_order)
        order_by_stride(&red);
    merge(&red, -1, &unused);
    if (empty_reduction)
        red.n = 0;
    a->nkeep = kept.n;
    a->nred = red.n;
    a->nout = 1;
    for (int d = 0; d < kept.n; d++) {
        a->keep_shape[d] = kept.shape[d];
        a->keep_in[d] = kept.s[0][d];
        a->keep_out[d] = kept.s[1][d];
        a->keep_mask[d] = kept.s[2][d];
        a->nout *= kept.shape[d];
    }
    a->nred_total = empty_reduction ? 0 : 1;
    for (int d = 0; d < red.n; d++) {
        a->red_shape[d] = red.shape[d];
        a->red_in[d] = red.s[0][d];
        a->red_mask[d] = red.s[1][d];
        a->nred_total *= red.shape[d];
    }
    /* neighbouring outputs are neighbours in memory more than neighbouring reduced elements */
    a->outer = kept.n > 0 &&
               (red.n == 0 || magnitude(kept.s[0][kept.n - 1]) < magnitude(red.s[0][red.n - 1]));
    a->seg_dim = -1;
}

void
pg_scan_layout(PgScanArgs *a, int ndim, const int64_t *shape, const int64_t *in_strides,
               const int64_t *out_strides, int axis)
{
    Axes kept = {0};
    int unused = -1;
    memset(a, 0, sizeof *a);
    for (int i = 0; i < ndim; i++)
        if (i != axis && shape[i] != 1)
            add_axis(&kept, shape[i], in_strides[i], out_strides[i], 0);
    order_by_stride(&kept);
    merge(&kept, -1, &unused);
    a->nkeep = kept.n;
    a->nrows = 1;
    for (int d = 0; d < kept.n; d++) {
        a->keep_shape[d] = kept.shape[d];
        a->keep_in[d] = kept.s[0][d];
        a->keep_out[d] = kept.s[1][d];
        a->nrows *= kept.shape[d];
    }
    a->n = ndim ? shape[axis] : 1;
    a->in_step = ndim ? in_strides[axis] : 0;
    a->out_step = ndim ? out_strides[axis] : 0;
    a->outer = kept.n > 0 && a->n > 1 && magnitude(kept.s[0][kept.n - 1]) < magnitude(a->in_step);
    a->nchunks = 1;
    a->chunk = a->n;
}

void
pg_reduceat_layout(PgReduceArgs *a, int ndim, const int64_t *out_shape, const int64_t *in_strides,
                   const int64_t *out_strides, int axis)
{
    Axes kept = {0};
    int seg_at = -1;
    memset(a, 0, sizeof *a);
    for (int i = 0; i < ndim; i++)
        add_axis(&kept, out_shape[i], i == axis ? 0 : in_strides[i], out_strides[i], 0);
    merge(&kept, axis, &seg_at);
    a->nkeep = kept.n;
    a->nout = 1;
    for (int d = 0; d < kept.n; d++) {
        a->keep_shape[d] = kept.shape[d];
        a->keep_in[d] = kept.s[0][d];
        a->keep_out[d] = kept.s[1][d];
        a->nout *= kept.shape[d];
    }
    a->nred = 1;
    a->red_shape[0] = 1;
    a->red_in[0] = in_strides[axis];
    a->seg_dim = seg_at;
}

int
pg_vm_reduce_layout(PgVmReduceArgs *a, int nops, int ndim, const int64_t *shape, int64_t (*strides)[PG_MAXDIMS],
                    const char *reduced)
{
    Axes kept = {0}, red = {0};
    int empty_reduction = 0, unused = -1;
    memset(a, 0, sizeof *a);
    kept.nops = red.nops = nops;
    for (int i = 0; i < ndim; i++) {
        if (reduced[i] && shape[i] == 0)
            empty_reduction = 1;
        if (shape[i] == 1)
            continue;
        Axes *x = reduced[i] ? &red : &kept;
        x->shape[x->n] = shape[i];
        for (int k = 0; k < nops; k++)
            x->s[k][x->n] = strides[k][i];
        x->n++;
    }
    order_by_stride(&kept);
    merge(&kept, -1, &unused);
    merge(&red, -1, &unused); /* in C order: the elements are combined in that order */
    if (empty_reduction)
        red.n = 0;
    if (kept.n > PG_VMR_MAXDIMS || red.n > PG_VMR_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "the layout has %d kept and %d reduced dimensions that do not merge; "
                     "at most %d of each", kept.n, red.n, PG_VMR_MAXDIMS);
        return -1;
    }
    a->nin = nops - 1;
    a->nkeep = kept.n;
    a->nred = red.n;
    a->nout = 1;
    for (int d = 0; d < kept.n; d++) {
        a->keep_shape[d] = kept.shape[d];
        for (int k = 0; k < nops; k++)
            a->keep_str[k][d] = kept.s[k][d];
        a->nout *= kept.shape[d];
    }
    a->nred_total = empty_reduction ? 0 : 1;
    for (int d = 0; d < red.n; d++) {
        a->red_shape[d] = red.shape[d];
        for (int k = 0; k < nops; k++)
            a->red_str[k][d] = red.s[k][d];
        a->nred_total *= red.shape[d];
    }
    a->outer = kept.n > 0 && (red.n == 0 || magnitude(kept.s[0][kept.n - 1]) < magnitude(red.s[0][red.n - 1]));
    a->nchunks = 1;
    a->chunk = a->nred_total;
    return 0;
}
