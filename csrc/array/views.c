/* Shape methods and functions that return views where the strides allow: reshape, ravel,
 * transpose/permute_dims, swapaxes, moveaxis, squeeze, expand_dims, broadcast_to,
 * broadcast_arrays; flatten (always a copy); T and mT. The method tables of ndarray for this file
 * and indexing.c are here, and pg_views_setup_type installs indexing.c's slots. */
#include "array/indexing.h"

/* ------------------------------------------------------------------ helpers */

/* obj as a pygpu array (new reference): itself, or converted like pygpu.asarray. */
static PgArray *
as_array(PyObject *obj)
{
    if (PgArray_Check(obj))
        return (PgArray *)Py_NewRef(obj);
    return pg_asarray(obj, -1, NULL, -1);
}

/* A shape argument (ints, negative allowed: the callers give them their meaning). None means
 * `like`'s shape, as in NumPy's reshape. */
static int
parse_shape_arg(PyObject *obj, int *nd, int64_t *shape, PgArray *like)
{
    if (obj == Py_None && like != NULL) {
        *nd = like->ndim;
        memcpy(shape, like->shape, sizeof(int64_t) * (size_t)like->ndim);
        return 0;
    }
    Py_ssize_t n = pg_parse_ints(obj, shape, PG_MAXDIMS);
    if (n < 0)
        return -1;
    if (n > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d, found %zd",
                     PG_MAXDIMS, n);
        return -1;
    }
    *nd = (int)n;
    return 0;
}

/* Axes normalised against ndim into out; a repeated axis raises ValueError(dup_msg). */
static int
normalize_axes(const int64_t *in, Py_ssize_t n, int ndim, const char *prefix, const char *dup_msg, int *out)
{
    unsigned char seen[PG_MAXDIMS + 1] = {0};
    for (Py_ssize_t k = 0; k < n; k++) {
        int ax;
        if (pg_normalize_axis(in[k], ndim, prefix, &ax) < 0)
            return -1;
        if (seen[ax]) {
            PyErr_SetString(PyExc_ValueError, dup_msg);
            return -1;
        }
        seen[ax] = 1;
        out[k] = ax;
    }
    return 0;
}

/* An axis argument: an int or a sequence of ints, normalised; returns the count or -1. */
static int
parse_axes(PyObject *obj, int ndim, const char *prefix, const char *dup_msg, int *axes)
{
    /* any list longer than ndim repeats an axis or is out of bounds; stored up to ndim + 1 */
    int64_t raw[PG_MAXDIMS + 2];
    Py_ssize_t n = pg_parse_ints(obj, raw, ndim + 1);
    if (n < 0)
        return -1;
    if (normalize_axes(raw, n < ndim + 1 ? n : ndim + 1, ndim, prefix, dup_msg, axes) < 0)
        return -1;
    return (int)n;
}

static PgArray *
permuted_view(PgArray *a, const int *perm)
{
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++) {
        shape[i] = a->shape[perm[i]];
        strides[i] = a->strides[perm[i]];
    }
    return pg_array_view(a, a->data, a->type, a->ndim, shape, strides);
}

static int
is_fortran(PgArray *a)
{
    return (a->flags & PG_F_CONTIGUOUS) && !(a->flags & PG_C_CONTIGUOUS);
}

/* Axes by decreasing |stride|, ties in C order: NumPy's memory order ('K'). */
static void
keep_order_perm(PgArray *a, int *perm)
{
    for (int i = 0; i < a->ndim; i++) {
        int p = i;
        int64_t s = a->strides[i] < 0 ? -a->strides[i] : a->strides[i];
        int j = i;
        for (; j > 0; j--) {
            int64_t t = a->strides[perm[j - 1]];
            if (t < 0)
                t = -t;
            if (t >= s)
                break;
            perm[j] = perm[j - 1];
        }
        perm[j] = p;
    }
}

/* The order NumPy's iterator reads a's elements in with keep-order (flatten('K')): axes by
 * decreasing |stride| too, but a zero stride orders against nothing (a broadcast axis stays where
 * C order has it: ravel(broadcast_to(arange(4), (3, 4)), 'K') is 0 1 2 3 0 1 2 3 ...). The
 * iterator's insertion sort, innermost axis first, then read outermost first. */
static void
iteration_order_perm(PgArray *a, int *perm)
{
    int inner[PG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        inner[i] = a->ndim - 1 - i;
    for (int i0 = 1; i0 < a->ndim; i0++) {
        const int ax = inner[i0];
        const int64_t s0 = a->strides[ax] < 0 ? -a->strides[ax] : a->strides[ax];
        int pos = i0;
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            const int64_t s1 = a->strides[inner[i1]] < 0 ? -a->strides[inner[i1]] : a->strides[inner[i1]];
            if (s0 == 0 || s1 == 0)
                continue; /* ambiguous */
            if (s1 <= s0)
                break;
            pos = i1;
        }
        for (int k = i0; k > pos; k--)
            inner[k] = inner[k - 1];
        inner[pos] = ax;
    }
    for (int i = 0; i < a->ndim; i++)
        perm[i] = inner[a->ndim - 1 - i];
}

/* ------------------------------------------------------------------ reshape */

/* NumPy's message: "cannot reshape array of size 6 into shape (4,newaxis)" (leading unknown
 * dimensions are not printed). */
static void
reshape_size_error(PgArray *a, int nd, const int64_t *shape)
{
    char buf[PG_MAXDIMS * 24 + 8];
    size_t pos = 0;
    int i = 0;
    while (i < nd && shape[i] < 0)
        i++;
    if (i == nd) {
        strcpy(buf, "()");
    } else {
        pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, "(%lld", (long long)shape[i++]);
        for (; i < nd; i++) {
            if (shape[i] < 0)
                pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, ",newaxis");
            else
                pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, ",%lld", (long long)shape[i]);
        }
        snprintf(buf + pos, sizeof(buf) - pos, nd == 1 ? ",)" : ")");
    }
    PyErr_Format(PyExc_ValueError, "cannot reshape array of size %lld into shape %s", (long long)pg_array_size(a),
                 buf);
}

