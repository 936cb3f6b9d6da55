/* pygpu.ndarray: allocation, views, flags, attributes, and assignment between arrays (the copy
 * kernels, across layouts, dtypes and devices). Indexing and shape methods live in views.c and
 * indexing.c, the interop protocols in interop.c, creation functions in creation.c. */
#include "array/array.h"
#include "runtime/kernel_table.h"
#include "runtime/stream.h"

/* ------------------------------------------------------------------ construction */

static PgArray *
array_alloc(int ndim)
{
    PgArray *a = PyObject_Malloc(sizeof(PgArray) + 2 * (size_t)ndim * sizeof(int64_t));
    if (a == NULL)
        return (PgArray *)PyErr_NoMemory();
    PyObject_InitVar((PyVarObject *)a, &PgArray_Type, ndim);
    a->ndim = ndim;
    a->shape = a->dims;
    a->strides = a->dims + ndim;
    a->block = NULL;
    a->base = NULL;
    a->weakreflist = NULL;
    return a;
}

int
pg_array_bytes_overlap(const PgArray *a, const PgArray *b)
{
    if (a->device != b->device)
        return 0;
    char *lo[2], *hi[2];
    const PgArray *ab[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        lo[k] = ab[k]->data;
        hi[k] = ab[k]->data + PG_ITEMSIZE(ab[k]);
        for (int i = 0; i < ab[k]->ndim; i++) {
            int64_t ext = (ab[k]->shape[i] - 1) * ab[k]->strides[i];
            if (ab[k]->shape[i] == 0)
                return 0;
            if (ext < 0)
                lo[k] += ext;
            else
                hi[k] += ext;
        }
    }
    return lo[0] < hi[1] && lo[1] < hi[0];
}

int64_t
pg_array_size(const PgArray *a)
{
    int64_t n = 1;
    for (int i = 0; i < a->ndim; i++)
        n *= a->shape[i];
    return n;
}

void
pg_array_update_flags(PgArray *a)
{
    int64_t isz = PG_ITEMSIZE(a);
    a->flags &= ~(PG_C_CONTIGUOUS | PG_F_CONTIGUOUS);
    if (pg_is_c_contiguous(a->ndim, a->shape, a->strides, isz))
        a->flags |= PG_C_CONTIGUOUS;
    if (pg_is_f_contiguous(a->ndim, a->shape, a->strides, isz))
        a->flags |= PG_F_CONTIGUOUS;
}

PgArray *
pg_array_new(PgDevice *dev, int type, int ndim, const int64_t *shape, char order, PgMemKind kind)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return NULL;
    int64_t size = pg_shape_size(ndim, shape);
    int64_t isz = pg_type_info[type].itemsize;
    if (size < 0)
        return NULL;
    if (size > INT64_MAX / isz) {
        pg_too_big_error();
        return NULL;
    }
    PgArray *a = array_alloc(ndim);
    if (a == NULL)
        return NULL;
    if (ndim > 0) /* a 0-d array's shape may be NULL, which memcpy may not be given */
        memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
    pg_fill_strides(ndim, shape, isz, order == 'F' ? 'F' : 'C', a->strides);
    a->type = type;
    a->device = dev;
    a->mem_kind = kind;
    a->block = pg_pool_alloc(dev, (size_t)(size * isz), kind, pg_stream_current_handle(dev));
    if (a->block == NULL) {
        a->data = NULL;
        Py_DECREF(a);
        return NULL;
    }
    a->data = a->block->ptr;
    a->flags = PG_WRITEABLE | PG_OWNDATA;
    pg_array_update_flags(a);
    return a;
}

PgArray *
pg_array_new_in_stride_order(PgDevice *dev, int type, int ndim, const int64_t *shape, const int64_t *order_strides,
                             PgMemKind kind)
{
    /* perm: the axes by decreasing |stride|, ties in axis order (NumPy's
     * PyArray_CreateSortedStridePerm); the array is made C-packed in that order, then its
     * axes are put back where they belong */
    int perm[PG_MAXDIMS];
    int64_t pshape[PG_MAXDIMS] = {0};
    for (int i = 0; i < ndim; i++) {
        int64_t s = order_strides[i] < 0 ? -order_strides[i] : order_strides[i];
        int j = i;
        for (; j > 0; j--) {
            int64_t t = order_strides[perm[j - 1]] < 0 ? -order_strides[perm[j - 1]] : order_strides[perm[j - 1]];
            if (t >= s)
                break;
            perm[j] = perm[j - 1];
        }
        perm[j] = i;
    }
    for (int i = 0; i < ndim; i++)
        pshape[i] = shape[perm[i]];
    PgArray *a = pg_array_new(dev, type, ndim, pshape, 'C', kind);
    if (a == NULL)
        return NULL;
    int64_t pstrides[PG_MAXDIMS];
    memcpy(pstrides, a->strides, (size_t)ndim * sizeof(int64_t));
    for (int i = 0; i < ndim; i++) {
        a->shape[perm[i]] = pshape[i];
        a->strides[perm[i]] = pstrides[i];
    }
    pg_array_update_flags(a);
    return a;
}

