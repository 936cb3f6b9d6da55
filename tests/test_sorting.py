"""Sorting and searching (sort, argsort, partition, lexsort, searchsorted, unique, isin, bincount,
histogram, digitize, median, percentile, quantile), differential against NumPy on every device.
On the CPU each test also runs with the CPU sorting the way the CUDA backend does (radix sort of
order-preserving keys, runtime/sort_radix.c), so that logic is tested without a GPU."""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import DEVICES, DTYPES, assert_array_equal, numpy_and_pygpu, same_error

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(params=[(d, m) for d in DEVICES for m in (["numpy", "radix"] if d == "cpu" else ["native"])],
                ids=lambda p: f"{p[0]}-{p[1]}")
def sdevice(request):
    """A device, and on the CPU each way of sorting (NumPy's, or the CUDA backend's radix path)."""
    dev, mode = request.param
    if mode == "native":
        yield pygpu.Device(dev)
        return
    old = pygpu._core._set_cpu_sort(mode)
    try:
        yield pygpu.Device(dev)
    finally:
        pygpu._core._set_cpu_sort(old)


def sample(shape, dtype, seed=0, nan=True):
    """Values with repeats (so stability shows), and for floats NaN, inf, -0.0."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True).astype(dt)
        if n > 3:
            x[:2] = [info.min, info.max]
    elif dt.kind == "f":
        x = (rng.integers(-20, 20, n) / 4).astype(dt)
        if nan and n > 5:
            x[:5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    else:
        re = rng.integers(-3, 3, n) / 2
        im = rng.integers(-3, 3, n) / 2
        x = (re + 1j * im).astype(dt)
        if nan and n > 4:
            x[:4] = [complex(np.nan, 0), complex(0, np.nan), complex(1, np.nan), complex(np.nan, np.nan)]
    return rng.permutation(x).reshape(shape)


def layouts(x, device):
    """(pygpu array, its NumPy values) in several layouts: contiguous, transposed, negative strides."""
    out = [(pygpu.asarray(x, device=device), x)]
    if x.ndim >= 2:
        out.append((pygpu.asarray(np.ascontiguousarray(x.T), device=device).T, x))
    if x.ndim >= 1:
        out.append((pygpu.asarray(np.ascontiguousarray(x[::-1]), device=device)[::-1], x))
    return out


def np_descending_argsort(x, axis):
    """The array API's stable descending argsort, as array_api_compat computes it from NumPy."""
    r = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
    return x.shape[axis] - 1 - r


# ---------------------------------------------------------------- sort, argsort

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((37,), -1), ((5, 8), 0), ((5, 8), 1), ((3, 4, 5), 1), ((0,), 0),
                                         ((4, 0), 1), ((1, 1), 0)])
def test_sort_argsort(sdevice, dtype, shape, axis):
    x = sample(shape, dtype)
    for p, ref in layouts(x, sdevice):
        assert_array_equal(pygpu.sort(p, axis=axis), np.sort(ref, axis=axis))
        assert_array_equal(pygpu.argsort(p, axis=axis, kind="stable"), np.argsort(ref, axis=axis, kind="stable"))
        assert_array_equal(pygpu.argsort(p, axis=axis, stable=True), np.argsort(ref, axis=axis, kind="stable"))
        # any argsort orders the values
        idx = pygpu.argsort(p, axis=axis).get()
        assert_array_equal(np.take_along_axis(ref, idx, axis), np.sort(ref, axis=axis))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape,axis", [((41,), 0), ((6, 7), 1), ((6, 7), 0)])
def test_sort_descending(sdevice, dtype, shape, axis):
    x = sample(shape, dtype)
    p = pygpu.asarray(x, device=sdevice)
    expected_idx = np_descending_argsort(x, axis)
    assert_array_equal(pygpu.argsort(p, axis=axis, descending=True), expected_idx)
    assert_array_equal(pygpu.sort(p, axis=axis, descending=True), np.take_along_axis(x, expected_idx, axis))


def test_sort_axis_none_and_0d(sdevice):
    x = sample((3, 4), "float64")
    p = pygpu.asarray(x, device=sdevice)
    assert_array_equal(pygpu.sort(p, axis=None), np.sort(x, axis=None))
    assert_array_equal(pygpu.argsort(p, axis=None, kind="stable"), np.argsort(x, axis=None, kind="stable"))
    z = pygpu.asarray(np.array(5.0), device=sdevice)
    assert_array_equal(pygpu.sort(z, axis=None), np.sort(np.array(5.0), axis=None))
    same_error(lambda: np.sort(np.array(5.0)), lambda: pygpu.sort(z))


