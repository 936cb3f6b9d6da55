"""pygpu.linalg against numpy.linalg: every function over the LAPACK dtypes (integers computed in
float64, float16 refused), batch shapes, layouts (transposed, strided) and empty matrices, on
every device; factorisations checked by their defining properties where they are unique only
up to signs or order; numpy.linalg.LinAlgError for singular and indefinite matrices with NumPy's
messages (the process carries on); NumPy's shape errors; np.linalg.* dispatching here.

Every test also runs a third way, "cpu+cusolver-plan": the CUDA code path of pygpu.linalg on CPU
arrays, with NumPy stand-ins for the cuSOLVER calls (tests/lapack_emulation.py)."""
import numpy as np
import pytest

import lapack_emulation
import pygpu
from conftest import DEVICES, assert_array_equal, same_error


@pytest.fixture(params=DEVICES + ["cpu+cusolver-plan"])
def device(request, monkeypatch):
    """The devices present, and the CPU taking the GPU's code path over emulated cuSOLVER calls."""
    if request.param == "cpu+cusolver-plan":
        lapack_emulation.install(monkeypatch)
        return pygpu.Device("cpu")
    return pygpu.Device(request.param)

LA = ["float32", "float64", "complex64", "complex128"]
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}
BATCHES = [(), (3,), (2, 2)]


