/* pygpu.ufunc objects, made from the op table or from user functions compiled to VM programs
 * (pygpu.vectorize): type resolution (NumPy 2 rules, NEP 50 weak Python scalars), broadcasting,
 * out= with overlap detection, and the launch. Both kinds take the same path; only the last step
 * differs (an op-table kernel, or pg_program_launch for a program loop). A program ufunc may be
 * lazy: with no loop for the inputs' dtypes it asks its compiler (a Python callable) for one.
 *
 * Resolution: every operand gets a dtype (arrays and NumPy scalars: their own; Python bool:
 * bool; Python int/float/complex: "weak", taking the dtype of the strong operands as NEP 50
 * says), then the first loop (NumPy's order) whose inputs all accept those dtypes by safe
 * casting is used. The result of that search is cached per ufunc for the common case of all
 * inputs of one dtype. Scalars travel to the kernel by value, converted to the loop's type. */
#include "math/ufunc.h"
#include "math/reduction.h"
#include "runtime/kernel_table.h"
#include "runtime/stream.h"

/* A loop that is a program of user code: its types (inputs, then the output) and the program. */
typedef struct {
    int types[PG_UFUNC_MAXARGS];
    PyObject *program;
} ProgramLoop;

struct PgUfunc {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *name;        /* str */
    int nin, nout;
    int nloops;
    int first;             /* op-table ufuncs: their loops are the kernel ids first .. first + nloops - 1 */
    ProgramLoop *programs; /* program ufuncs: their loops (NULL for op-table ufuncs) */
    PyObject *compiler;    /* program ufuncs: compiler(dtypes) -> (types, program) for new dtypes, or NULL */
    PgDevice *target;      /* the device it runs on, or NULL: the operands' */
    PyObject *dict;        /* __dict__ (__doc__, __wrapped__, ...) */
    int flags;
    /* loop for "every input of dtype t" by the safe search; -2 not computed yet, -1 none */
    int cache[PG_NTYPES];
};

int (*pg_program_launch)(PyObject *program, PgDevice *dev, int nargs, const PgOperand *ops);

/* The types of loop j (inputs, then the output). */
static const int *
loop_types(PgUfunc *uf, int j)
{
    return uf->programs ? uf->programs[j].types : pg_kernels[uf->first + j].types;
}

static PyTypeObject PgUfunc_Type;
PgUfunc *pg_op_ufuncs[PG_NOPS];
static PyObject *ufunc_registry;                /* name -> ufunc (dict) */
static PyObject *exc_input_casting, *exc_output_casting, *exc_no_loop;

static const char type_chars[PG_NTYPES] = {'?', 'b', 'h', 'i', 'l', 'B', 'H', 'I', 'L', 'e', 'f', 'd', 'F', 'D'};

/* ------------------------------------------------------------------ errors */

void
pg_raise_casting(PyObject *uf, int input, int index, int from, int to, PgCasting casting)
{
    PyObject *cls = input ? exc_input_casting : exc_output_casting;
    if (cls) {
        PyObject *e = PyObject_CallFunction(cls, "OsOOi", uf, pg_casting_name(casting),
                                            (PyObject *)pg_type_descr(from), (PyObject *)pg_type_descr(to), index);
        if (e) {
            PyErr_SetObject(cls, e);
            Py_DECREF(e);
        }
        return;
    }
    PyObject *name = PyObject_GetAttrString(uf, "__name__");
    if (name == NULL)
        return;
    PyErr_Format(PyExc_TypeError, "Cannot cast ufunc '%U' %s from dtype('%s') to dtype('%s') with casting rule '%s'",
                 name, input ? "input" : "output", pg_type_info[from].name, pg_type_info[to].name,
                 pg_casting_name(casting));
    Py_DECREF(name);
}

static void
raise_casting(PgUfunc *uf, int input, int index, int from, int to, PgCasting casting)
{
    pg_raise_casting((PyObject *)uf, input, index, from, to, casting);
}

static void
raise_no_loop(PgUfunc *uf)
{
    PyErr_Format(PyExc_TypeError,
                 "ufunc '%U' not supported for the input types, and the inputs could not be safely coerced to "
                 "any supported types according to the casting rule ''safe''",
                 uf->name);
}

/* NumPy's _UFuncNoLoopError (a UFuncTypeError) for a bool input that has no loop (sign, positive),
 * the output bool when dtype=bool was asked for; a TypeError with its text without NumPy's class */
static void
raise_bool_no_loop(PgUfunc *uf, int bool_out)
{
    PyObject *bool_dtype = (PyObject *)Py_TYPE(pg_type_descr(PG_BOOL));
    PyObject *types = exc_no_loop ? PyTuple_Pack(2, bool_dtype, bool_out ? bool_dtype : Py_None) : NULL;
    PyObject *e = types ? PyObject_CallFunction(exc_no_loop, "OO", (PyObject *)uf, types) : NULL;
    Py_XDECREF(types);
    if (e) {
        PyErr_SetObject(exc_no_loop, e);
        Py_DECREF(e);
        return;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "ufunc '%U' did not contain a loop with signature matching types "
                 "<class 'numpy.dtypes.BoolDType'> -> %s", uf->name,
                 bool_out ? "<class 'numpy.dtypes.BoolDType'>" : "None");
}

/* ------------------------------------------------------------------ weak scalars */

int
pg_weak_scalar_type(int weak, PyObject *value, int p, int compare)
{
    if (p < 0) /* only Python scalars: NumPy's defaults */
        p = weak == PG_WEAK_INT ? PG_INT64 : weak == PG_WEAK_FLOAT ? PG_FLOAT64 : PG_COMPLEX128;
    switch (weak) {
    case PG_WEAK_INT:
        if (PG_IS_BOOL(p))
            p = PG_INT64;
        if (PG_IS_INTEGER(p)) {
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (v == -1 && PyErr_Occurred())
                return -1;
            int fits;
            if (overflow > 0 && PG_IS_UNSIGNED(p) && p == PG_UINT64) {
                unsigned long long u = PyLong_AsUnsignedLongLong(value);
                if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                    PyErr_Clear();
                    fits = 0;
                } else {
                    fits = 1;
                }
            } else if (overflow) {
                fits = 0;
            } else {
                int bits = pg_type_info[p].itemsize * 8;
                if (PG_IS_UNSIGNED(p))
                    fits = v >= 0 && (bits == 64 || (unsigned long long)v < (1ULL << bits));
                else
                    fits = bits == 64 || (v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1)));
            }
            if (!fits) {
                if (compare) {
                    /* NumPy compares out-of-range Python ints exactly; a wide dtype does it here */
                    if (!overflow)
                        return pg_promote_types(p, PG_INT64);
                    return overflow > 0 && p != PG_UINT64 ? pg_promote_types(p, PG_UINT64) : PG_FLOAT64;
                }
                PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", value,
                             pg_type_info[p].name);
                return -1;
            }
        }
        return p;
    case PG_WEAK_FLOAT:
        return PG_IS_BOOL(p) || PG_IS_INTEGER(p) ? PG_FLOAT64 : p;
    default: /* complex */
        if (PG_IS_COMPLEX(p))
            return p;
        return (p == PG_FLOAT16 || p == PG_FLOAT32) ? PG_COMPLEX64 : PG_COMPLEX128;
    }
}

int
pg_python_int_type(PyObject *value)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow)
        return PG_INT64;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(value);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred()))
            return PG_UINT64;
        PyErr_Clear();
    }
    PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s", value,
                 overflow > 0 ? "uint64" : "int64");
    return -1;
}

/* The type a Python int outside the integer operand's range is compared in, exactly as NumPy:
 * int64 or uint64 (the op table compares int64 with uint64 exactly), or past 64 bits a float64
 * +-2**65, which every 64-bit integer is below or above as the int itself is (*value replaced). */
static int
compare_int_type(PyObject **value)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(*value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow)
        return PG_INT64;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(*value);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred()))
            return PG_UINT64;
        PyErr_Clear();
    }
    PyObject *bound = PyFloat_FromDouble(overflow > 0 ? 0x1p65 : -0x1p65);
    if (bound == NULL)
        return -1;
    Py_SETREF(*value, bound);
    return PG_FLOAT64;
}

/* ------------------------------------------------------------------ operands */

/* Whether an op-table ufunc computes operands of integer type p in a float or complex loop
 * (arctan2 of int8: float16), where a Python int beyond p's range is still a value. */
static int find_loop(PgUfunc *uf, int *types);
static int
computes_inexact(PgUfunc *uf, int p)
{
    int types[PG_UFUNC_MAXARGS];
    if (p < 0 || uf->programs || uf->nin > PG_UFUNC_MAXARGS)
        return 0;
    for (int i = 0; i < uf->nin; i++)
        types[i] = p;
    int k = find_loop(uf, types);
    return k >= 0 && (PG_IS_FLOAT(loop_types(uf, k)[0]) || PG_IS_COMPLEX(loop_types(uf, k)[0]));
}

