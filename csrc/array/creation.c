/* Array creation: empty/zeros/ones/full and their _like forms, asarray/array. Written with
 * METH_FASTCALL and few allocations: `pygpu.empty((1000,))` is on the benchmark's short list. */
#include "array/array.h"
#include "array/interop.h"
#include "runtime/stream.h"
#include "core/docstrings.h"

/* Keyword arguments shared by the creation functions, parsed by hand for speed. */
typedef struct {
    PyObject *shape, *dtype, *order, *device, *copy, *fill, *like;
} CreationArgs;

static int
parse_creation_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                    const char *const *names, PyObject **slots[], int nrequired)
{
    int nnames = 0;
    while (names[nnames])
        nnames++;
    if (nargs > nnames) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fname, nnames, nargs);
        return -1;
    }
    for (int i = 0; i < nnames; i++)
        *slots[i] = NULL;
    for (Py_ssize_t i = 0; i < nargs; i++)
        *slots[i] = args[i];
    if (kwnames) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nkw; k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            int found = -1;
            for (int i = 0; i < nnames; i++) {
                if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
                return -1;
            }
            if (*slots[found] != NULL) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[found]);
                return -1;
            }
            *slots[found] = args[nargs + k];
        }
    }
    for (int i = 0; i < nrequired; i++) {
        if (*slots[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

/* The default dtype of creation functions without one: float64, as NumPy. */
#define DEFAULT_TYPE PG_FLOAT64

/* a filled with fill: a number, or an array-like broadcast into it (NumPy's full([3], [1, 2, 3])).
 * A number converts as NumPy's full copies it, casting='unsafe': a NumPy scalar or a float or
 * complex by NumPy's cast (np.int64(300) into int8 is 44, 1+2j into float32 1.0), a Python int
 * by its value (NEP 50: 300 into int8 is an OverflowError; into bool, beyond int64 too). */
static int
fill_with(PgArray *a, PyObject *fill)
{
    int array_like = (PgArray_Check(fill) && ((PgArray *)fill)->ndim > 0) ||
                     (PyArray_Check(fill) && PyArray_NDIM((PyArrayObject *)fill) > 0) || PyList_Check(fill) ||
                     PyTuple_Check(fill);
    if (array_like)
        return PyObject_SetItem((PyObject *)a, Py_Ellipsis, fill);
    int inexact = PG_IS_FLOAT(a->type) || PG_IS_COMPLEX(a->type);
    if (PgArray_Check(fill) || PyLong_Check(fill) || (PyFloat_Check(fill) && inexact) ||
        (PyComplex_Check(fill) && PG_IS_COMPLEX(a->type))) {
        if (a->type == PG_BOOL && PyLong_Check(fill) && PyLong_AsLongLong(fill) == -1 && PyErr_Occurred())
            return -1;
        return pg_array_fill(a, fill);
    }
    PyArrayObject *v = (PyArrayObject *)PyArray_FROM_O(fill);
    if (v == NULL)
        return -1;
    PyArray_Descr *d = pg_type_descr(a->type);
    Py_INCREF(d); /* PyArray_CastToType steals it */
    PyArrayObject *c = (PyArrayObject *)PyArray_CastToType(v, d, 0);
    Py_DECREF(v);
    if (c == NULL)
        return -1;
    PyObject *scalar = PyArray_ToScalar(PyArray_DATA(c), c);
    Py_DECREF(c);
    if (scalar == NULL)
        return -1;
    int rc = pg_array_fill(a, scalar);
    Py_DECREF(scalar);
    return rc;
}

static PgArray *
create(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int with_fill,
       PyObject *fill_default)
{
    static const char *const names_plain[] = {"shape", "dtype", "order", "device", NULL};
    static const char *const names_fill[] = {"shape", "fill_value", "dtype", "order", "device", NULL};
    CreationArgs c;
    int ndim;
    int64_t shape[PG_MAXDIMS];
    char order;
    if (with_fill) {
        PyObject **slots[] = {&c.shape, &c.fill, &c.dtype, &c.order, &c.device};
        if (parse_creation_args(fname, args, nargs, kwnames, names_fill, slots, 2) < 0)
            return NULL;
    } else {
        PyObject **slots[] = {&c.shape, &c.dtype, &c.order, &c.device};
        if (parse_creation_args(fname, args, nargs, kwnames, names_plain, slots, 1) < 0)
            return NULL;
        c.fill = fill_default;
    }
    if (pg_parse_shape(c.shape, &ndim, shape) < 0)
        return NULL;
    int type;
    if (c.dtype == NULL || c.dtype == Py_None) {
        /* full() without a dtype takes the fill value's, as NumPy does */
        if (with_fill && c.fill && PgArray_Check(c.fill)) {
            type = ((PgArray *)c.fill)->type;
        } else if (with_fill && c.fill) {
            PyArrayObject *v = (PyArrayObject *)PyArray_FROM_O(c.fill);
            if (v == NULL)
                return NULL;
            type = pg_value_type_from_descr(PyArray_DESCR(v));
            Py_DECREF(v);
            if (type < 0)
                return NULL;
        } else {
            type = DEFAULT_TYPE;
        }
    } else if ((type = pg_type_from_object(c.dtype, DEFAULT_TYPE)) < 0) {
        return NULL;
    }
    if (pg_order_from_object(c.order, "CF", 'C', &order) < 0)
        return NULL;
    PgDevice *dev = pg_device_from_object(c.device);
    if (dev == NULL)
        return NULL;
    PgArray *a = pg_array_new(dev, type, ndim, shape, order, PG_MEM_DEVICE);
    if (a && c.fill && fill_with(a, c.fill) < 0)
        Py_CLEAR(a);
    return a;
}

static PyObject *
py_empty(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return (PyObject *)create("empty", args, nargs, kwnames, 0, NULL);
}

/* ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None): NumPy's and CuPy's
 * constructor (cupy.ndarray(shape, dtype), memptr=None), an uninitialised array on the current
 * device; memory of one's own (buffer=, memptr=, strides=) is not taken: asarray and the
 * interop protocols take existing memory */
PyObject *
pg_array_construct(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(type);
    static char *kwlist[] = {"shape", "dtype", "buffer", "offset", "strides", "order", "memptr", NULL};
    PyObject *shape, *dtype = Py_None, *buffer = Py_None, *offset = Py_None, *strides = Py_None, *order = Py_None,
                     *memptr = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOOOO:ndarray", kwlist, &shape, &dtype, &buffer, &offset,
                                     &strides, &order, &memptr))
        return NULL;
    if (buffer != Py_None || memptr != Py_None || strides != Py_None ||
        (offset != Py_None && !(PyLong_Check(offset) && PyLong_AsLong(offset) == 0))) {
        PyErr_SetString(PyExc_TypeError, "pygpu.ndarray(shape, dtype, order=) makes a new array; for existing memory "
                                         "use pygpu.asarray (buffers, DLPack, __cuda_array_interface__)");
        return NULL;
    }
    static PyObject *dtype_name, *order_name;
    if (dtype_name == NULL && ((dtype_name = PyUnicode_InternFromString("dtype")) == NULL ||
                               (order_name = PyUnicode_InternFromString("order")) == NULL))
        return NULL;
    PyObject *values[3] = {shape, NULL, NULL}, *keys[2];
    Py_ssize_t nkw = 0;
    if (dtype != Py_None) {
        values[1 + nkw] = dtype;
        keys[nkw++] = dtype_name;
    }
    if (order != Py_None) {
        values[1 + nkw] = order;
        keys[nkw++] = order_name;
    }
    PyObject *kwnames = nkw == 2 ? PyTuple_Pack(2, keys[0], keys[1]) : nkw == 1 ? PyTuple_Pack(1, keys[0]) : NULL;
    if (nkw && kwnames == NULL)
        return NULL;
    PyObject *a = (PyObject *)create("ndarray", values, 1, kwnames, 0, NULL);
    Py_XDECREF(kwnames);
    return a;
}

static PyObject *
py_zeros(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static PyObject *zero;
    if (zero == NULL && (zero = PyLong_FromLong(0)) == NULL)
        return NULL;
    return (PyObject *)create("zeros", args, nargs, kwnames, 0, zero);
}

static PyObject *
py_ones(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static PyObject *one;
    if (one == NULL && (one = PyLong_FromLong(1)) == NULL)
        return NULL;
    return (PyObject *)create("ones", args, nargs, kwnames, 0, one);
}

static PyObject *
py_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return (PyObject *)create("full", args, nargs, kwnames, 1, NULL);
}

