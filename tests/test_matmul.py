"""pygpu.matmul, @ and @= against NumPy: every dtype and mixed pairs (NumPy 2 promotion), 1-d
promotion, batch broadcasting, layouts (C, Fortran, transposed, strided, negative strides,
broadcast views, non-contiguous out), out= (cast, overlap, extra batch dimensions), integer
results exact to the bit (wrapping like NumPy), float16 computed in float32, the TF32 switch,
NumPy's error types and messages, and numpy.matmul / NumPy operands dispatching to pygpu."""
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, child_pythonpath, same_error

FLOATS = ["float16", "float32", "float64", "complex64", "complex128"]
EPS = {"float16": 1e-3, "float32": 2e-6, "complex64": 2e-6, "float64": 1e-14, "complex128": 1e-14}


def operand(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def expected_matmul(a, b, **kw):
    """NumPy's matmul; float16 as pygpu computes it (in float32, rounded once)."""
    r = np.matmul(a, b, **kw)
    if r.dtype == np.float16:
        r = np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    return r


def assert_matmul(got, a, b, expected=None):
    """got equals NumPy's a @ b: exactly for integers and bool, within the rounding bound
    k * eps * (|a| @ |b|) for floats (BLAS libraries order their sums differently)."""
    if expected is None:
        expected = expected_matmul(a, b)
    if isinstance(got, pygpu.ndarray):
        got = got.get()
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected)
        return
    k = a.shape[-1] if a.ndim else 1
    bound = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    tol = EPS[expected.dtype.name] * (k + 2) * bound + 1e-30
    err = np.abs(got.astype(np.complex128) - expected.astype(np.complex128))
    assert np.all(err <= tol), float(np.max(err - tol))


SHAPES = [((3, 4), (4, 5)), ((4,), (4,)), ((4,), (4, 5)), ((3, 4), (4,)), ((2, 3, 4), (4, 5)),
          ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((7, 3, 4), (7, 4, 2)), ((2, 3, 4), (4,)),
          ((4,), (2, 4, 3)), ((1, 1), (1, 1)), ((5, 1), (1, 6)), ((0, 4), (4, 3)), ((3, 0), (0, 2)),
          ((2, 0, 3, 4), (4, 2)), ((0,), (0,)), ((6, 1, 4), (1, 4, 3))]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("sa,sb", SHAPES, ids=str)
def test_matmul_shapes_dtypes(device, dt, sa, sb):
    rng = np.random.default_rng(0)
    a, b = operand(rng, sa, dt), operand(rng, sb, dt)
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    got = pygpu.matmul(pa, pb)
    assert isinstance(got, pygpu.ndarray) and got.device == device
    assert_matmul(got, a, b)
    assert_matmul(pa @ pb, a, b)


def layouts(x):
    """(name, array with x's values in another layout) for 2-d and 3-d x."""
    out = [("C", x), ("F", np.asfortranarray(x))]
    if x.ndim >= 2:
        t = np.ascontiguousarray(np.swapaxes(x, -1, -2))
        out.append(("transposed view", np.swapaxes(t, -1, -2)))
        big = np.zeros(x.shape[:-1] + (2 * x.shape[-1] + 1,), x.dtype)
        big[..., 1::2] = x
        out.append(("strided columns", big[..., 1::2]))
        big = np.zeros(x.shape[:-2] + (2 * x.shape[-2], x.shape[-1]), x.dtype)
        big[..., ::2, :] = x
        out.append(("strided rows", big[..., ::2, :]))
        out.append(("negative strides", np.ascontiguousarray(x[..., ::-1, ::-1])[..., ::-1, ::-1]))
    return out


def device_layout(x, device):
    """x as a pygpu array with the same strides as the NumPy array x."""
    base = x
    while base.base is not None and isinstance(base.base, np.ndarray):
        base = base.base
    if base.flags.c_contiguous and np.shares_memory(base, x) and x.ndim:
        pbase = pygpu.asarray(base, device=device)
        offset = x.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        return pygpu._core._as_strided(pbase, x.shape, x.strides, offset)
    return pygpu.asarray(x, device=device)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex128", "int32", "bool", "float16"])
