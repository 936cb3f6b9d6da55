"""NumPy functions pygpu adds for issue 19 (pygpu/_numeric.py, pygpu/_index_tricks.py): each
against NumPy over dtypes, shapes (empty and 0-d among them) and its bad inputs, and through
NumPy's own name (__array_function__) staying on pygpu arrays."""
import re
import warnings

import numpy as np
import pytest

import pygpu

from conftest import assert_array_equal, numpy_and_pygpu, same_error

FLOATS = [np.float32, np.float64]
NUMBERS = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64, np.complex128]


def host(x):
    if isinstance(x, tuple):
        return tuple(host(v) for v in x)
    return pygpu.asnumpy(x) if isinstance(x, pygpu.ndarray) else x


def same(got, want):
    got = host(got)
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    if isinstance(want, (bool, np.bool_)) or want is None:
        assert got == want and type(got) is type(want)
        return
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert_array_equal(got, want)


def special(dtype, shape=(3, 4), seed=0):
    """Values with NaNs, infinities and signed zeros where the dtype has them."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape).astype(dtype)
    x = rng.standard_normal(shape) * 3
    flat = x.reshape(-1)
    flat[::5] = np.nan
    flat[1::7] = np.inf
    flat[2::9] = -np.inf
    flat[3::11] = -0.0
    if np.issubdtype(dtype, np.complexfloating):
        y = rng.standard_normal(shape)
        y.reshape(-1)[::4] = np.nan
        y.reshape(-1)[1::6] = -np.inf
        with np.errstate(invalid="ignore"):   # inf * 1j
            return (x + 1j * y).astype(dtype)
    return x.astype(dtype)


# ------------------------------------------------------------------ whole-array comparisons

@pytest.mark.parametrize("dtype", NUMBERS)
def test_allclose_array_equal_array_equiv(dtype):
    a = special(dtype)
    b = a.copy()
    pa, pb = pygpu.asarray(a), pygpu.asarray(b)
    for equal_nan in (False, True):
        assert pygpu.array_equal(pa, pb, equal_nan=equal_nan) is np.array_equal(a, b, equal_nan=equal_nan)
        if dtype != np.bool_:
            assert pygpu.allclose(pa, pb, equal_nan=equal_nan) is np.allclose(a, b, equal_nan=equal_nan)
    assert pygpu.array_equal(pa, pa[:2]) is False
    assert pygpu.array_equiv(pa[:1], pa[:1].repeat(3, axis=0)) is np.array_equiv(a[:1], a[:1].repeat(3, axis=0))
    assert pygpu.array_equiv(pa, pa[:, :2]) is False
    assert np.array_equal(pa, pb, equal_nan=True) is np.array_equal(a, b, equal_nan=True)   # dispatched
    if dtype in FLOATS:
        c = b.copy()
        c[0, 0] = 1e6
        assert pygpu.allclose(pa, pygpu.asarray(c), equal_nan=True) is np.allclose(a, c, equal_nan=True)
        assert pygpu.allclose(1.0, 1.0 + 1e-9) is True


# ------------------------------------------------------------------ conversions

@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128])
def test_contiguous_conversions(dtype):
    a = special(dtype, (4, 6))
    pa = pygpu.asarray(a)
    for view, npview in ((pa, a), (pa[:, ::2], a[:, ::2]), (pa.T, a.T), (pa[0, 0], a[0, 0])):
        for ours, theirs, flag in ((pygpu.ascontiguousarray, np.ascontiguousarray, "C_CONTIGUOUS"),
                                   (pygpu.asfortranarray, np.asfortranarray, "F_CONTIGUOUS")):
            got, want = ours(view), theirs(npview)
            assert got.shape == want.shape and got.flags[flag]
            same(got, want)
    assert pygpu.ascontiguousarray(pa) is pa
    same(pygpu.ascontiguousarray([1, 2], dtype=np.float32), np.ascontiguousarray([1, 2], dtype=np.float32))
    same(pygpu.asanyarray([[1, 2]]), np.asanyarray([[1, 2]]))
    c = pygpu.copy(pa)
    assert c is not pa and not pygpu.may_share_memory(c, pa)
    same(c, a)


def test_asarray_chkfinite_and_require():
    same(pygpu.asarray_chkfinite([1.0, 2.0]), np.asarray_chkfinite([1.0, 2.0]))
    for bad in ([1.0, np.nan], [np.inf]):
        with pytest.raises(ValueError, match="must not contain infs or NaNs"):
            pygpu.asarray_chkfinite(bad)
    same(pygpu.asarray_chkfinite([1, 2]), np.asarray_chkfinite([1, 2]))
    a = pygpu.arange(12.0).reshape(3, 4)
    assert pygpu.require(a, requirements="C") is a
    f = pygpu.require(a, np.float32, ["F", "W"])
    assert f.flags["F_CONTIGUOUS"] and f.dtype == np.float32
    owned = pygpu.require(a[1:], requirements=["OWNDATA"])
    assert owned.base is None or owned.flags["OWNDATA"]
    with pytest.raises(ValueError, match="both 'C' and 'F'"):
        pygpu.require(a, requirements="CF")
    with pytest.raises(KeyError):
        pygpu.require(a, requirements=["Q"])


# ------------------------------------------------------------------ type predicates

def test_real_imag_isreal_of_python_numbers():
    """NumPy's val.real / val.imag: a Python number gives a Python number, isreal a Python bool."""
    for f in (lambda m: m.real(1.5), lambda m: m.imag(2), lambda m: m.real(1 + 2j), lambda m: m.imag(True),
              lambda m: m.isreal(2), lambda m: m.isreal(1j)):
        got, want = f(pygpu), f(np)
        assert type(got) is type(want) and got == want


@pytest.mark.parametrize("dtype", NUMBERS)
def test_type_predicates(dtype):
    a = special(dtype, (5,))
    pa = pygpu.asarray(a)
    same(pygpu.isreal(pa), np.isreal(a))
    same(pygpu.iscomplex(pa), np.iscomplex(a))
    assert pygpu.iscomplexobj(pa) == np.iscomplexobj(a) and pygpu.isrealobj(pa) == np.isrealobj(a)
    same(pygpu.real_if_close(pa), np.real_if_close(a))
    if not np.issubdtype(dtype, np.complexfloating):
        same(pygpu.isposinf(pa), np.isposinf(a))
        same(pygpu.isneginf(pa), np.isneginf(a))
        out = pygpu.zeros(5, dtype=bool)
        assert pygpu.isposinf(pa, out=out) is out
    else:
        with pytest.raises(TypeError, match="complex"):
            pygpu.isneginf(pa)


def test_scalar_iterable_and_fortran_predicates():
    for v in (1, 2.5, 1j, np.float32(1), "s", b"b"):
        assert pygpu.isscalar(v) == np.isscalar(v)
    assert pygpu.isscalar(pygpu.asarray(1.0)) is False
    assert pygpu.iterable([1]) and not pygpu.iterable(3) and not pygpu.iterable(pygpu.asarray(1.0))
    a = pygpu.zeros((3, 4))
    assert pygpu.isfortran(a.T) is True and pygpu.isfortran(a) is False
    assert pygpu.isfortran(pygpu.zeros(3)) is False
    same(pygpu.real_if_close(pygpu.asarray([2.1 + 4e-14j, 5.2 + 3e-15j])), np.real_if_close([2.1 + 4e-14j, 5.2 + 3e-15j]))
    same(pygpu.real_if_close(pygpu.asarray([2.1 + 4e-13j])), np.real_if_close([2.1 + 4e-13j]))


# ------------------------------------------------------------------ elementwise compositions

@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64, np.float32, np.float64])
def test_fix_and_sinc(dtype):
    a = special(dtype, (3, 7))
    pa = pygpu.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # numpy.fix, since NumPy 2.4
        same(pygpu.fix(pa), np.fix(a))
        same(np.fix(pa), np.fix(a))
    if np.issubdtype(dtype, np.floating):
        b = np.where(np.isfinite(a), a, 0.0).astype(dtype)
        np.testing.assert_allclose(host(pygpu.sinc(pygpu.asarray(b))), np.sinc(b), rtol=2e-6, atol=1e-7)
        assert pygpu.sinc(pygpu.asarray(b)).dtype == np.sinc(b).dtype
    else:
        np.testing.assert_allclose(host(pygpu.sinc(pa)), np.sinc(a), rtol=1e-12, atol=1e-15)
        assert pygpu.sinc(pa).dtype == np.sinc(a).dtype


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64, np.complex128])
def test_sinc_at_zero(dtype):
    """sinc(0) is 1 in every dtype: float16 too, where a 1e-20 stand-in for 0 underflows."""
    a = np.array([0.0, -0.0, 0.5, 1.0, 2.5], dtype=dtype)
    got = host(pygpu.sinc(pygpu.asarray(a)))
    assert got.dtype == np.sinc(a).dtype
    np.testing.assert_allclose(got, np.sinc(a), rtol=2e-3, atol=1e-3)
    assert got[0] == 1 and got[1] == 1


