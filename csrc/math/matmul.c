/* pygpu.matmul and the @ operator: NumPy's matmul (the gufunc (n?,k),(k,m?)->(n?,m?): 1-d operands
 * promoted and their axis removed, batch dimensions broadcast, out=, dtype=, casting=, NumPy's
 * type promotion and error messages), planned into strided batched GEMMs for PgBackend.gemm.
 *
 * The plan is the same on every device, so the CPU tests exercise what cuBLAS receives: an
 * operand whose matrices have one unit stride is passed as it is, with a transpose flag and its
 * leading dimension (a C-ordered matrix is the transpose of a column-major one); only an operand
 * with no unit stride is copied. C = A B is computed as C^T = B^T A^T when C is C-ordered, so no
 * output is ever transposed. Batch dimensions that lie evenly in memory merge into one strided
 * batch (a broadcast operand has batch stride 0); a batch of matrices times one matrix becomes a
 * single tall product; what remains is a loop of GEMM calls. */
#include "math/linalg.h"
#include "math/ufunc.h"
#include "runtime/stream.h"
#include "core/docstrings.h"

static int allow_tf32;                                  /* set_matmul_precision */
static PyObject *numpy_matmul_ufunc;                  /* for its name in casting errors */

#define SIGNATURE "(n?,k),(k,m?)->(n?,m?)"

/* ------------------------------------------------------------------ errors */

static void
raise_casting(int input, int index, int from, int to, PgCasting casting)
{
    pg_raise_casting(numpy_matmul_ufunc, input, index, from, to, casting);
}

/* "(5,newaxis,newaxis)": an operand's batch dimensions as NumPy's iterator error prints them. */
static int
append_remapped(PyObject *parts, int nbatch, const int64_t *batch, int ncore)
{
    char buf[PG_MAXDIMS * 30 + 4];
    size_t pos = 0;
    buf[pos++] = '(';
    if (nbatch > 0) {
        for (int i = 0; i < nbatch + ncore; i++) {
            if (i < nbatch)
                pos += (size_t)snprintf(buf + pos, sizeof buf - pos, i ? ",%lld" : "%lld", (long long)batch[i]);
            else
                pos += (size_t)snprintf(buf + pos, sizeof buf - pos, i ? ",newaxis" : "newaxis");
        }
    }
    buf[pos++] = ')';
    buf[pos] = 0;
    PyObject *s = PyUnicode_FromString(buf);
    int rc = s ? PyList_Append(parts, s) : -1;
    Py_XDECREF(s);
    return rc;
}

/* NumPy's message when the batch dimensions do not broadcast. */
static void
raise_broadcast(PgArray *const *ops, int nops, int ncore, const int64_t *core)
{
    PyObject *parts = PyList_New(0), *sep = NULL, *joined = NULL;
    if (parts == NULL)
        return;
    for (int i = 0; i < nops; i++) {
        PgArray *a = ops[i];
        int is_out = i == 2;
        int core_dims = is_out ? ncore : a->ndim >= 2 ? 2 : 1;
        int nbatch = a->ndim - core_dims;
        PyObject *orig = pg_shape_repr(a->ndim, a->shape);
        if (orig == NULL || PyList_Append(parts, orig) < 0) {
            Py_XDECREF(orig);
            goto done;
        }
        Py_DECREF(orig);
        if (is_out) {
            /* the output is shown as it is: "(4,2,2)->(4,2,2)" */
            char buf[PG_MAXDIMS * 22 + 4];
            size_t pos = 0;
            buf[pos++] = '(';
            for (int d = 0; d < a->ndim; d++)
                pos += (size_t)snprintf(buf + pos, sizeof buf - pos, d ? ",%lld" : "%lld", (long long)a->shape[d]);
            buf[pos++] = ')';
            buf[pos] = 0;
            PyObject *s = PyUnicode_FromFormat("->%s ", buf);
            if (s == NULL || PyList_Append(parts, s) < 0) {
                Py_XDECREF(s);
                goto done;
            }
            Py_DECREF(s);
            continue;
        }
        PyObject *arrow = PyUnicode_FromString("->");
        if (arrow == NULL || PyList_Append(parts, arrow) < 0) {
            Py_XDECREF(arrow);
            goto done;
        }
        Py_DECREF(arrow);
        if (append_remapped(parts, nbatch, a->shape, ncore) < 0)
            goto done;
        PyObject *space = PyUnicode_FromString(" ");
        if (space == NULL || PyList_Append(parts, space) < 0) {
            Py_XDECREF(space);
            goto done;
        }
        Py_DECREF(space);
    }
    char req[80];
    size_t pos = 0;
    req[pos++] = '(';
    for (int d = 0; d < ncore; d++)
        pos += (size_t)snprintf(req + pos, sizeof req - pos, d ? ",%lld" : "%lld", (long long)core[d]);
    req[pos++] = ')';
    req[pos] = 0;
    sep = PyUnicode_FromString("");
    if (sep == NULL || (joined = PyUnicode_Join(sep, parts)) == NULL)
        goto done;
    PyErr_Format(PyExc_ValueError,
                 "operands could not be broadcast together with remapped shapes [original->remapped]: %U and "
                 "requested shape %s",
                 joined, req);
done:
    Py_DECREF(parts);
    Py_XDECREF(sep);
    Py_XDECREF(joined);
}

