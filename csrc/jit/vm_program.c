/* pygpu._core.VmProgram: a vectorize VM program (kernels/vm.h), made by the Python emitter
 * (pygpu/_compiler/vm.py) and checked here before anything runs it: every opcode known, every
 * register operand inside the register file for the type the instruction gives it, every jump
 * inside the program. A program that passes cannot make the interpreter touch memory outside its
 * register file and operands, whatever bytes it was given. Its blob is copied to a CUDA device's
 * memory the first time it runs there. */
#include "jit/jit.h"
#include "runtime/kernel_table.h"
#include "runtime/memory.h"
#include "runtime/stream.h"
#include "kernels/vmath.h"

#define PG_VM_MAX_SLOTS 1024     /* register slots of one program (CPU: 2 KiB each per thread) */
#define PG_VM_MAX_INSNS 65535    /* jump targets are 16-bit */

/* ------------------------------------------------------------------ checking */

/* Bytes of a register value of compute type t, or 0 when t is not a register type. */
static int
reg_size(int t)
{
    if (t < 0 || t >= PG_NTYPES || t == PG_FLOAT16)
        return 0;
    return pg_type_info[t].itemsize;
}

/* 1 when register r can hold a value of `size` bytes (complex128 takes two slots) */
static int
reg_fits(int r, int size, int nslots)
{
    return size > 0 && r >= 0 && r + (size > 8 ? 2 : 1) <= nslots;
}

static int
bad_insn(int pc, const char *why)
{
    PyErr_Format(PyExc_ValueError, "invalid VM program: instruction %d: %s", pc, why);
    return -1;
}

static int
check_insn(const PgVmInsn *in, int pc, int ninsn, int nslots, int *flags)
{
    int op = in->op;
    if (op < PG_K_copy_b) { /* an op-table loop */
        const PgKernelInfo *k = &pg_kernels[op];
        const uint16_t operands[3] = {in->a, in->b, in->c};
        for (int i = 0; i < k->nin; i++)
            if (!reg_fits(operands[i], reg_size(k->types[i]), nslots))
                return bad_insn(pc, "operand out of range, or a float16 loop");
        if (!reg_fits(in->dst, reg_size(k->types[k->nin]), nslots))
            return bad_insn(pc, "result out of range, or a float16 loop");
        return 0;
    }
    switch (op) {
    case PG_VM_MOVE:
    case PG_VM_MOVE_MASKED:
        if (in->c != 1 && in->c != 2 && in->c != 4 && in->c != 8 && in->c != 16)
            return bad_insn(pc, "move size");
        if (!reg_fits(in->a, in->c, nslots) || !reg_fits(in->dst, in->c, nslots) ||
            (op == PG_VM_MOVE_MASKED && !reg_fits(in->b, 1, nslots)))
            return bad_insn(pc, "move operand out of range");
        return 0;
    case PG_VM_CAST:
        if (!reg_fits(in->a, reg_size(in->b), nslots) || !reg_fits(in->dst, reg_size(in->c), nslots))
            return bad_insn(pc, "cast operand out of range");
        return 0;
    case PG_VM_COMPLEX:
    case PG_VM_REAL:
    case PG_VM_IMAG: {
        if (in->c != PG_COMPLEX64 && in->c != PG_COMPLEX128)
            return bad_insn(pc, "complex type");
        int csize = pg_type_info[in->c].itemsize, rsize = csize / 2;
        int ok = op == PG_VM_COMPLEX
                     ? reg_fits(in->a, rsize, nslots) && reg_fits(in->b, rsize, nslots) && reg_fits(in->dst, csize, nslots)
                     : reg_fits(in->a, csize, nslots) && reg_fits(in->dst, rsize, nslots);
        return ok ? 0 : bad_insn(pc, "complex operand out of range");
    }
    case PG_VM_JUMP:
        *flags |= PG_VM_HAS_JUMPS;
        return in->a <= ninsn ? 0 : bad_insn(pc, "jump outside the program");
    case PG_VM_JUMP_IF_NONE:
        *flags |= PG_VM_HAS_JUMPS;
        if (!reg_fits(in->a, 1, nslots))
            return bad_insn(pc, "mask out of range");
        return in->b <= ninsn ? 0 : bad_insn(pc, "jump outside the program");
    default:
        return bad_insn(pc, "unknown opcode");
    }
}

