/* The CPU instantiation of the random-number kernels of random.h. A range of blocks is done in
 * batches: Philox for a batch of counters into word arrays (one vectorisable loop), then the
 * distribution's block function over the batch (another), with the distribution chosen outside
 * the loops. A last partial block, and the rare second tries of bounded integers, go through
 * the generic per-block functions that the GPU runs, so both paths compute the same thing. */
#include "random.h"
#include "random_cpu.h"

/* Compiled three times, for AVX-512, AVX2 and baseline x86-64, the best picked at load time
 * (GCC's function multiversioning), so that the transforms vectorise as wide as the CPU goes
 * (normal float64: 4.5x NumPy with AVX-512, 1.1x with SSE2). Integer results are the same by
 * definition; float ones too, as the code spells out each IEEE operation and fma contraction
 * is off (-ffp-contract=off). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) /* ifunc */
#define PG_RANDOM_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define PG_RANDOM_CLONES
#endif

/* Blocks per batch: 4 word arrays of this many stay in L1. */
#define PG_RANDOM_BATCH 128

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PG_RANDOM_AVX2 1

/* Philox for 8 blocks at a time with AVX2: counter words in 64-bit lanes, so that each
 * 32x32->64 multiply is one vpmuludq with its high and low halves in place (gcc's own
 * vectorisation shuffles 32-bit lanes to and fro every round, 3x slower). Lanes hold words in
 * their low halves; the high halves carry junk that vpmuludq ignores, masked off at the end.
 * Counters c0 + j for j < m without a carry out of word 0. */
__attribute__((target("avx2"))) static int
philox_batch_avx2(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t k0, uint32_t k1, int m,
                  uint32_t W[4][PG_RANDOM_BATCH])
{
    const __m256i m0 = _mm256_set1_epi64x(PG_PHILOX_M0), m1 = _mm256_set1_epi64x(PG_PHILOX_M1);
    const __m256i pack = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    __m256i ka[10], kb[10];
    for (int r = 0; r < 10; r++) {
        ka[r] = _mm256_set1_epi64x(k0);
        kb[r] = _mm256_set1_epi64x(k1);
        k0 += PG_PHILOX_W0;
        k1 += PG_PHILOX_W1;
    }
    int j = 0;
    for (; j + 8 <= m; j += 8) {
        uint32_t c = c0 + (uint32_t)j;
        __m256i x0 = _mm256_setr_epi64x(c, c + 1, c + 2, c + 3), y0 = _mm256_setr_epi64x(c + 4, c + 5, c + 6, c + 7);
        __m256i x1 = _mm256_set1_epi64x(c1), x2 = _mm256_set1_epi64x(c2), x3 = _mm256_setzero_si256();
        __m256i y1 = x1, y2 = x2, y3 = x3;
        for (int r = 0; r < 10; r++) {
            __m256i px0 = _mm256_mul_epu32(x0, m0), px2 = _mm256_mul_epu32(x2, m1);
            __m256i py0 = _mm256_mul_epu32(y0, m0), py2 = _mm256_mul_epu32(y2, m1);
            x0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(px2, 32), x1), ka[r]);
            x2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(px0, 32), x3), kb[r]);
            y0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(py2, 32), y1), ka[r]);
            y2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(py0, 32), y3), kb[r]);
            x1 = px2;
            x3 = px0;
            y1 = py2;
            y3 = py0;
        }
        /* the low halves of x (blocks j..j+3) then of y (j+4..j+7) */
#define PG_PACK8(x, y) _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(x, pack), _mm256_permutevar8x32_epi32(y, pack), 0x20)
        _mm256_storeu_si256((__m256i *)&W[0][j], PG_PACK8(x0, y0));
        _mm256_storeu_si256((__m256i *)&W[1][j], PG_PACK8(x1, y1));
        _mm256_storeu_si256((__m256i *)&W[2][j], PG_PACK8(x2, y2));
        _mm256_storeu_si256((__m256i *)&W[3][j], PG_PACK8(x3, y3));
#undef PG_PACK8
    }
    return j;
}

/* Whether this CPU runs AVX2 (asked once; a race only repeats the question). */
static int
have_avx2(void)
{
    static int known = -1;
    if (known < 0)
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}
#endif

/* The words of blocks b0 .. b0+m-1. */
static inline __attribute__((always_inline)) void
philox_batch(const PgRandomArgs *a, int64_t b0, int m, uint32_t W[4][PG_RANDOM_BATCH])
{
    uint32_t c[3];
    pg_philox_counter_add(a->counter, (uint64_t)b0, c);
    const uint32_t k0 = a->key[0], k1 = a->key[1];
    if (c[0] <= UINT32_MAX - (uint32_t)m) { /* word 0 does not carry within the batch */
        const uint32_t c0 = c[0], c1 = c[1], c2 = c[2];
        int j = 0;
#ifdef PG_RANDOM_AVX2
        if (have_avx2())
            j = philox_batch_avx2(c0, c1, c2, k0, k1, m, W);
#endif
        for (; j < m; j++) {
            uint32_t w[4];
            pg_philox4x32_10(c0 + (uint32_t)j, c1, c2, 0, k0, k1, w);
            W[0][j] = w[0];
            W[1][j] = w[1];
            W[2][j] = w[2];
            W[3][j] = w[3];
        }
        return;
    }
    for (int j = 0; j < m; j++) {
        uint32_t cj[3], w[4];
        pg_random_block_words(a, b0 + j, cj, w);
        W[0][j] = w[0];
        W[1][j] = w[1];
        W[2][j] = w[2];
        W[3][j] = w[3];
    }
}

