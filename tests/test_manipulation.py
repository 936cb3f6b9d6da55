"""Array manipulation (concatenate, stack and friends, split, tile, repeat, flip, roll, rot90, pad,
tril/triu, diag, meshgrid, indices, atleast_nd, append, insert, delete, copyto, resize,
trim_zeros), differential against NumPy over dtypes, layouts, empty and 0-d arrays."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, numpy_and_pygpu, same_error

HYPO = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])



def values(shape, dtype, seed=0):
    """Distinct-ish values of any dtype (small integers, so every dtype holds them)."""
    n = int(np.prod(shape))
    v = (np.random.default_rng(seed).permutation(max(n, 1))[:n] % 100).reshape(shape)
    if np.dtype(dtype) == np.bool_:
        return (v % 2).astype(bool)
    if np.dtype(dtype).kind == "c":
        return (v + 1j * (v % 7)).astype(dtype)
    return v.astype(dtype)


LAYOUTS = ["c", "f", "neg", "step", "bcast"]


def make_pair(device, shape, dtype, layout, seed=0):
    """The same array in NumPy and pygpu, in a given memory layout of the requested shape."""
    shape = tuple(shape)
    if layout == "f" and len(shape) > 1:
        base = values(shape[::-1], dtype, seed)
        view = lambda xp, b: xp.transpose(b)  # noqa: E731
    elif layout == "neg" and shape:
        base = values(shape, dtype, seed)
        view = lambda xp, b: b[(slice(None, None, -1),) * len(shape)]  # noqa: E731
    elif layout == "step" and shape:
        base = values(shape[:-1] + (2 * shape[-1],), dtype, seed)
        view = lambda xp, b: b[..., ::2]  # noqa: E731
    elif layout == "bcast" and shape:
        base = values((1,) + shape[1:], dtype, seed)
        view = lambda xp, b: xp.broadcast_to(b, shape)  # noqa: E731
    else:
        base = values(shape, dtype, seed)
        view = lambda xp, b: b  # noqa: E731
    x = view(np, base)
    p = view(pygpu, pygpu.asarray(base, device=device))
    assert p.shape == x.shape
    return x, p


def is_view_of(r, p):
    owner = p.base if p.base is not None else p
    return r.base is owner


# ------------------------------------------------------------------ concatenate


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_concatenate_layouts(device, dtype, layout):
    for axis in (0, 1, -1, None):
        x1, p1 = make_pair(device, (3, 4), dtype, layout, 1)
        x2, p2 = make_pair(device, (3, 4), dtype, "c", 2)
        r = pygpu.concatenate([p1, p2], axis=axis)
        e = np.concatenate([x1, x2], axis=axis)
        assert_array_equal(r, e)
        assert r.device == device


@pytest.mark.parametrize("t1", ["bool", "int8", "uint8", "int32", "uint64", "float16", "float32", "complex64"])
@pytest.mark.parametrize("t2", ["bool", "int16", "uint32", "int64", "float32", "float64", "complex128"])
def test_concatenate_promotes(device, t1, t2):
    x1, p1 = make_pair(device, (2, 3), t1, "c")
    x2, p2 = make_pair(device, (1, 3), t2, "neg")
    assert_array_equal(pygpu.concatenate((p1, p2)), np.concatenate((x1, x2)))
    assert_array_equal(pygpu.stack((p1[0], p2[0]), axis=1), np.stack((x1[0], x2[0]), axis=1))


def test_concatenate_strides_follow_inputs(device):
    # NumPy lays the result out in the order of the inputs' strides
    for shapes in [((4, 3), (4, 2)), ((3, 4), (2, 4))]:
        xs = [np.asfortranarray(values(s, "float64")) for s in shapes]
        ps = [pygpu.asarray(x, device=device) for x in xs]
        for axis in (0, 1):
            try:
                e = np.concatenate(xs, axis=axis)
            except ValueError:
                continue
            r = pygpu.concatenate(ps, axis=axis)
            assert r.strides == e.strides
            assert_array_equal(r, e)
    x = values((2, 3, 4), "int32").transpose(1, 2, 0)
    p = pygpu.asarray(values((2, 3, 4), "int32"), device=device).transpose(1, 2, 0)
    assert pygpu.concatenate([p, p], 1).strides == np.concatenate([x, x], 1).strides
    assert pygpu.stack([p, p], 1).strides == np.stack([x, x], 1).strides


def test_concatenate_empty_and_zero_d(device):
    for shapes, axis in [([(0, 3), (2, 3)], 0), ([(2, 0), (2, 0)], 1), ([(0,), (0,)], 0), ([(2, 3), (2, 0)], 1)]:
        xs = [values(s, "float32") for s in shapes]
        ps = [pygpu.asarray(x, device=device) for x in xs]
        assert_array_equal(pygpu.concatenate(ps, axis), np.concatenate(xs, axis))
    xs = [np.float64(1.5), np.arange(3.0), np.ones((2, 2))]
    ps = [pygpu.asarray(x, device=device) for x in xs]
    assert_array_equal(pygpu.concatenate(ps, axis=None), np.concatenate(xs, axis=None))


def test_concatenate_array_likes(device):
    p = pygpu.asarray(values((2, 3), "int8"), device=device)
    x = p.get()
    # NumPy arrays, lists and scalars go to the pygpu array's device (strong dtypes, like NumPy)
    r = pygpu.concatenate([p, np.ones((1, 3), np.float32), [[1, 2, 3]]])
    assert r.device == device
    assert_array_equal(r, np.concatenate([x, np.ones((1, 3), np.float32), [[1, 2, 3]]]))
    assert_array_equal(pygpu.concatenate([[1, 2], [3.5]]), np.concatenate([[1, 2], [3.5]]))
    assert_array_equal(pygpu.concatenate(p), np.concatenate(x))   # iterates over the first axis
    assert_array_equal(pygpu.concat([p, p], axis=1), np.concat([x, x], axis=1))


def test_concatenate_out_dtype_casting(device):
    x1, p1 = make_pair(device, (2, 3), "float64", "c")
    x2, p2 = make_pair(device, (2, 2), "int32", "f")
    out = pygpu.zeros((2, 5), dtype="float32", device=device)
    assert pygpu.concatenate([p1, p2], axis=1, out=out, casting="same_kind") is out
    assert_array_equal(out, np.concatenate([x1, x2], axis=1).astype("float32"))
    e = np.concatenate([x1, x2], axis=1, dtype="int16", casting="unsafe")
    assert_array_equal(pygpu.concatenate([p1, p2], axis=1, dtype="int16", casting="unsafe"), e)
    # out aliasing an input: read before written, as NumPy
    xa = values((6,), "int64")
    pa = pygpu.asarray(xa, device=device)
    pygpu.concatenate([pa[3:], pa[:3]], out=pa)
    np.concatenate([xa[3:].copy(), xa[:3].copy()], out=xa)
    assert_array_equal(pa, xa)
    outs = pygpu.zeros((2, 2, 3), device=device)
    assert pygpu.stack([p1, p1], out=outs) is outs
    assert_array_equal(outs, np.stack([x1, x1]))


@pytest.mark.parametrize("call", [
    lambda xp, a, b: xp.concatenate([]),
    lambda xp, a, b: xp.concatenate([a[0, 0], b]),
    lambda xp, a, b: xp.concatenate([a, b[0]]),
    lambda xp, a, b: xp.concatenate([a, b]),
    lambda xp, a, b: xp.concatenate([a, b], axis=2),
    lambda xp, a, b: xp.concatenate([a, b], axis=-3),
    lambda xp, a, b: xp.concatenate([a, b], axis=1.0),
    lambda xp, a, b: xp.concatenate([a, b], axis=1, dtype="int64"),
    lambda xp, a, b: xp.concatenate([a, a], casting="bogus"),
    lambda xp, a, b: xp.concatenate([a, b], axis=1, dtype="float64", out=xp.zeros((3, 5))),
    lambda xp, a, b: xp.concatenate([a, b], axis=1, out=xp.zeros((3, 4))),
    lambda xp, a, b: xp.concatenate([a, b], axis=1, out=xp.zeros(15)),
    lambda xp, a, b: xp.concatenate([a, b], axis=1, out=xp.zeros((3, 5), "int32")),
    lambda xp, a, b: xp.stack([]),
    lambda xp, a, b: xp.stack([a, b]),
    lambda xp, a, b: xp.stack([a, a], axis=3),
    lambda xp, a, b: xp.stack([a, a], axis=-4),
    lambda xp, a, b: xp.stack([a, a], out=xp.zeros((2, 3))),
    lambda xp, a, b: xp.vstack(x for x in [a]),
    lambda xp, a, b: xp.hstack([a, b[:2]]),
])
def test_join_errors(device, call):
    a, b = np.ones((3, 3)), np.ones((3, 2), np.float32)
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)

    class Namespace:
        def __getattr__(self, name):
            f = getattr(pygpu, name)
            if name in ("zeros", "ones"):
                return lambda *args, **kw: f(*args, device=device, **kw)
            return f
    same_error(lambda: call(np, a, b), lambda: call(Namespace(), pa, pb))


@HYPO
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=4), data=st.data())
def test_concatenate_stack_hypothesis(device, shape, data):
    n = data.draw(st.integers(1, 4))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    xs, ps = [], []
    for k in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        x, p = make_pair(device, s, data.draw(st.sampled_from(DTYPES)), data.draw(st.sampled_from(LAYOUTS)), k)
        xs.append(x)
        ps.append(p)
    assert_array_equal(pygpu.concatenate(ps, axis=axis), np.concatenate(xs, axis=axis))
    assert_array_equal(pygpu.concatenate(ps, axis=None), np.concatenate(xs, axis=None))
    same = [make_pair(device, shape, "float32", data.draw(st.sampled_from(LAYOUTS)), k) for k in range(n)]
    sax = data.draw(st.integers(-len(shape) - 1, len(shape)))
    r = pygpu.stack([p for _, p in same], axis=sax)
    e = np.stack([x for x, _ in same], axis=sax)
    assert_array_equal(r, e)
    if e.size:
        assert [s for s, m in zip(r.strides, r.shape) if m > 1] == [s for s, m in zip(e.strides, e.shape) if m > 1]


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack"])
@pytest.mark.parametrize("shapes", [[(3,), (3,)], [(2, 3), (2, 3)], [(), ()], [(2, 3, 1), (2, 3, 4)],
                                    [(0,), (2,)], [(4,), (1,)]])
def test_stack_family(device, name, shapes):
    xs = [values(s, "int16", k) for k, s in enumerate(shapes)]
    ps = [pygpu.asarray(x, device=device) for x in xs]
    f_np, f_pg = getattr(np, name), getattr(pygpu, name)
    try:
        e = f_np(xs)
    except ValueError:
        same_error(lambda: f_np(xs), lambda: f_pg(ps))
        return
    assert_array_equal(f_pg(ps), e)


def test_stack_family_dtype(device):
    xs = [values((2, 2), "int32"), values((2, 2), "float32")]
    ps = [pygpu.asarray(x, device=device) for x in xs]
    assert_array_equal(pygpu.vstack(ps, dtype="float16"), np.vstack(xs, dtype="float16"))
    assert_array_equal(pygpu.hstack(ps, dtype="int8", casting="unsafe"), np.hstack(xs, dtype="int8", casting="unsafe"))
    same_error(lambda: np.hstack(xs, dtype="int8"), lambda: pygpu.hstack(ps, dtype="int8"))


def test_append(device):
    x = values((2, 3), "float32")
    p = pygpu.asarray(x, device=device)
    assert_array_equal(pygpu.append(p, [1, 2]), np.append(x, [1, 2]))
    assert_array_equal(pygpu.append(p, p, axis=0), np.append(x, x, axis=0))
    assert_array_equal(pygpu.append(p[0], 7.5), np.append(x[0], 7.5))
    same_error(lambda: np.append(x, [1, 2], axis=0), lambda: pygpu.append(p, [1, 2], axis=0))


# ------------------------------------------------------------------ splitting


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("spec", [3, 1, 5, [2, 4], [1, 10, 3], [], [0, 0, 6]])
def test_array_split(device, layout, spec):
    x, p = make_pair(device, (6, 4), "float64", layout)
    for axis in (0, -2):
        rs, es = pygpu.array_split(p, spec, axis=axis), np.array_split(x, spec, axis=axis)
        assert len(rs) == len(es)
        for r, e in zip(rs, es):
            assert_array_equal(r, e)
            assert is_view_of(r, p)


def test_split_family(device):
    x = values((4, 6, 8), "int32")
    p = pygpu.asarray(x, device=device)
    for name, args in [("split", (2,)), ("split", ([1, 3],)), ("split", (3, 1)), ("hsplit", (2,)),
                       ("vsplit", (4,)), ("dsplit", (4,)), ("dsplit", ([3],))]:
        rs, es = getattr(pygpu, name)(p, *args), getattr(np, name)(x, *args)
        assert len(rs) == len(es)
        for r, e in zip(rs, es):
            assert_array_equal(r, e)
    assert_array_equal(pygpu.hsplit(p[0, 0], 2)[1], np.hsplit(x[0, 0], 2)[1])
    for np_call, pg_call in [
        (lambda: np.split(x, 5), lambda: pygpu.split(p, 5)),
        (lambda: np.array_split(x, 0), lambda: pygpu.array_split(p, 0)),
        (lambda: np.hsplit(x[0, 0, 0], 2), lambda: pygpu.hsplit(p[0, 0, 0], 2)),
        (lambda: np.vsplit(x[0, 0], 2), lambda: pygpu.vsplit(p[0, 0], 2)),
        (lambda: np.dsplit(x[0], 2), lambda: pygpu.dsplit(p[0], 2)),
        (lambda: np.split(x, 2, axis=3), lambda: pygpu.split(p, 2, axis=3)),
    ]:
        same_error(np_call, pg_call)


def test_unstack(device):
    x = values((2, 3, 4), "complex64")
    p = pygpu.asarray(x, device=device)
    for axis in (0, 1, -1):
        rs, es = pygpu.unstack(p, axis=axis), np.unstack(x, axis=axis)
        assert isinstance(rs, tuple) and len(rs) == len(es)
        for r, e in zip(rs, es):
            assert_array_equal(r, e)
            assert is_view_of(r, p)
    same_error(lambda: np.unstack(x[0, 0, 0]), lambda: pygpu.unstack(p[0, 0, 0]))
    same_error(lambda: np.unstack(x, axis=3), lambda: pygpu.unstack(p, axis=3))


# ------------------------------------------------------------------ tile, repeat, resize


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("reps", [2, (2, 3), (1, 1), (3, 1, 2), (0, 2), 1, (2, 1, 1, 1)])
def test_tile(device, layout, reps):
    x, p = make_pair(device, (2, 3), "int64", layout)
    r = pygpu.tile(p, reps)
    assert_array_equal(r, np.tile(x, reps))
    assert not is_view_of(r, p)
    assert_array_equal(pygpu.tile(p[0, 0], reps), np.tile(x[0, 0], reps))
    same_error(lambda: np.tile(x, (2, -1)), lambda: pygpu.tile(p, (2, -1)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_scalar(device, dtype):
    for layout in LAYOUTS:
        x, p = make_pair(device, (3, 2), dtype, layout)
        for axis in (None, 0, 1, -1):
            for reps in (0, 1, 3, [2], np.int64(2)):
                assert_array_equal(pygpu.repeat(p, reps, axis=axis), np.repeat(x, reps, axis=axis))
        assert_array_equal(p.repeat(2), x.repeat(2))
        assert_array_equal(p.repeat(2, axis=0), x.repeat(2, axis=0))
    assert_array_equal(pygpu.repeat(pygpu.asarray(3.0, device=device), 2), np.repeat(np.float64(3), 2))


def test_repeat_errors(device):
    x = values((2, 2), "float32")
    p = pygpu.asarray(x, device=device)
    for np_call, pg_call in [
        (lambda: np.repeat(x, -1), lambda: pygpu.repeat(p, -1)),
        (lambda: np.repeat(x, [1, 2, 3], axis=0), lambda: pygpu.repeat(p, [1, 2, 3], axis=0)),
        (lambda: np.repeat(x, [[1, 2]]), lambda: pygpu.repeat(p, [[1, 2]])),
        (lambda: np.repeat(x, 2, axis=2), lambda: pygpu.repeat(p, 2, axis=2)),
        (lambda: np.repeat(x, [1, -1], axis=0), lambda: pygpu.repeat(p, [1, -1], axis=0)),
    ]:
        same_error(np_call, pg_call)


def test_repeat_counts(device):
    x = values((3, 2), "int16")
    p = pygpu.asarray(x, device=device)
    assert_array_equal(pygpu.repeat(p, [1, 0, 3], axis=0), np.repeat(x, [1, 0, 3], axis=0))
    assert_array_equal(pygpu.repeat(p, pygpu.asarray([2, 1], device=device), axis=1), np.repeat(x, [2, 1], axis=1))
    assert_array_equal(pygpu.repeat(p, np.arange(6)), np.repeat(x, np.arange(6)))


@pytest.mark.parametrize("new_shape", [7, (2, 5), (0,), (3, 0), (2, 3), 1])
def test_resize(device, new_shape):
    x, p = make_pair(device, (2, 3), "float16", "f")
    assert_array_equal(pygpu.resize(p, new_shape), np.resize(x, new_shape))
    e = np.zeros((0,), np.int8)
    assert_array_equal(pygpu.resize(pygpu.asarray(e, device=device), new_shape), np.resize(e, new_shape))
    same_error(lambda: np.resize(x, (2, -1)), lambda: pygpu.resize(p, (2, -1)))


# ------------------------------------------------------------------ flips, roll, rot90


@pytest.mark.parametrize("layout", LAYOUTS)
def test_flips_are_views(device, layout):
    x, p = make_pair(device, (3, 4, 2), "uint16", layout)
    for axis in (None, 0, 1, -1, (0, 2), ()):
        r = pygpu.flip(p, axis=axis)
        assert_array_equal(r, np.flip(x, axis=axis))
        assert is_view_of(r, p)
    assert_array_equal(pygpu.fliplr(p), np.fliplr(x))
    assert_array_equal(pygpu.flipud(p), np.flipud(x))
    assert is_view_of(pygpu.fliplr(p), p) and is_view_of(pygpu.flipud(p), p)
    for np_call, pg_call in [
        (lambda: np.flip(x, axis=3), lambda: pygpu.flip(p, axis=3)),
        (lambda: np.flip(x, axis=(0, 0)), lambda: pygpu.flip(p, axis=(0, 0))),
        (lambda: np.fliplr(x[0, 0]), lambda: pygpu.fliplr(p[0, 0])),
        (lambda: np.flipud(x[0, 0, 0]), lambda: pygpu.flipud(p[0, 0, 0])),
    ]:
        same_error(np_call, pg_call)


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (0, 2), (-1, -2), (2, 1)])
def test_rot90(device, k, axes):
    x, p = make_pair(device, (2, 3, 4), "float32", "neg")
    r = pygpu.rot90(p, k, axes)
    assert_array_equal(r, np.rot90(x, k, axes))
    assert is_view_of(r, p)


def test_rot90_errors(device):
    x = values((2, 3), "int8")
    p = pygpu.asarray(x, device=device)
    for axes in [(0, 0), (0, 2), (0, 1, 2), (0, 5), (-3, 0)]:
        same_error(lambda: np.rot90(x, 1, axes), lambda: pygpu.rot90(p, 1, axes))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (2, 0), (-1, 1), ((1, 2), (0, 1)), (3, (1, 1)),
                                        ((1, -2), 1), (0, 0), (100, -1), ([1, 2], [0, 0])])
def test_roll(device, layout, shift, axis):
    x, p = make_pair(device, (3, 5), "complex128", layout)
    assert_array_equal(pygpu.roll(p, shift, axis), np.roll(x, shift, axis))


def test_roll_edge_cases(device):
    e = np.zeros((0, 3))
    assert_array_equal(pygpu.roll(pygpu.asarray(e, device=device), 2, 0), np.roll(e, 2, 0))
    z = pygpu.asarray(np.float32(2), device=device)
    assert_array_equal(pygpu.roll(z, 3), np.roll(np.float32(2), 3))
    x = values((2, 3), "int8")
    p = pygpu.asarray(x, device=device)
    for np_call, pg_call in [
        (lambda: np.roll(x, [1, 2], axis=[0, 1, 1]), lambda: pygpu.roll(p, [1, 2], axis=[0, 1, 1])),
        (lambda: np.roll(x, 1, axis=3), lambda: pygpu.roll(p, 1, axis=3)),
        (lambda: np.roll(x, [[1, 2]], axis=[[0, 1]]), lambda: pygpu.roll(p, [[1, 2]], axis=[[0, 1]])),
    ]:
        same_error(np_call, pg_call)


# ------------------------------------------------------------------ pad


PAD_MODES = [("constant", {}), ("constant", {"constant_values": 7}), ("constant", {"constant_values": ((1, 2), (3, 4))}),
             ("edge", {}), ("reflect", {}), ("reflect", {"reflect_type": "odd"}), ("symmetric", {}),
             ("symmetric", {"reflect_type": "odd"}), ("wrap", {}), ("linear_ramp", {}),
             ("linear_ramp", {"end_values": (5, -2)})]


@pytest.mark.parametrize("mode,kw", PAD_MODES)
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex64", "bool"])
def test_pad_modes(device, mode, kw, dtype):
    if dtype == "bool" and (mode == "linear_ramp" or kw.get("reflect_type") == "odd"):
        return   # NumPy's own arithmetic refuses booleans there
    if dtype == "uint8" and kw.get("reflect_type") == "odd":
        return   # wraps around in NumPy too; values outside the dtype
    for layout in ("c", "f", "neg"):
        x, p = make_pair(device, (3, 4), dtype, layout)
        for width in (0, 1, 2, (1, 3), ((0, 5), (9, 1)), ((2,), (3,))):
            r = pygpu.pad(p, width, mode=mode, **kw)
            e = np.pad(x, width, mode=mode, **kw)
            if dtype == "complex64" and mode == "linear_ramp":
                np.testing.assert_allclose(r.get(), e, rtol=1e-6)
            else:
                assert_array_equal(r, e)


@HYPO
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data(),
       mode=st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]))
def test_pad_hypothesis(device, shape, data, mode):
    x, p = make_pair(device, shape, "int32", data.draw(st.sampled_from(["c", "f", "neg", "step"])))
    width = [(data.draw(st.integers(0, 9)), data.draw(st.integers(0, 9))) for _ in shape]
    assert_array_equal(pygpu.pad(p, width, mode=mode), np.pad(x, width, mode=mode))


def test_pad_empty_and_errors(device):
    e = np.zeros((0, 2), np.float32)
    pe = pygpu.asarray(e, device=device)
    assert_array_equal(pygpu.pad(pe, 1), np.pad(e, 1))
    assert pygpu.pad(pe, 1, mode="empty").shape == (2, 4)
    assert_array_equal(pygpu.pad(pe, ((0, 0), (1, 1)), mode="edge"), np.pad(e, ((0, 0), (1, 1)), mode="edge"))
    x = values((2, 3), "float64")
    p = pygpu.asarray(x, device=device)
    assert_array_equal(pygpu.pad(p, {1: (1, 2)}), np.pad(x, {1: (1, 2)}))
    assert_array_equal(pygpu.pad(p[0, 0], 2), np.pad(x[0, 0], 2))

    def set_ones(vector, width, axis, kwargs):
        vector[:width[0]] = kwargs.get("v", 1)
        if width[1]:
            vector[-width[1]:] = kwargs.get("v", 1)
    assert_array_equal(pygpu.pad(p, 2, set_ones, v=3), np.pad(x, 2, set_ones, v=3))
    for args, kw in [((e, 1), {"mode": "edge"}), ((x, -1), {}), ((x, 1.5), {}), ((x, 1), {"mode": "bogus"}),
                     ((x, 1), {"mode": "edge", "constant_values": 1}), ((x, ((1, 2, 3),)), {}),
                     ((x, ((1, 2), (3, 4), (5, 6))), {})]:
        pargs = (pygpu.asarray(args[0], device=device),) + args[1:]
        same_error(lambda: np.pad(*args, **kw), lambda: pygpu.pad(*pargs, **kw))


@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
def test_pad_stat_modes(device, mode):
    for dtype in ("int32", "float32"):
        x, p = make_pair(device, (3, 5), dtype, "f")
        for kw in ({}, {"stat_length": 2}, {"stat_length": ((1, 2), (3, 1))}):
            assert_array_equal(pygpu.pad(p, (2, 3), mode=mode, **kw), np.pad(x, (2, 3), mode=mode, **kw))


# ------------------------------------------------------------------ triangles and diagonals


@pytest.mark.parametrize("dtype", DTYPES)
def test_tril_triu(device, dtype):
    for shape in [(4, 5), (5, 4), (2, 3, 3), (4,), (0, 3)]:
        x, p = make_pair(device, shape, dtype, "neg" if len(shape) > 1 else "c")
        for k in (-2, -1, 0, 1, 3, 10):
            assert_array_equal(pygpu.tril(p, k), np.tril(x, k))
            assert_array_equal(pygpu.triu(p, k=k), np.triu(x, k=k))
    for f in ("tril", "triu"):   # 0-d: NumPy's tri() of no shape
        same_error(lambda: getattr(np, f)(np.array(3)), lambda: getattr(pygpu, f)(pygpu.asarray(3, device=device)))


def test_tri(device):
    for args, kw in [((3,), {}), ((3, 5), {}), ((4, 2, -1), {}), ((3,), {"k": 2, "dtype": int}),
                     ((0, 3), {"dtype": bool})]:
        assert_array_equal(pygpu.tri(*args, device=device, **kw), np.tri(*args, **kw))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_diagonal_views(device, layout):
    x, p = make_pair(device, (3, 4, 5), "float32", layout)
    for offset, a1, a2 in [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 0, 2), (-7, 0, 2), (1, 2, 0), (0, -1, -2), (9, 1, 2)]:
        r = pygpu.diagonal(p, offset, a1, a2)
        e = np.diagonal(x, offset, a1, a2)
        assert_array_equal(r, e)
        assert is_view_of(r, p)
        assert not r.flags["WRITEABLE"]
        assert_array_equal(p.diagonal(offset=offset, axis1=a1, axis2=a2), e)
    for args in [(0, 1, 1), (0, 1, 5), (0, -4, 1), (1.5, 0, 1)]:
        same_error(lambda: np.diagonal(x, *args), lambda: pygpu.diagonal(p, *args))
    same_error(lambda: np.diagonal(x[0, 0]), lambda: pygpu.diagonal(p[0, 0]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_diagflat(device, dtype):
    for k in (-2, 0, 1, 4):
        x, p = make_pair(device, (3,), dtype, "neg")
        assert_array_equal(pygpu.diag(p, k), np.diag(x, k))
        assert_array_equal(pygpu.diagflat(p.reshape(1, 3), k), np.diagflat(x.reshape(1, 3), k))
        m, pm = make_pair(device, (3, 4), dtype, "f")
        assert_array_equal(pygpu.diag(pm, k), np.diag(m, k))
    assert_array_equal(pygpu.diag(pygpu.zeros(0, device=device)), np.diag(np.zeros(0)))
    same_error(lambda: np.diag(np.ones((2, 2, 2))), lambda: pygpu.diag(pygpu.ones((2, 2, 2), device=device)))


def test_trace(device):
    x, p = make_pair(device, (3, 4, 2), "int32", "f")
    for args in [(), (1,), (-1, 0, 2), (0, 2, 1)]:
        assert_array_equal(pygpu.trace(p, *args), np.trace(x, *args))
    assert_array_equal(p.trace(dtype="float32"), x.trace(dtype="float32"))


# ------------------------------------------------------------------ grids and dimensions


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(device, indexing, sparse):
    xs = [values((3,), "float32"), values((4,), "int64"), values((2,), "int8")]
    ps = [pygpu.asarray(x, device=device) for x in xs]
    for n in range(4):
        rs = pygpu.meshgrid(*ps[:n], indexing=indexing, sparse=sparse)
        es = np.meshgrid(*xs[:n], indexing=indexing, sparse=sparse)
        assert isinstance(rs, tuple) and len(rs) == len(es)
        for r, e in zip(rs, es):
            assert_array_equal(r, e)
    r = pygpu.meshgrid(ps[0], ps[1], copy=False)[0]
    assert is_view_of(r, ps[0]) and not r.flags["WRITEABLE"]
    same_error(lambda: np.meshgrid(*xs, indexing="x"), lambda: pygpu.meshgrid(*ps, indexing="x"))


def test_indices(device):
    for dims in [(2, 3), (4,), (), (2, 0, 3)]:
        assert_array_equal(pygpu.indices(dims, device=device), np.indices(dims))
        assert_array_equal(pygpu.indices(dims, dtype="int8", device=device), np.indices(dims, dtype="int8"))
        for r, e in zip(pygpu.indices(dims, sparse=True, device=device), np.indices(dims, sparse=True)):
            assert_array_equal(r, e)


def test_atleast_nd(device):
    for shape in [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 4)]:
        x = values(shape, "uint32")
        p = pygpu.asarray(x, device=device)
        for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
            r = getattr(pygpu, name)(p)
            assert_array_equal(r, getattr(np, name)(x))
            assert r is p or is_view_of(r, p)
    rs = pygpu.atleast_2d(pygpu.asarray(1, device=device), [1, 2])
    es = np.atleast_2d(1, [1, 2])
    assert isinstance(rs, tuple) and all((r.get() == e).all() and r.shape == e.shape for r, e in zip(rs, es))


def test_shape_ndim_size(device):
    p = pygpu.zeros((2, 3), device=device)
    assert pygpu.shape(p) == (2, 3) and pygpu.ndim(p) == 2 and pygpu.size(p) == 6 and pygpu.size(p, 1) == 3
    assert pygpu.shape([[1, 2]]) == (1, 2) and pygpu.ndim(5) == 0
    # NumPy's axis: a tuple of axes too (their lengths' product), negative, with its errors
    n = np.zeros((2, 3))
    for axis in ((0, 1), (-1,), (), -2):
        assert pygpu.size(p, axis) == np.size(n, axis)
    for axis in (2, (0, 0)):
        same_error(lambda: np.size(n, axis), lambda: pygpu.size(p, axis))


# ------------------------------------------------------------------ insert, delete


def test_delete_by_int_and_slice(device):
    x, p = make_pair(device, (4, 5), "float64", "f")
    for obj, axis in [(1, 0), (-1, 1), (0, None), (slice(1, 3), 1), (slice(None, None, -1), 0),
                      (slice(5, 1), 1), (np.int64(2), 1), ([3], 0), (slice(2, None, -1), 1)]:
        assert_array_equal(pygpu.delete(p, obj, axis), np.delete(x, obj, axis))
    for obj, axis in [(4, 0), (-6, 1), (1, 2)]:
        same_error(lambda: np.delete(x, obj, axis), lambda: pygpu.delete(p, obj, axis))


def test_delete_by_indices(device):
    x, p = make_pair(device, (4, 5), "int8", "neg")
    for obj, axis in [([0, 2], 0), (slice(None, None, 2), 1), ([True, False, True, False], 0), ([], 1),
                      (np.array([1, 1, 3]), 1), ([0, 5], None)]:
        assert_array_equal(pygpu.delete(p, obj, axis), np.delete(x, obj, axis))
    same_error(lambda: np.delete(x, [0, 9], 0), lambda: pygpu.delete(p, [0, 9], 0))
    same_error(lambda: np.delete(x, [True], 0), lambda: pygpu.delete(p, [True], 0))


def test_insert_single(device):
    x, p = make_pair(device, (3, 4), "int32", "f")
    for obj, vals, axis in [(1, 9, 0), (0, [1, 2, 3], 1), (4, [[7], [8], [9]], 1), (-1, 5, None), (2, [5, 6], None),
                            ([1], [[1, 2, 3, 4]], 0), (3, 2.7, 0), (slice(1, 2), 0, 1)]:
        assert_array_equal(pygpu.insert(p, obj, vals, axis), np.insert(x, obj, vals, axis))
    for obj, axis in [(5, 0), (-5, 1)]:
        same_error(lambda: np.insert(x, obj, 0, axis), lambda: pygpu.insert(p, obj, 0, axis))
    same_error(lambda: np.insert(x, [[1]], 0, 0), lambda: pygpu.insert(p, [[1]], 0, 0))


def test_insert_several(device):
    x, p = make_pair(device, (3, 4), "float32", "c")
    for obj, vals, axis in [([1, 1], 9, 0), ([0, 2, 4], [1, 2, 3], 1), (slice(None), 0, 1), ([3, 0], [5, 6], None)]:
        assert_array_equal(pygpu.insert(p, obj, vals, axis), np.insert(x, obj, vals, axis))


def test_trim_zeros(device):
    for a in ([0, 0, 1, 2, 0, 3, 0], [0, 0], [], [1, 2], [[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 0, 0]]):
        x = np.asarray(a, dtype=np.float32)
        p = pygpu.asarray(x, device=device)
        for trim in ("fb", "f", "b", "BF"):
            r, e = pygpu.trim_zeros(p, trim), np.trim_zeros(x, trim)
            assert_array_equal(r, e)
            assert is_view_of(r, p)
        if x.ndim == 2:
            assert_array_equal(pygpu.trim_zeros(p, axis=1), np.trim_zeros(x, axis=1))
    same_error(lambda: np.trim_zeros(np.ones(2), "x"), lambda: pygpu.trim_zeros(pygpu.ones(2, device=device), "x"))
    # NumPy slices the input itself: a list or tuple comes back as one (a nested list is its TypeError)
    for a, trim in (([0, 1, 2, 0], "fb"), ((0, 1, 0), "fb"), ([0, 0], "fb"), ([0, 1, 2, 0], "f")):
        r, e = pygpu.trim_zeros(a, trim), np.trim_zeros(a, trim)
        assert type(r) is type(e) and r == e
    same_error(lambda: np.trim_zeros([[0, 0], [0, 1]]), lambda: pygpu.trim_zeros([[0, 0], [0, 1]]))


# ------------------------------------------------------------------ copyto


@pytest.mark.parametrize("layout", LAYOUTS)
def test_copyto(device, layout):
    x, p = make_pair(device, (3, 4), "float32", "c")
    s, ps = make_pair(device, (3, 4), "int16", layout)
    np.copyto(x, s)
    assert pygpu.copyto(p, ps) is None
    assert_array_equal(p, x)
    mask = values((3, 4), "bool", 5)
    np.copyto(x, 2.5, where=mask)
    pygpu.copyto(p, 2.5, where=pygpu.asarray(mask, device=device))
    assert_array_equal(p, x)
    np.copyto(x, s[0], where=mask[:, :1])
    pygpu.copyto(p, ps[0], where=mask[:, :1])
    assert_array_equal(p, x)
    np.copyto(x, [1, 2, 3, 4])
    pygpu.copyto(p, [1, 2, 3, 4])
    assert_array_equal(p, x)


def test_copyto_where_with_leading_unit_axes_of_src(device):
    """src may have more axes than dst when the extra leading ones have length 1 (as dst[...] =
    src), with a mask too (it raised 'more dimensions than allowed')."""
    x, p = make_pair(device, (2, 3, 4), "float64", "c")
    s, ps = make_pair(device, (1, 2, 1, 4), "float64", "c")
    mask = values((3, 4), "bool", 5)
    np.copyto(x, s, where=mask)
    pygpu.copyto(p, ps, where=pygpu.asarray(mask, device=device))
    assert_array_equal(p, x)
    same_error(lambda: np.copyto(x, np.ones((2, 2, 3, 4)), where=mask),
               lambda: pygpu.copyto(p, pygpu.ones((2, 2, 3, 4), device=device), where=pygpu.asarray(mask, device=device)))


def test_copyto_errors(device):
    i8 = np.zeros(3, np.int8)
    p8 = pygpu.asarray(i8, device=device)
    f = np.ones(3)
    pf = pygpu.asarray(f, device=device)
    for np_call, pg_call in [
        (lambda: np.copyto(i8, 300), lambda: pygpu.copyto(p8, 300)),
        (lambda: np.copyto(i8, 3.5), lambda: pygpu.copyto(p8, 3.5)),
        (lambda: np.copyto(i8, f), lambda: pygpu.copyto(p8, pf)),
        (lambda: np.copyto(i8, np.ones(2, np.int8)), lambda: pygpu.copyto(p8, pygpu.ones(2, "int8", device=device))),
        (lambda: np.copyto(f, 2 * f, where=[True, False]), lambda: pygpu.copyto(pf, 2 * pf, where=[True, False])),
        (lambda: np.copyto(f, f, where=np.array([1, 0, 1])),
         lambda: pygpu.copyto(pf, pf, where=pygpu.asarray([1, 0, 1], device=device))),
        (lambda: np.copyto(f, f, casting="bogus"), lambda: pygpu.copyto(pf, pf, casting="bogus")),
    ]:
        same_error(np_call, pg_call)
    pygpu.copyto(p8, pf, casting="unsafe")
    np.copyto(f, 2 * f, where=[1, 0, 1])
    pygpu.copyto(pf, 2 * pf, where=[1, 0, 1])
    assert_array_equal(pf, f)
    with pytest.raises(TypeError, match="pygpu.ndarray"):
        pygpu.copyto([1, 2, 3], pf)

def test_copyto_numpy_scalar_values_cast_not_range_checked(device):
    """Only a Python int gets NEP 50's range check; a NumPy scalar or 0-d array is cast as
    NumPy's copyto casts it (np.uint8(200) into int8 is -56)."""
    for dt, value, kw in (("i1", np.uint8(200), {}), ("i1", np.asarray(np.uint8(200)), {}),
                          ("i4", np.float64(2.5), {"casting": "unsafe"}),
                          ("i1", np.int64(300), {"where": [False, True]}),
                          ("u1", np.uint16(300), {"casting": "unsafe"})):
        want = np.zeros(2, dt)
        np.copyto(want, value, **kw)
        got = pygpu.zeros(2, dtype=dt, device=device)
        pygpu.copyto(got, value, **kw)
        assert_array_equal(got, want)


