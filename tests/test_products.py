"""The products of NumPy's namespace on pygpu arrays against NumPy: dot, vdot, inner, outer,
tensordot, kron, vecdot, matvec, vecmat, trace, diagonal, cross; dtypes, shapes, layouts, out=,
errors, and dispatch from numpy.* (NEP 18) and NumPy's gufuncs."""
import numpy as np
import pytest

import pygpu
from conftest import DTYPES, assert_array_equal, same_error


def values(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0, 7, shape).astype(dt)
    x = rng.integers(-4, 5, shape).astype(np.float64)  # small integers: exact sums in every dtype
    if dt.kind == "c":
        x = x + 1j * rng.integers(-4, 5, shape)
    return x.astype(dt)


def check(got, expected, approx=False):
    expected = np.asarray(expected)
    assert isinstance(got, pygpu.ndarray)
    if approx:
        g = got.get()
        assert g.dtype == expected.dtype and g.shape == expected.shape, (g.dtype, expected.dtype, g.shape)
        np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-9)
    else:
        assert_array_equal(got, expected)


def P(x, device):
    return pygpu.asarray(x, device=device)


@pytest.mark.parametrize("dt", DTYPES)
def test_dot_vdot_inner_outer_dtypes(device, dt):
    rng = np.random.default_rng(0)
    a, b = values(rng, (3, 4), dt), values(rng, (4, 2), dt)
    v, w = values(rng, (4,), dt), values(rng, (4,), dt)
    with np.errstate(all="ignore"):
        check(pygpu.dot(P(a, device), P(b, device)), np.dot(a, b))
        check(pygpu.dot(P(v, device), P(w, device)), np.dot(v, w))
        check(pygpu.vdot(P(a, device), P(a, device)), np.vdot(a, a))
        check(pygpu.vdot(P(v, device), P(w, device)), np.vdot(v, w))
        check(pygpu.inner(P(a, device), P(b.T, device)), np.inner(a, b.T))
        check(pygpu.outer(P(v, device), P(w, device)), np.outer(v, w))
        check(pygpu.kron(P(a, device), P(b, device)), np.kron(a, b))


@pytest.mark.parametrize("sa,sb", [((2, 3, 4), (5, 4, 2)), ((4,), (3, 4, 2)), ((2, 3, 4), (4,)), ((3,), (3,)),
                                   ((2, 3), (3, 4)), ((0, 3), (3, 2)), ((2, 3, 4), (4, 0)),
                                   # a zero-length contracted axis in the N-d case (all-zero result)
                                   ((2, 3, 0), (3, 0, 2)), ((3, 0), (2, 0, 4)), ((2, 0, 3), (4, 3, 2))], ids=str)
def test_dot_shapes(device, sa, sb):
    rng = np.random.default_rng(1)
    a, b = values(rng, sa, "float64"), values(rng, sb, "float64")
    check(pygpu.dot(P(a, device), P(b, device)), np.dot(a, b))
    check(np.dot(P(a, device), P(b, device)), np.dot(a, b))


def test_dot_scalars_and_out(device):
    a = np.arange(6.0).reshape(2, 3)
    check(pygpu.dot(P(a, device), 2), np.dot(a, 2))
    check(pygpu.dot(3, P(a, device)), np.dot(3, a))
    check(pygpu.dot(P(np.float32(2), device), P(a.astype(np.float32), device)), np.dot(np.float32(2), a.astype(np.float32)))
    # a Python scalar is an array to dot and inner (int64, float64, complex128), not a weak scalar
    for dt, scalar in (("i1", 1), ("i1", 1000), ("f4", 1.5), ("f2", 2), ("u1", True), ("f4", 1j)):
        x = np.array([1, 2], dt)
        for f in (np.dot, np.inner):
            check(getattr(pygpu, f.__name__)(P(x, device), scalar), f(x, scalar))
            check(getattr(pygpu, f.__name__)(scalar, P(x, device)), f(scalar, x))
    out = pygpu.empty((2, 2), device=device)
    assert pygpu.dot(P(a, device), P(a.T, device), out=out) is out
    check(out, a @ a.T)
    for bad, nbad in [(pygpu.empty((2, 2), dtype=np.float32, device=device), np.empty((2, 2), np.float32)),
                      (pygpu.empty((2, 3), device=device), np.empty((2, 3))),
                      (pygpu.empty((2, 4), device=device)[:, ::2], np.empty((2, 4))[:, ::2])]:
        same_error(lambda: np.dot(a, a.T, out=nbad), lambda: pygpu.dot(P(a, device), P(a.T, device), out=bad))