def test_ndarray_sort_in_place(sdevice):
    x = sample((6, 5), "float32")
    for axis in (0, 1, -1):
        p = pygpu.asarray(x, device=sdevice)
        y = x.copy()
        assert p.sort(axis=axis) is None
        y.sort(axis=axis)
        assert_array_equal(p, y)
    # a view sorts the base's memory
    p = pygpu.asarray(x, device=sdevice)
    p[:, ::2].sort(axis=0)
    y = x.copy()
    y[:, ::2].sort(axis=0)
    assert_array_equal(p, y)
    assert_array_equal(pygpu.asarray(x, device=sdevice).argsort(kind="stable"), x.argsort(kind="stable"))


def test_sort_errors(sdevice):
    x = np.array([3.0, 1, 2])
    p = pygpu.asarray(x, device=sdevice)
    for np_call, pg_call in [
        (lambda: np.sort(x, kind="foo"), lambda: pygpu.sort(p, kind="foo")),
        (lambda: np.argsort(x, kind=3), lambda: pygpu.argsort(p, kind=3)),
        (lambda: np.sort(x, kind="stable", stable=True), lambda: pygpu.sort(p, kind="stable", stable=True)),
        (lambda: np.sort(x, order="a"), lambda: pygpu.sort(p, order="a")),
        (lambda: np.sort(x, axis=1), lambda: pygpu.sort(p, axis=1)),
        (lambda: np.partition(x, 5), lambda: pygpu.partition(p, 5)),
        (lambda: np.partition(x, -4), lambda: pygpu.partition(p, -4)),
        (lambda: np.partition(x, 1.5), lambda: pygpu.partition(p, 1.5)),
        (lambda: np.partition(x, 1, kind="foo"), lambda: pygpu.partition(p, 1, kind="foo")),
        (lambda: np.lexsort([]), lambda: pygpu.lexsort([])),
        (lambda: np.lexsort([[1, 2], [1, 2, 3]]), lambda: pygpu.lexsort([[1, 2], [1, 2, 3]])),
        (lambda: np.lexsort([x], axis=3), lambda: pygpu.lexsort([p], axis=3)),
    ]:
        same_error(np_call, pg_call)


@settings(max_examples=60, **SETTINGS)
@given(shape=st.lists(st.integers(0, 6), min_size=1, max_size=3), dtype=st.sampled_from(DTYPES),
       data=st.data())
def test_sort_hypothesis(sdevice, shape, dtype, data):
    x = sample(tuple(shape), dtype, seed=data.draw(st.integers(0, 100)))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    p = pygpu.asarray(x, device=sdevice)
    assert_array_equal(pygpu.sort(p, axis=axis), np.sort(x, axis=axis))
    assert_array_equal(pygpu.argsort(p, axis=axis, stable=True), np.argsort(x, axis=axis, kind="stable"))


# ---------------------------------------------------------------- partition, lexsort

@pytest.mark.parametrize("dtype", ["int32", "float64", "float16", "complex128", "bool"])
@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4], [0, 6]])
def test_partition(sdevice, dtype, kth):
    x = sample((3, 7), dtype)
    p = pygpu.asarray(x, device=sdevice)
    s = np.sort(x, axis=1)
    r = pygpu.partition(p, kth, axis=1).get()
    ks = np.atleast_1d(kth) % 7
    for k in ks:
        assert_array_equal(r[:, k], s[:, k])
        # smaller before, larger after (in NumPy's order: sort each side and compare)
        assert_array_equal(np.sort(r[:, :k], axis=1), s[:, :k])
        assert_array_equal(np.sort(r[:, k + 1:], axis=1), s[:, k + 1:])
    idx = pygpu.argpartition(p, kth, axis=1).get()
    for k in ks:
        assert_array_equal(np.take_along_axis(x, idx, 1)[:, k], s[:, k])
    q = pygpu.asarray(x, device=sdevice)
    q.partition(kth, axis=1)
    for k in ks:
        assert_array_equal(q.get()[:, k], s[:, k])


@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("bool", "complex64", "uint8"), ("float64",)])
@pytest.mark.parametrize("shape,axis", [((30,), -1), ((4, 9), 1), ((4, 9), 0)])
def test_lexsort(sdevice, dtypes, shape, axis):
    keys = [sample(shape, dt, seed=i) for i, dt in enumerate(dtypes)]
    pk = [pygpu.asarray(k, device=sdevice) for k in keys]
    assert_array_equal(pygpu.lexsort(pk, axis=axis), np.lexsort(keys, axis=axis))
    # a 2-d array of keys: its rows
    if len(set(dtypes)) == 1:
        assert_array_equal(pygpu.lexsort(pygpu.asarray(np.stack(keys), device=sdevice), axis=axis),
                           np.lexsort(np.stack(keys), axis=axis))


