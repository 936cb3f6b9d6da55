/* Searching and counting: searchsorted (and ndarray.searchsorted), bincount, and the counting
 * core of histogram and its range (_histogram, _minmax; pygpu/_sorting.py builds numpy.histogram
 * on them). NumPy's type rules and errors; the work is the kernels of kernels/search.h. */
#include "math/sort.h"
#include "array/advanced.h"
#include "runtime/stream.h"

/* ------------------------------------------------------------------ searchsorted */

/* The type searchsorted compares a and v in: NumPy's (a Python float is a float64, a Python int
 * takes a type that holds it, arrays promote). */
static int
search_type(PgArray *a, PyObject *v)
{
    if (PyBool_Check(v))
        return pg_promote_types(a->type, PG_BOOL);
    if (PyLong_Check(v))
        return pg_weak_scalar_type(PG_WEAK_INT, v, a->type, 1);
    if (PyFloat_Check(v))
        return pg_promote_types(a->type, PG_FLOAT64);
    if (PyComplex_Check(v))
        return pg_promote_types(a->type, PG_COMPLEX128);
    if (PgArray_Check(v))
        return pg_promote_types(a->type, ((PgArray *)v)->type);
    PyObject *h = PyArray_FromAny(v, NULL, 0, 0, 0, NULL);
    if (h == NULL)
        return -1;
    int t = pg_value_type_from_descr(PyArray_DESCR((PyArrayObject *)h));
    Py_DECREF(h);
    return t < 0 ? -1 : (int)pg_promote_types(a->type, t);
}

static int
parse_side(PyObject *side, int *right)
{
    *right = 0;
    if (side == NULL || side == Py_None)
        return 0;
    const char *s = PyUnicode_Check(side) ? PyUnicode_AsUTF8(side) : NULL;
    if (s != NULL && (strcmp(s, "left") == 0 || strcmp(s, "right") == 0)) {
        *right = s[0] == 'r';
        return 0;
    }
    if (s == NULL && PyErr_Occurred())
        return -1;
    PyErr_Format(PyExc_ValueError, "search side must be 'left' or 'right' (got %R)", side);
    return -1;
}

static int
require_1d(PgArray *a)
{
    if (a->ndim == 1)
        return 0;
    PyErr_SetString(PyExc_ValueError,
                    a->ndim == 0 ? "object of too small depth for desired array" : "object too deep for desired array");
    return -1;
}

static PyObject *
searchsorted_impl(PyObject *aobj, PyObject *vobj, PyObject *sideobj, PyObject *sorterobj)
{
    int right;
    PgArray *a = NULL, *v = NULL, *sorter = NULL, *out = NULL;
    PgBlock *flag = NULL;
    if (parse_side(sideobj, &right) < 0)
        return NULL;
    a = pg_asarray(aobj, -1, NULL, -1);
    if (a == NULL || require_1d(a) < 0)
        goto fail;
    int type = search_type(a, vobj);
    if (type < 0)
        goto fail;
    Py_SETREF(a, pg_asarray((PyObject *)a, type, NULL, -1));
    if (a == NULL || (v = pg_asarray(vobj, type, a->device, -1)) == NULL)
        goto fail;
    if (sorterobj != NULL && sorterobj != Py_None) {
        sorter = pg_asarray(sorterobj, -1, a->device, -1);
        if (sorter == NULL)
            goto fail;
        if (!PG_IS_INTEGER(sorter->type)) {
            PyErr_SetString(PyExc_TypeError, "sorter must only contain integers");
            goto fail;
        }
        if (sorter->ndim != 1 || sorter->shape[0] != a->shape[0]) {
            PyErr_SetString(PyExc_ValueError, "sorter.size must equal a.size");
            goto fail;
        }
    }
    out = pg_array_new(a->device, PG_INT64, v->ndim, v->shape, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto fail;
    pg_array_note_use(a);
    pg_array_note_use(v);
    if (sorter != NULL)
        pg_array_note_use(sorter);
    PgSearchArgs s;
    memset(&s, 0, sizeof s);
    s.ndim = v->ndim;
    s.type = type;
    s.right = right;
    s.sorter_type = sorter ? sorter->type : -1;
    s.size = pg_array_size(v);
    s.n = a->shape[0];
    s.a_stride = a->strides[0];
    s.sorter_stride = sorter ? sorter->strides[0] : 0;
    for (int d = 0; d < v->ndim; d++) {
        s.shape[d] = v->shape[d];
        s.strides[0][d] = v->strides[d];
    }
    s.a = a->data;
    s.v = v->data;
    s.sorter = sorter ? sorter->data : NULL;
    s.out = (int64_t *)out->data;
    PgDevice *dev = a->device;
    if (s.size > 0) {
        if (PG_DEVICE_CHECK(dev) < 0)
            goto fail;
        if (sorter != NULL) {
            if ((flag = pg_flag_new(dev)) == NULL)
                goto fail;
            s.err = (int32_t *)flag->ptr;
        }
        if (dev->backend->search(dev, &s, pg_stream_current_handle(dev)) < 0)
            goto fail;
        if (flag != NULL) {
            int bad = pg_flag_take(dev, flag);
            flag = NULL;
            if (bad < 0)
                goto fail;
            if (bad) {
                PyErr_SetString(PyExc_ValueError, "Sorter index out of range.");
                goto fail;
            }
        }
    }
    Py_DECREF(a);
    Py_DECREF(v);
    Py_XDECREF(sorter);
    return (PyObject *)out;
fail:
    if (flag != NULL)
        pg_pool_free(flag);
    Py_XDECREF(a);
    Py_XDECREF(v);
    Py_XDECREF(sorter);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *
py_searchsorted(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "v", "side", "sorter", NULL};
    PyObject *a, *v, *side = NULL, *sorter = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|OO:searchsorted", kwlist, &a, &v, &side, &sorter))
        return NULL;
    return searchsorted_impl(a, v, side, sorter);
}

static PyObject *
array_searchsorted(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"v", "side", "sorter", NULL};
    PyObject *v, *side = NULL, *sorter = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:searchsorted", kwlist, &v, &side, &sorter))
        return NULL;
    return searchsorted_impl(self, v, side, sorter);
}

