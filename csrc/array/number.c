/* The number protocol, rich comparison, __array_ufunc__ and __array_namespace__ of ndarray. The
 * slots name the operation and call through pg_array_math, which math/ fills at module init; the
 * NumPy ufuncs that are not elementwise (matmul, vecdot, ...) go to pygpu/_dispatch.py. */
#include "array/number.h"

PgArrayMath pg_array_math;

static PyObject *
apply(PgNumberOp op, PyObject *const *args, PyObject *out)
{
    if (pg_array_math.apply == NULL) {
        PyErr_SetString(PyExc_SystemError, "pygpu's math is not initialised");
        return NULL;
    }
    return pg_array_math.apply(op, args, out);
}

static PyObject *
binary(PgNumberOp op, PyObject *a, PyObject *b)
{
    PyObject *args[2] = {a, b};
    return apply(op, args, NULL);
}

/* a op= b: the result goes into a */
static PyObject *
inplace(PgNumberOp op, PyObject *a, PyObject *b)
{
    if (!PgArray_Check(a))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return apply(op, args, a);
}

static PyObject *
unary(PgNumberOp op, PyObject *a)
{
    return apply(op, &a, NULL);
}

#define BINARY_SLOT(fn, OP)                                                                     \
    static PyObject *fn(PyObject *a, PyObject *b) { return binary(OP, a, b); }                  \
    static PyObject *fn##_inplace(PyObject *a, PyObject *b) { return inplace(OP, a, b); }
BINARY_SLOT(nb_add, PG_NB_ADD)
BINARY_SLOT(nb_sub, PG_NB_SUB)
BINARY_SLOT(nb_mul, PG_NB_MUL)
BINARY_SLOT(nb_truediv, PG_NB_TRUEDIV)
BINARY_SLOT(nb_floordiv, PG_NB_FLOORDIV)
BINARY_SLOT(nb_rem, PG_NB_REM)
BINARY_SLOT(nb_lshift, PG_NB_LSHIFT)
BINARY_SLOT(nb_rshift, PG_NB_RSHIFT)
BINARY_SLOT(nb_and, PG_NB_AND)
BINARY_SLOT(nb_or, PG_NB_OR)
BINARY_SLOT(nb_xor, PG_NB_XOR)

static PyObject *
nb_pow(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return binary(PG_NB_POW, a, b);
}

static PyObject *
nb_pow_inplace(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return inplace(PG_NB_POW, a, b);
}

static PyObject *
nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *q = binary(PG_NB_FLOORDIV, a, b);
    if (q == NULL || q == Py_NotImplemented)
        return q;
    PyObject *r = binary(PG_NB_REM, a, b);
    if (r == NULL || r == Py_NotImplemented) {
        Py_DECREF(q);
        return r;
    }
    PyObject *t = PyTuple_Pack(2, q, r);
    Py_DECREF(q);
    Py_DECREF(r);
    return t;
}

static PyObject *
nb_matmul(PyObject *a, PyObject *b)
{
    if (pg_array_math.matmul == NULL) {
        PyErr_SetString(PyExc_SystemError, "pygpu's math is not initialised");
        return NULL;
    }
    return pg_array_math.matmul(a, b, NULL);
}

static PyObject *
nb_matmul_inplace(PyObject *a, PyObject *b)
{
    if (!PgArray_Check(a))
        Py_RETURN_NOTIMPLEMENTED;
    if (pg_array_math.matmul == NULL) {
        PyErr_SetString(PyExc_SystemError, "pygpu's math is not initialised");
        return NULL;
    }
    return pg_array_math.matmul(a, b, a);
}

static PyObject *nb_neg(PyObject *a) { return unary(PG_NB_NEG, a); }
static PyObject *nb_pos(PyObject *a) { return unary(PG_NB_POS, a); }
static PyObject *nb_abs(PyObject *a) { return unary(PG_NB_ABS, a); }
static PyObject *nb_invert(PyObject *a) { return unary(PG_NB_INVERT, a); }

int
pg_numpy_aware(PyObject *obj)
{
    return PyObject_HasAttrString(obj, "__array_ufunc__") || PyObject_HasAttrString(obj, "__array_priority__");
}

/* a == obj and a != obj for an obj no ufunc takes (None, a string, a Fraction): NumPy's elementwise
 * answer from comparing objects: a number equal to a float compares as that float, anything else
 * is unequal to every element (not Python's identity fallback, one bool) */
static PyObject *
compare_foreign(PyObject *a, PyObject *b, int op)
{
    if (PyNumber_Check(b) && !PyBytes_Check(b) && !PyUnicode_Check(b)) {
        PyObject *f = PyNumber_Float(b);
        int exact = f ? PyObject_RichCompareBool(f, b, Py_EQ) : (PyErr_Clear(), 0);
        if (exact < 0)
            PyErr_Clear();
        if (exact > 0) {
            PyObject *r = binary(op == Py_EQ ? PG_NB_EQ : PG_NB_NE, a, f);
            Py_DECREF(f);
            return r;
        }
        Py_XDECREF(f);
    }
    PgArray *arr = (PgArray *)a;
    PgArray *r = pg_array_new(arr->device, PG_BOOL, arr->ndim, arr->shape, 'C', PG_MEM_DEVICE);
    if (r && pg_array_fill(r, op == Py_NE ? Py_True : Py_False) < 0)
        Py_CLEAR(r);
    return (PyObject *)r;
}

