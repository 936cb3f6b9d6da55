/* The named reductions and scans (sum, mean, argmin, nanvar, cumsum, cumulative_sum, ...) as
 * module functions and ndarray methods: NumPy's signatures parsed into a request for
 * pg_reduce_array or pg_scan_array (reduction.c, scan.c). */
#include "array/number.h"
#include "math/reduction.h"

/* NumPy's signatures: argument names in order, how many may be positional (the array included) */
typedef enum { SIG_SUM, SIG_MAX, SIG_ANY, SIG_MEAN, SIG_VAR, SIG_ARG, SIG_COUNT, SIG_CUM, SIG_CUMUL } Sig;
#define MAXNAMES 10
static const struct {
    const char *const names[MAXNAMES];
    int npos;
} sigs[] = {
    [SIG_SUM] = {{"a", "axis", "dtype", "out", "keepdims", "initial", "where", NULL}, 7},
    [SIG_MAX] = {{"a", "axis", "out", "keepdims", "initial", "where", NULL}, 6},
    [SIG_ANY] = {{"a", "axis", "out", "keepdims", "where", NULL}, 4},
    [SIG_MEAN] = {{"a", "axis", "dtype", "out", "keepdims", "where", NULL}, 5},
    [SIG_VAR] = {{"a", "axis", "dtype", "out", "ddof", "keepdims", "where", "mean", "correction", NULL}, 6},
    [SIG_ARG] = {{"a", "axis", "out", "keepdims", NULL}, 3},
    [SIG_COUNT] = {{"a", "axis", "keepdims", NULL}, 2},
    [SIG_CUM] = {{"a", "axis", "dtype", "out", NULL}, 4},
    [SIG_CUMUL] = {{"x", "axis", "dtype", "out", "include_initial", NULL}, 1},
};

typedef struct {
    const char *name;
    PgRedOp op;
    Sig sig;
    int skipnan;
} Def;

enum {
    D_SUM, D_PROD, D_MAX, D_AMAX, D_MIN, D_AMIN, D_ANY, D_ALL, D_MEAN, D_VAR, D_STD, D_ARGMAX, D_ARGMIN,
    D_COUNT_NONZERO, D_NANSUM, D_NANPROD, D_NANMAX, D_NANMIN, D_NANMEAN, D_NANVAR, D_NANSTD, D_NANARGMAX,
    D_NANARGMIN, D_CUMSUM, D_CUMPROD, D_CUMULATIVE_SUM, D_CUMULATIVE_PROD,
};

static const Def defs[] = {
    [D_SUM] = {"sum", PG_ROP_ADD, SIG_SUM, 0},
    [D_PROD] = {"prod", PG_ROP_MUL, SIG_SUM, 0},
    [D_MAX] = {"max", PG_ROP_MAX, SIG_MAX, 0},
    [D_AMAX] = {"amax", PG_ROP_MAX, SIG_MAX, 0},
    [D_MIN] = {"min", PG_ROP_MIN, SIG_MAX, 0},
    [D_AMIN] = {"amin", PG_ROP_MIN, SIG_MAX, 0},
    [D_ANY] = {"any", PG_ROP_LOR, SIG_ANY, 0},
    [D_ALL] = {"all", PG_ROP_LAND, SIG_ANY, 0},
    [D_MEAN] = {"mean", PG_ROP_MEAN, SIG_MEAN, 0},
    [D_VAR] = {"var", PG_ROP_VAR, SIG_VAR, 0},
    [D_STD] = {"std", PG_ROP_STD, SIG_VAR, 0},
    [D_ARGMAX] = {"argmax", PG_ROP_ARGMAX, SIG_ARG, 0},
    [D_ARGMIN] = {"argmin", PG_ROP_ARGMIN, SIG_ARG, 0},
    [D_COUNT_NONZERO] = {"count_nonzero", PG_ROP_COUNT, SIG_COUNT, 0},
    [D_NANSUM] = {"nansum", PG_ROP_ADD, SIG_SUM, 1},
    [D_NANPROD] = {"nanprod", PG_ROP_MUL, SIG_SUM, 1},
    [D_NANMAX] = {"nanmax", PG_ROP_FMAX, SIG_MAX, 1}, /* NumPy's nanmax is fmax.reduce */
    [D_NANMIN] = {"nanmin", PG_ROP_FMIN, SIG_MAX, 1},
    [D_NANMEAN] = {"nanmean", PG_ROP_MEAN, SIG_MEAN, 1},
    [D_NANVAR] = {"nanvar", PG_ROP_VAR, SIG_VAR, 1},
    [D_NANSTD] = {"nanstd", PG_ROP_STD, SIG_VAR, 1},
    [D_NANARGMAX] = {"nanargmax", PG_ROP_ARGMAX, SIG_ARG, 1},
    [D_NANARGMIN] = {"nanargmin", PG_ROP_ARGMIN, SIG_ARG, 1},
    [D_CUMSUM] = {"cumsum", PG_ROP_ADD, SIG_CUM, 0},
    [D_CUMPROD] = {"cumprod", PG_ROP_MUL, SIG_CUM, 0},
    [D_CUMULATIVE_SUM] = {"cumulative_sum", PG_ROP_ADD, SIG_CUMUL, 0},
    [D_CUMULATIVE_PROD] = {"cumulative_prod", PG_ROP_MUL, SIG_CUMUL, 0},
};