@pytest.mark.parametrize("nkeys", [256, 257, 600])
def test_lexsort_of_more_keys_than_one_sort_takes(sdevice, nkeys):
    """NumPy takes any number of keys; past one sort's 256, stable sorts chained in groups. Keys of
    0s and 1s, so that ties reach the least significant ones."""
    rng = np.random.default_rng(nkeys)
    keys = rng.integers(0, 2, (nkeys, 5, 40)).astype(np.int8)
    keys[-3:] = 0   # the most significant keys tie everywhere
    for axis in (-1, 0):
        assert_array_equal(pygpu.lexsort(pygpu.asarray(keys, device=sdevice), axis=axis), np.lexsort(keys, axis=axis))
    mixed = [pygpu.asarray(k.astype(np.float32 if i % 2 else np.int64), device=sdevice) for i, k in enumerate(keys[:, 0])]
    assert_array_equal(pygpu.lexsort(mixed), np.lexsort([k.astype(np.float32 if i % 2 else np.int64)
                                                         for i, k in enumerate(keys[:, 0])]))
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        pygpu.lexsort(mixed[:-1] + [pygpu.arange(3, device=sdevice)])


# ---------------------------------------------------------------- searchsorted

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(device, dtype, side):
    a = np.sort(sample((23,), dtype))
    v = sample((4, 5), dtype, seed=3)
    pa = pygpu.asarray(a, device=device)
    for pv, ref in layouts(v, device):
        assert_array_equal(pygpu.searchsorted(pa, pv, side=side), np.searchsorted(a, ref, side=side))
    # a sorter, and a strided a
    u = sample((23,), dtype, seed=5)
    order = np.argsort(u, kind="stable")
    assert_array_equal(pygpu.searchsorted(pygpu.asarray(u, device=device), pygpu.asarray(v, device=device),
                                          side=side, sorter=pygpu.asarray(order, device=device)),
                       np.searchsorted(u, v, side=side, sorter=order))
    assert_array_equal(pygpu.asarray(a[::-1].copy(), device=device)[::-1].searchsorted(pygpu.asarray(v, device=device),
                                                                                        side=side),
                       np.searchsorted(a, v, side=side))


def test_searchsorted_scalars_and_errors(device):
    a = np.array([1, 2, 3], np.uint8)
    pa = pygpu.asarray(a, device=device)
    for v in (300, -1, 2.5, 2, True):
        assert int(pygpu.searchsorted(pa, v)) == np.searchsorted(a, v)
    f = np.array([0.1, 0.2], np.float32)
    assert int(pygpu.searchsorted(pygpu.asarray(f, device=device), 0.1, side="right")) == \
        np.searchsorted(f, 0.1, side="right")
    same_error(lambda: np.searchsorted(a, 2, side="foo"), lambda: pygpu.searchsorted(pa, 2, side="foo"))
    same_error(lambda: np.searchsorted(np.zeros((2, 2)), 1),
               lambda: pygpu.searchsorted(pygpu.zeros((2, 2), device=device), 1))
    same_error(lambda: np.searchsorted(a, [2], sorter=[0, 1]), lambda: pygpu.searchsorted(pa, [2], sorter=[0, 1]))
    same_error(lambda: np.searchsorted(a, [2], sorter=[0.0, 1, 2]),
               lambda: pygpu.searchsorted(pa, [2], sorter=[0.0, 1, 2]))
    with pytest.raises(ValueError, match="Sorter index out of range"):
        pygpu.searchsorted(pa, [2], sorter=[5, 5, 5])


# ---------------------------------------------------------------- unique, isin

@pytest.mark.parametrize("dtype", DTYPES)
def test_unique(sdevice, dtype):
    x = sample((5, 7), dtype)
    for p, ref in layouts(x, sdevice):
        r = pygpu.unique(p, return_index=True, return_inverse=True, return_counts=True)
        e = np.unique(ref, return_index=True, return_inverse=True, return_counts=True)
        if dtype.startswith("complex"):
            # NumPy keeps one of the NaNs (the hash path may pick another): compare the non-NaN part
            assert_array_equal(r[0][:-1], e[0][:-1])
            assert_array_equal(r[3], e[3])
            continue
        for a, b in zip(r, e):
            assert_array_equal(a, b)
        assert_array_equal(pygpu.unique(p), np.unique(ref))
        assert_array_equal(pygpu.unique(p, equal_nan=False), np.unique(ref, equal_nan=False))


