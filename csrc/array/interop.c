/* The interop protocols of pygpu.ndarray:
 *   - __cuda_array_interface__ v3: produced by arrays on a CUDA device, consumed zero-copy by
 *     pg_interop_import (pygpu.asarray) after strict validation;
 *   - DLPack 1.x: __dlpack__ / __dlpack_device__ (versioned and legacy capsules) and
 *     pygpu.from_dlpack, on both backends;
 *   - the buffer protocol for host-accessible memory (CPU arrays; pinned, mapped and managed
 *     CUDA arrays), and __array__ with NumPy 2's copy semantics. */
#include "array/interop.h"
#include "runtime/stream.h"
#include <limits.h>

_Static_assert(sizeof(int64_t) == sizeof(Py_ssize_t), "shapes are handed out as Py_ssize_t arrays");
_Static_assert(sizeof(int64_t) == sizeof(npy_intp), "shapes are handed out as npy_intp arrays");

/* ------------------------------------------------------------------ DLPack ABI (dlpack.h 1.x) */

typedef enum {
    kDLCPU = 1,
    kDLCUDA = 2,
    kDLCUDAHost = 3,
    kDLCUDAManaged = 13,
} DLDeviceType;

typedef enum {
    kDLInt = 0,
    kDLUInt = 1,
    kDLFloat = 2,
    kDLBfloat = 4,
    kDLComplex = 5,
    kDLBool = 6,
} DLDataTypeCode;

typedef struct {
    int32_t device_type; /* DLDeviceType, an int-sized enum in dlpack.h */
    int32_t device_id;
} DLDevice;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL means C-contiguous */
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

static const char CAPSULE_LEGACY[] = "dltensor";
static const char CAPSULE_VERSIONED[] = "dltensor_versioned";
static const char CAPSULE_USED_LEGACY[] = "used_dltensor";
static const char CAPSULE_USED_VERSIONED[] = "used_dltensor_versioned";
static const char OWNER_LEGACY[] = "pygpu.dltensor_owner";
static const char OWNER_VERSIONED[] = "pygpu.dltensor_versioned_owner";

/* ------------------------------------------------------------------ shared helpers */

static int
cuda_required(const char *what)
{
    const char *reason = NULL;
    if (pg_cuda_device_count(&reason) > 0)
        return 0;
    PyErr_Format(PyExc_RuntimeError, "pygpu cannot import %s data: no usable CUDA device (%s)", what,
                 reason ? reason : "no CUDA device");
    return -1;
}

static PgDevice *
cuda_device_by_index(long index)
{
    PyObject *i = PyLong_FromLong(index);
    if (i == NULL)
        return NULL;
    PgDevice *d = pg_device_from_object(i);
    Py_DECREF(i);
    return d;
}

/* The current device when it is a CUDA one, else cuda:0. */
static PgDevice *
current_cuda_device(void)
{
    PgDevice *d = pg_device_current();
    return d->kind == PG_DEVICE_CUDA ? d : cuda_device_by_index(0);
}

/* Makes work queued later on stream `to` wait for the work queued so far on stream `from`
 * (both backend handles of dev), without blocking the host. */
static int
stream_order(PgDevice *dev, void *from, void *to)
{
    if (from == to || dev->kind == PG_DEVICE_CPU)
        return 0;
    const PgBackend *b = dev->backend;
    void *ev = NULL;
    if (b->event_create(dev, &ev) < 0)
        return -1;
    int rc = b->event_record(dev, ev, from);
    if (rc == 0)
        rc = b->stream_wait_event(dev, to, ev);
    b->event_destroy(dev, ev);
    return rc;
}

/* A CUDA array interface / DLPack stream integer as a backend handle: 1 is the legacy default
 * stream (NULL); 2, the per-thread default stream, and real handles pass through. */
static void *
stream_from_int(unsigned long long v)
{
    return v == 1 ? NULL : (void *)(uintptr_t)v;
}

/* ------------------------------------------------------------------ __cuda_array_interface__ */

static PyObject *
typestr_of(int type)
{
    const PgTypeInfo *ti = &pg_type_info[type];
    char order = ti->itemsize == 1 ? '|' : (PY_LITTLE_ENDIAN ? '<' : '>');
    /* NumPy writes complex as 'c' and bool as 'b' */
    return PyUnicode_FromFormat("%c%c%d", order, ti->kind, ti->itemsize);
}

static PyObject *
array_get_cai(PyObject *self, void *closure)
{
    PG_UNUSED(closure);
    PgArray *a = (PgArray *)self;
    if (a->device->kind != PG_DEVICE_CUDA) {
        PyErr_Format(PyExc_AttributeError,
                     "'pygpu.ndarray' object on %S has no attribute '__cuda_array_interface__' (only arrays on a "
                     "CUDA device export it)",
                     (PyObject *)a->device);
        return NULL;
    }
    PyObject *shape = NULL, *typestr = NULL, *data = NULL, *strides = NULL, *stream = NULL, *res = NULL;
    int64_t size = pg_array_size(a);
    void *h = pg_stream_current_handle(a->device);
    if ((shape = pg_shape_tuple(a->ndim, a->shape)) == NULL || (typestr = typestr_of(a->type)) == NULL)
        goto done;
    /* the spec asks for a null pointer for empty arrays */
    data = Py_BuildValue("(NO)", PyLong_FromVoidPtr(size ? a->data : NULL),
                         (a->flags & PG_WRITEABLE) ? Py_False : Py_True);
    if (data == NULL)
        goto done;
    if (a->flags & PG_C_CONTIGUOUS)
        strides = Py_NewRef(Py_None);
    else if ((strides = pg_shape_tuple(a->ndim, a->strides)) == NULL)
        goto done;
    /* the stream the array's work is queued on: 1 names the legacy default stream */
    stream = h ? PyLong_FromVoidPtr(h) : PyLong_FromLong(1);
    if (stream == NULL)
        goto done;
    res = Py_BuildValue("{s:O,s:O,s:O,s:O,s:i,s:O}", "shape", shape, "typestr", typestr, "data", data, "strides",
                        strides, "version", 3, "stream", stream);
done:
    Py_XDECREF(shape);
    Py_XDECREF(typestr);
    Py_XDECREF(data);
    Py_XDECREF(strides);
    Py_XDECREF(stream);
    return res;
}

