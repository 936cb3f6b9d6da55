"""Advanced indexing (integer arrays, boolean masks, mixed with ints, slices, `...` and None) for
reading and writing, and the indexing routines (take, put, take_along_axis, put_along_axis,
choose, compress, extract, place, select, nonzero, argwhere, flatnonzero, where(cond)),
differential against NumPy on every device."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, numpy_and_pygpu, same_error

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def data_for(shape, dtype):
    return (np.arange(int(np.prod(shape)), dtype=np.int64) % 97 + 1).reshape(shape).astype(dtype)


def outcome(f):
    """('ok', result) or ('error', type, message)."""
    try:
        return ("ok", f())
    except Exception as e:  # noqa: BLE001
        return ("error", type(e), str(e))


def as_kind(item, kind, device):
    """An index array as NumPy gives it, or as a list, or as a pygpu array."""
    if not isinstance(item, np.ndarray):
        return item
    if kind == "list":
        return item.tolist()
    if kind == "pygpu":
        return pygpu.asarray(item, device=device)
    return item


@st.composite
def advanced_index(draw, shape):
    """A random index with at least one advanced item (int array, mask or bool), sometimes out of
    range, as a tuple."""
    nd = len(shape)
    bshape = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    items = []
    d = 0
    has_fancy = False
    while d < nd:
        n = shape[d]
        kind = draw(st.sampled_from(["int", "slice", "array", "array", "mask", "stop"]))
        if kind == "stop":
            break
        if kind == "int":
            if n == 0:
                continue
            items.append(draw(st.integers(-n, n - 1)))
            d += 1
        elif kind == "slice":
            items.append(slice(draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                               draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                               draw(st.sampled_from([None, 1, 2, -1]))))
            d += 1
        elif kind == "array":
            sub = tuple(b if draw(st.booleans()) else 1 for b in bshape[draw(st.integers(0, len(bshape))):])
            lo, hi = (-n, n - 1) if n else (0, 0)
            if draw(st.integers(0, 9)) == 0:
                hi += 2  # out of bounds
            vals = draw(st.lists(st.integers(lo, hi), min_size=int(np.prod(sub)), max_size=int(np.prod(sub))))
            if n == 0 and vals and hi == 0:
                vals = []
                sub = (0,)
            items.append(np.array(vals, dtype=draw(st.sampled_from([np.int64, np.int32, np.int8, np.uint8]))
                                  if all(v >= 0 for v in vals) else np.int64).reshape(sub))
            has_fancy = True
            d += 1
        else:
            m = draw(st.integers(1, min(2, nd - d)))
            mshape = shape[d:d + m]
            bits = draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)), max_size=int(np.prod(mshape))))
            items.append(np.array(bits, dtype=bool).reshape(mshape))
            has_fancy = True
            d += m
        if draw(st.integers(0, 6)) == 0:
            items.append(None)
    if not has_fancy:
        items.append(draw(st.sampled_from([True, False])) if draw(st.booleans()) or d >= nd
                     else np.array([0] if shape[d] else [], dtype=np.int64))
    if draw(st.integers(0, 4)) == 0:
        items.insert(draw(st.integers(0, len(items))), Ellipsis)
    return tuple(items)


shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


@settings(max_examples=400, **SETTINGS)
@given(shape=shapes, data=st.data())
def test_getitem_matches_numpy(device, shape, data):
    dtype = data.draw(st.sampled_from(DTYPES))
    x = data_for(shape, dtype)
    idx = data.draw(advanced_index(shape))
    kind = data.draw(st.sampled_from(["numpy", "list", "pygpu"]))
    pidx = tuple(as_kind(i, kind, device) for i in idx)
    if kind == "list":
        idx = pidx  # NumPy sees the same lists (an empty one is an integer index)
    p = pygpu.asarray(x, device=device)
    if x.ndim >= 2 and data.draw(st.booleans()):
        # a transposed layout with the same values
        p = pygpu.asarray(np.ascontiguousarray(x.T), device=device).T
    e = outcome(lambda: x[idx])
    r = outcome(lambda: p[pidx])
    assert r[0] == e[0], (idx, r, e)
    if e[0] == "error":
        assert r[1] is e[1] and r[2] == e[2], (idx, r, e)
    else:
        assert isinstance(r[1], pygpu.ndarray)
        assert_array_equal(r[1], e[1])


@settings(max_examples=300, **SETTINGS)
@given(shape=shapes, data=st.data())
def test_setitem_matches_numpy(device, shape, data):
    dtype = data.draw(st.sampled_from(DTYPES))
    x = data_for(shape, dtype)
    idx = data.draw(advanced_index(shape))
    try:
        rshape = x[idx].shape
    except IndexError:
        rshape = None
    form = data.draw(st.sampled_from(["scalar", "full", "row", "bad"]))
    if form == "scalar" or rshape is None:
        value = np.array(7).astype(dtype)[()]
    elif form == "full":
        value = (np.arange(int(np.prod(rshape))) % 5).reshape(rshape).astype(dtype)
    elif form == "row" and len(rshape) >= 1:
        value = (np.arange(rshape[-1]) % 3).astype(dtype)
    else:
        value = np.zeros((3, 2), dtype)
    p = pygpu.asarray(x, device=device)
    pvalue = pygpu.asarray(value, device=device) if isinstance(value, np.ndarray) else value
    y = x.copy()
    e = outcome(lambda: y.__setitem__(idx, value))
    r = outcome(lambda: p.__setitem__(idx, pvalue))
    assert r[0] == e[0], (idx, r, e)
    if e[0] == "error":
        assert r[1] is e[1] and r[2] == e[2], (idx, r, e)
        # nothing was written
        assert_array_equal(p, x)
    elif not _has_duplicates(x, idx):
        assert_array_equal(p, y)


def _has_duplicates(x, idx):
    """True when the index selects an element twice (the value written last is then the GPU's
    choice; NumPy's on the CPU)."""
    marks = np.arange(x.size).reshape(x.shape)
    sel = marks[idx]
    return sel.size != np.unique(sel).size


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_and_index_each_dtype(device, dtype):
    x = data_for((6, 5), dtype)
    p = pygpu.asarray(x, device=device)
    m = (np.arange(30) % 3 == 0).reshape(6, 5)
    pm = pygpu.asarray(m, device=device)
    assert_array_equal(p[pm], x[m])
    assert_array_equal(p[m], x[m])
    assert_array_equal(p.T[pm.T], x.T[m.T])
    assert_array_equal(p[::-1][pm], x[::-1][m])
    assert_array_equal(p[pm[:, 0]], x[m[:, 0]])
    idx = np.array([[4, 0], [-1, 2]])
    assert_array_equal(p[pygpu.asarray(idx, device=device)], x[idx])
    assert_array_equal(p[:, idx], x[:, idx])
    assert_array_equal(p[idx, idx], x[idx, idx])
    # broadcast and 0-d arrays
    b = pygpu.broadcast_to(pygpu.asarray(x[0], device=device), (3, 5))
    assert_array_equal(b[[0, 2], [1, 1]], np.broadcast_to(x[0], (3, 5))[[0, 2], [1, 1]])
    z = pygpu.asarray(np.array(x[0, 0]), device=device)
    assert_array_equal(z[True], np.array(x[0, 0])[True])
    assert_array_equal(z[np.array(False)], np.array(x[0, 0])[np.array(False)])
    # writes
    y = x.copy()
    p[pm] = 3
    y[m] = 3
    assert_array_equal(p, y)
    p[pm] = pygpu.asarray(np.arange(m.sum()).astype(dtype), device=device)
    y[m] = np.arange(m.sum()).astype(dtype)
    assert_array_equal(p, y)
    p[[0, 2]] = pygpu.asarray(x[1], device=device)
    y[[0, 2]] = x[1]
    assert_array_equal(p, y)
    p[m[:, 0]] = x[5]
    y[m[:, 0]] = x[5]
    assert_array_equal(p, y)


def test_index_errors(device):
    x = np.zeros((3, 3))
    p = pygpu.asarray(x, device=device)
    for idx in [[5], ([0, 5], [7, 1]), ([0, 1], [7, 8]), (np.array([[4]]), 5), [0, -5], np.array([True, False]),
                np.array([1.0]), ([0, 1], [0, 1, 2]), [[0, 3]] * 4, (slice(None), [0, 1], [0]), (0, 0, [0]),
                ([0], Ellipsis, [0], Ellipsis), "a", [1.5], np.zeros((2, 2), bool)]:
        same_error(lambda: x[idx], lambda: p[idx])
    for idx, value in [([0, 1], np.zeros((2, 2))), (([0, 1], [0, 1]), np.zeros(3)), (np.array([True, False, True]),
                                                                                      np.zeros((3, 3))),
                       ([5], 1.0), ([0, 1], np.zeros((5, 1, 2, 3)))]:
        y = x.copy()
        same_error(lambda: y.__setitem__(idx, value), lambda: p.__setitem__(idx, value))
        assert_array_equal(p, x)
    u8 = pygpu.zeros(3, dtype="uint8", device=device)
    same_error(lambda: np.zeros(3, np.uint8).__setitem__([0], 300), lambda: u8.__setitem__([0], 300))


def test_setitem_overlap_and_augmented(device):
    x = np.arange(10.0)
    p = pygpu.asarray(x, device=device)
    p[[1, 2, 3]] = p[:3]
    x[[1, 2, 3]] = x[:3]
    assert_array_equal(p, x)
    p[[9, 8, 7]] += 1
    x[[9, 8, 7]] += 1
    assert_array_equal(p, x)
    p[p > 5] *= -1
    x[x > 5] *= -1
    assert_array_equal(p, x)
    p[[0, 0, 0]] = [1.0, 2.0, 3.0]
    if device.kind == "cpu":
        x[[0, 0, 0]] = [1.0, 2.0, 3.0]
        assert_array_equal(p, x)  # the last value wins on the CPU, as in NumPy


def test_many_index_arrays(device):
    # more index arrays than one kernel takes: folded into byte offsets
    x = data_for((2, 3, 2, 3, 2, 3), "float32")
    p = pygpu.asarray(x, device=device)
    idx = tuple(np.array([[i % n, (i + 1) % n]]) for i, n in enumerate(x.shape))
    assert_array_equal(p[idx], x[idx])
    bad = idx[:5] + (np.array([[0, 3]]),)
    same_error(lambda: x[bad], lambda: p[bad])
    y = x.copy()
    p[idx] = -1
    y[idx] = -1
    assert_array_equal(p, y)


# ---------------------------------------------------------------- nonzero and friends

@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero(device, dtype):
    x = (data_for((4, 6), "int64") % 3).astype(dtype)
    p = pygpu.asarray(x, device=device)
    for a, b in [(p, x), (p.T, x.T), (p[::-1, ::2], x[::-1, ::2])]:
        r = pygpu.nonzero(a)
        e = np.nonzero(b)
        assert len(r) == len(e)
        for u, v in zip(r, e):
            assert_array_equal(u, v)
        for u, v in zip(a.nonzero(), e):
            assert_array_equal(u, v)
        for u, v in zip(pygpu.where(a), np.where(b)):
            assert_array_equal(u, v)
        assert_array_equal(pygpu.argwhere(a), np.argwhere(b))
        assert_array_equal(pygpu.flatnonzero(a), np.flatnonzero(b))
    e = pygpu.asarray(np.zeros((0, 3), dtype), device=device)
    assert_array_equal(pygpu.argwhere(e), np.argwhere(np.zeros((0, 3), dtype)))
    for v in (0, 5):
        z = np.array(v, dtype=dtype)
        assert_array_equal(pygpu.argwhere(pygpu.asarray(z, device=device)), np.argwhere(z))
        same_error(lambda: np.nonzero(z), lambda: pygpu.nonzero(pygpu.asarray(z, device=device)))
    same_error(lambda: np.where([1], [1]), lambda: pygpu.where(pygpu.asarray([1]), pygpu.asarray([1])))


# ---------------------------------------------------------------- take, put, ...

@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "int64", "complex128"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(device, dtype, mode):
    x = data_for((4, 5), dtype)
    p = pygpu.asarray(x, device=device)
    idx = np.array([[3, 0], [1, 1]]) if mode == "raise" else np.array([[7, -1], [-9, 2]])
    for axis in (None, 0, 1, -1):
        assert_array_equal(pygpu.take(p, idx, axis=axis, mode=mode), np.take(x, idx, axis=axis, mode=mode))
        assert_array_equal(p.T.take(pygpu.asarray(idx, device=device), axis=axis, mode=mode),
                           x.T.take(idx, axis=axis, mode=mode))
    assert_array_equal(pygpu.take(p, 2), np.take(x, 2))
    out = pygpu.empty((2, 2), dtype=dtype, device=device)
    assert pygpu.take(p, idx if mode == "raise" else [[0, 1], [2, 3]], out=out) is out


@pytest.mark.parametrize("index", [[[1, 1], 1], [[1], slice(1, 2)], [1, [1, [1]]], [[1, 0], 2]])
def test_ragged_list_index_is_numpys_value_error(device, index):
    """A ragged list index fails NumPy's array conversion with its ValueError (was IndexError)."""
    n = np.zeros((2, 3, 4))
    p = pygpu.zeros((2, 3, 4), device=device)
    same_error(lambda: n[index], lambda: p[index])
    same_error(lambda: n.__setitem__(index, 1), lambda: p.__setitem__(index, 1))


def test_take_errors(device):
    x = np.arange(6.0).reshape(2, 3)
    p = pygpu.asarray(x, device=device)
    for np_call, pg_call in [
        (lambda: np.take(x, [5], axis=1), lambda: pygpu.take(p, [5], axis=1)),
        (lambda: np.take(x, [6]), lambda: pygpu.take(p, [6])),
        (lambda: np.take(x, [1], mode="foo"), lambda: pygpu.take(p, [1], mode="foo")),
        (lambda: np.take(x, [0], axis=2), lambda: pygpu.take(p, [0], axis=2)),
        (lambda: np.take(np.zeros((0, 3)), [0], axis=0, mode="wrap"),
         lambda: pygpu.take(pygpu.zeros((0, 3), device=device), [0], axis=0, mode="wrap")),
    ]:
        same_error(np_call, pg_call)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put(device, mode):
    for ind, v in [([0, 3, 5], [9, 8, 7]), ([0, 1, 2, 3], [9, 8]), ([[4, 1]], 5.5), ([1, 2], [])]:
        if mode != "raise":
            ind = [i + 7 for i in np.ravel(ind)]
        x = np.arange(6.0).reshape(2, 3)
        p = pygpu.asarray(x, device=device)
        assert pygpu.put(p, ind, v, mode=mode) is None
        np.put(x, ind, v, mode=mode)
        got = p.get()
        if device.kind != "cpu" and len(ind) and len(np.ravel(v)):
            # clip sends several indices to one place: NumPy keeps the last value; on a GPU which
            # one wins is unspecified (as in CuPy), but it is one of them and nothing else moves
            flat = np.clip(np.ravel(ind), 0, 5) if mode == "clip" else np.ravel(ind) % 6
            vals = np.resize(np.ravel(np.asarray(v, float)), len(flat))
            for place in set(flat.tolist()):
                if np.count_nonzero(flat == place) > 1:
                    assert got.flat[place] in vals[flat == place]
                    got.flat[place] = x.flat[place]
        assert_array_equal(got, x)
    p = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=device)
    t = p.T  # a non-contiguous target
    t.put([0, 1], [10, 20])
    x = np.arange(6.0).reshape(2, 3)
    x.T.put([0, 1], [10, 20])
    assert_array_equal(p, x)
    same_error(lambda: np.put(np.arange(6.0), [0, 7], [1, 2]), lambda: pygpu.put(pygpu.arange(6.0), [0, 7], [1, 2]))


