"""NumPy 2 type promotion with NEP 50 weak Python scalars, and the promotion functions and
array API namespace names."""
import itertools
import math

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]


def test_array_array_promotion_all_pairs(device):
    for d0, d1 in itertools.product(DTYPES, DTYPES):
        a = np.ones(2, d0)
        b = np.ones(2, d1)
        pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
        for name in ["add", "multiply", "maximum", "equal", "divide"]:
            try:
                expected = getattr(np, name)(a, b).dtype
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(pygpu, name)(pa, pb)
                continue
            assert getattr(pygpu, name)(pa, pb).dtype == expected, (name, d0, d1)
        assert pygpu.result_type(pa, pb) == np.result_type(a, b)


@pytest.mark.parametrize("scalar", [1, -1, 2.5, 1j, True, np.float32(2), np.int8(3), np.float64(1.5),
                                    np.complex64(1j), np.uint64(7), np.bool_(True)])
def test_weak_and_strong_scalars(device, scalar):
    for d in DTYPES:
        a = np.ones(3, d)
        pa = pygpu.asarray(a, device=device)
        for name in ["add", "multiply", "less", "divide"]:
            npf, pgf = getattr(np, name), getattr(pygpu, name)
            for args, pargs in [((a, scalar), (pa, scalar)), ((scalar, a), (scalar, pa))]:
                try:
                    expected = npf(*args)
                except (TypeError, OverflowError) as e:
                    with pytest.raises(type(e)):
                        pgf(*pargs)
                    continue
                got = pgf(*pargs)
                assert got.dtype == expected.dtype, (name, d, scalar)
                np.testing.assert_allclose(got.get(), expected)
        assert pygpu.result_type(pa, scalar) == np.result_type(a, scalar)


def test_nep50_examples(device):
    u8 = pygpu.asarray(np.array([1, 2], np.uint8), device=device)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        u8 + 300
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        u8 + (-1)
    assert (u8 + 255).dtype == np.uint8
    f32 = pygpu.asarray(np.array([1, 2], np.float32), device=device)
    assert (f32 * 2.0).dtype == np.float32
    assert (f32 * 2).dtype == np.float32
    assert (f32 + 1j).dtype == np.complex64
    assert (f32 * np.float64(2.0)).dtype == np.float64
    i8 = pygpu.asarray(np.array([1, 2], np.int8), device=device)
    assert (i8 + 1.5).dtype == np.float64
    assert (i8 + 1j).dtype == np.complex128
    assert (i8 / 2).dtype == np.float64
    f16 = pygpu.asarray(np.array([1, 2], np.float16), device=device)
    assert (f16 + 1j).dtype == np.complex64
    b = pygpu.asarray(np.array([True, False]), device=device)
    assert (b + 1).dtype == np.int64 and (b + 1.5).dtype == np.float64
    # comparisons with out-of-range Python ints work, as in NumPy 2
    np.testing.assert_array_equal((u8 < 300).get(), np.array([1, 2], np.uint8) < 300)
    np.testing.assert_array_equal((u8 == -1).get(), np.array([1, 2], np.uint8) == -1)
    i64 = pygpu.asarray(np.array([-5, 5], np.int64), device=device)
    np.testing.assert_array_equal((i64 < 2 ** 64).get(), np.array([-5, 5]) < 2 ** 64)
    np.testing.assert_array_equal((i64 > -2 ** 70).get(), np.array([-5, 5]) > -2 ** 70)
    # unary functions of integers compute in the smallest float that holds them
    assert pygpu.sin(i8).dtype == np.sin(np.array([1], np.int8)).dtype == np.float16
    assert pygpu.sqrt(pygpu.asarray(np.array([4], np.int16), device=device)).dtype == np.float32


def test_promotion_functions():
    assert pygpu.result_type(pygpu.int8, pygpu.uint8) == np.int16
    assert pygpu.result_type(pygpu.float32, 1.0) == np.float32
    assert pygpu.result_type(pygpu.int32, 1.0) == np.float64
    assert pygpu.result_type("f4", "c8", 1) == np.complex64
    assert pygpu.promote_types("i8", "u8") == np.float64
    with pytest.raises(TypeError):
        pygpu.promote_types("i8", "M8[s]")
    assert pygpu.can_cast(pygpu.int8, pygpu.int16)
    assert not pygpu.can_cast(pygpu.float64, pygpu.float32)
    assert pygpu.can_cast(pygpu.float64, pygpu.float32, casting="same_kind")
    assert pygpu.can_cast(pygpu.asarray(np.ones(2, np.int8)), np.float32)
    with pytest.raises(TypeError):
        pygpu.can_cast(1, np.int8)
    assert pygpu.finfo(pygpu.float32).eps == np.finfo(np.float32).eps
    assert pygpu.finfo(pygpu.asarray(np.ones(2, np.float16))).bits == 16
    assert pygpu.iinfo(pygpu.int16).max == 32767


