"""Reductions against NumPy: sum prod max min amax amin any all mean var std argmax argmin
count_nonzero ptp, the nan* family, average, ufunc.reduce; every dtype, layouts (contiguous,
transposed, negative strides, broadcast, 0-d, empty), axes (int, tuple, None, negative),
keepdims, dtype=, out=, initial=, where=, ddof/correction; NumPy's result dtypes and errors; the
pairwise accuracy of float sums; sizes that take the parallel paths of the CPU backend."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, numpy_and_pygpu, same_error

RNG = np.random.default_rng(7)


def values(dt, shape, nan=False, small=False):
    """Values of dtype dt: integers in a small range (so products stay exact enough), floats and
    complex in [-3, 3), optionally with NaNs."""
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = RNG.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -4
        v = RNG.integers(lo, 5 if small else 100, n).astype(dt)
    else:
        v = RNG.uniform(-3, 3, n)
        if small:
            v = RNG.uniform(0.5, 1.5, n)
        if dt.kind == "c":
            v = v + 1j * RNG.uniform(-3, 3, n)
        v = v.astype(dt)
        if nan and n:
            v[RNG.integers(0, n, max(1, n // 5))] = np.nan
    return v.reshape(shape)


def layouts(x):
    """(name, NumPy view) pairs of x in several layouts, same values where the shape allows."""
    out = [("contiguous", x)]
    if x.ndim >= 2:
        out.append(("transposed", np.ascontiguousarray(x.T).T))
    if x.ndim >= 1 and x.shape[-1] > 1:
        out.append(("negative", np.ascontiguousarray(x[..., ::-1])[..., ::-1]))
        big = np.concatenate([x, x], axis=-1)
        out.append(("strided", big[..., ::2]))
    return out


def to_device(x, device):
    with device:
        return pygpu.asarray(x)


def compare(actual, expected, scale=1.0, exact=False):
    """Values, dtype and shape of a pygpu result against NumPy's, with a tolerance for floats
    (times `scale`: long scans summed in another order differ by more than a few ulp)."""
    if isinstance(actual, pygpu.ndarray):
        actual = actual.get()
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    kind = expected.dtype.kind
    if exact or kind in "biu":
        np.testing.assert_array_equal(actual, expected)
        return
    size = expected.dtype.itemsize // (2 if kind == "c" else 1)
    rtol = {2: 4e-3, 4: 2e-5, 8: 1e-12}[size] * scale
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol, equal_nan=True)


SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 5), (4, 0, 3)]


def axes_for(ndim):
    out = [None]
    if ndim >= 1:
        out += [0, -1]
    if ndim >= 2:
        out += [(0, 1), (1,), ()]
    if ndim >= 3:
        out += [(0, 2), (2, 0, 1)]
    return out


# ------------------------------------------------------------------ sum, prod, max, min, any, all

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all"])
def test_reductions_every_dtype(device, dt, name):
    for shape in SHAPES:
        x0 = values(dt, shape, small=name == "prod")
        for layout, x in layouts(x0):
            d = to_device(x, device)
            for axis in axes_for(x.ndim):
                for keepdims in (False, True):
                    try:
                        expected = getattr(np, name)(x, axis=axis, keepdims=keepdims)
                    except ValueError:  # max/min of an empty reduction
                        same_error(lambda: getattr(np, name)(x, axis=axis, keepdims=keepdims),
                                   lambda: getattr(pygpu, name)(d, axis=axis, keepdims=keepdims))
                        continue
                    got = getattr(pygpu, name)(d, axis=axis, keepdims=keepdims)
                    assert got.device == device
                    compare(got, expected)
                    # the method agrees
                    compare(getattr(d, name)(axis=axis, keepdims=keepdims), expected)


@pytest.mark.parametrize("dt", DTYPES)
def test_sum_result_dtypes(dt):
    x = values(dt, (5,))
    d = pygpu.asarray(x)
    for name in ("sum", "prod", "cumsum", "cumprod", "max", "mean", "var", "std", "argmax", "any"):
        if name in ("var", "std", "mean") and dt == "bool":
            continue  # NumPy computes, but with a bool subtract in var; mean works below
        assert getattr(pygpu, name)(d).dtype == getattr(np, name)(x).dtype, name
    assert pygpu.mean(d).dtype == np.mean(x).dtype
    assert pygpu.add.reduce(d).dtype == np.add.reduce(x).dtype
    assert pygpu.add.accumulate(d).dtype == np.add.accumulate(x).dtype


@pytest.mark.parametrize("dt", ["int8", "uint16", "int32", "float16", "float32", "complex64"])
def test_dtype_argument(device, dt):
    x = values(dt, (4, 6))
    d = to_device(x, device)
    for target in ("int64", "float32", "float64", "complex128", "uint8"):
        if np.dtype(dt).kind == "c" and np.dtype(target).kind != "c":
            continue
        compare(pygpu.sum(d, axis=1, dtype=target), np.sum(x, axis=1, dtype=target))
        compare(pygpu.prod(d, axis=0, dtype=target), np.prod(x, axis=0, dtype=target))
    if np.dtype(dt).kind != "c":
        compare(pygpu.mean(d, axis=0, dtype="float32"), np.mean(x, axis=0, dtype="float32"))


def test_integer_sums_wrap_like_numpy(device):
    x = np.array([120, 100, 90], dtype=np.int8)
    d = to_device(x, device)
    compare(pygpu.sum(d, dtype=np.int8), np.sum(x, dtype=np.int8))
    compare(pygpu.prod(d, dtype=np.int8), np.prod(x, dtype=np.int8))
    big = np.array([2 ** 63 - 1, 2 ** 63 - 1], dtype=np.int64)
    compare(pygpu.sum(to_device(big, device)), np.sum(big))
    u = np.array([2 ** 64 - 1, 5], dtype=np.uint64)
    compare(pygpu.sum(to_device(u, device)), np.sum(u))
    compare(pygpu.max(to_device(u, device)), np.max(u))
    compare(pygpu.min(to_device(u, device)), np.min(u))


# ------------------------------------------------------------------ NaN, complex ordering, ties

@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_nan_propagation(device, dt):
    x = values(dt, (6, 9), nan=True)
    x[2] = np.nan  # an all-NaN row
    d = to_device(x, device)
    for axis in (None, 0, 1):
        for name in ("max", "min", "argmax", "argmin", "sum", "mean", "nansum", "nanmax", "nanmin", "nanmean",
                     "nanprod"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                expected = getattr(np, name)(x, axis=axis)
            compare(getattr(pygpu, name)(d, axis=axis), expected)


def test_argmin_first_of_ties_and_nan(device):
    x = np.array([[3, 1, 1, 0, 0], [2, 2, 2, 2, 2]], dtype=np.float64)
    d = to_device(x, device)
    for name in ("argmin", "argmax"):
        for axis in (None, 0, 1):
            compare(getattr(pygpu, name)(d, axis=axis), getattr(np, name)(x, axis=axis))
    y = np.array([1.0, np.nan, 0.0, np.nan])
    compare(pygpu.argmin(to_device(y, device)), np.argmin(y))
    compare(pygpu.argmax(to_device(y, device)), np.argmax(y))
    z = np.array([1 + 1j, 1 + 2j, 2 + 0j, 2 - 1j, complex(np.nan, 1), 0j])
    for name in ("argmin", "argmax", "max", "min"):
        compare(getattr(pygpu, name)(to_device(z, device)), getattr(np, name)(z))
        compare(getattr(pygpu, name)(to_device(z[:4], device)), getattr(np, name)(z[:4]))


# lengths about the CPU leaves (128 for pairwise sums, 2048 where the order cannot change the
# result) and the parallel split
LONG_ROWS = [127, 128, 129, 2047, 2048, 2049, 4097, 70001]


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float16",
                                "float32", "float64", "complex64", "complex128", "bool"])
def test_order_free_reductions_over_long_rows(device, dt):
    """argmin/argmax (the first best: ties planted before and after it, NaN first when present),
    max/min, any/all and the integer sums, products and bitwise reductions, exact against NumPy
    over rows about every leaf length, contiguous, strided, as rows of a matrix and as columns."""
    rng = np.random.default_rng(11)
    dtype = np.dtype(dt)
    for n in LONG_ROWS:
        x = values(dt, (n,), small=dtype.kind in "iu")
        if dtype.kind != "b":
            lo, hi = (x.min(), x.max()) if dtype.kind != "c" else (x[np.argmin(x)], x[np.argmax(x)])
            for best, k in ((lo, 3), (hi, 3)):
                x[np.sort(rng.choice(n, size=min(k, n), replace=False))] = best   # ties of the best
        cases = [x, np.concatenate([x, x])[::2], x.reshape(1, n), np.stack([x, x[::-1]])]
        if dtype.kind in "fc":
            y = x.copy()
            y[rng.integers(n // 2, n, 2)] = np.nan
            cases.append(y)
        for v in cases:
            d = to_device(v, device)
            for axis in [None] + list(range(v.ndim)):
                names = ["argmin", "argmax", "max", "min", "any", "all"]
                if dtype.kind in "iub":
                    names += ["sum", "prod"]
                for name in names:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        expected = getattr(np, name)(v, axis=axis)
                    compare(getattr(pygpu, name)(d, axis=axis), expected, exact=name != "prod")
                if dtype.kind in "iu":
                    for ufunc in ("bitwise_and", "bitwise_or", "bitwise_xor"):
                        compare(getattr(pygpu, ufunc).reduce(d, axis=axis),
                                getattr(np, ufunc).reduce(v, axis=axis))


def test_argmax_layouts_and_keepdims(device):
    x = values("float32", (4, 5, 6))
    for layout, v in layouts(x) + [("transposed3", np.transpose(x, (2, 0, 1)))]:
        d = to_device(v, device)
        for axis in (None, 0, 1, 2, -1):
            for keepdims in (False, True):
                for name in ("argmax", "argmin"):
                    compare(getattr(pygpu, name)(d, axis=axis, keepdims=keepdims),
                            getattr(np, name)(v, axis=axis, keepdims=keepdims))
    out = pygpu.zeros(5, dtype=np.int32, device=device)
    r = pygpu.argmax(to_device(x[0].T, device), axis=0, out=out)
    assert r is out
    compare(out, np.argmax(x[0].T, axis=0).astype(np.int32))


def test_nanargmin(device):
    x = np.array([[np.nan, 2.0, 1.0], [3.0, np.nan, 4.0]])
    d = to_device(x, device)
    for axis in (None, 0, 1):
        compare(pygpu.nanargmin(d, axis=axis), np.nanargmin(x, axis=axis))
        compare(pygpu.nanargmax(d, axis=axis), np.nanargmax(x, axis=axis))
    bad = np.array([[np.nan, np.nan], [1.0, 2.0]])
    same_error(lambda: np.nanargmin(bad, axis=1), lambda: pygpu.nanargmin(to_device(bad, device), axis=1))
    compare(pygpu.nanargmin(to_device(bad, device), axis=0), np.nanargmin(bad, axis=0))
    ints = np.array([3, 1, 2])
    compare(pygpu.nanargmax(to_device(ints, device)), np.nanargmax(ints))


# ------------------------------------------------------------------ mean, var, std

@pytest.mark.parametrize("dt", DTYPES)
def test_mean_var_std(device, dt):
    if dt == "bool":
        x = values(dt, (4, 5))
        compare(pygpu.mean(to_device(x, device), axis=0), np.mean(x, axis=0))
        return
    for shape in [(7,), (3, 4), (2, 3, 5)]:
        x0 = values(dt, shape)
        for layout, x in layouts(x0):
            d = to_device(x, device)
            for axis in axes_for(x.ndim):
                if axis == ():
                    continue
                compare(pygpu.mean(d, axis=axis), np.mean(x, axis=axis))
                compare(d.mean(axis=axis, keepdims=True), np.mean(x, axis=axis, keepdims=True))
                for ddof in (0, 1):
                    compare(pygpu.var(d, axis=axis, ddof=ddof), np.var(x, axis=axis, ddof=ddof))
                    compare(d.std(axis=axis, ddof=ddof), np.std(x, axis=axis, ddof=ddof))


def test_var_correction_and_ddof_errors(device):
    x = values("float64", (5, 6))
    d = to_device(x, device)
    compare(pygpu.var(d, axis=1, correction=1), np.var(x, axis=1, correction=1))
    compare(pygpu.std(d, correction=2), np.std(x, correction=2))
    same_error(lambda: np.var(x, ddof=1, correction=1), lambda: pygpu.var(d, ddof=1, correction=1))
    # more degrees of freedom than elements: inf or NaN as NumPy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        compare(pygpu.var(d[:1], axis=0, ddof=1), np.var(x[:1], axis=0, ddof=1))
        compare(pygpu.var(d, axis=0, ddof=10), np.var(x, axis=0, ddof=10))
        compare(pygpu.mean(d[:, :0], axis=1), np.mean(x[:, :0], axis=1))


def test_var_is_accurate_with_a_large_offset(device):
    x = (1e8 + RNG.uniform(0, 1, 100000)).astype(np.float64)
    d = to_device(x, device)
    np.testing.assert_allclose(float(pygpu.var(d)), np.var(x), rtol=1e-6)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "int32"])
def test_nan_moments(device, dt):
    x = values(dt, (6, 7), nan=True)
    d = to_device(x, device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, 1):
            compare(pygpu.nanmean(d, axis=axis), np.nanmean(x, axis=axis))
            compare(pygpu.nanvar(d, axis=axis, ddof=1), np.nanvar(x, axis=axis, ddof=1))
            compare(pygpu.nanstd(d, axis=axis), np.nanstd(x, axis=axis))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_mean_divides_as_numpy(device, dt):
    """NumPy divides a complex sum by intp(count): Smith's complex division by (n + 0j), so an
    infinite part makes the other part NaN, -0.0 becomes +0.0, and the parts are multiplied by 1 / n
    (1 ulp from a division for some sums). Bit for bit, with NaN and signed zeros in place."""
    inf, nan = np.inf, np.nan
    cases = [[complex(inf, 1), 1 + 1j], [complex(inf, inf), 1], [complex(1, inf), complex(1, -inf)],
             [complex(inf, 0), complex(-inf, 0)], [complex(-0.0, -0.0)], [complex(-0.0, 1), complex(-0.0, 2)],
             [complex(nan, 1), 2], [5 + 7j, 0, 0], [10 - 5j, 0, 0, 0, 0, 0]]   # exact sums: 5 / 3 != 5 * (1 / 3)
    rng = np.random.default_rng(5)
    cases.append(list(rng.standard_normal(999) + 1j * rng.standard_normal(999)))
    ways = [(lambda m, a, axis: m.mean(a, axis=axis)), (lambda m, a, axis: m.nanmean(a, axis=axis)),
            (lambda m, a, axis: m.mean(a, axis=axis, where=m.asarray(np.arange(a.size) % 4 != 3)))]
    for values, way in ((v, w) for v in cases for w in ways):
        x = np.array(values, dtype=dt)
        for axis in (None, 0):
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = np.asarray(way(np, x, axis))
                got = pygpu.asnumpy(way(pygpu, pygpu.asarray(x, device=device), axis))
            assert got.dtype == want.dtype
            if len(values) < 100:   # exact sums in any order: the division is what is compared
                for part in ("real", "imag"):
                    g, w = getattr(got, part), getattr(want, part)
                    assert np.array_equal(g, w, equal_nan=True) and np.array_equal(np.signbit(g), np.signbit(w)), \
                        (values, axis, got, want)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.complex64 else 1e-13)
    x = np.array([[complex(inf, 1), 2j], [1, 3]], dtype=dt)   # along each axis, kept dims
    for axis in (0, 1):
        with np.errstate(invalid="ignore"):
            want = np.mean(x, axis=axis, keepdims=True)
        got = pygpu.asnumpy(pygpu.mean(pygpu.asarray(x, device=device), axis=axis, keepdims=True))
        assert np.array_equal(got, want, equal_nan=True) and np.array_equal(np.isnan(got.imag), np.isnan(want.imag))


def test_mean_with_a_count_divides_the_sum_as_numpy(device):
    """mean(where=) and nanmean are NumPy's sum over its count: the sum may overflow, -0.0 + 0.0
    is +0.0, and the division rounds once (a running mean answered 1e308, -0.0, 1 ulp off)."""
    for values in ([1e308, 1e308], [-0.0], [5.0, 0, 0], [np.inf, 1.0, np.nan], [2.0, np.nan, 1e308, 1e308]):
        for dt in (np.float32, np.float64):
            x = np.array(values, dtype=dt)
            w = np.ones(len(values), bool)
            with np.errstate(all="ignore"):
                pairs = [(np.mean(x, where=w), pygpu.mean(pygpu.asarray(x, device=device), where=pygpu.asarray(w))),
                         (np.nanmean(x), pygpu.nanmean(pygpu.asarray(x, device=device)))]
            for want, got in pairs:
                got = pygpu.asnumpy(got)
                assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True) and \
                    np.signbit(got) == np.signbit(want), (values, dt, got, want)


@pytest.mark.parametrize("f", ["var", "std", "nanvar", "nanstd"])
def test_var_keeps_a_complex_dtype(f):
    # NumPy sums |x - mean|^2 with dtype=, so a complex dtype= gives a complex result (0 imaginary)
    for x in (np.array([1.0, 2, 4]), np.array([1, 2, 4]), np.array([1 + 1j, 2, 4j])):
        for dtype in (np.complex128, np.complex64):
            want, got = numpy_and_pygpu(lambda m: getattr(m, f)(m.asarray(x), dtype=dtype))
            assert got[:2] == want[:2]
            np.testing.assert_allclose(got[2], want[2], rtol=1e-6)
    # a real dtype= drops a complex input's imaginary part from the mean only: 1.888889, not 1.555556
    x = np.array([1 + 1j, 2, 4])
    want, got = numpy_and_pygpu(lambda m: getattr(m, f)(m.asarray(x), dtype=np.float32))
    assert got[:2] == want[:2]
    np.testing.assert_allclose(got[2], want[2], rtol=1e-6)


@pytest.mark.parametrize("f", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
def test_moments_divide_in_a_wider_out(f):
    # NumPy sums into out and divides there: a float64 out of float32 data is float64 throughout
    x = np.array([[0.1, 0.7], [0.2, 0.1], [0.3, 1.3]], dtype=np.float32)
    for data, out_dtype, rtol in ((x, np.float64, 1e-14), (x.astype(np.float16), np.float64, 1e-12),
                                  (x, np.complex128, 1e-14)):
        want, got = np.zeros(2, out_dtype), pygpu.zeros(2, dtype=out_dtype)
        getattr(np, f)(data, axis=0, out=want)
        assert getattr(pygpu, f)(pygpu.asarray(data), axis=0, out=got) is got
        np.testing.assert_allclose(pygpu.asnumpy(got), want, rtol=rtol, atol=0)


def test_float16_sums_round_to_float16_as_numpys():
    # where NumPy's intermediate sum is float16 it overflows to inf (var's sum of squares 72000)
    x = np.tile(np.array([-3, 3], np.float16), 4000)
    y = np.array([60000, 60000, np.nan], np.float16)
    cases = [lambda m: m.var(m.asarray(x)), lambda m: m.std(m.asarray(x), axis=0),
             lambda m: m.nanvar(m.asarray(x)), lambda m: m.nanstd(m.asarray(x), ddof=1),
             lambda m: m.nanmean(m.asarray(y)), lambda m: m.mean(m.asarray(y[:2]), dtype=np.float16),
             lambda m: m.var(m.asarray(x.astype(np.float32)), dtype=np.float16),
             lambda m: m.mean(m.asarray(y[:2])),   # plain mean sums float16 in float32: 60000
             lambda m: m.nanvar(m.asarray(np.array([1, 2, np.nan, 4.5], np.float16)), dtype=np.float32)]
    for f in cases:
        want, got = numpy_and_pygpu(f)
        assert got[:2] == want[:2]
        np.testing.assert_allclose(got[2], want[2], rtol=1e-6)


def test_integer_dtypes_numpy_refuses():
    a = np.arange(12.0).reshape(3, 4)
    for f in ("nanmean", "nanvar", "nanstd"):
        same_error(lambda: getattr(np, f)(a, dtype=np.int64),
                   lambda: getattr(pygpu, f)(pygpu.asarray(a), dtype=np.int64))
    for x in (a, a.astype(np.int64)):
        for dtype in (np.int64, np.uint8, np.bool_):   # sqrt's output (float64, float16) cannot be cast back
            same_error(lambda: np.std(x, axis=0, dtype=dtype), lambda: pygpu.std(pygpu.asarray(x), axis=0, dtype=dtype))
        # a full reduction is NumPy's scalar: its sqrt is cast back, truncated
        want, got = numpy_and_pygpu(lambda m: m.std(m.asarray(x), dtype=np.int64))
        assert got == want
    want, got = numpy_and_pygpu(lambda m: m.var(m.asarray(a), axis=0, dtype=np.int64))
    assert got == want


def _warned(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    return [(x.category, str(x.message), x.filename) for x in w if "encountered in" not in str(x.message)]


@pytest.mark.parametrize("case", [
    lambda m: m.mean(m.zeros(0)), lambda m: m.mean(m.zeros((2, 0)), axis=1), lambda m: m.mean(m.zeros((2, 0)), axis=0),
    lambda m: m.zeros((0, 3)).mean(), lambda m: m.var(m.ones(1), ddof=1), lambda m: m.var(m.zeros(0)),
    lambda m: m.std(m.ones((2, 3)), ddof=3, axis=0), lambda m: m.std(m.ones((2, 3)), ddof=2, axis=1),
    lambda m: m.nanmean(m.zeros(0)), lambda m: m.nanmean(m.zeros((2, 0)), axis=1),
    lambda m: m.nanmean(m.zeros((0, 2), dtype=np.int32), axis=1), lambda m: m.nanvar(m.zeros((3, 2)), axis=0, ddof=3),
    lambda m: m.nanstd(m.zeros(0)), lambda m: m.nanvar(m.asarray([np.nan, 1.0], dtype=np.float16)),
    lambda m: m.nanmean(m.asarray([np.nan, np.nan], dtype=np.float16)), lambda m: m.average(m.zeros(0)),
    lambda m: m.average(m.zeros((0, 2)), axis=0), lambda m: m.median(m.zeros(0)),
    lambda m: m.median(m.zeros((2, 0)), axis=1), lambda m: m.nanmedian(m.zeros(0)),
    lambda m: m.nanmedian(m.zeros((3, 0)), axis=1), lambda m: m.nanpercentile(m.zeros(0), 50),
    lambda m: m.nanquantile(m.zeros((0, 2)), [0.5], axis=0),
])
def test_statistics_warn_as_numpy_at_the_caller(case):
    # NumPy's own RuntimeWarnings of its statistics (not the floating-point ones), pointing at the caller
    want = [(c, m) for c, m, _ in _warned(lambda: case(np))]
    got = _warned(lambda: case(pygpu))
    assert [(c, m) for c, m, _ in got] == want
    assert all(f == __file__ for _, _, f in got)


# ------------------------------------------------------------------ out=, initial=, where=

def test_out_argument(device):
    x = values("float32", (4, 5))
    d = to_device(x, device)
    out = pygpu.empty(5, dtype=np.float32, device=device)
    assert pygpu.sum(d, axis=0, out=out) is out
    compare(out, np.sum(x, axis=0))
    out64 = pygpu.empty((1, 5), dtype=np.float64, device=device)  # another dtype: cast
    assert d.max(axis=0, keepdims=True, out=out64) is out64
    compare(out64, np.max(x, axis=0, keepdims=True).astype(np.float64))
    strided = pygpu.zeros(10, dtype=np.float32, device=device)[::2]
    pygpu.mean(d, axis=0, out=strided)
    compare(strided, np.mean(x, axis=0))
    # out overlapping the input: computed first, then written
    y = to_device(np.arange(12, dtype=np.float64).reshape(3, 4), device)
    pygpu.sum(y, axis=0, out=y[0])
    compare(y[0], np.arange(12.0).reshape(3, 4).sum(axis=0))
    same_error(lambda: np.sum(x, axis=0, out=np.zeros((2, 5), np.float32)),
               lambda: pygpu.sum(d, axis=0, out=pygpu.zeros((2, 5), dtype=np.float32, device=device)))
    with pytest.raises(ValueError, match="wrong shape"):
        pygpu.sum(d, axis=0, out=pygpu.zeros(4, dtype=np.float32, device=device))
    host = np.zeros(5, np.float32)   # a NumPy out takes the result on the CPU device only
    if device.kind == "cpu":
        assert pygpu.sum(d, axis=0, out=host) is host
        compare(host, np.sum(x, axis=0))
    else:
        with pytest.raises(TypeError):
            pygpu.sum(d, axis=0, out=host)


def test_initial(device):
    x = values("int32", (3, 4))
    d = to_device(x, device)
    for name in ("sum", "prod", "max", "min"):
        for axis in (None, 0, 1):
            compare(getattr(pygpu, name)(d, axis=axis, initial=5), getattr(np, name)(x, axis=axis, initial=5))
    empty = np.zeros((0, 3), np.float64)
    compare(pygpu.max(to_device(empty, device), axis=0, initial=-1.5), np.max(empty, axis=0, initial=-1.5))
    compare(pygpu.sum(to_device(empty, device), initial=2), np.sum(empty, initial=2))
    same_error(lambda: np.add.reduce(np.array([]), initial=None),
               lambda: pygpu.add.reduce(pygpu.asarray(np.array([]), device=device), initial=None))


def test_where(device):
    x = values("float64", (4, 5))
    mask = RNG.integers(0, 2, (4, 5)).astype(bool)
    row = np.array([True, False, True, True, False])
    d = to_device(x, device)
    for w in (mask, row, False):
        for axis in (None, 0, 1):
            compare(pygpu.sum(d, axis=axis, where=w), np.sum(x, axis=axis, where=w))
            compare(pygpu.prod(d, axis=axis, where=w), np.prod(x, axis=axis, where=w))
            compare(pygpu.max(d, axis=axis, where=w, initial=-10), np.max(x, axis=axis, where=w, initial=-10))
            compare(pygpu.any(d > 0, axis=axis, where=w), np.any(x > 0, axis=axis, where=w))
            compare(pygpu.all(d > 0, axis=axis, where=w), np.all(x > 0, axis=axis, where=w))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                compare(pygpu.mean(d, axis=axis, where=w), np.mean(x, axis=axis, where=w))
                compare(pygpu.var(d, axis=axis, where=w), np.var(x, axis=axis, where=w))
    dw = to_device(mask, device)  # a pygpu mask
    compare(pygpu.sum(d, axis=1, where=dw), np.sum(x, axis=1, where=mask))
    same_error(lambda: np.max(x, where=mask), lambda: pygpu.max(d, where=mask))
    with pytest.raises(ValueError):
        pygpu.sum(d, where=np.ones(3, bool))


# ------------------------------------------------------------------ errors

def test_errors(device):
    x = np.ones((3, 0))
    d = to_device(x, device)
    same_error(lambda: np.max(x, axis=1), lambda: pygpu.max(d, axis=1))
    same_error(lambda: np.min(x), lambda: pygpu.min(d))
    same_error(lambda: np.nanmax(x), lambda: pygpu.nanmax(d))
    same_error(lambda: np.argmax(x), lambda: pygpu.argmax(d))
    same_error(lambda: np.argmin(x, axis=1), lambda: pygpu.argmin(d, axis=1))
    same_error(lambda: np.ptp(x, axis=1), lambda: pygpu.ptp(d, axis=1))
    compare(pygpu.max(d, axis=0), np.max(x, axis=0))  # empty output: no error
    y = np.ones((2, 3))
    e = to_device(y, device)
    same_error(lambda: np.sum(y, axis=2), lambda: pygpu.sum(e, axis=2))
    same_error(lambda: np.sum(y, axis=-3), lambda: pygpu.sum(e, axis=-3))
    same_error(lambda: np.sum(y, axis=(0, 0)), lambda: pygpu.sum(e, axis=(0, 0)))
    same_error(lambda: np.sum(y, axis=(0, -2)), lambda: pygpu.sum(e, axis=(0, -2)))
    same_error(lambda: np.sum(y, axis=1.0), lambda: pygpu.sum(e, axis=1.0))
    same_error(lambda: np.sum(y, axis=[0]), lambda: pygpu.sum(e, axis=[0]))
    same_error(lambda: np.argmin(y, axis=(0, 1)), lambda: pygpu.argmin(e, axis=(0, 1)))
    same_error(lambda: np.cumsum(y, axis=2), lambda: pygpu.cumsum(e, axis=2))
    same_error(lambda: np.mean(np.ones(()), axis=0), lambda: pygpu.mean(pygpu.ones((), device=device), axis=0))
    same_error(lambda: np.bitwise_and.reduce(y), lambda: pygpu.bitwise_and.reduce(e))
    same_error(lambda: np.negative.reduce(y), lambda: pygpu.negative.reduce(e))
    if device.kind == "cpu":   # NumPy's own method, on the array's memory
        np.testing.assert_array_equal(pygpu.asnumpy(pygpu.subtract.reduce(e)), np.subtract.reduce(y))
        same_error(lambda: np.subtract.reduce(y, axis=None), lambda: pygpu.subtract.reduce(e, axis=None))
    else:                 # never copied to the host behind the user's back
        with pytest.raises(TypeError, match="subtract"):
            pygpu.subtract.reduce(e)
    with pytest.raises(TypeError):
        pygpu.sum(e, foo=1)


# ------------------------------------------------------------------ count_nonzero, ptp, average

def test_count_nonzero(device):
    x = RNG.integers(0, 3, (4, 5)).astype(np.float32)
    x[0, 0] = np.nan
    d = to_device(x, device)
    r = pygpu.count_nonzero(d)  # a 0-d array (the array API's; NumPy's is a Python int)
    assert isinstance(r, pygpu.ndarray) and r.shape == () and int(r) == np.count_nonzero(x)
    for axis in (0, 1, (0, 1)):
        compare(pygpu.count_nonzero(d, axis=axis), np.count_nonzero(x, axis=axis))
    compare(pygpu.count_nonzero(d, axis=0, keepdims=True), np.count_nonzero(x, axis=0, keepdims=True))
    z = np.array([0j, 1j, 1 + 0j])
    assert int(pygpu.count_nonzero(to_device(z, device))) == 2


@pytest.mark.parametrize("dt", ["uint8", "int16", "float32", "complex64"])
def test_ptp(device, dt):
    x = values(dt, (4, 5))
    d = to_device(x, device)
    for axis in (None, 0, 1):
        compare(pygpu.ptp(d, axis=axis), np.ptp(x, axis=axis))
    compare(pygpu.ptp(d, axis=1, keepdims=True), np.ptp(x, axis=1, keepdims=True))


def test_average(device):
    x = values("float64", (3, 4))
    xi = values("int16", (3, 4))
    w = RNG.uniform(0.5, 2, (3, 4))
    d, di, dw = to_device(x, device), to_device(xi, device), to_device(w, device)
    compare(pygpu.average(d), np.average(x))
    compare(pygpu.average(di, axis=0), np.average(xi, axis=0))
    compare(pygpu.average(d, weights=dw), np.average(x, weights=w))
    compare(pygpu.average(di, axis=1, weights=w[0]), np.average(xi, axis=1, weights=w[0]))
    avg, scl = pygpu.average(d, axis=0, weights=dw, returned=True)
    eavg, escl = np.average(x, axis=0, weights=w, returned=True)
    compare(avg, eavg)
    compare(scl, escl)
    compare(pygpu.average(d, axis=1, keepdims=True), np.average(x, axis=1, keepdims=True))
    same_error(lambda: np.average(x, weights=w[0]), lambda: pygpu.average(d, weights=w[0]))
    same_error(lambda: np.average(x, axis=1, weights=w[0, :3]), lambda: pygpu.average(d, axis=1, weights=w[0, :3]))
    same_error(lambda: np.average(x, axis=0, weights=np.zeros(3)),
               lambda: pygpu.average(d, axis=0, weights=np.zeros(3)))
    # axis as NumPy's normalize_axis_tuple takes it: a list too, with its errors
    compare(pygpu.average(d, axis=[0, 1]), np.average(x, axis=[0, 1]))
    compare(pygpu.average(d, axis=[1, 0], weights=dw), np.average(x, axis=[1, 0], weights=w))
    for axis in ([0, -2], [0, 5], 1.5):
        same_error(lambda: np.average(x, axis=axis), lambda: pygpu.average(d, axis=axis))


# ------------------------------------------------------------------ accuracy and the parallel paths

def test_float32_sum_is_pairwise_accurate(device):
    x = np.full(10_000_001, 0.1, dtype=np.float32)
    exact = 10_000_001 * float(np.float32(0.1))
    got = float(pygpu.sum(to_device(x, device)))
    # a pairwise or tree sum errs by at most about log2(n) roundings of the total: 1.5 here
    # (NumPy's pairwise sum 0.14, the GPU's tree of blocks 0.37), where a sequential float32 sum
    # errs by 87937 and a few sequential chains per thread (issue 16 item 5) by hundreds
    bound = (np.ceil(np.log2(x.size)) + 1) * np.finfo(np.float32).eps / 2 * exact
    assert abs(got - exact) <= bound, (got, exact, float(np.sum(x)))
    # the mean follows
    assert abs(float(pygpu.mean(to_device(x, device))) - 0.1) < 1e-6


def test_float32_rows_keep_their_precision_with_many_outputs(device):
    """Enough rows that a GPU gives each its own block without splitting it (8 blocks a
    multiprocessor): each thread folds len/256 elements, compensated (issue 16 item 5: two plain
    chains erred by 1.6e-5 for rows of 2**20 x 0.1f, NumPy's pairwise sum by 1.5e-7)."""
    if device.kind == "cuda":
        rows, length = 8 * device.properties()["multiprocessors"] + 1, 2 ** 18
    else:
        rows, length = 4, 2 ** 18
    x = pygpu.full((rows, length), 0.1, dtype=np.float32, device=device)
    exact = length * float(np.float32(0.1))
    got = x.sum(axis=1).get().astype(np.float64)
    assert np.max(np.abs(got - exact)) / exact < 5e-7, np.max(np.abs(got - exact)) / exact
    z = (x + 1j * x).astype(np.complex64).sum(axis=1).get()
    assert np.max(np.abs(z.real - exact)) / exact < 5e-7 and np.max(np.abs(z.imag - exact)) / exact < 5e-7
    # infinities and NaN pass through the compensation as IEEE sums them
    x[1, 7] = np.inf
    x[2, 9] = np.nan
    x[3, 3], x[3, 4] = np.inf, -np.inf
    got = x.sum(axis=1).get()
    assert got[1] == np.inf and np.isnan(got[2]) and np.isnan(got[3])
    big = pygpu.full((rows, 4096), 3e38, dtype=np.float32, device=device)
    assert (big.sum(axis=1).get() == np.inf).all()


@pytest.mark.parametrize("shape,axis", [((1_000_003,), None), ((3, 200_001), 1), ((200_001, 3), 0),
                                        ((700, 600), 0), ((700, 600), 1), ((2, 90_000), 0),
                                        ((50, 40, 30), (0, 2)), ((50, 40, 30), (1,))])
@pytest.mark.parametrize("name", ["sum", "max", "argmin", "var", "cumsum"])
def test_large_arrays(device, shape, axis, name):
    x = values("float64", shape)
    if name == "argmin" and isinstance(axis, tuple):
        axis = axis[0]
    if name == "cumsum" and (axis is None or isinstance(axis, tuple)):
        axis = -1 if axis is None else axis[0]
    # a scan's running sum is computed in parts (one per thread): a few ulp of the sum, not of
    # each prefix near zero; NumPy's own var of 2e5 elements is off by ~1e-12 (pygpu's by less)
    scale = {"cumsum": 1e4, "var": 1e2}.get(name, 1.0)
    for v in (x, np.ascontiguousarray(x.T).T):
        d = to_device(v, device)
        compare(getattr(pygpu, name)(d, axis=axis), getattr(np, name)(v, axis=axis), scale)
    xi = values("int32", shape)
    compare(getattr(pygpu, name)(to_device(xi, device), axis=axis), getattr(np, name)(xi, axis=axis), scale)


# ------------------------------------------------------------------ ufunc.reduce and NumPy's functions

REDUCING = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
            "bitwise_and", "bitwise_or", "bitwise_xor"]