typedef struct {
    PyObject *obj;      /* borrowed: the argument */
    PgArray *arr;       /* new reference; NULL for a scalar */
    PyObject *scalar;   /* new reference: the scalar value (for 0-d NumPy arrays, their item) */
    int type;           /* dtype for resolution */
    int weak;
    int pending;        /* an array-like still to be copied to the device */
    int load;           /* a Python scalar passed as this type, the loop converting it as it loads
                           (into a loop of a lower kind by casting='unsafe'); -1: the loop's type */
} Operand;

/* The type weak operand op takes next to the strong operands' type p (NEP 50), as NumPy's:
 * OverflowError for a Python int outside an integer p, except in true division (computed in
 * float64), in a ufunc with no integer loop for p (arctan2 of int8: the float16 loop takes the
 * value), in a ufunc of mixed loops (ldexp(uint64_array, -2): the int must fit the loop's int
 * input, checked once the loop is found) and in comparisons, which compare it exactly
 * (op->scalar may be replaced). */
static int
weak_operand_type(PgUfunc *uf, Operand *op, int p)
{
    int t = pg_weak_scalar_type(op->weak, op->scalar, p, uf->flags & (PG_UF_COMPARE | PG_UF_TRUEDIV));
    if (t < 0) {
        if (!(op->weak == PG_WEAK_INT && PyErr_ExceptionMatches(PyExc_OverflowError) &&
              ((uf->flags & PG_UF_MIXED) || computes_inexact(uf, p))))
            return -1;
        PyErr_Clear();
        return p == PG_BOOL ? PG_INT64 : p; /* next to bools an int is an int64 (hypot: float64) */
    }
    if (!(uf->flags & PG_UF_COMPARE) || op->weak != PG_WEAK_INT || p < 0)
        return t;
    if (PG_IS_INTEGER(p) && t != p)
        return compare_int_type(&op->scalar);
    if (p == PG_BOOL && t != PG_INT64) { /* NumPy takes the int as an int64 next to bools */
        PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
        return -1;
    }
    return t;
}

/* With dtype= NumPy picks the loop first, then converts a Python scalar to the loop's input
 * type: an int outside the array's range is searched as the array's type (uint8_array + -2
 * with dtype=int16 takes the int16 loop) and checked against the loop by weak_int_into_loop. */
static int
weak_search_type(PgUfunc *uf, Operand *op, int p)
{
    int t = weak_operand_type(uf, op, p);
    if (t < 0 && op->weak == PG_WEAK_INT && PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        t = p == PG_BOOL ? PG_INT64 : p;
    }
    return t;
}

/* A Python int into loop input type t (dtype= given), as NumPy converts it before any casting
 * check: it must fit an integer t, and an int64 for a bool t (OverflowError). */
static int
weak_int_into_loop(const Operand *op, int t)
{
    if (PG_IS_INTEGER(t))
        return pg_weak_scalar_type(op->weak, op->scalar, t, 0) < 0 ? -1 : 0;
    if (PG_IS_BOOL(t) && PyLong_AsLongLong(op->scalar) == -1 && PyErr_Occurred())
        return -1;
    return 0;
}

/* A Python scalar of a higher kind than loop input type t (input i, dtype= given) casts from
 * its default dtype by `casting`, as NumPy's (2.5 into an int64 loop: "Cannot cast ufunc 'add'
 * input 1 from dtype('float64')"); by 'unsafe' the loop converts it as it loads it. */
static int
weak_kind_into_loop(PgUfunc *uf, Operand *op, int i, int t, PgCasting casting)
{
    int own = op->weak == PG_WEAK_INT ? PG_INT64 : op->weak == PG_WEAK_FLOAT ? PG_FLOAT64 : PG_COMPLEX128;
    int higher = op->weak == PG_WEAK_INT ? PG_IS_BOOL(t)
               : op->weak == PG_WEAK_FLOAT ? !(PG_IS_FLOAT(t) || PG_IS_COMPLEX(t))
                                           : !PG_IS_COMPLEX(t);
    if (!higher)
        return 0;
    if (!pg_can_cast(own, t, casting)) {
        raise_casting(uf, 1, i, own, t, casting);
        return -1;
    }
    op->load = own; /* -2.5 into uint8 is NumPy's cast of a float64 (254), not an assignment's error */
    return 0;
}

/* The type of a Python scalar operand of a call with no strong operand (only Python scalars, and
 * where's condition), as NumPy's: each its default dtype (int64, float64, complex128), the
 * comparisons widening an int beyond int64 as next to an integer array. An int beyond int64 is a
 * value of the loop next to a Python float or complex (kind: the widest Python scalar's; taken as
 * a float64 here) or when the int64 loop computes inexact (arctan2); a lone one (n: the operands
 * promoted) is np.asarray's uint64 where it fits; else OverflowError (an int64 loop cannot take
 * it), always in the logical ufuncs. */
static int
python_scalar_type(PgUfunc *uf, const Operand *op, int kind, int n)
{
    int widen = (uf->flags & PG_UF_LOGICAL) ? 0 : uf->flags & (PG_UF_COMPARE | PG_UF_TRUEDIV);
    int t = pg_weak_scalar_type(op->weak, op->scalar, -1, widen);
    if (t >= 0 || op->weak != PG_WEAK_INT || (uf->flags & PG_UF_LOGICAL) ||
        !PyErr_ExceptionMatches(PyExc_OverflowError))
        return t;
    if (kind > PG_WEAK_INT) {
        PyErr_Clear();
        return PG_FLOAT64;
    }
    if (n == 1) {
        PyErr_Clear();
        return pg_python_int_type(op->scalar);
    }
    if (!computes_inexact(uf, PG_INT64))
        return -1;
    PyErr_Clear();
    return PG_INT64;
}

/* A comparison of two Python ints, exact as NumPy's (past 64 bits too): the two are replaced by
 * stand-ins in the same order (0, and -1, 0 or 1). 0, or -1 with an exception. */
static int
compare_python_ints(Operand *ops)
{
    int lt = PyObject_RichCompareBool(ops[0].scalar, ops[1].scalar, Py_LT);
    int gt = lt ? 0 : PyObject_RichCompareBool(ops[0].scalar, ops[1].scalar, Py_GT);
    if (lt < 0 || gt < 0)
        return -1;
    PyObject *zero = PyLong_FromLong(0);
    PyObject *other = zero ? PyLong_FromLong(lt ? 1 : gt ? -1 : 0) : NULL;
    if (other == NULL) {
        Py_XDECREF(zero);
        return -1;
    }
    Py_SETREF(ops[0].scalar, zero);
    Py_SETREF(ops[1].scalar, other);
    return 0;
}

/* 1 when the operand (an integer exponent) has a value below 0, 0 when not, -1 on error: its min,
 * which waits for the device, as NumPy's loop checks every element */
static int
has_negative(const Operand *op, int loop_type)
{
    if (op->arr == NULL && op->scalar == NULL)
        return 0;
    if (op->arr && pg_array_size(op->arr) == 0)
        return 0;
    /* the exponents as the loop sees them: cast first (NumPy's: a float NaN becomes INT_MIN, -0.5
     * becomes 0) */
    PyObject *exps = op->arr && op->arr->type != loop_type
                         ? PyObject_CallMethod((PyObject *)op->arr, "astype", "O", pg_type_descr(loop_type))
                         : Py_XNewRef((PyObject *)op->arr);
    if (op->arr && exps == NULL)
        return -1;
    PyObject *lowest = exps ? PyObject_CallMethod(exps, "min", NULL) : Py_NewRef(op->scalar);
    Py_XDECREF(exps);
    if (lowest == NULL)
        return -1;
    PyObject *zero = PyLong_FromLong(0);
    int r = zero ? PyObject_RichCompareBool(lowest, zero, Py_LT) : -1;
    Py_XDECREF(zero);
    Py_DECREF(lowest);
    return r;
}

/* NumPy's float32 and float64 power loops take an exponent of stride 0 (a scalar) equal to 0.5 as
 * sqrt of the base: (-0.0) ** 0.5 is -0.0 and (-inf) ** 0.5 nan there, as sqrt's, where pow gives
 * +0.0 and inf (the float16 and complex loops have no such path; an array of exponents takes pow).
 * *kernel becomes sqrt's loop of that type when it applies. 0, or -1 on error. */
static int
scalar_half_power(const Operand *ops, const int *kt, int *kernel)
{
    if (ops[1].arr != NULL || ops[1].scalar == NULL || kt[0] != kt[1] ||
        (kt[0] != PG_FLOAT32 && kt[0] != PG_FLOAT64))
        return 0;
    double e = PyFloat_AsDouble(ops[1].scalar);
    if (e == -1.0 && PyErr_Occurred())
        return -1;
    if (e != 0.5)
        return 0;
    PgUfunc *sq = pg_ufunc_lookup("sqrt");
    int types[1] = {kt[0]};
    int j = sq ? find_loop(sq, types) : -1;
    if (j >= 0 && loop_types(sq, j)[0] == kt[0] && loop_types(sq, j)[1] == kt[0])
        *kernel = sq->first + j;
    return 0;
}