PgArray *
pg_array_new_like(PgArray *like, int type, char order)
{
    if (type < 0)
        type = like->type;
    if (order == 'K' || order == 'A') {
        if (like->flags & PG_C_CONTIGUOUS)
            order = 'C';
        else if (like->flags & PG_F_CONTIGUOUS)
            order = 'F';
        else if (order == 'K')
            return pg_array_new_in_stride_order(like->device, type, like->ndim, like->shape, like->strides,
                                                like->mem_kind);
        else
            order = 'C';
    }
    return pg_array_new(like->device, type, like->ndim, like->shape, order, like->mem_kind);
}

PgArray *
pg_array_view(PgArray *base, char *data, int type, int ndim, const int64_t *shape, const int64_t *strides)
{
    PgArray *a = array_alloc(ndim);
    if (a == NULL)
        return NULL;
    memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
    memcpy(a->strides, strides, (size_t)ndim * sizeof(int64_t));
    a->data = data;
    a->type = type;
    a->device = base->device;
    a->mem_kind = base->mem_kind;
    a->flags = base->flags & PG_WRITEABLE;
    /* point at the owner of the memory, never at an intermediate view */
    a->base = Py_NewRef(base->base ? base->base : (PyObject *)base);
    pg_array_update_flags(a);
    return a;
}

PgArray *
pg_array_wrap(PgDevice *dev, PgMemKind kind, char *data, int type, int ndim, const int64_t *shape,
              const int64_t *strides, PyObject *owner, int writeable)
{
    PgArray *a = array_alloc(ndim);
    if (a == NULL)
        return NULL;
    memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
    if (strides)
        memcpy(a->strides, strides, (size_t)ndim * sizeof(int64_t));
    else
        pg_fill_strides(ndim, shape, pg_type_info[type].itemsize, 'C', a->strides);
    a->data = data;
    a->type = type;
    a->device = dev;
    a->mem_kind = kind;
    a->flags = writeable ? PG_WRITEABLE : 0;
    a->base = Py_XNewRef(owner);
    pg_array_update_flags(a);
    return a;
}

static void
array_dealloc(PyObject *self)
{
    PgArray *a = (PgArray *)self;
    if (a->weakreflist)
        PyObject_ClearWeakRefs(self);
    if (a->block)
        pg_pool_free(a->block);
    Py_XDECREF(a->base);
    if (a->shape != a->dims) /* a shape set with more dimensions than the object holds */
        PyMem_Free(a->shape);
    PyObject_Free(self);
}

int
pg_array_check_writeable(PgArray *a)
{
    if (!(a->flags & PG_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ assignment */

void
pg_array_note_use(PgArray *a)
{
    /* the memory's pool block: the array's own, or its base array's (views never chain) */
    PgBlock *b = a->block;
    if (b == NULL && a->base != NULL && PgArray_Check(a->base))
        b = ((PgArray *)a->base)->block;
    if (b != NULL)
        pg_block_use(b, pg_stream_current_handle(a->device));
}

void
pg_operand_from_array(PgOperand *op, PgArray *a)
{
    pg_array_note_use(a);
    op->data = a->data;
    op->ndim = a->ndim;
    op->shape = a->shape;
    op->strides = a->strides;
    op->type = a->type;
    op->scalar[0] = op->scalar[1] = 0;
}

/* The bytes an array's elements span, [*lo, *hi); empty arrays span nothing. */
static int
byte_extent(PgArray *a, uintptr_t *lo, uintptr_t *hi)
{
    intptr_t low = 0, high = (intptr_t)PG_ITEMSIZE(a);
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] == 0)
            return 0;
        intptr_t off = (intptr_t)((a->shape[d] - 1) * a->strides[d]);
        if (off < 0)
            low += off;
        else
            high += off;
    }
    *lo = (uintptr_t)a->data + (uintptr_t)low;
    *hi = (uintptr_t)a->data + (uintptr_t)high;
    return 1;
}

/* True when writing dst could change src's elements before they are read: their memory overlaps
 * and the layouts are not the very same (an element-for-element copy onto itself is safe). */
int
pg_array_may_overlap(PgArray *dst, PgArray *src)
{
    if (dst->device != src->device)
        return 0;
    if (dst->data == src->data && dst->type == src->type && dst->ndim == src->ndim &&
        memcmp(dst->shape, src->shape, sizeof(int64_t) * (size_t)dst->ndim) == 0 &&
        memcmp(dst->strides, src->strides, sizeof(int64_t) * (size_t)dst->ndim) == 0)
        return 0;
    uintptr_t dlo, dhi, slo, shi;
    if (!byte_extent(dst, &dlo, &dhi) || !byte_extent(src, &slo, &shi))
        return 0;
    return dlo < shi && slo < dhi;
}

static int same_shape(PgArray *a, PgArray *b);

/* Whether dst = src is a plain byte copy: one type, one shape, the same dense layout, and memory
 * that does not overlap (the driver's copy engine then beats a kernel: 2970 against 2350 GB/s on
 * an H100). */
