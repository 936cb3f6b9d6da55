/* The ufunc methods: reduce, accumulate, reduceat and at of the reduction family, for the op-table
 * ufuncs that reduce (add, multiply, maximum, minimum, fmax, fmin, logical_and/or/xor,
 * bitwise_and/or/xor; at also takes subtract, as an addition of -b). Indices of reduceat and at
 * are checked on the host before anything runs, as NumPy does; at takes any index NumPy does
 * (slices, masks, None, ...: as the integer coordinates of the elements, on every device). The
 * other binary op-table ufuncs (subtract's reduce, divide, power, ...) and the at of ufuncs without
 * a scatter kernel run NumPy's method on the CPU device (pygpu/_ufunc_on_host.py). */
#include "math/reduction.h"

/* every element of a on an 8-byte boundary (its data and every stride that moves) */
static int
complex64_words_aligned(const PgArray *a)
{
    if ((uintptr_t)a->data % 8)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] > 1 && a->strides[d] % 8)
            return 0;
    return 1;
}

static const char *const reducible =
    "add, multiply, maximum, minimum, fmax, fmin, logical_and, logical_or, logical_xor, bitwise_and, bitwise_or "
    "and bitwise_xor";

/* the ufunc's reduction op; ON_HOST for another binary op-table ufunc (NumPy's method runs); or -1
 * with NumPy's error for unary ufuncs and pygpu's for the rest */
#define ON_HOST (-2)
static int
op_of(PyObject *self, const char *method)
{
    PgUfunc *uf = (PgUfunc *)self;
    const char *name = pg_ufunc_name(uf);
    if (name == NULL)
        return -1;
    /* by name among the op table's ufuncs only (a vectorize function may be called "add") */
    int op = pg_ufunc_from_op_table(uf) ? pg_reduce_op_of_ufunc(name) : -1;
    if (op >= 0)
        return op;
    if (pg_ufunc_nin(uf) != 2)
        PyErr_Format(PyExc_ValueError, "%s only supported for binary functions", method);
    else if (pg_ufunc_from_op_table(uf) && name[0] != '_')
        return ON_HOST;
    else
        PyErr_Format(PyExc_TypeError, "pygpu's %s.%s is not supported: %s is provided for %s", name, method, method,
                     reducible);
    return -1;
}

/* pygpu._ufunc_on_host.<method>(self, *args, **kwargs): NumPy's method on the CPU arrays' memory */
static PyObject *
on_host(PyObject *self, const char *method, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *mod = PyImport_ImportModule("pygpu._ufunc_on_host");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, method) : NULL;
    Py_XDECREF(mod);
    if (fn == NULL)
        return NULL;
    Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject **full = PyMem_Malloc(sizeof(PyObject *) * (size_t)(total + 1));
    PyObject *res = NULL;
    if (full == NULL) {
        PyErr_NoMemory();
    } else {
        full[0] = self;
        for (Py_ssize_t i = 0; i < total; i++)
            full[i + 1] = args[i];
        res = PyObject_Vectorcall(fn, full, (size_t)(nargs + 1), kwnames);
        PyMem_Free(full);
    }
    Py_DECREF(fn);
    return res;
}

static PyObject *
ufunc_reduce(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"array", "axis", "dtype", "out", "keepdims", "initial", "where", NULL};
    PyObject *s[7];
    if (pg_parse_fastcall("reduce", args, nargs, kwnames, names, 7, s, 1) < 0)
        return NULL;
    int op = op_of(self, "reduce");
    if (op == ON_HOST)
        return on_host(self, "reduce", args, nargs, kwnames);
    if (op < 0)
        return NULL;
    PgReduceRequest req = {0};
    req.op = op;
    req.dtype = pg_type_from_object(s[2], -1);
    if (req.dtype == -1 && PyErr_Occurred())
        return NULL;
    req.out = s[3] && PyTuple_Check(s[3]) && PyTuple_GET_SIZE(s[3]) == 1 ? PyTuple_GET_ITEM(s[3], 0) : s[3];
    req.keepdims = s[4] ? PyObject_IsTrue(s[4]) : 0;
    if (req.keepdims < 0)
        return NULL;
    req.initial = s[5];
    req.where = s[6];
    PgArray *x = pg_asarray(s[0], -1, NULL, -1);
    if (x == NULL)
        return NULL;
    PyObject *zero = PyLong_FromLong(0), *none = PyTuple_New(0);
    /* the default axis is 0; a 0-d array reduces over no axis */
    req.axis = s[1] ? s[1] : x->ndim == 0 ? none : zero;
    PyObject *res = zero && none ? pg_reduce_array((PyObject *)x, &req) : NULL;
    Py_XDECREF(zero);
    Py_XDECREF(none);
    Py_DECREF(x);
    return res;
}