/* 0: classified; 1: not a type ufuncs take (operators return NotImplemented); -1: error */
static int
classify(PyObject *obj, Operand *op)
{
    op->obj = obj;
    op->arr = NULL;
    op->scalar = NULL;
    op->weak = PG_WEAK_NONE;
    op->pending = 0;
    op->load = -1;
    if (PgArray_Check(obj)) {
        op->arr = (PgArray *)Py_NewRef(obj);
        op->type = op->arr->type;
        return 0;
    }
    if (PyArray_IsScalar(obj, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(obj);
        if (d == NULL)
            return -1;
        op->type = pg_type_from_descr(d);
        Py_DECREF(d);
        if (op->type < 0)
            return -1;
        op->scalar = Py_NewRef(obj);
        return 0;
    }
    if (PyBool_Check(obj)) {
        op->type = PG_BOOL;
        op->scalar = Py_NewRef(obj);
        return 0;
    }
    if (PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj)) {
        op->weak = PyLong_Check(obj) ? PG_WEAK_INT : PyFloat_Check(obj) ? PG_WEAK_FLOAT : PG_WEAK_COMPLEX;
        op->type = -1;
        op->scalar = Py_NewRef(obj);
        return 0;
    }
    if (PyArray_Check(obj)) {
        PyArrayObject *a = (PyArrayObject *)obj;
        op->type = pg_value_type_from_descr(PyArray_DESCR(a));
        if (op->type < 0)
            return -1;
        if (PyArray_NDIM(a) == 0) { /* a strong scalar, passed by value */
            op->scalar = PyArray_ToScalar(PyArray_DATA(a), a);
            return op->scalar ? 0 : -1;
        }
        op->pending = 1;
        return 0;
    }
    /* sequences and array-likes NumPy's operators take as arrays: a range, a bytearray or memoryview
     * (not bytes, a string to NumPy), objects with __array__ or __array_interface__ that do not
     * take part in the operator protocol themselves (those get NotImplemented, to answer) */
    if (PyList_Check(obj) || PyTuple_Check(obj) || PyRange_Check(obj) ||
        (PyObject_CheckBuffer(obj) && !PyBytes_Check(obj)) ||
        (!pg_numpy_aware(obj) &&
         (PyObject_HasAttrString(obj, "__array__") || PyObject_HasAttrString(obj, "__array_interface__")))) {
        op->type = -1;
        op->pending = 1;
        return 0;
    }
    return 1;
}

static void
release(Operand *ops, int n)
{
    for (int i = 0; i < n; i++) {
        Py_CLEAR(ops[i].arr);
        Py_CLEAR(ops[i].scalar);
    }
}

/* ------------------------------------------------------------------ loop search */

static int
loop_accepts(PgUfunc *uf, int j, const int *types, PgCasting casting)
{
    const int *lt = loop_types(uf, j);
    for (int i = 0; i < uf->nin; i++)
        if (types[i] != lt[i] && !pg_can_cast(types[i], lt[i], casting))
            return 0;
    return 1;
}

static int
find_loop(PgUfunc *uf, int *types)
{
    int nin = uf->nin;
    if ((uf->flags & PG_UF_TRUEDIV)) {
        int all_int = 1;
        for (int i = 0; i < nin; i++)
            all_int &= types[i] <= PG_UINT64;
        if (all_int)
            for (int i = 0; i < nin; i++)
                types[i] = PG_FLOAT64;
    }
    int same = 1;
    for (int i = 1; i < nin; i++)
        same &= types[i] == types[0];
    if (same && uf->cache[types[0]] != -2)
        return uf->cache[types[0]];
    int found = -1;
    for (int j = 0; j < uf->nloops; j++) {
        if (loop_accepts(uf, j, types, PG_CAST_SAFE)) {
            found = j;
            break;
        }
    }
    if (same)
        uf->cache[types[0]] = found;
    return found;
}

/* A program ufunc's loop, as NumPy picks among the loops of a user ufunc: the first whose inputs
 * take each operand, an array or NumPy scalar by safe casting, a Python scalar by its kind (an
 * int any integer or inexact type, a float any inexact type, a complex a complex type). */
static int
weak_fits(int weak, int t)
{
    switch (weak) {
    case PG_WEAK_INT: return PG_IS_INTEGER(t) || PG_IS_FLOAT(t) || PG_IS_COMPLEX(t);
    case PG_WEAK_FLOAT: return PG_IS_FLOAT(t) || PG_IS_COMPLEX(t);
    default: return PG_IS_COMPLEX(t);
    }
}

/* NumPy's kinds in that order: bool, integer, float, complex */
static int
kind_order(int t)
{
    return PG_IS_BOOL(t) ? 0 : PG_IS_INTEGER(t) ? 1 : PG_IS_FLOAT(t) ? 2 : 3;
}

/* Whether Python scalars are weak in the search (NumPy's should_use_min_scalar): only next to an
 * array (ndim > 0) of at least their kind. Otherwise they are their default dtypes (int64,
 * float64, complex128): an int8 array and 0.1 take a float64 loop, two Python ints an int64 one. */
static int
weak_in_search(const Operand *ops, const int *types, int nin)
{
    int max_array = -1, max_scalar = -1;
    for (int i = 0; i < nin; i++) {
        int k = ops[i].weak == PG_WEAK_INT     ? 1
                : ops[i].weak == PG_WEAK_FLOAT ? 2
                : ops[i].weak                  ? 3
                                               : kind_order(types[i]);
        if (ops[i].arr && ops[i].arr->ndim > 0)
            max_array = k > max_array ? k : max_array;
        else
            max_scalar = k > max_scalar ? k : max_scalar;
    }
    return max_array >= 0 && max_array >= max_scalar;
}

static int
find_loop_by_kind(PgUfunc *uf, const int *types, const Operand *ops, int weak)
{
    for (int j = 0; j < uf->nloops; j++) {
        const int *lt = loop_types(uf, j);
        int ok = 1;
        for (int i = 0; i < uf->nin && ok; i++)
            ok = ops[i].weak && weak ? weak_fits(ops[i].weak, lt[i])
                                     : types[i] == lt[i] || pg_can_cast(types[i], lt[i], PG_CAST_SAFE);
        if (ok)
            return j;
    }
    return -1;
}

static int
find_program_loop(PgUfunc *uf, const int *types, const Operand *ops)
{
    return find_loop_by_kind(uf, types, ops, (uf->flags & PG_UF_USER_LOOPS) ? weak_in_search(ops, types, uf->nin) : 1);
}

/* with dtype= for a ufunc of mixed loops (ldexp), NumPy's legacy search: the first loop whose
 * output is dtype and whose inputs take the operands at most safely, a Python int any integer or
 * inexact input (ldexp(0, int8_array, dtype=float16)), a Python float or complex as float64 or
 * complex128 (ldexp(1.5, int8_array, dtype=float16) has no loop, nor a float32 array there) */
static int
find_mixed_loop_dtype(PgUfunc *uf, const int *types, const Operand *ops, int dtype, PgCasting casting)
{
    PgCasting in_casting = casting < PG_CAST_SAFE ? casting : PG_CAST_SAFE;
    for (int j = 0; j < uf->nloops; j++) {
        const int *lt = loop_types(uf, j);
        int ok = lt[uf->nin] == dtype;
        for (int i = 0; i < uf->nin && ok; i++) {
            int t = ops[i].weak == PG_WEAK_FLOAT ? PG_FLOAT64 : ops[i].weak == PG_WEAK_COMPLEX ? PG_COMPLEX128 : types[i];
            ok = ops[i].weak == PG_WEAK_INT ? weak_fits(PG_WEAK_INT, lt[i]) : t == lt[i] || pg_can_cast(t, lt[i], in_casting);
        }
        if (ok)
            return j;
    }
    return -1;
}

/* with dtype= (NumPy's signature of the output alone): the first loop whose output is dtype and
 * that takes the inputs safely (absolute(complex64, dtype=float32) is F->f, equal(bool, float32,
 * dtype=bool) ff->?), else the loop computing in dtype (all of its types; the inputs then cast as
 * casting= allows), else one whose output is dtype and that takes the inputs by casting= */
static int
find_loop_dtype(PgUfunc *uf, const int *types, int dtype, PgCasting casting)
{
    for (int j = 0; j < uf->nloops; j++)
        if (loop_types(uf, j)[uf->nin] == dtype && loop_accepts(uf, j, types, PG_CAST_SAFE))
            return j;
    for (int j = 0; j < uf->nloops; j++) {
        int all = 1;
        for (int i = 0; i <= uf->nin; i++)
            all &= loop_types(uf, j)[i] == dtype;
        if (all)
            return j;
    }
    for (int j = 0; j < uf->nloops; j++)
        if (loop_types(uf, j)[uf->nin] == dtype && loop_accepts(uf, j, types, casting))
            return j;
    return -1;
}

/* ------------------------------------------------------------------ memory overlap */