def test_unique_array_api_and_edges(sdevice):
    x = np.array([[3.0, 1, 1], [2, 3, np.nan]])
    p = pygpu.asarray(x, device=sdevice)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        r, e = getattr(pygpu, name)(p), getattr(np, name)(x)
        assert r._fields == e._fields
        for a, b in zip(r, e):
            assert_array_equal(a, b)
    assert_array_equal(pygpu.unique_values(p), np.unique_values(x))
    e = pygpu.asarray(np.array([], np.int16), device=sdevice)
    for a, b in zip(pygpu.unique(e, True, True, True), np.unique(np.array([], np.int16), True, True, True)):
        assert_array_equal(a, b)
    for a, b in zip(pygpu.unique(pygpu.asarray(np.array(5), device=sdevice), return_inverse=True),
                    np.unique(np.array(5), return_inverse=True)):
        assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64", "bool", "uint8"])
def test_isin(sdevice, dtype):
    x = sample((6, 4), dtype)
    t = sample((9,), dtype, seed=7)
    p = pygpu.asarray(x, device=sdevice)
    assert_array_equal(pygpu.isin(p, t), np.isin(x, t))
    assert_array_equal(pygpu.isin(p, pygpu.asarray(t, device=sdevice), invert=True), np.isin(x, t, invert=True))
    assert_array_equal(pygpu.isin(p, []), np.isin(x, []))
    assert_array_equal(pygpu.isin(p, [1.5, 2]), np.isin(x, [1.5, 2]))
    same_error(lambda: np.isin(x, t, kind="foo"), lambda: pygpu.isin(p, t, kind="foo"))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "bool"])
def test_isin_kinds(sdevice, dtype):
    """The table of an integer range (kind=None when the test values span little, or 'table')
    and the sorted search give NumPy's answers, at the type's extremes, with mixed dtypes and
    strided operands; NumPy's errors for 'table' on floats and on ranges that overflow."""
    rng = np.random.default_rng(3)
    if dtype == "bool":
        a, tests = rng.random(1000) > 0.5, [np.array([True]), np.array([False, False])]
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, 1000, endpoint=True,
                         dtype=np.uint64 if dtype == "uint64" else np.int64).astype(dtype)
        tests = [a[:20], a[:3], np.concatenate([a[:5], np.array([info.min, info.max], dtype=dtype)]),
                 np.array([0, 1, 5, -3, 300])]
    p = pygpu.asarray(a, device=sdevice)
    for t in tests:
        for kind in (None, "sort", "table"):
            try:
                want = np.isin(a, t, kind=kind)
            except (RuntimeError, MemoryError, ValueError) as e:   # a table of 2^64 entries: too large for both
                with pytest.raises(RuntimeError if isinstance(e, RuntimeError) else (MemoryError, ValueError)):
                    pygpu.isin(p, pygpu.asarray(t, device=sdevice), kind=kind)
                continue
            assert_array_equal(pygpu.isin(p, pygpu.asarray(t, device=sdevice), kind=kind), want)
            assert_array_equal(pygpu.isin(p.reshape(10, 100)[::2, ::-3], t, kind=kind, invert=True),
                               np.isin(a.reshape(10, 100)[::2, ::-3], t, kind=kind, invert=True))
    same_error(lambda: np.isin(np.array([1.5]), [1.5], kind="table"),
               lambda: pygpu.isin(pygpu.asarray([1.5], device=sdevice), [1.5], kind="table"))


# ---------------------------------------------------------------- counting