@pytest.mark.parametrize("name", REDUCING)
@pytest.mark.parametrize("dt", DTYPES)
def test_ufunc_reduce(device, name, dt):
    np_uf, uf = getattr(np, name), getattr(pygpu, name)
    x = values(dt, (3, 4), nan=True, small=name == "multiply")
    d = to_device(x, device)
    assert uf.identity == np_uf.identity
    for axis in (0, 1, None, (0, 1)):
        try:
            expected = np_uf.reduce(x, axis=axis)
        except TypeError:
            same_error(lambda: np_uf.reduce(x, axis=axis), lambda: uf.reduce(d, axis=axis))
            return
        compare(uf.reduce(d, axis=axis), expected)
    compare(uf.reduce(d), np_uf.reduce(x))  # the default axis is 0
    compare(uf.reduce(d, axis=1, keepdims=True), np_uf.reduce(x, axis=1, keepdims=True))


def test_ufunc_reduce_zero_d_and_options(device):
    compare(pygpu.add.reduce(pygpu.asarray(np.float32(3.5), device=device)), np.add.reduce(np.float32(3.5)))
    x = values("int16", (3, 4))
    d = to_device(x, device)
    compare(pygpu.add.reduce(d, axis=0, dtype=np.int8, initial=3), np.add.reduce(x, axis=0, dtype=np.int8, initial=3))
    w = np.array([True, False, True, False])
    compare(pygpu.multiply.reduce(d, axis=1, where=w), np.multiply.reduce(x, axis=1, where=w))
    out = pygpu.zeros(4, dtype=np.float64, device=device)
    pygpu.maximum.reduce(d, out=(out,))
    compare(out, np.maximum.reduce(x).astype(np.float64))


