/* Sorting: sort, argsort, partition, argpartition, lexsort and the ndarray methods, with NumPy's
 * arguments and errors (and the array API's `stable` and `descending`). The sorted axis is moved
 * last as a view and the device's backend sorts the rows (runtime/backend.h: NumPy's own sort on
 * the CPU, CUB's radix sort on CUDA). */
#include "math/sort.h"
#include "runtime/stream.h"
#include "core/docstrings.h"

/* ------------------------------------------------------------------ arguments */

/* kind= and stable=: PG_SORT_STABLE or 0, or -1 with NumPy's error. */
static int
parse_kind(PyObject *kind, PyObject *stable)
{
    int flags = 0;
    if (kind != NULL && kind != Py_None) {
        if (stable != NULL && stable != Py_None) {
            PyErr_SetString(PyExc_ValueError, "`kind` and keyword parameters can't be provided at the same time. "
                                              "Use only one of them.");
            return -1;
        }
        if (!PyUnicode_Check(kind)) {
            PyErr_Format(PyExc_TypeError, "sort kind must be str, not %s", Py_TYPE(kind)->tp_name);
            return -1;
        }
        const char *s = PyUnicode_AsUTF8(kind);
        if (s == NULL)
            return -1;
        switch (s[0] | 0x20) {
        case 'q': case 'h': break;
        case 'm': case 's': flags = PG_SORT_STABLE; break;
        default:
            PyErr_Format(PyExc_ValueError, "sort kind must be one of 'quick', 'heap', or 'stable' (got '%s')", s);
            return -1;
        }
    } else if (stable != NULL && stable != Py_None) {
        int t = PyObject_IsTrue(stable);
        if (t < 0)
            return -1;
        flags = t ? PG_SORT_STABLE : 0;
    }
    return flags;
}

static int
check_order(PyObject *order)
{
    if (order != NULL && order != Py_None) {
        PyErr_SetString(PyExc_ValueError, "Cannot specify order when the array has no fields.");
        return -1;
    }
    return 0;
}

static int
check_select_kind(PyObject *kind)
{
    if (kind == NULL || kind == Py_None)
        return 0;
    const char *s = PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
    if (s != NULL && strcmp(s, "introselect") == 0)
        return 0;
    if (s == NULL && !PyUnicode_Check(kind)) {
        PyErr_Format(PyExc_TypeError, "select kind must be str, not %s", Py_TYPE(kind)->tp_name);
        return -1;
    }
    if (s != NULL)
        PyErr_Format(PyExc_ValueError, "select kind must be 'introselect' (got '%s')", s);
    return -1;
}

/* axis=None: the array flattened (a view when it can be); else the axis normalised. */
static PgArray *
resolve_axis(PgArray *a, PyObject *axisobj, int *axis)
{
    if (axisobj == Py_None) {
        *axis = 0;
        return pg_array_ravel(a, 'C');
    }
    int64_t ax = -1;
    if (axisobj != NULL && pg_parse_int64(axisobj, &ax, "axis") < 0)
        return NULL;
    if (pg_normalize_axis(ax, a->ndim, NULL, axis) < 0)
        return NULL;
    return (PgArray *)Py_NewRef(a);
}

/* kth= of partition: the positions normalised into [0, len), sorted; count, or -1. */
static int
parse_kth(PyObject *obj, int64_t len, int64_t *kth, int max)
{
    PyObject *arr = PgArray_Check(obj) ? pg_array_to_numpy((PgArray *)obj) : PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (arr == NULL)
        return -1;
    int rc = -1;
    PyArrayObject *h = (PyArrayObject *)arr;
    if (!PyArray_ISINTEGER(h)) {
        PyErr_SetString(PyExc_TypeError, "Partition index must be integer");
        goto done;
    }
    if (PyArray_NDIM(h) > 1) {
        PyErr_SetString(PyExc_ValueError, "kth array must have dimension <= 1");
        goto done;
    }
    PyArray_Descr *d = PyArray_DescrFromType(NPY_INT64);
    PyArrayObject *c = (PyArrayObject *)PyArray_FromAny(arr, d, 0, 1, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_FORCECAST,
                                                        NULL);
    if (c == NULL)
        goto done;
    npy_intp n = PyArray_SIZE(c);
    const int64_t *v = PyArray_DATA(c);
    if (len == 0) { /* nothing to partition: NumPy checks no kth (partition(array([]), 0) is []) */
        Py_DECREF(c);
        rc = 0;
        goto done;
    }
    if (n > max) {
        PyErr_SetString(PyExc_ValueError, "too many kth values");
        Py_DECREF(c);
        goto done;
    }
    for (npy_intp i = 0; i < n; i++) {
        int64_t k = v[i] < 0 ? v[i] + len : v[i];
        if (k < 0 || k >= len) {
            PyErr_Format(PyExc_ValueError, "kth(=%lld) out of bounds (%lld)", (long long)k, (long long)len);
            Py_DECREF(c);
            goto done;
        }
        /* insertion into the sorted list */
        npy_intp j = i;
        while (j > 0 && kth[j - 1] > k) {
            kth[j] = kth[j - 1];
            j--;
        }
        kth[j] = k;
    }
    Py_DECREF(c);
    rc = (int)n;
done:
    Py_DECREF(arr);
    return rc;
}