/* empty_like(a, dtype=None, order='K', shape=None, device=None) and friends. `a` may be any
 * array-like; its shape and dtype are taken, and its device when it is a pygpu array. */
static PgArray *
create_like(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int with_fill,
            PyObject *fill_default)
{
    static const char *const names_plain[] = {"a", "dtype", "order", "shape", "device", NULL};
    static const char *const names_fill[] = {"a", "fill_value", "dtype", "order", "shape", "device", NULL};
    CreationArgs c;
    if (with_fill) {
        PyObject **slots[] = {&c.like, &c.fill, &c.dtype, &c.order, &c.shape, &c.device};
        if (parse_creation_args(fname, args, nargs, kwnames, names_fill, slots, 2) < 0)
            return NULL;
    } else {
        PyObject **slots[] = {&c.like, &c.dtype, &c.order, &c.shape, &c.device};
        if (parse_creation_args(fname, args, nargs, kwnames, names_plain, slots, 1) < 0)
            return NULL;
        c.fill = fill_default;
    }
    PgArray *like = NULL;
    PgArray *result = NULL;
    if (PgArray_Check(c.like)) {
        like = (PgArray *)Py_NewRef(c.like);
    } else {
        PyObject *host = PyArray_FROM_O(c.like);
        if (host == NULL)
            return NULL;
        like = pg_array_from_numpy((PyArrayObject *)host, pg_device_cpu(), -1);
        Py_DECREF(host);
        if (like == NULL)
            return NULL;
    }
    int type = pg_type_from_object(c.dtype, like->type);
    char order;
    PgDevice *dev = NULL;
    if (type < 0 || pg_order_from_object(c.order, "CFAK", 'K', &order) < 0)
        goto done;
    if (c.device && c.device != Py_None)
        dev = pg_device_from_object(c.device);
    else
        dev = PgArray_Check(c.like) ? like->device : pg_device_current();
    if (dev == NULL)
        goto done;
    if (c.shape && c.shape != Py_None) {
        int ndim;
        int64_t shape[PG_MAXDIMS];
        if (pg_parse_shape(c.shape, &ndim, shape) < 0)
            goto done;
        /* NumPy's new shape: 'A' and 'K' are F for an F (not C) `like`; 'K' of the same number
         * of dimensions lays the axes out in the order of like's strides */
        int like_f = (like->flags & PG_F_CONTIGUOUS) && !(like->flags & PG_C_CONTIGUOUS);
        if (order == 'K' && ndim == like->ndim && !(like->flags & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS)))
            result = pg_array_new_in_stride_order(dev, type, ndim, shape, like->strides, PG_MEM_DEVICE);
        else
            result = pg_array_new(dev, type, ndim, shape,
                                  order == 'F' || ((order == 'A' || (order == 'K' && ndim == like->ndim)) && like_f)
                                      ? 'F' : 'C', PG_MEM_DEVICE);
    } else if (dev == like->device) {
        result = pg_array_new_like(like, type, order);
    } else if (order == 'K' && !(like->flags & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS))) {
        result = pg_array_new_in_stride_order(dev, type, like->ndim, like->shape, like->strides, PG_MEM_DEVICE);
    } else {
        char o = order;
        if (o == 'K' || o == 'A')
            o = (like->flags & PG_F_CONTIGUOUS) && !(like->flags & PG_C_CONTIGUOUS) ? 'F' : 'C';
        result = pg_array_new(dev, type, like->ndim, like->shape, o, PG_MEM_DEVICE);
    }
    if (result && c.fill && fill_with(result, c.fill) < 0)
        Py_CLEAR(result);
