"""Creation functions, differential against NumPy: arange, linspace, eye, identity, the
empty/zeros/ones/full family and asarray/array."""
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import assert_array_equal

ALL_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.float16, np.float32, np.float64, np.complex64, np.complex128]
NUM_DTYPES = [d for d in ALL_DTYPES if d is not np.bool_]


def assert_close(actual, expected, device):
    """Exact on the CPU (same arithmetic as NumPy); within a few ulps on a GPU, whose compiler
    fuses multiply-adds."""
    expected = np.asarray(expected)
    if device.kind == "cpu" or expected.dtype.kind not in "fc":
        assert_array_equal(actual, expected)
        return
    got = actual.get()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    rtol = {2: 1e-3, 4: 1e-6, 8: 1e-14, 16: 1e-14}[expected.dtype.itemsize if expected.dtype.kind == "f"
                                                    else expected.dtype.itemsize // 2]
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


# ------------------------------------------------------------------ arange

ARANGE_ARGS = [
    (10,), (0,), (-3,), (3, 10), (10, 3), (10, 0, -3), (0, 10, 3), (-5, 5, 2), (1.5,), (0.1, 1.0, 0.1),
    (0, 1, 0.3), (1.0, -1.0, -0.25), (5, 5), (0, 1e-300, 1e300), (0, 3, 1.0), (True, 3), (2.5, 7),
    (1 + 1j, 4, 1), (0, -1e-300, 1e300),
]


@pytest.mark.parametrize("args", ARANGE_ARGS)
def test_arange_default_dtype(device, args):
    assert_close(pygpu.arange(*args, device=device), np.arange(*args), device)


@pytest.mark.parametrize("dtype", NUM_DTYPES)
@pytest.mark.parametrize("args", [(7,), (2, 9), (9, 2, -2), (0.5, 5.5), (0, 3, 0.75), (0,), (1,), (3, 4)])
def test_arange_dtypes(device, dtype, args):
    try:
        expected = np.arange(*args, dtype=dtype)
    except Exception as e:  # NumPy refuses it: so must pygpu
        with pytest.raises(type(e)):
            pygpu.arange(*args, dtype=dtype, device=device)
        return
    assert_close(pygpu.arange(*args, dtype=dtype, device=device), expected, device)


def test_arange_wraps_like_numpy(device):
    # integer arithmetic wraps in the result type as NumPy's fill does
    expected = np.arange(0, 300, 100, dtype=np.int8)
    assert expected[2] == -56
    assert_array_equal(pygpu.arange(0, 300, 100, dtype=np.int8, device=device), expected)
    with pytest.raises(OverflowError):
        np.arange(100, 200, 50, dtype=np.int8)
    with pytest.raises(OverflowError):
        pygpu.arange(100, 200, 50, dtype=np.int8, device=device)
    assert_array_equal(pygpu.arange(2**63, 2**63 + 5, dtype=np.uint64, device=device),
                       np.arange(2**63, 2**63 + 5, dtype=np.uint64))


def test_arange_bool(device):
    assert_array_equal(pygpu.arange(0, 2, dtype=bool, device=device), np.arange(0, 2, dtype=bool))
    assert_array_equal(pygpu.arange(1, dtype=bool, device=device), np.arange(1, dtype=bool))
    with pytest.raises(TypeError, match="at most length 2"):
        pygpu.arange(3, dtype=bool, device=device)


@pytest.mark.parametrize("args,exc,msg", [
    ((0, 5, 0), ZeroDivisionError, None),
    ((0.0, 5.0, 0.0), ZeroDivisionError, None),
    ((0, math.inf), ValueError, "Maximum allowed size exceeded"),
    ((0, 1e30, 1e-10), ValueError, "Maximum allowed size exceeded"),
    ((0, math.nan), ValueError, "cannot compute length"),
    ((0, 9e18), (ValueError, MemoryError), None),
    ((None,), TypeError, None),
    ((0, (1, 2)), TypeError, "scalar arguments expected"),
])
def test_arange_errors(device, args, exc, msg):
    with pytest.raises(exc, match=msg):
        np.arange(*args)
    with pytest.raises(exc, match=msg):
        pygpu.arange(*args, device=device)


def test_arange_bad_dtype(device):
    with pytest.raises(TypeError):
        pygpu.arange(3, dtype=object, device=device)


@settings(max_examples=60, deadline=None)
@given(start=st.integers(-1000, 1000), stop=st.integers(-1000, 1000),
       step=st.integers(-50, 50).filter(lambda s: s != 0),
       dtype=st.sampled_from([np.int16, np.int32, np.int64, np.float32, np.float64, None]))
def test_arange_hypothesis(start, stop, step, dtype):
    for dev in pygpu_devices():
        expected = np.arange(start, stop, step, dtype=dtype)
        assert_close(pygpu.arange(start, stop, step, dtype=dtype, device=dev), expected, dev)


@settings(max_examples=40, deadline=None)
@given(start=st.floats(-1e3, 1e3), stop=st.floats(-1e3, 1e3), step=st.floats(0.01, 50),
       neg=st.booleans())
def test_arange_float_hypothesis(start, stop, step, neg):
    step = -step if neg else step
    expected = np.arange(start, stop, step)
    for dev in pygpu_devices():
        assert_close(pygpu.arange(start, stop, step, device=dev), expected, dev)


def pygpu_devices():
    from conftest import DEVICES
    return [pygpu.Device(d) for d in DEVICES]


# ------------------------------------------------------------------ linspace

LINSPACE_CASES = [
    dict(start=0, stop=1), dict(start=0, stop=1, num=5), dict(start=-3.5, stop=7, num=11),
    dict(start=0, stop=1, num=5, endpoint=False), dict(start=1, stop=2, num=1), dict(start=1, stop=2, num=0),
    dict(start=5, stop=-5, num=7), dict(start=0, stop=10, num=5, dtype=np.int64),
    dict(start=-10, stop=10, num=6, dtype=np.int32), dict(start=0, stop=1, num=7, dtype=np.float32),
    dict(start=np.float32(0), stop=1, num=9), dict(start=0, stop=1j, num=3),
    dict(start=1 + 1j, stop=-2 + 3j, num=4, endpoint=False), dict(start=0, stop=1e-320, num=3),
    dict(start=2, stop=2, num=4), dict(start=0, stop=1, num=2, endpoint=False),
]


@pytest.mark.parametrize("kw", LINSPACE_CASES)
def test_linspace(device, kw):
    assert_close(pygpu.linspace(**kw, device=device), np.linspace(**kw), device)


@pytest.mark.parametrize("kw", [dict(start=0, stop=1, num=5), dict(start=1, stop=2, num=1),
                                dict(start=0, stop=1, num=0), dict(start=0, stop=1, num=4, endpoint=False)])
def test_linspace_retstep(device, kw):
    y, step = pygpu.linspace(**kw, retstep=True, device=device)
    ey, estep = np.linspace(**kw, retstep=True)
    assert_close(y, ey, device)
    if math.isnan(estep):
        assert math.isnan(step)
    else:
        assert step == estep and type(step) is type(estep)


def test_linspace_errors(device):
    with pytest.raises(ValueError, match="must be non-negative"):
        pygpu.linspace(0, 1, -1, device=device)
    with pytest.raises(TypeError):
        pygpu.linspace(0, 1, 2.5, device=device)
    with pytest.raises(TypeError):
        pygpu.linspace(object(), 1, device=device)
    with pytest.raises((ValueError, MemoryError)):
        pygpu.linspace(0, 1, 2**62, device=device)


@settings(max_examples=40, deadline=None)
@given(start=st.floats(-1e6, 1e6), stop=st.floats(-1e6, 1e6), num=st.integers(0, 300),
       endpoint=st.booleans())
def test_linspace_hypothesis(start, stop, num, endpoint):
    expected = np.linspace(start, stop, num, endpoint=endpoint)
    for dev in pygpu_devices():
        got = pygpu.linspace(start, stop, num, endpoint=endpoint, device=dev).get()
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9)


