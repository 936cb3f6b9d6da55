/* User kernels: modules loaded on a device, their kernels, and the launch (argument packing,
 * launch-configuration checks) in C, so that a repeated launch of a cached kernel costs a few
 * microseconds of host time.
 *
 *   _core._Module   a module on one device (a CUDA image, or a shared object of CPU kernels);
 *   _core._Function one kernel of a module: what the backend knows of its parameters, merged with
 *                   the signature pygpu/_jit parsed from the source; launches;
 *   _core._Kernel   the base of pygpu.RawKernel (and of the kernels cuda.jit makes): launches
 *                   on the device of its array arguments (else the current one), asking the
 *                   subclass's _get_function(device) once per device;
 *   _core._Launcher what kernel[grid, block, stream, shared_mem] returns (Numba's form).
 *
 * The compilers (NVRTC here, the host C++ compiler and the caches in pygpu/_jit) are reached
 * from Python: they run once per kernel and device, never on the launch path. */
#ifndef PG_JIT_KERNEL_H
#define PG_JIT_KERNEL_H
#include "array/array.h"

typedef struct {
    PyObject_HEAD
    PgDevice *device;
    void *handle;        /* the backend's module */
    PyObject *source;    /* what it was loaded from: the image (bytes) or the path (str) */
} PgModule;

typedef struct {
    PyObject_HEAD
    PgModule *module;
    PyObject *name;      /* the kernel's name as users wrote it (for messages) */
    PgFunctionInfo info;
    int nparams;         /* -1: unknown, arguments are packed by their own sizes */
    PgParamInfo *params; /* merged: sizes from the backend, kinds from the signature */
    int cooperative;     /* launched cooperatively (CuPy's enable_cooperative_groups) */
    int wrap_ints;       /* integer arguments wrap to their parameter's width (cuda.jit: Numba's ctypes) */
} PgFunction;

/* The per-device functions a _Kernel caches: the CPU, then cuda:0 .. cuda:N-1. */
#define PG_KERNEL_SLOTS 17

typedef struct {
    PyObject_HEAD
    PgFunction *slots[PG_KERNEL_SLOTS];
    PyObject *by_type;   /* kernels specialised per argument types (cuda.jit): {key: _Function}, else NULL */
    PyObject *weakreflist;
} PgKernel;

/* A parameter that takes an array by value, as the kernels cuda.jit emits declare them:
 * {T *data; int64_t shape[n]; int64_t strides[n];} with n = max(ndim, 1), strides in bytes.
 * The parameter's type packs the element's PgType, the dimensions and the layout the kernel
 * indexes with (PG_PARAM_ARRAY_TYPE); its size is 8 + 16 * n. */
#define PG_PARAM_ARRAY 16
#define PG_PARAM_ARRAY_C 0x10000   /* the kernel indexes it as C-contiguous: only such arrays pass */
#define PG_PARAM_ARRAY_TYPE(type, ndim, c) ((type) | ((ndim) << 8) | ((c) ? PG_PARAM_ARRAY_C : 0))
#define PG_PARAM_ARRAY_ELEMENT(t) ((t) & 0xff)
#define PG_PARAM_ARRAY_NDIM(t) (((t) >> 8) & 0xff)

/* A parameter that takes a tuple of numbers by value (cuda.jit's PgTup<T, n>: {T v[n];}): the
 * type packs the element's PgType and n (PG_PARAM_TUPLE_TYPE); its size is n * the itemsize. */
#define PG_PARAM_TUPLE 17
#define PG_PARAM_TUPLE_TYPE(type, n) ((type) | ((n) << 8))
#define PG_PARAM_TUPLE_ELEMENT(t) ((t) & 0xff)
#define PG_PARAM_TUPLE_LENGTH(t) (((t) >> 8) & 0xff)

/* A parameter bound when the kernel was compiled (a function or a type given as an argument,
 * which cuda.jit compiles in as a constant): the launch passes one zero byte in its place. */
#define PG_PARAM_BOUND 18

/* An array of records (cuda.jit's structured dtypes), passed by value as {data, shape, strides}
 * of its ndim dimensions. On the host it is a uint8 array of ndim + 1 dimensions whose last one
 * holds a record's bytes (contiguous): a NumPy structured array is viewed so (and copied there
 * and back), a device record array gives its bytes by `_pygpu_record_bytes`. */
#define PG_PARAM_RECORDS 19
#define PG_PARAM_RECORDS_TYPE(ndim, itemsize) ((ndim) | ((itemsize) << 8))
#define PG_PARAM_RECORDS_NDIM(t) ((t) & 0xff)
#define PG_PARAM_RECORDS_ITEMSIZE(t) ((t) >> 8)

extern PyTypeObject PgModule_Type, PgFunction_Type, PgKernel_Type, PgLauncher_Type;
#define PgFunction_Check(o) (Py_TYPE(o) == &PgFunction_Type)

/* Launches fn over grid/block (ints or tuples of up to three) with args, dynamic shared memory
 * `shared` (an int or NULL) on `stream` (NULL/None: the device's current stream). */
int pg_function_launch(PgFunction *fn, PyObject *grid, PyObject *block, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *shared, PyObject *stream);

int pg_jit_kernel_init(PyObject *module);
/* _core._op_sources() (op_source.c): the op table's loops as text, for the emitted C. */
PyObject *pg_op_sources(PyObject *module, PyObject *unused);
extern PyMethodDef pg_jit_kernel_methods[], pg_nvrtc_methods[];
#endif
