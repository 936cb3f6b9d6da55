/* Basic indexing (integers, slices, `...`, None) returning views, assignment through such an
 * index (one with arrays or booleans goes to advanced.c), and the Python protocols of ndarray:
 * len, iteration over the first axis, truth value and
 * number conversions of one element, item/tolist, pickling and copy.copy. */
#include "array/indexing.h"
#include "array/advanced.h"
#include "runtime/stream.h"

enum { IDX_INT, IDX_SLICE, IDX_ELLIPSIS, IDX_NEWAXIS, IDX_ADVANCED };

static const char invalid_index_msg[] =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
    "are valid indices";

/* What a basic index selects: the layout of the view. */
typedef struct {
    char *data;
    int ndim;
    int all_int;   /* every axis taken by an integer: the index names one element */
    int64_t shape[PG_MAXDIMS];
    int64_t strides[PG_MAXDIMS];
} PgIndexResult;

/* ------------------------------------------------------------------ parsing an index */

/* An integer index as int64; NumPy's IndexError when it does not fit in one. */
static int
index_as_int64(PyObject *item, int64_t *out)
{
    PyObject *i = PyNumber_Index(item);
    if (i == NULL)
        return -1;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow) {
        PyErr_SetString(PyExc_IndexError, invalid_index_msg);
        return -1;
    }
    *out = v;
    return 0;
}

static int
bounds_error(int64_t index, int axis, int64_t size)
{
    PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)index,
                 axis, (long long)size);
    return -1;
}

/* The kind of one item of an index, in NumPy's order of checks (IDX_ADVANCED for arrays, lists
 * and booleans); -1 with IndexError for items no index takes. */
static int
classify(PyObject *item)
{
    if (PyLong_CheckExact(item))
        return IDX_INT;
    if (PySlice_Check(item))
        return IDX_SLICE;
    if (item == Py_Ellipsis)
        return IDX_ELLIPSIS;
    if (item == Py_None)
        return IDX_NEWAXIS;
    /* booleans are masks in NumPy, never integers */
    if (PyBool_Check(item) || PyArray_IsScalar(item, Bool))
        goto advanced;
    if (PgArray_Check(item)) {
        PgArray *x = (PgArray *)item;
        if (x->ndim == 0 && PG_IS_INTEGER(x->type))
            return IDX_INT;
        goto advanced;
    }
    if (PyArray_Check(item)) {
        PyArrayObject *x = (PyArrayObject *)item;
        if (PyArray_NDIM(x) == 0 && PyArray_ISINTEGER(x))
            return IDX_INT;
        if (PyArray_ISINTEGER(x) || PyArray_ISBOOL(x))
            goto advanced;
        PyErr_SetString(PyExc_IndexError, "arrays used as indices must be of integer (or boolean) type");
        return -1;
    }
    if (PyIndex_Check(item))
        return IDX_INT;
    if (PySequence_Check(item) && !PyUnicode_Check(item) && !PyBytes_Check(item))
        goto advanced;
    PyErr_SetString(PyExc_IndexError, invalid_index_msg);
    return -1;
advanced:
    return IDX_ADVANCED;
}

/* Up to this many items are kept from the first pass; any valid index has fewer (at most ndim
 * integers and slices, one ellipsis, and newaxes while the result has <= PG_MAXDIMS axes). */
#define MAX_INDEX_ITEMS (3 * PG_MAXDIMS + 1)