# Python ints past int64 with no array operand (NumPy 2.4 and 2.5 agree on every case)
BIG_INTS = [2**63, 2**64 - 1, -2**63 - 1, 2**64]
UFUNCS = sorted(n for n in dir(pygpu) if isinstance(getattr(pygpu, n), pygpu.ufunc) and hasattr(np, n)
                and getattr(pygpu, n).nin in (1, 2))


def _big_int_calls(name):
    if name == "clip":
        return [c for v in BIG_INTS for c in ((v, 0, 1), (1, 0, v), (v, 0.5, 2.5), (v, None, 1))]
    if name == "angle" or getattr(pygpu, name).nin == 1:
        return [(v,) for v in BIG_INTS]
    small = (1, 1.5, True, 1j)
    return [c for v in BIG_INTS
            for c in [(v, s) for s in small] + [(s, v) for s in small] + [(v, w) for w in BIG_INTS]]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's overflow in power, square, ...
@pytest.mark.parametrize("name", UFUNCS + ["angle", "clip"])
def test_python_ints_past_int64_with_no_array(name):
    """NumPy's answers: a lone int is np.asarray's uint64 (sin(2**63), negative(2**63)), one next to
    a Python float or complex is a value of that loop, next to other ints (an int64 loop) an
    OverflowError; comparisons are exact. Where NumPy makes an object array (past uint64) pygpu,
    which has none, raises OverflowError or gives the value (comparisons, true division)."""
    for args in _big_int_calls(name):
        try:
            want = getattr(np, name)(*args)
        except Exception as e:  # noqa: BLE001 (NumPy's object loops raise TypeError, AttributeError)
            want = e
        past = any(isinstance(a, int) and not -2**63 <= a < 2**64 for a in args)
        objects = past and not isinstance(want, np.generic)
        if isinstance(want, Exception) and not objects:
            with pytest.raises(type(want)):
                getattr(pygpu, name)(*args)
            continue
        try:
            got = getattr(pygpu, name)(*args)
        except Exception as e:  # noqa: BLE001
            assert objects and isinstance(e, (OverflowError, type(want))), (name, args, want, e)
            continue
        assert not isinstance(want, Exception), (name, args, want)
        if objects:
            assert got.get().item() == want, (name, args)
        elif want.dtype.kind in "fc":  # cbrt of a scalar operand is 1 ulp from NumPy's (its array's is not)
            assert got.dtype == want.dtype and got.shape == ()
            np.testing.assert_allclose(got.get(), want, rtol=4e-16, atol=0)
        else:
            assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_fields_are_python_floats(dtype):
    # the array API asks for Python float/int fields; NumPy's finfo holds NumPy scalars
    f, e = pygpu.finfo(dtype), np.finfo(dtype)
    for name in ("eps", "max", "min", "smallest_normal", "tiny", "resolution", "epsneg", "smallest_subnormal"):
        assert type(getattr(f, name)) is float and getattr(f, name) == float(getattr(e, name)), name
    for name in ("bits", "precision", "nmant", "nexp", "machep", "maxexp", "minexp"):
        assert type(getattr(f, name)) is int and getattr(f, name) == getattr(e, name), name
    assert f.dtype == e.dtype and repr(f) == repr(e)
    assert pygpu.finfo(pygpu.zeros(1, dtype=dtype)).eps == f.eps


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_fields_are_python_ints(dtype):
    i, e = pygpu.iinfo(dtype), np.iinfo(dtype)
    assert (type(i.bits), type(i.min), type(i.max)) == (int, int, int)
    assert (i.bits, i.min, i.max, i.dtype) == (e.bits, e.min, e.max, e.dtype) and repr(i) == repr(e)
    with pytest.raises(ValueError):
        pygpu.iinfo("float32")
    assert pygpu.isdtype(pygpu.float32, "real floating")
    assert pygpu.isdtype(np.dtype("u2"), "unsigned integer")
    assert pygpu.isdtype(pygpu.complex64, ("integral", "complex floating"))
    assert not pygpu.isdtype(pygpu.bool, "numeric")
    assert pygpu.isdtype(pygpu.int64, pygpu.int64)


