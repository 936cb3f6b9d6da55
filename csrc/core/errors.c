/* pygpu's own exception types, created at module init and shared by every layer. */
#include "core/pg.h"

PyObject *PgExc_CUDAError;
PyObject *PgExc_OutOfMemoryError;
PyObject *PgExc_CompileError;

int
pg_errors_init(PyObject *module)
{
    PgExc_CUDAError = PyErr_NewExceptionWithDoc(
        "pygpu.CUDAError", "An error reported by the CUDA driver (see .name and .code).", PyExc_RuntimeError, NULL);
    PgExc_OutOfMemoryError = PyErr_NewExceptionWithDoc(
        "pygpu.OutOfMemoryError", "A device allocation failed even after the memory pool released its cache.",
        PyExc_MemoryError, NULL);
    PgExc_CompileError = PyErr_NewExceptionWithDoc(
        "pygpu.CompileError",
        "User code that pygpu cannot compile: the message names the construct, the file and the line "
        "(attributes filename, lineno; log: a compiler's log where there is one).",
        PyExc_Exception, NULL);
    if (PgExc_CUDAError == NULL || PgExc_OutOfMemoryError == NULL || PgExc_CompileError == NULL ||
        PyModule_AddObjectRef(module, "CUDAError", PgExc_CUDAError) < 0 ||
        PyModule_AddObjectRef(module, "OutOfMemoryError", PgExc_OutOfMemoryError) < 0 ||
        PyModule_AddObjectRef(module, "CompileError", PgExc_CompileError) < 0)
        return -1;
    return 0;
}
