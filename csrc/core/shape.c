#include "core/shape.h"
#include "core/dtype.h"

/* 1 if obj is one integer (an int, an object with __index__ that is no sequence, or a 0-d
 * integer array: pygpu's reductions give those where NumPy gives scalars, and both take them as
 * a length), 0 if not, -1 with an exception. */
static int
is_single_index(PyObject *obj)
{
    if (PyLong_Check(obj))
        return 1;
    if (!PyIndex_Check(obj))
        return 0;
    if (!PySequence_Check(obj))
        return 1;
    if (PyObject_Size(obj) >= 0)
        return 0;
    if (!PyErr_ExceptionMatches(PyExc_TypeError))
        return -1;
    PyErr_Clear(); /* "len() of unsized object": a 0-d array */
    return 1;
}

int
pg_parse_shape(PyObject *obj, int *ndim, int64_t *shape)
{
    PyObject *seq = NULL;
    int result = -1;
    int single = is_single_index(obj);
    if (single < 0)
        return -1;
    if (single) {
        Py_ssize_t v = PyNumber_AsSsize_t(obj, PyExc_ValueError);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0) {
            PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
            return -1;
        }
        *ndim = 1;
        shape[0] = v;
        return 0;
    }
    seq = PySequence_Fast(obj, "expected a sequence of integers or a single integer");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d, found %zd",
                     PG_MAXDIMS, n);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyIndex_Check(item)) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object cannot be interpreted as an integer",
                         Py_TYPE(item)->tp_name);
            goto done;
        }
        Py_ssize_t v = PyNumber_AsSsize_t(item, PyExc_ValueError);
        if (v == -1 && PyErr_Occurred())
            goto done;
        if (v < 0) {
            PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
            goto done;
        }
        shape[i] = v;
    }
    *ndim = (int)n;
    result = 0;
done:
    Py_DECREF(seq);
    return result;
}

int64_t
pg_shape_size(int ndim, const int64_t *shape)
{
    int64_t size = 1;
    int overflow = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0)
            return 0;
        if (__builtin_mul_overflow(size, shape[i], &size))
            overflow = 1;
    }
    if (overflow)
        return pg_too_big_error();
    return size;
}

int64_t
pg_too_big_error(void)
{
    PyErr_SetString(PyExc_ValueError,
                    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    return -1;
}

void
pg_fill_strides(int ndim, const int64_t *shape, int64_t itemsize, char order, int64_t *strides)
{
    int64_t s = itemsize;
    if (order == 'F') {
        for (int i = 0; i < ndim; i++) {
            strides[i] = s;
            s *= shape[i] ? shape[i] : 1;
        }
    } else {
        for (int i = ndim - 1; i >= 0; i--) {
            strides[i] = s;
            s *= shape[i] ? shape[i] : 1;
        }
    }
}

int
pg_is_c_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int64_t s = itemsize;
    for (int i = 0; i < ndim; i++)   /* an empty array is contiguous whatever its strides */
        if (shape[i] == 0)
            return 1;
    for (int i = ndim - 1; i >= 0; i--) {
        if (shape[i] != 1) {
            if (strides[i] != s)
                return 0;
            s *= shape[i];
        }
    }
    return 1;
}

int
pg_is_f_contiguous(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize)
{
    int64_t s = itemsize;
    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] != 1) {
            if (strides[i] != s)
                return 0;
            s *= shape[i];
        }
    }
    return 1;
}

