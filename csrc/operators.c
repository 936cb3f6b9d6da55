/* The ndarray side of elementwise math: Python operators (number protocol, rich comparison)
 * straight into the C ufunc path, __array_ufunc__ so NumPy's functions run on pygpu arrays,
 * __array_namespace__, the real/imag views, and the module functions where and clip. */
#include "ufunc.h"

/* ------------------------------------------------------------------ operators */

static PyObject *
binary(PgOpIndex op, PyObject *a, PyObject *b)
{
    PyObject *args[2] = {a, b};
    return pg_ufunc_apply(pg_op_ufuncs[op], args, NULL, -1, PG_CAST_SAME_KIND, 1);
}

/* a op= b: the result goes into a, never changing its dtype (same_kind casting as NumPy) */
static PyObject *
inplace(PgOpIndex op, PyObject *a, PyObject *b)
{
    if (!PgArray_Check(a))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return pg_ufunc_apply(pg_op_ufuncs[op], args, a, -1, PG_CAST_SAME_KIND, 1);
}

static PyObject *
unary(PgOpIndex op, PyObject *a)
{
    return pg_ufunc_apply(pg_op_ufuncs[op], &a, NULL, -1, PG_CAST_SAME_KIND, 1);
}

#define BINARY_SLOT(fn, OP)                                                                     \
    static PyObject *fn(PyObject *a, PyObject *b) { return binary(OP, a, b); }                  \
    static PyObject *fn##_inplace(PyObject *a, PyObject *b) { return inplace(OP, a, b); }
BINARY_SLOT(nb_add, PG_OP_ADD)
BINARY_SLOT(nb_sub, PG_OP_SUB)
BINARY_SLOT(nb_mul, PG_OP_MUL)
BINARY_SLOT(nb_truediv, PG_OP_TRUEDIV)
BINARY_SLOT(nb_floordiv, PG_OP_FLOORDIV)
BINARY_SLOT(nb_rem, PG_OP_REM)
BINARY_SLOT(nb_lshift, PG_OP_LSHIFT)
BINARY_SLOT(nb_rshift, PG_OP_RSHIFT)
BINARY_SLOT(nb_and, PG_OP_AND)
BINARY_SLOT(nb_or, PG_OP_OR)
BINARY_SLOT(nb_xor, PG_OP_XOR)

/* x ** 2 as square(x), as NumPy does: a multiply instead of pow(), with the same result dtype
 * (a Python int 2 keeps any non-bool dtype; a float 2.0 keeps float and complex ones). */
static PgUfunc *
fast_power(PyObject *a, PyObject *b)
{
    if (!PgArray_Check(a))
        return NULL;
    int t = ((PgArray *)a)->type;
    int two = 0;
    if (PyLong_CheckExact(b)) {
        int overflow;
        two = PyLong_AsLongAndOverflow(b, &overflow) == 2 && t != PG_BOOL;
    } else if (PyFloat_CheckExact(b)) {
        two = PyFloat_AS_DOUBLE(b) == 2.0 && (PG_IS_FLOAT(t) || PG_IS_COMPLEX(t));
    }
    return two ? pg_ufunc_lookup("square") : NULL;
}

static PyObject *
nb_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    PgUfunc *sq = fast_power(a, b);
    if (sq)
        return pg_ufunc_apply(sq, &a, NULL, -1, PG_CAST_SAME_KIND, 1);
    return binary(PG_OP_POW, a, b);
}

static PyObject *
nb_pow_inplace(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    PgUfunc *sq = fast_power(a, b);
    if (sq)
        return pg_ufunc_apply(sq, &a, a, -1, PG_CAST_SAME_KIND, 1);
    return inplace(PG_OP_POW, a, b);
}

static PyObject *
nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *q = binary(PG_OP_FLOORDIV, a, b);
    if (q == NULL || q == Py_NotImplemented)
        return q;
    PyObject *r = binary(PG_OP_REM, a, b);
    if (r == NULL || r == Py_NotImplemented) {
        Py_DECREF(q);
        return r;
    }
    PyObject *t = PyTuple_Pack(2, q, r);
    Py_DECREF(q);
    Py_DECREF(r);
    return t;
}

static PyObject *nb_neg(PyObject *a) { return unary(PG_OP_NEG, a); }
static PyObject *nb_pos(PyObject *a) { return unary(PG_OP_POS, a); }
static PyObject *nb_abs(PyObject *a) { return unary(PG_OP_ABS, a); }
static PyObject *nb_invert(PyObject *a) { return unary(PG_OP_INVERT, a); }

static PyObject *
array_richcompare(PyObject *a, PyObject *b, int op)
{
    static const PgOpIndex map[] = {PG_OP_LT, PG_OP_LE, PG_OP_EQ, PG_OP_NE, PG_OP_GT, PG_OP_GE};
    return binary(map[op], a, b);
}

