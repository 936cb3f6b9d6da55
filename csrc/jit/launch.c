/* The launch of a user kernel: the launch configuration parsed and checked against what the
 * device and the kernel allow (ValueError before anything runs), each argument packed into the
 * bytes its parameter takes (a mismatch raises, never corrupts), NumPy arguments copied to the
 * device before and back after (as Numba does), then the backend's launch. */
#include "jit/kernel.h"
#include "array/interop.h"
#include "runtime/stream.h"
#include <limits.h>

/* ------------------------------------------------------------------ launch configuration */

static const char AXES[] = "xyz";

/* grid or block: an int or a sequence of 1 to 3 ints, each at least 1 */
static int
parse_dims(PgFunction *fn, PyObject *obj, const char *what, unsigned int out[3])
{
    int64_t v[3] = {1, 1, 1};
    Py_ssize_t n;
    if (PyLong_CheckExact(obj)) {
        v[0] = PyLong_AsLongLong(obj);
        if (v[0] == -1 && PyErr_Occurred())
            return -1;
        n = 1;
    } else {
        n = pg_parse_ints(obj, v, 3);
        if (n < 0) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return -1;
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "kernel %U(): the %s must be an int or a tuple of 1 to 3 ints, not %.200s",
                         fn->name, what, Py_TYPE(obj)->tp_name);
            return -1;
        }
    }
    if (n < 1 || n > 3) {
        PyErr_Format(PyExc_ValueError, "kernel %U(): the %s must have 1 to 3 dimensions, got %zd", fn->name, what, n);
        return -1;
    }
    for (int d = 0; d < 3; d++) {
        if (v[d] < 1) {
            PyErr_Format(PyExc_ValueError, "kernel %U(): %s dimension %c is %lld; every dimension must be at least 1",
                         fn->name, what, AXES[d], (long long)v[d]);
            return -1;
        }
        if (v[d] > UINT_MAX) {
            PyErr_Format(PyExc_ValueError, "kernel %U(): %s dimension %c is %lld, more than any device runs", fn->name,
                         what, AXES[d], (long long)v[d]);
            return -1;
        }
        out[d] = (unsigned int)v[d];
    }
    return 0;
}

