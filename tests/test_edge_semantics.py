"""NumPy's answers at the edges the everyday differential tests pass by: int64 against uint64 and
Python ints past 64 bits (in ufuncs, operators and fuse), var/std of infinities and NaNs,
NaN-skipping into integer dtypes, clip with crossed or out-of-range bounds, zero to complex powers,
integer reciprocals and negative powers, gcd/lcm promotion, ptp into a wider out=, quantiles of
empty axes, irfft sizes, hypot and |z| bits, ldexp at the exponent limits, round at every scale,
ufunc where= and the methods beyond the kernels (at, reduce of subtract), 0-d arrays in reductions
and format(), NumPy's ufuncs with a NumPy out=, other byte orders, flags, legacy random seeds.
Each was a wrong answer or a wrong error once (found by differential hunts against NumPy)."""
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pygpu as pg

I64, U64 = np.iinfo(np.int64), np.iinfo(np.uint64)
EDGE_I64 = np.array([I64.min, -2**62 - 1, -1, 0, 1, 2**53 + 1, 2**62, 2**62 + 1, I64.max], np.int64)
EDGE_U64 = np.array([0, 1, 2**53 + 1, 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**63 + 1, U64.max], np.uint64)
COMPARISONS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


def quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def same(got, want):
    """The same values (NaN where NaN), dtype and shape."""
    got = pg.asnumpy(got) if isinstance(got, pg.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- signed against unsigned, exactly

@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("signed", [np.int8, np.int32, np.int64])
def test_signed_against_uint64_compare_exactly(op, signed):
    s = EDGE_I64.astype(signed)[:, None]   # every pair: the int64 values wrap into narrower types alike
    u = EDGE_U64[None, :]
    same(getattr(pg, op)(pg.asarray(s), pg.asarray(u)), getattr(np, op)(s, u))
    same(getattr(pg, op)(pg.asarray(u), pg.asarray(s)), getattr(np, op)(u, s))


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_operators_on_mixed_signedness(op):
    s, u = EDGE_I64[:, None], EDGE_U64[None, :]
    same(eval(f"a {op} b", {"a": pg.asarray(s), "b": pg.asarray(u)}), eval(f"a {op} b", {"a": s, "b": u}))


@pytest.mark.parametrize("op", COMPARISONS)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.bool_])
@pytest.mark.parametrize("value", [2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70, -2**63, -2**63 - 1, -2**70, 300, -1])
def test_python_ints_beyond_the_dtype_compare_exactly(op, dtype, value):
    base = {np.bool_: [False, True]}.get(dtype)
    x = np.array(base if base is not None else [np.iinfo(dtype).min, 0, 1, np.iinfo(dtype).max], dtype)
    try:
        want = getattr(np, op)(x, value)
    except OverflowError:   # bools take the int as an int64
        with pytest.raises(OverflowError):
            getattr(pg, op)(pg.asarray(x), value)
        return
    same(getattr(pg, op)(pg.asarray(x), value), want)
    try:
        want = getattr(np, op)(value, x)
    except OverflowError:   # NumPy's reflected form refuses some ints its forward form compares
        return
    same(getattr(pg, op)(value, pg.asarray(x)), want)


def test_isin_of_signed_and_uint64():
    e = np.array([-1, 2**62 + 1, 2**62, 0, I64.max])
    t = np.array([U64.max, 2**62, 0, 2**63 - 1], np.uint64)
    for kind in (None, "sort"):
        same(pg.isin(pg.asarray(e), pg.asarray(t), kind=kind), np.isin(e, t, kind=kind))
        same(pg.isin(pg.asarray(t), pg.asarray(e), kind=kind), np.isin(t, e, kind=kind))
        same(pg.isin(pg.asarray(e), pg.asarray(t), invert=True, kind=kind), np.isin(e, t, invert=True, kind=kind))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(I64.min, I64.max), min_size=1, max_size=20),
       st.lists(st.integers(0, U64.max), min_size=1, max_size=20))
def test_mixed_signedness_property(signed, unsigned):
    s, u = np.array(signed, np.int64), np.array(unsigned, np.uint64)
    for op in COMPARISONS:
        same(getattr(pg, op)(pg.asarray(s)[:, None], pg.asarray(u)), getattr(np, op)(s[:, None], u))
    same(pg.isin(pg.asarray(s), pg.asarray(u)), np.isin(s, u))


# ---------------------------------------------------------------- var, std, mean of non-finite values

NONFINITE = [[np.nan, 1.0], [np.inf, 1.0], [-np.inf, 2.0], [np.inf, -np.inf], [np.inf, np.inf], [np.nan, np.inf]]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("f", ["var", "std", "mean", "nanvar", "nanstd", "nanmean"])
@pytest.mark.parametrize("column", NONFINITE)
def test_moments_of_nonfinite_values_along_an_axis(dtype, f, column):
    if "mean" in f and dtype == np.complex128 and np.isinf(column).any():
        pytest.skip("NumPy's complex mean divides by n as a complex number: inf+0j gives inf+nanj")
    a = np.array([column, [1.0, 1.0], [3.0, 0.5]], dtype).T.copy()   # non-finite values in row 0
    for axis in (0, 1):
        for x in (a, a[:1], a[:, :1]):   # a length-1 axis holds a single value
            want = quiet(getattr(np, f), x, axis=axis)
            got = quiet(getattr(pg, f), pg.asarray(x), axis=axis)
            np.testing.assert_allclose(pg.asnumpy(got), want, rtol=1e-6, equal_nan=True)


def test_mean_with_where_keeps_inf():
    a = np.array([[np.inf, 1.0], [1.0, 1.0], [np.nan, 2.0]])
    m = a > 0
    np.testing.assert_array_equal(pg.asnumpy(pg.mean(pg.asarray(a), axis=0, where=pg.asarray(m))),
                                  np.mean(a, axis=0, where=m))


@pytest.mark.parametrize("ddof", [0, 1, 2, 3])
def test_nanvar_with_too_few_values_is_nan(ddof):
    a = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]])
    for axis in (None, 0, 1):
        for f in ("nanvar", "nanstd", "var"):
            want = quiet(getattr(np, f), a, axis=axis, ddof=ddof)
            got = quiet(getattr(pg, f), pg.asarray(a), axis=axis, ddof=ddof)
            np.testing.assert_allclose(pg.asnumpy(got), want, equal_nan=True)


@pytest.mark.parametrize("f", ["nansum", "nanprod"])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.bool_])
def test_nan_reductions_into_integer_dtypes_skip_nans_first(f, dtype):
    a = np.array([[1.7, 2.6, np.nan], [np.nan, -3.2, 1.0]])
    for axis in (None, 0, 1):
        same(getattr(pg, f)(pg.asarray(a), axis=axis, dtype=dtype), getattr(np, f)(a, axis=axis, dtype=dtype))
    w = np.array([[True, False, True], [True, True, False]])
    same(getattr(pg, f)(pg.asarray(a), dtype=dtype, where=pg.asarray(w)), getattr(np, f)(a, dtype=dtype, where=w))


# ---------------------------------------------------------------- clip

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.bool_, np.float32])
def test_clip_with_crossed_bounds_takes_the_upper(dtype):
    x = np.array([0, 1, 5, 9], dtype)
    lo, hi = (True, False) if dtype == np.bool_ else (7, 2)
    same(pg.clip(pg.asarray(x), lo, hi), np.clip(x, lo, hi))
    same(pg.asarray(x).clip(lo, hi), x.clip(lo, hi))
    same(pg.clip(pg.asarray(x), pg.asarray(np.array(lo, dtype)), pg.asarray(np.array(hi, dtype))),
         np.clip(x, np.array(lo, dtype), np.array(hi, dtype)))


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint64, np.int64])
@pytest.mark.parametrize("bounds", [(-2, 3), (3, 300), (-300, 300), (-2**70, 2**70), (None, 2**64), (-2**65, None),
                                    (300, 400), (-5, -1), (200, 300)])