# ------------------------------------------------------------------ rows of strided operands


@pytest.mark.parametrize("rows,cols", [(3, 16), (7, 40), (600, 130), (17, 5000)])
def test_row_contiguous_operands(device, rows, cols):
    # operands contiguous along their rows only (the CPU runs each row as a typed loop), small
    # and large enough to be split over threads, with odd row counts and offsets
    x = values((rows, cols + 7), "float32", 1)
    y = values((rows, cols + 3), "float32", 2)
    p, q = pygpu.asarray(x, device=device), pygpu.asarray(y, device=device)
    assert_array_equal(p[:, 5:5 + cols] + q[:, 2:2 + cols], x[:, 5:5 + cols] + y[:, 2:2 + cols])
    assert_array_equal(p[:, 5:5 + cols] * 2.5, x[:, 5:5 + cols] * np.float32(2.5))
    assert_array_equal(p[:, 1:1 + cols] + q[0, :cols], x[:, 1:1 + cols] + y[0, :cols])   # broadcast rows
    assert_array_equal(pygpu.concatenate([p, q], axis=1), np.concatenate([x, y], axis=1))
    assert_array_equal(pygpu.stack([p[:, :cols], q[:, :cols]], axis=1), np.stack([x[:, :cols], y[:, :cols]], axis=1))
    assert_array_equal(pygpu.tile(p[0], (rows, 2)), np.tile(x[0], (rows, 2)))
    assert_array_equal(pygpu.where(p[:, :cols] > 50, p[:, :cols], q[:, :cols]),
                       np.where(x[:, :cols] > 50, x[:, :cols], y[:, :cols]))
    out = pygpu.zeros((rows, cols + 7), dtype="float64", device=device)
    out[:, 2:2 + cols] = p[:, :cols]          # converting: the buffered path
    e = np.zeros((rows, cols + 7))
    e[:, 2:2 + cols] = x[:, :cols]
    assert_array_equal(out, e)