/* Whether obj's class (a Python class, not a number) defines its own __eq__ (op Py_EQ) or __ne__:
 * NumPy's elementwise comparison of objects asks it for every element, so Python's reflected
 * call obj.__eq__(a) gives that answer (HasEq() == 2 for the elements that are 2). */
static int
defines_own_compare(PyObject *obj, int op)
{
    if (!(Py_TYPE(obj)->tp_flags & Py_TPFLAGS_HEAPTYPE) || PyNumber_Check(obj))
        return 0;
    const char *name = op == Py_EQ ? "__eq__" : "__ne__";
    PyObject *own = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), name);
    PyObject *base = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, name);
    int r = own != NULL && base != NULL && own != base;
    Py_XDECREF(own);
    Py_XDECREF(base);
    PyErr_Clear();
    return r;
}

static PyObject *
array_richcompare(PyObject *a, PyObject *b, int op)
{
    static const PgNumberOp map[] = {PG_NB_LT, PG_NB_LE, PG_NB_EQ, PG_NB_NE, PG_NB_GT, PG_NB_GE};
    PyObject *r = binary(map[op], a, b);
    if (r == Py_NotImplemented && (op == Py_EQ || op == Py_NE) && PgArray_Check(a) && !pg_numpy_aware(b)) {
        if (defines_own_compare(b, op))
            return r;
        if (op == Py_NE && defines_own_compare(b, Py_EQ)) {
            /* object's __ne__ is the negated __eq__ (NumPy's elements see it so) */
            Py_DECREF(r);
            PyObject *eq = PyObject_RichCompare(a, b, Py_EQ);
            if (eq == NULL || !PgArray_Check(eq))
                return eq == NULL ? NULL : (Py_DECREF(eq), compare_foreign(a, b, op));
            r = unary(PG_NB_INVERT, eq);
            Py_DECREF(eq);
            return r;
        }
        Py_DECREF(r);
        return compare_foreign(a, b, op);
    }
    return r;
}

static PyNumberMethods number_methods = {0};

void
pg_number_setup_type(PyTypeObject *t)
{
    /* other files may have set number slots (__bool__, __int__, __index__): keep them */
    PyNumberMethods *nm = t->tp_as_number ? t->tp_as_number : &number_methods;
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
    nm->nb_matrix_multiply = nb_matmul;
    nm->nb_inplace_matrix_multiply = nb_matmul_inplace;
    t->tp_as_number = nm;
    t->tp_richcompare = array_richcompare;
    /* arrays are mutable: not hashable, as numpy.ndarray */
    t->tp_hash = PyObject_HashNotImplemented;
}

static PyObject *
array_ufunc(PyObject *self, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(self);
    if (pg_array_math.array_ufunc == NULL) {
        PyErr_SetString(PyExc_SystemError, "pygpu's math is not initialised");
        return NULL;
    }
    return pg_array_math.array_ufunc(args, kwds);
}

PyObject *
pg_array_ufunc_fallback(PyObject *args, PyObject *kwds)
{
    static PyObject *handler; /* pygpu._dispatch.array_ufunc */
    if (handler == NULL) {
        PyObject *mod = PyImport_ImportModule("pygpu._dispatch");
        if (mod == NULL)
            return NULL;
        handler = PyObject_GetAttrString(mod, "array_ufunc");
        Py_DECREF(mod);
        if (handler == NULL)
            return NULL;
    }
    return PyObject_Call(handler, args, kwds);
}

int
pg_is_numpy_out(PyObject *out)
{
    if (out != NULL && PyTuple_Check(out)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(out); i++)
            if (PyArray_Check(PyTuple_GET_ITEM(out, i)))
                return 1;
        return 0;
    }
    return out != NULL && PyArray_Check(out);
}

PyObject *
pg_call_with_numpy_out(const char *name, PyObject *fn, PyObject *args, PyObject *kwargs)
{
    PyObject *mod = PyImport_ImportModule("pygpu._ufunc_on_host");
    PyObject *res = mod ? PyObject_CallMethod(mod, "with_numpy_out", "sOOOs", name, fn, args, kwargs, "out") : NULL;
    Py_XDECREF(mod);
    return res;
}

PyObject *
pg_core_call_with_numpy_out(const char *fname, int npos, const char *const *names, PyObject *const *values)
{
    PyObject *core = PyImport_ImportModule("pygpu._core");
    PyObject *fn = core ? PyObject_GetAttrString(core, fname) : NULL;
    PyObject *args = fn ? PyTuple_New(npos) : NULL, *kw = args ? PyDict_New() : NULL, *res = NULL;
    if (kw == NULL)
        goto done;
    for (int i = 0; i < npos; i++)
        PyTuple_SET_ITEM(args, i, Py_NewRef(values[i]));
    for (int i = npos; names[i] != NULL; i++)
        if (values[i] != NULL && PyDict_SetItemString(kw, names[i], values[i]) < 0)
            goto done;
    res = pg_call_with_numpy_out(fname, fn, args, kw);
done:
    Py_XDECREF(core);
    Py_XDECREF(fn);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    return res;
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

PyMethodDef pg_array_methods_number[] = {
    {"__array_ufunc__", (PyCFunction)(void (*)(void))array_ufunc, METH_VARARGS | METH_KEYWORDS,
     "Runs NumPy ufuncs that pygpu implements on the array's device; NotImplemented for others."},
    {"__array_namespace__", (PyCFunction)(void (*)(void))array_namespace, METH_VARARGS | METH_KEYWORDS,
     "__array_namespace__(*, api_version=None) -> the pygpu module (Python array API)."},
    {NULL, NULL, 0, NULL},
};
