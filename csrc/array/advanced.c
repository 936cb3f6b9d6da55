/* Advanced indexing: integer arrays (pygpu, NumPy, nested lists) and boolean masks, alone or with
 * integers, slices, `...` and None, read through a gather into a new array and written through a
 * scatter, with NumPy's rules and errors:
 *   - the basic items make a view; a mask stands for the integer arrays of its nonzero
 *     coordinates, a bare True/False for an index of length 1/0 into a new axis of length 1;
 *   - the index arrays broadcast together; their dimensions replace the indexed axes where the
 *     advanced items are next to each other (integers count as advanced then), else go first;
 *   - an index out of bounds raises IndexError (checked by the kernel, reported through a flag),
 *     and a scatter checks every index before it writes anything.
 * A lone full-shape mask is a compaction (x[mask]) or a masked copy (x[mask] = scalar), with no
 * index arrays at all. */
#include "array/advanced.h"
#include "runtime/stream.h"

enum { ADV_INT, ADV_SLICE, ADV_ELLIPSIS, ADV_NEWAXIS, ADV_ARRAY, ADV_MASK, ADV_BOOL };

static const char invalid_index_msg[] =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
    "are valid indices";

#define MAX_ITEMS (3 * PG_MAXDIMS + 1)
#define MAX_VIEW (2 * PG_MAXDIMS)

typedef struct {
    int kind;
    PyObject *obj;     /* the item (borrowed) */
    PgArray *arr;      /* ADV_ARRAY, ADV_MASK: the index on the array's device (owned) */
    int value;         /* ADV_BOOL */
} Item;

/* An index resolved against an array: a view of it (the basic items applied), the index arrays
 * and the dimensions they index, and the result's layout. */
typedef struct {
    char *data;
    int nview;
    int64_t vshape[MAX_VIEW], vstrides[MAX_VIEW];
    int vidx[MAX_VIEW];              /* view dim -> index array, or -1 */
    int nidx;
    PgArray *idx[MAX_VIEW];          /* owned */
    int idx_axis[MAX_VIEW];          /* the axis of the array it indexes, for messages; -1: none */
    int idx_vdim[MAX_VIEW];
    int insert_at;                   /* where the broadcast dims go among the result's */
    int bdim;
    int64_t bshape[PG_MAXDIMS];
    int rdim;
    int64_t rshape[PG_MAXDIMS];
    int rmap[PG_MAXDIMS];            /* result dim -> view dim (>= 0) or broadcast dim b (-1 - b) */
} Plan;

static void
plan_clear(Plan *p)
{
    for (int k = 0; k < p->nidx; k++)
        Py_CLEAR(p->idx[k]);
    p->nidx = 0;
}

static void
items_clear(Item *items, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        Py_CLEAR(items[i].arr);
}

/* ------------------------------------------------------------------ helpers shared with take/put */

/* Raises the IndexError for the first index of idx outside [-n, n) (C order): 1; 0 when there is
 * none; -1 on another error. */
static int
find_bad_index(PgArray *idx, int64_t n, int axis)
{
    PyObject *host = pg_array_to_numpy(idx);
    if (host == NULL)
        return -1;
    PyArray_Descr *d = PyArray_DescrFromType(NPY_INT64);
    PyArrayObject *c = (PyArrayObject *)PyArray_FromAny(host, d, 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_FORCECAST,
                                                        NULL);
    Py_DECREF(host);
    if (c == NULL)
        return -1;
    const int64_t *v = (const int64_t *)PyArray_DATA(c);
    npy_intp size = PyArray_SIZE(c);
    int found = 0;
    for (npy_intp i = 0; i < size && !found; i++) {
        if (v[i] < -n || v[i] >= n) {
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)v[i],
                         axis, (long long)n);
            found = 1;
        }
    }
    Py_DECREF(c);
    return found;
}

int
pg_index_bounds_error(PgArray *idx, int64_t n, int axis)
{
    if (find_bad_index(idx, n, axis) == 0)
        PyErr_SetString(PyExc_IndexError, "index out of bounds");
    return -1;
}

void
pg_index_merge_dims(int *ndim, int64_t *shape, int ns, int64_t (*strides)[PG_MAXDIMS])
{
    int w = 0;
    for (int j = 0; j < *ndim; j++) {
        if (shape[j] == 1)
            continue;
        if (w > 0) {
            int mergeable = 1;
            for (int k = 0; k < ns && mergeable; k++)
                mergeable = strides[k][w - 1] == strides[k][j] * shape[j];
            if (mergeable) {
                shape[w - 1] *= shape[j];
                for (int k = 0; k < ns; k++)
                    strides[k][w - 1] = strides[k][j];
                continue;
            }
        }
        shape[w] = shape[j];
        for (int k = 0; k < ns; k++)
            strides[k][w] = strides[k][j];
        w++;
    }
    *ndim = w;
}

static int
is_python_number(PyObject *v)
{
    /* np.float64 and np.complex128 are float and complex subclasses: NumPy's scalars are not these */
    return !PyArray_IsScalar(v, Generic) && (PyLong_Check(v) || PyFloat_Check(v) || PyComplex_Check(v) || PyBool_Check(v));
}