@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_nan_to_num(dtype):
    a = special(dtype, (4, 5))
    same(pygpu.nan_to_num(pygpu.asarray(a)), np.nan_to_num(a))
    same(pygpu.nan_to_num(pygpu.asarray(a), nan=-1.0, posinf=9.0, neginf=-9.0),
         np.nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0))
    pa = pygpu.asarray(a)
    before = host(pa).copy()
    out = pygpu.nan_to_num(pa[::2], copy=False)
    if np.issubdtype(dtype, np.inexact):
        expected = before.copy()
        expected[::2] = np.nan_to_num(before[::2])
        same(pa, expected)     # in place, through the view
        assert pygpu.may_share_memory(out, pa)
    same(pygpu.nan_to_num(pygpu.asarray(1.0 * np.inf)), np.nan_to_num(np.inf))
    # replacements are copied in as NumPy's copyto casts them (same_kind): x keeps its dtype
    for kw in ({"nan": np.float64(3)}, {"nan": np.int16(3)}, {"posinf": np.float64(1e300), "neginf": np.int8(-3)},
               {"nan": 2**63}, {"nan": 1j}, {"posinf": np.complex64(1j)}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # 1e300 overflows float32/float16
            try:
                want = np.nan_to_num(a, **kw)
            except TypeError as e:
                with pytest.raises(TypeError, match=str(e).replace("(", r"\(").replace(")", r"\)")):
                    pygpu.nan_to_num(pygpu.asarray(a), **kw)
                continue
            same(pygpu.nan_to_num(pygpu.asarray(a), **kw), want)


@pytest.mark.parametrize("kw", ["nan", "posinf", "neginf"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_nan_to_num_array_replacements_broadcast_to_x(kw, dtype):
    # NumPy copies a replacement array into x: it broadcasts to x's shape, never x to its shape
    x = np.array([[0, 1, np.nan, 4], [11, -np.inf, 12, np.inf]], dtype=dtype)
    row = np.arange(4.0).reshape(1, 4)
    same(pygpu.nan_to_num(pygpu.asarray(x), **{kw: pygpu.asarray(row)}), np.nan_to_num(x, **{kw: row}))
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(2,4\) into shape \(4,\)"):
        np.nan_to_num(x[0], **{kw: np.zeros((2, 4))})
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(2,4\) into shape \(4,\)"):
        pygpu.nan_to_num(pygpu.asarray(x[0]), **{kw: pygpu.zeros((2, 4))})


@pytest.mark.parametrize("dtypes", [(np.int64, np.int64), (np.float32, np.int8), (np.complex64, np.float32)])
def test_float_power_and_divmod(dtypes):
    rng = np.random.default_rng(3)
    a = (rng.integers(1, 9, 40) * (1 if dtypes[0] != np.complex64 else 1 + 1j)).astype(dtypes[0])
    b = rng.integers(-3, 4, 40).astype(dtypes[1])
    got = pygpu.float_power(pygpu.asarray(a), pygpu.asarray(b))
    want = np.float_power(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(host(got), want, rtol=1e-13)
    if dtypes[0] != np.complex64:
        b = np.where(b == 0, 2, b).astype(dtypes[1])
        same(pygpu.divmod(pygpu.asarray(a), pygpu.asarray(b)), np.divmod(a, b))


# ------------------------------------------------------------------ shapes and memory

def test_broadcast_shapes_and_rollaxis():
    assert pygpu.broadcast_shapes((3, 1), (1, 4), ()) == (3, 4)
    with pytest.raises(ValueError):
        pygpu.broadcast_shapes((3,), (4,))
    a = np.zeros((2, 3, 4, 5))
    pa = pygpu.asarray(a)
    for axis in range(-4, 4):
        for start in range(-4, 5):
            assert pygpu.rollaxis(pa, axis, start).shape == np.rollaxis(a, axis, start).shape
    with pytest.raises(np.exceptions.AxisError):
        pygpu.rollaxis(pa, 4)
    with pytest.raises(np.exceptions.AxisError):
        pygpu.rollaxis(pa, 0, 6)


def test_may_share_memory_and_shares_memory():
    a = pygpu.arange(20.0)
    assert pygpu.may_share_memory(a, a[3:5]) and pygpu.shares_memory(a, a[3:5])
    assert not pygpu.may_share_memory(a[:10], a[10:])
    assert pygpu.may_share_memory(a[::2], a[1::2]) and not pygpu.shares_memory(a[::2], a[1::2])
    assert not pygpu.may_share_memory(a, a.copy())
    assert np.may_share_memory(a, a[::-1])    # dispatched
    if a.device == pygpu.Device("cpu"):
        view = np.asarray(a)                   # the CPU device's buffer, zero-copy
        assert pygpu.shares_memory(a, view) and pygpu.may_share_memory(view[2:], a[:4])
        assert not pygpu.may_share_memory(a, np.arange(20.0))


# ------------------------------------------------------------------ index helpers

@pytest.mark.parametrize("n, k, m", [(0, 0, None), (1, 0, None), (4, 0, None), (4, 1, None), (4, -2, 6), (5, 3, 2),
                                     (3, -5, None)])
def test_triangle_and_diagonal_indices(n, k, m):
    same(pygpu.tril_indices(n, k, m), np.tril_indices(n, k, m))
    same(pygpu.triu_indices(n, k, m), np.triu_indices(n, k, m))
    a = np.zeros((n, m if m is not None else n))
    same(pygpu.tril_indices_from(pygpu.asarray(a), k), np.tril_indices_from(a, k))
    same(pygpu.triu_indices_from(pygpu.asarray(a), k), np.triu_indices_from(a, k))
    same(pygpu.diag_indices(n, 3), np.diag_indices(n, 3))
    same(pygpu.mask_indices(n, pygpu.triu, k), np.mask_indices(n, np.triu, k))


def test_index_helper_errors():
    with pytest.raises(ValueError, match="2-d"):
        pygpu.tril_indices_from(pygpu.zeros(3))
    with pytest.raises(ValueError, match="equal length"):
        pygpu.diag_indices_from(pygpu.zeros((2, 3)))
    with pytest.raises(ValueError, match="at least 2-d"):
        pygpu.diag_indices_from(pygpu.zeros(3))
    with pytest.raises(TypeError):
        pygpu.tril_indices(2.5)


@pytest.mark.parametrize("shape, wrap", [((4, 4), False), ((7, 3), False), ((7, 3), True), ((3, 6), True),
                                         ((3, 3, 3), False), ((0, 0), False)])
@pytest.mark.parametrize("val", [5, [1, 2], np.arange(1, 30)])
def test_fill_diagonal(shape, wrap, val):
    a = np.zeros(shape, dtype=np.int32)
    pa = pygpu.asarray(a)
    assert pygpu.fill_diagonal(pa, val, wrap=wrap) is None
    np.fill_diagonal(a, val, wrap=wrap)
    same(pa, a)


def test_putmask():
    a = np.arange(12.0).reshape(3, 4)
    mask = a % 3 == 1
    for values in ([-1.0, -2.0], [7.0], np.arange(100.0)):
        x, px = a.copy(), pygpu.asarray(a)
        np.putmask(x, mask, values)
        pygpu.putmask(px, pygpu.asarray(mask), values)
        same(px, x)
    with pytest.raises(ValueError, match="same size"):
        pygpu.putmask(pygpu.zeros(3), pygpu.asarray([True, False]), 1.0)


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 1, 5), (4, 0, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_and_ravel_multi_index(shape, order):
    size = int(np.prod(shape))
    flat = np.arange(size, dtype=np.int64)[::-1]
    same(pygpu.unravel_index(pygpu.asarray(flat), shape, order=order), np.unravel_index(flat, shape, order=order))
    if size:
        same(pygpu.unravel_index(size - 1, shape, order=order), np.unravel_index(size - 1, shape, order=order))
        multi = np.unravel_index(flat, shape, order=order)
        same(pygpu.ravel_multi_index(tuple(pygpu.asarray(m) for m in multi), shape, order=order),
             np.ravel_multi_index(multi, shape, order=order))
        with pytest.raises(ValueError, match="out of bounds"):
            pygpu.unravel_index(size, shape)
        with pytest.raises(ValueError, match="invalid entry"):
            pygpu.ravel_multi_index(tuple(pygpu.asarray(m + 1 if k == 0 else m) for k, m in enumerate(multi)), shape)


def test_ravel_multi_index_modes():
    idx = (np.array([3, 6, 6]), np.array([4, 5, -1]))
    for mode in ("wrap", "clip", ("clip", "wrap")):
        same(pygpu.ravel_multi_index(tuple(pygpu.asarray(i) for i in idx), (7, 6), mode=mode),
             np.ravel_multi_index(idx, (7, 6), mode=mode))
    with pytest.raises(TypeError):
        pygpu.unravel_index(pygpu.asarray([1.0]), (3,))


def test_unravel_and_ravel_multi_index_orders_and_bools():
    """order is 'C' or 'F' in either case, None meaning 'C'; bool indices are taken as 0 and 1,
    as NumPy's cast to intp (both raised)."""
    flat = np.array([5, 0, 23])
    for order in (None, "c", "f"):
        same(pygpu.unravel_index(pygpu.asarray(flat), (6, 4), order=order), np.unravel_index(flat, (6, 4), order=order))
        multi = (np.array([1, 5]), np.array([3, 0]))
        same(pygpu.ravel_multi_index(tuple(pygpu.asarray(m) for m in multi), (6, 4), order=order),
             np.ravel_multi_index(multi, (6, 4), order=order))
    bools = np.array([True, False, True])
    same(pygpu.unravel_index(pygpu.asarray(bools), (6, 4)), np.unravel_index(bools, (6, 4)))
    same(pygpu.ravel_multi_index((pygpu.asarray(bools), pygpu.asarray(bools)), (8, 4)),
         np.ravel_multi_index((bools, bools), (8, 4)))
    for order in ("K", "A"):
        same_error(lambda: np.unravel_index(flat, (6, 4), order=order),
                   lambda: pygpu.unravel_index(pygpu.asarray(flat), (6, 4), order=order))


def test_ix():
    a = np.arange(30).reshape(5, 6)
    rows, cols = [0, 3, 4], np.array([True, False, True, False, False, True])
    got = pygpu.ix_(rows, pygpu.asarray(cols))
    want = np.ix_(rows, cols)
    same(got, want)
    same(pygpu.asarray(a)[got], a[want])
    same(pygpu.ix_([]), np.ix_([]))
    with pytest.raises(ValueError, match="1 dimensional"):
        pygpu.ix_([[1]])


# ------------------------------------------------------------------ creation

@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("N, increasing", [(None, False), (4, True), (0, False), (1, True)])
def test_vander(dtype, N, increasing):
    x = np.array([1, 2, 3, 5, -2], dtype=dtype)
    same(pygpu.vander(pygpu.asarray(x), N, increasing), np.vander(x, N, increasing))


def test_logspace_and_geomspace():
    for args in ((0, 3, 4), (1, -2, 7, False), (2.0, 3.0, 5, True, 2.0)):
        np.testing.assert_allclose(host(pygpu.logspace(*args)), np.logspace(*args), rtol=1e-14)
    np.testing.assert_allclose(host(pygpu.logspace([0, 1], [2, 3], 4, base=[2.0, 10.0], axis=1)),
                               np.logspace([0, 1], [2, 3], 4, base=[2.0, 10.0], axis=1), rtol=1e-14)
    same(pygpu.logspace(0, 2, 3, dtype=np.int32), np.logspace(0, 2, 3, dtype=np.int32))
    for args in ((1, 1000, 4), (-1000, -1, 4), (1j, 1000j, 4), (1, 256, 9, False)):
        same(pygpu.geomspace(*args), np.geomspace(*args))
    got = pygpu.geomspace(pygpu.asarray([1.0, -2.0]), pygpu.asarray([1000.0, -32.0]), 5, axis=1)
    want = np.geomspace([1.0, -2.0], [1000.0, -32.0], 5, axis=1)
    np.testing.assert_allclose(host(got), want, rtol=1e-14)
    assert host(got)[:, 0].tolist() == [1.0, -2.0] and host(got)[:, -1].tolist() == [1000.0, -32.0]
    with pytest.raises(ValueError, match="zero"):
        pygpu.geomspace(pygpu.asarray(0.0), pygpu.asarray(1.0))


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 2, 7])
def test_linspace_of_arrays(num, endpoint):
    start, stop = np.array([0.0, 1.0, 5.0]), np.array([[2.0, 1.0, -3.0], [1.0, 2.0, 3.0]])
    for axis in (0, 1, -1):
        want, wstep = np.linspace(start, stop, num, endpoint=endpoint, axis=axis, retstep=True)
        got, gstep = pygpu.linspace(pygpu.asarray(start), pygpu.asarray(stop), num, endpoint=endpoint, axis=axis,
                                    retstep=True)
        same(got, want)
        same(gstep, wstep)
    same(pygpu.linspace([0, 1], 5, 3, dtype=np.int64), np.linspace([0, 1], 5, 3, dtype=np.int64))
    with pytest.raises(ValueError, match="non-negative"):
        pygpu.linspace([0.0], [1.0], -1)


def test_linspace_of_arrays_into_integers_floors():
    """An integer dtype takes the samples rounded toward -inf, as NumPy's floor before its cast
    (truncation gave -2 for -2.04)."""
    for start, stop in ((0.0, np.array([100, -100], np.int32)), (np.array([-120, 120], np.int32), 0)):
        for dtype in (np.int32, np.int64, np.int8):
            ends = [pygpu.asarray(v) if isinstance(v, np.ndarray) else v for v in (start, stop)]
            same(pygpu.linspace(*ends, num=50, dtype=dtype), np.linspace(start, stop, num=50, dtype=dtype))


@pytest.mark.parametrize("fn", ["linspace", "logspace"])
def test_linspace_array_end_and_python_scalar_end(fn):
    """A Python-scalar end is weak in the dtype (NumPy's array converter): float16/float32 array
    ends keep their dtype, integer ones give float64, a complex scalar gives complex64."""
    for start, stop in ((np.array([0.0, 0.5], np.float16), 1), (np.array([0.0], np.float32), 1.0),
                        (0, np.array([1.0, 2.0], np.float32)), (np.array([0.0], np.float32), 1j),
                        (np.array([0, 1], np.int8), 3)):
        want = getattr(np, fn)(start, stop, 5)
        ends = [pygpu.asarray(v) if isinstance(v, np.ndarray) else v for v in (start, stop)]
        got = host(getattr(pygpu, fn)(*ends, 5))
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=2e-3 if want.dtype == np.float16 else 1e-6)


def test_block():
    A, B = np.eye(2) * 2, np.eye(3) * 3
    cases = [
        [[A, np.zeros((2, 3))], [np.ones((3, 2)), B]],
        [1, 2, 3],
        [[1, 2], [3, 4]],
        [np.arange(3), np.array([4, 5])],
        [[[np.ones((1, 1, 2))], [np.zeros((1, 1, 2))]]],
    ]
    for case in cases:
        pcase = [[pygpu.asarray(x) if isinstance(x, np.ndarray) else x for x in row] if isinstance(row, list) else
                 (pygpu.asarray(row) if isinstance(row, np.ndarray) else row) for row in case]
        same(pygpu.block(pcase), np.block(case))
    same(pygpu.block(pygpu.asarray(A)), np.block(A))
    with pytest.raises(ValueError, match="cannot be empty"):
        pygpu.block([[1], []])
    with pytest.raises(ValueError, match="depths are mismatched"):
        pygpu.block([[1, 2], 3])
    with pytest.raises(TypeError, match="tuple"):
        pygpu.block((1, 2))


def test_numpy_names_dispatch_to_pygpu():
    a = pygpu.arange(12.0).reshape(3, 4)
    for result in (np.nan_to_num(a), np.vander(a[0]), np.sinc(a),
                   np.block([[a, a]]), np.tril_indices_from(a)[0], np.unravel_index(a.astype(np.int64), (4, 3))[0]):
        assert isinstance(result, pygpu.ndarray)


# ------------------------------------------------------------------ set routines

SETS = [([1, 3, 4, 3, 9, 1], [3, 1, 2, 1, 7]), ([], [1, 2]), ([5.5, np.nan, 1.0], [1.0, 2.0]),
        (np.arange(40) % 7, np.arange(0, 90, 3) % 11), ([[1, 2], [2, 8]], [[8], [0]])]


@pytest.mark.parametrize("ar1, ar2", SETS)
def test_set_routines(ar1, ar2):
    a1, a2 = np.asarray(ar1), np.asarray(ar2)
    if a1.size == 0:
        a1 = a1.astype(a2.dtype)
    p1, p2 = pygpu.asarray(a1), pygpu.asarray(a2)
    same(pygpu.union1d(p1, p2), np.union1d(a1, a2))
    same(pygpu.intersect1d(p1, p2), np.intersect1d(a1, a2))
    same(pygpu.intersect1d(p1, p2, return_indices=True), np.intersect1d(a1, a2, return_indices=True))
    same(pygpu.setdiff1d(p1, p2), np.setdiff1d(a1, a2))
    same(pygpu.setxor1d(p1, p2), np.setxor1d(a1, a2))
    u1, u2 = np.unique(a1), np.unique(a2)
    same(pygpu.intersect1d(pygpu.asarray(u1), pygpu.asarray(u2), assume_unique=True, return_indices=True),
         np.intersect1d(u1, u2, assume_unique=True, return_indices=True))
    same(pygpu.setdiff1d(pygpu.asarray(u1[::-1]), pygpu.asarray(u2), assume_unique=True),
         np.setdiff1d(u1[::-1], u2, assume_unique=True))
    same(np.union1d(p1, p2), np.union1d(a1, a2))   # dispatched


def test_ediff1d_and_sort_complex():
    a = np.array([[1, 2, 4], [7, 0, -3]], dtype=np.int32)
    pa = pygpu.asarray(a)
    same(pygpu.ediff1d(pa), np.ediff1d(a))
    same(pygpu.ediff1d(pa, to_begin=-99, to_end=[88, 99]), np.ediff1d(a, to_begin=-99, to_end=[88, 99]))
    with pytest.raises(TypeError, match="same_kind"):
        pygpu.ediff1d(pa, to_end=1.5)
    for dtype in (np.int8, np.int64, np.float32, np.complex64):
        x = (np.array([5, 3, 6, 2, 1]) + (1j * np.array([2, 1, 0, 3, 1]) if dtype == np.complex64 else 0)).astype(dtype)
        same(pygpu.sort_complex(pygpu.asarray(x)), np.sort_complex(x))


# ------------------------------------------------------------------ covariance and correlation

@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_cov_and_corrcoef(rowvar, dtype):
    rng = np.random.default_rng(5)
    m = (rng.standard_normal((4, 9)) * 3).astype(dtype) if dtype != np.int32 else rng.integers(-5, 5, (4, 9)).astype(dtype)
    if dtype == np.complex128:
        m = m + 1j * rng.standard_normal((4, 9))
    y = rng.standard_normal((4, 9)) if rowvar else rng.standard_normal((4, 2))
    pm, py = pygpu.asarray(m), pygpu.asarray(y)
    tol = dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    fw = rng.integers(1, 4, 9 if rowvar else 4)
    aw = rng.random(9 if rowvar else 4)
    for kwargs in ({}, {"bias": True}, {"ddof": 3}, {"fweights": fw}, {"aweights": aw}, {"fweights": fw, "aweights": aw, "ddof": 2}):
        got, want = pygpu.cov(pm, rowvar=rowvar, **kwargs), np.cov(m, rowvar=rowvar, **kwargs)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(host(got), want, **tol)
    np.testing.assert_allclose(host(pygpu.cov(pm, py, rowvar=rowvar)), np.cov(m, y, rowvar=rowvar), **tol)
    np.testing.assert_allclose(host(pygpu.corrcoef(pm, rowvar=rowvar)), np.corrcoef(m, rowvar=rowvar), **tol)
    assert pygpu.corrcoef(pm, rowvar=rowvar).dtype == np.corrcoef(m, rowvar=rowvar).dtype


def test_cov_edge_cases():
    got, want = pygpu.cov(pygpu.asarray([1.0, 2.0, 4.0])), np.cov([1.0, 2.0, 4.0])   # one variable: 0-d
    if got.device == pygpu.Device("cpu"):
        same(got, want)
    else:
        # the product of the deviations is cuBLAS's dgemm (fma, its own order), NumPy's its BLAS's
        # dot: each within 3u of the sum of the 3 positive squares, and u more for the 1 / (n - 1),
        # so 8u apart at most (2.3333333333333335 against 2.333333333333333 on an H200: 1 ulp)
        u = np.finfo(np.float64).eps / 2
        assert got.shape == () and got.dtype == want.dtype
        np.testing.assert_allclose(host(got), want, rtol=8 * u, atol=0)
    same(pygpu.corrcoef(pygpu.asarray([1.0, 2.0, 4.0])), np.corrcoef([1.0, 2.0, 4.0]))
    assert pygpu.cov(pygpu.zeros((0, 3))).shape == (0, 0)
    # no variables: NumPy's early return is float64 whatever the input or requested dtype
    for f in (lambda m: m.cov(m.zeros((0, 3), complex)), lambda m: m.cov(m.zeros((0, 3)), dtype="float32"),
              lambda m: m.corrcoef(m.zeros((0, 3), "float32"), dtype="float32")):
        want, got = numpy_and_pygpu(f)
        assert got == want
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        pygpu.cov(pygpu.asarray([[1.0], [2.0]]))
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        pygpu.cov(pygpu.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="ddof must be integer"):
        pygpu.cov(pygpu.zeros((2, 3)), ddof=1.5)
    with pytest.raises(TypeError, match="fweights must be integer"):
        pygpu.cov(pygpu.ones((2, 3)), fweights=[1.5, 1, 1])
    with pytest.raises(ValueError, match="cannot be negative"):
        pygpu.cov(pygpu.ones((2, 3)), aweights=[-1.0, 1, 1])
    with pytest.raises(RuntimeError, match="incompatible numbers"):
        pygpu.cov(pygpu.ones((2, 3)), fweights=[1, 1])
    # an integer or bool dtype=: NumPy subtracts the float means in place, and refuses the cast
    m = np.arange(6).reshape(2, 3)
    for dt in ("int8", "uint32", "int64", "bool"):
        for f in ("cov", "corrcoef"):
            same_error(lambda: getattr(np, f)(m, dtype=dt), lambda: getattr(pygpu, f)(pygpu.asarray(m), dtype=dt))
        same_error(lambda: np.cov(m, dtype=dt, aweights=[1.0, 2.0, 1.0]),
                   lambda: pygpu.cov(pygpu.asarray(m), dtype=dt, aweights=[1.0, 2.0, 1.0]))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_nancumsum_and_nancumprod(dtype):
    a = special(dtype, (3, 5), seed=2)
    if np.issubdtype(dtype, np.floating):
        a = np.where(np.isinf(a), 1.5, a).astype(dtype)
    pa = pygpu.asarray(a)
    for axis in (None, 0, 1, -1):
        np.testing.assert_allclose(host(pygpu.nancumsum(pa, axis=axis)), np.nancumsum(a, axis=axis), rtol=1e-6)
        np.testing.assert_allclose(host(pygpu.nancumprod(pa, axis=axis)), np.nancumprod(a, axis=axis), rtol=1e-5)
        assert pygpu.nancumsum(pa, axis=axis).dtype == np.nancumsum(a, axis=axis).dtype


# ------------------------------------------------------------------ signals

@pytest.mark.parametrize("n, m", [(1, 1), (7, 4), (7, 3), (4, 7), (3, 7), (5, 5), (6, 2), (300, 17)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_correlate_and_convolve(n, m, mode):
    rng = np.random.default_rng(n * 31 + m)
    a, v = rng.standard_normal(n), rng.standard_normal(m)
    for x, y in ((a, v), (a + 1j * rng.standard_normal(n), v - 0.5j)):
        np.testing.assert_allclose(host(pygpu.correlate(pygpu.asarray(x), pygpu.asarray(y), mode)),
                                   np.correlate(x, y, mode), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(host(pygpu.convolve(pygpu.asarray(x), pygpu.asarray(y), mode)),
                                   np.convolve(x, y, mode), rtol=1e-12, atol=1e-12)
    ia, iv = rng.integers(-9, 9, n), rng.integers(-9, 9, m)
    same(pygpu.convolve(pygpu.asarray(ia), pygpu.asarray(iv), mode), np.convolve(ia, iv, mode))
    same(pygpu.correlate(pygpu.asarray(ia), pygpu.asarray(iv), mode), np.correlate(ia, iv, mode))


@pytest.mark.parametrize("dtypes", [("f8", "f8"), ("f4", "f4"), ("c8", "c8"), ("c16", "f8"), ("f4", "f8"),
                                    ("f2", "f2"), ("?", "?"), ("i1", "u2")])
def test_correlate_dtypes_and_runs(device, dtypes):
    """Every dtype's path (the correlation kernels for float32/64 and complex, fused passes for
    the rest), lengths across the kernels' runs of 16 outputs and the CPU's split over threads,
    strided and reversed signals, NaN and infinity carried as NumPy carries them."""
    rng = np.random.default_rng(7)
    def values(dt, n):
        v = rng.integers(0, 2, n).astype(dt) if dt == "?" else rng.integers(-5, 5, n).astype(dt) \
            if dt[0] in "iu" else (rng.standard_normal(n) * 2).astype(dt)
        return v + 1j * rng.standard_normal(n).astype(dt) if dt[0] == "c" else v
    rtol = {"f2": 2e-2, "f4": 1e-5, "c8": 1e-5}.get(dtypes[0], 1e-12)
    for n, m in ((15, 1), (16, 9), (17, 16), (33, 17), (70001, 9), (40, 40)):
        x, w = values(dtypes[0], 2 * n)[::2], values(dtypes[1], m)[::-1]   # strided, reversed
        if dtypes[0] in ("f8", "f4") and n > 20:
            x[3], x[n // 2] = np.nan, np.inf
        px = pygpu.asarray(np.ascontiguousarray(values(dtypes[0], 2 * n)), device=device)[::2]
        px[...] = pygpu.asarray(x, device=device)
        pw = pygpu.asarray(w[::-1].copy(), device=device)[::-1]
        for mode in ("full", "same", "valid"):
            for name in ("correlate", "convolve"):
                with np.errstate(all="ignore"):
                    want = getattr(np, name)(x, w, mode)
                    got = host(getattr(pygpu, name)(px, pw, mode))
                assert got.dtype == want.dtype and got.shape == want.shape, (name, mode, n, m)
                np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * m * 4, equal_nan=True,
                                           err_msg=f"{name} {mode} n={n} m={m}")


def test_correlate_kernel_arguments():
    x, w = pygpu.arange(10.0), pygpu.ones(3)
    same(pygpu._core._correlate(x, w), np.correlate(np.arange(10.0), np.ones(3)))
    with pytest.raises(TypeError, match="one float32, float64"):
        pygpu._core._correlate(x, w.astype(np.float32))
    with pytest.raises(TypeError, match="one float32, float64"):
        pygpu._core._correlate(x.astype(np.int64), w.astype(np.int64))
    with pytest.raises(ValueError, match="1 <= len"):
        pygpu._core._correlate(w, x)
    with pytest.raises(ValueError, match="1 <= len"):
        pygpu._core._correlate(x.reshape(2, 5), w)
    with pytest.raises(TypeError):
        pygpu._core._correlate(np.arange(10.0), w)


def test_correlate_and_convolve_errors():
    with pytest.raises(ValueError, match="a cannot be empty"):
        pygpu.convolve([], [1.0])
    with pytest.raises(ValueError, match="v cannot be empty"):
        pygpu.convolve([1.0], [])
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        pygpu.correlate([], [1.0])
    with pytest.raises(ValueError, match="mode must be one of"):
        pygpu.correlate([1.0], [2.0], "bad")
    same(pygpu.convolve(3.0, [1.0, 2.0]), np.convolve(3.0, [1.0, 2.0]))


@pytest.mark.parametrize("dtype", ["f2", "f4", "f8"])
def test_correlate_and_convolve_non_finite_taps(dtype):
    """An inf or NaN tap reaches only the outputs it overlaps (NumPy sums overlapping products;
    zero padding times inf would be NaN at the ends)."""
    x = np.arange(1.0, 6.0, dtype=dtype)
    for taps in ([np.inf, 1.0], [1.0, np.nan], [2.0, -np.inf, 3.0], [1.0, 2.0, 3.0, 4.0, 5.0, np.inf, 1.0]):
        w = np.asarray(taps, dtype=dtype)
        for mode in ("full", "same", "valid"):
            with np.errstate(all="ignore"):
                same(pygpu.convolve(pygpu.asarray(x), pygpu.asarray(w), mode), np.convolve(x, w, mode))
                same(pygpu.correlate(pygpu.asarray(x), pygpu.asarray(w), mode), np.correlate(x, w, mode))
    with np.errstate(all="ignore"):
        same(pygpu.polymul([1.0, np.inf], [1.0, 1.0, 1.0]), np.polymul([1.0, np.inf], [1.0, 1.0, 1.0]))


@pytest.mark.parametrize("seed", range(6))
def test_interp_random_against_numpy(seed):
    """Random tables with repeated samples, points on the samples, outside them and in between,
    steep and flat cells: NumPy's values to the bit."""
    rng = np.random.default_rng(seed)
    xp = np.sort(rng.integers(0, 40, 25).astype(float) / 4)         # repeats on purpose
    fp = rng.standard_normal(25) * 10.0 ** rng.integers(-3, 4, 25)
    x = np.concatenate([rng.uniform(-2, 12, 500), xp, [np.nan, np.inf, -np.inf]])
    for kw in ({}, {"left": -1.5, "right": 2.5}):
        same(pygpu.interp(pygpu.asarray(x), pygpu.asarray(xp), pygpu.asarray(fp), **kw), np.interp(x, xp, fp, **kw))


def test_interp():
    xp, fp = np.array([1.0, 2.0, 3.0, 3.0, 5.0]), np.array([3.0, 2.0, 0.0, 4.0, -1.0])
    x = np.array([-1.0, 1.0, 1.5, 2.72, 3.0, 4.0, 5.0, 6.0, np.nan, np.inf, -np.inf])
    px, pxp, pfp = pygpu.asarray(x), pygpu.asarray(xp), pygpu.asarray(fp)
    same(pygpu.interp(px, pxp, pfp), np.interp(x, xp, fp))
    same(pygpu.interp(px, pxp, pfp, left=-7.0, right=7.0), np.interp(x, xp, fp, left=-7.0, right=7.0))
    cfp = fp + 1j * fp[::-1]
    same(pygpu.interp(px, pxp, pygpu.asarray(cfp)), np.interp(x, xp, cfp))
    same(pygpu.interp(2.5, pxp, pfp), np.interp(2.5, xp, fp))
    ang = np.array([-180.0, -170.0, -185.0, 185.0, -10.0, -5.0, 0.0, 365.0])
    xs = np.array([-190.0, -5.0, 5.0, 170.0, 540.0])
    np.testing.assert_allclose(host(pygpu.interp(pygpu.asarray(xs), pygpu.asarray(ang), pygpu.asarray(np.arange(8.0)),
                                                 period=360)), np.interp(xs, ang, np.arange(8.0), period=360))
    same(pygpu.interp(px, pygpu.asarray([2.0]), pygpu.asarray([9.0])), np.interp(x, [2.0], [9.0]))
    with pytest.raises(ValueError, match="same length"):
        pygpu.interp(px, pxp, pfp[:3])
    with pytest.raises(ValueError, match="empty"):
        pygpu.interp(px, pygpu.asarray([]), pygpu.asarray([]))
    with pytest.raises(ValueError, match="non-zero"):
        pygpu.interp(px, pxp, pfp, period=0)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64])
def test_unwrap(dtype):
    rng = np.random.default_rng(8)
    p = (np.cumsum(rng.standard_normal((3, 40)) * 2.5, axis=1)).astype(dtype) if dtype != np.int64 else \
        np.cumsum(rng.integers(-7, 8, (3, 40)), axis=1)
    pp = pygpu.asarray(p)
    tol = dict(rtol=1e-5, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    for kwargs in ({}, {"axis": 0}, {"discont": 4.0}, {"period": 6}, {"period": 5, "discont": 1}):
        got, want = pygpu.unwrap(pp, **kwargs), np.unwrap(p, **kwargs)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(host(got), want, **tol)


@pytest.mark.parametrize("M", [-3, 0, 1, 2, 5, 12, 51.0])
def test_windows(M):
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        got, want = getattr(pygpu, name)(M), getattr(np, name)(M)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(host(got), want, rtol=1e-13, atol=1e-15)


# ------------------------------------------------------------------ derivatives and integrals

def test_gradient():
    rng = np.random.default_rng(9)
    f = rng.standard_normal((5, 7, 3))
    pf = pygpu.asarray(f)
    x = np.cumsum(rng.random(7)) + 1
    for args, kwargs in (((), {}), ((2.0,), {}), ((0.5, pygpu.asarray(x), 3.0), {}), ((), {"axis": 1}),
                         ((pygpu.asarray(x),), {"axis": -2, "edge_order": 2}), ((), {"edge_order": 2}),
                         ((0.5, 2.0), {"axis": (0, 2)}), ((pygpu.arange(7),), {"axis": 1})):
        np_args = tuple(host(a) for a in args)
        got, want = pygpu.gradient(pf, *args, **kwargs), np.gradient(f, *np_args, **kwargs)
        if isinstance(want, tuple):
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_allclose(host(g), w, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_allclose(host(got), want, rtol=1e-12, atol=1e-12)
    same(pygpu.gradient(pygpu.asarray([1, 2, 4, 7, 11, 16])), np.gradient([1, 2, 4, 7, 11, 16]))
    with pytest.raises(ValueError, match="too small"):
        pygpu.gradient(pygpu.asarray([1.0, 2.0]), edge_order=2)
    with pytest.raises(ValueError, match="greater than 2"):
        pygpu.gradient(pf, edge_order=3)
    with pytest.raises(TypeError, match="invalid number of arguments"):
        pygpu.gradient(pf, 1.0, 2.0)
    with pytest.raises(ValueError, match="match the length"):
        pygpu.gradient(pf, axis=1, *(pygpu.arange(6.0),))
    b = np.array([[True, False, True], [False, False, True]])
    for kw in ({}, {"axis": 1}):   # bool is not widened as integers are: NumPy's subtraction refuses it
        with pytest.raises(TypeError, match="boolean subtract"):
            np.gradient(b, **kw)
        with pytest.raises(TypeError, match="boolean subtract"):
            pygpu.gradient(pygpu.asarray(b), **kw)
    same(pygpu.gradient(pygpu.asarray(b[0].astype(np.int8))), np.gradient(b[0].astype(np.int8)))


def test_trapezoid():
    rng = np.random.default_rng(10)
    y = rng.standard_normal((4, 6))
    x = np.cumsum(rng.random(6))
    py = pygpu.asarray(y)
    for kwargs, pkw in (({}, {}), ({"dx": 0.5}, {"dx": 0.5}), ({"x": x}, {"x": pygpu.asarray(x)}),
                        ({"axis": 0}, {"axis": 0}), ({"x": np.tile(x, (4, 1))}, {"x": pygpu.asarray(np.tile(x, (4, 1)))})):
        np.testing.assert_allclose(host(pygpu.trapezoid(py, **pkw)), np.trapezoid(y, **kwargs), rtol=1e-12)
    same(pygpu.trapezoid([1, 2, 3]), np.trapezoid([1, 2, 3]))


# ------------------------------------------------------------------ creation, NEP 35, methods

def test_array_ndmin_and_like():
    p = pygpu.zeros(3)
    for obj, ndmin in (([1, 2], 3), (5.0, 2), ([[1]], 1), ([], 2)):
        got = np.array(obj, ndmin=ndmin, like=p)
        assert isinstance(got, pygpu.ndarray)
        same(got, np.array(obj, ndmin=ndmin))
        same(pygpu.array(obj, ndmin=ndmin), np.array(obj, ndmin=ndmin))
    x = pygpu.arange(4.0)
    assert pygpu.array(x, copy=False) is x and not pygpu.may_share_memory(pygpu.array(x), x)
    for name, args in (("asanyarray", ([1, 2],)), ("ascontiguousarray", ([[1, 2]],)), ("asfortranarray", ([[1, 2]],)),
                       ("require", ([1.0], None, "C"))):
        got = getattr(np, name)(*args, like=p)
        assert isinstance(got, pygpu.ndarray), name
        same(got, getattr(np, name)(*args))


def test_creation_from_host_data_with_like(tmp_path):
    p = pygpu.zeros(1)
    same(np.fromfunction(lambda i, j: i * 10 + j, (3, 4), like=p), np.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    same(np.fromfunction(lambda i: i, (3,), dtype=np.int32, like=p), np.fromfunction(lambda i: i, (3,), dtype=np.int32))
    same(np.frombuffer(b"\x01\x02\x03\x04", np.uint16, like=p), np.frombuffer(b"\x01\x02\x03\x04", np.uint16))
    same(np.fromiter(range(5), np.float32, like=p), np.fromiter(range(5), np.float32))
    same(np.fromstring("1 2 3", dtype=np.int64, sep=" ", like=p), np.fromstring("1 2 3", dtype=np.int64, sep=" "))
    path = tmp_path / "data.txt"
    path.write_text("1 2\n3 4\n")
    same(np.loadtxt(path, like=p), np.loadtxt(path))
    same(np.genfromtxt(path, like=p), np.genfromtxt(path))
    np.arange(6.0).tofile(tmp_path / "raw.bin")
    same(np.fromfile(tmp_path / "raw.bin", like=p), np.arange(6.0))
    with pytest.raises(TypeError, match="masked"):
        pygpu.genfromtxt(path, usemask=True)


def test_new_ndarray_methods():
    import sys
    a = np.array([[1.5, -2.25], [3.0, 0.5]])
    pa = pygpu.asarray(a)
    same(pa.dot(pa), a.dot(a))
    same(pa.clip(0, 1), a.clip(0, 1))
    same(pa.clip(max=1.0), a.clip(max=1.0))
    same(pa.round(), a.round())
    same(pa.round(1), a.round(1))
    c = pygpu.asarray(a + 1j)
    same(c.conj(), (a + 1j).conj())
    same(c.conjugate(), (a + 1j).conjugate())
    big = pygpu.zeros(10 ** 6)
    assert sys.getsizeof(big) >= big.nbytes           # the data counts (Dask's memory accounting)
    assert sys.getsizeof(big[1:]) < 1000               # a view does not own it


# ------------------------------------------------------------------ integer and float bit functions

@pytest.mark.parametrize("dtypes", [(np.int64, np.int64), (np.int32, np.int16), (np.uint8, np.uint8),
                                    (np.uint64, np.uint32), (np.int8, np.uint8)])
def test_gcd_lcm_bitwise_count(dtypes):
    rng = np.random.default_rng(11)
    lo = 0 if np.issubdtype(dtypes[0], np.unsignedinteger) else -60
    a = rng.integers(lo, 60, 300).astype(dtypes[0])
    b = rng.integers(0, 60, 300).astype(dtypes[1])
    a[:3] = 0
    b[1:4] = 0
    pa, pb = pygpu.asarray(a), pygpu.asarray(b)
    same(pygpu.gcd(pa, pb), np.gcd(a, b))
    same(pygpu.lcm(pa, pb), np.lcm(a, b))
    same(pygpu.bitwise_count(pa), np.bitwise_count(a))
    same(np.gcd(pa, pb), np.gcd(a, b))     # NumPy's ufunc dispatches by name too
    with pytest.raises(TypeError, match="did not contain a loop"):   # NumPy's own error
        pygpu.gcd(pygpu.asarray([1.5]), pb)
    same(pygpu.bitwise_count(pygpu.asarray([True, False])), np.bitwise_count(np.array([True, False])))


def _same_or_same_error(call_pygpu, call_numpy, compare=None):
    try:
        want = call_numpy()
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            call_pygpu()
        return
    (compare or same)(call_pygpu(), want)


def _same_pow(device):
    """How float_power's results (pow's) compare with NumPy's on device: bit for bit on the CPU
    (glibc's pow, NumPy's); on CUDA within its pow's documented 2 ulp of the correctly rounded
    result, which glibc's is within 0.52 ulp of: 3 ulp apart at most (2.0 ** 0.5, 1 ulp off
    sqrt 2 on an H200, is now sqrt's; x ** 1, 2, -1 are exact on both)."""
    if device == pygpu.Device("cpu"):
        return same

    def within(got, want):
        got, want = np.asarray(host(got)), np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
        np.testing.assert_array_max_ulp(got, want, maxulp=3)
    return within


@pytest.mark.parametrize("dtype", [np.int64, np.int16, np.uint8])
def test_python_ufuncs_have_numpys_methods(dtype):
    """gcd, lcm, float_power, divmod, ... answer as NumPy's ufuncs: attributes, reduce, accumulate
    and outer where NumPy has them, NumPy's errors where it refuses them."""
    a = np.array([[12, 18, 5], [0, 9, 6], [4, 30, 15]], dtype=dtype)
    if dtype != np.uint8:
        a[0, 2] = -5
    f = np.array([[2.0, 3.0, 2.0], [1.5, 2.0, 0.5]])
    pa, pf = pygpu.asarray(a), pygpu.asarray(f)
    for name in ("gcd", "lcm"):
        ours, theirs = getattr(pygpu, name), getattr(np, name)
        for kw in ({}, {"axis": 1}, {"axis": None}, {"axis": (0, 1)}, {"keepdims": True}, {"initial": 4},
                   {"dtype": np.int8}, {"axis": 1, "where": np.array([True, False, True]), "initial": 1},
                   {"where": np.array([True, False, True])}):
            pkw = {k: pygpu.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
            _same_or_same_error(lambda: ours.reduce(pa, **pkw), lambda: theirs.reduce(a, **kw))
        for x in (np.array([-3]), np.zeros(0, np.int64), np.array(-5), np.array([True])):
            _same_or_same_error(lambda: ours.reduce(pygpu.asarray(x)), lambda: theirs.reduce(x))
        same(ours.accumulate(pa, axis=1), theirs.accumulate(a, axis=1))
        same(ours.outer(pa[0], pa[1]), theirs.outer(a[0], a[1]))
    same(pygpu.gcd.reduce(pygpu.asarray([15, 25, 35])), np.gcd.reduce([15, 25, 35]))   # the docstring examples
    same(pygpu.lcm.reduce(pygpu.asarray([3, 12, 20])), np.lcm.reduce([3, 12, 20]))
    # float_power is neither associative nor commutative: combined in order, as NumPy's
    same_pow = _same_pow(pf.device)
    for kw in ({}, {"axis": 1}, {"axis": None}, {"keepdims": True}, {"initial": 2.0}, {"dtype": np.float32},
               {"axis": 1, "where": np.array([True, False, True]), "initial": 1.5}):
        pkw = {k: pygpu.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        _same_or_same_error(lambda: pygpu.float_power.reduce(pf, **pkw), lambda: np.float_power.reduce(f, **kw),
                            same_pow)
    same_pow(pygpu.float_power.reduce(pa[:2, :2]), np.float_power.reduce(a[:2, :2]))
    same_pow(pygpu.float_power.accumulate(pf, axis=1), np.float_power.accumulate(f, axis=1))
    same_pow(pygpu.float_power.outer(pf[0], pf[1]), np.float_power.outer(f[0], f[1]))
    same(pygpu.divmod.outer(pa[0], pa[1] + 1), np.divmod.outer(a[0], a[1] + 1))
    for name in ("divmod", "modf", "frexp", "spacing", "matmul", "gcd", "lcm", "float_power"):
        ours, theirs = getattr(pygpu, name), getattr(np, name)
        assert repr(ours) == repr(theirs) and ours.__name__ == name
        for attr in ("nin", "nout", "nargs", "identity", "signature"):
            assert getattr(ours, attr) == getattr(theirs, attr), (name, attr)
        assert ours.types and set(ours.types) <= set(theirs.types) and ours.ntypes == len(ours.types)
        for method, args in (("reduce", (f,)), ("accumulate", (f,)), ("outer", (f[0], f[1])),
                             ("reduceat", (f, [0]))):
            if name in ("gcd", "lcm", "float_power") or (name == "divmod" and method == "outer"):
                continue   # computed above (reduceat: below)
            with pytest.raises(Exception) as want:
                getattr(theirs, method)(*args)
            with pytest.raises(type(want.value), match=re.escape(str(want.value))):
                getattr(ours, method)(*(pygpu.asarray(x) for x in args))
    with pytest.raises(TypeError, match="non-trivial signature"):
        pygpu.matmul.at(pf, 0)
    with pytest.raises(TypeError, match="gcd.at is not supported"):
        pygpu.gcd.at(pa, [0], 5)
    with pytest.raises(TypeError, match="lcm.reduceat is not supported"):
        pygpu.lcm.reduceat(pa, [0, 2])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_bitwise_count_every_bit(dtype):
    """Every bit pattern's count (random bits, the extremes, -1, the minimum's magnitude)."""
    info = np.iinfo(dtype)
    bits = np.random.default_rng(5).integers(0, 2 ** 63, 5000, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    x = np.concatenate([bits.astype(dtype), np.array([0, 1, info.max, info.min, info.max - 1], dtype=dtype)])
    if info.min < 0:
        x = np.concatenate([x, np.array([-1, info.min + 1], dtype=dtype)])
    got = pygpu.bitwise_count(pygpu.asarray(x))
    assert got.dtype == np.uint8
    same(got, np.bitwise_count(x))
    same(pygpu.bitwise_count(pygpu.asarray(x)[::-3]), np.bitwise_count(x[::-3]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nextafter_every_bit_pattern(dtype):
    """nextafter steps the bits: random patterns against NumPy's (the C library's) in both
    directions, zeros of both signs, subnormals, the largest finite, infinities and NaNs."""
    rng = np.random.default_rng(3)
    ints = np.uint32 if dtype == np.float32 else np.uint64
    x = rng.integers(0, np.iinfo(ints).max, 20000, dtype=np.uint64).astype(ints).view(dtype)
    info = np.finfo(dtype)
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, info.max, -info.max, info.tiny, -info.tiny,
                      info.smallest_subnormal, -info.smallest_subnormal, 1.0, -1.0], dtype=dtype)
    x = np.concatenate([x, edges])
    for y in (x[::-1], np.roll(x, 7), np.full_like(x, np.inf), np.full_like(x, -np.inf), np.zeros_like(x),
              -np.zeros_like(x), x, np.full_like(x, np.nan)):
        with np.errstate(all="ignore"):
            want = np.nextafter(x, y)
        got = pygpu.asnumpy(pygpu.nextafter(pygpu.asarray(x), pygpu.asarray(y)))
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(got), nan)
        assert np.array_equal(got[~nan].view(ints), want[~nan].view(ints))


@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64])
def test_spacing_and_modf(dtype):
    if np.issubdtype(dtype, np.integer):
        x = np.array([-5, 0, 7, 100], dtype=dtype)
    else:
        info = np.finfo(dtype)
        x = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.75, info.max, -info.max, info.tiny, info.smallest_subnormal,
                      np.inf, -np.inf, np.nan, 1e3, -7.0], dtype=dtype)
    px = pygpu.asarray(x)
    with np.errstate(over="ignore", invalid="ignore"):
        want = np.spacing(x)
    same(pygpu.spacing(px), want)
    same(pygpu.modf(px), np.modf(x))
    with pytest.raises(TypeError, match="datetime64"):
        pygpu.isnat(px)


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.float16, np.float32, np.float64])
def test_frexp_and_ldexp(dtype):
    """Bit for bit NumPy's, at every boundary: subnormals, powers of two, the largest finite,
    exponents that overflow, underflow to subnormals, or round to the smallest one."""
    rng = np.random.default_rng(7)
    if dtype == np.bool_:
        x = np.array([True, False])
    elif np.issubdtype(dtype, np.integer):
        x = np.array([-5, 0, 7, 2 ** 30, -2 ** 31], dtype=dtype)
    else:
        info = np.finfo(dtype)
        exps = rng.integers(int(np.log2(info.smallest_subnormal)), info.maxexp, 300)
        with np.errstate(over="ignore"):
            x = np.concatenate([
                (rng.uniform(0.5, 1, 300) * rng.choice([-1, 1], 300) * 2.0 ** exps).astype(dtype),
                np.array([0.0, -0.0, 1.0, 0.5, 2.0, np.nextafter(dtype(4), dtype(0)), info.max, -info.max, info.tiny,
                          info.smallest_subnormal, -info.smallest_subnormal, np.inf, -np.inf, np.nan], dtype=dtype)])
    px = pygpu.asarray(x)
    m, e = pygpu.frexp(px)
    nm, ne = np.frexp(x)
    same(m, nm)
    same(e, ne)
    assert np.array_equal(np.signbit(host(m)), np.signbit(nm))
    for k in (0, 1, -1, 3, -24, -149, -150, -151, -1074, -1075, -1076, 127, 128, 1023, 1024, 1025, 2 ** 40, -2 ** 40):
        ks = np.full(x.shape, k)
        with np.errstate(all="ignore"):
            want = np.ldexp(x, ks)
        same(pygpu.ldexp(px, pygpu.asarray(ks)), want)
    shifts = rng.integers(-1100, 1100, x.shape)
    with np.errstate(all="ignore"):
        same(np.ldexp(px, pygpu.asarray(shifts)), np.ldexp(x, shifts))   # np.ldexp stays on pygpu
    with pytest.raises(TypeError, match="ldexp"):
        pygpu.ldexp(px, pygpu.asarray([1.5] * len(x)))
    # a ufunc: Python int exponents (int64, as NumPy's), out=, outer
    with np.errstate(all="ignore"):
        same(pygpu.ldexp(px, 5), np.ldexp(x, 5))
        same(pygpu.ldexp(px[::2], -3), np.ldexp(x[::2], -3))
        out = pygpu.empty_like(pygpu.asarray(np.ldexp(x, 1)))
        assert pygpu.ldexp(px, pygpu.asarray(np.int8(1)), out=out) is out
        same(out, np.ldexp(x, 1))
    assert isinstance(pygpu.ldexp, pygpu.ufunc) and isinstance(pygpu.bitwise_count, pygpu.ufunc)
    with pytest.raises(TypeError, match="ldexp"):
        pygpu.ldexp(px, 1.5)
    with pytest.raises(TypeError, match="ldexp"):
        pygpu.ldexp(px, pygpu.asarray([2 ** 63], dtype=np.uint64))   # no safe cast to int64, as NumPy


def test_save_and_load(tmp_path):
    """NumPy's file formats: what pygpu writes NumPy reads and the other way round; load puts
    the arrays on the current device, an .npz file's as each is asked for."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    pa = pygpu.asarray(a)
    pygpu.save(tmp_path / "a.npy", pa.T)
    same(np.load(tmp_path / "a.npy"), a.T)
    back = pygpu.load(tmp_path / "a.npy")
    assert isinstance(back, pygpu.ndarray)
    same(back, a.T)
    np.save(tmp_path / "b.npy", a.astype(np.complex64))
    same(pygpu.load(tmp_path / "b.npy", mmap_mode="r"), a.astype(np.complex64))
    pygpu.savez(tmp_path / "c.npz", pa, b=pa[1], c=np.int8(3))
    pygpu.savez_compressed(tmp_path / "d.npz", x=pa[:, ::2])
    with pygpu.load(tmp_path / "c.npz") as z:
        assert sorted(z.files) == ["arr_0", "b", "c"] and "b" in z and len(z) == 3
        same(z["arr_0"], a)
        same(z["b"], a[1])
        assert isinstance(z["c"], pygpu.ndarray) and z["c"].dtype == np.int8
        assert sorted(dict(z.items())) == ["arr_0", "b", "c"] and z.get("nope") is None
    same(np.load(tmp_path / "d.npz")["x"], a[:, ::2])
    same(pygpu.load(tmp_path / "d.npz")["x"], a[:, ::2])
    pygpu.savetxt(tmp_path / "e.txt", pa, fmt="%.1f", delimiter=",")
    same(np.loadtxt(tmp_path / "e.txt", delimiter=",", dtype=np.float32), a)
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):
        pygpu.load(tmp_path / "o.npy")                   # NumPy's own refusal
    with pytest.raises(TypeError, match="objects"):
        pygpu.load(tmp_path / "o.npy", allow_pickle=True)
    with pytest.raises(FileNotFoundError):
        pygpu.load(tmp_path / "missing.npy")


def test_printing_and_number_formatting():
    a = np.array([1.123456789, -2.0, 1e-9])
    pa = pygpu.asarray(a)
    assert pygpu.array_repr(pa) == repr(pa)
    assert pygpu.array_repr(pa, precision=2) == np.array_repr(a, precision=2)[:-1] + ", device='%s')" % pa.device
    assert pygpu.array_repr(a) == np.array_repr(a)            # NumPy arrays as NumPy prints them
    assert pygpu.array_str(pa, precision=3, suppress_small=True) == np.array_str(a, precision=3, suppress_small=True)
    assert pygpu.array2string(pa, separator=", ", precision=1) == np.array2string(a, separator=", ", precision=1)
    with pygpu.printoptions(precision=2):
        assert str(pa) == np.array_str(a, precision=2)        # NumPy's options are pygpu's
        assert pygpu.get_printoptions()["precision"] == 2
    assert pygpu.set_printoptions is np.set_printoptions
    x = pygpu.asarray(np.float32(0.1))
    assert pygpu.format_float_positional(x) == np.format_float_positional(np.float32(0.1))
    assert pygpu.format_float_scientific(x, precision=3) == np.format_float_scientific(np.float32(0.1), precision=3)
    assert pygpu.binary_repr(pygpu.asarray(-5), width=8) == np.binary_repr(-5, width=8) == "11111011"
    assert pygpu.base_repr(255, base=16, padding=2) == np.base_repr(255, base=16, padding=2)
    with pytest.raises(TypeError, match="scalar"):
        pygpu.binary_repr(pygpu.asarray([1, 2]))


def test_floating_point_error_state():
    """seterr/geterr/errstate keep NumPy's state and API; pygpu never detects the errors, so it
    refuses the modes that promise an action on one."""
    default = np.geterr()
    assert pygpu.geterr() == default
    with pygpu.errstate(divide="ignore", invalid="ignore"):
        assert pygpu.geterr() == np.geterr() == {**default, "divide": "ignore", "invalid": "ignore"}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            same(pygpu.asarray([0.0, 1.0]) / 0, np.array([np.nan, np.inf]))
    assert pygpu.geterr() == default
    assert isinstance(pygpu.errstate(all="ignore"), np.errstate)

    @pygpu.errstate(over="ignore", under="print")   # a decorator too, as NumPy's
    def inside():
        return pygpu.geterr()
    assert inside() == {**default, "over": "ignore", "under": "print"} and pygpu.geterr() == default
    old = pygpu.seterr(all="log")
    try:
        assert old == default and pygpu.geterr() == dict.fromkeys(default, "log")
    finally:
        assert pygpu.seterr(**old) == dict.fromkeys(default, "log")
    before = pygpu.seterrcall(print)
    try:
        assert pygpu.geterrcall() is print is np.geterrcall()
    finally:
        pygpu.seterrcall(before)
    for call in (lambda: pygpu.errstate(divide="raise"), lambda: pygpu.errstate(all="call", under="ignore"),
                 lambda: pygpu.seterr(invalid="raise")):
        with pytest.raises(NotImplementedError, match="cannot honour"):
            call()
    assert pygpu.geterr() == default
    # NumPy's own errors for bad names and modes
    for call, numpy_call in ((lambda: pygpu.seterr(divide="often"), lambda: np.seterr(divide="often")),
                             (lambda: pygpu.errstate(often="ignore"), lambda: np.errstate(often="ignore")),
                             (lambda: pygpu.errstate("ignore"), lambda: np.errstate("ignore"))):
        with pytest.raises(Exception) as want:
            numpy_call()
        with pytest.raises(type(want.value), match=re.escape(str(want.value))):
            call()
    assert pygpu.geterr() == default


def test_host_methods(tmp_path):
    import pickle
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    pa = pygpu.asarray(a)
    assert pa.tobytes() == a.tobytes() and pa.T.tobytes() == a.T.tobytes() and pa.tobytes("F") == a.tobytes("F")
    pa.tofile(tmp_path / "a.bin")
    same(np.fromfile(tmp_path / "a.bin", dtype=np.int16), a.ravel())
    back = pickle.loads(pa.dumps())
    assert isinstance(back, pygpu.ndarray) and back.device == pa.device
    same(back, a)
    pa.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        same(pickle.load(f), a)


# ------------------------------------------------------------------ histograms

@pytest.mark.parametrize("bins", ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt", "stone", 7,
                                  [0.0, 0.5, 2.0, 3.0]])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.filterwarnings("ignore:The number of bins estimated")   # stone of the integers, as NumPy's
def test_histogram_bin_edges_and_estimators(bins, dtype):
    rng = np.random.default_rng(12)
    a = (rng.standard_normal(1001) * 2).astype(dtype) if dtype != np.int32 else rng.integers(-5, 9, 1001).astype(dtype)
    pa = pygpu.asarray(a)
    np.testing.assert_allclose(host(pygpu.histogram_bin_edges(pa, bins)), np.histogram_bin_edges(a, bins), rtol=1e-12)
    np.testing.assert_allclose(host(pygpu.histogram_bin_edges(pa, bins, range=(-1, 2))),
                               np.histogram_bin_edges(a, bins, range=(-1, 2)), rtol=1e-12)
    got, gedges = pygpu.histogram(pa, bins)
    want, wedges = np.histogram(a, bins)
    same(got, want)
    np.testing.assert_allclose(host(gedges), wedges, rtol=1e-12)


def test_bin_estimator_errors():
    with pytest.raises(ValueError, match="not a valid estimator"):
        pygpu.histogram_bin_edges(pygpu.arange(5.0), "stones")
    with pytest.raises(TypeError, match="weighted data"):
        pygpu.histogram(pygpu.arange(5.0), "auto", weights=pygpu.ones(5))
    same(pygpu.histogram_bin_edges(pygpu.ones(4), "fd"), np.histogram_bin_edges(np.ones(4), "fd"))
    # stone at its upper bound of 100 bins warns, as NumPy's, at the caller
    a = np.random.default_rng(3).integers(0, 3, 50).astype(np.uint8)
    with pytest.warns(RuntimeWarning, match="may be suboptimal") as w:
        got = pygpu.histogram_bin_edges(pygpu.asarray(a), "stone")
    assert w[0].filename == __file__
    with pytest.warns(RuntimeWarning, match="may be suboptimal"):
        want = np.histogram_bin_edges(a, "stone")
    same(got, want)
    same(pygpu.histogram_bin_edges(pygpu.ones(4), "stone"), np.histogram_bin_edges(np.ones(4), "stone"))


@pytest.mark.parametrize("bins", [5, (3, 4), [np.array([0.0, 0.2, 1.0]), 4], np.array([0.0, 0.3, 0.6, 1.0])])
@pytest.mark.parametrize("density", [False, True])
def test_histogram2d_and_dd(bins, density):
    rng = np.random.default_rng(13)
    x, y = rng.random(500), rng.random(500)
    x[:3] = 1.0                            # on the last edge
    w = rng.random(500)
    for weights in (None, w):
        pw = None if weights is None else pygpu.asarray(weights)
        pbins = [pygpu.asarray(b) if isinstance(b, np.ndarray) else b for b in bins] if isinstance(bins, list) else \
            (pygpu.asarray(bins) if isinstance(bins, np.ndarray) else bins)
        got = pygpu.histogram2d(pygpu.asarray(x), pygpu.asarray(y), pbins, density=density, weights=pw)
        want = np.histogram2d(x, y, bins, density=density, weights=weights)
        for g, wnt in zip(got, want):
            assert host(g).dtype == wnt.dtype
            np.testing.assert_allclose(host(g), wnt, rtol=1e-12)
    z = rng.random(500)
    got = pygpu.histogramdd(pygpu.asarray(np.stack([x, y, z], axis=1)), bins=(2, 3, 4), range=[(0, 1), (0.2, 0.8), None])
    want = np.histogramdd(np.stack([x, y, z], axis=1), bins=(2, 3, 4), range=[(0, 1), (0.2, 0.8), None])
    same(got[0], want[0])
    for g, wnt in zip(got[1], want[1]):
        np.testing.assert_allclose(host(g), wnt, rtol=1e-12)
    with pytest.raises(ValueError, match="dimension of bins"):
        pygpu.histogramdd(pygpu.asarray(np.stack([x, y], axis=1)), bins=(2, 3, 4))


# ------------------------------------------------------------------ grids, concatenators, functions of parts

@pytest.mark.parametrize("key", [np.s_[0:], np.s_[3:], np.s_[2.5:], np.s_[3::2]])
def test_mgrid_ogrid_lone_slice_without_stop(key):
    """A lone slice with no stop is NumPy's arange(start, None, step): mgrid[3:] is arange(3)."""
    same(pygpu.mgrid[key], np.mgrid[key])
    same(pygpu.ogrid[key], np.ogrid[key])


@pytest.mark.parametrize("key", [np.s_[0:5], np.s_[0:1:5j], np.s_[0:4, 0:3], np.s_[-1:1:3j, 0:5:2],
                                 np.s_[0:2.5:0.5, 1:3], np.s_[3:0:-1, 0:2]])
def test_mgrid_ogrid(key):
    same(pygpu.mgrid[key], np.mgrid[key])
    got, want = pygpu.ogrid[key], np.ogrid[key]
    same(tuple(got) if isinstance(want, tuple) else got, tuple(want) if isinstance(want, tuple) else want)


def test_r_and_c():
    for key in (np.s_[1:4, 0, 4], np.s_[np.array([1, 2]), 0, [7, 8.5]], np.s_["0,2", [1, 2], [3, 4]],
                np.s_["1,2,0", [1, 2], [3, 4]], np.s_[-1:1:5j, 2], np.s_[np.array([[1, 2]]), np.array([[3, 4]])]):
        same(pygpu.r_[key], np.r_[key])
    same(pygpu.c_[np.array([1, 2, 3]), np.array([4, 5, 6])], np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])])
    same(pygpu.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])], np.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])])
    same(pygpu.r_[pygpu.arange(3), 7], np.r_[np.arange(3), 7])
    with pytest.raises(ValueError, match="matrix"):
        pygpu.r_["r", [1, 2]]
    with pytest.raises(ValueError, match="first entry"):
        pygpu.r_[[1], "0"]


