/* Advanced indexing (integer arrays and boolean masks, mixed with basic items) and the index
 * machinery the indexing routines share (take, put, nonzero, ...). indexing.c hands an index
 * with array items here; takeput.c builds on the helpers. */
#ifndef PG_ADVANCED_H
#define PG_ADVANCED_H
#include "array/array.h"
#include "runtime/indexing.h"

/* a[key] and a[key] = value for a key holding integer arrays, boolean masks or booleans. */
PyObject *pg_advanced_getitem(PgArray *a, PyObject *key);
int pg_advanced_setitem(PgArray *a, PyObject *key, PyObject *value);

/* The coordinates of mask's true elements (mask of any dtype), as a (count, ndim) int64 array
 * in C order of the mask (numpy.argwhere). */
PgArray *pg_nonzero_coords(PgArray *mask);
/* numpy.nonzero(obj): a tuple of int64 arrays, one per axis. */
PyObject *pg_nonzero(PyObject *obj);
/* The number of true elements of mask (waits for the device). -1 with an exception. */
int64_t pg_count_true(PgArray *mask);

/* An index argument (array, list, scalar) as an integer array on dev; TypeError/IndexError
 * naming `what` when it is not integer. */
PgArray *pg_index_array(PyObject *obj, PgDevice *dev, const char *what);
/* Raises NumPy's IndexError "index %d is out of bounds for axis %d with size %d" for the first
 * index of idx (in C order) outside [-n, n); used after a launch reported one. Returns -1. */
int pg_index_bounds_error(PgArray *idx, int64_t n, int axis);
/* Drops length-1 dimensions and merges neighbours every stride set steps through as one,
 * keeping C order: the loop's shape and the ns stride sets are updated in place. */
void pg_index_merge_dims(int *ndim, int64_t *shape, int ns, int64_t (*strides)[PG_MAXDIMS]);
/* True when v's memory may be a's (a value is then copied before a scatter into a). */
int pg_same_memory(PgArray *a, PgArray *v);
/* value as an array of a's type on a's device, for assignment (scalars as 0-d arrays). */
PgArray *pg_value_array(PgArray *a, PyObject *value);
/* The strides that broadcast v (its trailing dimensions aligned) to shape (ndim), into out;
 * NumPy's "shape mismatch: value array of shape ... could not be broadcast to indexing result
 * of shape ..." ValueError when it does not broadcast. */
int pg_value_strides(PgArray *v, int ndim, const int64_t *shape, int64_t *out);
#endif
