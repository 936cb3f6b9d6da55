/* Philox4x32-10, the counter-based bit generator of Salmon, Moraes, Dror and Shaw, "Parallel
 * random numbers: as easy as 1, 2, 3" (SC'11): a keyed bijection of 128-bit counters, so block k
 * of a stream is a pure function of (key, k) and any thread can compute any block. Written in
 * the common subset of C and CUDA C; integer arithmetic only, so every device gives the same
 * bits (checked against Random123's known-answer vectors in tests/test_random_philox.py). */
#ifndef PG_PHILOX_H
#define PG_PHILOX_H
#include "kernel_types.h"

#define PG_PHILOX_M0 0xD2511F53u
#define PG_PHILOX_M1 0xCD9E8D57u
#define PG_PHILOX_W0 0x9E3779B9u /* the key schedule's Weyl increments */
#define PG_PHILOX_W1 0xBB67AE85u

/* One round: two 32x32->64 multiplies, the high halves mixed with the other words and the key. */
#define PG_PHILOX_ROUND(c0, c1, c2, c3, k0, k1)                                              \
    do {                                                                                     \
        uint64_t p0_ = (uint64_t)PG_PHILOX_M0 * (c0);                                        \
        uint64_t p1_ = (uint64_t)PG_PHILOX_M1 * (c2);                                        \
        uint32_t n0_ = (uint32_t)(p1_ >> 32) ^ (c1) ^ (k0);                                  \
        uint32_t n2_ = (uint32_t)(p0_ >> 32) ^ (c3) ^ (k1);                                  \
        (c1) = (uint32_t)p1_;                                                                \
        (c3) = (uint32_t)p0_;                                                                \
        (c0) = n0_;                                                                          \
        (c2) = n2_;                                                                          \
    } while (0)

/* The 4 words of counter (c0, c1, c2, c3) under key (k0, k1), into w. */
PG_INLINE PG_HOST_DEVICE void
pg_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1, uint32_t w[4])
{
    PG_PHILOX_ROUND(c0, c1, c2, c3, k0, k1);
    for (int r = 1; r < 10; r++) {
        k0 += PG_PHILOX_W0;
        k1 += PG_PHILOX_W1;
        PG_PHILOX_ROUND(c0, c1, c2, c3, k0, k1);
    }
    w[0] = c0;
    w[1] = c1;
    w[2] = c2;
    w[3] = c3;
}

/* base + k for a 96-bit counter (words 0..2, low first), modulo 2^96. */
PG_INLINE PG_HOST_DEVICE void
pg_philox_counter_add(const uint32_t base[3], uint64_t k, uint32_t out[3])
{
    uint64_t lo = (uint64_t)base[0] + (uint32_t)k;
    uint64_t mid = (uint64_t)base[1] + (uint32_t)(k >> 32) + (lo >> 32);
    out[0] = (uint32_t)lo;
    out[1] = (uint32_t)mid;
    out[2] = base[2] + (uint32_t)(mid >> 32);
}
#endif
