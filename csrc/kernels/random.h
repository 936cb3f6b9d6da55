/* Random-number kernels, single source for every device: a draw of n elements from a
 * distribution, as a pure function of (key, counter, parameters), so that the same seed gives
 * the same bits on the CPU (random_cpu.c) and on any GPU (random.cu).
 *
 * The stream. Philox4x32-10 (philox.h) maps a 128-bit counter to 4 random 32-bit words (a
 * "block"). A draw starts at the 96-bit block counter (words 0..2) held by the generator; block
 * b of the draw is counter + b with word 3 = 0. Element i of a direct distribution (a fixed
 * number of words per element, below PG_RAND_NDIRECT) uses block i / E, words
 * (i % E) * 4/E onwards, E = pg_random_per_block() elements per block. Element i of a sampler
 * (rejection methods: gamma, beta, poisson, binomial, ...) owns block i; when its words run out
 * it continues with blocks (counter + i, word 3 = 4j + slot), j = 1, 2, ... -- counters no draw
 * ever starts at -- so the number of words one element consumes changes nothing for the
 * others, and a draw advances the generator by exactly ceil(n / E) blocks. The rare second try
 * of Lemire's bounded integers works the same way, with the element's slot in its block.
 * Nothing depends on the launch configuration or the number of threads.
 *
 * Arithmetic goes through random_math.h: its own log/exp/sin/cos and explicit round-to-nearest
 * operations, never contracted into fma, so results agree to the bit across devices. */
#ifndef PG_RANDOM_H
#define PG_RANDOM_H
#include "random_args.h"
#include "random_samplers.h"

/* ------------------------------------------------------------------ direct distributions
 * One function per distribution and type: the values of one block's elements from its 4 words
 * w (and each element's parameters pa, pb). The CPU's vectorised loops and the generic
 * pg_random_direct_block below (the GPU's, and the CPU's for a last partial block) both call
 * these, so the element <-> word mapping exists once. */

PG_INLINE PG_HOST_DEVICE void
pg_block_uniform_f32(const uint32_t w[4], float v[4])
{
    for (int s = 0; s < 4; s++)
        v[s] = pg_u01f(w[s]);
}

PG_INLINE PG_HOST_DEVICE void
pg_block_normal_f32(const uint32_t w[4], float v[4])
{
    pg_normal_pair_f32(w[0], w[1], &v[0], &v[1]);
    pg_normal_pair_f32(w[2], w[3], &v[2], &v[3]);
}

PG_INLINE PG_HOST_DEVICE void
pg_block_exponential_f32(const uint32_t w[4], float v[4])
{
    for (int s = 0; s < 4; s++)
        v[s] = PG_FSUB(0.0f, pg_rlogf(pg_u01f_pos(w[s])));
}

PG_INLINE PG_HOST_DEVICE void
pg_block_uniform_f64(const uint32_t w[4], const double pa[2], const double pb[2], int standard, double v[2])
{
    for (int s = 0; s < 2; s++) {
        double u = pg_u01(w[2 * s], w[2 * s + 1]);
        v[s] = standard ? u : PG_DADD(pa[s], PG_DMUL(pb[s], u));
    }
}

PG_INLINE PG_HOST_DEVICE void
pg_block_normal_f64(const uint32_t w[4], const double pa[2], const double pb[2], int standard, double v[2])
{
    double z[2];
    pg_normal_pair_f64(w[0], w[1], w[2], w[3], &z[0], &z[1]);
    for (int s = 0; s < 2; s++)
        v[s] = standard ? z[s] : PG_DADD(pa[s], PG_DMUL(pb[s], z[s]));
}

PG_INLINE PG_HOST_DEVICE void
pg_block_lognormal_f64(const uint32_t w[4], const double pa[2], const double pb[2], double v[2])
{
    double z[2];
    pg_normal_pair_f64(w[0], w[1], w[2], w[3], &z[0], &z[1]);
    for (int s = 0; s < 2; s++)
        v[s] = pg_rexp(PG_DADD(pa[s], PG_DMUL(pb[s], z[s])));
}

