/* The indexing routines: take, put, take_along_axis, put_along_axis, choose, compress (module
 * functions, and ndarray.take/put/choose/compress), each one gather or scatter of kernels/index.h
 * with NumPy's modes ('raise', 'wrap', 'clip') and errors. */
#include "array/advanced.h"
#include "array/number.h"

/* ------------------------------------------------------------------ helpers */

static int
parse_mode(PyObject *obj, int *mode)
{
    *mode = PG_INDEX_RAISE;
    if (obj == NULL || obj == Py_None)
        return 0;
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (s != NULL && strcmp(s, "raise") == 0)
        return 0;
    if (s != NULL && strcmp(s, "wrap") == 0) {
        *mode = PG_INDEX_WRAP;
        return 0;
    }
    if (s != NULL && strcmp(s, "clip") == 0) {
        *mode = PG_INDEX_CLIP;
        return 0;
    }
    if (s == NULL && PyErr_Occurred())
        return -1;
    PyErr_Format(PyExc_ValueError, "clipmode must be one of 'clip', 'raise', or 'wrap' (got %R)", obj);
    return -1;
}

PgArray *
pg_index_array(PyObject *obj, PgDevice *dev, const char *what)
{
    PgArray *a = pg_asarray(obj, -1, dev, -1);
    if (a == NULL)
        return NULL;
    if (PG_IS_INTEGER(a->type))
        return a;
    if (PG_IS_COMPLEX(a->type)) {
        PyErr_Format(PyExc_TypeError, "%s must be integers", what);
        Py_DECREF(a);
        return NULL;
    }
    /* NumPy casts other indices (floats, bools) to intp */
    Py_SETREF(a, pg_array_copy(a, PG_INT64, 'C', NULL));
    return a;
}

static int
empty_take_error(void)
{
    PyErr_SetString(PyExc_IndexError, "cannot do a non-empty take from an empty axes.");
    return -1;
}

/* out[...] = res for an out= argument (a pygpu array of the result's shape); returns out. */
static PyObject *
into_out(PyObject *out, PgArray *res)
{
    if (out == NULL || out == Py_None)
        return (PyObject *)res;
    if (!PgArray_Check(out)) {
        PyErr_SetString(PyExc_TypeError, "out must be a pygpu array");
        Py_DECREF(res);
        return NULL;
    }
    PgArray *o = (PgArray *)out;
    if (o->ndim != res->ndim || memcmp(o->shape, res->shape, sizeof(int64_t) * (size_t)o->ndim) != 0) {
        PyErr_SetString(PyExc_ValueError, "output array does not match result of ndarray.take");
        Py_DECREF(res);
        return NULL;
    }
    int rc = pg_array_assign(o, res);
    Py_DECREF(res);
    return rc < 0 ? NULL : Py_NewRef(out);
}

/* Launches a gather/scatter whose index array idx (broadcast strides istrides over the loop's
 * dims) selects along an axis of n elements; IndexError (naming axis) or, with choose_error,
 * NumPy's choose ValueError, when an index is out of bounds. */
static int
launch_checked(PgDevice *dev, PgIndexArgs *args, int op, PgArray *idx, int64_t n, int axis, int choose_error)
{
    if (op == PG_INDEX_SCATTER && args->mode == PG_INDEX_RAISE) {
        int r = pg_index_launch(dev, args, PG_INDEX_CHECK);
        if (r != 0)
            goto error;
    }
    int r = pg_index_launch(dev, args, op);
    if (r == 0)
        return 0;
error:
    if (PyErr_Occurred())
        return -1;
    if (choose_error) {
        PyErr_SetString(PyExc_ValueError, "invalid entry in choice array");
        return -1;
    }
    return pg_index_bounds_error(idx, n, axis);
}

static void
args_init(PgIndexArgs *a, PgArray *arr, PgArray *idx, int64_t n, int64_t stride, int mode)
{
    pg_array_note_use(arr);
    pg_array_note_use(idx);
    memset(a, 0, sizeof *a);
    a->itemsize = (int32_t)PG_ITEMSIZE(arr);
    a->mode = mode;
    a->nidx = 1;
    a->idx[0] = idx->data;
    a->idx_type[0] = idx->type;
    a->axis_len[0] = n;
    a->axis_stride[0] = stride;
}

static void
args_finish(PgIndexArgs *a, int nd)
{
    a->size = pg_shape_size(nd, a->shape);
    pg_index_merge_dims(&nd, a->shape, PG_SET_IDX + 1, a->strides);
    a->ndim = nd;
}