/* Replaces the one negative entry of shape by what the size leaves for it (NumPy's
 * _fix_unknown_dimension). */
static int
fix_unknown_dimension(PgArray *a, int nd, int64_t *shape)
{
    int unknown = -1;
    int64_t known = 1, size = pg_array_size(a);
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 0) {
            if (unknown >= 0) {
                PyErr_SetString(PyExc_ValueError, "can only specify one unknown dimension");
                return -1;
            }
            unknown = i;
        } else if (__builtin_mul_overflow(known, shape[i], &known)) {
            reshape_size_error(a, nd, shape);
            return -1;
        }
    }
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) {
            reshape_size_error(a, nd, shape);
            return -1;
        }
        shape[unknown] = size / known;
    } else if (known != size) {
        reshape_size_error(a, nd, shape);
        return -1;
    }
    return 0;
}

/* Strides giving a the new shape without moving data, when they exist (NumPy's
 * _attempt_nocopy_reshape). a must not be empty. Returns 1 and fills newstrides, or 0. */
static int
attempt_nocopy_reshape(PgArray *a, int newnd, const int64_t *newdims, int64_t *newstrides, int is_f_order)
{
    int64_t olddims[PG_MAXDIMS], oldstrides[PG_MAXDIMS];
    int oldnd = 0;
    /* axes of length 1 have no effect but would need special cases */
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] != 1) {
            olddims[oldnd] = a->shape[i];
            oldstrides[oldnd] = a->strides[i];
            oldnd++;
        }
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        int64_t np = newdims[ni], op = olddims[oi];
        while (np != op) {
            if (np < op)
                np *= newdims[nj++];   /* misses trailing 1s, handled below */
            else
                op *= olddims[oj++];
        }
        /* can the old axes oi..oj be merged? */
        for (int ok = oi; ok < oj - 1; ok++) {
            if (is_f_order ? oldstrides[ok + 1] != olddims[ok] * oldstrides[ok]
                           : oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1])
                return 0;
        }
        if (is_f_order) {
            newstrides[ni] = oldstrides[oi];
            for (int nk = ni + 1; nk < nj; nk++)
                newstrides[nk] = newstrides[nk - 1] * newdims[nk - 1];
        } else {
            newstrides[nj - 1] = oldstrides[oj - 1];
            for (int nk = nj - 1; nk > ni; nk--)
                newstrides[nk - 1] = newstrides[nk] * newdims[nk];
        }
        ni = nj++;
        oi = oj++;
    }
    /* trailing 1s of the new shape */
    int64_t last = ni >= 1 ? newstrides[ni - 1] : PG_ITEMSIZE(a);
    if (is_f_order && ni >= 1)
        last *= newdims[ni - 1];
    for (int nk = ni; nk < newnd; nk++)
        newstrides[nk] = last;
    return 1;
}

