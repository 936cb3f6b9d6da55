"""Basic indexing (__getitem__ views) and assignment (__setitem__), differential against NumPy."""
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, same_error

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])



def data_for(shape, dtype):
    return (np.arange(int(np.prod(shape)), dtype=np.int64) % 100 + 1).reshape(shape).astype(dtype)


shapes = st.lists(st.integers(0, 5), max_size=4).map(tuple)


@st.composite
def basic_indices(draw, shape):
    """A random basic index for `shape`: ints, slices (any step, out-of-range bounds), None and at
    most one Ellipsis, as a tuple or a bare item."""
    items = []
    dims = list(shape)
    n_take = draw(st.integers(0, len(dims)))
    ellipsis_at = draw(st.one_of(st.none(), st.integers(0, n_take)))
    for i in range(n_take):
        if ellipsis_at == i:
            items.append(Ellipsis)
        n = dims[len(dims) - n_take + i] if ellipsis_at is not None and i >= ellipsis_at else dims[i]
        choices = ["slice"] + (["int"] if n > 0 else [])
        if draw(st.sampled_from(choices)) == "int":
            items.append(draw(st.integers(-n, n - 1)))
        else:
            bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
            step = draw(st.one_of(st.none(), st.sampled_from([1, 2, 3, -1, -2, -3])))
            items.append(slice(draw(bound), draw(bound), step))
        if draw(st.integers(0, 4)) == 0:
            items.append(None)
    if ellipsis_at == n_take:
        items.append(Ellipsis)
    if draw(st.integers(0, 5)) == 0:
        items.insert(draw(st.integers(0, len(items))), None)
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


@st.composite
def array_and_index(draw):
    shape = draw(shapes)
    dtype = draw(st.sampled_from(DTYPES))
    return data_for(shape, dtype), draw(basic_indices(shape))


def offset_of(view, base):
    return view.__array_interface__["data"][0] - base.__array_interface__["data"][0]


@settings(max_examples=300, **SETTINGS)
@given(case=array_and_index())
def test_getitem_matches_numpy(device, case):
    x, idx = case
    p = pygpu.asarray(x, device=device)
    nr = x[idx]
    r = p[idx]
    assert isinstance(r, pygpu.ndarray)
    if not isinstance(nr, np.ndarray):
        # NumPy gives a scalar for an element; pygpu a 0-d array that stays on the device
        assert r.ndim == 0 and r.device == device
        nr = np.asarray(nr)
    assert_array_equal(r, nr)
    assert r.base is p
    if nr.size and nr.base is x:
        assert r.strides == nr.strides
        assert r.data_ptr - p.data_ptr == offset_of(nr, x)
    assert r.flags["C_CONTIGUOUS"] == nr.flags["C_CONTIGUOUS"]
    assert r.flags["F_CONTIGUOUS"] == nr.flags["F_CONTIGUOUS"]


@settings(max_examples=100, **SETTINGS)
@given(case=array_and_index(), data=st.data())
def test_getitem_of_views(device, case, data):
    """Indexing a strided view: the same index on NumPy's view of the same data."""
    x, _ = case
    if x.ndim == 0:
        return
    pre = tuple(slice(None, None, data.draw(st.sampled_from([1, 2, -1, -2]))) for _ in x.shape)
    xv = x[pre].T
    pv = pygpu.asarray(x, device=device)[pre].T
    idx = data.draw(basic_indices(xv.shape))
    assert_array_equal(pv[idx], np.asarray(xv[idx]))


def test_element_is_0d_array_on_device(device):
    p = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=device)
    e = p[1, 2]
    assert isinstance(e, pygpu.ndarray) and e.shape == () and e.device == device
    assert float(e) == 5.0
    assert p[-1, -3].item() == 3.0
    z = pygpu.asarray(np.float32(7), device=device)
    assert z[()].shape == () and z[...].shape == () and z[None].shape == (1,)
    assert z[()].base is z


@settings(max_examples=200, **SETTINGS)
@given(case=array_and_index(), data=st.data())
def test_setitem_matches_numpy(device, case, data):
    x, idx = case
    x = x.copy()
    p = pygpu.asarray(x, device=device)
    target_shape = np.asarray(x[idx]).shape
    kinds = ["scalar", "numpy", "pygpu", "broadcast"] + (["list"] if 0 not in target_shape else [])
    kind = data.draw(st.sampled_from(kinds))
    if kind == "scalar":
        value = data.draw(st.sampled_from([0, 1, 7, True, 2.0, np.int8(3), np.float32(1.5)]))
        if x.dtype.kind == "c":
            value = data.draw(st.sampled_from([value, 1 + 2j]))
    else:
        shape = target_shape
        if kind == "broadcast" and shape:
            shape = tuple(1 if data.draw(st.booleans()) else n for n in shape)
            shape = shape[data.draw(st.integers(0, len(shape))):]
        value = (np.arange(int(np.prod(shape))) % 50 + 60).reshape(shape).astype(x.dtype)
        if kind == "pygpu":
            value = pygpu.asarray(value, device=device)
        elif kind == "list":
            value = value.tolist()
    x[idx] = value if not isinstance(value, pygpu.ndarray) else value.get()
    p[idx] = value
    assert_array_equal(p, x)


