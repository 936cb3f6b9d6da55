/* dtypes. Promotion and casting tables are read from NumPy once at import, so pygpu agrees
 * with the installed NumPy by construction rather than by a hand-copied table. */
#include "core/dtype.h"

const PgTypeInfo pg_type_info[PG_NTYPES] = {
    {"bool", 'b', 1, NPY_BOOL},
    {"int8", 'i', 1, NPY_INT8},
    {"int16", 'i', 2, NPY_INT16},
    {"int32", 'i', 4, NPY_INT32},
    {"int64", 'i', 8, NPY_INT64},
    {"uint8", 'u', 1, NPY_UINT8},
    {"uint16", 'u', 2, NPY_UINT16},
    {"uint32", 'u', 4, NPY_UINT32},
    {"uint64", 'u', 8, NPY_UINT64},
    {"float16", 'f', 2, NPY_FLOAT16},
    {"float32", 'f', 4, NPY_FLOAT32},
    {"float64", 'f', 8, NPY_FLOAT64},
    {"complex64", 'c', 8, NPY_COMPLEX64},
    {"complex128", 'c', 16, NPY_COMPLEX128},
};

static PyArray_Descr *type_descr[PG_NTYPES];
static unsigned char promote_table[PG_NTYPES][PG_NTYPES];
static unsigned char cast_table[PG_CAST_UNSAFE + 1][PG_NTYPES][PG_NTYPES];

static const char *const casting_names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
static const NPY_CASTING npy_castings[] = {NPY_NO_CASTING, NPY_EQUIV_CASTING, NPY_SAFE_CASTING,
                                           NPY_SAME_KIND_CASTING, NPY_UNSAFE_CASTING};

int pg_numpy_version;

/* numpy.__version__ as major * 10000 + minor * 100 + micro: where NumPy changed behaviour between
 * releases (an expired deprecation), pygpu follows the NumPy it runs with. */
static int
read_numpy_version(void)
{
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *v = np ? PyObject_GetAttrString(np, "__version__") : NULL;
    const char *text = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    int major = 0, minor = 0, micro = 0;
    if (text)
        sscanf(text, "%d.%d.%d", &major, &minor, &micro);
    Py_XDECREF(v);
    Py_XDECREF(np);
    if (text == NULL)
        return -1;
    pg_numpy_version = major * 10000 + minor * 100 + micro;
    return 0;
}

int
pg_dtype_init(void)
{
    if (read_numpy_version() < 0)
        return -1;
    for (int t = 0; t < PG_NTYPES; t++) {
        type_descr[t] = PyArray_DescrFromType(pg_type_info[t].npy_type);
        if (type_descr[t] == NULL)
            return -1;
    }
    for (int a = 0; a < PG_NTYPES; a++) {
        for (int b = 0; b < PG_NTYPES; b++) {
            PyArray_Descr *r = PyArray_PromoteTypes(type_descr[a], type_descr[b]);
            if (r == NULL)
                return -1;
            int rt = pg_type_from_descr(r);
            Py_DECREF(r);
            if (rt < 0)
                return -1;
            promote_table[a][b] = (unsigned char)rt;
            for (int c = 0; c <= PG_CAST_UNSAFE; c++)
                cast_table[c][a][b] =
                    (unsigned char)PyArray_CanCastTypeTo(type_descr[a], type_descr[b], npy_castings[c]);
        }
    }
    return 0;
}

PyArray_Descr *
pg_type_descr(PgType t)
{
    return type_descr[t];
}

int
pg_value_type_from_descr(PyArray_Descr *d)
{
    if (!PyDataType_ISBYTESWAPPED(d))
        return pg_type_from_descr(d);
    PyArray_Descr *native = PyArray_DescrNewByteorder(d, NPY_NATIVE);
    if (native == NULL)
        return -1;
    int t = pg_type_from_descr(native);
    Py_DECREF(native);
    return t;
}

int
pg_type_from_descr(PyArray_Descr *d)
{
    if (PyDataType_ISBYTESWAPPED(d)) {
        PyErr_Format(PyExc_TypeError, "pygpu supports native byte order only, got dtype %R", (PyObject *)d);
        return -1;
    }
    switch (d->type_num) {
    case NPY_BOOL: return PG_BOOL;
    case NPY_BYTE: return PG_INT8;
    case NPY_SHORT: return PG_INT16;
    case NPY_UBYTE: return PG_UINT8;
    case NPY_USHORT: return PG_UINT16;
    case NPY_HALF: return PG_FLOAT16;
    case NPY_FLOAT: return PG_FLOAT32;
    case NPY_DOUBLE: return PG_FLOAT64;
    case NPY_CFLOAT: return PG_COMPLEX64;
    case NPY_CDOUBLE: return PG_COMPLEX128;
    default: break;
    }
    /* int, long and longlong alias each other differently per platform: go by size. */
    if (PyDataType_ISINTEGER(d) && !PyDataType_ISBOOL(d)) {
        int is_unsigned = PyDataType_ISUNSIGNED(d);
        switch (PyDataType_ELSIZE(d)) {
        case 4: return is_unsigned ? PG_UINT32 : PG_INT32;
        case 8: return is_unsigned ? PG_UINT64 : PG_INT64;
        default: break;
        }
    }
    PyErr_Format(PyExc_TypeError,
                 "pygpu does not support dtype %R; supported dtypes are bool, int8-int64, "
                 "uint8-uint64, float16, float32, float64, complex64 and complex128",
                 (PyObject *)d);
    return -1;
}