/* ------------------------------------------------------------------ the type */

static void
program_dealloc(PyObject *self)
{
    PgVmProgramObject *p = (PgVmProgramObject *)self;
    for (int i = 0; i < PG_KERNEL_SLOTS; i++)
        for (int v = 0; v < 2; v++)
            Py_CLEAR(p->tier_fn[i][v]);
    Py_CLEAR(p->dict);
    for (int i = 0; i < p->ndevices; i++)
        if (p->device[i])
            pg_pool_free(p->device[i]);
    PyMem_Free(p->device);
    PyMem_Free(p->host);
    Py_TYPE(self)->tp_free(self);
}

/* An int sequence of at most `max` items into out; returns the count or -1. */
static int
int_list(PyObject *seq, int *out, int max, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* VmProgram(code, consts, nslots, in_regs, in_types, out_reg, out_type): code is the
 * instructions as bytes (5 little-endian uint16 each: op, dst, a, b, c), consts a list of
 * (register, type number, Python value). */
static PyObject *
program_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"code", "consts", "nslots", "in_regs", "in_types", "out_reg", "out_type", NULL};
    Py_buffer code;
    PyObject *consts, *in_regs_obj, *in_types_obj;
    int nslots, out_reg, out_type;
    int in_regs[PG_VM_MAXARGS], in_types[PG_VM_MAXARGS];
    PgVmProgramObject *self = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!iOOii:VmProgram", kwlist, &code, &PyList_Type, &consts,
                                     &nslots, &in_regs_obj, &in_types_obj, &out_reg, &out_type))
        return NULL;
    int nin = int_list(in_regs_obj, in_regs, PG_VM_MAXARGS - 1, "in_regs");
    int nin2 = nin < 0 ? -1 : int_list(in_types_obj, in_types, PG_VM_MAXARGS - 1, "in_types");
    if (nin < 0 || nin2 < 0)
        goto fail;
    if (nin != nin2 || nslots < 0 || nslots > PG_VM_MAX_SLOTS || code.len % sizeof(PgVmInsn) != 0 ||
        (size_t)code.len / sizeof(PgVmInsn) > PG_VM_MAX_INSNS) {
        PyErr_SetString(PyExc_ValueError, "invalid VM program: header");
        goto fail;
    }
    int ninsn = (int)(code.len / sizeof(PgVmInsn));
    Py_ssize_t nconst = PyList_GET_SIZE(consts);
    if (nconst > PG_VM_MAX_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "invalid VM program: too many constants");
        goto fail;
    }
    for (int k = 0; k < nin; k++) {
        if (!reg_fits(in_regs[k], reg_size(in_types[k]), nslots)) {
            PyErr_Format(PyExc_ValueError, "invalid VM program: input %d", k);
            goto fail;
        }
    }
    if (!reg_fits(out_reg, reg_size(out_type), nslots)) {
        PyErr_SetString(PyExc_ValueError, "invalid VM program: output");
        goto fail;
    }
    self = (PgVmProgramObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        goto fail;
    self->nbytes = PG_VM_PROGRAM_BYTES(ninsn, nconst);
    self->host = PyMem_Calloc(1, self->nbytes);
    if (self->host == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    PgVmProgram *h = self->host;
    h->ninsn = ninsn;
    h->nconst = (int32_t)nconst;
    h->nslots = nslots;
    h->nin = nin;
    for (int k = 0; k < nin; k++) {
        h->in_regs[k] = in_regs[k];
        h->in_types[k] = in_types[k];
    }
    h->out_reg = out_reg;
    h->out_type = out_type;
    PgVmConst *kc = (PgVmConst *)PG_VM_CONSTS(h);
    for (Py_ssize_t i = 0; i < nconst; i++) {
        PyObject *item = PyList_GET_ITEM(consts, i), *value;
        if (!PyArg_ParseTuple(item, "iiO;a constant is (register, type, value)", &kc[i].reg, &kc[i].type, &value))
            goto fail;
        if (!reg_fits(kc[i].reg, reg_size(kc[i].type), nslots)) {
            PyErr_Format(PyExc_ValueError, "invalid VM program: constant %zd", i);
            goto fail;
        }
        if (pg_scalar_to_bytes(value, kc[i].type, kc[i].value) < 0)
            goto fail;
    }
    PgVmInsn *insns = (PgVmInsn *)PG_VM_CODE(h);
    const unsigned char *bytes = code.buf;
    int flags = 0;
    for (int pc = 0; pc < ninsn; pc++) {
        uint16_t f[5];
        for (int j = 0; j < 5; j++) /* little-endian, whatever the host */
            f[j] = (uint16_t)(bytes[pc * 10 + 2 * j] | (bytes[pc * 10 + 2 * j + 1] << 8));
        insns[pc].op = f[0];
        insns[pc].dst = f[1];
        insns[pc].a = f[2];
        insns[pc].b = f[3];
        insns[pc].c = f[4];
        if (check_insn(&insns[pc], pc, ninsn, nslots, &flags) < 0)
            goto fail;
    }
    h->flags = flags;
    PyBuffer_Release(&code);
    return (PyObject *)self;
fail:
    PyBuffer_Release(&code);
    Py_XDECREF(self);
    return NULL;
}

static PyObject *
program_get_info(PyObject *self, void *c)
{
    PG_UNUSED(c);
    const PgVmProgram *h = ((PgVmProgramObject *)self)->host;
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:O}", "instructions", h->ninsn, "constants", h->nconst, "slots",
                         h->nslots, "inputs", h->nin, "branches", (h->flags & PG_VM_HAS_JUMPS) ? Py_True : Py_False);
}

