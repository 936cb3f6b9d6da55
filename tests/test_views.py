"""Shape methods returning views (reshape, ravel, flatten, transpose, swapaxes, moveaxis, squeeze,
expand_dims, broadcast_to, broadcast_arrays, T, mT), differential against NumPy."""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, same_error




def owner(p):
    return p.base if p.base is not None else p


def np_owner(x):
    return x.base if x.base is not None else x


def check_view_like_numpy(r, nr, p, x):
    """r (pygpu) against nr (NumPy), computed from p and x holding the same data: values, dtype,
    shape, strides (of axes longer than 1, in non-empty arrays), and
    view-ness (NumPy's view has x's owner as base; ours p's owner, at the same offset)."""
    assert isinstance(r, pygpu.ndarray)
    assert_array_equal(r, nr)
    if nr.size:
        # axes of length 1 excepted: their strides mean nothing (and creation paths differ)
        rs = [s for s, n in zip(r.strides, r.shape) if n != 1]
        ns = [s for s, n in zip(nr.strides, nr.shape) if n != 1]
        assert rs == ns, (r.strides, nr.strides)
    if nr.base is np_owner(x):
        assert r.base is owner(p)
        if nr.size:
            offset = nr.__array_interface__["data"][0] - x.__array_interface__["data"][0]
            assert r.data_ptr - p.data_ptr == offset
    else:
        assert r.base is None or r.base is not owner(p)


# A random starting layout: C-contiguous, transposed, sliced with steps (some negative).
@st.composite
def layouts(draw, max_dims=4, max_side=4):
    shape = tuple(draw(st.lists(st.integers(0, max_side), max_size=max_dims)))
    dtype = draw(st.sampled_from(DTYPES))
    kind = draw(st.sampled_from(["c", "f", "transpose", "slice"]))
    base = (np.arange(int(np.prod(shape)), dtype=np.int64) % 120).reshape(shape).astype(dtype)
    if kind == "f":
        return base, (lambda a: a.T), "fortran"
    if kind == "transpose" and base.ndim:
        perm = draw(st.permutations(range(base.ndim)))
        return base, (lambda a: a.transpose(*perm)), perm
    if kind == "slice" and base.ndim:
        idx = tuple(slice(None, None, draw(st.sampled_from([1, 2, -1, -2]))) for _ in shape)
        return base, (lambda a: a[idx]), idx
    return base, (lambda a: a), "c"


def make(device, layout):
    base, view, _ = layout
    p_base = pygpu.asarray(base, device=device)
    return view(base), view(p_base)


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def new_shapes(draw, size):
    dims = []
    rem = size
    if size == 0:
        dims = draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=1, max_size=4))
        if 0 not in dims:
            dims[0] = 0
    else:
        while rem > 1 and len(dims) < 6:
            d = draw(st.sampled_from(divisors(rem)[1:]))
            dims.append(d)
            rem //= d
            if draw(st.booleans()) and len(dims) < 6:
                dims.insert(draw(st.integers(0, len(dims))), 1)
        if rem > 1:
            dims.append(rem)
    if dims and size and draw(st.booleans()):
        dims[draw(st.integers(0, len(dims) - 1))] = -1
    return tuple(dims)


# ------------------------------------------------------------------ reshape


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts(), data=st.data(), order=st.sampled_from(["C", "F", "A"]))
def test_reshape_matches_numpy(device, layout, data, order):
    x, p = make(device, layout)
    shape = data.draw(new_shapes(x.size))
    check_view_like_numpy(p.reshape(shape, order=order), x.reshape(shape, order=order), p, x)
    check_view_like_numpy(pygpu.reshape(p, shape, order), np.reshape(x, shape, order=order), p, x)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts(), data=st.data())
def test_reshape_copy_argument(device, layout, data):
    x, p = make(device, layout)
    shape = data.draw(new_shapes(x.size))
    r = p.reshape(shape, copy=True)
    assert r.base is None or r.base is not owner(p)
    assert_array_equal(r, x.reshape(shape, copy=True))
    try:
        nr = x.reshape(shape, copy=False)
    except ValueError:
        same_error(lambda: x.reshape(shape, copy=False), lambda: p.reshape(shape, copy=False))
    else:
        check_view_like_numpy(p.reshape(shape, copy=False), nr, p, x)


