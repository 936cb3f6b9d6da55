/* The C entry points of pygpu.random: one draw of a distribution into an array on its device
 * (_random_fill), the distribution numbers (_random_constants), and the raw functions the tests
 * check against known values (_philox4x32, _random_math). NumPy's argument semantics and errors
 * live in pygpu/random.py; here only what keeps the kernels within their arrays. */
#include "array/array.h"
#include "runtime/stream.h"
#include "kernels/random.h"

/* The distribution names, in PgRandomDist's order. */
static const char *const dist_names[PG_RAND_NDIST] = {
    "bits", "uniform", "normal", "exponential", "lognormal", "laplace", "logistic", "geometric", "integers",
    "gamma", "beta", "chisquare", "standard_t", "poisson", "binomial",
};

/* Whether a draw of dist may be stored as type (the kernels write exactly these). */
static int
type_allowed(int dist, int type, int flags)
{
    int standard = flags & PG_RAND_STANDARD;
    switch (dist) {
    case PG_RAND_BITS:
        return type == PG_UINT32 || type == PG_UINT64;
    case PG_RAND_INTEGERS:
        return type == PG_BOOL || PG_IS_INTEGER(type);
    case PG_RAND_UNIFORM:
    case PG_RAND_NORMAL:
    case PG_RAND_EXPONENTIAL:
    case PG_RAND_GAMMA:
        return type == PG_FLOAT64 || (type == PG_FLOAT32 && standard);
    case PG_RAND_GEOMETRIC:
    case PG_RAND_POISSON:
    case PG_RAND_BINOMIAL:
        return type == PG_INT64;
    default:
        return type == PG_FLOAT64;
    }
}

/* Parameters held as 64-bit integers rather than doubles. */
static int
param_is_integer(int dist, int k)
{
    return dist == PG_RAND_INTEGERS || (dist == PG_RAND_BINOMIAL && k == 0);
}

/* Parameter k: None (0), a Python number, or a C-contiguous array of one value per element on
 * out's device (float64, or int64/uint64 for integer parameters). */
static int
parse_param(PyObject *obj, int k, PgArray *out, int dist, PgRandomArgs *a)
{
    int integer = param_is_integer(dist, k);
    a->param[k] = NULL;
    a->scalar[k].u = 0;
    if (obj == Py_None)
        return 0;
    if (PgArray_Check(obj)) {
        PgArray *p = (PgArray *)obj;
        int type_ok = integer ? (p->type == PG_INT64 || p->type == PG_UINT64) : p->type == PG_FLOAT64;
        if (!type_ok || p->device != out->device || !(p->flags & PG_C_CONTIGUOUS) ||
            pg_array_size(p) != pg_array_size(out)) {
            PyErr_Format(PyExc_ValueError,
                         "random parameter %d must be a C-contiguous %s array of %lld elements on %R", k,
                         integer ? "int64" : "float64", (long long)pg_array_size(out), (PyObject *)out->device);
            return -1;
        }
        a->param[k] = (const PgRandomParam *)p->data;
        return 0;
    }
    if (integer) {
        if (!PyLong_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "random parameter %d must be an int", k);
            return -1;
        }
        a->scalar[k].u = PyLong_AsUnsignedLongLongMask(obj); /* int64 values as two's complement */
        return a->scalar[k].u == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
    }
    a->scalar[k].f = PyFloat_AsDouble(obj);
    return a->scalar[k].f == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* _random_fill(out, dist, (k0, k1), (c0, c1, c2), flags, p0=None, p1=None, p2=None): fills the
 * dense array out with a draw starting at block counter (c0, c1, c2) under key (k0, k1); returns
 * the number of blocks it used. */
static PyObject *
py_random_fill(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *out;
    int dist, flags;
    unsigned long k0, k1, c0, c1, c2;
    PyObject *params[3] = {Py_None, Py_None, Py_None};
    if (!PyArg_ParseTuple(args, "O!i(kk)(kkk)i|OOO:_random_fill", &PgArray_Type, &out, &dist, &k0, &k1, &c0, &c1,
                          &c2, &flags, &params[0], &params[1], &params[2]))
        return NULL;
    if (dist < 0 || dist >= PG_RAND_NDIST || !type_allowed(dist, out->type, flags)) {
        PyErr_Format(PyExc_ValueError, "no random kernel for distribution %d into %s", dist,
                     pg_type_info[out->type].name);
        return NULL;
    }
    if (!(out->flags & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS))) {
        PyErr_SetString(PyExc_ValueError, "random numbers are drawn into contiguous arrays only");
        return NULL;
    }
    if (pg_array_check_writeable(out) < 0)
        return NULL;
    PgRandomArgs a;
    memset(&a, 0, sizeof a);
    a.key[0] = (uint32_t)k0;
    a.key[1] = (uint32_t)k1;
    a.counter[0] = (uint32_t)c0;
    a.counter[1] = (uint32_t)c1;
    a.counter[2] = (uint32_t)c2;
    a.dist = dist;
    a.type = out->type;
    a.flags = flags;
    a.size = pg_array_size(out);
    a.out = out->data;
    for (int k = 0; k < 3; k++)
        if (parse_param(params[k], k, out, dist, &a) < 0)
            return NULL;
    if (a.size == 0)
        return PyLong_FromLong(0);
    PgDevice *dev = out->device;
    if (PG_DEVICE_CHECK(dev) < 0 || dev->backend->random(dev, &a, pg_stream_current_handle(dev)) < 0)
        return NULL;
    return PyLong_FromLongLong(pg_random_blocks(&a));
}