def test_product_errors(device):
    def both(fn, pfn, *shapes):
        n = [np.ones(s) for s in shapes]
        p = [pygpu.ones(s, device=device) for s in shapes]
        same_error(lambda: fn(*n), lambda: pfn(*p))

    both(np.dot, pygpu.dot, (2, 3), (4, 2))
    both(np.dot, pygpu.dot, (2, 3), (2,))
    both(np.dot, pygpu.dot, (2, 3, 4), (5, 3, 2))
    both(np.vdot, pygpu.vdot, (2, 3), (4, 2))
    both(np.inner, pygpu.inner, (2, 3), (4, 2))
    both(np.inner, pygpu.inner, (2, 3), (4,))
    both(np.tensordot, pygpu.tensordot, (2, 3), (4, 2))
    both(np.vecdot, pygpu.vecdot, (2, 3), (2, 4))
    both(np.matvec, pygpu.matvec, (2, 3), (4,))
    both(np.vecmat, pygpu.vecmat, (3,), (4, 2))
    both(np.matvec, pygpu.matvec, (3,), (3,))
    both(np.cross, pygpu.cross, (4,), (3,))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [1]), (1, 0), ([-1], [-2])], ids=str)
def test_tensordot(device, axes):
    rng = np.random.default_rng(2)
    a, b = values(rng, (3, 4, 5), "float64"), values(rng, (4, 3, 2) if axes != ([2], [1]) else (2, 5, 3), "float64")
    if axes in (1, 2):
        b = values(rng, (4, 5, 2) if axes == 2 else (5, 2), "float64")
    if axes == (1, 0):
        b = values(rng, (4, 3), "float64")
    if axes == ([-1], [-2]):
        b = values(rng, (2, 5, 3), "float64")
    expected = np.tensordot(a, b, axes=axes)
    check(pygpu.tensordot(P(a, device), P(b, device), axes=axes), expected)
    check(np.tensordot(P(a, device), P(b, device), axes=axes), expected)


def test_kron_shapes(device):
    rng = np.random.default_rng(3)
    for sa, sb in [((2, 3), (4,)), ((2,), (3, 2)), ((2, 1, 3), (2, 2)), ((3,), (2,)), ((2, 2), ())]:
        a, b = values(rng, sa, "int32"), values(rng, sb, "float32")
        check(pygpu.kron(P(a, device), P(b, device)), np.kron(a, b))


@pytest.mark.parametrize("dt", ["float64", "complex128", "int32", "complex64", "bool"])
def test_vecdot_matvec_vecmat(device, dt):
    rng = np.random.default_rng(4)
    x, y = values(rng, (2, 3, 4), dt), values(rng, (3, 4), dt)
    check(pygpu.vecdot(P(x, device), P(y, device)), np.vecdot(x, y))
    check(pygpu.vecdot(P(x, device), P(x, device), axis=1), np.vecdot(x, x, axis=1))
    check(pygpu.linalg.vecdot(P(x, device), P(y, device)), np.linalg.vecdot(x, y))
    m = values(rng, (2, 5, 4), dt)
    check(pygpu.matvec(P(m, device), P(y[0], device)), np.matvec(m, y[0]))
    check(pygpu.matvec(P(m, device), P(x[:, :1], device)), np.matvec(m, x[:, :1]))
    z = values(rng, (4, 2), dt)
    check(pygpu.vecmat(P(y, device), P(z, device)), np.vecmat(y, z))
    # NumPy's gufuncs on pygpu arrays come here
    check(np.vecdot(P(x, device), P(y, device)), np.vecdot(x, y))
    check(np.matvec(P(m, device), P(y[0], device)), np.matvec(m, y[0]))
    check(np.vecmat(P(y, device), P(z, device)), np.vecmat(y, z))