static int
is_byte_copy(PgArray *dst, PgArray *src)
{
    if (dst->type != src->type || !same_shape(dst, src))
        return 0;
    int layout = (dst->flags & src->flags) & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS);
    if (!layout)
        return 0;
    size_t n = (size_t)(pg_array_size(dst) * PG_ITEMSIZE(dst));
    return dst->data + n <= src->data || src->data + n <= dst->data;
}

/* dst = src on one device: the copy kernel of dst's type, src broadcast to dst's shape. */
static int
assign_same_device(PgArray *dst, PgArray *src)
{
    if (is_byte_copy(dst, src)) {
        PgDevice *dev = dst->device;
        pg_array_note_use(src);
        pg_array_note_use(dst);
        return PG_DEVICE_CHECK(dev) < 0 ? -1 : dev->backend->memcpy(dev, dst->data, src->data,
                                                                  (size_t)(pg_array_size(dst) * PG_ITEMSIZE(dst)),
                                                                  PG_COPY_D2D, pg_stream_current_handle(dev));
    }
    PgOperand ops[2];
    pg_operand_from_array(&ops[0], src);
    pg_operand_from_array(&ops[1], dst);
    return pg_elementwise_launch(dst->device, PG_COPY_KERNEL(dst->type), 2, ops);
}

static int
check_broadcastable(PgArray *dst, int ndim, const int64_t *shape)
{
    /* src must broadcast to exactly dst's shape */
    int nds[2] = {dst->ndim, ndim};
    const int64_t *shapes[2] = {dst->shape, shape};
    int out_nd;
    int64_t out_shape[PG_MAXDIMS];
    if (ndim > PG_MAXDIMS)
        goto fail;
    if (pg_broadcast_shapes(2, nds, shapes, &out_nd, out_shape) < 0) {
        PyErr_Clear();
        goto fail;
    }
    if (out_nd != dst->ndim || memcmp(out_shape, dst->shape, sizeof(int64_t) * (size_t)out_nd) != 0)
        goto fail;
    return 0;
fail: {
    PyObject *a = pg_shape_repr(ndim, shape), *b = pg_shape_repr(dst->ndim, dst->shape);
    if (a && b)
        PyErr_Format(PyExc_ValueError, "could not broadcast input array from shape %U into shape %U", a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return -1;
}
}

/* Copies between a host-accessible contiguous buffer and a contiguous device array of equal
 * byte size. */
static int
transfer(PgDevice *dev, void *dst, const void *src, size_t n, PgCopyKind kind)
{
    if (n == 0)
        return 0;
    return dev->backend->memcpy(dev, dst, src, n, kind, pg_stream_current_handle(dev));
}

static int
same_shape(PgArray *a, PgArray *b)
{
    return a->ndim == b->ndim && memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->ndim) == 0;
}