def test_numpy_functions_on_pygpu_arrays(device):
    x = values("float32", (3, 4))
    d = to_device(x, device)
    for fn in (np.sum, np.prod, np.max, np.min, np.mean, np.var, np.std, np.argmax, np.argmin, np.any, np.all,
               np.cumsum, np.cumprod):
        r = fn(d, axis=0)
        assert isinstance(r, pygpu.ndarray), fn
        compare(r, fn(x, axis=0))
    r = np.add.reduce(d, axis=1)
    assert isinstance(r, pygpu.ndarray)
    compare(r, np.add.reduce(x, axis=1))
    compare(np.maximum.accumulate(d, axis=1), np.maximum.accumulate(x, axis=1))
    compare(np.add.reduceat(d, [0, 2], axis=1), np.add.reduceat(x, [0, 2], axis=1))
    a = pygpu.zeros(4, device=device)
    np.add.at(a, [0, 0, 3], 1.0)
    compare(a, np.array([2.0, 0, 0, 1.0]))


# ------------------------------------------------------------------ hypothesis

@st.composite
def arrays_and_axes(draw):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    perm = draw(st.permutations(list(range(ndim))))
    flips = draw(st.lists(st.booleans(), min_size=ndim, max_size=ndim))
    axes = draw(st.lists(st.integers(0, max(ndim - 1, 0)), unique=True, max_size=ndim)) if ndim else []
    axis = draw(st.sampled_from([None, tuple(axes)] + ([axes[0]] if axes else [])))
    return shape, perm, flips, axis


