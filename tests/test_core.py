"""The device array's core: creation, dtype conversion, layouts, transfers (differential vs NumPy)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import pygpu
from conftest import assert_array_equal

ALL_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.float16, np.float32, np.float64, np.complex64, np.complex128]


def sample(dtype, shape, seed=0):
    """Random data of any dtype, with no zeros hiding unwritten elements."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_round_trip_every_dtype(device, dtype):
    x = sample(dtype, (3, 5))
    a = pygpu.asarray(x, device=device)
    assert a.device == device
    assert a.dtype == np.dtype(dtype)
    assert a.shape == (3, 5) and a.ndim == 2 and a.size == 15
    assert a.itemsize == np.dtype(dtype).itemsize and a.nbytes == x.nbytes
    assert a.strides == x.strides
    assert_array_equal(a, x)
    assert_array_equal(pygpu.asnumpy(a), x)
    assert_array_equal(a.copy_to_host(), x)


@pytest.mark.parametrize("fn", ["empty", "zeros", "ones"])
@pytest.mark.parametrize("dtype", [None, np.int32, np.complex64, np.bool_, np.float16])
@pytest.mark.parametrize("shape", [(), 0, 5, (2, 3), (2, 0, 4), [3, 1, 2]])
def test_simple_creation(device, fn, dtype, shape):
    a = getattr(pygpu, fn)(shape, dtype=dtype, device=device)
    ref = getattr(np, fn)(shape, dtype=dtype)
    assert a.shape == ref.shape and a.dtype == ref.dtype and a.device == device
    if fn != "empty":
        assert_array_equal(a, ref)


@pytest.mark.parametrize("value,dtype", [(7, None), (2.5, None), (1 + 2j, None), (True, None), (3, np.uint8),
                                         (-1.5, np.float32), (np.float32(2.5), None), (255, np.uint8)])
def test_full(device, value, dtype):
    a = pygpu.full((2, 3), value, dtype=dtype, device=device)
    assert_array_equal(a, np.full((2, 3), value, dtype=dtype))


def test_full_out_of_bounds_python_int_raises_like_numpy(device):
    with pytest.raises(OverflowError):
        np.full(3, 300, dtype=np.uint8)
    with pytest.raises(OverflowError):
        pygpu.full(3, 300, dtype=np.uint8, device=device)


@pytest.mark.parametrize("order", ["C", "F"])
def test_order(device, order):
    a = pygpu.zeros((3, 4, 5), dtype=np.float32, order=order, device=device)
    ref = np.zeros((3, 4, 5), dtype=np.float32, order=order)
    assert a.strides == ref.strides
    assert a.flags["C_CONTIGUOUS"] == ref.flags["C_CONTIGUOUS"]
    assert a.flags["F_CONTIGUOUS"] == ref.flags["F_CONTIGUOUS"]


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like"])
def test_like(device, fn):
    x = pygpu.asarray(sample(np.int16, (4, 3)), device=device)
    a = getattr(pygpu, fn)(x)
    assert a.shape == x.shape and a.dtype == x.dtype and a.device == device
    b = getattr(pygpu, fn)(x, dtype=np.float32, shape=(2, 2))
    assert b.shape == (2, 2) and b.dtype == np.float32
    if fn != "empty_like":
        assert_array_equal(a, getattr(np, fn)(x.get()))
    c = pygpu.full_like(x, 9)
    assert_array_equal(c, np.full_like(x.get(), 9))


def test_like_keeps_fortran_layout(device):
    x = pygpu.asarray(np.asfortranarray(sample(np.float64, (3, 4))), device=device)
    assert pygpu.empty_like(x).strides == np.empty_like(x.get()).strides


def test_bad_creation_arguments(device):
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        pygpu.zeros((2, -1), device=device)
    with pytest.raises(TypeError):
        pygpu.zeros((2, 1.5), device=device)
    with pytest.raises(TypeError):
        pygpu.zeros(3, dtype="U5", device=device)
    with pytest.raises(TypeError):
        pygpu.zeros(3, dtype=object, device=device)
    with pytest.raises(TypeError):
        pygpu.zeros(3, bogus=1)
    with pytest.raises(ValueError):
        pygpu.zeros(3, order="X")
    with pytest.raises(ValueError):
        pygpu.zeros((1,) * 40)
    with pytest.raises(ValueError, match="unknown device"):
        pygpu.zeros(3, device="tpu")


# ---------------------------------------------------------------- asarray / layouts