/* ------------------------------------------------------------------ take */

/* a.take(idx, axis) (axis normalised, a not flattened). */
static PgArray *
take_along(PgArray *a, PgArray *idx, int axis, int mode, int msg_axis)
{
    int64_t n = a->shape[axis];
    if (n == 0 && pg_array_size(idx) > 0 && mode != PG_INDEX_RAISE) {
        empty_take_error();
        return NULL;
    }
    int nd = a->ndim - 1 + idx->ndim;
    if (nd > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d", PG_MAXDIMS);
        return NULL;
    }
    int64_t shape[PG_MAXDIMS];
    for (int d = 0; d < axis; d++)
        shape[d] = a->shape[d];
    for (int d = 0; d < idx->ndim; d++)
        shape[axis + d] = idx->shape[d];
    for (int d = axis + 1; d < a->ndim; d++)
        shape[d - 1 + idx->ndim] = a->shape[d];
    PgArray *out = pg_array_new(a->device, a->type, nd, shape, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        return NULL;
    PgIndexArgs args;
    args_init(&args, a, idx, n, a->strides[axis], mode);
    args.arr = a->data;
    args.val = out->data;
    for (int d = 0; d < nd; d++) {
        args.shape[d] = shape[d];
        args.strides[PG_SET_VAL][d] = out->strides[d];
        if (d < axis)
            args.strides[PG_SET_ARR][d] = a->strides[d];
        else if (d >= axis + idx->ndim)
            args.strides[PG_SET_ARR][d] = a->strides[d - idx->ndim + 1];
        else
            args.strides[PG_SET_IDX][d] = idx->strides[d - axis];
    }
    args_finish(&args, nd);
    if (launch_checked(a->device, &args, PG_INDEX_GATHER, idx, n, msg_axis, 0) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyObject *
take_impl(PyObject *aobj, PyObject *indices, PyObject *axisobj, PyObject *out, PyObject *modeobj)
{
    if (pg_is_numpy_out(out)) { /* x.take(i, out=numpy_array) */
        static const char *const names[] = {"a", "indices", "axis", "out", "mode", NULL};
        PyObject *values[] = {aobj, indices, axisobj, out, modeobj};
        return pg_core_call_with_numpy_out("take", 2, names, values);
    }
    int mode, axis = 0;
    if (parse_mode(modeobj, &mode) < 0)
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1), *src = NULL, *idx = NULL, *r = NULL;
    if (a == NULL)
        return NULL;
    if (axisobj == NULL || axisobj == Py_None) {
        src = pg_array_ravel(a, 'C');
    } else {
        int64_t ax;
        if (pg_parse_int64(axisobj, &ax, "axis") == 0 && pg_normalize_axis(ax, a->ndim, NULL, &axis) == 0)
            src = (PgArray *)Py_NewRef(a);
    }
    if (src != NULL && (idx = pg_index_array(indices, a->device, "indices")) != NULL)
        r = take_along(src, idx, axis, mode, axis);
    Py_DECREF(a);
    Py_XDECREF(src);
    Py_XDECREF(idx);
    return r == NULL ? NULL : into_out(out, r);
}

static PyObject *
py_take(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "indices", "axis", "out", "mode", NULL};
    PyObject *a, *indices, *axis = NULL, *out = NULL, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|OOO:take", kwlist, &a, &indices, &axis, &out, &mode))
        return NULL;
    return take_impl(a, indices, axis, out, mode);
}

static PyObject *
array_take(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"indices", "axis", "out", "mode", NULL};
    PyObject *indices, *axis = NULL, *out = NULL, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:take", kwlist, &indices, &axis, &out, &mode))
        return NULL;
    return take_impl(self, indices, axis, out, mode);
}

/* ------------------------------------------------------------------ put */