/* The view a basic index selects: 0; 1 when the index has advanced items (nothing parsed); -1. */
static int
parse_index(PgArray *a, PyObject *key, PgIndexResult *r)
{
    PyObject *single = key;
    PyObject *const *items = &single;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        items = ((PyTupleObject *)key)->ob_item;
        n = PyTuple_GET_SIZE(key);
    }
    unsigned char kinds[MAX_INDEX_ITEMS];
    Py_ssize_t consumed = 0, newaxes = 0, ints = 0;
    int ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = classify(items[i]);
        if (k < 0)
            return -1;
        if (k == IDX_ADVANCED)
            return 1;
        if (i < MAX_INDEX_ITEMS)
            kinds[i] = (unsigned char)k;
        if (k == IDX_INT) {
            consumed++;
            ints++;
        } else if (k == IDX_SLICE) {
            consumed++;
        } else if (k == IDX_NEWAXIS) {
            newaxes++;
        } else if (++ellipses > 1) {
            PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
            return -1;
        }
    }
    if (consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is %d-dimensional, but %zd were indexed",
                     a->ndim, consumed);
        return -1;
    }
    Py_ssize_t out_ndim = a->ndim - ints + newaxes;
    if (out_ndim > PG_MAXDIMS || n > MAX_INDEX_ITEMS) {
        PyErr_Format(PyExc_IndexError, "number of dimensions must be within [0, %d]", PG_MAXDIMS);
        return -1;
    }

    char *data = a->data;
    int d = 0, o = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        switch (kinds[i]) {
        case IDX_INT: {
            int64_t v;
            if (index_as_int64(items[i], &v) < 0)
                return -1;
            int64_t j = v < 0 ? v + a->shape[d] : v;
            if (j < 0 || j >= a->shape[d])
                return bounds_error(v, d, a->shape[d]);
            data += j * a->strides[d];
            d++;
            break;
        }
        case IDX_SLICE: {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(items[i], &start, &stop, &step) < 0)
                return -1;
            Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)a->shape[d], &start, &stop, step);
            /* an empty result keeps the pointer inside the allocation */
            if (len > 0)
                data += (int64_t)start * a->strides[d];
            r->shape[o] = len;
            r->strides[o] = a->strides[d] * step;
            o++;
            d++;
            break;
        }
        case IDX_NEWAXIS:
            r->shape[o] = 1;
            r->strides[o] = 0;
            o++;
            break;
        default: /* IDX_ELLIPSIS: the axes no other item takes */
            for (Py_ssize_t k = 0; k < a->ndim - consumed; k++, d++, o++) {
                r->shape[o] = a->shape[d];
                r->strides[o] = a->strides[d];
            }
            break;
        }
    }
    for (; d < a->ndim; d++, o++) {
        r->shape[o] = a->shape[d];
        r->strides[o] = a->strides[d];
    }
    r->data = data;
    r->ndim = o;
    r->all_int = ints == a->ndim && n == ints;
    return 0;
}

static PyObject *
array_subscript(PyObject *self, PyObject *key)
{
    PgArray *a = (PgArray *)self;
    PgIndexResult r;
    int kind = parse_index(a, key, &r);
    if (kind < 0)
        return NULL;
    if (kind > 0)
        return pg_advanced_getitem(a, key);
    return (PyObject *)pg_array_view(a, r.data, a->type, r.ndim, r.shape, r.strides);
}

/* ------------------------------------------------------------------ assignment */

/* One element set from an array: NumPy's error (a complex element converts through complex(),
 * whose error NumPy lets through). */
static int
sequence_error(PgArray *dst)
{
    if (PG_IS_COMPLEX(dst->type))
        PyErr_SetString(PyExc_TypeError, "only 0-dimensional arrays can be converted to Python scalars");
    else
        PyErr_SetString(PyExc_ValueError, "setting an array element with a sequence.");
    return -1;
}

/* dst[...] = src for a pygpu source. Like NumPy, leading unit axes of the source beyond dst's
 * dimensions are dropped, and an overlapping source is copied first. */