def test_setitem_kinds(device):
    x = np.zeros((3, 4), dtype=np.float32)
    p = pygpu.asarray(x, device=device)
    for idx, value in [
        (0, 5), ((1, slice(None, None, 2)), [1.5, 2.5]), ((Ellipsis, 3), np.arange(3)),
        ((slice(None), None, slice(1, 3)), np.ones((1, 2), np.int64)), (-1, np.float64(9)),
        ((2, 2), np.array(4)), (slice(None), [[1, 2, 3, 4]]), (slice(None), np.ones((1, 1, 4))),
        (Ellipsis, pygpu.asarray(np.arange(4, dtype=np.int8), device=device)),
        ((slice(0, 0),), 3), ((slice(None), slice(None, None, -1)), np.arange(12).reshape(3, 4)),
    ]:
        x[idx] = value.get() if isinstance(value, pygpu.ndarray) else value
        p[idx] = value
        assert_array_equal(p, x)


def test_setitem_across_devices():
    devs = [pygpu.Device("cpu")] + ([pygpu.Device("cuda:0")] if pygpu.cuda.is_available() else [])
    for d1 in devs:
        for d2 in devs:
            a = pygpu.zeros((4, 3), dtype="float64", device=d1)
            b = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=d2)
            a[1:3] = b[:, ::-1]
            expected = np.zeros((4, 3))
            expected[1:3] = np.arange(6.0).reshape(2, 3)[:, ::-1]
            assert_array_equal(a, expected)


@pytest.mark.parametrize("dst, src", [
    ((slice(1, None),), (slice(None, -1),)),
    ((slice(None, -1),), (slice(1, None),)),
    ((slice(None, None, -1),), (slice(None),)),
    ((slice(None),), (slice(None, None, -1),)),
    ((slice(5, None),), (slice(None, None, 2),)),
    ((slice(None),), (slice(None),)),
])
def test_setitem_overlapping_self(device, dst, src):
    x = np.arange(10.0)
    p = pygpu.asarray(x, device=device)
    x[dst] = x[src]
    p[dst] = p[src]
    assert_array_equal(p, x)


def test_setitem_overlapping_2d(device):
    x = np.arange(16).reshape(4, 4)
    p = pygpu.asarray(x, device=device)
    x[...] = x.T
    p[...] = p.T
    assert_array_equal(p, x)
    x[1:, 1:] = x[:-1, :-1]
    p[1:, 1:] = p[:-1, :-1]
    assert_array_equal(p, x)
    x[:, ::-1] = x[::-1, :]
    p[:, ::-1] = p[::-1, :]
    assert_array_equal(p, x)


@pytest.mark.parametrize("shape, idx", [
    ((3,), 5), ((3,), -4), ((2, 3), (0, 3)), ((2, 3), (Ellipsis, -4)), ((3,), (0, 1)), ((), 0),
    ((2, 3), (0, 0, 0)), ((3,), (Ellipsis, Ellipsis)), ((3,), 1.0), ((3,), "a"), ((3,), [0, 1]),
    ((3,), np.array([0, 1])), ((3,), True), ((3,), np.bool_(False)), ((3,), np.array([True, False, True])),
    ((3,), slice(None, None, 0)), ((3,), slice(1.0, None)), ((3,), 2 ** 70), ((3,), (slice(None), [0])),
    ((3,), np.array([0.5])), ((3,), {}),
])
def test_getitem_errors(device, shape, idx):
    x = np.zeros(shape)
    p = pygpu.asarray(x, device=device)
    if isinstance(idx, list) or (isinstance(idx, tuple) and any(isinstance(i, list) for i in idx)) or \
            isinstance(idx, (bool, np.bool_)) or (isinstance(idx, np.ndarray) and idx.dtype.kind in "bi"):
        # advanced indexing (test_advanced_indexing.py covers it)
        try:
            expected = x[idx]
        except IndexError:
            same_error(lambda: x[idx], lambda: p[idx])
            return
        assert_array_equal(p[idx], expected)
        x[idx] = 1
        p[idx] = 1
        assert_array_equal(p, x)
        return
    same_error(lambda: x[idx], lambda: p[idx])

    def set_np():
        x[idx] = 1

    def set_pg():
        p[idx] = 1
    same_error(set_np, set_pg)


