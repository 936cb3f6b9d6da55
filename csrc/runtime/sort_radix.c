/* Sorting through a radix sort of unsigned keys. With n elements in rows of len:
 *   - one row of one real key, values wanted: sort the exact keys alone, invert them;
 *   - otherwise carry a permutation (int64 flat indices) through stable passes, least
 *     significant first: each key (a complex one's imaginary part, real part and NaN class;
 *     lexsort's keys from the first to the last) is read through the permutation so far and sorted with
 *     it; then, for several rows, the row numbers of the permutation are sorted with it, which
 *     groups rows while keeping each row's order (a segmented sort in two radix sorts);
 *   - the permutation gives the indices (its positions within rows) or gathers the values. */
#include "runtime/sort_radix.h"
#include "core/dtype.h"
#include "runtime/memory.h"

static void
step_init(PgSortStep *s, int64_t n, int64_t len)
{
    memset(s, 0, sizeof *s);
    s->size = n;
    s->len = len;
}

static void
step_source(PgSortStep *s, const PgSortArgs *a, const PgOperand *key)
{
    s->ndim = a->ndim;
    s->type = key->type;
    s->src = key->data;
    for (int d = 0; d < a->ndim; d++) {
        s->shape[d] = a->shape[d];
        s->strides[0][d] = key->strides[d];
    }
}

static int
bits_for(int64_t count)
{
    int b = 0;
    while (b < 64 && ((uint64_t)1 << b) < (uint64_t)count)
        b++;
    return b;
}

int
pg_radix_sort(PgDevice *dev, const PgRadixOps *ops, const PgSortArgs *a, void *stream)
{
    int64_t n = pg_shape_size(a->ndim, a->shape);
    if (n <= 0)
        return n < 0 ? -1 : 0;
    int64_t len = a->shape[a->ndim - 1], nseg = n / len;
    int desc = (a->flags & PG_SORT_DESCENDING) ? PG_KEY_DESCENDING : 0;
    int complex_keys = 0, kbytes = 4;
    for (int k = 0; k < a->nkeys; k++) {
        complex_keys |= a->keys[k].type >= PG_COMPLEX64;
        if (pg_key_bits(a->keys[k].type) == 64)
            kbytes = 8;
    }
    int segbits = bits_for(nseg);
    if (segbits > 32)
        kbytes = 8;
    int direct = a->nkeys == 1 && !complex_keys && nseg == 1 && !(a->flags & PG_SORT_INDICES);
    PgBlock *kb[2] = {NULL, NULL}, *vb[2] = {NULL, NULL};
    int rc = -1, sel = 0;
    PgSortStep s;
    for (int i = 0; i < 2; i++) {
        kb[i] = pg_pool_alloc(dev, (size_t)n * (size_t)kbytes, PG_MEM_DEVICE, stream);
        if (kb[i] == NULL)
            goto done;
        if (!direct && (vb[i] = pg_pool_alloc(dev, (size_t)n * sizeof(int64_t), PG_MEM_DEVICE, stream)) == NULL)
            goto done;
    }
    void *keys[2] = {kb[0]->ptr, kb[1]->ptr};
    int64_t *vals[2] = {direct ? NULL : vb[0]->ptr, direct ? NULL : vb[1]->ptr};

    if (direct) {
        const PgOperand *key = &a->keys[0];
        int kbk = pg_key_bits(key->type) == 64 ? 8 : 4;
        step_init(&s, n, len);
        step_source(&s, a, key);
        s.flags = PG_KEY_EXACT | desc;
        s.kbytes = kbk;
        s.dst = keys[0];
        if (ops->step(dev, PG_STEP_KEYS, &s, stream) < 0 ||
            ops->radix(dev, keys, vals, n, kbk, pg_key_bits(key->type), &sel, stream) < 0)
            goto done;
        step_init(&s, n, len);
        s.type = key->type;
        s.flags = PG_KEY_EXACT | desc;
        s.kbytes = kbk;
        s.src = keys[sel];
        s.dst = a->out;
        rc = ops->step(dev, PG_STEP_UNKEY, &s, stream);
        goto done;
    }

    step_init(&s, n, len);
    s.dst = (char *)vals[0];
    if (ops->step(dev, PG_STEP_IOTA, &s, stream) < 0)
        goto done;
    int first = 1;
    for (int k = 0; k < a->nkeys; k++) {
        const PgOperand *key = &a->keys[k];
        int cplx = key->type >= PG_COMPLEX64;
        int kbk = pg_key_bits(key->type) == 64 ? 8 : 4;
        /* a complex key: its imaginary part, real part, then NaN class (sort_keys.h) */
        static const int complex_parts[3] = {PG_KEY_IMAG, 0, PG_KEY_CLASS}, real_part[1] = {0};
        const int *parts = cplx ? complex_parts : real_part;
        for (int i = 0; i < (cplx ? 3 : 1); i++) {
            int cls = parts[i] == PG_KEY_CLASS;
            /* the key of each element in the order so far */
            step_init(&s, n, len);
            step_source(&s, a, key);
            s.flags = desc | parts[i];
            s.kbytes = cls ? 4 : kbk;
            s.perm = first ? NULL : vals[sel]; /* the first pass's order is the identity */
            s.dst = keys[sel];
            first = 0;
            if (ops->step(dev, PG_STEP_KEYS, &s, stream) < 0 ||
                ops->radix(dev, keys, vals, n, s.kbytes, cls ? PG_CLASS_KEY_BITS : pg_key_bits(key->type), &sel,
                           stream) < 0)
                goto done;
        }
    }
    if (nseg > 1) {
        int kbs = segbits > 32 ? 8 : 4;
        step_init(&s, n, len);
        s.kbytes = kbs;
        s.perm = vals[sel];
        s.dst = keys[sel];
        if (ops->step(dev, PG_STEP_SEGMENTS, &s, stream) < 0 ||
            ops->radix(dev, keys, vals, n, kbs, segbits, &sel, stream) < 0)
            goto done;
    }
    step_init(&s, n, len);
    s.perm = vals[sel];
    s.dst = a->out;
    if (a->flags & PG_SORT_INDICES) {
        rc = ops->step(dev, PG_STEP_POSITIONS, &s, stream);
    } else {
        step_source(&s, a, &a->keys[0]);
        s.itemsize = pg_type_info[a->keys[0].type].itemsize;
        rc = ops->step(dev, PG_STEP_GATHER, &s, stream);
    }
done:
    /* the pool hands the blocks out again only after the work queued on this stream */
    for (int i = 0; i < 2; i++) {
        if (kb[i])
            pg_pool_free(kb[i]);
        if (vb[i])
            pg_pool_free(vb[i]);
    }
    return rc;
}