static int
assign_array(PgArray *dst, PgArray *src, int one_element)
{
    if (one_element && src->ndim > 0)
        return sequence_error(dst);
    if (pg_warn_complex_cast(src->type, dst->type) < 0)
        return -1;
    PgArray *stripped = NULL, *tmp = NULL;
    int rc = -1;
    int k = 0;
    while (src->ndim - k > dst->ndim && src->shape[k] == 1)
        k++;
    if (k > 0) {
        stripped = pg_array_view(src, src->data, src->type, src->ndim - k, src->shape + k, src->strides + k);
        if (stripped == NULL)
            goto done;
        src = stripped;
    }
    if (pg_array_may_overlap(dst, src)) {
        tmp = pg_array_copy(src, -1, 'K', NULL);
        if (tmp == NULL)
            goto done;
        src = tmp;
    }
    rc = pg_array_assign(dst, src);
done:
    Py_XDECREF(stripped);
    Py_XDECREF(tmp);
    return rc;
}

static int
assign_numpy(PgArray *dst, PyArrayObject *src, int one_element)
{
    if (one_element && PyArray_NDIM(src) > 0)
        return sequence_error(dst);
    PyArrayObject *owned = NULL;
    int rc = -1;
    int nd = PyArray_NDIM(src), k = 0;
    while (nd - k > dst->ndim && PyArray_DIM(src, k) == 1)
        k++;
    if (k > 0) {
        /* dropping unit axes is always a view */
        PyArray_Dims dims = {PyArray_DIMS(src) + k, nd - k};
        owned = (PyArrayObject *)PyArray_Newshape(src, &dims, NPY_CORDER);
        if (owned == NULL)
            goto done;
        src = owned;
    }
    if (pg_type_from_descr(PyArray_DESCR(src)) < 0) {
        /* a dtype pygpu does not hold (strings, objects): NumPy converts it to dst's type */
        PyErr_Clear();
        PyArray_Descr *d = pg_type_descr(dst->type);
        Py_INCREF(d);
        PyArrayObject *cast = (PyArrayObject *)PyArray_FromArray(src, d, NPY_ARRAY_FORCECAST);
        if (cast == NULL)
            goto done;
        Py_XSETREF(owned, cast);
        src = owned;
    } else if (pg_warn_complex_cast(pg_type_from_descr(PyArray_DESCR(src)), dst->type) < 0) {
        goto done;
    }
    rc = pg_array_assign_numpy(dst, src);
done:
    Py_XDECREF(owned);
    return rc;
}

static int
is_scalar(PyObject *v)
{
    return PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v) || v == Py_None || PyUnicode_Check(v) ||
           PyBytes_Check(v) || PyArray_IsScalar(v, Generic);
}

static int
assign_value(PgArray *dst, PyObject *value, int one_element)
{
    if (PgArray_Check(value))
        return assign_array(dst, (PgArray *)value, one_element);
    if (PyArray_Check(value))
        return assign_numpy(dst, (PyArrayObject *)value, one_element);
    if (is_scalar(value))
        return pg_array_fill(dst, value);
    int rc = -1;
    if (PyObject_HasAttrString(value, "__cuda_array_interface__") || PyObject_HasAttrString(value, "__dlpack__")) {
        /* another library's device array: imported, zero-copy where possible */
        PgArray *v = pg_asarray(value, -1, NULL, -1);
        if (v == NULL)
            return -1;
        rc = assign_array(dst, v, one_element);
        Py_DECREF(v);
        return rc;
    }
    /* nested sequences and other array-likes convert as NumPy would for this destination */
    PyArray_Descr *d = pg_type_descr(dst->type);
    Py_INCREF(d);
    PyObject *arr = PyArray_FromAny(value, d, 0, 0, 0, NULL);
    if (arr == NULL)
        return -1;
    if (!one_element && PyArray_NDIM((PyArrayObject *)arr) > dst->ndim) {
        /* unlike an array, a nested sequence may not carry extra leading axes */
        PyErr_Format(PyExc_ValueError,
                     "setting an array element with a sequence. The requested array would exceed the maximum "
                     "number of dimension of %d.",
                     dst->ndim);
        Py_DECREF(arr);
        return -1;
    }
    rc = assign_numpy(dst, (PyArrayObject *)arr, one_element);
    Py_DECREF(arr);
    return rc;
}