/* ------------------------------------------------------------------ counting */

static void
hist_init(PgHistArgs *h, PgArray *x, PgArray *w, int op)
{
    pg_array_note_use(x);
    if (w != NULL)
        pg_array_note_use(w);
    memset(h, 0, sizeof *h);
    h->op = op;
    h->ndim = x->ndim;
    h->type = x->type;
    h->wtype = w ? w->type : -1;
    h->size = pg_array_size(x);
    h->x = x->data;
    h->w = w ? w->data : NULL;
    for (int d = 0; d < x->ndim; d++) {
        h->shape[d] = x->shape[d];
        h->strides[0][d] = x->strides[d];
        h->strides[1][d] = w ? w->strides[d] : 0;
    }
}

static int
hist_run(PgDevice *dev, PgHistArgs *h)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    return h->size == 0 ? 0 : dev->backend->histogram(dev, h, pg_stream_current_handle(dev));
}

/* The minimum and maximum keys of x (floats: NaN is the largest). Returns 0, 1 when x is
 * empty, -1 on error. */
static int
minmax_keys(PgArray *x, uint64_t keys[2])
{
    if (pg_array_size(x) == 0)
        return 1;
    PgDevice *dev = x->device;
    void *stream = pg_stream_current_handle(dev);
    uint64_t init[2] = {~(uint64_t)0, 0};
    PgBlock *b = pg_pool_alloc(dev, sizeof init, PG_MEM_DEVICE, stream);
    if (b == NULL)
        return -1;
    PgHistArgs h;
    hist_init(&h, x, NULL, PG_HIST_MINMAX);
    h.out = b->ptr;
    int rc = dev->backend->memcpy(dev, b->ptr, init, sizeof init, PG_COPY_H2D, stream) < 0 || hist_run(dev, &h) < 0 ||
                     dev->backend->memcpy(dev, keys, b->ptr, sizeof init, PG_COPY_D2H, stream) < 0 ||
                     dev->backend->stream_synchronize(dev, stream) < 0
                 ? -1
                 : 0;
    pg_pool_free(b);
    return rc;
}

/* The value whose key is k, as a Python scalar of type t (real types). */
static PyObject *
unkey_scalar(uint64_t k, int t)
{
    uint64_t buf[2] = {0, 0};
    pg_sort_unkey((char *)buf, t, k, 0);
    return pg_scalar_from_bytes(buf, t);
}

/* _minmax(a): (a.min(), a.max()) as Python scalars; NaN when a holds one; (None, None) when
 * a is empty. */
