/* From the words of the stream to variates (random.h): uniform floats, pairs of normals, and
 * an element's own stream of words with the bounded integers drawn from it. Common subset of C
 * and CUDA C; every rounding operation through random_math.h. */
#ifndef PG_RANDOM_VARIATES_H
#define PG_RANDOM_VARIATES_H
#include "philox.h"
#include "random_math.h"

/* ------------------------------------------------------------------ uniform variates */

/* [0, 1) in steps of 2^-24 (NumPy's float32 construction). */
PG_INLINE PG_HOST_DEVICE float
pg_u01f(uint32_t w)
{
    return PG_FMUL((float)(w >> 8), 0x1p-24f);
}

/* (0, 1]: w * 2^-32 + 2^-33 (cuRAND's construction), for logarithms: never 0. */
PG_INLINE PG_HOST_DEVICE float
pg_u01f_pos(uint32_t w)
{
    return PG_FADD(PG_FMUL((float)w, 0x1p-32f), 0x1p-33f);
}

/* [0, 1) in steps of 2^-53 from 27 + 26 bits of two words (exact: no rounding anywhere). */
PG_INLINE PG_HOST_DEVICE double
pg_u01(uint32_t hi, uint32_t lo)
{
    return PG_DMUL(PG_DADD(PG_DMUL((double)(hi >> 5), 0x1p26), (double)(lo >> 6)), 0x1p-53);
}

/* (0, 1), symmetric: the odd multiples of 2^-53 (exact). */
PG_INLINE PG_HOST_DEVICE double
pg_u01_open(uint32_t hi, uint32_t lo)
{
    return PG_DMUL(PG_DADD(PG_DMUL((double)(hi >> 6), 0x1p27), (double)(((lo >> 6) << 1) | 1u)), 0x1p-53);
}

/* The rotation of (cos x, sin x) by q quarter turns. */
#define PG_QUARTER_TURNS(q, sn, cs, c, s)                                                  \
    do {                                                                                   \
        (c) = ((q) & 1) ? (sn) : (cs);                                                     \
        (s) = ((q) & 1) ? (cs) : (sn);                                                     \
        if (((q) + 1) & 2)                                                                 \
            (c) = -(c);                                                                    \
        if ((q) & 2)                                                                       \
            (s) = -(s);                                                                    \
    } while (0)

/* Two standard normals by Box-Muller: radius from word wr, angle from word wa (its top two
 * bits the quadrant, the other 30 an angle in [-pi/4, pi/4): every angle of a 2^-32 turn grid
 * exactly once). */
PG_INLINE PG_HOST_DEVICE void
pg_normal_pair_f32(uint32_t wr, uint32_t wa, float *z0, float *z1)
{
    float r = PG_FSQRT(PG_FMUL(-2.0f, pg_rlogf(pg_u01f_pos(wr))));
    float sn, cs, c, s;
    pg_rsincosf(PG_FMUL((float)(int32_t)(wa << 2), 0x1.921fb6p-32f), &sn, &cs);
    uint32_t q = wa >> 30;
    PG_QUARTER_TURNS(q, sn, cs, c, s);
    *z0 = PG_FMUL(r, c);
    *z1 = PG_FMUL(r, s);
}

/* The same in double precision: radius from 53 bits of w0, w1, angle from 64 bits of w2, w3. */
PG_INLINE PG_HOST_DEVICE void
pg_normal_pair_f64(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3, double *z0, double *z1)
{
    double u = PG_DSUB(1.0, pg_u01(w0, w1)); /* (0, 1] */
    double r = PG_DSQRT(PG_DMUL(-2.0, pg_rlog_normal(u)));
    uint64_t v = ((uint64_t)w2 << 32) | w3;
    double sn, cs, c, s;
    pg_rsincos(PG_DMUL((double)(int64_t)(v << 2), 0x1.921fb54442d18p-64), &sn, &cs);
    uint32_t q = (uint32_t)(v >> 62);
    PG_QUARTER_TURNS(q, sn, cs, c, s);
    *z0 = PG_DMUL(r, c);
    *z1 = PG_DMUL(r, s);
}

/* ------------------------------------------------------------------ an element's own stream
 * The words of one element: those of its share of its block, then its extra blocks. The words
 * are kept in registers (shifted out, never indexed), which the GPU wants. */
typedef struct {
    uint32_t key0, key1, c0, c1, c2, c3; /* the counter of the block in w; c3 = (j << 2) | slot */
    uint32_t w0, w1, w2, w3;             /* the words left, next first */
    int left;
    int failed;                          /* ran out of extra blocks (only NaN parameters loop that long) */
    int has_spare;                       /* the second normal of a Box-Muller pair */
    double spare;
} PgRandStream;