/* the argument called `name` of signature sig, or NULL */
static PyObject *
arg(Sig sig, PyObject *const *slots, const char *name)
{
    for (int i = 0; sigs[sig].names[i]; i++)
        if (strcmp(sigs[sig].names[i], name) == 0)
            return slots[i];
    return NULL;
}

/* ddof= or the array API's correction= (not both), as a double */
static int
parse_ddof(PyObject *ddof, PyObject *correction, double *out)
{
    if (ddof && correction && ddof != Py_None && correction != Py_None) {
        PyErr_SetString(PyExc_ValueError, "ddof and correction can't be provided simultaneously.");
        return -1;
    }
    PyObject *v = correction && correction != Py_None ? correction : ddof;
    *out = 0;
    if (v == NULL || v == Py_None)
        return 0;
    *out = PyFloat_AsDouble(v);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* out= may be given as a 1-tuple, as for ufuncs */
static PyObject *
single_out(PyObject *out)
{
    if (out && PyTuple_Check(out) && PyTuple_GET_SIZE(out) == 1)
        return PyTuple_GET_ITEM(out, 0);
    return out;
}

static int
truth(PyObject *v, int deflt)
{
    return v == NULL ? deflt : PyObject_IsTrue(v);
}

/* var/std about a given mean (NumPy's mean=): composed in Python (pygpu/_reductions.py) from
 * the elementwise ufuncs and sum, as NumPy composes it */
static PyObject *
var_about(const Def *def, PyObject *a, const PgReduceRequest *req, PyObject *mean)
{
    PyObject *mod = PyImport_ImportModule("pygpu._reductions");
    if (mod == NULL)
        return NULL;
    PyObject *dtype = req->dtype >= 0 ? (PyObject *)pg_type_descr(req->dtype) : Py_None;
    PyObject *res = PyObject_CallMethod(mod, "_var_about", "OOOOdOOOOO", a, req->axis ? req->axis : Py_None, dtype,
                                        req->out ? req->out : Py_None, req->ddof, req->keepdims ? Py_True : Py_False,
                                        req->where ? req->where : Py_True, mean,
                                        def->op == PG_ROP_STD ? Py_True : Py_False,
                                        def->skipnan ? Py_True : Py_False);
    Py_DECREF(mod);
    return res;
}

/* 1 when mean/var/std (and the nan- ones) of an x of type xt take NumPy's own steps (pygpu/
 * _reductions.py's _moments_as_numpy) because the one-pass reduction would answer otherwise:
 * NumPy's float16 sums are float16 (they may overflow; plain mean of float16 alone sums in
 * float32), var keeps a complex dtype= and drops a complex input's imaginary part from the mean
 * alone, an out= of another inexact dtype divides in out's, an integer dtype= sums in it (wrapping)
 * and truncates the division, or is refused where NumPy refuses it (nan- functions of inexact
 * input, std's sqrt). And a mean whose count where= or NaNs decide: NumPy divides the sum by the
 * count (a complex one by (n + 0j), so an infinite part makes the other NaN, and a sum may
 * overflow), where the one pass keeps a running mean. None is a common case. */
static int
numpy_steps(const Def *def, int xt, int dtype, PyObject *out, PyObject *where)
{
    const int var = def->sig == SIG_VAR;
    const int nan_steps = def->skipnan && (PG_IS_FLOAT(xt) || PG_IS_COMPLEX(xt));
    if (def->sig == SIG_MEAN && (nan_steps || (where && where != Py_True)))
        return 1;
    if (dtype == PG_FLOAT16 || (xt == PG_FLOAT16 && dtype < 0 && (var || nan_steps)))
        return 1;
    if (dtype >= 0 && !PG_IS_FLOAT(dtype) && !PG_IS_COMPLEX(dtype)) /* sums that wrap, divisions truncated */
        return 1;
    if (var && dtype >= 0 && (PG_IS_COMPLEX(dtype) || PG_IS_COMPLEX(xt)))
        return 1;
    if (out && PgArray_Check(out)) {
        const int ot = ((PgArray *)out)->type;
        int ct, rt = pg_reduce_result_type(def->op, xt, pg_reduce_dtype_of_out(def->op, xt, dtype, out), &ct);
        if (rt < 0) {
            PyErr_Clear(); /* the reduction's own error follows */
            return 0;
        }
        return ot != rt && (PG_IS_FLOAT(ot) || PG_IS_COMPLEX(ot));
    }
    return 0;
}

static PyObject *
moments_as_numpy(const Def *def, PyObject *a, const PgReduceRequest *req)
{
    PyObject *mod = PyImport_ImportModule("pygpu._reductions");
    if (mod == NULL)
        return NULL;
    PyObject *dtype = req->dtype >= 0 ? (PyObject *)pg_type_descr(req->dtype) : Py_None;
    const char *kind = def->op == PG_ROP_MEAN ? "mean" : def->op == PG_ROP_VAR ? "var" : "std";
    PyObject *res = PyObject_CallMethod(mod, "_moments_as_numpy", "sOOOOdOOO", kind, a, req->axis ? req->axis : Py_None,
                                        dtype, req->out ? req->out : Py_None, req->ddof,
                                        req->keepdims ? Py_True : Py_False, req->where ? req->where : Py_True,
                                        def->skipnan ? Py_True : Py_False);
    Py_DECREF(mod);
    return res;
}

/* NumPy's RuntimeWarnings of mean and var that the shapes alone decide (an empty slice, ddof past
 * the count), at the caller; -1 when one is made an error. Counts that where= or NaNs decide are
 * on the device and not read back for a warning. */
static int
warn_by_shape(const Def *def, PgArray *x, PyObject *axis, const PgReduceRequest *req)
{
    if (req->where && req->where != Py_True)
        return 0;
    char reduced[PG_MAXDIMS];
    if (pg_reduce_parse_axis(axis, x->ndim, 0, reduced) < 0) {
        PyErr_Clear();
        return 0;
    }
    int64_t nred = 1, nout = 1;
    for (int i = 0; i < x->ndim; i++) {
        if (reduced[i])
            nred *= x->shape[i];
        else
            nout *= x->shape[i];
    }
    /* NumPy's nan- functions of integers are its mean and var */
    const int skipnan = def->skipnan && (PG_IS_FLOAT(x->type) || PG_IS_COMPLEX(x->type));
    if (def->sig == SIG_MEAN) {
        if (nred == 0 && (!skipnan || nout > 0)) /* nanmean: any count of 0; mean: the count 0 */
            return PyErr_WarnEx(PyExc_RuntimeWarning, "Mean of empty slice", 1);
        return 0;
    }
    if (skipnan)
        return nout > 0 && (double)nred - req->ddof <= 0
                   ? PyErr_WarnEx(PyExc_RuntimeWarning, "Degrees of freedom <= 0 for slice.", 1)
                   : 0;
    return req->ddof >= (double)nred ? PyErr_WarnEx(PyExc_RuntimeWarning, "Degrees of freedom <= 0 for slice", 1)
                                     : 0;
}

/* 1 when x is 0-d: a 0-d pygpu or NumPy array, a Python or NumPy scalar */
static int
is_zero_d(PyObject *x)
{
    if (PgArray_Check(x))
        return ((PgArray *)x)->ndim == 0;
    if (PyLong_Check(x) || PyFloat_Check(x) || PyComplex_Check(x))
        return 1;
    if (PySequence_Check(x) && !PyObject_HasAttrString(x, "ndim"))
        return 0; /* a list or tuple */
    PyObject *nd = PyObject_GetAttrString(x, "ndim");
    if (nd == NULL) {
        PyErr_Clear();
        return 0;
    }
    int zero = PyLong_Check(nd) && PyLong_AsLong(nd) == 0;
    Py_DECREF(nd);
    PyErr_Clear();
    return zero;
}

/* 1 when x is 0-d and axis the int 0 or -1, 0 when not, -1 on error */
static int
zero_d_with_axis_0(PyObject *x, PyObject *axis)
{
    if (axis == NULL || !PyLong_Check(axis) || PyBool_Check(axis) || !is_zero_d(x))
        return 0;
    long v = PyLong_AsLong(axis);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear(); /* past a long: the axis parser's AxisError */
        return 0;
    }
    return v == 0 || v == -1;
}

