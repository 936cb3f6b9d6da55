/* The interop protocols: __cuda_array_interface__, DLPack, the buffer protocol, __array__. */
#ifndef PG_INTEROP_H
#define PG_INTEROP_H
#include "array.h"

/* Imports obj zero-copy when it offers __cuda_array_interface__ or __dlpack__ (and is not a
 * NumPy array): 1 with *out set, 0 when obj offers neither, -1 with an exception. */
int pg_interop_import(PyObject *obj, PgArray **out);
extern PyMethodDef pg_interop_module_methods[];

/* backend_cuda.c: the device ordinal and memory kind of a CUDA pointer, 0 on success or -1 with
 * an exception (ValueError when the driver does not know the pointer). */
int pg_cuda_pointer_info(const void *ptr, int *ordinal, PgMemKind *kind);
#endif