def test_clip_with_python_int_bounds_beyond_the_dtype(dtype, bounds):
    x = np.array([0, 9, 100], dtype)
    lo, hi = bounds
    try:
        want = np.clip(x, lo, hi)
    except OverflowError:
        with pytest.raises(OverflowError):
            pg.clip(pg.asarray(x), lo, hi)
        return
    same(pg.clip(pg.asarray(x), lo, hi), want)


# ---------------------------------------------------------------- powers, reciprocals

@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_zero_to_complex_powers(dtype):
    b = np.array([2 + 3j, -2 + 3j, 1j, -1, 2.5 + 1j, 2, -2, 0.5, complex(1, np.nan), complex(np.inf, 0), 0],
                 dtype)
    for zero in (0j, complex(-0.0, 0.0), complex(0.0, -0.0)):
        a = np.full(b.shape, zero, dtype)
        same(pg.power(pg.asarray(a), pg.asarray(b)), quiet(np.power, a, b))
    same(pg.asarray(np.zeros(3, dtype)) ** (2 + 3j), quiet(np.power, np.zeros(3, dtype), 2 + 3j))
    same(pg.float_power(pg.asarray(np.zeros(2)), pg.asarray(np.array([2.5 + 1j, 1j]))),
         quiet(np.float_power, np.zeros(2), np.array([2.5 + 1j, 1j])))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.bool_])
def test_integer_reciprocal(dtype):
    x = np.array([0, 1, 2] + ([] if dtype in (np.uint8, np.uint64, np.bool_) else [-1, -2]), dtype) \
        if dtype != np.bool_ else np.array([False, True])
    same(pg.reciprocal(pg.asarray(x)), quiet(np.reciprocal, x))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_integers_to_negative_integer_powers_raise(dtype):
    x = pg.asarray(np.array([2, 3], dtype))
    message = "Integers to negative integer powers are not allowed."
    for exponent in (-1, pg.asarray(np.array([1, -1], dtype)), np.array([-2, 0], dtype)):
        with pytest.raises(ValueError, match=message):
            x ** exponent
        with pytest.raises(ValueError, match=message):
            pg.power(x, exponent)
    with pytest.raises(ValueError, match=message):
        pg.power.outer(x, pg.asarray(np.array([-1], dtype)))
    same(x ** pg.asarray(np.array([0, 2], dtype)), np.array([2, 3], dtype) ** np.array([0, 2], dtype))
    same(pg.asarray(np.array([2, 3], np.uint8)) ** 2, np.array([4, 9], np.uint8))
    same(x ** pg.zeros(0, dtype=dtype)[:, None], np.empty((0, 2), dtype))   # nothing to check
    same(x ** -1.0, np.array([2, 3], dtype) ** -1.0)


@pytest.mark.parametrize("f", ["arctan2", "copysign", "heaviside", "hypot", "logaddexp"])
def test_python_ints_beyond_an_integer_array_in_float_only_ufuncs(f):
    x = np.array([1, -2, 3], np.int8)
    same(getattr(pg, f)(pg.asarray(x), 300), quiet(getattr(np, f), x, 300))
    with pytest.raises(OverflowError):
        pg.add(pg.asarray(x), 300)   # an integer loop: NumPy's OverflowError stays


# ---------------------------------------------------------------- gcd, lcm

@pytest.mark.parametrize("f", ["gcd", "lcm"])
def test_gcd_lcm_promotion_and_values(f):
    nf, pf = getattr(np, f), getattr(pg, f)
    big = np.array([14397379406516344737, 2**63 + 2, 12], np.uint64)
    same(pf(15, pg.asarray(big)), nf(15, big))
    same(pf(pg.asarray(np.array([12, -100], np.int8)), 8), nf(np.array([12, -100], np.int8), 8))
    same(pf(pg.asarray(np.array([100], np.int8)), 3), nf(np.array([100], np.int8), 3))
    with pytest.raises(TypeError):
        pf(pg.asarray(np.array([6], np.int8)), pg.asarray(np.array([4], np.uint64)))
    with pytest.raises(TypeError):
        pf(pg.asarray([1.5]), pg.asarray([2.0]))
    with pytest.raises(OverflowError):
        pf(pg.asarray(np.array([1], np.int8)), 300)
    # a float or mixed call before must not change later integer answers
    a, b = np.array([2**62 + 2, 6, -4]), np.array([2**62, 4, 6])
    same(pf(pg.asarray(a), pg.asarray(b)), nf(a, b))
    same(pf(pg.asarray(a.astype(np.int16)), pg.asarray(b.astype(np.uint8))),
         nf(a.astype(np.int16), b.astype(np.uint8)))


@pytest.mark.parametrize("f", ["gcd", "lcm"])
@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8", "uint64", "float32", "bool"])
@pytest.mark.parametrize("casting", ["same_kind", "safe", "unsafe"])
def test_gcd_lcm_dtype(f, dtype, casting):
    # NumPy's dtype=: the loop computing in dtype, the inputs cast to it by casting= (its errors),
    # a Python int converted to it first (OverflowError before any casting error)
    for x, y in ((np.array([4, 6, 0], np.int8), 4), (np.array([4, 6, 0], np.int16), -2),
                 (np.array([4, 6, 0], np.int8), 300), (np.array([4, 6, 0], np.uint8), np.array([6, 4, 0], np.int16)),
                 (np.array([4.0, 6.0, 0.0]), np.array([6, 4, 0]))):
        px, py = pg.asarray(x), pg.asarray(y) if isinstance(y, np.ndarray) else y
        try:
            want = getattr(np, f)(x, y, dtype=dtype, casting=casting)
        except (TypeError, OverflowError) as e:
            with pytest.raises(OverflowError if isinstance(e, OverflowError) else TypeError):
                getattr(pg, f)(px, py, dtype=dtype, casting=casting)
            continue
        same(getattr(pg, f)(px, py, dtype=dtype, casting=casting), want)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int64"])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe"])
def test_float_power_dtype(dtype, casting):
    # float_power has float64 and complex128 loops only: another dtype= is NumPy's TypeError
    x = np.array([4, 6, 1], np.int16)
    for y in (2, 1.5, 0.5j, np.array([2, 1, 0], np.int8), np.array([1j, 2, 0])):
        py = pg.asarray(y) if isinstance(y, np.ndarray) else y
        try:
            want = np.float_power(x, y, dtype=dtype, casting=casting)
        except TypeError:
            with pytest.raises(TypeError):
                pg.float_power(pg.asarray(x), py, dtype=dtype, casting=casting)
            continue
        got = pg.float_power(pg.asarray(x), py, dtype=dtype, casting=casting)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(pg.asnumpy(got), want, rtol=1e-15)


def test_vectorize_of_one_signature_per_dtype_does_not_share_loops():
    v = pg.vectorize(lambda a: a * 2)
    v(pg.asarray([1.5]))
    r = v(pg.asarray(np.array([3], np.int64)))   # the lazy loop of float64 takes int64 safely (Numba's rule)
    assert pg.asnumpy(r)[0] == 6


# ---------------------------------------------------------------- ptp, quantiles, fft sizes

