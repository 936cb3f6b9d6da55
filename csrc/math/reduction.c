/* Reductions of arrays: NumPy's result dtypes and errors, axes and keepdims, out= (cast through a
 * temporary when its dtype differs or it overlaps the input), initial=, where= (a mask the
 * kernels read), then one launch of the reducer (runtime/reduce_launch.h). */
#include "math/reduction.h"
#include "runtime/kernel_table.h"

static const char *const op_names[PG_ROP_COUNT_OPS] = {
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
    "bitwise_and", "bitwise_or", "bitwise_xor", "argmax", "argmin", "mean", "var", "std", "count_nonzero",
};

const char *
pg_reduce_op_name(PgRedOp op)
{
    return op_names[op];
}

int
pg_reduce_op_of_ufunc(const char *name)
{
    for (int op = PG_ROP_ADD; op <= PG_ROP_BXOR; op++)
        if (strcmp(name, op_names[op]) == 0)
            return op;
    return -1;
}

/* ------------------------------------------------------------------ dtypes and reducers */

/* the column of reducer_of for a compute dtype: integers of up to 32 bits apart (their max/min
 * and argmax/argmin run in 32 bits) */
enum { CLS_B, CLS_SIGNED, CLS_UNSIGNED, CLS_F32, CLS_F64, CLS_C64, CLS_C128, CLS_SIGNED32, CLS_UNSIGNED32, NCLS };

static int
type_class(int t)
{
    if (t == PG_BOOL)
        return CLS_B;
    if (PG_IS_SIGNED(t))
        return pg_type_info[t].itemsize <= 4 ? CLS_SIGNED32 : CLS_SIGNED;
    if (PG_IS_UNSIGNED(t))
        return pg_type_info[t].itemsize <= 4 ? CLS_UNSIGNED32 : CLS_UNSIGNED;
    if (t == PG_FLOAT16 || t == PG_FLOAT32)
        return CLS_F32;
    if (t == PG_FLOAT64)
        return CLS_F64;
    return t == PG_COMPLEX64 ? CLS_C64 : CLS_C128;
}

/* Integer sums and products accumulate in 64 bits (narrowed on the store, which gives NumPy's
 * wrapped sums and products), max/min of integers of up to 32 bits in 32; float16 in float32,
 * bool through the logical loops. */
