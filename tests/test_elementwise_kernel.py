"""pygpu.ElementwiseKernel (CuPy's API) on every device, against NumPy: placeholders and typed
parameters, broadcasting and layouts, scalars, raw arguments, several outputs, the errors."""
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

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


ADD = pygpu.ElementwiseKernel("T x, T y", "T z", "z = x + y", "pg_add")
AXPY = pygpu.ElementwiseKernel("float64 a, float64 x, float64 y", "float64 z", "z = a * x + y", "pg_axpy")


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "uint64", "float32", "float64", "bool"])
def test_placeholder_binds_the_array_dtype(device, dtype):
    rng = np.random.default_rng(0)
    x = (rng.random(100) * 50).astype(dtype)
    y = (rng.random(100) * 50).astype(dtype)
    out = ADD(pygpu.asarray(x, device=device), pygpu.asarray(y, device=device))
    assert out.device == device
    expected = (x | y) if dtype == "bool" else (x + y).astype(dtype)
    assert_array_equal(out, expected)


_LAYOUTS = [  # (name, view of x, view of y), applied alike to NumPy and pygpu arrays of shape (2, 3, 4)
    ("contiguous", lambda a: a, lambda a: a),
    ("broadcast row", lambda a: a, lambda a: a[0, 0]),
    ("broadcast column", lambda a: a[:, :, :1], lambda a: a),
    ("transposed", lambda a: a.transpose(2, 0, 1), lambda a: a.transpose(2, 0, 1)[::-1]),
    ("negative strides", lambda a: a[::-1, :, ::-2], lambda a: a[:, ::-1, ::2]),
    ("0-d", lambda a: a[1, 2, 3], lambda a: a[0, 0, 0]),
    ("empty", lambda a: a[:0], lambda a: a[0]),
]


@pytest.mark.parametrize("case,fx,fy", _LAYOUTS, ids=[c[0] for c in _LAYOUTS])
def test_broadcasting_and_layouts(device, case, fx, fy):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    b = a * 7 - 3
    da, db = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    assert_array_equal(ADD(fx(da), fy(db)), fx(a) + fy(b))