/* A stream starting with the `count` words of w from `first` of the block at ctr (slot `slot`). */
PG_INLINE PG_HOST_DEVICE void
pg_rstream_init(PgRandStream *st, const uint32_t key[2], const uint32_t ctr[3], int slot, const uint32_t w[4],
               int first, int count)
{
    st->key0 = key[0];
    st->key1 = key[1];
    st->c0 = ctr[0];
    st->c1 = ctr[1];
    st->c2 = ctr[2];
    st->c3 = (uint32_t)slot;
    uint32_t t[4] = {w[0], w[1], w[2], w[3]};
    for (int k = 0; k < first; k++) { /* shift the element's words to the front */
        t[0] = t[1];
        t[1] = t[2];
        t[2] = t[3];
    }
    st->w0 = t[0];
    st->w1 = t[1];
    st->w2 = t[2];
    st->w3 = t[3];
    st->left = count;
    st->failed = 0;
    st->has_spare = 0;
    st->spare = 0.0;
}

PG_INLINE PG_HOST_DEVICE uint32_t
pg_rstream_u32(PgRandStream *st)
{
    if (st->left == 0) {
        if (st->c3 >= 0xfffffff0u)
            st->failed = 1; /* keep returning words (of the last block): callers check failed */
        else
            st->c3 += 4;
        uint32_t w[4];
        pg_philox4x32_10(st->c0, st->c1, st->c2, st->c3, st->key0, st->key1, w);
        st->w0 = w[0];
        st->w1 = w[1];
        st->w2 = w[2];
        st->w3 = w[3];
        st->left = 4;
    }
    uint32_t x = st->w0;
    st->w0 = st->w1;
    st->w1 = st->w2;
    st->w2 = st->w3;
    st->left--;
    return x;
}

PG_INLINE PG_HOST_DEVICE double
pg_rstream_u01(PgRandStream *st)
{
    uint32_t hi = pg_rstream_u32(st);
    return pg_u01(hi, pg_rstream_u32(st));
}

PG_INLINE PG_HOST_DEVICE double
pg_rstream_u01_open(PgRandStream *st)
{
    uint32_t hi = pg_rstream_u32(st);
    return pg_u01_open(hi, pg_rstream_u32(st));
}

PG_INLINE PG_HOST_DEVICE double
pg_rstream_normal(PgRandStream *st)
{
    if (st->has_spare) {
        st->has_spare = 0;
        return st->spare;
    }
    uint32_t w0 = pg_rstream_u32(st), w1 = pg_rstream_u32(st), w2 = pg_rstream_u32(st);
    double z;
    pg_normal_pair_f64(w0, w1, w2, pg_rstream_u32(st), &z, &st->spare);
    st->has_spare = 1;
    return z;
}

/* ------------------------------------------------------------------ bounded integers
 * Lemire's method ("Fast random integer generation in an interval", 2019): the high half of
 * word * (rng + 1), rejecting the few low halves below 2^32 mod (rng + 1) that would bias it. */

/* The fast path: the value for word w in [0, rng], and whether the low half needs the check. */
PG_INLINE PG_HOST_DEVICE uint32_t
pg_lemire32_try(uint32_t w, uint32_t rng, int *check)
{
    if (rng == 0xffffffffu) {
        *check = 0;
        return w;
    }
    uint64_t m = (uint64_t)w * (rng + 1u);
    *check = (uint32_t)m < rng + 1u;
    return (uint32_t)(m >> 32);
}

/* The whole method, from the element's stream (whose next word is the first try's). */
PG_INLINE PG_HOST_DEVICE uint32_t
pg_lemire32(PgRandStream *st, uint32_t rng)
{
    uint32_t w = pg_rstream_u32(st);
    if (rng == 0xffffffffu)
        return w;
    uint32_t s = rng + 1u;
    uint64_t m = (uint64_t)w * s;
    if ((uint32_t)m < s) {
        uint32_t threshold = (0u - s) % s;
        while ((uint32_t)m < threshold && !st->failed)
            m = (uint64_t)pg_rstream_u32(st) * s;
    }
    return (uint32_t)(m >> 32);
}

PG_INLINE PG_HOST_DEVICE uint64_t
pg_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

PG_INLINE PG_HOST_DEVICE uint64_t
pg_lemire64(PgRandStream *st, uint64_t rng)
{
    uint64_t x = (uint64_t)pg_rstream_u32(st) << 32;
    x |= pg_rstream_u32(st);
    if (rng == UINT64_MAX)
        return x;
    uint64_t s = rng + 1u;
    uint64_t lo = x * s;
    if (lo < s) {
        uint64_t threshold = (0u - s) % s;
        while (lo < threshold && !st->failed) {
            x = (uint64_t)pg_rstream_u32(st) << 32;
            x |= pg_rstream_u32(st);
            lo = x * s;
        }
    }
    return pg_mulhi64(x, s);
}
#endif