def test_take_put_along_axis(device):
    x = data_for((3, 4), "float64")
    p = pygpu.asarray(x, device=device)
    for axis in (0, 1, -1):
        idx = np.argsort(x, axis=axis)[:2] if axis == 0 else np.argsort(x, axis=axis)[:, :2]
        assert_array_equal(pygpu.take_along_axis(p, pygpu.asarray(idx, device=device), axis=axis),
                           np.take_along_axis(x, idx, axis=axis))
        y = x.copy()
        q = pygpu.asarray(x, device=device)
        pygpu.put_along_axis(q, pygpu.asarray(idx, device=device), -1.0, axis=axis)
        np.put_along_axis(y, idx, -1.0, axis=axis)
        assert_array_equal(q, y)
    # broadcasting between arr and indices
    idx = np.array([[0], [2], [1]])
    assert_array_equal(pygpu.take_along_axis(p, pygpu.asarray(idx, device=device), 1), np.take_along_axis(x, idx, 1))
    assert_array_equal(pygpu.take_along_axis(p, pygpu.asarray([5, 0], device=device), None),
                       np.take_along_axis(x, np.array([5, 0]), None))
    for np_call, pg_call in [
        (lambda: np.take_along_axis(x, np.array([1.0]), 0), lambda: pygpu.take_along_axis(p, pygpu.asarray([1.0]), 0)),
        (lambda: np.take_along_axis(x, np.array([[0, 1]]), None),
         lambda: pygpu.take_along_axis(p, pygpu.asarray([[0, 1]]), None)),
        (lambda: np.take_along_axis(x, np.array([1]), 0), lambda: pygpu.take_along_axis(p, pygpu.asarray([1]), 0)),
        (lambda: np.take_along_axis(x, np.array([[7]]), 1), lambda: pygpu.take_along_axis(p, pygpu.asarray([[7]]), 1)),
    ]:
        same_error(np_call, pg_call)


