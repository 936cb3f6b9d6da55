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

/* minmax and the counts the same way, one loop per type of x (bincount of 1e6 int64: 4.4 ms
 * through the type switch per element, NumPy 0.95) */
#define PG_MINMAX_CASE(T)                                                                   \
    case T:                                                                                 \
        PG_STRIDED_FOR(h->ndim, h->shape, 1, h->strides, 0, h->size, i, off, {              \
            uint64_t k = pg_sort_key(h->x + off[0], T, 0);                                  \
            lo = k < lo ? k : lo;                                                           \
            hi = k > hi ? k : hi;                                                           \
        });                                                                                 \
        break;
#define PG_HIST_CASE(T)                                                                     \
    case T: {                                                                               \
        PgHistArgs t = *h;                                                                  \
        t.type = T;                                                                         \
        PG_STRIDED_FOR(t.ndim, t.shape, 2, t.strides, 0, t.size, i, off, pg_hist_one(&t, off)); \
        break;                                                                              \
    }
#define PG_EACH_REAL_TYPE(CASE)                                                             \
    CASE(PG_BOOL) CASE(PG_INT8) CASE(PG_INT16) CASE(PG_INT32) CASE(PG_INT64) CASE(PG_UINT8)    \
    CASE(PG_UINT16) CASE(PG_UINT32) CASE(PG_UINT64) CASE(PG_FLOAT16) CASE(PG_FLOAT32) CASE(PG_FLOAT64)

void
pg_cpu_hist_run(const PgHistArgs *h)
{
    if (h->op == PG_HIST_MINMAX) {
        uint64_t lo = ~(uint64_t)0, hi = 0;
        switch (h->type) {
        PG_EACH_REAL_TYPE(PG_MINMAX_CASE)
        default:
            PG_STRIDED_FOR(h->ndim, h->shape, 1, h->strides, 0, h->size, i, off, {
                uint64_t k = pg_sort_key(h->x + off[0], h->type, 0);
                lo = k < lo ? k : lo;
                hi = k > hi ? k : hi;
            });
        }
        ((uint64_t *)h->out)[0] = lo;
        ((uint64_t *)h->out)[1] = hi;
        return;
    }
    if (h->op == PG_HIST_BINCOUNT && h->wtype < 0 && !h->total && h->ndim == 1) {
        /* bincount of a contiguous int64 or int32 array: the plain counting loop (the strided
         * walk's offsets cost 3x NumPy's time) */
        int64_t *out = (int64_t *)h->out;
        const uint64_t nbins = (uint64_t)h->nbins;
        if (h->type == PG_INT64 && h->strides[0][0] == 8) {
            const int64_t *x = (const int64_t *)h->x;
            for (int64_t i = 0; i < h->size; i++)
                if ((uint64_t)x[i] < nbins)
                    out[x[i]]++;
            return;
        }
        if (h->type == PG_INT32 && h->strides[0][0] == 4) {
            const int32_t *x = (const int32_t *)h->x;
            for (int64_t i = 0; i < h->size; i++)
                if ((uint64_t)(int64_t)x[i] < nbins)
                    out[x[i]]++;
            return;
        }
    }
    switch (h->type) {
    PG_EACH_REAL_TYPE(PG_HIST_CASE)
    default:
        PG_STRIDED_FOR(h->ndim, h->shape, 2, h->strides, 0, h->size, i, off, pg_hist_one(h, off));
    }
}
