/* The CPU instantiation of sort.h's steps, and a plain LSD radix sort with the contract of the
 * CUDA one (sort.cu), so that runtime/sort_radix.c can run on the CPU backend too. */
#include <stdlib.h>
#include <string.h>
#include "sort.h"

void
pg_cpu_sort_step(const PgSortStep *s, int op, int64_t begin, int64_t end)
{
    for (int64_t i = begin; i < end; i++)
        pg_sort_step(s, op, i);
}

/* One stable counting pass on the 8-bit digit at `shift`. */
#define PG_RADIX_PASS(K)                                                                    \
    do {                                                                                    \
        const K *kin = (const K *)keys[sel];                                                \
        K *kout = (K *)keys[1 - sel];                                                       \
        int64_t count[257] = {0};                                                           \
        for (int64_t i = 0; i < n; i++)                                                     \
            count[((kin[i] >> shift) & 0xff) + 1]++;                                        \
        for (int d = 0; d < 256; d++)                                                       \
            count[d + 1] += count[d];                                                       \
        for (int64_t i = 0; i < n; i++) {                                                   \
            int64_t j = count[(kin[i] >> shift) & 0xff]++;                                  \
            kout[j] = kin[i];                                                               \
            if (vals[0] != NULL)                                                            \
                vals[1 - sel][j] = vals[sel][i];                                            \
        }                                                                                   \
    } while (0)

int
pg_cpu_radix_sort(void *keys[2], int64_t *vals[2], int64_t n, int kbytes, int bits)
{
    int sel = 0;
    for (int shift = 0; shift < bits; shift += 8) {
        if (kbytes == 4)
            PG_RADIX_PASS(uint32_t);
        else
            PG_RADIX_PASS(uint64_t);
        sel ^= 1;
    }
    return sel;
}
