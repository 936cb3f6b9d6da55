/* The element-wise steps around a radix sort of keys (runtime/sort_radix.c runs them), single
 * source for both backends: making the keys of an array (sort_keys.h), turning sorted keys back
 * into values, permutations and their segments. sort.cu instantiates them for CUDA beside the
 * CUB radix sort; sort_cpu.c for the CPU, beside a plain radix sort with the same contract (the
 * CPU backend runs it in place of NumPy's sort when tests ask, so that this logic runs on every
 * machine).
 *
 * Every step walks `size` elements i in C order. The array read by a step (src) is N-d strided
 * over (ndim, shape); a permutation holds flat indices into that same space. Keys are `kbytes`
 * (4 or 8) wide. */
#ifndef PG_SORT_H
#define PG_SORT_H
#include "sort_keys.h"
#include "strided.h"

/* The tiles of sort.cu's onesweep kernels (threads x items per thread), which the host needs to
 * size their grids: CUB's tuning for sm_90 with 64-bit offsets, scaled to the keys and values
 * so that a tile fits in 48 KiB of static shared memory. */
#define PG_ONESWEEP_THREADS 384
#define PG_ONESWEEP_ITEMS_K32 19        /* 32-bit keys */
#define PG_ONESWEEP_ITEMS_K32_V64 14    /* 32-bit keys, int64 values */
#define PG_ONESWEEP_ITEMS_K64 15
#define PG_ONESWEEP_ITEMS_K64_V64 12
#define PG_RADIX_HISTOGRAM_THREADS 128
#define PG_RADIX_BITS 8                 /* digit width of every pass */

typedef enum {
    PG_STEP_KEYS = 0,   /* dst[i] = key of src[perm ? perm[i] : i] (flags: PG_KEY_*) */
    PG_STEP_UNKEY,      /* dst[i] (src's type, C order) = the value of exact key ((K *)src)[i] */
    PG_STEP_IOTA,       /* ((int64_t *)dst)[i] = i */
    PG_STEP_SEGMENTS,   /* dst[i] (key) = perm[i] / len: the row of each sorted element */
    PG_STEP_POSITIONS,  /* ((int64_t *)dst)[i] = perm[i] % len: its position in its row */
    PG_STEP_GATHER,     /* dst[i] (itemsize bytes, C order) = src[perm[i]] */
    PG_STEP_NOPS
} PgSortStepOp;

typedef struct {
    int32_t ndim;
    int32_t type;       /* src's (PG_STEP_KEYS, PG_STEP_GATHER) or dst's (PG_STEP_UNKEY) */
    int32_t flags;      /* PG_KEY_* */
    int32_t kbytes;     /* 4 or 8 */
    int32_t itemsize;   /* PG_STEP_GATHER's elements */
    int32_t pad;
    int64_t size;
    int64_t len;        /* row length */
    int64_t shape[PG_MAXDIMS];
    int64_t strides[1][PG_MAXDIMS];
    const char *src;
    char *dst;
    const int64_t *perm;
} PgSortStep;

/* Step `op` for element i. */
PG_HOST_DEVICE PG_INLINE void
pg_sort_step(const PgSortStep *s, int op, int64_t i)
{
    switch (op) {
    case PG_STEP_KEYS: {
        int64_t off[1];
        pg_strided_offsets(s->ndim, s->shape, 1, s->strides, s->perm ? s->perm[i] : i, off);
        uint64_t k = pg_sort_key(s->src + off[0], s->type, s->flags);
        if (s->kbytes == 4)
            ((uint32_t *)s->dst)[i] = (uint32_t)k;
        else
            ((uint64_t *)s->dst)[i] = k;
        break;
    }
    case PG_STEP_UNKEY: {
        uint64_t k = s->kbytes == 4 ? ((const uint32_t *)s->src)[i] : ((const uint64_t *)s->src)[i];
        int isz = s->type == PG_BOOL || s->type == PG_INT8 || s->type == PG_UINT8 ? 1
                  : pg_key_bits(s->type) / 8;
        pg_sort_unkey(s->dst + i * isz, s->type, k, s->flags);
        break;
    }
    case PG_STEP_IOTA:
        ((int64_t *)s->dst)[i] = i;
        break;
    case PG_STEP_SEGMENTS:
        if (s->kbytes == 4)
            ((uint32_t *)s->dst)[i] = (uint32_t)(s->perm[i] / s->len);
        else
            ((uint64_t *)s->dst)[i] = (uint64_t)(s->perm[i] / s->len);
        break;
    case PG_STEP_POSITIONS:
        ((int64_t *)s->dst)[i] = s->perm[i] % s->len;
        break;
    default: { /* PG_STEP_GATHER */
        int64_t off[1];
        pg_strided_offsets(s->ndim, s->shape, 1, s->strides, s->perm[i], off);
        const char *p = s->src + off[0];
        char *q = s->dst;
        switch (s->itemsize) {
        case 1: ((uint8_t *)q)[i] = *(const uint8_t *)p; break;
        case 2: ((uint16_t *)q)[i] = *(const uint16_t *)p; break;
        case 4: ((uint32_t *)q)[i] = *(const uint32_t *)p; break;
        case 8: ((uint64_t *)q)[i] = *(const uint64_t *)p; break;
        default:
            ((uint64_t *)q)[2 * i] = ((const uint64_t *)p)[0];
            ((uint64_t *)q)[2 * i + 1] = ((const uint64_t *)p)[1];
            break;
        }
        break;
    }
    }
}

#ifndef __CUDACC__
/* sort_cpu.c: step op over elements [begin, end) on the calling thread. */
void pg_cpu_sort_step(const PgSortStep *s, int op, int64_t begin, int64_t end);
/* A stable LSD radix sort of n keys (kbytes wide) on bits [0, bits), with their int64 values
 * when vals[0] != NULL; from buffer 0, alternating between the two buffers of each pair; returns
 * the buffer the result ends in. */
int pg_cpu_radix_sort(void *keys[2], int64_t *vals[2], int64_t n, int kbytes, int bits);
#endif

#endif
