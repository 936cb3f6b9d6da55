/* The CPU backend's short correlations (kernels/correlate_cpu.c), split over threads by output. */
#include "runtime/cpu_backend.h"

static void
correlate_run(const void *ctx, int64_t begin, int64_t end)
{
    pg_cpu_correlate_run(ctx, begin, end);
}

int
pg_cpu_correlate(PgDevice *dev, const PgCorrelateArgs *a, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    /* each output costs m products: worth threads sooner than a copy */
    int64_t serial_below = PG_CPU_PARALLEL_MIN / (a->m < 16 ? a->m : 16);
    pg_cpu_parallel_for(a->n, serial_below, correlate_run, a);
    return 0;
}