typedef struct {
    int type;
    int ndim;
    int64_t shape[PG_MAXDIMS];
    int64_t strides[PG_MAXDIMS];
    int has_strides;
    uintptr_t ptr;
    int readonly;
    int has_stream;
    unsigned long long stream;
} CaiInfo;

/* An exact int (bool is not accepted where the spec asks for an integer). */
static int
is_int(PyObject *o)
{
    return PyLong_Check(o) && !PyBool_Check(o);
}

static PyObject *
cai_item(PyObject *dict, const char *key, int required)
{
    PyObject *v = PyDict_GetItemString(dict, key); /* borrowed */
    if (v == NULL && required && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__ is missing the required key '%s'", key);
    return v;
}

static int
cai_int_tuple(PyObject *t, const char *key, int64_t *out, int nmax, int *n)
{
    if (!PyTuple_Check(t)) {
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['%s'] must be a tuple of ints, not %.200s", key,
                     Py_TYPE(t)->tp_name);
        return -1;
    }
    Py_ssize_t len = PyTuple_GET_SIZE(t);
    if (len > nmax) {
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['%s'] has %zd entries; pygpu arrays have at most %d "
                     "dimensions", key, len, nmax);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *v = PyTuple_GET_ITEM(t, i);
        if (!is_int(v)) {
            PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['%s'] must be a tuple of ints, found %.200s", key,
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred())
            return -1;
        if (overflow) {
            PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['%s'] entry %R is out of range", key, v);
            return -1;
        }
        out[i] = x;
    }
    *n = (int)len;
    return 0;
}

/* typestr: byte order, kind, size, e.g. '<f4' or '|b1'. */
static int
cai_typestr(PyObject *ts)
{
    if (!PyUnicode_Check(ts)) {
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['typestr'] must be a str, not %.200s",
                     Py_TYPE(ts)->tp_name);
        return -1;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(ts, &len);
    if (s == NULL)
        return -1;
    size_t n = strlen(s);
    if ((Py_ssize_t)n != len) /* an embedded NUL: '<f4\0junk' is not '<f4' */
        n = 0;
    char *end = NULL;
    long size = n >= 3 && strchr("<>|=", s[0]) && s[0] && strchr("biufc", s[1]) && s[1] && s[2] >= '0' && s[2] <= '9'
                    ? strtol(s + 2, &end, 10)
                    : -1;
    if (size <= 0 || *end != '\0') {
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['typestr'] %R is not a valid typestr (expected "
                     "byte order, kind and size, such as '<f4')", ts);
        return -1;
    }
    int big = s[0] == '>' || (s[0] == '=' && !PY_LITTLE_ENDIAN);
    if (size > 1 && big != !PY_LITTLE_ENDIAN) {
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__ typestr %R: non-native byte order is not supported",
                     ts);
        return -1;
    }
    for (int t = 0; t < PG_NTYPES; t++)
        if (pg_type_info[t].kind == s[1] && pg_type_info[t].itemsize == size)
            return t;
    PyErr_Format(PyExc_TypeError, "__cuda_array_interface__ typestr %R is not a dtype pygpu supports", ts);
    return -1;
}

/* Validates the whole dict before anything touches a device. */
static int
cai_parse(PyObject *cai, CaiInfo *info)
{
    if (!PyDict_Check(cai)) {
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__ must be a dict, not %.200s", Py_TYPE(cai)->tp_name);
        return -1;
    }
    PyObject *v = cai_item(cai, "version", 1);
    if (v == NULL)
        return -1;
    if (!is_int(v)) {
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['version'] must be an int, not %.200s",
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    long version = PyLong_AsLong(v);
    if (version == -1 && PyErr_Occurred())
        return -1;
    if (version < 0 || version > 3) {
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__ version %ld is not supported (0 to 3 are)", version);
        return -1;
    }
    /* shape */
    if ((v = cai_item(cai, "shape", 1)) == NULL || cai_int_tuple(v, "shape", info->shape, PG_MAXDIMS, &info->ndim) < 0)
        return -1;
    for (int i = 0; i < info->ndim; i++) {
        if (info->shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__['shape']: negative dimensions are not allowed");
            return -1;
        }
    }
    int64_t size = pg_shape_size(info->ndim, info->shape);
    if (size < 0)
        return -1;
    /* typestr */
    if ((v = cai_item(cai, "typestr", 1)) == NULL || (info->type = cai_typestr(v)) < 0)
        return -1;
    if (size > INT64_MAX / pg_type_info[info->type].itemsize) {
        PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__: the array is too large");
        return -1;
    }
    /* data: (pointer, read_only) */
    if ((v = cai_item(cai, "data", 1)) == NULL)
        return -1;
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2 || !is_int(PyTuple_GET_ITEM(v, 0)) ||
        !PyBool_Check(PyTuple_GET_ITEM(v, 1))) {
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['data'] must be a tuple (pointer: int, read_only: "
                     "bool), not %R", v);
        return -1;
    }
    unsigned long long ptr = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(v, 0));
    if (ptr == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['data'] pointer %R is not a valid address",
                     PyTuple_GET_ITEM(v, 0));
        return -1;
    }
    if (ptr > UINTPTR_MAX) {
        PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__['data'] pointer is out of range");
        return -1;
    }
    if (ptr == 0 && size > 0) {
        PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__['data'] is a null pointer for a non-empty array");
        return -1;
    }
    info->ptr = (uintptr_t)ptr;
    info->readonly = PyTuple_GET_ITEM(v, 1) == Py_True;
    /* strides: None or absent for C-contiguous data */
    info->has_strides = 0;
    v = cai_item(cai, "strides", 0);
    if (v == NULL && PyErr_Occurred())
        return -1;
    if (v != NULL && v != Py_None) {
        int n;
        if (cai_int_tuple(v, "strides", info->strides, PG_MAXDIMS, &n) < 0)
            return -1;
        if (n != info->ndim) {
            PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['strides'] has %d entries but the shape has %d",
                         n, info->ndim);
            return -1;
        }
        info->has_strides = 1;
    }
    /* mask: only None */
    v = cai_item(cai, "mask", 0);
    if (v == NULL && PyErr_Occurred())
        return -1;
    if (v != NULL && v != Py_None) {
        PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__ with a 'mask' is not supported by pygpu");
        return -1;
    }
    /* stream: None/absent (no synchronisation) or a stream handle; 0 is disallowed by the spec */
    info->has_stream = 0;
    v = cai_item(cai, "stream", 0);
    if (v == NULL && PyErr_Occurred())
        return -1;
    if (v != NULL && v != Py_None) {
        if (!is_int(v)) {
            PyErr_Format(PyExc_TypeError, "__cuda_array_interface__['stream'] must be an int or None, not %.200s",
                         Py_TYPE(v)->tp_name);
            return -1;
        }
        unsigned long long s = PyLong_AsUnsignedLongLong(v);
        if (s == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "__cuda_array_interface__['stream'] %R is not a valid stream handle", v);
            return -1;
        }
        if (s == 0) {
            PyErr_SetString(PyExc_ValueError, "__cuda_array_interface__['stream'] must not be 0 (the spec disallows "
                            "it: use 1 for the legacy default stream)");
            return -1;
        }
        info->has_stream = 1;
        info->stream = s;
    }
    return 0;
}