#define PG_WORDS(j) {W[0][j], W[1][j], W[2][j], W[3][j]}

/* float32 standard forms: 4 values a block */
#define PG_BATCH_F32(FN)                                                                    \
    for (int j = 0; j < m; j++) {                                                           \
        uint32_t w[4] = PG_WORDS(j);                                                        \
        float v[4];                                                                         \
        FN(w, v);                                                                           \
        for (int s = 0; s < 4; s++)                                                         \
            out[4 * j + s] = v[s];                                                          \
    }

/* float64 with two parameters per element: 2 values a block */
#define PG_BATCH_F64(CALL)                                                                  \
    for (int j = 0; j < m; j++) {                                                           \
        uint32_t w[4] = PG_WORDS(j);                                                        \
        double pa[2], pb[2], v[2];                                                          \
        (void)pb;                                                                           \
        for (int s = 0; s < 2; s++) {                                                       \
            pa[s] = pa_ ? pa_[2 * j + s].f : sa;                                            \
            pb[s] = pb_ ? pb_[2 * j + s].f : sb;                                            \
        }                                                                                   \
        CALL;                                                                               \
        for (int s = 0; s < 2; s++)                                                         \
            out[2 * j + s] = v[s];                                                          \
    }

static inline __attribute__((always_inline)) void
batch_f32(const PgRandomArgs *a, int m, uint32_t W[4][PG_RANDOM_BATCH], float *out)
{
    switch (a->dist) {
    case PG_RAND_UNIFORM:
        PG_BATCH_F32(pg_block_uniform_f32)
        break;
    case PG_RAND_NORMAL:
        PG_BATCH_F32(pg_block_normal_f32)
        break;
    default:
        PG_BATCH_F32(pg_block_exponential_f32)
        break;
    }
}

/* pa_, pb_: the batch's parameters (element 2j + s), or NULL for the scalars sa, sb */
static inline __attribute__((always_inline)) void
batch_f64(const PgRandomArgs *a, int m, uint32_t W[4][PG_RANDOM_BATCH], const PgRandomParam *pa_,
          const PgRandomParam *pb_, double *out)
{
    const double sa = a->scalar[0].f, sb = a->scalar[1].f;
    const int standard = a->flags & PG_RAND_STANDARD;
    switch (a->dist) {
    case PG_RAND_UNIFORM:
        if (standard)
            PG_BATCH_F64(pg_block_uniform_f64(w, pa, pb, 1, v))
        else
            PG_BATCH_F64(pg_block_uniform_f64(w, pa, pb, 0, v))
        break;
    case PG_RAND_NORMAL:
        if (standard)
            PG_BATCH_F64(pg_block_normal_f64(w, pa, pb, 1, v))
        else
            PG_BATCH_F64(pg_block_normal_f64(w, pa, pb, 0, v))
        break;
    case PG_RAND_EXPONENTIAL:
        if (standard)
            PG_BATCH_F64(pg_block_exponential_f64(w, pa, 1, v))
        else
            PG_BATCH_F64(pg_block_exponential_f64(w, pa, 0, v))
        break;
    case PG_RAND_LOGNORMAL:
        PG_BATCH_F64(pg_block_lognormal_f64(w, pa, pb, v))
        break;
    case PG_RAND_LAPLACE:
        PG_BATCH_F64(pg_block_laplace_f64(w, pa, pb, v))
        break;
    default:
        PG_BATCH_F64(pg_block_logistic_f64(w, pa, pb, v))
        break;
    }
}

static inline __attribute__((always_inline)) void
batch_geometric(const PgRandomArgs *a, int m, uint32_t W[4][PG_RANDOM_BATCH], const PgRandomParam *pa_,
                int64_t *out)
{
    const double sa = a->scalar[0].f;
    for (int j = 0; j < m; j++) {
        uint32_t w[4] = PG_WORDS(j);
        double pa[2];
        int64_t v[2];
        for (int s = 0; s < 2; s++)
            pa[s] = pa_ ? pa_[2 * j + s].f : sa;
        pg_block_geometric(w, pa, v);
        out[2 * j] = v[0];
        out[2 * j + 1] = v[1];
    }
}

/* Bounded integers, first tries: the value of every element, and the few that need Lemire's
 * check go to pg_random_integer afterwards. T: the stored type. */