static PyObject *
py_minmax(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PyObject *r = NULL;
    uint64_t keys[2];
    if (PG_IS_COMPLEX(a->type)) {
        PyErr_SetString(PyExc_TypeError, "_minmax: complex arrays are not supported");
        goto done;
    }
    int rc = minmax_keys(a, keys);
    if (rc < 0)
        goto done;
    if (rc > 0) {
        r = Py_BuildValue("(OO)", Py_None, Py_None);
        goto done;
    }
    if (PG_IS_FLOAT(a->type) && keys[1] == (pg_key_bits(a->type) == 64 ? ~0ull : (1ull << pg_key_bits(a->type)) - 1))
        keys[0] = keys[1]; /* a NaN: both are NaN, as NumPy's min and max are */
    PyObject *lo = unkey_scalar(keys[0], a->type), *hi = unkey_scalar(keys[1], a->type);
    if (lo && hi)
        r = PyTuple_Pack(2, lo, hi);
    Py_XDECREF(lo);
    Py_XDECREF(hi);
done:
    Py_DECREF(a);
    return r;
}

static PyObject *
py_bincount(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"x", "weights", "minlength", NULL};
    PyObject *xobj, *wobj = Py_None, *minobj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:bincount", kwlist, &xobj, &wobj, &minobj))
        return NULL;
    int64_t minlength = 0;
    if (minobj != NULL && minobj != Py_None && pg_parse_int64(minobj, &minlength, "minlength") < 0)
        return NULL;
    if (minlength < 0) {
        PyErr_SetString(PyExc_ValueError, "'minlength' must not be negative");
        return NULL;
    }
    PgArray *x = pg_asarray(xobj, -1, NULL, -1), *w = NULL, *out = NULL;
    if (x == NULL || require_1d(x) < 0)
        goto fail;
    if (!PG_IS_INTEGER(x->type) && x->type != PG_BOOL) {
        if (PG_IS_COMPLEX(x->type)) {
            PyErr_SetString(PyExc_TypeError, "Cannot cast array data from dtype('complex128') to dtype('int64') "
                                             "according to the rule 'safe'");
            goto fail;
        }
        if (pg_numpy_version >= 20500) { /* the deprecation of NumPy 2.1 has expired */
            PyErr_Format(PyExc_TypeError, "Cannot cast array data from dtype('%s') to dtype('int64') according to "
                         "the rule 'safe'", pg_type_info[x->type].name);
            goto fail;
        }
        if (PyErr_WarnEx(PyExc_DeprecationWarning,
                         "Non-integer input passed to bincount. In a future version of NumPy, this will be an "
                         "error. (Deprecated NumPy 2.1)",
                         1) < 0)
            goto fail;
        Py_SETREF(x, pg_asarray((PyObject *)x, PG_INT64, NULL, -1));
        if (x == NULL)
            goto fail;
    }
    if (wobj != Py_None) {
        w = pg_asarray(wobj, -1, x->device, -1);
        if (w == NULL)
            goto fail;
        if (PG_IS_COMPLEX(w->type)) {
            PyErr_SetString(PyExc_TypeError, "Cannot cast array data from dtype('complex128') to dtype('float64') "
                                             "according to the rule 'safe'");
            goto fail;
        }
        if (w->ndim != 1 || w->shape[0] != x->shape[0]) {
            PyErr_SetString(PyExc_ValueError, "The weights and list don't have the same length.");
            goto fail;
        }
    }
    int64_t nbins = minlength;
    uint64_t keys[2];
    int rc = minmax_keys(x, keys);
    if (rc < 0)
        goto fail;
    if (rc == 0) {
        int64_t lo, hi;
        uint64_t buf[2] = {0, 0};
        pg_sort_unkey((char *)buf, x->type, keys[0], 0);
        lo = pg_load_i64((const char *)buf, x->type);
        pg_sort_unkey((char *)buf, x->type, keys[1], 0);
        hi = pg_load_i64((const char *)buf, x->type);
        if (lo < 0) {
            PyErr_SetString(PyExc_ValueError, "'list' argument must have no negative elements");
            goto fail;
        }
        if (hi + 1 > nbins)
            nbins = hi + 1;
    }
    out = pg_array_new(x->device, w ? PG_FLOAT64 : PG_INT64, 1, &nbins, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto fail;
    PyObject *zero = PyLong_FromLong(0);
    rc = zero ? pg_array_fill(out, zero) : -1;
    Py_XDECREF(zero);
    if (rc < 0)
        goto fail;
    PgHistArgs h;
    hist_init(&h, x, w, PG_HIST_BINCOUNT);
    h.nbins = nbins;
    h.out = out->data;
    if (hist_run(x->device, &h) < 0)
        goto fail;
    Py_DECREF(x);
    Py_XDECREF(w);
    return (PyObject *)out;
fail:
    Py_XDECREF(x);
    Py_XDECREF(w);
    Py_XDECREF(out);
    return NULL;
}