/* Imported memory must be aligned for its element type: a misaligned typed load on the GPU is
 * CUDA_ERROR_MISALIGNED_ADDRESS, a sticky error that would kill the context shared with the
 * producer (CuPy, PyTorch). Refused on every device, so code behaves the same everywhere. */
static int
check_alignment(const char *what, uintptr_t ptr, int type, int ndim, const int64_t *shape, const int64_t *strides)
{
    int64_t align = pg_type_info[type].itemsize;
    if (PG_IS_COMPLEX(type))
        align /= 2; /* two floating parts */
    if (pg_shape_size(ndim, shape) == 0 || align == 1)
        return 0;
    int bad = ptr % (uint64_t)align != 0;
    for (int i = 0; strides != NULL && i < ndim && !bad; i++)
        bad = shape[i] > 1 && strides[i] % align != 0;
    if (bad) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the data (pointer %p%s) is not aligned to the %d bytes of %s; pygpu's kernels need "
                     "aligned elements: make an aligned copy with the producer (e.g. .copy()) first",
                     what, (void *)ptr, strides ? " or a stride" : "", (int)align, pg_type_info[type].name);
        return -1;
    }
    return 0;
}

/* The bytes an imported array spans (its elements, and from its first to its last one by the
 * strides) must fit an address space: a size or stride product past int64 would wrap into a small
 * or negative extent that every later bounds computation trusts. */
static int
check_extent(const char *what, int type, int ndim, const int64_t *shape, const int64_t *strides)
{
    int64_t n = pg_shape_size(ndim, shape), isz = pg_type_info[type].itemsize;
    if (n < 0)
        return -1;
    int bad = n > INT64_MAX / isz;
    uint64_t span = (uint64_t)isz;
    for (int i = 0; strides != NULL && i < ndim && !bad && n > 0; i++) {
        uint64_t step = strides[i] < 0 ? 0 - (uint64_t)strides[i] : (uint64_t)strides[i];
        uint64_t reach = (uint64_t)(shape[i] - 1);
        bad = reach != 0 && (step > (uint64_t)INT64_MAX / reach || span > (uint64_t)INT64_MAX - step * reach);
        if (!bad)
            span += step * reach;
    }
    /* 2**56 bytes: more than the address space of any machine (57-bit virtual addresses) */
    if (bad || n * isz > ((int64_t)1 << 56) || span > ((uint64_t)1 << 56)) {
        PyErr_Format(PyExc_ValueError, "%s: an array of this shape and these strides spans more bytes than an "
                     "address space holds", what);
        return -1;
    }
    return 0;
}

static PgArray *
cai_import(PyObject *obj, PyObject *cai)
{
    CaiInfo info;
    if (cai_parse(cai, &info) < 0 ||
        check_extent("__cuda_array_interface__", info.type, info.ndim, info.shape,
                     info.has_strides ? info.strides : NULL) < 0 ||
        check_alignment("__cuda_array_interface__", info.ptr, info.type, info.ndim, info.shape,
                        info.has_strides ? info.strides : NULL) < 0 ||
        cuda_required("__cuda_array_interface__") < 0)
        return NULL;
    PgDevice *dev;
    PgMemKind kind = PG_MEM_DEVICE;
    if (info.ptr) {
        int ordinal;
        PgDevice *asking = current_cuda_device();
        if (asking == NULL || pg_cuda_pointer_info(asking, (const void *)info.ptr, &ordinal, &kind) < 0)
            return NULL;
        dev = cuda_device_by_index(ordinal);
    } else {
        dev = current_cuda_device();
    }
    if (dev == NULL || PG_DEVICE_CHECK(dev) < 0)
        return NULL;
    /* the producer's pending work on its stream comes before ours on the current stream */
    if (info.has_stream &&
        stream_order(dev, stream_from_int(info.stream), pg_stream_current_handle(dev)) < 0)
        return NULL;
    return pg_array_wrap(dev, kind, (char *)info.ptr, info.type, info.ndim, info.shape,
                         info.has_strides ? info.strides : NULL, obj, !info.readonly);
}

