/* cuBLAS, cuSOLVER and cuFFT, loaded at run time like the driver (cuda_loader.h): their headers
 * are not included, so the extension builds without them; the few types, enums and entry points
 * used are declared here with the values of cublas_api.h, cusolverDn.h, cufft.h and
 * library_types.h.
 *
 * Where they come from, first found wins (the newest version the driver supports at each place):
 *   1. PYGPU_CUBLAS_LIBRARY / PYGPU_CUSOLVER_LIBRARY / PYGPU_CUFFT_LIBRARY: a file to load and
 *      nothing else;
 *   2. NVIDIA's pip wheels in the Python environment (every sys.path entry): nvidia/cu13/lib
 *      (CUDA 13: nvidia-cublas, nvidia-cusolver, nvidia-cufft) and nvidia/{cublas,cusolver,cufft,
 *      ...}/lib (CUDA 12: nvidia-cublas-cu12, nvidia-cusolver-cu12, nvidia-cufft-cu12), their
 *      dependencies (cuBLASLt, cuSPARSE, nvJitLink) loaded first from the same environment;
 *   3. the CUDA toolkit: $CUDA_HOME/lib64 or $CUDA_PATH/lib64, else /usr/local/cuda/lib64;
 *   4. the system's library path (LD_LIBRARY_PATH, ld.so.cache).
 * A machine without them gets a CUDAError naming the pip package to install; nothing else of
 * pygpu needs them. */
#ifndef PG_CUDA_LIBS_H
#define PG_CUDA_LIBS_H
#include "runtime/backend.h"
#include "runtime/cuda_loader.h"
#include <stdint.h>

typedef int cublasStatus_t;
typedef struct cublasContext *cublasHandle_t;
typedef int cusolverStatus_t;
typedef struct cusolverDnContext *cusolverDnHandle_t;
typedef struct cusolverDnParams *cusolverDnParams_t;

enum { CUBLAS_STATUS_SUCCESS = 0 };
enum { CUSOLVER_STATUS_SUCCESS = 0 };
/* cudaDataType */
enum { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_C_32F = 4, CUDA_C_64F = 5 };
/* cublasComputeType_t */
enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_32F_FAST_TF32 = 77 };
enum { CUBLAS_GEMM_DEFAULT = -1 };
/* cublasFillMode_t, cusolverEigMode_t (cublasOperation_t is PG_TRANS_N/T/C) */
enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 };
enum { CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1 };

/* X(field, parameters, exported name): every entry point returns a status (0 is success) */
#define PG_CUBLAS_SYMBOLS(X)                                                                            \
    X(cublasCreate, (cublasHandle_t *), "cublasCreate_v2")                                          \
    X(cublasDestroy, (cublasHandle_t), "cublasDestroy_v2")                                          \
    X(cublasSetStream, (cublasHandle_t, CUstream), "cublasSetStream_v2")                            \
    X(cublasSetWorkspace, (cublasHandle_t, void *, size_t), "cublasSetWorkspace_v2")               \
    X(cublasGemmEx,                                                                                     \
      (cublasHandle_t, int, int, int, int, int, const void *, const void *, int, int, const void *, int, \
       int, const void *, void *, int, int, int, int),                                                  \
      "cublasGemmEx")                                                                                \
    X(cublasGemmStridedBatchedEx,                                                                       \
      (cublasHandle_t, int, int, int, int, int, const void *, const void *, int, int, long long,        \
       const void *, int, int, long long, const void *, void *, int, int, long long, int, int, int),    \
      "cublasGemmStridedBatchedEx")