/* A new array of the given shape holding a's elements read in `order` ('C' or 'F'). */
static PgArray *
copy_reshaped(PgArray *a, int nd, const int64_t *shape, char order)
{
    PgArray *out = pg_array_new(a->device, a->type, nd, shape, order, a->mem_kind);
    if (out == NULL)
        return NULL;
    /* out's memory seen with a's shape, filled in the same order, is the reshaped copy */
    int64_t strides[PG_MAXDIMS];
    pg_fill_strides(a->ndim, a->shape, PG_ITEMSIZE(a), order, strides);
    PgArray *w = pg_array_view(out, out->data, a->type, a->ndim, a->shape, strides);
    if (w == NULL || pg_array_assign(w, a) < 0) {
        Py_XDECREF(w);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(w);
    return out;
}

/* 1 and the strides that show a's memory with `shape` (of a's size) in order 'C' or 'F', or 0
 * when that takes a copy. */
static int
view_strides(PgArray *a, int nd, const int64_t *shape, char order, int64_t *strides)
{
    if (nd == a->ndim && memcmp(shape, a->shape, sizeof(int64_t) * (size_t)nd) == 0) {
        memcpy(strides, a->strides, sizeof(int64_t) * (size_t)nd);
        return 1;
    }
    if (pg_array_size(a) == 0 || (order == 'C' && (a->flags & PG_C_CONTIGUOUS)) ||
        (order == 'F' && (a->flags & PG_F_CONTIGUOUS))) {
        pg_fill_strides(nd, shape, PG_ITEMSIZE(a), order, strides);
        return 1;
    }
    return attempt_nocopy_reshape(a, nd, shape, strides, order == 'F');
}

/* a reshaped (shape may hold one negative entry); order 'C', 'F' or 'A'; copy: 1 always,
 * 0 never (ValueError when a copy is needed), -1 when needed. */
static PgArray *
reshape_impl(PgArray *a, int nd, int64_t *shape, char order, int copy)
{
    if (order == 'K') {
        PyErr_SetString(PyExc_ValueError, "order 'K' is not permitted for reshaping");
        return NULL;
    }
    if (order == 'A')
        order = is_fortran(a) ? 'F' : 'C';
    if (fix_unknown_dimension(a, nd, shape) < 0)
        return NULL;
    if (copy == 1)
        return copy_reshaped(a, nd, shape, order);
    int64_t strides[PG_MAXDIMS];
    if (!view_strides(a, nd, shape, order, strides)) {
        if (copy == 0) {
            PyErr_SetString(PyExc_ValueError, "Unable to avoid creating a copy while reshaping.");
            return NULL;
        }
        return copy_reshaped(a, nd, shape, order);
    }
    return pg_array_view(a, a->data, a->type, nd, shape, strides);
}

/* a.shape = value: the same memory seen with the new shape, which must need no copy (NumPy's
 * in-place reshape, deprecated in NumPy 2.5 with the warning given here too). The shape and
 * strides stay in the object's own storage when they fit (no more dimensions than it was made
 * with), else move to a buffer of their own, which array_dealloc frees. */
int
pg_array_set_shape(PgArray *a, PyObject *value)
{
    int nd;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "Cannot delete array shape");
        return -1;
    }
    if (PyErr_WarnEx(PyExc_DeprecationWarning,
                     "Setting the shape on an array is deprecated, as in NumPy 2.5: create a new view "
                     "with reshape(..., copy=False) instead.", 1) < 0 ||
        parse_shape_arg(value, &nd, shape, NULL) < 0 || fix_unknown_dimension(a, nd, shape) < 0)
        return -1;
    if (!view_strides(a, nd, shape, 'C', strides)) {
        PyErr_SetString(PyExc_AttributeError,
                        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the "
                        "desired shape.");
        return -1;
    }
    int64_t *storage = a->dims;
    if (nd > Py_SIZE(a)) {
        storage = PyMem_Malloc(2 * (size_t)nd * sizeof(int64_t));
        if (storage == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    if (a->shape != a->dims)
        PyMem_Free(a->shape);
    a->shape = storage;
    a->strides = storage == a->dims ? a->dims + Py_SIZE(a) : storage + nd;
    a->ndim = nd;
    if (nd > 0) {
        memcpy(a->shape, shape, (size_t)nd * sizeof(int64_t));
        memcpy(a->strides, strides, (size_t)nd * sizeof(int64_t));
    }
    pg_array_update_flags(a);
    return 0;
}

static PyObject *
array_reshape(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"order", "copy", NULL};
    PyObject *order_obj = NULL, *copy_obj = NULL, *empty = NULL, *res = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    int nd, copy;
    char order;
    int64_t shape[PG_MAXDIMS];
    empty = PyTuple_New(0);
    if (empty == NULL)
        return NULL;
    if (!PyArg_ParseTupleAndKeywords(empty, kwds, "|$OO:reshape", kwlist, &order_obj, &copy_obj))
        goto done;
    if (n == 0) {
        PyErr_SetString(PyExc_TypeError, "reshape() takes exactly 1 argument (0 given)");
        goto done;
    }
    if (parse_shape_arg(n == 1 ? PyTuple_GET_ITEM(args, 0) : args, &nd, shape, (PgArray *)self) < 0 ||
        pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0 || pg_parse_copy(copy_obj, &copy) < 0)
        goto done;
    res = (PyObject *)reshape_impl((PgArray *)self, nd, shape, order, copy);
done:
    Py_DECREF(empty);
    return res;
}

static PyObject *
py_reshape(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "shape", "order", "copy", NULL};
    PyObject *obj, *shape_obj, *order_obj = NULL, *copy_obj = NULL;
    int nd, copy;
    char order;
    int64_t shape[PG_MAXDIMS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O$O:reshape", kwlist, &obj, &shape_obj, &order_obj, &copy_obj))
        return NULL;
    if (pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0 || pg_parse_copy(copy_obj, &copy) < 0)
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = NULL;
    if (parse_shape_arg(shape_obj, &nd, shape, a) == 0)
        res = (PyObject *)reshape_impl(a, nd, shape, order, copy);
    Py_DECREF(a);
    return res;
}

/* ------------------------------------------------------------------ ravel / flatten */

static PgArray *
flatten_impl(PgArray *a, char order)
{
    int64_t n = pg_array_size(a);
    if (order == 'A')
        order = is_fortran(a) ? 'F' : 'C';
    if (order != 'K')
        return copy_reshaped(a, 1, &n, order);
    /* memory order as NumPy's iterator finds it, then read in C order */
    int perm[PG_MAXDIMS];
    iteration_order_perm(a, perm);
    PgArray *p = permuted_view(a, perm);
    if (p == NULL)
        return NULL;
    PgArray *res = copy_reshaped(p, 1, &n, 'C');
    Py_DECREF(p);
    return res;
}

PgArray *
pg_array_ravel(PgArray *a, char order)
{
    int64_t n = pg_array_size(a);
    if (order == 'A') {
        order = is_fortran(a) ? 'F' : 'C';
    } else if (order == 'K') {
        if (a->flags & PG_C_CONTIGUOUS)
            order = 'C';
        else if (a->flags & PG_F_CONTIGUOUS)
            order = 'F';
    }
    if ((order == 'C' && (a->flags & PG_C_CONTIGUOUS)) || (order == 'F' && (a->flags & PG_F_CONTIGUOUS)))
        return reshape_impl(a, 1, &n, order, -1);
    if (order == 'K') {
        /* a view when the elements, in memory order, are evenly spaced by one item */
        int perm[PG_MAXDIMS];
        keep_order_perm(a, perm);
        int64_t stride = PG_ITEMSIZE(a);
        int i;
        for (i = a->ndim - 1; i >= 0; i--) {
            if (a->shape[perm[i]] == 1)
                continue;
            if (a->strides[perm[i]] != stride)
                break;
            stride *= a->shape[perm[i]];
        }
        if (i < 0) {
            stride = PG_ITEMSIZE(a);
            return pg_array_view(a, a->data, a->type, 1, &n, &stride);
        }
    }
    return flatten_impl(a, order);
}

static PyObject *
array_ravel(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:ravel", kwlist, &order_obj) ||
        pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0)
        return NULL;
    return (PyObject *)pg_array_ravel((PgArray *)self, order);
}

