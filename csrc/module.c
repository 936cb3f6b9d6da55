/* Module init for pygpu._core: the exceptions, the types, and the module's function tables
 * (each file contributes its own), layer by layer from the bottom up. */
#define PG_IMPORT_ARRAY
#include "array/array.h"
#include "math/linalg.h"
#include "math/ufunc.h"
#include "math/reduction.h"
#include "math/sort.h"
#include "jit/jit.h"
#include "jit/kernel.h"
#include "runtime/kernel_table.h"
#include "runtime/stream.h"

extern PyMethodDef pg_creation_methods[], pg_interop_module_methods[], pg_views_module_methods[],
    pg_cuda_module_methods[], pg_ranges_module_methods[], pg_join_module_methods[],
    pg_array_module_methods[], pg_random_module_methods[], pg_cpu_sort_module_methods[],
    pg_advanced_module_methods[], pg_takeput_module_methods[], pg_module_image_methods[],
    pg_signal_module_methods[], pg_fft_cuda_module_methods[];

static PyObject *
py_synchronize(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"device", NULL};
    PyObject *devobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:synchronize", kwlist, &devobj))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL || PG_DEVICE_CHECK(dev) < 0 || dev->backend->synchronize(dev) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
py_current_device(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return Py_NewRef((PyObject *)pg_device_current());
}

static PyObject *
py_default_device(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return Py_NewRef((PyObject *)pg_device_default());
}

/* Memory pool statistics for a device: (used_bytes, total_bytes, cached_blocks). */
static PyObject *
py_pool_stats(PyObject *m, PyObject *devobj)
{
    PG_UNUSED(m);
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    return Py_BuildValue("(nnn)", (Py_ssize_t)pg_pool_used_bytes(dev), (Py_ssize_t)pg_pool_total_bytes(dev),
                         (Py_ssize_t)pg_pool_cached_blocks(dev));
}

static PyObject *
py_pool_free_all(PyObject *m, PyObject *devobj)
{
    PG_UNUSED(m);
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    if (dev->kind == PG_DEVICE_CUDA && dev->backend->synchronize(dev) < 0)
        return NULL;
    pg_pool_free_all_blocks(dev);
    Py_RETURN_NONE;
}

/* _pool_limit(device[, nbytes]): the memory pool's limit in bytes (0: none), set first when given. */
static PyObject *
py_pool_limit(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *devobj;
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTuple(args, "O|n:_pool_limit", &devobj, &limit))
        return NULL;
    PgDevice *dev = pg_device_from_object(devobj);
    if (dev == NULL)
        return NULL;
    if (limit >= 0)
        pg_pool_set_limit(dev, (size_t)limit);
    return PyLong_FromSize_t(pg_pool_limit(dev));
}

/* (count, reason): the usable CUDA devices, and why there are none. */
static PyObject *
py_cuda_device_count(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    const char *reason = NULL;
    int n = pg_cuda_device_count(&reason);
    return Py_BuildValue("(is)", n, n > 0 ? "" : (reason ? reason : "no CUDA device"));
}

static PyObject *
py_cpu_threads(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return PyLong_FromLong(pg_cpu_threads());
}

static PyMethodDef core_methods[] = {
    {"synchronize", (PyCFunction)(void (*)(void))py_synchronize, METH_VARARGS | METH_KEYWORDS,
     "synchronize($module, device=None)\n--\n\nwait until all work queued on the device is done."},
    {"get_device", py_current_device, METH_NOARGS, "get_device($module)\n--\n\nThe current device of this thread."},
    {"default_device", py_default_device, METH_NOARGS,
     "default_device($module)\n--\n\nThe device used outside any `with device:` block."},
    {"_pool_stats", py_pool_stats, METH_O, NULL},
    {"_pool_free_all", py_pool_free_all, METH_O, NULL},
    {"_pool_limit", py_pool_limit, METH_VARARGS, NULL},
    {"_cuda_device_count", py_cuda_device_count, METH_NOARGS, NULL},
    {"_cpu_threads", py_cpu_threads, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pygpu._core",
    .m_doc = "The C core of pygpu.",
    .m_size = -1,
};

static int
add_functions(PyObject *module, PyMethodDef *table)
{
    return PyModule_AddFunctions(module, table);
}

PyMODINIT_FUNC
PyInit__core(void)
{
    import_array();
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    if (pg_errors_init(m) < 0)
        goto fail;
    if (pg_array_add_methods(pg_array_methods_sort) < 0 || pg_array_add_methods(pg_array_methods_search) < 0 ||
        pg_array_add_methods(pg_array_methods_reduction) < 0)
        goto fail;
    if (pg_dtype_init() < 0 || pg_device_init(m) < 0 || pg_stream_init(m) < 0 || pg_array_type_init(m) < 0)
        goto fail;
    if (add_functions(m, core_methods) < 0 || add_functions(m, pg_creation_methods) < 0 ||
        add_functions(m, pg_interop_module_methods) < 0 || add_functions(m, pg_views_module_methods) < 0 ||
        add_functions(m, pg_math_module_methods) < 0 || add_functions(m, pg_ufunc_module_methods) < 0 ||
        add_functions(m, pg_cuda_module_methods) < 0 ||
        add_functions(m, pg_device_module_methods) < 0 || add_functions(m, pg_ranges_module_methods) < 0 ||
        add_functions(m, pg_join_module_methods) < 0 || add_functions(m, pg_array_module_methods) < 0 ||
        add_functions(m, pg_kernel_table_module_methods) < 0 || add_functions(m, pg_random_module_methods) < 0 ||
        add_functions(m, pg_linalg_module_methods) < 0 || add_functions(m, pg_linalg_cuda_module_methods) < 0 ||
        add_functions(m, pg_cpu_sort_module_methods) < 0 || add_functions(m, pg_sort_module_methods) < 0 ||
        add_functions(m, pg_advanced_module_methods) < 0 || add_functions(m, pg_search_module_methods) < 0 ||
        add_functions(m, pg_takeput_module_methods) < 0 || add_functions(m, pg_reduction_module_methods) < 0 ||
        add_functions(m, pg_module_image_methods) < 0 || add_functions(m, pg_signal_module_methods) < 0 ||
        add_functions(m, pg_fft_cuda_module_methods) < 0)
        goto fail;
    if (pg_math_init(m) < 0 || pg_linalg_init(m) < 0 || pg_jit_init(m) < 0)
        goto fail;
    /* user kernels: modules, functions, launches; NVRTC */
    if (pg_jit_kernel_init(m) < 0 || add_functions(m, pg_jit_kernel_methods) < 0 ||
        add_functions(m, pg_nvrtc_methods) < 0)
        goto fail;
    if (PyModule_AddIntConstant(m, "_n_kernels", PG_NKERNELS) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
