/* Host-side table of the elementwise loops declared in kernels/loops.def: ids, names (the CUDA
 * kernels are <name>_c and <name>_s) and operand types. */
#ifndef PG_KERNEL_TABLE_H
#define PG_KERNEL_TABLE_H
#include "kernels/convert.h"

#define PG_DEF1(NAME, S0, SO, EXPR) PG_K_##NAME,
#define PG_DEF2(NAME, S0, S1, SO, EXPR) PG_K_##NAME,
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) PG_K_##NAME,
typedef enum {
#include "kernels/loops.def"
    PG_NKERNELS
} PgKernelId;
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

typedef struct {
    const char *name;
    int nin;
    int types[PG_MAXARGS]; /* PgType of each input as the loop computes it, then the output */
} PgKernelInfo;

extern const PgKernelInfo pg_kernels[PG_NKERNELS];

/* the copy loop that converts any type into t */
#define PG_COPY_KERNEL(t) ((PgKernelId)(PG_K_copy_b + (t)))

#endif
