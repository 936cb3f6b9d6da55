/* Parsing of arguments shared across the extension (NumPy's errors and wording). */
#ifndef PG_ARGS_H
#define PG_ARGS_H
#include "core/pg.h"

/* An integer (anything with __index__) as int64; TypeError naming `what` otherwise. */
int pg_parse_int64(PyObject *obj, int64_t *out, const char *what);
/* The integers of obj (an int or a sequence of ints; 0-d arrays are ints) into out[0 .. max);
 * returns how many there are (possibly more than max, of which only max are stored), or -1 with
 * NumPy's TypeError for a non-integer. */
Py_ssize_t pg_parse_ints(PyObject *obj, int64_t *out, int max);
/* copy= of the array API: True 1, False 0, None (or absent) -1. */
int pg_parse_copy(PyObject *obj, int *copy);
/* An order argument: one of the letters in `allowed` (any case); None gives `deflt`. */
int pg_order_from_object(PyObject *obj, const char *allowed, char deflt, char *out);
/* Raises numpy.exceptions.AxisError(axis, ndim, prefix) (prefix may be NULL); returns -1. */
int pg_axis_error(int64_t axis, int ndim, const char *prefix);
/* axis in [-ndim, ndim) normalised into [0, ndim), else AxisError. Returns 0 or -1. */
int pg_normalize_axis(int64_t axis, int ndim, const char *prefix, int *out);
/* METH_FASTCALL | METH_KEYWORDS arguments into slots by name (NULL when absent): at most npos
 * positional ones, the first nrequired required; Python's TypeErrors for unknown, repeated or
 * missing arguments. names ends with NULL. 0 or -1. */
int pg_parse_fastcall(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      const char *const *names, int npos, PyObject **slots, int nrequired);
#endif