# ------------------------------------------------------------------ eye, identity

@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (5, 3, -2), (4, 4, 4), (4, 4, -4), (0, 3, 0),
                                   (3, 0, 0), (1, 1, 0), (6, 2, 1), (2, 6, -1), (4, 7, 6), (5, 5, -10)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_eye(device, n, m, k, order):
    got = pygpu.eye(n, m, k, order=order, device=device)
    assert_array_equal(got, np.eye(n, m, k, order=order))
    assert got.flags[order + "_CONTIGUOUS"]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_eye_dtypes(device, dtype):
    assert_array_equal(pygpu.eye(3, 4, 1, dtype=dtype, device=device), np.eye(3, 4, 1, dtype=dtype))
    assert_array_equal(pygpu.identity(3, dtype=dtype, device=device), np.identity(3, dtype=dtype))


def test_identity_default(device):
    assert_array_equal(pygpu.identity(4, device=device), np.identity(4))
    assert_array_equal(pygpu.identity(0, device=device), np.identity(0))


def test_eye_errors(device):
    with pytest.raises(ValueError, match="negative dimensions"):
        pygpu.eye(-1, device=device)
    with pytest.raises(ValueError, match="negative dimensions"):
        pygpu.eye(2, -3, device=device)
    with pytest.raises(TypeError):
        pygpu.eye(2.5, device=device)
    with pytest.raises(ValueError):
        pygpu.eye(2, order="K", device=device)


