/* Common definitions for the pygpu._core extension. Every .c file includes this first. */
#ifndef PG_H
#define PG_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* One NumPy C-API table for the whole extension: module.c imports it, the rest share it. */
#define PY_ARRAY_UNIQUE_SYMBOL pygpu_ARRAY_API
#ifndef PG_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "kernels/kernel_types.h"

#define PG_UNUSED(x) (void)(x)

/* Exceptions created at module init (module.c). */
extern PyObject *PgExc_CUDAError;       /* pygpu.CUDAError(RuntimeError) */
extern PyObject *PgExc_OutOfMemoryError; /* pygpu.OutOfMemoryError(MemoryError) */

/* Helpers shared by several files (module.c). */
int pg_parse_int64(PyObject *obj, int64_t *out, const char *what);
/* copy= of the array API: True 1, False 0, None (or absent) -1. */
int pg_parse_copy(PyObject *obj, int *copy);

#endif
