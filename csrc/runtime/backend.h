/* The runtime layer (csrc/runtime/): devices, caching pools, streams and events, the backends
 * that implement them (CPU, CUDA), the run-time loaders (libcuda; cuBLAS and cuSOLVER:
 * cuda_libs.h, and LAPACK on cuSOLVER: cuda_solver.h), the embedded fatbin and the
 * kernel table, and the launch of an op-table loop. It may use core/ and kernels/, never array/,
 * math/ or jit/.
 *
 * This header is the backend interface: the device record every backend works on, and one
 * struct of function pointers, implemented by backend_cpu.c and backend_cuda.c. Conventions: functions returning int give 0 on success and -1 with a Python
 * exception set (the GIL is held), except mem_alloc, which returns 1 without an exception when
 * the device is out of memory so that the pool can free its cache and retry. */
#ifndef PG_BACKEND_H
#define PG_BACKEND_H
#include "core/pg.h"
#include "core/shape.h"
#include "kernels/index.h"
#include "kernels/search.h"
#include "kernels/correlate.h"
#include "kernels/vm_types.h"
#include "kernels/cpu_kernel_abi.h"
#include "kernels/reduce_types.h"

typedef enum { PG_DEVICE_CPU = 0, PG_DEVICE_CUDA = 1 } PgDeviceKind;

typedef struct PgBackend PgBackend;
typedef struct PgPool PgPool;
typedef struct PgRandomArgs PgRandomArgs; /* kernels/random.h */

/* A device (the object behind pygpu.Device, device.h). Devices are immortal singletons, so C
 * code may hold borrowed pointers to them. */
typedef struct PgDevice {
    PyObject_HEAD
    PgDeviceKind kind;
    int index;
    const PgBackend *backend;
    PgPool *pool;         /* caching allocator for every memory kind of this device */
    void *impl;           /* backend-private state (the CUDA context and its kernel table) */
    int failed;           /* a sticky error occurred: every later call raises */
    char failure[256];
} PgDevice;

/* Kinds of memory an allocation can be. Host-accessible kinds expose the buffer protocol. */
typedef enum {
    PG_MEM_DEVICE = 0,  /* device memory (on the CPU backend: ordinary host memory) */
    PG_MEM_PINNED,      /* page-locked host memory */
    PG_MEM_MAPPED,      /* page-locked host memory mapped into the device's address space */
    PG_MEM_MANAGED,     /* unified memory */
    PG_MEM_NKINDS
} PgMemKind;

typedef enum { PG_COPY_H2D, PG_COPY_D2H, PG_COPY_D2D } PgCopyKind;

/* A sort along the last axis: each row of the keys (all of one shape, ndim >= 1) sorted on its
 * own. One key for sort/argsort/partition; several for lexsort, the last one primary. */
enum { PG_SORT_INDICES = 0x1, PG_SORT_DESCENDING = 0x2, PG_SORT_STABLE = 0x4 };
typedef struct {
    int ndim;
    const int64_t *shape;
    int nkeys;
    const PgOperand *keys;  /* data, type and strides of each key (any layout) */
    char *out;              /* C-contiguous of that shape: the sorted values, or int64 indices */
    int flags;              /* PG_SORT_* */
    int nkth;               /* partition: these positions of each row must hold their sorted */
    const int64_t *kth;     /* values, the rest on their sides (a full sort does); 0: sort */
} PgSortArgs;
/* User kernels (jit/): a launch's shape, and what a backend knows of a kernel it loaded. */
typedef struct {
    unsigned int grid[3], block[3];
    size_t shared_mem;          /* dynamic shared memory, bytes */
    int cooperative;            /* every block resident at once (grid-wide sync): CUDA's cooperative launch */
} PgLaunchConfig;

typedef struct {
    int32_t size;               /* bytes */
    int32_t kind;               /* PG_CPU_PARAM_* (kernels/cpu_kernel_abi.h), or PG_PARAM_UNKNOWN */
    int32_t type;               /* PgType of the scalar, or of what a pointer points to; -1: none */
} PgParamInfo;
#define PG_PARAM_UNKNOWN (-1)

typedef struct {
    void *handle;               /* CUfunction, or the module's PgCpuKernel */
    void *module;               /* the backend's module it belongs to */
    int nparams;                /* -1 when the backend cannot tell (a driver without cuFuncGetParamInfo) */
    PgParamInfo *params;        /* nparams entries, PyMem_Malloc'ed: the owner frees them */
    int max_threads;            /* threads per block this kernel can run with on the device */
    int max_block[3];
    int64_t max_grid[3];
    int64_t static_shared;      /* bytes of __shared__ the kernel declares (-1: unknown) */
    int64_t max_shared;         /* static + dynamic bytes a block of it may use */
    int64_t shared_opted;       /* dynamic bytes the kernel is allowed without asking the driver */
    int num_regs, local_bytes, const_bytes, ptx_version, binary_version;
} PgFunctionInfo;