def test_reshape_forms(device):
    x = np.arange(24, dtype=np.float32)
    p = pygpu.asarray(x, device=device)
    for args in [(2, 3, 4), ((2, 3, 4),), ([4, 6],), (24,), (-1,), (2, -1), (np.int64(4), 6)]:
        assert_array_equal(p.reshape(*args), x.reshape(*args))
    assert_array_equal(p.reshape(None), x.reshape(None))
    assert_array_equal(pygpu.reshape(p, None), np.reshape(x, None))
    r = p.reshape(4, 6)
    assert r.base is p and r.data_ptr == p.data_ptr
    assert r.flags["C_CONTIGUOUS"] and not r.flags["OWNDATA"]
    # a view of a view points at the owner of the memory
    assert r.reshape(24).base is p
    assert_array_equal(pygpu.asarray(np.float64(3), device=device).reshape(1, 1), np.float64(3).reshape(1, 1))
    assert_array_equal(pygpu.asarray(np.ones(1), device=device).reshape(()), np.ones(1).reshape(()))


def test_reshape_of_transpose_copies(device):
    x = np.arange(6).reshape(2, 3)
    p = pygpu.asarray(x, device=device)
    r = p.T.reshape(6)
    assert_array_equal(r, x.T.reshape(6))
    assert r.base is not p
    r[0] = 100  # a copy: the original is unchanged
    assert_array_equal(p, x)


@pytest.mark.parametrize("shape, args, kw", [
    ((6,), (4,), {}), ((6,), (-1, -1), {}), ((6,), (-1, 4), {}), ((6,), (4, -1), {}),
    ((0,), (0, -1), {}), ((2, 0, 3), (-1, 0), {}), ((6,), (2.0, 3), {}), ((6,), ((2, 3), 3), {}),
    ((6,), (), {}), ((6,), (6,), {"order": "K"}), ((6,), (6,), {"order": "X"}), ((6,), ("a",), {}),
])
def test_reshape_errors(device, shape, args, kw):
    x = np.zeros(shape)
    p = pygpu.asarray(x, device=device)
    same_error(lambda: x.reshape(*args, **kw), lambda: p.reshape(*args, **kw))


def test_reshape_copy_false_error(device):
    x = np.arange(6).reshape(2, 3)
    p = pygpu.asarray(x, device=device)
    same_error(lambda: x.T.reshape(6, copy=False), lambda: p.T.reshape(6, copy=False))


@pytest.mark.parametrize("start, new", [
    ((6,), (2, 3)), ((6,), (3, -1)), ((2, 3), (6,)), ((2, 3), 6), ((2, 3), (1, 1, 1, 1, 2, 3)),
    ((1, 1, 1, 6), (6,)), ((0, 3), (3, 0, 5)), ((), (1, 1)), ((1,), ()),
])
def test_setting_shape_reshapes_in_place(device, start, new):
    x = np.arange(int(np.prod(start))).reshape(start)
    p = pygpu.asarray(x, device=device)
    view = p[...]
    with pytest.warns(DeprecationWarning):   # NumPy 2.5 deprecates it too
        p.shape = new
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # (NumPy 2.4 does not warn)
        x.shape = new
    assert p.shape == x.shape and p.strides == x.strides
    assert p.flags["C_CONTIGUOUS"] == x.flags["C_CONTIGUOUS"] and p.flags["F_CONTIGUOUS"] == x.flags["F_CONTIGUOUS"]
    assert_array_equal(p, x)
    p[...] = 7   # the same memory
    assert (view.get() == 7).all()
    with pytest.warns(DeprecationWarning):
        p.shape = start   # back, into the object's own storage or out of it
    assert p.shape == start


@pytest.mark.parametrize("new", [(6,), (4,), (-1, -1), "a"])
def test_setting_shape_errors(device, new):
    x = np.arange(6).reshape(2, 3).T   # not contiguous: (6,) needs a copy
    p = pygpu.asarray(np.arange(6), device=device).reshape(2, 3).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)

        def set_np():
            x.shape = new

        def set_pg():
            p.shape = new
        same_error(set_np, set_pg)
    with pytest.raises(AttributeError, match="Cannot delete array shape"):
        del p.shape


