/* The cuFFT transforms for pygpu.fft on CUDA arrays (pygpu/fft.py moves the axes to the end, pads
 * or cuts them, normalises and gives out= its values): _cufft(x, out, rank, inverse) transforms the
 * last `rank` axes of x into out, both C-contiguous on one CUDA device; the dtypes say which
 * transform: complex to complex of one precision, float32/float64 to complex64/complex128 (real to
 * complex, out's last axis n // 2 + 1), or complex to real (out's last axis the length n). A
 * complex-to-real input may be overwritten (cuFFT's rule): the caller passes a copy it owns. */
#include "array/array.h"
#include "runtime/cuda_fft.h"
#include "runtime/cuda_libs.h"
#include "runtime/stream.h"

static int
is_complex(int type)
{
    return type == PG_COMPLEX64 || type == PG_COMPLEX128;
}

static int
is_double(int type)
{
    return type == PG_FLOAT64 || type == PG_COMPLEX128;
}

static int
fft_type(int type)
{
    return type == PG_FLOAT32 || type == PG_FLOAT64 || is_complex(type);
}

static PyObject *
py_cufft(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *x, *out;
    int rank, inverse;
    if (!PyArg_ParseTuple(args, "O!O!ip:_cufft", &PgArray_Type, &x, &PgArray_Type, &out, &rank, &inverse))
        return NULL;
    if (x->device != out->device || x->device->kind != PG_DEVICE_CUDA) {
        PyErr_SetString(PyExc_ValueError, "_cufft: x and out on one CUDA device");
        return NULL;
    }
    if (!(x->flags & PG_C_CONTIGUOUS) || !(out->flags & PG_C_CONTIGUOUS) || !(out->flags & PG_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "_cufft: C-contiguous x and a writeable C-contiguous out");
        return NULL;
    }
    if (!fft_type(x->type) || !fft_type(out->type) || is_double(x->type) != is_double(out->type) ||
        (!is_complex(x->type) && !is_complex(out->type))) {
        PyErr_SetString(PyExc_TypeError, "_cufft: complex to complex, real to complex or complex to real, of one "
                                         "precision (float32/complex64 or float64/complex128)");
        return NULL;
    }
    if (rank < 1 || rank > 3 || x->ndim < rank || out->ndim != x->ndim) {
        PyErr_SetString(PyExc_ValueError, "_cufft: 1 to 3 transformed axes, x and out of one number of dimensions");
        return NULL;
    }
    PgFftCall c;
    memset(&c, 0, sizeof c);
    c.kind = !is_complex(x->type) ? PG_FFT_R2C : !is_complex(out->type) ? PG_FFT_C2R : PG_FFT_C2C;
    PgArray *real_side = c.kind == PG_FFT_C2R ? out : x;
    int nd = x->ndim;
    c.batch = 1;
    for (int d = 0; d < nd - rank; d++) {
        if (x->shape[d] != out->shape[d]) {
            PyErr_SetString(PyExc_ValueError, "_cufft: x and out differ in a batch axis");
            return NULL;
        }
        c.batch *= x->shape[d];
    }
    for (int i = 0; i < rank; i++) {
        int d = nd - rank + i;
        c.n[i] = real_side->shape[d];
        int64_t half = c.n[i] / 2 + 1;
        int last = i == rank - 1;
        int64_t want_x = c.kind == PG_FFT_C2R && last ? half : c.n[i];
        int64_t want_out = c.kind == PG_FFT_R2C && last ? half : c.n[i];
        if (x->shape[d] != want_x || out->shape[d] != want_out) {
            PyErr_SetString(PyExc_ValueError, "_cufft: the transformed axes of x and out do not match");
            return NULL;
        }
    }
    int64_t size = c.batch;
    for (int i = 0; i < rank; i++)
        size *= c.n[i];
    if (size == 0)
        Py_RETURN_NONE;
    c.dev = x->device;
    c.stream = pg_stream_current_handle(c.dev);
    c.double_precision = is_double(x->type);
    c.rank = rank;
    c.inverse = inverse;
    c.in = x->data;
    c.out = out->data;
    pg_array_note_use(x);
    pg_array_note_use(out);
    if (PG_DEVICE_CHECK(c.dev) < 0 || pg_cufft_exec(&c) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _cufft_plans() -> the plans cached; _cufft_clear_plans() destroys them. */
static PyObject *
py_cufft_plans(PyObject *m, PyObject *noargs)
{
    PG_UNUSED(m);
    PG_UNUSED(noargs);
    return PyLong_FromLong(pg_cufft_cached_plans());
}

static PyObject *
py_cufft_clear_plans(PyObject *m, PyObject *noargs)
{
    PG_UNUSED(m);
    PG_UNUSED(noargs);
    pg_cufft_clear_plans();
    Py_RETURN_NONE;
}

/* _cufft_library(load=False) -> the loaded cuFFT's path or None (with load: loads it, CUDAError
 * naming the pip package when it is not found). */
static PyObject *
py_cufft_library(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    int load = 0;
    if (!PyArg_ParseTuple(args, "|p:_cufft_library", &load))
        return NULL;
    if (load && pg_cufft_load() < 0)
        return NULL;
    const char *path = pg_cufft_path();
    if (path == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(path);
}

PyMethodDef pg_fft_cuda_module_methods[] = {
    {"_cufft", py_cufft, METH_VARARGS, NULL},
    {"_cufft_plans", py_cufft_plans, METH_NOARGS, NULL},
    {"_cufft_clear_plans", py_cufft_clear_plans, METH_NOARGS, NULL},
    {"_cufft_library", py_cufft_library, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
