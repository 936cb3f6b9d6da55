/* Parsing of the arguments many functions share: integers, copy=, order=, axes. NumPy's wording
 * in the errors. */
#include "core/args.h"

/* obj.__index__() as int64 (NumPy's TypeError for a non-integer, OverflowError past int64). */
static int
index_int64(PyObject *obj, int64_t *out)
{
    PyObject *i = PyNumber_Index(obj);
    if (i == NULL)
        return -1;
    long long v = PyLong_AsLongLong(i);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

int
pg_parse_int64(PyObject *obj, int64_t *out, const char *what)
{
    if (!PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.200s", what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    return index_int64(obj, out);
}

Py_ssize_t
pg_parse_ints(PyObject *obj, int64_t *out, int max)
{
    /* arrays have __index__ too: anything sized is a sequence; unsized (0-d) ones are integers */
    int is_seq = !PyLong_Check(obj) && PySequence_Check(obj);
    if (is_seq && PySequence_Size(obj) < 0) {
        PyErr_Clear();
        is_seq = 0;
    }
    if (!is_seq) {
        int64_t v;
        if (index_int64(obj, &v) < 0)
            return -1;
        if (max > 0)
            out[0] = v;
        return 1;
    }
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of integers");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t k = 0; k < n && k < max; k++) {
        if (index_int64(PySequence_Fast_GET_ITEM(seq, k), &out[k]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return n;
}

int
pg_parse_copy(PyObject *obj, int *copy)
{
    if (obj == NULL || obj == Py_None) {
        *copy = -1;
        return 0;
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) { /* NumPy's words: "never" would read as true */
        PyErr_SetString(PyExc_ValueError, "strings are not allowed for 'copy' keyword. Use True/False/None instead.");
        return -1;
    }
    int v = PyObject_IsTrue(obj);
    if (v < 0)
        return -1;
    *copy = v;
    return 0;
}

int
pg_order_from_object(PyObject *obj, const char *allowed, char deflt, char *out)
{
    if (obj == NULL || obj == Py_None) {
        *out = deflt;
        return 0;
    }
    if (PyUnicode_Check(obj) && PyUnicode_GET_LENGTH(obj) == 1) {
        Py_UCS4 c = PyUnicode_READ_CHAR(obj, 0);
        if (c >= 'a' && c <= 'z')
            c -= 'a' - 'A';
        if (c < 128 && strchr(allowed, (int)c)) {
            *out = (char)c;
            return 0;
        }
    }
    /* NumPy's wording: "order must be one of 'C', 'F', 'A', or 'K' (got 'X')" */
    char list[64];
    size_t pos = 0, n = strlen(allowed);
    for (size_t i = 0; i < n && pos + 12 < sizeof(list); i++) {
        const char *sep = i == 0 ? "" : i + 1 < n ? ", " : n > 2 ? ", or " : " or ";
        pos += (size_t)snprintf(list + pos, sizeof(list) - pos, "%s'%c'", sep, allowed[i]);
    }
    PyErr_Format(PyExc_ValueError, "order must be one of %s (got %R)", list, obj);
    return -1;
}


static PyObject *axis_error_type;   /* numpy.exceptions.AxisError */

int
pg_axis_error(int64_t axis, int ndim, const char *prefix)
{
    if (axis_error_type == NULL) {
        PyObject *mod = PyImport_ImportModule("numpy.exceptions");
        if (mod == NULL)
            return -1;
        axis_error_type = PyObject_GetAttrString(mod, "AxisError");
        Py_DECREF(mod);
        if (axis_error_type == NULL)
            return -1;
    }
    PyObject *exc = prefix ? PyObject_CallFunction(axis_error_type, "Lis", (long long)axis, ndim, prefix)
                           : PyObject_CallFunction(axis_error_type, "Li", (long long)axis, ndim);
    if (exc == NULL)
        return -1;
    PyErr_SetObject(axis_error_type, exc);
    Py_DECREF(exc);
    return -1;
}

int
pg_normalize_axis(int64_t axis, int ndim, const char *prefix, int *out)
{
    if (axis < -ndim || axis >= ndim)
        return pg_axis_error(axis, ndim, prefix);
    *out = (int)(axis < 0 ? axis + ndim : axis);
    return 0;
}

int
pg_parse_fastcall(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                  const char *const *names, int npos, PyObject **slots, int nrequired)
{
    int nnames = 0;
    while (names[nnames])
        nnames++;
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", fname, npos, nargs);
        return -1;
    }
    for (int i = 0; i < nnames; i++)
        slots[i] = i < nargs ? args[i] : NULL;
    for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        for (int i = 0; i < nnames && found < 0; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
                found = i;
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (slots[found]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[found]);
            return -1;
        }
        slots[found] = args[nargs + k];
    }
    for (int i = 0; i < nrequired; i++) {
        if (slots[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i + 1);
            return -1;
        }
    }
    return 0;
}
