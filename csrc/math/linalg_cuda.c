/* The cuSOLVER factorisations for pygpu.linalg on CUDA arrays (pygpu/linalg.py composes them):
 * _cusolver_potrf, _getrf, _getrs, _geqrf, _orgqr, _gesvd, _syevd. Each takes "column-major
 * stacks": C-contiguous arrays of shape (..., cols, rows) whose last two axes, read as one
 * column-major rows x cols matrix (leading dimension rows), are what LAPACK works on in place
 * (for a matrix A that is A.mT copied C-contiguously, and the result R comes back as w.mT). Each
 * returns LAPACK's info per matrix as an int32 device array of the batch shape, for the caller
 * to check once synchronised (numpy.linalg.LinAlgError for singular or indefinite matrices). */
#include "math/linalg.h"
#include "runtime/cuda_libs.h"
#include "runtime/cuda_solver.h"
#include "runtime/stream.h"

/* A column-major stack: a C-contiguous CUDA array of a LAPACK type, at least 2-d. */
static int
stack_check(PgArray *w, const char *fname)
{
    if (w->device->kind != PG_DEVICE_CUDA) {
        PyErr_Format(PyExc_ValueError, "%s: a CUDA array is required (the CPU uses NumPy's LAPACK)", fname);
        return -1;
    }
    if (w->ndim < 2 || !(w->flags & PG_C_CONTIGUOUS) || !(w->flags & PG_WRITEABLE)) {
        PyErr_Format(PyExc_ValueError, "%s: a writeable C-contiguous array of at least 2 dimensions is required",
                     fname);
        return -1;
    }
    if (w->type != PG_FLOAT32 && w->type != PG_FLOAT64 && w->type != PG_COMPLEX64 && w->type != PG_COMPLEX128) {
        PyErr_Format(PyExc_TypeError, "%s: array type %s is unsupported in linalg", fname, pg_type_info[w->type].name);
        return -1;
    }
    return 0;
}

/* The batch size of a stack (the product of all but its last `core` axes). */
static int64_t
batch_of(PgArray *w, int core)
{
    int64_t n = 1;
    for (int d = 0; d < w->ndim - core; d++)
        n *= w->shape[d];
    return n;
}

/* A new array of w's batch shape followed by `ntail` axes. */
static PgArray *
batch_array(PgArray *w, int core, int type, int ntail, const int64_t *tail)
{
    int64_t shape[PG_MAXDIMS];
    int nb = w->ndim - core;
    memcpy(shape, w->shape, (size_t)nb * sizeof(int64_t));
    memcpy(shape + nb, tail, (size_t)ntail * sizeof(int64_t));
    return pg_array_new(w->device, type, nb + ntail, shape, 'C', PG_MEM_DEVICE);
}

/* The call record for a stack, with a fresh info array (*info). */
static int
call_setup(PgArray *w, int core, PgSolverCall *c, PgArray **info)
{
    *info = batch_array(w, core, PG_INT32, 0, NULL);
    if (*info == NULL)
        return -1;
    c->dev = w->device;
    c->stream = pg_stream_current_handle(w->device);
    c->type = w->type;
    c->batch = batch_of(w, core);
    c->info = (int *)(*info)->data;
    return 0;
}

static int
real_type_of(int type)
{
    return type == PG_COMPLEX64 ? PG_FLOAT32 : type == PG_COMPLEX128 ? PG_FLOAT64 : type;
}

/* _cusolver_potrf(w, lower) -> info */
static PyObject *
py_potrf(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *w, *info = NULL;
    int lower;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!p", &PgArray_Type, &w, &lower) || stack_check(w, "cholesky") < 0)
        return NULL;
    int64_t n = w->shape[w->ndim - 1];
    if (w->shape[w->ndim - 2] != n) {
        PyErr_SetString(PyExc_ValueError, "_cusolver_potrf: square matrices are required");
        return NULL;
    }
    if (call_setup(w, 2, &c, &info) < 0)
        return NULL;
    if (c.batch > 0 && n > 0 && pg_cusolver_potrf(&c, lower, n, w->data, n, n * n) < 0)
        Py_CLEAR(info);
    return (PyObject *)info;
}

/* The factorisations that leave min(m, n) values per matrix beside it: getrf's pivots (int64,
 * 1-based) and geqrf's tau. Returns (vector, info). */
