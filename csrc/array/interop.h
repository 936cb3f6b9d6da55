/* The interop protocols: __cuda_array_interface__, DLPack, the buffer protocol, __array__. */
#ifndef PG_INTEROP_H
#define PG_INTEROP_H
#include "array/array.h"

/* Imports obj zero-copy when it offers __cuda_array_interface__ or __dlpack__ (and is not a
 * NumPy array): 1 with *out set, 0 when obj offers neither, -1 with an exception. */
int pg_interop_import(PyObject *obj, PgArray **out);
extern PyMethodDef pg_interop_module_methods[];
#endif