static int
array_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    PgArray *a = (PgArray *)self;
    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (pg_array_check_writeable(a) < 0)
        return -1;
    PgIndexResult r;
    int kind = parse_index(a, key, &r);
    if (kind < 0)
        return -1;
    if (kind > 0)
        return pg_advanced_setitem(a, key, value);
    PgArray *dst = pg_array_view(a, r.data, a->type, r.ndim, r.shape, r.strides);
    if (dst == NULL)
        return -1;
    int rc = assign_value(dst, value, r.all_int);
    Py_DECREF(dst);
    return rc;
}

/* ------------------------------------------------------------------ len and iteration */

static Py_ssize_t
array_length(PyObject *self)
{
    PgArray *a = (PgArray *)self;
    if (a->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return (Py_ssize_t)a->shape[0];
}

/* a[i] for the sequence protocol (negative i already adjusted by the caller). */
static PyObject *
array_item(PyObject *self, Py_ssize_t i)
{
    PgArray *a = (PgArray *)self;
    if (a->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "too many indices for array: array is 0-dimensional, but 1 were indexed");
        return NULL;
    }
    if (i < 0 || i >= a->shape[0]) {
        bounds_error(i, 0, a->shape[0]);
        return NULL;
    }
    return (PyObject *)pg_array_view(a, a->data + i * a->strides[0], a->type, a->ndim - 1, a->shape + 1,
                                     a->strides + 1);
}

static PyObject *
array_iter(PyObject *self)
{
    if (((PgArray *)self)->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    return PySeqIter_New(self);
}

/* ------------------------------------------------------------------ one element to the host */

/* Copies the element at device address ptr to out (16 bytes of room). The copy is queued after
 * the work already on the current stream, and waited for. */
static int
read_element(PgArray *a, const char *ptr, void *out)
{
    PgDevice *dev = a->device;
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    void *stream = pg_stream_current_handle(dev);
    if (dev->backend->memcpy(dev, out, ptr, (size_t)PG_ITEMSIZE(a), PG_COPY_D2H, stream) < 0)
        return -1;
    return dev->backend->stream_synchronize(dev, stream);
}

/* The one element of a 0-d array as a Python scalar, for the number conversions (NumPy converts
 * through the Python scalar too, so int() of a complex array is a TypeError). */
static PyObject *
zero_d_scalar(PgArray *a)
{
    if (a->ndim != 0) {
        PyErr_SetString(PyExc_TypeError, "only 0-dimensional arrays can be converted to Python scalars");
        return NULL;
    }
    uint64_t buf[2];
    if (read_element(a, a->data, buf) < 0)
        return NULL;
    return pg_scalar_from_bytes(buf, a->type);
}

int
pg_array_nb_bool(PyObject *self)
{
    PgArray *a = (PgArray *)self;
    int64_t n = pg_array_size(a);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "The truth value of an empty array is ambiguous. Use `array.size > 0` "
                                          "to check that an array is not empty.");
        return -1;
    }
    if (n > 1) {
        PyErr_SetString(PyExc_ValueError, "The truth value of an array with more than one element is ambiguous. "
                                          "Use a.any() or a.all()");
        return -1;
    }
    uint64_t buf[2];
    if (read_element(a, a->data, buf) < 0)
        return -1;
    PyObject *s = pg_scalar_from_bytes(buf, a->type);
    if (s == NULL)
        return -1;
    int r = PyObject_IsTrue(s);
    Py_DECREF(s);
    return r;
}

PyObject *
pg_array_nb_int(PyObject *self)
{
    PyObject *s = zero_d_scalar((PgArray *)self);
    if (s == NULL)
        return NULL;
    PyObject *r = PyNumber_Long(s);
    Py_DECREF(s);
    return r;
}

PyObject *
pg_array_nb_float(PyObject *self)
{
    PyObject *s = zero_d_scalar((PgArray *)self);
    if (s == NULL)
        return NULL;
    PyObject *r = PyNumber_Float(s);
    Py_DECREF(s);
    return r;
}

