/* Streams and events. On the CPU backend they exist with the same API and run synchronously
 * (events then record host timestamps). */
#include "runtime/stream.h"
#include "runtime/memory.h"

#define PG_STREAM_STACK 64

static Py_tss_t stream_key = Py_tss_NEEDS_INIT;

typedef struct {
    int depth;
    PgStream *stack[PG_STREAM_STACK]; /* strong references */
    PgStream *used;                   /* CuPy's stream.use(): current outside `with` blocks, or NULL */
} StreamStack;

/* The thread's current stream: the innermost `with stream:`, else the one use() set (borrowed;
 * NULL: the default stream) */
static PgStream *
current_stream(void)
{
    StreamStack *s = PyThread_tss_get(&stream_key);
    if (s == NULL)
        return NULL;
    return s->depth > 0 ? s->stack[s->depth - 1] : s->used;
}

void *
pg_stream_current_handle(PgDevice *dev)
{
    PgStream *st = current_stream();
    return st && st->device == dev ? st->handle : NULL;
}

int
pg_stream_handle_from_object(PyObject *obj, PgDevice *dev, void **handle)
{
    if (obj == NULL || obj == Py_None) {
        *handle = pg_stream_current_handle(dev);
        return 0;
    }
    if (PgStream_Check(obj)) {
        PgStream *st = (PgStream *)obj;
        if (st->device != dev) {
            PyErr_Format(PyExc_ValueError, "the stream is on %R but the work is on %R", (PyObject *)st->device,
                         (PyObject *)dev);
            return -1;
        }
        *handle = st->handle;
        return 0;
    }
    if (PyLong_Check(obj)) {
        unsigned long long v = PyLong_AsUnsignedLongLong(obj);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        /* 0, 1 (legacy) and 2 (per-thread) name default streams in the CUDA array interface */
        *handle = (v <= 2) ? NULL : (void *)(uintptr_t)v;
        if (dev->kind == PG_DEVICE_CPU)
            *handle = NULL;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "stream must be a pygpu.Stream, an int handle or None, not %.200s",
                 Py_TYPE(obj)->tp_name);
    return -1;
}

/* ------------------------------------------------------------------ Stream */