/* ------------------------------------------------------------------ shapes */

typedef struct {
    int a1d, b1d;
    int64_t n, k, m;
    int nbatch;                     /* batch dimensions of the result */
    int64_t batch[PG_MAXDIMS];
    int ndim;                       /* of the result */
    int64_t shape[PG_MAXDIMS];
} MatmulShape;

/* The result's shape for a @ b (and out, when given), or -1 with NumPy's error. */
static int
matmul_shape(PgArray *a, PgArray *b, PgArray *out, MatmulShape *s)
{
    PgArray *ops[3] = {a, b, out};
    for (int i = 0; i < 2; i++) {
        if (ops[i]->ndim == 0) {
            PyErr_Format(PyExc_ValueError,
                         "matmul: Input operand %d does not have enough dimensions (has 0, gufunc core with "
                         "signature " SIGNATURE " requires 1)",
                         i);
            return -1;
        }
    }
    s->a1d = a->ndim == 1;
    s->b1d = b->ndim == 1;
    s->n = s->a1d ? 1 : a->shape[a->ndim - 2];
    s->k = a->shape[a->ndim - 1];
    int64_t kb = s->b1d ? b->shape[0] : b->shape[b->ndim - 2];
    s->m = s->b1d ? 1 : b->shape[b->ndim - 1];
    if (kb != s->k) {
        PyErr_Format(PyExc_ValueError,
                     "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " SIGNATURE
                     " (size %lld is different from %lld)",
                     (long long)kb, (long long)s->k);
        return -1;
    }
    int ncore = !s->a1d + !s->b1d;
    int64_t core[2];
    int c = 0;
    if (!s->a1d)
        core[c++] = s->n;
    if (!s->b1d)
        core[c++] = s->m;
    if (out != NULL) {
        if (out->ndim < ncore) {
            PyErr_Format(PyExc_ValueError,
                         "matmul: Output operand 0 does not have enough dimensions (has %d, gufunc core with "
                         "signature " SIGNATURE " requires %d)",
                         out->ndim, ncore);
            return -1;
        }
        for (int d = 0; d < ncore; d++) {
            int64_t have = out->shape[out->ndim - ncore + d];
            if (have != core[d]) {
                PyErr_Format(PyExc_ValueError,
                             "matmul: Output operand 0 has a mismatch in its core dimension %d, with gufunc "
                             "signature " SIGNATURE " (size %lld is different from %lld)",
                             d, (long long)have, (long long)core[d]);
                return -1;
            }
        }
    }
    /* batch dimensions: broadcast those of a, b (and out, which must not need broadcasting) */
    int nb_a = a->ndim - (s->a1d ? 1 : 2), nb_b = b->ndim - (s->b1d ? 1 : 2);
    int nb_o = out ? out->ndim - ncore : 0;
    int nb = nb_a > nb_b ? nb_a : nb_b;
    if (nb_o > nb)
        nb = nb_o;
    int fail = 0;
    for (int d = 0; d < nb; d++) {
        int64_t dim = 1;
        int64_t sizes[3] = {d - (nb - nb_a) >= 0 ? a->shape[d - (nb - nb_a)] : 1,
                            d - (nb - nb_b) >= 0 ? b->shape[d - (nb - nb_b)] : 1,
                            out && d - (nb - nb_o) >= 0 ? out->shape[d - (nb - nb_o)] : 1};
        for (int i = 0; i < 3; i++) {
            if (sizes[i] == 1)
                continue;
            if (dim != 1 && dim != sizes[i])
                fail = 1;
            dim = sizes[i];
        }
        /* the output cannot be broadcast: its length must be the result's */
        if (out && (d - (nb - nb_o) < 0 ? dim != 1 : sizes[2] != dim))
            fail = 1;
        s->batch[d] = dim;
    }
    if (fail) {
        raise_broadcast(ops, out ? 3 : 2, ncore, core);
        return -1;
    }
    s->nbatch = nb;
    s->ndim = nb + ncore;
    memcpy(s->shape, s->batch, (size_t)nb * sizeof(int64_t));
    memcpy(s->shape + nb, core, (size_t)ncore * sizeof(int64_t));
    return 0;
}

