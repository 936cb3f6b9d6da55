/* The core layer (csrc/core/): semantics with no device in them. dtypes and promotion, shapes,
 * strides, broadcasting and axis merging, argument parsing, pygpu's exception types. It may use
 * Python, NumPy's C API and kernels/ (the types shared with the kernels), nothing else of csrc/.
 *
 * This header holds the common definitions every .c file of the extension includes first. */
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

/* Exceptions created at module init (errors.c). */
extern PyObject *PgExc_CUDAError;       /* pygpu.CUDAError(RuntimeError) */
extern PyObject *PgExc_OutOfMemoryError; /* pygpu.OutOfMemoryError(MemoryError) */
extern PyObject *PgExc_CompileError;    /* pygpu.CompileError(Exception) */
int pg_errors_init(PyObject *module);

#endif