@pytest.mark.parametrize("sa,sb", [((5, 4), (4, 3)), ((2, 5, 4), (2, 4, 3)), ((2, 5, 4), (4, 3)), ((5, 4), (4, 1))],
                         ids=str)
def test_matmul_layouts(device, dt, sa, sb):
    rng = np.random.default_rng(1)
    a, b = operand(rng, sa, dt), operand(rng, sb, dt)
    for na, la in layouts(a):
        for nb, lb in layouts(b):
            pa, pb = device_layout(la, device), device_layout(lb, device)
            assert pa.strides == la.strides and pb.strides == lb.strides
            assert_matmul(pa @ pb, a, b)


def test_matmul_views_keep_their_values(device):
    """Slices, transposes and broadcast views of pygpu arrays as operands."""
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((6, 8)), rng.standard_normal((8, 10))
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    for sa, sb in [(np.s_[::2, :4], np.s_[:4, ::3]), (np.s_[::-1, :], np.s_[:, ::-1]), (np.s_[:, ::2], np.s_[::2, :]),
                   (np.s_[1:4, 2:6], np.s_[3:7, ::-2])]:
        assert_matmul(pa[sa] @ pb[sb], a[sa], b[sb])
    assert_matmul(pa.T @ pa, a.T, a)
    assert_matmul(pa @ pa.T, a, a.T)
    bc = np.broadcast_to(b[:, :3], (4, 8, 3))
    assert_matmul(pa @ pygpu.broadcast_to(pb[:, :3], (4, 8, 3)), a, bc)
    row = np.broadcast_to(a[:1], (5, 8))
    assert_matmul(pygpu.broadcast_to(pa[:1], (5, 8)) @ pb, row, b)


@pytest.mark.parametrize("d1", DTYPES)
def test_matmul_mixed_dtypes(device, d1):
    rng = np.random.default_rng(3)
    for d2 in DTYPES:
        a, b = operand(rng, (3, 4), d1), operand(rng, (4, 2), d2)
        got = pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device)
        assert got.dtype == np.result_type(a, b)
        t = got.dtype
        assert_matmul(got, a.astype(t), b.astype(t))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint32", "int64", "uint64"])