done:
    Py_DECREF(like);
    return result;
}

static PyObject *
py_empty_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return (PyObject *)create_like("empty_like", args, nargs, kwnames, 0, NULL);
}

static PyObject *
py_zeros_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static PyObject *zero;
    if (zero == NULL && (zero = PyLong_FromLong(0)) == NULL)
        return NULL;
    return (PyObject *)create_like("zeros_like", args, nargs, kwnames, 0, zero);
}

static PyObject *
py_ones_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static PyObject *one;
    if (one == NULL && (one = PyLong_FromLong(1)) == NULL)
        return NULL;
    return (PyObject *)create_like("ones_like", args, nargs, kwnames, 0, one);
}

static PyObject *
py_full_like(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return (PyObject *)create_like("full_like", args, nargs, kwnames, 1, NULL);
}

/* ------------------------------------------------------------------ asarray */

/* copy: 1 always, 0 never (ValueError if one is needed), -1 when needed. */
PgArray *
pg_asarray(PyObject *obj, int type, PgDevice *dev, int copy)
{
    if (PgArray_Check(obj)) {
        PgArray *a = (PgArray *)obj;
        if (dev == NULL)
            dev = a->device;
        int need = copy == 1 || dev != a->device || (type >= 0 && type != a->type);
        if (!need)
            return (PgArray *)Py_NewRef(obj);
        if (copy == 0) {
            PyErr_SetString(PyExc_ValueError, dev != a->device
                            ? "Unable to avoid copy while creating an array as requested: the array is on another device."
                            : "Unable to avoid copy while creating an array as requested.");
            return NULL;
        }
        return pg_array_copy(a, type, 'K', dev);
    }
    if (dev == NULL)
        dev = pg_device_current();
    PgArray *imported = NULL;
    /* NumPy arrays offer __dlpack__ too, but asarray copies host data on every device, so that
     * code written for a GPU behaves the same on the CPU device (use from_dlpack to share). */
    int rc = PyArray_Check(obj) ? 0 : pg_interop_import(obj, &imported);
    if (rc < 0)
        return NULL;
    if (rc > 0) {
        /* zero-copy import; a copy only for another device, another dtype or copy=True */
        PgArray *r = pg_asarray((PyObject *)imported, type, dev, copy);
        Py_DECREF(imported);
        return r;
    }
    if (copy == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "Unable to avoid copy while creating an array as requested: host data must be copied "
                        "to a pygpu device.");
        return NULL;
    }
    PyObject *host;
    if (PyArray_Check(obj))
        host = Py_NewRef(obj);
    else
        host = PyArray_FromAny(obj, type >= 0 ? (Py_INCREF(pg_type_descr(type)), pg_type_descr(type)) : NULL, 0, 0,
                               0, NULL);
    if (host == NULL)
        return NULL;
    PgArray *a = pg_array_from_numpy((PyArrayObject *)host, dev, type);
    Py_DECREF(host);
    return a;
}