@pytest.mark.parametrize("dt", DTYPES)
def test_trace_and_diagonal(device, dt):
    rng = np.random.default_rng(5)
    a = values(rng, (4, 5, 3), dt)
    pa = P(a, device)
    for off in (-2, -1, 0, 1, 3, 7):
        for ax1, ax2 in ((0, 1), (1, 2), (2, 0), (-1, -2)):
            check(pygpu.diagonal(pa, off, ax1, ax2), np.diagonal(a, off, ax1, ax2))
            with np.errstate(all="ignore"):
                check(pygpu.trace(pa, off, ax1, ax2), np.trace(a, off, ax1, ax2))
    d = pygpu.diagonal(pa)
    assert not d.flags["WRITEABLE"]
    check(np.trace(pa), np.trace(a))
    check(np.diagonal(pa, 1), np.diagonal(a, 1))
    check(pygpu.linalg.diagonal(pa, offset=1), np.linalg.diagonal(a, offset=1))
    with np.errstate(all="ignore"):
        check(pygpu.linalg.trace(pa, offset=-1), np.linalg.trace(a, offset=-1))
        if np.dtype(dt).kind in "iub":
            check(pygpu.trace(pa, dtype=np.int8), np.trace(a, dtype=np.int8))
    if np.dtype(dt).kind == "c":   # inf and NaN on the diagonal leave the other part alone, as NumPy's sum does
        for v in (complex(np.inf, 0), complex(np.nan, 1), complex(-np.inf, np.inf)):
            b = a.copy()
            b[1, 1, 1] = v
            with np.errstate(all="ignore"):
                for ax1, ax2 in ((0, 1), (1, 2)):
                    got, want = pygpu.trace(P(b, device), 0, ax1, ax2), np.trace(b, 0, ax1, ax2)
                    np.testing.assert_array_equal(got.get().real, want.real)
                    np.testing.assert_array_equal(got.get().imag, want.imag)
    same_error(lambda: np.diagonal(np.ones(3)), lambda: pygpu.diagonal(pygpu.ones(3, device=device)))
    same_error(lambda: np.diagonal(np.ones((2, 2)), 0, 1, 1), lambda: pygpu.diagonal(pygpu.ones((2, 2), device=device),
                                                                                     0, 1, 1))


def test_diagonal_of_views(device):
    a = np.arange(60.0).reshape(3, 4, 5)
    pa = P(a, device)
    check(pygpu.diagonal(pa.T, 0, 0, 2), np.diagonal(a.T, 0, 0, 2))
    check(pygpu.diagonal(pa[:, ::-1, ::2], -1, 1, 2), np.diagonal(a[:, ::-1, ::2], -1, 1, 2))
    check(pygpu.trace(pa[::2].T), np.trace(a[::2].T))


def test_cross(device):
    rng = np.random.default_rng(6)
    a, b = values(rng, (5, 3), "float64"), values(rng, (5, 3), "float64")
    check(pygpu.cross(P(a, device), P(b, device)), np.cross(a, b))
    check(pygpu.cross(P(a.T, device), P(b.T, device), axisa=0, axisb=0, axisc=0), np.cross(a.T, b.T, axis=0))
    check(pygpu.cross(P(a[0], device), P(b, device)), np.cross(a[0], b))
    check(pygpu.linalg.cross(P(a, device), P(b, device)), np.linalg.cross(a, b))
    if np.lib.NumpyVersion(np.__version__) >= "2.5.0":  # 2-element vectors are gone
        same_error(lambda: np.cross(a[:, :2], b), lambda: pygpu.cross(P(a[:, :2], device), P(b, device)))
    else:
        with pytest.warns(DeprecationWarning):
            got = pygpu.cross(P(a[:, :2], device), P(b, device))
        with pytest.warns(DeprecationWarning):
            check(got, np.cross(a[:, :2], b))
        with pytest.warns(DeprecationWarning):
            got = pygpu.cross(P(a[:, :2], device), P(b[:, :2], device))
        with pytest.warns(DeprecationWarning):
            check(got, np.cross(a[:, :2], b[:, :2]))
    same_error(lambda: np.linalg.cross(a[:, :2], b), lambda: pygpu.linalg.cross(P(a[:, :2], device), P(b, device)))
    check(np.cross(P(a, device), P(b, device)), np.cross(a, b))


def test_numpy_functions_dispatch_to_pygpu(device):
    rng = np.random.default_rng(7)
    a, b = values(rng, (3, 4), "float64"), values(rng, (4, 3), "float64")
    pa, pb = P(a, device), P(b, device)
    for fn, args in [(np.dot, (a, b)), (np.vdot, (a, b.T)), (np.inner, (a, b.T)), (np.outer, (a, b)),
                     (np.kron, (a, b)), (np.tensordot, (a, b)), (np.matmul, (a, b))]:
        pargs = [P(x, device) for x in args]
        got = fn(*pargs) if fn is not np.tensordot else fn(*pargs, axes=1)
        exp = fn(*args) if fn is not np.tensordot else fn(*args, axes=1)
        check(got, exp)
        assert got.device == device
    # mixing a pygpu array with a NumPy array or a list
    check(np.dot(pa, b), np.dot(a, b))
    check(np.dot(a.tolist(), pb), np.dot(a, b))