static PyObject *
ufunc_accumulate(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"array", "axis", "dtype", "out", NULL};
    PyObject *s[4];
    if (pg_parse_fastcall("accumulate", args, nargs, kwnames, names, 4, s, 1) < 0)
        return NULL;
    int op = op_of(self, "accumulate");
    if (op == ON_HOST)
        return on_host(self, "accumulate", args, nargs, kwnames);
    if (op < 0)
        return NULL;
    int dtype = pg_type_from_object(s[2], -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL)
        return NULL;
    PyObject *out = s[3] && PyTuple_Check(s[3]) && PyTuple_GET_SIZE(s[3]) == 1 ? PyTuple_GET_ITEM(s[3], 0) : s[3];
    PyObject *res = pg_scan_array(s[0], op, s[1] ? s[1] : zero, dtype, out, 0, "accumulate");
    Py_DECREF(zero);
    return res;
}

/* obj as a C-contiguous int64 NumPy array on the host (a pygpu array is copied back); `strict`:
 * only integer arrays, as indices (reduceat casts any number, as NumPy does) */
static PyArrayObject *
host_indices(PyObject *obj, int mindepth, int maxdepth, int strict)
{
    PyObject *host = PgArray_Check(obj) ? pg_array_to_numpy((PgArray *)obj) : PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (host == NULL)
        return NULL;
    if (strict && PyArray_SIZE((PyArrayObject *)host) > 0 && !PyArray_ISINTEGER((PyArrayObject *)host)) {
        Py_DECREF(host);
        PyErr_SetString(PyExc_IndexError, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                                          "and integer or boolean arrays are valid indices");
        return NULL;
    }
    PyArray_Descr *i64 = PyArray_DescrFromType(NPY_INT64);
    PyObject *r = PyArray_FromAny(host, i64, mindepth, maxdepth, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST, NULL);
    Py_DECREF(host);
    return (PyArrayObject *)r;
}