static PyObject *
factor_with_vector(PyObject *args, int lu)
{
    PgArray *w, *info = NULL, *vec = NULL;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!", &PgArray_Type, &w) || stack_check(w, lu ? "lu" : "qr") < 0)
        return NULL;
    int64_t rows = w->shape[w->ndim - 1], cols = w->shape[w->ndim - 2], k = rows < cols ? rows : cols;
    if (call_setup(w, 2, &c, &info) < 0)
        return NULL;
    if ((vec = batch_array(w, 2, lu ? PG_INT64 : w->type, 1, &k)) == NULL)
        goto fail;
    if (c.batch > 0 && k > 0) {
        int rc = lu ? pg_cusolver_getrf(&c, rows, cols, w->data, rows, rows * cols, (int64_t *)vec->data, k)
                    : pg_cusolver_geqrf(&c, rows, cols, w->data, rows, rows * cols, vec->data, k);
        if (rc < 0)
            goto fail;
    }
    return Py_BuildValue("(NN)", vec, info);
fail:
    Py_XDECREF(info);
    Py_XDECREF(vec);
    return NULL;
}

/* _cusolver_getrf(w) -> (ipiv, info) */
static PyObject *
py_getrf(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    return factor_with_vector(args, 1);
}

/* _cusolver_geqrf(w) -> (tau, info) */
static PyObject *
py_geqrf(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    return factor_with_vector(args, 0);
}

/* _cusolver_getrs(lu, ipiv, b, trans) -> info; b (..., nrhs, n) overwritten by the solution */
static PyObject *
py_getrs(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *lu, *ipiv, *b, *info = NULL;
    int trans;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!O!O!i", &PgArray_Type, &lu, &PgArray_Type, &ipiv, &PgArray_Type, &b, &trans) ||
        stack_check(lu, "solve") < 0 || stack_check(b, "solve") < 0)
        return NULL;
    int64_t n = lu->shape[lu->ndim - 1], nrhs = b->shape[b->ndim - 2];
    if (lu->shape[lu->ndim - 2] != n || b->shape[b->ndim - 1] != n || b->type != lu->type ||
        ipiv->type != PG_INT64 || !(ipiv->flags & PG_C_CONTIGUOUS) || batch_of(b, 2) != batch_of(lu, 2) ||
        pg_array_size(ipiv) != batch_of(lu, 2) * n || lu->device != b->device || ipiv->device != b->device) {
        PyErr_SetString(PyExc_ValueError, "_cusolver_getrs: inconsistent operands");
        return NULL;
    }
    if (call_setup(b, 2, &c, &info) < 0)
        return NULL;
    if (c.batch > 0 && n > 0 && nrhs > 0 &&
        pg_cusolver_getrs(&c, trans, n, nrhs, lu->data, n, n * n, (const int64_t *)ipiv->data, n, b->data, n,
                          n * nrhs) < 0)
        Py_CLEAR(info);
    return (PyObject *)info;
}

/* _cusolver_orgqr(w, tau) -> info; w (..., n, m) holds k = tau.shape[-1] reflectors in its first
 * columns and is overwritten by the m x n Q */
static PyObject *
py_orgqr(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *w, *tau, *info = NULL;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!O!", &PgArray_Type, &w, &PgArray_Type, &tau) || stack_check(w, "qr") < 0)
        return NULL;
    int64_t rows = w->shape[w->ndim - 1], cols = w->shape[w->ndim - 2];
    int64_t k = tau->ndim ? tau->shape[tau->ndim - 1] : 0;
    if (tau->type != w->type || !(tau->flags & PG_C_CONTIGUOUS) || tau->device != w->device || k > cols ||
        cols > rows || pg_array_size(tau) != batch_of(w, 2) * k) {
        PyErr_SetString(PyExc_ValueError, "_cusolver_orgqr: inconsistent operands");
        return NULL;
    }
    if (call_setup(w, 2, &c, &info) < 0)
        return NULL;
    if (c.batch > 0 && cols > 0 && pg_cusolver_orgqr(&c, rows, cols, k, w->data, rows, rows * cols, tau->data, k) < 0)
        Py_CLEAR(info);
    return (PyObject *)info;
}

/* _cusolver_gesvd(w, compute_uv, full) -> (s, u, vt, info) for m x n matrices, m >= n (w destroyed):
 * s (..., n); u (..., ucols, m) and vt (..., n, n) column-major stacks, None without compute_uv */
