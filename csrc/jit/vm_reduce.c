/* The host side of reductions and scans with VM programs (kernels/vm_reduce.h): pygpu.reduce,
 * vectorize's .reduce/.accumulate (the combiner a user's binary function) and pygpu.fuse's final
 * reduction (the map its fused elementwise program, the combiner an op's). Python picks the
 * programs and dtypes (pygpu/_vreduce.py, _fuse.py); here the operands are broadcast, the axes
 * parsed and laid out (core/reduce_shape.h), the output made as the reductions' (out=, keepdims),
 * and the backend's vm_reduce runs the passes. */
#include "jit/jit.h"
#include "math/reduction.h"
#include "runtime/stream.h"

/* An operand of the map: an array, or a scalar converted to the type the program takes. */
typedef struct {
    PgArray *array;      /* borrowed; NULL: a scalar */
    uint64_t scalar[2];
    int type;
} Input;

/* The programs' device copies and sizes into a; -1 with an exception. */
static int
set_programs(PgVmReduceArgs *a, PgVmProgramObject *comb, PgVmProgramObject *map, PgDevice *dev)
{
    a->comb = pg_vm_program_on(comb, dev);
    if (a->comb == NULL)
        return -1;
    a->comb_slots = comb->host->nslots;
    a->acc_type = comb->host->out_type;
    if (map) {
        a->map = pg_vm_program_on(map, dev);
        if (a->map == NULL)
            return -1;
        a->map_slots = map->host->nslots;
    }
    return 0;
}

/* comb must take two values of its result's type */
static int
check_combiner(PyObject *obj)
{
    if (!PgVmProgram_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "the combiner must be a VmProgram");
        return -1;
    }
    const PgVmProgram *h = ((PgVmProgramObject *)obj)->host;
    if (h->nin != 2 || h->in_types[0] != h->out_type || h->in_types[1] != h->out_type) {
        PyErr_SetString(PyExc_TypeError, "a combiner takes two values of its result's type");
        return -1;
    }
    return 0;
}

static int
run(PgDevice *dev, PgVmReduceArgs *a)
{
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (a->nout == 0 || a->nred_total == 0)
        return 0;
    return dev->backend->vm_reduce(dev, a, pg_stream_current_handle(dev));
}

/* _vm_reduce(inputs, comb, map, axis, keepdims, dtype, out, initial, empty, name): the inputs
 * (pygpu arrays, or numbers for the map's scalar operands) broadcast together, mapped (map None:
 * the one input as the combiner's type) and reduced over axis (None: all; an int; a tuple) by
 * comb, in C order; the result of dtype (out= as the reductions take it). initial is combined in
 * front (None: none); empty is the value of an empty reduction (None: it raises NumPy's error,
 * naming the reduction `name`). commutes: comb commutes, so elements may be combined in any
 * order (the op reducers' way: faster loads). */
