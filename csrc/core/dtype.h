/* dtypes: the PgType table, conversion to and from numpy.dtype, promotion and casting rules. */
#ifndef PG_DTYPE_H
#define PG_DTYPE_H

#include "core/pg.h"

typedef struct {
    const char *name;     /* "float32" */
    char kind;            /* 'b', 'i', 'u', 'f', 'c' as in numpy.dtype.kind */
    int itemsize;
    int npy_type;         /* NPY_FLOAT32 ... */
} PgTypeInfo;

extern const PgTypeInfo pg_type_info[PG_NTYPES];

#define PG_IS_BOOL(t) ((t) == PG_BOOL)
#define PG_IS_SIGNED(t) ((t) >= PG_INT8 && (t) <= PG_INT64)
#define PG_IS_UNSIGNED(t) ((t) >= PG_UINT8 && (t) <= PG_UINT64)
#define PG_IS_INTEGER(t) ((t) >= PG_INT8 && (t) <= PG_UINT64)
#define PG_IS_FLOAT(t) ((t) >= PG_FLOAT16 && (t) <= PG_FLOAT64)
#define PG_IS_COMPLEX(t) ((t) >= PG_COMPLEX64)

int pg_dtype_init(void);                          /* caches the numpy.dtype of each PgType */
/* The NumPy pygpu runs with, as major * 10000 + minor * 100 + micro (20502 for 2.5.2). */
extern int pg_numpy_version;
PyArray_Descr *pg_type_descr(PgType t);           /* borrowed reference */
/* PgType of a numpy dtype; -1 with TypeError set when pygpu does not support it. */
int pg_type_from_descr(PyArray_Descr *d);
/* the same for values of any byte order (they are converted to the native one as they are copied in) */
int pg_value_type_from_descr(PyArray_Descr *d);
/* Anything numpy.dtype() accepts, None meaning `deflt`; -1 with an exception on failure. */
int pg_type_from_object(PyObject *obj, int deflt);

PgType pg_promote_types(PgType a, PgType b);      /* numpy.promote_types */
/* numpy.result_type of a set of dtypes (bit t set for PgType t; not empty): NumPy's n-ary rule,
 * which is not promote_types folded. */
int pg_result_type_of_set(unsigned types);
/* numpy.can_cast for casting = "no", "equiv", "safe", "same_kind", "unsafe". */
typedef enum { PG_CAST_NO, PG_CAST_EQUIV, PG_CAST_SAFE, PG_CAST_SAME_KIND, PG_CAST_UNSAFE } PgCasting;
int pg_can_cast(PgType from, PgType to, PgCasting casting);
int pg_casting_from_object(PyObject *obj, PgCasting *out);   /* parses the string; 0 or -1 */
/* NumPy's ComplexWarning when a cast from `from` to `to` drops imaginary parts (complex to a
 * real or integer type, not bool); 0, or -1 when the warning is raised as an error. */
int pg_warn_complex_cast(PgType from, PgType to);
const char *pg_casting_name(PgCasting c);

/* Storing a Python scalar into one element of type t (for fill, full, setitem). The value is
 * converted like numpy does for `np.array(value).astype(t)` with NEP 50 out-of-bounds checks
 * for Python ints. `out` must have room for 16 bytes. Returns 0 or -1 with an exception. */
int pg_scalar_to_bytes(PyObject *value, PgType t, void *out);
/* A Python scalar (bool/int/float/complex) from one element in host memory. */
PyObject *pg_scalar_from_bytes(const void *p, PgType t);
/* A numpy scalar (np.float32(...) etc.) from one element in host memory. */
PyObject *pg_numpy_scalar_from_bytes(const void *p, PgType t);

#endif