/* ------------------------------------------------------------------ DLPack export */

static void
dlpack_device_of(PgArray *a, int32_t *type, int32_t *id)
{
    if (a->device->kind == PG_DEVICE_CPU) {
        *type = kDLCPU;
        *id = 0;
        return;
    }
    switch (a->mem_kind) {
    case PG_MEM_PINNED:
    case PG_MEM_MAPPED:
        *type = kDLCUDAHost;
        *id = 0;
        return;
    case PG_MEM_MANAGED:
        *type = kDLCUDAManaged;
        *id = a->device->index;
        return;
    default:
        *type = kDLCUDA;
        *id = a->device->index;
        return;
    }
}

static DLDataType
dlpack_dtype_of(int type)
{
    DLDataType d;
    const PgTypeInfo *ti = &pg_type_info[type];
    d.bits = (uint8_t)(ti->itemsize * 8);
    d.lanes = 1;
    switch (ti->kind) {
    case 'b': d.code = kDLBool; break;
    case 'i': d.code = kDLInt; break;
    case 'u': d.code = kDLUInt; break;
    case 'f': d.code = kDLFloat; break;
    default: d.code = kDLComplex; break;
    }
    return d;
}

/* One allocation per export: the managed tensor, its shape and strides, and the array. */
typedef struct {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } t;
    PyObject *array;
    int64_t dims[2 * PG_MAXDIMS];
} ExportCtx;

static void
export_release(ExportCtx *ctx)
{
    /* a consumer may call the deleter from any thread, or after the interpreter has gone */
    if (Py_IsInitialized()) {
        PyGILState_STATE g = PyGILState_Ensure();
        Py_XDECREF(ctx->array);
        PyGILState_Release(g);
    }
    PyMem_RawFree(ctx);
}

static void
deleter_legacy(DLManagedTensor *t)
{
    export_release((ExportCtx *)t->manager_ctx);
}

static void
deleter_versioned(DLManagedTensorVersioned *t)
{
    export_release((ExportCtx *)t->manager_ctx);
}

/* Destructor of a capsule we made: frees the tensor unless a consumer took it (renamed it). */
static void
export_capsule_destructor(PyObject *cap)
{
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    if (PyCapsule_IsValid(cap, CAPSULE_VERSIONED)) {
        DLManagedTensorVersioned *t = PyCapsule_GetPointer(cap, CAPSULE_VERSIONED);
        if (t && t->deleter)
            t->deleter(t);
    } else if (PyCapsule_IsValid(cap, CAPSULE_LEGACY)) {
        DLManagedTensor *t = PyCapsule_GetPointer(cap, CAPSULE_LEGACY);
        if (t && t->deleter)
            t->deleter(t);
    }
    PyErr_Clear();
    PyErr_Restore(et, ev, tb);
}

static PyObject *
dlpack_capsule(PgArray *a, int versioned, int copied)
{
    int64_t isz = PG_ITEMSIZE(a);
    for (int i = 0; i < a->ndim; i++) {
        if (a->strides[i] % isz) {
            PyErr_SetString(PyExc_BufferError, "DLPack cannot describe strides that are not a multiple of the "
                            "item size; copy the array first");
            return NULL;
        }
    }
    ExportCtx *ctx = PyMem_RawCalloc(1, sizeof(ExportCtx));
    if (ctx == NULL)
        return PyErr_NoMemory();
    DLTensor *t = versioned ? &ctx->t.versioned.dl_tensor : &ctx->t.legacy.dl_tensor;
    t->data = a->data;
    dlpack_device_of(a, &t->device.device_type, &t->device.device_id);
    t->ndim = a->ndim;
    t->dtype = dlpack_dtype_of(a->type);
    t->shape = ctx->dims;
    t->strides = ctx->dims + PG_MAXDIMS;
    t->byte_offset = 0;
    for (int i = 0; i < a->ndim; i++) {
        t->shape[i] = a->shape[i];
        t->strides[i] = a->strides[i] / isz;
    }
    ctx->array = Py_NewRef((PyObject *)a);
    PyObject *cap;
    if (versioned) {
        ctx->t.versioned.version.major = DLPACK_MAJOR_VERSION;
        ctx->t.versioned.version.minor = DLPACK_MINOR_VERSION;
        ctx->t.versioned.manager_ctx = ctx;
        ctx->t.versioned.deleter = deleter_versioned;
        ctx->t.versioned.flags = ((a->flags & PG_WRITEABLE) ? 0 : DLPACK_FLAG_BITMASK_READ_ONLY) |
                                 (copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
        cap = PyCapsule_New(&ctx->t.versioned, CAPSULE_VERSIONED, export_capsule_destructor);
    } else {
        ctx->t.legacy.manager_ctx = ctx;
        ctx->t.legacy.deleter = deleter_legacy;
        cap = PyCapsule_New(&ctx->t.legacy, CAPSULE_LEGACY, export_capsule_destructor);
    }
    if (cap == NULL) {
        Py_DECREF(ctx->array);
        PyMem_RawFree(ctx);
    }
    return cap;
}

/* Parses a (device_type, device_id) pair. */
static int
parse_dl_device(PyObject *obj, int32_t *type, int32_t *id)
{
    long t, i;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
        PyErr_Format(PyExc_TypeError, "a DLPack device must be a (device_type, device_id) tuple, not %R", obj);
        return -1;
    }
    t = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
    if (t == -1 && PyErr_Occurred())
        return -1;
    i = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
    if (i == -1 && PyErr_Occurred())
        return -1;
    if (t < INT32_MIN || t > INT32_MAX || i < INT32_MIN || i > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "invalid DLPack device %R", obj);
        return -1;
    }
    *type = (int32_t)t;
    *id = (int32_t)i;
    return 0;
}