def test_apply_along_and_over_axes_and_piecewise():
    a = np.arange(24.0).reshape(2, 3, 4)
    pa = pygpu.asarray(a)
    for axis in (0, 1, 2, -1):
        same(pygpu.apply_along_axis(lambda v: v * 2 + v[0], axis, pa), np.apply_along_axis(lambda v: v * 2 + v[0], axis, a))
        same(pygpu.apply_along_axis(lambda v: v.sum(), axis, pa), np.apply_along_axis(lambda v: v.sum(), axis, a))
        same(pygpu.apply_along_axis(pygpu.outer, axis, pa, pygpu.ones(2)),
             np.apply_along_axis(np.outer, axis, a, np.ones(2)))
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        pygpu.apply_along_axis(lambda v: v, 1, pygpu.zeros((0, 3)))
    same(pygpu.apply_over_axes(pygpu.sum, pa, [0, 2]), np.apply_over_axes(np.sum, a, [0, 2]))
    x = np.linspace(-2.5, 2.5, 11)
    px = pygpu.asarray(x)
    same(pygpu.piecewise(px, [px < 0, px >= 0], [-1, 1]), np.piecewise(x, [x < 0, x >= 0], [-1, 1]))
    same(pygpu.piecewise(px, [px < -1, px > 1], [lambda v: -v, lambda v: v * 2, 0.5]),
         np.piecewise(x, [x < -1, x > 1], [lambda v: -v, lambda v: v * 2, 0.5]))
    with pytest.raises(ValueError, match="functions are expected"):
        pygpu.piecewise(px, [px < 0], [1, 2, 3])


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_unpackbits(axis, bitorder):
    a = np.array([[2, 0, 0, 1, 1, 0, 3, 1, 1, 1], [0, 1, 1, 0, 0, 0, 0, 1, 0, 0]], dtype=np.int8)
    packed = np.packbits(a, axis=axis, bitorder=bitorder)
    same(pygpu.packbits(pygpu.asarray(a), axis=axis, bitorder=bitorder), packed)
    for count in (None, 3, -2, 20):
        same(pygpu.unpackbits(pygpu.asarray(packed), axis=axis, count=count, bitorder=bitorder),
             np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))
    with pytest.raises(TypeError, match="unsigned byte"):
        pygpu.unpackbits(pygpu.asarray(a))
    with pytest.raises(ValueError, match="'little' or 'big'"):
        pygpu.packbits(pygpu.asarray(a), bitorder="middle")
    # a 0-d array packs as a 1-d one: axis 0 and -1 work, 1 is NumPy's AxisError for 1 dimension
    for x in (np.array(5), np.array(5, np.uint8)):
        for ax in (0, -1, 1):
            if ax == 1:
                with pytest.raises(np.exceptions.AxisError, match="dimension 1"):
                    pygpu.packbits(pygpu.asarray(x), axis=ax)
                with pytest.raises(np.exceptions.AxisError, match="dimension 1"):
                    pygpu.unpackbits(pygpu.asarray(x.astype(np.uint8)), axis=ax)
                continue
            same(pygpu.packbits(pygpu.asarray(x), axis=ax, bitorder=bitorder),
                 np.packbits(x, axis=ax, bitorder=bitorder))
            same(pygpu.unpackbits(pygpu.asarray(x.astype(np.uint8)), axis=ax, count=3, bitorder=bitorder),
                 np.unpackbits(x.astype(np.uint8), axis=ax, count=3, bitorder=bitorder))