#define PG_BATCH_INT32(T)                                                                   \
    for (int j = 0; j < m; j++) {                                                           \
        for (int s = 0; s < 4; s++) {                                                       \
            int64_t i = i0 + 4 * j + s;                                                     \
            uint64_t off = po ? po[i].u : so;                                               \
            uint32_t rng = (uint32_t)(pr ? pr[i].u : sr);                                   \
            int check;                                                                      \
            uint32_t r = pg_lemire32_try(W[s][j], rng, &check);                             \
            ((T *)a->out)[i] = (T)(off + r);                                                \
            nfix += check;                                                                  \
        }                                                                                   \
    }

static inline __attribute__((always_inline)) void
batch_integers(const PgRandomArgs *a, int64_t b0, int m, uint32_t W[4][PG_RANDOM_BATCH])
{
    const PgRandomParam *po = a->param[0], *pr = a->param[1];
    const uint64_t so = a->scalar[0].u, sr = a->scalar[1].u;
    const int64_t i0 = b0 * (a->flags & PG_RAND_WIDE ? 2 : 4);
    int nfix = 0;
    if (a->flags & PG_RAND_WIDE) {
        /* ranges above 2^32: the 128-bit products are not worth a separate fast path */
        for (int j = 0; j < m; j++) {
            uint32_t w[4] = PG_WORDS(j), c[3];
            pg_philox_counter_add(a->counter, (uint64_t)(b0 + j), c);
            for (int s = 0; s < 2; s++)
                pg_random_store_int(a->out, a->type, i0 + 2 * j + s, pg_random_integer(a, c, w, i0 + 2 * j + s));
        }
        return;
    }
    switch (a->type) {
    case PG_BOOL:
    case PG_INT8:
    case PG_UINT8:
        PG_BATCH_INT32(uint8_t)
        break;
    case PG_INT16:
    case PG_UINT16:
        PG_BATCH_INT32(uint16_t)
        break;
    case PG_INT32:
    case PG_UINT32:
        PG_BATCH_INT32(uint32_t)
        break;
    default:
        PG_BATCH_INT32(uint64_t)
        break;
    }
    if (nfix == 0)
        return;
    for (int j = 0; j < m; j++) {
        uint32_t w[4] = PG_WORDS(j), c[3];
        int looked = 0;
        for (int s = 0; s < 4; s++) {
            int64_t i = i0 + 4 * j + s;
            int check;
            pg_lemire32_try(w[s], (uint32_t)(pr ? pr[i].u : sr), &check);
            if (!check)
                continue;
            if (!looked) {
                pg_philox_counter_add(a->counter, (uint64_t)(b0 + j), c);
                looked = 1;
            }
            pg_random_store_int(a->out, a->type, i, pg_random_integer(a, c, w, i));
        }
    }
}

PG_RANDOM_CLONES void
pg_cpu_random(const PgRandomArgs *a, int64_t begin, int64_t end)
{
    if (a->dist >= PG_RAND_NDIRECT) {
        for (int64_t i = begin; i < end; i++)
            pg_random_sample(a, i);
        return;
    }
    const int e = pg_random_per_block(a->dist, a->type, a->flags);
    int64_t full = a->size / e; /* blocks with all E elements */
    if (end > full) {
        for (int64_t b = full; b < end; b++)
            pg_random_direct_block(a, b);
        end = full;
    }
    uint32_t W[4][PG_RANDOM_BATCH];
    for (int64_t b0 = begin; b0 < end; b0 += PG_RANDOM_BATCH) {
        int m = end - b0 < PG_RANDOM_BATCH ? (int)(end - b0) : PG_RANDOM_BATCH;
        philox_batch(a, b0, m, W);
        int64_t i0 = b0 * e;
        switch (a->dist) {
        case PG_RAND_BITS:
            for (int j = 0; j < m; j++) {
                if (e == 2) {
                    ((uint64_t *)a->out)[i0 + 2 * j] = ((uint64_t)W[0][j] << 32) | W[1][j];
                    ((uint64_t *)a->out)[i0 + 2 * j + 1] = ((uint64_t)W[2][j] << 32) | W[3][j];
                } else {
                    for (int s = 0; s < 4; s++)
                        ((uint32_t *)a->out)[i0 + 4 * j + s] = W[s][j];
                }
            }
            break;
        case PG_RAND_INTEGERS:
            batch_integers(a, b0, m, W);
            break;
        case PG_RAND_GEOMETRIC:
            batch_geometric(a, m, W, a->param[0] ? a->param[0] + i0 : NULL, (int64_t *)a->out + i0);
            break;
        default:
            if (a->type == PG_FLOAT32)
                batch_f32(a, m, W, (float *)a->out + i0);
            else
                batch_f64(a, m, W, a->param[0] ? a->param[0] + i0 : NULL, a->param[1] ? a->param[1] + i0 : NULL,
                          (double *)a->out + i0);
            break;
        }
    }
}