def test_ptp_into_a_wider_out():
    a = np.array([[-100, 100], [50, -50]], np.int8)
    out = pg.zeros(2, dtype=np.int64)
    r = pg.ptp(pg.asarray(a), axis=0, out=out)
    assert r is out
    same(out, np.ptp(a, axis=0, out=np.zeros(2, np.int64)))
    same(pg.ptp(pg.asarray(a), axis=0), np.ptp(a, axis=0))


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 5)])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("f", ["median", "nanmedian", "quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_quantiles_of_empty_axes(shape, axis, f, dtype):
    def run(m):
        a = m.zeros(shape, dtype=dtype)
        try:
            r = getattr(m, f)(a, axis=axis) if "median" in f else getattr(m, f)(a, [0.25, 0.75], axis=axis)
        except Exception as e:   # noqa: BLE001 (the kind is compared)
            return type(e)
        return pg.asnumpy(r) if isinstance(r, pg.ndarray) else np.asarray(r)
    got, want = quiet(run, pg), quiet(run, np)
    if isinstance(want, type):
        assert got is want
    else:
        same(got, want)


@pytest.mark.parametrize("f,shape", [("irfft2", (8, 1)), ("irfftn", (8, 1)), ("irfft", (8, 1)), ("irfft", (1,)),
                                     ("hfft", (1,)), ("irfftn", (3, 1, 1))])
def test_inverse_real_transforms_of_one_point_raise(f, shape):
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        getattr(pg.fft, f)(pg.ones(shape, dtype=np.complex128))
    sizes = {"n": 4} if f in ("irfft", "hfft") else {"s": (4,) * len(shape), "axes": tuple(range(len(shape)))}
    r = getattr(pg.fft, f)(pg.ones(shape, dtype=np.complex128), **sizes)
    np.testing.assert_allclose(pg.asnumpy(r), getattr(np.fft, f)(np.ones(shape, np.complex128), **sizes), atol=1e-12)


# ---------------------------------------------------------------- hypot, |z|, ldexp bits

def _pairs(dtype, n=20000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n) * np.exp(rng.uniform(-700, 700, n) if dtype == np.float64 else rng.uniform(-80, 80, n))
    y = rng.standard_normal(n) * np.exp(rng.uniform(-20, 20, n))
    y[::3] = x[::3] * rng.uniform(0.5, 2, x[::3].shape)   # similar magnitudes: the correction matters
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1e-310, 1.7e308, 1.0, 3.0]
    sx, sy = np.meshgrid(special, special)
    return (np.concatenate([x, sx.ravel()]).astype(dtype), np.concatenate([y, sy.ravel()]).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_hypot_is_libms_bit_for_bit(dtype):
    x, y = quiet(_pairs, dtype)
    want = quiet(np.hypot, x, y)   # NumPy's hypot is the C library's, correctly rounded or nearly
    same(pg.hypot(pg.asarray(x), pg.asarray(y)), want)
    same(pg.hypot(pg.asarray(x)[::-3], pg.asarray(y)[::-3]), want[::-3])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_abs_of_complex_is_hypot_of_its_parts(dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    x, y = quiet(_pairs, real)
    z = np.empty(x.shape, dtype)
    z.real, z.imag = x, y
    # NumPy's own SIMD |z| is off by up to 2 ulp; pygpu's is the C library's hypot, bit for bit
    same(pg.abs(pg.asarray(z)), quiet(np.hypot, x, y))
    np.testing.assert_allclose(pg.asnumpy(pg.abs(pg.asarray(z))), np.abs(z), rtol=4 * np.finfo(real).eps)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("etype", [np.int32, np.int64])
def test_ldexp_at_every_exponent_range(dtype, etype):
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 2**64, 4000, dtype=np.uint64).view(np.float64)
    x = np.concatenate([bits[np.isfinite(bits)], [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.0, -1.5]])
    x = quiet(x.astype, dtype)
    e = rng.integers(-2300, 2300, x.size)
    e[::5] = rng.integers(-60, 60, e[::5].size)
    e[:4] = [np.iinfo(etype).min, np.iinfo(etype).max, -1075, 1024]
    e = e.astype(etype)
    same(pg.ldexp(pg.asarray(x), pg.asarray(e)), quiet(np.ldexp, x, e))
    same(pg.ldexp(pg.asarray(x)[::2], pg.asarray(e)[::2]), quiet(np.ldexp, x[::2], e[::2]))


# ---------------------------------------------------------------- ufunc where=

@pytest.mark.parametrize("f,args", [("add", (np.arange(6).reshape(2, 3), 1)), ("sqrt", (np.array([4.0, 9.0, 16.0]),)),
                                    ("multiply", (np.arange(6.0).reshape(2, 3), np.array([2.0, 3.0, 4.0]))),
                                    ("less", (np.arange(3), np.array([2, 1, 0])))])
def test_ufunc_where_stores_only_where_true(f, args):
    mask = np.array([True, False, True])
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    dtype = getattr(np, f)(*args).dtype
    want = np.full(shape, 7, dtype)
    getattr(np, f)(*args, where=mask, out=want)
    out = pg.full(shape, 7, dtype=dtype)
    r = getattr(pg, f)(*(pg.asarray(a) if isinstance(a, np.ndarray) else a for a in args), where=pg.asarray(mask),
                       out=out)
    assert r is out
    same(out, want)
    out = pg.full(shape, 7, dtype=dtype)
    getattr(pg, f)(*(pg.asarray(a) if isinstance(a, np.ndarray) else a for a in args), where=False, out=out)
    same(out, np.full(shape, 7, dtype))
    got = getattr(pg, f)(*(pg.asarray(a) if isinstance(a, np.ndarray) else a for a in args), where=mask)
    assert got.shape == shape and got.dtype == dtype   # the other elements are NumPy's "uninitialized"
    np.testing.assert_array_equal(pg.asnumpy(got)[..., mask], getattr(np, f)(*args)[..., mask])


# ---------------------------------------------------------------- ufunc.at beyond the scatter kernels

@pytest.mark.parametrize("f,args", [("negative", ()), ("sqrt", ()), ("divide", (2.0,)), ("power", (2.0,)),
                                    ("add", (1.0,)), ("maximum", (2.5,)), ("subtract", (0.5,))])
@pytest.mark.parametrize("index", [[0, 0, 3, 1], slice(1, 4), np.array([True, False, True, False, True]),
                                   (np.array([0, 2, 2]),)])
def test_ufunc_at_of_any_ufunc_and_index(f, args, index):
    """On the CPU device every ufunc's at takes every index: NumPy's at on the array's memory where
    pygpu has no scatter kernel (negative, sqrt, divide, power: the host rule), pygpu's kernels
    where it has (add, maximum, subtract)."""
    a = np.arange(1.0, 6.0)
    want = a.copy()
    getattr(np, f).at(want, index, *args)
    got = pg.asarray(a, device="cpu")
    assert getattr(pg, f).at(got, index, *args) is None
    np.testing.assert_allclose(pg.asnumpy(got), want)


AT_INDICES_1D = [[0, 0, 3, 1], slice(1, 4), np.array([True, False, True, False, True]), (np.array([0, 2, 2]),),
                 [True, False, True, True, False], [-1, -5, -1, 4], (Ellipsis,), (), slice(None, None, -2), [],
                 None, 3, (np.array([[1, 1], [0, 4]]),)]
AT_INDICES_3D = [(slice(None), [0, 0, 2], None, 1), (Ellipsis, [1, 1]), "mask", (0, slice(None, None, 2)),
                 (slice(1, None), [[0], [2]], [1, 1, -1]), ([1, 0, 1],), (Ellipsis,), (1, 2), (np.array([-1, 1]), 0),
                 ([True, False], slice(None), [3, 3])]


@pytest.mark.parametrize("f", ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin"])
def test_ufunc_at_of_the_scatter_kernels_takes_any_index(f, device, monkeypatch):
    """at of the ufuncs with scatter kernels takes every index NumPy takes (slices, boolean masks,
    None, ..., negative and repeated indices, mixes of them) as the integer coordinates of the
    elements, on every device: NumPy's at (the host rule, which raises on a GPU) is never called.
    The values are small multiples of 0.5, so that sums and products of repeated updates are
    exact in any order (a GPU's atomics)."""
    from pygpu import _ufunc_on_host

    def refused(*args):
        raise AssertionError("NumPy's at ran")
    monkeypatch.setattr(_ufunc_on_host, "at", refused)
    npf, pgf = getattr(np, f), getattr(pg, f)
    a1, a3 = np.arange(1.0, 6.0), np.arange(24.0).reshape(2, 3, 4) / 2 - 3
    for a, indices in ((a1, AT_INDICES_1D), (a3, AT_INDICES_3D)):
        for index in indices:
            index = a3 > 1 if isinstance(index, str) else index
            shape = a[index].shape
            b = (np.arange(np.prod(shape, dtype=int)).reshape(shape) % 5) * 0.5 - 1
            for value in (b, pg.asarray(b, device=device), 1.5):
                want = a.copy()
                npf.at(want, index, np.asarray(value) if isinstance(value, pg.ndarray) else value)
                got = pg.asarray(a, device=device)
                assert pgf.at(got, index, value) is None
                same(got, want)
    want = a3.copy()   # a strided view, and pygpu index arrays (a mask, integers) on the device
    npf.at(want[:, ::2], (a3[:, ::2] > 0, ), 2.0)
    npf.at(want[:, ::2], (slice(None), np.array([-1, 0, 0])), 0.5)
    got = pg.asarray(a3, device=device)
    pgf.at(got[:, ::2], (pg.asarray(a3[:, ::2] > 0, device=device),), 2.0)
    pgf.at(got[:, ::2], (slice(None), pg.asarray([-1, 0, 0], device=device)), 0.5)
    same(got, want)
    for index in ((), None, Ellipsis, True, False):   # a 0-d array
        want, got = np.array(2.5), pg.asarray(2.5, device=device)
        npf.at(want, index, 1.5)
        pgf.at(got, index, 1.5)
        same(got, want)


@pytest.mark.parametrize("index", [[5], [1.5], (0, 0), np.array([True, False]), "x", [True, 1], slice(0, 2)])
def test_ufunc_at_index_errors_are_numpys(index, device):
    want = np.zeros(3)
    try:
        np.add.at(want, index, np.ones(5))
    except Exception as e:   # noqa: BLE001 (the kind and words are compared)
        with pytest.raises(type(e), match=re.escape(str(e))):
            pg.add.at(pg.zeros(3, device=device), index, pg.ones(5, device=device))
    else:
        raise AssertionError("NumPy raised nothing")


@pytest.mark.parametrize("f,args", [("negative", ()), ("sqrt", ()), ("divide", (2.0,)), ("power", (2.0,))])
def test_ufunc_at_beyond_the_scatter_kernels_is_numpys_on_the_cpu_only(f, args, device):
    """at of a ufunc without a scatter kernel is NumPy's, on the array's memory: on a GPU a
    TypeError naming it (pygpu never copies device arrays to the host behind the user's back;
    CuPy has no at of these ufuncs either)."""
    got = pg.arange(1.0, 6.0, device=device)
    if device.kind == "cpu":
        want = np.arange(1.0, 6.0)
        getattr(np, f).at(want, [0, 0, 2], *args)
        getattr(pg, f).at(got, [0, 0, 2], *args)
        np.testing.assert_allclose(pg.asnumpy(got), want)
    else:
        with pytest.raises(TypeError, match=f"{f}.at is NumPy's, on the CPU device only; an operand is on cuda"):
            getattr(pg, f).at(got, [0, 0, 2], *args)


@pytest.mark.skipif(pg._core._build_info()["fatbin_bytes"] == 0, reason="this build has no CUDA kernels")
def test_ufunc_methods_on_a_fake_gpu(mock_driver):
    """On a GPU (the fake driver, whose kernels do nothing: errors and launches are checked, not
    values): at of the scatter-kernel ufuncs with any index launches the scatter kernel; the
    methods that are NumPy's on the CPU device (the host rule) raise TypeError naming them."""
    from conftest import run_mock
    out = run_mock(mock_driver, """
        d = pygpu.zeros((2, 3, 4), device="cuda:0")
        def at(f, index, *b):
            def go():
                before = stats()["launches"]
                getattr(pygpu, f).at(d, index, *b)
                after = stats()
                return [after["launches"] - before, after["last_kernel"]]
            return error(go) or go()
        mask = pygpu.asarray(np.arange(24).reshape(2, 3, 4) % 3 == 0, device="cuda:0")
        print(json.dumps({
            "slice": at("add", (slice(None), slice(1, 3)), 1.0), "mask": at("maximum", mask, 2.0),
            "host_mask": at("subtract", np.ones((2, 3, 4), bool), 2.0), "none": at("multiply", (None, 0, [1, -1]), 2.0),
            "ellipsis": at("minimum", (Ellipsis, [0, 0]), 2.0), "ints": at("add", ([1, 1], [0, 2]), 1.0),
            "zero_d": error(lambda: pygpu.add.at(pygpu.zeros((), device="cuda:0"), (), 1.0)),
            "divide": error(lambda: pygpu.divide.at(d, [0], 2.0)),
            "no_b": error(lambda: pygpu.add.at(d, [0])),
            "reduce": error(lambda: pygpu.subtract.reduce(d, axis=0)),
            "accumulate": error(lambda: pygpu.power.accumulate(d, axis=1)),
            "numpy_out": error(lambda: np.add(d, d, out=np.zeros((2, 3, 4)))),
        }))
    """)
    for case in ("slice", "mask", "host_mask", "none", "ellipsis", "ints"):
        launches, kernel = out[case]   # (a list: no error)
        assert launches >= 1 and kernel.startswith("rat_"), (case, out[case])
    assert out["zero_d"] is None
    assert out["no_b"]["type"] == "ValueError" and out["no_b"]["msg"] == "second operand needed for ufunc"
    for case, name in (("divide", "divide.at"), ("reduce", "subtract.reduce"), ("accumulate", "power.accumulate"),
                       ("numpy_out", "numpy.add with a NumPy out=")):
        assert out[case]["type"] == "TypeError", out[case]
        assert out[case]["msg"] == f"pygpu's {name} is NumPy's, on the CPU device only; an operand is on cuda:0"


def test_ufunc_at_errors_are_numpys(device):
    with pytest.raises(ValueError, match="second operand needed for ufunc"):
        pg.add.at(pg.zeros(3, device=device), [0])            # a binary ufunc needs its second operand
    if device.kind == "cpu":
        with pytest.raises(IndexError):
            pg.negative.at(pg.zeros(3, device=device), [5])
    else:   # NumPy's at: on the CPU device only
        with pytest.raises(TypeError, match="negative.at"):
            pg.negative.at(pg.zeros(3, device=device), [5])


@pytest.mark.parametrize("f", ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin", "count_nonzero",
                               "nansum", "nanmax", "cumsum", "cumprod", "ptp"])
@pytest.mark.parametrize("axis", [0, -1, 1, None])
def test_reductions_of_0d_arrays_take_axis_0(f, axis):
    def run(m):
        try:
            return pg.asnumpy(getattr(m, f)(m.asarray(2.5), axis=axis))
        except Exception as e:   # noqa: BLE001 (the kind is compared)
            return type(e).__name__
    got, want = run(pg), run(np)
    if isinstance(want, str):
        assert got == want
    else:
        same(got, np.asarray(want))


# ---------------------------------------------------------------- fuse literals, round, creation, vectorize, cuda.jit

@pytest.mark.parametrize("body", [lambda a: a + 300, lambda a: a * -1, lambda a: pg.where(a > 1, a, -1),
                                  lambda a: (a + 300).sum(), lambda a: a + 2**70])
def test_fuse_int_literals_beyond_the_dtype_raise_as_numpy(body):
    u8 = np.array([1, 2], np.uint8)
    with pytest.raises(OverflowError):
        body(u8)   # NumPy's own answer
    with pytest.raises(OverflowError):
        pg.fuse(body)(pg.asarray(u8))


@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.uint64])
@pytest.mark.parametrize("literal", [2**63, 2**63 - 1, 2**64, 2**70, -1, -2**70, 1000])
def test_fuse_compares_int_literals_exactly(dtype, literal):
    x = np.array([0, 1, np.iinfo(dtype).max, np.iinfo(dtype).max - 1], dtype)
    for body in (lambda a: a < literal, lambda a: a == literal, lambda a: literal >= a):
        try:
            want = body(x)
        except OverflowError:   # NumPy's reflected comparison refuses some ints
            continue
        same(pg.fuse(body)(pg.asarray(x)), want)