/* ------------------------------------------------------------------ the plan */

/* One operand's matrices: rows x cols with element strides rs, cs, and the element strides of the
 * result's batch dimensions (0 where the operand is broadcast). */
typedef struct {
    char *data;
    int64_t rows, cols, rs, cs;
    int64_t bs[PG_MAXDIMS];
} Mat;

/* Describes array x, whose last `ncore` axes are its matrix (2), a vector (1: a row or a column,
 * per `vector_is_row`) or nothing (0: 1 x 1), against the result's batch dimensions. Returns -1
 * when a stride is not a whole number of elements. */
static int
mat_describe(Mat *mt, PgArray *x, int ncore, int vector_is_row, const MatmulShape *s)
{
    int64_t isz = PG_ITEMSIZE(x);
    for (int d = 0; d < x->ndim; d++)
        if (x->strides[d] % isz != 0)
            return -1;
    mt->data = x->data;
    mt->rows = mt->cols = 1;
    mt->rs = mt->cs = 0;
    if (ncore == 1) {
        int64_t len = x->shape[x->ndim - 1], st = x->strides[x->ndim - 1] / isz;
        if (vector_is_row) {
            mt->cols = len;
            mt->cs = st;
        } else {
            mt->rows = len;
            mt->rs = st;
        }
    } else if (ncore == 2) {
        mt->rows = x->shape[x->ndim - 2];
        mt->cols = x->shape[x->ndim - 1];
        mt->rs = x->strides[x->ndim - 2] / isz;
        mt->cs = x->strides[x->ndim - 1] / isz;
    }
    int nbx = x->ndim - ncore;
    for (int d = 0; d < s->nbatch; d++) {
        int xd = d - (s->nbatch - nbx);
        mt->bs[d] = xd >= 0 && x->shape[xd] != 1 ? x->strides[xd] / isz : 0;
    }
    return 0;
}

/* Whether the matrices are C-ordered (row_ok, leading dimension *ld_row) or Fortran-ordered
 * (col_ok, *ld_col) as BLAS takes them: unit stride along one axis, a leading dimension at least
 * that axis's length. Axes of length 1 take any stride. */
static void
mat_layouts(const Mat *mt, int *row_ok, int64_t *ld_row, int *col_ok, int64_t *ld_col)
{
    int64_t r = mt->rows, c = mt->cols;
    *row_ok = (c == 1 || mt->cs == 1) && (r == 1 || mt->rs >= (c > 1 ? c : 1));
    *ld_row = r == 1 ? (c > 1 ? c : 1) : mt->rs;
    *col_ok = (r == 1 || mt->rs == 1) && (c == 1 || mt->cs >= (r > 1 ? r : 1));
    *ld_col = c == 1 ? (r > 1 ? r : 1) : mt->cs;
}

