/* Run-time loading of the CUDA libraries. The extension links none of them: libcuda.so.1 (the
 * driver API) is dlopen'ed on first use, and later libraries (cuBLAS, NVRTC) the same way, each
 * through one table of the symbols it takes (see the PG_CU_SYMBOLS list in this header).
 *
 * cuda.h is not included, so the extension builds without the toolkit: the few driver types,
 * enums and flags used are declared here with the numeric values documented in cuda.h. */
#ifndef PG_CUDA_LOADER_H
#define PG_CUDA_LOADER_H
#include <stddef.h>
#include <stdint.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

/* CUresult values */
enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_ECC_UNCORRECTABLE = 214,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
    CUDA_ERROR_ASSERT = 710,
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
    CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
    CUDA_ERROR_INVALID_PC = 718,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999,
};

/* CUdevice_attribute values */
enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
    CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
};

/* CUpointer_attribute and CUmemorytype values */
enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
};
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

/* flags */
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEM_ATTACH_GLOBAL 0x1
#define CU_STREAM_DEFAULT 0x0
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DEFAULT 0x0
#define CU_EVENT_DISABLE_TIMING 0x2

/* CUfunction_attribute values */
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/* A symbol the loader leaves NULL when the library lacks it (the fallback name of the table). */
#define PG_DL_OPTIONAL ""

/* The driver symbols pygpu takes: X(field, return type, parameters, exported name, older name).
 * The exported name is the versioned one (cuMemAlloc_v2, ...) that cuda.h maps the plain name
 * to; where the driver added a newer version late, the older name is the fallback; PG_DL_OPTIONAL
 * marks a symbol that newer drivers have and pygpu does without (cuFuncGetParamInfo: 12.4). Copies all
 * go through cuMemcpyAsync: 64-bit Linux devices have unified addressing, so the driver infers
 * the direction from the pointers. */
