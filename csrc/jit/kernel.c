/* _core._Module, _core._Function, _core._Kernel and _core._Launcher (see jit/kernel.h). */
#include "jit/kernel.h"
#include "runtime/device.h"
#include "runtime/stream.h"
#include "array/interop.h"

/* ------------------------------------------------------------------ _Module */

static PyObject *
module_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", "image", NULL};
    PyObject *devobj, *image;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO:_Module", kwlist, &devobj, &image))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL || PG_DEVICE_CHECK(dev) < 0)
        return NULL;
    PyObject *source = NULL;
    const void *data;
    size_t size;
    if (dev->kind == PG_DEVICE_CPU) {
        if (!PyUnicode_Check(image)) {
            PyErr_SetString(PyExc_TypeError, "a CPU module is loaded from the path of its shared object (a str)");
            return NULL;
        }
        source = Py_NewRef(image);
        data = PyUnicode_AsUTF8(image);
        if (data == NULL)
            goto fail;
        size = 0;
    } else {
        if (!PyBytes_Check(image)) {
            PyErr_SetString(PyExc_TypeError, "a CUDA module is loaded from its image (bytes: cubin, PTX or fatbin)");
            return NULL;
        }
        /* PTX must end with a NUL; one more byte after a cubin or fatbin is harmless */
        source = PyBytes_FromStringAndSize(NULL, PyBytes_GET_SIZE(image) + 1);
        if (source == NULL)
            return NULL;
        memcpy(PyBytes_AS_STRING(source), PyBytes_AS_STRING(image), (size_t)PyBytes_GET_SIZE(image));
        PyBytes_AS_STRING(source)[PyBytes_GET_SIZE(image)] = 0;
        data = PyBytes_AS_STRING(source);
        size = (size_t)PyBytes_GET_SIZE(image);
    }
    PgModule *self = (PgModule *)type->tp_alloc(type, 0);
    if (self == NULL)
        goto fail;
    self->device = dev;
    self->source = source;
    if (dev->backend->module_load(dev, data, size, &self->handle) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
fail:
    Py_XDECREF(source);
    return NULL;
}

static void
module_dealloc(PyObject *op)
{
    PgModule *self = (PgModule *)op;
    if (self->handle != NULL)
        self->device->backend->module_unload(self->device, self->handle);
    Py_XDECREF(self->source);
    Py_TYPE(op)->tp_free(op);
}

static PgFunction *function_from_module(PgModule *m, PyObject *name, PyObject *signature, PyObject *display);

static PyObject *
module_get_function(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"name", "signature", "display", NULL};
    PyObject *name, *signature = Py_None, *display = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "U|OO:get_function", kwlist, &name, &signature, &display))
        return NULL;
    return (PyObject *)function_from_module((PgModule *)op, name, signature, display);
}

/* A global variable of the module as a 1-d pygpu array of `dtype` (default uint8: its bytes)
 * over its memory, which the array keeps alive through the module. */
static PyObject *
module_get_global(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"name", "dtype", NULL};
    PgModule *self = (PgModule *)op;
    const char *name;
    PyObject *dtype = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|O:get_global", kwlist, &name, &dtype))
        return NULL;
    int type = pg_type_from_object(dtype, PG_UINT8);
    if (type < 0)
        return NULL;
    void *ptr = NULL;
    size_t size = 0;
    int r = self->device->backend->module_global(self->device, self->handle, name, &ptr, &size);
    if (r < 0)
        return NULL;
    if (r == 1) {
        PyErr_Format(PyExc_ValueError, "the module has no global variable '%s'", name);
        return NULL;
    }
    int64_t itemsize = pg_type_info[type].itemsize, n = (int64_t)size / itemsize;
    return (PyObject *)pg_array_wrap(self->device, PG_MEM_DEVICE, ptr, type, 1, &n, &itemsize, op, 1);
}

static PyObject *
module_get_device(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return Py_NewRef((PyObject *)((PgModule *)op)->device);
}