int
pg_type_from_object(PyObject *obj, int deflt)
{
    if (obj == NULL || obj == Py_None)
        return deflt;
    if (PyArray_DescrCheck(obj))
        return pg_type_from_descr((PyArray_Descr *)obj);
    PyArray_Descr *d = NULL;
    if (!PyArray_DescrConverter(obj, &d))
        return -1;
    int t = pg_type_from_descr(d);
    Py_DECREF(d);
    return t;
}

int
pg_result_type_of_set(unsigned types)
{
    /* NumPy's n-ary promotion is not the pairwise one folded: (bool, int8, uint8, float16) is
     * float16, where folding gives float32 */
    PyArray_Descr *descrs[PG_NTYPES];
    int nd = 0, last = -1;
    for (int t = 0; t < PG_NTYPES; t++)
        if (types & (1u << t))
            descrs[nd++] = type_descr[last = t];
    if (nd <= 1)
        return last;
    PyArray_Descr *r = PyArray_ResultType(0, NULL, nd, descrs);
    if (r == NULL)
        return -1;
    int t = pg_type_from_descr(r);
    Py_DECREF(r);
    return t;
}

PgType
pg_promote_types(PgType a, PgType b)
{
    return (PgType)promote_table[a][b];
}

int
pg_warn_complex_cast(PgType from, PgType to)
{
    static PyObject *category; /* numpy.exceptions.ComplexWarning */
    if (!PG_IS_COMPLEX(from) || PG_IS_COMPLEX(to) || to == PG_BOOL) /* a bool reads both parts */
        return 0;
    if (category == NULL) {
        PyObject *mod = PyImport_ImportModule("numpy.exceptions");
        if (mod == NULL)
            return -1;
        category = PyObject_GetAttrString(mod, "ComplexWarning");
        Py_DECREF(mod);
        if (category == NULL)
            return -1;
    }
    return PyErr_WarnEx(category, "Casting complex values to real discards the imaginary part", 1);
}

int
pg_can_cast(PgType from, PgType to, PgCasting casting)
{
    return cast_table[casting][from][to];
}

int
pg_casting_from_object(PyObject *obj, PgCasting *out)
{
    if (obj == NULL) {
        *out = PG_CAST_SAME_KIND;
        return 0;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "casting must be str, not %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    for (int c = 0; c <= PG_CAST_UNSAFE; c++) {
        if (PyUnicode_CompareWithASCIIString(obj, casting_names[c]) == 0) {
            *out = (PgCasting)c;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got %R)", obj);
    return -1;
}

const char *
pg_casting_name(PgCasting c)
{
    return casting_names[c];
}

int
pg_scalar_to_bytes(PyObject *value, PgType t, void *out)
{
    /* Fast paths for the common Python scalars into the common types. */
    if (PyFloat_CheckExact(value)) {
        double v = PyFloat_AS_DOUBLE(value);
        switch (t) {
        case PG_FLOAT64: *(double *)out = v; return 0;
        case PG_FLOAT32: *(float *)out = (float)v; return 0;
        case PG_COMPLEX128: ((double *)out)[0] = v; ((double *)out)[1] = 0; return 0;
        case PG_COMPLEX64: ((float *)out)[0] = (float)v; ((float *)out)[1] = 0; return 0;
        default: break;
        }
    }
    else if (PyLong_CheckExact(value)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (!overflow) {
            switch (t) {
            case PG_INT64: *(int64_t *)out = v; return 0;
            case PG_INT32:
                if (v >= INT32_MIN && v <= INT32_MAX) { *(int32_t *)out = (int32_t)v; return 0; }
                break;
            case PG_FLOAT64: *(double *)out = (double)v; return 0;
            case PG_FLOAT32: *(float *)out = (float)v; return 0;
            default: break;
            }
        }
    }
    /* Everything else follows numpy's own assignment rules (NEP 50 overflow errors included). */
    if (PyArray_Pack(type_descr[t], out, value) < 0)
        return -1;
    return 0;
}

PyObject *
pg_numpy_scalar_from_bytes(const void *p, PgType t)
{
    return PyArray_Scalar((void *)p, type_descr[t], NULL);
}

PyObject *
pg_scalar_from_bytes(const void *p, PgType t)
{
    switch (t) {
    case PG_BOOL: return PyBool_FromLong(*(const uint8_t *)p != 0);
    case PG_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case PG_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case PG_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case PG_INT64: return PyLong_FromLongLong(*(const int64_t *)p);
    case PG_UINT8: return PyLong_FromUnsignedLong(*(const uint8_t *)p);
    case PG_UINT16: return PyLong_FromUnsignedLong(*(const uint16_t *)p);
    case PG_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case PG_UINT64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)p);
    case PG_FLOAT32: return PyFloat_FromDouble(*(const float *)p);
    case PG_FLOAT64: return PyFloat_FromDouble(*(const double *)p);
    case PG_COMPLEX64: return PyComplex_FromDoubles(((const float *)p)[0], ((const float *)p)[1]);
    case PG_COMPLEX128: return PyComplex_FromDoubles(((const double *)p)[0], ((const double *)p)[1]);
    default: {
        PyObject *s = pg_numpy_scalar_from_bytes(p, t);
        if (s == NULL)
            return NULL;
        PyObject *r = PyObject_CallMethod(s, "item", NULL);
        Py_DECREF(s);
        return r;
    }
    }
}