def layouts(x):
    """The same data in many layouts: C, F, reversed, strided, transposed, broadcast-free."""
    yield x
    yield np.asfortranarray(x)
    yield x[::-1]
    yield x[:, ::-2]
    yield x.T
    yield x[1:, 1:3]


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128, np.bool_, np.float16, np.uint64])
def test_asarray_any_layout(device, dtype):
    base = sample(dtype, (4, 6), seed=3)
    for x in layouts(base):
        a = pygpu.asarray(x, device=device)
        assert_array_equal(a, x)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(dtype=st.sampled_from([np.int16, np.float64, np.complex64, np.bool_, np.uint8]),
                  shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)),
       st.data())
def test_asarray_hypothesis_strided(x, data):
    # a random strided view of random data, on every device
    idx = tuple(data.draw(st.slices(n)) for n in x.shape)
    v = x[idx]
    for dev in pygpu.cuda.is_available() and ["cpu", "cuda:0"] or ["cpu"]:
        a = pygpu.asarray(v, device=dev)
        np.testing.assert_array_equal(a.get(), v)
        assert a.get().dtype == v.dtype


def test_asarray_lists_and_scalars(device):
    for obj in [[1, 2, 3], [[1.5, 2], [3, 4]], 3, 2.5, True, 1 + 1j, [], [[True, False]], np.float32(3)]:
        a = pygpu.asarray(obj, device=device)
        assert_array_equal(a, np.asarray(obj))
    assert pygpu.asarray([1, 2], dtype=np.float32, device=device).dtype == np.float32


def test_asarray_copy_semantics(device):
    a = pygpu.asarray([1, 2, 3], device=device)
    assert pygpu.asarray(a) is a
    b = pygpu.asarray(a, copy=True)
    assert b is not a and b.data_ptr != a.data_ptr
    assert_array_equal(b, a.get())
    with pytest.raises(ValueError):
        pygpu.asarray(a, dtype=np.float32, copy=False)
    with pytest.raises(ValueError):
        pygpu.asarray(np.arange(3), copy=False, device=device)
    c = pygpu.array(a)
    assert c is not a
    # the copy is a real copy: later writes to the source do not show
    src = np.arange(4.0)
    d = pygpu.asarray(src, device=device)
    src[0] = 100
    assert d.get()[0] == 0


def test_asarray_order(device):
    x = np.arange(6.0).reshape(2, 3)
    f = pygpu.asarray(x, order="F", device=device)
    assert f.flags["F_CONTIGUOUS"] and not f.flags["C_CONTIGUOUS"]
    assert_array_equal(f, x)


def test_asarray_rejects_unsupported(device):
    with pytest.raises(TypeError):
        pygpu.asarray(np.array(["a", "b"]), device=device)
    # another byte order is converted, as NumPy's own arithmetic converts it
    assert_array_equal(pygpu.asarray(np.arange(3, dtype=">f8"), device=device), np.arange(3.0))
    with pytest.raises(ValueError):
        pygpu.asarray([[1, 2], [3]], device=device)


# ---------------------------------------------------------------- astype / copy

@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_astype_all_pairs(device, src, dst):
    x = sample(src, (7,), seed=5)
    if np.dtype(src).kind == "c" and np.dtype(dst).kind != "c":
        x = x.real.astype(src)  # NumPy warns on discarding the imaginary part; compare the real parts
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = x.astype(dst)
    a = pygpu.asarray(x, device=device).astype(dst)
    assert_array_equal(a, ref)


def test_astype_casting_and_copy(device):
    a = pygpu.asarray(np.arange(4, dtype=np.int64), device=device)
    with pytest.raises(TypeError, match="Cannot cast array data"):
        a.astype(np.int8, casting="safe")
    assert a.astype(np.float64, casting="safe").dtype == np.float64
    assert a.astype(np.int64, copy=False) is a
    b = a.astype(np.int64)
    assert b is not a and b.data_ptr != a.data_ptr
    with pytest.raises(ValueError):
        a.astype(np.int64, casting="nonsense")


def test_astype_strided_source(device):
    x = sample(np.float64, (5, 8), seed=9)[::2, ::-3]
    a = pygpu.asarray(x, device=device)
    assert_array_equal(a.astype(np.int32), x.astype(np.int32))
    assert_array_equal(a.astype(np.complex64, order="F"), x.astype(np.complex64, order="F"))
    assert a.astype(np.float32, order="F").flags["F_CONTIGUOUS"]


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_copy_orders(device, order):
    x = np.asfortranarray(sample(np.int32, (3, 4)))
    a = pygpu.asarray(x, device=device)
    c = a.copy(order=order)
    ref = x.copy(order=order)
    assert c.strides == ref.strides
    assert_array_equal(c, ref)
    assert c.flags["OWNDATA"] and c.base is None