@settings(max_examples=20, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_broadcasting_any_shapes(shape, data):
    other = [data.draw(st.sampled_from([1, n])) for n in shape]
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    y = np.arange(int(np.prod(other)), dtype=np.float64).reshape(other) * 10
    assert_array_equal(ADD(pygpu.asarray(x), pygpu.asarray(y)), x + y)
    assert_array_equal(ADD(pygpu.asarray(y), pygpu.asarray(x).T.T), y + x)


def test_typed_parameters_convert_as_they_load(device):
    x = np.arange(10, dtype=np.int32)
    y = np.linspace(0, 1, 10, dtype=np.float32)
    out = AXPY(2.5, pygpu.asarray(x, device=device), pygpu.asarray(y, device=device))
    assert_array_equal(out, 2.5 * x.astype(np.float64) + y.astype(np.float64))
    with pytest.raises(TypeError, match="Type is mismatched. pg_axpy: x is float64, got complex128"):
        AXPY(1.0, pygpu.zeros(3, dtype=np.complex128, device=device), pygpu.zeros(3, device=device))


def test_scalars(device):
    x = pygpu.arange(5, dtype=np.int16, device=device)
    assert_array_equal(ADD(x, 3), np.arange(5, dtype=np.int16) + np.int16(3))
    assert_array_equal(ADD(x, np.int16(-2)), np.arange(5, dtype=np.int16) - 2)
    with device:
        # a placeholder that only scalars bind takes NumPy's type of the scalar
        assert_array_equal(ADD(2, 3, pygpu.empty(4, dtype=np.int64)), np.full(4, 5, np.int64))
        out = pygpu.ElementwiseKernel("T a", "T z", "z = a * 2", "pg_twice")(1.25, size=3)
        assert_array_equal(out, np.full(3, 2.5))


def test_outputs(device):
    x = pygpu.arange(6, dtype=np.float32, device=device).reshape(2, 3)
    out = pygpu.empty((2, 3), dtype=np.float64, device=device)
    res = ADD(x, x, out)
    assert res is out
    assert_array_equal(out, 2 * np.arange(6, dtype=np.float64).reshape(2, 3))
    with pytest.raises(ValueError, match=r"output z of pg_add has shape \(3,\), the arguments broadcast to \(2, 3\)"):
        ADD(x, x, pygpu.empty(3, dtype=np.float32, device=device))
    with pytest.raises(TypeError, match="output z of pg_add is int32: cannot store float32 into it"):
        ADD(x, x, pygpu.empty((2, 3), dtype=np.int32, device=device))
    divmod_k = pygpu.ElementwiseKernel("int32 a, int32 b", "int32 q, int32 r", "q = a / b; r = a % b", "pg_divmod")
    a = np.arange(20, 30, dtype=np.int32)
    q, r = divmod_k(pygpu.asarray(a, device=device), 7)
    assert_array_equal(q, a // 7)
    assert_array_equal(r, a % 7)
    nothing = pygpu.ElementwiseKernel("T x", "T y", "y = x", "pg_copy", no_return=True)
    assert nothing(x) is None
    single = pygpu.ElementwiseKernel("T x", "T y", "y = x", "pg_copy", return_tuple=True)
    t = single(x)
    assert isinstance(t, tuple) and len(t) == 1
    assert_array_equal(t[0], np.arange(6, dtype=np.float32).reshape(2, 3))


def test_raw_arguments_index_and_size(device):
    k = pygpu.ElementwiseKernel("T x, raw T table", "T y, int64 at, int64 n",
                                "y = x * table[i % table.size()]; at = i; n = _ind.size()", "pg_lookup")
    table = np.array([1.0, 10.0, 100.0])
    x = np.arange(7.0)
    y, at, n = k(pygpu.asarray(x, device=device), pygpu.asarray(table, device=device))
    assert_array_equal(y, x * table[np.arange(7) % 3])
    assert_array_equal(at, np.arange(7, dtype=np.int64))
    assert_array_equal(n, np.full(7, 7, np.int64))
    # a raw array is indexed in C order whatever its strides
    t2 = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=device).T
    k2 = pygpu.ElementwiseKernel("raw T t", "T y", "y = t[i]", "pg_raw_read")
    assert_array_equal(k2(t2, pygpu.empty(6, device=device)), np.arange(6.0).reshape(2, 3).T.ravel())


def test_raw_arguments_have_cupys_carray_interface(device):
    """A raw argument answers CuPy's CArray calls: shape(), strides() (bytes), ndim and x[idx]
    with a multi-index array (they did not compile)."""
    n = np.arange(24, dtype=np.int32).reshape(2, 3, 4).transpose(2, 0, 1)
    x = pygpu.asarray(np.arange(24, dtype=np.int32).reshape(2, 3, 4), device=device).transpose(2, 0, 1)
    shape = pygpu.ElementwiseKernel("raw int32 x", "int64 s, int64 st, int64 nd", "s = x.shape()[i]; "
                                    "st = x.strides()[i]; nd = x.ndim", "pg_carray_layout")(x, size=3)
    assert_array_equal(shape[0], np.array(n.shape))
    assert_array_equal(shape[1], np.array(n.strides))
    assert_array_equal(shape[2], np.full(3, 3))
    k = pygpu.ElementwiseKernel("raw T x", "int32 y", "ptrdiff_t idx[] = {i / 6, i / 3 % 2, i % 3}; y = x[idx] + x[0]",
                                "pg_carray_multi_index")
    assert_array_equal(k(x, pygpu.empty((4, 2, 3), dtype=np.int32, device=device)), n + n.flat[0])


def test_preamble_loop_prep_after_loop(device):
    k = pygpu.ElementwiseKernel("float32 x", "float32 y", "y = sq(x) + offset", "pg_pre",
                                preamble="__device__ float sq(float v) { return v * v; }",
                                loop_prep="const float offset = 0.5f;", after_loop="(void)offset;")
    assert_array_equal(k(pygpu.arange(4, dtype=np.float32, device=device)),
                       np.arange(4, dtype=np.float32) ** 2 + np.float32(0.5))


def test_reduce_dims_off(device):
    k = pygpu.ElementwiseKernel("T x, T y", "T z", "z = x - y", "pg_sub", reduce_dims=False)
    a = np.arange(24.0).reshape(2, 3, 4)
    assert_array_equal(k(pygpu.asarray(a, device=device), pygpu.asarray(a[0, 0], device=device)), a - a[0, 0])


def test_numpy_inputs(device):
    with device:
        out = ADD(np.arange(3.0), np.ones(3))
    assert out.device == device
    assert_array_equal(out, np.arange(3.0) + 1)
    with pytest.raises(TypeError, match="output z of pg_add must be a pygpu array, not a NumPy array"):
        ADD(np.ones(3), np.ones(3), np.ones(3))


def test_errors(device):
    x = pygpu.ones(3, device=device)
    with pytest.raises(TypeError, match="Wrong number of arguments for 'pg_add': expected 2 or 3, got 1"):
        ADD(x)
    with pytest.raises(ValueError, match="could not be broadcast together"):
        ADD(x, pygpu.ones(4, device=device))
    with pytest.raises(TypeError, match="Cannot determine the type of z"):
        pygpu.ElementwiseKernel("T x", "U z", "z = x", "pg_u")(x)
    with pytest.raises(ValueError, match=r"^Loop size is undecided\."):   # CuPy's words
        pygpu.ElementwiseKernel("T a", "raw T z", "z[i] = a", "pg_fill")(1.0, x)
    for bad in (0, -32):   # a block of no threads (it ran with the default)
        with pytest.raises(ValueError, match="block_size"):
            ADD(x, x, block_size=bad)
    with pytest.raises(ValueError, match="a parameter is"):
        pygpu.ElementwiseKernel("float32", "float32 y", "y = 1", "pg_bad")
    with pytest.raises(ValueError, match="unique"):
        pygpu.ElementwiseKernel("float32 x", "float32 x", "x = 1", "pg_dup")
    with pytest.raises(TypeError, match="does not support datetime64"):
        pygpu.ElementwiseKernel("datetime64 x", "datetime64 y", "y = x", "pg_c")
    bad = pygpu.ElementwiseKernel("float32 x", "float32 y", "y = x +* 2", "pg_syntax")
    with pytest.raises(pygpu.CompileError):
        bad(pygpu.ones(2, dtype=np.float32, device=device))


@pytest.mark.parametrize("name", ["cexp", "cabs", "conj", "creal", "random", "select", "index", "gamma", "scale2"])
def test_kernel_named_like_a_c_library_function(device, name):
    # the CPU exports the kernel under a private C++ name: glibc's function of that name is not run
    x = np.array([1 + 1j, 2, -3.5j], np.complex128)
    k = pygpu.ElementwiseKernel("T x", "T y", "y = x * 2.0", name)
    assert_array_equal(k(pygpu.asarray(x, device=device)), x * 2)


def test_loop_prep_and_after_loop_see_scalar_and_raw_parameters(device):
    # CuPy declares them as the kernel's parameters (cupyx.scipy.signal's morlet uses s in loop_prep)
    k = pygpu.ElementwiseKernel("float64 s, raw float64 r", "float64 y", "y = c + i + r[0]", "lp",
                                loop_prep="const double c = s * 2 + r[1];", after_loop="(void)(s + r[0]);")
    r = pygpu.asarray(np.array([10.0, 100.0]), device=device)
    assert_array_equal(k(3.0, r, size=4), 116.0 + np.arange(4))
