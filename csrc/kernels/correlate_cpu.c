/* The CPU instantiation of correlate.h. */
#include "correlate.h"

void
pg_cpu_correlate_run(const PgCorrelateArgs *a, int64_t begin, int64_t end)
{
    pg_correlate_range(a, begin, end);
}