def test_fuse_integer_to_negative_literal_power_raises():
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        pg.fuse(lambda a: a ** -1)(pg.asarray([1, 2]))
    same(pg.fuse(lambda a: a ** -1)(pg.asarray([1.0, 2.0])), np.array([1.0, 0.5]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.float32,
                                   np.float64])
@pytest.mark.parametrize("decimals", [-1, -2, -3, -5, -10, -19, -20, 1, 2, 308, 309, 400, -309, -400])
def test_round_at_every_scale(dtype, decimals):
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        # int64 past 2**53: pygpu rounds exactly where NumPy goes through float64, so not compared
        # past the range the results are each library's cast of an overflow: 8 and 16 bits only
        lo, hi = (info.min, info.max) if info.bits < 32 else (-2**29, 2**29)
        x = np.array([lo, hi, 45, 50, 25, 0, hi // 2, max(lo, -75)], dtype)
    else:
        x = quiet(np.array, [0.5, 1.5, -2.5, 1234.5678, -0.0, 1e300, np.inf, np.nan], dtype)
    same(quiet(pg.round, pg.asarray(x), decimals), quiet(np.round, x, decimals))


def test_round_errors_are_numpys():
    with pytest.raises(TypeError):
        pg.round(pg.asarray([1.5]), 1.0)
    with pytest.raises(TypeError):
        pg.round(pg.asarray([True, False]), 1)
    same(pg.round(pg.asarray([True, False])), np.round(np.array([True, False])))


def test_linspace_into_bools_is_the_samples_cast():
    for start, stop, num in ((0, 1, 4), (-1, 1, 5), (0, 0, 3), (1, 0, 2)):
        same(pg.linspace(start, stop, num, dtype=bool), np.linspace(start, stop, num, dtype=bool))


def test_full_broadcasts_an_array_like_fill():
    same(pg.full((3,), [1, 2, 3]), np.full((3,), [1, 2, 3]))
    same(pg.full((2, 3), [1, 2, 3], np.float32), np.full((2, 3), [1, 2, 3], np.float32))
    same(pg.full_like(pg.zeros((2, 3)), [1, 2, 3]), np.full_like(np.zeros((2, 3)), [1, 2, 3]))
    same(pg.full((2, 2), pg.asarray([1.5, 2.0])), np.full((2, 2), np.array([1.5, 2.0])))
    same(pg.full((2, 2), np.array([[1], [2]], np.int8)), np.full((2, 2), np.array([[1], [2]], np.int8)))
    with pytest.raises(ValueError):
        pg.full((2, 3), [1, 2])


@pytest.mark.parametrize("code", ["d", "f", "i", "l", "?", "e", "F", "b", "B", "H"])
def test_vectorize_otypes_takes_numpy_type_codes(code):
    got = pg.vectorize(lambda x: x + 1, otypes=code)(pg.asarray([1, 2]))
    assert got.dtype == np.vectorize(lambda x: x + 1, otypes=code)(np.array([1, 2])).dtype


def test_cuda_jit_unpacks_a_tuple_into_array_elements():
    @pg.cuda.jit(device=True)
    def floor_divmod(a, b):
        return a // b, a % b

    @pg.cuda.jit
    def kernel(x, y, q, r):
        i = pg.cuda.grid(1)
        if i < x.size:
            q[i], r[i] = floor_divmod(x[i], y[i])

    @pg.cuda.jit
    def swap(a):   # every value is read before any is stored, as in Python
        i = pg.cuda.grid(1)
        if i == 0:
            a[0], a[1] = a[1], a[0] + 10

    x, y = np.array([7, -7, 9, 0]), np.array([2, 2, -4, 3])
    q, r = pg.zeros(4, dtype=np.int64), pg.zeros(4, dtype=np.int64)
    kernel[1, 32](pg.asarray(x), pg.asarray(y), q, r)
    same(q, x // y)
    same(r, x % y)
    a = pg.asarray(np.array([1.0, 2.0]))
    swap[1, 1](a)
    same(a, np.array([2.0, 11.0]))


@pytest.mark.parametrize("f", ["subtract", "divide", "power", "arctan2", "floor_divide", "hypot", "logaddexp",
                               "left_shift", "remainder", "fmod"])
@pytest.mark.parametrize("method,args", [("reduce", (0,)), ("reduce", (1,)), ("accumulate", (0,)),
                                         ("accumulate", (1,)), ("reduceat", ([0, 2, 1], 1))])
def test_reduce_and_accumulate_of_ufuncs_that_do_not_reorder(f, method, args):
    """NumPy's method on the memory of arrays on the CPU device (the host rule: pygpu has no
    kernels that fold left to right)."""
    a = np.arange(1.0, 13.0).reshape(3, 4)
    x = a.astype(np.int64) if f in ("left_shift", "floor_divide", "remainder") else a
    want = quiet(getattr(getattr(np, f), method), x, *args)
    got = quiet(getattr(getattr(pg, f), method), pg.asarray(x, device="cpu"), *args)
    same(got, want)
    t = pg.asarray(x, device="cpu").T   # a strided view: NumPy's method reads the same memory
    same(quiet(getattr(getattr(pg, f), method), t, *args), quiet(getattr(getattr(np, f), method), x.T, *args))


@pytest.mark.parametrize("method,args", [("reduce", (0,)), ("accumulate", (1,)), ("reduceat", ([0, 2, 1], 1))])
def test_reduce_of_ufuncs_that_do_not_reorder_is_cpu_only(method, args, device):
    """On a GPU: a TypeError naming the method (no implicit copy to the host; CuPy has no
    subtract.reduce either)."""
    x = pg.asarray(np.arange(1.0, 13.0).reshape(3, 4), device=device)
    if device.kind == "cpu":
        same(getattr(pg.subtract, method)(x, *args), getattr(np.subtract, method)(pg.asnumpy(x), *args))
    else:
        with pytest.raises(TypeError, match=f"subtract.{method} is NumPy's, on the CPU device only"):
            getattr(pg.subtract, method)(x, *args)
    with pytest.raises(ValueError, match="only supported for binary functions"):   # every device
        getattr(pg.negative, method)(x, *args[1:])


def test_non_reorderable_reduce_takes_out_and_numpys_errors():
    a = np.arange(1.0, 13.0).reshape(3, 4)
    out = pg.zeros(4, device="cpu")
    assert pg.subtract.reduce(pg.asarray(a, device="cpu"), axis=0, out=out) is out
    same(out, np.subtract.reduce(a, axis=0))
    with pytest.raises(ValueError, match="not reorderable"):
        pg.subtract.reduce(pg.asarray(a, device="cpu"), axis=None)
    with pytest.raises(ValueError, match="only supported for binary functions"):
        pg.negative.reduce(pg.asarray(a, device="cpu"))


# ---------------------------------------------------------------- the third hunt: operators, interop, random

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("exponent", [2**64, -(2**63 + 1), 2**65, -(2**70), 2**63])
def test_power_by_python_ints_past_a_long(dtype, exponent):
    x = np.array([3.0, 0.5, -2.0, 1.0], dtype)
    want = quiet(lambda: x ** exponent)
    same(quiet(lambda: pg.asarray(x) ** exponent), want)
    y = pg.asarray(x)
    quiet(y.__ipow__, exponent)
    same(y, want)


def test_integer_power_errors_follow_numpys_order():
    b = pg.asarray([True, False])
    with pytest.raises(TypeError):   # the int64 result cannot be stored into bools, before the sign check
        b **= -3
    with pytest.raises(OverflowError):
        pg.asarray([1, 2]) ** 2**64


def test_format_of_0d_arrays():
    assert f"{pg.arange(3.0).sum():.2f}" == f"{np.arange(3.0).sum():.2f}"
    assert format(pg.asarray(7), ">5") == format(np.asarray(7), ">5")
    assert f"{pg.asarray(2.5 + 1j):.1f}" == f"{np.asarray(2.5 + 1j):.1f}"
    assert format(pg.arange(3)) == str(pg.arange(3))
    with pytest.raises(TypeError):
        format(pg.arange(3), ".2f")


def test_numpy_ufuncs_with_numpy_out_and_where():
    """A NumPy out= takes pygpu's result on the CPU device (test_numpy_out_is_cpu_only: a GPU's)."""
    pa, pb = pg.arange(3.0, device="cpu"), pg.asarray([1.0, 2.0, 3.0], device="cpu")
    out = np.zeros(3)
    assert np.add(pa, pb, out=out) is out
    np.testing.assert_array_equal(out, [1.0, 3.0, 5.0])
    a = np.zeros(3)
    a += pg.arange(3.0, device="cpu")
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])
    out = np.full(3, 9.0)
    np.add(pa, pb, where=np.array([True, False, True]), out=out)
    np.testing.assert_array_equal(out, [1.0, 9.0, 5.0])
    r = np.add(pa, pb, where=pg.asarray([True, False, True], device="cpu"), out=pg.zeros(3, device="cpu"))
    same(r, np.array([1.0, 0.0, 5.0]))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        b = np.zeros(3, dtype=np.int64)
        b += pg.arange(3.0, device="cpu")


def test_numpy_out_is_cpu_only(device):
    """NumPy's ufuncs into a NumPy out=: on a GPU a TypeError naming the call, nothing copied
    to the host implicitly (CuPy refuses a NumPy out= too); pygpu outs take it on every device."""
    pa, pb = pg.arange(3.0, device=device), pg.asarray([1.0, 2.0, 3.0], device=device)
    r = np.add(pa, pb, where=pg.asarray([True, False, True], device=device), out=pg.zeros(3, device=device))
    same(r, np.array([1.0, 0.0, 5.0]))
    if device.kind == "cpu":
        return
    out = np.zeros(3)
    with pytest.raises(TypeError, match="numpy.add with a NumPy out= is NumPy's, on the CPU device only"):
        np.add(pa, pb, out=out)
    with pytest.raises(TypeError, match="numpy.add with a NumPy out="):
        out += pa
    with pytest.raises(TypeError, match="numpy.sum with a NumPy out="):
        np.sum(pa, out=np.zeros(()))
    assert (out == 0).all()


def test_repr_with_numpys_override(device):
    with np.printoptions(override_repr=lambda a: "OVR"):
        assert repr(pg.arange(3, device=device)) == "OVR" == pg.array_repr(pg.arange(3, device=device))
    assert repr(pg.arange(3, device=device)) == f"array([0, 1, 2], device='{device}')"


@pytest.mark.parametrize("order", [">", "<"])
@pytest.mark.parametrize("dtype", ["i2", "i4", "u8", "f4", "f8", "c16"])
def test_other_byte_orders_are_converted(order, dtype, tmp_path):
    x = np.arange(6).reshape(2, 3).astype(order + dtype)
    same(pg.asarray(x), x.astype(dtype))
    y = pg.zeros((2, 3), dtype=dtype)
    y[...] = x
    same(y, x.astype(dtype))
    np.save(tmp_path / "x.npy", x)
    same(pg.load(tmp_path / "x.npy"), x.astype(dtype))


def test_flags_answer_as_numpys():
    a = pg.arange(6).reshape(2, 3).T
    n = np.arange(6).reshape(2, 3).T
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "C", "F", "FORTRAN", "CONTIGUOUS", "WRITEABLE", "W", "ALIGNED",
                "FORC", "FNC", "CARRAY", "FARRAY", "BEHAVED"):
        assert a.flags[key] == n.flags[key], key
    for name in ("c_contiguous", "f_contiguous", "writeable", "aligned", "fnc", "forc"):
        assert getattr(a.flags, name) == getattr(n.flags, name), name
    assert a.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True, "WRITEABLE": True, "OWNDATA": False}
    for x, y in ((a, n), (pg.arange(3), np.arange(3)), (pg.broadcast_to(pg.arange(3), (2, 3)),
                                                        np.broadcast_to(np.arange(3), (2, 3)))):
        assert repr(x.flags) == repr(y.flags) and str(x.flags) == str(y.flags)
    with pytest.raises(KeyError):
        a.flags["NOPE"]


