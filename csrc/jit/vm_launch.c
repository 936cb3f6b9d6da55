/* The launch of a VM program over ufunc operands: the loop layout of core/shape.h (broadcast,
 * axes ordered and merged), the program's copy in the device's memory, and the backend's vm_run
 * on the current stream. A layout deeper than the launch arguments hold (PG_VM_MAXDIMS merged
 * dimensions, which only very unusual strides produce) runs as several launches, one per index
 * of the outer dimensions. */
#include "jit/jit.h"
#include "runtime/stream.h"

#define PG_VM_GPU_SLOTS_HOST 32 /* PG_VM_GPU_SLOTS of kernels/vm.h (backend_cuda_vm.c's limit) */
#define PG_TIER_SCALAR 100 /* added to a scalar operand's type in the tier's key (tier.py knows it) */

/* The device's slot in a program's tier arrays: the CPU 0, cuda:i 1 + i (-1: none). */
static int
tier_slot(PgDevice *dev)
{
    int slot = dev->kind == PG_DEVICE_CPU ? 0 : 1 + dev->index;
    return slot < PG_KERNEL_SLOTS ? slot : -1;
}

/* The compiled tier: 1 when the program's kernel ran over the operands, 0 when the VM is to run
 * them, -1 with an exception. Layouts: every array operand contiguous along one merged
 * dimension (the contiguous kernel: n, then per operand its pointer), else up to
 * PG_TIER_MAXDIMS merged dimensions of any strides (the strided kernel: n, nd, the shape from
 * the innermost dimension out, then per operand its pointer and byte strides). A scalar operand
 * passes its value's two words instead. */
static int
tier_launch(PgVmProgramObject *prog, PgDevice *dev, int nargs, const PgOperand *ops, int nd,
            const int64_t *shape, int64_t (*strides)[PG_MAXDIMS], int64_t size)
{
    int slot = tier_slot(dev);
    if (slot < 0 || nd > PG_TIER_MAXDIMS)
        return 0;
    int v = PG_TIER_CONTIGUOUS; /* (nd 0: one element) */
    for (int k = 0; k < nargs; k++)
        if (ops[k].data != NULL &&
            (nd > 1 || (nd == 1 && size > 1 && strides[k][0] != pg_type_info[ops[k].type].itemsize)))
            v = PG_TIER_STRIDED;
    if (prog->tier_state[slot][v] < 0)
        return 0;
    /* an operand's key: its stored type, + PG_TIER_SCALAR for a scalar */
    int key[PG_VM_MAXARGS];
    for (int k = 0; k < nargs; k++)
        key[k] = ops[k].type + (ops[k].data == NULL ? PG_TIER_SCALAR : 0);
    if (prog->tier_state[slot][v] == 0) {
        PyObject *types = PyTuple_New(nargs);
        if (types == NULL)
            return -1;
        for (int k = 0; k < nargs; k++)
            PyTuple_SET_ITEM(types, k, PyLong_FromLong(key[k]));
        /* a program the CUDA interpreter cannot run (more registers than its file): compile now */
        PyObject *now = dev->kind != PG_DEVICE_CPU && prog->host->nslots > PG_VM_GPU_SLOTS_HOST ? Py_True : Py_False;
        PyObject *r = PyObject_CallFunctionObjArgs(pg_vm_tier_hook, (PyObject *)prog, (PyObject *)dev, types, now,
                                                   v == PG_TIER_STRIDED ? Py_True : Py_False, NULL);
        Py_DECREF(types);
        if (r == NULL)
            return -1;
        if (r == Py_None) {
            Py_DECREF(r);
            return 0;
        }
        if (!PgFunction_Check(r)) {
            Py_DECREF(r);
            prog->tier_state[slot][v] = -1;
            return 0;
        }
        prog->tier_fn[slot][v] = r;
        prog->tier_state[slot][v] = 1;
        for (int k = 0; k < nargs; k++)
            prog->tier_types[slot][v][k] = key[k];
    }
    for (int k = 0; k < nargs; k++) /* compiled for the operand types it first met */
        if (prog->tier_types[slot][v][k] != key[k])
            return 0;
    PgFunction *fn = (PgFunction *)prog->tier_fn[slot][v];
    PgLaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    int64_t blocks;
    if (dev->kind == PG_DEVICE_CPU) { /* one thread per block, a contiguous run of elements each */
        cfg.block[0] = 1;
        blocks = (size + 4095) / 4096;
        if (blocks > (1 << 20))
            blocks = 1 << 20;
    } else { /* 256 threads, about 4 elements each (the kernel's loop is grid-stride) */
        cfg.block[0] = 256;
        blocks = (size + 1023) / 1024;
        if (blocks > (1 << 24))
            blocks = 1 << 24;
    }
    cfg.grid[0] = (unsigned int)(blocks < 1 ? 1 : blocks);
    cfg.grid[1] = cfg.grid[2] = cfg.block[1] = cfg.block[2] = 1;
    int64_t n = size, ndims = nd, dims[PG_TIER_MAXDIMS], st[PG_VM_MAXARGS][PG_TIER_MAXDIMS];
    char *data[PG_VM_MAXARGS];
    uint64_t scalar[PG_VM_MAXARGS][2];
    void *params[1 + 1 + PG_TIER_MAXDIMS + PG_VM_MAXARGS * (1 + PG_TIER_MAXDIMS)];
    int np = 0;
    params[np++] = &n;
    if (v == PG_TIER_STRIDED) {
        params[np++] = &ndims;
        for (int d = 0; d < PG_TIER_MAXDIMS; d++) { /* innermost first; past nd: 1 */
            dims[d] = d < nd ? shape[nd - 1 - d] : 1;
            params[np++] = &dims[d];
        }
    }
    for (int k = 0; k < nargs; k++) {
        data[k] = ops[k].data;
        scalar[k][0] = ops[k].scalar[0];
        scalar[k][1] = ops[k].scalar[1];
        if (data[k] == NULL) {
            params[np++] = &scalar[k][0];
            params[np++] = &scalar[k][1];
            continue;
        }
        params[np++] = &data[k];
        if (v == PG_TIER_STRIDED) {
            for (int d = 0; d < PG_TIER_MAXDIMS; d++) {
                st[k][d] = d < nd ? strides[k][nd - 1 - d] : 0;
                params[np++] = &st[k][d];
            }
        }
    }
    if (dev->backend->kernel_launch(dev, &fn->info, &cfg, params, pg_stream_current_handle(dev)) < 0)
        return -1;
    return 1;
}

