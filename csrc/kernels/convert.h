/* Loading an element of any stored type as a compute type, and storing a compute value as any
 * stored type: the casts between all 14 dtypes (NumPy's unsafe casting), as C casts do them
 * except float -> integer, which pg_f64_to_i32/i64/u64 define for every value.
 * Each compute type has a suffix: b i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 c64 c128.
 * float16 is stored as pg_half and computed as float, like NumPy's half loops. */
#ifndef PG_CONVERT_H
#define PG_CONVERT_H
#include "kernel_types.h"
#include "half.h"

typedef unsigned char pg_bool;
/* compute types by suffix */
typedef pg_bool pg_t_b;
typedef int8_t pg_t_i8;
typedef int16_t pg_t_i16;
typedef int32_t pg_t_i32;
typedef int64_t pg_t_i64;
typedef uint8_t pg_t_u8;
typedef uint16_t pg_t_u16;
typedef uint32_t pg_t_u32;
typedef uint64_t pg_t_u64;
typedef float pg_t_f16;
typedef float pg_t_f32;
typedef double pg_t_f64;
typedef pg_complex64 pg_t_c64;
typedef pg_complex128 pg_t_c128;
/* storage types by suffix */
typedef pg_bool pg_s_b;
typedef int8_t pg_s_i8;
typedef int16_t pg_s_i16;
typedef int32_t pg_s_i32;
typedef int64_t pg_s_i64;
typedef uint8_t pg_s_u8;
typedef uint16_t pg_s_u16;
typedef uint32_t pg_s_u32;
typedef uint64_t pg_s_u64;
typedef pg_half pg_s_f16;
typedef float pg_s_f32;
typedef double pg_s_f64;
typedef pg_complex64 pg_s_c64;
typedef pg_complex128 pg_s_c128;

/* Float -> integer conversion, defined for every value and the same on both backends: C leaves
 * an out-of-range conversion undefined and the GPU's cvt instructions saturate (-8.0 -> uint8
 * gave 0 on the GPU, 248 in NumPy). Truncation toward zero into a 32-bit intermediate (targets of
 * up to 32 bits) or a 64-bit one, NaN and values outside the intermediate's range giving its
 * minimum (what x86's cvttsd2si gives, and NumPy on x86 shows), then two's complement narrowing.
 * uint32 goes through the 64-bit intermediate and uint64 splits at 2^63, as x86 compilers do, so
 * negative values wrap: -8.0 -> 248 (uint8), 4294967288 (uint32). Out-of-range results for
 * unsigned targets follow this rule; NumPy's own differ between its SIMD paths. */
PG_HOST_DEVICE PG_INLINE int32_t
pg_f64_to_i32(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN; /* NaN fails both */
}

PG_HOST_DEVICE PG_INLINE int64_t
pg_f64_to_i64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

PG_HOST_DEVICE PG_INLINE uint64_t
pg_f64_to_u64(double x)
{
    if (x >= 9223372036854775808.0)
        return (uint64_t)pg_f64_to_i64(x - 9223372036854775808.0) ^ ((uint64_t)1 << 63);
    return (uint64_t)pg_f64_to_i64(x);
}

/* A floating value x (any C floating type) as compute type SUF: the rule above for integers, a
 * plain conversion for floating types (defined: out-of-range gives inf). */
#define PG_FROM_FLOAT_b(x) ((pg_bool)((x) != 0))
#define PG_FROM_FLOAT_i8(x) ((int8_t)pg_f64_to_i32((double)(x)))
#define PG_FROM_FLOAT_i16(x) ((int16_t)pg_f64_to_i32((double)(x)))
#define PG_FROM_FLOAT_i32(x) pg_f64_to_i32((double)(x))
#define PG_FROM_FLOAT_i64(x) pg_f64_to_i64((double)(x))
#define PG_FROM_FLOAT_u8(x) ((uint8_t)pg_f64_to_i32((double)(x)))
#define PG_FROM_FLOAT_u16(x) ((uint16_t)pg_f64_to_i32((double)(x)))
#define PG_FROM_FLOAT_u32(x) ((uint32_t)pg_f64_to_i64((double)(x)))
#define PG_FROM_FLOAT_u64(x) pg_f64_to_u64((double)(x))
#define PG_FROM_FLOAT_f16(x) ((float)(x))
#define PG_FROM_FLOAT_f32(x) ((float)(x))
#define PG_FROM_FLOAT_f64(x) ((double)(x))