static PyObject *
array_flatten(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:flatten", kwlist, &order_obj) ||
        pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0)
        return NULL;
    return (PyObject *)flatten_impl((PgArray *)self, order);
}

static PyObject *
py_ravel(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "order", NULL};
    PyObject *obj, *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:ravel", kwlist, &obj, &order_obj) ||
        pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0)
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)pg_array_ravel(a, order);
    Py_DECREF(a);
    return res;
}

/* ------------------------------------------------------------------ transposes */

/* axes None: reversed; else an int or sequence that must name every axis once. */
static PgArray *
transpose_impl(PgArray *a, PyObject *axes)
{
    int perm[PG_MAXDIMS];
    if (axes == NULL || axes == Py_None) {
        for (int i = 0; i < a->ndim; i++)
            perm[i] = a->ndim - 1 - i;
        return permuted_view(a, perm);
    }
    int64_t raw[PG_MAXDIMS];
    Py_ssize_t n = pg_parse_ints(axes, raw, PG_MAXDIMS);
    if (n < 0)
        return NULL;
    if (n != a->ndim) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    if (normalize_axes(raw, n, a->ndim, NULL, "repeated axis in transpose", perm) < 0)
        return NULL;
    return permuted_view(a, perm);
}

static PyObject *
array_transpose(PyObject *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    /* transpose(), transpose(None), transpose(axes) or transpose(*axes); one int is one axis */
    PyObject *axes = n == 0 ? NULL : n == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    return (PyObject *)transpose_impl((PgArray *)self, axes);
}

static PyObject *
transpose_function(PyObject *args, PyObject *kwds, const char *fmt)
{
    static char *kwlist[] = {"a", "axes", NULL};
    PyObject *obj, *axes = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &obj, &axes))
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)transpose_impl(a, axes);
    Py_DECREF(a);
    return res;
}

static PyObject *
py_transpose(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return transpose_function(args, kwds, "O|O:transpose");
}

static PyObject *
py_permute_dims(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    return transpose_function(args, kwds, "O|O:permute_dims");
}

static PgArray *
swapaxes_impl(PgArray *a, PyObject *axis1, PyObject *axis2)
{
    int64_t v1, v2;
    int i1, i2, perm[PG_MAXDIMS];
    if (pg_parse_ints(axis1, &v1, 1) < 0 || pg_normalize_axis(v1, a->ndim, "axis1", &i1) < 0 ||
        pg_parse_ints(axis2, &v2, 1) < 0 || pg_normalize_axis(v2, a->ndim, "axis2", &i2) < 0)
        return NULL;
    for (int i = 0; i < a->ndim; i++)
        perm[i] = i;
    perm[i1] = i2;
    perm[i2] = i1;
    return permuted_view(a, perm);
}

static int
check_int_arg(PyObject *obj)
{
    /* a single axis: sequences are not accepted here */
    if (PySequence_Check(obj) && !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer", Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
array_swapaxes(PyObject *self, PyObject *args)
{
    PyObject *a1, *a2;
    if (!PyArg_ParseTuple(args, "OO:swapaxes", &a1, &a2) || check_int_arg(a1) < 0 || check_int_arg(a2) < 0)
        return NULL;
    return (PyObject *)swapaxes_impl((PgArray *)self, a1, a2);
}

static PyObject *
py_swapaxes(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "axis1", "axis2", NULL};
    PyObject *obj, *a1, *a2;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:swapaxes", kwlist, &obj, &a1, &a2) || check_int_arg(a1) < 0 ||
        check_int_arg(a2) < 0)
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)swapaxes_impl(a, a1, a2);
    Py_DECREF(a);
    return res;
}

static PyObject *
py_moveaxis(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "source", "destination", NULL};
    PyObject *obj, *src_obj, *dst_obj, *res = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO:moveaxis", kwlist, &obj, &src_obj, &dst_obj))
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    int src[PG_MAXDIMS + 1], dst[PG_MAXDIMS + 1], perm[PG_MAXDIMS];
    int ns = parse_axes(src_obj, a->ndim, "source", "repeated axis in `source` argument", src);
    if (ns < 0)
        goto done;
    int nd = parse_axes(dst_obj, a->ndim, "destination", "repeated axis in `destination` argument", dst);
    if (nd < 0)
        goto done;
    if (ns != nd) {
        PyErr_SetString(PyExc_ValueError, "`source` and `destination` arguments must have the same number of elements");
        goto done;
    }
    /* the axes not moved keep their order; each moved one is inserted at its destination, in
     * increasing destination order (NumPy's construction) */
    int taken[PG_MAXDIMS] = {0}, placed[PG_MAXDIMS] = {0};
    for (int k = 0; k < ns; k++) {
        taken[src[k]] = 1;
        placed[dst[k]] = 1;
    }
    int next = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (placed[i]) {
            for (int k = 0; k < ns; k++)
                if (dst[k] == i)
                    perm[i] = src[k];
        } else {
            while (taken[next])
                next++;
            perm[i] = next++;
        }
    }
    res = (PyObject *)permuted_view(a, perm);
done:
    Py_DECREF(a);
    return res;
}

static PyObject *
get_T(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return (PyObject *)transpose_impl((PgArray *)self, NULL);
}

static PgArray *
matrix_transpose_impl(PgArray *a)
{
    if (a->ndim < 2) {
        PyErr_SetString(PyExc_ValueError, "matrix transpose with ndim < 2 is undefined");
        return NULL;
    }
    int perm[PG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        perm[i] = i;
    perm[a->ndim - 2] = a->ndim - 1;
    perm[a->ndim - 1] = a->ndim - 2;
    return permuted_view(a, perm);
}

static PyObject *
get_mT(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return (PyObject *)matrix_transpose_impl((PgArray *)self);
}

static PyObject *
py_matrix_transpose(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)matrix_transpose_impl(a);
    Py_DECREF(a);
    return res;
}