/* ------------------------------------------------------------------ the sort */

/* out, sorted with `axis` moved last, with the axis back in its place: a C-ordered array, as
 * NumPy returns (steals the reference to out). */
static PgArray *
axis_back(PgArray *out, int axis)
{
    int nd = out->ndim, last = nd - 1;
    if (axis == last)
        return out;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int d = 0, k = 0; d < nd; d++) {
        int from = d == axis ? last : k++;
        shape[d] = out->shape[from];
        strides[d] = out->strides[from];
    }
    PgArray *v = pg_array_view(out, out->data, out->type, nd, shape, strides);
    Py_DECREF(out);
    if (v == NULL)
        return NULL;
    PgArray *c = pg_array_copy(v, -1, 'C', NULL);
    Py_DECREF(v);
    return c;
}

/* Sorts a along axis (normalised) into a new C-ordered array: values, or int64 indices with
 * PG_SORT_INDICES; a partition when nkth > 0. */
static PgArray *
sort_along(PgArray *a, int axis, int flags, int nkth, const int64_t *kth)
{
    int nd = a->ndim, last = nd - 1;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int d = 0, k = 0; d < nd; d++) {
        if (d == axis)
            continue;
        shape[k] = a->shape[d];
        strides[k++] = a->strides[d];
    }
    shape[last] = a->shape[axis];
    strides[last] = a->strides[axis];
    int type = (flags & PG_SORT_INDICES) ? PG_INT64 : a->type;
    PgArray *out = pg_array_new(a->device, type, nd, shape, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        return NULL;
    pg_array_note_use(a);
    PgOperand key = {a->data, nd, shape, strides, a->type, {0, 0}};
    PgSortArgs args = {nd, shape, 1, &key, out->data, flags, nkth, kth};
    PgDevice *dev = a->device;
    if (pg_array_size(out) > 0 &&
        (PG_DEVICE_CHECK(dev) < 0 || dev->backend->sort(dev, &args, pg_stream_current_handle(dev)) < 0)) {
        Py_DECREF(out);
        return NULL;
    }
    return axis_back(out, axis);
}

PgArray *
pg_sort_array(PgArray *a, PyObject *axisobj, int flags)
{
    int axis;
    PgArray *src;
    if ((flags & PG_SORT_INDICES) && a->ndim == 0) { /* NumPy's argsort of a 0-d array: of its 1-element ravel */
        PgArray *flat = pg_array_ravel(a, 'C');
        src = flat ? resolve_axis(flat, axisobj, &axis) : NULL;
        Py_XDECREF(flat);
    } else {
        src = resolve_axis(a, axisobj, &axis);
    }
    if (src == NULL)
        return NULL;
    PgArray *r = sort_along(src, axis, flags, 0, NULL);
    Py_DECREF(src);
    return r;
}

static PgArray *
partition_array(PgArray *a, PyObject *kthobj, PyObject *axisobj, int flags)
{
    int axis;
    PgArray *src = resolve_axis(a, axisobj, &axis);
    if (src == NULL)
        return NULL;
    int64_t kth[1024];
    PgArray *r = NULL;
    int nkth = parse_kth(kthobj, src->shape[axis], kth, 1024);
    if (nkth >= 0)
        r = nkth == 0 ? sort_along(src, axis, flags, 0, NULL) : sort_along(src, axis, flags, nkth, kth);
    Py_DECREF(src);
    return r;
}

/* ------------------------------------------------------------------ module functions */

static PyObject *
py_sort_common(PyObject *args, PyObject *kwds, const char *fmt, int indices)
{
    static char *kwlist[] = {"a", "axis", "kind", "order", "stable", "descending", NULL};
    PyObject *aobj, *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    int descending = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &aobj, &axis, &kind, &order, &stable, &descending))
        return NULL;
    int flags = parse_kind(kind, stable);
    if (flags < 0 || check_order(order) < 0)
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    if (indices)
        flags |= PG_SORT_INDICES;
    if (descending)
        flags |= PG_SORT_DESCENDING | PG_SORT_STABLE;
    PgArray *r = pg_sort_array(a, axis, flags);
    Py_DECREF(a);
    return (PyObject *)r;
}