static PyNumberMethods math_number = {0};

void
pg_math_setup_type(PyTypeObject *t)
{
    /* other files may have set number slots (__bool__, __int__, __index__): keep them */
    PyNumberMethods *nm = t->tp_as_number ? t->tp_as_number : &math_number;
    nm->nb_add = nb_add;
    nm->nb_subtract = nb_sub;
    nm->nb_multiply = nb_mul;
    nm->nb_true_divide = nb_truediv;
    nm->nb_floor_divide = nb_floordiv;
    nm->nb_remainder = nb_rem;
    nm->nb_divmod = nb_divmod;
    nm->nb_power = nb_pow;
    nm->nb_negative = nb_neg;
    nm->nb_positive = nb_pos;
    nm->nb_absolute = nb_abs;
    nm->nb_invert = nb_invert;
    nm->nb_lshift = nb_lshift;
    nm->nb_rshift = nb_rshift;
    nm->nb_and = nb_and;
    nm->nb_or = nb_or;
    nm->nb_xor = nb_xor;
    nm->nb_inplace_add = nb_add_inplace;
    nm->nb_inplace_subtract = nb_sub_inplace;
    nm->nb_inplace_multiply = nb_mul_inplace;
    nm->nb_inplace_true_divide = nb_truediv_inplace;
    nm->nb_inplace_floor_divide = nb_floordiv_inplace;
    nm->nb_inplace_remainder = nb_rem_inplace;
    nm->nb_inplace_power = nb_pow_inplace;
    nm->nb_inplace_lshift = nb_lshift_inplace;
    nm->nb_inplace_rshift = nb_rshift_inplace;
    nm->nb_inplace_and = nb_and_inplace;
    nm->nb_inplace_or = nb_or_inplace;
    nm->nb_inplace_xor = nb_xor_inplace;
    t->tp_as_number = nm;
    t->tp_richcompare = array_richcompare;
    /* arrays are mutable: not hashable, as numpy.ndarray */
    t->tp_hash = PyObject_HashNotImplemented;
}

/* ------------------------------------------------------------------ __array_ufunc__ */

static PyObject *
array_ufunc(PyObject *self, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(self);
    PyObject *ret = NULL, *name = NULL;
    if (PyTuple_GET_SIZE(args) < 2) {
        PyErr_SetString(PyExc_TypeError, "__array_ufunc__(ufunc, method, *inputs, **kwargs)");
        return NULL;
    }
    PyObject *npufunc = PyTuple_GET_ITEM(args, 0), *method = PyTuple_GET_ITEM(args, 1);
    if (!PyUnicode_Check(method) || PyUnicode_CompareWithASCIIString(method, "__call__") != 0)
        Py_RETURN_NOTIMPLEMENTED;
    name = PyObject_GetAttrString(npufunc, "__name__");
    if (name == NULL)
        return NULL;
    const char *cname = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    PgUfunc *uf = cname ? pg_ufunc_lookup(cname) : NULL;
    Py_ssize_t nin = PyTuple_GET_SIZE(args) - 2;
    if (uf == NULL || cname[0] == '_' || nin != pg_ufunc_nin(uf)) {
        PyErr_Clear();
        ret = Py_NewRef(Py_NotImplemented);
        goto done;
    }
    PyObject *out = NULL, *dtype_obj = NULL, *casting_obj = NULL;
    if (kwds) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
                out = value;
                if (PyTuple_Check(out)) {
                    if (PyTuple_GET_SIZE(out) != 1) {
                        ret = Py_NewRef(Py_NotImplemented);
                        goto done;
                    }
                    out = PyTuple_GET_ITEM(out, 0);
                }
                if (out != Py_None && !PgArray_Check(out)) {
                    ret = Py_NewRef(Py_NotImplemented);
                    goto done;
                }
            } else if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
                dtype_obj = value;
            } else if (PyUnicode_CompareWithASCIIString(key, "casting") == 0) {
                casting_obj = value;
            } else if (!((PyUnicode_CompareWithASCIIString(key, "where") == 0 && value == Py_True) ||
                         (PyUnicode_CompareWithASCIIString(key, "subok") == 0 && value == Py_True) ||
                         (PyUnicode_CompareWithASCIIString(key, "order") == 0 &&
                          PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, "K") == 0))) {
                ret = Py_NewRef(Py_NotImplemented); /* where=, signature=, ...: not ours */
                goto done;
            }
        }
    }
    int dtype = pg_type_from_object(dtype_obj, -1);
    if (dtype == -1 && PyErr_Occurred())
        goto done;
    PgCasting casting;
    if (pg_casting_from_object(casting_obj, &casting) < 0)
        goto done;
    PyObject *inputs[PG_MAXARGS];
    for (Py_ssize_t i = 0; i < nin; i++)
        inputs[i] = PyTuple_GET_ITEM(args, i + 2);
    ret = pg_ufunc_apply(uf, inputs, out, dtype, casting, 1);