def test_random_legacy_seeds_and_errors():
    import pygpu.random as pr
    for seed in (2**32, -1, 2**64, [[1]], [1, -2]):
        with pytest.raises(ValueError):
            np.random.RandomState(seed)
        with pytest.raises(ValueError):
            pr.RandomState(seed)
    with pytest.raises(TypeError):
        pr.seed(1.5)
    pr.RandomState([1, 2])
    rs = pr.RandomState(0)
    r = rs.random_integers(1, 3, size=2000).get()
    assert r.min() == 1 and r.max() == 3
    assert rs.tomaxint(5).dtype == np.int64 and (rs.tomaxint(5).get() >= 0).all()
    with pytest.raises(ValueError, match="shape mismatch"):
        pr.default_rng(0).integers([0, 1, 2], 5, size=(2,))


def test_multinomial_of_several_distributions():
    import pygpu.random as pr
    for n, pvals, size in (([10, 20], [[0.2, 0.8], [0.5, 0.5]], None), (10, [[0.2, 0.8], [0.5, 0.5]], (3, 2)),
                           ([[5], [6]], [[0.2, 0.8], [0.5, 0.5]], None), (7, [0.2, 0.3, 0.5], 4)):
        got = pr.default_rng(0).multinomial(n, pvals, size=size)
        want = np.random.default_rng(0).multinomial(n, pvals, size=size)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(pg.asnumpy(got).sum(-1), np.broadcast_to(n, want.shape[:-1]))
    draws = pg.asnumpy(pr.default_rng(1).multinomial(1000, [[0.2, 0.8], [0.5, 0.5]], size=(4000, 2)))
    np.testing.assert_allclose(draws.mean(axis=0), [[200, 800], [500, 500]], atol=2.0)   # ~ 6 standard errors