static int
mat_usable(const Mat *mt)
{
    int row_ok, col_ok;
    int64_t l1, l2;
    mat_layouts(mt, &row_ok, &l1, &col_ok, &l2);
    return row_ok || col_ok;
}

/* The BLAS operand for matrix x when BLAS wants op(x) = x^T (want_transpose) or x: a C-ordered
 * matrix is x^T in column-major terms, a Fortran-ordered one is x. Prefers the layout that needs
 * no transpose flag; with `conj`, the one that has one (BLAS conjugates only with a transpose).
 * Returns 0, or -1 when conj cannot be expressed. */
static int
blas_operand(const Mat *mt, int want_transpose, int conj, int *trans, int64_t *ld)
{
    int row_ok, col_ok;
    int64_t ld_row, ld_col;
    mat_layouts(mt, &row_ok, &ld_row, &col_ok, &ld_col);
    /* a C-ordered x gives x^T without a flag; a Fortran-ordered x gives x without one */
    int flagless_ok = want_transpose ? row_ok : col_ok, flagged_ok = want_transpose ? col_ok : row_ok;
    int64_t flagless_ld = want_transpose ? ld_row : ld_col, flagged_ld = want_transpose ? ld_col : ld_row;
    if (flagged_ok && (conj || !flagless_ok)) {
        *trans = conj ? PG_TRANS_C : PG_TRANS_T;
        *ld = flagged_ld;
        return 0;
    }
    if (flagless_ok && !conj) {
        *trans = PG_TRANS_N;
        *ld = flagless_ld;
        return 0;
    }
    return -1;
}

/* Batch dimensions of length 1 dropped, and neighbours that step evenly in all three operands
 * merged. Returns the number left. */
static int
merge_batch(int nb, int64_t *shape, Mat *const *mats)
{
    int out = 0;
    for (int d = 0; d < nb; d++) {
        if (shape[d] == 1)
            continue;
        int merge = out > 0;
        for (int i = 0; i < 3 && merge; i++)
            merge = mats[i]->bs[out - 1] == mats[i]->bs[d] * shape[d];
        if (merge) {
            shape[out - 1] *= shape[d];
            for (int i = 0; i < 3; i++)
                mats[i]->bs[out - 1] = mats[i]->bs[d];
        } else {
            shape[out] = shape[d];
            for (int i = 0; i < 3; i++)
                mats[i]->bs[out] = mats[i]->bs[d];
            out++;
        }
    }
    return out;
}

/* Runs the planned product of Mat operands ma (n x k), mb (k x m) into mc (n x m), all usable:
 * BLAS computes C^T (m x n) = B^T A^T when `transposed` (C is C-ordered), else C = A B; conj_a
 * must be expressible (blas_operand(ma, transposed, 1) succeeds). */