/* ------------------------------------------------------------------ squeeze / expand_dims */

static PgArray *
squeeze_impl(PgArray *a, PyObject *axis)
{
    unsigned char drop[PG_MAXDIMS] = {0};
    if (axis == NULL || axis == Py_None) {
        for (int i = 0; i < a->ndim; i++)
            drop[i] = a->shape[i] == 1;
    } else {
        int axes[PG_MAXDIMS + 1];
        /* a 0-d array takes an int axis 0 or -1 (nothing to drop), not a tuple of them, as NumPy's */
        int zero_d_int = a->ndim == 0 && PyIndex_Check(axis);
        if (zero_d_int) {
            Py_ssize_t v = PyNumber_AsSsize_t(axis, PyExc_OverflowError);
            if (v == -1 && PyErr_Occurred())
                return NULL;
            if (v != 0 && v != -1) {
                pg_axis_error(v, 0, NULL);
                return NULL;
            }
        }
        int n = parse_axes(axis, a->ndim ? a->ndim : zero_d_int, NULL, "duplicate value in 'axis'", axes);
        if (n < 0)
            return NULL;
        for (int k = 0; k < n && a->ndim; k++) {
            if (a->shape[axes[k]] != 1) {
                PyErr_SetString(PyExc_ValueError,
                                "cannot select an axis to squeeze out which has size not equal to one");
                return NULL;
            }
            drop[axes[k]] = 1;
        }
    }
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    int nd = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (!drop[i]) {
            shape[nd] = a->shape[i];
            strides[nd] = a->strides[i];
            nd++;
        }
    }
    return pg_array_view(a, a->data, a->type, nd, shape, strides);
}

static PyObject *
array_squeeze(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"axis", NULL};
    PyObject *axis = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:squeeze", kwlist, &axis))
        return NULL;
    return (PyObject *)squeeze_impl((PgArray *)self, axis);
}

static PyObject *
py_squeeze(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "axis", NULL};
    PyObject *obj, *axis = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:squeeze", kwlist, &obj, &axis))
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)squeeze_impl(a, axis);
    Py_DECREF(a);
    return res;
}

static PyObject *
py_expand_dims(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "axis", NULL};
    PyObject *obj, *axis, *res = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:expand_dims", kwlist, &obj, &axis))
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    int64_t raw[PG_MAXDIMS + 1];
    Py_ssize_t n = pg_parse_ints(axis, raw, PG_MAXDIMS + 1);
    if (n < 0)
        goto done;
    if (a->ndim + n > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d, found %zd",
                     PG_MAXDIMS, a->ndim + n);
        goto done;
    }
    int out_nd = a->ndim + (int)n, axes[PG_MAXDIMS];
    if (normalize_axes(raw, n, out_nd, NULL, "repeated axis", axes) < 0)
        goto done;
    unsigned char is_new[PG_MAXDIMS] = {0};
    for (Py_ssize_t k = 0; k < n; k++)
        is_new[axes[k]] = 1;
    int64_t shape[PG_MAXDIMS];
    for (int i = 0, j = 0; i < out_nd; i++)
        shape[i] = is_new[i] ? 1 : a->shape[j++];
    /* as NumPy: a reshape, which inserting unit axes never turns into a copy */
    res = (PyObject *)reshape_impl(a, out_nd, shape, 'C', -1);
done:
    Py_DECREF(a);
    return res;
}

/* ------------------------------------------------------------------ broadcasting */

/* A read-only view of a with the given (compatible) shape: stride 0 along broadcast axes. */
static PgArray *
broadcast_view(PgArray *a, int nd, const int64_t *shape)
{
    int64_t strides[PG_MAXDIMS];
    int off = nd - a->ndim;
    for (int i = 0; i < nd; i++) {
        int j = i - off;
        strides[i] = (j >= 0 && a->shape[j] == shape[i] && a->shape[j] != 1) ? a->strides[j] : 0;
    }
    PgArray *v = pg_array_view(a, a->data, a->type, nd, shape, strides);
    if (v != NULL) {
        /* several elements share memory: writing through the view would be ambiguous */
        v->flags &= ~PG_WRITEABLE;
    }
    return v;
}

static PyObject *
py_broadcast_to(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"array", "shape", NULL};
    PyObject *obj, *shape_obj, *res = NULL;
    int nd;
    int64_t shape[PG_MAXDIMS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:broadcast_to", kwlist, &obj, &shape_obj))
        return NULL;
    if (parse_shape_arg(shape_obj, &nd, shape, NULL) < 0)
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    if (nd == 0 && a->ndim > 0) {
        PyErr_SetString(PyExc_ValueError, "cannot broadcast a non-scalar to a scalar array");
        goto done;
    }
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "all elements of broadcast shape must be non-negative");
            goto done;
        }
    }
    if (a->ndim > nd) {
        PyErr_SetString(PyExc_ValueError, "input operand has more dimensions than allowed by the axis remapping");
        goto done;
    }
    for (int i = 0; i < a->ndim; i++) {
        int64_t s = a->shape[i], t = shape[nd - a->ndim + i];
        if (s != t && s != 1) {
            PyObject *r1 = pg_shape_repr(a->ndim, a->shape), *r2 = pg_shape_repr(nd, shape);
            if (r1 && r2)
                PyErr_Format(PyExc_ValueError,
                             "operands could not be broadcast together with remapped shapes "
                             "[original->remapped]: %U  and requested shape %U",
                             r1, r2);
            Py_XDECREF(r1);
            Py_XDECREF(r2);
            goto done;
        }
    }
    res = (PyObject *)broadcast_view(a, nd, shape);
