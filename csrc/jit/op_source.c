/* The op table (kernels/ops.def) as text: for each loop its name, the suffix types of its inputs
 * and output, and its expression over x0, x1, x2 as written there. The C that cuda.jit emits
 * (pygpu/_compiler/cemit.py) defines the loops it uses from these, over kernels/pg_math.h, so a
 * Python operator in a kernel computes exactly what the ufunc's loop computes.
 *
 * Nothing of kernels/pg_math.h is included here on purpose: its macros (PG_FN1, PG_WADD, ...)
 * stay unexpanded in the text, and expand in the emitted source for the compiler that reads it. */
#include "jit/kernel.h"

/* <math.h> (through Python.h) defines these as macros: the loops' text must name them as ops.def
 * writes them, not as the host's expansion (__builtin_isinf_sign, which NVRTC lacks). */
#undef isnan
#undef isinf
#undef isfinite
#undef signbit

typedef struct {
    const char *name, *in[3], *out, *expr;
} OpText;

#define PG_DEF1(name, s0, so, expr) {#name, {#s0, NULL, NULL}, #so, #expr},
#define PG_DEF2(name, s0, s1, so, expr) {#name, {#s0, #s1, NULL}, #so, #expr},
#define PG_DEF3(name, s0, s1, s2, so, expr) {#name, {#s0, #s1, #s2}, #so, #expr},
static const OpText op_texts[] = {
#include "kernels/ops.def"
};
#undef PG_DEF1
#undef PG_DEF2
#undef PG_DEF3

/* {loop name: ((input suffixes...), output suffix, expression)} */
PyObject *
pg_op_sources(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof op_texts / sizeof op_texts[0]; i++) {
        const OpText *o = &op_texts[i];
        int n = o->in[2] ? 3 : o->in[1] ? 2 : 1;
        PyObject *ins = n == 1 ? Py_BuildValue("(s)", o->in[0])
                        : n == 2 ? Py_BuildValue("(ss)", o->in[0], o->in[1])
                                 : Py_BuildValue("(sss)", o->in[0], o->in[1], o->in[2]);
        PyObject *v = ins ? Py_BuildValue("(Nss)", ins, o->out, o->expr) : NULL;
        if (v == NULL || PyDict_SetItemString(d, o->name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}
