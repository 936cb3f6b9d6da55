/* pygpu.Device: one immortal object per device, the current device (thread-local, a stack for
 * `with device:`), and the backend behind it. */
#ifndef PG_DEVICE_H
#define PG_DEVICE_H
#include "backend.h"

typedef struct PgPool PgPool;

struct PgDevice {
    PyObject_HEAD
    PgDeviceKind kind;
    int index;
    const PgBackend *backend;
    PgPool *pool;         /* caching allocator for every memory kind of this device */
    void *impl;           /* backend-private state (the CUDA context and its kernel table) */
    int failed;           /* a sticky error occurred: every later call raises */
    char failure[256];
};

extern PyTypeObject PgDevice_Type;
#define PgDevice_Check(o) (Py_TYPE(o) == &PgDevice_Type)

int pg_device_init(PyObject *module);
PgDevice *pg_device_cpu(void);                          /* borrowed */
/* "cpu", "cuda", "cuda:N", N, a Device, or None (the current device). Borrowed; NULL + error. */
PgDevice *pg_device_from_object(PyObject *obj);
PgDevice *pg_device_current(void);                      /* borrowed; never NULL */
/* The default device before any `with`: PYGPU_DEVICE, else cuda:0 when usable, else cpu. */
PgDevice *pg_device_default(void);
/* Raises the device's sticky failure, if any. */
int pg_device_check(PgDevice *dev);
#define PG_DEVICE_CHECK(dev) ((dev)->failed ? pg_device_check(dev) : 0)

/* CUDA availability (backend_cuda.c): the number of usable devices, or 0 with the reason. */
int pg_cuda_device_count(const char **reason);
int pg_cuda_device_init(PgDevice *dev);                 /* context + kernels for dev->index */
#endif
