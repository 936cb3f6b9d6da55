/* The CPU instantiation of search.h. */
#include "search.h"

/* One loop per type: the type is a constant inside, so each comparison's key conversion
 * compiles to a few instructions instead of a switch. */
#define PG_SEARCH_CASE(T)                                                                   \
    case T: {                                                                               \
        PgSearchArgs t = *s;                                                                \
        t.type = T;                                                                         \
        PG_STRIDED_FOR(t.ndim, t.shape, 1, t.strides, begin, end, i, off, pg_search_one(&t, i, off[0])); \
        break;                                                                              \
    }

void
pg_cpu_search_run(const PgSearchArgs *s, int64_t begin, int64_t end)
{
    switch (s->type) {
    PG_SEARCH_CASE(PG_BOOL)
    PG_SEARCH_CASE(PG_INT8)
    PG_SEARCH_CASE(PG_INT16)
    PG_SEARCH_CASE(PG_INT32)
    PG_SEARCH_CASE(PG_INT64)
    PG_SEARCH_CASE(PG_UINT8)
    PG_SEARCH_CASE(PG_UINT16)
    PG_SEARCH_CASE(PG_UINT32)
    PG_SEARCH_CASE(PG_UINT64)
    PG_SEARCH_CASE(PG_FLOAT16)
    PG_SEARCH_CASE(PG_FLOAT32)
    PG_SEARCH_CASE(PG_FLOAT64)
    PG_SEARCH_CASE(PG_COMPLEX64)
    default: PG_SEARCH_CASE(PG_COMPLEX128)
    }
}

void
pg_cpu_hist_run(const PgHistArgs *h)
{
    if (h->op == PG_HIST_MINMAX) {
        uint64_t lo = ~(uint64_t)0, hi = 0;
        PG_STRIDED_FOR(h->ndim, h->shape, 1, h->strides, 0, h->size, i, off, {
            uint64_t k = pg_sort_key(h->x + off[0], h->type, 0);
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        });
        ((uint64_t *)h->out)[0] = lo;
        ((uint64_t *)h->out)[1] = hi;
        return;
    }
    PG_STRIDED_FOR(h->ndim, h->shape, 2, h->strides, 0, h->size, i, off, pg_hist_one(h, off));
}
