/* The image a GPU loads (see module_image.h). NVRTC-built images are xz streams; Python's lzma
 * module inflates them, so the extension links no compression library of its own. */
#include "runtime/module_image.h"

const PgModuleImage *
pg_module_image_pick(const PgFatbinModule *m, int cc)
{
    const PgModuleImage *cubin = NULL, *ptx = NULL;
    for (int k = 0; k < m->nimages; k++) {
        const PgModuleImage *img = &m->images[k];
        if (img->arch == 0)
            return img;
        if (img->arch > cc)
            continue;
        if (img->ptx) {
            if (ptx == NULL || img->arch > ptx->arch)
                ptx = img;
        } else if (img->arch / 10 == cc / 10 && (cubin == NULL || img->arch > cubin->arch)) {
            cubin = img;
        }
    }
    return cubin != NULL ? cubin : ptx;
}

int
pg_module_image_bytes(const PgFatbinModule *m, const PgModuleImage *img, const void **bytes, PyObject **owner)
{
    *owner = NULL;
    if (img->raw_size == 0) {
        *bytes = img->data;
        return 0;
    }
    PyObject *lzma = PyImport_ImportModule("lzma");
    if (lzma == NULL) {
        /* a Python built without liblzma: say what the kernels need */
        PyErr_Format(PyExc_ImportError, "the embedded %s kernels are xz-compressed and this Python has no lzma module "
                     "to inflate them (a Python built without liblzma): use another Python, or build pygpu "
                     "from source with nvcc", m->name);
        return -1;
    }
    PyObject *raw = PyObject_CallMethod(lzma, "decompress", "y#", (const char *)img->data, (Py_ssize_t)img->size);
    Py_DECREF(lzma);
    if (raw == NULL)
        return -1;
    if (!PyBytes_Check(raw) || (size_t)PyBytes_GET_SIZE(raw) != img->raw_size) {
        PyErr_Format(PyExc_RuntimeError, "the embedded %s kernels for %s_%d are damaged: they inflate to %zd bytes, not %zu",
                     m->name, img->ptx ? "compute" : "sm", img->arch,
                     PyBytes_Check(raw) ? PyBytes_GET_SIZE(raw) : (Py_ssize_t)-1, img->raw_size);
        Py_DECREF(raw);
        return -1;
    }
    *bytes = PyBytes_AS_STRING(raw);
    *owner = raw;
    return 0;
}

/* _pick_module_image([(arch, is_ptx), ...], cc): the index pg_module_image_pick chooses, or None
 * (for tests: a build holds one toolchain's images only). */
static PyObject *
py_pick_module_image(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *list;
    int cc;
    if (!PyArg_ParseTuple(args, "O!i:_pick_module_image", &PyList_Type, &list, &cc))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    PgModuleImage *images = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof *images);
    if (images == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, k), "ip", &images[k].arch, &images[k].ptx))
            goto done;
    PgFatbinModule mod = {"test", images, (int)n, NULL, 0};
    const PgModuleImage *img = pg_module_image_pick(&mod, cc);
    result = img == NULL ? Py_NewRef(Py_None) : PyLong_FromSsize_t(img - images);
done:
    PyMem_Free(images);
    return result;
}

/* _inflate_module_image(data, raw_size): pg_module_image_bytes of a compressed image, as bytes. */
static PyObject *
py_inflate_module_image(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    const char *data;
    Py_ssize_t size, raw_size;
    if (!PyArg_ParseTuple(args, "y#n:_inflate_module_image", &data, &size, &raw_size))
        return NULL;
    if (raw_size <= 0) {
        PyErr_SetString(PyExc_ValueError, "raw_size must be positive");
        return NULL;
    }
    PgModuleImage img = {90, 0, (const unsigned char *)data, (size_t)size, (size_t)raw_size};
    PgFatbinModule mod = {"test", &img, 1, NULL, 0};
    const void *bytes;
    PyObject *owner;
    if (pg_module_image_bytes(&mod, &img, &bytes, &owner) < 0)
        return NULL;
    return owner;
}

PyMethodDef pg_module_image_methods[] = {
    {"_pick_module_image", py_pick_module_image, METH_VARARGS, NULL},
    {"_inflate_module_image", py_inflate_module_image, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