static int
run_gemms(PgDevice *dev, int type, Mat *ma, Mat *mb, Mat *mc, const MatmulShape *s, int transposed, int conj_a)
{
    PgGemmArgs g;
    memset(&g, 0, sizeof g);
    g.type = type;
    g.tf32 = allow_tf32;
    g.k = s->k;
    int c_row, c_col;
    int64_t ldc_row, ldc_col;
    mat_layouts(mc, &c_row, &ldc_row, &c_col, &ldc_col);
    Mat *first = transposed ? mb : ma, *second = transposed ? ma : mb;
    g.m = transposed ? s->m : s->n;
    g.n = transposed ? s->n : s->m;
    g.ldc = transposed ? ldc_row : ldc_col;
    /* first is op(first) = first^T for the transposed form (B^T), first itself otherwise */
    if (blas_operand(first, transposed, !transposed && conj_a, &g.transa, &g.lda) < 0 ||
        blas_operand(second, transposed, transposed && conj_a, &g.transb, &g.ldb) < 0) {
        PyErr_SetString(PyExc_SystemError, "matmul: no BLAS form for an operand");
        return -1;
    }
    int64_t shape[PG_MAXDIMS];
    memcpy(shape, s->batch, (size_t)s->nbatch * sizeof(int64_t));
    Mat *mats[3] = {first, second, mc};
    int nb = merge_batch(s->nbatch, shape, mats);
    /* a batch of matrices times one matrix: one tall product when the batch lies in rows */
    if (transposed && nb == 1 && first->bs[0] == 0 && g.transb == PG_TRANS_N &&
        second->bs[0] == g.n * g.ldb && mc->bs[0] == g.n * g.ldc) {
        g.n *= shape[0];
        nb = 0;
    }
    int64_t isz = pg_type_info[type].itemsize;
    g.batch = nb > 0 ? shape[nb - 1] : 1;
    g.stride_a = nb > 0 ? first->bs[nb - 1] : 0;
    g.stride_b = nb > 0 ? second->bs[nb - 1] : 0;
    g.stride_c = nb > 0 ? mc->bs[nb - 1] : 0;
    /* the outer batch dimensions, one call each */
    int64_t outer = 1, idx[PG_MAXDIMS] = {0};
    for (int d = 0; d < nb - 1; d++)
        outer *= shape[d];
    void *stream = pg_stream_current_handle(dev);
    for (int64_t it = 0; it < outer; it++) {
        int64_t oa = 0, ob = 0, oc = 0;
        for (int d = 0; d < nb - 1; d++) {
            oa += idx[d] * first->bs[d];
            ob += idx[d] * second->bs[d];
            oc += idx[d] * mc->bs[d];
        }
        g.a = first->data + oa * isz;
        g.b = second->data + ob * isz;
        g.c = mc->data + oc * isz;
        if (dev->backend->gemm(dev, &g, stream) < 0)
            return -1;
        for (int d = nb - 2; d >= 0; d--) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
    return 0;
}

static int
mats_overlap(PgArray *x, PgArray *y)
{
    if (x == NULL || y == NULL)
        return 0;
    char *xlo = x->data, *xhi = x->data + PG_ITEMSIZE(x), *ylo = y->data, *yhi = y->data + PG_ITEMSIZE(y);
    for (int d = 0; d < x->ndim; d++) {
        int64_t e = (x->shape[d] - 1) * x->strides[d];
        if (e < 0)
            xlo += e;
        else
            xhi += e;
    }
    for (int d = 0; d < y->ndim; d++) {
        int64_t e = (y->shape[d] - 1) * y->strides[d];
        if (e < 0)
            ylo += e;
        else
            yhi += e;
    }
    return xlo < yhi && ylo < xhi;
}

/* C-ordered C (BLAS computes C^T = B^T A^T) unless only the Fortran order is; with conj_a, the
 * form in which A can carry BLAS's conjugate flag when C allows both. */
static int
choose_form(const Mat *ma, const Mat *mc, int conj_a)
{
    int c_row, c_col, t;
    int64_t l1, l2;
    mat_layouts(mc, &c_row, &l1, &c_col, &l2);
    if (c_row && c_col && conj_a && blas_operand(ma, 1, 1, &t, &l1) < 0 && blas_operand(ma, 0, 1, &t, &l2) == 0)
        return 0;
    return c_row;
}

int
pg_matmul_into(PgArray *a, PgArray *b, PgArray *c, int conj_a)
{
    MatmulShape s;
    PgArray *ac = NULL, *bc = NULL, *cc = NULL;
    int rc = -1;
    if (matmul_shape(a, b, c, &s) < 0)
        return -1;
    if (pg_array_size(c) == 0)
        return 0;
    PgDevice *dev = c->device;
    int type = c->type;
    if (s.k == 0) {
        PyObject *zero = PyLong_FromLong(0);
        rc = zero ? pg_array_fill(c, zero) : -1;
        Py_XDECREF(zero);
        return rc;
    }
    int a_core = s.a1d ? 1 : 2, b_core = s.b1d ? 1 : 2, c_core = !s.a1d + !s.b1d;
    Mat ma, mb, mc;
    /* operands with no unit stride (or odd strides) are copied, C-ordered */
    if (mat_describe(&ma, a, a_core, 1, &s) < 0 || !mat_usable(&ma)) {
        if ((ac = pg_array_copy(a, type, 'C', dev)) == NULL)
            goto done;
        mat_describe(&ma, ac, a_core, 1, &s);
    }
    if (mat_describe(&mb, b, b_core, 0, &s) < 0 || !mat_usable(&mb)) {
        if ((bc = pg_array_copy(b, type, 'C', dev)) == NULL)
            goto done;
        mat_describe(&mb, bc, b_core, 0, &s);
    }
    /* the output is written in place when BLAS can address it; a single core axis of c is m (a
     * row) when a is 1-d, n (a column) when b is */
    int c_usable = mat_describe(&mc, c, c_core, s.a1d, &s) == 0 && mat_usable(&mc);
    for (int d = 0; c_usable && d < s.nbatch; d++)
        c_usable = mc.bs[d] != 0 || s.batch[d] == 1;
    if (!c_usable) {
        if ((cc = pg_array_new(dev, type, c->ndim, c->shape, 'C', PG_MEM_DEVICE)) == NULL)
            goto done;
        mat_describe(&mc, cc, c_core, s.a1d, &s);
    }
    int transposed = choose_form(&ma, &mc, conj_a);
    /* a conjugate that no transpose flag can carry is computed first */
    int t;
    int64_t l;
    if (conj_a && blas_operand(&ma, transposed, 1, &t, &l) < 0) {
        PyObject *src = (PyObject *)(ac ? ac : a);
        PyObject *conj = pg_ufunc_apply(pg_ufunc_lookup("conjugate"), &src, NULL, -1, PG_CAST_SAME_KIND, 0);
        if (conj == NULL)
            goto done;
        Py_XSETREF(ac, (PgArray *)conj);
        mat_describe(&ma, ac, a_core, 1, &s);
        conj_a = 0;
    }
    if (run_gemms(dev, type, &ma, &mb, &mc, &s, transposed, conj_a) < 0)
        goto done;
    if (cc != NULL && pg_array_assign(c, cc) < 0)
        goto done;
    rc = 0;
done:
    Py_XDECREF(ac);
    Py_XDECREF(bc);
    Py_XDECREF(cc);
    return rc;
}

/* ------------------------------------------------------------------ matmul for Python */

/* The array for operand obj on dev (NULL: not decided yet). 1 when obj is of a type matmul does
 * not take and `notimpl` is set (the @ operator then returns NotImplemented). */
static int
operand_array(PyObject *obj, PgDevice *dev, int notimpl, PgArray **out)
{
    if (PgArray_Check(obj)) {
        *out = (PgArray *)Py_NewRef(obj);
        return 0;
    }
    if (notimpl && !(PyArray_Check(obj) || PyArray_IsScalar(obj, Generic) || PyList_Check(obj) ||
                     PyTuple_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj)))
        return 1;
    *out = pg_asarray(obj, -1, dev, -1);
    return *out ? 0 : -1;
}

