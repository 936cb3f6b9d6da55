/* Numerical ranges and matrices: arange, linspace, eye, identity, and _empty_kind (the
 * pinned/mapped/managed allocations behind pygpu.cuda.pinned_array and friends). The values
 * are computed on the device by the index-fill loops of kernels/loops.def, reproducing NumPy's
 * own arithmetic: arange's fill (first + i*delta in the result's type, the second element stored
 * exactly) and linspace's `arange(num) * step + start`. */
#include "array/array.h"
#include "runtime/kernel_table.h"
#include "core/docstrings.h"

/* A scalar launch operand holding `bytes` as PgType t. */
static void
scalar_operand(PgOperand *op, int t, const void *bytes, size_t n)
{
    static const int64_t one[1] = {1}, zero[1] = {0};
    op->data = NULL;
    op->ndim = 0;
    op->shape = one;
    op->strides = zero;
    op->type = t;
    op->scalar[0] = op->scalar[1] = 0;
    memcpy(op->scalar, bytes, n);
}

/* Runs an index-fill loop over `out` with three scalar inputs of type t (8 bytes each at most). */
static int
index_fill(PgArray *out, int kernel, int t, const void *x0, const void *x1, const void *x2)
{
    PgOperand ops[4];
    size_t n = (size_t)pg_type_info[t].itemsize;
    scalar_operand(&ops[0], t, x0, n);
    scalar_operand(&ops[1], t, x1, n);
    scalar_operand(&ops[2], t, x2, n);
    pg_operand_from_array(&ops[3], out);
    return pg_elementwise_launch(out->device, kernel, 4, ops);
}

/* index_fill of out's first element alone. */
static int
fill_first(PgArray *out, int kernel, int t, const void *x0, const void *x1, const void *x2)
{
    const int64_t one = 1;
    PgArray *head = pg_array_view(out, out->data, out->type, 1, &one, out->strides);
    if (head == NULL)
        return -1;
    int rc = index_fill(head, kernel, t, x0, x1, x2);
    Py_DECREF(head);
    return rc;
}

/* The real (part 0) or imaginary (part 1) view of a 1-d complex array. */
static PgArray *
complex_part(PgArray *a, int part)
{
    int rt = a->type == PG_COMPLEX64 ? PG_FLOAT32 : PG_FLOAT64;
    int64_t half = pg_type_info[rt].itemsize;
    return pg_array_view(a, a->data + part * half, rt, a->ndim, a->shape, a->strides);
}

/* ------------------------------------------------------------------ arange */

/* NumPy's _arange_safe_ceil_to_intp. */
static int
ceil_to_length(double value, int64_t *len)
{
    double c = ceil(value);
    if (isnan(c)) {
        PyErr_SetString(PyExc_ValueError, "arange: cannot compute length");
        return -1;
    }
    if (!(c >= -9223372036854775808.0 && c < 9223372036854775808.0)) {
        PyErr_SetString(PyExc_ValueError, "Maximum allowed size exceeded");
        return -1;
    }
    *len = (int64_t)c;
    return 0;
}

/* NumPy's _calc_length: the number of elements, computed with Python arithmetic on the
 * arguments as given. */
static int
arange_length(PyObject *start, PyObject *stop, PyObject *step, int cmplx, int64_t *len)
{
    int rc = -1;
    PyObject *zero = NULL, *val = NULL;
    PyObject *range = PyNumber_Subtract(stop, start);
    if (range == NULL) {
        if (PyTuple_Check(stop)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "arange: scalar arguments expected instead of a tuple.");
        }
        return -1;
    }
    if ((zero = PyLong_FromLong(0)) == NULL)
        goto done;
    int range_nonzero = PyObject_RichCompareBool(range, zero, Py_NE);
    if (range_nonzero < 0)
        goto done;
    val = PyNumber_TrueDivide(range, step);
    if (val == NULL)
        goto done;
    if (!range_nonzero) {
        *len = 0;
        rc = 0;
        goto done;
    }
    int val_zero = PyObject_RichCompareBool(val, zero, Py_EQ);
    if (val_zero < 0)
        goto done;
    if (cmplx && PyComplex_Check(val)) {
        int64_t l1, l2;
        if (ceil_to_length(PyComplex_RealAsDouble(val), &l1) < 0 ||
            ceil_to_length(PyComplex_ImagAsDouble(val), &l2) < 0)
            goto done;
        *len = l1 < l2 ? l1 : l2;
    } else {
        double v = PyFloat_AsDouble(val);
        if (v == -1.0 && PyErr_Occurred())
            goto done;
        if (val_zero) /* the step underflowed, or divided by inf */
            *len = signbit(v) ? 0 : 1;
        else if (ceil_to_length(v, len) < 0)
            goto done;
    }
    rc = 0;
