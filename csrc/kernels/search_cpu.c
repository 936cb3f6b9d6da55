/* The CPU instantiation of search.h. */
#include "search.h"

void
pg_cpu_search_run(const PgSearchArgs *s, int64_t begin, int64_t end)
{
    PG_STRIDED_FOR(s->ndim, s->shape, 1, s->strides, begin, end, i, off, pg_search_one(s, i, off[0]));
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
