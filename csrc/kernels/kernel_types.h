/* Types shared by the host code and the kernels. Written in the common subset of C and CUDA C:
 * this header is included by the C extension and by the .cu kernel file alike. */
#ifndef PG_KERNEL_TYPES_H
#define PG_KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#ifdef __CUDACC__
#define PG_HOST_DEVICE __host__ __device__
#define PG_INLINE __forceinline__
/* The converting loads and stores of the strided path: one copy per type, called rather than
 * inlined into every kernel, which keeps nvcc's time and the fatbin's size in check. */
#define PG_CONVERT_FN static __noinline__
#else
#define PG_HOST_DEVICE
#define PG_INLINE static inline
#define PG_CONVERT_FN static inline
#endif

#define PG_MAXDIMS 32      /* most dimensions an array may have (NumPy 1.x's limit) */
#define PG_MAXARGS 4       /* most operands of one elementwise kernel (3 inputs + 1 output) */

/* Element types. The order is part of the kernel ABI: kernels switch on it. */
typedef enum {
    PG_BOOL = 0,
    PG_INT8, PG_INT16, PG_INT32, PG_INT64,
    PG_UINT8, PG_UINT16, PG_UINT32, PG_UINT64,
    PG_FLOAT16, PG_FLOAT32, PG_FLOAT64,
    PG_COMPLEX64, PG_COMPLEX128,
    PG_NTYPES
} PgType;

typedef struct { float re, im; } pg_complex64;
typedef struct { double re, im; } pg_complex128;
typedef uint16_t pg_half;  /* IEEE binary16 bits; converted in software on both backends */

/* Operands of one elementwise launch after broadcasting and axis merging. Passed by value to
 * CUDA kernels, so it is kept well under the 4 KiB kernel-parameter limit. */
typedef struct {
    int32_t ndim;                                /* merged dimensions, 0 for a scalar loop */
    int32_t nargs;                               /* inputs then the output */
    int64_t size;                                /* elements to produce */
    int64_t shape[PG_MAXDIMS];                   /* innermost dimension last */
    int64_t strides[PG_MAXARGS][PG_MAXDIMS];     /* bytes */
    char *data[PG_MAXARGS];
    int32_t types[PG_MAXARGS];                   /* PgType of each operand as stored */
    /* An input whose data pointer is NULL is a scalar: its value is stored here as its type. */
    uint64_t scalar[PG_MAXARGS][2];
} PgLoopArgs;

/* The same launch when every operand is contiguous and of the loop's own types: small, so the
 * common case passes few kernel-parameter bytes. */
typedef struct {
    int64_t size;
    char *data[PG_MAXARGS];
    int32_t types[PG_MAXARGS];
    uint64_t scalar[PG_MAXARGS][2];
} PgContigArgs;

/* One strided batched matrix product in BLAS's column-major terms, for every dtype:
 * C[b] = op(A[b]) op(B[b]) for b < batch, C[b] m x n, op(A[b]) m x k, op(B[b]) k x n, where op is
 * the matrix itself (N), its transpose (T) or its conjugate transpose (C). Leading dimensions and
 * batch strides count elements; a batch stride of 0 repeats one matrix. All three operands are of
 * `type`. Float and complex products run on BLAS (cuBLAS; NumPy's BLAS on the CPU), integer and
 * bool ones on the kernel of kernels/matmul.h. */
enum { PG_TRANS_N = 0, PG_TRANS_T = 1, PG_TRANS_C = 2 };
typedef struct {
    int32_t type;
    int32_t transa, transb;
    int32_t tf32;                 /* float32/complex64 may use TF32 tensor cores (opt-in) */
    int64_t m, n, k, batch;
    int64_t lda, ldb, ldc;
    int64_t stride_a, stride_b, stride_c;
    const char *a;
    const char *b;
    char *c;
} PgGemmArgs;

#endif
