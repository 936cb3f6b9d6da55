/* diagonal(a, offset=0, axis1=0, axis2=1): NumPy's diagonal, a read-only view with the two axes
 * removed and the diagonal appended as the last axis (stride: the sum of theirs). trace, einsum's
 * repeated indices and linalg.diagonal are built on it. */
#include "math/linalg.h"

static PyObject *
py_diagonal(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"a", "offset", "axis1", "axis2", NULL};
    PyObject *aobj, *offset_obj = NULL, *axis1_obj = NULL, *axis2_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:diagonal", kwlist, &aobj, &offset_obj, &axis1_obj, &axis2_obj))
        return NULL;
    int64_t offset = 0, ax1 = 0, ax2 = 1;
    if ((offset_obj && pg_parse_int64(offset_obj, &offset, "offset") < 0) ||
        (axis1_obj && pg_parse_int64(axis1_obj, &ax1, "axis1") < 0) ||
        (axis2_obj && pg_parse_int64(axis2_obj, &ax2, "axis2") < 0))
        return NULL;
    PgArray *a = pg_asarray(aobj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PyObject *res = NULL;
    int i1, i2;
    if (a->ndim < 2) {
        PyErr_SetString(PyExc_ValueError, "diag requires an array of at least two dimensions");
        goto done;
    }
    if (pg_normalize_axis(ax1, a->ndim, "axis1", &i1) < 0 || pg_normalize_axis(ax2, a->ndim, "axis2", &i2) < 0)
        goto done;
    if (i1 == i2) {
        PyErr_SetString(PyExc_ValueError, "axis1 and axis2 cannot be the same");
        goto done;
    }
    int64_t n1 = a->shape[i1], n2 = a->shape[i2], s1 = a->strides[i1], s2 = a->strides[i2];
    char *data = a->data;
    int64_t len;
    if (offset >= 0) {
        len = n2 - offset < n1 ? n2 - offset : n1;
        if (len > 0)
            data += offset * s2;
    } else {
        len = n1 + offset < n2 ? n1 + offset : n2;
        if (len > 0)
            data -= offset * s1;
    }
    if (len < 0)
        len = 0;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    int nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (d == i1 || d == i2)
            continue;
        shape[nd] = a->shape[d];
        strides[nd++] = a->strides[d];
    }
    shape[nd] = len;
    strides[nd++] = s1 + s2;
    PgArray *v = pg_array_view(a, len > 0 ? data : a->data, a->type, nd, shape, strides);
    if (v == NULL)
        goto done;
    v->flags &= ~PG_WRITEABLE; /* as NumPy's: a read-only view */
    res = (PyObject *)v;
done:
    Py_DECREF(a);
    return res;
}

PyMethodDef pg_diagonal_module_methods[] = {
    {"diagonal", (PyCFunction)(void (*)(void))py_diagonal, METH_VARARGS | METH_KEYWORDS,
     "diagonal(a, offset=0, axis1=0, axis2=1): the diagonal of the axis1-axis2 planes as a read-only view, "
     "appended as the last axis."},
    {NULL, NULL, 0, NULL},
};