static PyObject *
py_vm_reduce(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *inputs, *comb, *map, *axis, *dtype_obj, *outobj, *initial, *empty;
    const char *name;
    int keepdims, commutes = 0;
    if (!PyArg_ParseTuple(args, "O!OOOpOOOOs|p:_vm_reduce", &PyTuple_Type, &inputs, &comb, &map, &axis, &keepdims,
                          &dtype_obj, &outobj, &initial, &empty, &name, &commutes))
        return NULL;
    if (check_combiner(comb) < 0)
        return NULL;
    PgVmProgramObject *mp = map == Py_None ? NULL : (PgVmProgramObject *)map;
    if (mp && !PgVmProgram_Check(map)) {
        PyErr_SetString(PyExc_TypeError, "the map must be a VmProgram or None");
        return NULL;
    }
    const int nin = (int)PyTuple_GET_SIZE(inputs);
    if (nin < 1 || nin >= PG_VM_MAXARGS || (mp ? mp->host->nin != nin : nin != 1)) {
        PyErr_SetString(PyExc_ValueError, "the inputs do not match the map");
        return NULL;
    }
    int rt = pg_type_from_object(dtype_obj, -1);
    if (rt < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a VM reduction needs its result's dtype");
        return NULL;
    }
    const int acc_type = ((PgVmProgramObject *)comb)->host->out_type;
    Input in[PG_VM_MAXARGS];
    PgArray *first = NULL;
    int nds[PG_VM_MAXARGS], narrays = 0;
    const int64_t *shapes[PG_VM_MAXARGS];
    for (int q = 0; q < nin; q++) {
        PyObject *item = PyTuple_GET_ITEM(inputs, q);
        in[q].array = NULL;
        in[q].type = mp ? mp->host->in_types[q] : acc_type;
        if (PgArray_Check(item)) {
            PgArray *arr = (PgArray *)item;
            if (first && arr->device != first->device) {
                pg_raise_different_devices(first->device, arr->device);
                return NULL;
            }
            first = first ? first : arr;
            in[q].array = arr;
            in[q].type = arr->type;
            nds[narrays] = arr->ndim;
            shapes[narrays++] = arr->shape;
        } else if (pg_scalar_to_bytes(item, in[q].type, in[q].scalar) < 0) {
            return NULL;
        }
    }
    if (first == NULL) {
        PyErr_SetString(PyExc_TypeError, "a reduction needs an array among its inputs");
        return NULL;
    }
    int nd;
    int64_t shape[PG_MAXDIMS];
    if (pg_broadcast_shapes(narrays, nds, shapes, &nd, shape) < 0)
        return NULL;
    char reduced[PG_MAXDIMS];
    if (pg_reduce_parse_axis(axis, nd, 0, reduced) < 0)
        return NULL;
    int64_t oshape[PG_MAXDIMS];
    int ond = 0;
    for (int i = 0; i < nd; i++) {
        if (!reduced[i])
            oshape[ond++] = shape[i];
        else if (keepdims)
            oshape[ond++] = 1;
    }
    PgArray *result = NULL, *target = NULL;
    PyObject *ret = NULL;
    if (pg_reduction_output(first, NULL, outobj, rt, ond, oshape, name, &result, &target) < 0)
        goto done;
    int64_t strides[PG_VM_MAXARGS][PG_MAXDIMS];
    for (int q = 0; q < nin; q++) {
        PgArray *arr = in[q].array;
        for (int i = 0; i < nd; i++) {
            int j = arr ? i - (nd - arr->ndim) : -1;
            strides[q][i] = j >= 0 && arr->shape[j] != 1 ? arr->strides[j] : 0;
        }
    }
    for (int i = 0, j = 0; i < nd; i++) {
        if (!reduced[i]) {
            strides[nin][i] = target->strides[j++];
        } else {
            strides[nin][i] = 0;
            j += keepdims;
        }
    }
    PgVmReduceArgs a;
    if (pg_vm_reduce_layout(&a, nin + 1, nd, shape, strides, reduced) < 0)
        goto done;
    if (a.nout > 0 && a.nred_total == 0) { /* the empty reduction: initial (or identity) */
        if (empty == Py_None) {
            PyErr_Format(PyExc_ValueError, "zero-size array to reduction operation %s which has no identity", name);
            goto done;
        }
        if (pg_array_fill(target, empty) < 0)
            goto done;
    } else {
        for (int q = 0; q < nin; q++) {
            a.data[q] = in[q].array ? in[q].array->data : NULL;
            if (in[q].array)
                pg_array_note_use(in[q].array);
            a.types[q] = in[q].type;
            a.scalar[q][0] = in[q].scalar[0];
            a.scalar[q][1] = in[q].scalar[1];
        }
        a.data[nin] = target->data;
        a.types[nin] = target->type;
        pg_array_note_use(target);
        if (commutes)
            a.flags |= PG_VMR_COMMUTE;
        if (initial != Py_None) {
            if (pg_scalar_to_bytes(initial, acc_type, a.init) < 0)
                goto done;
            a.flags |= PG_VMR_INITIAL;
        }
        if (set_programs(&a, (PgVmProgramObject *)comb, mp, first->device) < 0 || run(first->device, &a) < 0)
            goto done;
    }
    if (target != result && pg_array_assign(result, target) < 0)
        goto done;
    ret = Py_NewRef((PyObject *)result);
done:
    Py_XDECREF(result);
    Py_XDECREF(target);
    return ret;
}

/* _vm_accumulate(x, comb, axis, dtype, out): x scanned along axis (an int) by comb, the running
 * values stored as dtype (out= as the scans take it). */
static PyObject *
py_vm_accumulate(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *xobj, *comb, *dtype_obj, *outobj;
    int axis;
    if (!PyArg_ParseTuple(args, "O!OiOO:_vm_accumulate", &PgArray_Type, &xobj, &comb, &axis, &dtype_obj, &outobj))
        return NULL;
    if (check_combiner(comb) < 0)
        return NULL;
    PgArray *x = (PgArray *)xobj;
    int rt = pg_type_from_object(dtype_obj, -1);
    if (rt < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a VM scan needs its result's dtype");
        return NULL;
    }
    if (axis < 0 || axis >= x->ndim) {
        PyErr_SetString(PyExc_ValueError, "a VM scan's axis must be one of the array's");
        return NULL;
    }
    PgArray *result = NULL, *target = NULL;
    PyObject *ret = NULL;
    if (pg_reduction_output(x, NULL, outobj, rt, x->ndim, x->shape, "accumulate", &result, &target) < 0)
        goto done;
    int64_t strides[2][PG_MAXDIMS];
    char reduced[PG_MAXDIMS] = {0};
    reduced[axis] = 1;
    for (int i = 0; i < x->ndim; i++) {
        strides[0][i] = x->shape[i] != 1 ? x->strides[i] : 0;
        strides[1][i] = target->strides[i];
    }
    PgVmReduceArgs a;
    if (pg_vm_reduce_layout(&a, 2, x->ndim, x->shape, strides, reduced) < 0)
        goto done;
    a.flags = PG_VMR_SCAN;
    a.data[0] = x->data;
    a.types[0] = x->type;
    a.data[1] = target->data;
    a.types[1] = target->type;
    pg_array_note_use(x);
    pg_array_note_use(target);
    if (set_programs(&a, (PgVmProgramObject *)comb, NULL, x->device) < 0 || run(x->device, &a) < 0)
        goto done;
    if (target != result && pg_array_assign(result, target) < 0)
        goto done;
    ret = Py_NewRef((PyObject *)result);
done:
    Py_XDECREF(result);
    Py_XDECREF(target);
    return ret;
}

PyMethodDef pg_vm_reduce_methods[] = {
    {"_vm_reduce", py_vm_reduce, METH_VARARGS, NULL},
    {"_vm_accumulate", py_vm_accumulate, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