done:
    Py_DECREF(range);
    Py_XDECREF(zero);
    Py_XDECREF(val);
    return rc;
}

/* NumPy's arange dtype: at least intp, promoted with each argument's dtype. */
static int
arange_infer_type(PyObject *const *objs, int n)
{
    PyArray_Descr *d = PyArray_DescrFromType(NPY_INTP);
    for (int i = 0; i < n && d; i++) {
        if (objs[i] == NULL || objs[i] == Py_None)
            continue;
        PyArray_Descr *nd = PyArray_DescrFromObject(objs[i], d);
        Py_SETREF(d, nd);
    }
    if (d == NULL)
        return -1;
    int t = pg_type_from_descr(d);
    Py_DECREF(d);
    return t;
}

/* Fills out[0..len) of one real type as NumPy's <TYPE>_fill does, from the first two values
 * (each of type t, 16 bytes). */
static int
arange_fill_real(PgArray *out, int t, const char *first, const char *second)
{
    if (PG_IS_FLOAT(t)) {
        /* NumPy keeps the first value as stored: with an infinite step 0 * step would make it NaN */
        if (t == PG_FLOAT64) {
            double f = pg_load_f64(first, t), s = pg_load_f64(second, t), d = s - f, z = 0.0;
            int rc = index_fill(out, PG_K_arange_f64, PG_FLOAT64, &f, &d, &s);
            return rc == 0 && !isfinite(d) ? fill_first(out, PG_K_arange_f64, PG_FLOAT64, &f, &z, &s) : rc;
        }
        /* float32, and float16 computed in float as NumPy's HALF_fill does */
        float f = pg_load_f32(first, t), s = pg_load_f32(second, t), d = s - f, z = 0.0f;
        int rc = index_fill(out, PG_K_arange_f32, PG_FLOAT32, &f, &d, &s);
        return rc == 0 && !isfinite(d) ? fill_first(out, PG_K_arange_f32, PG_FLOAT32, &f, &z, &s) : rc;
    }
    if (t == PG_UINT64) {
        uint64_t f = pg_load_u64(first, t), s = pg_load_u64(second, t), d = s - f;
        return index_fill(out, PG_K_arange_u64, PG_UINT64, &f, &d, &s);
    }
    /* the other integers (and bool): delta wraps in the type, the rest in intp arithmetic */
    int64_t f = pg_load_i64(first, t), s = pg_load_i64(second, t);
    char dbytes[16];
    pg_store_i64(dbytes, t, (int64_t)((uint64_t)s - (uint64_t)f));
    int64_t d = pg_load_i64(dbytes, t);
    return index_fill(out, PG_K_arange_i64, PG_INT64, &f, &d, &s);
}