def test_bincount(device):
    x = np.array([0, 1, 1, 3, 7, 3])
    px = pygpu.asarray(x, device=device)
    assert_array_equal(pygpu.bincount(px), np.bincount(x))
    assert_array_equal(pygpu.bincount(px, minlength=12), np.bincount(x, minlength=12))
    w = np.array([0.5, 1, 2, -1, 0.25, 3])
    assert_array_equal(pygpu.bincount(px, weights=pygpu.asarray(w, device=device)), np.bincount(x, weights=w))
    for dt in ("uint8", "int16", "bool", "uint64"):
        assert_array_equal(pygpu.bincount(pygpu.asarray(x.astype(dt), device=device)), np.bincount(x.astype(dt)))
    assert_array_equal(pygpu.bincount(pygpu.asarray(np.array([], int), device=device)),
                       np.bincount(np.array([], int)))
    assert_array_equal(pygpu.bincount(px[::-2]), np.bincount(x[::-2]))
    # empty x: NumPy's int64 zeros of minlength, weights or not; an empty list is intp, not float64
    empty = pygpu.asarray(np.array([], np.uint8), device=device)
    nempty = np.array([], np.uint8)
    for got, want in ((pygpu.bincount([]), np.bincount([])),
                      (pygpu.bincount(empty, weights=pygpu.zeros(0, device=device)), np.bincount(nempty, weights=[])),
                      (pygpu.bincount(empty, weights=[], minlength=3), np.bincount(nempty, weights=[], minlength=3))):
        assert got.dtype == want.dtype
        assert_array_equal(got, want)
    for np_call, pg_call in [
        (lambda: np.bincount([-1, 2]), lambda: pygpu.bincount(pygpu.asarray([-1, 2], device=device))),
        (lambda: np.bincount(x, minlength=-1), lambda: pygpu.bincount(px, minlength=-1)),
        (lambda: np.bincount(x, weights=[1, 2]), lambda: pygpu.bincount(px, weights=[1, 2])),
        (lambda: np.bincount(np.zeros((2, 2), int)), lambda: pygpu.bincount(pygpu.zeros((2, 2), "int64"))),
        # uint64 past int64's range: NumPy's cast to intp makes them negative
        (lambda: np.bincount(np.array([2**64 - 1, 0, 2], "u8")),
         lambda: pygpu.bincount(pygpu.asarray(np.array([2**64 - 1, 0, 2], "u8"), device=device))),
        (lambda: np.bincount(np.array([2**63, 3], "u8"), minlength=5),
         lambda: pygpu.bincount(pygpu.asarray(np.array([2**63, 3], "u8"), device=device), minlength=5)),
        (lambda: np.bincount([], minlength=-1), lambda: pygpu.bincount([], minlength=-1)),
    ]:
        same_error(np_call, pg_call)
    if np.lib.NumpyVersion(np.__version__) >= "2.5.0":  # floats are refused since NumPy 2.5
        same_error(lambda: np.bincount(np.array([1.0, 2.0])),
                   lambda: pygpu.bincount(pygpu.asarray([1.0, 2.0], device=device)))
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            assert_array_equal(pygpu.bincount(pygpu.asarray([1.0, 2.0], device=device)), np.bincount([1.0, 2.0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "float16"])
def test_histogram(device, dtype):
    x = sample((50,), dtype, nan=False)
    p = pygpu.asarray(x, device=device)
    for kw in [{}, {"bins": 7}, {"bins": 3, "range": (-2, 5)}, {"bins": [-5, -1, 0, 2.5, 10]},
               {"bins": 4, "density": True}, {"bins": [-5, 0, 10], "density": True}]:
        r, re_ = pygpu.histogram(p, **kw)
        e, ee = np.histogram(x, **kw)
        np.testing.assert_allclose(r.get(), e, rtol=1e-12)
        assert r.dtype == e.dtype
        assert_array_equal(re_, ee)
    w = np.linspace(0, 1, 50).astype(np.float32)
    r, _ = pygpu.histogram(p, bins=5, weights=pygpu.asarray(w, device=device))
    e, _ = np.histogram(x, bins=5, weights=w)
    assert r.dtype == e.dtype
    np.testing.assert_allclose(r.get(), e, rtol=1e-5)
    # any shape is flattened; an empty array gets the range [0, 1]
    r, re_ = pygpu.histogram(pygpu.asarray(x.reshape(5, 10), device=device)[:, ::2])
    e, ee = np.histogram(x.reshape(5, 10)[:, ::2])
    assert_array_equal(r, e)
    assert_array_equal(re_, ee)
    for a, b in zip(pygpu.histogram(pygpu.asarray(np.array([], dtype), device=device)),
                    np.histogram(np.array([], dtype))):
        assert_array_equal(a, b)


@pytest.mark.parametrize("wdt", ["float16", "float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_histogram_weights_dtypes(device, dtype, wdt):
    # NumPy divides a density by float64 bin widths and by n.sum() (for bool weights, the number
    # of True bins); with edges given, it refuses to add bool weights' int64 cumsum into bools
    x = np.arange(10).astype(dtype) + (0.5 if dtype != "int8" else 0)
    w = (np.arange(10) % 3).astype(wdt)
    p, pw = pygpu.asarray(x, device=device), pygpu.asarray(w, device=device)
    for kw in [{"bins": 10, "range": [1, 9]}, {"bins": [0, 2.5, 5, 9.5]}]:
        for density in (False, True):
            if wdt == "bool" and not isinstance(kw["bins"], int):
                with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype"):
                    np.histogram(x, weights=w, density=density, **kw)
                with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype"):
                    pygpu.histogram(p, weights=pw, density=density, **kw)
                continue
            r, _ = pygpu.histogram(p, weights=pw, density=density, **kw)
            e, _ = np.histogram(x, weights=w, density=density, **kw)
            assert r.dtype == e.dtype, (r.dtype, e.dtype)
            np.testing.assert_allclose(r.get(), e, rtol=1e-3)


def test_histogram_errors(device):
    p = pygpu.asarray([1.0, 2.0], device=device)
    for kw in [{"bins": -1}, {"range": (2, 1)}, {"bins": [2, 1]}, {"bins": [[1, 2]]}, {"range": (0, np.inf)},
               {"weights": [1.0]}]:
        same_error(lambda: np.histogram([1.0, 2.0], **kw), lambda: pygpu.histogram(p, **kw))
    same_error(lambda: np.histogram([1.0, np.nan]), lambda: pygpu.histogram(pygpu.asarray([1.0, np.nan])))


# NaN bins: NumPy takes a NaN after the leading equal run as the decreasing direction
@pytest.mark.parametrize("bins", [[0, 1.5, 3], [3, 1.5, 0], [1.0], [-1, -1, 2], [0.0, np.nan], [np.nan, 0.0],
                                  [1, 1, np.nan, 0], [0, 2, np.nan]])
@pytest.mark.parametrize("right", [False, True])
def test_digitize(device, bins, right):
    x = np.array([[-1, 0, 1.5, 2], [3, 4, np.nan, 1.5]])
    assert_array_equal(pygpu.digitize(pygpu.asarray(x, device=device), bins, right=right),
                       np.digitize(x, bins, right=right))


def test_digitize_errors(device):
    p = pygpu.asarray([1.0], device=device)
    same_error(lambda: np.digitize([1.0], [1, 3, 2]), lambda: pygpu.digitize(p, [1, 3, 2]))
    same_error(lambda: np.digitize([1.0], [[1, 2]]), lambda: pygpu.digitize(p, [[1, 2]]))
    same_error(lambda: np.digitize([1j], [1, 2]), lambda: pygpu.digitize(pygpu.asarray([1j]), [1, 2]))
    same_error(lambda: np.digitize([1.0], [1j, 2]), lambda: pygpu.digitize(p, [1j, 2]))


# ---------------------------------------------------------------- median, quantile

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "uint8", "float16", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_median(sdevice, dtype, axis):
    x = sample((4, 5, 3), dtype, nan=False)
    for p, ref in layouts(x, sdevice):
        r = pygpu.median(p, axis=axis)
        e = np.median(ref, axis=axis)
        np.testing.assert_allclose(np.asarray(r.get()), e, rtol=1e-6)
        assert r.dtype == e.dtype
        assert pygpu.median(p, axis=axis, keepdims=True).shape == np.median(ref, axis=axis, keepdims=True).shape


def test_median_nan(sdevice):
    x = np.array([[1.0, np.nan, 3, 4], [2, 1, 5, 7]])
    p = pygpu.asarray(x, device=sdevice)
    assert_array_equal(pygpu.median(p, axis=1), np.median(x, axis=1))
    assert_array_equal(pygpu.median(p), np.median(x))


@pytest.mark.parametrize("f,args", [("median", ()), ("percentile", (50,)), ("quantile", ([0.5, 0.2],)),
                                    ("nanmedian", ()), ("nanquantile", (0.5,))])
@pytest.mark.parametrize("shape,axis", [((2, 0, 3), (0, 2)), ((0, 2, 3), (1, 2)), ((5, 0, 0), (0, -1))])
def test_quantiles_over_axis_tuples_with_an_empty_kept_axis(f, args, shape, axis, device):
    """The merged axis is sized by the product of the reduced ones (-1 cannot be resolved when a
    kept one is 0). NumPy's own median/percentile/quantile raised ValueError here (its reshape to
    -1) until numpy/numpy#32536 (in 2.5 by the backport #32707: 2.5.2 raises, 2.5.5 answers);
    against a NumPy without it, pygpu's answer is held to the fixed NumPy's, NumPy's answer over
    the reduced axes merged explicitly (moved last, reshaped to their product)."""
    def call(m):
        x = np.zeros(shape) if m is np else pygpu.zeros(shape, device=device)
        return getattr(m, f)(x, *args, axis=axis)

    want, got = numpy_and_pygpu(call)
    if want == "ValueError" and not f.startswith("nan"):   # a NumPy before the fix
        red = tuple(a % len(shape) for a in axis)
        kept = [d for d in range(len(shape)) if d not in red]
        merged = np.moveaxis(np.zeros(shape), red, range(len(kept), len(shape)))
        merged = merged.reshape([shape[d] for d in kept] + [int(np.prod([shape[d] for d in red]))])
        want = numpy_and_pygpu(lambda m: getattr(m, f)(merged if m is np else None, *args, axis=-1))[0]
    assert got == want


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_quantile_methods(sdevice, method, dtype):
    x = sample((3, 11), dtype, nan=False)
    p = pygpu.asarray(x, device=sdevice)
    for q in (0.0, 0.37, 1.0, [0.1, 0.5, 0.99], np.array([[0.2], [0.8]])):
        for axis in (None, 1, 0):
            r = pygpu.quantile(p, q, axis=axis, method=method)
            e = np.quantile(x, q, axis=axis, method=method)
            assert r.dtype == e.dtype, (q, axis)
            np.testing.assert_allclose(np.asarray(r.get()), e, rtol=1e-6)
    r = pygpu.percentile(p, [10, 50], axis=1, method=method, keepdims=True)
    e = np.percentile(x, [10, 50], axis=1, method=method, keepdims=True)
    assert r.shape == e.shape
    np.testing.assert_allclose(r.get(), e, rtol=1e-6)


def test_quantile_nan_and_errors(sdevice):
    x = np.array([[1.0, np.nan, 3], [2, 1, 5]])
    p = pygpu.asarray(x, device=sdevice)
    assert_array_equal(pygpu.quantile(p, 0.3, axis=1), np.quantile(x, 0.3, axis=1))
    for np_call, pg_call in [
        (lambda: np.quantile(x, 1.5), lambda: pygpu.quantile(p, 1.5)),
        (lambda: np.percentile(x, 150), lambda: pygpu.percentile(p, 150)),
        (lambda: np.quantile(x, 0.5, method="foo"), lambda: pygpu.quantile(p, 0.5, method="foo")),
        (lambda: np.quantile(x.astype(complex), 0.5), lambda: pygpu.quantile(p.astype(complex), 0.5)),
    ]:
        same_error(np_call, pg_call)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["float64", "float32", "float16", "int64", "uint8"]), st.integers(1, 3), st.data())
def test_weighted_quantiles_match_numpy(sdevice, dtype, ndim, data):
    # NumPy's one weighted method, inverted_cdf: the first value whose share of the total weight
    # reaches q; zero weights (leading ones too), ties, NaNs in a slice and slices of NaNs only
    shape = data.draw(st.tuples(*[st.integers(1, 5)] * ndim))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 16)))
    a = rng.integers(0, 4, shape).astype(dtype)
    w = rng.integers(0, 3, shape) + (rng.random(shape) < 0.2)
    w[(0,) * ndim] += 1                      # no slice all zero when the whole array is one slice
    w = w.astype(data.draw(st.sampled_from(["float64", "int64", "float32"])))
    if a.dtype.kind == "f" and data.draw(st.booleans()):
        a[rng.random(shape) < 0.3] = np.nan
    axis = data.draw(st.sampled_from([None, 0, -1, tuple(range(ndim))]))
    q = data.draw(st.sampled_from([0.0, 0.5, 1.0, 0.3, [0.1, 0.9, 0.5], [0, 1]]))
    keepdims = data.draw(st.booleans())
    p, pw = pygpu.asarray(a, device=sdevice), pygpu.asarray(w, device=sdevice)
    for name, scale in (("quantile", 1), ("percentile", 100), ("nanquantile", 1), ("nanpercentile", 100)):
        qq = np.multiply(q, scale).tolist()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                want = getattr(np, name)(a, qq, axis=axis, weights=w, method="inverted_cdf", keepdims=keepdims)
            except ValueError as e:   # a slice whose weights are all zero
                assert "all zero" in str(e)
                same_error(lambda: getattr(np, name)(a, qq, axis=axis, weights=w, method="inverted_cdf"),
                           lambda: getattr(pygpu, name)(p, qq, axis=axis, weights=pw, method="inverted_cdf"))
                continue
            got = getattr(pygpu, name)(p, qq, axis=axis, weights=pw, method="inverted_cdf", keepdims=keepdims)
        assert_array_equal(got, want)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_weighted_quantiles_along_an_axis_and_bad_weights(sdevice):
    x = np.array([[3.0, 1, 2, 5], [4, np.nan, 0, 1], [np.nan] * 4])
    w = np.array([1.0, 0, 2, 1])
    p, pw = pygpu.asarray(x, device=sdevice), pygpu.asarray(w, device=sdevice)
    full = np.broadcast_to(w, x.shape)
    # weights of the reduced axis only, broadcast along the others
    assert_array_equal(pygpu.quantile(p, [0.25, 0.8], axis=1, weights=pw, method="inverted_cdf"),
                       np.quantile(x, [0.25, 0.8], axis=1, weights=full, method="inverted_cdf"))
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        got = pygpu.nanquantile(p, [0.25, 0.8], axis=1, weights=pw, method="inverted_cdf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_array_equal(got, np.nanquantile(x, [0.25, 0.8], axis=1, weights=full, method="inverted_cdf"))
    for bad in [dict(weights=w), dict(weights=full, method="linear"), dict(weights=-full, method="inverted_cdf"),
                dict(weights=w, axis=0, method="inverted_cdf"), dict(weights=w[:3], axis=1, method="inverted_cdf"),
                dict(weights=np.zeros(4), axis=1, method="inverted_cdf")]:
        mine = {k: pygpu.asarray(v, device=sdevice) if isinstance(v, np.ndarray) else v for k, v in bad.items()}
        same_error(lambda: np.quantile(x[:2], 0.5, **bad), lambda: pygpu.quantile(p[:2], 0.5, **mine))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 7), st.integers(0, 3), st.integers(1, 3), st.sampled_from(["int8", "float64", "complex128", "bool"]),
       st.data())