@settings(max_examples=150, deadline=None)
@given(arrays_and_axes(), st.sampled_from(["int32", "uint8", "float32", "float64", "complex64", "bool"]),
       st.sampled_from(["sum", "max", "argmin", "mean", "any", "cumsum"]), st.booleans())
def test_hypothesis_shapes_axes_layouts(case, dt, name, keepdims):
    shape, perm, flips, axis = case
    x = values(dt, shape)
    x = np.ascontiguousarray(np.transpose(x, perm)).transpose(np.argsort(perm)) if x.ndim else x
    index = tuple(slice(None, None, -1) if f else slice(None) for f in flips)
    x = x[index]
    d = pygpu.asarray(x)[index][index]  # the same values through pygpu's own views
    assert np.array_equal(d.get(), x)
    if name in ("argmin", "cumsum") and isinstance(axis, tuple):
        axis = axis[0] if axis else None
    kw = {} if name == "cumsum" else {"keepdims": keepdims}
    if name == "mean" and dt == "bool":
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(np, name)(x, axis=axis, **kw)
    except Exception:
        same_error(lambda: getattr(np, name)(x, axis=axis, **kw), lambda: getattr(pygpu, name)(d, axis=axis, **kw))
        return
    compare(getattr(pygpu, name)(d, axis=axis, **kw), expected)