static PyObject *
ufunc_reduceat(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"array", "indices", "axis", "dtype", "out", NULL};
    PyObject *s[5];
    PgArray *x = NULL, *seg = NULL, *result = NULL, *target = NULL;
    PyArrayObject *idx = NULL, *bounds = NULL;
    PyObject *ret = NULL;
    if (pg_parse_fastcall("reduceat", args, nargs, kwnames, names, 5, s, 2) < 0)
        return NULL;
    int op = op_of(self, "reduceat");
    if (op == ON_HOST)
        return on_host(self, "reduceat", args, nargs, kwnames);
    if (op < 0)
        return NULL;
    int dtype = pg_type_from_object(s[3], -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    x = pg_asarray(s[0], -1, NULL, -1);
    if (x == NULL)
        goto done;
    int axis = 0;
    if (s[2] && s[2] != Py_None) {
        int64_t v;
        if (pg_parse_int64(s[2], &v, "axis") < 0 || pg_normalize_axis(v, x->ndim, NULL, &axis) < 0)
            goto done;
    } else if (x->ndim == 0) {
        pg_axis_error(0, 0, NULL);
        goto done;
    }
    idx = host_indices(s[1], 1, 1, 0);
    if (idx == NULL)
        goto done;
    const int64_t n = x->shape[axis], m = PyArray_DIM(idx, 0);
    const int64_t *iv = (const int64_t *)PyArray_DATA(idx);
    npy_intp dims[1] = {2 * (npy_intp)m};
    bounds = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_INT64);
    if (bounds == NULL)
        goto done;
    int64_t *bv = (int64_t *)PyArray_DATA(bounds);
    for (int64_t i = 0; i < m; i++) {
        if (iv[i] < 0 || iv[i] >= n) {
            PyErr_Format(PyExc_IndexError, "index %lld out-of-bounds in %s.reduceat [0, %lld)", (long long)iv[i],
                         pg_ufunc_name((PgUfunc *)self), (long long)n);
            goto done;
        }
    }
    for (int64_t i = 0; i < m; i++) { /* NumPy: a[i[k]:i[k+1]], or a[i[k]] when not increasing */
        bv[2 * i] = iv[i];
        bv[2 * i + 1] = i + 1 == m ? n : iv[i] < iv[i + 1] ? iv[i + 1] : iv[i] + 1;
    }
    int ct, rt = pg_reduce_result_type(op, x->type, dtype, &ct);
    if (rt < 0)
        goto done;
    int reducer = pg_reduce_reducer(op, ct);
    int64_t shape[PG_MAXDIMS];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[axis] = m;
    PyObject *out = s[4] && PyTuple_Check(s[4]) && PyTuple_GET_SIZE(s[4]) == 1 ? PyTuple_GET_ITEM(s[4], 0) : s[4];
    if (pg_reduction_output(x, NULL, out, rt, x->ndim, shape, pg_reduce_op_name(op), &result, &target) < 0)
        goto done;
    seg = pg_array_from_numpy(bounds, x->device, PG_INT64);
    if (seg == NULL)
        goto done;
    PgReduceArgs a;
    pg_reduceat_layout(&a, x->ndim, shape, x->strides, target->strides, axis);
    a.in = x->data;
    a.out = target->data;
    pg_array_note_use(x);
    pg_array_note_use(target);
    a.in_type = x->type;
    a.out_type = target->type;
    a.seg = (const int64_t *)seg->data;
    pg_array_note_use(seg);
    /* the mean segment length, for the backends' schedule (threads per segment) */
    int64_t covered = 0;
    for (int64_t i = 0; i < m; i++)
        covered += bv[2 * i + 1] - bv[2 * i];
    a.nred_total = m ? covered / m : 0;
    pg_reducer_identity(reducer, a.ident);
    if (pg_reduceat_launch(x->device, reducer, &a) < 0)
        goto done;
    if (target != result && pg_array_assign(result, target) < 0)
        goto done;
    ret = Py_NewRef((PyObject *)result);
done:
    Py_XDECREF(x);
    Py_XDECREF(seg);
    Py_XDECREF(result);
    Py_XDECREF(target);
    Py_XDECREF(idx);
    Py_XDECREF(bounds);
    return ret;
}

/* The dtype b takes next to the target's dtype t (NEP 50 for Python scalars; an int out of t's
 * range widens instead of raising: NumPy's at casts the result back unsafely): -1 on error. */
static int
operand_type(PyObject *b, int t)
{
    if (PgArray_Check(b))
        return ((PgArray *)b)->type;
    if (PyBool_Check(b))
        return PG_BOOL;
    if (PyLong_Check(b) || PyFloat_Check(b) || PyComplex_Check(b)) {
        int weak = PyLong_Check(b) ? PG_WEAK_INT : PyFloat_Check(b) ? PG_WEAK_FLOAT : PG_WEAK_COMPLEX;
        return pg_weak_scalar_type(weak, b, t, 1);
    }
    PyObject *host = PyArray_FromAny(b, NULL, 0, 0, 0, NULL);
    if (host == NULL)
        return -1;
    int bt = pg_value_type_from_descr(PyArray_DESCR((PyArrayObject *)host));
    Py_DECREF(host);
    return bt;
}

/* ufunc.at's index in the scatter kernels' form (pygpu._index_tricks._at_indices): a tuple of k
 * integer indices for the first k axes (k <= ndim, or k == 1 for a 0-d array: its one element);
 * slices, masks, None and ... become the coordinates of the elements a[index] holds */