def test_index_too_many_newaxes(device):
    p = pygpu.zeros(3, device=device)
    with pytest.raises(IndexError, match="number of dimensions"):
        p[(None,) * 40]
    with pytest.raises(IndexError, match="too many indices"):
        p[(0,) * 100]


def test_integer_like_indices(device):
    x = np.arange(10)
    p = pygpu.asarray(x, device=device)

    class Idx:
        def __index__(self):
            return 3

    for idx in [np.int8(2), np.uint64(4), np.array(5), Idx(), pygpu.asarray(np.int32(6), device=device),
                (np.int16(-1),), slice(np.int64(1), np.int32(8), np.int8(3))]:
        nidx = idx.get() if isinstance(idx, pygpu.ndarray) else idx
        assert_array_equal(p[idx], np.asarray(x[nidx]))


@pytest.mark.parametrize("setup, value", [
    ((3,), [1, 2, 3, 4]), ((2, 3), np.ones((2, 2))), ((3,), np.ones((2, 3))), ((3,), "abc"),
    ((3,), 300), ((3,), [[1, 2, 3], [4, 5, 6]]), ((3,), [[1, 2, 3]]), ((2, 3), [[[1, 2, 3]]]),
])
def test_setitem_errors(device, setup, value):
    x = np.zeros(setup, dtype=np.uint8)
    p = pygpu.asarray(x, device=device)

    def set_np():
        x[...] = value

    def set_pg():
        p[...] = value
    same_error(set_np, set_pg)


def test_setitem_element_with_sequence(device):
    x = np.zeros(3)
    p = pygpu.asarray(x, device=device)
    for value in ([1], np.array([1.0]), pygpu.asarray(np.array([1.0]), device=device)):
        with pytest.raises(ValueError, match="setting an array element with a sequence"):
            p[0] = value
    p[0] = np.array(2.0)
    p[1] = pygpu.asarray(np.float64(3), device=device)
    assert_array_equal(p, np.array([2.0, 3.0, 0.0]))


def test_setitem_read_only_and_delete(device):
    p = pygpu.broadcast_to(pygpu.zeros(3, device=device), (2, 3))
    for idx in [0, (Ellipsis,), (slice(None), 1)]:
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            p[idx] = 1
    assert not p[0].flags["WRITEABLE"] and not p[:, None].flags["WRITEABLE"]
    q = pygpu.zeros(3, device=device)
    x = np.zeros(3)

    def del_np():
        del x[0]

    def del_pg():
        del q[0]
    same_error(del_np, del_pg)


def test_views_share_memory(device):
    p = pygpu.zeros((4, 5), dtype="int32", device=device)
    v = p[1:3, ::2]
    v[...] = 7
    expected = np.zeros((4, 5), np.int32)
    expected[1:3, ::2] = 7
    assert_array_equal(p, expected)
    w = v[:, 1]
    assert w.base is p   # the owner of the memory, never an intermediate view
    w[...] = -1
    expected[1:3, 2] = -1
    assert_array_equal(p, expected)


def test_indexing_zero_size(device):
    x = np.zeros((0, 3))
    p = pygpu.asarray(x, device=device)
    for idx in [(slice(None), 0), (Ellipsis, slice(1, 2)), (None, slice(5, 10)), slice(None, None, -1)]:
        assert_array_equal(p[idx], x[idx])
        p[idx] = 1
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        p[0]
    assert_array_equal(p, x)


def test_operator_index_on_index_object(device):
    assert operator.index(pygpu.asarray(np.int64(4), device=device)) == 4


def test_assignment_of_whole_arrays_copies_bytes_or_runs_the_kernel(device):
    """dst[...] = src of one type and layout is a byte copy (the copy engine on a GPU);
    overlapping memory, other layouts and other types still take the kernel: all give NumPy's
    answer."""
    x = np.arange(24.0).reshape(4, 6)
    a = pygpu.asarray(x, device=device)
    b = pygpu.empty((4, 6), device=device)
    b[...] = a
    assert_array_equal(b, x)
    f = pygpu.asarray(np.asfortranarray(x), device=device)
    b[...] = f                                  # F into C: the kernel
    assert_array_equal(b, x)
    flat = pygpu.asarray(np.arange(10.0), device=device)
    flat[2:] = flat[:-2]                        # overlapping, both contiguous
    ref = np.arange(10.0)
    ref[2:] = ref[:-2].copy()
    assert_array_equal(flat, ref)
    c = pygpu.empty((4, 6), dtype=np.float32, device=device)
    c[...] = a                                  # another type: the kernel
    assert_array_equal(c, x.astype(np.float32))