# ------------------------------------------------------------------ polynomials

def test_polynomial_arithmetic_and_evaluation():
    p, q = np.array([3.0, -2.0, 0.5, 4.0]), np.array([1.5, 2.0])
    pp, pq = pygpu.asarray(p), pygpu.asarray(q)
    x = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(host(pygpu.polyval(pp, pygpu.asarray(x))), np.polyval(p, x), rtol=1e-13)
    same(pygpu.polyval([1, 2, 3], 2), np.polyval([1, 2, 3], 2))
    for name in ("polyadd", "polysub", "polymul"):
        np.testing.assert_allclose(host(getattr(pygpu, name)(pp, pq)), getattr(np, name)(p, q), rtol=1e-13)
        np.testing.assert_allclose(host(getattr(pygpu, name)(pq, pp)), getattr(np, name)(q, p), rtol=1e-13)
    for m in (0, 1, 2, 5):
        same(pygpu.polyder(pp, m), np.polyder(p, m))
    np.testing.assert_allclose(host(pygpu.polyint(pp)), np.polyint(p), rtol=1e-14)
    np.testing.assert_allclose(host(pygpu.polyint(pp, 2, k=[1.0, -2.0])), np.polyint(p, 2, k=[1.0, -2.0]), rtol=1e-14)
    got, want = pygpu.polydiv(pp, pq), np.polydiv(p, q)
    for g, w in zip(got, want):
        np.testing.assert_allclose(host(g), w, rtol=1e-13, atol=1e-13)