static int
check_config(PgFunction *fn, const PgLaunchConfig *cfg)
{
    const PgFunctionInfo *in = &fn->info;
    PyObject *dev = (PyObject *)fn->module->device;
    for (int d = 0; d < 3; d++) {
        if (cfg->block[d] > (unsigned int)in->max_block[d]) {
            PyErr_Format(PyExc_ValueError, "kernel %U(): block dimension %c is %u; %R allows at most %d", fn->name,
                         AXES[d], cfg->block[d], dev, in->max_block[d]);
            return -1;
        }
        if ((int64_t)cfg->grid[d] > in->max_grid[d]) {
            PyErr_Format(PyExc_ValueError, "kernel %U(): grid dimension %c is %u; %R allows at most %lld", fn->name,
                         AXES[d], cfg->grid[d], dev, (long long)in->max_grid[d]);
            return -1;
        }
    }
    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    if (threads > (uint64_t)in->max_threads) {
        PyErr_Format(PyExc_ValueError,
                     "kernel %U(): a block of %llu threads (%u, %u, %u) is more than the %d threads per block it can "
                     "run with on %R",
                     fn->name, (unsigned long long)threads, cfg->block[0], cfg->block[1], cfg->block[2], in->max_threads,
                     dev);
        return -1;
    }
    int64_t fixed = in->static_shared > 0 ? in->static_shared : 0;
    /* compared without adding: shared_mem may be near 2**63, where the sum would wrap */
    if (cfg->shared_mem > (size_t)INT64_MAX || (int64_t)cfg->shared_mem > in->max_shared - fixed) {
        PyErr_Format(PyExc_ValueError,
                     "kernel %U(): %llu bytes of shared memory per block (%lld static + %zu dynamic) is more than the "
                     "%lld bytes %R allows",
                     fn->name, (unsigned long long)fixed + (unsigned long long)cfg->shared_mem, (long long)fixed,
                     cfg->shared_mem, (long long)in->max_shared, dev);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ argument packing */

#define INLINE_BYTES 1024
#define INLINE_ARGS 32

typedef struct {
    PgArray *device_copy;   /* the device copy of a NumPy argument */
    PyObject *host;         /* the NumPy array to copy it back into, or NULL (read-only) */
} Temp;

typedef struct {
    PgFunction *fn;
    PgDevice *dev;
    void *stream;
    size_t used, cap;
    char *bytes;
    size_t offsets_inline[INLINE_ARGS], *offsets;
    void *ptrs_inline[INLINE_ARGS], **ptrs;
    Temp temps_inline[4], *temps;
    int ntemps, captemps;
    _Alignas(16) char bytes_inline[INLINE_BYTES];
} Pack;

static int
pack_init(Pack *pk, PgFunction *fn, Py_ssize_t nargs, void *stream)
{
    pk->fn = fn;
    pk->dev = fn->module->device;
    pk->stream = stream;
    pk->used = 0;
    pk->cap = INLINE_BYTES;
    pk->bytes = pk->bytes_inline;
    pk->offsets = pk->offsets_inline;
    pk->ptrs = pk->ptrs_inline;
    pk->temps = pk->temps_inline;
    pk->ntemps = 0;
    pk->captemps = 4;
    if (nargs > INLINE_ARGS) {
        pk->offsets = PyMem_Malloc(sizeof(size_t) * (size_t)nargs);
        pk->ptrs = PyMem_Malloc(sizeof(void *) * (size_t)nargs);
        if (pk->offsets == NULL || pk->ptrs == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void
pack_free(Pack *pk)
{
    for (int t = 0; t < pk->ntemps; t++) {
        Py_XDECREF(pk->temps[t].device_copy);
        Py_XDECREF(pk->temps[t].host);
    }
    if (pk->temps != pk->temps_inline)
        PyMem_Free(pk->temps);
    if (pk->bytes != pk->bytes_inline)
        PyMem_Free(pk->bytes);
    if (pk->offsets != pk->offsets_inline)
        PyMem_Free(pk->offsets);
    if (pk->ptrs != pk->ptrs_inline)
        PyMem_Free(pk->ptrs);
}

/* Room for argument i of n bytes, 16-aligned: its storage, or NULL with MemoryError. */
static char *
pack_slot(Pack *pk, Py_ssize_t i, size_t n)
{
    size_t at = (pk->used + 15) & ~(size_t)15;
    if (at + n > pk->cap) {
        size_t cap = 2 * (at + n);
        char *b = PyMem_Malloc(cap);
        if (b == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        memcpy(b, pk->bytes, pk->used);
        if (pk->bytes != pk->bytes_inline)
            PyMem_Free(pk->bytes);
        pk->bytes = b;
        pk->cap = cap;
    }
    pk->offsets[i] = at;
    pk->used = at + n;
    memset(pk->bytes + at, 0, n);
    return pk->bytes + at;
}

static int
pack_temp(Pack *pk, PgArray *copy, PyObject *host)
{
    if (pk->ntemps == pk->captemps) {
        Temp *t = PyMem_Malloc(sizeof(Temp) * (size_t)pk->captemps * 2);
        if (t == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(t, pk->temps, sizeof(Temp) * (size_t)pk->ntemps);
        if (pk->temps != pk->temps_inline)
            PyMem_Free(pk->temps);
        pk->temps = t;
        pk->captemps *= 2;
    }
    pk->temps[pk->ntemps].device_copy = copy;
    pk->temps[pk->ntemps].host = Py_XNewRef(host);
    pk->ntemps++;
    return 0;
}

/* What a parameter is, in words: "float32", "a pointer to float32", "an 8-byte value". */
static void
param_text(const PgParamInfo *p, char *buf, size_t size)
{
    if (p->kind == PG_PARAM_TUPLE) {
        int t = PG_PARAM_TUPLE_ELEMENT(p->type);
        snprintf(buf, size, "a tuple of %d %s", PG_PARAM_TUPLE_LENGTH(p->type), t < PG_NTYPES ? pg_type_info[t].name : "?");
        return;
    }
    if (p->kind == PG_PARAM_RECORDS) {
        snprintf(buf, size, "a %d-d array of %d-byte records", PG_PARAM_RECORDS_NDIM(p->type),
                 PG_PARAM_RECORDS_ITEMSIZE(p->type));
        return;
    }
    if (p->kind == PG_PARAM_ARRAY) {
        int t = PG_PARAM_ARRAY_ELEMENT(p->type);
        snprintf(buf, size, "a %d-d %sarray of %s", PG_PARAM_ARRAY_NDIM(p->type),
                 (p->type & PG_PARAM_ARRAY_C) ? "C-contiguous " : "", t < PG_NTYPES ? pg_type_info[t].name : "?");
        return;
    }
    const char *t = p->type >= 0 && p->type < PG_NTYPES ? pg_type_info[p->type].name : NULL;
    switch (p->kind) {
    case PG_CPU_PARAM_POINTER:
        snprintf(buf, size, t ? "a pointer to %s" : "a pointer", t);
        break;
    case PG_CPU_PARAM_BOOL:
    case PG_CPU_PARAM_INT:
    case PG_CPU_PARAM_UINT:
    case PG_CPU_PARAM_FLOAT:
        snprintf(buf, size, "%s", t ? t : "a number");
        break;
    default:
        snprintf(buf, size, p->size >= 0 ? "a %d-byte value" : "a value", (int)p->size);
    }
}

static int
arg_error(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg, const char *hint)
{
    char want[64];
    param_text(p, want, sizeof want);
    PyErr_Format(PyExc_TypeError, "kernel %U(): argument %zd is %s, got %.200s%s%s", pk->fn->name, i + 1, want,
                 Py_TYPE(arg)->tp_name, hint ? ": " : "", hint ? hint : "");
    return -1;
}

/* Whether an array of type `have` may be passed for a pointer to `want` (-1: anything). */
static int
pointee_accepts(int want, int have)
{
    if (want < 0 || want == have)
        return 1;
    int ws = pg_type_info[want].itemsize, hs = pg_type_info[have].itemsize;
    int wint = PG_IS_INTEGER(want) || PG_IS_BOOL(want), hint = PG_IS_INTEGER(have) || PG_IS_BOOL(have);
    if (wint && ws == 1)
        return 1; /* char pointers read any memory bytewise */
    if (PG_IS_FLOAT(want) && PG_IS_COMPLEX(have) && 2 * ws == hs)
        return 1; /* complex data through a pointer to its parts (re, im interleaved), as CuPy passes it */
    if (have == PG_FLOAT16 && (want == PG_INT16 || want == PG_UINT16))
        return 1; /* half data as its bits */
    return wint && hint && ws == hs; /* signed and unsigned of one size share their bits */
}

static int
pack_pointer(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PgArray *a, PyObject *arg)
{
    if (a->device != pk->dev) {
        PyErr_Format(PyExc_ValueError, "kernel %U() runs on %R, but argument %zd is on %R (move it with .to_device())",
                     pk->fn->name, (PyObject *)pk->dev, i + 1, (PyObject *)a->device);
        return -1;
    }
    if (p != NULL && !pointee_accepts(p->type, a->type)) {
        char hint[96];
        snprintf(hint, sizeof hint, "an array of %s", pg_type_info[a->type].name);
        PyErr_Clear();
        char want[64];
        param_text(p, want, sizeof want);
        PyErr_Format(PyExc_TypeError, "kernel %U(): argument %zd is %s, got %s", pk->fn->name, i + 1, want, hint);
        return -1;
    }
    if (p != NULL && p->size >= 0 && p->size != (int32_t)sizeof(void *))
        return arg_error(pk, i, p, arg, "an array passes a pointer");
    char *slot = pack_slot(pk, i, sizeof(void *));
    if (slot == NULL)
        return -1;
    void *ptr = a->data;
    memcpy(slot, &ptr, sizeof ptr);
    /* the kernel uses the memory on this stream: the pool must know (runtime/memory.h) */
    PgBlock *b = a->block;
    if (b == NULL && a->base != NULL && PgArray_Check(a->base))
        b = ((PgArray *)a->base)->block;
    if (b != NULL)
        pg_block_use(b, pk->stream);
    return 0;
}

static int pack_by_value(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PgArray *a, int ndim);

/* An array passed by value ({data, shape, strides}: PG_PARAM_ARRAY), of exactly the element type,
 * dimensions and layout the kernel was compiled for. */
static int
pack_array(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PgArray *a)
{
    int want = PG_PARAM_ARRAY_ELEMENT(p->type), ndim = PG_PARAM_ARRAY_NDIM(p->type);
    if (a->device != pk->dev) {
        PyErr_Format(PyExc_ValueError, "kernel %U() runs on %R, but argument %zd is on %R (move it with .to_device())",
                     pk->fn->name, (PyObject *)pk->dev, i + 1, (PyObject *)a->device);
        return -1;
    }
    if (a->type != want || a->ndim != ndim || ((p->type & PG_PARAM_ARRAY_C) && !(a->flags & PG_C_CONTIGUOUS))) {
        char want_text[96];
        param_text(p, want_text, sizeof want_text);
        PyErr_Format(PyExc_TypeError, "kernel %U(): argument %zd is %s, got a %d-d %sarray of %s", pk->fn->name, i + 1,
                     want_text, a->ndim, (a->flags & PG_C_CONTIGUOUS) ? "" : "non-contiguous ",
                     pg_type_info[a->type].name);
        return -1;
    }
    return pack_by_value(pk, i, p, a, ndim);
}

/* {data, shape[n], strides[n]} of a's first ndim dimensions (n = max(ndim, 1)) into argument i's
 * slot, and a's memory marked in use by the launch's stream. */
static int
pack_by_value(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PgArray *a, int ndim)
{
    int n = ndim > 0 ? ndim : 1;
    size_t bytes = sizeof(void *) + 2 * sizeof(int64_t) * (size_t)n;
    if (p->size >= 0 && (size_t)p->size != bytes)
        return arg_error(pk, i, p, (PyObject *)a, "the kernel's array parameter has another size");
    char *slot = pack_slot(pk, i, bytes);
    if (slot == NULL)
        return -1;
    void *ptr = a->data;
    memcpy(slot, &ptr, sizeof ptr);
    if (ndim > 0) {
        memcpy(slot + sizeof ptr, a->shape, sizeof(int64_t) * (size_t)ndim);
        memcpy(slot + sizeof ptr + sizeof(int64_t) * (size_t)n, a->strides, sizeof(int64_t) * (size_t)ndim);
    }
    PgBlock *b = a->block;
    if (b == NULL && a->base != NULL && PgArray_Check(a->base))
        b = ((PgArray *)a->base)->block;
    if (b != NULL)
        pg_block_use(b, pk->stream);
    return 0;
}

/* The PgType of a scalar argument's value, and its category: 'b', 'i', 'f', 'c'; 0 if not one. */
static char
scalar_category(PyObject *arg, int *type)
{
    *type = -1;
    if (PyBool_Check(arg))
        return 'b';
    if (PyLong_Check(arg))
        return 'i';
    if (PyFloat_Check(arg))
        return 'f';
    if (PyComplex_Check(arg))
        return 'c';
    PyArray_Descr *d = NULL;
    if (PyArray_IsScalar(arg, Generic))
        d = PyArray_DescrFromScalar(arg);
    else if (PyArray_Check(arg) && PyArray_NDIM((PyArrayObject *)arg) == 0)
        d = (PyArray_Descr *)Py_NewRef(PyArray_DESCR((PyArrayObject *)arg));
    if (d == NULL) {
        PyErr_Clear();
        return 0;
    }
    char kind = d->kind;
    *type = pg_type_from_descr(d);
    Py_DECREF(d);
    if (*type < 0)
        PyErr_Clear();
    return kind == 'b' ? 'b' : kind == 'i' || kind == 'u' ? 'i' : kind == 'f' ? 'f' : kind == 'c' ? 'c' : 0;
}

/* The type a scalar parameter of this kind and size holds. */
static int
scalar_param_type(int kind, int size)
{
    switch (kind) {
    case PG_CPU_PARAM_BOOL: return PG_BOOL;
    case PG_CPU_PARAM_INT: return size == 1 ? PG_INT8 : size == 2 ? PG_INT16 : size == 4 ? PG_INT32 : size == 8 ? PG_INT64 : -1;
    case PG_CPU_PARAM_UINT: return size == 1 ? PG_UINT8 : size == 2 ? PG_UINT16 : size == 4 ? PG_UINT32 : size == 8 ? PG_UINT64 : -1;
    case PG_CPU_PARAM_FLOAT: return size == 2 ? PG_FLOAT16 : size == 4 ? PG_FLOAT32 : size == 8 ? PG_FLOAT64 : -1;
    default: return -1;
    }
}

/* A scalar for a parameter whose kind is known to be a number. */
static int
pack_number(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg)
{
    int have;
    char cat = scalar_category(arg, &have);
    int t = p->type >= 0 ? p->type : scalar_param_type(p->kind, p->size);
    if (cat == 0 || t < 0)
        return arg_error(pk, i, p, arg, NULL);
    /* a C call would convert silently; a float into an integer or a complex into a real loses the
     * value, which is never what a kernel argument means */
    if ((cat == 'c' && !PG_IS_COMPLEX(t)) || (cat == 'f' && (PG_IS_INTEGER(t) || PG_IS_BOOL(t))))
        return arg_error(pk, i, p, arg, "pass a value of the parameter's kind");
    char *slot = pack_slot(pk, i, (size_t)pg_type_info[t].itemsize);
    if (slot == NULL)
        return -1;
    if (pk->fn->wrap_ints && (cat == 'i' || cat == 'b') && PG_IS_INTEGER(t)) {
        /* Numba passes ctypes.c_int32(value) & co.: the low bits, whatever the value */
        PyObject *index = PyNumber_Index(arg);
        if (index == NULL)
            return -1;
        unsigned long long bits = PyLong_AsUnsignedLongLongMask(index);
        Py_DECREF(index);
        if (bits == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        memcpy(slot, &bits, (size_t)pg_type_info[t].itemsize);   /* little-endian: the low bytes */
        return 0;
    }
    return pg_scalar_to_bytes(arg, (PgType)t, slot);
}

/* The raw bytes of a NumPy scalar, a 0-d array or a bytes-like object, for a parameter of `size`
 * bytes (-1: whatever size the object has). 1 when arg is none of those. */
static int
pack_raw(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg, int size)
{
    Py_buffer view;
    int is_numpy = PyArray_IsScalar(arg, Generic) || (PyArray_Check(arg) && PyArray_NDIM((PyArrayObject *)arg) == 0);
    if (!is_numpy && !PyBytes_Check(arg) && !PyByteArray_Check(arg) && !PyMemoryView_Check(arg))
        return 1;
    PyObject *holder = NULL;
    if (is_numpy) {
        /* a NumPy scalar's bytes: through a 0-d array, which exposes its buffer */
        holder = PyArray_FromAny(arg, NULL, 0, 0, NPY_ARRAY_C_CONTIGUOUS, NULL);
        if (holder == NULL)
            return -1;
    }
    if (PyObject_GetBuffer(holder ? holder : arg, &view, PyBUF_C_CONTIGUOUS) < 0) {
        Py_XDECREF(holder);
        return -1;
    }
    int rc = 0;
    if (size >= 0 && view.len != size) {
        char hint[64];
        snprintf(hint, sizeof hint, "it has %zd bytes", view.len);
        rc = arg_error(pk, i, p, arg, hint);
    } else {
        char *slot = pack_slot(pk, i, (size_t)view.len);
        if (slot == NULL)
            rc = -1;
        else
            memcpy(slot, view.buf, (size_t)view.len);
    }
    PyBuffer_Release(&view);
    Py_XDECREF(holder);
    return rc;
}

/* A Python scalar for a parameter of known size but unknown kind: its own kind at that size. */
static int
pack_guess(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg, int size)
{
    int t = -1;
    if (PyBool_Check(arg))
        t = size < 0 || size == 1 ? PG_BOOL : scalar_param_type(PG_CPU_PARAM_INT, size);
    else if (PyLong_Check(arg))
        t = scalar_param_type(PG_CPU_PARAM_INT, size < 0 ? 8 : size);
    else if (PyFloat_Check(arg))
        t = scalar_param_type(PG_CPU_PARAM_FLOAT, size < 0 ? 8 : size);
    else if (PyComplex_Check(arg))
        t = size < 0 || size == 16 ? PG_COMPLEX128 : size == 8 ? PG_COMPLEX64 : -1;
    else
        return 1;
    if (t < 0)
        return arg_error(pk, i, p, arg, "pass a NumPy scalar of the parameter's type");
    char *slot = pack_slot(pk, i, (size_t)pg_type_info[t].itemsize);
    return slot == NULL ? -1 : pg_scalar_to_bytes(arg, (PgType)t, slot);
}

static int
pack_numpy_array(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyArrayObject *np)
{
    PgArray *copy = pg_array_from_numpy(np, pk->dev, -1);
    if (copy == NULL)
        return -1;
    if (pack_temp(pk, copy, PyArray_ISWRITEABLE(np) ? (PyObject *)np : NULL) < 0) {
        Py_DECREF(copy);
        return -1;
    }
    if (p->kind == PG_PARAM_ARRAY)
        return pack_array(pk, i, p, copy);
    return pack_pointer(pk, i, p, copy, (PyObject *)np);
}

/* An argument for an array parameter: a pygpu array, a NumPy array (copied there and back), or
 * an object with __cuda_array_interface__ or DLPack (zero-copy). */
static int
pack_array_arg(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg)
{
    if (PgArray_Check(arg))
        return pack_array(pk, i, p, (PgArray *)arg);
    if (PyArray_Check(arg))
        return pack_numpy_array(pk, i, p, (PyArrayObject *)arg);
    PgArray *imported = NULL;
    int r = pg_interop_import(arg, &imported);
    if (r < 0)
        return -1;
    if (r == 0)
        return arg_error(pk, i, p, arg, "pass a pygpu or NumPy array, or one with __cuda_array_interface__ or DLPack");
    if (pack_temp(pk, imported, NULL) < 0) {
        Py_DECREF(imported);
        return -1;
    }
    return pack_array(pk, i, p, imported);
}

/* The bytes of a NumPy structured array as a uint8 array with one more dimension (the record's
 * bytes), sharing its memory; NULL with an exception when the records are not whole in memory. */
static PyArrayObject *
record_bytes_view(PyArrayObject *np)
{
    int nd = PyArray_NDIM(np);
    npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    if (nd + 1 > NPY_MAXDIMS) {
        PyErr_SetString(PyExc_ValueError, "too many dimensions for an array of records");
        return NULL;
    }
    for (int d = 0; d < nd; d++) {
        dims[d] = PyArray_DIM(np, d);
        strides[d] = PyArray_STRIDE(np, d);
    }
    dims[nd] = PyArray_ITEMSIZE(np);
    strides[nd] = 1;
    PyArray_Descr *u8 = PyArray_DescrFromType(NPY_UINT8);
    if (u8 == NULL)
        return NULL;
    int flags = PyArray_ISWRITEABLE(np) ? NPY_ARRAY_WRITEABLE : 0;
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, u8, nd + 1, dims, strides, PyArray_DATA(np), flags, NULL);
    if (view == NULL)
        return NULL;
    if (PyArray_SetBaseObject((PyArrayObject *)view, Py_NewRef((PyObject *)np)) < 0) {
        Py_DECREF(view);
        return NULL;
    }
    return (PyArrayObject *)view;
}

/* An array of records (PG_PARAM_RECORDS): a device record array's bytes, or a NumPy structured
 * array's (copied there and back), packed as {data, shape, strides} of the records. */
static int
pack_records(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg)
{
    int ndim = PG_PARAM_RECORDS_NDIM(p->type), itemsize = PG_PARAM_RECORDS_ITEMSIZE(p->type);
    PgArray *a = NULL;
    int rc = -1;
    if (PyArray_Check(arg)) {
        PyArrayObject *np = (PyArrayObject *)arg;
        if (!PyDataType_HASFIELDS(PyArray_DESCR(np)) || PyArray_ITEMSIZE(np) != itemsize)
            return arg_error(pk, i, p, arg, "pass an array of the records the kernel was compiled for");
        PyArrayObject *view = record_bytes_view(np);
        if (view == NULL)
            return -1;
        a = pg_array_from_numpy(view, pk->dev, -1);
        if (a == NULL || pack_temp(pk, a, PyArray_ISWRITEABLE(view) ? (PyObject *)view : NULL) < 0) {
            Py_DECREF(view);
            Py_XDECREF(a);
            return -1;
        }
        Py_DECREF(view);
        Py_INCREF(a); /* the temp holds one reference; this function releases its own below */
    } else {
        PyObject *bytes = PyObject_GetAttrString(arg, "_pygpu_record_bytes");
        if (bytes == NULL) {
            PyErr_Clear();
            return arg_error(pk, i, p, arg, "pass a NumPy structured array or cuda.to_device() of one");
        }
        if (!PgArray_Check(bytes)) {
            Py_DECREF(bytes);
            return arg_error(pk, i, p, arg, "its _pygpu_record_bytes is not a pygpu array");
        }
        a = (PgArray *)bytes;
    }
    if (a->device != pk->dev) {
        PyErr_Format(PyExc_ValueError, "kernel %U() runs on %R, but argument %zd is on %R", pk->fn->name,
                     (PyObject *)pk->dev, i + 1, (PyObject *)a->device);
        goto done;
    }
    if (a->type != PG_UINT8 || a->ndim != ndim + 1 || a->shape[ndim] != itemsize || a->strides[ndim] != 1) {
        arg_error(pk, i, p, arg, "records of another size or dimensions");
        goto done;
    }
    rc = pack_by_value(pk, i, p, a, ndim);   /* the records' dimensions: the bytes' last one left out */
done:
    Py_DECREF(a);
    return rc;
}

/* A tuple of numbers for a PgTup<T, n> parameter: each converted to T, side by side. */
static int
pack_tuple(Pack *pk, Py_ssize_t i, const PgParamInfo *p, PyObject *arg)
{
    int t = PG_PARAM_TUPLE_ELEMENT(p->type), n = PG_PARAM_TUPLE_LENGTH(p->type);
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) != n || t >= PG_NTYPES)
        return arg_error(pk, i, p, arg, NULL);
    size_t itemsize = (size_t)pg_type_info[t].itemsize;
    char *slot = pack_slot(pk, i, itemsize * (size_t)(n > 0 ? n : 1));
    if (slot == NULL)
        return -1;
    for (int j = 0; j < n; j++)
        if (pg_scalar_to_bytes(PyTuple_GET_ITEM(arg, j), (PgType)t, slot + itemsize * (size_t)j) < 0)
            return -1;
    return 0;
}

static int
pack_arg(Pack *pk, Py_ssize_t i, PyObject *arg)
{
    PgFunction *fn = pk->fn;
    const PgParamInfo *p = fn->nparams >= 0 ? &fn->params[i] : NULL;
    static const PgParamInfo unknown = {-1, PG_PARAM_UNKNOWN, -1};
    const PgParamInfo *pp = p ? p : &unknown;
    int kind = pp->kind, size = pp->size;

    if (kind == PG_PARAM_ARRAY)
        return pack_array_arg(pk, i, pp, arg);
    if (kind == PG_PARAM_TUPLE)
        return pack_tuple(pk, i, pp, arg);
    if (kind == PG_PARAM_RECORDS)
        return pack_records(pk, i, pp, arg);
    if (kind == PG_PARAM_BOUND) /* compiled into the kernel: the parameter is an unused byte */
        return pack_slot(pk, i, 1) == NULL ? -1 : 0;
    if (PgArray_Check(arg)) {
        if (kind != PG_CPU_PARAM_POINTER && kind != PG_PARAM_UNKNOWN)
            return arg_error(pk, i, pp, arg, NULL);
        return pack_pointer(pk, i, pp, (PgArray *)arg, arg);
    }
    if (kind == PG_CPU_PARAM_POINTER) {
        if (arg == Py_None) {
            char *slot = pack_slot(pk, i, sizeof(void *));
            return slot == NULL ? -1 : 0;
        }
        if (PyArray_Check(arg))
            return pack_numpy_array(pk, i, pp, (PyArrayObject *)arg);
        PgArray *imported = NULL;
        int r = pg_interop_import(arg, &imported);
        if (r < 0)
            return -1;
        if (r == 0)
            return arg_error(pk, i, pp, arg, "pass a pygpu or NumPy array, or None");
        int rc = pack_temp(pk, imported, NULL);
        if (rc < 0) {
            Py_DECREF(imported);
            return -1;
        }
        return pack_pointer(pk, i, pp, imported, arg);
    }
    if ((kind == PG_CPU_PARAM_BOOL || kind == PG_CPU_PARAM_INT || kind == PG_CPU_PARAM_UINT ||
         kind == PG_CPU_PARAM_FLOAT || kind == PG_CPU_PARAM_OTHER) &&
        PyArray_Check(arg) && PyArray_NDIM((PyArrayObject *)arg) > 0 && PyArray_SIZE((PyArrayObject *)arg) == 1) {
        /* a value parameter given a one-element NumPy array: its element, by value, as CuPy takes it
         * (a struct passed as np.array([...], dtype=struct_dtype)) */
        PyArray_Dims none = {NULL, 0};
        PyObject *one = PyArray_Newshape((PyArrayObject *)arg, &none, NPY_ANYORDER);
        if (one == NULL)
            return -1;
        int rc = pack_arg(pk, i, one);
        Py_DECREF(one);
        return rc;
    }
    if (kind == PG_CPU_PARAM_BOOL || kind == PG_CPU_PARAM_INT || kind == PG_CPU_PARAM_UINT ||
        kind == PG_CPU_PARAM_FLOAT)
        return pack_number(pk, i, pp, arg);
    if (kind == PG_CPU_PARAM_OTHER) {
        int r = pack_raw(pk, i, pp, arg, size);
        if (r == 1 && PyComplex_Check(arg)) /* a complex parameter (a struct to C): a Python complex fits it */
            r = pack_guess(pk, i, pp, arg, size);
        return r == 1 ? arg_error(pk, i, pp, arg, "pass a NumPy scalar or bytes of that size") : r;
    }
    /* unknown kind: arrays pass pointers, scalars their own kind at the parameter's size */
    if (PyArray_Check(arg) && PyArray_NDIM((PyArrayObject *)arg) > 0)
        return pack_numpy_array(pk, i, pp, (PyArrayObject *)arg);
    int r = pack_raw(pk, i, pp, arg, size);
    if (r != 1)
        return r;
    r = pack_guess(pk, i, pp, arg, size);
    if (r != 1)
        return r;
    PgArray *imported = NULL;
    r = pg_interop_import(arg, &imported);
    if (r < 0)
        return -1;
    if (r == 0)
        return arg_error(pk, i, pp, arg, "pass an array, a number, a NumPy scalar or bytes");
    if (pack_temp(pk, imported, NULL) < 0) {
        Py_DECREF(imported);
        return -1;
    }
    return pack_pointer(pk, i, pp, imported, arg);
}

/* ------------------------------------------------------------------ the launch */

/* After the kernel: NumPy arguments get the device copies' contents back. */
static int
copy_back(Pack *pk)
{
    int any = 0;
    for (int t = 0; t < pk->ntemps; t++)
        any |= pk->temps[t].host != NULL;
    if (!any)
        return 0;
    PgDevice *dev = pk->dev;
    if (dev->backend->stream_synchronize(dev, pk->stream) < 0)
        return -1;
    for (int t = 0; t < pk->ntemps; t++) {
        if (pk->temps[t].host == NULL)
            continue;
        PyObject *r = PyObject_CallMethod((PyObject *)pk->temps[t].device_copy, "get", "OO", Py_None,
                                          pk->temps[t].host);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
    }
    return 0;
}

int
pg_function_launch(PgFunction *fn, PyObject *grid, PyObject *block, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *shared, PyObject *stream)
{
    PgDevice *dev = fn->module->device;
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (fn->nparams >= 0 && nargs != fn->nparams) {
        PyErr_Format(PyExc_TypeError, "kernel %U() takes %d argument%s but %zd were given", fn->name, fn->nparams,
                     fn->nparams == 1 ? "" : "s", nargs);
        return -1;
    }
    PgLaunchConfig cfg;
    cfg.shared_mem = 0;
    cfg.cooperative = fn->cooperative;
    if (parse_dims(fn, grid, "grid", cfg.grid) < 0 || parse_dims(fn, block, "block", cfg.block) < 0)
        return -1;
    if (shared != NULL && shared != Py_None) {
        long long s = PyLong_AsLongLong(shared);
        if (s == -1 && PyErr_Occurred())
            return -1;
        if (s < 0) {
            PyErr_Format(PyExc_ValueError, "kernel %U(): shared_mem must be at least 0, got %lld", fn->name, s);
            return -1;
        }
        cfg.shared_mem = (size_t)s;
    }
    if (check_config(fn, &cfg) < 0)
        return -1;
    void *handle = NULL;
    if (pg_stream_handle_from_object(stream, dev, &handle) < 0)
        return -1;
    Pack pk;
    int rc = -1;
    if (pack_init(&pk, fn, nargs, handle) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (pack_arg(&pk, i, args[i]) < 0)
            goto done;
    for (Py_ssize_t i = 0; i < nargs; i++)
        pk.ptrs[i] = pk.bytes + pk.offsets[i];
    /* NumPy arguments went to the device on the current stream: a kernel on another one waits */
    if (pk.ntemps > 0 && handle != pg_stream_current_handle(dev) &&
        dev->backend->stream_synchronize(dev, pg_stream_current_handle(dev)) < 0)
        goto done;
    if (dev->backend->kernel_launch(dev, &fn->info, &cfg, pk.ptrs, handle) < 0)
        goto done;
    rc = copy_back(&pk);
done:
    pack_free(&pk);
    return rc;
}
