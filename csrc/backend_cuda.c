/* The CUDA backend (being written). */
#include "backend.h"
#include "device.h"

int
pg_cuda_device_count(const char **reason)
{
    *reason = "the CUDA backend is not built yet";
    return 0;
}

int
pg_cuda_device_init(PgDevice *dev)
{
    PG_UNUSED(dev);
    PyErr_SetString(PgExc_CUDAError, "the CUDA backend is not built yet");
    return -1;
}

const PgBackend pg_backend_cuda = {.name = "cuda"};

PyMethodDef pg_cuda_module_methods[] = {{NULL, NULL, 0, NULL}};