/* _random_constants(): {'dists': {name: number}, 'standard': flag, 'wide': flag}. */
static PyObject *
py_random_constants(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    PyObject *dists = PyDict_New();
    if (dists == NULL)
        return NULL;
    for (int d = 0; d < PG_RAND_NDIST; d++) {
        PyObject *v = PyLong_FromLong(d);
        if (v == NULL || PyDict_SetItemString(dists, dist_names[d], v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(dists);
            return NULL;
        }
        Py_DECREF(v);
    }
    return Py_BuildValue("{s:N,s:i,s:i}", "dists", dists, "standard", PG_RAND_STANDARD, "wide", PG_RAND_WIDE);
}

/* _philox4x32((c0, c1, c2, c3), (k0, k1)): the 4 words of one Philox4x32-10 block. */
static PyObject *
py_philox4x32(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    unsigned long c[4], k[2];
    if (!PyArg_ParseTuple(args, "(kkkk)(kk):_philox4x32", &c[0], &c[1], &c[2], &c[3], &k[0], &k[1]))
        return NULL;
    uint32_t w[4];
    pg_philox4x32_10((uint32_t)c[0], (uint32_t)c[1], (uint32_t)c[2], (uint32_t)c[3], (uint32_t)k[0], (uint32_t)k[1], w);
    return Py_BuildValue("(kkkk)", (unsigned long)w[0], (unsigned long)w[1], (unsigned long)w[2], (unsigned long)w[3]);
}

/* _random_math(name, x): random_math.h's function `name` over a NumPy array x (float32 for
 * "logf" and "sincosf", float64 otherwise); "sincos[f]" gives (sin, cos). */
static PyObject *
py_random_math(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    const char *name;
    PyObject *obj, *r0 = NULL, *r1 = NULL;
    PyArrayObject *x = NULL;
    if (!PyArg_ParseTuple(args, "sO:_random_math", &name, &obj))
        return NULL;
    static const char *const names[] = {"logf", "sincosf", "log", "log1p", "exp", "loggam", "sincos"};
    int fn = -1;
    for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
        if (strcmp(name, names[k]) == 0)
            fn = k;
    if (fn < 0) {
        PyErr_Format(PyExc_ValueError, "no random_math function %s", name);
        return NULL;
    }
    int single = fn <= 1, pair = fn == 1 || fn == 6;
    x = (PyArrayObject *)PyArray_FROM_OTF(obj, single ? NPY_FLOAT32 : NPY_FLOAT64, NPY_ARRAY_IN_ARRAY);
    if (x == NULL)
        return NULL;
    npy_intp n = PyArray_SIZE(x);
    r0 = PyArray_SimpleNew(1, &n, single ? NPY_FLOAT32 : NPY_FLOAT64);
    r1 = pair ? PyArray_SimpleNew(1, &n, single ? NPY_FLOAT32 : NPY_FLOAT64) : NULL;
    if (r0 == NULL || (pair && r1 == NULL))
        goto fail;
    const float *xf = PyArray_DATA(x);
    const double *xd = PyArray_DATA(x);
    float *f0 = PyArray_DATA((PyArrayObject *)r0), *f1 = pair ? PyArray_DATA((PyArrayObject *)r1) : NULL;
    double *d0 = (double *)f0, *d1 = (double *)f1;
    for (npy_intp i = 0; i < n; i++) {
        switch (fn) {
        case 0:
            f0[i] = pg_rlogf(xf[i]);
            break;
        case 1:
            pg_rsincosf(xf[i], &f0[i], &f1[i]);
            break;
        case 2:
            d0[i] = pg_rlog(xd[i]);
            break;
        case 3:
            d0[i] = pg_rlog1p(xd[i]);
            break;
        case 4:
            d0[i] = pg_rexp(xd[i]);
            break;
        case 5:
            d0[i] = pg_rloggam(xd[i]);
            break;
        default:
            pg_rsincos(xd[i], &d0[i], &d1[i]);
            break;
        }
    }
    Py_DECREF(x);
    return pair ? Py_BuildValue("(NN)", r0, r1) : r0;
fail:
    Py_DECREF(x);
    Py_XDECREF(r0);
    Py_XDECREF(r1);
    return NULL;
}

PyMethodDef pg_random_module_methods[] = {
    {"_random_fill", py_random_fill, METH_VARARGS, NULL},
    {"_random_constants", py_random_constants, METH_NOARGS, NULL},
    {"_philox4x32", py_philox4x32, METH_VARARGS, NULL},
    {"_random_math", py_random_math, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