static PyObject *
array_dlpack(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copyobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$OOOO:__dlpack__", kwlist, &stream, &max_version, &dl_device,
                                     &copyobj))
        return NULL;
    PgArray *a = (PgArray *)self;
    PgArray *src = NULL;
    PyObject *res = NULL;
    int versioned = 0, copy, copied = 0;
    if (pg_parse_copy(copyobj, &copy) < 0)
        return NULL;
    if (max_version != Py_None) {
        if (!PyTuple_Check(max_version) || PyTuple_GET_SIZE(max_version) != 2) {
            PyErr_Format(PyExc_TypeError, "max_version must be a (major, minor) tuple or None, not %R", max_version);
            return NULL;
        }
        long major = PyLong_AsLong(PyTuple_GET_ITEM(max_version, 0));
        if (major == -1 && PyErr_Occurred())
            return NULL;
        versioned = major >= 1;
    }
    int32_t my_type, my_id;
    dlpack_device_of(a, &my_type, &my_id);
    int to_cpu = 0;
    if (dl_device != Py_None) {
        int32_t want_type, want_id;
        if (parse_dl_device(dl_device, &want_type, &want_id) < 0)
            return NULL;
        if (want_type != my_type || want_id != my_id) {
            if (want_type == kDLCPU && copy != 0) {
                to_cpu = 1;
            } else {
                PyErr_Format(PyExc_BufferError, "cannot export a pygpu array on %S to DLPack device %R%s",
                             (PyObject *)a->device, dl_device,
                             copy == 0 ? " without a copy (copy=False)" : "");
                return NULL;
            }
        }
    }
    /* the stream the consumer will use (CUDA only; -1 asks for no synchronisation) */
    if (a->device->kind == PG_DEVICE_CPU) {
        if (stream != Py_None) {
            PyErr_SetString(PyExc_ValueError, "__dlpack__: stream must be None for an array on the CPU");
            return NULL;
        }
    } else if (!to_cpu) {
        unsigned long long s = 1; /* None: the legacy default stream */
        if (stream != Py_None) {
            if (!is_int(stream)) {
                PyErr_Format(PyExc_TypeError, "__dlpack__: stream must be an int or None, not %.200s",
                             Py_TYPE(stream)->tp_name);
                return NULL;
            }
            long long v = PyLong_AsLongLong(stream);
            if (v == -1 && PyErr_Occurred())
                return NULL;
            if (v == 0 || v < -1) {
                PyErr_Format(PyExc_ValueError, "__dlpack__: stream %lld is not valid for CUDA (use 1 for the legacy "
                             "default stream, 2 for the per-thread one, -1 for no synchronisation)", v);
                return NULL;
            }
            s = v == -1 ? 0 : (unsigned long long)v;
        }
        if (s && stream_order(a->device, pg_stream_current_handle(a->device), stream_from_int(s)) < 0)
            return NULL;
    }
    if (to_cpu) {
        src = pg_array_copy(a, -1, 'K', pg_device_cpu());
        /* the copy to pageable host memory is complete once the stream's work is */
        if (src == NULL || a->device->backend->stream_synchronize(a->device, pg_stream_current_handle(a->device)) < 0)
            goto done;
        copied = 1;
    } else if (copy == 1) {
        if ((src = pg_array_copy(a, -1, 'K', NULL)) == NULL)
            goto done;
        copied = 1;
    } else {
        src = (PgArray *)Py_NewRef(self);
    }
    if (!versioned && !(src->flags & PG_WRITEABLE)) {
        PyErr_SetString(PyExc_BufferError, "Cannot export readonly array since signalling readonly is unsupported "
                        "by DLPack (supported by newer DLPack version).");
        goto done;
    }
    res = dlpack_capsule(src, versioned, copied);
done:
    Py_XDECREF(src);
    return res;
}

static PyObject *
array_dlpack_device(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    int32_t type, id;
    dlpack_device_of((PgArray *)self, &type, &id);
    return Py_BuildValue("(ii)", (int)type, (int)id);
}

/* ------------------------------------------------------------------ DLPack import */

static void
owner_destructor(PyObject *cap)
{
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    if (PyCapsule_IsValid(cap, OWNER_VERSIONED)) {
        DLManagedTensorVersioned *t = PyCapsule_GetPointer(cap, OWNER_VERSIONED);
        if (t && t->deleter)
            t->deleter(t);
    } else if (PyCapsule_IsValid(cap, OWNER_LEGACY)) {
        DLManagedTensor *t = PyCapsule_GetPointer(cap, OWNER_LEGACY);
        if (t && t->deleter)
            t->deleter(t);
    }
    PyErr_Clear();
    PyErr_Restore(et, ev, tb);
}

static int
type_from_dlpack(DLDataType d)
{
    if (d.lanes != 1)
        return -1;
    for (int t = 0; t < PG_NTYPES; t++) {
        DLDataType m = dlpack_dtype_of(t);
        if (m.code == d.code && m.bits == d.bits)
            return t;
    }
    return -1;
}

