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


/* A reduction or scan with a VM program as the combiner (kernels/vm_reduce.h), and optionally
 * one as the map that makes each element from the inputs: one pass of it. Item (o, k) is output
 * o's reduced elements [k * chunk, k * chunk + chunk), folded in order into one accumulator
 * (scans store every running value); the host runs further passes over the items' accumulators
 * when an output has several chunks (runtime/vm_reduce_passes.c). Passed by value to CUDA. */
#define PG_VMR_MAXDIMS 8   /* merged kept and reduced dimensions (deeper inputs are copied) */
enum {
    PG_VMR_INITIAL = 1,    /* init is combined in front of every output's value */
    PG_VMR_SCAN = 2,       /* store the running value after each element (one reduced axis) */
    PG_VMR_COMMUTE = 4,    /* the combiner commutes: an item's elements may interleave with others' */
};
typedef struct {
    int32_t nin;           /* inputs: the map's, or one (loaded as acc_type) without a map */
    int32_t nkeep, nred;   /* merged kept and reduced dimensions */
    int32_t flags;         /* PG_VMR_* */
    int32_t outer;         /* items with o fastest (neighbouring outputs side by side) */
    int32_t acc_type;      /* the combiner's type (a VM compute type) */
    int64_t nout, nred_total;
    int64_t chunk, nchunks;
    int64_t keep_shape[PG_VMR_MAXDIMS], red_shape[PG_VMR_MAXDIMS];
    /* byte strides of the inputs, then the output (operand nin); the output's reduced strides
     * are 0 for a reduction, and a scan's output steps along the one reduced axis */
    int64_t keep_str[PG_VM_MAXARGS][PG_VMR_MAXDIMS];
    int64_t red_str[PG_VM_MAXARGS][PG_VMR_MAXDIMS];
    int64_t out_chunk;     /* bytes from item (o, k)'s output to (o, k + 1)'s (partial passes) */
    char *data[PG_VM_MAXARGS];
    int32_t types[PG_VM_MAXARGS];          /* stored PgType of each operand */
    uint64_t scalar[PG_VM_MAXARGS][2];     /* an input with data NULL: its value, as its stored type */
    const PgVmProgram *map;                /* NULL: none; in the device's memory */
    const PgVmProgram *comb;               /* (acc, acc) -> acc; in the device's memory */
    int32_t map_slots, comb_slots;         /* their register slots, readable by the host */
    /* scans in parts: item (o, k > 0) starts from the running value of the items before it,
     * acc_type values at carry + o's keep offset (carry_keep) + (k - 1) * carry_k */
    const char *carry;
    int64_t carry_keep[PG_VMR_MAXDIMS], carry_k;
    uint64_t init[2];      /* PG_VMR_INITIAL: the value, as acc_type's bits */
} PgVmReduceArgs;

#ifndef __CUDACC__
/* The CPU's run of elements [begin, end) of a launch, block by block of `lanes` elements, with
 * `regs` (program->nslots * lanes * 8 bytes, 64-byte aligned) as the register file (vm_cpu.c). */
void pg_vm_cpu_run(const PgVmArgs *a, int lanes, char *regs, int64_t begin, int64_t end);
/* One run of program p over lanes [0, n) of the register file R (slots of `slot` bytes), with the
 * interpreter built for the CPU at hand (vm_cpu.c): the VM reductions' combiner and map. */
void pg_vm_cpu_exec(const PgVmProgram *p, char *R, int64_t slot, int n);
/* The CPU's one pass of a VM reduction: items [i0, i1) in blocks of `lanes`, with scratch of
 * pg_vm_cpu_reduce_scratch(a, lanes) bytes, 64-byte aligned (vm_reduce_cpu.c). */
size_t pg_vm_cpu_reduce_scratch(const PgVmReduceArgs *a, int lanes);
void pg_vm_cpu_reduce_items(const PgVmReduceArgs *a, int lanes, char *scratch, int64_t i0, int64_t i1);
#endif

#endif
