/* The math behind ndarray's operators (array/number.h): each operation through its ufunc, x ** 2
 * as square(x) like NumPy, __array_ufunc__ so NumPy's functions run on pygpu arrays; and the
 * module functions where and clip. */
#include "array/advanced.h"
#include "array/number.h"
#include "math/ufunc.h"
#include "core/docstrings.h"

/* ------------------------------------------------------------------ operators */

/* NumPy's fast scalar powers: x ** 2 as square(x) for a Python int 2 (bool ** 2 is square's
 * int8), and for float and complex arrays x ** 0.5 as sqrt(x) and x ** -1 as reciprocal(x); real
 * floats also ** 2.0 and ** -1.0 (complex ones take those to power): one exact operation instead
 * of pow(), with the same result dtype (NEP 50: the Python scalar is weak). NULL when none applies. */
static PgUfunc *
fast_power(PyObject *a, PyObject *b)
{
    if (!PgArray_Check(a))
        return NULL;
    int t = ((PgArray *)a)->type;
    int inexact = PG_IS_FLOAT(t) || PG_IS_COMPLEX(t);
    if (PyLong_CheckExact(b)) {
        int overflow;
        long e = PyLong_AsLongAndOverflow(b, &overflow);
        if (overflow) /* past a long: power itself (e is -1 then, which is not 1 / x) */
            return NULL;
        if (e == 2)
            return pg_ufunc_lookup("square");
        if (e == -1 && inexact)
            return pg_ufunc_lookup("reciprocal");
    } else if (PyFloat_CheckExact(b) && inexact) {
        double e = PyFloat_AS_DOUBLE(b);
        if (e == 0.5)
            return pg_ufunc_lookup("sqrt");
        if (e == 2.0 && PG_IS_FLOAT(t))
            return pg_ufunc_lookup("square");
        if (e == -1.0 && PG_IS_FLOAT(t))
            return pg_ufunc_lookup("reciprocal");
    }
    return NULL;
}

static PyObject *
number_apply(PgNumberOp op, PyObject *const *args, PyObject *out)
{
    if (op == PG_NB_POW) {
        PgUfunc *sq = fast_power(args[0], args[1]);
        if (sq)
            return pg_ufunc_apply(sq, args, out, -1, PG_CAST_SAME_KIND, 1);
    }
    return pg_ufunc_apply(pg_op_ufuncs[op], args, out, -1, PG_CAST_SAME_KIND, 1);
}

/* ------------------------------------------------------------------ __array_ufunc__ */

/* np.add.reduce(x), np.maximum.accumulate(x), ...: the pygpu ufunc's method of that name with the
 * same arguments; NotImplemented for ufuncs or methods pygpu lacks. */
static PyObject *
ufunc_method(PyObject *npufunc, PyObject *method, PyObject *args, PyObject *kwds)
{
    PyObject *name = PyObject_GetAttrString(npufunc, "__name__");
    if (name == NULL)
        return NULL;
    const char *cname = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    PgUfunc *uf = cname && cname[0] != '_' ? pg_ufunc_lookup(cname) : NULL;
    PyObject *fn = uf ? PyObject_GetAttr((PyObject *)uf, method) : NULL;
    if (fn == NULL) {
        Py_DECREF(name);
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *inputs = PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args)), *res = NULL;
    if (inputs && kwds && pg_is_numpy_out(PyDict_GetItemString(kwds, "out")))
        res = pg_call_with_numpy_out(cname, fn, inputs, kwds); /* np.add.reduce(x, out=numpy_array) */
    else if (inputs)
        res = PyObject_Call(fn, inputs, kwds);
    Py_XDECREF(inputs);
    Py_DECREF(fn);
    Py_DECREF(name);
    return res;
}

/* np.<ufunc>(pygpu arrays, out=a NumPy array or where=...): pygpu._ufunc_on_host.call, which
 * computes with the pygpu ufunc and stores into the NumPy out on the CPU device */
static PyObject *
call_with_numpy_out(PgUfunc *uf, PyObject *args, PyObject *kwds)
{
    PyObject *mod = PyImport_ImportModule("pygpu._ufunc_on_host");
    PyObject *inputs = mod ? PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args)) : NULL;
    PyObject *res = inputs ? PyObject_CallMethod(mod, "call", "OOO", (PyObject *)uf, inputs, kwds) : NULL;
    Py_XDECREF(inputs);
    Py_XDECREF(mod);
    return res;
}