/* 1 when input `in` shares memory with `out` other than element-for-element */
static int
needs_buffer(PgArray *in, PgArray *out)
{
    if (in->device != out->device)
        return 0;
    if (!pg_array_bytes_overlap(in, out))
        return 0;
    if (in->data == out->data && in->ndim == out->ndim && PG_ITEMSIZE(in) == PG_ITEMSIZE(out) &&
        memcmp(in->shape, out->shape, sizeof(int64_t) * (size_t)in->ndim) == 0 &&
        memcmp(in->strides, out->strides, sizeof(int64_t) * (size_t)in->ndim) == 0)
        return 0;
    return 1;
}

/* ------------------------------------------------------------------ apply */

int
pg_raise_different_devices(PgDevice *a, PgDevice *b)
{
    PyErr_Format(PyExc_ValueError, "operands are on different devices (%S and %S); move them with .to_device() first",
                 (PyObject *)a, (PyObject *)b);
    return -1;
}

static int
different_devices(PgUfunc *uf, PgDevice *a, PgDevice *b)
{
    if (!uf->target)
        return pg_raise_different_devices(a, b);
    PyErr_Format(PyExc_ValueError,
                 "ufunc '%U' runs on %S (its target), but an operand is on %S; move it with .to_device() first",
                 uf->name, (PyObject *)a, (PyObject *)b);
    return -1;
}

/* NumPy's override protocol: an operand of a type ufuncs do not know that defines
 * __array_ufunc__ (a tracer, a Dask array) gets the call. Returns its result, NULL with an
 * exception, or NULL without one when obj does not take part. */
