/* The CPU backend's entry points implemented outside backend_cpu.c, one file per kernel family
 * (backend_cpu_<family>.c), and what they share. Nothing outside runtime/ includes this. */
#ifndef PG_CPU_BACKEND_H
#define PG_CPU_BACKEND_H
#include "runtime/backend.h"

/* Below this many elements a loop runs on the calling thread: waking the team costs more. */
#define PG_CPU_PARALLEL_MIN 65536

/* Runs run(ctx, begin, end) over [0, n) split evenly over the worker team (with the GIL
 * released), or on the calling thread when n < serial_below or there is one thread. run must
 * touch no Python state. */
void pg_cpu_parallel_for(int64_t n, int64_t serial_below, void (*run)(const void *ctx, int64_t begin, int64_t end),
                         const void *ctx);

/* backend_cpu_index.c */
int pg_cpu_index(PgDevice *dev, const PgIndexArgs *a, int op, void *stream);
int pg_cpu_compact(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                   int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream);
/* backend_cpu_sort.c */
int pg_cpu_sort(PgDevice *dev, const PgSortArgs *a, void *stream);
/* backend_cpu_reduce.c */
int pg_cpu_reduce(PgDevice *dev, int reducer, PgReduceArgs *args, void *stream);
int pg_cpu_scan(PgDevice *dev, int reducer, PgScanArgs *args, void *stream);
int pg_cpu_reduceat(PgDevice *dev, int reducer, const PgReduceArgs *args, void *stream);
int pg_cpu_ufunc_at(PgDevice *dev, int reducer, const PgAtArgs *args, void *stream);
/* backend_cpu_correlate.c */
int pg_cpu_correlate(PgDevice *dev, const PgCorrelateArgs *a, void *stream);

/* backend_cpu_search.c */
int pg_cpu_search(PgDevice *dev, const PgSearchArgs *s, void *stream);
int pg_cpu_histogram(PgDevice *dev, const PgHistArgs *h, void *stream);
#endif
