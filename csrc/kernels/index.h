/* Gather and scatter through integer index arrays, and compaction through boolean masks: the
 * kernels behind advanced indexing (x[idx], x[mask], x[idx] = v), take/put, take_along_axis,
 * choose and nonzero. Single source for both backends: index.cu instantiates them for CUDA,
 * index_cpu.c for the CPU.
 *
 * Gather/scatter (PgIndexArgs). The iteration space is the shape of the result of the indexing
 * (C order). Each element has a byte offset in the indexed array (`arr`, stride set 0), in the
 * other side (`val`, set 1: the result of a gather, the value of a scatter) and in each index
 * array (sets 2..): the element of `arr` is arr + offset(set 0) + sum over index arrays k of
 * index_k * axis_stride[k], after the index is checked against axis_len[k] (or wrapped, or
 * clipped). An index that is out of bounds sets *err and touches nothing. Elements are moved as
 * raw bytes of `itemsize`: the host converts dtypes beforehand.
 *
 * Compaction (PgCompactArgs). The true elements of a mask (any dtype, truth as NumPy's nonzero)
 * in C order, in three phases over fixed chunks of the iteration space: count each chunk, scan
 * the counts into offsets, then write each chunk's elements from its offset: their values
 * (x[mask]), their coordinates (nonzero: count x ndim int64), or for every element the number
 * of true elements up to it (an inclusive running count, for unique's inverse). */
#ifndef PG_INDEX_H
#define PG_INDEX_H
#include "convert.h"
#include "strided.h"

#define PG_MAXINDEX 4 /* index arrays one launch takes; the host folds any more into one */

typedef enum { PG_INDEX_RAISE = 0, PG_INDEX_WRAP, PG_INDEX_CLIP } PgIndexMode;

typedef enum {
    PG_INDEX_GATHER = 0, /* val[o] = arr[selected] */
    PG_INDEX_SCATTER,    /* arr[selected] = val[o] */
    PG_INDEX_CHECK,      /* only the bounds check (before a scatter: nothing is written on error) */
    PG_INDEX_OFFSETS,    /* val[o] = the selected byte offset, int64 (folding index arrays) */
    PG_INDEX_MASKED,     /* arr[o] = val[o] where the bool "index" 0 is true (x[mask] = scalar) */
    PG_INDEX_NOPS
} PgIndexOp;

enum { PG_SET_ARR = 0, PG_SET_VAL = 1, PG_SET_IDX = 2 };

typedef struct {
    int32_t ndim;
    int32_t nidx;       /* index arrays, <= PG_MAXINDEX */
    int32_t itemsize;   /* 1, 2, 4, 8 or 16 */
    int32_t mode;       /* PgIndexMode */
    int64_t size;
    int64_t shape[PG_MAXDIMS];
    int64_t strides[PG_SET_IDX + PG_MAXINDEX][PG_MAXDIMS]; /* arr, val, index arrays */
    char *arr;
    char *val;
    char *idx[PG_MAXINDEX];
    int32_t idx_type[PG_MAXINDEX];      /* PgType of each index array (an integer type) */
    int64_t axis_len[PG_MAXINDEX];      /* < 0: the index is a byte offset already checked */
    int64_t axis_stride[PG_MAXINDEX];
    int32_t *err;                       /* set to 1 when an index is out of bounds */
} PgIndexArgs;

/* An integer (or bool) element of any integer type, as int64. */
PG_HOST_DEVICE PG_INLINE int64_t
pg_index_load(const char *p, int type)
{
    switch (type) {
    case PG_BOOL: case PG_UINT8: return *(const uint8_t *)p;
    case PG_INT8: return *(const int8_t *)p;
    case PG_INT16: return *(const int16_t *)p;
    case PG_UINT16: return *(const uint16_t *)p;
    case PG_INT32: return *(const int32_t *)p;
    case PG_UINT32: return *(const uint32_t *)p;
    default: return *(const int64_t *)p; /* int64, uint64 (as NumPy's cast to intp) */
    }
}

/* Adds the offset that index v selects along an axis of n elements (stride bytes) to *off;
 * 0 when v is out of bounds in raise mode. Clip takes negative indices to 0, as NumPy does. */
PG_HOST_DEVICE PG_INLINE int
pg_index_step(int64_t v, int64_t n, int64_t stride, int mode, int64_t *off)
{
    if (n < 0) {
        *off += v;
        return 1;
    }
    if (mode == PG_INDEX_RAISE) {
        if (v < 0)
            v += n;
        if (v < 0 || v >= n)
            return 0;
    } else if (mode == PG_INDEX_WRAP) {
        v %= n;
        if (v < 0)
            v += n;
    } else {
        v = v < 0 ? 0 : v >= n ? n - 1 : v;
    }
    *off += v * stride;
    return 1;
}