static PyObject *
call_override(PgUfunc *uf, PyObject *const *inputs, PyObject *obj, PyObject *out, int dtype, PgCasting casting)
{
    PyObject *meth = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__array_ufunc__");
    PyObject *args = NULL, *kwargs = NULL, *ret = NULL;
    if (meth == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (meth == Py_None) {
        PyErr_Format(PyExc_TypeError, "operand '%.200s' does not support ufuncs (__array_ufunc__=None)",
                     Py_TYPE(obj)->tp_name);
        goto done;
    }
    args = PyTuple_New(3 + uf->nin);
    kwargs = PyDict_New();
    if (args == NULL || kwargs == NULL)
        goto done;
    PyTuple_SET_ITEM(args, 0, Py_NewRef(obj));
    PyTuple_SET_ITEM(args, 1, Py_NewRef((PyObject *)uf));
    PyObject *method = PyUnicode_FromString("__call__");
    if (method == NULL)
        goto done;
    PyTuple_SET_ITEM(args, 2, method);
    for (int i = 0; i < uf->nin; i++)
        PyTuple_SET_ITEM(args, 3 + i, Py_NewRef(inputs[i]));
    if (out && out != Py_None) {
        PyObject *t = PyTuple_Pack(1, out);
        if (t == NULL || PyDict_SetItemString(kwargs, "out", t) < 0) {
            Py_XDECREF(t);
            goto done;
        }
        Py_DECREF(t);
    }
    if (dtype >= 0 && PyDict_SetItemString(kwargs, "dtype", (PyObject *)pg_type_descr(dtype)) < 0)
        goto done;
    if (casting != PG_CAST_SAME_KIND) {
        PyObject *c = PyUnicode_FromString(pg_casting_name(casting));
        if (c == NULL || PyDict_SetItemString(kwargs, "casting", c) < 0) {
            Py_XDECREF(c);
            goto done;
        }
        Py_DECREF(c);
    }
    ret = PyObject_Call(meth, args, kwargs);
    if (ret == Py_NotImplemented) {
        Py_CLEAR(ret);
        PyErr_Format(PyExc_TypeError, "operand type(s) all returned NotImplemented from __array_ufunc__(%R, '__call__', ...): '%.200s'",
                     (PyObject *)uf, Py_TYPE(obj)->tp_name);
    }
done:
    Py_DECREF(meth);
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    return ret;
}

/* A new loop for these input dtypes from a lazy ufunc's compiler; its index, or -1. */
static int add_program_loop(PgUfunc *uf, PyObject *types, PyObject *program);

static int
compile_loop(PgUfunc *uf, const int *types)
{
    PyObject *dtypes = PyTuple_New(uf->nin);
    if (dtypes == NULL)
        return -1;
    for (int i = 0; i < uf->nin; i++)
        PyTuple_SET_ITEM(dtypes, i, Py_NewRef((PyObject *)pg_type_descr(types[i])));
    PyObject *r = PyObject_CallOneArg(uf->compiler, dtypes);
    Py_DECREF(dtypes);
    if (r == NULL)
        return -1;
    PyObject *ltypes, *program;
    int j = -1;
    if (PyArg_ParseTuple(r, "OO;a ufunc compiler returns (types, program)", &ltypes, &program))
        j = add_program_loop(uf, ltypes, program);
    Py_DECREF(r);
    if (j >= 0 && !loop_accepts(uf, j, types, PG_CAST_SAFE)) {
        PyErr_Format(PyExc_TypeError, "the loop compiled for ufunc '%U' does not take the inputs' dtypes", uf->name);
        return -1;
    }
    return j;
}

int
pg_parse_out(PyObject *outobj, PgArray **out)
{
    *out = NULL;
    if (outobj == NULL || outobj == Py_None)
        return 0;
    if (!PgArray_Check(outobj)) {
        PyErr_Format(PyExc_TypeError, "return arrays must be of type pygpu.ndarray, not %.200s",
                     Py_TYPE(outobj)->tp_name);
        return -1;
    }
    *out = (PgArray *)outobj;
    return pg_array_check_writeable(*out);
}

PyObject *
pg_ufunc_apply(PgUfunc *uf, PyObject *const *inputs, PyObject *outobj, int dtype, PgCasting casting, int notimpl)
{
    int nin = uf->nin;
    Operand ops[PG_UFUNC_MAXARGS];
    int types[PG_UFUNC_MAXARGS];
    PgOperand kops[PG_UFUNC_MAXARGS];
    PgArray *out = NULL, *result = NULL, *tmp = NULL;
    PyObject *ret = NULL;
    PgDevice *dev = uf->target;
    int nclassified = 0;
    static const int64_t one[1] = {1}, zero[1] = {0};

    if (pg_parse_out(outobj, &out) < 0)
        return NULL;
    if (out != NULL) {
        if (dev && out->device != dev) {
            different_devices(uf, dev, out->device);
            return NULL;
        }
        dev = out->device;
    }
    /* an in-place operator never gives way (NEP 13): a += b is add(a, b, out=a) or an error */
    notimpl = notimpl && out == NULL;
    for (int i = 0; i < nin; i++) {
        /* an operator defers to NumPy's subclasses that rank above arrays (a masked array's mask,
         * np.matrix's product), as NumPy's own operators do */
        if (notimpl && PyArray_Check(inputs[i]) && !PyArray_CheckExact(inputs[i]) &&
            PyArray_GetPriority(inputs[i], 0.0) > 0.0) {
            ret = Py_NewRef(Py_NotImplemented);
            goto done;
        }
        int rc = classify(inputs[i], &ops[i]);
        if (rc != 0) {
            if (rc > 0) {
                if (notimpl) {
                    ret = Py_NewRef(Py_NotImplemented);
                    goto done;
                }
                ret = call_override(uf, inputs, inputs[i], outobj, dtype, casting);
                if (ret == NULL && !PyErr_Occurred())
                    PyErr_Format(PyExc_TypeError, "ufunc '%U' does not support operands of type %.200s", uf->name,
                                 Py_TYPE(inputs[i])->tp_name);
            }
            goto done;
        }
        nclassified = i + 1;
        if (ops[i].arr) {
            if (dev == NULL)
                dev = ops[i].arr->device;
            else if (ops[i].arr->device != dev) {
                different_devices(uf, dev, ops[i].arr->device);
                goto done;
            }
        }
    }
    if (dev == NULL)
        dev = pg_device_current();
    /* NumPy arrays and sequences travel to the device (they are strong operands) */
    for (int i = 0; i < nin; i++) {
        if (ops[i].pending) {
            ops[i].arr = pg_asarray(ops[i].obj, -1, dev, -1);
            if (ops[i].arr == NULL)
                goto done;
            ops[i].type = ops[i].arr->type;
            ops[i].pending = 0;
        }
    }

    if ((uf->flags & (PG_UF_COMPARE | PG_UF_LOGICAL)) == PG_UF_COMPARE && nin == 2 && ops[0].weak == PG_WEAK_INT &&
        ops[1].weak == PG_WEAK_INT && compare_python_ints(ops) < 0)
        goto done;
    /* dtypes: strong ones promote together, weak scalars follow (NEP 50) */
    int first = (uf->flags & PG_UF_WHERE) ? 1 : 0;
    int p = -1, kind = PG_WEAK_NONE;
    for (int i = first; i < nin; i++) {
        if (!ops[i].weak)
            p = p < 0 ? ops[i].type : (int)pg_promote_types(p, ops[i].type);
        else if (ops[i].weak > kind)
            kind = ops[i].weak;
    }
    for (int i = 0; i < nin; i++) {
        if (i < first)
            types[i] = PG_BOOL;
        else if (ops[i].weak) {
            /* a user ufunc (vectorize) checks a Python int against the loop it picks (300 next to
             * int8 in an int32 loop): its default dtype here, for when it is not weak in the search */
            if ((uf->flags & PG_UF_USER_LOOPS) && dtype < 0) {
                types[i] = pg_weak_scalar_type(ops[i].weak, ops[i].scalar, -1, 0);
                if (types[i] < 0 && PyErr_ExceptionMatches(PyExc_OverflowError)) { /* as NumPy's array(2**63) */
                    PyErr_Clear();
                    types[i] = pg_weak_scalar_type(ops[i].weak, ops[i].scalar, PG_UINT64, 0);
                }
            } else {
                if (p < 0)
                    types[i] = python_scalar_type(uf, &ops[i], kind, nin - first);
                else if (dtype >= 0 && !(uf->flags & PG_UF_COMPARE))
                    types[i] = weak_search_type(uf, &ops[i], p);
                else
                    types[i] = weak_operand_type(uf, &ops[i], p);
            }
            if (types[i] < 0)
                goto done;
        } else
            types[i] = ops[i].type;
    }
    if ((uf->flags & PG_UF_NOBOOL) && (dtype < 0 || dtype == PG_BOOL)) { /* negative(bool, dtype=int8) is fine */
        int all_bool = 1;
        for (int i = 0; i < nin; i++)
            all_bool &= types[i] == PG_BOOL;
        if (all_bool) {
            if (PyUnicode_CompareWithASCIIString(uf->name, "sign") == 0 ||
                PyUnicode_CompareWithASCIIString(uf->name, "positive") == 0) /* NumPy has no bool loop */
                raise_bool_no_loop(uf, dtype >= 0);
            else
                PyErr_SetString(PyExc_TypeError,
                                nin == 2 ? "numpy boolean subtract, the `-` operator, is not supported, use the "
                                           "bitwise_xor, the `^` operator, or the logical_xor function instead."
                                         : "The numpy boolean negative, the `-` operator, is not supported, use the "
                                           "`~` operator or the logical_not function instead.");
            goto done;
        }
    }
    int k;
    if (uf->programs && dtype < 0)
        k = find_program_loop(uf, types, ops);
    else if ((uf->flags & PG_UF_MIXED) && dtype < 0 && p >= 0 && weak_in_search(ops, types, nin)) {
        /* next to an array of at least its kind a Python scalar takes the first loop of its kind,
         * as NumPy's legacy resolver (ldexp(5, int64 array) is float16's loop); an int must fit
         * an integer input of it (ldexp(x, 2**63): NumPy's OverflowError) */
        k = find_loop_by_kind(uf, types, ops, 1);
        for (int i = 0; i < nin && k >= 0; i++)
            if (ops[i].weak == PG_WEAK_INT && PG_IS_INTEGER(loop_types(uf, k)[i]) &&
                pg_weak_scalar_type(ops[i].weak, ops[i].scalar, loop_types(uf, k)[i], 0) < 0)
                goto done;
    } else if ((uf->flags & PG_UF_MIXED) && dtype >= 0) {
        k = find_mixed_loop_dtype(uf, types, ops, dtype, casting);
    } else
        k = dtype >= 0 ? find_loop_dtype(uf, types, dtype, casting) : find_loop(uf, types);
    if (k < 0 && !uf->programs && dtype < 0) {
        /* a loop of mixed types (ldexp's float and int64): Python scalars at their default
         * dtypes, as NumPy's ldexp(x, 3) finds its float64, int64 loop; an int past int64 is
         * searched as an int64 too, and the loop found cannot take it (NumPy's OverflowError) */
        int any_weak = 0, beyond = -1;
        for (int i = first; i < nin; i++) {
            if (ops[i].weak) {
                any_weak = 1;
                if ((types[i] = pg_weak_scalar_type(ops[i].weak, ops[i].scalar, -1, 0)) < 0) {
                    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                        goto done;
                    PyErr_Clear();
                    types[i] = PG_INT64;
                    beyond = beyond < 0 ? i : beyond;
                }
            }
        }
        if (any_weak)
            k = find_loop(uf, types);
        if (k >= 0 && beyond >= 0) {
            pg_weak_scalar_type(ops[beyond].weak, ops[beyond].scalar, -1, 0); /* its OverflowError */
            goto done;
        }
    }
    if (k < 0 && uf->compiler) {
        /* A lazy program ufunc compiles for the operands' own dtypes: Python scalars take their
         * default dtype (int64, float64, complex128) rather than the other operands' (as
         * Numba's lazy vectorize types its arguments). */
        for (int i = 0; i < nin; i++) {
            if (ops[i].weak) {
                types[i] = pg_weak_scalar_type(ops[i].weak, ops[i].scalar, -1, 0);
                if (types[i] < 0)
                    goto done;
            }
        }
        k = find_loop(uf, types);
        if (k < 0 && (k = compile_loop(uf, types)) < 0)
            goto done;
        if (dtype >= 0 && loop_types(uf, k)[nin] != dtype)
            k = find_loop_dtype(uf, types, dtype, casting);
    }
    if (k < 0) {
        raise_no_loop(uf);
        goto done;
    }
    const int *kt = loop_types(uf, k);
    if ((uf->flags & PG_UF_USER_LOOPS) && dtype < 0) { /* a Python int must fit the loop that took it */
        for (int i = first; i < nin; i++)
            if (ops[i].weak == PG_WEAK_INT && pg_weak_scalar_type(ops[i].weak, ops[i].scalar, kt[i], 0) < 0)
                goto done;
    }
    /* with dtype=, Python scalars convert to the loop's types: ints first, as NumPy's */
    int weak_to_loop = dtype >= 0 && p >= 0 && !(uf->flags & PG_UF_COMPARE);
    for (int i = first; i < nin && weak_to_loop; i++)
        if (ops[i].weak == PG_WEAK_INT && weak_int_into_loop(&ops[i], kt[i]) < 0)
            goto done;
    if (dtype >= 0 || casting < PG_CAST_SAFE) { /* the loop found took the inputs safely */
        for (int i = first; i < nin; i++) {
            if (ops[i].weak) {
                if (weak_to_loop && weak_kind_into_loop(uf, &ops[i], i, kt[i], casting) < 0)
                    goto done;
            } else if (!pg_can_cast(types[i], kt[i], casting)) {
                raise_casting(uf, 1, i, types[i], kt[i], casting);
                goto done;
            }
        }
    }

    for (int i = first; i < nin; i++) { /* complex inputs into a real loop (casting='unsafe') */
        int from = ops[i].weak ? ops[i].load : types[i];
        if (from >= 0 && pg_warn_complex_cast(from, kt[i]) < 0)
            goto done;
    }

    /* broadcast shape (the output takes part but may not be broadcast) */
    int nds[PG_UFUNC_MAXARGS + 1];
    const int64_t *shapes[PG_UFUNC_MAXARGS + 1];
    int nshapes = 0, nd = 0;
    int64_t shape[PG_MAXDIMS];
    for (int i = 0; i < nin; i++) {
        if (ops[i].arr) {
            nds[nshapes] = ops[i].arr->ndim;
            shapes[nshapes++] = ops[i].arr->shape;
        }
    }
    if (nshapes == 1) {
        nd = nds[0];
        memcpy(shape, shapes[0], sizeof(int64_t) * (size_t)nd);
    } else if (nshapes > 1 && pg_broadcast_shapes(nshapes, nds, shapes, &nd, shape) < 0) {
        goto done;
    }

    int otype = kt[nin];
    if (out) {
        int bnd;
        int64_t bshape[PG_MAXDIMS];
        nds[nshapes] = out->ndim;
        shapes[nshapes] = out->shape;
        if (pg_broadcast_shapes(nshapes + 1, nds, shapes, &bnd, bshape) < 0)
            goto done;
        if (bnd != out->ndim || memcmp(bshape, out->shape, sizeof(int64_t) * (size_t)bnd) != 0) {
            PyObject *a = pg_shape_repr(out->ndim, out->shape), *b = pg_shape_repr(nd, shape);
            if (a && b)
                PyErr_Format(PyExc_ValueError,
                             "non-broadcastable output operand with shape %U doesn't match the broadcast shape %U", a,
                             b);
            Py_XDECREF(a);
            Py_XDECREF(b);
            goto done;
        }
        if (!pg_can_cast(otype, out->type, casting)) {
            raise_casting(uf, 0, nin, otype, out->type, casting);
            goto done;
        }
        if (pg_warn_complex_cast(otype, out->type) < 0)
            goto done;
        result = (PgArray *)Py_NewRef(out);
        /* a float16 loop's values (computed as float) are float16s: into another type they go
         * through a float16 buffer, as NumPy casts the loop's output (sqrt(int8, out=float32)) */
        int buffered = otype == PG_FLOAT16 && out->type != PG_FLOAT16;
        for (int i = 0; i < nin && !buffered; i++)
            buffered = ops[i].arr && needs_buffer(ops[i].arr, out);
        if (buffered) {
            tmp = pg_array_new(dev, otype == PG_FLOAT16 ? otype : out->type, out->ndim, out->shape, 'C',
                               PG_MEM_DEVICE);
            if (tmp == NULL)
                goto done;
        }
    } else {
        char order = 'C';
        if (nshapes && ops[0].arr && ops[0].arr->ndim == nd && nd > 1 &&
            (ops[0].arr->flags & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS)) == PG_F_CONTIGUOUS)
            order = 'F';
        result = pg_array_new(dev, otype, nd, shape, order, PG_MEM_DEVICE);
        if (result == NULL)
            goto done;
    }

    if ((uf->flags & PG_UF_POWER) && PG_IS_SIGNED(kt[1])) { /* after out='s casting check, as NumPy */
        int negative = has_negative(&ops[1], kt[1]);
        if (negative != 0) {
            if (negative > 0)
                PyErr_SetString(PyExc_ValueError, "Integers to negative integer powers are not allowed.");
            goto done;
        }
    }

    /* the launch: arrays converted as loaded, scalars by value in the loop's input type */
    for (int i = 0; i < nin; i++) {
        if (ops[i].arr) {
            pg_operand_from_array(&kops[i], ops[i].arr);
        } else {
            kops[i].data = NULL;
            kops[i].ndim = 0;
            kops[i].shape = one;
            kops[i].strides = zero;
            kops[i].type = ops[i].load >= 0 ? ops[i].load : kt[i];
            kops[i].scalar[0] = kops[i].scalar[1] = 0;
            if (pg_scalar_to_bytes(ops[i].scalar, kops[i].type, kops[i].scalar) < 0)
                goto done;
        }
    }
    PgArray *target = tmp ? tmp : result;
    pg_operand_from_array(&kops[nin], target);
    int kernel = uf->first + k, kin = nin;
    if ((uf->flags & PG_UF_POWER) && !uf->programs && scalar_half_power(ops, kt, &kernel) < 0)
        goto done;
    if (kernel != uf->first + k) { /* sqrt's loop: the base in, the result out */
        kops[1] = kops[nin];
        kin = 1;
    }
    if (pg_array_size(target) > 0) {
        int rc = uf->programs ? pg_program_launch(uf->programs[k].program, dev, nin + 1, kops)
                              : pg_elementwise_launch(dev, kernel, kin + 1, kops);
        if (rc < 0)
            goto done;
    }
    if (tmp && pg_array_assign(result, tmp) < 0)
        goto done;
    ret = (PyObject *)result;
    result = NULL;
done:
    release(ops, nclassified);
    Py_XDECREF(result);
    Py_XDECREF(tmp);
    return ret;
}