/* ~isnan(a), and where (when given) */
static PyObject *
not_nan(PyObject *a, PyObject *where)
{
    PyObject *nan = pg_ufunc_apply(pg_ufunc_lookup("isnan"), &a, NULL, -1, PG_CAST_SAME_KIND, 0);
    if (nan == NULL)
        return NULL;
    PyObject *mask = pg_ufunc_apply(pg_ufunc_lookup("logical_not"), &nan, NULL, -1, PG_CAST_SAME_KIND, 0);
    Py_DECREF(nan);
    if (mask == NULL || where == NULL || where == Py_None || where == Py_True)
        return mask;
    PyObject *both[2] = {mask, where};
    PyObject *res = pg_ufunc_apply(pg_ufunc_lookup("logical_and"), both, NULL, -1, PG_CAST_SAME_KIND, 0);
    Py_DECREF(mask);
    return res;
}

/* The function (self NULL) or method (self the array) def with its fastcall arguments. */
/* NEP 18 for pygpu's own functions: an array-like of another library as the array (fuse's traced
 * arrays, a Dask array, ...) that defines __array_function__ is handed NumPy's function of the
 * same name, as np.sum(x) would hand it; pygpu and NumPy arrays, scalars and sequences are
 * computed here (*handled = 0, NULL returned). */
