/* The random-number kernels' interface (random.h): the distributions, the arguments of one
 * draw, and how many elements a block of the stream makes. Shared by the host code that
 * launches draws and by the kernels; common subset of C and CUDA C. */
#ifndef PG_RANDOM_ARGS_H
#define PG_RANDOM_ARGS_H
#include "kernel_types.h"

/* The distributions (pygpu/random.py has their numbers from _core._random_constants()). */
typedef enum {
    PG_RAND_BITS = 0,     /* raw words: uint32 (one word) or uint64 (two) */
    PG_RAND_UNIFORM,      /* p0 + p1 U, U in [0, 1)                float32 (standard), float64 */
    PG_RAND_NORMAL,       /* p0 + p1 Z (Box-Muller)                float32 (standard), float64 */
    PG_RAND_EXPONENTIAL,  /* p0 E, E = -log(U), U in (0, 1]        float32 (standard), float64 */
    PG_RAND_LOGNORMAL,    /* exp(p0 + p1 Z)                        float64 */
    PG_RAND_LAPLACE,      /* p0 -+ p1 log(2U or 2-2U)              float64 */
    PG_RAND_LOGISTIC,     /* p0 + p1 log(U / (1-U))                float64 */
    PG_RAND_GEOMETRIC,    /* ceil(log U / log1p(-p0)), by inversion int64 */
    PG_RAND_INTEGERS,     /* p0 + [0, p1] (Lemire, unbiased)       every integer type, bool */
    PG_RAND_NDIRECT,
    /* samplers: one element per block, extra blocks as needed */
    PG_RAND_GAMMA = PG_RAND_NDIRECT, /* p1 Gamma(p0) (Marsaglia-Tsang)   float32, float64 */
    PG_RAND_BETA,         /* Beta(p0, p1) (Johnk, or two gammas)     float64 */
    PG_RAND_CHISQUARE,    /* 2 Gamma(p0 / 2)                         float64 */
    PG_RAND_STANDARD_T,   /* Z sqrt(p0/2) / sqrt(Gamma(p0 / 2))      float64 */
    PG_RAND_POISSON,      /* PTRS (Hormann) for p0 >= 10, else multiplication    int64 */
    PG_RAND_BINOMIAL,     /* n = p0.i, p = p1: BTPE for n min(p,q) > 30, else inversion  int64 */
    PG_RAND_NDIST
} PgRandomDist;

enum {
    PG_RAND_STANDARD = 0x1, /* the standard form: parameters unused (p0 = 0, p1 = 1 exactly) */
    PG_RAND_WIDE = 0x2,     /* integers: ranges above 2^32 - 1 (two words per element) */
};

/* One parameter value: a double, or for integers/binomial n a 64-bit integer. */
typedef union {
    double f;
    int64_t i;
    uint64_t u;
} PgRandomParam;

/* One draw. Passed by value to the CUDA kernels. */
typedef struct PgRandomArgs {
    uint32_t key[2];
    uint32_t counter[3];          /* the draw's first block */
    int32_t dist;                 /* PgRandomDist */
    int32_t type;                 /* PgType of out */
    int32_t flags;
    int64_t size;                 /* elements */
    void *out;                    /* size contiguous elements of `type` */
    const PgRandomParam *param[3]; /* size values each, or NULL: scalar[k] for every element */
    PgRandomParam scalar[3];
} PgRandomArgs;

/* Elements per block (E above). */
PG_INLINE PG_HOST_DEVICE int
pg_random_per_block(int dist, int type, int flags)
{
    switch (dist) {
    case PG_RAND_BITS:
        return type == PG_UINT64 ? 2 : 4;
    case PG_RAND_INTEGERS:
        return (flags & PG_RAND_WIDE) ? 2 : 4;
    case PG_RAND_UNIFORM:
    case PG_RAND_NORMAL:
    case PG_RAND_EXPONENTIAL:
        return type == PG_FLOAT32 ? 4 : 2;
    case PG_RAND_LOGNORMAL:
    case PG_RAND_LAPLACE:
    case PG_RAND_LOGISTIC:
    case PG_RAND_GEOMETRIC:
        return 2;
    default:
        return 1;
    }
}

/* The blocks of a draw: its size / E rounded up (samplers: its size). */
PG_INLINE PG_HOST_DEVICE int64_t
pg_random_blocks(const PgRandomArgs *a)
{
    int e = pg_random_per_block(a->dist, a->type, a->flags);
    return (a->size + e - 1) / e;
}

PG_INLINE PG_HOST_DEVICE double
pg_random_param_f(const PgRandomArgs *a, int k, int64_t i)
{
    return a->param[k] ? a->param[k][i].f : a->scalar[k].f;
}

PG_INLINE PG_HOST_DEVICE uint64_t
pg_random_param_u(const PgRandomArgs *a, int k, int64_t i)
{
    return a->param[k] ? a->param[k][i].u : a->scalar[k].u;
}
#endif