PG_INLINE PG_HOST_DEVICE void
pg_block_exponential_f64(const uint32_t w[4], const double pa[2], int standard, double v[2])
{
    for (int s = 0; s < 2; s++) {
        double e = PG_DSUB(0.0, pg_rlog_normal(PG_DSUB(1.0, pg_u01(w[2 * s], w[2 * s + 1]))));
        v[s] = standard ? e : PG_DMUL(pa[s], e);
    }
}

PG_INLINE PG_HOST_DEVICE void
pg_block_laplace_f64(const uint32_t w[4], const double pa[2], const double pb[2], double v[2])
{
    for (int s = 0; s < 2; s++) {
        double u = pg_u01_open(w[2 * s], w[2 * s + 1]);
        if (u >= 0.5)
            v[s] = PG_DSUB(pa[s], PG_DMUL(pb[s], pg_rlog_normal(PG_DSUB(2.0, PG_DMUL(2.0, u)))));
        else
            v[s] = PG_DADD(pa[s], PG_DMUL(pb[s], pg_rlog_normal(PG_DMUL(2.0, u))));
    }
}

PG_INLINE PG_HOST_DEVICE void
pg_block_logistic_f64(const uint32_t w[4], const double pa[2], const double pb[2], double v[2])
{
    for (int s = 0; s < 2; s++) {
        double u = pg_u01_open(w[2 * s], w[2 * s + 1]);
        v[s] = PG_DADD(pa[s], PG_DMUL(pb[s], pg_rlog_normal(PG_DDIV(u, PG_DSUB(1.0, u)))));
    }
}

/* NumPy's clamp of huge geometric variates. */
#define PG_INT64_MAX_AS_DOUBLE 9.2233720368547758e18

PG_INLINE PG_HOST_DEVICE void
pg_block_geometric(const uint32_t w[4], const double pa[2], int64_t v[2])
{
    for (int s = 0; s < 2; s++) {
        double p = pa[s];
        double x = ceil(PG_DDIV(pg_rlog_normal(pg_u01_open(w[2 * s], w[2 * s + 1])), pg_rlog1p(-p)));
        v[s] = p == 1.0 ? 1 : x >= PG_INT64_MAX_AS_DOUBLE ? INT64_MAX : (int64_t)x;
    }
}

/* ------------------------------------------------------------------ one block, one element */

#ifdef __CUDA_ARCH__
#define PG_RANDOM_ALIGNED16(p) ((((uintptr_t)(p)) & 15) == 0)
#endif

/* Stores the first n of values v[0..E) (type T) at out + i0: one 16-byte store on the GPU when
 * the whole block is there and aligned. */
#define PG_RANDOM_STORE_F32(out, i0, v, n)                                                  \
    do {                                                                                    \
        float *o_ = (float *)(out) + (i0);                                                  \
        PG_RANDOM_STORE_WIDE(o_, float4, make_float4((v)[0], (v)[1], (v)[2], (v)[3]), 4, n) \
        for (int s_ = 0; s_ < 4; s_++) /* a fixed count: v stays in registers */            \
            if (s_ < (n))                                                                   \
                o_[s_] = (v)[s_];                                                           \
    } while (0)
#define PG_RANDOM_STORE_F64(out, i0, v, n)                                                  \
    do {                                                                                    \
        double *o_ = (double *)(out) + (i0);                                                \
        PG_RANDOM_STORE_WIDE(o_, double2, make_double2((v)[0], (v)[1]), 2, n)              \
        for (int s_ = 0; s_ < 2; s_++)                                                      \
            if (s_ < (n))                                                                   \
                o_[s_] = (v)[s_];                                                           \
    } while (0)
#ifdef __CUDA_ARCH__
#define PG_RANDOM_STORE_WIDE(o, VT, value, e, n)                                            \
    if ((n) == (e) && PG_RANDOM_ALIGNED16(o)) {                                             \
        *(VT *)(o) = (value);                                                               \
        break;                                                                              \
    }
#else
#define PG_RANDOM_STORE_WIDE(o, VT, value, e, n)
#endif

/* Stores integer value x as element i of out (type: any integer type or bool). */
PG_INLINE PG_HOST_DEVICE void
pg_random_store_int(void *out, int type, int64_t i, uint64_t x)
{
    switch (type) {
    case PG_BOOL:
        ((uint8_t *)out)[i] = (uint8_t)(x != 0);
        break;
    case PG_INT8:
    case PG_UINT8:
        ((uint8_t *)out)[i] = (uint8_t)x;
        break;
    case PG_INT16:
    case PG_UINT16:
        ((uint16_t *)out)[i] = (uint16_t)x;
        break;
    case PG_INT32:
    case PG_UINT32:
        ((uint32_t *)out)[i] = (uint32_t)x;
        break;
    default:
        ((uint64_t *)out)[i] = x;
        break;
    }
}

