/* The CPU backend's sort: NumPy's own sort, argsort, partition and lexsort run on the host
 * buffers through the NumPy C API (zero-copy views of pygpu's memory). NumPy has no descending
 * order: it is the reverse of an ascending sort of the reversed rows (the array API's stable
 * descending order, NaNs first).
 *
 * pygpu._core._set_cpu_sort("radix") makes the CPU sort like the CUDA backend instead
 * (runtime/sort_radix.c, with kernels/sort_cpu.c's radix sort): the tests run that logic this
 * way on machines without a GPU. */
#include "runtime/cpu_backend.h"
#include "runtime/sort_radix.h"
#include "core/dtype.h"

static int use_radix;

/* ------------------------------------------------------------------ through the radix path */

static int
cpu_radix(PgDevice *dev, void *keys[2], int64_t *vals[2], int64_t n, int kbytes, int bits, int *sel, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    void *k[2] = {keys[*sel], keys[1 - *sel]};
    int64_t *v[2] = {vals[0] ? vals[*sel] : NULL, vals[0] ? vals[1 - *sel] : NULL};
    if (pg_cpu_radix_sort(k, v, n, kbytes, bits))
        *sel = 1 - *sel;
    return 0;
}

typedef struct {
    const PgSortStep *s;
    int op;
} StepRun;

static void
step_run(const void *ctx, int64_t begin, int64_t end)
{
    const StepRun *r = ctx;
    pg_cpu_sort_step(r->s, r->op, begin, end);
}

static int
cpu_step(PgDevice *dev, int op, const PgSortStep *s, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    StepRun r = {s, op};
    pg_cpu_parallel_for(s->size, PG_CPU_PARALLEL_MIN, step_run, &r);
    return 0;
}

static const PgRadixOps cpu_radix_ops = {cpu_radix, cpu_step};

/* ------------------------------------------------------------------ through NumPy */

/* A NumPy array over host memory (no copy; the caller keeps the memory alive). */
static PyArrayObject *
view_of(char *data, int type, int ndim, const int64_t *shape, const int64_t *strides, int writeable)
{
    PyArray_Descr *d = pg_type_descr(type);
    Py_INCREF(d);
    return (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, d, ndim, (npy_intp *)shape, (npy_intp *)strides,
                                                 data, writeable ? NPY_ARRAY_WRITEABLE : 0, NULL);
}

/* The key's view with each row reversed (the last axis walked backwards). */
static PyArrayObject *
key_view(const PgSortArgs *a, const PgOperand *key, int reversed)
{
    int64_t strides[PG_MAXDIMS];
    char *data = key->data;
    int last = a->ndim - 1;
    memcpy(strides, key->strides, sizeof(int64_t) * (size_t)a->ndim);
    if (reversed && a->shape[last] > 0) {
        data += (a->shape[last] - 1) * strides[last];
        strides[last] = -strides[last];
    }
    return view_of(data, key->type, a->ndim, a->shape, strides, 0);
}

static PyArrayObject *
out_view(const PgSortArgs *a, int type)
{
    int64_t strides[PG_MAXDIMS];
    pg_fill_strides(a->ndim, a->shape, pg_type_info[type].itemsize, 'C', strides);
    return view_of(a->out, type, a->ndim, a->shape, strides, 1);
}

static PyObject *
kth_array(const PgSortArgs *a)
{
    npy_intp n = a->nkth;
    PyObject *k = PyArray_SimpleNew(1, &n, NPY_INTP);
    if (k != NULL)
        memcpy(PyArray_DATA((PyArrayObject *)k), a->kth, sizeof(int64_t) * (size_t)n);
    return k;
}

/* out[r, j] = len - 1 - res[r, len - 1 - j]: indices into the reversed rows, of the reversed
 * order, made indices into the rows. */
static void
unreverse_indices(int64_t *out, const int64_t *res, int64_t n, int64_t len)
{
    for (int64_t r = 0; r < n; r += len)
        for (int64_t j = 0; j < len; j++)
            out[r + j] = len - 1 - res[r + len - 1 - j];
}

/* Reverses each row of a C-contiguous array in place. */
static void
reverse_rows(char *data, int64_t n, int64_t len, int itemsize)
{
    char tmp[16];
    for (int64_t r = 0; r < n; r += len) {
        char *lo = data + r * itemsize, *hi = data + (r + len - 1) * itemsize;
        for (; lo < hi; lo += itemsize, hi -= itemsize) {
            memcpy(tmp, lo, (size_t)itemsize);
            memcpy(lo, hi, (size_t)itemsize);
            memcpy(hi, tmp, (size_t)itemsize);
        }
    }
}