static PyObject *
array_ufunc(PyObject *args, PyObject *kwds)
{
    PyObject *ret = NULL, *name = NULL;
    if (PyTuple_GET_SIZE(args) < 2) {
        PyErr_SetString(PyExc_TypeError, "__array_ufunc__(ufunc, method, *inputs, **kwargs)");
        return NULL;
    }
    PyObject *npufunc = PyTuple_GET_ITEM(args, 0), *method = PyTuple_GET_ITEM(args, 1);
    if (!PyUnicode_Check(method))
        Py_RETURN_NOTIMPLEMENTED;
    if (PyUnicode_CompareWithASCIIString(method, "__call__") != 0)
        return ufunc_method(npufunc, method, args, kwds);
    name = PyObject_GetAttrString(npufunc, "__name__");
    if (name == NULL)
        return NULL;
    const char *cname = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    PgUfunc *uf = cname ? pg_ufunc_lookup(cname) : NULL;
    Py_ssize_t nin = PyTuple_GET_SIZE(args) - 2;
    if (uf == NULL || cname[0] == '_' || nin != pg_ufunc_nin(uf)) {
        PyErr_Clear();
        /* matmul and the other gufuncs pygpu implements in Python */
        ret = uf == NULL ? pg_array_ufunc_fallback(args, kwds) : Py_NewRef(Py_NotImplemented);
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
                    ret = call_with_numpy_out(uf, args, kwds);
                    goto done;
                }
            } else if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
                dtype_obj = value;
            } else if (PyUnicode_CompareWithASCIIString(key, "casting") == 0) {
                casting_obj = value;
            } else if (PyUnicode_CompareWithASCIIString(key, "where") == 0 && value != Py_True) {
                ret = call_with_numpy_out(uf, args, kwds); /* the ufunc's own where= */
                goto done;
            } else if (!((PyUnicode_CompareWithASCIIString(key, "subok") == 0 && value == Py_True) ||
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

int
pg_operators_init(void)
{
    pg_array_math.apply = number_apply;
    pg_array_math.array_ufunc = array_ufunc;
    return 0;
}

/* ------------------------------------------------------------------ where, clip */

static PyObject *
py_where(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static const char *const names[] = {"condition", "x", "y", NULL};
    PyObject *slots[3];
    if (pg_parse_fastcall("where", args, nargs, kwnames, names, 3, slots, 1) < 0)
        return NULL;
    if (slots[1] == NULL && slots[2] == NULL)
        return pg_nonzero(slots[0]);
    if (slots[1] == NULL || slots[2] == NULL) {
        PyErr_SetString(PyExc_ValueError, "either both or neither of x and y should be given");
        return NULL;
    }
    return pg_ufunc_apply(pg_op_ufuncs[PG_OP_WHERE], slots, NULL, -1, PG_CAST_SAME_KIND, 0);
}

/* 1 when bound is a Python int below (upper: above) the range of the integer array x's dtype: as
 * NumPy 2's clip, it then bounds nothing on that side (-2 for a uint8 array) instead of raising
 * OverflowError; 0 otherwise, -1 on error */
static int
int_bound_beyond(PyObject *x, PyObject *bound, int upper)
{
    if (!PgArray_Check(x) || !PyLong_Check(bound) || PyBool_Check(bound) || !PG_IS_INTEGER(((PgArray *)x)->type))
        return 0;
    int t = ((PgArray *)x)->type, bits = pg_type_info[t].itemsize * 8;
    PyObject *limit;
    if (PG_IS_UNSIGNED(t))
        limit = upper ? PyLong_FromUnsignedLongLong(bits == 64 ? ULLONG_MAX : (1ULL << bits) - 1) : PyLong_FromLong(0);
    else
        limit = PyLong_FromLongLong(upper ? (bits == 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1)
                                          : (bits == 64 ? LLONG_MIN : -(1LL << (bits - 1))));
    if (limit == NULL)
        return -1;
    int r = PyObject_RichCompareBool(bound, limit, upper ? Py_GT : Py_LT);
    Py_DECREF(limit);
    return r;
}

/* clip(x, lo, hi, out=out), x no Python scalar (py_clip makes one an array); lo, hi NULL or None
 * for no bound */
static PyObject *
clip_bounds(PyObject *x, PyObject *lo, PyObject *hi, PyObject *out)
{
    int has_lo = lo && lo != Py_None, has_hi = hi && hi != Py_None;
    int beyond_lo = has_lo ? int_bound_beyond(x, lo, 0) : 0, beyond_hi = has_hi ? int_bound_beyond(x, hi, 1) : 0;
    if (beyond_lo < 0 || beyond_hi < 0)
        return NULL;
    has_lo &= !beyond_lo;
    has_hi &= !beyond_hi;
    if (!has_lo && !has_hi) {
        if (out && out != Py_None) {
            PyObject *in[2] = {x, x};
            return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MAXIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
        }
        PgArray *a = pg_asarray(x, -1, NULL, 1);
        return (PyObject *)a;
    }
    if (!has_hi) {
        PyObject *in[2] = {x, lo};
        return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MAXIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
    }
    if (!has_lo) {
        PyObject *in[2] = {x, hi};
        return pg_ufunc_apply(pg_op_ufuncs[PG_OP_MINIMUM], in, out, -1, PG_CAST_SAME_KIND, 0);
    }
    if (PgArray_Check(x) && PG_IS_COMPLEX(((PgArray *)x)->type)) {
        /* complex (the clip loops have none): NumPy's order by real part, then imaginary, as its
         * maximum and minimum; the upper bound applied last wins when the bounds cross */
        PyObject *in[2] = {x, lo};
        PyObject *above = pg_ufunc_apply(pg_op_ufuncs[PG_OP_MAXIMUM], in, NULL, -1, PG_CAST_SAME_KIND, 0);
        if (above == NULL)
            return NULL;
        PyObject *in2[2] = {above, hi};
        PyObject *r = pg_ufunc_apply(pg_op_ufuncs[PG_OP_MINIMUM], in2, out, -1, PG_CAST_SAME_KIND, 0);
        Py_DECREF(above);
        return r;
    }
    PyObject *in[3] = {x, lo, hi};
    return pg_ufunc_apply(pg_op_ufuncs[PG_OP_CLIP], in, out, -1, PG_CAST_SAME_KIND, 0);
}

static PyObject *
py_clip(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PG_UNUSED(m);
    static const char *const names[] = {"x", "min", "max", "out", "a_min", "a_max", NULL};
    PyObject *s[6];
    if (pg_parse_fastcall("clip", args, nargs, kwnames, names, 3, s, 1) < 0)
        return NULL;
    if (pg_is_numpy_out(s[3]))
        return pg_core_call_with_numpy_out("clip", 1, names, s);
    PyObject *lo = s[1] ? s[1] : s[4], *hi = s[2] ? s[2] : s[5], *out = s[3];
    if ((s[1] && s[4]) || (s[2] && s[5])) {
        PyErr_SetString(PyExc_TypeError, "clip() got both min and a_min (or max and a_max)");
        return NULL;
    }
    /* a Python scalar x is an array first, as NumPy's clip makes it (clip(2**63, 0, 1) is uint64) */
    PgArray *xarr = NULL;
    if (PyLong_Check(s[0]) || PyFloat_Check(s[0]) || PyComplex_Check(s[0])) {
        int t = PyLong_Check(s[0]) && !PyBool_Check(s[0]) ? pg_python_int_type(s[0]) : -1;
        if ((t < 0 && PyErr_Occurred()) || (xarr = pg_asarray(s[0], t, NULL, -1)) == NULL)
            return NULL;
        s[0] = (PyObject *)xarr;
    }
    PyObject *r = clip_bounds(s[0], lo, hi, out);
    Py_XDECREF(xarr);
    return r;
}

PyMethodDef pg_math_module_methods[] = {
    {"where", (PyCFunction)(void (*)(void))py_where, METH_FASTCALL | METH_KEYWORDS, PG_DOC_WHERE},
    {"clip", (PyCFunction)(void (*)(void))py_clip, METH_FASTCALL | METH_KEYWORDS,
     "clip($module, x, /, min=None, max=None, *, out=None, a_min=None, a_max=None)\n--\n\n"
     "x limited to [min, max] (NaN propagates); a_min and a_max are NumPy's older names of min "
     "and max."},
    {NULL, NULL, 0, NULL},
};