/* _histogram(a, edges, uniform, weights): counts of a's elements (any shape) in the bins between
 * edges (a host float64 array of nbins + 1; uniform: equal bins, NumPy's arithmetic), summing
 * weights (float64) when given; returns (counts, total in range) as arrays on a's device. */
static PyObject *
py_histogram_counts(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *aobj, *edgesobj, *wobj;
    int uniform;
    if (!PyArg_ParseTuple(args, "OOpO:_histogram", &aobj, &edgesobj, &uniform, &wobj))
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1), *w = NULL, *edges = NULL, *out = NULL, *total = NULL;
    PyObject *r = NULL, *zero = NULL;
    PyArrayObject *hedges = NULL;
    if (a == NULL)
        goto done;
    if (wobj != Py_None) {
        w = pg_asarray(wobj, -1, a->device, -1);
        if (w == NULL)
            goto done;
        if (w->ndim != a->ndim || memcmp(w->shape, a->shape, sizeof(int64_t) * (size_t)a->ndim) != 0) {
            PyErr_SetString(PyExc_ValueError, "weights should have the same shape as a.");
            goto done;
        }
    }
    hedges = (PyArrayObject *)PyArray_FromAny(edgesobj, PyArray_DescrFromType(NPY_FLOAT64), 1, 1,
                                              NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_FORCECAST, NULL);
    if (hedges == NULL)
        goto done;
    int64_t nbins = PyArray_DIM(hedges, 0) - 1, one = 1;
    if (nbins < 1) {
        PyErr_SetString(PyExc_ValueError, "_histogram: at least two edges are needed");
        goto done;
    }
    edges = pg_array_from_numpy(hedges, a->device, PG_FLOAT64);
    int otype = w ? PG_FLOAT64 : PG_INT64;
    out = pg_array_new(a->device, otype, 1, &nbins, 'C', PG_MEM_DEVICE);
    total = pg_array_new(a->device, otype, 0, &one, 'C', PG_MEM_DEVICE);
    zero = PyLong_FromLong(0);
    if (edges == NULL || out == NULL || total == NULL || zero == NULL || pg_array_fill(out, zero) < 0 ||
        pg_array_fill(total, zero) < 0)
        goto done;
    const double *he = PyArray_DATA(hedges);
    PgHistArgs h;
    hist_init(&h, a, w, uniform ? PG_HIST_UNIFORM : PG_HIST_EDGES);
    h.nbins = nbins;
    h.edges = (const double *)edges->data;
    h.first = he[0];
    h.last = he[nbins];
    h.norm = (double)nbins / (he[nbins] - he[0]);
    h.out = out->data;
    h.total = total->data;
    if (hist_run(a->device, &h) < 0)
        goto done;
    r = PyTuple_Pack(2, (PyObject *)out, (PyObject *)total);
done:
    Py_XDECREF(a);
    Py_XDECREF(w);
    Py_XDECREF(edges);
    Py_XDECREF(out);
    Py_XDECREF(total);
    Py_XDECREF(zero);
    Py_XDECREF(hedges);
    return r;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef pg_search_module_methods[] = {
    {"searchsorted", KW(py_searchsorted),
     "searchsorted($module, a, v, side='left', sorter=None)\n--\n\nwhere v's elements would go in the sorted 1-d a (int64)."},
    {"bincount", KW(py_bincount),
     "bincount($module, x, weights=None, minlength=0)\n--\n\nthe count (or summed weight) of each value of the non-negative "
     "integers x."},
    {"_histogram", py_histogram_counts, METH_VARARGS, NULL},
    {"_minmax", py_minmax, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef pg_array_methods_search[] = {
    {"searchsorted", KW(array_searchsorted),
     "searchsorted($self, v, side='left', sorter=None)\n--\n\nwhere v's elements would go in this sorted 1-d array."},
    {NULL, NULL, 0, NULL},
};