def test_unique_along_an_axis_matches_numpy(n, m, ndim, dtype, data):
    shape = data.draw(st.tuples(*[st.integers(0, 4)] * (ndim - 1))) if ndim > 1 else ()
    rng = np.random.default_rng(n * 31 + m)
    a = rng.integers(-1, 2, (n,) + shape).astype(dtype)   # few distinct values: many repeated slices
    if dtype == "float64" and a.size:
        a.flat[rng.integers(0, a.size)] = np.nan          # a slice with a NaN is unique, as in NumPy
    for axis in range(-a.ndim, a.ndim):
        want = np.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
        got = pygpu.unique(pygpu.asarray(a), axis=axis, return_index=True, return_inverse=True, return_counts=True)
        for g, w in zip(got, want):
            g = pygpu.asnumpy(g)
            assert g.shape == w.shape and g.dtype.kind == w.dtype.kind
            np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(pygpu.asnumpy(pygpu.unique(pygpu.asarray(a), axis=axis)),
                                      np.unique(a, axis=axis))


# ---------------------------------------------------------------- found by a differential hunt

@pytest.mark.parametrize("data", [np.r_[np.zeros(6), 0.01, 1.0], np.array([0.0, -1.0, 1.0, 1e-45, 0.0]),
                                  np.random.default_rng(0).integers(0, 5, 100).astype(float),
                                  np.random.default_rng(1).standard_normal(1000), np.arange(20)])
