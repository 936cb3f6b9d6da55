/* The launch of a VM program over ufunc operands: the loop layout of core/shape.h (broadcast,
 * axes ordered and merged), the program's copy in the device's memory, and the backend's vm_run
 * on the current stream. A layout deeper than the launch arguments hold (PG_VM_MAXDIMS merged
 * dimensions, which only very unusual strides produce) runs as several launches, one per index
 * of the outer dimensions. */
#include "jit/jit.h"
#include "runtime/stream.h"

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
