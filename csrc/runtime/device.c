/* pygpu.Device. Devices are immortal singletons, so C code may hold borrowed pointers to them.
 * The current device is thread-local: a stack pushed by `with device:`, over the device a thread
 * chose with use() (CuPy's Device.use, Numba's cuda.select_device), over the process's default. */
#include "runtime/device.h"
#include "runtime/memory.h"
#include <stdlib.h>

#define PG_MAX_CUDA_DEVICES 64
#define PG_DEVICE_STACK 64

static PgDevice *cpu_device;
static PgDevice *cuda_devices[PG_MAX_CUDA_DEVICES];
static PgDevice *default_device;
static Py_tss_t stack_key = Py_tss_NEEDS_INIT;
static PyThread_type_lock init_lock; /* held while a CUDA device is being initialised */

typedef struct {
    int depth;
    /* each `with d:` entered d; use() inside the block changes that level's current device
     * until the block ends, as CuPy's */
    struct {
        PgDevice *entered, *current;
    } stack[PG_DEVICE_STACK];
    PgDevice *chosen; /* use() outside every block: the thread's device from then on; NULL: none */
} DeviceStack;

static DeviceStack *
thread_stack(int create)
{
    DeviceStack *s = PyThread_tss_get(&stack_key);
    if (s == NULL && create) {
        s = PyMem_RawCalloc(1, sizeof(DeviceStack));
        if (s == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        if (PyThread_tss_set(&stack_key, s) != 0) {
            PyMem_RawFree(s);
            PyErr_SetString(PyExc_RuntimeError, "could not set thread-local device state");
            return NULL;
        }
    }
    return s;
}

static PgDevice *
device_new(PgDeviceKind kind, int index)
{
    PgDevice *d = PyObject_New(PgDevice, &PgDevice_Type);
    if (d == NULL)
        return NULL;
    d->kind = kind;
    d->index = index;
    d->backend = kind == PG_DEVICE_CPU ? &pg_backend_cpu : &pg_backend_cuda;
    d->impl = NULL;
    d->failed = 0;
    d->failure[0] = 0;
    d->pool = pg_pool_new(d);
    if (d->pool == NULL) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

PgDevice *
pg_device_cpu(void)
{
    return cpu_device;
}

int
pg_cuda_device_count(const char **reason)
{
    return pg_backend_cuda.device_count(reason);
}

static PgDevice *
cuda_device(long index)
{
    const char *reason = NULL;
    int count = pg_cuda_device_count(&reason);
    if (count <= 0) {
        PyErr_Format(PgExc_CUDAError, "CUDA is not available: %s", reason ? reason : "no CUDA device");
        return NULL;
    }
    if (index < 0 || index >= count || index >= PG_MAX_CUDA_DEVICES) {
        PyErr_Format(PyExc_ValueError, "invalid CUDA device cuda:%ld: this machine has %d CUDA device%s",
                     index, count, count == 1 ? "" : "s");
        return NULL;
    }
    if (cuda_devices[index] == NULL) {
        /* one thread initialises a device: the backend lets the GIL go while the driver creates
         * the context, and another thread asking meanwhile must wait for that device, not make
         * a second one */
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(init_lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
        if (cuda_devices[index] == NULL) {
            PgDevice *d = device_new(PG_DEVICE_CUDA, (int)index);
            if (d != NULL && d->backend->device_init(d) < 0)
                Py_CLEAR(d);
            cuda_devices[index] = d; /* owned by the table for the life of the process */
        }
        PyThread_release_lock(init_lock);
        if (cuda_devices[index] == NULL)
            return NULL;
    }
    return cuda_devices[index];
}

PgDevice *
pg_device_from_object(PyObject *obj)
{
    if (obj == NULL || obj == Py_None)
        return pg_device_current();
    if (PgDevice_Check(obj))
        return (PgDevice *)obj;
    if (PyLong_Check(obj)) {
        long i = PyLong_AsLong(obj);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        return cuda_device(i);
    }
    if (PyUnicode_Check(obj)) {
        const char *s = PyUnicode_AsUTF8(obj);
        if (s == NULL)
            return NULL;
        if (strcmp(s, "cpu") == 0)
            return cpu_device;
        if (strcmp(s, "cuda") == 0 || strcmp(s, "gpu") == 0)
            return cuda_device(0);
        if (strncmp(s, "cuda:", 5) == 0 && s[5] >= '0' && s[5] <= '9') {
            char *end = NULL;
            long i = strtol(s + 5, &end, 10);
            if (end && *end == 0)
                return cuda_device(i);
        }
        PyErr_Format(PyExc_ValueError, "unknown device %R: expected 'cpu', 'cuda' or 'cuda:N'", obj);
        return NULL;
    }
    /* torch.device and friends: go by their string form */
    if (PyObject_HasAttrString(obj, "type") && PyObject_HasAttrString(obj, "index")) {
        PyObject *str = PyObject_Str(obj);
        if (str == NULL)
            return NULL;
        PgDevice *d = PyUnicode_Check(str) ? pg_device_from_object(str) : NULL;
        Py_DECREF(str);
        return d;
    }
    PyErr_Format(PyExc_TypeError, "expected a device ('cpu', 'cuda:N', an int or a pygpu.Device), got %.200s",
                 Py_TYPE(obj)->tp_name);
    return NULL;
}

PgDevice *
pg_device_default(void)
{
    if (default_device)
        return default_device;
    const char *env = getenv("PYGPU_DEVICE");
    PgDevice *d = NULL;
    if (env && *env) {
        PyObject *s = PyUnicode_FromString(env);
        d = s ? pg_device_from_object(s) : NULL;
        Py_XDECREF(s);
        if (d == NULL) {
            /* A bad PYGPU_DEVICE must not make every call fail: warn and use the CPU. */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "PYGPU_DEVICE=%s is not usable (%S); using the CPU", env,
                             value ? value : Py_None);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
            PyErr_Clear();
            d = cpu_device;
        }
    } else {
        const char *reason = NULL;
        if (pg_cuda_device_count(&reason) > 0) {
            d = cuda_device(0);
            if (d == NULL) {
                PyErr_Clear();
                d = cpu_device;
            }
        } else {
            d = cpu_device;
        }
    }
    default_device = d;
    return d;
}

PgDevice *
pg_device_current(void)
{
    DeviceStack *s = PyThread_tss_get(&stack_key);
    if (s && s->depth > 0)
        return s->stack[s->depth - 1].current;
    if (s && s->chosen)
        return s->chosen;
    return pg_device_default();
}

/* ------------------------------------------------------------------ the Python type */

static PyObject *
device_new_py(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(type);
    static char *kwlist[] = {"device", NULL};
    PyObject *spec = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Device", kwlist, &spec))
        return NULL;
    PgDevice *d = pg_device_from_object(spec);
    Py_XINCREF(d);
    return (PyObject *)d;
}

static void
device_dealloc(PyObject *self)
{
    /* Devices live as long as the process; only a failed construction reaches here. */
    PgDevice *d = (PgDevice *)self;
    PyMem_RawFree(d->pool);
    PyObject_Free(self);
}

static PyObject *
device_repr(PyObject *self)
{
    PgDevice *d = (PgDevice *)self;
    if (d->kind == PG_DEVICE_CPU)
        return PyUnicode_FromString("Device('cpu')");
    return PyUnicode_FromFormat("Device('cuda:%d')", d->index);
}

static PyObject *
device_str(PyObject *self)
{
    PgDevice *d = (PgDevice *)self;
    if (d->kind == PG_DEVICE_CPU)
        return PyUnicode_FromString("cpu");
    return PyUnicode_FromFormat("cuda:%d", d->index);
}

/* A device equals itself and its name ("cpu", "cuda:0"): NumPy's arrays answer device "cpu", and
 * the array API compares devices with == (scikit-learn's checks that inputs share a device). */
static PyObject *
device_richcompare(PyObject *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !(PyUnicode_Check(other) || PyObject_TypeCheck(other, &PgDevice_Type)))
        Py_RETURN_NOTIMPLEMENTED;
    int eq;
    if (PyUnicode_Check(other)) {
        PyObject *name = device_str(self);
        if (name == NULL)
            return NULL;
        eq = PyUnicode_Compare(name, other) == 0;
        Py_DECREF(name);
    } else {
        PgDevice *a = (PgDevice *)self, *b = (PgDevice *)other;
        eq = a->kind == b->kind && (a->kind == PG_DEVICE_CPU || a->index == b->index);
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
device_hash(PyObject *self)
{
    PyObject *name = device_str(self);
    if (name == NULL)
        return -1;
    Py_hash_t h = PyObject_Hash(name); /* as its name's, which it equals */
    Py_DECREF(name);
    return h;
}

static PyObject *
device_enter(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    DeviceStack *s = thread_stack(1);
    if (s == NULL)
        return NULL;
    if (s->depth >= PG_DEVICE_STACK) {
        PyErr_SetString(PyExc_RuntimeError, "`with device:` blocks nested too deeply");
        return NULL;
    }
    s->stack[s->depth].entered = s->stack[s->depth].current = (PgDevice *)self;
    s->depth++;
    return Py_NewRef(self);
}

static PyObject *
device_use(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    DeviceStack *s = thread_stack(1);
    if (s == NULL)
        return NULL;
    if (s->depth > 0)
        s->stack[s->depth - 1].current = (PgDevice *)self;
    else
        s->chosen = (PgDevice *)self;
    Py_RETURN_NONE;
}

static PyObject *
device_exit(PyObject *self, PyObject *args)
{
    PG_UNUSED(args);
    DeviceStack *s = thread_stack(0);
    if (s == NULL || s->depth == 0 || s->stack[s->depth - 1].entered != (PgDevice *)self) {
        PyErr_SetString(PyExc_RuntimeError, "Device.__exit__ does not match the innermost `with device:`");
        return NULL;
    }
    s->depth--;
    Py_RETURN_NONE;
}

static PyObject *
device_synchronize(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PgDevice *d = (PgDevice *)self;
    if (PG_DEVICE_CHECK(d) < 0 || d->backend->synchronize(d) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
device_properties(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PgDevice *d = (PgDevice *)self;
    return d->backend->properties(d);
}

static PyObject *
device_get_kind(PyObject *self, void *closure)
{
    PG_UNUSED(closure);
    return PyUnicode_FromString(((PgDevice *)self)->kind == PG_DEVICE_CPU ? "cpu" : "cuda");
}

static PyObject *
device_get_index(PyObject *self, void *closure)
{
    PG_UNUSED(closure);
    PgDevice *d = (PgDevice *)self;
    if (d->kind == PG_DEVICE_CPU)
        Py_RETURN_NONE;
    return PyLong_FromLong(d->index);
}

static PyObject *
device_get_id(PyObject *self, void *closure)
{
    PG_UNUSED(closure);
    PgDevice *d = (PgDevice *)self;
    return PyLong_FromLong(d->kind == PG_DEVICE_CPU ? -1 : d->index);
}

static PyObject *
device_reduce(PyObject *self, PyObject *unused)
{
    PG_UNUSED(unused);
    PyObject *s = device_str(self);
    if (s == NULL)
        return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)&PgDevice_Type, s);
}

/* Numba's names for a device's attributes (cuda.get_current_device().MAX_THREADS_PER_BLOCK,
 * .compute_capability, .name): read from properties() */
static const struct {
    const char *numba, *key;
} numba_attributes[] = {
    {"MAX_THREADS_PER_BLOCK", "max_threads_per_block"},
    {"MAX_BLOCK_DIM_X", "max_block_dim_x"},
    {"MAX_BLOCK_DIM_Y", "max_block_dim_y"},
    {"MAX_BLOCK_DIM_Z", "max_block_dim_z"},
    {"MAX_GRID_DIM_X", "max_grid_dim_x"},
    {"MAX_GRID_DIM_Y", "max_grid_dim_y"},
    {"MAX_GRID_DIM_Z", "max_grid_dim_z"},
    {"MAX_SHARED_MEMORY_PER_BLOCK", "max_shared_memory_per_block"},
    {"MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", "max_shared_memory_per_block_optin"},
    {"MULTIPROCESSOR_COUNT", "multiprocessors"},
    {"WARP_SIZE", "warp_size"},
    {"MAX_THREADS_PER_MULTI_PROCESSOR", "max_threads_per_multiprocessor"},
    {"MAX_REGISTERS_PER_BLOCK", "max_registers_per_block"},
    {"TOTAL_CONSTANT_MEMORY", "total_constant_memory"},
    {"CLOCK_RATE", "clock_rate_khz"},
    {"L2_CACHE_SIZE", "l2_cache_size"},
    {"compute_capability", "compute_capability"},
    {"name", "name"},
};

static PyObject *
device_getattro(PyObject *self, PyObject *name)
{
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError) || !PyUnicode_Check(name))
        return r;
    for (size_t i = 0; i < sizeof numba_attributes / sizeof numba_attributes[0]; i++) {
        if (PyUnicode_CompareWithASCIIString(name, numba_attributes[i].numba) != 0)
            continue;
        PyErr_Clear();
        PyObject *props = device_properties(self, NULL);
        if (props == NULL)
            return NULL;
        PyObject *v = Py_XNewRef(PyDict_GetItemString(props, numba_attributes[i].key));
        Py_DECREF(props);
        if (v == NULL) /* a property this device has not (a CPU's compute capability) */
            PyErr_Format(PyExc_AttributeError, "the %S device has no attribute '%U'", self, name);
        return v;
    }
    if (PyUnicode_CompareWithASCIIString(name, "mem_info") == 0) { /* CuPy's Device.mem_info: (free, total) */
        PyErr_Clear();
        PyObject *props = device_properties(self, NULL);
        if (props == NULL)
            return NULL;
        PyObject *free_bytes = PyDict_GetItemString(props, "free_memory"),
                 *total = PyDict_GetItemString(props, "total_memory");
        PyObject *v = free_bytes && total ? PyTuple_Pack(2, free_bytes, total) : NULL;
        if (v == NULL && !PyErr_Occurred())
            PyErr_Format(PyExc_AttributeError, "the %S device does not report its memory", self);
        Py_DECREF(props);
        return v;
    }
    return NULL;
}

static PyMethodDef device_methods[] = {
    {"__enter__", device_enter, METH_NOARGS, NULL},
    {"__exit__", device_exit, METH_VARARGS, NULL},
    {"__reduce__", device_reduce, METH_NOARGS, NULL},
    {"synchronize", device_synchronize, METH_NOARGS, "synchronize($self, /)\n--\n\nWait for all work queued on this device."},
    {"use", device_use, METH_NOARGS,
     "use($self, /)\n--\n\nMake this the calling thread's current device (CuPy's Device.use): from now on, or inside a "
     "`with device:` block until the block ends."},
    {"properties", device_properties, METH_NOARGS,
     "properties($self, /)\n--\n\nA dict of the device's properties (name, memory, compute capability, ...)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef device_getset[] = {
    {"kind", device_get_kind, NULL, "'cpu' or 'cuda'", NULL},
    {"type", device_get_kind, NULL, "'cpu' or 'cuda' (as torch.device.type)", NULL},
    {"index", device_get_index, NULL, "the CUDA device ordinal, None for the CPU", NULL},
    {"id", device_get_id, NULL, "the CUDA device ordinal (as cupy.cuda.Device.id), -1 for the CPU", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PgDevice_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu.Device",
    .tp_basicsize = sizeof(PgDevice),
    .tp_dealloc = device_dealloc,
    .tp_repr = device_repr,
    .tp_str = device_str,
    .tp_richcompare = device_richcompare,
    .tp_hash = device_hash,
    .tp_getattro = device_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Device(device=None)\n--\n\nA compute device: Device('cpu'), Device('cuda:0') or Device(0). "
              "Use as a context manager to make it the current device.",
    .tp_methods = device_methods,
    .tp_getset = device_getset,
    .tp_new = device_new_py,
};

int
pg_device_init(PyObject *module)
{
    if (PyType_Ready(&PgDevice_Type) < 0)
        return -1;
    init_lock = PyThread_allocate_lock();
    if (init_lock == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (PyThread_tss_create(&stack_key) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "could not create thread-local device state");
        return -1;
    }
    cpu_device = device_new(PG_DEVICE_CPU, 0);
    if (cpu_device == NULL)
        return -1;
    return PyModule_AddObjectRef(module, "Device", (PyObject *)&PgDevice_Type);
}

/* The properties dict of CUDA device `index` (initialising it), or CUDAError saying why not. */
static PyObject *
py_cuda_device_properties(PyObject *m, PyObject *arg)
{
    PG_UNUSED(m);
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "device index must be an int, not %.200s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    PgDevice *dev = pg_device_from_object(arg);
    if (dev == NULL)
        return NULL;
    return dev->backend->properties(dev);
}

PyMethodDef pg_device_module_methods[] = {
    {"_cuda_device_properties", py_cuda_device_properties, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};