def test_polynomial_dtypes_types_and_errors_as_numpy():
    """poly and roots of float16 give float64 (NumPy's mintypecode, its array([])); poly([]) is a
    Python float; 0-d and N-d coefficients raise as NumPy's code raises (len(), iteration)."""
    for f in (lambda m: m.poly(m.asarray([2.0], dtype="f2")), lambda m: m.roots(m.asarray([2.0], dtype="f2")),
              lambda m: m.roots(m.asarray([2j])), lambda m: m.roots(m.asarray([2j, 0])),
              lambda m: m.polyder(m.asarray([[1.0, 2], [3, 4], [5, 6]])), lambda m: m.polyint(m.asarray(3.0), 0)):
        same(f(pygpu), f(np))
    assert type(pygpu.poly([])) is type(np.poly([])) and pygpu.poly([]) == np.poly([])
    for f in (lambda m: m.polyder(m.asarray(3.0)), lambda m: m.polyder(m.asarray(3.0), 0),
              lambda m: m.polyint(m.asarray(3.0)), lambda m: m.polyval(m.asarray(3), m.asarray(3)),
              lambda m: m.roots(m.asarray(3.0)), lambda m: m.poly(m.asarray(3.0)),
              lambda m: m.polyder(m.asarray([[1.0, 2, 3], [3, 4, 5]]))):
        with pytest.raises(Exception) as want:
            f(np)
        with pytest.raises(type(want.value)):
            f(pygpu)


