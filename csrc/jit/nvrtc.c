/* CUDA C compiled by NVRTC (loaded at run time, runtime/nvrtc_loader.h): the module functions
 * pygpu/_jit/nvrtc.py calls to load the library and compile a program into a cubin (for a real
 * architecture) or PTX (for a virtual one), with the lowered names of C++ name expressions.
 * Compile errors raise pygpu.CompileError carrying NVRTC's log. */
#include "jit/kernel.h"
#include "runtime/nvrtc_loader.h"

static int
nvrtc_loaded(void)
{
    if (pg_nvrtc.nvrtcCreateProgram != NULL)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "NVRTC is not loaded (pygpu._jit.nvrtc loads it)");
    return 0;
}

static int
nvrtc_raise(nvrtcResult r, const char *call)
{
    const char *what = pg_nvrtc.nvrtcGetErrorString ? pg_nvrtc.nvrtcGetErrorString(r) : NULL;
    PyErr_Format(PyExc_RuntimeError, "%s failed: %s (%d)", call, what ? what : "unknown NVRTC error", r);
    return -1;
}

static PyObject *
nvrtc_error(nvrtcResult r, const char *call)
{
    nvrtc_raise(r, call);
    return NULL;
}

/* _nvrtc_load(paths): loads the first of the candidate libraries that works; its path. */
static PyObject *
py_nvrtc_load(PyObject *m, PyObject *paths)
{
    PG_UNUSED(m);
    PyObject *seq = PySequence_Fast(paths, "paths must be a sequence of str");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **names = PyMem_Calloc((size_t)n + 1, sizeof(char *));
    PyObject *result = NULL;
    if (names == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(p) || (names[i] = PyUnicode_AsUTF8(p)) == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "paths must be a sequence of str");
            goto done;
        }
    }
    char err[600];
    const char *loaded = pg_nvrtc_load(names, err, sizeof err);
    if (loaded == NULL)
        PyErr_SetString(PyExc_OSError, err);
    else
        result = PyUnicode_FromString(loaded);
done:
    PyMem_Free(names);
    Py_DECREF(seq);
    return result;
}

