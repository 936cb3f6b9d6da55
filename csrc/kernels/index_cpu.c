/* The CPU instantiation of the gather/scatter and compaction kernels of index.h: each function
 * runs a range of the iteration space on the calling thread; runtime/backend_cpu_index.c splits
 * the work over threads. */
#include "index.h"

/* Gathers of one int64 index array along one axis, the commonest case (x[idx], take): a typed
 * loop the compiler can unroll. */
#define PG_GATHER_1D(T)                                                                     \
    for (int64_t i = begin; i < end; i++) {                                                 \
        int64_t v = idx[i * is];                                                            \
        if (v < 0)                                                                          \
            v += n;                                                                         \
        if (v < 0 || v >= n) {                                                              \
            PG_FLAG_SET(a->err);                                                            \
            return 1;                                                                       \
        }                                                                                   \
        *(T *)(val + i * vs) = *(const T *)(arr + v * as);                                  \
    }

static int
gather_1d(const PgIndexArgs *a, int64_t begin, int64_t end)
{
    const int64_t *idx = (const int64_t *)a->idx[0];
    int64_t is = a->strides[PG_SET_IDX][0] / 8, n = a->axis_len[0], as = a->axis_stride[0];
    int64_t vs = a->strides[PG_SET_VAL][0];
    const char *arr = a->arr;
    char *val = a->val;
    if (a->strides[PG_SET_IDX][0] % 8 != 0)
        return 0;
    switch (a->itemsize) {
    case 1: PG_GATHER_1D(uint8_t) break;
    case 2: PG_GATHER_1D(uint16_t) break;
    case 4: PG_GATHER_1D(uint32_t) break;
    case 8: PG_GATHER_1D(uint64_t) break;
    default: return 0;
    }
    return 1;
}

void
pg_cpu_index_run(const PgIndexArgs *a, int op, int64_t begin, int64_t end)
{
    if (op == PG_INDEX_GATHER && a->ndim == 1 && a->nidx == 1 && a->idx_type[0] == PG_INT64 &&
        a->mode == PG_INDEX_RAISE && a->axis_len[0] >= 0 && a->strides[PG_SET_ARR][0] == 0 &&
        gather_1d(a, begin, end))
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
    if (a->op == PG_COMPACT_VALUES && a->ndim == 1 && type == PG_BOOL && compact_1d(a, begin, end, pos))
        return;
    PG_STRIDED_FOR(a->ndim, a->shape, 2, a->strides, begin, end, i, off, {
        if (pg_load_b(mask + off[0], type))
            pg_compact_emit(a, i, off, pos++);
    });
}