static PyObject *
function_override(const Def *def, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int *handled)
{
    *handled = 0;
    PyObject *x = args[0];
    if (PgArray_Check(x) || PyArray_Check(x) || PyArray_IsScalar(x, Generic) || PyList_Check(x) ||
        PyTuple_Check(x) || PyLong_Check(x) || PyFloat_Check(x) || PyComplex_Check(x) || PyBool_Check(x))
        return NULL;
    PyObject *method = PyObject_GetAttrString((PyObject *)Py_TYPE(x), "__array_function__");
    if (method == NULL) {
        PyErr_Clear();
        return NULL;
    }
    *handled = 1;
    PyObject *numpy = NULL, *func = NULL, *types = NULL, *pos = NULL, *kw = NULL, *res = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if ((numpy = PyImport_ImportModule("numpy")) == NULL || (func = PyObject_GetAttrString(numpy, def->name)) == NULL ||
        (types = PyTuple_Pack(1, (PyObject *)Py_TYPE(x))) == NULL || (pos = PyTuple_New(nargs)) == NULL ||
        (kw = PyDict_New()) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < nargs; i++)
        PyTuple_SET_ITEM(pos, i, Py_NewRef(args[i]));
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
            goto done;
    res = PyObject_CallFunctionObjArgs(method, x, func, types, pos, kw, NULL);
    if (res == Py_NotImplemented) {
        Py_CLEAR(res);
        PyErr_Format(PyExc_TypeError, "%s(): no implementation for an argument of type %.200s", def->name,
                     Py_TYPE(x)->tp_name);
    }
done:
    Py_DECREF(method);
    Py_XDECREF(numpy);
    Py_XDECREF(func);
    Py_XDECREF(types);
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    return res;
}