/* The words of block b of a draw. */
PG_INLINE PG_HOST_DEVICE void
pg_random_block_words(const PgRandomArgs *a, int64_t b, uint32_t ctr[3], uint32_t w[4])
{
    pg_philox_counter_add(a->counter, (uint64_t)b, ctr);
    pg_philox4x32_10(ctr[0], ctr[1], ctr[2], 0, a->key[0], a->key[1], w);
}

/* Element i of a bounded-integer draw whose first try was word(s) of its block w. */
PG_INLINE PG_HOST_DEVICE uint64_t
pg_random_integer(const PgRandomArgs *a, const uint32_t ctr[3], const uint32_t w[4], int64_t i)
{
    PgRandStream st;
    if (a->flags & PG_RAND_WIDE) {
        int slot = (int)(i & 1);
        pg_rstream_init(&st, a->key, ctr, slot, w, 2 * slot, 2);
        return pg_random_param_u(a, 0, i) + pg_lemire64(&st, pg_random_param_u(a, 1, i));
    }
    int slot = (int)(i & 3);
    pg_rstream_init(&st, a->key, ctr, slot, w, slot, 1);
    return pg_random_param_u(a, 0, i) + pg_lemire32(&st, (uint32_t)pg_random_param_u(a, 1, i));
}

/* The first element of block b, and how many of its E elements the draw has. */
#define PG_RANDOM_BLOCK_SPAN(a, b, e, i0, n)                                                \
    int e = pg_random_per_block((a)->dist, (a)->type, (a)->flags);                          \
    int64_t i0 = (b) * e;                                                                   \
    int n = (a)->size - i0 < e ? (int)((a)->size - i0) : e

/* Block b of a draw of bits or uniform floats, computed and stored. */
PG_INLINE PG_HOST_DEVICE void
pg_random_uniform_block(const PgRandomArgs *a, int64_t b)
{
    uint32_t ctr[3], w[4];
    pg_random_block_words(a, b, ctr, w);
    PG_RANDOM_BLOCK_SPAN(a, b, e, i0, n);
    if (a->dist == PG_RAND_BITS) {
        for (int s = 0; s < 4; s++) {
            if (e == 2 && s < n)
                ((uint64_t *)a->out)[i0 + s] = ((uint64_t)w[2 * (s & 1)] << 32) | w[2 * (s & 1) + 1];
            else if (e == 4 && s < n)
                ((uint32_t *)a->out)[i0 + s] = w[s];
        }
    } else if (a->type == PG_FLOAT32) {
        float v[4];
        pg_block_uniform_f32(w, v);
        PG_RANDOM_STORE_F32(a->out, i0, v, n);
    } else {
        double pa[2], pb[2], v[2];
        for (int s = 0; s < 2; s++) {
            int64_t i = i0 + (s < n ? s : 0); /* past the end: a valid element's parameters */
            pa[s] = pg_random_param_f(a, 0, i);
            pb[s] = pg_random_param_f(a, 1, i);
        }
        pg_block_uniform_f64(w, pa, pb, a->flags & PG_RAND_STANDARD, v);
        PG_RANDOM_STORE_F64(a->out, i0, v, n);
    }
}

/* Block b of a draw of bounded integers, computed and stored. */
PG_INLINE PG_HOST_DEVICE void
pg_random_integers_block(const PgRandomArgs *a, int64_t b)
{
    uint32_t ctr[3], w[4];
    pg_random_block_words(a, b, ctr, w);
    PG_RANDOM_BLOCK_SPAN(a, b, e, i0, n);
    for (int s = 0; s < 4; s++)
        if (s < n)
            pg_random_store_int(a->out, a->type, i0 + s, pg_random_integer(a, ctr, w, i0 + s));
    (void)e;
}

