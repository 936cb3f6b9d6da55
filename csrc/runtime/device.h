/* pygpu.Device: the Python type of the device record (backend.h), one immortal object per device,
 * and the current device (thread-local, a stack for `with device:`). */
#ifndef PG_DEVICE_H
#define PG_DEVICE_H
#include "runtime/backend.h"

extern PyTypeObject PgDevice_Type;
#define PgDevice_Check(o) (Py_TYPE(o) == &PgDevice_Type)

int pg_device_init(PyObject *module);
PgDevice *pg_device_cpu(void);                          /* borrowed */
/* "cpu", "cuda", "cuda:N", N, a Device, or None (the current device). Borrowed; NULL + error. */
PgDevice *pg_device_from_object(PyObject *obj);
PgDevice *pg_device_current(void);                      /* borrowed; never NULL */
/* The default device before any `with`: PYGPU_DEVICE, else cuda:0 when usable, else cpu. */
PgDevice *pg_device_default(void);
/* CUDA availability: the number of usable devices, or 0 with the reason. */
int pg_cuda_device_count(const char **reason);
/* Module functions of devices (_cuda_device_properties). */
extern PyMethodDef pg_device_module_methods[];
#endif