static PyObject *
at_indices(const PgArray *a, PyObject *index)
{
    PyObject *mod = PyImport_ImportModule("pygpu._index_tricks");
    PyObject *shape = PyTuple_New(a->ndim);
    PyObject *r = NULL;
    if (mod != NULL && shape != NULL) {
        int ok = 1;
        for (int d = 0; d < a->ndim && ok; d++) {
            PyObject *v = PyLong_FromLongLong((long long)a->shape[d]);
            if (v == NULL)
                ok = 0;
            else
                PyTuple_SET_ITEM(shape, d, v);
        }
        if (ok)
            r = PyObject_CallMethod(mod, "_at_indices", "OO", shape, index);
    }
    Py_XDECREF(mod);
    Py_XDECREF(shape);
    if (r != NULL && (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < 1 || PyTuple_GET_SIZE(r) > (a->ndim ? a->ndim : 1))) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError, "_at_indices returned a malformed index");
        return NULL;
    }
    return r;
}

/* ufunc.at by NumPy's own on the array's memory (pygpu/_ufunc_on_host.py) */
static PyObject *
at_by_numpy(PyObject *self, PyObject *a, PyObject *indices, PyObject *b)
{
    PyObject *mod = PyImport_ImportModule("pygpu._ufunc_on_host");
    if (mod == NULL)
        return NULL;
    PyObject *r = PyObject_CallMethod(mod, "at", "OOOO", self, a, indices, b ? b : Py_None);
    Py_DECREF(mod);
    return r;
}