/* The array over a DLPack capsule's tensor; the capsule is consumed (renamed) on success. */
static PgArray *
import_capsule(PyObject *cap)
{
    int versioned;
    if (PyCapsule_IsValid(cap, CAPSULE_VERSIONED))
        versioned = 1;
    else if (PyCapsule_IsValid(cap, CAPSULE_LEGACY))
        versioned = 0;
    else {
        PyErr_SetString(PyExc_ValueError, "expected a DLPack capsule named 'dltensor' or 'dltensor_versioned' (a "
                        "capsule can be consumed only once)");
        return NULL;
    }
    void *mt = PyCapsule_GetPointer(cap, versioned ? CAPSULE_VERSIONED : CAPSULE_LEGACY);
    if (mt == NULL)
        return NULL;
    DLTensor *t;
    int writeable = 1;
    if (versioned) {
        DLManagedTensorVersioned *v = mt;
        if (v->version.major != DLPACK_MAJOR_VERSION) {
            PyErr_Format(PyExc_BufferError, "unsupported DLPack version %u.%u (pygpu reads 1.x)",
                         (unsigned)v->version.major, (unsigned)v->version.minor);
            return NULL;
        }
        t = &v->dl_tensor;
        writeable = !(v->flags & DLPACK_FLAG_BITMASK_READ_ONLY);
    } else {
        t = &((DLManagedTensor *)mt)->dl_tensor;
    }
    int type = type_from_dlpack(t->dtype);
    if (type < 0) {
        PyErr_Format(PyExc_BufferError, "DLPack data type (code %d, bits %d, lanes %d) is not supported by pygpu",
                     (int)t->dtype.code, (int)t->dtype.bits, (int)t->dtype.lanes);
        return NULL;
    }
    if (t->ndim < 0 || t->ndim > PG_MAXDIMS || (t->ndim > 0 && t->shape == NULL)) {
        PyErr_Format(PyExc_BufferError, "DLPack tensor with %d dimensions is not supported", (int)t->ndim);
        return NULL;
    }
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS], isz = pg_type_info[type].itemsize;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] < 0) {
            PyErr_SetString(PyExc_BufferError, "DLPack tensor has a negative dimension");
            return NULL;
        }
        shape[i] = t->shape[i];
    }
    if (pg_shape_size(t->ndim, shape) < 0)
        return NULL;
    if (t->strides) {
        for (int i = 0; i < t->ndim; i++) {
            if (t->strides[i] > INT64_MAX / isz || t->strides[i] < INT64_MIN / isz) {
                PyErr_SetString(PyExc_BufferError, "DLPack tensor strides are out of range");
                return NULL;
            }
            strides[i] = t->strides[i] * isz;
        }
    } else {
        pg_fill_strides(t->ndim, shape, isz, 'C', strides);
    }
    if (check_extent("DLPack", type, t->ndim, shape, strides) < 0 ||
        check_alignment("DLPack", (uintptr_t)t->data + t->byte_offset, type, t->ndim, shape, strides) < 0)
        return NULL;
    if (t->data == NULL && pg_shape_size(t->ndim, shape) > 0) {
        PyErr_SetString(PyExc_BufferError, "DLPack tensor's data is a null pointer for a non-empty array");
        return NULL;
    }
    PgDevice *dev;
    PgMemKind kind = PG_MEM_DEVICE;
    switch (t->device.device_type) {
    case kDLCPU:
        dev = pg_device_cpu();
        break;
    case kDLCUDA:
    case kDLCUDAManaged:
        if (cuda_required("DLPack") < 0)
            return NULL;
        dev = cuda_device_by_index(t->device.device_id);
        kind = t->device.device_type == kDLCUDA ? PG_MEM_DEVICE : PG_MEM_MANAGED;
        if (dev != NULL && t->data != NULL) {
            /* the driver must know the memory, as the CUDA array interface's is checked: a host
             * pointer called CUDA memory would fault the first kernel and the shared context */
            int ordinal;
            PgMemKind found;
            if (pg_cuda_pointer_info(dev, t->data, &ordinal, &found) < 0)
                return NULL;
        }
        break;
    case kDLCUDAHost: {
        /* page-locked host memory: a CUDA array when CUDA is usable, else plain host memory */
        const char *reason;
        if (pg_cuda_device_count(&reason) > 0) {
            dev = current_cuda_device();
            kind = PG_MEM_PINNED;
        } else {
            dev = pg_device_cpu();
        }
        break;
    }
    default:
        PyErr_Format(PyExc_BufferError, "DLPack device type %d is not supported by pygpu (CPU, CUDA, CUDA host and "
                     "CUDA managed memory are)", (int)t->device.device_type);
        return NULL;
    }
    if (dev == NULL)
        return NULL;
    /* the owner calls the producer's deleter when the last array over the memory goes */
    PyObject *owner = PyCapsule_New(mt, versioned ? OWNER_VERSIONED : OWNER_LEGACY, owner_destructor);
    if (owner == NULL)
        return NULL;
    if (PyCapsule_SetName(cap, versioned ? CAPSULE_USED_VERSIONED : CAPSULE_USED_LEGACY) < 0) {
        /* the input capsule still owns the tensor: this owner must not call the deleter */
        PyCapsule_SetName(owner, "pygpu.dltensor_released");
        Py_DECREF(owner);
        return NULL;
    }
    PgArray *a = pg_array_wrap(dev, kind, (char *)t->data + t->byte_offset, type, t->ndim, shape, strides, owner,
                               writeable);
    Py_DECREF(owner);
    return a;
}

/* Looks up an attribute, 0 (no exception) when absent. */
static int
lookup_attr(PyObject *obj, const char *name, PyObject **out)
{
    *out = PyObject_GetAttrString(obj, name);
    if (*out)
        return 1;
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        return 0;
    }
    return -1;
}