struct PgBackend {
    const char *name;
    /* The number of usable devices, or 0 with *reason saying why (static storage). Probed once. */
    int (*device_count)(const char **reason);
    /* Sets up dev->impl for dev->index (context, kernels). */
    int (*device_init)(PgDevice *dev);
    int (*mem_alloc)(PgDevice *dev, size_t nbytes, PgMemKind kind, void **ptr);
    void (*mem_free)(PgDevice *dev, void *ptr, PgMemKind kind);
    /* Copies n bytes on `stream` (a backend stream handle, NULL = the default stream). A copy to
     * or from pageable host memory returns once the host buffer may be reused. */
    int (*memcpy)(PgDevice *dev, void *dst, const void *src, size_t n, PgCopyKind kind, void *stream);
    /* Launches kernel `kernel_id` (kernel_table.h) over prepared operands. */
    int (*elementwise)(PgDevice *dev, int kernel_id, const PgLoopArgs *args, void *stream);
    /* The reduction family (kernels/reduce.h) over prepared layouts (core/reduce_shape.h), by
     * reducer id (kernels/reduce_ids.h); the backend chooses the schedule (the last fields of
     * PgReduceArgs, the chunks of PgScanArgs) and any workspace. scan, reduceat and ufunc_at take
     * the op reducers only. */
    int (*reduce)(PgDevice *dev, int reducer, PgReduceArgs *args, void *stream);
    int (*scan)(PgDevice *dev, int reducer, PgScanArgs *args, void *stream);
    int (*reduceat)(PgDevice *dev, int reducer, const PgReduceArgs *args, void *stream);
    int (*ufunc_at)(PgDevice *dev, int reducer, const PgAtArgs *args, void *stream);
    /* One strided batched matrix product (PgGemmArgs of kernels/kernel_types.h), any dtype:
     * BLAS for float and complex types (cuBLAS; NumPy's BLAS on the CPU), the integer kernel of
     * kernels/matmul.h for integer and bool types. */
    int (*gemm)(PgDevice *dev, const PgGemmArgs *args, void *stream);
    /* Fills args->out with a draw of random numbers (kernels/random.h) on `stream`. */
    int (*random)(PgDevice *dev, const PgRandomArgs *args, void *stream);
    /* Runs a vectorize VM program (kernels/vm.h; args->program is in the device's memory) over
     * prepared operands. */
    int (*vm_run)(PgDevice *dev, const PgVmArgs *args, void *stream);
    /* A reduction or scan whose combiner (and map) are VM programs (kernels/vm_reduce.h;
     * args->map and comb in the device's memory), nout > 0 and nred_total > 0: the backend
     * chooses the chunks and runs the passes (runtime/vm_reduce_passes.h). */
    int (*vm_reduce)(PgDevice *dev, PgVmReduceArgs *args, void *stream);
    int (*synchronize)(PgDevice *dev);
    /* A stream that orders with the legacy default stream (as CuPy's and Numba's), or, when
     * non_blocking, one that does not. */
    int (*stream_create)(PgDevice *dev, int non_blocking, void **stream);
    void (*stream_destroy)(PgDevice *dev, void *stream);
    int (*stream_synchronize)(PgDevice *dev, void *stream);
    int (*stream_query)(PgDevice *dev, void *stream);   /* 1 done, 0 busy, -1 error */
    int (*stream_wait_event)(PgDevice *dev, void *stream, void *event);
    int (*event_create)(PgDevice *dev, void **event);
    void (*event_destroy)(PgDevice *dev, void *event);
    int (*event_record)(PgDevice *dev, void *event, void *stream);
    int (*event_synchronize)(PgDevice *dev, void *event);
    int (*event_query)(PgDevice *dev, void *event);     /* 1 done, 0 busy, -1 error */
    int (*event_elapsed)(PgDevice *dev, void *start, void *end, float *ms);
    /* Gather/scatter through index arrays (kernels/index.h), op a PgIndexOp, over a->size
     * elements. An out-of-bounds index sets *a->err, a flag in the device's memory that the
     * caller zeroes before and reads after (runtime/indexing.h does both). */
    int (*index)(PgDevice *dev, const PgIndexArgs *a, int op, void *stream);
    /* Compaction of a mask's true elements (kernels/index.h), a->op a PgCompactOp. Counts them
     * into *count (waiting for the device); then for VALUES and INDICES calls alloc(ctx, *count,
     * a), which sets a->out (or returns -1), and writes the output; RANK writes a->out, given.
     * a->chunk and a->counts are the backend's to set. */
    int (*compact)(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                   int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx, void *stream);
    /* Sorts (or partitions) a->keys along their last axis into a->out. */
    int (*sort)(PgDevice *dev, const PgSortArgs *a, void *stream);
    /* Binary searches (kernels/search.h) of s->size values. A sorter index out of range sets
     * *s->err, a flag in device memory that the caller zeroes and reads. */
    int (*search)(PgDevice *dev, const PgSearchArgs *s, void *stream);
    /* Counts into bins, or the minimum and maximum keys (kernels/search.h), into h->out, which
     * the caller initialises (zeros; [~0, 0] for the min/max). */
    int (*histogram)(PgDevice *dev, const PgHistArgs *h, void *stream);
    /* A short correlation (kernels/correlate.h) into a->out. */
    int (*correlate)(PgDevice *dev, const PgCorrelateArgs *a, void *stream);
    /* A dict of the device's properties for the device report: name, memory, ... */
    PyObject *(*properties)(PgDevice *dev);
    /* User modules (jit/). module_load takes a CUDA image (cubin, PTX or fatbin; PTX text
     * NUL-terminated) or, on the CPU, the path of a shared object built from kernels/cuda_cpu.h. */
    int (*module_load)(PgDevice *dev, const void *image, size_t size, void **module);
    void (*module_unload)(PgDevice *dev, void *module);
    /* Kernel `name` of a module into *info: 0, 1 when the module has no such kernel (no
     * exception), -1 with an exception. */
    int (*kernel_get)(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info);
    /* Launches a kernel of kernel_get; args[i] points at the bytes of parameter i. The launch
     * configuration has been checked against info. */
    int (*kernel_launch)(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream);
    /* The address and size of a module's global variable: 0, 1 when there is none, -1. */
    int (*module_global)(PgDevice *dev, void *module, const char *name, void **ptr, size_t *size);
};