PG_HOST_DEVICE PG_INLINE void
pg_copy_item(char *dst, const char *src, int itemsize)
{
    switch (itemsize) {
    case 1: *(uint8_t *)dst = *(const uint8_t *)src; break;
    case 2: *(uint16_t *)dst = *(const uint16_t *)src; break;
    case 4: *(uint32_t *)dst = *(const uint32_t *)src; break;
    case 8: *(uint64_t *)dst = *(const uint64_t *)src; break;
    default:
        ((uint64_t *)dst)[0] = ((const uint64_t *)src)[0];
        ((uint64_t *)dst)[1] = ((const uint64_t *)src)[1];
        break;
    }
}

/* One element of a gather/scatter operation OP, at offsets off[] (arr, val, index arrays). */
PG_HOST_DEVICE PG_INLINE void
pg_index_element(const PgIndexArgs *a, int op, const int64_t *off)
{
    int64_t at = off[PG_SET_ARR];
    if (op == PG_INDEX_MASKED) {
        if (pg_load_b(a->idx[0] + off[PG_SET_IDX], a->idx_type[0]))
            pg_copy_item(a->arr + at, a->val + off[PG_SET_VAL], a->itemsize);
        return;
    }
    for (int k = 0; k < a->nidx; k++) {
        int64_t v = pg_index_load(a->idx[k] + off[PG_SET_IDX + k], a->idx_type[k]);
        if (!pg_index_step(v, a->axis_len[k], a->axis_stride[k], a->mode, &at)) {
            PG_FLAG_SET(a->err);
            return;
        }
    }
    switch (op) {
    case PG_INDEX_GATHER: pg_copy_item(a->val + off[PG_SET_VAL], a->arr + at, a->itemsize); break;
    case PG_INDEX_SCATTER: pg_copy_item(a->arr + at, a->val + off[PG_SET_VAL], a->itemsize); break;
    case PG_INDEX_OFFSETS: *(int64_t *)(a->val + off[PG_SET_VAL]) = at; break;
    default: break; /* PG_INDEX_CHECK */
    }
}

/* ------------------------------------------------------------------ compaction */

typedef enum {
    PG_COMPACT_COUNT = 0, /* only the number of true elements */
    PG_COMPACT_VALUES,    /* out[j] = the j-th selected element of src (itemsize bytes) */
    PG_COMPACT_INDICES,   /* out[j, :] = its coordinates in the mask's shape, int64 */
    PG_COMPACT_RANK,      /* out[i] = true elements among 0..i, int64, for every element */
} PgCompactOp;

typedef struct {
    int32_t ndim;
    int32_t op;         /* PgCompactOp */
    int32_t mask_type;
    int32_t itemsize;
    int64_t size;
    int64_t chunk;      /* elements per chunk */
    int64_t shape[PG_MAXDIMS];
    int64_t strides[2][PG_MAXDIMS]; /* mask, src */
    char *mask;
    char *src;
    char *out;
    int64_t *counts;    /* per chunk; the scan turns them into offsets, the total after them */
} PgCompactArgs;

/* Writes the element at flat index i (offsets off: mask, src) as the pos-th selected one. */
PG_HOST_DEVICE PG_INLINE void
pg_compact_emit(const PgCompactArgs *a, int64_t i, const int64_t *off, int64_t pos)
{
    if (a->op == PG_COMPACT_VALUES) {
        pg_copy_item(a->out + pos * a->itemsize, a->src + off[1], a->itemsize);
    } else if (a->op == PG_COMPACT_INDICES) {
        int64_t *row = (int64_t *)a->out + pos * a->ndim;
        for (int d = a->ndim - 1; d >= 0; d--) {
            int64_t q = i / a->shape[d];
            row[d] = i - q * a->shape[d];
            i = q;
        }
    }
}

#ifndef __CUDACC__
/* index_cpu.c: the elements [begin, end) of an operation, on the calling thread. */
void pg_cpu_index_run(const PgIndexArgs *a, int op, int64_t begin, int64_t end);
/* The true elements of the mask among [begin, end); writing them from position pos. */
int64_t pg_cpu_compact_count(const PgCompactArgs *a, int64_t begin, int64_t end);
void pg_cpu_compact_write(const PgCompactArgs *a, int64_t begin, int64_t end, int64_t pos);
#endif

#endif
