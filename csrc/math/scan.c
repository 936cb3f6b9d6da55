/* Scans of arrays along one axis (cumsum, cumprod, ufunc.accumulate, cumulative_sum/prod): NumPy's
 * result dtypes (sums of small integers in int64), out= through a temporary when its dtype differs
 * or it overlaps the input, include_initial, then one launch of the op reducer's scan. */
#include "math/reduction.h"

/* x as a 1-d array of its elements in C order: a view when its layout allows, else a copy */
static PgArray *
flattened(PgArray *x)
{
    int64_t n = pg_array_size(x), step = PG_ITEMSIZE(x);
    if (x->flags & PG_C_CONTIGUOUS)
        return pg_array_view(x, x->data, x->type, 1, &n, &step);
    PgArray *c = pg_array_copy(x, -1, 'C', NULL);
    if (c == NULL)
        return NULL;
    PgArray *v = pg_array_view(c, c->data, c->type, 1, &n, &step);
    Py_DECREF(c);
    return v;
}

/* The axis to scan along, NumPy's way for each function; may replace *x by its flattened self. */
static int
scan_axis(PgArray **x, PyObject *axisobj, const char *fname, int *axis)
{
    int accumulate = strcmp(fname, "accumulate") == 0, cumulative = strncmp(fname, "cumulative_", 11) == 0;
    if (accumulate && (*x)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "cannot accumulate on a scalar");
        return -1;
    }
    if (axisobj == NULL || axisobj == Py_None || (accumulate && PyTuple_Check(axisobj))) {
        if ((*x)->ndim > 1 && (accumulate || cumulative)) {
            PyErr_SetString(PyExc_ValueError, accumulate ? "accumulate does not allow multiple axes"
                                                         : "For arrays which have more than one dimension ``axis`` "
                                                           "argument is required.");
            return -1;
        }
        if ((*x)->ndim != 1) {
            PgArray *f = flattened(*x);
            if (f == NULL)
                return -1;
            Py_SETREF(*x, f);
        }
        *axis = 0;
        return 0;
    }
    PyObject *index = PyNumber_Index(axisobj);
    if (index == NULL)
        return -1;
    long long v = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if (v == -1 && PyErr_Occurred())
        return -1;
    return pg_normalize_axis(v, (*x)->ndim, NULL, axis);
}

PyObject *
pg_scan_array(PyObject *xobj, PgRedOp op, PyObject *axisobj, int dtype, PyObject *outobj, int include_initial,
              const char *fname)
{
    PgArray *x = NULL, *result = NULL, *target = NULL, *scanned = NULL, *first = NULL;
    PyObject *ret = NULL;
    int axis, ct;
    PgScanArgs s;

    x = pg_asarray(xobj, -1, NULL, -1);
    if (x == NULL)
        return NULL;
    if (scan_axis(&x, axisobj, fname, &axis) < 0)
        goto done;
    int rt = pg_reduce_result_type(op, x->type, pg_reduce_dtype_of_out(op, x->type, dtype, outobj), &ct);
    if (rt < 0)
        goto done;
    int reducer = pg_reduce_reducer(op, ct);
    if (reducer < 0 || reducer >= PG_NOP_REDUCERS) {
        PyErr_Format(PyExc_TypeError, "%s of '%s' is not supported", fname, pg_reduce_op_name(op));
        goto done;
    }
    int64_t shape[PG_MAXDIMS];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[axis] += include_initial;
    if (pg_reduction_output(x, NULL, outobj, rt, x->ndim, shape, pg_reduce_op_name(op), &result, &target) < 0)
        goto done;
    if (include_initial) { /* the identity first, the scan after it */
        int64_t one[PG_MAXDIMS];
        memcpy(one, shape, sizeof(int64_t) * (size_t)x->ndim);
        one[axis] = 1;
        first = pg_array_view(target, target->data, rt, x->ndim, one, target->strides);
        scanned = first ? pg_array_view(target, target->data + target->strides[axis], rt, x->ndim, x->shape,
                                         target->strides)
                        : NULL;
        PyObject *ident = PyLong_FromLong(op == PG_ROP_MUL ? 1 : 0);
        int rc = scanned && ident ? pg_array_fill(first, ident) : -1;
        Py_XDECREF(ident);
        if (rc < 0)
            goto done;
    } else {
        scanned = (PgArray *)Py_NewRef(target);
    }
    pg_scan_layout(&s, x->ndim, x->shape, x->strides, scanned->strides, axis);
    s.in = x->data;
    s.out = scanned->data;
    pg_array_note_use(x);
    pg_array_note_use(scanned);
    s.in_type = x->type;
    s.out_type = scanned->type;
    s.typed = x->type == pg_reducers[reducer].acc_type && scanned->type == x->type;
    pg_reducer_identity(reducer, s.ident);
    if (pg_scan_launch(x->device, reducer, &s) < 0)
        goto done;
    if (target != result && pg_array_assign(result, target) < 0)
        goto done;
    ret = (PyObject *)result;
    result = NULL;
done:
    Py_XDECREF(x);
    Py_XDECREF(result);
    Py_XDECREF(target);
    Py_XDECREF(scanned);
    Py_XDECREF(first);
    return ret;
}