# ------------------------------------------------------------------ ravel / flatten


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts(), order=st.sampled_from(["C", "F", "A", "K"]))
def test_ravel_flatten(device, layout, order):
    x, p = make(device, layout)
    check_view_like_numpy(p.ravel(order), x.ravel(order), p, x)
    check_view_like_numpy(pygpu.ravel(p, order=order), np.ravel(x, order=order), p, x)
    f = p.flatten(order)
    assert f.base is None and f.flags["OWNDATA"]
    assert_array_equal(f, x.flatten(order))


def test_ravel_k_with_negative_strides(device):
    x = np.arange(24).reshape(2, 3, 4)
    p = pygpu.asarray(x, device=device)
    for idx in [(slice(None, None, -1),), (slice(None), slice(None, None, -1)), (Ellipsis, slice(None, None, -2))]:
        assert_array_equal(p[idx].ravel("K"), x[idx].ravel("K"))
        assert_array_equal(p[idx].transpose(2, 0, 1).ravel("K"), x[idx].transpose(2, 0, 1).ravel("K"))
        assert_array_equal(p[idx].flatten("K"), x[idx].flatten("K"))


def test_ravel_order_error(device):
    x = np.arange(6)
    p = pygpu.asarray(x, device=device)
    with pytest.raises(ValueError, match="order must be one of"):
        p.ravel("X")
    with pytest.raises(ValueError, match="order must be one of"):
        p.flatten("X")


# ------------------------------------------------------------------ transposes


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts(), data=st.data())
def test_transpose_family(device, layout, data):
    x, p = make(device, layout)
    check_view_like_numpy(p.T, x.T, p, x)
    check_view_like_numpy(p.transpose(), x.transpose(), p, x)
    check_view_like_numpy(pygpu.transpose(p), np.transpose(x), p, x)
    if x.ndim:
        perm = data.draw(st.permutations(range(x.ndim)))
        neg = [a - x.ndim if data.draw(st.booleans()) else a for a in perm]
        check_view_like_numpy(p.transpose(*neg), x.transpose(*neg), p, x)
        check_view_like_numpy(p.transpose(neg), x.transpose(neg), p, x)
        check_view_like_numpy(pygpu.transpose(p, tuple(neg)), np.transpose(x, neg), p, x)
        check_view_like_numpy(pygpu.permute_dims(p, neg), np.permute_dims(x, neg), p, x)
        a1 = data.draw(st.integers(-x.ndim, x.ndim - 1))
        a2 = data.draw(st.integers(-x.ndim, x.ndim - 1))
        check_view_like_numpy(p.swapaxes(a1, a2), x.swapaxes(a1, a2), p, x)
        check_view_like_numpy(pygpu.swapaxes(p, a1, a2), np.swapaxes(x, a1, a2), p, x)
        k = data.draw(st.integers(0, x.ndim))
        src = data.draw(st.permutations(range(x.ndim)))[:k]
        dst = data.draw(st.permutations(range(x.ndim)))[:k]
        check_view_like_numpy(pygpu.moveaxis(p, src, dst), np.moveaxis(x, src, dst), p, x)
        if k == 1:
            check_view_like_numpy(pygpu.moveaxis(p, src[0], dst[0]), np.moveaxis(x, src[0], dst[0]), p, x)
    if x.ndim >= 2:
        check_view_like_numpy(p.mT, x.mT, p, x)
        check_view_like_numpy(pygpu.matrix_transpose(p), np.matrix_transpose(x), p, x)