/* Block b of a draw of the other direct distributions, computed and stored. */
PG_INLINE PG_HOST_DEVICE void
pg_random_transform_block(const PgRandomArgs *a, int64_t b)
{
    uint32_t ctr[3], w[4];
    pg_random_block_words(a, b, ctr, w);
    PG_RANDOM_BLOCK_SPAN(a, b, e, i0, n);
    (void)e;
    if (a->type == PG_FLOAT32) { /* the standard forms */
        float v[4];
        if (a->dist == PG_RAND_NORMAL)
            pg_block_normal_f32(w, v);
        else
            pg_block_exponential_f32(w, v);
        PG_RANDOM_STORE_F32(a->out, i0, v, n);
        return;
    }
    double pa[2], pb[2];
    for (int s = 0; s < 2; s++) {
        int64_t i = i0 + (s < n ? s : 0);
        pa[s] = pg_random_param_f(a, 0, i);
        pb[s] = pg_random_param_f(a, 1, i);
    }
    if (a->dist == PG_RAND_GEOMETRIC) {
        int64_t k[2];
        pg_block_geometric(w, pa, k);
        for (int s = 0; s < 2; s++)
            if (s < n)
                ((int64_t *)a->out)[i0 + s] = k[s];
        return;
    }
    int standard = a->flags & PG_RAND_STANDARD;
    double v[2];
    switch (a->dist) {
    case PG_RAND_NORMAL:
        pg_block_normal_f64(w, pa, pb, standard, v);
        break;
    case PG_RAND_EXPONENTIAL:
        pg_block_exponential_f64(w, pa, standard, v);
        break;
    case PG_RAND_LOGNORMAL:
        pg_block_lognormal_f64(w, pa, pb, v);
        break;
    case PG_RAND_LAPLACE:
        pg_block_laplace_f64(w, pa, pb, v);
        break;
    default:
        pg_block_logistic_f64(w, pa, pb, v);
        break;
    }
    PG_RANDOM_STORE_F64(a->out, i0, v, n);
}

/* Block b of any direct draw. */
PG_INLINE PG_HOST_DEVICE void
pg_random_direct_block(const PgRandomArgs *a, int64_t b)
{
    if (a->dist == PG_RAND_BITS || a->dist == PG_RAND_UNIFORM)
        pg_random_uniform_block(a, b);
    else if (a->dist == PG_RAND_INTEGERS)
        pg_random_integers_block(a, b);
    else
        pg_random_transform_block(a, b);
}

/* Element i of a sampler draw, computed and stored. */
PG_INLINE PG_HOST_DEVICE void
pg_random_sample(const PgRandomArgs *a, int64_t i)
{
    uint32_t ctr[3], w[4];
    pg_random_block_words(a, i, ctr, w);
    PgRandStream st;
    pg_rstream_init(&st, a->key, ctr, 0, w, 0, 4);
    double p0 = pg_random_param_f(a, 0, i), x;
    switch (a->dist) {
    case PG_RAND_POISSON:
        ((int64_t *)a->out)[i] = pg_sample_poisson(&st, p0);
        return;
    case PG_RAND_BINOMIAL:
        ((int64_t *)a->out)[i] = pg_sample_binomial(&st, a->param[0] ? a->param[0][i].i : a->scalar[0].i,
                                                    pg_random_param_f(a, 1, i));
        return;
    case PG_RAND_GAMMA:
        x = pg_sample_gamma(&st, p0);
        if (!(a->flags & PG_RAND_STANDARD))
            x = PG_DMUL(pg_random_param_f(a, 1, i), x);
        break;
    case PG_RAND_BETA:
        x = pg_sample_beta(&st, p0, pg_random_param_f(a, 1, i));
        break;
    case PG_RAND_CHISQUARE:
        x = PG_DMUL(2.0, pg_sample_gamma(&st, PG_DMUL(0.5, p0)));
        break;
    default: { /* PG_RAND_STANDARD_T */
        double z = pg_rstream_normal(&st);
        double g = pg_sample_gamma(&st, PG_DMUL(0.5, p0));
        x = PG_DDIV(PG_DMUL(PG_DSQRT(PG_DMUL(0.5, p0)), z), PG_DSQRT(g));
        break;
    }
    }
    if (a->type == PG_FLOAT32)
        ((float *)a->out)[i] = (float)x;
    else
        ((double *)a->out)[i] = x;
}
#endif