int
pg_vm_launch(PyObject *program, PgDevice *dev, int nargs, const PgOperand *ops)
{
    if (!PgVmProgram_Check(program)) {
        PyErr_SetString(PyExc_TypeError, "ufunc loop is not a VM program");
        return -1;
    }
    PgVmProgramObject *prog = (PgVmProgramObject *)program;
    if (PG_DEVICE_CHECK(dev) < 0)
        return -1;
    if (nargs != prog->host->nin + 1 || nargs > PG_VM_MAXARGS) {
        PyErr_Format(PyExc_ValueError, "VM program of %d inputs launched with %d operands", prog->host->nin, nargs);
        return -1;
    }
    int64_t shape[PG_MAXDIMS], strides[PG_VM_MAXARGS][PG_MAXDIMS], size;
    int nd = pg_loop_layout(nargs, ops, shape, strides, &size);
    if (size == 0)
        return 0;
    if (pg_vm_tier_hook != NULL) {
        int done = tier_launch(prog, dev, nargs, ops, nd, shape, strides, size);
        if (done != 0)
            return done < 0 ? -1 : 0;
    }
    PgVmArgs a;
    memset(&a, 0, sizeof a);
    a.program = pg_vm_program_on(prog, dev);
    if (a.program == NULL)
        return -1;
    a.nslots = prog->host->nslots;
    a.flags = prog->host->flags;
    a.nargs = nargs;
    for (int k = 0; k < nargs; k++) {
        a.data[k] = ops[k].data;
        a.types[k] = ops[k].type;
        a.scalar[k][0] = ops[k].scalar[0];
        a.scalar[k][1] = ops[k].scalar[1];
    }
    /* the innermost PG_VM_MAXDIMS dimensions per launch, over every index of the outer ones */
    int outer = nd > PG_VM_MAXDIMS ? nd - PG_VM_MAXDIMS : 0;
    a.ndim = nd - outer;
    a.size = 1;
    for (int d = 0; d < a.ndim; d++) {
        a.shape[d] = shape[outer + d];
        a.size *= a.shape[d];
        for (int k = 0; k < nargs; k++)
            a.strides[k][d] = strides[k][outer + d];
    }
    void *stream = pg_stream_current_handle(dev);
    int64_t idx[PG_MAXDIMS] = {0};
    for (;;) {
        for (int k = 0; k < nargs; k++) {
            a.data[k] = ops[k].data;
            if (a.data[k])
                for (int d = 0; d < outer; d++)
                    a.data[k] += idx[d] * strides[k][d];
        }
        if (dev->backend->vm_run(dev, &a, stream) < 0)
            return -1;
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == shape[d])
            idx[d--] = 0;
        if (d < 0)
            return 0;
    }
}
