/* The jit layer (csrc/jit/): user code on the device. The vectorize VM's host side: program
 * objects (a checked bytecode blob and its copies in each device's memory) and their launch over
 * ufunc operands (kernel modules compiled at run time, and their launch, are in jit/kernel.h). It may use
 * math/, array/, runtime/, core/ and kernels/; nothing below it includes from here.
 *
 * The front end and the emitter that make programs are Python (pygpu/_compiler/); a program
 * becomes a loop of a pygpu.ufunc (math/ufunc.h), which launches it through
 * pg_program_launch, set here at module init. */
#ifndef PG_JIT_H
#define PG_JIT_H
#include "math/ufunc.h"
#include "kernels/vm_types.h"
#include "jit/kernel.h"

/* pygpu._core.VmProgram: one compiled function for one signature. */
typedef struct {
    PyObject_HEAD
    PgVmProgram *host;      /* the blob, in host memory (the CPU device runs it from here) */
    size_t nbytes;
    int ndevices;           /* copies in CUDA devices' memory, by device index */
    struct PgBlock **device;
    PyObject *dict;         /* Python attributes: the compiled tier keeps the program's text there */
    /* The compiled tier (pygpu/_jit/tier.py): per device (the CPU, then cuda:0 ..) and layout
     * (PG_TIER_CONTIGUOUS, PG_TIER_STRIDED), the kernel the program was compiled to, for
     * operands stored as tier_types (the inputs, then the output); state 0: ask the tier's
     * hook, 1: tier_fn is ready, -1: the VM only. */
    PyObject *tier_fn[PG_KERNEL_SLOTS][2];
    signed char tier_state[PG_KERNEL_SLOTS][2];
    int tier_types[PG_KERNEL_SLOTS][2][PG_VM_MAXARGS];
} PgVmProgramObject;
#define PG_TIER_CONTIGUOUS 0   /* every array operand contiguous along one merged dimension */
#define PG_TIER_STRIDED 1      /* up to PG_TIER_MAXDIMS dimensions of any strides (broadcast: 0) */
#define PG_TIER_MAXDIMS 4

extern PyTypeObject PgVmProgram_Type;
#define PgVmProgram_Check(o) (Py_TYPE(o) == &PgVmProgram_Type)

/* The program's blob in dev's memory (copied there on first use). NULL with an exception. */
const PgVmProgram *pg_vm_program_on(PgVmProgramObject *p, PgDevice *dev);
/* Runs the program over operands (inputs, then the output) on dev's current stream. */
int pg_vm_launch(PyObject *program, PgDevice *dev, int nargs, const PgOperand *ops);

/* The compiled tier's hook (vm_program.c's _vm_tier_hook), NULL: the VM only. */
extern PyObject *pg_vm_tier_hook;

/* Module init of the jit layer: the types and functions, and the ufunc's program hook. */
int pg_jit_init(PyObject *module);
extern PyMethodDef pg_vm_module_methods[];
/* _vm_reduce, _vm_accumulate (vm_reduce.c) */
extern PyMethodDef pg_vm_reduce_methods[];
#endif
