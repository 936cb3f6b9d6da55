/* The id of every elementwise loop of loops.def, in its order: PG_K_<name>, PG_NKERNELS. The CPU
 * loop table is indexed by it here, the host's kernel table (runtime/kernel_table.h) too. */
#ifndef PG_KERNEL_IDS_H
#define PG_KERNEL_IDS_H

#define PG_DEF1(NAME, S0, SO, EXPR) PG_K_##NAME,
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_K_##NAME,
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_K_##NAME,
typedef enum {
#include "loops.def"
    PG_NKERNELS
} PgKernelId;
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

#endif
