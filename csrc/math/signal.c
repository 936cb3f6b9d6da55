/* The sums of numpy.correlate and numpy.convolve (pygpu/_signal.py reverses the kernel of a
 * convolution and conjugates a complex one, then calls _correlate); the work is the kernels of
 * kernels/correlate.h. */
#include "array/array.h"
#include "runtime/stream.h"

/* a as a contiguous 1-d array: a new reference to a, or a copy. */
static PgArray *
contiguous(PgArray *a)
{
    if (a->flags & PG_C_CONTIGUOUS) {
        Py_INCREF(a);
        return a;
    }
    return pg_array_copy(a, a->type, 'C', a->device);
}

/* _correlate(x, w, full=False): out[i] = sum over j of x[i + j] * w[j], for i < len(x) - len(w)
 * + 1 (NumPy's 'valid' sums); with full, x seen after and before len(w) - 1 zeros whose products
 * are left out (NumPy's 'full' sums, len(x) + len(w) - 1 of them). 1-d arrays of one float32,
 * float64, complex64 or complex128 dtype on one device. */
static PyObject *
py_correlate(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *xin, *win, *x = NULL, *w = NULL, *out = NULL;
    int full = 0;
    if (!PyArg_ParseTuple(args, "O!O!|p:_correlate", &PgArray_Type, &xin, &PgArray_Type, &win, &full))
        return NULL;
    int type = xin->type;
    if (win->type != type || (type != PG_FLOAT32 && type != PG_FLOAT64 && type != PG_COMPLEX64 &&
                              type != PG_COMPLEX128)) {
        PyErr_SetString(PyExc_TypeError, "_correlate: x and w of one float32, float64, complex64 or complex128 dtype");
        return NULL;
    }
    if (xin->ndim != 1 || win->ndim != 1 || win->shape[0] < 1 || (!full && xin->shape[0] < win->shape[0])) {
        PyErr_SetString(PyExc_ValueError, "_correlate: 1-d x and w with 1 <= len(w) (<= len(x) unless full)");
        return NULL;
    }
    if (xin->device != win->device) {
        PyErr_SetString(PyExc_ValueError, "_correlate: x and w on different devices");
        return NULL;
    }
    PgDevice *dev = xin->device;
    if ((x = contiguous(xin)) == NULL || (w = contiguous(win)) == NULL)
        goto fail;
    int64_t lead = full ? w->shape[0] - 1 : 0, n = x->shape[0] - w->shape[0] + 1 + 2 * lead;
    if ((out = pg_array_new(dev, type, 1, &n, 'C', PG_MEM_DEVICE)) == NULL)
        goto fail;
    pg_array_note_use(x);
    pg_array_note_use(w);
    PgCorrelateArgs a = {type, n, w->shape[0], lead, x->shape[0], x->data, w->data, out->data};
    if (PG_DEVICE_CHECK(dev) < 0 || dev->backend->correlate(dev, &a, pg_stream_current_handle(dev)) < 0)
        goto fail;
    Py_DECREF(x);
    Py_DECREF(w);
    return (PyObject *)out;
fail:
    Py_XDECREF(x);
    Py_XDECREF(w);
    Py_XDECREF(out);
    return NULL;
}

PyMethodDef pg_signal_module_methods[] = {
    {"_correlate", py_correlate, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