static PyObject *
py_arange(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"start", "stop", "step", "dtype", "device", "like", NULL};
    PyObject *start = NULL, *stop = Py_None, *step = Py_None, *dtype = Py_None, *devobj = Py_None, *like = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOOO$OO:arange", kwlist, &start, &stop, &step, &dtype, &devobj,
                                     &like))
        return NULL;
    /* arange(stop=3) as NumPy's, but not arange(start=3) */
    if (stop == Py_None && (start == NULL || (kwds && PyDict_GetItemString(kwds, "start")))) {
        PyErr_SetString(PyExc_TypeError, "arange() requires stop to be specified.");
        return NULL;
    }
    if (start == NULL) {
        start = stop;
        stop = Py_None;
    }
    PyObject *result = NULL, *zero = NULL, *one = NULL, *next = NULL;
    PgArray *out = NULL, *re = NULL, *im = NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    int type;
    if (dtype == Py_None) {
        PyObject *objs[3] = {start, stop, step};
        type = arange_infer_type(objs, 3);
    } else {
        type = pg_type_from_object(dtype, PG_INT64);
    }
    if (type < 0)
        return NULL;
    if (stop == Py_None) {
        if ((zero = PyLong_FromLong(0)) == NULL)
            goto done;
        stop = start;
        start = zero;
    }
    if (step == Py_None) {
        if ((one = PyLong_FromLong(1)) == NULL)
            goto done;
        step = one;
    }
    int64_t len;
    if (arange_length(start, stop, step, PG_IS_COMPLEX(type), &len) < 0)
        goto done;
    if (len < 0)
        len = 0;
    if (len > INT64_MAX / pg_type_info[type].itemsize) {
        PyErr_SetString(PyExc_ValueError, "Maximum allowed size exceeded");
        goto done;
    }
    if (type == PG_BOOL && len > 2) {
        PyErr_SetString(PyExc_TypeError, "arange() is only supported for booleans when the result has at most length 2.");
        goto done;
    }
    out = pg_array_new(dev, type, 1, &len, 'C', PG_MEM_DEVICE);
    if (out == NULL)
        goto done;
    if (len == 0) {
        result = (PyObject *)out;
        out = NULL;
        goto done;
    }
    /* the first two values as NumPy stores them: start and start + step converted to the type */
    char first[16], second[16];
    if (pg_scalar_to_bytes(start, type, first) < 0)
        goto done;
    if (len > 1) {
        if ((next = PyNumber_Add(start, step)) == NULL || pg_scalar_to_bytes(next, type, second) < 0)
            goto done;
    } else {
        memcpy(second, first, sizeof first);
    }
    if (PG_IS_COMPLEX(type)) {
        int rt = type == PG_COMPLEX64 ? PG_FLOAT32 : PG_FLOAT64;
        int64_t h = pg_type_info[rt].itemsize;
        if ((re = complex_part(out, 0)) == NULL || (im = complex_part(out, 1)) == NULL ||
            arange_fill_real(re, rt, first, second) < 0 || arange_fill_real(im, rt, first + h, second + h) < 0)
            goto done;
    } else if (arange_fill_real(out, type, first, second) < 0) {
        goto done;
    }
    result = (PyObject *)out;
    out = NULL;
done:
    Py_XDECREF(zero);
    Py_XDECREF(one);
    Py_XDECREF(next);
    Py_XDECREF(out);
    Py_XDECREF(re);
    Py_XDECREF(im);
    return result;
}

/* ------------------------------------------------------------------ linspace */

/* Fills a real array (or one part of a complex one) with (i * step + start), or
 * (i / div * delta + start) when the step underflowed to zero, computing in rt (f32 or f64). */
static int
linspace_fill_real(PgArray *out, int rt, double start, double stop, int64_t div, double *step_out)
{
    if (rt == PG_FLOAT32) {
        float s0 = (float)start, delta = (float)stop - s0, step, x2 = 0.0f;
        step = div > 0 ? delta / (float)div : NAN;
        float x1 = div > 0 && step != 0.0f ? step : delta;
        if (div > 0 && step == 0.0f)
            x2 = (float)div;
        *step_out = step;
        return index_fill(out, PG_K_linspace_f32, PG_FLOAT32, &s0, &x1, &x2);
    }
    double delta = stop - start, step, x2 = 0.0;
    step = div > 0 ? delta / (double)div : NAN;
    double x1 = div > 0 && step != 0.0 ? step : delta;
    if (div > 0 && step == 0.0)
        x2 = (double)div;
    *step_out = step;
    return index_fill(out, PG_K_linspace_f64, PG_FLOAT64, &start, &x1, &x2);
}