done:
    Py_XDECREF(name);
    return ret;
}

static PyObject *
array_namespace(PyObject *self, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(self);
    static char *kwlist[] = {"api_version", NULL};
    PyObject *version = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$O:__array_namespace__", kwlist, &version))
        return NULL;
    if (version != Py_None) {
        static const char *const known[] = {"2021.12", "2022.12", "2023.12", "2024.12"};
        int ok = 0;
        for (size_t i = 0; i < 4 && PyUnicode_Check(version); i++)
            ok |= PyUnicode_CompareWithASCIIString(version, known[i]) == 0;
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "unsupported API version %R; pygpu implements 2024.12", version);
            return NULL;
        }
    }
    return PyImport_ImportModule("pygpu");
}

PyMethodDef pg_array_methods_math[] = {
    {"__array_ufunc__", (PyCFunction)(void (*)(void))array_ufunc, METH_VARARGS | METH_KEYWORDS,
     "Runs NumPy ufuncs that pygpu implements on the array's device; NotImplemented for others."},
    {"__array_namespace__", (PyCFunction)(void (*)(void))array_namespace, METH_VARARGS | METH_KEYWORDS,
     "__array_namespace__(*, api_version=None) -> the pygpu module (Python array API)."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ real / imag */

static PgArray *
part_view(PgArray *a, int imag)
{
    int rt = a->type == PG_COMPLEX64 ? PG_FLOAT32 : PG_FLOAT64;
    return pg_array_view(a, a->data + (imag ? pg_type_info[rt].itemsize : 0), rt, a->ndim, a->shape, a->strides);
}

static PyObject *
get_real(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    if (!PG_IS_COMPLEX(a->type))
        return Py_NewRef(self);
    return (PyObject *)part_view(a, 0);
}

static PyObject *
get_imag(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    if (PG_IS_COMPLEX(a->type))
        return (PyObject *)part_view(a, 1);
    /* real arrays: read-only zeros, as NumPy */
    PgArray *z = pg_array_new_like(a, -1, 'K');
    if (z == NULL)
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    int rc = zero ? pg_array_fill(z, zero) : -1;
    Py_XDECREF(zero);
    if (rc < 0) {
        Py_DECREF(z);
        return NULL;
    }
    z->flags &= ~PG_WRITEABLE;
    return (PyObject *)z;
}

static int
set_part(PyObject *self, PyObject *value, int imag)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete array attribute");
        return -1;
    }
    PgArray *a = (PgArray *)self;
    PgArray *dst;
    if (PG_IS_COMPLEX(a->type))
        dst = part_view(a, imag);
    else if (imag) {
        PyErr_SetString(PyExc_TypeError, "array does not have imaginary part to set");
        return -1;
    } else
        dst = (PgArray *)Py_NewRef(self);
    if (dst == NULL)
        return -1;
    int rc;
    if (PgArray_Check(value)) {
        rc = pg_array_assign(dst, (PgArray *)value);
    } else if (PyArray_Check(value)) {
        rc = pg_array_assign_numpy(dst, (PyArrayObject *)value);
    } else {
        PgArray *v = pg_asarray(value, -1, dst->device, -1);
        rc = v ? pg_array_assign(dst, v) : -1;
        Py_XDECREF(v);
    }
    Py_DECREF(dst);
    return rc;
}

static int set_real(PyObject *self, PyObject *v, void *c) { PG_UNUSED(c); return set_part(self, v, 0); }
static int set_imag(PyObject *self, PyObject *v, void *c) { PG_UNUSED(c); return set_part(self, v, 1); }