def matrices(shape, dt, seed=0, kind="general"):
    """Well-conditioned test matrices: general (diagonally weighted), spd (Hermitian positive
    definite) or hermitian."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if len(shape) >= 2 and (kind != "general" or shape[-1] == shape[-2]):
        n = shape[-1]
        if kind == "spd":
            x = x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)
        elif kind == "hermitian":
            x = x + np.conj(np.swapaxes(x, -1, -2))
        else:
            x = x + n * np.eye(n)
    return x.astype(dt) if dt.kind in "fc" else np.round(x).astype(dt)


def P(x, device):
    return pygpu.asarray(x, device=device)


def H(x):
    return x.get() if isinstance(x, pygpu.ndarray) else np.asarray(x)


def close(got, expected, dt, scale=1.0):
    got, expected = H(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    tol = TOL[np.dtype(dt).name if np.dtype(dt).kind in "fc" else "float64"]
    np.testing.assert_allclose(got, expected, rtol=tol * 10, atol=tol * scale * 10)


def ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


def transposed(x, device):
    """x as a pygpu array whose matrices are stored transposed (a view with swapped strides)."""
    return P(np.ascontiguousarray(np.swapaxes(x, -1, -2)), device).swapaxes(-1, -2)


def strided(x, device):
    """x as a pygpu view of every other row and column of a larger array (no unit stride)."""
    big = np.zeros(x.shape[:-2] + (2 * x.shape[-2], 2 * x.shape[-1]), x.dtype)
    big[..., ::2, ::2] = x
    return P(big, device)[..., ::2, ::2]


def layouts(x, device):
    return [P(x, device), transposed(x, device), strided(x, device)]


# ---------------------------------------------------------------- factorisations

@pytest.mark.parametrize("dt", LA)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_cholesky(device, dt, batch):
    a = matrices(batch + (4, 4), dt, kind="spd")
    for pa in layouts(a, device):
        L = pygpu.linalg.cholesky(pa)
        close(L, np.linalg.cholesky(a), dt, 4)
        U = pygpu.linalg.cholesky(pa, upper=True)
        close(U, np.linalg.cholesky(a, upper=True), dt, 4)


@pytest.mark.parametrize("dt", LA)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 5, 3), (2, 3, 5)], ids=str)
def test_qr(device, dt, shape):
    a = matrices(shape, dt)
    m, n = shape[-2:]
    k = min(m, n)
    pa = P(a, device)
    q, r = pygpu.linalg.qr(strided(a, device))
    close(q @ r, a, dt, 10)
    for mode in ("reduced", "complete"):
        q, r = pygpu.linalg.qr(pa, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert q.shape == nq.shape and r.shape == nr.shape and q.dtype == nq.dtype
        close(q @ r, a, dt, 10)
        close(ct(H(q)) @ H(q), np.broadcast_to(np.eye(q.shape[-1], dtype=dt), q.shape[:-2] + (q.shape[-1],) * 2), dt)
        assert np.allclose(np.tril(H(r), -1), 0)
        close(np.abs(H(r)), np.abs(nr), dt, 10)
    r = pygpu.linalg.qr(pa, mode="r")
    close(np.abs(H(r)), np.abs(np.linalg.qr(a, mode="r")), dt, 10)
    h, tau = pygpu.linalg.qr(pa, mode="raw")
    nh, ntau = np.linalg.qr(a, mode="raw")
    assert h.shape == nh.shape and tau.shape == ntau.shape and tau.shape[-1] == k
    close(np.abs(np.triu(np.swapaxes(H(h), -1, -2))), np.abs(np.triu(np.swapaxes(nh, -1, -2))), dt, 10)


@pytest.mark.parametrize("dt", LA)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 5, 3), (2, 2, 3, 4)], ids=str)
def test_svd(device, dt, shape):
    a = matrices(shape, dt)
    pa = P(a, device)
    s_np = np.linalg.svd(a, compute_uv=False)
    close(pygpu.linalg.svd(pa, compute_uv=False), s_np, dt, 10)
    close(pygpu.linalg.svdvals(pa), s_np, dt, 10)
    for full in (True, False):
        u, s, vh = pygpu.linalg.svd(pa, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert u.shape == nu.shape and vh.shape == nvh.shape and u.dtype == nu.dtype and s.dtype == ns.dtype
        k = s.shape[-1]
        close(H(u)[..., :k] * H(s)[..., None, :] @ H(vh)[..., :k, :], a, dt, 10)
        close(ct(H(u)) @ H(u), np.broadcast_to(np.eye(u.shape[-1], dtype=dt), u.shape[:-2] + (u.shape[-1],) * 2), dt)
        close(H(vh) @ ct(H(vh)), np.broadcast_to(np.eye(vh.shape[-2], dtype=dt), vh.shape[:-2] + (vh.shape[-2],) * 2),
              dt)
    for pa in layouts(a, device)[1:]:
        close(pygpu.linalg.svd(pa, compute_uv=False), s_np, dt, 10)
        u, s, vh = pygpu.linalg.svd(pa, full_matrices=False)
        close(H(u) * H(s)[..., None, :] @ H(vh), a, dt, 10)


@pytest.mark.parametrize("dt", LA)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_eigh_eigvalsh(device, dt, batch):
    a = matrices(batch + (5, 5), dt, kind="hermitian")
    pa = P(a, device)
    close(pygpu.linalg.eigvalsh(strided(a, device)), np.linalg.eigvalsh(a), dt, 10)
    for uplo in ("L", "U"):
        w, v = pygpu.linalg.eigh(pa, UPLO=uplo)
        nw, nv = np.linalg.eigh(a, UPLO=uplo)
        close(w, nw, dt, 10)
        assert v.dtype == nv.dtype
        close(a @ H(v), H(v) * H(w)[..., None, :], dt, 10)
        close(pygpu.linalg.eigvalsh(pa, UPLO=uplo), np.linalg.eigvalsh(a, UPLO=uplo), dt, 10)
    # only the named triangle is read
    junk = np.triu(np.ones(a.shape, dt), 1) * 7
    close(pygpu.linalg.eigvalsh(P(np.tril(a) + junk, device)), np.linalg.eigvalsh(a), dt, 10)


@pytest.mark.parametrize("dt", LA)
def test_eig_eigvals(device, dt):
    a = matrices((2, 4, 4), dt)
    w, v = pygpu.linalg.eig(P(a, device))
    nw, nv = np.linalg.eig(a)
    assert w.dtype == nw.dtype and v.dtype == nv.dtype
    close(np.sort_complex(H(w)), np.sort_complex(nw), dt, 10)
    close(a.astype(nv.dtype) @ H(v), H(v) * H(w)[..., None, :], dt, 10)
    close(np.sort_complex(H(pygpu.linalg.eigvals(P(a, device)))), np.sort_complex(np.linalg.eigvals(a)), dt, 10)


@pytest.mark.parametrize("dt", LA + ["int64"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_solve_inv_det_slogdet(device, dt, batch):
    a = matrices(batch + (4, 4), dt)
    b = matrices(batch + (4, 2), dt, seed=1)
    v = matrices((4,), dt, seed=2) if dt != "int64" else np.arange(4)
    pa = P(a, device)
    close(pygpu.linalg.solve(pa, P(b, device)), np.linalg.solve(a, b), dt, 10)
    close(pygpu.linalg.solve(pa, P(v, device)), np.linalg.solve(a, v), dt, 10)
    for la, lb in zip(layouts(a, device)[1:], layouts(b, device)[:0:-1]):
        close(pygpu.linalg.solve(la, lb), np.linalg.solve(a, b), dt, 10)
        close(pygpu.linalg.inv(la), np.linalg.inv(a), dt, 10)
        close(pygpu.linalg.det(la), np.linalg.det(a), dt, 1e3)
    close(pygpu.linalg.inv(pa), np.linalg.inv(a), dt, 10)
    close(pygpu.linalg.det(pa), np.linalg.det(a), dt, 1e3)
    sign, logdet = pygpu.linalg.slogdet(pa)
    nsign, nlogdet = np.linalg.slogdet(a)
    close(sign, nsign, dt)
    close(logdet, nlogdet, dt, 10)


def test_solve_broadcasting(device):
    a = matrices((4, 4), "float64")
    b = matrices((3, 4, 2), "float64", seed=1)
    close(pygpu.linalg.solve(P(a, device), P(b, device)), np.linalg.solve(a, b), "float64", 10)
    a3 = matrices((3, 1, 4, 4), "float64")
    b2 = matrices((2, 4, 1), "float64", seed=3)
    close(pygpu.linalg.solve(P(a3, device), P(b2, device)), np.linalg.solve(a3, b2), "float64", 10)


def test_det_signs_and_singular(device):
    for a in (np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([[-2.0, 0.0], [0.0, 3.0]]),
              np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[2.0, 1j], [1j, 2.0]]), np.zeros((3, 3))):
        close(pygpu.linalg.det(P(a, device)), np.linalg.det(a), a.dtype, 1)
        s, ld = pygpu.linalg.slogdet(P(a, device))
        ns, nld = np.linalg.slogdet(a)
        close(s, ns, a.dtype)
        assert H(ld) == pytest.approx(nld)


@pytest.mark.parametrize("dt", LA)
def test_lstsq_pinv_rank(device, dt):
    for shape in [(6, 3), (3, 6), (4, 4)]:
        a = matrices(shape, dt)
        b = matrices((shape[0], 2), dt, seed=1)
        x, res, rank, s = pygpu.linalg.lstsq(P(a, device), P(b, device))
        nx, nres, nrank, ns = np.linalg.lstsq(a, b)
        close(x, nx, dt, 10)
        close(res, nres, dt, 10)
        assert isinstance(rank, int) and rank == nrank
        close(s, ns, dt, 10)
        x1 = pygpu.linalg.lstsq(P(a, device), P(b[:, 0], device))[0]
        close(x1, np.linalg.lstsq(a, b[:, 0])[0], dt, 10)
        close(pygpu.linalg.pinv(P(a, device)), np.linalg.pinv(a), dt, 10)
        assert int(H(pygpu.linalg.matrix_rank(P(a, device)))) == np.linalg.matrix_rank(a)
    low = matrices((5, 2), dt) @ matrices((2, 5), dt, seed=4)
    assert int(H(pygpu.linalg.matrix_rank(P(low, device)))) == np.linalg.matrix_rank(low) == 2
    # rank 2: the default rcond (1e-15) keeps the rounding noise of the zero singular values, whose
    # inverses then differ between LAPACK and cuSOLVER; a cutoff above the noise makes it well posed
    rc = 100 * np.finfo(dt).eps
    close(pygpu.linalg.pinv(P(low, device), rcond=rc), np.linalg.pinv(low, rcond=rc), dt, 100)
    stack = matrices((3, 4, 3), dt)
    np.testing.assert_array_equal(H(pygpu.linalg.matrix_rank(P(stack, device))), np.linalg.matrix_rank(stack))
    for v in (np.zeros(3, dt), np.ones(3, dt), np.zeros(0, dt), np.asarray(2, dt)):
        # NumPy's int for a vector: a 0-d int64 array, as for matrices
        got = pygpu.linalg.matrix_rank(P(v, device))
        assert isinstance(got, pygpu.ndarray) and got.shape == ()
        assert_array_equal(got, np.asarray(np.linalg.matrix_rank(v), np.int64))


@pytest.mark.parametrize("dt", ["float64", "complex64", "int32"])
def test_matrix_power(device, dt):
    a = (np.arange(9).reshape(3, 3) % 4 - 1).astype(dt)
    stack = np.stack([a, a.T])
    for n in (0, 1, 2, 3, 5, 6):
        got = pygpu.linalg.matrix_power(P(stack, device), n)
        exp = np.linalg.matrix_power(stack, n)
        assert got.dtype == exp.dtype
        np.testing.assert_allclose(H(got), exp, rtol=1e-5)
    g = matrices((3, 3), "float64")
    close(pygpu.linalg.matrix_power(P(g, device), -2), np.linalg.matrix_power(g, -2), "float64", 10)
    same_error(lambda: np.linalg.matrix_power(a, 1.5), lambda: pygpu.linalg.matrix_power(P(a, device), 1.5))


@pytest.mark.parametrize("dt", LA + ["int64"])
def test_norms_and_cond(device, dt):
    a = matrices((3, 4, 4), dt)
    v = matrices((5,), dt, seed=1)
    pa, pv = P(a, device), P(v, device)
    r = np.linalg.norm(a[0]).dtype
    for ord in (None, 0, 1, 2, 3, -1, np.inf, -np.inf):
        close(pygpu.linalg.norm(pv, ord), np.linalg.norm(v, ord), r, 10)
    for ord in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        close(pygpu.linalg.norm(pa[0], ord), np.linalg.norm(a[0], ord), r, 10)
        close(pygpu.linalg.norm(pa, ord, axis=(1, 2)), np.linalg.norm(a, ord, axis=(1, 2)), r, 10)
        close(pygpu.linalg.norm(pa, ord, axis=(2, 0), keepdims=True),
              np.linalg.norm(a, ord, axis=(2, 0), keepdims=True), r, 10)
        close(pygpu.linalg.matrix_norm(pa, ord=ord if ord is not None else "fro"),
              np.linalg.matrix_norm(a, ord=ord if ord is not None else "fro"), r, 10)
    close(pygpu.linalg.norm(pa, axis=1), np.linalg.norm(a, axis=1), r, 10)
    close(pygpu.linalg.norm(pa, keepdims=True), np.linalg.norm(a, keepdims=True), r, 10)
    for ord in (2, 1, np.inf, 0, -np.inf):
        close(pygpu.linalg.vector_norm(pa, ord=ord, axis=(0, 2)), np.linalg.vector_norm(a, ord=ord, axis=(0, 2)), r,
              10)
    close(pygpu.linalg.vector_norm(pa, keepdims=True), np.linalg.vector_norm(a, keepdims=True), r, 10)
    if dt != "int64":
        for p in (None, 1, -1, 2, -2, np.inf, -np.inf, "fro"):
            close(pygpu.linalg.cond(pa, p), np.linalg.cond(a, p), r, 100)
    same_error(lambda: np.linalg.norm(a, "fro", axis=1), lambda: pygpu.linalg.norm(pa, "fro", axis=1))
    same_error(lambda: np.linalg.norm(a, 3, axis=(1, 2)), lambda: pygpu.linalg.norm(pa, 3, axis=(1, 2)))
    same_error(lambda: np.linalg.norm(a, axis=(1, 1)), lambda: pygpu.linalg.norm(pa, axis=(1, 1)))


def test_cond_of_singular_matrix_is_inf(device):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    for p in (None, 1, np.inf):
        with np.errstate(all="ignore"):
            exp = np.linalg.cond(a, p)
        got = H(pygpu.linalg.cond(P(a, device), p))
        assert (np.isinf(got) and np.isinf(exp)) or got > 1e15


def test_cond_of_matrices_with_infinities_and_nans(device):
    # NumPy: inf for a matrix with an infinity (its SVD's NaNs), NaN for one with a NaN, per matrix
    # (NumPy 2.4's SVD raised LinAlgError for the infinity; 2.5's gives NaNs, so cond is inf)
    a = np.array([[[1.0, np.inf], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], [[np.nan, 1.0], [np.inf, 2.0]]])
    for p in (None, 2, -2):
        finite = np.linalg.cond(a[1], p)
        np.testing.assert_allclose(H(pygpu.linalg.cond(P(a, device), p)), [np.inf, finite, np.nan], rtol=1e-12)


def test_linalg_edge_dtypes_and_errors(device):
    # norm's ord as a NumPy float keeps a float32 vector's precision (NumPy's in-place power)
    v = np.array([1.0, 2.0, 3.0], np.float32)
    for ord in (np.float64(3), 3.5, np.int64(3), -1.5):
        got, want = pygpu.linalg.norm(P(v, device), ord=ord), np.linalg.norm(v, ord=ord)
        assert got.dtype == want.dtype and np.isclose(H(got), want, rtol=1e-6)
    # pinv of an empty matrix keeps its dtype (no SVD, float16 too)
    for dt in ("int64", "float16", "complex64"):
        got, want = pygpu.linalg.pinv(P(np.zeros((0, 3), dt), device)), np.linalg.pinv(np.zeros((0, 3), dt))
        assert got.dtype == want.dtype and got.shape == want.shape
    with pytest.raises(ValueError, match="At least one array has zero dimension"):   # NumPy 2.5's (2.4: IndexError)
        pygpu.linalg.cross(P(np.float64(1.0), device), P(np.ones(3), device))


def test_multi_dot_tensorinv_tensorsolve(device):
    rng = np.random.default_rng(5)
    arrs = [rng.standard_normal(s) for s in [(10,), (10, 3), (3, 30), (30, 5), (5,)]]
    close(pygpu.linalg.multi_dot([P(x, device) for x in arrs]), np.linalg.multi_dot(arrs), "float64", 100)
    arrs = [rng.standard_normal(s) for s in [(4, 10), (10, 3), (3, 30)]]
    close(pygpu.linalg.multi_dot([P(x, device) for x in arrs]), np.linalg.multi_dot(arrs), "float64", 100)
    t = matrices((24, 24), "float64").reshape(4, 6, 8, 3)
    close(pygpu.linalg.tensorinv(P(t, device), ind=2), np.linalg.tensorinv(t, ind=2), "float64", 10)
    b = rng.standard_normal((4, 6))
    close(pygpu.linalg.tensorsolve(P(t, device), P(b, device)), np.linalg.tensorsolve(t, b), "float64", 10)
    close(pygpu.linalg.tensorsolve(P(t.transpose(2, 3, 0, 1), device), P(b, device), axes=(0, 1)),
          np.linalg.tensorsolve(t.transpose(2, 3, 0, 1), b, axes=(0, 1)), "float64", 10)


def test_array_api_names(device):
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((4,))
    close(pygpu.linalg.matmul(P(x, device), P(y, device)), np.linalg.matmul(x, y), "float64")
    close(pygpu.linalg.tensordot(P(x, device), P(x, device), axes=((0, 1), (0, 1))),
          np.linalg.tensordot(x, x, axes=((0, 1), (0, 1))), "float64")
    close(pygpu.linalg.outer(P(y, device), P(y, device)), np.linalg.outer(y, y), "float64")
    close(pygpu.linalg.matrix_transpose(P(x, device)), np.linalg.matrix_transpose(x), "float64")
    same_error(lambda: np.linalg.outer(x, y), lambda: pygpu.linalg.outer(P(x, device), P(y, device)))


# ---------------------------------------------------------------- edge cases and errors

@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3)], ids=str)
def test_empty_matrices(device, shape):
    a = np.zeros(shape)
    pa = P(a, device)
    for fn in ("inv", "det", "cholesky", "eigvalsh", "svdvals", "pinv"):
        exp = getattr(np.linalg, fn)(a)
        got = getattr(pygpu.linalg, fn)(pa)
        assert H(got).shape == np.shape(exp) and H(got).dtype == np.asarray(exp).dtype, fn
        np.testing.assert_allclose(H(got), exp)
    s, ld = pygpu.linalg.slogdet(pa)
    ns, nld = np.linalg.slogdet(a)
    np.testing.assert_array_equal(H(s), ns)
    np.testing.assert_array_equal(H(ld), nld)
    for full in (True, False):
        for g, e in zip(pygpu.linalg.svd(pa, full_matrices=full), np.linalg.svd(a, full_matrices=full)):
            assert H(g).shape == e.shape
    q, r = pygpu.linalg.qr(pa)
    nq, nr = np.linalg.qr(a)
    assert H(q).shape == nq.shape and H(r).shape == nr.shape


def test_rectangular_empty(device):
    a = np.zeros((3, 0))
    for g, e in zip(pygpu.linalg.svd(P(a, device)), np.linalg.svd(a)):
        assert H(g).shape == e.shape
        np.testing.assert_allclose(H(g), e)
    assert H(pygpu.linalg.pinv(P(a, device))).shape == (0, 3)


def test_singular_and_indefinite_raise_linalgerror(device):
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    same_error(lambda: np.linalg.inv(sing), lambda: pygpu.linalg.inv(P(sing, device)))
    same_error(lambda: np.linalg.solve(sing, np.ones(2)), lambda: pygpu.linalg.solve(P(sing, device), P(np.ones(2),
                                                                                                          device)))
    same_error(lambda: np.linalg.cholesky(-np.eye(3)), lambda: pygpu.linalg.cholesky(P(-np.eye(3), device)))
    stack = np.stack([np.eye(2), sing])
    same_error(lambda: np.linalg.inv(stack), lambda: pygpu.linalg.inv(P(stack, device)))
    try:
        pygpu.linalg.inv(P(sing, device))
    except np.linalg.LinAlgError:  # the same class as NumPy's
        pass
    assert pygpu.linalg.LinAlgError is np.linalg.LinAlgError
    # the device carries on
    close(pygpu.linalg.inv(P(np.eye(2) * 2, device)), np.eye(2) / 2, "float64")


def test_shape_and_type_errors(device):
    def both(fn, *arrays, **kw):
        same_error(lambda: getattr(np.linalg, fn)(*arrays, **kw),
                   lambda: getattr(pygpu.linalg, fn)(*[P(x, device) for x in arrays], **kw))

    for fn in ("inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eig", "eigvals"):
        both(fn, np.ones((2, 3)))
        both(fn, np.ones(3))
        both(fn, np.eye(2, dtype=np.float16))
    for fn in ("svd", "qr", "pinv"):
        both(fn, np.ones(3))
    both("solve", np.eye(3), np.ones(4))
    both("solve", np.eye(3), np.ones((2, 4)))
    both("solve", np.ones((2, 3)), np.ones(2))
    both("solve", np.eye(3), np.ones(()))
    both("qr", np.eye(2), mode="bad")
    both("eigh", np.eye(2), UPLO="X")
    both("lstsq", np.ones((3, 2)), np.ones(4))
    both("lstsq", np.ones((3, 2, 2)), np.ones(3))
    both("multi_dot", [np.ones((2, 2))])
    both("tensorinv", np.ones((2, 2)), ind=0)
    both("cond", np.ones((0, 0)))
    both("pinv", np.ones((2, 2)), rcond=1e-3, rtol=1e-3)
    both("matrix_rank", np.ones((2, 2)), tol=1e-3, rtol=1e-3)
    same_error(lambda: np.linalg.inv(np.eye(2, dtype=np.float16)),
               lambda: pygpu.linalg.inv(P(np.eye(2, dtype=np.float16), device)))


def test_numpy_linalg_dispatches(device):
    a = matrices((4, 4), "float64", kind="spd")
    b = matrices((4, 2), "float64", seed=1)
    pa, pb = P(a, device), P(b, device)
    for fn, args in [("inv", (a,)), ("det", (a,)), ("solve", (a, b)), ("cholesky", (a,)), ("eigvalsh", (a,)),
                     ("norm", (a,)), ("matrix_rank", (a,)), ("pinv", (a,)), ("svdvals", (a,)), ("cond", (a,))]:
        got = getattr(np.linalg, fn)(*[P(x, device) for x in args])
        assert isinstance(got, pygpu.ndarray), fn
        assert got.device == device
        np.testing.assert_allclose(H(got), getattr(np.linalg, fn)(*args), rtol=1e-8, err_msg=fn)
    q, r = np.linalg.qr(pa)
    assert isinstance(q, pygpu.ndarray) and type(np.linalg.qr(a)).__name__ == type(np.linalg.qr(pa)).__name__
    w, v = np.linalg.eigh(pa)
    assert isinstance(w, pygpu.ndarray) and isinstance(v, pygpu.ndarray)
    u, s, vh = np.linalg.svd(pb)
    assert isinstance(s, pygpu.ndarray)


def test_results_on_cpu_share_memory_with_numpy_results():
    """The CPU path wraps NumPy's results without copying (and computes on the array's memory)."""
    a = pygpu.asarray(matrices((64, 64), "float64"), device="cpu")
    inv = pygpu.linalg.inv(a)
    assert inv.device == pygpu.Device("cpu") and inv.base is not None


# ------------------------------------------------------------------ SciPy's lu and solve_triangular

@pytest.fixture(params=["scipy", "numpy"])
def scipy_or_not(request, monkeypatch):
    """With SciPy's routines on the CPU (when installed), and with the NumPy stand-ins."""
    import pygpu._linalg_scipy as S
    if request.param == "scipy":
        pytest.importorskip("scipy.linalg")
    else:
        monkeypatch.setattr(S, "_scipy_linalg", None)
    return request.param


