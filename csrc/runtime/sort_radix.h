/* Sorting by radix-sorting keys (kernels/sort_keys.h), backend-neutral: the steps that make keys
 * from any dtype, sort rows of any length and lexicographic orders with one stable sort of
 * unsigned 32/64-bit keys, and turn the result back into values or indices. The CUDA backend
 * sorts this way with CUB; the CPU backend can too (tests use it to run this logic without a
 * GPU). */
#ifndef PG_SORT_RADIX_H
#define PG_SORT_RADIX_H
#include "runtime/backend.h"
#include "kernels/sort.h"

typedef struct {
    /* A stable sort of n keys of kbytes on bits [0, bits), with their int64 values when vals[0]
     * is not NULL. Keys and values start in buffer *sel and end in buffer *sel (updated); the
     * other buffer of each pair is scratch. */
    int (*radix)(PgDevice *dev, void *keys[2], int64_t *vals[2], int64_t n, int kbytes, int bits, int *sel,
                 void *stream);
    /* A step of kernels/sort.h over s->size elements. */
    int (*step)(PgDevice *dev, int op, const PgSortStep *s, void *stream);
} PgRadixOps;

/* PgBackend.sort through ops (a partition is a full sort). */
int pg_radix_sort(PgDevice *dev, const PgRadixOps *ops, const PgSortArgs *a, void *stream);
#endif