PgArray *
pg_value_array(PgArray *a, PyObject *value)
{
    if (PgArray_Check(value))
        return pg_asarray(value, a->type, a->device, -1);
    /* a Python number converts by its value (NumPy's OverflowError past the dtype); a NumPy
     * scalar, as NumPy's fancy and mask assignment takes it, casts unsafely below (np.int64(300)
     * into int8 is 44) */
    if (is_python_number(value)) {
        PgArray *v = pg_array_new(a->device, a->type, 0, NULL, 'C', PG_MEM_DEVICE);
        if (v != NULL && pg_array_fill(v, value) < 0)
            Py_CLEAR(v);
        return v;
    }
    if (PyObject_HasAttrString(value, "__cuda_array_interface__") || PyObject_HasAttrString(value, "__dlpack__"))
        return pg_asarray(value, a->type, a->device, -1);
    /* NumPy arrays and nested sequences convert as NumPy would for this destination */
    PyArray_Descr *d = pg_type_descr(a->type);
    Py_INCREF(d);
    PyObject *host = PyArray_FromAny(value, d, 0, 0, NPY_ARRAY_FORCECAST, NULL);
    if (host == NULL)
        return NULL;
    PgArray *v = pg_array_from_numpy((PyArrayObject *)host, a->device, a->type);
    Py_DECREF(host);
    return v;
}

static int
shape_mismatch(PgArray *v, int ndim, const int64_t *shape)
{
    PyObject *vs = pg_shape_repr(v->ndim, v->shape), *rs = pg_shape_repr(ndim, shape);
    if (vs && rs)
        PyErr_Format(PyExc_ValueError,
                     "shape mismatch: value array of shape %U could not be broadcast to indexing result of shape %U",
                     vs, rs);
    Py_XDECREF(vs);
    Py_XDECREF(rs);
    return -1;
}

int
pg_value_strides(PgArray *v, int ndim, const int64_t *shape, int64_t *out)
{
    int lead = 0; /* leading unit dimensions beyond the result's are dropped, as NumPy does */
    while (v->ndim - lead > ndim && v->shape[lead] == 1)
        lead++;
    if (v->ndim - lead > ndim)
        return shape_mismatch(v, ndim, shape);
    int off = ndim - (v->ndim - lead);
    for (int d = 0; d < ndim; d++) {
        if (d < off) {
            out[d] = 0;
            continue;
        }
        int64_t n = v->shape[lead + d - off];
        if (n == shape[d])
            out[d] = n == 1 ? 0 : v->strides[lead + d - off];
        else if (n == 1)
            out[d] = 0;
        else
            return shape_mismatch(v, ndim, shape);
    }
    return 0;
}

/* ------------------------------------------------------------------ compaction */

typedef struct {
    PgArray *out;
    PgDevice *dev;
    int type;
    int ndim;
    int64_t tail[PG_MAXDIMS];   /* result shape after the count */
    int tail_ndim;
} CompactOut;

static int
compact_alloc(void *ctx, int64_t count, PgCompactArgs *a)
{
    CompactOut *c = ctx;
    int64_t shape[PG_MAXDIMS];
    shape[0] = count;
    for (int d = 0; d < c->tail_ndim; d++)
        shape[d + 1] = c->tail[d];
    c->out = pg_array_new(c->dev, c->type, c->tail_ndim + 1, shape, 'C', PG_MEM_DEVICE);
    if (c->out == NULL)
        return -1;
    a->out = c->out->data;
    return 0;
}

static void
compact_args(PgCompactArgs *ca, PgArray *mask, int op)
{
    pg_array_note_use(mask);
    memset(ca, 0, sizeof *ca);
    ca->op = op;
    ca->ndim = mask->ndim;
    ca->mask_type = mask->type;
    ca->mask = mask->data;
    ca->size = pg_array_size(mask);
    for (int d = 0; d < mask->ndim; d++) {
        ca->shape[d] = mask->shape[d];
        ca->strides[0][d] = mask->strides[d];
    }
}

PgArray *
pg_nonzero_coords(PgArray *mask)
{
    PgCompactArgs ca;
    compact_args(&ca, mask, PG_COMPACT_INDICES);
    CompactOut c = {NULL, mask->device, PG_INT64, 2, {mask->ndim}, 1};
    int64_t count;
    if (pg_compact_launch(mask->device, &ca, &count, compact_alloc, &c) < 0) {
        Py_XDECREF(c.out);
        return NULL;
    }
    return c.out;
}

int64_t
pg_count_true(PgArray *mask)
{
    PgCompactArgs ca;
    compact_args(&ca, mask, PG_COMPACT_COUNT);
    int64_t count;
    if (pg_compact_launch(mask->device, &ca, &count, NULL, NULL) < 0)
        return -1;
    return count;
}

/* x[mask] for a mask of x's own shape: its true elements in C order. */
static PyObject *
mask_getitem(PgArray *x, PgArray *mask)
{
    PgCompactArgs ca;
    compact_args(&ca, mask, PG_COMPACT_VALUES);
    pg_array_note_use(x);
    ca.src = x->data;
    ca.itemsize = (int32_t)PG_ITEMSIZE(x);
    for (int d = 0; d < x->ndim; d++)
        ca.strides[1][d] = x->strides[d];
    /* merging keeps C order: the values come out as they would unmerged */
    int nd = ca.ndim;
    pg_index_merge_dims(&nd, ca.shape, 2, ca.strides);
    ca.ndim = nd;
    CompactOut c = {NULL, x->device, x->type, 1, {0}, 0};
    int64_t count;
    if (pg_compact_launch(x->device, &ca, &count, compact_alloc, &c) < 0) {
        Py_XDECREF(c.out);
        return NULL;
    }
    return (PyObject *)c.out;
}