static PyObject *
py_linspace(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"start", "stop", "num", "endpoint", "retstep", "dtype", "axis", "device", NULL};
    PyObject *start, *stop, *numobj = NULL, *dtype = Py_None, *axis = NULL, *devobj = Py_None;
    int endpoint = 1, retstep = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|OppOO$O:linspace", kwlist, &start, &stop, &numobj, &endpoint,
                                     &retstep, &dtype, &axis, &devobj))
        return NULL;
    PyObject *result = NULL, *numpy = NULL, *rtype = NULL, *stepobj = NULL, *lastval = NULL;
    PgArray *out = NULL, *tmp = NULL, *parts[2] = {NULL, NULL}, *last = NULL;
    int64_t num = 50;
    if (numobj && pg_parse_int64(numobj, &num, "num") < 0)
        return NULL;
    if (num < 0) {
        PyErr_Format(PyExc_ValueError, "Number of samples, %lld, must be non-negative.", (long long)num);
        return NULL;
    }
    if (axis && axis != Py_None) {
        int64_t ax;
        if (pg_parse_int64(axis, &ax, "axis") < 0)
            return NULL;
        if (ax != 0 && ax != -1) {
            PyErr_Format(PyExc_ValueError, "axis %lld is out of bounds for array of dimension 1", (long long)ax);
            return NULL;
        }
    }
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    /* the computation type: NumPy's result_type(start, stop) made inexact */
    if ((numpy = PyImport_ImportModule("numpy")) == NULL)
        return NULL;
    rtype = PyObject_CallMethod(numpy, "result_type", "OOd", start, stop, 1.0);
    if (rtype == NULL)
        goto done;
    int ct = pg_type_from_object(rtype, PG_FLOAT64);
    if (ct < 0)
        goto done;
    int type = dtype == Py_None ? ct : pg_type_from_object(dtype, ct);
    if (type < 0)
        goto done;
    int integer = PG_IS_INTEGER(type); /* bools are the float samples cast, unfloored: NumPy's */
    int rt = (ct == PG_FLOAT64 || ct == PG_COMPLEX128) ? PG_FLOAT64 : PG_FLOAT32;
    if (num > INT64_MAX / 16) {
        PyErr_SetString(PyExc_ValueError, "Maximum allowed size exceeded");
        goto done;
    }
    int64_t div = endpoint ? num - 1 : num;
    double step_re = NAN, step_im = 0.0;
    Py_complex cs = PyComplex_AsCComplex(start), ce = PyComplex_AsCComplex(stop);
    if (PyErr_Occurred())
        goto done;
    int64_t nolen = 0, nostride = 0;
    if (integer) {
        /* NumPy floors the float samples before the cast to an integer type */
        if (PG_IS_COMPLEX(ct)) {
            PyErr_SetString(PyExc_TypeError, "linspace: cannot cast complex samples to an integer dtype");
            goto done;
        }
        out = pg_array_new(dev, type, 1, &num, 'C', PG_MEM_DEVICE);
        if (out == NULL)
            goto done;
        double s0 = cs.real, delta = ce.real - cs.real;
        step_re = div > 0 ? delta / (double)div : NAN;
        double x1 = div > 0 && step_re != 0.0 ? step_re : delta, x2 = div > 0 && step_re == 0.0 ? (double)div : 0.0;
        if (num > 0 && index_fill(out, PG_K_linspace_floor_f64, PG_FLOAT64, &s0, &x1, &x2) < 0)
            goto done;
        if (endpoint && num > 1) {
            last = pg_array_view(out, out->data + (num - 1) * PG_ITEMSIZE(out), type, 0, &nolen, &nostride);
            if (last == NULL || (lastval = PyFloat_FromDouble(floor(ce.real))) == NULL ||
                pg_array_fill(last, lastval) < 0)
                goto done;
        }
    } else {
        /* computed in ct, then cast when the dtype asked for differs */
        tmp = pg_array_new(dev, ct, 1, &num, 'C', PG_MEM_DEVICE);
        if (tmp == NULL)
            goto done;
        if (num > 0) {
            if (PG_IS_COMPLEX(ct)) {
                if ((parts[0] = complex_part(tmp, 0)) == NULL || (parts[1] = complex_part(tmp, 1)) == NULL ||
                    linspace_fill_real(parts[0], rt, cs.real, ce.real, div, &step_re) < 0 ||
                    linspace_fill_real(parts[1], rt, cs.imag, ce.imag, div, &step_im) < 0)
                    goto done;
            } else if (linspace_fill_real(tmp, rt, cs.real, ce.real, div, &step_re) < 0) {
                goto done;
            }
        }
        if (endpoint && num > 1) {
            last = pg_array_view(tmp, tmp->data + (num - 1) * PG_ITEMSIZE(tmp), ct, 0, &nolen, &nostride);
            if (last == NULL || pg_array_fill(last, stop) < 0)
                goto done;
        }
        out = type != ct ? pg_array_copy(tmp, type, 'C', NULL) : (PgArray *)Py_NewRef(tmp);
        if (out == NULL)
            goto done;
    }
    if (retstep) {
        if (div > 0) {
            char sb[16];
            if (PG_IS_COMPLEX(ct)) {
                Py_complex c = {step_re, step_im};
                PyObject *pc = PyComplex_FromCComplex(c);
                if (pc == NULL)
                    goto done;
                int r = pg_scalar_to_bytes(pc, ct, sb);
                Py_DECREF(pc);
                if (r < 0)
                    goto done;
            } else {
                PyObject *pf = PyFloat_FromDouble(step_re);
                if (pf == NULL)
                    goto done;
                int r = pg_scalar_to_bytes(pf, ct, sb);
                Py_DECREF(pf);
                if (r < 0)
                    goto done;
            }
            stepobj = pg_numpy_scalar_from_bytes(sb, ct);
        } else {
            stepobj = PyFloat_FromDouble(NAN);
        }
        if (stepobj == NULL)
            goto done;
        result = PyTuple_Pack(2, (PyObject *)out, stepobj);
    } else {
        result = Py_NewRef((PyObject *)out);
    }
