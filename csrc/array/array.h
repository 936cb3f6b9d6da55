/* The array layer (csrc/array/): the ndarray object. Its type, attributes, views, indexing,
 * creation functions and ranges, and the interop protocols (buffer, CUDA array interface,
 * DLPack, __array__). It may use runtime/, core/ and kernels/; it does not include from math/ or
 * jit/: the arithmetic of its operators is reached through array/number.h.
 *
 * This header: pygpu.ndarray, the C struct, its constructors and the operations other files
 * build on.
 *
 * Memory ownership follows NumPy: an array that allocated its memory owns a pool block
 * (`block`); a view keeps `base`, the array (or foreign object, for memory imported through
 * __cuda_array_interface__ / DLPack) that owns the memory, and never a chain of views. */
#ifndef PG_ARRAY_H
#define PG_ARRAY_H
#include "core/args.h"
#include "core/dtype.h"
#include "runtime/launch.h"
#include "runtime/memory.h"
#include "core/shape.h"

enum {
    PG_C_CONTIGUOUS = 0x1,
    PG_F_CONTIGUOUS = 0x2,
    PG_WRITEABLE = 0x4,
    PG_OWNDATA = 0x8,
    PG_ALIGNED_CLEARED = 0x10, /* setflags(align=False): the ALIGNED flag reads False (the elements are aligned) */
};

typedef struct PgArray {
    PyObject_VAR_HEAD          /* ob_size: ndim; the shape and strides follow the struct */
    char *data;                /* first element (a device address on CUDA) */
    int ndim;
    int type;                  /* PgType */
    int flags;
    PgMemKind mem_kind;        /* what kind of memory data points into */
    int64_t *shape;            /* -> dims[0 .. ndim) */
    int64_t *strides;          /* -> dims[ndim .. 2*ndim), bytes */
    PgDevice *device;          /* borrowed: devices are immortal */
    PgBlock *block;            /* memory this array owns, or NULL */
    PyObject *base;            /* owner of the memory of a view, or NULL */
    PyObject *weakreflist;
    int64_t dims[];
} PgArray;

extern PyTypeObject PgArray_Type;
#define PgArray_Check(o) PyObject_TypeCheck(o, &PgArray_Type)
#define PG_ITEMSIZE(a) ((int64_t)pg_type_info[(a)->type].itemsize)
#define PG_HOST_ACCESSIBLE(a) ((a)->device->kind == PG_DEVICE_CPU || (a)->mem_kind != PG_MEM_DEVICE)

/* Each file that adds methods, attributes or slots to ndarray provides these (module.c merges
 * the tables before PyType_Ready). */
extern PyMethodDef pg_array_methods_core[], pg_array_methods_views[], pg_array_methods_interop[],
    pg_array_methods_number[], pg_array_methods_advanced[], pg_array_methods_takeput[];
extern PyGetSetDef pg_array_getset_core[], pg_array_getset_views[], pg_array_getset_interop[];
int pg_array_type_init(PyObject *module);
/* Adds a table of ndarray methods defined by a layer above (module.c calls it before
 * pg_array_type_init): 0, or -1 with an exception. */
int pg_array_add_methods(PyMethodDef *table);
void pg_views_setup_type(PyTypeObject *t);     /* views.c / indexing.c: mapping, iteration */
void pg_interop_setup_type(PyTypeObject *t);   /* interop.c: buffer protocol */
void pg_number_setup_type(PyTypeObject *t);    /* number.c: number protocol, rich compare */

/* A new array with fresh memory from dev's pool; order 'C' or 'F'. */
PgArray *pg_array_new(PgDevice *dev, int type, int ndim, const int64_t *shape, char order, PgMemKind kind);
/* A new array of the same device/type/shape as `like`; order 'K' keeps its layout (dense, or
 * its axes in the order of their strides), 'A' is F for an F (not C) array, else C. */
PgArray *pg_array_new_like(PgArray *like, int type, char order);
/* A new C-packed array whose axes are laid out in the order of decreasing |order_strides|
 * (stable), as NumPy's order 'K' for a source that is neither C- nor F-contiguous. */
PgArray *pg_array_new_in_stride_order(PgDevice *dev, int type, int ndim, const int64_t *shape,
                                      const int64_t *order_strides, PgMemKind kind);
/* A view of base's memory with the given layout (base may itself be a view). */
PgArray *pg_array_view(PgArray *base, char *data, int type, int ndim, const int64_t *shape,
                       const int64_t *strides);
/* An array over memory owned by a foreign object (kept alive as `base`). */
PgArray *pg_array_wrap(PgDevice *dev, PgMemKind kind, char *data, int type, int ndim, const int64_t *shape,
                       const int64_t *strides, PyObject *owner, int writeable);
void pg_array_update_flags(PgArray *a);
/* a.shape = value (views.c): 0, or -1 with an exception */
int pg_array_set_shape(PgArray *a, PyObject *value);
int64_t pg_array_size(const PgArray *a);
/* 1 when the byte ranges the two arrays span on one device intersect (empty arrays span none). */
int pg_array_bytes_overlap(const PgArray *a, const PgArray *b);

/* dst[...] = src with broadcasting and dtype conversion, across devices too. */
int pg_array_assign(PgArray *dst, PgArray *src);
/* True when writing dst could change src's elements before they are read (shared memory in
 * another layout): the source must then be copied first. */
int pg_array_may_overlap(PgArray *dst, PgArray *src);
/* dst[...] = a Python/NumPy scalar converted to dst's type. */
int pg_array_fill(PgArray *dst, PyObject *value);
/* dst[...] = a NumPy array (any layout/dtype; broadcast to dst's shape). */
int pg_array_assign_numpy(PgArray *dst, PyArrayObject *src);
/* A new array on dev with the contents of a NumPy array (type -1: keep its dtype). */
PgArray *pg_array_from_numpy(PyArrayObject *src, PgDevice *dev, int type);
/* A new NumPy array with a's contents (synchronises). */
PyObject *pg_array_to_numpy(PgArray *a);
/* A copy of a with the given type, order ('C', 'F', 'K', 'A') and device. */
PgArray *pg_array_copy(PgArray *a, int type, char order, PgDevice *dev);
/* a as a 1-d array in `order` ('C', 'F', 'A', 'K'): a view when the strides allow (views.c). */
PgArray *pg_array_ravel(PgArray *a, char order);
/* Raises when the array is read-only. */
int pg_array_check_writeable(PgArray *a);

/* Work on a's memory is about to be queued on its device's current stream: tells the pool (the
 * block then follows that stream; see runtime/memory.h). */
void pg_array_note_use(PgArray *a);
/* The operand of an elementwise launch (runtime/launch.h) for an array; notes the use. */
void pg_operand_from_array(PgOperand *op, PgArray *a);


/* creation.c: the array for any array-like (pygpu.asarray); copy: 1 always, 0 never, -1 when
 * needed; type -1 keeps the input's; dev NULL: the input's device, else the current one. */
PgArray *pg_asarray(PyObject *obj, int type, PgDevice *dev, int copy);
/* creation.c: ndarray(shape, dtype=float, order=None), the type's constructor */
PyObject *pg_array_construct(PyTypeObject *type, PyObject *args, PyObject *kwds);
#endif
