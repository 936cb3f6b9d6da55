/* The named reductions and scans (sum, mean, argmin, nanvar, cumsum, cumulative_sum, ...) as
 * module functions and ndarray methods: NumPy's signatures parsed into a request for
 * pg_reduce_array or pg_scan_array (reduction.c, scan.c). */
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

/* The function (self NULL) or method (self the array) def with its fastcall arguments. */
static PyObject *
call(const Def *def, PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
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
        memcpy(argv + 1, args, sizeof(PyObject *) * (size_t)(nargs + nkw));
        args = argv;
        nargs++;
    }
    if (pg_parse_fastcall(def->name, args, nargs, kwnames, sigs[sig].names, sigs[sig].npos, slots, 1) < 0)
        return NULL;
    int dtype = pg_type_from_object(arg(sig, slots, "dtype"), -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    PyObject *out = single_out(arg(sig, slots, "out"));
    if (sig == SIG_CUM || sig == SIG_CUMUL) {
        int include_initial = truth(arg(sig, slots, "include_initial"), 0);
        if (include_initial < 0)
            return NULL;
        return pg_scan_array(slots[0], def->op, arg(sig, slots, "axis"), dtype, out, include_initial, def->name);
    }
    PgReduceRequest req = {0};
    req.op = def->op;
    req.axis = arg(sig, slots, "axis");
    req.dtype = dtype;
    req.out = out;
    req.keepdims = truth(arg(sig, slots, "keepdims"), 0);
    if (req.keepdims < 0)
        return NULL;
    req.initial = arg(sig, slots, "initial");
    req.where = arg(sig, slots, "where");
    req.skipnan = def->skipnan;
    if (sig == SIG_VAR) {
        if (arg(sig, slots, "mean") && arg(sig, slots, "mean") != Py_None) {
            PyErr_Format(PyExc_NotImplementedError, "pygpu.%s does not take mean= yet", def->name);
            return NULL;
        }
        if (parse_ddof(arg(sig, slots, "ddof"), arg(sig, slots, "correction"), &req.ddof) < 0)
            return NULL;
    }
    PyObject *res = pg_reduce_array(slots[0], &req);
    /* NumPy's count_nonzero over every axis is a Python int */
    if (res && def->op == PG_ROP_COUNT && (req.axis == NULL || req.axis == Py_None) && !req.keepdims)
        Py_SETREF(res, PyObject_CallMethod(res, "item", NULL));
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
    ENTRY(fn, sum, "sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True): the sum over "
                   "the axes (pairwise for floats; small integers sum in int64)."),
    ENTRY(fn, prod, "prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)"),
    ENTRY(fn, max, "max(a, axis=None, out=None, keepdims=False, initial=None, where=True): NaN propagates."),
    ENTRY(fn, amax, "amax(a, ...): max."),
    ENTRY(fn, min, "min(a, axis=None, out=None, keepdims=False, initial=None, where=True): NaN propagates."),
    ENTRY(fn, amin, "amin(a, ...): min."),
    ENTRY(fn, any, "any(a, axis=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(fn, all, "all(a, axis=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(fn, mean, "mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True): integers average "
                    "in float64, float16 in float32."),
    ENTRY(fn, var, "var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
                   "correction=None): one pass (Chan's merge of counts, means and squared deviations)."),
    ENTRY(fn, std, "std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
                   "correction=None)"),
    ENTRY(fn, argmax, "argmax(a, axis=None, out=None, *, keepdims=False): the first maximum (the first NaN)."),
    ENTRY(fn, argmin, "argmin(a, axis=None, out=None, *, keepdims=False): the first minimum (the first NaN)."),
    ENTRY(fn, count_nonzero, "count_nonzero(a, axis=None, *, keepdims=False): an int over every axis."),
    ENTRY(fn, nansum, "nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True): NaNs "
                      "count as zero."),
    ENTRY(fn, nanprod, "nanprod(a, ...): NaNs count as one."),
    ENTRY(fn, nanmax, "nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True): NaNs ignored "
                      "(NaN for an all-NaN slice)."),
    ENTRY(fn, nanmin, "nanmin(a, ...): NaNs ignored."),
    ENTRY(fn, nanmean, "nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(fn, nanvar, "nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, "
                      "correction=None)"),
    ENTRY(fn, nanstd, "nanstd(a, ...)"),
    ENTRY(fn, nanargmax, "nanargmax(a, axis=None, out=None, *, keepdims=False): ValueError for an all-NaN slice."),
    ENTRY(fn, nanargmin, "nanargmin(a, axis=None, out=None, *, keepdims=False)"),
    ENTRY(fn, cumsum, "cumsum(a, axis=None, dtype=None, out=None): axis=None scans the flattened array."),
    ENTRY(fn, cumprod, "cumprod(a, axis=None, dtype=None, out=None)"),
    ENTRY(fn, cumulative_sum, "cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False)"),
    ENTRY(fn, cumulative_prod, "cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False)"),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef array_methods[] = {
    ENTRY(meth, sum, "a.sum(axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True)"),
    ENTRY(meth, prod, "a.prod(axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)"),
    ENTRY(meth, max, "a.max(axis=None, out=None, keepdims=False, initial=None, where=True)"),
    ENTRY(meth, min, "a.min(axis=None, out=None, keepdims=False, initial=None, where=True)"),
    ENTRY(meth, any, "a.any(axis=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(meth, all, "a.all(axis=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(meth, mean, "a.mean(axis=None, dtype=None, out=None, keepdims=False, *, where=True)"),
    ENTRY(meth, var, "a.var(axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None)"),
    ENTRY(meth, std, "a.std(axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None)"),
    ENTRY(meth, argmax, "a.argmax(axis=None, out=None, *, keepdims=False)"),
    ENTRY(meth, argmin, "a.argmin(axis=None, out=None, *, keepdims=False)"),
    ENTRY(meth, cumsum, "a.cumsum(axis=None, dtype=None, out=None)"),
    ENTRY(meth, cumprod, "a.cumprod(axis=None, dtype=None, out=None)"),
    {NULL, NULL, 0, NULL},
};

int
pg_reductions_init(PyObject *module)
{
    if (PyModule_AddFunctions(module, pg_reduction_module_methods) < 0)
        return -1;
    return pg_array_add_methods(array_methods);
}