done:
    Py_XDECREF(numpy);
    Py_XDECREF(rtype);
    Py_XDECREF(stepobj);
    Py_XDECREF(lastval);
    Py_XDECREF(out);
    Py_XDECREF(tmp);
    Py_XDECREF(parts[0]);
    Py_XDECREF(parts[1]);
    Py_XDECREF(last);
    return result;
}

/* ------------------------------------------------------------------ eye, identity */

static PgArray *
make_eye(int64_t n, int64_t m, int64_t k, int type, char order, PgDevice *dev)
{
    if (n < 0 || m < 0) {
        PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
        return NULL;
    }
    int64_t shape[2] = {n, m};
    PgArray *a = pg_array_new(dev, type, 2, shape, order, PG_MEM_DEVICE);
    if (a == NULL)
        return NULL;
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1);
    PgArray *diag = NULL;
    int rc = -1;
    if (zero == NULL || one == NULL || pg_array_fill(a, zero) < 0)
        goto done;
    /* the k-th diagonal is a strided 1-d view: fill it with ones */
    int64_t len = k >= 0 ? (m - k < n ? m - k : n) : (n + k < m ? n + k : m);
    if (len > 0) {
        char *start = a->data + (k >= 0 ? k * a->strides[1] : -k * a->strides[0]);
        int64_t stride = a->strides[0] + a->strides[1];
        diag = pg_array_view(a, start, type, 1, &len, &stride);
        if (diag == NULL || pg_array_fill(diag, one) < 0)
            goto done;
    }
    rc = 0;