#define R(x) PG_R_##x
#define SAME9(x) {R(x), R(x), R(x), R(x), R(x), R(x), R(x), R(x), R(x)}
static const int reducer_of[PG_ROP_COUNT_OPS][NCLS] = {
    [PG_ROP_ADD] = {R(logical_or_b), R(add_i64), R(add_i64), R(add_f32), R(add_f64), R(add_c64), R(add_c128), R(add_i64),
                    R(add_i64)},
    [PG_ROP_MUL] = {R(logical_and_b), R(multiply_i64), R(multiply_i64), R(multiply_f32), R(multiply_f64),
                    R(multiply_c64), R(multiply_c128), R(multiply_i64), R(multiply_i64)},
    [PG_ROP_MAX] = {R(logical_or_b), R(maximum_i64), R(maximum_u64), R(maximum_f32), R(maximum_f64),
                    R(maximum_c64), R(maximum_c128), R(maximum_i32), R(maximum_u32)},
    [PG_ROP_MIN] = {R(logical_and_b), R(minimum_i64), R(minimum_u64), R(minimum_f32), R(minimum_f64),
                    R(minimum_c64), R(minimum_c128), R(minimum_i32), R(minimum_u32)},
    [PG_ROP_FMAX] = {R(logical_or_b), R(maximum_i64), R(maximum_u64), R(fmax_f32), R(fmax_f64), R(fmax_c64),
                     R(fmax_c128), R(maximum_i32), R(maximum_u32)},
    [PG_ROP_FMIN] = {R(logical_and_b), R(minimum_i64), R(minimum_u64), R(fmin_f32), R(fmin_f64), R(fmin_c64),
                     R(fmin_c128), R(minimum_i32), R(minimum_u32)},
    [PG_ROP_LAND] = SAME9(logical_and_b),
    [PG_ROP_LOR] = SAME9(logical_or_b),
    [PG_ROP_LXOR] = SAME9(logical_xor_b),
    [PG_ROP_BAND] = {R(logical_and_b), R(bitwise_and_i64), R(bitwise_and_i64), -1, -1, -1, -1, R(bitwise_and_i64),
                     R(bitwise_and_i64)},
    [PG_ROP_BOR] = {R(logical_or_b), R(bitwise_or_i64), R(bitwise_or_i64), -1, -1, -1, -1, R(bitwise_or_i64),
                    R(bitwise_or_i64)},
    [PG_ROP_BXOR] = {R(logical_xor_b), R(bitwise_xor_i64), R(bitwise_xor_i64), -1, -1, -1, -1, R(bitwise_xor_i64),
                     R(bitwise_xor_i64)},
    [PG_ROP_ARGMAX] = {R(argmax_i64), R(argmax_i64), R(argmax_u64), R(argmax_f32), R(argmax_f64), R(argmax_c64),
                       R(argmax_c128), R(argmax_i32), R(argmax_u32)},
    [PG_ROP_ARGMIN] = {R(argmin_i64), R(argmin_i64), R(argmin_u64), R(argmin_f32), R(argmin_f64), R(argmin_c64),
                       R(argmin_c128), R(argmin_i32), R(argmin_u32)},
    /* mean is a sum divided; with where= or NaNs skipped, the moments' mean (counts per output) */
    [PG_ROP_MEAN] = {R(logical_or_b), R(add_i64), R(add_i64), R(add_f32), R(add_f64), R(add_c64), R(add_c128),
                     R(add_i64), R(add_i64)},
    [PG_ROP_VAR] = {R(moments_f64), R(moments_f64), R(moments_f64), R(moments_f32), R(moments_f64), R(moments_c64),
                    R(moments_c128), R(moments_f64), R(moments_f64)},
    [PG_ROP_STD] = {R(moments_f64), R(moments_f64), R(moments_f64), R(moments_f32), R(moments_f64), R(moments_c64),
                    R(moments_c128), R(moments_f64), R(moments_f64)},
    [PG_ROP_COUNT] = SAME9(add_i64),
};
#undef R
#undef SAME9

int
pg_reduce_reducer(PgRedOp op, int ct)
{
    return reducer_of[op][type_class(ct)];
}

static int
is_inexact(int t)
{
    return PG_IS_FLOAT(t) || PG_IS_COMPLEX(t);
}

static int
real_of(int t)
{
    return t == PG_COMPLEX64 ? PG_FLOAT32 : t == PG_COMPLEX128 ? PG_FLOAT64 : t;
}

static int
no_loop(PgRedOp op)
{
    PyErr_Format(PyExc_TypeError,
                 "ufunc '%s' not supported for the input types, and the inputs could not be safely coerced to any "
                 "supported types according to the casting rule ''safe''",
                 op_names[op]);
    return -1;
}

