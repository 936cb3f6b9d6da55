/* pygpu.Stream and pygpu.Event, and the thread-local current stream (`with stream:`). */
#ifndef PG_STREAM_H
#define PG_STREAM_H
#include "runtime/device.h"

typedef struct {
    PyObject_HEAD
    PgDevice *device;
    void *handle;      /* backend handle; NULL is the device's default (legacy) stream */
    int owned;         /* created by us, handed back to the pool with the object */
    int non_blocking;  /* does not order with the legacy default stream */
} PgStream;

typedef struct {
    PyObject_HEAD
    PgDevice *device;
    void *handle;
    int recorded;
} PgEvent;

extern PyTypeObject PgStream_Type;
extern PyTypeObject PgEvent_Type;
#define PgStream_Check(o) PyObject_TypeCheck(o, &PgStream_Type)

int pg_stream_init(PyObject *module);
/* The backend handle of the current stream for dev (NULL = default stream). */
void *pg_stream_current_handle(PgDevice *dev);
/* The handle for a `stream=` argument: None/absent means current; 0 means the default stream;
 * a pygpu.Stream (which must be on dev); an int handle (as in __cuda_array_interface__). */
int pg_stream_handle_from_object(PyObject *obj, PgDevice *dev, void **handle);
#endif
