/* The CPU instantiation of the gather/scatter and compaction kernels of index.h: each function
 * runs a range of the iteration space on the calling thread; runtime/backend_cpu_index.c splits
 * the work over threads. */
#include "index.h"

/* The commonest cases, one axis of one int64 index array in raise mode (x[idx], x[idx] = v,
 * take) and a 1-d bool mask (x[mask] = v), as typed loops the compiler can unroll. */
#define PG_INDEX_1D(T, OP)                                                                  \
    for (int64_t i = begin; i < end; i++) {                                                 \
        int64_t v = idx[i * is];                                                            \
        if (v < 0)                                                                          \
            v += n;                                                                         \
        if (v < 0 || v >= n) {                                                              \
            PG_FLAG_SET(a->err);                                                            \
            return 1;                                                                       \
        }                                                                                   \
        if (OP == PG_INDEX_GATHER)                                                          \
            *(T *)(val + i * vs) = *(const T *)(arr + v * as);                              \
        else if (OP == PG_INDEX_SCATTER)                                                    \
            *(T *)(arr + v * as) = *(const T *)(val + i * vs);                              \
    }

/* a select rather than a branch: random masks do not stall it (an element not selected is
 * written back unchanged) */
#define PG_MASKED_1D(T)                                                                     \
    for (int64_t i = begin; i < end; i++) {                                                 \
        T *p = (T *)(arr + i * as);                                                         \
        T keep = (T)(mask[i * is] != 0) - 1; /* all ones where the mask is false */         \
        *p = (*p & keep) | (*(const T *)(val + i * vs) & (T)~keep);                         \
    }

#define PG_BY_ITEMSIZE(X, ...)                                                              \
    switch (a->itemsize) {                                                                  \
    case 1: X(uint8_t, __VA_ARGS__) break;                                                  \
    case 2: X(uint16_t, __VA_ARGS__) break;                                                 \
    case 4: X(uint32_t, __VA_ARGS__) break;                                                 \
    case 8: X(uint64_t, __VA_ARGS__) break;                                                 \
    default: return 0;                                                                      \
    }

#define PG_MASKED_1D_(T, unused) PG_MASKED_1D(T)

/* 1 when the fast path ran [begin, end). */
static int
index_1d(const PgIndexArgs *a, int op, int64_t begin, int64_t end)
{
    if (a->ndim != 1 || a->nidx != 1)
        return 0;
    int64_t vs = a->strides[PG_SET_VAL][0];
    char *arr = a->arr, *val = a->val;
    if (op == PG_INDEX_MASKED) {
        const uint8_t *mask = (const uint8_t *)a->idx[0];
        int64_t is = a->strides[PG_SET_IDX][0], as = a->strides[PG_SET_ARR][0];
        if (a->idx_type[0] != PG_BOOL)
            return 0;
        PG_BY_ITEMSIZE(PG_MASKED_1D_, 0)
        return 1;
    }
    if (a->idx_type[0] != PG_INT64 || a->mode != PG_INDEX_RAISE || a->axis_len[0] < 0 ||
        a->strides[PG_SET_ARR][0] != 0 || a->strides[PG_SET_IDX][0] % 8 != 0)
        return 0;
    const int64_t *idx = (const int64_t *)a->idx[0];
    int64_t is = a->strides[PG_SET_IDX][0] / 8, n = a->axis_len[0], as = a->axis_stride[0];
    switch (op) {
    case PG_INDEX_GATHER: PG_BY_ITEMSIZE(PG_INDEX_1D, PG_INDEX_GATHER) return 1;
    case PG_INDEX_SCATTER: PG_BY_ITEMSIZE(PG_INDEX_1D, PG_INDEX_SCATTER) return 1;
    case PG_INDEX_CHECK: PG_INDEX_1D(uint8_t, PG_INDEX_CHECK) return 1;
    default: return 0;
    }
}

void
pg_cpu_index_run(const PgIndexArgs *a, int op, int64_t begin, int64_t end)
{
    if (index_1d(a, op, begin, end))
        return;
    int ns = op == PG_INDEX_MASKED ? PG_SET_IDX + 1 : PG_SET_IDX + a->nidx;
    PG_STRIDED_FOR(a->ndim, a->shape, ns, a->strides, begin, end, i, off, pg_index_element(a, op, off));
}

int64_t
pg_cpu_compact_count(const PgCompactArgs *a, int64_t begin, int64_t end)
{
    int64_t count = 0;
    const char *mask = a->mask;
    int type = a->mask_type;
    if (a->ndim == 1 && type == PG_BOOL) {
        int64_t st = a->strides[0][0];
        for (int64_t i = begin; i < end; i++)
            count += mask[i * st] != 0;
        return count;
    }
    PG_STRIDED_FOR(a->ndim, a->shape, 1, a->strides, begin, end, i, off, count += pg_load_b(mask + off[0], type));
    return count;
}

/* x[mask] for a 1-d bool mask, without a branch per element: every element is stored at the
 * next free position, which advances only past true ones. A false element's store is
 * overwritten by the next true one, so the loop stops at the chunk's last true element: no
 * store lands beyond the chunk's share of the output. */
#define PG_COMPACT_1D(T)                                                                    \
    {                                                                                       \
        T *out = (T *)a->out + pos;                                                         \
        for (int64_t i = begin; i <= last; i++) {                                           \
            *out = *(const T *)(src + i * ss);                                              \
            out += mask[i * ms] != 0;                                                       \
        }                                                                                   \
    }

static int
compact_1d(const PgCompactArgs *a, int64_t begin, int64_t end, int64_t pos)
{
    const char *mask = a->mask, *src = a->src;
    int64_t ms = a->strides[0][0], ss = a->strides[1][0];
    int64_t last = end - 1;
    while (last >= begin && mask[last * ms] == 0)
        last--;
    if (a->op == PG_COMPACT_INDICES) {
        /* nonzero of a 1-d mask: the positions themselves */
        int64_t *out = (int64_t *)a->out + pos;
        for (int64_t i = begin; i <= last; i++) {
            *out = i;
            out += mask[i * ms] != 0;
        }
        return 1;
    }
    if (a->op != PG_COMPACT_VALUES)
        return 0;
    switch (a->itemsize) {
    case 1: PG_COMPACT_1D(uint8_t) break;
    case 2: PG_COMPACT_1D(uint16_t) break;
    case 4: PG_COMPACT_1D(uint32_t) break;
    case 8: PG_COMPACT_1D(uint64_t) break;
    default: return 0;
    }
    return 1;
}

void
pg_cpu_compact_write(const PgCompactArgs *a, int64_t begin, int64_t end, int64_t pos)
{
    const char *mask = a->mask;
    int type = a->mask_type;
    if (a->op == PG_COMPACT_RANK) {
        int64_t *out = (int64_t *)a->out;
        PG_STRIDED_FOR(a->ndim, a->shape, 1, a->strides, begin, end, i, off, {
            pos += pg_load_b(mask + off[0], type);
            out[i] = pos;
        });
        return;
    }
    if (a->ndim == 1 && type == PG_BOOL && compact_1d(a, begin, end, pos))
        return;
    PG_STRIDED_FOR(a->ndim, a->shape, 2, a->strides, begin, end, i, off, {
        if (pg_load_b(mask + off[0], type))
            pg_compact_emit(a, i, off, pos++);
    });
}
