/* The interface between pygpu's CPU backend and a user module of CUDA C compiled for the host
 * (a shared object built by the host C++ compiler from kernels/cuda_cpu.h + the user's source).
 * Plain C, included by the extension (runtime/backend_cpu_kernel.c) and, through cuda_cpu.h, by
 * every such module: both sides must agree, which PG_CPU_ABI_VERSION checks at load time.
 *
 * A module exports one symbol, `pg_cpu_module` (a PgCpuModule). Each of its kernels runs a range
 * of blocks in one of two ways:
 *   - run_blocks: the threads of each block as a plain loop, the kernel inlined into it (modules
 *     whose source uses no barrier or warp collective);
 *   - run_thread: one thread; the extension runs a block's threads as fibers and switches between
 *     them at barriers (the runtime functions below), so __syncthreads is honoured. */
#ifndef PG_CPU_KERNEL_ABI_H
#define PG_CPU_KERNEL_ABI_H
#include <stddef.h>
#include <stdint.h>

#define PG_CPU_ABI_VERSION 3

typedef struct {
    unsigned int x, y, z;
} pg_uint3;

/* The per-OS-thread state of a module (thread-local inside it): the indices the kernel reads. */
typedef struct {
    pg_uint3 thread_idx, block_idx, block_dim, grid_dim;
    char *dynamic_shared; /* extern __shared__ memory of the block running on this thread */
    size_t dynamic_shared_size; /* its bytes: the launch's dynamic shared memory */
    void *scheduler;      /* the fiber scheduler of the block (fiber mode), passed to the runtime */
} PgCpuThread;

typedef struct {
    pg_uint3 grid, block;
} PgCpuGrid;

/* Kinds of kernel parameters, as the module's C++ type traits see them. */
enum {
    PG_CPU_PARAM_OTHER = 0, /* a struct or a type pygpu does not convert to */
    PG_CPU_PARAM_POINTER,
    PG_CPU_PARAM_BOOL,
    PG_CPU_PARAM_INT,       /* signed */
    PG_CPU_PARAM_UINT,
    PG_CPU_PARAM_FLOAT,
};

typedef struct {
    uint32_t size;
    uint32_t align;
    int32_t kind;   /* PG_CPU_PARAM_* */
    int32_t type;   /* PgType of the scalar, or of what a pointer points to; -1 when none */
} PgCpuParam;

/* Operations of the barrier runtime (the `op` of block_reduce and warp). */
enum { PG_REDUCE_NONE = 0, PG_REDUCE_COUNT, PG_REDUCE_AND, PG_REDUCE_OR };
enum {
    PG_WARP_SYNC = 0,
    PG_WARP_SHFL_IDX,
    PG_WARP_SHFL_UP,
    PG_WARP_SHFL_DOWN,
    PG_WARP_SHFL_XOR,
    PG_WARP_BALLOT,
    PG_WARP_ALL,
    PG_WARP_ANY,
};

/* Why a kernel stopped early: the Python exception its launch raises. */
enum {
    PG_TRAP_RUNTIME = 1, /* __trap(), or an error of the runtime: RuntimeError */
    PG_TRAP_ASSERT,      /* a failed assert(): AssertionError */
    PG_TRAP_INDEX,       /* an out-of-range index (bounds-checked code): IndexError */
    PG_TRAP_INTERRUPT,   /* Ctrl-C (the stop flag was up at a loop): KeyboardInterrupt */
    PG_TRAP_RAISE,       /* a raise statement (cuda.jit): the message is "module\x1fclass\x1ftext" */
};

/* What the extension gives a module: barriers (fiber mode only) and traps. trap does not
 * return: it unwinds to the launch, which raises the exception after the other blocks stop. */
typedef struct {
    int (*block_reduce)(void *scheduler, int op, int predicate);
    uint64_t (*warp)(void *scheduler, int op, uint64_t value, int arg, int width);
    void (*trap)(int kind, const char *message);
    const int *stop;            /* up while the launch is to end (Ctrl-C): loops poll it (atomic loads) */
} PgCpuRuntime;

typedef struct {
    const char *name;        /* the expression the kernel was exported as */
    int32_t nparams;
    const PgCpuParam *params;
    void (*run_blocks)(const PgCpuGrid *grid, void **args, uint64_t begin, uint64_t end);
    void (*run_thread)(void **args);
} PgCpuKernel;

typedef struct {
    uint32_t abi_version;
    uint32_t uses_barriers;  /* run every kernel's blocks as fibers (run_thread) */
    int32_t nkernels;
    const PgCpuKernel *kernels;
    PgCpuThread *(*thread_state)(void);   /* the calling OS thread's state in this module */
    void (*set_runtime)(const PgCpuRuntime *runtime);
} PgCpuModule;

#endif