/* ------------------------------------------------------------------ the ufunc type */

/* uf(*args, out=out, where=mask): computed everywhere, then stored into out where the mask is
 * true (out keeps its other elements), after NumPy's check that the result casts to out; without
 * out NumPy leaves the others uninitialized: here they hold the values. Integer power reads its
 * exponent only where the mask is true (1 elsewhere), so a masked-off negative one is no error. */
static PyObject *
apply_where(PgUfunc *uf, PyObject *const *args, PyObject *out, int dtype, PgCasting casting, PyObject *where)
{
    PyObject *inputs[PG_UFUNC_MAXARGS], *exponent = NULL, *all = NULL, *res = NULL;
    PgArray *cast = NULL;
    for (int i = 0; i < uf->nin; i++)
        inputs[i] = args[i];
    if (uf->flags & PG_UF_POWER) {
        PyObject *one = PyLong_FromLong(1);
        PyObject *masked[3] = {where, args[1], one};
        exponent = one ? pg_ufunc_apply(pg_op_ufuncs[PG_OP_WHERE], masked, NULL, -1, PG_CAST_SAME_KIND, 0) : NULL;
        Py_XDECREF(one);
        if (exponent == NULL)
            return NULL;
        inputs[1] = exponent;
    }
    all = pg_ufunc_apply(uf, inputs, NULL, dtype, casting, 0);
    if (all == NULL || out == NULL || out == Py_None || !PgArray_Check(all) || !PgArray_Check(out)) {
        res = Py_XNewRef(all);
        goto done;
    }
    int from = ((PgArray *)all)->type, to = ((PgArray *)out)->type;
    if (from != to) {
        if (!pg_can_cast(from, to, casting)) {
            raise_casting(uf, 0, uf->nin, from, to, casting);
            goto done;
        }
        if ((cast = pg_array_copy((PgArray *)all, to, 'K', ((PgArray *)all)->device)) == NULL)
            goto done;
    }
    PyObject *chosen[3] = {where, cast ? (PyObject *)cast : all, out};
    res = pg_ufunc_apply(pg_op_ufuncs[PG_OP_WHERE], chosen, out, -1, casting, 0);
done:
    Py_XDECREF(exponent);
    Py_XDECREF(all);
    Py_XDECREF((PyObject *)cast);
    return res;
}

/* Numba's forms of a vectorize ufunc's call: stream=, or a NumPy array as the output. */
static int
wants_host_call(PgUfunc *uf, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (!(uf->flags & PG_UF_USER_LOOPS))
        return 0;
    for (Py_ssize_t i = uf->nin; i < nargs; i++)
        if (args[i] != Py_None && !PgArray_Check(args[i]))
            return 1;
    for (Py_ssize_t i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, i), *v = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(key, "stream") == 0)
            return 1;
        if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
            if (PyTuple_Check(v) && PyTuple_GET_SIZE(v) == 1)
                v = PyTuple_GET_ITEM(v, 0);
            if (v != Py_None && !PgArray_Check(v))
                return 1;
        }
    }
    return 0;
}

/* Those calls go to the ufunc's _host_call(ufunc, *args, **kwargs) (pygpu/_vectorize.py), which
 * enters the stream and copies the result into the NumPy array. */
static PyObject *
host_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *hook = PyObject_GetAttrString(self, "_host_call"), *r = NULL;
    if (hook == NULL)
        return NULL;
    PyObject **call = PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *));
    if (call == NULL) {
        Py_DECREF(hook);
        return PyErr_NoMemory();
    }
    call[0] = self;
    for (Py_ssize_t i = 0; i < n; i++)
        call[i + 1] = args[i];
    r = PyObject_Vectorcall(hook, call, (size_t)(nargs + 1), kwnames);
    PyMem_Free(call);
    Py_DECREF(hook);
    return r;
}

static PyObject *
ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PgUfunc *uf = (PgUfunc *)self;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (wants_host_call(uf, args, nargs, kwnames))
        return host_call(self, args, nargs, kwnames);
    PyObject *out = NULL, *dtype_obj = NULL, *casting_obj = NULL, *where = NULL, *order_obj = NULL;
    if (nargs < uf->nin || nargs > uf->nin + uf->nout) {
        PyErr_Format(PyExc_TypeError, "%U() takes from %d to %d positional arguments but %zd were given", uf->name,
                     uf->nin, uf->nin + uf->nout, nargs);
        return NULL;
    }
    if (nargs > uf->nin)
        out = args[uf->nin];
    if (kwnames) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, i), *v = args[nargs + i];
            if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
                if (out) {
                    PyErr_SetString(PyExc_TypeError, "cannot specify 'out' as both a positional and keyword argument");
                    return NULL;
                }
                out = v;
                if (PyTuple_Check(out)) {
                    if (PyTuple_GET_SIZE(out) != uf->nout) {
                        PyErr_SetString(PyExc_ValueError,
                                        "The 'out' tuple must have exactly one entry per ufunc output");
                        return NULL;
                    }
                    out = PyTuple_GET_ITEM(out, 0);
                }
            } else if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
                dtype_obj = v;
            } else if (PyUnicode_CompareWithASCIIString(key, "casting") == 0) {
                casting_obj = v;
            } else if (PyUnicode_CompareWithASCIIString(key, "where") == 0) {
                where = v;
            } else if (PyUnicode_CompareWithASCIIString(key, "order") == 0) {
                order_obj = v;
            } else if (PyUnicode_CompareWithASCIIString(key, "subok") != 0) { /* no subclasses: subok changes nothing */
                PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument '%U'", uf->name, key);
                return NULL;
            }
        }
    }
    int dtype = pg_type_from_object(dtype_obj, -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    PgCasting casting;
    char order;
    if (pg_casting_from_object(casting_obj, &casting) < 0 || pg_order_from_object(order_obj, "CFAK", 'K', &order) < 0)
        return NULL;
    PyObject *r = where == NULL || where == Py_True ? pg_ufunc_apply(uf, args, out, dtype, casting, 0)
                                                    : apply_where(uf, args, out, dtype, casting, where);
    /* order= lays out a new result (NumPy's 'K' and 'A' follow the inputs, as pygpu's results do) */
    if (r != NULL && out == NULL && PgArray_Check(r) && ((order == 'F' && !(((PgArray *)r)->flags & PG_F_CONTIGUOUS)) ||
                                                         (order == 'C' && !(((PgArray *)r)->flags & PG_C_CONTIGUOUS))))
        Py_SETREF(r, (PyObject *)pg_array_copy((PgArray *)r, -1, order, NULL));
    return r;
}