#define PG_CUSOLVER_SYMBOLS(X)                                                                          \
    X(cusolverDnCreate, (cusolverDnHandle_t *), "cusolverDnCreate")                                 \
    X(cusolverDnDestroy, (cusolverDnHandle_t), "cusolverDnDestroy")                                 \
    X(cusolverDnSetStream, (cusolverDnHandle_t, CUstream), "cusolverDnSetStream")                   \
    X(cusolverDnCreateParams, (cusolverDnParams_t *), "cusolverDnCreateParams")                     \
    X(cusolverDnDestroyParams, (cusolverDnParams_t), "cusolverDnDestroyParams")                     \
    X(cusolverDnXpotrf_bufferSize,                                                                      \
      (cusolverDnHandle_t, cusolverDnParams_t, int, int64_t, int, const void *, int64_t, int, size_t *, \
       size_t *),                                                                                       \
      "cusolverDnXpotrf_bufferSize")                                                                 \
    X(cusolverDnXpotrf,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, int, int64_t, int, void *, int64_t, int, void *, size_t, \
       void *, size_t, int *),                                                                          \
      "cusolverDnXpotrf")                                                                            \
    X(cusolverDnXgetrf_bufferSize,                                                                      \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int, const void *, int64_t, int,       \
       size_t *, size_t *),                                                                             \
      "cusolverDnXgetrf_bufferSize")                                                                 \
    X(cusolverDnXgetrf,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int, void *, int64_t, int64_t *, int,  \
       void *, size_t, void *, size_t, int *),                                                          \
      "cusolverDnXgetrf")                                                                            \
    X(cusolverDnXgetrs,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, int, int64_t, int64_t, int, const void *, int64_t,       \
       const int64_t *, int, void *, int64_t, int *),                                                   \
      "cusolverDnXgetrs")                                                                            \
    X(cusolverDnXgeqrf_bufferSize,                                                                      \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int, const void *, int64_t, int,       \
       const void *, int, size_t *, size_t *),                                                          \
      "cusolverDnXgeqrf_bufferSize")                                                                 \
    X(cusolverDnXgeqrf,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int, void *, int64_t, int, void *, int,\
       void *, size_t, void *, size_t, int *),                                                          \
      "cusolverDnXgeqrf")                                                                            \
    X(cusolverDnSorgqr_bufferSize, (cusolverDnHandle_t, int, int, int, const void *, int, const void *, \
                                    int *), "cusolverDnSorgqr_bufferSize")                          \
    X(cusolverDnDorgqr_bufferSize, (cusolverDnHandle_t, int, int, int, const void *, int, const void *, \
                                    int *), "cusolverDnDorgqr_bufferSize")                          \
    X(cusolverDnCungqr_bufferSize, (cusolverDnHandle_t, int, int, int, const void *, int, const void *, \
                                    int *), "cusolverDnCungqr_bufferSize")                          \
    X(cusolverDnZungqr_bufferSize, (cusolverDnHandle_t, int, int, int, const void *, int, const void *, \
                                    int *), "cusolverDnZungqr_bufferSize")                          \
    X(cusolverDnSorgqr, (cusolverDnHandle_t, int, int, int, void *, int, const void *, void *, int,     \
                         int *), "cusolverDnSorgqr")                                                \
    X(cusolverDnDorgqr, (cusolverDnHandle_t, int, int, int, void *, int, const void *, void *, int,     \
                         int *), "cusolverDnDorgqr")                                                \
    X(cusolverDnCungqr, (cusolverDnHandle_t, int, int, int, void *, int, const void *, void *, int,     \
                         int *), "cusolverDnCungqr")                                                \
    X(cusolverDnZungqr, (cusolverDnHandle_t, int, int, int, void *, int, const void *, void *, int,     \
                         int *), "cusolverDnZungqr")                                                \
    X(cusolverDnXgesvd_bufferSize,                                                                      \
      (cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, int,         \
       const void *, int64_t, int, const void *, int, const void *, int64_t, int, const void *, int64_t, \
       int, size_t *, size_t *),                                                                        \
      "cusolverDnXgesvd_bufferSize")                                                                 \
    X(cusolverDnXgesvd,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, int, void *, \
       int64_t, int, void *, int, void *, int64_t, int, void *, int64_t, int, void *, size_t, void *,   \
       size_t, int *),                                                                                  \
      "cusolverDnXgesvd")                                                                            \
    X(cusolverDnXsyevd_bufferSize,                                                                      \
      (cusolverDnHandle_t, cusolverDnParams_t, int, int, int64_t, int, const void *, int64_t, int,      \
       const void *, int, size_t *, size_t *),                                                          \
      "cusolverDnXsyevd_bufferSize")                                                                 \
    X(cusolverDnXsyevd,                                                                                 \
      (cusolverDnHandle_t, cusolverDnParams_t, int, int, int64_t, int, void *, int64_t, int, void *,    \
       int, void *, size_t, void *, size_t, int *),                                                     \
      "cusolverDnXsyevd")