done:
    Py_DECREF(a);
    return res;
}

static PyObject *
py_broadcast_arrays(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *res = NULL;
    PgArray **arrs = PyMem_Calloc(n ? (size_t)n : 1, sizeof(PgArray *));
    if (arrs == NULL)
        return PyErr_NoMemory();
    int nd = 0;
    int64_t shape[PG_MAXDIMS];
    for (Py_ssize_t k = 0; k < n; k++) {
        arrs[k] = as_array(PyTuple_GET_ITEM(args, k));
        if (arrs[k] == NULL)
            goto done;
        if (arrs[k]->ndim > nd)
            nd = arrs[k]->ndim;
    }
    /* NumPy's broadcast: outermost axis first, remembering which argument set each size */
    for (int i = 0; i < nd; i++) {
        Py_ssize_t from = 0;
        shape[i] = 1;
        for (Py_ssize_t k = 0; k < n; k++) {
            int j = i + arrs[k]->ndim - nd;
            if (j < 0 || arrs[k]->shape[j] == 1)
                continue;
            if (shape[i] == 1) {
                shape[i] = arrs[k]->shape[j];
                from = k;
            } else if (shape[i] != arrs[k]->shape[j]) {
                /* this message prints the shapes as Python tuples */
                PyObject *r1 = pg_shape_tuple(arrs[from]->ndim, arrs[from]->shape);
                PyObject *r2 = pg_shape_tuple(arrs[k]->ndim, arrs[k]->shape);
                if (r1 && r2)
                    PyErr_Format(PyExc_ValueError,
                                 "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                 "between arg %zd with shape %R and arg %zd with shape %R.",
                                 from, r1, k, r2);
                Py_XDECREF(r1);
                Py_XDECREF(r2);
                goto done;
            }
        }
    }
    res = PyTuple_New(n);
    if (res == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        PgArray *a = arrs[k];
        PyObject *v;
        if (a->ndim == nd && memcmp(a->shape, shape, sizeof(int64_t) * (size_t)nd) == 0)
            v = Py_NewRef((PyObject *)a);
        else
            v = (PyObject *)broadcast_view(a, nd, shape);
        if (v == NULL) {
            Py_CLEAR(res);
            goto done;
        }
        PyTuple_SET_ITEM(res, k, v);
    }
done:
    for (Py_ssize_t k = 0; k < n; k++)
        Py_XDECREF(arrs[k]);
    PyMem_Free(arrs);
    return res;
}

/* ------------------------------------------------------------------ diagonal */

/* NumPy's diagonal: axis1 and axis2 removed, the diagonal appended as the last axis; read-only,
 * as NumPy's view is. */
static PgArray *
diagonal_impl(PgArray *a, long long offset, long long axis1_raw, long long axis2_raw)
{
    int axis1, axis2;
    if (a->ndim < 2) {
        PyErr_SetString(PyExc_ValueError, "diag requires an array of at least two dimensions");
        return NULL;
    }
    if (pg_normalize_axis(axis1_raw, a->ndim, "axis1", &axis1) < 0 ||
        pg_normalize_axis(axis2_raw, a->ndim, "axis2", &axis2) < 0)
        return NULL;
    if (axis1 == axis2) {
        PyErr_SetString(PyExc_ValueError, "axis1 and axis2 cannot be the same");
        return NULL;
    }
    int64_t n1 = a->shape[axis1], n2 = a->shape[axis2];
    char *data = a->data;
    int64_t len;
    if (offset >= 0) {
        len = n2 - offset < n1 ? n2 - offset : n1;
        if (len > 0)
            data += offset * a->strides[axis2];
    } else {
        len = n1 + offset < n2 ? n1 + offset : n2;
        if (len > 0)
            data -= offset * a->strides[axis1];
    }
    if (len < 0)
        len = 0;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    int nd = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (i != axis1 && i != axis2) {
            shape[nd] = a->shape[i];
            strides[nd] = a->strides[i];
            nd++;
        }
    }
    shape[nd] = len;
    strides[nd] = a->strides[axis1] + a->strides[axis2];
    PgArray *v = pg_array_view(a, data, a->type, nd + 1, shape, strides);
    if (v != NULL)
        v->flags &= ~PG_WRITEABLE;
    return v;
}

static PyObject *
array_diagonal(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"offset", "axis1", "axis2", NULL};
    long long offset = 0, axis1 = 0, axis2 = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|LLL:diagonal", kwlist, &offset, &axis1, &axis2))
        return NULL;
    return (PyObject *)diagonal_impl((PgArray *)self, offset, axis1, axis2);
}

static PyObject *
py_diagonal(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "offset", "axis1", "axis2", NULL};
    PyObject *obj;
    long long offset = 0, axis1 = 0, axis2 = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|LLL:diagonal", kwlist, &obj, &offset, &axis1, &axis2))
        return NULL;
    PgArray *a = as_array(obj);
    if (a == NULL)
        return NULL;
    PyObject *res = (PyObject *)diagonal_impl(a, offset, axis1, axis2);
    Py_DECREF(a);
    return res;
}

/* ------------------------------------------------------------------ view(dtype) */

/* a.view(dtype): the same bytes read as another dtype (NumPy's rules): the same itemsize keeps
 * the shape and strides; another one rescales the last axis, which must be contiguous and hold
 * a whole number of the new items. No dtype: a new view of the same elements. */
