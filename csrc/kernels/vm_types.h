/* The vectorize VM's program format and launch arguments, shared by the host (jit/, runtime/)
 * and the interpreter (vm.h, which explains the machine). */
#ifndef PG_VM_TYPES_H
#define PG_VM_TYPES_H
#include "kernel_types.h"
#include "kernel_ids.h"

/* operands of a VM launch: up to 15 inputs, then the output */
#define PG_VM_MAXARGS 16
#define PG_VM_MAXDIMS 16   /* merged dimensions of one launch; the host splits deeper loops */

/* VM ops beyond the op table's loops */
enum {
    PG_VM_MOVE = PG_NKERNELS, /* dst = a; c: bytes per lane (1, 2, 4, 8, 16) */
    PG_VM_MOVE_MASKED,        /* dst = b ? a : dst, lane by lane; b: a bool register; c: bytes */
    PG_VM_CAST,               /* dst (type c) = a (type b), as NumPy's unsafe casts convert */
    PG_VM_COMPLEX,            /* dst (complex type c) = a + b*1j, a and b of its real type */
    PG_VM_REAL,               /* dst = a.real; c: a's complex type */
    PG_VM_IMAG,               /* dst = a.imag; c: a's complex type */
    PG_VM_JUMP,               /* continue at instruction a */
    PG_VM_JUMP_IF_NONE,       /* continue at instruction b when no valid lane of bool register a is set */
    PG_VM_NOPS
};

typedef struct {
    uint16_t op, dst, a, b, c;
} PgVmInsn;

typedef struct {
    int32_t reg, type;     /* register and PgType of the value */
    uint64_t value[2];     /* the value as that type's compute representation */
} PgVmConst;

typedef struct {
    int32_t ninsn, nconst, nslots, nin;
    int32_t in_regs[PG_VM_MAXARGS];  /* register of input k */
    int32_t in_types[PG_VM_MAXARGS]; /* its compute type */
    int32_t out_reg, out_type;
    int32_t flags, reserved;         /* PG_VM_* flags below; reserved keeps the constants 8-aligned */
    /* followed by PgVmConst consts[nconst], then PgVmInsn code[ninsn] */
} PgVmProgram;

enum { PG_VM_HAS_JUMPS = 1 }; /* the program branches: divergence costs, smaller CPU blocks */

#define PG_VM_CONSTS(p) ((const PgVmConst *)((const char *)(p) + sizeof(PgVmProgram)))
#define PG_VM_CODE(p) ((const PgVmInsn *)(PG_VM_CONSTS(p) + (p)->nconst))
#define PG_VM_PROGRAM_BYTES(ninsn, nconst)                                                   \
    (sizeof(PgVmProgram) + (size_t)(nconst) * sizeof(PgVmConst) + (size_t)(ninsn) * sizeof(PgVmInsn))

/* One launch: the operands after broadcasting and axis merging (as PgLoopArgs, with more operands
 * and fewer dimensions), and the program in the device's memory. Passed by value to CUDA. */
typedef struct {
    int32_t ndim, nargs;
    int64_t size;
    int64_t shape[PG_VM_MAXDIMS];
    int64_t strides[PG_VM_MAXARGS][PG_VM_MAXDIMS];
    char *data[PG_VM_MAXARGS];
    int32_t types[PG_VM_MAXARGS];          /* PgType of each operand as stored */
    uint64_t scalar[PG_VM_MAXARGS][2];     /* an input with data NULL: its value, as its stored type */
    const PgVmProgram *program;            /* in the device's memory */
    int32_t nslots, flags;                 /* the program's, readable by the host */
} PgVmArgs;


#ifndef __CUDACC__
/* The CPU's run of elements [begin, end) of a launch, block by block of `lanes` elements, with
 * `regs` (program->nslots * lanes * 8 bytes, 64-byte aligned) as the register file (vm_cpu.c). */
void pg_vm_cpu_run(const PgVmArgs *a, int lanes, char *regs, int64_t begin, int64_t end);
#endif

#endif