def test_half_precision_specials(device):
    x = np.array([0.0, -0.0, 1e-8, 6e-5, 65504, 65520, 1e6, np.inf, -np.inf, np.nan, 1 / 3], dtype=np.float64)
    with np.errstate(over="ignore"):
        ref = x.astype(np.float16)
    a = pygpu.asarray(x, device=device).astype(np.float16)
    np.testing.assert_array_equal(a.get(), ref)
    assert np.array_equal(np.signbit(a.get()), np.signbit(ref))
    back = a.astype(np.float32).get()
    np.testing.assert_array_equal(back, ref.astype(np.float32))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 0xFFFF))
def test_half_conversion_every_bit_pattern_sample(bits):
    h = np.array([bits], dtype=np.uint16).view(np.float16)
    a = pygpu.asarray(h, device="cpu")
    f = a.astype(np.float32).get()
    np.testing.assert_array_equal(f, h.astype(np.float32))
    back = pygpu.asarray(f, device="cpu").astype(np.float16).get()
    np.testing.assert_array_equal(back.view(np.uint16) if not np.isnan(h[0]) else np.isnan(back), 
                                  h.view(np.uint16) if not np.isnan(h[0]) else np.isnan(h))


def test_float_to_half_rounding_matches_numpy():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(5000).astype(np.float32) * s for s in (1e-7, 1e-5, 1, 1e3, 6e4)])
    a = pygpu.asarray(x, device="cpu").astype(np.float16).get()
    with np.errstate(over="ignore"):
        ref = x.astype(np.float16)
    np.testing.assert_array_equal(a.view(np.uint16), ref.view(np.uint16))


# ---------------------------------------------------------------- transfers and devices

def test_get_into_out(device):
    x = sample(np.float32, (3, 3))
    a = pygpu.asarray(x, device=device)
    out = np.empty((3, 3), np.float32)
    r = a.get(out=out)
    assert r is out
    np.testing.assert_array_equal(out, x)
    with pytest.raises(ValueError):
        a.get(out=np.empty((2, 3), np.float32))
    with pytest.raises(TypeError):
        a.get(out=np.empty((3, 3), np.float64))
    with pytest.raises(TypeError):
        a.get(out=[1, 2])


def test_to_device_round_trip(device):
    x = sample(np.complex64, (4, 2))
    a = pygpu.asarray(x, device=device)
    assert a.to_device(device) is a
    c = a.to_device("cpu")
    assert c.device == pygpu.Device("cpu")
    assert_array_equal(c, x)
    back = c.to_device(device)
    assert_array_equal(back, x)


def test_zero_size_and_zero_d(device):
    for shape in [(0,), (3, 0), (0, 0, 2), ()]:
        x = sample(np.float64, shape)
        a = pygpu.asarray(x, device=device)
        assert a.shape == shape and a.size == x.size
        assert_array_equal(a, x)
        assert_array_equal(a.astype(np.int8), x.astype(np.int8))
        assert_array_equal(a.copy(), x)
        b = pygpu.empty(shape, device=device)
        b.fill(3)
        assert_array_equal(b, np.full(shape, 3.0))


def test_repr_and_str(device):
    a = pygpu.asarray(np.array([1.5, 2.0]), device=device)
    assert repr(a) == f"array([1.5, 2. ], device='{device}')"
    assert str(a) == "[1.5 2. ]"
    b = pygpu.zeros((2, 2), dtype=np.int8, device=device)
    assert repr(b) == f"array([[0, 0],\n       [0, 0]], dtype=int8, device='{device}')"
    assert "device=" in repr(pygpu.zeros(0, device=device))


def test_fill(device):
    a = pygpu.empty((3, 4), dtype=np.int16, device=device)
    a.fill(-7)
    assert_array_equal(a, np.full((3, 4), -7, np.int16))
    a.fill(2.9)  # truncates, as NumPy's fill does
    ref = np.empty((3, 4), np.int16)
    ref.fill(2.9)
    assert_array_equal(a, ref)
    with pytest.raises(OverflowError):
        a.fill(1 << 20)
    with pytest.raises(ValueError):  # as NumPy: int("x") fails
        np.empty(3, np.int16).fill("x")
    with pytest.raises(ValueError):
        a.fill("x")


def test_array_attributes(device):
    a = pygpu.zeros((2, 3), dtype=np.float32, device=device)
    assert a.base is None
    assert a.flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": False, "WRITEABLE": True, "OWNDATA": True}
    assert isinstance(a.data_ptr, int) and a.data_ptr != 0
    assert a.memory_kind == "device"
    assert isinstance(a.dtype, np.dtype)
