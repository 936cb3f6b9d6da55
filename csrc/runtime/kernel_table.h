/* Host-side table of the elementwise loops declared in kernels/loops.def: ids, names (the CUDA
 * kernels are <name>_c and <name>_s) and operand types. */
#ifndef PG_KERNEL_TABLE_H
#define PG_KERNEL_TABLE_H
#include "kernels/convert.h"
#include "kernels/kernel_ids.h"

typedef struct {
    const char *name;
    int nin;
    int types[PG_MAXARGS]; /* PgType of each input as the loop computes it, then the output */
} PgKernelInfo;

extern const PgKernelInfo pg_kernels[PG_NKERNELS];

/* _kernel_table(): the table for tests and tools */
extern struct PyMethodDef pg_kernel_table_module_methods[];

/* the copy loop that converts any type into t */
#define PG_COPY_KERNEL(t) ((PgKernelId)(PG_K_copy_b + (t)))

#endif