static PyGetSetDef program_getset[] = {
    {"info", program_get_info, NULL, "Sizes of the program (instructions, constants, register slots).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PgVmProgram_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu._core.VmProgram",
    .tp_basicsize = sizeof(PgVmProgramObject),
    .tp_dictoffset = offsetof(PgVmProgramObject, dict),
    .tp_dealloc = program_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "VmProgram(code, consts, nslots, in_regs, in_types, out_reg, out_type)\n--\n\n"
              "A checked vectorize VM program (made by pygpu._compiler from a Python function).",
    .tp_new = program_new,
    .tp_getset = program_getset,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
};

/* ------------------------------------------------------------------ device copies */

const PgVmProgram *
pg_vm_program_on(PgVmProgramObject *p, PgDevice *dev)
{
    if (dev->kind == PG_DEVICE_CPU)
        return p->host;
    int i = dev->index;
    if (i < p->ndevices && p->device[i]) {
        /* read by a launch on the current stream: a program freed after it waits for it */
        pg_block_use(p->device[i], pg_stream_current_handle(dev));
        return p->device[i]->ptr;
    }
    if (i >= p->ndevices) {
        struct PgBlock **grown = PyMem_Realloc(p->device, sizeof *grown * (size_t)(i + 1));
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        for (int j = p->ndevices; j <= i; j++)
            grown[j] = NULL;
        p->device = grown;
        p->ndevices = i + 1;
    }
    PgBlock *b = pg_pool_alloc(dev, p->nbytes, PG_MEM_DEVICE, NULL);
    if (b == NULL)
        return NULL;
    /* once per program and device: a synchronous copy, complete before any stream reads it */
    if (dev->backend->memcpy(dev, b->ptr, p->host, p->nbytes, PG_COPY_H2D, NULL) < 0 ||
        dev->backend->stream_synchronize(dev, NULL) < 0) {
        pg_pool_free(b);
        return NULL;
    }
    p->device[i] = b;
    pg_block_use(b, pg_stream_current_handle(dev));
    return b->ptr;
}

/* ------------------------------------------------------------------ module functions */

/* {name: opcode}: the op-table loops ("add_f32") and the VM's own ops ("move", ...). */
static PyObject *
py_vm_opcodes(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    static const char *const vm_ops[] = {"move", "move_masked", "cast", "complex", "real", "imag", "jump",
                                         "jump_if_none"};
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (int k = 0; k < PG_K_copy_b; k++) {
        PyObject *v = PyLong_FromLong(k);
        if (v == NULL || PyDict_SetItemString(d, pg_kernels[k].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    for (int i = 0; i < PG_VM_NOPS - PG_VM_MOVE; i++) {
        PyObject *v = PyLong_FromLong(PG_VM_MOVE + i);
        if (v == NULL || PyDict_SetItemString(d, vm_ops[i], v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

/* _vmath_variant(name=None): the CPU's float32 sin/cos/exp/log variant, or switch to one (tests) */
static PyObject *
py_vmath_variant(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "|z:_vmath_variant", &name))
        return NULL;
    const char *r = pg_vmath_variant(name);
    if (r == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(r);
}

/* _vm_tier_hook(hook): the compiled tier's hook (None: the VM only). pg_vm_launch calls
 * hook(program, device, types) for a contiguous launch on a device where the program has no
 * answer yet: a _Function (the compiled kernel, launched from then on for those operand types),
 * None (not ready: the VM runs, ask again next time) or False (the VM only, on that device).
 * Its full call: hook(program, device, types, now, strided) (jit/vm_launch.c). */
PyObject *pg_vm_tier_hook = NULL;

static PyObject *
py_vm_tier_hook(PyObject *m, PyObject *hook)
{
    PG_UNUSED(m);
    if (hook != Py_None && !PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "_vm_tier_hook takes a callable or None");
        return NULL;
    }
    Py_XSETREF(pg_vm_tier_hook, hook == Py_None ? NULL : Py_NewRef(hook));
    Py_RETURN_NONE;
}

/* _vm_tier_forget(program): the program asks the hook again on every device (tests). */
static PyObject *
py_vm_tier_forget(PyObject *m, PyObject *obj)
{
    PG_UNUSED(m);
    if (!PgVmProgram_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "_vm_tier_forget takes a VmProgram");
        return NULL;
    }
    PgVmProgramObject *p = (PgVmProgramObject *)obj;
    for (int i = 0; i < PG_KERNEL_SLOTS; i++) {
        for (int v = 0; v < 2; v++) {
            Py_CLEAR(p->tier_fn[i][v]);
            p->tier_state[i][v] = 0;
        }
    }
    Py_RETURN_NONE;
}

/* _vm_tier_state(program): {device slot: 'compiled' | 'vm'} where the program has an answer
 * for contiguous operands; with strided=True, for the strided layout. */
static PyObject *
py_vm_tier_state(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"program", "strided", NULL};
    PyObject *obj;
    int v = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p:_vm_tier_state", kwlist, &obj, &v))
        return NULL;
    if (!PgVmProgram_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "_vm_tier_state takes a VmProgram");
        return NULL;
    }
    PgVmProgramObject *p = (PgVmProgramObject *)obj;
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < PG_KERNEL_SLOTS; i++) {
        if (p->tier_state[i][v] == 0)
            continue;
        PyObject *k = PyLong_FromLong(i);
        PyObject *s = PyUnicode_FromString(p->tier_state[i][v] > 0 ? "compiled" : "vm");
        if (k == NULL || s == NULL || PyDict_SetItem(d, k, s) < 0)
            Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(s);
    }
    return d;
}

/* _vmath_loops(): the op-table loops the CPU's VM computes with kernels/vmath.h's whole-array
 * functions (the compiled tier calls pg_math.h's scalar ones for them). */
static PyObject *
py_vmath_loops(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
#define PG_VMATH_NAME(NAME, T) #NAME,
    static const char *const names[] = {PG_VMATH_LOOPS(PG_VMATH_NAME) PG_VMATH_LOOPS2(PG_VMATH_NAME)};
#undef PG_VMATH_NAME
    size_t n = sizeof names / sizeof names[0];
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; t != NULL && i < n; i++) {
        PyObject *v = PyUnicode_FromString(names[i]);
        if (v == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, (Py_ssize_t)i, v);
    }
    return t;
}

PyMethodDef pg_vm_module_methods[] = {
    {"_vmath_loops", py_vmath_loops, METH_NOARGS, NULL},
    {"_vm_tier_hook", py_vm_tier_hook, METH_O, NULL},
    {"_vm_tier_forget", py_vm_tier_forget, METH_O, NULL},
    {"_vm_tier_state", (PyCFunction)(void (*)(void))py_vm_tier_state, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_vm_opcodes", py_vm_opcodes, METH_NOARGS, NULL},
    {"_vmath_variant", py_vmath_variant, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int
pg_jit_init(PyObject *module)
{
    if (PyType_Ready(&PgVmProgram_Type) < 0 || PyModule_AddObjectRef(module, "VmProgram", (PyObject *)&PgVmProgram_Type) < 0)
        return -1;
    pg_program_launch = pg_vm_launch;
    if (PyModule_AddFunctions(module, pg_vm_reduce_methods) < 0)
        return -1;
    return PyModule_AddFunctions(module, pg_vm_module_methods);
}