/* Reads the element at p, stored as `type`, as the real compute type of suffix SUF (returns from
 * the enclosing function). Integers convert as C does (wrapping to narrower integers), floating
 * values by PG_FROM_FLOAT; for complex sources the real part is taken, as NumPy's unsafe cast. */
#define PG_READ_REAL(SUF, p, type)                                                        \
    switch (type) {                                                                       \
    case PG_BOOL: return (pg_t_##SUF)(*(const uint8_t *)(p) != 0);                        \
    case PG_INT8: return (pg_t_##SUF) * (const int8_t *)(p);                              \
    case PG_INT16: return (pg_t_##SUF) * (const int16_t *)(p);                            \
    case PG_INT32: return (pg_t_##SUF) * (const int32_t *)(p);                            \
    case PG_INT64: return (pg_t_##SUF) * (const int64_t *)(p);                            \
    case PG_UINT8: return (pg_t_##SUF) * (const uint8_t *)(p);                            \
    case PG_UINT16: return (pg_t_##SUF) * (const uint16_t *)(p);                          \
    case PG_UINT32: return (pg_t_##SUF) * (const uint32_t *)(p);                          \
    case PG_UINT64: return (pg_t_##SUF) * (const uint64_t *)(p);                          \
    case PG_FLOAT16: return PG_FROM_FLOAT_##SUF(pg_half_to_float(*(const pg_half *)(p))); \
    case PG_FLOAT32: return PG_FROM_FLOAT_##SUF(*(const float *)(p));                     \
    case PG_FLOAT64: return PG_FROM_FLOAT_##SUF(*(const double *)(p));                    \
    case PG_COMPLEX64: return PG_FROM_FLOAT_##SUF(((const float *)(p))[0]);               \
    default: return PG_FROM_FLOAT_##SUF(((const double *)(p))[0]);                        \
    }

#define PG_DEFINE_REAL_LOAD(SUF)                                                          \
    PG_HOST_DEVICE PG_CONVERT_FN pg_t_##SUF pg_load_##SUF(const char *p, int type)            \
    {                                                                                     \
        PG_READ_REAL(SUF, p, type)                                                        \
    }
PG_DEFINE_REAL_LOAD(i8)
PG_DEFINE_REAL_LOAD(i16)
PG_DEFINE_REAL_LOAD(i32)
PG_DEFINE_REAL_LOAD(i64)
PG_DEFINE_REAL_LOAD(u8)
PG_DEFINE_REAL_LOAD(u16)
PG_DEFINE_REAL_LOAD(u32)
PG_DEFINE_REAL_LOAD(u64)
PG_DEFINE_REAL_LOAD(f32)
PG_DEFINE_REAL_LOAD(f64)

/* float16's compute type is float, but its loops see other types' values cast to float16 first,
 * as NumPy's (rounded once: pg_double_to_half) */
PG_HOST_DEVICE PG_CONVERT_FN float
pg_load_f16(const char *p, int type)
{
    if (type == PG_FLOAT16)
        return pg_half_to_float(*(const pg_half *)p);
    return pg_half_to_float(pg_double_to_half(pg_load_f64(p, type)));
}

PG_HOST_DEVICE PG_CONVERT_FN pg_bool
pg_load_b(const char *p, int type)
{
    switch (type) {
    case PG_BOOL: case PG_INT8: case PG_UINT8: return *(const uint8_t *)p != 0;
    case PG_INT16: case PG_UINT16: return *(const uint16_t *)p != 0;
    case PG_FLOAT16: return (*(const uint16_t *)p & 0x7fffu) != 0;
    case PG_INT32: case PG_UINT32: return *(const uint32_t *)p != 0;
    case PG_INT64: case PG_UINT64: return *(const uint64_t *)p != 0;
    case PG_FLOAT32: return *(const float *)p != 0.0f;
    case PG_FLOAT64: return *(const double *)p != 0.0;
    case PG_COMPLEX64: return ((const float *)p)[0] != 0.0f || ((const float *)p)[1] != 0.0f;
    default: return ((const double *)p)[0] != 0.0 || ((const double *)p)[1] != 0.0;
    }
}

#define PG_DEFINE_COMPLEX_LOAD(SUF, RSUF, RT)                                              \
    PG_HOST_DEVICE PG_CONVERT_FN RT pg_load_re_##SUF(const char *p, int type)                  \
    {                                                                                      \
        PG_READ_REAL(RSUF, p, type)                                                        \
    }                                                                                      \
    PG_HOST_DEVICE PG_CONVERT_FN pg_t_##SUF pg_load_##SUF(const char *p, int type)             \
    {                                                                                      \
        pg_t_##SUF v;                                                                      \
        v.re = pg_load_re_##SUF(p, type);                                                  \
        v.im = type == PG_COMPLEX64 ? (RT)((const float *)p)[1]                            \
             : type == PG_COMPLEX128 ? (RT)((const double *)p)[1] : (RT)0;                 \
        return v;                                                                          \
    }
PG_DEFINE_COMPLEX_LOAD(c64, f32, float)
PG_DEFINE_COMPLEX_LOAD(c128, f64, double)

/* Stores the real value v as `type` at p. CONV(T, v) converts v to the integer or floating
 * compute type of suffix T: a C cast for integer values, PG_FROM_FLOAT for floating ones. */
#define PG_CONV_INT(T, v) ((pg_t_##T)(v))
#define PG_CONV_FLOAT(T, v) PG_FROM_FLOAT_##T(v)
#define PG_WRITE_REAL(CONV, p, type, v)                                                    \
    switch (type) {                                                                        \
    case PG_BOOL: *(uint8_t *)(p) = (v) != 0; break;                                       \
    case PG_INT8: *(int8_t *)(p) = CONV(i8, v); break;                                     \
    case PG_INT16: *(int16_t *)(p) = CONV(i16, v); break;                                  \
    case PG_INT32: *(int32_t *)(p) = CONV(i32, v); break;                                  \
    case PG_INT64: *(int64_t *)(p) = CONV(i64, v); break;                                  \
    case PG_UINT8: *(uint8_t *)(p) = CONV(u8, v); break;                                   \
    case PG_UINT16: *(uint16_t *)(p) = CONV(u16, v); break;                                \
    case PG_UINT32: *(uint32_t *)(p) = CONV(u32, v); break;                                \
    case PG_UINT64: *(uint64_t *)(p) = CONV(u64, v); break;                                \
    case PG_FLOAT16: *(pg_half *)(p) = pg_double_to_half((double)(v)); break;              \
    case PG_FLOAT32: *(float *)(p) = (float)(v); break;                                    \
    case PG_FLOAT64: *(double *)(p) = (double)(v); break;                                  \
    case PG_COMPLEX64: ((float *)(p))[0] = (float)(v); ((float *)(p))[1] = 0.0f; break;    \
    default: ((double *)(p))[0] = (double)(v); ((double *)(p))[1] = 0.0; break;            \
    }

/* which conversion a compute type's values take on the way to an integer */
#define PG_CONV_OF_b PG_CONV_INT
#define PG_CONV_OF_i8 PG_CONV_INT
#define PG_CONV_OF_i16 PG_CONV_INT
#define PG_CONV_OF_i32 PG_CONV_INT
#define PG_CONV_OF_i64 PG_CONV_INT
#define PG_CONV_OF_u8 PG_CONV_INT
#define PG_CONV_OF_u16 PG_CONV_INT
#define PG_CONV_OF_u32 PG_CONV_INT
#define PG_CONV_OF_u64 PG_CONV_INT
#define PG_CONV_OF_f16 PG_CONV_FLOAT
#define PG_CONV_OF_f32 PG_CONV_FLOAT
#define PG_CONV_OF_f64 PG_CONV_FLOAT

#define PG_DEFINE_REAL_STORE(SUF)                                                          \
    PG_HOST_DEVICE PG_CONVERT_FN void pg_store_##SUF(char *p, int type, pg_t_##SUF v)          \
    {                                                                                      \
        PG_WRITE_REAL(PG_CONV_OF_##SUF, p, type, v)                                        \
    }
PG_DEFINE_REAL_STORE(b)
PG_DEFINE_REAL_STORE(i8)
PG_DEFINE_REAL_STORE(i16)
PG_DEFINE_REAL_STORE(i32)
PG_DEFINE_REAL_STORE(i64)
PG_DEFINE_REAL_STORE(u8)
PG_DEFINE_REAL_STORE(u16)
PG_DEFINE_REAL_STORE(u32)
PG_DEFINE_REAL_STORE(u64)
PG_DEFINE_REAL_STORE(f16)
PG_DEFINE_REAL_STORE(f32)
PG_DEFINE_REAL_STORE(f64)

#define PG_DEFINE_COMPLEX_STORE(SUF)                                                       \
    PG_HOST_DEVICE PG_CONVERT_FN void pg_store_##SUF(char *p, int type, pg_t_##SUF v)          \
    {                                                                                      \
        if (type == PG_COMPLEX64) {                                                        \
            ((float *)p)[0] = (float)v.re; ((float *)p)[1] = (float)v.im;                  \
        } else if (type == PG_COMPLEX128) {                                                \
            ((double *)p)[0] = (double)v.re; ((double *)p)[1] = (double)v.im;              \
        } else if (type == PG_BOOL) {                                                      \
            *(uint8_t *)p = v.re != 0 || v.im != 0;                                        \
        } else {                                                                           \
            PG_WRITE_REAL(PG_CONV_FLOAT, p, type, v.re)                                    \
        }                                                                                  \
    }
PG_DEFINE_COMPLEX_STORE(c64)
PG_DEFINE_COMPLEX_STORE(c128)

/* storage <-> compute for the typed fast paths (only float16 differs) */
#define PG_TO_COMPUTE_b(x) (x)
#define PG_TO_COMPUTE_i8(x) (x)
#define PG_TO_COMPUTE_i16(x) (x)
#define PG_TO_COMPUTE_i32(x) (x)
#define PG_TO_COMPUTE_i64(x) (x)
#define PG_TO_COMPUTE_u8(x) (x)
#define PG_TO_COMPUTE_u16(x) (x)
#define PG_TO_COMPUTE_u32(x) (x)
#define PG_TO_COMPUTE_u64(x) (x)
#define PG_TO_COMPUTE_f16(x) pg_half_to_float(x)
#define PG_TO_COMPUTE_f32(x) (x)
#define PG_TO_COMPUTE_f64(x) (x)
#define PG_TO_COMPUTE_c64(x) (x)
#define PG_TO_COMPUTE_c128(x) (x)
#define PG_TO_STORAGE_b(x) ((pg_bool)((x) != 0))
#define PG_TO_STORAGE_i8(x) (x)
#define PG_TO_STORAGE_i16(x) (x)
#define PG_TO_STORAGE_i32(x) (x)
#define PG_TO_STORAGE_i64(x) (x)
#define PG_TO_STORAGE_u8(x) (x)
#define PG_TO_STORAGE_u16(x) (x)
#define PG_TO_STORAGE_u32(x) (x)
#define PG_TO_STORAGE_u64(x) (x)
#define PG_TO_STORAGE_f16(x) pg_float_to_half(x)
#define PG_TO_STORAGE_f32(x) (x)
#define PG_TO_STORAGE_f64(x) (x)
#define PG_TO_STORAGE_c64(x) (x)
#define PG_TO_STORAGE_c128(x) (x)

/* PgType of each suffix, for the typed fast-path checks */
#define PG_TYPE_b PG_BOOL
#define PG_TYPE_i8 PG_INT8
#define PG_TYPE_i16 PG_INT16
#define PG_TYPE_i32 PG_INT32
#define PG_TYPE_i64 PG_INT64
#define PG_TYPE_u8 PG_UINT8
#define PG_TYPE_u16 PG_UINT16
#define PG_TYPE_u32 PG_UINT32
#define PG_TYPE_u64 PG_UINT64
#define PG_TYPE_f16 PG_FLOAT16
#define PG_TYPE_f32 PG_FLOAT32
#define PG_TYPE_f64 PG_FLOAT64
#define PG_TYPE_c64 PG_COMPLEX64
#define PG_TYPE_c128 PG_COMPLEX128

#endif