@pytest.mark.parametrize("shape", [(5, 5), (7, 4), (4, 7), (1, 1), (3, 0), (0, 3), (2, 3, 3)])
@pytest.mark.parametrize("dt", ["float32", "float64", "complex128", "int64"])
def test_lu(device, scipy_or_not, shape, dt):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape) * 3
    a = (a + 1j * rng.standard_normal(shape) if dt.startswith("complex") else a).astype(dt)
    tol = 2e-5 if dt == "float32" else 1e-12
    pa = pygpu.asarray(a, device=device)
    p, lower, upper = pygpu.linalg.lu(pa)
    k = min(shape[-2:])
    assert lower.shape == shape[:-2] + (shape[-2], k) and upper.shape == shape[:-2] + (k, shape[-1])
    assert lower.dtype == upper.dtype == (np.float64 if dt == "int64" else np.dtype(dt))
    P, L, U = (pygpu.asnumpy(x) for x in (p, lower, upper))
    if a.size:
        np.testing.assert_allclose(P @ L @ U, a, rtol=tol, atol=tol * 10)
        np.testing.assert_array_equal(np.triu(L, 1), 0)
        np.testing.assert_array_equal(np.tril(U, -1), 0)
        np.testing.assert_allclose(np.diagonal(L, axis1=-2, axis2=-1), 1)
        assert np.all(np.abs(L) <= 1 + tol)   # partial pivoting: no multiplier above one
    if len(shape) == 2:
        pl, u2 = pygpu.linalg.lu(pa, permute_l=True)
        assert pl.shape == L.shape
        if a.size:
            np.testing.assert_allclose(pygpu.asnumpy(pl), P @ L, rtol=tol, atol=tol)
        idx, l3, _ = pygpu.linalg.lu(pa, p_indices=True)
        if a.size:
            np.testing.assert_allclose(pygpu.asnumpy(l3)[pygpu.asnumpy(idx)] @ U, a, rtol=tol, atol=tol * 10)
    try:
        import scipy.linalg
    except ImportError:
        return
    want = scipy.linalg.lu(a)
    for got, w in zip((P, L, U), want):
        assert got.shape == w.shape
        np.testing.assert_allclose(got, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("trans", [0, "T", 2])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(device, scipy_or_not, lower, trans, unit):
    rng = np.random.default_rng(4)
    n = 6
    a = rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n)) + 4 * np.eye(n)
    b = rng.standard_normal((n, 3))
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t = t - np.diag(np.diag(t)) + np.eye(n)
    op = {0: t, "T": t.T, 2: t.conj().T}[trans]
    for rhs in (b, b[:, 0]):
        x = pygpu.linalg.solve_triangular(pygpu.asarray(a, device=device), pygpu.asarray(rhs, device=device),
                                          trans=trans, lower=lower, unit_diagonal=unit)
        assert x.shape == rhs.shape and x.dtype == np.complex128
        np.testing.assert_allclose(pygpu.asnumpy(x), np.linalg.solve(op, rhs), rtol=1e-10, atol=1e-12)
    real = pygpu.linalg.solve_triangular(pygpu.asarray(a.real.astype(np.float32), device=device),
                                         pygpu.asarray(b.astype(np.float32), device=device), lower=lower)
    assert real.dtype == np.float32


def test_lu_and_solve_triangular_errors(device, scipy_or_not):
    a = pygpu.asarray(np.triu(np.ones((3, 3))), device=device)
    with pytest.raises(ValueError, match="at least two-dimensional"):
        pygpu.linalg.lu(pygpu.ones(3, device=device))
    with pytest.raises(ValueError, match="infs or NaNs"):
        pygpu.linalg.lu(pygpu.asarray([[1.0, np.nan], [0.0, 1.0]], device=device))
    with pytest.raises(ValueError, match="incompatible"):
        pygpu.linalg.solve_triangular(a, pygpu.ones(4, device=device))
    with pytest.raises(ValueError, match="expected square matrix"):
        pygpu.linalg.solve_triangular(a[:2], pygpu.ones(2, device=device))
    with pytest.raises(ValueError, match="trans"):
        pygpu.linalg.solve_triangular(a, pygpu.ones(3, device=device), trans="X")
    singular = pygpu.asarray(np.triu(np.ones((3, 3))) - np.diag([0.0, 1.0, 0.0]), device=device)
    with pytest.raises(np.linalg.LinAlgError, match="singular matrix"):
        pygpu.linalg.solve_triangular(singular, pygpu.ones(3, device=device))
