/* Which build of a CPU kernel family to run: the x86-64-v3 one (AVX2, FMA, BMI2, F16C, MOVBE:
 * the instructions `#pragma GCC target("arch=x86-64-v3")` lets gcc use) where the CPU has them,
 * else the baseline x86-64 one. PYGPU_CPU_BASELINE=1 keeps the baseline, so that the tests can
 * run both builds on one machine. */
#ifndef PG_CPU_FEATURES_H
#define PG_CPU_FEATURES_H
#include <stdlib.h>

#if defined(__x86_64__) && defined(__GNUC__)
static inline int
pg_cpu_x86_64_v3(void)
{
    static int known = -1; /* set on first use; a race writes the same value */
    if (known < 0) {
        const char *baseline = getenv("PYGPU_CPU_BASELINE");
        __builtin_cpu_init();
        known = !(baseline != NULL && baseline[0] != '\0' && baseline[0] != '0') && __builtin_cpu_supports("avx2") &&
                __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("f16c") &&
                __builtin_cpu_supports("movbe");
    }
    return known;
}
#endif

#endif
