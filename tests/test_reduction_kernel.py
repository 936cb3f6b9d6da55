"""pygpu.ReductionKernel (CuPy's API) on every device, against NumPy: placeholders and typed
parameters, reduce_type, identities and their absence, axes and keepdims, broadcasting and
layouts, scalars, out=, empty and 0-d inputs, the errors."""
import os

import numpy as np
import pytest

import pygpu
from pygpu._jit import cache

from conftest import assert_array_equal


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("kernel-cache"))
    old = os.environ.get("PYGPU_CACHE_DIR")
    os.environ["PYGPU_CACHE_DIR"] = folder
    cache._folder = None
    yield
    if old is None:
        os.environ.pop("PYGPU_CACHE_DIR", None)
    else:
        os.environ["PYGPU_CACHE_DIR"] = old
    cache._folder = None


SUM = pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rk_sum")
L2 = pygpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "rk_l2norm")
MAX = pygpu.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "rk_max")
DOT = pygpu.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rk_dot")
MEAN = pygpu.ReductionKernel("T x", "float64 y", "x", "a + b", "y = a / (_in_ind.size() / _out_ind.size())", "0",
                             "rk_mean", reduce_type="float64")


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint64", "float32", "float64"])
def test_placeholder_binds_the_dtype(device, dtype):
    x = (np.arange(60).reshape(6, 10) % 9).astype(dtype)
    got = SUM(pygpu.asarray(x, device=device), axis=1)
    assert got.device == device
    assert_array_equal(got, x.sum(axis=1).astype(dtype))


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, (0, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axes_and_keepdims(device, axis, keepdims):
    x = np.random.default_rng(1).random((4, 5, 6))
    got = L2(pygpu.asarray(x, device=device), axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(got.get(), np.sqrt((x * x).sum(axis=axis, keepdims=keepdims)), rtol=1e-12)
    assert got.shape == np.sum(x, axis=axis, keepdims=keepdims).shape


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast"])
def test_layouts(device, layout):
    base = np.random.default_rng(2).random((40, 300))
    pb = pygpu.asarray(base, device=device)
    x, px = {"transposed": (base.T, pb.T), "negative": (base[::-1, ::-3], pb[::-1, ::-3]),
             "broadcast": (np.broadcast_to(base[:1], (40, 300)), pygpu.broadcast_to(pb[:1], (40, 300)))}[layout]
    for axis in (0, 1, None):
        np.testing.assert_allclose(MAX(px, axis=axis).get(), x.max(axis=axis))
        np.testing.assert_allclose(SUM(px, axis=axis).get(), x.sum(axis=axis), rtol=1e-12)


def test_two_inputs_broadcast_and_scalars(device):
    x = np.random.default_rng(3).random((50, 8))
    v = np.random.default_rng(4).random(8)
    px, pv = pygpu.asarray(x, device=device), pygpu.asarray(v, device=device)
    np.testing.assert_allclose(DOT(px, pv, axis=1).get(), x @ v, rtol=1e-12)
    np.testing.assert_allclose(float(DOT(pv, pv)), v @ v, rtol=1e-12)
    np.testing.assert_allclose(DOT(px, 2.0, axis=0).get(), 2 * x.sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose(DOT(x, v, axis=1).get(), x @ v, rtol=1e-12)  # NumPy inputs moved


def test_reduce_type_and_typed_output(device):
    x = np.arange(24, dtype=np.int32).reshape(4, 6)
    got = MEAN(pygpu.asarray(x, device=device), axis=0)
    assert_array_equal(got, x.mean(axis=0))
    big = np.full(1000, 200, dtype=np.uint8)  # accumulates in int64 (reduce_type), stored as uint8
    wide = pygpu.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "rk_wide", reduce_type="int64")
    assert int(wide(pygpu.asarray(big, device=device))) == 200000


def test_no_identity_and_empty(device):
    x = np.random.default_rng(5).random((7, 0))
    px = pygpu.asarray(x, device=device)
    with pytest.raises(ValueError, match="zero-size array to reduction operation rk_max which has no identity"):
        MAX(px, axis=1)  # NumPy's message, naming the kernel
    assert_array_equal(MAX(px, axis=0), np.zeros(0))  # no output: nothing to reduce
    assert_array_equal(SUM(px, axis=1), np.zeros(7))  # the identity
    assert_array_equal(SUM(pygpu.asarray(np.float64(2.5), device=device)), np.float64(2.5))  # 0-d
    y = -np.random.default_rng(6).random(1000)  # every value below the default-constructed 0
    assert float(MAX(pygpu.asarray(y, device=device))) == y.max()


def test_out(device):
    x = np.arange(12.0).reshape(3, 4)
    out = pygpu.zeros(3, device=device)
    assert SUM(pygpu.asarray(x, device=device), axis=1, out=out) is out
    assert_array_equal(out, x.sum(axis=1))
    with pytest.raises(ValueError, match="has shape"):
        SUM(pygpu.asarray(x, device=device), axis=0, out=out)


def test_errors(device):
    px = pygpu.ones((2, 3), device=device)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        DOT(px)
    with pytest.raises(np.exceptions.AxisError):
        SUM(px, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        SUM(px, axis=(0, 0))
    with pytest.raises(ValueError, match="could not be broadcast"):
        DOT(px, pygpu.ones(4, device=device))
    typed = pygpu.ReductionKernel("int32 x", "int32 y", "x", "a + b", "y = a", "0", "rk_isum")
    with pytest.raises(TypeError, match="Type is mismatched"):
        typed(pygpu.ones(3, device=device))
    with pytest.raises(ValueError, match="unique"):
        pygpu.ReductionKernel("T x, T x", "T y", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError, match="identifier"):
        pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "not a name")
    with pytest.raises(pygpu.CompileError):
        pygpu.ReductionKernel("T x", "T y", "x +* ", "a + b", "y = a", "0", "rk_bad")(px)


@pytest.mark.parametrize("name", ["cabs", "cexp", "rand", "index", "memcpy", "sum_it"])
def test_kernel_named_like_a_c_library_function(device, name):
    r = pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", name)
    assert float(r(pygpu.asarray(np.arange(10.0), device=device)).get()) == 45.0