static PyObject *
array_view(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"dtype", "type", NULL};
    PyObject *dtype = Py_None, *cls = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:view", kwlist, &dtype, &cls))
        return NULL;
    PgArray *a = (PgArray *)self;
    if (cls != Py_None && cls != (PyObject *)Py_TYPE(self)) {
        PyErr_SetString(PyExc_TypeError, "view(type=...): pygpu has one array type, pygpu.ndarray");
        return NULL;
    }
    if (dtype == (PyObject *)Py_TYPE(self)) /* a.view(pygpu.ndarray), NumPy's spelling of a plain view */
        dtype = Py_None;
    int t = pg_type_from_object(dtype, a->type);
    if (t < 0)
        return NULL;
    int64_t old_size = pg_type_info[a->type].itemsize, new_size = pg_type_info[t].itemsize;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int d = 0; d < a->ndim; d++) {
        shape[d] = a->shape[d];
        strides[d] = a->strides[d];
    }
    if (new_size != old_size) {
        if (a->ndim == 0) {
            PyErr_SetString(PyExc_ValueError, "Changing the dtype of a 0d array is only supported if the itemsize is "
                                              "unchanged");
            return NULL;
        }
        int last = a->ndim - 1;
        if (shape[last] != 1 && strides[last] != old_size) {
            PyErr_SetString(PyExc_ValueError, "To change to a dtype of a different size, the last axis must be "
                                              "contiguous");
            return NULL;
        }
        int64_t bytes = shape[last] * old_size;
        if (bytes % new_size != 0) {
            PyErr_SetString(PyExc_ValueError, "When changing to a larger dtype, its size must be a divisor of the total "
                                              "size in bytes of the last axis of the array.");
            return NULL;
        }
        shape[last] = bytes / new_size;
        strides[last] = new_size;
    }
    return (PyObject *)pg_array_view(a, a->data, t, a->ndim, shape, strides);
}

/* ------------------------------------------------------------------ tables */

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

/* ------------------------------------------------------------------ real / imag */

static PgArray *
part_view(PgArray *a, int imag)
{
    int rt = a->type == PG_COMPLEX64 ? PG_FLOAT32 : PG_FLOAT64;
    return pg_array_view(a, a->data + (imag ? pg_type_info[rt].itemsize : 0), rt, a->ndim, a->shape, a->strides);
}

static PyObject *
get_real(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    if (!PG_IS_COMPLEX(a->type))
        return Py_NewRef(self);
    return (PyObject *)part_view(a, 0);
}

static PyObject *
get_imag(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    if (PG_IS_COMPLEX(a->type))
        return (PyObject *)part_view(a, 1);
    /* real arrays: read-only zeros, as NumPy */
    PgArray *z = pg_array_new_like(a, -1, 'K');
    if (z == NULL)
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    int rc = zero ? pg_array_fill(z, zero) : -1;
    Py_XDECREF(zero);
    if (rc < 0) {
        Py_DECREF(z);
        return NULL;
    }
    z->flags &= ~PG_WRITEABLE;
    return (PyObject *)z;
}

static int
set_part(PyObject *self, PyObject *value, int imag)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete array attribute");
        return -1;
    }
    PgArray *a = (PgArray *)self;
    PgArray *dst;
    if (PG_IS_COMPLEX(a->type))
        dst = part_view(a, imag);
    else if (imag) {
        PyErr_SetString(PyExc_TypeError, "array does not have imaginary part to set");
        return -1;
    } else
        dst = (PgArray *)Py_NewRef(self);
    if (dst == NULL)
        return -1;
    int rc;
    if (PgArray_Check(value)) {
        rc = pg_array_assign(dst, (PgArray *)value);
    } else if (PyArray_Check(value)) {
        rc = pg_array_assign_numpy(dst, (PyArrayObject *)value);
    } else {
        PgArray *v = pg_asarray(value, -1, dst->device, -1);
        rc = v ? pg_array_assign(dst, v) : -1;
        Py_XDECREF(v);
    }
    Py_DECREF(dst);
    return rc;
}

static int set_real(PyObject *self, PyObject *v, void *c) { PG_UNUSED(c); return set_part(self, v, 0); }
static int set_imag(PyObject *self, PyObject *v, void *c) { PG_UNUSED(c); return set_part(self, v, 1); }

/* format(a, spec): a 0-d array as its element (f"{x.sum():.2f}", as NumPy's), others as object's
 * (str(a) for an empty spec, else TypeError) */
static PyObject *
array_format(PyObject *self, PyObject *spec)
{
    if (((PgArray *)self)->ndim != 0)
        return PyObject_CallMethod((PyObject *)&PyBaseObject_Type, "__format__", "OO", self, spec);
    PyObject *noargs = PyTuple_New(0);
    PyObject *item = noargs ? pg_array_item(self, noargs) : NULL;
    Py_XDECREF(noargs);
    PyObject *r = item ? PyObject_Format(item, spec) : NULL;
    Py_XDECREF(item);
    return r;
}

PyMethodDef pg_array_methods_views[] = {
    {"reshape", KW(array_reshape),
     "reshape($self, *shape, order='C', copy=None)\n--\n\nthe array with a new shape; a view when the strides allow."},
    {"transpose", array_transpose, METH_VARARGS,
     "transpose($self, *axes)\n--\n\na view with the axes permuted (reversed when none are given)."},
    {"swapaxes", array_swapaxes, METH_VARARGS, "swapaxes($self, axis1, axis2)\n--\n\na view with two axes interchanged."},
    {"squeeze", KW(array_squeeze), "squeeze($self, axis=None)\n--\n\na view without the given (or all) axes of length one."},
    {"ravel", KW(array_ravel), "ravel($self, order='C')\n--\n\nthe elements as a 1-d array, a view when possible."},
    {"flatten", KW(array_flatten), "flatten($self, order='C')\n--\n\na 1-d copy of the elements."},
    {"view", KW(array_view),
     "view($self, dtype=None)\n--\n\nthe same memory read as dtype (the last axis rescaled for another itemsize)."},
    {"diagonal", KW(array_diagonal),
     "diagonal($self, offset=0, axis1=0, axis2=1)\n--\n\na read-only view of the diagonal(s), as the last axis."},
    {"item", pg_array_item, METH_VARARGS, "item($self, *args)\n--\n\none element as a Python scalar (copied to the host)."},
    {"tolist", pg_array_tolist, METH_NOARGS, "tolist($self, /)\n--\n\nthe elements as nested Python lists."},
    {"__complex__", pg_array_complex, METH_NOARGS, "complex(a) for a 0-d array."},
    {"__format__", array_format, METH_O, "format(a, spec): a 0-d array's element formatted as its Python scalar."},
    {"__reduce__", pg_array_reduce, METH_NOARGS, "Pickling: the host copy and the device's name."},
    {"__copy__", pg_array_copy_method, METH_NOARGS, "copy.copy(a): a copy on the same device."},
    {"__deepcopy__", pg_array_deepcopy, METH_O, "copy.deepcopy(a): a copy on the same device."},
    {NULL, NULL, 0, NULL},
};

