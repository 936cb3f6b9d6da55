/* The CPU backend's matrix product (PgBackend.gemm). Float and complex products run on NumPy's
 * BLAS: each operand is wrapped, zero-copy, in a NumPy array of shape (batch, rows, cols) with the
 * layout the BLAS arguments describe, and numpy.matmul writes into a view of C, so the CPU is as
 * fast as NumPy with its OpenBLAS. float16 is computed in float32 (NumPy's own float16 matmul is
 * a slow loop rounding every partial sum to half). Integer and bool products run the
 * single-source kernel of kernels/matmul.h over the worker team, as the GPU does. */
#include "runtime/cpu_backend.h"
#include "runtime/cpu_team.h"
#include "kernels/matmul.h"
#include "core/dtype.h"

/* Below this many multiply-adds the integer product runs on the calling thread. */
#define PG_GEMM_INT_PARALLEL_MIN (1 << 16)

/* A NumPy array over `batch` column-major matrices (rows x cols, leading dimension ld, `stride`
 * elements apart) as op() presents them: shape (batch, rows, cols), or (batch, cols, rows)
 * transposed; the conjugate is taken (a copy) for PG_TRANS_C. */
static PyObject *
operand_view(int type, const char *data, int trans, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
             int64_t batch, int writeable)
{
    int64_t isz = pg_type_info[type].itemsize;
    npy_intp shape[3] = {batch, rows, cols};
    npy_intp strides[3] = {batch > 1 ? stride * isz : 0, isz, ld * isz};
    if (trans != PG_TRANS_N) {
        shape[1] = cols;
        shape[2] = rows;
        strides[1] = ld * isz;
        strides[2] = isz;
    }
    PyArray_Descr *d = pg_type_descr(type);
    Py_INCREF(d);
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, d, 3, shape, strides, (void *)data,
                                          writeable ? NPY_ARRAY_WRITEABLE : 0, NULL);
    if (view == NULL || trans != PG_TRANS_C)
        return view;
    PyObject *conj = PyObject_CallMethod(view, "conjugate", NULL);
    Py_DECREF(view);
    return conj;
}

/* numpy.matmul and the keyword names ("out",) of a call with out=, made once. */
static PyObject *matmul_fn, *out_kwnames;

static int
numpy_matmul_ready(void)
{
    if (matmul_fn != NULL)
        return 0;
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL)
        return -1;
    out_kwnames = Py_BuildValue("(s)", "out");
    matmul_fn = out_kwnames ? PyObject_GetAttrString(np, "matmul") : NULL;
    Py_DECREF(np);
    if (matmul_fn == NULL) {
        Py_CLEAR(out_kwnames);
        return -1;
    }
    return 0;
}

static int
gemm_blas(const PgGemmArgs *g)
{
    int rc = -1;
    PyObject *a = NULL, *b = NULL, *c = NULL, *res = NULL;
    if (numpy_matmul_ready() < 0)
        return -1;
    int64_t arows = g->transa == PG_TRANS_N ? g->m : g->k, acols = g->transa == PG_TRANS_N ? g->k : g->m;
    int64_t brows = g->transb == PG_TRANS_N ? g->k : g->n, bcols = g->transb == PG_TRANS_N ? g->n : g->k;
    a = operand_view(g->type, g->a, g->transa, arows, acols, g->lda, g->stride_a, g->batch, 0);
    b = operand_view(g->type, g->b, g->transb, brows, bcols, g->ldb, g->stride_b, g->batch, 0);
    c = operand_view(g->type, g->c, PG_TRANS_N, g->m, g->n, g->ldc, g->stride_c, g->batch, 1);
    if (a == NULL || b == NULL || c == NULL)
        goto done;
    if (g->type == PG_FLOAT16) {
        /* float32 inputs, written into the float16 view by NumPy's same-kind output cast */
        PyArray_Descr *f32 = pg_type_descr(PG_FLOAT32);
        Py_INCREF(f32);
        Py_SETREF(a, PyArray_CastToType((PyArrayObject *)a, f32, 0));
        if (a == NULL)
            goto done;
        Py_INCREF(f32);
        Py_SETREF(b, PyArray_CastToType((PyArrayObject *)b, f32, 0));
        if (b == NULL)
            goto done;
    }
    PyObject *args[3] = {a, b, c};
    pg_cpu_team_rest(); /* the BLAS threads get the cores our idle workers would poll on */
    res = PyObject_Vectorcall(matmul_fn, args, 2, out_kwnames);
    if (res != NULL)
        rc = 0;
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    Py_XDECREF(res);
    return rc;
}

static void
gemm_int_elements(const void *ctx, int64_t begin, int64_t end)
{
    for (int64_t idx = begin; idx < end; idx++)
        pg_gemm_int_element(ctx, idx);
}

static void
gemm_int(const PgGemmArgs *g)
{
    int64_t total = g->m * g->n * g->batch;
    if (total * g->k < PG_GEMM_INT_PARALLEL_MIN) {
        gemm_int_elements(g, 0, total);
        return;
    }
    pg_cpu_parallel_for(total, 0, gemm_int_elements, g);
}

int
pg_cpu_gemm(PgDevice *dev, const PgGemmArgs *g, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    if (g->m == 0 || g->n == 0 || g->batch == 0)
        return 0;
    if (PG_IS_FLOAT(g->type) || PG_IS_COMPLEX(g->type))
        return gemm_blas(g);
    gemm_int(g);
    return 0;
}