static PyObject *
stream_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", "null", "non_blocking", NULL};
    PyObject *devobj = NULL;
    int null = 0, non_blocking = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$pp:Stream", kwlist, &devobj, &null, &non_blocking))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL || PG_DEVICE_CHECK(dev) < 0)
        return NULL;
    PgStream *self = (PgStream *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->device = dev;
    self->handle = NULL;
    self->owned = 0;
    self->non_blocking = non_blocking && !null;
    if (!null) {
        if (dev->backend->stream_create(dev, non_blocking, &self->handle) < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->owned = 1;
        /* the pool keeps the handle while memory it cached is tagged with it */
        if (pg_pool_stream_add(dev, self->handle, non_blocking) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

static void
stream_dealloc(PyObject *obj)
{
    PgStream *self = (PgStream *)obj;
    if (self->owned && self->handle)
        pg_pool_stream_remove(self->device, self->handle);
    Py_TYPE(obj)->tp_free(obj);
}

static PyObject *
stream_repr(PyObject *obj)
{
    PgStream *self = (PgStream *)obj;
    return PyUnicode_FromFormat("<pygpu.Stream %p on %S>", self->handle, (PyObject *)self->device);
}

static PyObject *
stream_synchronize(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    PgStream *self = (PgStream *)obj;
    if (self->device->backend->stream_synchronize(self->device, self->handle) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
stream_query(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    PgStream *self = (PgStream *)obj;
    int rc = self->device->backend->stream_query(self->device, self->handle);
    if (rc < 0)
        return NULL;
    return PyBool_FromLong(rc);
}

static PyObject *
stream_wait_event(PyObject *obj, PyObject *ev)
{
    PgStream *self = (PgStream *)obj;
    if (!PyObject_TypeCheck(ev, &PgEvent_Type)) {
        PyErr_SetString(PyExc_TypeError, "wait_event() takes a pygpu.Event");
        return NULL;
    }
    PgEvent *e = (PgEvent *)ev;
    if (e->device != self->device) {
        PyErr_SetString(PyExc_ValueError, "the event and the stream are on different devices");
        return NULL;
    }
    if (self->device->backend->stream_wait_event(self->device, self->handle, e->handle) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
stream_record(PyObject *obj, PyObject *args)
{
    PgStream *self = (PgStream *)obj;
    PyObject *ev = Py_None;
    if (!PyArg_ParseTuple(args, "|O:record", &ev))
        return NULL;
    if (ev == Py_None) {
        ev = PyObject_CallFunctionObjArgs((PyObject *)&PgEvent_Type, (PyObject *)self->device, NULL);
        if (ev == NULL)
            return NULL;
    } else if (!PyObject_TypeCheck(ev, &PgEvent_Type)) {
        PyErr_SetString(PyExc_TypeError, "record() takes a pygpu.Event or nothing");
        return NULL;
    } else {
        Py_INCREF(ev);
    }
    PgEvent *e = (PgEvent *)ev;
    if (self->device->backend->event_record(self->device, e->handle, self->handle) < 0) {
        Py_DECREF(ev);
        return NULL;
    }
    e->recorded = 1;
    return ev;
}

static StreamStack *
thread_streams(void)
{
    StreamStack *s = PyThread_tss_get(&stream_key);
    if (s == NULL) {
        s = PyMem_RawCalloc(1, sizeof(StreamStack));
        if (s == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        if (PyThread_tss_set(&stream_key, s) != 0) {
            PyMem_RawFree(s);
            PyErr_SetString(PyExc_RuntimeError, "could not set thread-local stream state");
            return NULL;
        }
    }
    return s;
}

/* stream.use(): this thread's current stream from now on (outside `with stream:` blocks), as
 * CuPy's Stream.use; returns the stream */
static PyObject *
stream_use(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    StreamStack *s = thread_streams();
    if (s == NULL)
        return NULL;
    Py_XSETREF(s->used, (PgStream *)Py_NewRef(obj));
    return Py_NewRef(obj);
}

/* _current_stream(): the thread's current stream, or None for the default stream */
static PyObject *
py_current_stream(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    PgStream *st = current_stream();
    return st ? Py_NewRef((PyObject *)st) : Py_NewRef(Py_None);
}

static PyObject *
stream_enter(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    StreamStack *s = thread_streams();
    if (s == NULL)
        return NULL;
    if (s->depth >= PG_STREAM_STACK) {
        PyErr_SetString(PyExc_RuntimeError, "`with stream:` blocks nested too deeply");
        return NULL;
    }
    s->stack[s->depth++] = (PgStream *)Py_NewRef(obj);
    return Py_NewRef(obj);
}

static PyObject *
stream_exit(PyObject *obj, PyObject *args)
{
    PG_UNUSED(args);
    StreamStack *s = PyThread_tss_get(&stream_key);
    if (s == NULL || s->depth == 0 || (PyObject *)s->stack[s->depth - 1] != obj) {
        PyErr_SetString(PyExc_RuntimeError, "Stream.__exit__ does not match the innermost `with stream:`");
        return NULL;
    }
    s->depth--;
    Py_DECREF(obj);
    Py_RETURN_NONE;
}

static PyObject *
stream_get_ptr(PyObject *obj, void *closure)
{
    PG_UNUSED(closure);
    return PyLong_FromVoidPtr(((PgStream *)obj)->handle);
}

static PyObject *
stream_get_device(PyObject *obj, void *closure)
{
    PG_UNUSED(closure);
    return Py_NewRef((PyObject *)((PgStream *)obj)->device);
}

static PyObject *
stream_get_done(PyObject *obj, void *closure)
{
    PG_UNUSED(closure);
    return stream_query(obj, NULL);
}

static PyObject *
stream_get_non_blocking(PyObject *obj, void *closure)
{
    PG_UNUSED(closure);
    return PyBool_FromLong(((PgStream *)obj)->non_blocking);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", stream_synchronize, METH_NOARGS, "synchronize($self, /)\n--\n\nWait until all work queued on the stream is done."},
    {"query", stream_query, METH_NOARGS, "query($self, /)\n--\n\nTrue when all work queued on the stream is done."},
    {"wait_event", stream_wait_event, METH_O, "wait_event($self, event, /)\n--\n\nMake later work on this stream wait for the event."},
    {"record", stream_record, METH_VARARGS, "record($self, event=None, /)\n--\n\nThe event (a new one when None) recorded on this stream."},
    {"use", stream_use, METH_NOARGS,
     "use($self, /)\n--\n\nMake this the thread's current stream (outside `with stream:` blocks), as CuPy's "
     "Stream.use(); returns the stream."},
    {"__enter__", stream_enter, METH_NOARGS, NULL},
    {"__exit__", stream_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"ptr", stream_get_ptr, NULL, "the backend stream handle as an int (0: the default stream)", NULL},
    {"handle", stream_get_ptr, NULL, "the backend stream handle as an int (0: the default stream)", NULL},
    {"device", stream_get_device, NULL, "the stream's device", NULL},
    {"done", stream_get_done, NULL, "True when all work queued on the stream is done", NULL},
    {"non_blocking", stream_get_non_blocking, NULL, "True when the stream does not order with the default stream",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject PgStream_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu.Stream",
    .tp_basicsize = sizeof(PgStream),
    .tp_dealloc = stream_dealloc,
    .tp_repr = stream_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, /* numba.cuda's Stream (pygpu/cuda.py) adds names */
    .tp_doc = "Stream(device=None, *, null=False, non_blocking=False)\n--\n\nA CUDA stream, ordered with the "
              "default stream like CuPy's and Numba's (non_blocking=True: not ordered with it; null=True: the "
              "device's default stream itself). `with stream:` makes it the current stream of this thread. On "
              "the CPU device work runs synchronously.",
    .tp_methods = stream_methods,
    .tp_getset = stream_getset,
    .tp_new = stream_new,
};

/* ------------------------------------------------------------------ Event */

static PyObject *
event_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"device", NULL};
    PyObject *devobj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Event", kwlist, &devobj))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL || PG_DEVICE_CHECK(dev) < 0)
        return NULL;
    PgEvent *self = (PgEvent *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->device = dev;
    self->recorded = 0;
    if (dev->backend->event_create(dev, &self->handle) < 0) {
        self->handle = NULL;
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
event_dealloc(PyObject *obj)
{
    PgEvent *self = (PgEvent *)obj;
    if (self->handle)
        self->device->backend->event_destroy(self->device, self->handle);
    Py_TYPE(obj)->tp_free(obj);
}

static PyObject *
event_record(PyObject *obj, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"stream", NULL};
    PgEvent *self = (PgEvent *)obj;
    PyObject *st = Py_None;
    void *handle;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:record", kwlist, &st))
        return NULL;
    if (pg_stream_handle_from_object(st, self->device, &handle) < 0)
        return NULL;
    if (self->device->backend->event_record(self->device, self->handle, handle) < 0)
        return NULL;
    self->recorded = 1;
    Py_RETURN_NONE;
}

static PyObject *
event_synchronize(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    PgEvent *self = (PgEvent *)obj;
    if (self->device->backend->event_synchronize(self->device, self->handle) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
event_query(PyObject *obj, PyObject *unused)
{
    PG_UNUSED(unused);
    PgEvent *self = (PgEvent *)obj;
    int rc = self->device->backend->event_query(self->device, self->handle);
    if (rc < 0)
        return NULL;
    return PyBool_FromLong(rc);
}

static PyObject *
event_elapsed_time(PyObject *obj, PyObject *end)
{
    PgEvent *self = (PgEvent *)obj;
    if (!PyObject_TypeCheck(end, &PgEvent_Type)) {
        PyErr_SetString(PyExc_TypeError, "elapsed_time() takes the end pygpu.Event");
        return NULL;
    }
    PgEvent *e = (PgEvent *)end;
    if (!self->recorded || !e->recorded) {
        PyErr_SetString(PyExc_RuntimeError, "both events must be recorded before elapsed_time()");
        return NULL;
    }
    if (e->device != self->device) {
        PyErr_SetString(PyExc_ValueError, "the two events are on different devices");
        return NULL;
    }
    float ms = 0;
    if (self->device->backend->event_elapsed(self->device, self->handle, e->handle, &ms) < 0)
        return NULL;
    return PyFloat_FromDouble(ms);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_VARARGS | METH_KEYWORDS,
     "record($self, stream=None)\n--\n\nRecord the event on the stream (default: the current stream)."},
    {"synchronize", event_synchronize, METH_NOARGS, "synchronize($self, /)\n--\n\nWait until the recorded work is done."},
    {"query", event_query, METH_NOARGS, "query($self, /)\n--\n\nTrue when the recorded work is done."},
    {"elapsed_time", event_elapsed_time, METH_O, "elapsed_time($self, end, /)\n--\n\nMilliseconds from this event to end."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PgEvent_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pygpu.Event",
    .tp_basicsize = sizeof(PgEvent),
    .tp_dealloc = event_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Event(device=None)\n--\n\nA timing event: record() it on a stream, then synchronize() and "
              "elapsed_time(end).",
    .tp_methods = event_methods,
    .tp_new = event_new,
};

static PyMethodDef stream_module_methods[] = {
    {"_current_stream", py_current_stream, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int
pg_stream_init(PyObject *module)
{
    if (PyType_Ready(&PgStream_Type) < 0 || PyType_Ready(&PgEvent_Type) < 0)
        return -1;
    if (PyThread_tss_create(&stream_key) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "could not create thread-local stream state");
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Stream", (PyObject *)&PgStream_Type) < 0 ||
        PyModule_AddObjectRef(module, "Event", (PyObject *)&PgEvent_Type) < 0 ||
        PyModule_AddFunctions(module, stream_module_methods) < 0)
        return -1;
    return 0;
}