/* v's first n elements, repeated cyclically (numpy.put's values), as a new 1-d array. */
static PgArray *
cyclic_values(PgArray *v, int64_t n)
{
    int64_t m = pg_array_size(v);
    PgArray *flat = pg_array_ravel(v, 'C'), *out = NULL, *part = NULL;
    if (flat == NULL)
        return NULL;
    out = pg_array_new(v->device, v->type, 1, &n, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto fail;
    int64_t q = n / m, r = n % m, st = PG_ITEMSIZE(out);
    if (q > 0) {
        /* whole repeats: a (q, m) view of out, v broadcast over its rows */
        int64_t shape[2] = {q, m}, strides[2] = {m * st, st};
        part = pg_array_view(out, out->data, out->type, 2, shape, strides);
        if (part == NULL || pg_array_assign(part, flat) < 0)
            goto fail;
        Py_CLEAR(part);
    }
    if (r > 0) {
        PgArray *head = pg_array_view(flat, flat->data, flat->type, 1, &r, flat->strides);
        part = pg_array_view(out, out->data + q * m * st, out->type, 1, &r, &st);
        int rc = head && part ? pg_array_assign(part, head) : -1;
        Py_XDECREF(head);
        if (rc < 0)
            goto fail;
        Py_CLEAR(part);
    }
    Py_DECREF(flat);
    return out;
fail:
    Py_XDECREF(part);
    Py_XDECREF(out);
    Py_DECREF(flat);
    return NULL;
}

static PyObject *
put_impl(PyObject *aobj, PyObject *ind, PyObject *vobj, PyObject *modeobj)
{
    int mode;
    if (parse_mode(modeobj, &mode) < 0)
        return NULL;
    if (!PgArray_Check(aobj)) {
        PyErr_Format(PyExc_TypeError, "put: first argument must be a pygpu array, not %s", Py_TYPE(aobj)->tp_name);
        return NULL;
    }
    PgArray *a = (PgArray *)aobj, *idx = NULL, *v = NULL, *vals = NULL, *target = NULL;
    PyObject *res = NULL;
    if (pg_array_check_writeable(a) < 0)
        return NULL;
    idx = pg_index_array(ind, a->device, "indices");
    v = idx ? pg_value_array(a, vobj) : NULL;
    if (v == NULL)
        goto done;
    int64_t n = pg_array_size(idx), size = pg_array_size(a);
    if (n == 0 || pg_array_size(v) == 0) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    if (size == 0 && mode != PG_INDEX_RAISE) {
        empty_take_error();
        goto done;
    }
    vals = cyclic_values(v, n);
    target = (a->flags & PG_C_CONTIGUOUS) ? (PgArray *)Py_NewRef(a) : pg_array_copy(a, -1, 'C', NULL);
    if (vals == NULL || target == NULL)
        goto done;
    PgIndexArgs args;
    args_init(&args, a, idx, size, PG_ITEMSIZE(a), mode);
    pg_array_note_use(target);
    pg_array_note_use(vals);
    args.arr = target->data;
    args.val = vals->data;
    /* the indices in C order, flattened */
    int nd = idx->ndim;
    int64_t vstrides[PG_MAXDIMS];
    pg_fill_strides(nd, idx->shape, PG_ITEMSIZE(a), 'C', vstrides);
    for (int d = 0; d < nd; d++) {
        args.shape[d] = idx->shape[d];
        args.strides[PG_SET_IDX][d] = idx->strides[d];
        args.strides[PG_SET_VAL][d] = vstrides[d];
    }
    args_finish(&args, nd);
    if (launch_checked(a->device, &args, PG_INDEX_SCATTER, idx, size, 0, 0) < 0)
        goto done;
    if (target != a && pg_array_assign(a, target) < 0)
        goto done;
    res = Py_NewRef(Py_None);
done:
    Py_XDECREF(idx);
    Py_XDECREF(v);
    Py_XDECREF(vals);
    Py_XDECREF(target);
    return res;
}

static PyObject *
py_put(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "ind", "v", "mode", NULL};
    PyObject *a, *ind, *v, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|O:put", kwlist, &a, &ind, &v, &mode))
        return NULL;
    return put_impl(a, ind, v, mode);
}

static PyObject *
array_put(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"indices", "values", "mode", NULL};
    PyObject *ind, *v, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O:put", kwlist, &ind, &v, &mode))
        return NULL;
    return put_impl(self, ind, v, mode);
}

/* ------------------------------------------------------------------ along an axis */

/* The loop of take/put_along_axis: arr's dims but `axis`, broadcast with idx's; idx along axis.
 * Fills args (arr and idx sets) and shape; -1 with NumPy's errors. */