/* NumPy's refusals of an out= dtype, -1 with its TypeError: argmax into what is not safely an
 * intp (NumPy reads out as one), a nan function of inexact values into an integer or bool out, std
 * (its sqrt) into one. The others cast into out unsafely. */
static int
check_out_type(const Def *def, PyObject *x, PyObject *out, int dtype)
{
    if (out == NULL || !PgArray_Check(out))
        return 0;
    const int ot = ((PgArray *)out)->type, xt = PgArray_Check(x) ? ((PgArray *)x)->type : -1;
    if (def->sig == SIG_ARG && !pg_can_cast(ot, PG_INT64, PG_CAST_SAFE)) {
        PyErr_Format(PyExc_TypeError, "Cannot cast array data from dtype('%s') to dtype('int64') according to the "
                     "rule 'safe'", pg_type_info[ot].name);
        return -1;
    }
    if (def->sig != SIG_MEAN && def->sig != SIG_VAR)
        return 0;
    if (PG_IS_FLOAT(ot) || PG_IS_COMPLEX(ot))
        return 0;
    const int inexact_x = xt >= 0 && (PG_IS_FLOAT(xt) || PG_IS_COMPLEX(xt));
    if (def->skipnan && inexact_x) {
        PyErr_SetString(PyExc_TypeError, "If a is inexact, then out must be inexact");
        return -1;
    }
    if (def->op == PG_ROP_STD) {
        const int ct = dtype >= 0 ? dtype : inexact_x ? xt : PG_FLOAT64;
        PyErr_Format(PyExc_TypeError, "Cannot cast ufunc 'sqrt' output from dtype('%s') to dtype('%s') with casting "
                     "rule 'same_kind'", pg_type_info[ct].name, pg_type_info[ot].name);
        return -1;
    }
    return 0;
}