/* ------------------------------------------------------------------ parsing */

/* An item that NumPy would take as an index array: the array on dev, classified as ADV_ARRAY
 * (integer), ADV_MASK (bool) or ADV_BOOL / ADV_INT when 0-d. */
static int
classify_array(Item *it, PgArray *a, PgDevice *dev)
{
    if (a->type != PG_BOOL && !PG_IS_INTEGER(a->type)) {
        PyErr_SetString(PyExc_IndexError, "arrays used as indices must be of integer (or boolean) type");
        return -1;
    }
    if (a->ndim == 0) {
        if (a->type != PG_BOOL) {
            it->kind = ADV_INT;
            return 0;
        }
        PyObject *v = PyNumber_Index((PyObject *)a);
        if (v == NULL) {
            /* __index__ refuses bools: read it as a truth value */
            PyErr_Clear();
            int t = PyObject_IsTrue((PyObject *)a);
            if (t < 0)
                return -1;
            it->kind = ADV_BOOL;
            it->value = t;
            return 0;
        }
        Py_DECREF(v);
        it->kind = ADV_INT;
        return 0;
    }
    it->arr = pg_asarray((PyObject *)a, -1, dev, -1);
    if (it->arr == NULL)
        return -1;
    it->kind = a->type == PG_BOOL ? ADV_MASK : ADV_ARRAY;
    return 0;
}

static int
classify_item(Item *it, PyObject *obj, PgDevice *dev)
{
    it->obj = obj;
    it->arr = NULL;
    if (PyLong_CheckExact(obj)) {
        it->kind = ADV_INT;
        return 0;
    }
    if (PySlice_Check(obj)) {
        it->kind = ADV_SLICE;
        return 0;
    }
    if (obj == Py_Ellipsis) {
        it->kind = ADV_ELLIPSIS;
        return 0;
    }
    if (obj == Py_None) {
        it->kind = ADV_NEWAXIS;
        return 0;
    }
    if (PyBool_Check(obj) || PyArray_IsScalar(obj, Bool)) {
        it->kind = ADV_BOOL;
        it->value = PyObject_IsTrue(obj);
        return it->value < 0 ? -1 : 0;
    }
    if (PgArray_Check(obj))
        return classify_array(it, (PgArray *)obj, dev);
    PyObject *host = NULL;
    if (PyArray_Check(obj)) {
        PyArrayObject *h = (PyArrayObject *)obj;
        if (!PyArray_ISINTEGER(h) && !PyArray_ISBOOL(h)) {
            PyErr_SetString(PyExc_IndexError, "arrays used as indices must be of integer (or boolean) type");
            return -1;
        }
        host = Py_NewRef(obj);
    } else if (PyIndex_Check(obj)) {
        it->kind = ADV_INT;
        return 0;
    } else if (PyObject_HasAttrString(obj, "__cuda_array_interface__") ||
               (PyObject_HasAttrString(obj, "__dlpack__") && !PySequence_Check(obj))) {
        PgArray *a = pg_asarray(obj, -1, dev, -1);
        if (a == NULL)
            return -1;
        int rc = classify_array(it, a, dev);
        Py_DECREF(a);
        return rc;
    } else if (PySequence_Check(obj) && !PyUnicode_Check(obj) && !PyBytes_Check(obj)) {
        host = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
        if (host == NULL) {
            /* a ragged list keeps NumPy's ValueError (its array conversion's) */
            if (!PyErr_ExceptionMatches(PyExc_ValueError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_IndexError, invalid_index_msg);
            }
            return -1;
        }
        PyArrayObject *h = (PyArrayObject *)host;
        if (PyArray_SIZE(h) == 0 && !PyArray_ISINTEGER(h) && !PyArray_ISBOOL(h)) {
            /* an empty sequence is an empty integer index */
            PyArray_Descr *d = PyArray_DescrFromType(NPY_INT64);
            Py_SETREF(host, PyArray_FromAny(host, d, 0, 0, NPY_ARRAY_FORCECAST, NULL));
            if (host == NULL)
                return -1;
        } else if (!PyArray_ISINTEGER(h) && !PyArray_ISBOOL(h)) {
            Py_DECREF(host);
            PyErr_SetString(PyExc_IndexError, invalid_index_msg);
            return -1;
        }
    } else {
        PyErr_SetString(PyExc_IndexError, invalid_index_msg);
        return -1;
    }
    PgArray *a = pg_array_from_numpy((PyArrayObject *)host, dev, -1);
    Py_DECREF(host);
    if (a == NULL)
        return -1;
    int rc = classify_array(it, a, dev);
    Py_DECREF(a);
    return rc;
}

static int
bounds_error(int64_t index, int axis, int64_t size)
{
    PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", (long long)index, axis,
                 (long long)size);
    return -1;
}

