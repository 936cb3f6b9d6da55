/* Joining arrays: concatenate and stack. One allocation, then each input assigned into its slice
 * of the result by one copy kernel (which converts dtypes as it loads), so joining costs what
 * copying the inputs costs. The result's layout follows the inputs' as NumPy's does. */
#include "array/array.h"
#include "core/docstrings.h"

/* The inputs of a join, converted to pygpu arrays on one device. */
typedef struct {
    Py_ssize_t n;
    PgArray **arrays;   /* owned references */
} ArrayList;

static void
array_list_clear(ArrayList *list)
{
    for (Py_ssize_t k = 0; k < list->n; k++)
        Py_XDECREF(list->arrays[k]);
    PyMem_Free(list->arrays);
    list->arrays = NULL;
    list->n = 0;
}

/* The items of `seq` as pygpu arrays on one device: the device of `out` when given, else of the
 * first pygpu array, else the current one. NumPy arrays, lists and scalars are copied there
 * (as ufunc operands are). `empty_msg` is NumPy's error for an empty sequence. */
static int
array_list_from_sequence(PyObject *seq_obj, PgArray *out, const char *empty_msg, ArrayList *list)
{
    list->n = 0;
    list->arrays = NULL;
    PyObject *seq = PySequence_Fast(seq_obj, "The first input argument needs to be a sequence");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int rc = -1;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, empty_msg);
        goto done;
    }
    list->arrays = PyMem_Calloc((size_t)n, sizeof(PgArray *));
    if (list->arrays == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    list->n = n;
    PgDevice *dev = out ? out->device : NULL;
    for (Py_ssize_t k = 0; k < n && dev == NULL; k++)
        if (PgArray_Check(items[k]))
            dev = ((PgArray *)items[k])->device;
    if (dev == NULL)
        dev = pg_device_current();
    for (Py_ssize_t k = 0; k < n; k++) {
        if (PgArray_Check(items[k]) && ((PgArray *)items[k])->device != dev) {
            PyErr_Format(PyExc_ValueError,
                         "arrays are on different devices (%S and %S); move them with .to_device() first",
                         (PyObject *)dev, (PyObject *)((PgArray *)items[k])->device);
            goto done;
        }
        list->arrays[k] = pg_asarray(items[k], -1, dev, -1);
        if (list->arrays[k] == NULL)
            goto done;
    }
    rc = 0;
done:
    Py_DECREF(seq);
    if (rc < 0)
        array_list_clear(list);
    return rc;
}

/* The result type: dtype when given, out's type when out is given, else the inputs' promoted
 * type; each input castable to it under `casting` (NumPy's 'no' refuses int32 into float64). */
static int
join_type(ArrayList *list, int dtype, PgArray *out, PgCasting casting)
{
    int type = out ? out->type : dtype;
    if (type < 0) {
        unsigned types = 0;
        for (Py_ssize_t k = 0; k < list->n; k++)
            types |= 1u << list->arrays[k]->type;
        type = pg_result_type_of_set(types);
        if (casting >= PG_CAST_SAFE) /* the promoted type takes every input safely */
            return type;
    }
    for (Py_ssize_t k = 0; k < list->n; k++) {
        int t = list->arrays[k]->type;
        if (!pg_can_cast((PgType)t, (PgType)type, casting)) {
            PyErr_Format(PyExc_TypeError,
                         "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'",
                         pg_type_info[t].name, pg_type_info[type].name, pg_casting_name(casting));
            return -1;
        }
    }
    return type;
}

/* NumPy's PyArray_CreateMultiSortedStridePerm: the axes ordered by decreasing stride as most
 * inputs agree (C order wins ties and conflicts), ignoring axes of length one. */
static void
multi_sorted_stride_perm(ArrayList *list, int ndim, int *perm)
{
    for (int i = 0; i < ndim; i++)
        perm[i] = i;
    for (int i0 = 1; i0 < ndim; i0++) {
        int ipos = i0, ax0 = perm[i0];
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            int ambiguous = 1, swap = 0, ax1 = perm[i1];
            for (Py_ssize_t k = 0; k < list->n; k++) {
                PgArray *a = list->arrays[k];
                if (a->shape[ax0] == 1 || a->shape[ax1] == 1)
                    continue;
                int64_t s0 = a->strides[ax0] < 0 ? -a->strides[ax0] : a->strides[ax0];
                int64_t s1 = a->strides[ax1] < 0 ? -a->strides[ax1] : a->strides[ax1];
                if (s0 <= s1)
                    swap = 0;
                else if (ambiguous)
                    swap = 1;
                ambiguous = 0;
            }
            if (!ambiguous) {
                if (!swap)
                    break;
                ipos = i1;
            }
        }
        for (int i1 = i0; i1 > ipos; i1--)
            perm[i1] = perm[i1 - 1];
        perm[ipos] = ax0;
    }
}