def test_concatenate_promotes_all_inputs_at_once(device):
    """NumPy's n-ary promotion is not pairwise: bool, int8, uint8 and float16 give float16 (folding
    pairs would give int16, then float32). Found by the Hypothesis test above."""
    arrs = [np.zeros(2, d) for d in ("bool", "int8", "uint8", "float16")]
    got = pygpu.concatenate([pygpu.asarray(a, device=device) for a in arrs])
    assert_array_equal(got, np.concatenate(arrs))
    assert pygpu.stack([pygpu.asarray(a, device=device) for a in arrs]).dtype == np.stack(arrs).dtype


# ---------------------------------------------------------------- found by a differential hunt

@pytest.mark.parametrize("call", [
    lambda m: m.squeeze(m.asarray(3), axis=0), lambda m: m.squeeze(m.asarray(3), axis=-1),
    lambda m: m.squeeze(m.asarray(3), axis=1),
    lambda m: m.repeat(m.asarray(5), 3, axis=0), lambda m: m.repeat(m.asarray(5), 3, axis=1),
    lambda m: m.asarray(5).repeat(3, axis=-1),
    lambda m: m.repeat(m.arange(3), m.asarray(np.array([1.9, 0.5, 2.7]))),
    lambda m: m.repeat(m.arange(3), m.asarray(np.array([2], "u8"))),
    lambda m: m.repeat(m.arange(3), 2.5), lambda m: m.repeat(m.arange(3), [1.0, 2.0, 1.0]),
    lambda m: m.trim_zeros(m.zeros((2, 3)), axis=0), lambda m: m.trim_zeros(m.zeros((2, 3)), axis=1),
    lambda m: m.trim_zeros(m.zeros((0, 3)), axis=0), lambda m: m.trim_zeros(m.zeros((2, 3))),
    lambda m: m.concatenate([m.ones(2, "f8"), m.ones(2, "i4")], casting="no"),
    lambda m: m.concatenate([m.ones(2, "f8"), m.ones(2, "i4")], axis=None, casting="equiv"),
    lambda m: m.stack([m.ones(2, "f8"), m.ones(2, "i4")], casting="no"),
    lambda m: m.concatenate([m.ones(2, "f8"), m.ones(2, "f8")], casting="no"),
] + [lambda m, v=v: m.insert(m.asarray(np.array([1, 2, 3], "u1")), 1, m.asarray(v) if isinstance(v, np.ndarray) else v)
     for v in (300, -2.7, np.nan, [300], -1, 5, [7, 8], np.array([300]))]
  + [lambda m: m.insert(m.ones(3, "f4"), 1, 1j)])
def test_manipulation_as_numpys(call):
    np_r, pg_r = numpy_and_pygpu(call)
    assert np_r == pg_r


def test_block_of_one_bare_array_is_a_new_array():
    for a in (pygpu.arange(4.0), pygpu.asarray(3.0)):
        b = pygpu.block(a)
        assert not pygpu.shares_memory(a, b)
