/* The fake libcuda.so.1's shared state (see libcuda_mock.c for what it models and its switches).
 * One lock guards everything; one condition variable is broadcast whenever queued work moves. */
#ifndef MOCK_CUDA_H
#define MOCK_CUDA_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_types.h" /* pygpu's kernel parameter blocks: the launch check reads them */

#define MOCK_INTERNAL __attribute__((visibility("hidden")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *Handle;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999,
};

#define MOCK_MAX_DEVICES 8

typedef struct Stream Stream;

/* A device's primary context: what it owns is reached from here. */
typedef struct {
    int device;
    int retained;
    CUresult sticky;   /* set when a kernel faults: every later call in this context returns it */
    size_t device_used;
    Stream *legacy;    /* the legacy default stream, created on first use */
    Stream *streams;   /* every stream of the context, legacy included, through next_in_ctx */
} Context;

enum { KIND_HOST = 1, KIND_DEVICE = 2, KIND_MANAGED = 4 };

typedef struct Alloc {
    char *ptr;
    size_t size;
    int kind;
    Context *ctx;
    struct Alloc *next;
} Alloc;

/* A kernel of a user module (a cubin or PTX that pygpu compiled with NVRTC, or loaded). */
#define MOCK_MAX_PARAMS 64
typedef struct {
    char name[128];
    int params_known;
    uint32_t nparams;
    uint32_t param_offset[MOCK_MAX_PARAMS], param_size[MOCK_MAX_PARAMS];
    size_t static_shared;
} MockKernel;

typedef struct {
    char name[128];
    size_t size;
    char *memory;       /* device memory, allocated when first asked for */
} MockGlobal;

typedef struct {
    int kind;           /* 'e': a cubin (ELF), 'p': PTX */
    size_t size;
    size_t nkernels, nglobals;
    MockKernel *kernels;
    MockGlobal *globals;
} MockImage;

typedef struct {
    unsigned magic;
    Context *ctx;
    size_t image_size;
    int user;           /* a user image (cubin, PTX) rather than one of pygpu's fatbins */
    MockImage image;
} Module;

typedef struct {
    unsigned magic;
    Module *module;
    char name[128];
    int form; /* 'c': takes PgContigArgs, 's': takes PgLoopArgs, 'u': a user kernel, 0: another family */
    MockKernel *kernel;         /* a user kernel's parameters */
    int max_dynamic_shared;     /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
} Function;

/* The limits of the fake device (an sm_90 GPU's). */
#define MOCK_MAX_THREADS 1024
#define MOCK_SHARED_DEFAULT 49152
#define MOCK_SHARED_OPTIN 232448

/* mock_images.c: the kernels and globals of a cubin or PTX image; 0, or -1 for another format. */
MOCK_INTERNAL int mock_image_parse(MockImage *img, const void *image);
MOCK_INTERNAL MockKernel *mock_image_kernel(MockImage *img, const char *name);

#define MODULE_MAGIC 0x6d6f644du
#define FUNCTION_MAGIC 0x66756e63u

/* What happened, for the tests (mirrored by ctypes in tests/test_cuda_backend.py's prelude and
 * tests/test_mock_cuda.py: change all three together). */
typedef struct {
    long launches, copies, pageable_copies, event_syncs;
    unsigned int grid, block;
    size_t param_bytes_hint;
    char last_kernel[128];
    long modules_loaded;       /* cuModuleLoadData calls that succeeded */
    long unknown_kernels;      /* cuModuleGetFunction calls refused with CUDA_ERROR_NOT_FOUND */
    long misaligned_launches;  /* launches with a data pointer or stride off its type's alignment */
    long faults;               /* kernels that faulted when they ran (misaligned or injected) */
    long blocking_streams;     /* cuStreamCreate with flags 0 */
    long non_blocking_streams; /* cuStreamCreate with CU_STREAM_NON_BLOCKING */
    long async_copies;         /* copies that returned before their data moved */
    long implicit_waits;       /* waits the legacy stream put between it and blocking streams */
    /* the last launch of a user kernel: its configuration and parameter bytes */
    unsigned int grid_yz[2], block_yz[2];
    unsigned int shared_mem;
    unsigned int last_nparams;
    unsigned char last_params[512];  /* the parameters laid out at their offsets */
} MockStats;

/* Settings read from the environment when the library loads. */
typedef struct {
    int devices;
    long delay_us;
    long load_delay_us;
    long fault_after;
    size_t mem_limit;
} MockSettings;

MOCK_INTERNAL extern pthread_mutex_t mock_lock;
MOCK_INTERNAL extern pthread_cond_t mock_cond;
MOCK_INTERNAL extern MockStats mock_stats_data;
MOCK_INTERNAL extern MockSettings mock_settings;
MOCK_INTERNAL extern Context mock_contexts[MOCK_MAX_DEVICES];

/* With mock_lock held. 0 when the driver may be called (cuInit done, not a forked child). */
MOCK_INTERNAL CUresult mock_driver_ready(void);
/* With mock_lock held: the calling thread's current context in *ctx, or the error a call that
 * needs one returns (not initialised, no current context, the context's sticky fault). */
MOCK_INTERNAL CUresult mock_current_context(Context **ctx);
/* The context on top of the calling thread's stack, or NULL. */
MOCK_INTERNAL Context *mock_thread_context(void);
/* The allocation that holds p, or NULL (host memory the driver does not know: pageable). */
MOCK_INTERNAL Alloc *mock_find_alloc(const void *p);
/* With mock_lock held: waits until every context's queued work is done (or faulted). */
MOCK_INTERNAL void mock_wait_all_idle(void);
MOCK_INTERNAL void mock_sleep_us(long us);

#endif