def test_integer_matmul_wraps_like_numpy(device, dt):
    """Sums of products overflow exactly as NumPy's integer loops: no float detour."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(4)
    a = rng.integers(info.min, info.max, (5, 37), dtype=dt, endpoint=True)
    b = rng.integers(info.min, info.max, (37, 6), dtype=dt, endpoint=True)
    got = pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device)
    with np.errstate(all="ignore"):
        assert_array_equal(got, a @ b)
    big = np.full((2, 3), info.max, dtype=dt)
    assert_array_equal(pygpu.asarray(big, device=device) @ pygpu.asarray(big.T, device=device), big @ big.T)


def test_bool_matmul_is_or_of_ands(device):
    a = np.array([[True, False, True], [False, False, False]])
    b = np.array([[False, True], [True, True], [False, False]])
    assert_array_equal(pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device), a @ b)
    big = np.ones((2, 300), bool)
    assert_array_equal(pygpu.asarray(big, device=device) @ pygpu.asarray(big.T, device=device), big @ big.T)


def test_matmul_zero_k_gives_zeros(device):
    for dt in ["float64", "int32", "bool", "complex64"]:
        a, b = np.ones((3, 0), dt), np.ones((0, 2), dt)
        assert_array_equal(pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device), a @ b)


def test_matmul_large_batches_and_tall_products(device):
    rng = np.random.default_rng(5)
    # a batch of matrices times one matrix (one tall GEMM), and batches of vectors
    a, b = rng.standard_normal((50, 7, 5)), rng.standard_normal((5, 3))
    assert_matmul(pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device), a, b)
    v = rng.standard_normal((50, 5, 1))
    assert_matmul(pygpu.asarray(a, device=device) @ pygpu.asarray(v, device=device), a, v)
    # batch dimensions that do not merge: broadcast in the middle
    a, b = rng.standard_normal((3, 1, 4, 2, 5)), rng.standard_normal((2, 1, 5, 3))
    assert_matmul(pygpu.asarray(a, device=device) @ pygpu.asarray(b, device=device), a, b)
    c = rng.standard_normal((4, 3, 2, 2))[:, ::2]
    assert_matmul(pygpu.asarray(c, device=device) @ pygpu.asarray(c, device=device), c, c)


def test_matmul_out(device):
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    out = pygpu.empty((4, 5), device=device)
    assert pygpu.matmul(pa, pb, out=out) is out
    assert_matmul(out, a, b)
    # out=(array,) like ufuncs; out of another dtype (same_kind); a non-contiguous out
    out32 = pygpu.zeros((4, 5), dtype=np.float32, device=device)
    assert pygpu.matmul(pa, pb, out=(out32,)) is out32
    np.testing.assert_allclose(out32.get(), (a @ b).astype(np.float32), rtol=1e-5)
    big = pygpu.zeros((8, 10), device=device)
    pygpu.matmul(pa, pb, out=big[::2, ::2])
    np.testing.assert_allclose(big.get()[::2, ::2], a @ b)
    assert not big.get()[1::2].any()
    fo = pygpu.zeros((4, 5), device=device).T.copy().T  # Fortran-ordered
    pygpu.matmul(pa, pb, out=fo)
    np.testing.assert_allclose(fo.get(), a @ b)
    # out with batch dimensions the inputs broadcast to
    ob = pygpu.empty((2, 4, 5), device=device)
    pygpu.matmul(pa, pb, out=ob)
    np.testing.assert_allclose(ob.get(), np.matmul(a, b, out=np.empty((2, 4, 5))))
    # dtype= and casting=
    got = pygpu.matmul(pa, pb, dtype=np.float32)
    assert got.dtype == np.float32
    ia = pygpu.asarray(np.arange(6).reshape(2, 3), device=device)
    got = pygpu.matmul(ia, ia.T, dtype=np.int8, casting="unsafe")
    assert_array_equal(got, np.matmul(np.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3).T, dtype=np.int8,
                                      casting="unsafe"))


def test_matmul_out_overlapping_inputs(device):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 4))
    pa = pygpu.asarray(a, device=device)
    pygpu.matmul(pa, pa, out=pa)
    np.testing.assert_allclose(pa.get(), a @ a)
    x = rng.standard_normal((6, 6))
    px = pygpu.asarray(x, device=device)
    pygpu.matmul(px[:3, :3], px[3:, 3:], out=px[1:4, 1:4])
    x[1:4, 1:4] = x[:3, :3] @ x[3:, 3:]
    np.testing.assert_allclose(px.get(), x)


def test_inplace_matmul(device):
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    pa = pygpu.asarray(a, device=device)
    before = pa
    pa @= pygpu.asarray(b, device=device)
    assert pa is before
    np.testing.assert_allclose(pa.get(), a @ b)
    pa @= b.tolist()
    np.testing.assert_allclose(pa.get(), a @ b @ b)
    i = pygpu.asarray(np.ones((3, 3), np.int64), device=device)
    same_error(lambda: np.ones((3, 3), np.int64).__imatmul__(np.ones((3, 3))),
               lambda: i.__imatmul__(pygpu.ones((3, 3), device=device)))
    same_error(lambda: np.ones((3, 3)).__imatmul__(np.ones(3)),
               lambda: pygpu.ones((3, 3), device=device).__imatmul__(pygpu.ones(3, device=device)))
    same_error(lambda: np.ones((3, 3)).__imatmul__(np.ones((3, 2))),
               lambda: pygpu.ones((3, 3), device=device).__imatmul__(pygpu.ones((3, 2), device=device)))


def test_matmul_errors(device):
    def both(sa, sb, sout=None, **kw):
        na, nb = np.ones(sa), np.ones(sb)
        pa, pb = pygpu.ones(sa, device=device), pygpu.ones(sb, device=device)
        nkw, pkw = dict(kw), dict(kw)
        if sout is not None:
            nkw["out"] = np.ones(sout, kw.pop("out_dtype", np.float64))
            pkw["out"] = pygpu.ones(sout, dtype=nkw["out"].dtype, device=device)
            pkw.pop("out_dtype", None)
            nkw.pop("out_dtype", None)
        same_error(lambda: np.matmul(na, nb, **nkw), lambda: pygpu.matmul(pa, pb, **pkw))

    both((2, 3), (4, 5))
    both((3,), (4,))
    both((), (4,))
    both((4,), ())
    both((2, 2, 3), (3, 3, 2))
    both((7, 2, 3), (4, 5, 3, 2))
    both((4, 5, 3), (7, 3, 2))
    both((2, 3), (3, 2), (3, 3))
    both((3, 2, 3), (3, 2), (4, 2, 2))
    both((2, 3), (3, 2), (2, 2), out_dtype=np.int64)
    both((2, 3), (3, 2), dtype=np.int32)
    with pytest.raises(TypeError):  # as for the other operators: NotImplemented, then Python's TypeError
        pygpu.ones((2, 2), device=device) @ "a"
    with pytest.raises(TypeError, match="return arrays must be"):
        pygpu.matmul(pygpu.ones((2, 2)), pygpu.ones((2, 2)), out=np.ones((2, 2)))


@pytest.mark.parametrize("sa, sb, axes", [
    ((2, 5, 3, 2, 3, 4), (3, 5, 1, 1, 1, 4), [(1, 2), (0, 1), (0, 1)]),
    ((2, 5, 3, 2, 3, 4), (2, 5, 3, 1, 4, 1), [(-2, -1), (-2, -1), (0, 1)]),
    ((3, 2, 4, 4), (4, 4, 3, 2), [(0, 1), (-1, -2), (-2, -1)]),
    ((2, 3, 4), (4,), [(1, 2), 0, 1]),
    ((4,), (5, 4, 3), [(0,), (1, 0), (0,)]),
    ((4,), (4,), [0, 0, ()]),
])
def test_matmul_axes(device, sa, sb, axes):
    # NumPy's gufunc axes=: the matrix axes of each operand and of the result
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    want = np.matmul(a, b, axes=axes)
    for got in (pygpu.matmul(pa, pb, axes=axes), np.matmul(pa, pb, axes=axes)):
        assert isinstance(got, pygpu.ndarray) and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=1e-13)
    out = pygpu.zeros(want.shape, device=device)
    assert pygpu.matmul(pa, pb, axes=axes, out=out) is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-13)


def test_matmul_axes_errors(device):
    a, b = np.ones((2, 3, 4)), np.ones((2, 4, 5))
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    for kw in [dict(axes=[(1, 2), (1, 2)]), dict(axes=[(1, 2), (1, 2), (1, 5)]), dict(axes=[(1, 2), (1,), (1, 2)]),
               dict(axes=(1, 2)), dict(axis=1), dict(axes=[(1, 2)] * 3, axis=1), dict(axes=[(1, 1), (1, 2), (1, 2)]),
               dict(axes=[(1, 2), (1, 2), (1,)]), dict(axes=[(2, 1), (1, 2), (1, 2)])]:
        same_error(lambda: np.matmul(a, b, **kw), lambda: pygpu.matmul(pa, pb, **kw))


def test_matmul_different_devices_refused():
    if not pygpu.cuda.is_available():
        pytest.skip("needs a CUDA device")
    with pytest.raises(ValueError, match="different devices"):
        pygpu.ones((2, 2), device="cpu") @ pygpu.ones((2, 2), device="cuda:0")


def test_matmul_with_numpy_operands_and_dispatch(device):
    rng = np.random.default_rng(9)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    pa = pygpu.asarray(a, device=device)
    for got in (pa @ b, a @ pygpu.asarray(b, device=device), np.matmul(pa, b), np.matmul(a, pygpu.asarray(b, device=device)),
                pa @ b.tolist()):
        assert isinstance(got, pygpu.ndarray) and got.device == device
        np.testing.assert_allclose(got.get(), a @ b)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_hypothesis_matmul_broadcasting(data):
    """Random batch shapes (with broadcasting), core sizes, dtypes and transposed operands."""
    dt = data.draw(st.sampled_from(["float64", "float32", "int16", "complex128", "bool", "uint8"]))
    n, k, m = (data.draw(st.integers(0, 5)) for _ in range(3))
    nb = data.draw(st.integers(0, 3))
    batch = [data.draw(st.integers(1, 3)) for _ in range(nb)]
    ba = [d if data.draw(st.booleans()) else 1 for d in batch][data.draw(st.integers(0, nb)):]
    bb = [d if data.draw(st.booleans()) else 1 for d in batch][data.draw(st.integers(0, nb)):]
    a1d, b1d = data.draw(st.booleans()) and not ba, data.draw(st.booleans()) and not bb
    sa = (k,) if a1d else tuple(ba) + (n, k)
    sb = (k,) if b1d else tuple(bb) + (k, m)
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    a, b = operand(rng, sa, dt), operand(rng, sb, dt)
    pa, pb = pygpu.asarray(a), pygpu.asarray(b)
    if len(sa) >= 2 and data.draw(st.booleans()):
        pa = pygpu.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).swapaxes(-1, -2)
    if len(sb) >= 2 and data.draw(st.booleans()):
        pb = pygpu.asarray(np.ascontiguousarray(np.swapaxes(b, -1, -2))).swapaxes(-1, -2)
    assert_matmul(pa @ pb, a, b)


# ---------------------------------------------------------------- the TF32 switch

def test_matmul_precision_switch():
    assert pygpu.get_matmul_precision() == "highest"
    try:
        pygpu.set_matmul_precision("tf32")
        assert pygpu.get_matmul_precision() == "tf32"
        # on the CPU (and for float64 anywhere) results do not change
        a = np.random.default_rng(10).standard_normal((8, 8))
        np.testing.assert_allclose((pygpu.asarray(a, device="cpu") @ pygpu.asarray(a, device="cpu")).get(), a @ a)
        pygpu.set_matmul_precision("highest")
        assert pygpu.get_matmul_precision() == "highest"
        with pytest.raises(ValueError, match="'highest'.*'tf32'"):
            pygpu.set_matmul_precision("medium")
    finally:
        pygpu.set_matmul_precision("highest")


def test_matmul_precision_environment_variable():
    code = "import pygpu; print(pygpu.get_matmul_precision())"
    env = dict(os.environ, PYGPU_MATMUL_PRECISION="tf32", PYTHONPATH=child_pythonpath())
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tf32"


def test_tf32_on_gpu_is_opt_in(cuda_device):
    """float32 products are exact float32 by default; TF32 (10-bit mantissa inputs) only on request."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((256, 256)).astype(np.float32)
    b = rng.standard_normal((256, 256)).astype(np.float32)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    pa, pb = pygpu.asarray(a, device=cuda_device), pygpu.asarray(b, device=cuda_device)
    err_default = np.max(np.abs((pa @ pb).get() - exact))
    try:
        pygpu.set_matmul_precision("tf32")
        err_tf32 = np.max(np.abs((pa @ pb).get() - exact))
    finally:
        pygpu.set_matmul_precision("highest")
    assert err_default < 1e-3
    assert err_tf32 > err_default  # tensor cores rounded the inputs to TF32