static int
along_axis_loop(PgArray *arr, PgArray *idx, int axis, PgIndexArgs *args, int64_t *shape)
{
    if (idx->ndim != arr->ndim) {
        PyErr_SetString(PyExc_ValueError, "`indices` and `arr` must have the same number of dimensions");
        return -1;
    }
    for (int d = 0; d < arr->ndim; d++) {
        int64_t na = arr->shape[d], ni = idx->shape[d];
        if (d == axis) {
            shape[d] = ni;
            args->strides[PG_SET_ARR][d] = 0;
        } else {
            if (na != ni && na != 1 && ni != 1) {
                PyObject *sa = pg_shape_repr(arr->ndim, arr->shape), *si = pg_shape_repr(idx->ndim, idx->shape);
                if (sa && si)
                    PyErr_Format(PyExc_IndexError,
                                 "shape mismatch: indexing arrays could not be broadcast together with shapes %U %U ",
                                 si, sa);
                Py_XDECREF(sa);
                Py_XDECREF(si);
                return -1;
            }
            shape[d] = na == 1 ? ni : na;
            args->strides[PG_SET_ARR][d] = na == 1 ? 0 : arr->strides[d];
        }
        args->strides[PG_SET_IDX][d] = ni == 1 ? 0 : idx->strides[d];
        args->shape[d] = shape[d];
    }
    return 0;
}

/* arr, indices and axis resolved for the along-axis routines (axis=None: arr flattened and
 * indices 1-d). */
static int
along_axis_args(PyObject *arrobj, PyObject *indobj, PyObject *axisobj, PgArray **arr, PgArray **idx, int *axis)
{
    *arr = pg_asarray(arrobj, -1, NULL, -1);
    *idx = NULL;
    if (*arr == NULL)
        return -1;
    *idx = pg_asarray(indobj, -1, (*arr)->device, -1);
    if (*idx == NULL)
        return -1;
    if (!PG_IS_INTEGER((*idx)->type)) {
        PyErr_SetString(PyExc_IndexError, "`indices` must be an integer array");
        return -1;
    }
    if (axisobj == Py_None) {
        if ((*idx)->ndim != 1) {
            PyErr_SetString(PyExc_ValueError, "when axis=None, `indices` must have a single dimension.");
            return -1;
        }
        Py_SETREF(*arr, pg_array_ravel(*arr, 'C'));
        *axis = 0;
        return *arr == NULL ? -1 : 0;
    }
    int64_t ax = -1;
    if (axisobj != NULL && pg_parse_int64(axisobj, &ax, "axis") < 0)
        return -1;
    return pg_normalize_axis(ax, (*arr)->ndim, NULL, axis);
}

static PyObject *
py_take_along_axis(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"arr", "indices", "axis", NULL};
    PyObject *arrobj, *indobj, *axisobj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O:take_along_axis", kwlist, &arrobj, &indobj, &axisobj))
        return NULL;
    PgArray *arr, *idx, *out = NULL;
    int axis;
    PgIndexArgs ia;
    int64_t shape[PG_MAXDIMS];
    if (along_axis_args(arrobj, indobj, axisobj, &arr, &idx, &axis) < 0)
        goto fail;
    args_init(&ia, arr, idx, arr->shape[axis], arr->strides[axis], PG_INDEX_RAISE);
    if (along_axis_loop(arr, idx, axis, &ia, shape) < 0)
        goto fail;
    out = pg_array_new(arr->device, arr->type, arr->ndim, shape, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto fail;
    memcpy(ia.strides[PG_SET_VAL], out->strides, sizeof(int64_t) * (size_t)out->ndim);
    ia.arr = arr->data;
    ia.val = out->data;
    args_finish(&ia, arr->ndim);
    if (launch_checked(arr->device, &ia, PG_INDEX_GATHER, idx, arr->shape[axis], axis, 0) < 0)
        goto fail;
    Py_DECREF(arr);
    Py_DECREF(idx);
    return (PyObject *)out;
fail:
    Py_XDECREF(arr);
    Py_XDECREF(idx);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *
py_put_along_axis(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"arr", "indices", "values", "axis", NULL};
    PyObject *arrobj, *indobj, *vobj, *axisobj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:put_along_axis", kwlist, &arrobj, &indobj, &vobj, &axisobj))
        return NULL;
    if (!PgArray_Check(arrobj)) {
        PyErr_SetString(PyExc_TypeError, "put_along_axis: arr must be a pygpu array");
        return NULL;
    }
    PgArray *arr, *idx, *v = NULL;
    int axis;
    PgIndexArgs ia;
    int64_t shape[PG_MAXDIMS];
    if (pg_array_check_writeable((PgArray *)arrobj) < 0)
        return NULL;
    if (axisobj == Py_None && !(((PgArray *)arrobj)->flags & PG_C_CONTIGUOUS)) {
        PyErr_SetString(PyExc_ValueError, "put_along_axis with axis=None needs a C-contiguous array");
        return NULL;
    }
    if (along_axis_args(arrobj, indobj, axisobj, &arr, &idx, &axis) < 0)
        goto fail;
    args_init(&ia, arr, idx, arr->shape[axis], arr->strides[axis], PG_INDEX_RAISE);
    if (along_axis_loop(arr, idx, axis, &ia, shape) < 0 || (v = pg_value_array(arr, vobj)) == NULL ||
        pg_value_strides(v, arr->ndim, shape, ia.strides[PG_SET_VAL]) < 0)
        goto fail;
    if (pg_same_memory(arr, v)) {
        Py_SETREF(v, pg_array_copy(v, -1, 'C', NULL));
        if (v == NULL || pg_value_strides(v, arr->ndim, shape, ia.strides[PG_SET_VAL]) < 0)
            goto fail;
    }
    pg_array_note_use(v);
    ia.arr = arr->data;
    ia.val = v->data;
    args_finish(&ia, arr->ndim);
    if (launch_checked(arr->device, &ia, PG_INDEX_SCATTER, idx, arr->shape[axis], axis, 0) < 0)
        goto fail;
    Py_DECREF(arr);
    Py_DECREF(idx);
    Py_DECREF(v);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(arr);
    Py_XDECREF(idx);
    Py_XDECREF(v);
    return NULL;
}