/* cufftType and the directions of cufft.h; a plan is an int */
typedef int cufftHandle;
enum { CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69 };
enum { CUFFT_FORWARD = -1, CUFFT_INVERSE = 1 };

#define PG_CUFFT_SYMBOLS(X)                                                                             \
    X(cufftCreate, (cufftHandle *), "cufftCreate")                                                  \
    X(cufftDestroy, (cufftHandle), "cufftDestroy")                                                  \
    X(cufftSetStream, (cufftHandle, CUstream), "cufftSetStream")                                    \
    X(cufftSetAutoAllocation, (cufftHandle, int), "cufftSetAutoAllocation")                         \
    X(cufftMakePlanMany64,                                                                              \
      (cufftHandle, int, long long *, long long *, long long, long long, long long *, long long,         \
       long long, int, long long, size_t *),                                                            \
      "cufftMakePlanMany64")                                                                         \
    X(cufftSetWorkArea, (cufftHandle, void *), "cufftSetWorkArea")                                  \
    X(cufftExecC2C, (cufftHandle, void *, void *, int), "cufftExecC2C")                             \
    X(cufftExecZ2Z, (cufftHandle, void *, void *, int), "cufftExecZ2Z")                             \
    X(cufftExecR2C, (cufftHandle, void *, void *), "cufftExecR2C")                                  \
    X(cufftExecD2Z, (cufftHandle, void *, void *), "cufftExecD2Z")                                  \
    X(cufftExecC2R, (cufftHandle, void *, void *), "cufftExecC2R")                                  \
    X(cufftExecZ2D, (cufftHandle, void *, void *), "cufftExecZ2D")

#define PG_CUDA_LIB_FIELD(name, params, sym) int (*name) params;
typedef struct {
    PG_CUBLAS_SYMBOLS(PG_CUDA_LIB_FIELD)
} PgCublas;
typedef struct {
    PG_CUSOLVER_SYMBOLS(PG_CUDA_LIB_FIELD)
} PgCusolver;
typedef struct {
    PG_CUFFT_SYMBOLS(PG_CUDA_LIB_FIELD)
} PgCufft;
#undef PG_CUDA_LIB_FIELD

/* The entry points; valid after the matching load returned 0. */
extern PgCublas pg_cublas;
extern PgCusolver pg_cusolver;
extern PgCufft pg_cufft;

/* Load the library once per process (later calls return the first outcome; a failure is not
 * retried). 0, or -1 with pygpu.CUDAError set saying what was looked for, where, and which pip
 * package to install. The GIL must be held (the search reads sys.path). */
int pg_cublas_load(void);
int pg_cusolver_load(void);
int pg_cufft_load(void);
/* The path of the loaded library, or NULL when it is not loaded (yet). */
const char *pg_cublas_path(void);
const char *pg_cusolver_path(void);
const char *pg_cufft_path(void);

/* Raises pygpu.CUDAError for a failed cuBLAS, cuSOLVER or cuFFT call (library "cuBLAS",
 * "cuSOLVER" or "cuFFT"): "<call> failed on cuda:N: CUBLAS_STATUS_X (code)". Returns -1. */
int pg_cuda_lib_raise(PgDevice *dev, const char *library, int status, const char *call);
/* Handles, one per device and stream, created on first use with the stream set once; called with
 * the device's context current (cuda_handles.c). cuBLAS gets its workspace from the device's memory pool. 0, or
 * -1 with an exception (the library could not be loaded, or creating the handle failed). */
int pg_cublas_handle(PgDevice *dev, void *stream, cublasHandle_t *handle);
int pg_cusolver_handle(PgDevice *dev, void *stream, cusolverDnHandle_t *handle, cusolverDnParams_t *params);
#endif
