/* Order-preserving sort keys: every element as an unsigned integer whose unsigned order is
 * NumPy's sort order, so that one radix sort of 32- or 64-bit unsigned keys sorts every dtype
 * (a few template instantiations instead of one per dtype), and binary searches compare with
 * one integer comparison.
 *   - unsigned integers and bool: themselves;
 *   - signed integers: the sign bit flipped;
 *   - IEEE floats (half, float, double): positive values with the sign bit set, negative ones
 *     complemented; NaN above +inf (NaNs last, as NumPy sorts them);
 *   - complex: three keys. NumPy orders [R + Rj, R + nanj, nan + Rj, nan + nanj]: first by the
 *     class (which parts are NaN: PG_KEY_CLASS, 0..3), then by the real part, then by the
 *     imaginary part; a stable sort by the imaginary key, then the real one, then the class gives
 *     that order.
 * A key is `bits` wide (8, 16, 32 or 64: pg_key_bits) and is stored in 32 or 64 bits. Descending
 * order complements the key within its width. Two float flavours:
 *   - canonical (for argsort, searches, unique): -0.0 and +0.0 one key, every NaN one key, so
 *     that equal values keep their order in a stable sort and compare equal;
 *   - exact (for a sort of values, which inverts the keys back): -0.0 just below +0.0 and NaN
 *     payloads kept (their sign cleared), so the inversion restores the values. */
#ifndef PG_SORT_KEYS_H
#define PG_SORT_KEYS_H
#include "kernel_types.h"

enum { PG_KEY_EXACT = 0x1, PG_KEY_DESCENDING = 0x2, PG_KEY_IMAG = 0x4, PG_KEY_CLASS = 0x8 };

/* The width of a complex number's class key (PG_KEY_CLASS): one radix digit. */
#define PG_CLASS_KEY_BITS 8

/* The width in bits of type's key (of each part for complex types). */
PG_HOST_DEVICE PG_INLINE int
pg_key_bits(int type)
{
    switch (type) {
    case PG_BOOL: case PG_INT8: case PG_UINT8: return 8;
    case PG_INT16: case PG_UINT16: case PG_FLOAT16: return 16;
    case PG_INT32: case PG_UINT32: case PG_FLOAT32: case PG_COMPLEX64: return 32;
    default: return 64;
    }
}

#define PG_FLOAT_KEY(UT, b, SIGN, INF, exact)                                               \
    do {                                                                                    \
        if (((b) & ~(UT)(SIGN)) > (UT)(INF))                                                \
            return (exact) ? (((b) & ~(UT)(SIGN)) | (UT)(SIGN)) : (UT) ~(UT)0;              \
        if (!(exact) && (b) == (UT)(SIGN))                                                  \
            (b) = 0;                                                                        \
        return ((b) & (UT)(SIGN)) ? (UT) ~(b) : ((b) | (UT)(SIGN));                         \
    } while (0)

PG_HOST_DEVICE PG_INLINE uint16_t
pg_half_key(uint16_t b, int exact)
{
    PG_FLOAT_KEY(uint16_t, b, 0x8000u, 0x7c00u, exact);
}

PG_HOST_DEVICE PG_INLINE uint32_t
pg_float_key(uint32_t b, int exact)
{
    PG_FLOAT_KEY(uint32_t, b, 0x80000000u, 0x7f800000u, exact);
}

PG_HOST_DEVICE PG_INLINE uint64_t
pg_double_key(uint64_t b, int exact)
{
    PG_FLOAT_KEY(uint64_t, b, 0x8000000000000000ull, 0x7ff0000000000000ull, exact);
}

/* The NaN class of a complex number: 2 * isnan(real) + isnan(imag). */
PG_HOST_DEVICE PG_INLINE int
pg_complex_class(const char *p, int type)
{
    if (type == PG_COMPLEX64) {
        const uint32_t *b = (const uint32_t *)p;
        return 2 * ((b[0] & 0x7fffffffu) > 0x7f800000u) + ((b[1] & 0x7fffffffu) > 0x7f800000u);
    }
    const uint64_t *b = (const uint64_t *)p;
    return 2 * ((b[0] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) +
           ((b[1] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull);
}

/* The key of the element at p, stored as `type`; flags PG_KEY_*. */
#ifdef __CUDACC__
__forceinline__
#else
static inline __attribute__((always_inline))
#endif
PG_HOST_DEVICE uint64_t
pg_sort_key(const char *p, int type, int flags)
{
    int exact = flags & PG_KEY_EXACT, part = (flags & PG_KEY_IMAG) ? 1 : 0;
    uint64_t k;
    if (flags & PG_KEY_CLASS) {
        k = (uint64_t)pg_complex_class(p, type);
        return (flags & PG_KEY_DESCENDING) ? 3 - k : k;
    }
    switch (type) {
    case PG_BOOL: case PG_UINT8: k = *(const uint8_t *)p; break;
    case PG_INT8: k = (uint8_t)(*(const uint8_t *)p ^ 0x80u); break;
    case PG_UINT16: k = *(const uint16_t *)p; break;
    case PG_INT16: k = (uint16_t)(*(const uint16_t *)p ^ 0x8000u); break;
    case PG_UINT32: k = *(const uint32_t *)p; break;
    case PG_INT32: k = *(const uint32_t *)p ^ 0x80000000u; break;
    case PG_UINT64: k = *(const uint64_t *)p; break;
    case PG_INT64: k = *(const uint64_t *)p ^ 0x8000000000000000ull; break;
    case PG_FLOAT16: k = pg_half_key(*(const uint16_t *)p, exact); break;
    case PG_FLOAT32: case PG_COMPLEX64: k = pg_float_key(((const uint32_t *)p)[part], exact); break;
    default: k = pg_double_key(((const uint64_t *)p)[part], exact); break;
    }
    if (flags & PG_KEY_DESCENDING) {
        int bits = pg_key_bits(type);
        k = ~k & (bits == 64 ? ~0ull : ((1ull << bits) - 1));
    }
    return k;
}

/* Stores at p, as `type` (not complex), the value whose exact key is k. */
PG_HOST_DEVICE PG_INLINE void
pg_sort_unkey(char *p, int type, uint64_t k, int flags)
{
    int bits = pg_key_bits(type);
    if (flags & PG_KEY_DESCENDING)
        k = ~k & (bits == 64 ? ~0ull : ((1ull << bits) - 1));
    switch (type) {
    case PG_BOOL: case PG_UINT8: *(uint8_t *)p = (uint8_t)k; break;
    case PG_INT8: *(uint8_t *)p = (uint8_t)(k ^ 0x80u); break;
    case PG_UINT16: *(uint16_t *)p = (uint16_t)k; break;
    case PG_INT16: *(uint16_t *)p = (uint16_t)(k ^ 0x8000u); break;
    case PG_UINT32: *(uint32_t *)p = (uint32_t)k; break;
    case PG_INT32: *(uint32_t *)p = (uint32_t)k ^ 0x80000000u; break;
    case PG_UINT64: *(uint64_t *)p = k; break;
    case PG_INT64: *(uint64_t *)p = k ^ 0x8000000000000000ull; break;
    case PG_FLOAT16: *(uint16_t *)p = (uint16_t)((k & 0x8000u) ? (k & 0x7fffu) : ~k); break;
    case PG_FLOAT32: *(uint32_t *)p = (uint32_t)((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k); break;
    default: *(uint64_t *)p = (k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k; break;
    }
}

#endif