/* ------------------------------------------------------------------ choose, compress */

/* The choices' common dtype, NumPy's: numpy.result_type of the arrays' dtypes and the Python
 * scalars themselves (weak: an int8 array and 5 give int8). -1 on error. */
static int
choices_type(PyObject *seq, PgDevice *dev)
{
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
    PyObject *numpy = NULL, *items = PyTuple_New(nc), *rt = NULL;
    int type = -1;
    if (items == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < nc; i++) {
        PyObject *c = PySequence_Fast_GET_ITEM(seq, i), *item;
        if (PyLong_Check(c) || PyFloat_Check(c) || PyComplex_Check(c)) {
            item = Py_NewRef(c);
        } else if (PyArray_Check(c)) {
            item = Py_NewRef((PyObject *)PyArray_DESCR((PyArrayObject *)c));
        } else {
            PgArray *arr = pg_asarray(c, -1, dev, -1);
            item = arr ? Py_NewRef((PyObject *)pg_type_descr(arr->type)) : NULL;
            Py_XDECREF(arr);
        }
        if (item == NULL)
            goto done;
        PyTuple_SET_ITEM(items, i, item);
    }
    if ((numpy = PyImport_ImportModule("numpy")) == NULL)
        goto done;
    PyObject *fn = PyObject_GetAttrString(numpy, "result_type");
    if (fn == NULL)
        goto done;
    rt = PyObject_Call(fn, items, NULL);
    Py_DECREF(fn);
    if (rt != NULL)
        type = pg_type_from_descr((PyArray_Descr *)rt);
done:
    Py_DECREF(items);
    Py_XDECREF(numpy);
    Py_XDECREF(rt);
    return type;
}

/* A choice as an array of type: a number or NumPy array cast unsafely, as NumPy's choose casts its
 * choices (300 next to an int8 array is 44). */
static PgArray *
choice_as(PyObject *c, int type, PgDevice *dev)
{
    if (PgArray_Check(c) || !(PyLong_Check(c) || PyFloat_Check(c) || PyComplex_Check(c) || PyArray_Check(c)))
        return pg_asarray(c, -1, dev, -1); /* cast when copied into the stack of choices */
    PyArrayObject *v = (PyArrayObject *)PyArray_FROM_O(c);
    if (v == NULL)
        return NULL;
    PyArray_Descr *d = pg_type_descr(type);
    Py_INCREF(d); /* stolen */
    PyObject *cast = PyArray_CastToType(v, d, 0);
    Py_DECREF(v);
    if (cast == NULL)
        return NULL;
    PgArray *r = pg_asarray(cast, type, dev, -1);
    Py_DECREF(cast);
    return r;
}