# ------------------------------------------------------------------ the CUDA launches (mock driver)

from conftest import run_mock  # noqa: E402

needs_kernels = pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0,
                                   reason="this build has no CUDA kernels")


@needs_kernels
def test_mock_reduction_launch_configuration(mock_driver):
    """The host side of the CUDA reductions against the mock driver (4 SMs: 32 resident blocks
    wanted): which kernels run (the mock knows only the names this build embeds), how many
    launches, their grids. The mock runs no kernel."""
    out = run_mock(mock_driver, """
        res = {}
        def launches(fn):
            before = stats()
            fn()
            after = stats()
            return {"n": after["launches"] - before["launches"], "kernel": after["last_kernel"],
                    "grid": after["grid"], "block": after["block"]}
        x = pygpu.zeros(10**6, dtype=np.float32, device="cuda:0")
        y = pygpu.zeros((64, 1000), dtype=np.float64, device="cuda:0")
        z = pygpu.zeros((4096, 8), dtype=np.int32, device="cuda:0")
        res["sum"] = launches(lambda: pygpu.sum(x))
        res["small"] = launches(lambda: pygpu.sum(x[:100]))
        res["argmin"] = launches(lambda: pygpu.argmin(y, axis=1))
        res["outer"] = launches(lambda: pygpu.max(y, axis=0))
        res["var"] = launches(lambda: pygpu.var(y.T, axis=1))
        res["cumsum"] = launches(lambda: pygpu.cumsum(x))
        res["cumsum_rows"] = launches(lambda: pygpu.cumsum(z, axis=1))
        columns = pygpu.zeros((100000, 2), device="cuda:0")
        res["cumsum_two_columns"] = launches(lambda: pygpu.cumsum(columns, axis=0))
        res["reduceat"] = launches(lambda: pygpu.add.reduceat(x, [0, 10, 500]))
        res["at"] = launches(lambda: pygpu.add.at(y, [0, 1, 0], 1.0))
        res["at_serial"] = launches(lambda: pygpu.multiply.at(pygpu.zeros(4, dtype=np.complex128, device="cuda:0"),
                                                             [0, 0], 2.0))
        print(json.dumps(res))
    """)
    # a long full reduction: 32 partial blocks, then one block merges them
    assert out["sum"] == {"n": 2, "kernel": "reduce_add_f32", "grid": 1, "block": 256}
    assert out["small"]["n"] == 1 and out["small"]["grid"] == 1
    # 64 rows of 1000: 128 lanes a row, two rows a block, enough blocks without a split
    assert out["argmin"] == {"n": 1, "kernel": "reduce_argmin_f64", "grid": 32, "block": 256}
    # 1000 outputs along the fast axis, 32 to a block (32 blocks): no split either
    assert out["outer"]["n"] == 1 and out["outer"]["kernel"] == "reduce_maximum_f64"
    assert out["outer"]["grid"] == 32
    assert out["var"]["kernel"] == "reduce_moments_f64"
    # one long row: chunk totals, their scan, the chunks
    assert out["cumsum"] == {"n": 3, "kernel": "rscan_add_f32", "grid": 32, "block": 256}
    # short rows: a thread each (the sums of int32 are int64)
    assert out["cumsum_rows"] == {"n": 1, "kernel": "rscan_add_i64", "grid": 16, "block": 256}
    # two long columns: not two threads walking them, but chunks of each (issue 16 item 4)
    assert out["cumsum_two_columns"]["n"] == 3 and out["cumsum_two_columns"]["grid"] == 32
    # segments of mean length 333333: 256 threads each, one segment a block
    assert out["reduceat"] == {"n": 1, "kernel": "rseg_add_f32", "grid": 3, "block": 256}
    # 3 indices x 1000 trailing elements: a thread each (atomic additions; b is converted first)
    assert out["at"]["kernel"] == "rat_add_f64" and out["at"]["grid"] == 12
    assert out["at_serial"]["kernel"] == "rat_multiply_c128" and out["at_serial"]["grid"] == 1