PyObject *
pg_shape_tuple(int ndim, const int64_t *shape)
{
    PyObject *t = PyTuple_New(ndim);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromLongLong(shape[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

PyObject *
pg_shape_repr(int ndim, const int64_t *shape)
{
    char buf[PG_MAXDIMS * 22 + 4];
    size_t pos = 0;
    buf[pos++] = '(';
    for (int i = 0; i < ndim; i++)
        pos += (size_t)snprintf(buf + pos, sizeof(buf) - pos, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (ndim == 1)
        buf[pos++] = ',';
    buf[pos++] = ')';
    buf[pos] = 0;
    return PyUnicode_FromString(buf);
}

int
pg_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes, int *out_ndim, int64_t *out_shape)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (ndims[k] > nd)
            nd = ndims[k];
    for (int i = 0; i < nd; i++)
        out_shape[i] = 1;
    for (int k = 0; k < n; k++) {
        int off = nd - ndims[k];
        for (int i = 0; i < ndims[k]; i++) {
            int64_t d = shapes[k][i];
            int64_t *o = &out_shape[off + i];
            if (d == *o || d == 1)
                continue;
            if (*o == 1) {
                *o = d;
                continue;
            }
            /* NumPy's wording, each shape followed by a space */
            PyObject *msg = PyUnicode_FromString("operands could not be broadcast together with shapes ");
            for (int j = 0; msg && j < n; j++) {
                PyObject *r = pg_shape_repr(ndims[j], shapes[j]);
                PyObject *joined = r ? PyUnicode_FromFormat("%U%U ", msg, r) : NULL;
                Py_XDECREF(r);
                Py_SETREF(msg, joined);
            }
            if (msg) {
                PyErr_SetObject(PyExc_ValueError, msg);
                Py_DECREF(msg);
            }
            return -1;
        }
    }
    *out_ndim = nd;
    return 0;
}

int
pg_loop_layout(int nargs, const PgOperand *ops, int64_t *shape_out, int64_t (*strides_out)[PG_MAXDIMS],
               int64_t *size)
{
    const PgOperand *out = &ops[nargs - 1];
    int nd = out->ndim;
    int perm[PG_MAXDIMS];
    int64_t *shape = shape_out;
    int64_t (*strides)[PG_MAXDIMS] = strides_out;

    *size = 1;
    for (int i = 0; i < nd; i++)
        *size *= out->shape[i];
    /* Order axes so the output's largest |stride| comes first (stable insertion sort): an
     * F-ordered or transposed output then walks memory in order and merges like a C one. */
    for (int i = 0; i < nd; i++) {
        int j = i;
        int64_t si = out->strides[i] < 0 ? -out->strides[i] : out->strides[i];
        while (j > 0) {
            int64_t sp = out->strides[perm[j - 1]];
            if (sp < 0)
                sp = -sp;
            if (sp >= si || out->shape[i] == 1)
                break;
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = i;
    }
    /* Broadcast every operand to the output's axes in that order; drop length-1 axes. */
    int m = 0;
    for (int pi = 0; pi < nd; pi++) {
        int i = perm[pi];
        if (out->shape[i] == 1)
            continue;
        shape[m] = out->shape[i];
        for (int k = 0; k < nargs; k++) {
            int off = nd - ops[k].ndim;
            int64_t st = 0;
            if (ops[k].data && i >= off && ops[k].shape[i - off] != 1)
                st = ops[k].strides[i - off];
            strides[k][m] = st;
        }
        m++;
    }
    /* Merge axis j into j-1 when every operand steps through them as one. */
    int w = 0;
    for (int j = 0; j < m; j++) {
        if (w > 0) {
            int mergeable = 1;
            for (int k = 0; k < nargs && mergeable; k++)
                mergeable = strides[k][w - 1] == strides[k][j] * shape[j];
            if (mergeable) {
                shape[w - 1] *= shape[j];
                for (int k = 0; k < nargs; k++)
                    strides[k][w - 1] = strides[k][j];
                continue;
            }
        }
        shape[w] = shape[j];
        for (int k = 0; k < nargs; k++)
            strides[k][w] = strides[k][j];
        w++;
    }
    return w;
}

void
pg_loop_prepare(PgLoopArgs *a, int nargs, const PgOperand *ops)
{
    int64_t strides[PG_MAXARGS][PG_MAXDIMS];
    a->nargs = nargs;
    a->ndim = pg_loop_layout(nargs, ops, a->shape, strides, &a->size);
    for (int k = 0; k < nargs; k++) {
        a->data[k] = ops[k].data;
        a->types[k] = ops[k].type;
        a->scalar[k][0] = ops[k].scalar[0];
        a->scalar[k][1] = ops[k].scalar[1];
        for (int d = 0; d < a->ndim; d++)
            a->strides[k][d] = strides[k][d];
    }
    for (int k = nargs; k < PG_MAXARGS; k++) {
        a->data[k] = NULL;
        a->types[k] = 0;
        for (int d = 0; d < a->ndim; d++)
            a->strides[k][d] = 0;
    }
}

int
pg_loop_is_contiguous(const PgLoopArgs *a, const int *loop_types)
{
    if (a->ndim > 1)
        return 0;
    for (int k = 0; k < a->nargs; k++) {
        if (a->data[k] == NULL)
            continue;
        if (a->types[k] != loop_types[k])
            return 0;
        if (a->ndim == 1 && a->strides[k][0] != pg_type_info[loop_types[k]].itemsize)
            return 0;
    }
    return 1;
}

int
pg_loop_rows_contiguous(const PgLoopArgs *a, const int *loop_types)
{
    if (a->ndim < 2)
        return 0;
    for (int k = 0; k < a->nargs; k++) {
        if (a->data[k] == NULL)
            continue;
        int64_t inner = a->strides[k][a->ndim - 1];
        int broadcast_input = inner == 0 && k < a->nargs - 1;   /* a scalar for each row */
        if (a->types[k] != loop_types[k] || (inner != pg_type_info[loop_types[k]].itemsize && !broadcast_input))
            return 0;
    }
    return 1;
}