/* Imports an object with __dlpack__: asks for a versioned capsule, on the consumer's stream. */
static PgArray *
dlpack_import_object(PyObject *obj, PyObject *dlpack)
{
    PyObject *kwargs = NULL, *cap = NULL, *devfn = NULL, *devtuple = NULL, *tmp = NULL;
    PgArray *res = NULL;
    int32_t dtype = kDLCPU, did = 0;
    int r = lookup_attr(obj, "__dlpack_device__", &devfn);
    if (r < 0)
        return NULL;
    if (r > 0) {
        devtuple = PyObject_CallNoArgs(devfn);
        if (devtuple == NULL || parse_dl_device(devtuple, &dtype, &did) < 0)
            goto done;
    }
    if ((kwargs = PyDict_New()) == NULL)
        goto done;
    if (dtype == kDLCUDA || dtype == kDLCUDAManaged) {
        if (cuda_required("DLPack") < 0)
            goto done;
        PgDevice *dev = cuda_device_by_index(did);
        if (dev == NULL)
            goto done;
        /* the producer orders its work before our current stream (1: the legacy default) */
        void *h = pg_stream_current_handle(dev);
        tmp = h ? PyLong_FromVoidPtr(h) : PyLong_FromLong(1);
        if (tmp == NULL || PyDict_SetItemString(kwargs, "stream", tmp) < 0)
            goto done;
        Py_CLEAR(tmp);
    }
    if ((tmp = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)) == NULL ||
        PyDict_SetItemString(kwargs, "max_version", tmp) < 0)
        goto done;
    PyObject *noargs = PyTuple_New(0);
    if (noargs == NULL)
        goto done;
    cap = PyObject_Call(dlpack, noargs, kwargs);
    if (cap == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        /* a producer older than DLPack 1.0 does not take max_version */
        PyErr_Clear();
        if (PyDict_DelItemString(kwargs, "max_version") == 0)
            cap = PyObject_Call(dlpack, noargs, kwargs);
    }
    Py_DECREF(noargs);
    if (cap == NULL)
        goto done;
    if (!PyCapsule_CheckExact(cap)) {
        PyErr_Format(PyExc_TypeError, "__dlpack__() returned %.200s, not a PyCapsule", Py_TYPE(cap)->tp_name);
        goto done;
    }
    res = import_capsule(cap);
done:
    Py_XDECREF(kwargs);
    Py_XDECREF(cap);
    Py_XDECREF(devfn);
    Py_XDECREF(devtuple);
    Py_XDECREF(tmp);
    return res;
}

int
pg_interop_import(PyObject *obj, PgArray **out)
{
    /* the common array-likes offer neither protocol: skip the attribute lookups */
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp == &PyList_Type || tp == &PyTuple_Type || tp == &PyLong_Type || tp == &PyFloat_Type ||
        tp == &PyComplex_Type || tp == &PyBool_Type || obj == Py_None || PyArray_IsScalar(obj, Generic))
        return 0;
    PyObject *attr;
    int r = lookup_attr(obj, "__cuda_array_interface__", &attr);
    if (r < 0)
        return -1;
    if (r > 0) {
        *out = cai_import(obj, attr);
        Py_DECREF(attr);
        return *out ? 1 : -1;
    }
    if ((r = lookup_attr(obj, "__dlpack__", &attr)) <= 0)
        return r;
    *out = dlpack_import_object(obj, attr);
    Py_DECREF(attr);
    return *out ? 1 : -1;
}

/* pygpu.from_dlpack(x, *, device=None, copy=None) */
static PyObject *
py_from_dlpack(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"x", "device", "copy", NULL};
    PyObject *x, *devobj = Py_None, *copyobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OO:from_dlpack", kwlist, &x, &devobj, &copyobj))
        return NULL;
    int copy;
    if (pg_parse_copy(copyobj, &copy) < 0)
        return NULL;
    PgDevice *dev = NULL;
    if (devobj != Py_None && (dev = pg_device_from_object(devobj)) == NULL)
        return NULL;
    PgArray *a;
    if (PyCapsule_CheckExact(x)) {
        a = import_capsule(x); /* the pre-2021 form: a capsule itself */
    } else {
        PyObject *dlpack;
        int r = lookup_attr(x, "__dlpack__", &dlpack);
        if (r < 0)
            return NULL;
        if (r == 0) {
            PyErr_Format(PyExc_TypeError, "from_dlpack: %.200s object does not support the DLPack protocol (it has "
                         "no __dlpack__ method)", Py_TYPE(x)->tp_name);
            return NULL;
        }
        a = dlpack_import_object(x, dlpack);
        Py_DECREF(dlpack);
    }
    if (a == NULL)
        return NULL;
    /* device= and copy= as pygpu.asarray treats them */
    PgArray *r = pg_asarray((PyObject *)a, -1, dev, copy);
    Py_DECREF(a);
    return (PyObject *)r;
}

/* ------------------------------------------------------------------ buffer protocol */

static const char *
buffer_format(int type)
{
    switch (type) {
    case PG_BOOL: return "?";
    case PG_INT8: return "b";
    case PG_INT16: return "h";
    case PG_INT32: return "i";
#if LONG_MAX == INT64_MAX
    case PG_INT64: return "l"; /* as NumPy writes int64 where long is 64 bits */
    case PG_UINT64: return "L";
#else
    case PG_INT64: return "q";
    case PG_UINT64: return "Q";
#endif
    case PG_UINT8: return "B";
    case PG_UINT16: return "H";
    case PG_UINT32: return "I";
    case PG_FLOAT16: return "e";
    case PG_FLOAT32: return "f";
    case PG_FLOAT64: return "d";
    case PG_COMPLEX64: return "Zf";
    default: return "Zd";
    }
}

/* Waits for queued work before the host touches host-accessible CUDA memory. */
static int
host_sync(PgArray *a)
{
    if (a->device->kind == PG_DEVICE_CPU)
        return 0;
    if (PG_DEVICE_CHECK(a->device) < 0)
        return -1;
    return a->device->backend->synchronize(a->device);
}

static int
device_memory_error(PgArray *a, PyObject *exc)
{
    PyErr_Format(exc, "pygpu array on %S is in device memory; copy it to the host with .get() or pygpu.asnumpy()",
                 (PyObject *)a->device);
    return -1;
}