def test_choose_compress_extract_place_select(device):
    a = np.array([[0, 1, 2], [2, 1, 0]])
    choices = [np.array([1, 2, 3]), np.array([[10], [20]]), np.int8(7)]
    pa = pygpu.asarray(a, device=device)
    pc = [pygpu.asarray(c, device=device) for c in choices]
    assert_array_equal(pygpu.choose(pa, pc), np.choose(a, choices))
    assert_array_equal(pa.choose(pc, mode="wrap"), a.choose(choices, mode="wrap"))
    same_error(lambda: np.choose(a + 1, choices), lambda: pygpu.choose(pa + 1, pc))
    assert_array_equal(pygpu.choose(pa + 1, pc, mode="clip"), np.choose(a + 1, choices, mode="clip"))
    x = data_for((3, 4), "float32")
    p = pygpu.asarray(x, device=device)
    for cond, axis in [([0, 1, 1], 0), ([True, False], 1), ([1, 0, 1, 0, 1], None)]:
        assert_array_equal(pygpu.compress(cond, p, axis=axis), np.compress(cond, x, axis=axis))
    same_error(lambda: np.compress([0, 1, 0, 1, 1], x, axis=1), lambda: pygpu.compress([0, 1, 0, 1, 1], p, axis=1))
    same_error(lambda: np.compress([[1]], x), lambda: pygpu.compress([[1]], p))
    assert_array_equal(pygpu.extract(p > 40, p), np.extract(x > 40, x))
    y = x.copy()
    q = pygpu.asarray(x, device=device)
    pygpu.place(q, q > 40, [1, 2])
    np.place(y, y > 40, [1, 2])
    assert_array_equal(q, y)
    same_error(lambda: np.place(y, y > 0, []), lambda: pygpu.place(q, q > 0, []))
    conds = [x > 50, x < 10]
    assert_array_equal(pygpu.select([pygpu.asarray(c, device=device) for c in conds], [p, -p], default=0.5),
                       np.select(conds, [x, -x], default=0.5))
    same_error(lambda: np.select([], []), lambda: pygpu.select([], []))
    same_error(lambda: np.select([x > 1], [x, x]), lambda: pygpu.select([p > 1], [p, p]))
    same_error(lambda: np.select([x], [x]), lambda: pygpu.select([p], [p]))
    # Python-scalar defaults and choices are int64/float64 arrays to NumPy: the default is cast
    # into the result unchecked (-1 into uint8 is 255), the choices same_kind
    c = np.array([True, False, False])
    pc = pygpu.asarray(c, device=device)
    u8, i8 = np.array([1, 2, 3], np.uint8), np.array([1, 2, 3], np.int8)
    for choices, default in (([u8], -1), ([-1, i8], 300), ([u8], 256)):
        got = pygpu.select([pc] * len(choices), [pygpu.asarray(v, device=device) if isinstance(v, np.ndarray) else v
                                                 for v in choices], default=default)
        want = np.select([c] * len(choices), choices, default=default)
        assert got.dtype == want.dtype
        assert_array_equal(got, want)
    same_error(lambda: np.select([c, c], [-1, u8]),
               lambda: pygpu.select([pc, pc], [-1, pygpu.asarray(u8, device=device)]))