# ---------------------------------------------------------------- the fourth hunt: statistics, polynomials, linalg

def test_polynomials_keep_complex_and_trim_as_numpy():
    p = np.array([2, -1, 0.5, 3]) + 1j
    same(pg.polyint(pg.asarray(p)), np.polyint(p))
    same(pg.polyint(pg.asarray([1.0, 2.0]), k=1j), np.polyint([1.0, 2.0], k=1j))
    for a, b in (([1, 2], [0, 1, 2]), ([1, 2], []), ([0, 0], [1]), ([0, 0, 1.5], [2])):
        same(pg.polymul(a, b), np.polymul(a, b))
    for dt in (np.float32, np.int16, np.complex64):   # an empty factor is a zero of its own dtype
        for a, b in ((np.zeros(0, dt), np.arange(3, dtype=dt)), (np.arange(3, dtype=dt), np.zeros(0, dt)),
                     (np.zeros(0, dt), np.zeros(0, dt)), (dt(2), np.zeros(0, dt))):
            same(pg.polymul(pg.asarray(a), pg.asarray(b)), np.polymul(a, b))
    import numpy.polynomial.polynomial as npoly
    import pygpu.polynomial.polynomial as ppoly
    for x, r in (([0, 5], [[1, 2], [3, 4]]), ([0.5, 2], [1, 2, 3]), ([[1, 2], [3, 4]], [1, 2])):
        for tensor in (True, False):
            try:
                want = npoly.polyvalfromroots(np.asarray(x), np.asarray(r), tensor=tensor)
            except ValueError:
                with pytest.raises(ValueError):
                    ppoly.polyvalfromroots(pg.asarray(x), pg.asarray(r), tensor=tensor)
                continue
            same(ppoly.polyvalfromroots(pg.asarray(x), pg.asarray(r), tensor=tensor), want)