done:
    Py_XDECREF(zero);
    Py_XDECREF(one);
    Py_XDECREF(diag);
    if (rc < 0)
        Py_CLEAR(a);
    return a;
}

static PyObject *
py_eye(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"N", "M", "k", "dtype", "order", "device", NULL};
    PyObject *nobj, *mobj = Py_None, *kobj = NULL, *dtype = Py_None, *orderobj = NULL, *devobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOO$O:eye", kwlist, &nobj, &mobj, &kobj, &dtype, &orderobj,
                                     &devobj))
        return NULL;
    int64_t n, mm, k = 0;
    char order;
    if (pg_parse_int64(nobj, &n, "N") < 0)
        return NULL;
    if (mobj == Py_None)
        mm = n;
    else if (pg_parse_int64(mobj, &mm, "M") < 0)
        return NULL;
    if (kobj && pg_parse_int64(kobj, &k, "k") < 0)
        return NULL;
    int type = pg_type_from_object(dtype, PG_FLOAT64);
    if (type < 0 || pg_order_from_object(orderobj, "CF", 'C', &order) < 0)
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    return (PyObject *)make_eye(n, mm, k, type, order, dev);
}

static PyObject *
py_identity(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"n", "dtype", "device", NULL};
    PyObject *nobj, *dtype = Py_None, *devobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O$O:identity", kwlist, &nobj, &dtype, &devobj))
        return NULL;
    int64_t n;
    if (pg_parse_int64(nobj, &n, "n") < 0)
        return NULL;
    int type = pg_type_from_object(dtype, PG_FLOAT64);
    if (type < 0)
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    return (PyObject *)make_eye(n, n, 0, type, 'C', dev);
}

/* ------------------------------------------------------------------ memory kinds */

/* _empty_kind(shape, dtype, order, device, kind): an uninitialised array of a memory kind
 * ('device', 'pinned', 'mapped', 'managed'). On the CPU every kind is ordinary host memory, but
 * the array still reports the kind it was asked for. */
static PyObject *
py_empty_kind(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *shapeobj, *dtype, *orderobj, *devobj;
    const char *kindname;
    if (!PyArg_ParseTuple(args, "OOOOs:_empty_kind", &shapeobj, &dtype, &orderobj, &devobj, &kindname))
        return NULL;
    static const char *names[PG_MEM_NKINDS] = {"device", "pinned", "mapped", "managed"};
    int kind = -1;
    for (int i = 0; i < PG_MEM_NKINDS; i++)
        if (strcmp(kindname, names[i]) == 0)
            kind = i;
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError, "memory kind must be 'device', 'pinned', 'mapped' or 'managed', not '%s'",
                     kindname);
        return NULL;
    }
    int ndim;
    int64_t shape[PG_MAXDIMS];
    char order;
    if (pg_parse_shape(shapeobj, &ndim, shape) < 0)
        return NULL;
    int type = pg_type_from_object(dtype, PG_FLOAT64);
    if (type < 0 || pg_order_from_object(orderobj, "CF", 'C', &order) < 0)
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    return (PyObject *)pg_array_new(dev, type, ndim, shape, order, (PgMemKind)kind);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS
PyMethodDef pg_ranges_module_methods[] = {
    {"arange", KW(py_arange), PG_DOC_ARANGE},
    {"linspace", KW(py_linspace),
     "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None): num "
     "evenly spaced samples over [start, stop], as numpy.linspace for scalar start and stop."},
    {"eye", KW(py_eye),
     "eye($module, N, M=None, k=0, dtype=None, order='C', *, device=None)\n--\n\nones on the k-th diagonal, zeros elsewhere."},
    {"identity", KW(py_identity), "identity($module, n, dtype=None, *, device=None)\n--\n\nthe n x n identity matrix."},
    {"_empty_kind", py_empty_kind, METH_VARARGS,
     "_empty_kind(shape, dtype, order, device, kind): an uninitialised array in 'device', 'pinned', 'mapped' or "
     "'managed' memory."},
    {NULL, NULL, 0, NULL},
};
