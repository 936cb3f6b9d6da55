"""pygpu.einsum against numpy.einsum: the subscript grammar (implicit and explicit output, '...',
repeated indices and traces, the interleaved form, spaces), broadcasting of length-1 axes,
dtypes (integers exact, bool as OR of ANDs), dtype=, out=, casting=, optimize=, NumPy's errors,
random expressions (Hypothesis), and numpy.einsum dispatching here."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import DTYPES, assert_array_equal, same_error


def values(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.6
    x = rng.integers(-3, 4, shape) if dt.kind != "u" else rng.integers(0, 4, shape)
    if dt.kind == "c":
        x = x + 1j * rng.integers(-3, 4, shape)
    return x.astype(dt)


CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii", [(4, 4)]), ("ii->i", [(4, 4)]),
    ("ij->ji", [(3, 4)]), ("ij", [(3, 4)]), ("ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]), ("i,j->ij", [(3,), (4,)]), ("i,i", [(5,), (5,)]), ("i,i->i", [(5,), (5,)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]), ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("iij->j", [(3, 3, 2)]), ("iji->j", [(3, 2, 3)]), ("iii->i", [(3, 3, 3)]), ("ijk,kji->", [(2, 3, 4), (4, 3, 2)]),
    ("ij,jk", [(2, 1), (3, 2)]), ("ij,ij->ij", [(2, 1), (2, 3)]), ("i...->...", [(3, 2, 4)]),
    ("...,...", [(2, 3), (3,)]), ("Ba,aB", [(2, 3), (3, 2)]), ("i j", [(2, 3)]), ("ij->...", [(2, 3)]),
    ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]), ("ab,cd,ef->abcdef", [(2, 1), (1, 2), (2, 2)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 3), (3, 2)]), ("i,i,i->", [(4,), (4,), (4,)]),
    ("ijk->kij", [(2, 3, 4)]), ("ab,ab,ab->ab", [(2, 3), (2, 3), (2, 3)]), ("ii,i->", [(3, 3), (3,)]),
    ("...i,...i->...", [(4, 1, 3), (2, 3)]), (",ij->ij", [(), (2, 3)]), ("", [()]), ("i,->i", [(3,), ()]),
    ("ij,kl->", [(0, 3), (2, 2)]), ("ij,jk->ik", [(3, 0), (0, 2)]),
]


@pytest.mark.parametrize("spec,shapes", CASES, ids=[c[0] + str(c[1]) for c in CASES])
def test_einsum_subscripts(device, spec, shapes):
    rng = np.random.default_rng(0)
    ops = [values(rng, s, "float64") for s in shapes]
    expected = np.einsum(spec, *ops)
    got = pygpu.einsum(spec, *[pygpu.asarray(o, device=device) for o in ops])
    assert_array_equal(got, expected)
    assert got.flags["WRITEABLE"]


@pytest.mark.parametrize("dt", DTYPES)
def test_einsum_dtypes(device, dt):
    rng = np.random.default_rng(1)
    for spec, shapes in [("ij,jk->ik", [(3, 4), (4, 2)]), ("ii->", [(3, 3)]), ("i->", [(5,)]),
                         ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("i,j->ij", [(2,), (3,)])]:
        ops = [values(rng, s, dt) for s in shapes]
        with np.errstate(all="ignore"):
            expected = np.einsum(spec, *ops)
        got = pygpu.einsum(spec, *[pygpu.asarray(o, device=device) for o in ops])
        if np.dtype(dt) == np.float16:
            assert got.dtype == expected.dtype
            np.testing.assert_allclose(got.get().astype(float), expected.astype(float), rtol=1e-3)
        else:
            assert_array_equal(got, expected)


def test_einsum_integer_sums_wrap(device):
    x = np.array([100, 100, 100], np.int8)
    with np.errstate(all="ignore"):
        assert_array_equal(pygpu.einsum("i->", pygpu.asarray(x, device=device)), np.einsum("i->", x))
        assert_array_equal(pygpu.einsum("i,i", pygpu.asarray(x, device=device), pygpu.asarray(x, device=device)),
                           np.einsum("i,i", x, x))


def test_einsum_interleaved_form(device):
    rng = np.random.default_rng(2)
    a, b = values(rng, (2, 3), "float64"), values(rng, (3, 4), "float64")
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    assert_array_equal(pygpu.einsum(pa, [0, 1], pb, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    assert_array_equal(pygpu.einsum(pa, [0, 1], pb, [1, 2]), np.einsum(a, [0, 1], b, [1, 2]))
    assert_array_equal(pygpu.einsum(pa, [Ellipsis, 1], [Ellipsis]), np.einsum(a, [Ellipsis, 1], [Ellipsis]))
    assert_array_equal(pygpu.einsum(pa, [30, 1], [1, 30]), np.einsum(a, [30, 1], [1, 30]))


def test_einsum_layouts_and_views(device):
    rng = np.random.default_rng(3)
    a = values(rng, (4, 6, 5), "float64")
    pa = pygpu.asarray(a, device=device)
    assert_array_equal(pygpu.einsum("ijk,kjl->il", pa[:, ::2], pa.T[:, ::2]), np.einsum("ijk,kjl->il", a[:, ::2],
                                                                                         a.T[:, ::2]))
    assert_array_equal(pygpu.einsum("ij,ij->i", pa[:, :, 0], pa[::-1, :, 1]), np.einsum("ij,ij->i", a[:, :, 0],
                                                                                       a[::-1, :, 1]))
    # one operand summed over nothing: NumPy's writeable view (a transpose, a diagonal), also of a
    # strided view; a sum makes a new array
    for spec, view, mine in (("ij->ji", a[0], pa[0]), ("ii->i", a[:, :4, 0][:, ::-1], pa[:, :4, 0][:, ::-1]),
                             ("...jj->j...", a[:2, 1:, :5], pa[:2, 1:, :5])):
        want, got = np.einsum(spec, view), pygpu.einsum(spec, mine)
        assert_array_equal(got, want)
        want[...] = -1
        got[...] = -1
        assert_array_equal(pa, a)
    np.einsum("ij->i", a[0])[...] = 7
    pygpu.einsum("ij->i", pa[0])[...] = 7
    assert_array_equal(pa, a)
    out = pygpu.zeros((2, 3, 4), device=device)   # out= is never broadcast into
    same_error(lambda: np.einsum("ij,jk->ik", a[0, :3, :3], a[0, :3, :4], out=np.zeros((2, 3, 4))),
               lambda: pygpu.einsum("ij,jk->ik", pa[0, :3, :3], pa[0, :3, :4], out=out))


def test_einsum_dtype_out_casting_optimize(device):
    rng = np.random.default_rng(4)
    a, b = values(rng, (3, 4), "int32"), values(rng, (4, 2), "int32")
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    assert_array_equal(pygpu.einsum("ij,jk", pa, pb, dtype=np.float64), np.einsum("ij,jk", a, b, dtype=np.float64))
    out = pygpu.empty((3, 2), dtype=np.int64, device=device)
    assert pygpu.einsum("ij,jk", pa, pb, out=out) is out
    assert_array_equal(out, np.einsum("ij,jk", a, b).astype(np.int64))
    for opt in (True, False, "greedy", "optimal", ["einsum_path", (0, 1), (0, 1)]):
        c = values(rng, (2, 5), "int32")
        assert_array_equal(pygpu.einsum("ij,jk,kl->il", pa, pb, pygpu.asarray(c, device=device), optimize=opt),
                           np.einsum("ij,jk,kl->il", a, b, c, optimize=opt))
    path, text = pygpu.einsum_path("ij,jk,kl->il", pa, pb, pygpu.asarray(c, device=device))
    assert path == np.einsum_path("ij,jk,kl->il", a, b, c)[0]
    f = values(rng, (3, 4), "float64")
    same_error(lambda: np.einsum("ij,jk", f, b, dtype=np.int32),
               lambda: pygpu.einsum("ij,jk", pygpu.asarray(f, device=device), pb, dtype=np.int32))
    same_error(lambda: np.einsum("ij,jk", f, b, out=np.empty((3, 2), np.int64)),
               lambda: pygpu.einsum("ij,jk", pygpu.asarray(f, device=device), pb,
                                    out=pygpu.empty((3, 2), dtype=np.int64, device=device)))

    # with out= the sum runs in the common dtype of the operands and out (NumPy's COMMON_DTYPE):
    # bool counted into float, int8 summed in int16, float64 summed before its cast into int64
    bools = np.array([[True, True], [True, False]])
    small = np.array([100, 100, 100], np.int8)
    point6 = np.array([0.6, 0.6, 0.6])
    for spec, ops, out_dt, kw in (("ij->j", (bools,), "f8", {}), ("ij->j", (bools,), "i1", {}),
                                  ("i->", (small,), "i2", {}),
                                  ("i,i->", (point6, point6), "i8", {"casting": "unsafe"}),
                                  ("i->", (point6,), "i8", {"casting": "unsafe"}),
                                  ("ij,jk", (a, b), "f4", {"casting": "same_kind"})):
        want = np.einsum(spec, *ops, out=np.zeros(np.einsum(spec, *ops).shape, out_dt), **kw)
        out = pygpu.zeros(want.shape, dtype=out_dt, device=device)
        got = pygpu.einsum(spec, *[pygpu.asarray(o, device=device) for o in ops], out=out, **kw)
        assert got is out
        assert_array_equal(out, want)


def test_einsum_errors(device):
    def both(spec, *shapes):
        n = [np.ones(s) for s in shapes]
        p = [pygpu.ones(s, device=device) for s in shapes]
        same_error(lambda: np.einsum(spec, *n), lambda: pygpu.einsum(spec, *p))

    both("ij,jk->ik", (2, 3))
    both("ij", (2, 3), (3, 4))
    both("ijk", (2, 3))
    both("i", (2, 3))
    both("ij->k", (2, 3))
    both("ij->ii", (2, 3))
    both("i%", (2, 3))
    both("ii", (2, 3))
    both("ij,jk->ik", (2, 3), (4, 4))
    both("...ij,...jk", (5, 2, 3), (4, 3, 2))
    both("ij...,jk...->ik", (2, 3, 5), (3, 2, 5))
    same_error(lambda: np.einsum(), lambda: pygpu.einsum())
    same_error(lambda: np.einsum_path(), lambda: pygpu.einsum_path())


@pytest.mark.parametrize("spec,shape", [("ij", (2, 3)), ("...", (2, 3)), ("ji", (2, 3)), ("ii->i", (3, 3)),
                                        ("jii->ij", (3, 3, 3)), ("->", ()), ("ij->", (2, 3)), ("ij->i", (2, 3))])
def test_einsum_one_operand_dtype(device, spec, shape):
    # nothing summed over one operand: NumPy returns the operand's view before it reads dtype= and
    # casting=, so the result keeps the operand's dtype (and no cast is refused); a sum uses dtype=
    a = np.arange(int(np.prod(shape))).reshape(shape).astype(np.uint32)
    for dt, casting in ((np.int64, "safe"), (np.float32, "safe"), (np.int8, "safe"), (np.int8, "no")):
        def run(xp, x):
            return xp.einsum(spec, x, dtype=dt, casting=casting)
        try:
            want = run(np, a)
        except TypeError:
            same_error(lambda: run(np, a), lambda: run(pygpu, pygpu.asarray(a, device=device)))
            continue
        assert_array_equal(run(pygpu, pygpu.asarray(a, device=device)), want)
    assert_array_equal(pygpu.einsum("->", 2.0, dtype=np.float32), np.asarray(np.einsum("->", 2.0, dtype=np.float32)))


def test_numpy_einsum_dispatches(device):
    rng = np.random.default_rng(5)
    a, b = values(rng, (3, 4), "float64"), values(rng, (4, 2), "float64")
    got = np.einsum("ij,jk->ik", pygpu.asarray(a, device=device), pygpu.asarray(b, device=device))
    assert isinstance(got, pygpu.ndarray) and got.device == device
    assert_array_equal(got, np.einsum("ij,jk->ik", a, b))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_hypothesis_einsum(data):
    """Random expressions over up to three operands: shared, summed, repeated and kept labels."""
    letters = "abcde"
    sizes = {c: data.draw(st.integers(1, 3)) for c in letters}
    nops = data.draw(st.integers(1, 3))
    terms, shapes = [], []
    for _ in range(nops):
        term = "".join(data.draw(st.lists(st.sampled_from(letters), min_size=0, max_size=3)))
        terms.append(term)
        shapes.append(tuple(sizes[c] if not data.draw(st.booleans()) or term.count(c) > 1 else 1 for c in term))
    used = sorted(set("".join(terms)))
    out = "".join(data.draw(st.permutations(used))[:data.draw(st.integers(0, len(used)))])
    spec = ",".join(terms) + ("->" + out if data.draw(st.booleans()) else "")
    dt = data.draw(st.sampled_from(["float64", "int64", "complex128"]))
    rng = np.random.default_rng(data.draw(st.integers(0, 100)))
    ops = [values(rng, s, dt) for s in shapes]
    try:
        expected = np.einsum(spec, *ops)
    except ValueError:
        with pytest.raises(ValueError):
            pygpu.einsum(spec, *[pygpu.asarray(o) for o in ops])
        return
    assert_array_equal(pygpu.einsum(spec, *[pygpu.asarray(o) for o in ops]), expected)