static int
too_many_dims(void)
{
    PyErr_Format(PyExc_IndexError, "number of dimensions must be within [0, %d]", PG_MAXDIMS);
    return -1;
}

/* An int64 index array of length 1 ([0]) or 0, the index a bare True/False stands for. */
static PgArray *
bool_index(PgDevice *dev, int value)
{
    int64_t n = value ? 1 : 0;
    PgArray *r = pg_array_new(dev, PG_INT64, 1, &n, 'C', PG_MEM_DEVICE);
    if (r == NULL || !value)
        return r;
    PyObject *zero = PyLong_FromLong(0);
    int rc = zero ? pg_array_fill(r, zero) : -1;
    Py_XDECREF(zero);
    if (rc < 0)
        Py_CLEAR(r);
    return r;
}

static int
add_index(Plan *p, PgArray *idx, int axis, int64_t vshape, int64_t vstride)
{
    if (p->nview >= MAX_VIEW) {
        Py_DECREF(idx);
        return too_many_dims();
    }
    p->vshape[p->nview] = vshape;
    p->vstrides[p->nview] = vstride;
    p->vidx[p->nview] = p->nidx;
    p->idx[p->nidx] = idx;
    p->idx_axis[p->nidx] = axis;
    p->idx_vdim[p->nidx] = p->nview;
    p->nidx++;
    p->nview++;
    return 0;
}

static int
add_view_dim(Plan *p, int64_t n, int64_t stride)
{
    if (p->nview >= MAX_VIEW)
        return too_many_dims();
    p->vshape[p->nview] = n;
    p->vstrides[p->nview] = stride;
    p->vidx[p->nview] = -1;
    p->nview++;
    return 0;
}