PyObject *
pg_matmul(PyObject *x1, PyObject *x2, PyObject *outobj, int dtype, PgCasting casting, int notimpl)
{
    PgArray *ops[2] = {NULL, NULL}, *out = NULL, *res = NULL;
    PyObject *ret = NULL;
    PgDevice *dev = NULL;
    if (pg_parse_out(outobj, &out) < 0)
        return NULL;
    if (out != NULL)
        dev = out->device;
    PyObject *objs[2] = {x1, x2};
    for (int i = 0; i < 2 && dev == NULL; i++)
        if (PgArray_Check(objs[i]))
            dev = ((PgArray *)objs[i])->device;
    if (dev == NULL)
        dev = pg_device_current();
    for (int i = 0; i < 2; i++) {
        int rc = operand_array(objs[i], dev, notimpl, &ops[i]);
        if (rc > 0) {
            ret = Py_NewRef(Py_NotImplemented);
            goto done;
        }
        if (rc < 0)
            goto done;
        if (ops[i]->device != dev) {
            PyErr_Format(PyExc_ValueError,
                         "operands are on different devices (%S and %S); move them with .to_device() first",
                         (PyObject *)dev, (PyObject *)ops[i]->device);
            goto done;
        }
    }
    MatmulShape s;
    for (int i = 0; i < 2; i++) /* NumPy checks dimensions before types */
        if (ops[i]->ndim == 0 && matmul_shape(ops[0], ops[1], NULL, &s) < 0)
            goto done;
    int type = dtype >= 0 ? dtype : (int)pg_promote_types(ops[0]->type, ops[1]->type);
    for (int i = 0; i < 2; i++) {
        if (ops[i]->type != type && !pg_can_cast(ops[i]->type, type, casting)) {
            raise_casting(1, i, ops[i]->type, type, casting);
            goto done;
        }
    }
    if (out != NULL && out->type != type && !pg_can_cast(type, out->type, casting)) {
        raise_casting(0, 0, type, out->type, casting);
        goto done;
    }
    if (matmul_shape(ops[0], ops[1], out, &s) < 0)
        goto done;
    for (int i = 0; i < 2; i++) {
        if (ops[i]->type != type) {
            PgArray *cast = pg_array_copy(ops[i], type, 'K', dev);
            if (cast == NULL)
                goto done;
            Py_SETREF(ops[i], cast);
        }
    }
    int direct = out != NULL && out->type == type && !mats_overlap(out, ops[0]) && !mats_overlap(out, ops[1]);
    res = direct ? (PgArray *)Py_NewRef(out) : pg_array_new(dev, type, s.ndim, s.shape, 'C', PG_MEM_DEVICE);
    if (res == NULL || pg_matmul_into(ops[0], ops[1], res, 0) < 0)
        goto done;
    if (out != NULL && !direct) {
        if (pg_array_assign(out, res) < 0)
            goto done;
        ret = Py_NewRef(outobj);
    } else {
        ret = Py_NewRef(res);
    }
done:
    Py_XDECREF(ops[0]);
    Py_XDECREF(ops[1]);
    Py_XDECREF(res);
    return ret;
}

