/* pygpu.ufunc: elementwise operations from the op table (ops.def), NumPy 2 type resolution
 * (NEP 50 weak Python scalars), broadcasting, out=, and dispatch to the backend. */
#ifndef PG_UFUNC_H
#define PG_UFUNC_H
#include "array.h"

typedef struct PgUfunc PgUfunc;

/* ufunc flags */
enum {
    PG_UF_TRUEDIV = 0x1,  /* integer/bool inputs compute in float64 (numpy.true_divide) */
    PG_UF_COMPARE = 0x2,  /* Python ints outside the array's range still compare */
    PG_UF_WHERE = 0x4,    /* input 0 is a condition: read as bool, outside promotion */
    PG_UF_NOBOOL = 0x8,   /* all-bool inputs are refused (NumPy's boolean subtract/negative) */
};

/* Runs uf on inputs (Python objects: arrays, scalars, array-likes). out may be NULL; dtype -1
 * for none. Returns a new reference (out itself when given), NULL with an exception, or
 * Py_NotImplemented (new ref) when `notimpl` is set and an operand is of an unsupported type. */
PyObject *pg_ufunc_apply(PgUfunc *uf, PyObject *const *inputs, PyObject *out, int dtype, PgCasting casting,
                         int notimpl);
/* A ufunc of the op table by name (borrowed), or NULL (no exception). */
PgUfunc *pg_ufunc_lookup(const char *name);
int pg_ufunc_nin(PgUfunc *uf);

enum { PG_WEAK_NONE = 0, PG_WEAK_INT, PG_WEAK_FLOAT, PG_WEAK_COMPLEX };
/* The dtype a weak Python scalar takes next to the strong dtype p (p < 0: no strong operand).
 * For a weak int, `value` is checked against p's range: OverflowError like NumPy, unless
 * `compare` is set, where a wider dtype is chosen instead. Returns the dtype or -1. */
int pg_weak_scalar_type(int weak, PyObject *value, int p, int compare);

/* The ufuncs the operators use (set by pg_math_init). */
typedef enum {
    PG_OP_ADD, PG_OP_SUB, PG_OP_MUL, PG_OP_TRUEDIV, PG_OP_FLOORDIV, PG_OP_REM, PG_OP_POW,
    PG_OP_NEG, PG_OP_POS, PG_OP_ABS, PG_OP_INVERT, PG_OP_LSHIFT, PG_OP_RSHIFT, PG_OP_AND,
    PG_OP_OR, PG_OP_XOR, PG_OP_LT, PG_OP_LE, PG_OP_EQ, PG_OP_NE, PG_OP_GT, PG_OP_GE,
    PG_OP_WHERE, PG_OP_CLIP, PG_OP_MAXIMUM, PG_OP_MINIMUM, PG_NOPS
} PgOpIndex;
extern PgUfunc *pg_op_ufuncs[PG_NOPS];

/* operators.c holds the ndarray side: pg_array_methods_math (__array_ufunc__,
 * __array_namespace__), pg_array_getset_math (real, imag), pg_math_setup_type (number protocol,
 * rich comparison) and pg_math_module_methods (where, clip, result_type helpers). */
#endif