int
pg_array_assign(PgArray *dst, PgArray *src)
{
    if (pg_array_check_writeable(dst) < 0 || check_broadcastable(dst, src->ndim, src->shape) < 0)
        return -1;
    if (pg_array_size(dst) == 0)
        return 0;
    if (dst->device == src->device)
        return assign_same_device(dst, src);

    /* Across devices: the bytes travel once, contiguous and already in dst's type; the layout
     * work happens on whichever side needs it, by kernels. */
    PgArray *stage_src = NULL, *stage_dst = NULL;
    int rc = -1;
    int direct_src = (src->flags & PG_C_CONTIGUOUS) && src->type == dst->type;
    int direct_dst = (dst->flags & PG_C_CONTIGUOUS) && same_shape(dst, src);
    PgDevice *host = pg_device_cpu();
    if (!direct_src) {
        /* contiguous, dst-typed copy on src's side */
        stage_src = pg_array_new(src->device, dst->type, src->ndim, src->shape, 'C', PG_MEM_DEVICE);
        if (stage_src == NULL || assign_same_device(stage_src, src) < 0)
            goto done;
        src = stage_src;
    }
    if (!direct_dst) {
        stage_dst = pg_array_new(dst->device, dst->type, src->ndim, src->shape, 'C', PG_MEM_DEVICE);
        if (stage_dst == NULL)
            goto done;
    }
    PgArray *target = stage_dst ? stage_dst : dst;
    size_t nbytes = (size_t)(pg_array_size(src) * PG_ITEMSIZE(src));
    pg_array_note_use(src);
    pg_array_note_use(target);
    if (src->device == host) {
        if (transfer(target->device, target->data, src->data, nbytes, PG_COPY_H2D) < 0)
            goto done;
    } else if (target->device == host) {
        if (transfer(src->device, target->data, src->data, nbytes, PG_COPY_D2H) < 0)
            goto done;
    } else {
        /* between two GPUs: through the host */
        PgArray *h = pg_array_new(host, src->type, src->ndim, src->shape, 'C', PG_MEM_DEVICE);
        if (h == NULL)
            goto done;
        rc = transfer(src->device, h->data, src->data, nbytes, PG_COPY_D2H);
        if (rc == 0)
            rc = transfer(target->device, target->data, h->data, nbytes, PG_COPY_H2D);
        Py_DECREF(h);
        if (rc < 0)
            goto done;
        rc = -1;
    }
    if (stage_dst && assign_same_device(dst, stage_dst) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(stage_src);
    Py_XDECREF(stage_dst);
    return rc;
}

int
pg_array_fill(PgArray *dst, PyObject *value)
{
    if (pg_array_check_writeable(dst) < 0)
        return -1;
    PgOperand ops[2];
    int64_t zero_shape[1] = {1}, zero_stride[1] = {0};
    ops[0].data = NULL;
    ops[0].ndim = 0;
    ops[0].shape = zero_shape;
    ops[0].strides = zero_stride;
    ops[0].type = dst->type;
    ops[0].scalar[0] = ops[0].scalar[1] = 0;
    if (pg_scalar_to_bytes(value, dst->type, ops[0].scalar) < 0)
        return -1;
    if (pg_array_size(dst) == 0)
        return 0;
    pg_operand_from_array(&ops[1], dst);
    return pg_elementwise_launch(dst->device, PG_COPY_KERNEL(dst->type), 2, ops);
}

/* The NumPy array's memory seen as a CPU pygpu array (no copy), kept alive by `src`. */
static PgArray *
wrap_numpy(PyArrayObject *src, int writeable)
{
    int type = pg_type_from_descr(PyArray_DESCR(src));
    if (type < 0)
        return NULL;
    int nd = PyArray_NDIM(src);
    if (nd > PG_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "pygpu arrays have at most %d dimensions, got %d", PG_MAXDIMS, nd);
        return NULL;
    }
    int64_t shape[PG_MAXDIMS], strides[PG_MAXDIMS];
    for (int i = 0; i < nd; i++) {
        shape[i] = PyArray_DIM(src, i);
        strides[i] = PyArray_STRIDE(src, i);
    }
    return pg_array_wrap(pg_device_cpu(), PG_MEM_DEVICE, PyArray_BYTES(src), type, nd, shape, strides,
                         (PyObject *)src, writeable && PyArray_ISWRITEABLE(src));
}

/* wrap_numpy(src, 0) of src in the native byte order: data of another one (np.load of a '>f8'
 * file, FITS data) converted by NumPy first, as its own arithmetic does */
static PgArray *
wrap_numpy_native(PyArrayObject *src)
{
    if (!PyDataType_ISBYTESWAPPED(PyArray_DESCR(src)))
        return wrap_numpy(src, 0);
    PyArray_Descr *d = PyArray_DescrNewByteorder(PyArray_DESCR(src), NPY_NATIVE);
    PyArrayObject *native = d ? (PyArrayObject *)PyArray_FromArray(src, d, NPY_ARRAY_FORCECAST) : NULL; /* steals d */
    if (native == NULL)
        return NULL;
    PgArray *w = wrap_numpy(native, 0); /* holds native */
    Py_DECREF(native);
    return w;
}

int
pg_array_assign_numpy(PgArray *dst, PyArrayObject *src)
{
    PgArray *w = wrap_numpy_native(src);
    if (w == NULL)
        return -1;
    int rc = pg_array_assign(dst, w);
    Py_DECREF(w);
    return rc;
}

PgArray *
pg_array_from_numpy(PyArrayObject *src, PgDevice *dev, int type)
{
    PgArray *w = wrap_numpy_native(src);
    if (w == NULL)
        return NULL;
    if (type < 0)
        type = w->type;
    char order = (w->flags & PG_F_CONTIGUOUS) && !(w->flags & PG_C_CONTIGUOUS) ? 'F' : 'C';
    PgArray *a = pg_array_new(dev, type, w->ndim, w->shape, order, PG_MEM_DEVICE);
    if (a == NULL || pg_array_assign(a, w) < 0) {
        Py_XDECREF(a);
        a = NULL;
    }
    Py_DECREF(w);
    return a;
}