def test_histograms_of_complex_weights_and_bools():
    a, w = [0.1, 0.2, 0.7], [1 + 1j, 2, 1 - 2j]
    np.testing.assert_allclose(pg.asnumpy(pg.histogram(pg.asarray(a), bins=2, weights=pg.asarray(w), density=True)[0]),
                               np.histogram(a, bins=2, weights=w, density=True)[0])
    b = np.array([True, False, True, True])
    for kw in ({"bins": 4}, {"bins": 4, "density": True}, {"bins": "auto"}):
        got, want = quiet(pg.histogram, pg.asarray(b), **kw), quiet(np.histogram, b, **kw)
        np.testing.assert_allclose(pg.asnumpy(got[0]), want[0])
        same(got[1], want[1])
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        pg.histogram_bin_edges(pg.asarray(b), bins=4)


def test_histograms_of_complex_samples():
    """NumPy bins complex samples by its complex order (edges from its complex linspace); the
    'auto' estimator's percentile refuses them."""
    z, x = np.array([1 + 1j, 2, 3 - 1j, 2.5 + 0.5j]), np.array([1.0, 2.0, 3.0, 4.0])
    for f in (lambda m: m.histogram_bin_edges(m.asarray(z), 3),
              lambda m: m.histogram_bin_edges(m.asarray(z), 3, range=(0, 4)),
              lambda m: m.histogram(m.asarray(z), 2),
              lambda m: m.histogram(m.asarray(z), [0, 1, 2, 5], weights=m.asarray(x)),
              lambda m: m.histogram2d(m.asarray(z), m.asarray(x), 2),
              lambda m: m.histogramdd(m.asarray(z.reshape(2, 2)), 2)):
        got, want = quiet(f, pg), quiet(f, np)
        got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
        for g, w in zip(got, want):
            for gi, wi in (zip(g, w) if isinstance(w, list) else ((g, w),)):
                same(gi, wi)
    with pytest.raises(TypeError, match="real numbers"):
        pg.histogram_bin_edges(pg.asarray(z), "auto")


def test_nan_statistics_of_infinities_and_given_means():
    for x in ([-np.inf], [1.0, np.inf], [[2.5, -np.inf, 7.0]], [np.inf, -np.inf, 1.0], [1.0, np.nan, np.inf, 3.0]):
        x = np.array(x)
        for axis in (None, 0, -1):
            same(quiet(pg.nanmedian, pg.asarray(x), axis=axis), quiet(np.nanmedian, x, axis=axis))
    a = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 5.0]])
    for f in ("nanvar", "nanstd"):
        for ddof in (0, 1, 2):
            mean = np.nanmean(a, axis=1, keepdims=True)
            same(quiet(getattr(pg, f), pg.asarray(a), axis=1, keepdims=True, ddof=ddof, mean=pg.asarray(mean)),
                 quiet(getattr(np, f), a, axis=1, keepdims=True, ddof=ddof, mean=mean))


def test_diff_prepend_shapes_and_interp_of_complex_points():
    a = np.arange(6.0).reshape(2, 3)
    for kw in ({"prepend": np.ones(3), "axis": 0}, {"prepend": np.ones(3), "axis": 1}, {"prepend": 0, "axis": 0},
               {"append": np.ones((2, 1)), "axis": 1}):
        try:
            want = np.diff(a, **kw)
        except Exception as e:   # noqa: BLE001 (the kind is compared)
            with pytest.raises(type(e)):
                pg.diff(pg.asarray(a), **kw)
            continue
        same(pg.diff(pg.asarray(a), **kw), want)
    with pytest.raises(TypeError):
        pg.interp(pg.asarray([1 + 1j]), pg.asarray([0.0, 2.0]), pg.asarray([0.0, 10.0]))
    # with a period NumPy makes float64 arrays of complex points: their real parts, with a ComplexWarning
    z, zp = np.array([0.5 + 1j, 2 - 1j]), np.array([0, 1j, 2])
    for x, xp in ((z, [0, 1]), ([0.5, 2.5], zp), (z, zp)):
        with pytest.warns(np.exceptions.ComplexWarning):
            want = np.interp(x, xp, [1, 2, 5][:len(xp)], period=3)
        with pytest.warns(np.exceptions.ComplexWarning):
            got = pg.interp(*[pg.asarray(v) for v in (x, xp)], [1, 2, 5][:len(xp)], period=3)
        same(got, want)
    for x, xp in ((z, [0, 1]), ([0.5], zp), ([0.5], [0, 1j])):   # without: NumPy's TypeErrors and their words
        with pytest.raises(TypeError) as e:
            np.interp(x, xp, [1, 2, 5][:len(xp)])
        with pytest.raises(TypeError, match=re.escape(str(e.value))):
            pg.interp(*[pg.asarray(v) if isinstance(v, np.ndarray) else v for v in (x, xp)], [1, 2, 5][:len(xp)])


def test_sums_start_from_positive_zero_as_numpys():
    for n in (1, 2, 9, 1000):
        x = np.full(n, -0.0)
        for got, want in ((pg.sum(pg.asarray(x)), np.sum(x)), (pg.mean(pg.asarray(x)), np.mean(x)),
                          (pg.asarray(x.reshape(1, n)).sum(axis=1), x.reshape(1, n).sum(axis=1)),
                          (pg.nansum(pg.asarray(x)), np.nansum(x)), (pg.cumsum(pg.asarray(x)), np.cumsum(x)),
                          (pg.fuse(lambda v: (v * 1.0).sum())(pg.asarray(x)), np.sum(x * 1.0))):
            np.testing.assert_array_equal(np.signbit(pg.asnumpy(got)), np.signbit(want))
    for ord_ in (-1, -2, -0.5, 1, 2, np.inf):
        same(pg.linalg.norm(pg.zeros(0), ord=ord_), quiet(np.linalg.norm, np.zeros(0), ord=ord_))


