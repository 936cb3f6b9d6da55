/* Shapes and strides: parsing, contiguity, broadcasting, and merging axes for kernel launches. */
#ifndef PG_SHAPE_H
#define PG_SHAPE_H
#include "core/pg.h"

/* An int or a sequence of ints (anything with __index__). Negative sizes raise ValueError
 * "negative dimensions are not allowed", too many dimensions ValueError. Returns 0 or -1. */
int pg_parse_shape(PyObject *obj, int *ndim, int64_t *shape);
/* Product of the shape, or -1 with ValueError when it overflows. */
int64_t pg_shape_size(int ndim, const int64_t *shape);
/* NumPy's ValueError for arrays whose byte size exceeds the address space; returns -1. Past that
 * limit only: a size that fits but cannot be allocated is a MemoryError, as in NumPy. */
int64_t pg_too_big_error(void);
/* Strides of a fresh array of this shape in order 'C' or 'F'. */
void pg_fill_strides(int ndim, const int64_t *shape, int64_t itemsize, char order, int64_t *strides);
/* NumPy's contiguity rules (dimensions of length 1 do not count). */
int pg_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);
int pg_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize);
/* "(2,3)" / "(4,)" as NumPy prints shapes in its messages. New reference. */
PyObject *pg_shape_repr(int ndim, const int64_t *shape);
PyObject *pg_shape_tuple(int ndim, const int64_t *shape);

/* Broadcasts n shapes together into out_shape (ndim = the largest). On failure raises NumPy's
 * "operands could not be broadcast together with shapes (2,3) (4,) " ValueError. */
int pg_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes, int *out_ndim,
                        int64_t *out_shape);

/* One operand of an elementwise launch, as the host describes it. data == NULL for a scalar. */
typedef struct {
    char *data;
    int ndim;
    const int64_t *shape;
    const int64_t *strides;
    int type;
    uint64_t scalar[2];
} PgOperand;

/* The layout of an elementwise loop over nargs operands (inputs, then the output, which has the
 * full shape): inputs are broadcast to the output's shape, axes are ordered by the output's
 * strides, length-1 axes dropped and axes merged where every operand allows. Fills shape_out and
 * strides_out[k] (bytes) for each operand and *size; returns the number of merged axes. */
int pg_loop_layout(int nargs, const PgOperand *ops, int64_t *shape_out, int64_t (*strides_out)[PG_MAXDIMS],
                   int64_t *size);
/* Fills a PgLoopArgs for nargs operands (inputs, then the output, which has the full shape):
 * inputs are broadcast to the output's shape, axes are ordered by the output's strides and
 * merged where every operand allows. */
void pg_loop_prepare(PgLoopArgs *a, int nargs, const PgOperand *ops);
/* True when every array operand is contiguous along the one merged axis and stored as the
 * loop's own type, so the typed fast path applies. */
int pg_loop_is_contiguous(const PgLoopArgs *a, const int *loop_types);
/* True when every array operand is stored as the loop's type and contiguous along the innermost
 * merged axis (of several), so that each row runs as a typed contiguous loop. */
int pg_loop_rows_contiguous(const PgLoopArgs *a, const int *loop_types);
#endif
