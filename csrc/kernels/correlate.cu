/* The CUDA instantiation of correlate.h: one thread per output. */
#include "correlate.h"

extern "C" __global__ void pg_correlate(PgCorrelateArgs a)
{
    PG_GRID_FOR(i, a.n) {
        pg_correlate_range(&a, i, i + 1);
    }
}