int
pg_reduce_result_type(PgRedOp op, int t, int dtype, int *ct)
{
    int rt;
    switch (op) {
    case PG_ROP_ADD:
    case PG_ROP_MUL:
        if (dtype >= 0)
            rt = dtype;
        else if (t == PG_BOOL || (PG_IS_SIGNED(t) && t != PG_INT64))
            rt = PG_INT64; /* NumPy sums and multiplies small integers in the default int */
        else if (PG_IS_UNSIGNED(t) && t != PG_UINT64)
            rt = PG_UINT64;
        else
            rt = t;
        *ct = rt;
        return rt;
    case PG_ROP_MAX:
    case PG_ROP_MIN:
    case PG_ROP_FMAX:
    case PG_ROP_FMIN:
        *ct = rt = dtype >= 0 ? dtype : t;
        return rt;
    case PG_ROP_LAND:
    case PG_ROP_LOR:
    case PG_ROP_LXOR:
        if (dtype >= 0 && dtype != PG_BOOL) {
            PyErr_Format(PyExc_TypeError, "No loop matching the specified signature and casting was found for ufunc %s",
                         op_names[op]);
            return -1;
        }
        *ct = t;
        return PG_BOOL;
    case PG_ROP_BAND:
    case PG_ROP_BOR:
    case PG_ROP_BXOR:
        *ct = rt = dtype >= 0 ? dtype : t;
        return is_inexact(rt) ? no_loop(op) : rt;
    case PG_ROP_ARGMAX:
    case PG_ROP_ARGMIN:
        *ct = t;
        return PG_INT64;
    case PG_ROP_MEAN:
        if (dtype >= 0)
            rt = dtype;
        else
            rt = t == PG_BOOL || PG_IS_INTEGER(t) ? PG_FLOAT64 : t;
        *ct = rt;
        return rt;
    case PG_ROP_VAR:
    case PG_ROP_STD:
        *ct = dtype >= 0 ? dtype : t == PG_BOOL || PG_IS_INTEGER(t) ? PG_FLOAT64 : t;
        if (!is_inexact(*ct))
            *ct = PG_FLOAT64;
        return real_of(dtype >= 0 ? dtype : *ct);
    default: /* count_nonzero */
        *ct = PG_INT64;
        return PG_INT64;
    }
}

/* ------------------------------------------------------------------ axes */