/* Validates out against the result's shape (NumPy's messages). */
static int
check_out_shape(PgArray *out, int ndim, const int64_t *shape)
{
    if (out->ndim != ndim) {
        PyErr_SetString(PyExc_ValueError, "Output array has wrong dimensionality");
        return -1;
    }
    if (memcmp(out->shape, shape, sizeof(int64_t) * (size_t)ndim) != 0) {
        PyErr_SetString(PyExc_ValueError, "Output array is the wrong shape");
        return -1;
    }
    return pg_array_check_writeable(out);
}

/* Assigns every input into its slice of res along `axis`; with flat set (axis=None), res is 1-d
 * and each input, read in C order, fills the next run of it. */
static int
assign_slices(ArrayList *list, PgArray *res, int axis, int flat)
{
    int64_t offset = 0;
    for (Py_ssize_t k = 0; k < list->n; k++) {
        PgArray *a = list->arrays[k];
        int64_t len = flat ? pg_array_size(a) : a->shape[axis];
        if (pg_array_size(a) == 0) {
            offset += len;
            continue;
        }
        char *data = res->data + offset * res->strides[flat ? 0 : axis];
        int64_t strides[PG_MAXDIMS];
        if (flat) {
            /* the run of res seen with a's shape, in C order */
            int64_t s = res->strides[0];
            for (int d = a->ndim - 1; d >= 0; d--) {
                strides[d] = s;
                s *= a->shape[d];
            }
        } else {
            memcpy(strides, res->strides, sizeof(int64_t) * (size_t)res->ndim);
        }
        PgArray *slot = pg_array_view(res, data, res->type, a->ndim, a->shape, strides);
        if (slot == NULL)
            return -1;
        int rc = pg_array_assign(slot, a);
        Py_DECREF(slot);
        if (rc < 0)
            return -1;
        offset += len;
    }
    return 0;
}

/* The join of validated inputs along axis (flat: axis=None, inputs of any shape). */
static PgArray *
join(ArrayList *list, int axis, int flat, PgArray *out, int type)
{
    PgArray *first = list->arrays[0];
    int ndim = flat ? 1 : first->ndim;
    int64_t shape[PG_MAXDIMS];
    if (flat) {
        shape[0] = 0;
        for (Py_ssize_t k = 0; k < list->n; k++)
            shape[0] += pg_array_size(list->arrays[k]);
    } else {
        memcpy(shape, first->shape, sizeof(int64_t) * (size_t)ndim);
        for (Py_ssize_t k = 1; k < list->n; k++)
            shape[axis] += list->arrays[k]->shape[axis];
    }
    PgArray *res;
    if (out) {
        if (check_out_shape(out, ndim, shape) < 0)
            return NULL;
        /* an input sharing memory with out is read before anything is written */
        for (Py_ssize_t k = 0; k < list->n; k++) {
            if (pg_array_may_overlap(out, list->arrays[k])) {
                PgArray *tmp = pg_array_copy(list->arrays[k], -1, 'K', NULL);
                if (tmp == NULL)
                    return NULL;
                Py_SETREF(list->arrays[k], tmp);
            }
        }
        res = (PgArray *)Py_NewRef(out);
    } else {
        res = pg_array_new(first->device, type, ndim, shape, 'C', first->mem_kind);
        if (res == NULL)
            return NULL;
        if (!flat && ndim > 1) {
            /* lay the result out in the order of the inputs' strides, as NumPy */
            int perm[PG_MAXDIMS];
            multi_sorted_stride_perm(list, ndim, perm);
            int64_t s = PG_ITEMSIZE(res);
            for (int i = ndim - 1; i >= 0; i--) {
                res->strides[perm[i]] = s;
                s *= shape[perm[i]];
            }
            pg_array_update_flags(res);
        }
    }
    if (assign_slices(list, res, axis, flat) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

/* An axis argument: an integer (NumPy's TypeError for others). */
static int
parse_axis(PyObject *obj, int64_t *axis)
{
    PyObject *i = PyNumber_Index(obj);
    if (i == NULL)
        return -1;
    long long v = PyLong_AsLongLong(i);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *axis = v;
    return 0;
}

/* The keyword arguments of concatenate and stack: out, dtype, casting. */
static int
parse_join_options(const char *fname, PyObject *out_obj, PyObject *dtype_obj, PyObject *casting_obj,
                   PgArray **out, int *dtype, PgCasting *casting)
{
    *out = NULL;
    *dtype = -1;
    if (out_obj != Py_None) {
        if (!PgArray_Check(out_obj)) {
            PyErr_Format(PyExc_TypeError, "out must be a pygpu.ndarray, not %.200s", Py_TYPE(out_obj)->tp_name);
            return -1;
        }
        *out = (PgArray *)out_obj;
    }
    if (dtype_obj != Py_None) {
        if (*out != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%s() only takes `out` or `dtype` as an argument, but both were provided.", fname);
            return -1;
        }
        if ((*dtype = pg_type_from_object(dtype_obj, -1)) < 0)
            return -1;
    }
    return pg_casting_from_object(casting_obj, casting);
}

/* ------------------------------------------------------------------ concatenate */

static PyObject *
py_concatenate(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"arrays", "axis", "out", "dtype", "casting", NULL};
    PyObject *seq, *axis_obj = NULL, *out_obj = Py_None, *dtype_obj = Py_None, *casting_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO$OO:concatenate", kwlist, &seq, &axis_obj, &out_obj,
                                     &dtype_obj, &casting_obj))
        return NULL;
    PgArray *out;
    int dtype, flat = axis_obj == Py_None, axis = 0;
    int64_t axis_raw = 0;
    PgCasting casting;
    if (parse_join_options("concatenate", out_obj, dtype_obj, casting_obj, &out, &dtype, &casting) < 0)
        return NULL;
    if (!flat && axis_obj != NULL && parse_axis(axis_obj, &axis_raw) < 0)
        return NULL;
    ArrayList list;
    if (array_list_from_sequence(seq, out, "need at least one array to concatenate", &list) < 0)
        return NULL;
    PyObject *res = NULL;
    int type = join_type(&list, dtype, out, casting);
    if (type < 0)
        goto done;
    if (!flat) {
        PgArray *first = list.arrays[0];
        if (first->ndim == 0) {
            PyErr_SetString(PyExc_ValueError, "zero-dimensional arrays cannot be concatenated");
            goto done;
        }
        if (pg_normalize_axis(axis_raw, first->ndim, NULL, &axis) < 0)
            goto done;
        for (Py_ssize_t k = 1; k < list.n; k++) {
            PgArray *a = list.arrays[k];
            if (a->ndim != first->ndim) {
                PyErr_Format(PyExc_ValueError,
                             "all the input arrays must have same number of dimensions, but the array at index 0 "
                             "has %d dimension(s) and the array at index %zd has %d dimension(s)",
                             first->ndim, k, a->ndim);
                goto done;
            }
            for (int d = 0; d < a->ndim; d++) {
                if (d != axis && a->shape[d] != first->shape[d]) {
                    PyErr_Format(PyExc_ValueError,
                                 "all the input array dimensions except for the concatenation axis must match "
                                 "exactly, but along dimension %d, the array at index 0 has size %lld and the "
                                 "array at index %zd has size %lld",
                                 d, (long long)first->shape[d], k, (long long)a->shape[d]);
                    goto done;
                }
            }
        }
    }
    res = (PyObject *)join(&list, axis, flat, out, type);
