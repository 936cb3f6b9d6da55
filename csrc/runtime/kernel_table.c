#include "runtime/kernel_table.h"

#define PG_DEF1(NAME, S0, SO, EXPR) {#NAME, 1, {PG_TYPE_##S0, PG_TYPE_##SO, -1, -1}},
#define PG_DEF2(NAME, S0, S1, SO, EXPR) {#NAME, 2, {PG_TYPE_##S0, PG_TYPE_##S1, PG_TYPE_##SO, -1}},
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) \
    {#NAME, 3, {PG_TYPE_##S0, PG_TYPE_##S1, PG_TYPE_##S2, PG_TYPE_##SO}},
const PgKernelInfo pg_kernels[PG_NKERNELS] = {
#include "kernels/loops.def"
};
