#include "core/pg.h"
#include "runtime/kernel_table.h"

#define PG_DEF1(NAME, S0, SO, EXPR) {#NAME, 1, {PG_TYPE_##S0, PG_TYPE_##SO, -1, -1}},
#define PG_DEF2(NAME, S0, S1, SO, EXPR) {#NAME, 2, {PG_TYPE_##S0, PG_TYPE_##S1, PG_TYPE_##SO, -1}},
#define PG_DEF3(NAME, S0, S1, S2, SO, EXPR) \
    {#NAME, 3, {PG_TYPE_##S0, PG_TYPE_##S1, PG_TYPE_##S2, PG_TYPE_##SO}},
const PgKernelInfo pg_kernels[PG_NKERNELS] = {
#include "kernels/loops.def"
};

/* [(name, nin, (PgType of each input, output))] of the elementwise loops, in kernel id order. */
static PyObject *
py_kernel_table(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    PyObject *list = PyList_New(PG_NKERNELS);
    if (list == NULL)
        return NULL;
    for (int k = 0; k < PG_NKERNELS; k++) {
        const PgKernelInfo *info = &pg_kernels[k];
        PyObject *types = PyTuple_New(info->nin + 1);
        if (types == NULL)
            goto fail;
        for (int i = 0; i <= info->nin; i++)
            PyTuple_SET_ITEM(types, i, PyLong_FromLong(info->types[i]));
        PyObject *row = Py_BuildValue("(siN)", info->name, info->nin, types);
        if (row == NULL)
            goto fail;
        PyList_SET_ITEM(list, k, row);
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

PyMethodDef pg_kernel_table_module_methods[] = {
    {"_kernel_table", py_kernel_table, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};
