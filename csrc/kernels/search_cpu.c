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
 * through the type switch per element, NumPy 0.95); TYPE h->type for the rest */
#define PG_MINMAX_LOOP(TYPE)                                                                \
    PG_STRIDED_FOR(h->ndim, h->shape, 1, h->strides, 0, h->size, i, off, {                  \
        uint64_t k = pg_sort_key(h->x + off[0], TYPE, 0);                                   \
        lo = k < lo ? k : lo;                                                               \
        hi = k > hi ? k : hi;                                                               \
    })
#define PG_MINMAX_CASE(T)                                                                   \
    case T:                                                                                 \
        PG_MINMAX_LOOP(T);                                                                  \
        break;
#define PG_HIST_LOOP(TYPE)                                                                  \
    {                                                                                       \
        PgHistArgs t = *h;                                                                  \
        t.type = TYPE;                                                                      \
        PG_STRIDED_FOR(t.ndim, t.shape, 2, t.strides, 0, t.size, i, off, pg_hist_one(&t, off)); \
    }
#define PG_HIST_CASE(T)                                                                     \
    case T:                                                                                 \
        PG_HIST_LOOP(T)                                                                     \
        break;
#define PG_EACH_REAL_TYPE(CASE)                                                             \
    CASE(PG_BOOL) CASE(PG_INT8) CASE(PG_INT16) CASE(PG_INT32) CASE(PG_INT64) CASE(PG_UINT8)    \
    CASE(PG_UINT16) CASE(PG_UINT32) CASE(PG_UINT64) CASE(PG_FLOAT16) CASE(PG_FLOAT32) CASE(PG_FLOAT64)
/* bincount of a contiguous array of C type CT: the plain counting loop (the strided walk's
 * offsets cost 3x NumPy's time) */
#define PG_BINCOUNT_PLAIN(CT)                                                               \
    {                                                                                       \
        const CT *x = (const CT *)h->x;                                                     \
        int64_t *out = (int64_t *)h->out;                                                   \
        for (int64_t i = 0; i < h->size; i++)                                               \
            if ((uint64_t)(int64_t)x[i] < (uint64_t)h->nbins)                               \
                out[x[i]]++;                                                                \
        return;                                                                             \
    }

void
pg_cpu_hist_run(const PgHistArgs *h)
{
    if (h->op == PG_HIST_MINMAX) {
        uint64_t lo = ~(uint64_t)0, hi = 0;
        switch (h->type) {
        PG_EACH_REAL_TYPE(PG_MINMAX_CASE)
        default:
            PG_MINMAX_LOOP(h->type);
        }
        ((uint64_t *)h->out)[0] = lo;
        ((uint64_t *)h->out)[1] = hi;
        return;
    }
    if (h->op == PG_HIST_BINCOUNT && h->wtype < 0 && !h->total && h->ndim == 1) {
        if (h->type == PG_INT64 && h->strides[0][0] == 8)
            PG_BINCOUNT_PLAIN(int64_t)
        if (h->type == PG_INT32 && h->strides[0][0] == 4)
            PG_BINCOUNT_PLAIN(int32_t)
    }
    switch (h->type) {
    PG_EACH_REAL_TYPE(PG_HIST_CASE)
    default:
        PG_HIST_LOOP(h->type)
    }
}