static PyObject *
py_gesvd(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *w, *info = NULL, *s = NULL, *u = NULL, *vt = NULL;
    int compute_uv, full;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!pp", &PgArray_Type, &w, &compute_uv, &full) || stack_check(w, "svd") < 0)
        return NULL;
    int64_t rows = w->shape[w->ndim - 1], cols = w->shape[w->ndim - 2];
    if (rows < cols) {
        PyErr_SetString(PyExc_ValueError, "_cusolver_gesvd: m >= n is required");
        return NULL;
    }
    int64_t ucols = full ? rows : cols, ushape[2] = {ucols, rows}, vshape[2] = {cols, cols};
    if (call_setup(w, 2, &c, &info) < 0)
        return NULL;
    if ((s = batch_array(w, 2, real_type_of(w->type), 1, &cols)) == NULL)
        goto fail;
    if (compute_uv && ((u = batch_array(w, 2, w->type, 2, ushape)) == NULL ||
                       (vt = batch_array(w, 2, w->type, 2, vshape)) == NULL))
        goto fail;
    if (c.batch > 0 && cols > 0 &&
        pg_cusolver_gesvd(&c, full, rows, cols, w->data, rows, rows * cols, s->data, cols, u ? u->data : NULL, rows,
                          rows * ucols, vt ? vt->data : NULL, cols, cols * cols) < 0)
        goto fail;
    return Py_BuildValue("(NNNN)", s, u ? (PyObject *)u : Py_NewRef(Py_None), vt ? (PyObject *)vt : Py_NewRef(Py_None),
                         info);
fail:
    Py_XDECREF(info);
    Py_XDECREF(s);
    Py_XDECREF(u);
    Py_XDECREF(vt);
    return NULL;
}

/* _cusolver_syevd(w, lower, vectors) -> (eigenvalues, info); w overwritten by the eigenvectors */
static PyObject *
py_syevd(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *w, *info = NULL, *ev = NULL;
    int lower, vectors;
    PgSolverCall c;
    if (!PyArg_ParseTuple(args, "O!pp", &PgArray_Type, &w, &lower, &vectors) || stack_check(w, "eigh") < 0)
        return NULL;
    int64_t n = w->shape[w->ndim - 1];
    if (w->shape[w->ndim - 2] != n) {
        PyErr_SetString(PyExc_ValueError, "_cusolver_syevd: square matrices are required");
        return NULL;
    }
    if (call_setup(w, 2, &c, &info) < 0)
        return NULL;
    if ((ev = batch_array(w, 2, real_type_of(w->type), 1, &n)) == NULL)
        goto fail;
    if (c.batch > 0 && n > 0 && pg_cusolver_syevd(&c, vectors, lower, n, w->data, n, n * n, ev->data, n) < 0)
        goto fail;
    return Py_BuildValue("(NN)", ev, info);
fail:
    Py_XDECREF(info);
    Py_XDECREF(ev);
    return NULL;
}

/* _cuda_libs(load=False) -> {"cublas": path or None, "cusolver": path or None}: what is loaded;
 * with load, both are loaded first (CUDAError when one cannot be). */
static PyObject *
py_cuda_libs(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    int load = 0;
    if (!PyArg_ParseTuple(args, "|p:_cuda_libs", &load))
        return NULL;
    if (load && (pg_cublas_load() < 0 || pg_cusolver_load() < 0))
        return NULL;
    const char *b = pg_cublas_path(), *s = pg_cusolver_path();
    return Py_BuildValue("{s:z,s:z}", "cublas", b, "cusolver", s);
}

PyMethodDef pg_linalg_cuda_module_methods[] = {
    {"_cusolver_potrf", py_potrf, METH_VARARGS, NULL},
    {"_cusolver_getrf", py_getrf, METH_VARARGS, NULL},
    {"_cusolver_getrs", py_getrs, METH_VARARGS, NULL},
    {"_cusolver_geqrf", py_geqrf, METH_VARARGS, NULL},
    {"_cusolver_orgqr", py_orgqr, METH_VARARGS, NULL},
    {"_cusolver_gesvd", py_gesvd, METH_VARARGS, NULL},
    {"_cusolver_syevd", py_syevd, METH_VARARGS, NULL},
    {"_cuda_libs", py_cuda_libs, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