static PyMethodDef module_methods[] = {
    {"get_function", (PyCFunction)(void (*)(void))module_get_function, METH_VARARGS | METH_KEYWORDS,
     "get_function(name, signature=None, display=None): the kernel `name` (its symbol: an extern \"C\" name, a "
     "mangled name, or on the CPU the name expression it was exported as)."},
    {"get_global", (PyCFunction)(void (*)(void))module_get_global, METH_VARARGS | METH_KEYWORDS,
     "get_global(name, dtype=uint8): a global variable of the module as a 1-d array over its memory."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef module_getset[] = {
    {"device", module_get_device, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PgModule_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu._core._Module",
    .tp_doc = "_Module(device, image): compiled kernels loaded on a device (a CUDA image as bytes, or the path of a "
              "shared object of CPU kernels).",
    .tp_basicsize = sizeof(PgModule),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = module_new,
    .tp_dealloc = module_dealloc,
    .tp_methods = module_methods,
    .tp_getset = module_getset,
};

/* ------------------------------------------------------------------ _Function */

/* signature: None, or a sequence of (kind, type, size) per parameter, parsed from the source. The
 * backend's knowledge wins where it has some (the CPU's is exact, CUDA's covers sizes only); a
 * signature of another length than the compiled function's is ignored (a parse gone wrong). */
static int
merge_params(PgFunction *fn, PyObject *signature)
{
    PyObject *seq = NULL;
    Py_ssize_t n = -1;
    if (signature != Py_None) {
        seq = PySequence_Fast(signature, "signature must be a sequence of (kind, type, size)");
        if (seq == NULL)
            return -1;
        n = PySequence_Fast_GET_SIZE(seq);
        if (fn->info.nparams >= 0 && n != fn->info.nparams) {
            Py_CLEAR(seq);
            n = -1;
        }
    }
    int count = fn->info.nparams >= 0 ? fn->info.nparams : (int)n;
    fn->nparams = count;
    if (count < 0) {
        Py_XDECREF(seq);
        return 0;
    }
    fn->params = PyMem_Malloc(sizeof(PgParamInfo) * (size_t)(count ? count : 1));
    if (fn->params == NULL) {
        Py_XDECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PgParamInfo p = fn->info.nparams >= 0 ? fn->info.params[i] : (PgParamInfo){-1, PG_PARAM_UNKNOWN, -1};
        if (seq != NULL) {
            int kind, type, size;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iii;a parameter is (kind, type, size)", &kind,
                                  &type, &size)) {
                Py_DECREF(seq);
                return -1;
            }
            int agrees = size < 0 || p.size < 0 || size == p.size;
            /* an array passed by value is a struct to the backend; the signature says what it holds */
            int array = (kind == PG_PARAM_ARRAY || kind == PG_PARAM_TUPLE || kind == PG_PARAM_RECORDS) &&
                        p.kind == PG_CPU_PARAM_OTHER;
            if ((p.kind == PG_PARAM_UNKNOWN || array || kind == PG_PARAM_BOUND) && agrees) {
                p.kind = kind;
                p.type = type;
            }
            /* the CPU's types know no classes: a pointer to complex<float>, __half or float2 and a
             * complex or __half value are the source's to describe (what the array holds, the
             * number a scalar is converted to) */
            else if (p.kind == PG_CPU_PARAM_POINTER && p.type < 0 && kind == PG_CPU_PARAM_POINTER)
                p.type = type;
            else if (p.kind == PG_CPU_PARAM_OTHER && kind == PG_CPU_PARAM_FLOAT && size == p.size) {
                p.kind = kind;
                p.type = type;
            }
            if (p.size < 0)
                p.size = size;
        }
        fn->params[i] = p;
    }
    Py_XDECREF(seq);
    return 0;
}

static PgFunction *
function_from_module(PgModule *m, PyObject *name, PyObject *signature, PyObject *display)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (s == NULL)
        return NULL;
    PgFunction *fn = PyObject_New(PgFunction, &PgFunction_Type);
    if (fn == NULL)
        return NULL;
    fn->module = (PgModule *)Py_NewRef((PyObject *)m);
    fn->name = Py_NewRef(display != Py_None ? display : name);
    fn->params = NULL;
    fn->nparams = -1;
    fn->cooperative = 0;
    fn->wrap_ints = 0;
    memset(&fn->info, 0, sizeof fn->info);
    int r = m->device->backend->kernel_get(m->device, m->handle, s, &fn->info);
    if (r == 1)
        PyErr_Format(PyExc_ValueError, "the module has no kernel %R", name);
    if (r != 0 || merge_params(fn, signature) < 0) {
        Py_DECREF(fn);
        return NULL;
    }
    return fn;
}