static PyObject *
py_matmul(PyObject *m, PyObject *args, PyObject *kwds)
{
    PG_UNUSED(m);
    static char *kwlist[] = {"", "", "out", "casting", "order", "dtype", "subok", NULL};
    PyObject *x1, *x2, *out = Py_None, *casting_obj = NULL, *order_obj = NULL, *dtype_obj = Py_None;
    int subok = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O$OOOp:matmul", kwlist, &x1, &x2, &out, &casting_obj,
                                     &order_obj, &dtype_obj, &subok))
        return NULL;
    if (PyTuple_Check(out)) { /* out=(array,) as ufuncs take it */
        if (PyTuple_GET_SIZE(out) != 1) {
            PyErr_SetString(PyExc_ValueError, "The 'out' tuple must have exactly one entry");
            return NULL;
        }
        out = PyTuple_GET_ITEM(out, 0);
    }
    char order;
    if (pg_order_from_object(order_obj, "K", 'K', &order) < 0)
        return NULL;
    PgCasting casting;
    if (pg_casting_from_object(casting_obj, &casting) < 0)
        return NULL;
    int dtype = pg_type_from_object(dtype_obj, -1);
    if (dtype == -1 && PyErr_Occurred())
        return NULL;
    return pg_matmul(x1, x2, out, dtype, casting, 0);
}

/* _matmul(a, b, conj_a): a @ b of two arrays of one type and device (conj(a) @ b), for the
 * products of pygpu.linalg (vdot, vecdot). */
static PyObject *
py_matmul_private(PyObject *m, PyObject *args)
{
    PG_UNUSED(m);
    PgArray *a, *b;
    int conj_a = 0;
    if (!PyArg_ParseTuple(args, "O!O!|p:_matmul", &PgArray_Type, &a, &PgArray_Type, &b, &conj_a))
        return NULL;
    if (a->type != b->type || a->device != b->device) {
        PyErr_SetString(PyExc_ValueError, "_matmul: operands of one dtype and device");
        return NULL;
    }
    MatmulShape s;
    if (matmul_shape(a, b, NULL, &s) < 0)
        return NULL;
    PgArray *c = pg_array_new(a->device, a->type, s.ndim, s.shape, 'C', PG_MEM_DEVICE);
    if (c == NULL)
        return NULL;
    if (pg_matmul_into(a, b, c, conj_a) < 0)
        Py_CLEAR(c);
    return (PyObject *)c;
}