/* outer(A, B, /, out=None, dtype=None, casting='same_kind'): the ufunc over every pair, A's
 * dimensions then B's; as NumPy, both operands are made arrays first (no weak scalars) */
PyObject *
pg_ufunc_outer(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PgUfunc *uf = (PgUfunc *)self;
    PgArray *a = NULL, *b = NULL, *wide = NULL;
    PyObject *ret = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *call[2 + 3];
    if (uf->nin != 2) {
        PyErr_SetString(PyExc_ValueError, "outer product only supported for binary functions");
        return NULL;
    }
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "exactly two arguments expected");
        return NULL;
    }
    if (nkw > 3) {
        PyErr_Format(PyExc_TypeError, "outer() takes at most 3 keyword arguments (out, dtype, casting), %zd given", nkw);
        return NULL;
    }
    if ((a = pg_asarray(args[0], -1, NULL, -1)) == NULL || (b = pg_asarray(args[1], -1, NULL, -1)) == NULL)
        goto done;
    if (a->ndim + b->ndim > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "outer: the result would have %d dimensions, more than %d", a->ndim + b->ndim,
                     PG_MAXDIMS);
        goto done;
    }
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++) {
        shape[i] = a->shape[i];
        strides[i] = a->strides[i];
    }
    for (int i = a->ndim; i < a->ndim + b->ndim; i++) {
        shape[i] = 1;
        strides[i] = 0;
    }
    if ((wide = pg_array_view(a, a->data, a->type, a->ndim + b->ndim, shape, strides)) == NULL)
        goto done;
    call[0] = (PyObject *)wide;
    call[1] = (PyObject *)b;
    for (Py_ssize_t i = 0; i < nkw; i++)
        call[2 + i] = args[2 + i];
    ret = ufunc_vectorcall(self, call, 2, kwnames);
done:
    Py_XDECREF(wide);
    Py_XDECREF(b);
    Py_XDECREF(a);
    return ret;
}

static PyObject *
ufunc_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ufunc '%U'>", ((PgUfunc *)self)->name);
}

static int
ufunc_traverse(PyObject *self, visitproc visit, void *arg)
{
    PgUfunc *uf = (PgUfunc *)self;
    for (int j = 0; uf->programs && j < uf->nloops; j++)
        Py_VISIT(uf->programs[j].program);
    Py_VISIT(uf->compiler);
    Py_VISIT(uf->dict);
    return 0;
}

static int
ufunc_clear(PyObject *self)
{
    PgUfunc *uf = (PgUfunc *)self;
    for (int j = 0; uf->programs && j < uf->nloops; j++)
        Py_CLEAR(uf->programs[j].program);
    Py_CLEAR(uf->compiler);
    Py_CLEAR(uf->dict);
    return 0;
}

static void
ufunc_dealloc(PyObject *self)
{
    PgUfunc *uf = (PgUfunc *)self;
    PyObject_GC_UnTrack(self);
    ufunc_clear(self);
    PyMem_Free(uf->programs);
    Py_XDECREF(uf->name);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *
ufunc_get_name(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return Py_NewRef(((PgUfunc *)self)->name);
}

static PyObject *
ufunc_get_nin(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLong(((PgUfunc *)self)->nin);
}

static PyObject *
ufunc_get_nout(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLong(((PgUfunc *)self)->nout);
}

static PyObject *
ufunc_get_nargs(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLong(((PgUfunc *)self)->nin + ((PgUfunc *)self)->nout);
}

static PyObject *
ufunc_get_ntypes(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLong(((PgUfunc *)self)->nloops);
}

static PyObject *
ufunc_get_types(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgUfunc *uf = (PgUfunc *)self;
    PyObject *list = PyList_New(uf->nloops);
    if (list == NULL)
        return NULL;
    for (int j = 0; j < uf->nloops; j++) {
        const int *lt = loop_types(uf, j);
        char buf[PG_UFUNC_MAXARGS + 3];
        int n = 0;
        for (int i = 0; i < uf->nin; i++)
            buf[n++] = type_chars[lt[i]];
        buf[n++] = '-';
        buf[n++] = '>';
        buf[n++] = type_chars[lt[uf->nin]];
        PyObject *s = PyUnicode_FromStringAndSize(buf, n);
        if (s == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, s);
    }
    return list;
}

/* NumPy's identities of the ufuncs that reduce with one */
static PyObject *
ufunc_get_identity(PyObject *self, void *c)
{
    PG_UNUSED(c);
    static const struct { const char *name; int value; int is_bool; } ids[] = {
        {"add", 0, 0}, {"multiply", 1, 0}, {"logical_and", 1, 1}, {"logical_or", 0, 1}, {"logical_xor", 0, 1},
        {"bitwise_and", -1, 0}, {"bitwise_or", 0, 0}, {"bitwise_xor", 0, 0},
    };
    PgUfunc *uf = (PgUfunc *)self;
    if (!pg_ufunc_from_op_table(uf)) { /* vectorize's keep theirs in __dict__ */
        PyObject *id = uf->dict ? PyDict_GetItemString(uf->dict, "_identity") : NULL;
        return Py_NewRef(id ? id : Py_None);
    }
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (PyUnicode_CompareWithASCIIString(uf->name, ids[i].name) == 0)
            return ids[i].is_bool ? PyBool_FromLong(ids[i].value) : PyLong_FromLong(ids[i].value);
    Py_RETURN_NONE;
}

static PyObject *
ufunc_get_target(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgUfunc *uf = (PgUfunc *)self;
    return Py_NewRef(uf->target ? (PyObject *)uf->target : Py_None);
}

static PyObject *
ufunc_get_programs(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgUfunc *uf = (PgUfunc *)self;
    if (uf->programs == NULL)
        Py_RETURN_NONE;
    PyObject *list = PyList_New(uf->nloops);
    for (int j = 0; list && j < uf->nloops; j++) {
        PyObject *types = PyTuple_New(uf->nin + 1);
        for (int i = 0; types && i <= uf->nin; i++)
            PyTuple_SET_ITEM(types, i, Py_NewRef((PyObject *)pg_type_descr(uf->programs[j].types[i])));
        PyObject *item = types ? PyTuple_Pack(2, types, uf->programs[j].program) : NULL;
        Py_XDECREF(types);
        if (item == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, j, item);
    }
    return list;
}

/* Appends a program loop: types is a sequence of nin + 1 dtypes (inputs, then the output).
 * Returns its index, or -1 with an exception. */
static int
add_program_loop(PgUfunc *uf, PyObject *types, PyObject *program)
{
    if (uf->programs == NULL && uf->nloops > 0) {
        PyErr_Format(PyExc_TypeError, "ufunc '%U' is not made of programs", uf->name);
        return -1;
    }
    PyObject *fast = PySequence_Fast(types, "loop types must be a sequence of dtypes");
    if (fast == NULL)
        return -1;
    ProgramLoop loop;
    int ok = PySequence_Fast_GET_SIZE(fast) == uf->nin + 1;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "a loop of ufunc '%U' has %d types", uf->name, uf->nin + 1);
    for (int i = 0; ok && i <= uf->nin; i++) {
        loop.types[i] = pg_type_from_object(PySequence_Fast_GET_ITEM(fast, i), -1);
        ok = loop.types[i] >= 0;
        if (ok == 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a loop type cannot be None");
    }
    Py_DECREF(fast);
    if (!ok)
        return -1;
    ProgramLoop *grown = PyMem_Realloc(uf->programs, sizeof(ProgramLoop) * (size_t)(uf->nloops + 1));
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    uf->programs = grown;
    loop.program = Py_NewRef(program);
    uf->programs[uf->nloops] = loop;
    for (int t = 0; t < PG_NTYPES; t++) /* a loop that did not exist may now be found */
        uf->cache[t] = -2;
    return uf->nloops++;
}

PyObject *
pg_ufunc_add_loop(PyObject *self, PyObject *args)
{
    PyObject *types, *program;
    if (!PyArg_ParseTuple(args, "OO:_add_loop", &types, &program))
        return NULL;
    int j = add_program_loop((PgUfunc *)self, types, program);
    return j < 0 ? NULL : PyLong_FromLong(j);
}

static PyGetSetDef ufunc_getset[] = {
    {"__name__", ufunc_get_name, NULL, "The ufunc's name.", NULL},
    {"nin", ufunc_get_nin, NULL, "Number of inputs.", NULL},
    {"nout", ufunc_get_nout, NULL, "Number of outputs.", NULL},
    {"nargs", ufunc_get_nargs, NULL, "Number of arguments (inputs + outputs).", NULL},
    {"ntypes", ufunc_get_ntypes, NULL, "Number of loops.", NULL},
    {"types", ufunc_get_types, NULL, "The loops as NumPy type strings ('ff->f'), in search order.", NULL},
    {"identity", ufunc_get_identity, NULL, "The value of an empty reduction (NumPy's), or None.", NULL},
    {"target", ufunc_get_target, NULL, "The device it runs on (vectorize's target), or None: the operands'.", NULL},
    {"_programs", ufunc_get_programs, NULL, "The program loops as (types, program), or None.", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PgUfunc_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu.ufunc",
    .tp_basicsize = sizeof(PgUfunc),
    .tp_dealloc = ufunc_dealloc,
    .tp_repr = ufunc_repr,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(PgUfunc, vectorcall),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = ufunc_traverse,
    .tp_clear = ufunc_clear,
    .tp_dictoffset = offsetof(PgUfunc, dict),
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_doc = "An elementwise function over pygpu arrays (as numpy.ufunc): f(*inputs, out=None, dtype=None, "
              "casting='same_kind').",
    .tp_getset = ufunc_getset,
    .tp_methods = pg_ufunc_methods,
};

/* _program_ufunc(name, nin, compiler=None, target=None): a ufunc with no loops yet, whose loops
 * will be programs (_add_loop, or compiler(dtypes) -> (types, program) on a call no loop takes). */
static PyObject *
py_program_ufunc(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"name", "nin", "compiler", "target", "user_loops", NULL};
    PyObject *name, *compiler = Py_None, *target = Py_None;
    int nin, user_loops = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Ui|OOp:_program_ufunc", kwlist, &name, &nin, &compiler, &target,
                                     &user_loops))
        return NULL;
    if (nin < 1 || nin >= PG_UFUNC_MAXARGS) {
        PyErr_Format(PyExc_ValueError, "a ufunc takes 1 to %d inputs, not %d", PG_UFUNC_MAXARGS - 1, nin);
        return NULL;
    }
    PgDevice *dev = NULL;
    if (target != Py_None && (dev = pg_device_from_object(target)) == NULL)
        return NULL;
    PgUfunc *uf = (PgUfunc *)PgUfunc_Type.tp_alloc(&PgUfunc_Type, 0);
    if (uf == NULL)
        return NULL;
    uf->vectorcall = ufunc_vectorcall;
    uf->name = Py_NewRef(name);
    uf->nin = nin;
    uf->nout = 1;
    uf->target = dev;
    uf->compiler = compiler == Py_None ? NULL : Py_NewRef(compiler);
    uf->flags = user_loops ? PG_UF_USER_LOOPS : 0;
    uf->programs = PyMem_Malloc(sizeof(ProgramLoop)); /* non-NULL: a program ufunc */
    if (uf->programs == NULL) {
        Py_DECREF(uf);
        return PyErr_NoMemory();
    }
    for (int t = 0; t < PG_NTYPES; t++)
        uf->cache[t] = -2;
    return (PyObject *)uf;
}