static void
function_dealloc(PyObject *op)
{
    PgFunction *self = (PgFunction *)op;
    PyMem_Free(self->info.params);
    PyMem_Free(self->params);
    Py_XDECREF(self->name);
    Py_XDECREF(self->module);
    PyObject_Free(op);
}

/* CuPy's form: f(grid, block, args, shared_mem=0, stream=None). */
static int
parse_cupy_call(PyObject *args, PyObject *kwds, PyObject **grid, PyObject **block, PyObject **kargs,
                PyObject **shared, PyObject **stream)
{
    /* the five by position or by name (CuPy's sgemm example passes args=, shared_mem=) */
    static const char *names[] = {"grid", "block", "args", "shared_mem", "stream"};
    PyObject **slots[] = {grid, block, kargs, shared, stream};
    for (int k = 0; k < 5; k++)
        *slots[k] = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > 5) {
        PyErr_Format(PyExc_TypeError, "a kernel call takes at most 5 positional arguments, got %zd", n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        *slots[k] = PyTuple_GET_ITEM(args, k);
    if (kwds != NULL) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            int k = 0;
            while (k < 5 && !(PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, names[k]) == 0))
                k++;
            if (k == 5 || *slots[k] != NULL) {
                PyErr_Format(PyExc_TypeError, k == 5 ? "a kernel call got an unexpected keyword argument %R"
                                                     : "a kernel call got argument %R twice", key);
                return -1;
            }
            *slots[k] = value;
        }
    }
    if (*grid == NULL || *block == NULL || *kargs == NULL) {
        PyErr_SetString(PyExc_TypeError, "a kernel is called as kernel(grid, block, args, shared_mem=0, stream=None) "
                                         "or launched as kernel[grid, block](*args)");
        return -1;
    }
    if (!PyTuple_Check(*kargs) && !PyList_Check(*kargs)) {
        PyErr_Format(PyExc_TypeError, "the kernel's arguments must be a tuple or a list, not %.200s",
                     Py_TYPE(*kargs)->tp_name);
        return -1;
    }
    return 0;
}