# ---------------------------------------------------------------- found by a differential hunt

@pytest.mark.parametrize("call", [
    lambda m: m.choose([0, -1], [[1, 2], [3, 4]]),
    lambda m: m.choose([-2, 0], [[1, 2], [3, 4]]),
    lambda m: m.choose([0, 2], [[1, 2], [3, 4]]),
    lambda m: m.choose([0, -1], [[1, 2], [3, 4]], mode="wrap"),
    lambda m: m.choose([0, 5], [[1, 2], [3, 4]], mode="clip"),
    lambda m: m.choose([0, 1], [m.asarray(np.array([1.5, 2.5], "f4")), 2.0]),
    lambda m: m.choose([0, 1], [m.asarray(np.array([1, 2], "i1")), 5]),
    lambda m: m.choose([0, 1], [m.asarray(np.array([1, 2], "u8")), 2]),
    lambda m: m.choose([0, 1], [m.asarray(np.array([1, 2], "i1")), 300]),
    lambda m: m.choose(m.asarray(np.array([True, False])), [[1, 2], [3, 4]]),
    lambda m: m.choose(m.asarray(np.array([0, 1], "u8")), [[1, 2], [3, 4]]),
    lambda m: m.choose([0], [[1]] * 65),
    lambda m: m.asarray(np.array([1, 0])).choose([[1, 2], [3, 4]]),
])
def test_choose_as_numpys(call):
    """mode 'raise' refuses negative entries (they wrapped), Python-scalar choices are weak, the
    index dtypes and the 64 choices are NumPy's."""
    np_r, pg_r = numpy_and_pygpu(call)
    assert np_r == pg_r


