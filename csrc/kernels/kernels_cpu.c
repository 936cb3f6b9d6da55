/* The table of every CPU elementwise loop, indexed by kernel id; the loops themselves are compiled
 * in kernels_cpu_<part>.c (see cpu_loops.h). */
#include "elementwise.h"
#include "kernel_ids.h"

#define PG_DEF1(NAME, S0, SO, EXPR) PG_CPU_LOOP_FN pg_cpu_##NAME(const PgLoopArgs *, int, int64_t, int64_t);
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_DEF1(NAME, S0, SO, EXPR)
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_DEF1(NAME, S0, SO, EXPR)
#include "loops.def"
#undef PG_DEF1

#define PG_DEF1(NAME, S0, SO, EXPR) pg_cpu_##NAME,
const PgCpuLoop pg_cpu_loops[PG_NKERNELS] = {
#include "loops.def"
};
