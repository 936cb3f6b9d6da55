/* The CPU instantiation of the random-number kernels (random_cpu.c), for the CPU backend. */
#ifndef PG_RANDOM_CPU_H
#define PG_RANDOM_CPU_H
#include "random.h"

/* Computes and stores blocks [begin, end) of draw a (elements, for samplers) on the calling
 * thread; pg_random_blocks(a) blocks make the whole draw. */
__attribute__((visibility("hidden"))) void pg_cpu_random(const PgRandomArgs *a, int64_t begin, int64_t end);
#endif