def test_complex_small_integer_powers_of_infinities():
    z = np.array([complex(np.inf, 1), complex(1, np.inf), complex(-np.inf, 2), 2 + 3j])
    for n in (1, 2, 3):
        same(quiet(pg.power, pg.asarray(z), n), quiet(np.power, z, n))
        same(quiet(pg.power, pg.asarray(z), pg.asarray(np.full(4, n, np.complex128))),
             quiet(np.power, z, np.full(4, n, np.complex128)))


def test_cond_of_matrices_with_nans():
    """NaN for a matrix with NaNs, as NumPy with a LAPACK whose SVD returns NaNs (with OpenBLAS'
    that raises LinAlgError instead, NumPy raises; pygpu gives the NaN either way)."""
    a = np.array([[[1.0, 2.0], [3.0, 4.0]], [[np.nan, 1.0], [0.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]]])
    for p in (None, 2, -2, 1, -1, np.inf, "fro"):
        got = quiet(pg.linalg.cond, pg.asarray(a), p)
        try:
            want = quiet(np.linalg.cond, a, p)
        except np.linalg.LinAlgError:
            want = np.array([quiet(np.linalg.cond, a[0], p), np.nan, quiet(np.linalg.cond, a[2], p)])
        same(got, want)


def test_cumulative_of_0d_and_legacy_correlate_modes():
    for f in ("cumulative_sum", "cumulative_prod"):
        for kw in ({"axis": 0}, {"axis": -1}, {"axis": 0, "include_initial": True}, {}):
            same(getattr(pg, f)(pg.asarray(2.5), **kw), getattr(np, f)(np.asarray(2.5), **kw))
    for mode in (0, 1, 2, "same"):
        same(pg.correlate(pg.asarray([1, 2, 3]), pg.asarray([0, 1]), mode=mode), np.correlate([1, 2, 3], [0, 1], mode=mode))
        same(pg.convolve(pg.asarray([1, 2, 3]), pg.asarray([0, 1]), mode=mode), np.convolve([1, 2, 3], [0, 1], mode=mode))
    with pytest.raises(ValueError):
        pg.convolve(pg.asarray([1, 2]), pg.asarray([1]), mode=5)


def test_cuda_jit_divmod_as_python():
    @pg.cuda.jit
    def kernel(x, y, q, r):
        i = pg.cuda.grid(1)
        if i < x.size:
            q[i], r[i] = divmod(x[i], y[i])

    for x, y in ((np.array([7, -7, 9, 0, -9]), np.array([2, 2, -4, 3, -4])),
                 (np.array([7.5, -7.5, 2.0, -0.0]), np.array([2.0, 2.0, -0.5, 3.0]))):
        q, r = pg.zeros(x.size, dtype=x.dtype), pg.zeros(x.size, dtype=x.dtype)
        kernel[1, 32](pg.asarray(x), pg.asarray(y), q, r)
        want_q, want_r = np.divmod(x, y)
        same(q, want_q)
        same(r, want_r)


# ---------------------------------------------------------------- the review of this session's new paths

def test_vectorize_int_literals_past_64_bits_refused():
    for body in (lambda x: x < 2**100, lambda x: x + 2**100, lambda x: x - 3**60 * 3**20):
        with pytest.raises(pg.CompileError, match="does not fit in 64 bits"):
            pg.vectorize(body)(pg.asarray([0, 5, -3]))
    same(pg.vectorize(lambda x: x + 2**62)(pg.asarray([0, 5])), np.array([0, 5]) + 2**62)


@pytest.mark.parametrize("f", ["sum", "prod", "max", "min", "cumsum", "cumprod"])
def test_reductions_compute_in_a_wider_out_dtype(f):
    b = np.array([1e8, 1, 1, 1, 3], np.float32)
    shape = () if f in ("sum", "prod", "max", "min") else (5,)
    out, want = pg.zeros(shape, dtype=np.float64), np.zeros(shape)
    assert getattr(pg, f)(pg.asarray(b), out=out) is out
    same(out, getattr(np, f)(b, out=want))
    o = pg.zeros(5)
    pg.add.accumulate(pg.asarray(b), out=o)
    same(o, np.add.accumulate(b, out=np.zeros(5)))
    with pytest.raises(TypeError):
        pg.bitwise_or.reduce(pg.asarray([1, 2, 4]), out=pg.zeros(()))


def test_where_casts_the_result_into_out_and_masks_power_exponents():
    u = np.array([3, 4], np.uint64)
    for ot in (np.int8, np.int64, np.float32):
        want = np.zeros(2, ot)
        np.add(u, u, out=want, where=[True, False])
        got = pg.zeros(2, dtype=ot)
        pg.add(pg.asarray(u), pg.asarray(u), out=got, where=pg.asarray([True, False]))
        same(got, want)
    p = np.array([2, -1])
    want = np.zeros(2, np.int64)
    np.power(p, p, out=want, where=[True, False])
    got = pg.zeros(2, dtype=np.int64)
    pg.power(pg.asarray(p), pg.asarray(p), out=got, where=[True, False])
    same(got, want)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        pg.add(pg.asarray([1.5]), 1, where=[True], out=pg.zeros(1, dtype=np.int64))


def test_numpy_operands_in_the_other_byte_order_in_ufuncs():
    be = np.arange(4, dtype=">f8")
    same(pg.arange(4.0) + be, np.arange(4.0) + be)
    same(pg.sqrt(be), np.sqrt(be))
    same(np.arange(4, dtype=">i4") + pg.arange(4), np.arange(4, dtype=">i4") + np.arange(4))
    same(pg.where(pg.asarray([True, False, True, False]), be, 0.5), np.where([True, False, True, False], be, 0.5))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64"])
def test_power_of_a_scalar_half_is_numpys_sqrt_path(device, dtype):
    """np.power(x, 0.5) with a scalar exponent: NumPy's float32/float64 loops take it as sqrt(x)
    ((-0.0) ** 0.5 is -0.0, (-inf) ** 0.5 nan), an array of exponents as pow (+0.0, inf); the
    float16 loop always as pow; an integer base through the float64 loop (pygpu gave pow's +0.0
    and inf for the scalar)."""
    x = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, 2.0, 1e-3, -4.0, 0.25] * 3)
    x = x.astype(dtype) if dtype != "int64" else np.array([0, 2, 3, 16, -4, 7] * 4)
    dx = pg.asarray(x, device=device)
    with np.errstate(invalid="ignore"):
        for e in (0.5, np.float64(0.5), np.float32(0.5), np.full(x.shape, 0.5, x.dtype if dtype != "int64" else "f8")):
            want = np.power(x, e)
            de = pg.asarray(e, device=device) if isinstance(e, np.ndarray) else e
            for got in (pg.power(dx, de), np.power(dx, de)):
                got = pg.asnumpy(got)
                assert got.dtype == want.dtype, (e, got.dtype, want.dtype)
                np.testing.assert_array_equal(got, want)
                keep = ~np.isnan(want)   # (a NaN's sign is the hardware's: x86's sqrt(-4) is -nan, a GPU's +nan)
                np.testing.assert_array_equal(np.signbit(got)[keep], np.signbit(want)[keep])