static int
numpy_sort(const PgSortArgs *a)
{
    NPY_SORTKIND kind = (a->flags & PG_SORT_STABLE) ? NPY_STABLESORT : NPY_QUICKSORT;
    int desc = (a->flags & PG_SORT_DESCENDING) != 0;
    int last = a->ndim - 1;
    int64_t n = pg_shape_size(a->ndim, a->shape);
    PyArrayObject *in = NULL, *out = NULL;
    PyObject *res = NULL, *kth = NULL, *tuple = NULL;
    int rc = -1;
    if (a->nkeys > 1) {
        tuple = PyTuple_New(a->nkeys);
        if (tuple == NULL)
            goto done;
        for (int k = 0; k < a->nkeys; k++) {
            PyArrayObject *v = key_view(a, &a->keys[k], 0);
            if (v == NULL)
                goto done;
            PyTuple_SET_ITEM(tuple, k, (PyObject *)v);
        }
        if ((out = out_view(a, PG_INT64)) == NULL || (res = PyArray_LexSort(tuple, last)) == NULL)
            goto done;
        rc = PyArray_CopyInto(out, (PyArrayObject *)res);
        goto done;
    }
    if (a->nkth > 0 && (kth = kth_array(a)) == NULL)
        goto done;
    in = key_view(a, &a->keys[0], desc);
    if (in == NULL)
        goto done;
    if (a->flags & PG_SORT_INDICES) {
        res = kth ? PyArray_ArgPartition(in, (PyArrayObject *)kth, last, NPY_INTROSELECT)
                  : PyArray_ArgSort(in, last, kind);
        if (res == NULL || (out = out_view(a, PG_INT64)) == NULL)
            goto done;
        if (desc) {
            PyArrayObject *c = (PyArrayObject *)PyArray_NewCopy((PyArrayObject *)res, NPY_CORDER);
            if (c == NULL)
                goto done;
            unreverse_indices((int64_t *)a->out, (const int64_t *)PyArray_DATA(c), n, a->shape[last]);
            Py_DECREF(c);
            rc = 0;
        } else {
            rc = PyArray_CopyInto(out, (PyArrayObject *)res);
        }
        goto done;
    }
    out = out_view(a, a->keys[0].type);
    if (out == NULL)
        goto done;
    /* sorting in place needs no copy */
    if ((char *)a->keys[0].data != a->out || desc || !PyArray_IS_C_CONTIGUOUS(in)) {
        if (PyArray_CopyInto(out, in) < 0)
            goto done;
    }
    if ((kth ? PyArray_Partition(out, (PyArrayObject *)kth, last, NPY_INTROSELECT) : PyArray_Sort(out, last, kind)) < 0)
        goto done;
    if (desc)
        reverse_rows(a->out, n, a->shape[last], pg_type_info[a->keys[0].type].itemsize);
    rc = 0;
done:
    Py_XDECREF(in);
    Py_XDECREF(out);
    Py_XDECREF(res);
    Py_XDECREF(kth);
    Py_XDECREF(tuple);
    return rc;
}

int
pg_cpu_sort(PgDevice *dev, const PgSortArgs *a, void *stream)
{
    if (use_radix)
        return pg_radix_sort(dev, &cpu_radix_ops, a, stream);
    if (pg_shape_size(a->ndim, a->shape) == 0)
        return 0;
    return numpy_sort(a);
}

/* _set_cpu_sort("numpy" | "radix"): which way the CPU backend sorts (for tests); returns the
 * previous way. */
static PyObject *
py_set_cpu_sort(PyObject *m, PyObject *arg)
{
    PG_UNUSED(m);
    const char *s = PyUnicode_AsUTF8(arg);
    if (s == NULL)
        return NULL;
    if (strcmp(s, "numpy") != 0 && strcmp(s, "radix") != 0) {
        PyErr_SetString(PyExc_ValueError, "_set_cpu_sort: 'numpy' or 'radix'");
        return NULL;
    }
    int old = use_radix;
    use_radix = strcmp(s, "radix") == 0;
    return PyUnicode_FromString(old ? "radix" : "numpy");
}

PyMethodDef pg_cpu_sort_module_methods[] = {
    {"_set_cpu_sort", py_set_cpu_sort, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