def test_polyfit_roots_and_poly():
    rng = np.random.default_rng(14)
    x = np.linspace(0, 4, 30)
    y = 2 * x ** 2 - x + 0.5 + rng.standard_normal(30) * 0.01
    for deg in (1, 2, 4):
        np.testing.assert_allclose(host(pygpu.polyfit(pygpu.asarray(x), pygpu.asarray(y), deg)), np.polyfit(x, y, deg),
                                   rtol=1e-8, atol=1e-10)
    w = rng.random(30) + 0.5
    np.testing.assert_allclose(host(pygpu.polyfit(pygpu.asarray(x), pygpu.asarray(y), 2, w=pygpu.asarray(w))),
                               np.polyfit(x, y, 2, w=w), rtol=1e-8)
    y2 = np.stack([y, y[::-1]], axis=1)
    np.testing.assert_allclose(host(pygpu.polyfit(pygpu.asarray(x), pygpu.asarray(y2), 2)), np.polyfit(x, y2, 2), rtol=1e-8)
    c, v = pygpu.polyfit(pygpu.asarray(x), pygpu.asarray(y), 2, cov=True)
    wc, wv = np.polyfit(x, y, 2, cov=True)
    np.testing.assert_allclose(host(v), wv, rtol=1e-6, atol=1e-12)
    with pytest.raises(TypeError, match="same length"):
        pygpu.polyfit(pygpu.asarray(x), pygpu.asarray(y[:5]), 2)
    for p in ([1, -6, 11, -6], [0, 0, 1, 0, -4, 0, 0], [1, 0, 1], [5]):
        got, want = host(pygpu.roots(p)), np.roots(p)
        assert got.dtype.kind == want.dtype.kind and got.shape == want.shape
        np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(want), rtol=1e-10, atol=1e-12)
    for z in ([1, 2, 3], [1j, -1j, 2], np.array([[1.0, 2.0], [3.0, 4.0]])):
        got, want = host(pygpu.poly(pygpu.asarray(z))), np.poly(z)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ quantiles that skip NaNs

METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


@pytest.mark.parametrize("method", METHODS)
def test_nanquantile_methods(method):
    rng = np.random.default_rng(15)
    a = rng.standard_normal((6, 9))
    a[rng.random((6, 9)) < 0.3] = np.nan
    a[2, :8] = np.nan                       # one valid value
    pa = pygpu.asarray(a)
    for q in (0.5, [0.0, 0.1, 0.5, 0.93, 1.0]):
        for axis in (None, 0, 1, -1):
            got = pygpu.nanquantile(pa, q, axis=axis, method=method)
            want = np.nanquantile(a, q, axis=axis, method=method)
            assert host(got).dtype == want.dtype and host(got).shape == want.shape
            np.testing.assert_allclose(host(got), want, rtol=1e-12, atol=1e-12)


def test_nanmedian_nanpercentile():
    rng = np.random.default_rng(16)
    a = rng.standard_normal((4, 7, 5)).astype(np.float32)
    a[rng.random(a.shape) < 0.25] = np.nan
    pa = pygpu.asarray(a)
    for axis in (None, 0, 1, (0, 2), -1):
        for keepdims in (False, True):
            np.testing.assert_allclose(host(pygpu.nanmedian(pa, axis=axis, keepdims=keepdims)),
                                       np.nanmedian(a, axis=axis, keepdims=keepdims), rtol=1e-6)
            np.testing.assert_allclose(host(pygpu.nanpercentile(pa, [10, 90], axis=axis, keepdims=keepdims)),
                                       np.nanpercentile(a, [10, 90], axis=axis, keepdims=keepdims), rtol=1e-5)
    assert pygpu.nanmedian(pa).dtype == np.nanmedian(a).dtype
    b = np.array([[np.nan, np.nan], [1.0, 2.0]])
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        got = pygpu.nanmedian(pygpu.asarray(b), axis=1)
    with pytest.warns(RuntimeWarning):
        want = np.nanmedian(b, axis=1)
    same(got, want)
    ints = np.arange(10)
    same(pygpu.nanmedian(pygpu.asarray(ints)), np.nanmedian(ints))
    same(pygpu.nanpercentile(pygpu.asarray(ints), 30), np.nanpercentile(ints, 30))
    with pytest.raises(ValueError, match="range"):
        pygpu.nanpercentile(pa, 101)