PyGetSetDef pg_array_getset_views[] = {
    {"T", get_T, NULL, "The transposed array (a view with the axes reversed).", NULL},
    {"mT", get_mT, NULL, "The matrix transpose: the last two axes swapped (a view; ndim >= 2).", NULL},
    {"real", get_real, set_real, "The real part (a view for complex arrays; the array itself otherwise).", NULL},
    {"imag", get_imag, set_imag, "The imaginary part (a view for complex arrays; read-only zeros otherwise).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* _as_strided(a, shape, strides, offset=0): a view of a's memory with any layout inside it
 * (numpy.lib.stride_tricks.as_strided, bounds-checked). Tests use it to make layouts. */
static PyObject *
py_as_strided(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *aobj, *shape_obj, *strides_obj;
    long long offset = 0;
    if (!PyArg_ParseTuple(args, "O!OO|L:_as_strided", &PgArray_Type, &aobj, &shape_obj, &strides_obj, &offset))
        return NULL;
    PgArray *a = (PgArray *)aobj;
    int nd, nd2;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    if (pg_parse_shape(shape_obj, &nd, shape) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(strides_obj, "strides must be a sequence");
    if (seq == NULL)
        return NULL;
    nd2 = (int)PySequence_Fast_GET_SIZE(seq);
    int rc = nd2 == nd ? 0 : -1;
    for (int i = 0; rc == 0 && i < nd; i++)
        rc = pg_parse_int64(PySequence_Fast_GET_ITEM(seq, i), &strides[i], "stride");
    Py_DECREF(seq);
    if (rc < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "shape and strides must have the same length");
        return NULL;
    }
    /* the view must stay inside the base array's bytes */
    char *lo, *hi, *blo, *bhi;
    int64_t isz = PG_ITEMSIZE(a);
    int64_t size = pg_shape_size(nd, shape);
    if (size < 0)
        return NULL;
    blo = a->data;
    bhi = a->data + pg_array_size(a) * isz;
    lo = a->data + offset;
    hi = lo + isz;
    for (int i = 0; i < nd; i++) {
        int64_t ext = (shape[i] - 1) * strides[i];
        if (ext < 0)
            lo += ext;
        else
            hi += ext;
    }
    if (!(a->flags & PG_C_CONTIGUOUS) || (size > 0 && (lo < blo || hi > bhi))) {
        PyErr_SetString(PyExc_ValueError, "_as_strided: the view must lie inside a C-contiguous base array");
        return NULL;
    }
    return (PyObject *)pg_array_view(a, a->data + offset, a->type, nd, shape, strides);
}

PyMethodDef pg_views_module_methods[] = {
    {"reshape", KW(py_reshape), "reshape($module, a, shape, order='C', *, copy=None)\n--\n\na with a new shape."},
    {"ravel", KW(py_ravel), "ravel($module, a, order='C')\n--\n\na 1-d array of the elements, a view when possible."},
    {"transpose", KW(py_transpose), "transpose($module, a, axes=None)\n--\n\na view with the axes permuted."},
    {"permute_dims", KW(py_permute_dims), "permute_dims($module, a, axes=None)\n--\n\na view with the axes permuted."},
    {"matrix_transpose", py_matrix_transpose, METH_O, "matrix_transpose($module, x)\n--\n\nx with its last two axes swapped."},
    {"swapaxes", KW(py_swapaxes), "swapaxes($module, a, axis1, axis2)\n--\n\na view with two axes interchanged."},
    {"moveaxis", KW(py_moveaxis), "moveaxis($module, a, source, destination)\n--\n\na view with axes moved to new positions."},
    {"squeeze", KW(py_squeeze), "squeeze($module, a, axis=None)\n--\n\na view without axes of length one."},
    {"expand_dims", KW(py_expand_dims), "expand_dims($module, a, axis)\n--\n\na view with axes of length one inserted."},
    {"diagonal", KW(py_diagonal),
     "diagonal($module, a, offset=0, axis1=0, axis2=1)\n--\n\na read-only view of the diagonal(s), as the last axis."},
    {"broadcast_to", KW(py_broadcast_to), "broadcast_to($module, array, shape)\n--\n\na read-only broadcast view."},
    {"broadcast_arrays", py_broadcast_arrays, METH_VARARGS,
     "broadcast_arrays($module, *args)\n--\n\nthe arrays broadcast to one shape (read-only views where broadcast)."},
    {"_as_strided", py_as_strided, METH_VARARGS, NULL},
    {"_reconstruct", pg_reconstruct, METH_VARARGS, "_reconstruct(numpy_array, device): unpickles an ndarray."},
    {NULL, NULL, 0, NULL},
};

void
pg_views_setup_type(PyTypeObject *t)
{
    pg_indexing_setup_type(t);
}