static PyObject *
ufunc_at(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"a", "indices", "b", NULL};
    PyObject *s[3];
    PyObject *ret = NULL, *items = NULL, *numpy = NULL, *bcast = NULL;
    PyArrayObject *offsets = NULL;
    PgArray *offs = NULL, *vals = NULL, *b = NULL;
    if (pg_parse_fastcall("at", args, nargs, kwnames, names, 3, s, 2) < 0)
        return NULL;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_SetString(PyExc_TypeError, "at() takes no keyword arguments");
        return NULL;
    }
    const char *name = pg_ufunc_name((PgUfunc *)self);
    if (name == NULL)
        return NULL;
    int from_table = pg_ufunc_from_op_table((PgUfunc *)self);
    int negate = from_table && strcmp(name, "subtract") == 0;
    if (PyArray_Check(s[0])) /* np.add.at(numpy_array, i, pygpu_values): NumPy's, on NumPy's array */
        return at_by_numpy(self, s[0], s[1], s[2]);
    if (!PgArray_Check(s[0])) {
        PyErr_Format(PyExc_TypeError, "%s.at needs a pygpu.ndarray to update, not %.200s", name,
                     Py_TYPE(s[0])->tp_name);
        return NULL;
    }
    if (from_table && name[0] != '_' && !negate && pg_reduce_op_of_ufunc(name) < 0)
        return at_by_numpy(self, s[0], s[1], s[2]); /* the ufuncs the scatter kernels below do not do */
    int op = negate ? PG_ROP_ADD : op_of(self, "at");
    if (op < 0)
        return NULL;
    PgArray *a = (PgArray *)s[0];
    if (s[2] == NULL || s[2] == Py_None) { /* NumPy's first check */
        PyErr_SetString(PyExc_ValueError, "second operand needed for ufunc");
        return NULL;
    }
    if (pg_array_check_writeable(a) < 0)
        return NULL;
    /* the index arrays (any index: as integer ones), broadcast together, on the host: checked,
     * then byte offsets */
    items = at_indices(a, s[1]);
    if (items == NULL)
        goto done;
    Py_ssize_t k = PyTuple_GET_SIZE(items);
    numpy = PyImport_ImportModule("numpy");
    PyObject *hosts = numpy ? PyTuple_New(k) : NULL;
    if (hosts == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyArrayObject *h = host_indices(PyTuple_GET_ITEM(items, j), 0, 0, 1);
        if (h == NULL) {
            Py_DECREF(hosts);
            goto done;
        }
        PyTuple_SET_ITEM(hosts, j, (PyObject *)h);
    }
    PyObject *fn = PyObject_GetAttrString(numpy, "broadcast_arrays");
    PyObject *list = fn ? PyObject_Call(fn, hosts, NULL) : NULL;
    Py_XDECREF(fn);
    Py_DECREF(hosts);
    bcast = list ? PySequence_Fast(list, "broadcast_arrays") : NULL;
    Py_XDECREF(list);
    if (bcast == NULL)
        goto done;
    PyArrayObject *first = (PyArrayObject *)PySequence_Fast_GET_ITEM(bcast, 0);
    int ind = PyArray_NDIM(first);
    npy_intp nidx = PyArray_SIZE(first);
    offsets = (PyArrayObject *)PyArray_SimpleNew(1, &nidx, NPY_INT64);
    if (offsets == NULL)
        goto done;
    int64_t *ov = (int64_t *)PyArray_DATA(offsets);
    memset(ov, 0, sizeof(int64_t) * (size_t)nidx);
    for (Py_ssize_t j = 0; j < k; j++) {
        PyArrayObject *c = (PyArrayObject *)PyArray_FromAny(PySequence_Fast_GET_ITEM(bcast, j),
                                                            PyArray_DescrFromType(NPY_INT64), 0, 0, NPY_ARRAY_CARRAY,
                                                            NULL);
        if (c == NULL)
            goto done;
        const int64_t *v = (const int64_t *)PyArray_DATA(c);
        const int64_t len = j < a->ndim ? a->shape[j] : 1, stride = j < a->ndim ? a->strides[j] : 0;
        for (npy_intp e = 0; e < nidx; e++) {
            if (v[e] < -len || v[e] >= len) {
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %zd with size %lld",
                             (long long)v[e], j, (long long)len);
                Py_DECREF(c);
                goto done;
            }
            ov[e] += (v[e] < 0 ? v[e] + len : v[e]) * stride;
        }
        Py_DECREF(c);
    }
    /* the loop's dtype as for a[indices] = op(a[indices], b) */
    int bt = operand_type(s[2], a->type);
    if (bt < 0)
        goto done;
    int ct = pg_promote_types(a->type, bt);
    if (negate && ct == PG_BOOL) {
        PyErr_SetString(PyExc_TypeError, "numpy boolean subtract, the `-` operator, is not supported, use the "
                                         "bitwise_xor, the `^` operator, or the logical_xor function instead.");
        goto done;
    }
    if (op >= PG_ROP_BAND && op <= PG_ROP_BXOR && (PG_IS_FLOAT(ct) || PG_IS_COMPLEX(ct))) {
        PyErr_Format(PyExc_TypeError,
                     "ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to "
                     "any supported types according to the casting rule ''safe''",
                     name);
        goto done;
    }
    int reducer = pg_reduce_reducer(op, ct);
    if (reducer < 0)
        goto done;
    /* b broadcast to a[indices]'s shape, converted to the accumulator's dtype */
    int64_t vshape[PG_MAXDIMS];
    int vnd = 0;
    for (int d = 0; d < ind; d++)
        vshape[vnd++] = PyArray_DIM(first, d);
    for (int d = (int)k; d < a->ndim; d++)
        vshape[vnd++] = a->shape[d];
    if (vnd > PG_MAXDIMS) {
        PyErr_SetString(PyExc_IndexError, "too many dimensions in ufunc.at");
        goto done;
    }
    b = pg_asarray(s[2], -1, a->device, -1);
    if (b == NULL)
        goto done;
    for (int d = 1; d <= b->ndim; d++) /* NumPy's words where b does not broadcast to a[indices] */
        if (d > vnd || (b->shape[b->ndim - d] != 1 && b->shape[b->ndim - d] != vshape[vnd - d])) {
            PyErr_SetString(PyExc_ValueError, "array is not broadcastable to correct shape");
            goto done;
        }
    vals = b ? pg_array_new(a->device, pg_reducers[reducer].acc_type, vnd, vshape, 'C', PG_MEM_DEVICE) : NULL;
    if (vals == NULL || pg_array_assign(vals, b) < 0)
        goto done;
    if (negate) {
        PyObject *in[1] = {(PyObject *)vals};
        PyObject *r = pg_ufunc_apply(pg_ufunc_lookup("negative"), in, (PyObject *)vals, -1, PG_CAST_SAME_KIND, 0);
        if (r == NULL)
            goto done;
        Py_DECREF(r);
    }
    offs = pg_array_from_numpy(offsets, a->device, PG_INT64);
    if (offs == NULL)
        goto done;
    if (a->type == PG_COMPLEX64 && op != PG_ROP_ADD && !complex64_words_aligned(a)) {
        /* a GPU updates a complex64 with one 8-byte compare-and-swap, which needs 8-byte
         * alignment; imported views may be 4-byte aligned (additions go part by part: fine) */
        PyErr_Format(PyExc_ValueError,
                     "%s.at on a complex64 array whose elements are not 8-byte aligned (a view of another "
                     "library's memory): copy it first (a.copy()), or use add.at",
                     name);
        goto done;
    }
    PgAtArgs at;
    memset(&at, 0, sizeof at);
    at.target = a->data;
    pg_array_note_use(a);
    pg_array_note_use(offs);
    pg_array_note_use(vals);
    at.type = a->type;
    at.offsets = (const int64_t *)offs->data;
    at.nidx = nidx;
    at.vals = vals->data;
    at.trail_size = 1;
    for (int d = (int)k; d < a->ndim; d++) {
        if (a->shape[d] == 1)
            continue;
        at.trail_shape[at.ntrail] = a->shape[d];
        at.trail_strides[at.ntrail++] = a->strides[d];
        at.trail_size *= a->shape[d];
    }
    if (pg_ufunc_at_launch(a->device, reducer, &at) < 0)
        goto done;
    ret = Py_NewRef(Py_None);