def test_array_api_namespace(device):
    a = pygpu.asarray(np.ones(2), device=device)
    assert a.__array_namespace__() is pygpu
    assert a.__array_namespace__(api_version="2023.12") is pygpu
    with pytest.raises(ValueError):
        a.__array_namespace__(api_version="1999.01")
    assert pygpu.__array_api_version__ == "2024.12"
    assert pygpu.e == math.e and pygpu.pi == math.pi and math.isinf(pygpu.inf) and math.isnan(pygpu.nan)
    assert pygpu.newaxis is None
    info = pygpu.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == np.float64
    assert "float32" in info.dtypes() and "int8" in info.dtypes(kind="signed integer")
    assert "float32" not in info.dtypes(kind="integral")
    assert pygpu.Device("cpu") in info.devices()
    assert info.default_device() == pygpu.default_device()
    caps = info.capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}
    # what the two capabilities promise
    x = pygpu.asarray([3.0, -1.0, 2.0, -5.0], device=device)
    assert x[x > 0].get().tolist() == [3.0, 2.0]
    assert pygpu.unique_values(pygpu.asarray([2, 1, 2], device=device)).get().tolist() == [1, 2]
    for name in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                 "float64", "complex64", "complex128"]:
        assert np.dtype(getattr(pygpu, name)) == np.dtype(name)
        assert pygpu.zeros(2, dtype=getattr(pygpu, name), device=device).dtype == np.dtype(name)
    # every elementwise function the array API names
    for name in ("abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
                 "bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp "
                 "expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal "
                 "log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum "
                 "multiply negative not_equal positive pow real reciprocal remainder round sign signbit sin sinh "
                 "square sqrt subtract tan tanh trunc nextafter where").split():
        assert callable(getattr(pygpu, name)), name
    for name in ("arccos arccosh arcsin arcsinh arctan arctan2 arctanh absolute power mod fmod true_divide invert "
                 "left_shift right_shift exp2 cbrt rint fabs fmax fmin deg2rad rad2deg degrees radians angle "
                 "conjugate heaviside isclose").split():
        assert callable(getattr(pygpu, name)), name


@pytest.mark.parametrize("x1, x2", [
    (5, np.arange(4)), (5, np.arange(4, dtype=np.int16)), (2.0, np.arange(3)), (5, 3), (2.5, 3),
    (np.arange(3, dtype=np.int8), 2), (np.float32(2), np.arange(3)), (np.ones(3, np.float32), 40),
    (np.ones(3, np.float16), 3), (True, np.arange(3)), (np.ones(2), 2**63),
    (np.arange(3, dtype=np.uint64), -2), (np.arange(3, dtype=np.uint8), -300),
])
def test_ldexp_takes_python_scalars_as_numpys_resolver(x1, x2):
    # a mixed-type loop: a Python scalar next to an array of at least its kind takes the first
    # loop of its kind (ldexp(5, int64 array) is float16), else its default dtype
    from conftest import numpy_and_pygpu

    def call(m):
        a = m.asarray(x1) if isinstance(x1, np.ndarray) else x1
        b = m.asarray(x2) if isinstance(x2, np.ndarray) else x2
        return m.ldexp(a, b)
    want, got = numpy_and_pygpu(call)
    assert got == want


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's cast of nan to int32
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", ["?", "i1", "i2", "u1", "u2", "i4", "u8", "f4", "f8", "c8"])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe"])
def test_python_scalars_convert_to_the_loop_dtype_picks(device, dtype, casting):
    # with dtype= NumPy picks the loop first and converts a Python scalar to its input type:
    # uint8_array + -2 with dtype=int16 is the int16 loop (no OverflowError for uint8), 2.5 into
    # an int64 loop a casting error, and with casting='unsafe' NumPy's cast (-2.5 -> 254 in uint8)
    a = np.arange(5, dtype=np.uint8)
    pa = pygpu.asarray(a, device=device)
    for name in ["add", "floor_divide", "remainder", "maximum"]:
        for s in [-2, 300, 2**70, -2.5, 1e300, float("nan"), 2j]:
            for args, pargs in [((a, s), (pa, s)), ((s, a), (s, pa))]:
                try:
                    want = getattr(np, name)(*args, dtype=dtype, casting=casting)
                except (TypeError, OverflowError) as e:
                    with pytest.raises(type(e)):
                        getattr(pygpu, name)(*pargs, dtype=dtype, casting=casting)
                    continue
                got = getattr(pygpu, name)(*pargs, dtype=dtype, casting=casting)
                assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_ldexp_with_dtype_takes_a_python_int_as_the_exponent(device, dtype):
    # with dtype= the int is the exponent of the loop that computes in dtype (el->e), as NumPy's
    # (NumPy's legacy search for this mixed loop: the inputs cast at most safely, so a float32
    # array or a Python float as the mantissa has no float16 loop)
    for x in (np.array([1, 2, 0], np.float16), np.array([3, 4], np.int8), np.array([3, 4], np.float32)):
        for args in ((x, 0), (x, 3), (x, -2), (0, x), (-2, x), (1.5, x), (1.5j, x)):
            pargs = tuple(pygpu.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args)
            try:
                want = np.ldexp(*args, dtype=dtype)
            except TypeError:
                with pytest.raises(TypeError):
                    pygpu.ldexp(*pargs, dtype=dtype)
                continue
            assert_array_equal(pygpu.ldexp(*pargs, dtype=dtype), want)