static PyObject *
py_sort(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return py_sort_common(args, kwds, "O|OOO$Op:sort", 0);
}

static PyObject *
py_argsort(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return py_sort_common(args, kwds, "O|OOO$Op:argsort", 1);
}

static PyObject *
py_partition_common(PyObject *args, PyObject *kwds, const char *fmt, int indices)
{
    static char *kwlist[] = {"a", "kth", "axis", "kind", "order", NULL};
    PyObject *aobj, *kth, *axis = NULL, *kind = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &aobj, &kth, &axis, &kind, &order))
        return NULL;
    if (check_select_kind(kind) < 0 || check_order(order) < 0)
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PgArray *r = partition_array(a, kth, axis, indices ? PG_SORT_INDICES : 0);
    Py_DECREF(a);
    return (PyObject *)r;
}

static PyObject *
py_partition(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return py_partition_common(args, kwds, "OO|OOO:partition", 0);
}

static PyObject *
py_argpartition(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return py_partition_common(args, kwds, "OO|OOO:argpartition", 1);
}

static PyObject *
py_lexsort(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"keys", "axis", NULL};
    PyObject *keysobj, *axisobj = NULL, *seq = NULL, *res = NULL;
    PgArray *keys[PG_MAXDIMS * 8] = {NULL};
    int nkeys = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:lexsort", kwlist, &keysobj, &axisobj))
        return NULL;
    if (PgArray_Check(keysobj) && ((PgArray *)keysobj)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "need sequence of keys with len > 0 in lexsort");
        return NULL;
    }
    seq = PySequence_Fast(keysobj, "need sequence of keys with len > 0 in lexsort");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0) {
        PyErr_SetString(PyExc_TypeError, "need sequence of keys with len > 0 in lexsort");
        goto done;
    }
    if (n > (Py_ssize_t)(sizeof keys / sizeof keys[0])) { /* more than one sort takes: sorts chained */
        PyObject *mod = PyImport_ImportModule("pygpu._sorting");
        if (mod != NULL) {
            res = PyObject_CallMethod(mod, "_lexsort_in_groups", "OOn", seq, axisobj ? axisobj : Py_None,
                                      (Py_ssize_t)(sizeof keys / sizeof keys[0]));
            Py_DECREF(mod);
        }
        goto done;
    }
    PgDevice *dev = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PgArray *k = pg_asarray(PySequence_Fast_GET_ITEM(seq, i), -1, dev, -1);
        if (k == NULL)
            goto done;
        keys[nkeys++] = k;
        dev = k->device;
        if (k->ndim != keys[0]->ndim ||
            memcmp(k->shape, keys[0]->shape, sizeof(int64_t) * (size_t)k->ndim) != 0) {
            PyErr_SetString(PyExc_ValueError, "all keys need to be the same shape");
            goto done;
        }
    }
    PgArray *k0 = keys[0];
    if (k0->ndim == 0) {
        res = PyLong_FromLong(0);
        if (res != NULL) {
            PgArray *z = pg_array_new(dev, PG_INT64, 0, NULL, 'C', PG_MEM_DEVICE);
            if (z == NULL || pg_array_fill(z, res) < 0)
                Py_CLEAR(z);
            Py_SETREF(res, (PyObject *)z);
        }
        goto done;
    }
    int axis;
    int64_t ax = -1;
    if (axisobj != NULL && pg_parse_int64(axisobj, &ax, "axis") < 0)
        goto done;
    if (pg_normalize_axis(ax, k0->ndim, NULL, &axis) < 0)
        goto done;
    int nd = k0->ndim, last = nd - 1;
    int64_t shape[PG_MAXDIMS];
    int64_t strides[PG_MAXDIMS * 8][PG_MAXDIMS];
    PgOperand ops[PG_MAXDIMS * 8];
    for (int i = 0; i < nkeys; i++) {
        for (int d = 0, k = 0; d < nd; d++) {
            if (d == axis)
                continue;
            shape[k] = k0->shape[d];
            strides[i][k++] = keys[i]->strides[d];
        }
        shape[last] = k0->shape[axis];
        strides[i][last] = keys[i]->strides[axis];
        pg_array_note_use(keys[i]);
        PgOperand op = {keys[i]->data, nd, shape, strides[i], keys[i]->type, {0, 0}};
        ops[i] = op;
    }
    PgArray *out = pg_array_new(dev, PG_INT64, nd, shape, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto done;
    PgSortArgs sa = {nd, shape, nkeys, ops, out->data, PG_SORT_INDICES | PG_SORT_STABLE, 0, NULL};
    if (pg_array_size(out) > 0 &&
        (PG_DEVICE_CHECK(dev) < 0 || dev->backend->sort(dev, &sa, pg_stream_current_handle(dev)) < 0)) {
        Py_DECREF(out);
        goto done;
    }
    res = (PyObject *)axis_back(out, axis);
done:
    for (int i = 0; i < nkeys; i++)
        Py_DECREF(keys[i]);
    Py_XDECREF(seq);
    return res;
}