static PyObject *
call(const Def *def, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (self == NULL && nargs > 0) {
        int handled;
        PyObject *res = function_override(def, args, nargs, kwnames, &handled);
        if (handled)
            return res;
    }
    PyObject *slots[MAXNAMES] = {NULL};
    PyObject *argv[MAXNAMES + 1];
    const Sig sig = def->sig;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (self) { /* the method's array is the function's first argument */
        if (nargs + nkw > MAXNAMES) {
            PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments", def->name, MAXNAMES - 1);
            return NULL;
        }
        argv[0] = self;
        if (nargs + nkw > 0) /* a call with no arguments may pass args == NULL */
            memcpy(argv + 1, args, sizeof(PyObject *) * (size_t)(nargs + nkw));
        args = argv;
        nargs++;
    }
    if (pg_parse_fastcall(def->name, args, nargs, kwnames, sigs[sig].names, sigs[sig].npos, slots, 1) < 0)
        return NULL;
    int dtype = pg_type_from_object(arg(sig, slots, "dtype"), -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    if (pg_is_numpy_out(arg(sig, slots, "out"))) /* x.sum(out=numpy_array) */
        return pg_core_call_with_numpy_out(def->name, 1, sigs[sig].names, slots);
    PyObject *out = single_out(arg(sig, slots, "out"));
    if (check_out_type(def, slots[0], out, dtype) < 0)
        return NULL;
    PyObject *axis = arg(sig, slots, "axis");
    int zero_d_axis = zero_d_with_axis_0(slots[0], axis);
    if (zero_d_axis < 0)
        return NULL;
    if (zero_d_axis && sig != SIG_MEAN && sig != SIG_VAR)
        axis = NULL; /* NumPy's ufunc reductions and cumsum take axis 0 or -1 of a 0-d array as None */
    if (sig == SIG_CUM || sig == SIG_CUMUL) {
        int include_initial = truth(arg(sig, slots, "include_initial"), 0);
        if (include_initial < 0)
            return NULL;
        return pg_scan_array(slots[0], def->op, axis, dtype, out, include_initial, def->name);
    }
    PgReduceRequest req = {0};
    req.op = def->op;
    req.axis = axis;
    req.dtype = dtype;
    req.out = out;
    req.keepdims = truth(arg(sig, slots, "keepdims"), 0);
    if (req.keepdims < 0)
        return NULL;
    req.initial = arg(sig, slots, "initial");
    req.where = arg(sig, slots, "where");
    req.skipnan = def->skipnan;
    if (sig == SIG_VAR) {
        if (parse_ddof(arg(sig, slots, "ddof"), arg(sig, slots, "correction"), &req.ddof) < 0)
            return NULL;
        PyObject *mean = arg(sig, slots, "mean");
        if (mean && mean != Py_None)
            return var_about(def, slots[0], &req, mean);
    }
    PgArray *x = NULL;
    if (sig == SIG_MEAN || sig == SIG_VAR) {
        if ((x = pg_asarray(slots[0], -1, NULL, -1)) == NULL)
            return NULL;
        if (numpy_steps(def, x->type, dtype, out, req.where)) {
            PyObject *res = moments_as_numpy(def, (PyObject *)x, &req);
            Py_DECREF(x);
            return res;
        }
        slots[0] = (PyObject *)x;
    }
    /* NaN-skipping into an integer or bool dtype=: the NaNs are left out by where= (the cast
     * first would make integers of them) */
    PyObject *mask = NULL;
    if (def->skipnan && dtype >= 0 && !PG_IS_FLOAT(dtype) && !PG_IS_COMPLEX(dtype) && PgArray_Check(slots[0]) &&
        (PG_IS_FLOAT(((PgArray *)slots[0])->type) || PG_IS_COMPLEX(((PgArray *)slots[0])->type))) {
        if ((mask = not_nan(slots[0], req.where)) == NULL) {
            Py_XDECREF(x);
            return NULL;
        }
        req.where = mask;
    }
    /* count_nonzero over every axis is a 0-d array, as the array API says (NumPy's is a Python
     * int, which would wait for the device) */
    PyObject *res = pg_reduce_array(slots[0], &req);
    Py_XDECREF(mask);
    if (res && x && warn_by_shape(def, x, axis, &req) < 0)
        Py_CLEAR(res);
    Py_XDECREF(x);
    return res;
}

#define FUNCTION(NAME, D)                                                                              \
    static PyObject *fn_##NAME(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                                  \
        PG_UNUSED(m);                                                                                  \
        return call(&defs[D], NULL, args, nargs, kwnames);                                             \
    }
#define METHOD(NAME, D)                                                                                   \
    static PyObject *meth_##NAME(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) \
    {                                                                                                     \
        return call(&defs[D], self, args, nargs, kwnames);                                                \
    }
FUNCTION(sum, D_SUM) FUNCTION(prod, D_PROD) FUNCTION(max, D_MAX) FUNCTION(amax, D_AMAX) FUNCTION(min, D_MIN)
FUNCTION(amin, D_AMIN) FUNCTION(any, D_ANY) FUNCTION(all, D_ALL) FUNCTION(mean, D_MEAN) FUNCTION(var, D_VAR)
FUNCTION(std, D_STD) FUNCTION(argmax, D_ARGMAX) FUNCTION(argmin, D_ARGMIN) FUNCTION(count_nonzero, D_COUNT_NONZERO)
FUNCTION(nansum, D_NANSUM) FUNCTION(nanprod, D_NANPROD) FUNCTION(nanmax, D_NANMAX) FUNCTION(nanmin, D_NANMIN)
FUNCTION(nanmean, D_NANMEAN) FUNCTION(nanvar, D_NANVAR) FUNCTION(nanstd, D_NANSTD) FUNCTION(nanargmax, D_NANARGMAX)
FUNCTION(nanargmin, D_NANARGMIN) FUNCTION(cumsum, D_CUMSUM) FUNCTION(cumprod, D_CUMPROD)
FUNCTION(cumulative_sum, D_CUMULATIVE_SUM) FUNCTION(cumulative_prod, D_CUMULATIVE_PROD)
METHOD(sum, D_SUM) METHOD(prod, D_PROD) METHOD(max, D_MAX) METHOD(min, D_MIN) METHOD(any, D_ANY) METHOD(all, D_ALL)
METHOD(mean, D_MEAN) METHOD(var, D_VAR) METHOD(std, D_STD) METHOD(argmax, D_ARGMAX) METHOD(argmin, D_ARGMIN)
METHOD(cumsum, D_CUMSUM) METHOD(cumprod, D_CUMPROD)