PyObject *
pg_array_complex(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PyObject *s = zero_d_scalar((PgArray *)self);
    if (s == NULL)
        return NULL;
    PyObject *r = PyObject_CallOneArg((PyObject *)&PyComplex_Type, s);
    Py_DECREF(s);
    return r;
}

PyObject *
pg_array_nb_index(PyObject *self)
{
    PgArray *a = (PgArray *)self;
    if (a->ndim != 0 || !PG_IS_INTEGER(a->type)) {
        PyErr_SetString(PyExc_TypeError, "only integer scalar arrays can be converted to a scalar index");
        return NULL;
    }
    uint64_t buf[2];
    if (read_element(a, a->data, buf) < 0)
        return NULL;
    return pg_scalar_from_bytes(buf, a->type);
}

/* a.item(), a.item(flat_index), a.item(i, j, ...) or a.item((i, j, ...)): a Python scalar. */
PyObject *
pg_array_item(PyObject *self, PyObject *args)
{
    PgArray *a = (PgArray *)self;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 1 && PyTuple_Check(PyTuple_GET_ITEM(args, 0))) {
        args = PyTuple_GET_ITEM(args, 0);
        n = PyTuple_GET_SIZE(args);
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (PyBool_Check(PyTuple_GET_ITEM(args, k))) { /* NumPy's item takes no bool for an index */
            PyErr_SetString(PyExc_TypeError, "an integer is required");
            return NULL;
        }
    }
    int64_t size = pg_array_size(a);
    char *ptr = a->data;
    if (n == 0) {
        if (size != 1) {
            PyErr_SetString(PyExc_ValueError, "can only convert an array of size 1 to a Python scalar");
            return NULL;
        }
    } else if (n == 1 && a->ndim != 1) {
        /* a flat index, in C order */
        int64_t v;
        if (index_as_int64(PyTuple_GET_ITEM(args, 0), &v) < 0)
            return NULL;
        int64_t i = v < 0 ? v + size : v;
        if (i < 0 || i >= size) {
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for size %lld", (long long)v,
                         (long long)size);
            return NULL;
        }
        for (int d = a->ndim - 1; d >= 0; d--) {
            ptr += (i % a->shape[d]) * a->strides[d];
            i /= a->shape[d];
        }
    } else if (n == a->ndim) {
        for (int d = 0; d < a->ndim; d++) {
            int64_t v;
            if (index_as_int64(PyTuple_GET_ITEM(args, d), &v) < 0)
                return NULL;
            int64_t i = v < 0 ? v + a->shape[d] : v;
            if (i < 0 || i >= a->shape[d]) {
                bounds_error(v, d, a->shape[d]);
                return NULL;
            }
            ptr += i * a->strides[d];
        }
    } else {
        PyErr_SetString(PyExc_ValueError, "incorrect number of indices for array");
        return NULL;
    }
    uint64_t buf[2];
    if (read_element(a, ptr, buf) < 0)
        return NULL;
    return pg_scalar_from_bytes(buf, a->type);
}

PyObject *
pg_array_tolist(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PyObject *host = pg_array_to_numpy((PgArray *)self);
    if (host == NULL)
        return NULL;
    PyObject *r = PyObject_CallMethod(host, "tolist", NULL);
    Py_DECREF(host);
    return r;
}

/* ------------------------------------------------------------------ pickling and copying */

/* (pygpu._core._reconstruct, (host copy as a NumPy array, "device")) */
PyObject *
pg_array_reduce(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PgArray *a = (PgArray *)self;
    PyObject *host = NULL, *dev = NULL, *func = NULL, *res = NULL;
    PyObject *mod = PyImport_ImportModule("pygpu._core");
    if (mod == NULL)
        goto done;
    func = PyObject_GetAttrString(mod, "_reconstruct");
    if (func == NULL)
        goto done;
    host = pg_array_to_numpy(a);
    if (host == NULL)
        goto done;
    dev = PyObject_Str((PyObject *)a->device);
    if (dev == NULL)
        goto done;
    res = Py_BuildValue("O(OO)", func, host, dev);
done:
    Py_XDECREF(mod);
    Py_XDECREF(func);
    Py_XDECREF(host);
    Py_XDECREF(dev);
    return res;
}