PyGetSetDef pg_array_getset_math[] = {
    {"real", get_real, set_real, "The real part (a view for complex arrays; the array itself otherwise).", NULL},
    {"imag", get_imag, set_imag, "The imaginary part (a view for complex arrays; read-only zeros otherwise).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ where, clip */

/* The fastcall arguments named in `names` into slots (NULL when absent). */
static int
parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *const *names,
           int npos, PyObject **slots, int nrequired)
{
    int nnames = 0;
    while (names[nnames])
        nnames++;
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fname, npos, nargs);
        return -1;
    }
    for (int i = 0; i < nnames; i++)
        slots[i] = i < nargs ? args[i] : NULL;
    for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < nnames && found < 0; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
                found = i;
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (slots[found]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[found]);
            return -1;
        }
        slots[found] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++) {
        if (slots[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

static PyObject *
py_where(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static const char *const names[] = {"condition", "x", "y", NULL};
    PyObject *slots[3];
    if (parse_args("where", args, nargs, kwnames, names, 3, slots, 1) < 0)
        return NULL;
    if (slots[1] == NULL || slots[2] == NULL) {
        PyErr_SetString(PyExc_ValueError, "pygpu.where needs condition, x and y (the one-argument form, "
                                          "nonzero, is not provided)");
        return NULL;
    }
    return pg_ufunc_apply(pg_op_ufuncs[PG_OP_WHERE], slots, NULL, -1, PG_CAST_SAME_KIND, 0);
}

static PyObject *
py_clip(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static const char *const names[] = {"x", "min", "max", "out", "a_min", "a_max", NULL};
    PyObject *s[6];
    if (parse_args("clip", args, nargs, kwnames, names, 3, s, 1) < 0)
        return NULL;
    PyObject *lo = s[1] ? s[1] : s[4], *hi = s[2] ? s[2] : s[5], *out = s[3];
    if ((s[1] && s[4]) || (s[2] && s[5])) {
        PyErr_SetString(PyExc_TypeError, "clip() got both min and a_min (or max and a_max)");
        return NULL;
    }
    int has_lo = lo && lo != Py_None, has_hi = hi && hi != Py_None;
    if (!has_lo && !has_hi) {
        PyObject *x = s[0];
        if (out && out != Py_None) {
            PyObject *in[2] = {x, x};
            return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MAXIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
        }
        PgArray *a = pg_asarray(x, -1, NULL, 1);
        return (PyObject *)a;
    }
    if (!has_hi) {
        PyObject *in[2] = {s[0], lo};
        return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MAXIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
    }
    if (!has_lo) {
        PyObject *in[2] = {s[0], hi};
        return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MINIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
    }
    PyObject *in[3] = {s[0], lo, hi};
    return pg_ufunc_apply(pg_op_ufuncs[PG_OP_CLIP], in, out, -1, PG_CAST_SAME_KIND, 0);
}

/* _as_strided(a, shape, strides, offset=0): a view of a's memory with any layout inside it
 * (numpy.lib.stride_tricks.as_strided, bounds-checked). Tests use it to make layouts. */
static PyObject *
py_as_strided(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *aobj, *shape_obj, *strides_obj;
    long long offset = 0;
    if (!PyArg_ParseTuple(args, "O!OO|L:_as_strided", &PgArray_Type, &aobj, &shape_obj, &strides_obj, &offset))
        return NULL;
    PgArray *a = (PgArray *)aobj;
    int nd, nd2;
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    if (pg_parse_shape(shape_obj, &nd, shape) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(strides_obj, "strides must be a sequence");
    if (seq == NULL)
        return NULL;
    nd2 = (int)PySequence_Fast_GET_SIZE(seq);
    int rc = nd2 == nd ? 0 : -1;
    for (int i = 0; rc == 0 && i < nd; i++)
        rc = pg_parse_int64(PySequence_Fast_GET_ITEM(seq, i), &strides[i], "stride");
    Py_DECREF(seq);
    if (rc < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "shape and strides must have the same length");
        return NULL;
    }
    /* the view must stay inside the base array's bytes */
    char *lo, *hi, *blo, *bhi;
    int64_t isz = PG_ITEMSIZE(a);
    int64_t size = pg_shape_size(nd, shape);
    if (size < 0)
        return NULL;
    blo = a->data;
    bhi = a->data + pg_array_size(a) * isz;
    lo = a->data + offset;
    hi = lo + isz;
    for (int i = 0; i < nd; i++) {
        int64_t ext = (shape[i] - 1) * strides[i];
        if (ext < 0)
            lo += ext;
        else
            hi += ext;
    }
    if (!(a->flags & PG_C_CONTIGUOUS) || (size > 0 && (lo < blo || hi > bhi))) {
        PyErr_SetString(PyExc_ValueError, "_as_strided: the view must lie inside a C-contiguous base array");
        return NULL;
    }
    return (PyObject *)pg_array_view(a, a->data + offset, a->type, nd, shape, strides);
}

PyMethodDef pg_math_module_methods[] = {
    {"where", (PyCFunction)(void (*)(void))py_where, METH_FASTCALL | METH_KEYWORDS,
     "where(condition, x, y): elements of x where condition is true, else of y."},
    {"clip", (PyCFunction)(void (*)(void))py_clip, METH_FASTCALL | METH_KEYWORDS,
     "clip(x, min=None, max=None, out=None): x limited to [min, max] (NaN propagates)."},
    {"_as_strided", py_as_strided, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
