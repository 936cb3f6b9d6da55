/* Reductions and scans of arrays (the reduction family, runtime/reduce_launch.h): NumPy's
 * result dtypes, axes, keepdims, out=, initial=, where=, and its errors. The named functions and
 * ndarray methods (reductions.c), the ufunc methods (ufunc_reduce.c) and the scans (scan.c) all
 * come here. */
#ifndef PG_REDUCTION_H
#define PG_REDUCTION_H
#include "math/ufunc.h"
#include "runtime/reduce_launch.h"

/* What a reduction computes; with the compute dtype this picks the reducer (reduce.def). */
typedef enum {
    PG_ROP_ADD, PG_ROP_MUL, PG_ROP_MAX, PG_ROP_MIN, PG_ROP_FMAX, PG_ROP_FMIN,
    PG_ROP_LAND, PG_ROP_LOR, PG_ROP_LXOR, PG_ROP_BAND, PG_ROP_BOR, PG_ROP_BXOR,
    PG_ROP_ARGMAX, PG_ROP_ARGMIN, PG_ROP_MEAN, PG_ROP_VAR, PG_ROP_STD, PG_ROP_COUNT,
    PG_ROP_COUNT_OPS
} PgRedOp;

typedef struct {
    PgRedOp op;
    PyObject *axis;     /* NULL or None: every axis; an int; a tuple of ints */
    int dtype;          /* -1: NumPy's default for op */
    PyObject *out;      /* NULL or None: a new array */
    int keepdims;
    PyObject *initial;  /* NULL: none; None: none, and an empty reduction has no identity */
    PyObject *where;    /* NULL or True: every element */
    int skipnan;        /* the nan* functions */
    double ddof;
} PgReduceRequest;

/* The dtype= a reduction or scan of in_type by op computes in: dtype, or where it is -1 and out
 * is a pygpu array, out's type when NumPy's ufunc would loop in it. */
int pg_reduce_dtype_of_out(PgRedOp op, int in_type, int dtype, PyObject *out);
/* x (a pygpu array or anything asarray takes) reduced as req says: a new array (0-d for a full
 * reduction) or req->out. NULL with NumPy's exception on bad input. */
PyObject *pg_reduce_array(PyObject *x, const PgReduceRequest *req);

/* The C entry point for reductions by an op-table binary loop (vectorize's reduce builds on
 * it): x reduced over the axes with reduced[i] != 0 by loop `loop` (PG_K_add_f64, ...; any loop
 * pg_reducer_of_loop maps), the result of the loop's type, kept dimensions as keepdims says.
 * A new reference, or NULL with an exception. */
PgArray *pg_reduce_with_loop(int loop, PgArray *x, const char *reduced, int keepdims);

/* x scanned along `axis` (NULL/None: x flattened first, as cumsum; for accumulate, the caller
 * passes 0) with op (an op reducer's: ADD, MUL, MAX, ...); include_initial puts the identity
 * first (cumulative_sum). */
PyObject *pg_scan_array(PyObject *x, PgRedOp op, PyObject *axis, int dtype, PyObject *out, int include_initial,
                        const char *fname);

/* The array a reduction or scan of x writes: out when given (checked as NumPy does: a pygpu array
 * on x's device, writeable, of this shape), else a new array of dtype rt. *target is where the
 * kernel writes: out itself, or a new array of rt when out's dtype differs or it overlaps x or
 * `also` (another input, or NULL). opname names the operation in errors. 0, or -1. */
int pg_reduction_output(PgArray *x, PgArray *also, PyObject *outobj, int rt, int nd, const int64_t *shape,
                        const char *opname, PgArray **result, PgArray **target);
/* The ufunc's reduction op, or -1 when it has none (not one of add, multiply, maximum, ...). */
int pg_reduce_op_of_ufunc(const char *name);
/* The name NumPy uses for op in its messages ("maximum", "fmax", "argmax", ...). */
const char *pg_reduce_op_name(PgRedOp op);
/* NumPy's result dtype of op over dtype t (dtype: the dtype= argument or -1), and in *ct the dtype
 * it computes in; -1 with TypeError when op does not take t. */
int pg_reduce_result_type(PgRedOp op, int t, int dtype, int *ct);
/* The reducer (reduce_ids.h) of op computing in dtype ct, or -1. */
int pg_reduce_reducer(PgRedOp op, int ct);
/* reduced[i] for axis (NULL/None: all; an int; a tuple unless single), NumPy's errors. */
int pg_reduce_parse_axis(PyObject *axis, int ndim, int single, char *reduced);

/* The module functions and ndarray methods (reductions.c; module.c adds them), the ufunc
 * methods (ufunc_reduce.c: reduce, accumulate, reduceat, at and ufunc.c's _add_loop; ufunc.c's type has them). */
extern PyMethodDef pg_reduction_module_methods[], pg_array_methods_reduction[], pg_ufunc_methods[];
#endif