/* Whether devobj is a well-formed "cuda:N": with pg_device_from_object's CUDAError or ValueError,
   a CUDA device this process does not have. */
static int
names_cuda_device(PyObject *devobj)
{
    if (!PyUnicode_Check(devobj))
        return 0;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(devobj, &n);
    if (s == NULL || n < 6 || strncmp(s, "cuda:", 5) != 0)
        return 0;
    for (Py_ssize_t i = 5; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

PyObject *
pg_reconstruct(PyObject *module, PyObject *args)
{
    PG_UNUSED(module);
    PyObject *arr, *devobj;
    if (!PyArg_ParseTuple(args, "O!O:_reconstruct", &PyArray_Type, &arr, &devobj))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL && (PyErr_ExceptionMatches(PgExc_CUDAError) || PyErr_ExceptionMatches(PyExc_ValueError))) {
        /* pickled on a GPU this process does not have (a laptop, a CPU-only Dask worker): the array
           lands where new arrays go here, as the same program runs with or without a GPU */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        if (names_cuda_device(devobj)) {
            Py_XDECREF(et);
            Py_XDECREF(ev);
            Py_XDECREF(tb);
            dev = pg_device_current();
        }
        else {
            PyErr_Restore(et, ev, tb);
        }
    }
    if (dev == NULL) {
        /* say what was being unpickled; the device's reason stays as the cause */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        PyErr_Format(et, "cannot unpickle a pygpu array onto device %R: %S", devobj, ev);
        PyObject *nt, *nv, *ntb;
        PyErr_Fetch(&nt, &nv, &ntb);
        PyErr_NormalizeException(&nt, &nv, &ntb);
        if (nv != NULL)
            PyException_SetCause(nv, Py_NewRef(ev));
        PyErr_Restore(nt, nv, ntb);
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
        return NULL;
    }
    return (PyObject *)pg_array_from_numpy((PyArrayObject *)arr, dev, -1);
}

PyObject *
pg_array_copy_method(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    return (PyObject *)pg_array_copy((PgArray *)self, -1, 'K', NULL);
}

PyObject *
pg_array_deepcopy(PyObject *self, PyObject *memo)
{
    PG_UNUSED(memo);
    return (PyObject *)pg_array_copy((PgArray *)self, -1, 'K', NULL);
}

/* ------------------------------------------------------------------ slots */

static PyMappingMethods array_as_mapping = {
    .mp_length = array_length,
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

/* value in a: (a == value).any(), as NumPy's ndarray.__contains__. */
static int
array_contains(PyObject *self, PyObject *value)
{
    PyObject *eq = PyObject_RichCompare(self, value, Py_EQ);
    if (eq == NULL)
        return -1;
    PyObject *any = PyObject_CallMethod(eq, "any", NULL);
    Py_DECREF(eq);
    if (any == NULL)
        return -1;
    int truth = PyObject_IsTrue(any);
    Py_DECREF(any);
    return truth;
}

static PySequenceMethods array_as_sequence = {
    .sq_length = array_length,
    .sq_item = array_item,
    .sq_contains = array_contains,
};

static PyNumberMethods array_as_number;

void
pg_indexing_setup_type(PyTypeObject *t)
{
    t->tp_as_mapping = &array_as_mapping;
    t->tp_as_sequence = &array_as_sequence;
    t->tp_iter = array_iter;
    /* the operators (another file) may already have installed a number table: add to it */
    if (t->tp_as_number == NULL)
        t->tp_as_number = &array_as_number;
    t->tp_as_number->nb_bool = pg_array_nb_bool;
    t->tp_as_number->nb_int = pg_array_nb_int;
    t->tp_as_number->nb_float = pg_array_nb_float;
    t->tp_as_number->nb_index = pg_array_nb_index;
}