#define ENTRY(PREFIX, NAME, DOC) \
    {#NAME, (PyCFunction)(void (*)(void))PREFIX##_##NAME, METH_FASTCALL | METH_KEYWORDS, DOC}

PyMethodDef pg_reduction_module_methods[] = {
    ENTRY(fn, sum, "sum($module, /, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nThe sum over the axes: pairwise for floats (as accurate as NumPy), bool "
          "and small integers in int64 (uint64 for unsigned)."),
    ENTRY(fn, prod, "prod($module, /, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nThe product over the axes (small integers in int64, as sum)."),
    ENTRY(fn, max, "max($module, /, a, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nThe maximum over the axes; NaN propagates (initial= gives empty "
          "reductions a value)."),
    ENTRY(fn, amax, "amax($module, /, a, axis=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nmax."),
    ENTRY(fn, min, "min($module, /, a, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nThe minimum over the axes; NaN propagates."),
    ENTRY(fn, amin, "amin($module, /, a, axis=None, out=None, keepdims=False, initial=None, where=True)\n--\n\nmin."),
    ENTRY(fn, any, "any($module, /, a, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nWhether any "
          "element is true, over the axes."),
    ENTRY(fn, all, "all($module, /, a, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nWhether "
          "every element is true, over the axes."),
    ENTRY(fn, mean, "mean($module, /, a, axis=None, dtype=None, out=None, keepdims=False, *, "
          "where=True)\n--\n\nThe mean over the axes: integers in float64, float16 in float32."),
    ENTRY(fn, var, "var($module, /, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
          "mean=None, correction=None)\n--\n\nThe variance over the axes (ddof, or the array API's "
          "correction), in one pass merging counts, means and squared deviations."),
    ENTRY(fn, std, "std($module, /, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
          "mean=None, correction=None)\n--\n\nThe standard deviation: the square root of var."),
    ENTRY(fn, argmax, "argmax($module, /, a, axis=None, out=None, *, keepdims=False)\n--\n\nThe flat index "
          "(axis=None) or the index along axis of the first maximum; the first NaN when there is one."),
    ENTRY(fn, argmin, "argmin($module, /, a, axis=None, out=None, *, keepdims=False)\n--\n\nThe index of the "
          "first minimum (the first NaN when there is one)."),
    ENTRY(fn, count_nonzero, "count_nonzero($module, /, a, axis=None, *, keepdims=False)\n--\n\nThe number of nonzero "
          "elements over the axes (int64; a 0-d array over every axis, as the array API says)."),
    ENTRY(fn, nansum, "nansum($module, /, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nsum with NaNs counted as zero."),
    ENTRY(fn, nanprod, "nanprod($module, /, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nprod with NaNs counted as one."),
    ENTRY(fn, nanmax, "nanmax($module, /, a, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nmax ignoring NaNs (NaN for an all-NaN slice, as fmax.reduce)."),
    ENTRY(fn, nanmin, "nanmin($module, /, a, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nmin ignoring NaNs."),
    ENTRY(fn, nanmean, "nanmean($module, /, a, axis=None, dtype=None, out=None, keepdims=False, *, "
          "where=True)\n--\n\nmean of the elements that are not NaN."),
    ENTRY(fn, nanvar, "nanvar($module, /, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, "
          "where=True, mean=None, correction=None)\n--\n\nvar of the elements that are not NaN."),
    ENTRY(fn, nanstd, "nanstd($module, /, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, "
          "where=True, mean=None, correction=None)\n--\n\nstd of the elements that are not NaN."),
    ENTRY(fn, nanargmax, "nanargmax($module, /, a, axis=None, out=None, *, keepdims=False)\n--\n\nargmax ignoring "
          "NaNs; ValueError for an all-NaN slice."),
    ENTRY(fn, nanargmin, "nanargmin($module, /, a, axis=None, out=None, *, keepdims=False)\n--\n\nargmin ignoring "
          "NaNs; ValueError for an all-NaN slice."),
    ENTRY(fn, cumsum, "cumsum($module, /, a, axis=None, dtype=None, out=None)\n--\n\nThe running sum along axis "
          "(axis=None: of the flattened array); small integers in int64."),
    ENTRY(fn, cumprod, "cumprod($module, /, a, axis=None, dtype=None, out=None)\n--\n\nThe running product along "
          "axis."),
    ENTRY(fn, cumulative_sum, "cumulative_sum($module, x, /, *, axis=None, dtype=None, out=None, "
          "include_initial=False)\n--\n\nThe running sum along axis (the array API's; include_initial "
          "puts 0 first)."),
    ENTRY(fn, cumulative_prod, "cumulative_prod($module, x, /, *, axis=None, dtype=None, out=None, "
          "include_initial=False)\n--\n\nThe running product along axis (include_initial puts 1 "
          "first)."),
    {NULL, NULL, 0, NULL},
};

PyMethodDef pg_array_methods_reduction[] = {
    ENTRY(meth, sum, "sum($self, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nnumpy.sum of the array: pygpu.sum(a, ...)."),
    ENTRY(meth, prod, "prod($self, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nnumpy.prod of the array: pygpu.prod(a, ...)."),
    ENTRY(meth, max, "max($self, /, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nnumpy.max of the array: pygpu.max(a, ...)."),
    ENTRY(meth, min, "min($self, /, axis=None, out=None, keepdims=False, initial=None, "
          "where=True)\n--\n\nnumpy.min of the array: pygpu.min(a, ...)."),
    ENTRY(meth, any, "any($self, /, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nnumpy.any of the "
          "array: pygpu.any(a, ...)."),
    ENTRY(meth, all, "all($self, /, axis=None, out=None, keepdims=False, *, where=True)\n--\n\nnumpy.all of the "
          "array: pygpu.all(a, ...)."),
    ENTRY(meth, mean, "mean($self, /, axis=None, dtype=None, out=None, keepdims=False, *, "
          "where=True)\n--\n\nnumpy.mean of the array: pygpu.mean(a, ...)."),
    ENTRY(meth, var, "var($self, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
          "mean=None, correction=None)\n--\n\nnumpy.var of the array: pygpu.var(a, ...)."),
    ENTRY(meth, std, "std($self, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
          "mean=None, correction=None)\n--\n\nnumpy.std of the array: pygpu.std(a, ...)."),
    ENTRY(meth, argmax, "argmax($self, /, axis=None, out=None, *, keepdims=False)\n--\n\nnumpy.argmax of the array: "
          "pygpu.argmax(a, ...)."),
    ENTRY(meth, argmin, "argmin($self, /, axis=None, out=None, *, keepdims=False)\n--\n\nnumpy.argmin of the array: "
          "pygpu.argmin(a, ...)."),
    ENTRY(meth, cumsum, "cumsum($self, /, axis=None, dtype=None, out=None)\n--\n\nnumpy.cumsum of the array: "
          "pygpu.cumsum(a, ...)."),
    ENTRY(meth, cumprod, "cumprod($self, /, axis=None, dtype=None, out=None)\n--\n\nnumpy.cumprod of the array: "
          "pygpu.cumprod(a, ...)."),
    {NULL, NULL, 0, NULL},
};