@pytest.mark.parametrize("np_f, pg_f", [
    (lambda a: a.transpose(1), lambda a: a.transpose(1)),
    (lambda a: a.transpose(0, 0), lambda a: a.transpose(0, 0)),
    (lambda a: a.transpose(0, 2), lambda a: a.transpose(0, 2)),
    (lambda a: a.transpose(0, 1, 2), lambda a: a.transpose(0, 1, 2)),
    (lambda a: a.transpose(0, 1.5), lambda a: a.transpose(0, 1.5)),
    (lambda a: np.transpose(a, (1,)), lambda a: pygpu.transpose(a, (1,))),
    (lambda a: np.permute_dims(a, (0, -3)), lambda a: pygpu.permute_dims(a, (0, -3))),
    (lambda a: a.swapaxes(0, 2), lambda a: a.swapaxes(0, 2)),
    (lambda a: a.swapaxes(-3, 0), lambda a: a.swapaxes(-3, 0)),
    (lambda a: np.moveaxis(a, (0, 1), 0), lambda a: pygpu.moveaxis(a, (0, 1), 0)),
    (lambda a: np.moveaxis(a, (0, 0), (0, 1)), lambda a: pygpu.moveaxis(a, (0, 0), (0, 1))),
    (lambda a: np.moveaxis(a, 0, (1, 1)), lambda a: pygpu.moveaxis(a, 0, (1, 1))),
    (lambda a: np.moveaxis(a, 3, 0), lambda a: pygpu.moveaxis(a, 3, 0)),
    (lambda a: np.moveaxis(a, 0, -3), lambda a: pygpu.moveaxis(a, 0, -3)),
    (lambda a: a[0].mT, lambda a: a[0].mT),
])
def test_transpose_errors(device, np_f, pg_f):
    x = np.zeros((2, 3))
    same_error(lambda: np_f(x), lambda: pg_f(pygpu.asarray(x, device=device)))


def test_array_arguments_as_axes_and_shapes(device):
    x = np.arange(6).reshape(2, 3)
    p = pygpu.asarray(x, device=device)
    axes = np.array([1, 0])
    assert_array_equal(p.transpose(axes), x.transpose(axes))
    assert_array_equal(pygpu.transpose(p, pygpu.asarray(axes, device=device)), np.transpose(x, axes))
    assert_array_equal(p.reshape(np.array([3, 2])), x.reshape(np.array([3, 2])))
    assert_array_equal(p.reshape(np.int64(6)), x.reshape(np.int64(6)))
    assert_array_equal(p.swapaxes(np.array(0), np.int8(1)), x.swapaxes(np.array(0), np.int8(1)))
    assert_array_equal(pygpu.broadcast_to(p, np.array([4, 2, 3])), np.broadcast_to(x, np.array([4, 2, 3])))


def test_axis_error_is_value_and_index_error(device):
    p = pygpu.zeros((2, 3), device=device)
    for exc in (np.exceptions.AxisError, ValueError, IndexError):
        with pytest.raises(exc):
            p.transpose(0, 5)


# ------------------------------------------------------------------ squeeze / expand_dims


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=5), data=st.data())
def test_squeeze_expand_dims(device, shape, data):
    x = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    p = pygpu.asarray(x, device=device)
    if x.ndim and data.draw(st.booleans()):
        flip = (slice(None, None, -1),) * x.ndim
        x, p = x[flip], p[flip]
    check_view_like_numpy(p.squeeze(), x.squeeze(), p, x)
    check_view_like_numpy(pygpu.squeeze(p), np.squeeze(x), p, x)
    ones = [i for i, n in enumerate(shape) if n == 1]
    if ones:
        sel = tuple(data.draw(st.lists(st.sampled_from(ones), unique=True, min_size=1)))
        sel = tuple(a - x.ndim if data.draw(st.booleans()) else a for a in sel)
        check_view_like_numpy(p.squeeze(sel), x.squeeze(sel), p, x)
        check_view_like_numpy(p.squeeze(axis=sel[0]), x.squeeze(axis=sel[0]), p, x)
    k = data.draw(st.integers(1, 3))
    out_nd = x.ndim + k
    axes = tuple(data.draw(st.lists(st.integers(-out_nd, out_nd - 1), min_size=k, max_size=k,
                                    unique_by=lambda a: a % out_nd)))
    check_view_like_numpy(pygpu.expand_dims(p, axes), np.expand_dims(x, axes), p, x)
    one = data.draw(st.integers(-x.ndim - 1, x.ndim))
    check_view_like_numpy(pygpu.expand_dims(p, one), np.expand_dims(x, one), p, x)


@pytest.mark.parametrize("np_f, pg_f", [
    (lambda a: a.squeeze(0), lambda a: a.squeeze(0)),
    (lambda a: a.squeeze((1, 1)), lambda a: a.squeeze((1, 1))),
    (lambda a: a.squeeze(3), lambda a: a.squeeze(3)),
    (lambda a: np.squeeze(a, -4), lambda a: pygpu.squeeze(a, -4)),
    (lambda a: np.expand_dims(a, (0, 0)), lambda a: pygpu.expand_dims(a, (0, 0))),
    (lambda a: np.expand_dims(a, 4), lambda a: pygpu.expand_dims(a, 4)),
    (lambda a: np.expand_dims(a, (0, -5)), lambda a: pygpu.expand_dims(a, (0, -5))),
])
def test_squeeze_expand_dims_errors(device, np_f, pg_f):
    x = np.zeros((2, 1, 3))
    same_error(lambda: np_f(x), lambda: pg_f(pygpu.asarray(x, device=device)))


