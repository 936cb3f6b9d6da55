/* Linear algebra in the math layer: the matrix product every product of pygpu.linalg is built on
 * (matmul.c: NumPy's matmul rules, planned into strided batched GEMMs for PgBackend.gemm) and the
 * cuSOLVER factorisations of CUDA arrays (linalg_cuda.c). The rest of pygpu.linalg is Python
 * (pygpu/linalg.py) over these and the array layer's views (diagonal, transposes). */
#ifndef PG_LINALG_H
#define PG_LINALG_H
#include "array/number.h"

/* c = a @ b (conj(a) @ b when conj_a) with NumPy's matmul shapes: a and b of one type and device,
 * at least 1-d, their core dimensions matching; c writeable, of that type and of the broadcast
 * output shape, sharing no memory with a or b. 0, or -1 with an exception. */
int pg_matmul_into(PgArray *a, PgArray *b, PgArray *c, int conj_a);

/* numpy.matmul(x1, x2, out=, dtype=, casting=) for any operands (arrays on one device, array-likes,
 * NumPy arrays). out may be NULL or None, dtype -1. With `notimpl`, operands of a type matmul does
 * not take give NotImplemented (the @ operator). New reference (out itself when given). */
PyObject *pg_matmul(PyObject *x1, PyObject *x2, PyObject *out, int dtype, PgCasting casting, int notimpl);

/* Module init: numpy's matmul ufunc (named in errors), the TF32 switch from the environment. */
int pg_linalg_init(PyObject *module);
extern PyMethodDef pg_linalg_module_methods[], pg_linalg_cuda_module_methods[];
#endif