/* The user-kernel entry points of each backend (backend_cpu_kernel.c, backend_cuda_kernel.c). */
int pg_cpu_module_load(PgDevice *dev, const void *image, size_t size, void **module);
void pg_cpu_module_unload(PgDevice *dev, void *module);
int pg_cpu_kernel_get(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info);
int pg_cpu_kernel_launch(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream);
int pg_cpu_module_global(PgDevice *dev, void *module, const char *name, void **ptr, size_t *size);
int pg_cuda_module_load(PgDevice *dev, const void *image, size_t size, void **module);
void pg_cuda_module_unload(PgDevice *dev, void *module);
int pg_cuda_kernel_get(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info);
int pg_cuda_kernel_launch(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream);
int pg_cuda_module_global(PgDevice *dev, void *module, const char *name, void **ptr, size_t *size);

extern const PgBackend pg_backend_cpu;
extern const PgBackend pg_backend_cuda;

/* Raises the device's sticky failure, if any: 0, or -1 with CUDAError. */
static inline int
pg_device_check(PgDevice *dev)
{
    if (!dev->failed)
        return 0;
    PyErr_Format(PgExc_CUDAError, "%R is unusable after an earlier error (%s); restart the process",
                 (PyObject *)dev, dev->failure);
    return -1;
}
#define PG_DEVICE_CHECK(dev) ((dev)->failed ? pg_device_check(dev) : 0)

/* The entries of the kernel families, each in its own file (backend_<device>_<family>.c). */
int pg_cpu_backend_random(PgDevice *dev, const PgRandomArgs *args, void *stream);
int pg_cuda_backend_random(PgDevice *dev, const PgRandomArgs *args, void *stream);

/* The most threads the CPU backend's worker team has (runtime/cpu_team.c), also used by the CUDA
 * backend's host copies: PYGPU_NUM_THREADS, else OMP_NUM_THREADS (as users of OpenMP libraries
 * set it), else the CPUs this process may run on. Read once, with OMP_WAIT_POLICY (passive:
 * waiting threads sleep at once instead of polling briefly). */
int pg_cpu_threads(void);
/* memcpy split over a few threads when large (backend_cpu.c; the CUDA backend's staged copies
 * use it too). Touches no Python state: callers may have released the GIL. */
void pg_host_copy(char *dst, const char *src, size_t n);
/* The backends' VM launches (backend_cpu_vm.c, backend_cuda_vm.c). */
int pg_cpu_vm_run(PgDevice *dev, const PgVmArgs *args, void *stream);
int pg_cuda_vm_run(PgDevice *dev, const PgVmArgs *args, void *stream);
int pg_cpu_vm_reduce(PgDevice *dev, PgVmReduceArgs *args, void *stream);
int pg_cuda_vm_reduce(PgDevice *dev, PgVmReduceArgs *args, void *stream);

/* backend_cuda.c: the device ordinal and memory kind of a CUDA pointer, asked with dev's context
 * (any CUDA device: the driver needs one current); 0 on success or -1 with an exception
 * (ValueError when the driver does not know the pointer). */
int pg_cuda_pointer_info(PgDevice *dev, const void *ptr, int *ordinal, PgMemKind *kind);

#endif
