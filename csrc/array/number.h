/* ndarray's arithmetic as the array layer sees it: the operators, comparisons and
 * __array_ufunc__ are slots of the array type (number.c), and math/ implements them by filling
 * pg_array_math at module init, as NumPy's n_ops. So the array layer names operations without
 * knowing ufuncs, and nothing in array/ includes from math/. */
#ifndef PG_NUMBER_H
#define PG_NUMBER_H
#include "array/array.h"

/* The operations behind the number protocol and rich comparison. */
typedef enum {
    PG_NB_ADD, PG_NB_SUB, PG_NB_MUL, PG_NB_TRUEDIV, PG_NB_FLOORDIV, PG_NB_REM, PG_NB_POW,
    PG_NB_NEG, PG_NB_POS, PG_NB_ABS, PG_NB_INVERT, PG_NB_LSHIFT, PG_NB_RSHIFT, PG_NB_AND,
    PG_NB_OR, PG_NB_XOR, PG_NB_LT, PG_NB_LE, PG_NB_EQ, PG_NB_NE, PG_NB_GT, PG_NB_GE, PG_NB_COUNT
} PgNumberOp;

typedef struct {
    /* op applied to args (one or two); out is NULL, or the array an in-place operator writes
     * into (its dtype never changes). NotImplemented (a new reference) for operands of types
     * the op does not take, so that Python tries the other operand. */
    PyObject *(*apply)(PgNumberOp op, PyObject *const *args, PyObject *out);
    /* ndarray.__array_ufunc__(ufunc, method, *inputs, **kwargs) */
    PyObject *(*array_ufunc)(PyObject *args, PyObject *kwds);
    /* a @ b; a @= b when out is a (NotImplemented for operand types matmul does not take) */
    PyObject *(*matmul)(PyObject *a, PyObject *b, PyObject *out);
} PgArrayMath;

extern PgArrayMath pg_array_math;

/* ndarray.__array_ufunc__ for the NumPy ufuncs that are not elementwise (matmul, vecdot, matvec,
 * vecmat): pygpu._dispatch.array_ufunc(ufunc, method, *inputs, **kwargs). */
PyObject *pg_array_ufunc_fallback(PyObject *args, PyObject *kwds);

/* 1 when out (an out= argument: an array, or a tuple of them) holds a NumPy array. */
int pg_is_numpy_out(PyObject *out);

/* fn(*args, **kwargs) where kwargs["out"] holds NumPy arrays (np.add.reduce(x, out=numpy_array),
 * x.sum(out=numpy_array)): pygpu._ufunc_on_host.with_numpy_out computes into pygpu stand-ins by
 * fn's own out= rules, stores them into the NumPy arrays and returns those; `name` is for errors. */
PyObject *pg_call_with_numpy_out(const char *name, PyObject *fn, PyObject *args, PyObject *kwargs);

/* The same for pygpu._core.<fname>: its first npos values positional, the other non-NULL ones
 * by their names (names NULL-terminated, as the values a function parsed). */
PyObject *pg_core_call_with_numpy_out(const char *fname, int npos, const char *const *names, PyObject *const *values);

/* 1 when obj takes part in NumPy's operator protocol itself (__array_ufunc__ or
 * __array_priority__: a masked array, a Dask array): ndarray's operators leave it to answer. */
int pg_numpy_aware(PyObject *obj);

/* Installs the number protocol, rich comparison and hashing of ndarray (before PyType_Ready). */
void pg_number_setup_type(PyTypeObject *t);
extern PyMethodDef pg_array_methods_number[];
#endif