/* Resolves items against a into p. */
static int
plan_build(PgArray *a, Item *items, Py_ssize_t n, Plan *p)
{
    Py_ssize_t consumed = 0;
    int ellipses = 0, fancy = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        switch (items[i].kind) {
        case ADV_INT: case ADV_SLICE: case ADV_ARRAY: consumed++; break;
        case ADV_MASK: consumed += items[i].arr->ndim; break;
        case ADV_ELLIPSIS:
            if (++ellipses > 1) {
                PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
                return -1;
            }
            break;
        default: break;
        }
        fancy |= items[i].kind == ADV_ARRAY || items[i].kind == ADV_MASK || items[i].kind == ADV_BOOL;
    }
    if (consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is %d-dimensional, but %zd were indexed",
                     a->ndim, consumed);
        return -1;
    }
    /* the advanced items (integers among them) must form one run to keep their place */
    Py_ssize_t first = -1, last = -1, nadv = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = items[i].kind;
        if (k == ADV_ARRAY || k == ADV_MASK || k == ADV_BOOL || k == ADV_INT) {
            if (first < 0)
                first = i;
            last = i;
            nadv++;
        }
    }
    int consecutive = nadv == last - first + 1;

    p->data = a->data;
    p->nview = 0;
    p->nidx = 0;
    p->insert_at = -1;
    int d = 0, bad_axis = -1;
    int64_t bad_value = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Item *it = &items[i];
        if (i == first)
            p->insert_at = p->nview;
        switch (it->kind) {
        case ADV_INT: {
            int64_t v;
            PyObject *o = PyNumber_Index(it->obj);
            if (o == NULL)
                return -1;
            int overflow;
            v = PyLong_AsLongLongAndOverflow(o, &overflow);
            Py_DECREF(o);
            if (v == -1 && PyErr_Occurred())
                return -1;
            if (overflow) {
                PyErr_SetString(PyExc_IndexError, invalid_index_msg);
                return -1;
            }
            int64_t j = v < 0 ? v + a->shape[d] : v;
            if ((j < 0 || j >= a->shape[d]) && bad_axis < 0) {
                /* NumPy reports a mask's shape before an integer out of range */
                bad_axis = d;
                bad_value = v;
            }
            if (bad_axis < 0)
                p->data += j * a->strides[d];
            d++;
            break;
        }
        case ADV_SLICE: {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(it->obj, &start, &stop, &step) < 0)
                return -1;
            Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)a->shape[d], &start, &stop, step);
            if (len > 0)
                p->data += (int64_t)start * a->strides[d];
            if (add_view_dim(p, len, a->strides[d] * step) < 0)
                return -1;
            d++;
            break;
        }
        case ADV_NEWAXIS:
            if (add_view_dim(p, 1, 0) < 0)
                return -1;
            break;
        case ADV_ELLIPSIS:
            for (Py_ssize_t k = 0; k < a->ndim - consumed; k++, d++)
                if (add_view_dim(p, a->shape[d], a->strides[d]) < 0)
                    return -1;
            break;
        case ADV_ARRAY:
            if (add_index(p, (PgArray *)Py_NewRef(it->arr), d, a->shape[d], a->strides[d]) < 0)
                return -1;
            d++;
            break;
        case ADV_BOOL: {
            PgArray *idx = bool_index(a->device, it->value);
            if (idx == NULL || add_index(p, idx, -1, 1, 0) < 0)
                return -1;
            break;
        }
        default: { /* ADV_MASK: the columns of its nonzero coordinates */
            PgArray *m = it->arr;
            /* NumPy checks each axis of a mask but those of length 0, which fit any axis */
            for (int k = 0; k < m->ndim; k++) {
                if (m->shape[k] != 0 && m->shape[k] != a->shape[d + k]) {
                    PyErr_Format(PyExc_IndexError,
                                 "boolean index did not match indexed array along axis %d; size of axis is %lld "
                                 "but size of corresponding boolean axis is %lld",
                                 d + k, (long long)a->shape[d + k], (long long)m->shape[k]);
                    return -1;
                }
            }
            PgArray *coords = pg_nonzero_coords(m);
            if (coords == NULL)
                return -1;
            for (int k = 0; k < m->ndim; k++, d++) {
                int64_t colstride = coords->strides[0];
                PgArray *col = pg_array_view(coords, coords->data + k * 8, PG_INT64, 1, coords->shape, &colstride);
                if (col == NULL || add_index(p, col, -1, a->shape[d], a->strides[d]) < 0) {
                    Py_DECREF(coords);
                    return -1;
                }
            }
            Py_DECREF(coords);
            break;
        }
        }
    }
    for (; d < a->ndim; d++)
        if (add_view_dim(p, a->shape[d], a->strides[d]) < 0)
            return -1;
    if (bad_axis >= 0)
        return bounds_error(bad_value, bad_axis, a->shape[bad_axis]);
    if (!fancy)
        return 0;

    /* the index arrays broadcast together */
    int nds[MAX_VIEW];
    const int64_t *shapes[MAX_VIEW];
    for (int k = 0; k < p->nidx; k++) {
        nds[k] = p->idx[k]->ndim;
        shapes[k] = p->idx[k]->shape;
    }
    if (pg_broadcast_shapes(p->nidx, nds, shapes, &p->bdim, p->bshape) < 0) {
        /* NumPy's wording for indices: "shape mismatch: indexing arrays could not be ..." */
        PyObject *msg = PyUnicode_FromString("shape mismatch: indexing arrays could not be broadcast together with "
                                             "shapes ");
        for (int k = 0; msg && k < p->nidx; k++) {
            PyObject *r = pg_shape_repr(nds[k], shapes[k]);
            PyObject *joined = r ? PyUnicode_FromFormat("%U%U ", msg, r) : NULL;
            Py_XDECREF(r);
            Py_SETREF(msg, joined);
        }
        PyErr_Clear();
        if (msg) {
            PyErr_SetObject(PyExc_IndexError, msg);
            Py_DECREF(msg);
        }
        return -1;
    }
    if (!consecutive)
        p->insert_at = 0;
    int plain = p->nview - p->nidx;
    if (plain + p->bdim > PG_MAXDIMS)
        return too_many_dims();
    p->rdim = 0;
    for (int v = 0, seen = 0; v <= p->nview; v++) {
        if (seen == p->insert_at && p->rdim == seen)
            for (int b = 0; b < p->bdim; b++) {
                p->rmap[p->rdim] = -1 - b;
                p->rshape[p->rdim++] = p->bshape[b];
            }
        if (v == p->nview)
            break;
        if (p->vidx[v] < 0) {
            p->rmap[p->rdim] = v;
            p->rshape[p->rdim++] = p->vshape[v];
            seen++;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ launching */

/* Launches op over the plan (result layout: rdim/rshape), the other side `val` with strides
 * vstrides over the result's dims. Index arrays beyond PG_MAXINDEX are folded first into one
 * array of byte offsets. Returns 0, or -1 with an exception (IndexError naming the index). */
static int
plan_launch(PgArray *a, Plan *p, int op, char *val, const int64_t *vstrides)
{
    PgIndexArgs args;
    PgArray *folded = NULL;
    int rc = -1;
    pg_array_note_use(a);
    for (int k = 0; k < p->nidx; k++)
        pg_array_note_use(p->idx[k]);
    memset(&args, 0, sizeof args);
    args.itemsize = (int32_t)PG_ITEMSIZE(a);
    args.mode = PG_INDEX_RAISE;
    args.arr = p->data;
    args.val = val;
    int first_idx = 0;
    int64_t bstrides[PG_MAXDIMS];
    pg_fill_strides(p->bdim, p->bshape, 8, 'C', bstrides);

    /* fold index arrays [0, nidx - PG_MAXINDEX + 1) into byte offsets, PG_MAXINDEX at a time */
    while (p->nidx - first_idx > PG_MAXINDEX) {
        PgIndexArgs f;
        memset(&f, 0, sizeof f);
        PgArray *acc = pg_array_new(a->device, PG_INT64, p->bdim, p->bshape, 'C', PG_MEM_DEVICE);
        if (acc == NULL)
            goto done;
        f.ndim = p->bdim;
        f.mode = PG_INDEX_RAISE;
        f.size = pg_shape_size(p->bdim, p->bshape);
        memcpy(f.shape, p->bshape, sizeof(int64_t) * (size_t)p->bdim);
        memcpy(f.strides[PG_SET_VAL], bstrides, sizeof(int64_t) * (size_t)p->bdim);
        int k0 = first_idx, take = PG_MAXINDEX;
        if (folded != NULL) { /* the previous fold is the first of this group */
            f.idx[0] = folded->data;
            f.idx_type[0] = PG_INT64;
            f.axis_len[0] = -1;
            memcpy(f.strides[PG_SET_IDX], bstrides, sizeof(int64_t) * (size_t)p->bdim);
            f.nidx = 1;
            take = PG_MAXINDEX - 1;
        }
        for (int k = k0; k < k0 + take; k++) {
            PgArray *ix = p->idx[k];
            int j = f.nidx++;
            f.idx[j] = ix->data;
            f.idx_type[j] = ix->type;
            f.axis_len[j] = p->vshape[p->idx_vdim[k]];
            f.axis_stride[j] = p->vstrides[p->idx_vdim[k]];
            int off = p->bdim - ix->ndim;
            for (int dd = 0; dd < ix->ndim; dd++)
                f.strides[PG_SET_IDX + j][off + dd] = ix->shape[dd] == 1 ? 0 : ix->strides[dd];
        }
        f.val = acc->data;
        int r = pg_index_launch(a->device, &f, PG_INDEX_OFFSETS);
        if (r != 0) {
            Py_DECREF(acc);
            if (r > 0)
                goto bounds;
            goto done;
        }
        Py_XSETREF(folded, acc);
        first_idx = k0 + take;
    }

    int ns = PG_SET_IDX;
    int nd = p->rdim;
    memcpy(args.shape, p->rshape, sizeof(int64_t) * (size_t)nd);
    memcpy(args.strides[PG_SET_VAL], vstrides, sizeof(int64_t) * (size_t)nd);
    /* set 0 steps through the plain view dims, the index arrays through the broadcast ones */
    for (int r = 0; r < nd; r++)
        args.strides[PG_SET_ARR][r] = p->rmap[r] >= 0 ? p->vstrides[p->rmap[r]] : 0;
    if (folded != NULL) {
        int j = args.nidx++;
        args.idx[j] = folded->data;
        args.idx_type[j] = PG_INT64;
        args.axis_len[j] = -1;
        for (int b = 0; b < p->bdim; b++)
            args.strides[PG_SET_IDX + j][p->insert_at + b] = bstrides[b];
    }
    for (int k = first_idx; k < p->nidx; k++) {
        PgArray *ix = p->idx[k];
        int j = args.nidx++;
        args.idx[j] = ix->data;
        args.idx_type[j] = ix->type;
        args.axis_len[j] = p->vshape[p->idx_vdim[k]];
        args.axis_stride[j] = p->vstrides[p->idx_vdim[k]];
        int off = p->insert_at + p->bdim - ix->ndim;
        for (int dd = 0; dd < ix->ndim; dd++)
            args.strides[PG_SET_IDX + j][off + dd] = ix->shape[dd] == 1 ? 0 : ix->strides[dd];
    }
    ns += args.nidx;
    args.size = pg_shape_size(nd, args.shape);
    if (args.size == 0 && pg_shape_size(p->bdim, p->bshape) > 0) {
        /* nothing to move, but NumPy still checks the indices: walk the broadcast dims only */
        int w = 0;
        for (int r = 0; r < nd; r++) {
            if (p->rmap[r] >= 0)
                continue;
            args.shape[w] = args.shape[r];
            for (int k = 0; k < ns; k++)
                args.strides[k][w] = args.strides[k][r];
            w++;
        }
        nd = w;
        args.size = pg_shape_size(nd, args.shape);
        op = PG_INDEX_CHECK;
    }
    pg_index_merge_dims(&nd, args.shape, ns, args.strides);
    args.ndim = nd;
    int r;
    if (op == PG_INDEX_SCATTER && args.nidx > 0) {
        /* every index is checked before anything is written */
        r = pg_index_launch(a->device, &args, PG_INDEX_CHECK);
        if (r > 0)
            goto bounds;
        if (r < 0)
            goto done;
    }
    r = pg_index_launch(a->device, &args, op);
    if (r > 0)
        goto bounds;
    if (r < 0)
        goto done;
    rc = 0;
    goto done;
bounds:
    /* name the first bad index as NumPy does: the index arrays in order, each in C order */
    for (int k = 0; k < p->nidx; k++) {
        int found = p->idx_axis[k] < 0 ? 0 : find_bad_index(p->idx[k], p->vshape[p->idx_vdim[k]], p->idx_axis[k]);
        if (found != 0)
            goto done;
    }
    PyErr_SetString(PyExc_IndexError, "index out of bounds");
done:
    Py_XDECREF(folded);
    return rc;
}

/* ------------------------------------------------------------------ entry points */

/* The items of key, classified (n items; the tuple's or the key itself). */
static int
parse_items(PgArray *a, PyObject *key, Item *items, Py_ssize_t *n)
{
    PyObject *const *objs = &key;
    Py_ssize_t count = 1;
    if (PyTuple_Check(key)) {
        objs = ((PyTupleObject *)key)->ob_item;
        count = PyTuple_GET_SIZE(key);
    }
    if (count > MAX_ITEMS)
        return too_many_dims();
    for (Py_ssize_t i = 0; i < count; i++) {
        if (classify_item(&items[i], objs[i], a->device) < 0) {
            items_clear(items, i);
            return -1;
        }
    }
    *n = count;
    return 0;
}

/* True when the index is one mask over a's leading dims (m of them). */
static int
lone_mask(PgArray *a, Item *items, Py_ssize_t n)
{
    if (n != 1 || items[0].kind != ADV_MASK)
        return 0;
    PgArray *m = items[0].arr;
    if (m->ndim > a->ndim)
        return 0;
    for (int d = 0; d < m->ndim; d++)
        if (m->shape[d] != a->shape[d])
            return 0;
    return 1;
}

PyObject *
pg_advanced_getitem(PgArray *a, PyObject *key)
{
    Item items[MAX_ITEMS];
    Py_ssize_t n;
    Plan p;
    PgArray *out = NULL;
    if (parse_items(a, key, items, &n) < 0)
        return NULL;
    p.nidx = 0;
    if (lone_mask(a, items, n) && items[0].arr->ndim == a->ndim) {
        PyObject *r = mask_getitem(a, items[0].arr);
        items_clear(items, n);
        return r;
    }
    if (plan_build(a, items, n, &p) < 0)
        goto fail;
    out = pg_array_new(a->device, a->type, p.rdim, p.rshape, 'C', PG_MEM_DEVICE);
    if (out == NULL || plan_launch(a, &p, PG_INDEX_GATHER, out->data, out->strides) < 0)
        goto fail;
    plan_clear(&p);
    items_clear(items, n);
    return (PyObject *)out;
fail:
    Py_XDECREF(out);
    plan_clear(&p);
    items_clear(items, n);
    return NULL;
}

int
pg_same_memory(PgArray *a, PgArray *v)
{
    PyObject *oa = a->base ? a->base : (PyObject *)a, *ov = v->base ? v->base : (PyObject *)v;
    return oa == ov;
}

/* a[mask] = v where v has no dimension of its own for the selected elements (a scalar, or a
 * row broadcast to each of them): a masked copy over a, no index arrays. 0 when v does not
 * fit that form (the general path then handles it, and its errors). */
static int
masked_assign(PgArray *a, PgArray *mask, PgArray *v)
{
    int m = mask->ndim, tail = a->ndim - m;
    int lead = 0;
    while (v->ndim - lead > tail && v->shape[lead] == 1)
        lead++;
    if (v->ndim - lead > tail)
        return 0;
    int off = a->ndim - (v->ndim - lead);
    for (int d = off; d < a->ndim; d++) {
        int64_t k = v->shape[lead + d - off];
        if (k != 1 && k != a->shape[d])
            return 0;
    }
    PgIndexArgs args;
    memset(&args, 0, sizeof args);
    pg_array_note_use(a);
    pg_array_note_use(mask);
    pg_array_note_use(v);
    args.itemsize = (int32_t)PG_ITEMSIZE(a);
    args.arr = a->data;
    args.val = v->data;
    args.nidx = 1;
    args.idx[0] = mask->data;
    args.idx_type[0] = mask->type;
    int nd = a->ndim;
    for (int d = 0; d < nd; d++) {
        args.shape[d] = a->shape[d];
        args.strides[PG_SET_ARR][d] = a->strides[d];
        args.strides[PG_SET_IDX][d] = d < m ? mask->strides[d] : 0;
        int64_t k = d >= off ? v->shape[lead + d - off] : 1;
        args.strides[PG_SET_VAL][d] = k == 1 ? 0 : v->strides[lead + d - off];
    }
    args.size = pg_array_size(a);
    pg_index_merge_dims(&nd, args.shape, PG_SET_IDX + 1, args.strides);
    args.ndim = nd;
    return pg_index_launch(a->device, &args, PG_INDEX_MASKED) < 0 ? -1 : 1;
}

/* NumPy's own rules for a[mask] = v with one mask over all of a's dimensions (or a bare boolean
 * on a 0-d array): v must be 0-d or 1-d, of one element or one per true element. */
static int
full_mask_check(PgArray *a, Item *items, Py_ssize_t n, PgArray *v)
{
    int full = n == 1 && ((items[0].kind == ADV_MASK && items[0].arr->ndim == a->ndim) ||
                          (items[0].kind == ADV_BOOL && a->ndim == 0));
    if (!full)
        return 0;
    if (v->ndim > 1) {
        PyErr_Format(PyExc_TypeError, "NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                                      "input, input has %d dimensions", v->ndim);
        return -1;
    }
    if (v->ndim == 0 || v->shape[0] == 1)
        return 0;
    int64_t count = items[0].kind == ADV_BOOL ? items[0].value : pg_count_true(items[0].arr);
    if (count < 0)
        return -1;
    if (count != v->shape[0]) {
        PyErr_Format(PyExc_ValueError, "NumPy boolean array indexing assignment cannot assign %lld input values to "
                                       "the %lld output values where the mask is true",
                     (long long)v->shape[0], (long long)count);
        return -1;
    }
    return 0;
}

int
pg_advanced_setitem(PgArray *a, PyObject *key, PyObject *value)
{
    Item items[MAX_ITEMS];
    Py_ssize_t n;
    Plan p;
    PgArray *v = NULL;
    int rc = -1;
    int64_t vstrides[PG_MAXDIMS];
    if (parse_items(a, key, items, &n) < 0)
        return -1;
    p.nidx = 0;
    v = pg_value_array(a, value);
    if (v == NULL)
        goto done;
    if (pg_same_memory(a, v)) {
        Py_SETREF(v, pg_array_copy(v, -1, 'C', NULL));
        if (v == NULL)
            goto done;
    }
    if (full_mask_check(a, items, n, v) < 0)
        goto done;
    if (lone_mask(a, items, n)) {
        int r = masked_assign(a, items[0].arr, v);
        if (r != 0) {
            rc = r < 0 ? -1 : 0;
            goto done;
        }
    }
    pg_array_note_use(v);
    if (plan_build(a, items, n, &p) < 0 || pg_value_strides(v, p.rdim, p.rshape, vstrides) < 0 ||
        plan_launch(a, &p, PG_INDEX_SCATTER, v->data, vstrides) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(v);
    plan_clear(&p);
    items_clear(items, n);
    return rc;
}

/* ------------------------------------------------------------------ nonzero and friends */

/* The columns of a (count, ndim) coordinate array, as NumPy's nonzero returns them (views). */
static PyObject *
coords_columns(PgArray *coords)
{
    int nd = (int)coords->shape[1];
    PyObject *t = PyTuple_New(nd);
    if (t == NULL)
        return NULL;
    for (int k = 0; k < nd; k++) {
        int64_t stride = coords->strides[0];
        PgArray *col = pg_array_view(coords, coords->data + k * 8, PG_INT64, 1, coords->shape, &stride);
        if (col == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, (PyObject *)col);
    }
    return t;
}

static PyObject *
nonzero_of(PgArray *a)
{
    if (a->ndim == 0) {
        PyErr_SetString(PyExc_ValueError,
                        a->type == PG_BOOL
                            ? "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                              "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use "
                              "`arr[cond]`."
                            : "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                              "instead.");
        return NULL;
    }
    PgArray *coords = pg_nonzero_coords(a);
    if (coords == NULL)
        return NULL;
    PyObject *t = coords_columns(coords);
    Py_DECREF(coords);
    return t;
}

PyObject *
pg_nonzero(PyObject *obj)
{
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PyObject *r = nonzero_of(a);
    Py_DECREF(a);
    return r;
}

static PyObject *
py_nonzero(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    return pg_nonzero(obj);
}

static PyObject *
py_argwhere(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PgArray *r;
    if (a->ndim == 0) {
        /* (1, 0) when the element is true, (0, 0) when not */
        int t = PyObject_IsTrue((PyObject *)a);
        int64_t shape[2] = {t > 0, 0};
        r = t < 0 ? NULL : pg_array_new(a->device, PG_INT64, 2, shape, 'C', PG_MEM_DEVICE);
    } else {
        r = pg_nonzero_coords(a);
    }
    Py_DECREF(a);
    return (PyObject *)r;
}

static PyObject *
py_flatnonzero(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    PgArray *coords = NULL, *r = NULL, *flat = pg_array_ravel(a, 'C');
    if (flat != NULL && (coords = pg_nonzero_coords(flat)) != NULL) {
        int64_t s8 = 8;
        r = pg_array_view(coords, coords->data, PG_INT64, 1, coords->shape, &s8);
    }
    Py_XDECREF(coords);
    Py_XDECREF(flat);
    Py_DECREF(a);
    return (PyObject *)r;
}

/* _count_true(a): the number of true elements, as a Python int (waits for the device). */
static PyObject *
py_count_true(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    int64_t n = pg_count_true(a);
    Py_DECREF(a);
    return n < 0 ? NULL : PyLong_FromLongLong(n);
}

/* _true_rank(mask): for each element (C order), the number of true elements up to it (int64,
 * flattened): numpy.cumsum of a bool mask, for unique's inverse. */
static PyObject *
py_true_rank(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    PgArray *a = pg_asarray(obj, -1, NULL, -1);
    if (a == NULL)
        return NULL;
    int64_t n = pg_array_size(a), count;
    PgArray *out = pg_array_new(a->device, PG_INT64, 1, &n, 'C', PG_MEM_DEVICE);
    if (out != NULL) {
        PgCompactArgs ca;
        compact_args(&ca, a, PG_COMPACT_RANK);
        ca.out = out->data;
        if (pg_compact_launch(a->device, &ca, &count, NULL, NULL) < 0)
            Py_CLEAR(out);
    }
    Py_DECREF(a);
    return (PyObject *)out;
}

static PyObject *
array_nonzero(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    return nonzero_of((PgArray *)self);
}

PyMethodDef pg_advanced_module_methods[] = {
    {"nonzero", py_nonzero, METH_O,
     "nonzero($module, a)\n--\n\na tuple of int64 arrays, the coordinates of the true (nonzero) elements per axis."},
    {"argwhere", py_argwhere, METH_O, "argwhere($module, a)\n--\n\nthe coordinates of the nonzero elements, (N, a.ndim) int64."},
    {"flatnonzero", py_flatnonzero, METH_O, "flatnonzero($module, a)\n--\n\nthe flat indices of the nonzero elements."},
    {"_count_true", py_count_true, METH_O, NULL},
    {"_true_rank", py_true_rank, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

PyMethodDef pg_array_methods_advanced[] = {
    {"nonzero", array_nonzero, METH_NOARGS, "nonzero($self)\n--\n\nthe coordinates of the nonzero elements, per axis."},
    {NULL, NULL, 0, NULL},
};