int
pg_reduce_parse_axis(PyObject *axis, int ndim, int single, char *reduced)
{
    if (axis == NULL || axis == Py_None) {
        memset(reduced, 1, (size_t)ndim);
        return 0;
    }
    memset(reduced, 0, (size_t)ndim);
    int is_tuple = !single && PyTuple_Check(axis);
    Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(axis) : 1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyNumber_Index(is_tuple ? PyTuple_GET_ITEM(axis, k) : axis);
        if (item == NULL)
            return -1;
        long long v = PyLong_AsLongLong(item);
        Py_DECREF(item);
        if (v == -1 && PyErr_Occurred())
            return -1;
        int ax;
        if (pg_normalize_axis(v, ndim, NULL, &ax) < 0)
            return -1;
        if (reduced[ax]) {
            PyErr_SetString(PyExc_ValueError, "duplicate value in 'axis'");
            return -1;
        }
        reduced[ax] = 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the launch */

/* What run_reduction launches, beyond the array and its axes. */
typedef struct {
    int reducer;
    int rt;             /* the result's dtype */
    int flags;          /* PG_RED_* (DIVIDE's divisor is set from the layout) */
    double ddof;
    PyObject *initial;  /* NULL or a value (None is not one) */
    PgArray *mask;      /* where=, broadcast to x (NULL: none) */
    int keep_order;     /* argmin/argmax: reduced axes in C order */
    const char *opname; /* for messages */
} Plan;

int
pg_reduction_output(PgArray *x, PgArray *also, PyObject *outobj, int rt, int nd, const int64_t *shape,
                    const char *opname, PgArray **result, PgArray **target)
{
    if (outobj == NULL || outobj == Py_None) {
        *result = pg_array_new(x->device, rt, nd, shape, 'C', PG_MEM_DEVICE);
        *target = (PgArray *)Py_XNewRef((PyObject *)*result);
        return *result ? 0 : -1;
    }
    if (!PgArray_Check(outobj)) {
        PyErr_Format(PyExc_TypeError, "return arrays must be of type pygpu.ndarray, not %.200s",
                     Py_TYPE(outobj)->tp_name);
        return -1;
    }
    PgArray *out = (PgArray *)outobj;
    if (out->device != x->device)
        return pg_raise_different_devices(x->device, out->device);
    if (out->ndim != nd) {
        PyErr_Format(PyExc_ValueError,
                     "output parameter for reduction operation %s has the wrong number of dimensions: Found %d but "
                     "expected %d",
                     opname, out->ndim, nd);
        return -1;
    }
    if (memcmp(out->shape, shape, sizeof(int64_t) * (size_t)nd) != 0) {
        PyObject *found = pg_shape_repr(nd, out->shape), *expected = pg_shape_repr(nd, shape);
        if (found && expected)
            PyErr_Format(PyExc_ValueError,
                         "output parameter for reduction operation %s has the wrong shape: Found %U but expected %U",
                         opname, found, expected);
        Py_XDECREF(found);
        Py_XDECREF(expected);
        return -1;
    }
    if (pg_array_check_writeable(out) < 0)
        return -1;
    *result = (PgArray *)Py_NewRef(outobj);
    if (out->type == rt && !pg_array_bytes_overlap(out, x) && !(also && pg_array_bytes_overlap(out, also))) {
        *target = (PgArray *)Py_NewRef(outobj);
        return 0;
    }
    *target = pg_array_new(x->device, rt, nd, shape, 'C', PG_MEM_DEVICE);
    return *target ? 0 : -1;
}

static PyObject *
run_reduction(PgArray *x, const char *reduced, int keepdims, PyObject *outobj, const Plan *p)
{
    PgArray *result = NULL, *target = NULL;
    PyObject *ret = NULL;
    int64_t out_strides[PG_MAXDIMS], mask_strides[PG_MAXDIMS];
    PgReduceArgs a;
    const PgReducerInfo *ri = &pg_reducers[p->reducer];

    int64_t shape[PG_MAXDIMS];
    int nd = 0;
    for (int i = 0; i < x->ndim; i++) {
        if (!reduced[i])
            shape[nd++] = x->shape[i];
        else if (keepdims)
            shape[nd++] = 1;
    }
    if (pg_reduction_output(x, p->mask, outobj, p->rt, nd, shape, p->opname, &result, &target) < 0)
        goto done;
    for (int i = 0, j = 0; i < x->ndim; i++) {
        if (!reduced[i]) {
            out_strides[i] = target->strides[j++];
        } else {
            out_strides[i] = 0;
            j += keepdims;
        }
    }
    if (p->mask) { /* where= broadcast to x's axes (aligned on the right) */
        int off = x->ndim - p->mask->ndim;
        for (int i = 0; i < x->ndim; i++)
            mask_strides[i] = i >= off && p->mask->shape[i - off] != 1 ? p->mask->strides[i - off] : 0;
    }
    pg_reduce_layout(&a, x->ndim, x->shape, x->strides, out_strides, p->mask ? mask_strides : NULL, reduced,
                     p->keep_order);
    a.in = x->data;
    a.out = target->data;
    a.mask = p->mask ? p->mask->data : NULL;
    /* the memory follows the launch's stream: freed after it, it waits for the kernel */
    pg_array_note_use(x);
    pg_array_note_use(target);
    if (p->mask)
        pg_array_note_use(p->mask);
    a.in_type = x->type;
    a.out_type = target->type;
    a.flags = p->flags;
    a.ddof = p->ddof;
    if (a.flags & PG_RED_DIVIDE)
        a.divisor = (double)a.nred_total;
    if (ri->kind == PG_RKIND_OP)
        pg_reducer_identity(p->reducer, a.ident);
    if (strncmp(ri->name, "add_", 4) == 0)
        a.ident[0] = a.ident[1] = 0; /* NumPy's sums start from +0.0: a sum of -0.0s is 0.0 (scans keep -0.0) */
    if (p->initial) {
        uint64_t bytes[2] = {0, 0};
        if (pg_scalar_to_bytes(p->initial, p->rt, bytes) < 0)
            goto done;
        pg_reducer_convert(p->reducer, bytes, p->rt, a.init);
        a.flags |= PG_RED_INITIAL;
    }
    a.typed = x->type == ri->acc_type && !a.mask && !(a.flags & (PG_RED_SKIPNAN | PG_RED_NONZERO));
    if (pg_reduce_launch(x->device, p->reducer, &a) < 0)
        goto done;
    if (target != result && pg_array_assign(result, target) < 0)
        goto done;
    ret = (PyObject *)result;
    result = NULL;
done:
    Py_XDECREF(result);
    Py_XDECREF(target);
    return ret;
}

/* 1 when some output of nanargmin/nanargmax saw only NaNs (its index is -1); -1 on error */
static int
any_all_nan(PgArray *indices)
{
    char all[PG_MAXDIMS];
    memset(all, 1, sizeof all);
    PgArray *lowest = pg_reduce_with_loop(PG_K_minimum_i64, indices, all, 0);
    if (lowest == NULL)
        return -1;
    PyObject *host = pg_array_to_numpy(lowest);
    Py_DECREF(lowest);
    if (host == NULL)
        return -1;
    int64_t v = *(int64_t *)PyArray_DATA((PyArrayObject *)host);
    Py_DECREF(host);
    return v < 0;
}

/* The dtype a reduction or scan computes in: dtype=, else (as NumPy's ufunc.reduce and accumulate)
 * the out= array's for the ufunc-based ones (sum(float32, out=float64) adds in float64) */
int
pg_reduce_dtype_of_out(PgRedOp op, int in_type, int dtype, PyObject *out)
{
    if (out && PyTuple_Check(out) && PyTuple_GET_SIZE(out) == 1)
        out = PyTuple_GET_ITEM(out, 0);
    if (dtype >= 0 || out == NULL || !PgArray_Check(out))
        return dtype;
    switch (op) {
    case PG_ROP_ADD: case PG_ROP_MUL: case PG_ROP_MAX: case PG_ROP_MIN: case PG_ROP_FMAX: case PG_ROP_FMIN:
    case PG_ROP_BAND: case PG_ROP_BOR: case PG_ROP_BXOR:
        /* NumPy's loop is out's where the input casts to it by the ufunc's 'same_kind' (int64 max
         * into int8 compares int8s); otherwise the input's, cast into out after (a float sum into
         * an int out sums floats) */
        return pg_can_cast(in_type, ((PgArray *)out)->type, PG_CAST_SAME_KIND) ? ((PgArray *)out)->type : dtype;
    case PG_ROP_MEAN:
        /* NumPy's mean of float16 sums in float32 into out and divides there: a float32 (or wider)
         * out gets the float32 mean, not the float16 one cast */
        return in_type == PG_FLOAT16 && is_inexact(((PgArray *)out)->type) && ((PgArray *)out)->type != PG_FLOAT16
                   ? PG_FLOAT32
                   : dtype;
    default:
        return dtype;
    }
}

PyObject *
pg_reduce_array(PyObject *xobj, const PgReduceRequest *req)
{
    PgArray *x = NULL;
    PyObject *ret = NULL;
    char reduced[PG_MAXDIMS];
    Plan p = {0};
    const PgRedOp op = req->op;
    const int is_arg = op == PG_ROP_ARGMAX || op == PG_ROP_ARGMIN;

    x = pg_asarray(xobj, -1, NULL, -1);
    if (x == NULL)
        return NULL;
    if (pg_reduce_parse_axis(req->axis, x->ndim, is_arg, reduced) < 0)
        goto done;
    int ct;
    p.rt = pg_reduce_result_type(op, x->type, pg_reduce_dtype_of_out(op, x->type, req->dtype, req->out), &ct);
    if (p.rt < 0)
        goto done;
    p.opname = op_names[op];
    p.keep_order = is_arg;
    p.ddof = req->ddof;
    int has_where = req->where && req->where != Py_True;
    int skipnan = req->skipnan && is_inexact(x->type);
    int use_moments = op == PG_ROP_VAR || op == PG_ROP_STD || (op == PG_ROP_MEAN && (has_where || skipnan));
    p.reducer = pg_reduce_reducer(use_moments ? PG_ROP_VAR : op, ct);
    if (p.reducer < 0) {
        no_loop(op);
        goto done;
    }
    if (skipnan)
        p.flags |= PG_RED_SKIPNAN;
    if (op == PG_ROP_COUNT)
        p.flags |= PG_RED_NONZERO;
    if (op == PG_ROP_MEAN)
        p.flags |= use_moments ? PG_RED_MEAN : PG_RED_DIVIDE;
    else if (op == PG_ROP_VAR)
        p.flags |= PG_RED_VAR;
    else if (op == PG_ROP_STD)
        p.flags |= PG_RED_STD;

    /* NumPy's errors for what has no identity */
    int no_identity = op == PG_ROP_MAX || op == PG_ROP_MIN || op == PG_ROP_FMAX || op == PG_ROP_FMIN || is_arg ||
                      req->initial == Py_None;
    p.initial = req->initial && req->initial != Py_None ? req->initial : NULL;
    if (has_where && no_identity && !p.initial) {
        PyErr_Format(PyExc_ValueError,
                     "reduction operation '%s' does not have an identity, so to use a where mask one has to specify "
                     "'initial'",
                     p.opname);
        goto done;
    }
    int64_t nout = 1, nred = 1;
    for (int i = 0; i < x->ndim; i++) {
        if (reduced[i])
            nred *= x->shape[i];
        else
            nout *= x->shape[i];
    }
    if (nred == 0 && no_identity && !p.initial) { /* even when the output is empty too, as NumPy */
        if (is_arg)
            PyErr_Format(PyExc_ValueError, "attempt to get %s of an empty sequence", p.opname);
        else
            PyErr_Format(PyExc_ValueError, "zero-size array to reduction operation %s which has no identity",
                         p.opname);
        goto done;
    }
    if (has_where) {
        p.mask = pg_asarray(req->where, PG_BOOL, x->device, -1);
        if (p.mask == NULL)
            goto done;
        int nd;
        int64_t shape[PG_MAXDIMS];
        const int64_t *shapes[2] = {x->shape, p.mask->shape};
        int nds[2] = {x->ndim, p.mask->ndim};
        if (pg_broadcast_shapes(2, nds, shapes, &nd, shape) < 0)
            goto done;
        if (nd != x->ndim || memcmp(shape, x->shape, sizeof(int64_t) * (size_t)nd) != 0) {
            PyObject *ws = pg_shape_repr(p.mask->ndim, p.mask->shape), *xs = pg_shape_repr(x->ndim, x->shape);
            if (ws && xs)
                PyErr_Format(PyExc_ValueError, "where= of shape %U does not broadcast to the array's shape %U", ws,
                             xs);
            Py_XDECREF(ws);
            Py_XDECREF(xs);
            goto done;
        }
    }
    ret = run_reduction(x, reduced, req->keepdims, req->out, &p);
    if (ret && is_arg && skipnan && nout > 0) {
        int bad = any_all_nan((PgArray *)ret);
        if (bad != 0) {
            if (bad > 0)
                PyErr_SetString(PyExc_ValueError, "All-NaN slice encountered");
            Py_CLEAR(ret);
        }
    }
done:
    Py_XDECREF(p.mask);
    Py_DECREF(x);
    return ret;
}

PgArray *
pg_reduce_with_loop(int loop, PgArray *x, const char *reduced, int keepdims)
{
    Plan p = {0};
    p.reducer = loop >= 0 && loop < PG_NKERNELS ? pg_reducer_of_loop(loop) : -1;
    if (p.reducer < 0) {
        PyErr_Format(PyExc_ValueError, "op-table loop %d is not a reduction", loop);
        return NULL;
    }
    p.rt = pg_kernels[loop].types[2];
    p.opname = pg_kernels[loop].name;
    return (PgArray *)run_reduction(x, reduced, keepdims, NULL, &p);
}