def test_histogram_auto_bins_as_numpy_2(data):
    """'auto' is NumPy 2's: Freedman-Diaconis kept at least half the sqrt estimator's width."""
    for bins in ("auto", "fd", "sturges", "doane"):
        try:
            hn, en = np.histogram(data, bins)
        except ValueError:   # fd's width of 1e-45-spaced data: too many bins for NumPy too
            with pytest.raises(ValueError):
                pygpu.histogram(pygpu.asarray(data), bins)
            continue
        h, e = pygpu.histogram(pygpu.asarray(data), bins)
        np.testing.assert_array_equal(pygpu.asnumpy(h), hn)
        np.testing.assert_allclose(pygpu.asnumpy(e), en)


def test_histogram_refuses_bins_the_range_cannot_space():
    for data, bins in ((np.array([1e308, -1e308]), 3), (np.array([0.5, 0.9], "f2"), 5000)):
        with pytest.raises(ValueError, match="Too many bins for data range"):
            pygpu.histogram(pygpu.asarray(data), bins)
        with pytest.raises(ValueError, match="Too many bins for data range"):
            np.histogram(data, bins)


@pytest.mark.parametrize("kth", [0, 5, -1, [0, 3]])
def test_partition_of_an_empty_axis(kth):
    assert pygpu.partition(pygpu.asarray(np.array([])), kth).shape == (0,)
    assert pygpu.argpartition(pygpu.zeros((3, 0)), kth).shape == (3, 0)