# ------------------------------------------------------------------ empty / zeros / ones / full

SHAPES = [(), (0,), (5,), (2, 3), (3, 0, 2), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_zeros_ones_full(device, shape, dtype):
    assert_array_equal(pygpu.zeros(shape, dtype=dtype, device=device), np.zeros(shape, dtype=dtype))
    assert_array_equal(pygpu.ones(shape, dtype=dtype, device=device), np.ones(shape, dtype=dtype))
    assert_array_equal(pygpu.full(shape, 3, dtype=dtype, device=device), np.full(shape, 3, dtype=dtype))
    e = pygpu.empty(shape, dtype=dtype, device=device)
    assert e.shape == shape and e.dtype == dtype and e.device == device


@pytest.mark.parametrize("value", [7, -2.5, True, 1 + 2j, np.float32(1.5), np.int8(-3)])
def test_full_infers_dtype(device, value):
    assert_array_equal(pygpu.full((2, 2), value, device=device), np.full((2, 2), value))


def test_full_out_of_bounds(device):
    with pytest.raises(OverflowError):
        np.full(3, 300, dtype=np.int8)
    with pytest.raises(OverflowError):
        pygpu.full(3, 300, dtype=np.int8, device=device)


@pytest.mark.parametrize("order", ["C", "F"])
def test_like_functions(device, order):
    src = np.asfortranarray(np.arange(6.0).reshape(2, 3)) if order == "F" else np.arange(6.0).reshape(2, 3)
    a = pygpu.asarray(src, device=device)
    for name, fill in [("zeros_like", 0), ("ones_like", 1)]:
        got = getattr(pygpu, name)(a)
        assert_array_equal(got, getattr(np, name)(src))
        assert got.flags[order + "_CONTIGUOUS"] and got.device == device
    assert_array_equal(pygpu.full_like(a, 9, dtype=np.int32), np.full_like(src, 9, dtype=np.int32))
    e = pygpu.empty_like(a, shape=(4,))
    assert e.shape == (4,) and e.dtype == np.float64
    e = pygpu.empty_like(src, device=device)
    assert e.shape == src.shape and e.device == device


LIKE_LAYOUTS = [lambda a: a[:, ::2, :].swapaxes(0, 1), lambda a: a[::-1, :, ::2], lambda a: a.transpose(1, 2, 0)[:, ::2],
                lambda a: a.transpose(2, 0, 1), lambda a: a[:, :1, ::2]]


@pytest.mark.parametrize("layout", range(len(LIKE_LAYOUTS)))
def test_order_k_keeps_the_axes_order_of_a_strided_source(device, layout):
    """Order 'K' of a source neither C- nor F-contiguous lays the new array's axes out in the
    order of the source's strides, as NumPy (it was C order): the *_like functions, copy,
    astype; a new shape of as many dimensions takes the source's order too, and 'A' F order
    from an F source."""
    n = LIKE_LAYOUTS[layout](np.arange(24.0).reshape(2, 3, 4))
    p = LIKE_LAYOUTS[layout](pygpu.asarray(np.arange(24.0).reshape(2, 3, 4), device=device))
    for order in ("K", "A", "C", "F"):
        assert pygpu.empty_like(p, order=order).strides == np.empty_like(n, order=order).strides
        assert pygpu.zeros_like(p, order=order).strides == np.zeros_like(n, order=order).strides
        assert p.copy(order=order).strides == n.copy(order=order).strides
        assert p.astype(np.float32, order=order).strides == n.astype(np.float32, order=order).strides
        for shape in ((3, 2, 5), (4, 6)):
            assert (pygpu.full_like(p, 1, order=order, shape=shape).strides
                    == np.full_like(n, 1, order=order, shape=shape).strides)
    assert_array_equal(p.copy(order="K"), n)
    f = np.asfortranarray(np.arange(24.0).reshape(2, 3, 4))
    pf = pygpu.asarray(f, device=device)
    for order in ("K", "A"):
        for shape in ((4, 2, 3), (4, 6)):
            assert pygpu.empty_like(pf, order=order, shape=shape).strides == np.empty_like(f, order=order, shape=shape).strides


def test_creation_errors(device):
    with pytest.raises(ValueError, match="negative dimensions"):
        pygpu.zeros((2, -1), device=device)
    with pytest.raises(TypeError):
        pygpu.zeros((2, 1.5), device=device)
    with pytest.raises(TypeError):
        pygpu.empty(3, dtype="U5", device=device)
    with pytest.raises(TypeError):
        pygpu.zeros()


# ------------------------------------------------------------------ asarray / array

@pytest.mark.parametrize("obj", [
    [1, 2, 3], [[1.5, 2], [3, 4]], [[True, False]], [1 + 2j, 3], 5, 2.5, True, [], [[], []],
    np.float32(3), [np.int8(1), np.int8(2)], ((1, 2), (3, 4)),
])
def test_asarray_python_objects(device, obj):
    assert_array_equal(pygpu.asarray(obj, device=device), np.asarray(obj))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asarray_layouts(device, dtype):
    base = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    for src in [base, np.asfortranarray(base), base[:, ::-1, ::2], base.transpose(2, 0, 1), base[::-1]]:
        got = pygpu.asarray(src, device=device)
        assert_array_equal(got, src)


def test_asarray_dtype_and_copy(device):
    src = np.arange(5, dtype=np.int32)
    assert_array_equal(pygpu.asarray(src, dtype=np.float32, device=device), src.astype(np.float32))
    a = pygpu.asarray(src, device=device)
    assert pygpu.asarray(a) is a
    assert pygpu.asarray(a, copy=False) is a
    b = pygpu.array(a)
    assert b is not a and b.data_ptr != a.data_ptr
    assert_array_equal(b, src)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        pygpu.asarray(a, dtype=np.float64, copy=False)
    c = pygpu.asarray(a, copy=True)
    assert c.data_ptr != a.data_ptr


def test_asarray_order(device):
    src = np.arange(6.0).reshape(2, 3)
    f = pygpu.asarray(src, order="F", device=device)
    assert f.flags["F_CONTIGUOUS"] and not f.flags["C_CONTIGUOUS"]
    assert_array_equal(f, src)


def test_asarray_errors(device):
    with pytest.raises(ValueError):
        pygpu.asarray([[1, 2], [3]], device=device)
    with pytest.raises(TypeError):
        pygpu.asarray(["a", "b"], device=device)
    with pytest.raises(TypeError):
        pygpu.asarray(object(), device=device)


def test_huge_arrays_memory_error_then_value_error(device):
    # as NumPy: a byte size that fits the address space but not in memory is a MemoryError
    # (pygpu.OutOfMemoryError); past the address space, ValueError "array is too big"
    with pytest.raises(pygpu.OutOfMemoryError, match="out of memory allocating 4611686018427387904 bytes"):
        pygpu.empty(2 ** 62, dtype=np.uint8, device=device)
    with pytest.raises(MemoryError):
        pygpu.zeros((2 ** 31, 2 ** 31), dtype=np.int8, device=device)
    for shape, dtype in [(2 ** 61, np.float64), ((2 ** 40, 2 ** 40), np.uint8), ((2 ** 62, 2), np.uint8)]:
        with pytest.raises(ValueError, match="array is too big") as e_pg:
            pygpu.empty(shape, dtype=dtype, device=device)
        with pytest.raises(ValueError) as e_np:
            np.empty(shape, dtype=dtype)
        assert str(e_pg.value) == str(e_np.value)
    assert_array_equal(pygpu.ones(3, device=device), np.ones(3))   # the process carries on


def test_import_from_unbuilt_source_tree(tmp_path):
    # a copy of the package without its extension, inside a tree with a setup.py
    import shutil
    import subprocess
    import sys
    src = os.path.dirname(pygpu.__file__)
    shutil.copytree(src, tmp_path / "pygpu", ignore=shutil.ignore_patterns("_core.*", "__pycache__"))
    (tmp_path / "setup.py").write_text("")
    # -S: no site-packages, whose .pth files may hold an editable install's finder for pygpu._core
    r = subprocess.run([sys.executable, "-S", "-c", "import pygpu"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode != 0
    assert "pygpu's C extension is not built in the source tree" in r.stderr
    assert "pip install -e ." in r.stderr and "circular" not in r.stderr


@pytest.mark.parametrize("make", [pygpu.zeros, pygpu.ones, pygpu.empty, lambda n: pygpu.full(n, 2.5)])
def test_a_0d_integer_array_is_a_length(device, make):
    # pygpu's reductions give 0-d arrays where NumPy gives scalars: both must serve as a length
    n = pygpu.sum(pygpu.asarray([1, 2, 3], device=device) > 1)
    assert make(n).shape == (2,)
    assert make(np.array(3)).shape == (3,)
    assert make(pygpu.asarray([2, 3])).shape == (2, 3)
    with pytest.raises(TypeError):
        make(pygpu.asarray(2.0))
    with pytest.raises(ValueError, match="negative dimensions"):
        make(np.array(-1))
