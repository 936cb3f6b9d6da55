/* Searching and counting, single source for both backends (search.cu for CUDA, search_cpu.c for
 * the CPU): binary search in a sorted array (searchsorted, digitize), counting values into bins
 * (bincount, histogram with uniform or arbitrary edges, optionally weighted), and the minimum and
 * maximum of an array (bincount's length, histogram's range). Comparisons go through the sort
 * keys of sort_keys.h, so they follow NumPy's sort order (NaNs last and equal to each other,
 * complex numbers lexicographic). */
#ifndef PG_SEARCH_H
#define PG_SEARCH_H
#include "convert.h"
#include "sort_keys.h"
#include "strided.h"

/* ------------------------------------------------------------------ searchsorted */

typedef struct {
    int32_t ndim;           /* of v */
    int32_t type;           /* a's and v's (the host converts them to one type) */
    int32_t right;          /* side='right' */
    int32_t sorter_type;    /* an integer type, or -1 without a sorter */
    int64_t size;           /* elements of v */
    int64_t n;              /* elements of a (1-d) */
    int64_t a_stride;
    int64_t sorter_stride;
    int64_t shape[PG_MAXDIMS];
    int64_t strides[1][PG_MAXDIMS];
    const char *a;
    const char *v;
    const char *sorter;
    int64_t *out;           /* C order of v */
    int32_t *err;           /* set when a sorter index is out of range */
} PgSearchArgs;

/* The keys of the element at p, most significant first (complex: class, real, imaginary). */
PG_HOST_DEVICE PG_ALWAYS_INLINE void
pg_search_key(const char *p, int type, uint64_t *k)
{
    int cplx = type >= PG_COMPLEX64;
    k[0] = cplx ? pg_sort_key(p, type, PG_KEY_CLASS) : 0;
    k[1] = pg_sort_key(p, type, 0);
    k[2] = cplx ? pg_sort_key(p, type, PG_KEY_IMAG) : 0;
}

PG_HOST_DEVICE PG_INLINE int
pg_key_less(const uint64_t *x, const uint64_t *y)
{
    return x[0] < y[0] || (x[0] == y[0] && (x[1] < y[1] || (x[1] == y[1] && x[2] < y[2])));
}

PG_HOST_DEVICE PG_ALWAYS_INLINE void
pg_search_one(const PgSearchArgs *s, int64_t i, int64_t voff)
{
    uint64_t kv[3], ka[3];
    pg_search_key(s->v + voff, s->type, kv);
    int64_t lo = 0, hi = s->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, j = mid;
        if (s->sorter_type >= 0) {
            const char *p = s->sorter + mid * s->sorter_stride;
            switch (s->sorter_type) {
            case PG_INT8: j = *(const int8_t *)p; break;
            case PG_UINT8: j = *(const uint8_t *)p; break;
            case PG_INT16: j = *(const int16_t *)p; break;
            case PG_UINT16: j = *(const uint16_t *)p; break;
            case PG_INT32: j = *(const int32_t *)p; break;
            case PG_UINT32: j = *(const uint32_t *)p; break;
            default: j = *(const int64_t *)p; break;
            }
            if (j < 0 || j >= s->n) {
                PG_FLAG_SET(s->err);
                break;
            }
        }
        pg_search_key(s->a + j * s->a_stride, s->type, ka);
        int go_right = s->right ? !pg_key_less(kv, ka) : pg_key_less(ka, kv);
        if (go_right)
            lo = mid + 1;
        else
            hi = mid;
    }
    s->out[i] = lo;
}

/* ------------------------------------------------------------------ counting into bins */

typedef enum {
    PG_HIST_MINMAX = 0, /* out: uint64 keys [min, max] (the host inverts them) */
    PG_HIST_BINCOUNT,   /* bin = the value itself (a non-negative integer) */
    PG_HIST_UNIFORM,    /* nbins equal bins between first and last (numpy.histogram's way) */
    PG_HIST_EDGES,      /* bins between sorted edges[0 .. nbins] (binary search) */
} PgHistOp;

typedef struct {
    int32_t ndim;
    int32_t type;       /* x's */
    int32_t wtype;      /* the weights' type, or -1 for counts */
    int32_t op;
    int64_t size;
    int64_t nbins;
    int64_t shape[PG_MAXDIMS];
    int64_t strides[2][PG_MAXDIMS]; /* x, weights */
    const char *x;
    const char *w;
    const double *edges;    /* nbins + 1 of them (UNIFORM: to correct the computed bin; EDGES) */
    double first, last;
    double norm;            /* nbins / (last - first) */
    char *out;              /* int64 counts or double sums per bin */
    char *total;            /* the same for every element in range, or NULL */
} PgHistArgs;

/* The bin of the value v (x's element at p) or -1 when it falls outside every bin. */
PG_HOST_DEVICE PG_ALWAYS_INLINE int64_t
pg_hist_bin(const PgHistArgs *h, const char *p)
{
    if (h->op == PG_HIST_BINCOUNT)
        return pg_load_i64(p, h->type);
    double v = pg_load_f64(p, h->type);
    if (!(v >= h->first && v <= h->last)) /* NaN included */
        return -1;
    int64_t n = h->nbins;
    if (h->op == PG_HIST_EDGES) {
        /* the last i with edges[i] <= v; the last edge closes the last bin */
        int64_t lo = 0, hi = n + 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (h->edges[mid] <= v)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo - 1 >= n ? n - 1 : lo - 1;
    }
    /* NumPy's computation, then its correction against the edges themselves */
    int64_t b = (int64_t)((v - h->first) * h->norm);
    if (b >= n)
        b = n - 1;
    if (b < 0)
        b = 0;
    if (v < h->edges[b])
        b--;
    else if (b != n - 1 && v >= h->edges[b + 1])
        b++;
    return b;
}

#ifdef __CUDACC__
#define PG_ATOMIC_ADD_I64(p, v) atomicAdd((unsigned long long *)(p), (unsigned long long)(v))
#define PG_ATOMIC_ADD_F64(p, v) atomicAdd((double *)(p), (v))
#else
/* the CPU counts on one thread, in order (NumPy's summation order) */
#define PG_ATOMIC_ADD_I64(p, v) (*(int64_t *)(p) += (v))
#define PG_ATOMIC_ADD_F64(p, v) (*(double *)(p) += (v))
#endif

/* Counts element i (offsets off: x, weights) into its bin and the total. Inlined always, so that
 * the CPU's loop per type (search_cpu.c) sees its type as a constant. */
PG_HOST_DEVICE PG_ALWAYS_INLINE void
pg_hist_one(const PgHistArgs *h, const int64_t *off)
{
    int64_t b = pg_hist_bin(h, h->x + off[0]);
    if (b < 0 || b >= h->nbins)
        return;
    if (h->wtype < 0) {
        PG_ATOMIC_ADD_I64((int64_t *)h->out + b, 1);
        if (h->total)
            PG_ATOMIC_ADD_I64((int64_t *)h->total, 1);
    } else {
        double w = pg_load_f64(h->w + off[1], h->wtype);
        PG_ATOMIC_ADD_F64((double *)h->out + b, w);
        if (h->total)
            PG_ATOMIC_ADD_F64((double *)h->total, w);
    }
}

#ifndef __CUDACC__
/* search_cpu.c */
void pg_cpu_search_run(const PgSearchArgs *s, int64_t begin, int64_t end);
void pg_cpu_hist_run(const PgHistArgs *h);
#endif

#endif
