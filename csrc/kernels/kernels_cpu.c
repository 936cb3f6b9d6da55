/* The CPU instantiation of every elementwise loop, from the same source as kernels.cu. */
#include <math.h>
#include "elementwise.h"
#include "../kernel_table.h"

#define PG_DEF1(NAME, S0, SO, EXPR) PG_LOOP1(NAME, S0, SO, EXPR)
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_LOOP2(NAME, S0, S1, SO, EXPR)
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_LOOP3(NAME, S0, S1, S2, SO, EXPR)
#include "loops.def"
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

#define PG_DEF1(NAME, S0, SO, EXPR) pg_cpu_##NAME,
#define PG_DEF2(NAME, S0, S1, SO, EXPR) pg_cpu_##NAME,
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) pg_cpu_##NAME,
const PgCpuLoop pg_cpu_loops[PG_NKERNELS] = {
#include "loops.def"
};