static int
array_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    PgArray *a = (PgArray *)self;
    view->obj = NULL;
    if (!PG_HOST_ACCESSIBLE(a))
        return device_memory_error(a, PyExc_BufferError);
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && !(a->flags & PG_WRITEABLE)) {
        PyErr_SetString(PyExc_BufferError, "buffer source array is read-only");
        return -1;
    }
    int c = (a->flags & PG_C_CONTIGUOUS) != 0, f = (a->flags & PG_F_CONTIGUOUS) != 0;
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) {
        PyErr_SetString(PyExc_BufferError, "pygpu array is not C-contiguous");
        return -1;
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f) {
        PyErr_SetString(PyExc_BufferError, "pygpu array is not Fortran contiguous");
        return -1;
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !f) {
        PyErr_SetString(PyExc_BufferError, "pygpu array is not contiguous");
        return -1;
    }
    /* without strides the consumer assumes C order */
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c) {
        PyErr_SetString(PyExc_BufferError, "pygpu array is not C-contiguous; request strides (PyBUF_STRIDES)");
        return -1;
    }
    if (host_sync(a) < 0)
        return -1;
    view->buf = a->data;
    view->obj = Py_NewRef(self);
    view->len = (Py_ssize_t)(pg_array_size(a) * PG_ITEMSIZE(a));
    view->readonly = !(a->flags & PG_WRITEABLE);
    view->itemsize = (Py_ssize_t)PG_ITEMSIZE(a);
    view->format = (flags & PyBUF_FORMAT) ? (char *)buffer_format(a->type) : NULL;
    view->ndim = a->ndim;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? (Py_ssize_t *)a->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? (Py_ssize_t *)a->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs array_as_buffer = {
    .bf_getbuffer = array_getbuffer,
    .bf_releasebuffer = NULL,
};

/* ------------------------------------------------------------------ __array__ */

/* A NumPy array over a's host-accessible memory, keeping a alive. */
static PyObject *
numpy_view(PgArray *a)
{
    if (host_sync(a) < 0)
        return NULL;
    PyArray_Descr *d = pg_type_descr(a->type);
    Py_INCREF(d);
    PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, d, a->ndim, (npy_intp *)a->shape, (npy_intp *)a->strides,
                                         a->data, (a->flags & PG_WRITEABLE) ? NPY_ARRAY_WRITEABLE : 0, NULL);
    if (arr == NULL)
        return NULL;
    if (PyArray_SetBaseObject((PyArrayObject *)arr, Py_NewRef((PyObject *)a)) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

static PyObject *
array_array(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtypeobj = Py_None, *copyobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$O:__array__", kwlist, &dtypeobj, &copyobj))
        return NULL;
    PgArray *a = (PgArray *)self;
    int copy;
    PyArray_Descr *want = NULL;
    PyObject *host = NULL, *res = NULL;
    if (pg_parse_copy(copyobj, &copy) < 0)
        return NULL;
    if (dtypeobj != Py_None && !PyArray_DescrConverter2(dtypeobj, &want))
        return NULL;
    int same_type = want == NULL || PyArray_EquivTypes(want, pg_type_descr(a->type));
    if (PG_HOST_ACCESSIBLE(a) && copy != 1 && same_type) {
        res = numpy_view(a);
        goto done;
    }
    if (copy == 0) {
        if (!PG_HOST_ACCESSIBLE(a))
            PyErr_Format(PyExc_ValueError, "Unable to avoid copy while creating a NumPy array as requested: the "
                         "pygpu array on %S is in device memory (copy it with .get() or pygpu.asnumpy())",
                         (PyObject *)a->device);
        else
            PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an array as requested.");
        goto done;
    }
    if ((host = pg_array_to_numpy(a)) == NULL)
        goto done;
    if (same_type) {
        res = Py_NewRef(host);
    } else {
        Py_INCREF(want);
        res = PyArray_CastToType((PyArrayObject *)host, want, 0);
    }
done:
    Py_XDECREF(want);
    Py_XDECREF(host);
    return res;
}

/* ------------------------------------------------------------------ tables */

PyMethodDef pg_array_methods_interop[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))array_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): a DLPack capsule sharing the "
     "array's memory ('dltensor_versioned' when max_version >= (1, 0), else 'dltensor')."},
    {"__dlpack_device__", array_dlpack_device, METH_NOARGS,
     "__dlpack_device__() -> (device_type, device_id): (1, 0) on the CPU, (2, n) for CUDA device memory, (3, 0) "
     "for pinned host memory, (13, n) for managed memory."},
    {"__array__", (PyCFunction)(void (*)(void))array_array, METH_VARARGS | METH_KEYWORDS,
     "__array__(dtype=None, copy=None): a NumPy array; shares memory with host-accessible arrays unless a copy is "
     "needed or asked for; copy=False raises ValueError when a copy is needed."},
    {NULL, NULL, 0, NULL},
};

PyGetSetDef pg_array_getset_interop[] = {
    {"__cuda_array_interface__", array_get_cai, NULL,
     "The CUDA array interface (version 3) of an array on a CUDA device; CPU arrays do not have it.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyMethodDef pg_interop_module_methods[] = {
    {"from_dlpack", (PyCFunction)(void (*)(void))py_from_dlpack, METH_VARARGS | METH_KEYWORDS,
     "from_dlpack($module, x, *, device=None, copy=None)\n--\n\na pygpu array sharing the memory of an object that implements "
     "__dlpack__ (NumPy, CuPy, PyTorch, JAX, ...), copied only for another device or copy=True."},
    {NULL, NULL, 0, NULL},
};

void
pg_interop_setup_type(PyTypeObject *t)
{
    t->tp_as_buffer = &array_as_buffer;
}