@pytest.mark.parametrize("f", ["putmask", "place"])
@pytest.mark.parametrize("dt,value", [
    ("i1", 300), ("i4", 2**63), ("f4", 1j), ("u1", -1), ("i4", np.array([7, 8])), ("i4", [7, 8]),
    ("f8", [1.5]), ("i4", np.array([7, 8], "i2")), ("f2", np.array([1.0])), ("c8", np.array([1.0])),
])
def test_putmask_and_place_convert_values_as_numpys(f, dt, value):
    mask = [True, False, True, False]

    def call(m):
        x = m.asarray(np.arange(4, dtype=dt))
        v = m.asarray(value) if isinstance(value, np.ndarray) else value
        getattr(m, f)(x, m.asarray(mask), v)
        return x
    np_r, pg_r = numpy_and_pygpu(call)
    assert np_r == pg_r


@pytest.mark.parametrize("key", [1, slice(0, 2), [1, 3], np.array([True, False, True, False])])
@pytest.mark.parametrize("value", [np.int64(300), np.float64(300.7), np.uint64(2**64 - 1), 300, 2.5, np.bool_(True)])
def test_numpy_scalars_cast_into_fancy_and_mask_assignment(key, value):
    """NumPy casts a NumPy scalar into an advanced assignment (np.int64(300) into int8 is 44) and
    checks a Python int's value (OverflowError), as it does for every basic assignment."""
    def call(m):
        x = m.zeros(4, "i1")
        x[m.asarray(key) if isinstance(key, np.ndarray) else key] = value
        return x
    np_r, pg_r = numpy_and_pygpu(call)
    assert np_r == pg_r


def test_fill_diagonal_and_ravel_multi_index_errors():
    for call in (lambda m: m.fill_diagonal(m.zeros((2, 2), "i1"), 300),
                 lambda m: m.fill_diagonal(m.zeros((2, 2), "f4"), 1j),
                 lambda m: m.fill_diagonal(m.zeros((2, 3, 2), "u1"), -1, wrap=True),   # the shape first
                 lambda m: m.ravel_multi_index((m.asarray([0]),) * 3, (2, 0, 3), mode="wrap"),
                 lambda m: m.ravel_multi_index((m.asarray([1]), m.asarray([1])), (2**40, 2**40))):
        np_r, pg_r = numpy_and_pygpu(call)
        assert np_r == pg_r