PyMethodDef pg_ufunc_module_methods[] = {
    {"_program_ufunc", (PyCFunction)(void (*)(void))py_program_ufunc, METH_VARARGS | METH_KEYWORDS, NULL},
    {NULL, NULL, 0, NULL},
};

PgUfunc *
pg_ufunc_lookup(const char *name)
{
    if (ufunc_registry == NULL)
        return NULL;
    PyObject *u = PyDict_GetItemString(ufunc_registry, name);
    return (PgUfunc *)u;
}

int
pg_ufunc_nin(PgUfunc *uf)
{
    return uf->nin;
}

int
pg_ufunc_from_op_table(PgUfunc *uf)
{
    return uf->programs == NULL && uf->compiler == NULL;
}

const char *
pg_ufunc_name(PgUfunc *uf)
{
    return PyUnicode_AsUTF8(uf->name);
}

/* NumPy and array API names for the same ufunc object */
static const char *const aliases[][2] = {
    {"abs", "absolute"}, {"acos", "arccos"}, {"acosh", "arccosh"}, {"asin", "arcsin"}, {"asinh", "arcsinh"},
    {"atan", "arctan"}, {"atan2", "arctan2"}, {"atanh", "arctanh"}, {"bitwise_left_shift", "left_shift"},
    {"bitwise_right_shift", "right_shift"}, {"bitwise_invert", "invert"}, {"bitwise_not", "invert"},
    {"conj", "conjugate"}, {"pow", "power"}, {"true_divide", "divide"}, {"mod", "remainder"},
    {"degrees", "rad2deg"}, {"radians", "deg2rad"},
};

static const char *const op_names[PG_NOPS] = {
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "negative", "positive",
    "absolute", "invert", "left_shift", "right_shift", "bitwise_and", "bitwise_or", "bitwise_xor", "less",
    "less_equal", "equal", "not_equal", "greater", "greater_equal", "_where", "_clip", "maximum", "minimum",
};

/* The op name of kernel k ("add" for "add_f32"), or 0 for a copy loop. */
static int
op_name_of(int k, char *buf, size_t n)
{
    const char *name = pg_kernels[k].name;
    const char *us = strrchr(name, '_');
    if (us == NULL || (size_t)(us - name) >= n)
        return 0;
    memcpy(buf, name, (size_t)(us - name));
    buf[us - name] = 0;
    return 1;
}

int
pg_math_init(PyObject *module)
{
    PyObject *exc = PyImport_ImportModule("numpy._core._exceptions");
    if (exc) {
        exc_input_casting = PyObject_GetAttrString(exc, "_UFuncInputCastingError");
        exc_output_casting = PyObject_GetAttrString(exc, "_UFuncOutputCastingError");
        exc_no_loop = PyObject_GetAttrString(exc, "_UFuncNoLoopError");
        Py_DECREF(exc);
    }
    PyErr_Clear(); /* without them, TypeError with the same text */
    if (PyType_Ready(&PgUfunc_Type) < 0 || PyModule_AddObjectRef(module, "ufunc", (PyObject *)&PgUfunc_Type) < 0)
        return -1;
    ufunc_registry = PyDict_New();
    if (ufunc_registry == NULL)
        return -1;
    int k = 0;
    while (k < PG_K_copy_b) { /* the op table's loops (kernels/loops.def) */
        char name[64], other[64];
        if (!op_name_of(k, name, sizeof name)) {
            PyErr_Format(PyExc_SystemError, "bad kernel name %s", pg_kernels[k].name);
            return -1;
        }
        int j = k + 1;
        while (j < PG_K_copy_b && op_name_of(j, other, sizeof other) && strcmp(name, other) == 0)
            j++;
        PgUfunc *uf = (PgUfunc *)PgUfunc_Type.tp_alloc(&PgUfunc_Type, 0);
        if (uf == NULL)
            return -1;
        uf->vectorcall = ufunc_vectorcall;
        uf->name = PyUnicode_FromString(name[0] == '_' ? name + 1 : name);
        uf->nin = pg_kernels[k].nin;
        uf->nout = 1;
        uf->first = k;
        uf->nloops = j - k;
        uf->flags = 0;
        for (int t = 0; t < PG_NTYPES; t++)
            uf->cache[t] = -2;
        if (strcmp(name, "divide") == 0)
            uf->flags |= PG_UF_TRUEDIV;
        if (strcmp(name, "subtract") == 0 || strcmp(name, "negative") == 0 || strcmp(name, "sign") == 0 ||
            strcmp(name, "positive") == 0)
            uf->flags |= PG_UF_NOBOOL;
        if (strcmp(name, "_where") == 0)
            uf->flags |= PG_UF_WHERE;
        if (strcmp(name, "power") == 0)
            uf->flags |= PG_UF_POWER;
        for (int l = 0; l < uf->nloops && uf->nin == 2; l++) /* (not the comparisons' int64-uint64 loops) */
            if (kind_order(loop_types(uf, l)[0]) != kind_order(loop_types(uf, l)[1]))
                uf->flags |= PG_UF_MIXED;
        for (int c = PG_NB_LT; c <= PG_NB_GE; c++)
            if (strcmp(name, op_names[c]) == 0)
                uf->flags |= PG_UF_COMPARE;
        /* NumPy's logical ufuncs take any Python int as a truth value (logical_and(int8, 128)) */
        if (strcmp(name, "logical_and") == 0 || strcmp(name, "logical_or") == 0 || strcmp(name, "logical_xor") == 0)
            uf->flags |= PG_UF_COMPARE | PG_UF_LOGICAL;
        int rc = uf->name ? PyDict_SetItemString(ufunc_registry, name, (PyObject *)uf) : -1;
        if (rc == 0) /* internal ones (_where, _clip, _angle) stay under their '_' names */
            rc = PyModule_AddObjectRef(module, name, (PyObject *)uf);
        Py_DECREF(uf);
        if (rc < 0)
            return -1;
        k = j;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        PyObject *u = PyDict_GetItemString(ufunc_registry, aliases[i][1]);
        if (u == NULL) {
            PyErr_Format(PyExc_SystemError, "no ufunc %s", aliases[i][1]);
            return -1;
        }
        if (PyDict_SetItemString(ufunc_registry, aliases[i][0], u) < 0 ||
            PyModule_AddObjectRef(module, aliases[i][0], u) < 0)
            return -1;
    }
    for (int i = 0; i < PG_NOPS; i++) {
        pg_op_ufuncs[i] = pg_ufunc_lookup(op_names[i]);
        if (pg_op_ufuncs[i] == NULL) {
            PyErr_Format(PyExc_SystemError, "no ufunc %s", op_names[i]);
            return -1;
        }
    }
    return pg_operators_init();
}
