/* The reducer table, its identities and conversions. */
#include "runtime/reducer_table.h"
#include "kernels/reduce.h"
#include "kernels/kernel_ids.h"
#include <math.h>

#define PG_RED_OP(NAME, S) {#NAME, PG_RKIND_OP, PG_TYPE_##S, PG_K_##NAME, (int)sizeof(pg_racc_##NAME)},
#define PG_RED_ARG(NAME, S, CMP) {#NAME, PG_RKIND_ARG, PG_TYPE_##S, -1, (int)sizeof(pg_racc_##NAME)},
#define PG_RED_MOMENTS(NAME, S, R) {#NAME, PG_RKIND_MOMENTS, PG_TYPE_##S, -1, (int)sizeof(pg_racc_##NAME)},
const PgReducerInfo pg_reducers[PG_NREDUCERS] = {
#include "kernels/reduce.def"
};

int
pg_reducer_of_loop(int kernel_id)
{
    for (int r = 0; r < PG_NOP_REDUCERS; r++)
        if (pg_reducers[r].loop == kernel_id)
            return r;
    return -1;
}

static int
starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* bits of the value re (+ im j for complex types) in float accumulator type t */
static void
float_bits(int t, double re, double im, uint64_t bits[2])
{
    union { uint64_t u[2]; float f[2]; double d[2]; } c = {{0, 0}};
    switch (t) {
    case PG_FLOAT32: c.f[0] = (float)re; break;
    case PG_FLOAT64: c.d[0] = re; break;
    case PG_COMPLEX64: c.f[0] = (float)re; c.f[1] = (float)im; break;
    case PG_COMPLEX128: c.d[0] = re; c.d[1] = im; break;
    default: break;
    }
    bits[0] = c.u[0];
    bits[1] = c.u[1];
}

void
pg_reducer_identity(int reducer, uint64_t bits[2])
{
    const char *name = pg_reducers[reducer].name;
    int t = pg_reducers[reducer].acc_type;
    int is_float = t == PG_FLOAT32 || t == PG_FLOAT64 || t == PG_COMPLEX64 || t == PG_COMPLEX128;
    int max = starts(name, "maximum_"), min = starts(name, "minimum_");
    bits[0] = bits[1] = 0;
    if (starts(name, "add_")) {
        if (is_float)
            float_bits(t, -0.0, -0.0, bits); /* -0.0 + x is x for every x, -0.0 included */
    } else if (starts(name, "multiply_")) {
        if (is_float)
            float_bits(t, 1.0, 0.0, bits);
        else
            bits[0] = 1;
    } else if (max || min) {
        if (is_float) /* maximum(-inf, x) is x, NaN included; complex: (-inf, -inf) */
            float_bits(t, max ? -INFINITY : INFINITY, max ? -INFINITY : INFINITY, bits);
        else if (t == PG_INT64)
            bits[0] = max ? (uint64_t)INT64_MIN : (uint64_t)INT64_MAX;
        else if (t == PG_UINT64)
            bits[0] = max ? 0 : UINT64_MAX;
        else if (t == PG_INT32) /* the low bytes hold the 32-bit accumulator */
            bits[0] = max ? (uint32_t)INT32_MIN : (uint32_t)INT32_MAX;
        else if (t == PG_UINT32)
            bits[0] = max ? 0 : UINT32_MAX;
    } else if (starts(name, "fmax_") || starts(name, "fmin_")) {
        float_bits(t, NAN, NAN, bits); /* fmax(NaN, x) is x */
    } else if (starts(name, "logical_and_")) {
        bits[0] = 1;
    } else if (starts(name, "bitwise_and_")) {
        bits[0] = UINT64_MAX;
    }
}

void
pg_reducer_convert(int reducer, const void *src, int src_type, uint64_t bits[2])
{
    union { uint64_t u[2]; pg_bool b; int32_t i32; uint32_t u32; int64_t i; uint64_t q; float f; double d; pg_complex64 c;
            pg_complex128 z; } c = {{0, 0}};
    const char *p = (const char *)src;
    switch (pg_reducers[reducer].acc_type) {
    case PG_BOOL: c.b = pg_load_b(p, src_type); break;
    case PG_INT32: c.i32 = pg_load_i32(p, src_type); break;
    case PG_UINT32: c.u32 = pg_load_u32(p, src_type); break;
    case PG_INT64: c.i = pg_load_i64(p, src_type); break;
    case PG_UINT64: c.q = pg_load_u64(p, src_type); break;
    case PG_FLOAT32: c.f = pg_load_f32(p, src_type); break;
    case PG_FLOAT64: c.d = pg_load_f64(p, src_type); break;
    case PG_COMPLEX64: c.c = pg_load_c64(p, src_type); break;
    default: c.z = pg_load_c128(p, src_type); break;
    }
    bits[0] = c.u[0];
    bits[1] = c.u[1];
}