/* (major, minor) of the loaded NVRTC. */
static PyObject *
py_nvrtc_version(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    if (!nvrtc_loaded())
        return NULL;
    int major = 0, minor = 0;
    nvrtcResult r = pg_nvrtc.nvrtcVersion(&major, &minor);
    if (r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcVersion");
    return Py_BuildValue("(ii)", major, minor);
}

/* The real architectures NVRTC compiles for (75, 80, ...), or None when it cannot tell (< 11.2). */
static PyObject *
py_nvrtc_supported_archs(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    if (!nvrtc_loaded())
        return NULL;
    if (pg_nvrtc.nvrtcGetNumSupportedArchs == NULL || pg_nvrtc.nvrtcGetSupportedArchs == NULL)
        Py_RETURN_NONE;
    int n = 0;
    nvrtcResult r = pg_nvrtc.nvrtcGetNumSupportedArchs(&n);
    if (r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcGetNumSupportedArchs");
    int *archs = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    if (archs == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    r = pg_nvrtc.nvrtcGetSupportedArchs(archs);
    if (r != NVRTC_SUCCESS)
        nvrtc_raise(r, "nvrtcGetSupportedArchs");
    else if ((result = PyTuple_New(n)) != NULL)
        for (int i = 0; i < n; i++)
            PyTuple_SET_ITEM(result, i, PyLong_FromLong(archs[i]));
    PyMem_Free(archs);
    return result;
}

static PyObject *
program_log(nvrtcProgram prog)
{
    size_t size = 0;
    if (pg_nvrtc.nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size == 0)
        return PyUnicode_FromString("");
    char *buf = PyMem_Malloc(size);
    if (buf == NULL)
        return PyErr_NoMemory();
    PyObject *log = pg_nvrtc.nvrtcGetProgramLog(prog, buf) == NVRTC_SUCCESS
                        ? PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strnlen(buf, size), "replace")
                        : PyUnicode_FromString("");
    PyMem_Free(buf);
    return log;
}

static void
compile_error(PyObject *name, PyObject *log)
{
    PyObject *msg = PyUnicode_FromFormat("NVRTC could not compile %U:\n%U", name, log);
    if (msg == NULL)
        return;
    PyObject *exc = PyObject_CallOneArg(PgExc_CompileError, msg);
    Py_DECREF(msg);
    if (exc == NULL)
        return;
    if (PyObject_SetAttrString(exc, "log", log) == 0)
        PyErr_SetObject(PgExc_CompileError, exc);
    Py_DECREF(exc);
}

/* The compiled image: the cubin when NVRTC made one (a real architecture), else the PTX. */
static PyObject *
program_image(nvrtcProgram prog, const char **kind)
{
    size_t size = 0;
    if (pg_nvrtc.nvrtcGetCUBINSize != NULL && pg_nvrtc.nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
        PyObject *img = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
        if (img == NULL)
            return NULL;
        nvrtcResult r = pg_nvrtc.nvrtcGetCUBIN(prog, PyBytes_AS_STRING(img));
        if (r != NVRTC_SUCCESS) {
            Py_DECREF(img);
            return nvrtc_error(r, "nvrtcGetCUBIN");
        }
        *kind = "cubin";
        return img;
    }
    nvrtcResult r = pg_nvrtc.nvrtcGetPTXSize(prog, &size);
    if (r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcGetPTXSize");
    PyObject *img = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (img == NULL)
        return NULL;
    if ((r = pg_nvrtc.nvrtcGetPTX(prog, PyBytes_AS_STRING(img))) != NVRTC_SUCCESS) {
        Py_DECREF(img);
        return nvrtc_error(r, "nvrtcGetPTX");
    }
    /* the size counts the terminating NUL: the module loader adds its own */
    if (size > 0 && PyBytes_AS_STRING(img)[size - 1] == 0)
        _PyBytes_Resize(&img, (Py_ssize_t)size - 1);
    *kind = "ptx";
    return img;
}

/* _nvrtc_compile(source, name, options, name_expressions) -> (image, 'cubin' | 'ptx', log,
 * {name expression: lowered name}). */
static PyObject *
py_nvrtc_compile(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PyObject *source, *name, *options, *exprs;
    if (!PyArg_ParseTuple(args, "UUOO:_nvrtc_compile", &source, &name, &options, &exprs) || !nvrtc_loaded())
        return NULL;
    const char *src = PyUnicode_AsUTF8(source), *pname = PyUnicode_AsUTF8(name);
    if (src == NULL || pname == NULL)
        return NULL;
    PyObject *optseq = PySequence_Fast(options, "options must be a sequence of str");
    if (optseq == NULL)
        return NULL;
    PyObject *exprseq = PySequence_Fast(exprs, "name_expressions must be a sequence of str");
    if (exprseq == NULL) {
        Py_DECREF(optseq);
        return NULL;
    }
    PyObject *result = NULL, *log = NULL, *image = NULL, *lowered = NULL;
    nvrtcProgram prog = NULL;
    Py_ssize_t nopt = PySequence_Fast_GET_SIZE(optseq), nexpr = PySequence_Fast_GET_SIZE(exprseq);
    const char **opts = PyMem_Calloc((size_t)nopt + 1, sizeof(char *));
    if (opts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nopt; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(optseq, i);
        if (!PyUnicode_Check(o) || (opts[i] = PyUnicode_AsUTF8(o)) == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "options must be a sequence of str");
            goto done;
        }
    }
    nvrtcResult r = pg_nvrtc.nvrtcCreateProgram(&prog, src, pname, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        nvrtc_raise(r, "nvrtcCreateProgram");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nexpr; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(exprseq, i);
        const char *s = PyUnicode_Check(e) ? PyUnicode_AsUTF8(e) : NULL;
        if (s == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "name_expressions must be a sequence of str");
            goto done;
        }
        if ((r = pg_nvrtc.nvrtcAddNameExpression(prog, s)) != NVRTC_SUCCESS) {
            nvrtc_raise(r, "nvrtcAddNameExpression");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    r = pg_nvrtc.nvrtcCompileProgram(prog, (int)nopt, opts);
    Py_END_ALLOW_THREADS
    if ((log = program_log(prog)) == NULL)
        goto done;
    if (r == NVRTC_ERROR_COMPILATION) {
        compile_error(name, log);
        goto done;
    }
    if (r != NVRTC_SUCCESS) {
        nvrtc_raise(r, "nvrtcCompileProgram");
        goto done;
    }
    const char *kind = NULL;
    if ((image = program_image(prog, &kind)) == NULL || (lowered = PyDict_New()) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < nexpr; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(exprseq, i);
        const char *low = NULL;
        if ((r = pg_nvrtc.nvrtcGetLoweredName(prog, PyUnicode_AsUTF8(e), &low)) != NVRTC_SUCCESS) {
            nvrtc_raise(r, "nvrtcGetLoweredName");
            goto done;
        }
        PyObject *v = PyUnicode_FromString(low);
        if (v == NULL || PyDict_SetItem(lowered, e, v) < 0) {
            Py_XDECREF(v);
            goto done;
        }
        Py_DECREF(v);
    }
    result = Py_BuildValue("(OsOO)", image, kind, log, lowered);
done:
    if (prog != NULL)
        pg_nvrtc.nvrtcDestroyProgram(&prog);
    PyMem_Free(opts);
    Py_XDECREF(log);
    Py_XDECREF(image);
    Py_XDECREF(lowered);
    Py_DECREF(optseq);
    Py_DECREF(exprseq);
    return result;
}

PyMethodDef pg_nvrtc_methods[] = {
    {"_nvrtc_load", py_nvrtc_load, METH_O, "_nvrtc_load(paths): loads the first NVRTC library that works; its path."},
    {"_nvrtc_version", py_nvrtc_version, METH_NOARGS, "(major, minor) of the loaded NVRTC."},
    {"_nvrtc_supported_archs", py_nvrtc_supported_archs, METH_NOARGS,
     "The real architectures the loaded NVRTC compiles for, or None."},
    {"_nvrtc_compile", py_nvrtc_compile, METH_VARARGS,
     "_nvrtc_compile(source, name, options, name_expressions) -> (image, kind, log, lowered names)."},
    {NULL, NULL, 0, NULL},
};