/* ------------------------------------------------------------------ ndarray methods */

static PyObject *
array_sort(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"axis", "kind", "order", "stable", NULL};
    PyObject *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOO$O:sort", kwlist, &axis, &kind, &order, &stable))
        return NULL;
    int flags = parse_kind(kind, stable);
    if (flags < 0 || check_order(order) < 0 || pg_array_check_writeable((PgArray *)self) < 0)
        return NULL;
    if (axis == Py_None) {
        PyErr_SetString(PyExc_TypeError, "'NoneType' object cannot be interpreted as an integer");
        return NULL;
    }
    PgArray *r = pg_sort_array((PgArray *)self, axis, flags);
    if (r == NULL)
        return NULL;
    int rc = pg_array_assign((PgArray *)self, r);
    Py_DECREF(r);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
array_argsort(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"axis", "kind", "order", "stable", NULL};
    PyObject *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOO$O:argsort", kwlist, &axis, &kind, &order, &stable))
        return NULL;
    int flags = parse_kind(kind, stable);
    if (flags < 0 || check_order(order) < 0)
        return NULL;
    return (PyObject *)pg_sort_array((PgArray *)self, axis, flags | PG_SORT_INDICES);
}

static PyObject *
array_partition_common(PyObject *self, PyObject *args, PyObject *kwds, const char *fmt, int indices)
{
    static char *kwlist[] = {"kth", "axis", "kind", "order", NULL};
    PyObject *kth, *axis = NULL, *kind = NULL, *order = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &kth, &axis, &kind, &order))
        return NULL;
    if (check_select_kind(kind) < 0 || check_order(order) < 0)
        return NULL;
    return (PyObject *)partition_array((PgArray *)self, kth, axis, indices ? PG_SORT_INDICES : 0);
}

static PyObject *
array_partition(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (pg_array_check_writeable((PgArray *)self) < 0)
        return NULL;
    PyObject *r = array_partition_common(self, args, kwds, "O|OOO:partition", 0);
    if (r == NULL)
        return NULL;
    int rc = pg_array_assign((PgArray *)self, (PgArray *)r);
    Py_DECREF(r);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
array_argpartition(PyObject *self, PyObject *args, PyObject *kwds)
{
    return array_partition_common(self, args, kwds, "O|OOO:argpartition", 1);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef pg_sort_module_methods[] = {
    {"sort", KW(py_sort), PG_DOC_SORT},
    {"argsort", KW(py_argsort), PG_DOC_ARGSORT},
    {"partition", KW(py_partition),
     "partition($module, a, kth, axis=-1, kind='introselect', order=None)\n--\n\na copy with the kth elements in their sorted "
     "places, smaller ones before, larger after."},
    {"argpartition", KW(py_argpartition),
     "argpartition($module, a, kth, axis=-1, kind='introselect', order=None)\n--\n\nthe indices that partition a."},
    {"lexsort", KW(py_lexsort),
     "lexsort($module, keys, axis=-1)\n--\n\nthe indices that sort by the last key, then the one before, ... (stable)."},
    {NULL, NULL, 0, NULL},
};

PyMethodDef pg_array_methods_sort[] = {
    {"sort", KW(array_sort), "sort($self, axis=-1, kind=None, order=None, *, stable=None)\n--\n\nsort in place."},
    {"argsort", KW(array_argsort),
     "argsort($self, axis=-1, kind=None, order=None, *, stable=None)\n--\n\nthe indices that sort the array."},
    {"partition", KW(array_partition),
     "partition($self, kth, axis=-1, kind='introselect', order=None)\n--\n\npartition in place."},
    {"argpartition", KW(array_argpartition),
     "argpartition($self, kth, axis=-1, kind='introselect', order=None)\n--\n\nthe indices that partition the array."},
    {NULL, NULL, 0, NULL},
};