/* 0 when every index of a is in [0, n) (choose's mode 'raise'), -1 with NumPy's ValueError */
static int
check_choice_range(PgArray *a, int n)
{
    if (pg_array_size(a) == 0)
        return 0;
    PyObject *lo = PyObject_CallMethod((PyObject *)a, "min", NULL), *hi = PyObject_CallMethod((PyObject *)a, "max", NULL);
    PyObject *lo_i = lo ? PyNumber_Index(lo) : NULL, *hi_i = hi ? PyNumber_Index(hi) : NULL;
    int rc = -1;
    if (lo_i && hi_i) {
        long long l = PyLong_AsLongLong(lo_i), h = PyLong_AsLongLong(hi_i);
        if (!PyErr_Occurred()) {
            rc = l >= 0 && h < n ? 0 : -1;
            if (rc < 0)
                PyErr_SetString(PyExc_ValueError, "invalid entry in choice array");
        }
    }
    Py_XDECREF(lo);
    Py_XDECREF(hi);
    Py_XDECREF(lo_i);
    Py_XDECREF(hi_i);
    return rc;
}

static PyObject *
choose_impl(PyObject *aobj, PyObject *choicesobj, PyObject *out, PyObject *modeobj)
{
    int mode;
    if (parse_mode(modeobj, &mode) < 0)
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1), *stack = NULL, *res = NULL;
    PgArray *choices[64];
    int n = 0;
    PyObject *seq = NULL;
    if (a == NULL)
        return NULL;
    /* the indices as NumPy takes them: what casts safely to intp (bools too, not uint64) */
    if (!(PG_IS_INTEGER(a->type) || PG_IS_BOOL(a->type)) || a->type == PG_UINT64) {
        PyErr_Format(PyExc_TypeError, "Cannot cast array data from dtype('%s') to dtype('int64') according to the "
                     "rule 'safe'", pg_type_info[a->type].name);
        goto done;
    }
    if (PG_IS_BOOL(a->type))
        Py_SETREF(a, pg_array_copy(a, PG_INT64, 'K', NULL));
    if (a == NULL)
        goto done;
    seq = PySequence_Fast(choicesobj, "choices must be a sequence of arrays");
    if (seq == NULL)
        goto done;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
    if (nc == 0 || nc > 64) {
        PyErr_SetString(PyExc_ValueError, nc == 0 ? "0-length sequence." : "Need at least 0 and at most 64 array objects.");
        goto done;
    }
    int type = choices_type(seq, a->device);
    if (type < 0)
        goto done;
    for (Py_ssize_t i = 0; i < nc; i++) {
        PgArray *c = choice_as(PySequence_Fast_GET_ITEM(seq, i), type, a->device);
        if (c == NULL)
            goto done;
        choices[n++] = c;
    }
    if (mode == PG_INDEX_RAISE && check_choice_range(a, n) < 0)
        goto done;
    /* a and every choice broadcast to one shape */
    int nds[65];
    const int64_t *shapes[65];
    nds[0] = a->ndim;
    shapes[0] = a->shape;
    for (int i = 0; i < n; i++) {
        nds[i + 1] = choices[i]->ndim;
        shapes[i + 1] = choices[i]->shape;
    }
    int nd;
    int64_t shape[PG_MAXDIMS + 1];
    if (pg_broadcast_shapes(n + 1, nds, shapes, &nd, shape + 1) < 0 || nd + 1 > PG_MAXDIMS)
        goto done;
    shape[0] = n;
    stack = pg_array_new(a->device, type, nd + 1, shape, 'C', PG_MEM_DEVICE);
    if (stack == NULL)
        goto done;
    for (int i = 0; i < n; i++) {
        PgArray *row = pg_array_view(stack, stack->data + i * stack->strides[0], type, nd, shape + 1,
                                     stack->strides + 1);
        int rc = row ? pg_array_assign(row, choices[i]) : -1;
        Py_XDECREF(row);
        if (rc < 0)
            goto done;
    }
    res = pg_array_new(a->device, type, nd, shape + 1, 'C', PG_MEM_DEVICE);
    if (res == NULL)
        goto done;
    PgIndexArgs args;
    args_init(&args, stack, a, n, stack->strides[0], mode);
    args.arr = stack->data;
    args.val = res->data;
    int off = nd - a->ndim;
    for (int d = 0; d < nd; d++) {
        args.shape[d] = shape[d + 1];
        args.strides[PG_SET_ARR][d] = stack->strides[d + 1];
        args.strides[PG_SET_VAL][d] = res->strides[d];
        args.strides[PG_SET_IDX][d] = d < off || a->shape[d - off] == 1 ? 0 : a->strides[d - off];
    }
    args_finish(&args, nd);
    if (launch_checked(a->device, &args, PG_INDEX_GATHER, a, n, 0, 1) < 0)
        Py_CLEAR(res);