done:
    Py_XDECREF(items);
    Py_XDECREF(numpy);
    Py_XDECREF(bcast);
    Py_XDECREF(offsets);
    Py_XDECREF(offs);
    Py_XDECREF(vals);
    Py_XDECREF(b);
    return ret;
}

PyMethodDef pg_ufunc_methods[] = {
    {"_add_loop", pg_ufunc_add_loop, METH_VARARGS,
     "_add_loop(types, program): a new loop (program ufuncs: pygpu.vectorize); returns its index."},
    {"reduce", (PyCFunction)(void (*)(void))ufunc_reduce, METH_FASTCALL | METH_KEYWORDS,
     "reduce($self, /, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True)\n--\n\n"
     "The ufunc applied along the axes until one value is left (add.reduce is sum)."},
    {"accumulate", (PyCFunction)(void (*)(void))ufunc_accumulate, METH_FASTCALL | METH_KEYWORDS,
     "accumulate($self, /, array, axis=0, dtype=None, out=None)\n--\n\n"
     "The running results of reduce along axis (add.accumulate is cumsum)."},
    {"reduceat", (PyCFunction)(void (*)(void))ufunc_reduceat, METH_FASTCALL | METH_KEYWORDS,
     "reduceat($self, /, array, indices, axis=0, dtype=None, out=None)\n--\n\n"
     "reduce over the slices [indices[i], indices[i + 1]) of axis (one element where they do not increase)."},
    {"outer", (PyCFunction)(void (*)(void))pg_ufunc_outer, METH_FASTCALL | METH_KEYWORDS,
     "outer($self, A, B, /, out=None, dtype=None, casting='same_kind')\n--\n\n"
     "The ufunc over every pair of elements: result[i..., j...] = ufunc(A[i...], B[j...])."},
    {"at", (PyCFunction)(void (*)(void))ufunc_at, METH_FASTCALL | METH_KEYWORDS,
     "at($self, a, indices, b=None, /)\n--\n\n"
     "a[indices] = ufunc(a[indices], b) unbuffered: repeated indices accumulate."},
    {NULL, NULL, 0, NULL},
};