# ------------------------------------------------------------------ broadcasting


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.sampled_from([0, 1, 2, 3]), max_size=3), data=st.data())
def test_broadcast_to(device, shape, data):
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    p = pygpu.asarray(x, device=device)
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
    target = tuple(lead) + tuple(data.draw(st.sampled_from([n, 0, 2, 3])) if n == 1 else n for n in shape)
    r, nr = pygpu.broadcast_to(p, target), np.broadcast_to(x, target)
    check_view_like_numpy(r, nr, p, x)
    assert not r.flags["WRITEABLE"]
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        r[...] = 1
    # views of a read-only array stay read-only
    if r.ndim:
        assert not r[:1].flags["WRITEABLE"]
        assert not r.T.flags["WRITEABLE"]
    flat = r.ravel()
    assert flat.base is None or not flat.flags["WRITEABLE"]


@pytest.mark.parametrize("shape, target", [((3,), (4,)), ((3,), (-1,)), ((2, 3), (2, -6)), ((3,), ()),
                                           ((2, 3), (3,)), ((2, 3), (4, 3)), ((2, 3), 3), ((3,), 4.0)])
def test_broadcast_to_errors(device, shape, target):
    x = np.ones(shape)
    same_error(lambda: np.broadcast_to(x, target), lambda: pygpu.broadcast_to(pygpu.asarray(x, device=device), target))


def test_broadcast_arrays(device):
    xs = [np.arange(3.0), np.ones((2, 1), dtype=np.int64), np.array(5, dtype=np.float32)]
    ps = [pygpu.asarray(v, device=device) for v in xs]
    rs, nrs = pygpu.broadcast_arrays(*ps), np.broadcast_arrays(*xs)
    assert isinstance(rs, tuple) and len(rs) == 3
    for r, nr, p, x in zip(rs, nrs, ps, xs):
        check_view_like_numpy(r, nr, p, x)
        assert not r.flags["WRITEABLE"]
    a = pygpu.zeros((2, 3), device=device)
    same = pygpu.broadcast_arrays(a, a)
    assert same[0] is a and same[1] is a
    assert pygpu.broadcast_arrays() == ()
    same_error(lambda: np.broadcast_arrays(np.ones(6), np.ones(4)),
               lambda: pygpu.broadcast_arrays(pygpu.ones(6, device=device), pygpu.ones(4, device=device)))
    same_error(lambda: np.broadcast_arrays(np.ones((2, 1)), np.ones(3), np.ones((3, 1))),
               lambda: pygpu.broadcast_arrays(*[pygpu.ones(s, device=device) for s in [(2, 1), (3,), (3, 1)]]))


def test_functions_accept_array_likes(device):
    with device:
        assert_array_equal(pygpu.reshape([[1, 2], [3, 4]], (4,)), np.reshape([[1, 2], [3, 4]], (4,)))
        assert_array_equal(pygpu.transpose([[1, 2], [3, 4]]), np.transpose([[1, 2], [3, 4]]))
        assert_array_equal(pygpu.broadcast_to(2.5, (2, 2)), np.broadcast_to(2.5, (2, 2)))
        assert pygpu.ravel(np.arange(3)).device == device


def test_flags_after_views(device):
    p = pygpu.zeros((3, 4), device=device)
    assert p.T.flags["F_CONTIGUOUS"] and not p.T.flags["C_CONTIGUOUS"]
    assert not p[:, ::2].flags["C_CONTIGUOUS"]
    assert p[1].flags["C_CONTIGUOUS"]
    assert p.reshape(4, 3).flags["C_CONTIGUOUS"]
    assert p.reshape(4, 3, order="F").flags["F_CONTIGUOUS"]
    e = pygpu.zeros((0, 3), device=device)[:, ::2]
    assert e.flags["C_CONTIGUOUS"] and e.flags["F_CONTIGUOUS"]