/* ------------------------------------------------------------------ the TF32 switch */

static int
parse_precision(PyObject *obj, int *tf32)
{
    const char *s = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (s && (strcmp(s, "highest") == 0 || strcmp(s, "float32") == 0 || strcmp(s, "ieee") == 0)) {
        *tf32 = 0;
        return 0;
    }
    if (s && (strcmp(s, "tf32") == 0 || strcmp(s, "high") == 0)) {
        *tf32 = 1;
        return 0;
    }
    PyErr_Format(PyExc_ValueError,
                 "matmul precision must be 'highest' (exact float32, the default) or 'tf32' (TensorFloat-32 "
                 "tensor cores for float32 and complex64 products on the GPU), not %R",
                 obj);
    return -1;
}

static PyObject *
py_set_matmul_precision(PyObject *m, PyObject *precision)
{
    PG_UNUSED(m);
    if (parse_precision(precision, &allow_tf32) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
py_get_matmul_precision(PyObject *m, PyObject *unused)
{
    PG_UNUSED(m);
    PG_UNUSED(unused);
    return PyUnicode_FromString(allow_tf32 ? "tf32" : "highest");
}

/* ------------------------------------------------------------------ init */

/* a @ b, and a @= b (out is a): NumPy refuses a 1-d b in place, since the result would lose an axis. */
static PyObject *
matmul_operator(PyObject *a, PyObject *b, PyObject *out)
{
    if (out != NULL && !PgArray_Check(b)) {
        PgArray *bb = NULL;
        int rc = operand_array(b, ((PgArray *)out)->device, 1, &bb);
        if (rc != 0)
            return rc > 0 ? Py_NewRef(Py_NotImplemented) : NULL;
        PyObject *res = matmul_operator(a, (PyObject *)bb, out);
        Py_DECREF(bb);
        return res;
    }
    if (out != NULL && ((PgArray *)b)->ndim == 1) {
        PyErr_SetString(PyExc_ValueError, "inplace matrix multiplication requires the first operand to have at "
                                          "least one and the second at least two dimensions.");
        return NULL;
    }
    return pg_matmul(a, b, out, -1, PG_CAST_SAME_KIND, 1);
}

int
pg_linalg_init(PyObject *module)
{
    PG_UNUSED(module);
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL)
        return -1;
    numpy_matmul_ufunc = PyObject_GetAttrString(np, "matmul");
    Py_DECREF(np);
    if (numpy_matmul_ufunc == NULL)
        return -1;
    const char *env = getenv("PYGPU_MATMUL_PRECISION");
    if (env && *env) {
        PyObject *v = PyUnicode_FromString(env);
        if (v == NULL || parse_precision(v, &allow_tf32) < 0) {
            Py_XDECREF(v);
            PyErr_Clear(); /* an unknown value leaves the default (exact float32) */
        } else {
            Py_DECREF(v);
        }
    }
    pg_array_math.matmul = matmul_operator;
    return 0;
}

#define KW(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS
PyMethodDef pg_linalg_module_methods[] = {
    {"matmul", KW(py_matmul), PG_DOC_MATMUL},
    {"_matmul", py_matmul_private, METH_VARARGS, NULL},
    {"set_matmul_precision", py_set_matmul_precision, METH_O,
     "set_matmul_precision($module, precision)\n--\n\n'highest' (default: float32 products are exact float32) or 'tf32' "
     "(float32 and complex64 products on the GPU may use TensorFloat-32 tensor cores, like PyTorch's "
     "allow_tf32). The environment variable PYGPU_MATMUL_PRECISION sets it at import."},
    {"get_matmul_precision", py_get_matmul_precision, METH_NOARGS,
     "get_matmul_precision($module)\n--\n\n'highest' or 'tf32' (see set_matmul_precision)."},
    {NULL, NULL, 0, NULL},
};