static PyObject *
function_call(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *grid, *block, *kargs, *shared, *stream;
    if (parse_cupy_call(args, kwds, &grid, &block, &kargs, &shared, &stream) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(kargs, "arguments");
    if (seq == NULL)
        return NULL;
    int rc = pg_function_launch((PgFunction *)op, grid, block, PySequence_Fast_ITEMS(seq), PySequence_Fast_GET_SIZE(seq),
                                shared, stream);
    Py_DECREF(seq);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
function_get_params(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    PgFunction *self = (PgFunction *)op;
    if (self->nparams < 0)
        Py_RETURN_NONE;
    PyObject *t = PyTuple_New(self->nparams);
    for (int i = 0; t != NULL && i < self->nparams; i++) {
        PyObject *p = Py_BuildValue("(iii)", self->params[i].kind, self->params[i].type, self->params[i].size);
        if (p == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

/* The attributes CuPy's RawKernel.attributes reports, from what the backend knows. */
static PyObject *
function_get_attributes(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    const PgFunctionInfo *in = &((PgFunction *)op)->info;
    return Py_BuildValue("{s:i,s:L,s:i,s:i,s:i,s:i,s:i,s:L}", "max_threads_per_block", in->max_threads,
                         "shared_size_bytes", (long long)in->static_shared, "const_size_bytes", in->const_bytes,
                         "local_size_bytes", in->local_bytes, "num_regs", in->num_regs, "ptx_version", in->ptx_version,
                         "binary_version", in->binary_version, "max_dynamic_shared_size_bytes",
                         (long long)in->shared_opted);
}

static PyObject *
function_get_name(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return Py_NewRef(((PgFunction *)op)->name);
}

static PyObject *
function_get_device(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return Py_NewRef((PyObject *)((PgFunction *)op)->module->device);
}

static PyObject *
function_get_module(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return Py_NewRef((PyObject *)((PgFunction *)op)->module);
}

static PyObject *
function_get_cooperative(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return PyBool_FromLong(((PgFunction *)op)->cooperative);
}

static int
function_set_cooperative(PyObject *op, PyObject *value, void *closure)
{
    PG_UNUSED(closure);
    int v = value ? PyObject_IsTrue(value) : 0;
    if (v < 0)
        return -1;
    ((PgFunction *)op)->cooperative = v;
    return 0;
}

static PyObject *
function_get_wrap_ints(PyObject *op, void *closure)
{
    PG_UNUSED(closure);
    return PyBool_FromLong(((PgFunction *)op)->wrap_ints);
}

static int
function_set_wrap_ints(PyObject *op, PyObject *value, void *closure)
{
    PG_UNUSED(closure);
    int v = value ? PyObject_IsTrue(value) : 0;
    if (v < 0)
        return -1;
    ((PgFunction *)op)->wrap_ints = v;
    return 0;
}

static PyGetSetDef function_getset[] = {
    {"wrap_ints", function_get_wrap_ints, function_set_wrap_ints,
     "An integer argument wraps to its integer parameter's width (0xFFFFFFFF is -1 for an int32), "
     "as Numba's ctypes conversion does; else it must fit.", NULL},
    {"cooperative", function_get_cooperative, function_set_cooperative,
     "Launched with every block resident at once (cuLaunchCooperativeKernel), for grid-wide sync.", NULL},
    {"name", function_get_name, NULL, "The kernel's name.", NULL},
    {"device", function_get_device, NULL, "The device it is loaded on.", NULL},
    {"module", function_get_module, NULL, "The _Module it belongs to.", NULL},
    {"params", function_get_params, NULL, "(kind, type, size) per parameter as the launch checks them, or None.", NULL},
    {"attributes", function_get_attributes, NULL, "What the device says of the compiled kernel.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *launcher_make(PyObject *target, PyObject *config);

static PyObject *
function_subscript(PyObject *op, PyObject *config)
{
    return launcher_make(op, config);
}

static PyMappingMethods function_as_mapping = {.mp_subscript = function_subscript};

PyTypeObject PgFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu._core._Function",
    .tp_doc = "A kernel of a _Module on its device: f(grid, block, args, shared_mem=0, stream=None) or "
              "f[grid, block, stream, shared_mem](*args).",
    .tp_basicsize = sizeof(PgFunction),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = function_dealloc,
    .tp_call = function_call,
    .tp_getset = function_getset,
    .tp_as_mapping = &function_as_mapping,
};

/* ------------------------------------------------------------------ _Kernel */

static int
slot_of(PgDevice *dev)
{
    if (dev->kind == PG_DEVICE_CPU)
        return 0;
    return dev->index >= 0 && dev->index < PG_KERNEL_SLOTS - 1 ? dev->index + 1 : -1;
}

/* The kernel's function on dev: cached, else the subclass's _get_function(device). New reference. */
static PgFunction *
kernel_function(PgKernel *self, PgDevice *dev)
{
    int slot = slot_of(dev);
    if (slot >= 0 && self->slots[slot] != NULL)
        return (PgFunction *)Py_NewRef((PyObject *)self->slots[slot]);
    PyObject *f = PyObject_CallMethod((PyObject *)self, "_get_function", "O", (PyObject *)dev);
    if (f == NULL)
        return NULL;
    if (!PgFunction_Check(f) || ((PgFunction *)f)->module->device != dev) {
        PyErr_Format(PyExc_TypeError, "_get_function(%R) must return a _Function on that device, not %.200s",
                     (PyObject *)dev, Py_TYPE(f)->tp_name);
        Py_DECREF(f);
        return NULL;
    }
    if (slot >= 0)
        self->slots[slot] = (PgFunction *)Py_NewRef(f);
    return (PgFunction *)f;
}

/* A launch runs on the device of its first pygpu array argument, else on its stream's device,
 * else on the current device. */
static PgDevice *
launch_device(PyObject *const *args, Py_ssize_t nargs, PyObject *stream)
{
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (PgArray_Check(args[i]))
            return ((PgArray *)args[i])->device;
    if (stream != NULL && PgStream_Check(stream))
        return ((PgStream *)stream)->device;
    return pg_device_current();
}

/* ------------------------------------------------------------------ dispatch by argument types
 * A kernel specialised per argument types (cuda.jit) keeps {key: _Function}; the key, built here
 * on every launch, is the device's slot and three bytes per argument: what it is (array, Python
 * number, NumPy scalar), its element type, and its dimensions with the C-contiguous bit. Objects
 * exported through __cuda_array_interface__ or DLPack are imported first (zero-copy) and launched
 * as the pygpu arrays they become. A miss asks the subclass's _specialize(device, args) (which
 * returns the _Function, or the _Function and the arguments to launch it with), and so
 * does every launch with an argument the three bytes cannot tell ('?': a namedtuple, whose class
 * names its fields). */

#define KEY_INLINE 64

static int
arg_key(PyObject *arg, unsigned char *k)
{
    if (PgArray_Check(arg)) {
        PgArray *a = (PgArray *)arg;
        k[0] = 'A';
        k[1] = (unsigned char)a->type;
        k[2] = (unsigned char)(a->ndim | ((a->flags & PG_C_CONTIGUOUS) ? 0x80 : 0));
        return 0;
    }
    if (PyArray_Check(arg)) {
        PyArrayObject *np = (PyArrayObject *)arg;
        int t = pg_type_from_descr(PyArray_DESCR(np));
        if (t < 0) {
            PyErr_Clear();
            k[0] = '?';  /* a dtype pygpu lacks (records: their fields tell them apart): _specialize */
            return 0;
        }
        k[0] = 'N';
        k[1] = (unsigned char)t;
        k[2] = (unsigned char)(PyArray_NDIM(np) | (PyArray_IS_C_CONTIGUOUS(np) ? 0x80 : 0));
        return 0;
    }
    k[1] = k[2] = 0;
    if (PyBool_Check(arg))
        k[0] = 'b';
    else if (PyLong_CheckExact(arg) || PyLong_Check(arg))
        k[0] = 'i';
    else if (PyFloat_Check(arg))
        k[0] = 'f';
    else if (PyComplex_Check(arg))
        k[0] = 'c';
    else if (PyArray_IsScalar(arg, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(arg);
        if (d == NULL)
            return -1;
        int t = pg_type_from_descr(d);
        Py_DECREF(d);
        if (t < 0) {
            PyErr_Clear();
            t = 0xff;
        }
        k[0] = 's';
        k[1] = (unsigned char)t;
    } else if (PyTuple_CheckExact(arg) && PyTuple_GET_SIZE(arg) <= 255) {
        /* a tuple of numbers: its length and the kind they widen to (bool < int < float < complex) */
        static const char kinds[] = "bifc";
        int rank = 1; /* an empty tuple: of ints */
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(arg) && rank >= 0; j++) {
            PyObject *item = PyTuple_GET_ITEM(arg, j);
            int r = PyBool_Check(item) ? 0 : PyLong_Check(item) ? 1 : PyFloat_Check(item) ? 2 : PyComplex_Check(item) ? 3 : -1;
            rank = r < 0 ? -1 : j == 0 || r > rank ? r : rank;
        }
        k[0] = 't';
        k[1] = (unsigned char)PyTuple_GET_SIZE(arg);
        k[2] = (unsigned char)(rank >= 0 ? kinds[rank] : '?');
    } else
        k[0] = '?';   /* anything else (a namedtuple: its class names its fields): _specialize, every launch */
    return 0;
}

static int
typed_launch(PgKernel *self, PyObject *grid, PyObject *block, PyObject *const *args, Py_ssize_t nargs,
             PyObject *shared, PyObject *stream)
{
    PyObject *inline_args[16], **local = inline_args;
    unsigned char inline_key[KEY_INLINE], *key = inline_key;
    size_t keylen = 1 + 3 * (size_t)nargs;
    Py_ssize_t nimported = 0;
    PgFunction *fn = NULL;
    PyObject *keyobj = NULL, *flat = NULL;
    int rc = -1;
    if (nargs > 16)
        local = PyMem_Malloc(sizeof(PyObject *) * (size_t)nargs);
    if (keylen > KEY_INLINE)
        key = PyMem_Malloc(keylen);
    if (local == NULL || key == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* foreign arrays become pygpu arrays (new references, released below) */
    for (Py_ssize_t i = 0; i < nargs; i++) {
        local[i] = args[i];
        if (PgArray_Check(args[i]) || PyArray_Check(args[i]) || PyLong_Check(args[i]) || PyFloat_Check(args[i]) ||
            PyComplex_Check(args[i]) || PyArray_IsScalar(args[i], Generic))
            continue;
        PgArray *imported = NULL;
        int r = pg_interop_import(args[i], &imported);
        if (r < 0) {
            for (Py_ssize_t j = 0; j < i; j++)
                if (local[j] != args[j])
                    Py_DECREF(local[j]);
            nimported = 0;
            goto done;
        }
        if (r == 1) {
            local[i] = (PyObject *)imported;
            nimported++;
        }
    }
    PgDevice *dev = launch_device(local, nargs, stream);
    key[0] = (unsigned char)slot_of(dev);
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (arg_key(local[i], key + 1 + 3 * i) < 0)
            goto done;
    int keyed = 1; /* three bytes tell the argument's type; not for '?' */
    for (Py_ssize_t i = 0; i < nargs; i++)
        keyed &= key[1 + 3 * i] != '?';
    keyobj = PyBytes_FromStringAndSize((const char *)key, (Py_ssize_t)keylen);
    if (keyobj == NULL)
        goto done;
    fn = keyed ? (PgFunction *)PyDict_GetItemWithError(self->by_type, keyobj) : NULL;
    if (fn != NULL)
        Py_INCREF(fn);
    else {
        if (PyErr_Occurred())
            goto done;
        PyObject *t = PyTuple_New(nargs);
        if (t == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < nargs; i++)
            PyTuple_SET_ITEM(t, i, Py_NewRef(local[i]));
        PyObject *f = PyObject_CallMethod((PyObject *)self, "_specialize", "OO", (PyObject *)dev, t);
        Py_DECREF(t);
        if (f == NULL)
            goto done;
        if (PyTuple_CheckExact(f) && PyTuple_GET_SIZE(f) == 2 && PyTuple_CheckExact(PyTuple_GET_ITEM(f, 1))) {
            /* (function, arguments): launched with those (a tuple of arrays passed as its items), and
             * never cached, since the key cannot tell such arguments apart */
            flat = Py_NewRef(PyTuple_GET_ITEM(f, 1));
            PyObject *g = Py_NewRef(PyTuple_GET_ITEM(f, 0));
            Py_DECREF(f);
            f = g;
            keyed = 0;
        }
        if (!PgFunction_Check(f) || ((PgFunction *)f)->module->device != dev) {
            PyErr_Format(PyExc_TypeError, "_specialize(%R, args) must return a _Function on that device, not %.200s",
                         (PyObject *)dev, Py_TYPE(f)->tp_name);
            Py_DECREF(f);
            goto done;
        }
        fn = (PgFunction *)f;
        if (keyed && PyDict_SetItem(self->by_type, keyobj, f) < 0)
            goto done;
    }
    if (flat != NULL)
        rc = pg_function_launch(fn, grid, block, PySequence_Fast_ITEMS(flat), PyTuple_GET_SIZE(flat), shared, stream);
    else
        rc = pg_function_launch(fn, grid, block, local, nargs, shared, stream);
done:
    Py_XDECREF(flat);
    if (nimported > 0)
        for (Py_ssize_t i = 0; i < nargs; i++)
            if (local[i] != args[i])
                Py_DECREF(local[i]);
    Py_XDECREF(fn);
    Py_XDECREF(keyobj);
    if (local != inline_args)
        PyMem_Free(local);
    if (key != inline_key)
        PyMem_Free(key);
    return rc;
}

static int
kernel_launch(PgKernel *self, PyObject *grid, PyObject *block, PyObject *const *args, Py_ssize_t nargs,
              PyObject *shared, PyObject *stream)
{
    if (self->by_type != NULL)
        return typed_launch(self, grid, block, args, nargs, shared, stream);
    PgDevice *dev = launch_device(args, nargs, stream);
    PgFunction *fn = kernel_function(self, dev);
    if (fn == NULL)
        return -1;
    int rc = pg_function_launch(fn, grid, block, args, nargs, shared, stream);
    Py_DECREF(fn);
    return rc;
}

static PyObject *
kernel_call(PyObject *op, PyObject *args, PyObject *kwds)
{
    PyObject *grid, *block, *kargs, *shared, *stream;
    if (parse_cupy_call(args, kwds, &grid, &block, &kargs, &shared, &stream) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(kargs, "arguments");
    if (seq == NULL)
        return NULL;
    int rc = kernel_launch((PgKernel *)op, grid, block, PySequence_Fast_ITEMS(seq), PySequence_Fast_GET_SIZE(seq), shared,
                           stream);
    Py_DECREF(seq);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
kernel_subscript(PyObject *op, PyObject *config)
{
    return launcher_make(op, config);
}

static PyObject *
kernel_function_method(PyObject *op, PyObject *devobj)
{
    PgDevice *dev = pg_device_from_object(devobj);
    return dev == NULL ? NULL : (PyObject *)kernel_function((PgKernel *)op, dev);
}

static PyObject *
kernel_forget(PyObject *op, PyObject *unused)
{
    PG_UNUSED(unused);
    PgKernel *self = (PgKernel *)op;
    for (int i = 0; i < PG_KERNEL_SLOTS; i++)
        Py_CLEAR(self->slots[i]);
    if (self->by_type != NULL)
        PyDict_Clear(self->by_type);
    Py_RETURN_NONE;
}

static PyObject *
kernel_dispatch_by_type(PyObject *op, PyObject *unused)
{
    PG_UNUSED(unused);
    PgKernel *self = (PgKernel *)op;
    if (self->by_type == NULL && (self->by_type = PyDict_New()) == NULL)
        return NULL;
    Py_RETURN_NONE;
}

static int
kernel_traverse(PyObject *op, visitproc visit, void *arg)
{
    PgKernel *self = (PgKernel *)op;
    for (int i = 0; i < PG_KERNEL_SLOTS; i++)
        Py_VISIT(self->slots[i]);
    Py_VISIT(self->by_type);
    return 0;
}

static int
kernel_clear(PyObject *op)
{
    PgKernel *self = (PgKernel *)op;
    for (int i = 0; i < PG_KERNEL_SLOTS; i++)
        Py_CLEAR(self->slots[i]);
    Py_CLEAR(self->by_type);
    return 0;
}

static void
kernel_dealloc(PyObject *op)
{
    PyObject_GC_UnTrack(op);
    if (((PgKernel *)op)->weakreflist != NULL)
        PyObject_ClearWeakRefs(op);
    kernel_clear(op);
    Py_TYPE(op)->tp_free(op);
}

static PyMethodDef kernel_methods[] = {
    {"_function", kernel_function_method, METH_O, "_function(device): the kernel's _Function on that device."},
    {"_forget", kernel_forget, METH_NOARGS, "Drops the cached per-device functions."},
    {"_dispatch_by_type", kernel_dispatch_by_type, METH_NOARGS,
     "Makes launches pick a function per device and argument types, asking _specialize(device, args) on a miss."},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods kernel_as_mapping = {.mp_subscript = kernel_subscript};

PyTypeObject PgKernel_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu._core._Kernel",
    .tp_doc = "Base of kernels launched from Python: k(grid, block, args, shared_mem=0, stream=None) (CuPy) or "
              "k[grid, block, stream, shared_mem](*args) (Numba). Subclasses define _get_function(device).",
    .tp_basicsize = sizeof(PgKernel),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = kernel_dealloc,
    .tp_traverse = kernel_traverse,
    .tp_clear = kernel_clear,
    .tp_call = kernel_call,
    .tp_methods = kernel_methods,
    .tp_as_mapping = &kernel_as_mapping,
    .tp_weaklistoffset = offsetof(PgKernel, weakreflist),
};

/* ------------------------------------------------------------------ _Launcher */

typedef struct {
    PyObject_HEAD
    PyObject *target;   /* a _Kernel or a _Function */
    PyObject *grid, *block, *stream, *shared;
    vectorcallfunc vectorcall;
} PgLauncher;

static PyObject *
launcher_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PgLauncher *self = (PgLauncher *)op;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "kernel arguments are positional");
        return NULL;
    }
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int rc;
    if (PgFunction_Check(self->target))
        rc = pg_function_launch((PgFunction *)self->target, self->grid, self->block, args, nargs, self->shared,
                                self->stream);
    else
        rc = kernel_launch((PgKernel *)self->target, self->grid, self->block, args, nargs, self->shared, self->stream);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static void
launcher_dealloc(PyObject *op)
{
    PgLauncher *self = (PgLauncher *)op;
    Py_XDECREF(self->target);
    Py_XDECREF(self->grid);
    Py_XDECREF(self->block);
    Py_XDECREF(self->stream);
    Py_XDECREF(self->shared);
    PyObject_Free(op);
}

PyTypeObject PgLauncher_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu._core._Launcher",
    .tp_doc = "kernel[grid, block, stream, shared_mem]: call it with the kernel's arguments.",
    .tp_basicsize = sizeof(PgLauncher),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_dealloc = launcher_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(PgLauncher, vectorcall),
};

/* Numba's launch configuration: [grid, block], [grid, block, stream], [grid, block, stream, shared]. */
static PyObject *
launcher_make(PyObject *target, PyObject *config)
{
    Py_ssize_t n = PyTuple_Check(config) ? PyTuple_GET_SIZE(config) : 1;
    if (n < 2 || n > 4) {
        PyErr_SetString(PyExc_ValueError, "a launch configuration is [grid, block], [grid, block, stream] or "
                                          "[grid, block, stream, shared_mem]");
        return NULL;
    }
    PgLauncher *self = PyObject_New(PgLauncher, &PgLauncher_Type);
    if (self == NULL)
        return NULL;
    self->vectorcall = launcher_vectorcall;
    self->target = Py_NewRef(target);
    self->grid = Py_NewRef(PyTuple_GET_ITEM(config, 0));
    self->block = Py_NewRef(PyTuple_GET_ITEM(config, 1));
    self->stream = n > 2 ? Py_NewRef(PyTuple_GET_ITEM(config, 2)) : NULL;
    self->shared = n > 3 ? Py_NewRef(PyTuple_GET_ITEM(config, 3)) : NULL;
    return (PyObject *)self;
}

/* ------------------------------------------------------------------ module init */

/* The text of kernels/cuda_cpu.h with the headers it includes, embedded at build time
 * (cuda_cpu_source.c, generated by setup.py). */
extern const char pg_cuda_cpu_header[];

static PyObject *
py_cuda_cpu_header(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return PyUnicode_FromString(pg_cuda_cpu_header);
}

/* kernels/jit_prelude.h, likewise: the prelude of the C that cuda.jit emits. */
extern const char pg_jit_prelude[];

static PyObject *
py_jit_prelude(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return PyUnicode_FromString(pg_jit_prelude);
}

/* The headers users' kernels may include (<cupy/complex.cuh>, ...), likewise: setup.py's
 * USER_HEADERS, whose text _jit/headers.py writes to an include folder for the compilers. */
extern const int pg_user_header_count;
extern const char *const pg_user_header_names[];
extern const char pg_user_header_cpu_only[];
extern const char *const pg_user_header_texts[];

static PyObject *
py_user_headers(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    PyObject *list = PyList_New(pg_user_header_count);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < pg_user_header_count; i++) {
        PyObject *item = Py_BuildValue("(ssO)", pg_user_header_names[i], pg_user_header_texts[i],
                                       pg_user_header_cpu_only[i] ? Py_True : Py_False);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

PyMethodDef pg_jit_kernel_methods[] = {
    {"_cuda_cpu_header", py_cuda_cpu_header, METH_NOARGS,
     "The header that CUDA C kernels are compiled with for the CPU (kernels/cuda_cpu.h)."},
    {"_jit_prelude", py_jit_prelude, METH_NOARGS,
     "The prelude of the CUDA C that cuda.jit emits (kernels/jit_prelude.h)."},
    {"_user_headers", py_user_headers, METH_NOARGS,
     "[(name, text, for the CPU only)] of the headers users' kernels may include (<cupy/complex.cuh>, ...)."},
    {"_op_sources", pg_op_sources, METH_NOARGS,
     "{loop: ((input suffixes), output suffix, expression)} of the op table, as written in kernels/ops.def."},
    {NULL, NULL, 0, NULL},
};

int
pg_jit_kernel_init(PyObject *module)
{
    if (PyType_Ready(&PgModule_Type) < 0 || PyType_Ready(&PgFunction_Type) < 0 || PyType_Ready(&PgKernel_Type) < 0 ||
        PyType_Ready(&PgLauncher_Type) < 0)
        return -1;
    if (PyModule_AddObjectRef(module, "_Module", (PyObject *)&PgModule_Type) < 0 ||
        PyModule_AddObjectRef(module, "_Function", (PyObject *)&PgFunction_Type) < 0 ||
        PyModule_AddObjectRef(module, "_Kernel", (PyObject *)&PgKernel_Type) < 0 ||
        PyModule_AddObjectRef(module, "_Launcher", (PyObject *)&PgLauncher_Type) < 0)
        return -1;
    return 0;
}