def test_var_about_a_given_mean(device):
    x = values("float64", (4, 6))
    z = values("complex128", (4, 6))
    d, dz = to_device(x, device), to_device(z, device)
    m = np.mean(x, axis=1, keepdims=True)
    compare(pygpu.var(d, axis=1, mean=to_device(m, device)), np.var(x, axis=1, mean=m))
    compare(pygpu.std(d, axis=1, mean=m, ddof=1, keepdims=True), np.std(x, axis=1, mean=m, ddof=1, keepdims=True))
    mz = np.mean(z, axis=0, keepdims=True)
    compare(pygpu.var(dz, axis=0, mean=mz), np.var(z, axis=0, mean=mz))
    w = RNG.integers(0, 2, (4, 6)).astype(bool)
    w[:, 0] = True
    mw = np.mean(x, axis=1, keepdims=True, where=w)
    compare(pygpu.var(d, axis=1, mean=mw, where=w), np.var(x, axis=1, mean=mw, where=w))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint16", "int32", "uint32"])
def test_narrow_integer_extremes(device, dt):
    """max/min/argmax/argmin of integers of up to 32 bits run in 32-bit reducers: the type's own
    extremes (uint32 past 2^31), ties (the first wins), every axis, initial= and where=, the
    ufunc methods (reduce, accumulate, reduceat, at), lengths across the leaves and lanes."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(23)
    for n in (1, 7, 8, 9, 31, 129, 2049, 40001):
        x = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64).astype(dt)
        if n > 10:
            x[n // 3] = info.max
            x[2 * n // 3] = info.max      # a tie: the first counts
            x[n // 5] = info.min
        p = pygpu.asarray(x, device=device)
        for name in ("max", "min", "argmax", "argmin"):
            got = getattr(pygpu, name)(p)
            assert int(got) == int(getattr(np, name)(x)), (name, dt, n)
    m = rng.integers(info.min, info.max, (37, 65), endpoint=True, dtype=np.int64).astype(dt)
    m[5, :] = info.max
    m[:, 7] = info.min
    p = pygpu.asarray(m, device=device)
    for axis in (0, 1, None):
        for name in ("max", "min", "argmax", "argmin"):
            assert_array_equal(getattr(pygpu, name)(p, axis=axis), getattr(np, name)(m, axis=axis))
        assert_array_equal(pygpu.max(p[::2, ::-3], axis=axis), np.max(m[::2, ::-3], axis=axis))
    assert_array_equal(pygpu.max(p, axis=1, initial=info.max), np.max(m, axis=1, initial=info.max))
    assert_array_equal(pygpu.min(p, axis=0, initial=0), np.min(m, axis=0, initial=0))
    mask = m > m.mean()
    assert_array_equal(pygpu.max(p, axis=1, where=pygpu.asarray(mask, device=device), initial=info.min),
                       np.max(m, axis=1, where=mask, initial=info.min))
    assert_array_equal(pygpu.maximum.reduce(p, axis=0), np.maximum.reduce(m, axis=0))
    assert_array_equal(pygpu.minimum.accumulate(p, axis=1), np.minimum.accumulate(m, axis=1))
    assert_array_equal(pygpu.maximum.reduceat(p, [0, 3, 3, 20], axis=1), np.maximum.reduceat(m, [0, 3, 3, 20], axis=1))
    assert_array_equal(pygpu.fmax.reduce(p, axis=1), np.fmax.reduce(m, axis=1))
    target = np.zeros(5, dtype=dt) + info.min // 2
    got = pygpu.asarray(target, device=device)
    idx = rng.integers(0, 5, 300)
    pygpu.maximum.at(got, pygpu.asarray(idx, device=device), pygpu.asarray(m.ravel()[:300], device=device))
    np.maximum.at(target, idx, m.ravel()[:300])
    assert_array_equal(got, target)
    with pytest.raises(ValueError, match="zero-size"):
        pygpu.max(pygpu.asarray(np.zeros(0, dtype=dt), device=device))


# ---------------------------------------------------------------- narrow integers read in place

@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint16", "bool"])
@pytest.mark.parametrize("n", [1, 63, 64, 65, 127, 129, 255, 257, 2047, 2049, 65535, 65536, 65537, 200_003])
def test_narrow_max_min_argmax_count_across_leaves(device, dt, n):
    """8- and 16-bit max/min/argmax/argmin fold in their own type (leaves of 65536, blocks of 64 for
    the position) and count_nonzero counts bytes: every size around those boundaries, the best
    value once near the end (its first position), both extremes of the dtype, and the outputs
    that take the usual path (a wider dtype= or out=, a mask, a stride) against it."""
    rng = np.random.default_rng(n)
    if dt == "bool":
        x = rng.random(n) < 0.3
    else:
        info = np.iinfo(dt)
        x = rng.integers(info.min // 2, info.max // 2 + 1, n).astype(dt)
        x[-1 - n // 3] = info.max
        x[n // 2] = info.min
        x[-1] = info.max   # a tie after the first best: argmax keeps the first
    d = pygpu.asarray(x, device=device)
    for f in ("max", "min", "argmax", "argmin"):
        if dt == "bool" and f in ("max", "min"):
            continue
        assert_array_equal(getattr(pygpu, f)(d), getattr(np, f)(x))
    assert int(pygpu.count_nonzero(d)) == np.count_nonzero(x)
    if n >= 2:
        assert_array_equal(pygpu.max(d[::2]), np.max(x[::2]))
        assert_array_equal(pygpu.argmin(d[1::2]), np.argmin(x[1::2]))
    if dt != "bool":
        assert_array_equal(pygpu.maximum.reduce(d, dtype=np.int64), np.maximum.reduce(x, dtype=np.int64))
        w = x > x.mean() if n > 1 else np.ones(n, bool)
        if w.any():
            assert_array_equal(pygpu.min(d, where=pygpu.asarray(w, device=device), initial=np.iinfo(dt).max),
                               np.min(x, where=w, initial=np.iinfo(dt).max))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint16"])
def test_narrow_reductions_along_rows_and_columns(device, dt):
    x = np.random.default_rng(3).integers(0, 100, (37, 5000)).astype(dt)
    x[5, 4321] = 127
    d = pygpu.asarray(x, device=device)
    for f in ("max", "min", "argmax", "argmin"):
        for axis in (0, 1, -1, None):
            assert_array_equal(getattr(pygpu, f)(d, axis=axis), getattr(np, f)(x, axis=axis))
    assert_array_equal(pygpu.count_nonzero(d, axis=1), np.count_nonzero(x, axis=1))
    assert_array_equal(pygpu.max(d.T, axis=1), np.max(x.T, axis=1))


def test_narrow_max_into_uint32_keeps_unsigned_values(device):
    """A uint32 reducer takes only unsigned narrow values (a negative int8 would wrap)."""
    x = np.array([-5, 3, -1, 7], np.int8)
    d = pygpu.asarray(x, device=device)
    with np.errstate(all="ignore"):
        assert_array_equal(pygpu.maximum.reduce(d, dtype=np.uint32), np.maximum.reduce(x, dtype=np.uint32))
    assert_array_equal(pygpu.argmax(pygpu.asarray(x.astype(np.uint8), device=device)), np.argmax(x.astype(np.uint8)))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any", "argmax", "argmin", "count_nonzero",
                                  "cumsum", "cumprod", "nansum", "nanmax", "nancumsum", "ptp"])
@pytest.mark.parametrize("value", [5, 2.5, True, np.float32(3), np.int8(-2), np.array(4.0)])
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_axis_0_of_a_scalar_or_0d_operand(name, value, axis):
    # NumPy's reductions take axis 0 or -1 of any 0-d operand (1 is its AxisError)
    from conftest import numpy_and_pygpu
    want, got = numpy_and_pygpu(lambda m: getattr(m, name)(value, axis=axis))
    assert got == want


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int64, np.bool_])
@pytest.mark.parametrize("data", [np.array([200, 100, 3], np.uint8), np.arange(12, dtype=np.int16).reshape(3, 4) * 37,
                                  np.array([[1.5, 2.25], [3.0, -7.5]])])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_moments_into_an_integer_dtype_as_numpy(name, dtype, data, axis):
    # NumPy sums in the integer dtype (wrapping) and truncates the division, or refuses
    from conftest import numpy_and_pygpu
    want, got = numpy_and_pygpu(lambda m: getattr(m, name)(m.asarray(data), axis=axis, dtype=dtype))
    assert got == want