#define PG_CU_SYMBOLS(X)                                                                        \
    X(cuGetErrorName, CUresult, (CUresult, const char **), "cuGetErrorName", NULL)              \
    X(cuGetErrorString, CUresult, (CUresult, const char **), "cuGetErrorString", NULL)          \
    X(cuInit, CUresult, (unsigned int), "cuInit", NULL)                                         \
    X(cuDriverGetVersion, CUresult, (int *), "cuDriverGetVersion", NULL)                        \
    X(cuDeviceGet, CUresult, (CUdevice *, int), "cuDeviceGet", NULL)                            \
    X(cuDeviceGetCount, CUresult, (int *), "cuDeviceGetCount", NULL)                            \
    X(cuDeviceGetName, CUresult, (char *, int, CUdevice), "cuDeviceGetName", NULL)              \
    X(cuDeviceGetAttribute, CUresult, (int *, int, CUdevice), "cuDeviceGetAttribute", NULL)     \
    X(cuDeviceTotalMem, CUresult, (size_t *, CUdevice), "cuDeviceTotalMem_v2", NULL)            \
    X(cuDeviceGetPCIBusId, CUresult, (char *, int, CUdevice), "cuDeviceGetPCIBusId", NULL)      \
    X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *, CUdevice), "cuDevicePrimaryCtxRetain", NULL) \
    X(cuDevicePrimaryCtxRelease, CUresult, (CUdevice), "cuDevicePrimaryCtxRelease_v2", NULL)    \
    X(cuCtxSetCurrent, CUresult, (CUcontext), "cuCtxSetCurrent", NULL)                          \
    X(cuCtxGetCurrent, CUresult, (CUcontext *), "cuCtxGetCurrent", NULL)                        \
    X(cuCtxPushCurrent, CUresult, (CUcontext), "cuCtxPushCurrent_v2", NULL)                     \
    X(cuCtxPopCurrent, CUresult, (CUcontext *), "cuCtxPopCurrent_v2", NULL)                     \
    X(cuCtxSynchronize, CUresult, (void), "cuCtxSynchronize", NULL)                             \
    X(cuMemGetInfo, CUresult, (size_t *, size_t *), "cuMemGetInfo_v2", NULL)                    \
    X(cuMemAlloc, CUresult, (CUdeviceptr *, size_t), "cuMemAlloc_v2", NULL)                     \
    X(cuMemFree, CUresult, (CUdeviceptr), "cuMemFree_v2", NULL)                                 \
    X(cuMemHostAlloc, CUresult, (void **, size_t, unsigned int), "cuMemHostAlloc", NULL)        \
    X(cuMemFreeHost, CUresult, (void *), "cuMemFreeHost", NULL)                                 \
    X(cuMemAllocManaged, CUresult, (CUdeviceptr *, size_t, unsigned int), "cuMemAllocManaged", NULL) \
    X(cuMemcpyAsync, CUresult, (CUdeviceptr, CUdeviceptr, size_t, CUstream), "cuMemcpyAsync", NULL) \
    X(cuPointerGetAttribute, CUresult, (void *, int, CUdeviceptr), "cuPointerGetAttribute", NULL) \
    X(cuModuleLoadData, CUresult, (CUmodule *, const void *), "cuModuleLoadData", NULL)         \
    X(cuModuleUnload, CUresult, (CUmodule), "cuModuleUnload", NULL)                             \
    X(cuModuleGetFunction, CUresult, (CUfunction *, CUmodule, const char *), "cuModuleGetFunction", NULL) \
    X(cuModuleGetGlobal, CUresult, (CUdeviceptr *, size_t *, CUmodule, const char *), "cuModuleGetGlobal_v2", NULL) \
    X(cuFuncGetAttribute, CUresult, (int *, int, CUfunction), "cuFuncGetAttribute", NULL)       \
    X(cuFuncSetAttribute, CUresult, (CUfunction, int, int), "cuFuncSetAttribute", NULL)         \
    X(cuFuncGetParamInfo, CUresult, (CUfunction, size_t, size_t *, size_t *), "cuFuncGetParamInfo", \
      PG_DL_OPTIONAL)                                                                           \
    X(cuLaunchKernel, CUresult,                                                                 \
      (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,        \
       unsigned int, unsigned int, CUstream, void **, void **),                                 \
      "cuLaunchKernel", NULL)                                                                   \
    X(cuLaunchCooperativeKernel, CUresult,                                                      \
      (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,        \
       unsigned int, unsigned int, CUstream, void **),                                          \
      "cuLaunchCooperativeKernel", PG_DL_OPTIONAL)                                              \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, CUresult, (int *, CUfunction, int, size_t),  \
      "cuOccupancyMaxActiveBlocksPerMultiprocessor", PG_DL_OPTIONAL)                            \
    X(cuStreamCreate, CUresult, (CUstream *, unsigned int), "cuStreamCreate", NULL)             \
    X(cuStreamDestroy, CUresult, (CUstream), "cuStreamDestroy_v2", NULL)                        \
    X(cuStreamSynchronize, CUresult, (CUstream), "cuStreamSynchronize", NULL)                   \
    X(cuStreamQuery, CUresult, (CUstream), "cuStreamQuery", NULL)                               \
    X(cuStreamWaitEvent, CUresult, (CUstream, CUevent, unsigned int), "cuStreamWaitEvent", NULL) \
    X(cuEventCreate, CUresult, (CUevent *, unsigned int), "cuEventCreate", NULL)                \
    X(cuEventDestroy, CUresult, (CUevent), "cuEventDestroy_v2", NULL)                           \
    X(cuEventRecord, CUresult, (CUevent, CUstream), "cuEventRecord", NULL)                      \
    X(cuEventSynchronize, CUresult, (CUevent), "cuEventSynchronize", NULL)                      \
    X(cuEventQuery, CUresult, (CUevent), "cuEventQuery", NULL)                                  \
    X(cuEventElapsedTime, CUresult, (float *, CUevent, CUevent), "cuEventElapsedTime_v2",       \
      "cuEventElapsedTime")

#define PG_CU_FIELD(name, ret, params, sym, oldsym) ret (*name) params;
typedef struct {
    PG_CU_SYMBOLS(PG_CU_FIELD)
} PgCudaDriver;
#undef PG_CU_FIELD

/* The driver's entry points; valid after pg_cuda_load() returned 0. */
extern PgCudaDriver pg_cu;

/* Loads libcuda.so.1 and every symbol of the table, once per process (later calls return the
 * first outcome). Returns 0, or -1 with *reason set to a static human-readable explanation
 * ("no CUDA driver: libcuda.so.1 not found", or the symbol an old driver lacks). No Python
 * exception is set, and the GIL is not needed beyond the caller's serialisation of the first call. */
int pg_cuda_load(const char **reason);

/* One symbol of a run-time loaded library: its exported name, a fallback name or NULL, and where
 * in the library's table its pointer goes. Later libraries (cuBLAS and cuSOLVER: cuda_libs.h;
 * libnvrtc) get their own X-macro list, table and loader function built on these. */
typedef struct {
    const char *name;
    const char *fallback;
    size_t offset;
} PgDlSymbol;

/* dlopen()s the first of `libnames` (NULL-terminated) that loads, with RTLD_NOW | RTLD_LOCAL, and
 * fills `table` from `syms` (an optional symbol the library lacks is left NULL). Returns the
 * handle, or NULL with a message in err. */
void *pg_dl_load_table(const char *const *libnames, const PgDlSymbol *syms, size_t nsyms, void *table,
                       char *err, size_t errsize);
/* Fills `table` from the symbols of an open library (named libname in the message). 0, or -1 with
 * "<libname> lacks <symbol>" in err. */
int pg_dl_resolve(void *handle, const char *libname, const PgDlSymbol *syms, size_t nsyms, void *table, char *err,
                  size_t errsize);

#endif