@pytest.mark.parametrize("axis", [None, 1])
def test_nanquantile_of_2d_q(axis):
    # NumPy takes q of up to 2 dimensions (its error, for 3, still says 1d)
    a = np.array([[0.0, 1, np.nan, 3], [4, 5, 6, np.nan]])
    for f, q in (("nanquantile", np.array([[0.2], [0.8]])), ("nanpercentile", np.array([[10.0, 50, 90]]))):
        got, want = getattr(pygpu, f)(pygpu.asarray(a), q, axis=axis), getattr(np, f)(a, q, axis=axis)
        assert host(got).shape == want.shape
        np.testing.assert_allclose(host(got), want, rtol=1e-12)
    same_error(lambda: np.nanquantile(a, np.full((2, 1, 2), 0.5)),
               lambda: pygpu.nanquantile(pygpu.asarray(a), np.full((2, 1, 2), 0.5)))


def test_nanmedian_of_complex_skips_either_part_nan():
    # NumPy's complex NaN is a NaN in either part; those are skipped as real NaNs are
    a = np.array([[np.nan + 1j, 2 + 3j, 4 + 5j, 1j], [3, complex(1, np.nan), 2, 0]])
    for axis in (None, 0, 1):
        want, got = numpy_and_pygpu(lambda m: m.nanmedian(m.asarray(a), axis=axis))
        assert got == want


def test_i0_and_kaiser():
    x = np.concatenate([np.linspace(-40, 40, 2001), np.linspace(29.5, 30.5, 101), np.linspace(40, 700, 301), [0.0, -0.0]])
    np.testing.assert_allclose(host(pygpu.i0(pygpu.asarray(x))), np.i0(x), rtol=5e-15)
    x32 = np.linspace(-80, 80, 1001).astype(np.float32)
    got = pygpu.i0(pygpu.asarray(x32))
    assert got.dtype == np.i0(x32).dtype
    np.testing.assert_allclose(host(got), np.i0(x32), rtol=2e-6)
    assert pygpu.i0(pygpu.asarray([0, 1, 2])).dtype == np.i0(np.array([0, 1, 2])).dtype
    np.testing.assert_allclose(host(pygpu.i0(pygpu.asarray([0, 1, 2]))), np.i0(np.array([0, 1, 2])), rtol=5e-15)
    with pytest.raises(TypeError, match="complex"):
        pygpu.i0(pygpu.asarray([1j]))
    # overflow is inf (NaN only for inf and NaN), at the point where NumPy's exp overflows in the
    # input's own dtype; float16 stays float16
    for x, rtol in ((np.array([700.0, 709.0, 710.0, 1e308, np.inf, -np.inf, np.nan]), 5e-15),
                    (np.array([88.0, 88.7, 88.8, 89.0, 1e30, np.inf, np.nan], np.float32), 2e-6),
                    (np.array([0.0, 1.0, 8.5, 11.0, 11.2, 12.0, -20.0, np.inf, np.nan], np.float16), 2e-3)):
        with np.errstate(all="ignore"):
            want = np.i0(x)
        got = host(pygpu.i0(pygpu.asarray(x)))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)
    for M, beta in ((1, 5.0), (0, 3.0), (12, 14.0), (51, 0.0), (8, 8.6)):
        got, want = pygpu.kaiser(M, beta), np.kaiser(M, beta)
        assert got.shape == want.shape
        np.testing.assert_allclose(host(got), want, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.float64, np.complex128])
def test_emath(dtype):
    for values in ([4.0, 9.0, 0.25], [-4.0, 9.0, 0.5], [-0.5, 0.3, 2.0]):
        x = np.array(values).astype(dtype) if np.issubdtype(dtype, np.inexact) else np.array([4, -9, 1]).astype(dtype)
        px = pygpu.asarray(x)
        for name in ("sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"):
            with np.errstate(all="ignore"):
                want = getattr(np.emath, name)(x)
                got = getattr(pygpu.emath, name)(px)
            assert host(got).dtype == want.dtype, name
            np.testing.assert_allclose(host(got), want, rtol=2e-6 if dtype == np.float32 else 1e-13, atol=1e-7)
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(host(pygpu.emath.logn(2, px)), np.emath.logn(2, x), rtol=1e-6, atol=1e-7)
            np.testing.assert_allclose(host(pygpu.emath.power(px, -2)), np.emath.power(x, -2), rtol=1e-6)
    with np.errstate(all="ignore"):
        got = np.emath.sqrt(pygpu.asarray([-1.0, 4.0]))   # dispatched
    assert isinstance(got, pygpu.ndarray)
    np.testing.assert_allclose(host(got), [1j, 2.0])


def test_poly1d():
    p, q = pygpu.poly1d([1.0, -3.0, 2.0]), np.poly1d([1.0, -3.0, 2.0])
    x = np.linspace(-2, 3, 11)
    np.testing.assert_allclose(host(p(pygpu.asarray(x))), q(x))
    assert p.order == q.order and len(p) == len(q) and p.variable == "x"
    np.testing.assert_allclose(np.sort(host(p.roots)), np.sort(q.roots))
    for got, want in ((p + 1, q + 1), (2 * p, 2 * q), (p * p, q * q), (p - [1, 0], q - [1, 0]), (p ** 3, q ** 3),
                      (p.deriv(), q.deriv()), (p.integ(k=2.0), q.integ(k=2.0)), (-p, -q), (p(pygpu.poly1d([1.0, 1.0])),
                                                                                        q(np.poly1d([1.0, 1.0])))):
        np.testing.assert_allclose(host(got.coeffs), want.coeffs)
    quot, rem = p / pygpu.poly1d([1.0, -1.0])
    wq, wr = q / np.poly1d([1.0, -1.0])
    np.testing.assert_allclose(host(quot.coeffs), wq.coeffs)
    np.testing.assert_allclose(host(rem.coeffs), wr.coeffs, atol=1e-14)
    assert p == pygpu.poly1d([0.0, 1.0, -3.0, 2.0]) and p != pygpu.poly1d([1.0])
    assert float(p[0]) == 2.0 and float(p[2]) == 1.0 and p[5] == 0
    assert str(p) == str(q)
    np.testing.assert_allclose(host(pygpu.poly1d([1, 2], r=True).coeffs), np.poly1d([1, 2], r=True).coeffs)
    with pytest.raises(ValueError, match="non-negative integers"):
        p ** -1


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.complex64, np.bool_])
def test_poly1d_setitem_repr_and_float_powers(dtype):
    # NumPy's p[k] = v (growing past the degree, no trim), its repr (dtype= for non-defaults)
    # and its TypeError for a float power
    a = np.array([0, 0, 0, 2, 3, 0], dtype)
    p, q = pygpu.poly1d(pygpu.asarray(a)), np.poly1d(a.copy())
    assert repr(p) == repr(q)
    for power, value in [(1, 10), (8, 20), (0, 1.5)]:
        p[power] = value
        q[power] = value
        assert repr(p) == repr(q)
        same(p.coeffs, q.coeffs)
    assert p.order == q.order
    with pytest.raises(ValueError, match="Does not support negative powers."):
        p[-1] = 2
    for power in (3.0, np.float64(5)):
        with pytest.raises(TypeError):
            q ** power
        with pytest.raises(TypeError):
            p ** power


@pytest.mark.parametrize("make", [pygpu.poly1d, np.poly1d])
def test_poly_functions_keep_poly1d(make):
    """NumPy's poly functions answer with a poly1d when an argument is one (pygpu's or NumPy's)."""
    p, q = make([1, 1, 1, 1]), np.poly1d([1, 1, 1, 1])

    def check(got, want):
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                check(g, w)
            return
        assert type(got) is pygpu.poly1d, type(got)
        same(got.coeffs, want.coeffs)

    for m in (0, 1, 4):
        check(pygpu.polyder(p, m), np.polyder(q, m))
        check(pygpu.polyint(p, m), np.polyint(q, m))
    for name in ("polyadd", "polysub", "polymul", "polydiv"):
        check(getattr(pygpu, name)(p, [1, 2]), getattr(np, name)(q, [1, 2]))
        check(getattr(pygpu, name)([1, 2], p), getattr(np, name)([1, 2], q))
    check(pygpu.polyval([1, 2, 3], p), np.polyval([1, 2, 3], q))
    check(pygpu.poly1d([1, 2, 3])(p), np.poly1d([1, 2, 3])(q))   # integer coefficients stay integer
    same(pygpu.polyval(p, 2), np.polyval(q, 2))                  # a poly1d p alone evaluates to numbers
    assert isinstance(pygpu.polyder(pygpu.asarray([1, 1, 1]), 1), pygpu.ndarray)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint32, np.float32, np.int64, np.float64, np.complex128, None])
def test_view_as_another_dtype(dtype):
    a = np.arange(48, dtype=np.int32).reshape(3, 16)
    pa = pygpu.asarray(a)
    for pv, nv in ((pa, a), (pa[1:, :8], a[1:, :8]), (pa[::2], a[::2])):
        got = pv.view(dtype) if dtype is not None else pv.view()
        want = nv.view(dtype) if dtype is not None else nv.view()
        same(got, want)
        assert pygpu.shares_memory(got, pv)
    v = pa.view(np.float32)
    v[0, 0] = 1.0                              # a view: writes land in the original
    assert int(pa[0, 0]) == np.array(1.0, np.float32).view(np.int32)


def test_view_errors_and_contains():
    pa = pygpu.asarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        pa[:, ::2].view(np.int64)
    with pytest.raises(ValueError, match="0d array"):
        pa[0, 0].view(np.int16)
    with pytest.raises(ValueError, match="divisor"):
        pa[:, :3].copy().view(np.int64)
    with pytest.raises(TypeError):
        pa.view(np.dtype("U3"))
    assert pa.view(pygpu.ndarray).shape == pa.shape
    assert 5 in pa and 99 not in pa and 5.0 in pa
    assert (pa[0] == 1).any() == (1 in pa[0])