done:
    for (int i = 0; i < n; i++)
        Py_DECREF(choices[i]);
    Py_XDECREF(seq);
    Py_XDECREF(stack);
    Py_XDECREF(a);
    return res == NULL ? NULL : into_out(out, res);
}

static PyObject *
py_choose(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "choices", "out", "mode", NULL};
    PyObject *a, *choices, *out = NULL, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|OO:choose", kwlist, &a, &choices, &out, &mode))
        return NULL;
    return choose_impl(a, choices, out, mode);
}

static PyObject *
array_choose(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"choices", "out", "mode", NULL};
    PyObject *choices, *out = NULL, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:choose", kwlist, &choices, &out, &mode))
        return NULL;
    return choose_impl(self, choices, out, mode);
}

static PyObject *
compress_impl(PyObject *condobj, PyObject *aobj, PyObject *axisobj, PyObject *out)
{
    PgArray *a = pg_asarray(aobj, -1, NULL, -1), *cond = NULL, *coords = NULL;
    PyObject *r = NULL;
    if (a == NULL)
        return NULL;
    cond = pg_asarray(condobj, PG_BOOL, a->device, -1);
    if (cond == NULL)
        goto done;
    if (cond->ndim != 1) {
        PyErr_SetString(PyExc_ValueError, "condition must be a 1-d array");
        goto done;
    }
    coords = pg_nonzero_coords(cond);
    if (coords == NULL)
        goto done;
    int64_t s8 = 8;
    PgArray *idx = pg_array_view(coords, coords->data, PG_INT64, 1, coords->shape, &s8);
    if (idx != NULL) {
        r = take_impl((PyObject *)a, (PyObject *)idx, axisobj, out, NULL);
        Py_DECREF(idx);
    }
done:
    Py_DECREF(a);
    Py_XDECREF(cond);
    Py_XDECREF(coords);
    return r;
}

static PyObject *
py_compress(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"condition", "a", "axis", "out", NULL};
    PyObject *cond, *a, *axis = NULL, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|OO:compress", kwlist, &cond, &a, &axis, &out))
        return NULL;
    return compress_impl(cond, a, axis, out);
}

static PyObject *
array_compress(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"condition", "axis", "out", NULL};
    PyObject *cond, *axis = NULL, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:compress", kwlist, &cond, &axis, &out))
        return NULL;
    return compress_impl(cond, self, axis, out);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef pg_takeput_module_methods[] = {
    {"take", KW(py_take),
     "take($module, a, indices, axis=None, out=None, mode='raise')\n--\n\nthe elements of a at indices along axis (flattened "
     "when None); mode 'wrap' or 'clip' for indices out of range."},
    {"put", KW(py_put), "put($module, a, ind, v, mode='raise')\n--\n\na.flat[ind] = v (v repeated as needed), in place."},
    {"take_along_axis", KW(py_take_along_axis),
     "take_along_axis($module, arr, indices, axis=-1)\n--\n\narr's elements at indices along axis (e.g. of argsort)."},
    {"put_along_axis", KW(py_put_along_axis),
     "put_along_axis($module, arr, indices, values, axis)\n--\n\narr's elements at indices along axis set to values."},
    {"choose", KW(py_choose),
     "choose($module, a, choices, out=None, mode='raise')\n--\n\nchoices[a[i]][i] for every i, all broadcast together."},
    {"compress", KW(py_compress),
     "compress($module, condition, a, axis=None, out=None)\n--\n\nthe slices of a along axis where condition is true."},
    {NULL, NULL, 0, NULL},
};

PyMethodDef pg_array_methods_takeput[] = {
    {"take", KW(array_take), "take($self, indices, axis=None, out=None, mode='raise')\n--\n\nsee pygpu.take."},
    {"put", KW(array_put), "put($self, indices, values, mode='raise')\n--\n\nself.flat[indices] = values."},
    {"choose", KW(array_choose), "choose($self, choices, out=None, mode='raise')\n--\n\nsee pygpu.choose."},
    {"compress", KW(array_compress), "compress($self, condition, axis=None, out=None)\n--\n\nsee pygpu.compress."},
    {NULL, NULL, 0, NULL},
};