static PyObject *
asarray_impl(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int copy_default)
{
    static const char *const names[] = {"obj", "dtype", "device", "copy", "order", NULL};
    PyObject *obj, *dtype, *device, *copyobj, *order;
    PyObject **slots[] = {&obj, &dtype, &device, &copyobj, &order};
    if (parse_creation_args(fname, args, nargs, kwnames, names, slots, 1) < 0)
        return NULL;
    int type = pg_type_from_object(dtype, -1);
    if (type < 0 && PyErr_Occurred())
        return NULL;
    int copy = copy_default;
    if (copyobj && pg_parse_copy(copyobj, &copy) < 0)
        return NULL;
    char ord;
    if (pg_order_from_object(order, "CFAK", 'K', &ord) < 0)
        return NULL;
    PgDevice *dev = NULL;
    if (device && device != Py_None && (dev = pg_device_from_object(device)) == NULL)
        return NULL;
    PgArray *a = pg_asarray(obj, type, dev, copy);
    if (a == NULL)
        return NULL;
    /* an explicit C or F order asks for that layout */
    if ((ord == 'C' && !(a->flags & PG_C_CONTIGUOUS)) || (ord == 'F' && !(a->flags & PG_F_CONTIGUOUS))) {
        if (copy == 0) {
            Py_DECREF(a);
            PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an array as requested.");
            return NULL;
        }
        PgArray *c = pg_array_copy(a, -1, ord, NULL);
        Py_DECREF(a);
        a = c;
    }
    return (PyObject *)a;
}

static PyObject *
py_asarray(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return asarray_impl("asarray", args, nargs, kwnames, -1);
}

static PyObject *
py_array(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    return asarray_impl("array", args, nargs, kwnames, 1);
}

#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS
PyMethodDef pg_creation_methods[] = {
    {"empty", FASTCALL(py_empty), PG_DOC_EMPTY},
    {"zeros", FASTCALL(py_zeros), PG_DOC_ZEROS},
    {"ones", FASTCALL(py_ones), PG_DOC_ONES},
    {"full", FASTCALL(py_full), PG_DOC_FULL},
    {"empty_like", FASTCALL(py_empty_like), PG_DOC_EMPTY_LIKE},
    {"zeros_like", FASTCALL(py_zeros_like), PG_DOC_ZEROS_LIKE},
    {"ones_like", FASTCALL(py_ones_like), PG_DOC_ONES_LIKE},
    {"full_like", FASTCALL(py_full_like), PG_DOC_FULL_LIKE},
    {"asarray", FASTCALL(py_asarray), PG_DOC_ASARRAY},
    {"array", FASTCALL(py_array), "array($module, obj, dtype=None, device=None, copy=True, order='K')\n--\n\nas asarray, copying by default."},
    {NULL, NULL, 0, NULL},
};
