/* The math layer (csrc/math/): NumPy's math on arrays. ufunc objects made from the op table
 * (kernels/ops.def: it lives with the kernels, which are built from it and include nothing
 * above kernels/), ndarray's operators, linear algebra (linalg.h), and to come: reductions and
 * scans, sorting and searching, random. It may use array/, runtime/, core/ and kernels/; nothing
 * below it includes from here.
 *
 * This header: pygpu.ufunc, elementwise operations from the op table with NumPy 2 type
 * resolution (NEP 50 weak Python scalars), broadcasting, out=, and dispatch to the backend. */
#ifndef PG_UFUNC_H
#define PG_UFUNC_H
#include "array/number.h"

typedef struct PgUfunc PgUfunc;

/* Most operands of a ufunc call: the VM's (15 inputs and the output); op-table loops have at
 * most PG_MAXARGS. */
#define PG_UFUNC_MAXARGS PG_VM_MAXARGS

/* The launch of a program loop (a ufunc made by pygpu.vectorize): set by jit/ at module init,
 * since math/ cannot include jit/. Runs `program` over the operands (inputs, then the output). */
extern int (*pg_program_launch)(PyObject *program, PgDevice *dev, int nargs, const PgOperand *ops);

/* ufunc flags */
enum {
    PG_UF_TRUEDIV = 0x1,  /* integer/bool inputs compute in float64 (numpy.true_divide) */
    PG_UF_COMPARE = 0x2,  /* Python ints outside the array's range still compare (and are truth values) */
    PG_UF_WHERE = 0x4,    /* input 0 is a condition: read as bool, outside promotion */
    PG_UF_NOBOOL = 0x8,   /* all-bool inputs are refused (NumPy's boolean subtract/negative; sign, positive) */
    PG_UF_POWER = 0x10,   /* a negative integer exponent of an integer loop is refused (NumPy's ValueError) */
    PG_UF_USER_LOOPS = 0x20, /* Python scalars meet the loops as NumPy's search of a user ufunc's (vectorize) */
    PG_UF_LOGICAL = 0x40, /* logical_and/or/xor: with no other operand but Python scalars, an int must be an int64 */
    PG_UF_MIXED = 0x80,   /* loops whose inputs differ in kind (ldexp's float, int64): a Python scalar picks by kind */
};

/* Runs uf on inputs (Python objects: arrays, scalars, array-likes). out may be NULL; dtype -1
 * for none. Returns a new reference (out itself when given), NULL with an exception, or
 * Py_NotImplemented (new ref) when `notimpl` is set and an operand is of an unsupported type. */
PyObject *pg_ufunc_apply(PgUfunc *uf, PyObject *const *inputs, PyObject *out, int dtype, PgCasting casting,
                         int notimpl);
/* ValueError for operands on different devices; returns -1. */
int pg_raise_different_devices(PgDevice *a, PgDevice *b);
/* The ufunc's name ("add"). */
const char *pg_ufunc_name(PgUfunc *uf);
/* 1 for the ufuncs of the op table (pygpu.add, ...), 0 for vectorize's (program) ufuncs. */
int pg_ufunc_from_op_table(PgUfunc *uf);
/* ufunc._add_loop(types, program): a new program loop (pygpu.vectorize); its index. */
PyObject *pg_ufunc_add_loop(PyObject *self, PyObject *args);
/* ufunc.outer(A, B, **kwargs) (a method of the table in ufunc_reduce.c) */
PyObject *pg_ufunc_outer(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* The out= argument of a math function: NULL or None gives *out NULL; else it must be a writeable
 * pygpu array (TypeError / ValueError as NumPy's). Borrowed; 0 or -1. */
int pg_parse_out(PyObject *outobj, PgArray **out);
/* NumPy's casting error of ufunc uf (a pygpu.ufunc or a numpy.ufunc: its __name__ is in the
 * message) for input `index` (or output, input 0) cast from `from` to `to`. */
void pg_raise_casting(PyObject *uf, int input, int index, int from, int to, PgCasting casting);
/* A ufunc of the op table by name (borrowed), or NULL (no exception). */
PgUfunc *pg_ufunc_lookup(const char *name);
int pg_ufunc_nin(PgUfunc *uf);

enum { PG_WEAK_NONE = 0, PG_WEAK_INT, PG_WEAK_FLOAT, PG_WEAK_COMPLEX };
/* The dtype a weak Python scalar takes next to the strong dtype p (p < 0: no strong operand).
 * For a weak int, `value` is checked against p's range: OverflowError like NumPy, unless
 * `compare` is set, where a wider dtype is chosen instead. Returns the dtype or -1. */
int pg_weak_scalar_type(int weak, PyObject *value, int p, int compare);

/* np.asarray's dtype for a Python int: int64, else uint64, else OverflowError (NumPy makes an
 * object array, which pygpu has not) and -1. */
int pg_python_int_type(PyObject *value);

/* The ufuncs C code calls by index: ndarray's operators (PgNumberOp of array/number.h, in its
 * order), then these. Set by pg_math_init. */
typedef enum { PG_OP_WHERE = PG_NB_COUNT, PG_OP_CLIP, PG_OP_MAXIMUM, PG_OP_MINIMUM, PG_NOPS } PgOpIndex;
extern PgUfunc *pg_op_ufuncs[PG_NOPS];

/* Module init of the math layer: the ufunc objects (ufunc.c), then ndarray's arithmetic
 * (operators.c fills pg_array_math). */
int pg_math_init(PyObject *module);
int pg_operators_init(void);
/* where, clip (operators.c) */
extern PyMethodDef pg_math_module_methods[];
/* _program_ufunc (ufunc.c) */
extern PyMethodDef pg_ufunc_module_methods[];
#endif