done:
    array_list_clear(&list);
    return res;
}

/* ------------------------------------------------------------------ stack */

static PyObject *
py_stack(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"arrays", "axis", "out", "dtype", "casting", NULL};
    PyObject *seq, *axis_obj = NULL, *out_obj = Py_None, *dtype_obj = Py_None, *casting_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO$OO:stack", kwlist, &seq, &axis_obj, &out_obj, &dtype_obj,
                                     &casting_obj))
        return NULL;
    PgArray *out;
    int dtype, axis;
    int64_t axis_raw = 0;
    PgCasting casting;
    if (parse_join_options("stack", out_obj, dtype_obj, casting_obj, &out, &dtype, &casting) < 0)
        return NULL;
    if (axis_obj != NULL && parse_axis(axis_obj, &axis_raw) < 0)
        return NULL;
    ArrayList list;
    if (array_list_from_sequence(seq, out, "need at least one array to stack", &list) < 0)
        return NULL;
    PyObject *res = NULL;
    PgArray *first = list.arrays[0];
    for (Py_ssize_t k = 1; k < list.n; k++) {
        PgArray *a = list.arrays[k];
        if (a->ndim != first->ndim || memcmp(a->shape, first->shape, sizeof(int64_t) * (size_t)a->ndim) != 0) {
            PyErr_SetString(PyExc_ValueError, "all input arrays must have the same shape");
            goto done;
        }
    }
    int nd = first->ndim + 1;
    if (nd > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an ndarray is currently %d, found %d",
                     PG_MAXDIMS, nd);
        goto done;
    }
    if (pg_normalize_axis(axis_raw, nd, NULL, &axis) < 0)
        goto done;
    /* each input gets a unit axis at `axis`; then it is a concatenation */
    for (Py_ssize_t k = 0; k < list.n; k++) {
        PgArray *a = list.arrays[k];
        int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
        for (int i = 0, j = 0; i < nd; i++) {
            if (i == axis) {
                shape[i] = 1;
                strides[i] = PG_ITEMSIZE(a);
            } else {
                shape[i] = a->shape[j];
                strides[i] = a->strides[j];
                j++;
            }
        }
        PgArray *v = pg_array_view(a, a->data, a->type, nd, shape, strides);
        if (v == NULL)
            goto done;
        Py_SETREF(list.arrays[k], v);
    }
    int type = join_type(&list, dtype, out, casting);
    if (type >= 0)
        res = (PyObject *)join(&list, axis, 0, out, type);
done:
    array_list_clear(&list);
    return res;
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef pg_join_module_methods[] = {
    {"concatenate", KW(py_concatenate), PG_DOC_CONCATENATE},
    {"stack", KW(py_stack), PG_DOC_STACK},
    {NULL, NULL, 0, NULL},
};