PyObject *
pg_array_to_numpy(PgArray *a)
{
    npy_intp dims[PG_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        dims[i] = (npy_intp)a->shape[i];
    PyArray_Descr *d = pg_type_descr(a->type);
    Py_INCREF(d);
    int fortran = (a->flags & PG_F_CONTIGUOUS) && !(a->flags & PG_C_CONTIGUOUS);
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, d, a->ndim, dims, NULL, NULL, fortran, NULL);
    if (out == NULL)
        return NULL;
    PgArray *w = wrap_numpy((PyArrayObject *)out, 1);
    if (w == NULL || pg_array_assign(w, a) < 0 ||
        (a->device->kind != PG_DEVICE_CPU && a->device->backend->stream_synchronize(
                                                 a->device, pg_stream_current_handle(a->device)) < 0)) {
        Py_XDECREF(w);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(w);
    return out;
}

PgArray *
pg_array_copy(PgArray *a, int type, char order, PgDevice *dev)
{
    if (type < 0)
        type = a->type;
    if (dev == NULL)
        dev = a->device;
    PgMemKind kind = dev == a->device ? a->mem_kind : PG_MEM_DEVICE;
    PgArray *c;
    if (order == 'K' && !(a->flags & (PG_C_CONTIGUOUS | PG_F_CONTIGUOUS))) {
        c = pg_array_new_in_stride_order(dev, type, a->ndim, a->shape, a->strides, kind);
    } else {
        if (order == 'K' || order == 'A') {
            int f = (a->flags & PG_F_CONTIGUOUS) && !(a->flags & PG_C_CONTIGUOUS);
            order = f ? 'F' : 'C';
        }
        c = pg_array_new(dev, type, a->ndim, a->shape, order, kind);
    }
    if (c == NULL)
        return NULL;
    if (pg_array_assign(c, a) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ attributes */

static PyObject *
get_shape(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    return pg_shape_tuple(a->ndim, a->shape);
}

static int
set_shape(PyObject *self, PyObject *value, void *c)
{
    PG_UNUSED(c);
    return pg_array_set_shape((PgArray *)self, value);
}

static PyObject *
get_strides(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    return pg_shape_tuple(a->ndim, a->strides);
}

static PyObject *
get_dtype(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return Py_NewRef((PyObject *)pg_type_descr(((PgArray *)self)->type));
}

static PyObject *
get_ndim(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLong(((PgArray *)self)->ndim);
}

static PyObject *
get_size(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLongLong(pg_array_size((PgArray *)self));
}

static PyObject *
get_itemsize(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromLongLong(PG_ITEMSIZE((PgArray *)self));
}

static PyObject *
get_nbytes(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    return PyLong_FromLongLong(pg_array_size(a) * PG_ITEMSIZE(a));
}

static PyObject *
get_device(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return Py_NewRef((PyObject *)((PgArray *)self)->device);
}

static PyObject *
get_base(PyObject *self, void *c)
{
    PG_UNUSED(c);
    PgArray *a = (PgArray *)self;
    return Py_NewRef(a->base ? a->base : Py_None);
}

static PyObject *
get_data_ptr(PyObject *self, void *c)
{
    PG_UNUSED(c);
    return PyLong_FromVoidPtr(((PgArray *)self)->data);
}

static PyObject *
get_flags(PyObject *self, void *c)
{
    PG_UNUSED(c);
    static PyObject *flags_type; /* pygpu._flags.Flags: a dict that answers as numpy's flags do */
    PgArray *a = (PgArray *)self;
    if (flags_type == NULL) {
        PyObject *mod = PyImport_ImportModule("pygpu._flags");
        flags_type = mod ? PyObject_GetAttrString(mod, "Flags") : NULL;
        Py_XDECREF(mod);
        if (flags_type == NULL)
            return NULL;
    }
    PyObject *d = Py_BuildValue("{s:O,s:O,s:O,s:O}", "C_CONTIGUOUS", (a->flags & PG_C_CONTIGUOUS) ? Py_True : Py_False,
                                "F_CONTIGUOUS", (a->flags & PG_F_CONTIGUOUS) ? Py_True : Py_False, "WRITEABLE",
                                (a->flags & PG_WRITEABLE) ? Py_True : Py_False, "OWNDATA",
                                (a->flags & PG_OWNDATA) ? Py_True : Py_False);
    PyObject *r = d ? PyObject_CallFunctionObjArgs(flags_type, d, self, (a->flags & PG_ALIGNED_CLEARED) ? Py_False : Py_True,
                                                   NULL)
                    : NULL;
    Py_XDECREF(d);
    return r;
}

static PyObject *
get_memory_kind(PyObject *self, void *c)
{
    PG_UNUSED(c);
    static const char *names[] = {"device", "pinned", "mapped", "managed"};
    return PyUnicode_FromString(names[((PgArray *)self)->mem_kind]);
}

PyGetSetDef pg_array_getset_core[] = {
    {"shape", get_shape, set_shape, "Tuple of array dimensions.", NULL},
    {"strides", get_strides, NULL, "Tuple of bytes to step in each dimension.", NULL},
    {"dtype", get_dtype, NULL, "The numpy.dtype of the elements.", NULL},
    {"ndim", get_ndim, NULL, "Number of dimensions.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "Bytes of the elements (size * itemsize).", NULL},
    {"device", get_device, NULL, "The pygpu.Device holding the data.", NULL},
    {"base", get_base, NULL, "The object owning the memory of a view, else None.", NULL},
    {"data_ptr", get_data_ptr, NULL, "Address of the first element (a device address on CUDA).", NULL},
    {"flags", get_flags, NULL, "Dict of C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE, OWNDATA; also NumPy's "
                               "abbreviations as keys and lower-case attributes (flags.c_contiguous).", NULL},
    {"memory_kind", get_memory_kind, NULL, "'device', 'pinned', 'mapped' or 'managed'.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ------------------------------------------------------------------ core methods */

static PyObject *
array_get(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"stream", "out", NULL};
    PyObject *stream = Py_None, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:get", kwlist, &stream, &out))
        return NULL;
    PgArray *a = (PgArray *)self;
    if (stream != Py_None && !PgStream_Check(stream) && !PyLong_Check(stream)) {
        PyErr_SetString(PyExc_TypeError, "stream must be a pygpu.Stream or None");
        return NULL;
    }
    PyObject *res = NULL;
    int entered = 0;
    if (stream != Py_None && PgStream_Check(stream)) {
        PyObject *r = PyObject_CallMethod(stream, "__enter__", NULL);
        if (r == NULL)
            return NULL;
        Py_DECREF(r);
        entered = 1;
    }
    if (out == Py_None) {
        res = pg_array_to_numpy(a);
    } else if (!PyArray_Check(out)) {
        PyErr_Format(PyExc_TypeError, "out must be a numpy.ndarray, not %.200s", Py_TYPE(out)->tp_name);
    } else {
        PgArray *w = wrap_numpy((PyArrayObject *)out, 1);
        if (w != NULL) {
            if (!(w->flags & PG_WRITEABLE))
                PyErr_SetString(PyExc_ValueError, "out is read-only");
            else if (w->ndim != a->ndim || memcmp(w->shape, a->shape, sizeof(int64_t) * (size_t)a->ndim))
                PyErr_SetString(PyExc_ValueError, "out must have the same shape as the array");
            else if (w->type != a->type)
                PyErr_Format(PyExc_TypeError, "out must have dtype %s, not %s", pg_type_info[a->type].name,
                             pg_type_info[w->type].name);
            else if (pg_array_assign(w, a) == 0 &&
                     a->device->backend->stream_synchronize(a->device, pg_stream_current_handle(a->device)) == 0)
                res = Py_NewRef(out);
            Py_DECREF(w);
        }
    }
    if (entered) {
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyObject *r = PyObject_CallMethod(stream, "__exit__", "OOO", Py_None, Py_None, Py_None);
        Py_XDECREF(r);
        if (et)
            PyErr_Restore(et, ev, tb);
        else if (r == NULL)
            Py_CLEAR(res);
    }
    return res;
}

/* Numba's DeviceNDArray.copy_to_host(ary=None, stream=0): `get` with Numba's argument order. */
static PyObject *
array_copy_to_host(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"ary", "stream", NULL};
    PyObject *ary = Py_None, *stream = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:copy_to_host", kwlist, &ary, &stream))
        return NULL;
    PyObject *empty = PyTuple_New(0);
    PyObject *kw = Py_BuildValue("{s:O,s:O}", "stream", stream, "out", ary);
    PyObject *res = empty && kw ? array_get(self, empty, kw) : NULL;
    Py_XDECREF(empty);
    Py_XDECREF(kw);
    return res;
}

static PyObject *
array_to_device(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", "stream", NULL};
    PyObject *devobj, *stream = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O:to_device", kwlist, &devobj, &stream))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    PgArray *a = (PgArray *)self;
    if (dev == a->device)
        return Py_NewRef(self);
    return (PyObject *)pg_array_copy(a, -1, 'K', dev);
}

static PyObject *
array_copy_method(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:copy", kwlist, &order_obj))
        return NULL;
    if (pg_order_from_object(order_obj, "CFAK", 'C', &order) < 0)
        return NULL;
    return (PyObject *)pg_array_copy((PgArray *)self, -1, order, NULL);
}

static PyObject *
array_astype(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"dtype", "order", "casting", "copy", "device", NULL};
    PyObject *dtype_obj, *order_obj = NULL, *casting_obj = NULL, *devobj = Py_None;
    int copy = 1;
    char order;
    PgCasting casting;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOp$O:astype", kwlist, &dtype_obj, &order_obj, &casting_obj,
                                     &copy, &devobj))
        return NULL;
    PgArray *a = (PgArray *)self;
    int type = pg_type_from_object(dtype_obj, PG_FLOAT64); /* None: NumPy's default, float64 */
    if (type < 0)
        return NULL;
    if (pg_order_from_object(order_obj, "CFAK", 'K', &order) < 0)
        return NULL;
    if (casting_obj == NULL)
        casting = PG_CAST_UNSAFE;
    else if (pg_casting_from_object(casting_obj, &casting) < 0)
        return NULL;
    if (!pg_can_cast(a->type, type, casting)) {
        PyErr_Format(PyExc_TypeError, "Cannot cast array data from dtype('%s') to dtype('%s') according to the rule '%s'",
                     pg_type_info[a->type].name, pg_type_info[type].name, pg_casting_name(casting));
        return NULL;
    }
    if (pg_warn_complex_cast(a->type, type) < 0)
        return NULL;
    PgDevice *dev = devobj == Py_None ? a->device : pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    if (!copy && type == a->type && dev == a->device &&
        (order == 'K' || order == 'A' || (order == 'C' && (a->flags & PG_C_CONTIGUOUS)) ||
         (order == 'F' && (a->flags & PG_F_CONTIGUOUS))))
        return Py_NewRef(self);
    return (PyObject *)pg_array_copy(a, type, order, dev);
}

static PyObject *
array_fill_method(PyObject *self, PyObject *value)
{
    if (pg_array_fill((PgArray *)self, value) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* setflags(write=None, align=None, uic=None): NumPy's; write=False makes the array read-only
 * (its later views too), write=True is allowed to an array that owns its memory */
static PyObject *
array_setflags(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"write", "align", "uic", NULL};
    PyObject *write = Py_None, *align = Py_None, *uic = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOO:setflags", kwlist, &write, &align, &uic))
        return NULL;
    PgArray *a = (PgArray *)self;
    int aligned = align == Py_None ? -1 : PyObject_IsTrue(align);
    int writeback = uic == Py_None ? 0 : PyObject_IsTrue(uic);
    if ((align != Py_None && aligned < 0) || writeback < 0)
        return NULL;
    if (writeback) {
        PyErr_SetString(PyExc_ValueError, "cannot set WRITEBACKIFCOPY flag to True");
        return NULL;
    }
    /* pygpu's elements are aligned, so True always holds; False only clears the flag, as NumPy's */
    if (aligned == 1)
        a->flags &= ~PG_ALIGNED_CLEARED;
    else if (aligned == 0)
        a->flags |= PG_ALIGNED_CLEARED;
    if (write == Py_None)
        Py_RETURN_NONE;
    int w = PyObject_IsTrue(write);
    if (w < 0)
        return NULL;
    if (!w) {
        a->flags &= ~PG_WRITEABLE;
    } else if (!(a->flags & PG_WRITEABLE)) {
        if (a->base != NULL) { /* a view's memory may be read-only for a reason (a broadcast) */
            PyErr_SetString(PyExc_ValueError, "cannot set WRITEABLE flag to True of this array");
            return NULL;
        }
        a->flags |= PG_WRITEABLE;
    }
    Py_RETURN_NONE;
}

PyMethodDef pg_array_methods_core[] = {
    {"setflags", (PyCFunction)(void (*)(void))array_setflags, METH_VARARGS | METH_KEYWORDS,
     "setflags($self, write=None, align=None, uic=None)\n--\n\nSet the WRITEABLE flag (write=False: "
     "read-only; True: for an array that owns its memory), as numpy.ndarray.setflags."},
    {"get", (PyCFunction)(void (*)(void))array_get, METH_VARARGS | METH_KEYWORDS,
     "get($self, stream=None, out=None)\n--\n\nA numpy.ndarray with the elements, copied to the host (as cupy.ndarray.get)."},
    {"copy_to_host", (PyCFunction)(void (*)(void))array_copy_to_host, METH_VARARGS | METH_KEYWORDS,
     "copy_to_host($self, ary=None, stream=0)\n--\n\nA numpy.ndarray with the elements (as Numba's DeviceNDArray: into ary when given)."},
    {"to_device", (PyCFunction)(void (*)(void))array_to_device, METH_VARARGS | METH_KEYWORDS,
     "to_device($self, device, *, stream=None)\n--\n\nThe array on that device (itself when already there)."},
    {"copy", (PyCFunction)(void (*)(void))array_copy_method, METH_VARARGS | METH_KEYWORDS,
     "copy($self, order='C')\n--\n\nA copy on the same device."},
    {"astype", (PyCFunction)(void (*)(void))array_astype, METH_VARARGS | METH_KEYWORDS,
     "astype($self, dtype, order='K', casting='unsafe', copy=True)\n--\n\nThe array cast to dtype."},
    {"fill", array_fill_method, METH_O, "fill($self, value, /)\n--\n\nSet every element to value."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ repr / str */

static PyObject *
array_repr(PyObject *self)
{
    PgArray *a = (PgArray *)self;
    PyObject *host = pg_array_to_numpy(a);
    if (host == NULL)
        return NULL;
    PyObject *r = PyObject_Repr(host);
    Py_DECREF(host);
    if (r == NULL)
        return NULL;
    /* NumPy's "array([...], dtype=...)" with the device added before the closing parenthesis
     * (a repr of other words, np.set_printoptions(override_repr=...)'s, as it is) */
    Py_ssize_t n = PyUnicode_GET_LENGTH(r);
    if (n == 0 || PyUnicode_READ_CHAR(r, n - 1) != ')')
        return r;
    PyObject *head = PyUnicode_Substring(r, 0, n - 1);
    Py_DECREF(r);
    if (head == NULL)
        return NULL;
    PyObject *res = PyUnicode_FromFormat("%U, device='%S')", head, (PyObject *)a->device);
    Py_DECREF(head);
    return res;
}

static PyObject *
array_str(PyObject *self)
{
    PyObject *host = pg_array_to_numpy((PgArray *)self);
    if (host == NULL)
        return NULL;
    PyObject *r = PyObject_Str(host);
    Py_DECREF(host);
    return r;
}

/* ------------------------------------------------------------------ the type */

PyTypeObject PgArray_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu.ndarray",
    .tp_basicsize = sizeof(PgArray),
    .tp_itemsize = 2 * sizeof(int64_t),
    .tp_dealloc = array_dealloc,
    .tp_repr = array_repr,
    .tp_str = array_str,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ndarray(shape, dtype=None, order='C')\n--\n\nAn N-dimensional array on a pygpu device (CPU or "
              "CUDA GPU). ndarray(shape, dtype) makes an uninitialised one on the current device (dtype None: "
              "float64), as NumPy's and CuPy's; more often create one with pygpu.asarray, pygpu.empty, "
              "pygpu.zeros, ... ",
    .tp_weaklistoffset = offsetof(PgArray, weakreflist),
    .tp_new = pg_array_construct,
};

static PyMethodDef *
merge_methods(PyMethodDef *const *tables, int n)
{
    Py_ssize_t total = 1;
    for (int i = 0; i < n; i++)
        for (PyMethodDef *m = tables[i]; m->ml_name; m++)
            total++;
    PyMethodDef *all = PyMem_Calloc((size_t)total, sizeof(PyMethodDef));
    if (all == NULL)
        return (PyMethodDef *)PyErr_NoMemory();
    Py_ssize_t k = 0;
    for (int i = 0; i < n; i++)
        for (PyMethodDef *m = tables[i]; m->ml_name; m++)
            all[k++] = *m;
    return all;
}

static PyGetSetDef *
merge_getset(PyGetSetDef *const *tables, int n)
{
    Py_ssize_t total = 1;
    for (int i = 0; i < n; i++)
        for (PyGetSetDef *g = tables[i]; g->name; g++)
            total++;
    PyGetSetDef *all = PyMem_Calloc((size_t)total, sizeof(PyGetSetDef));
    if (all == NULL)
        return (PyGetSetDef *)PyErr_NoMemory();
    Py_ssize_t k = 0;
    for (int i = 0; i < n; i++)
        for (PyGetSetDef *g = tables[i]; g->name; g++)
            all[k++] = *g;
    return all;
}

/* The method tables of ndarray: this layer's, then those the layers above add. */
static PyMethodDef *method_tables[16] = {pg_array_methods_core, pg_array_methods_views, pg_array_methods_interop,
                                         pg_array_methods_number, pg_array_methods_advanced,
                                         pg_array_methods_takeput};
static int n_method_tables = 6;

int
pg_array_add_methods(PyMethodDef *table)
{
    if (n_method_tables == (int)(sizeof method_tables / sizeof method_tables[0])) {
        PyErr_SetString(PyExc_SystemError, "too many ndarray method tables");
        return -1;
    }
    method_tables[n_method_tables++] = table;
    return 0;
}

/* _add_methods(mapping): installs Python functions as methods of ndarray, for the parts of it
 * written in Python (__array_function__, repeat, trace, ...). A name ndarray already has is
 * refused, so that a Python method never silently replaces a C one. */
static PyObject *
py_add_methods(PyObject *m, PyObject *methods)
{
    PG_UNUSED(m);
    if (!PyDict_Check(methods)) {
        PyErr_SetString(PyExc_TypeError, "_add_methods takes a dict of name -> function");
        return NULL;
    }
    PyObject *dict = PgArray_Type.tp_dict, *name, *func;
    Py_ssize_t pos = 0;
    while (PyDict_Next(methods, &pos, &name, &func)) {
        int has = PyDict_Contains(dict, name);
        if (has < 0)
            return NULL;
        if (has) {
            PyErr_Format(PyExc_ValueError, "ndarray already has an attribute %R", name);
            return NULL;
        }
        if (PyDict_SetItem(dict, name, func) < 0)
            return NULL;
    }
    PyType_Modified(&PgArray_Type);
    Py_RETURN_NONE;
}

PyMethodDef pg_array_module_methods[] = {
    {"_add_methods", py_add_methods, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int
pg_array_type_init(PyObject *module)
{
    PyGetSetDef *const getsets[] = {pg_array_getset_core, pg_array_getset_views, pg_array_getset_interop};
    PgArray_Type.tp_methods = merge_methods(method_tables, n_method_tables);
    PgArray_Type.tp_getset = merge_getset(getsets, 3);
    if (PgArray_Type.tp_methods == NULL || PgArray_Type.tp_getset == NULL)
        return -1;
    pg_views_setup_type(&PgArray_Type);
    pg_interop_setup_type(&PgArray_Type);
    pg_number_setup_type(&PgArray_Type);
    if (PyType_Ready(&PgArray_Type) < 0)
        return -1;
    /* NumPy defers binary operators with a pygpu operand to pygpu (numpy_array + pygpu_array) */
    PyObject *prio = PyFloat_FromDouble(100.0);
    int rc = prio ? PyDict_SetItemString(PgArray_Type.tp_dict, "__array_priority__", prio) : -1;
    Py_XDECREF(prio);
    if (rc < 0)
        return -1;
    PyType_Modified(&PgArray_Type);
    return PyModule_AddObjectRef(module, "ndarray", (PyObject *)&PgArray_Type);
}
