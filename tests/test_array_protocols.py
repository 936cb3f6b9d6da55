"""Python protocols of ndarray: len, iteration, bool/int/float/complex/index, item, tolist, pickling,
copy.copy/deepcopy, and a reference-leak check of the view/index paths."""
import copy
import gc
import operator
import pickle
import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pygpu
from conftest import run_mock
from test_raw_kernels_cuda_mock import needs_kernels
from conftest import DTYPES, assert_array_equal, same_error

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])



def sample(shape, dtype):
    return (np.arange(int(np.prod(shape)), dtype=np.int64) % 7 - 2).reshape(shape).astype(dtype)


# ------------------------------------------------------------------ len / iteration


@pytest.mark.parametrize("shape", [(0,), (3,), (2, 3), (0, 4), (4, 0), (1, 2, 3)])
def test_len_and_iteration(device, shape):
    x = sample(shape, "float32")
    p = pygpu.asarray(x, device=device)
    assert len(p) == len(x)
    rows = list(p)
    assert len(rows) == len(x)
    for r, nr in zip(rows, x):
        assert isinstance(r, pygpu.ndarray) and r.base is p
        assert_array_equal(r, np.asarray(nr))
    for r, nr in zip(reversed(p), x[::-1]):   # the sequence protocol: len + item
        assert_array_equal(r, np.asarray(nr))


def test_len_iter_0d(device):
    x = np.asarray(1.5)
    p = pygpu.asarray(x, device=device)
    same_error(lambda: len(x), lambda: len(p))
    same_error(lambda: iter(x), lambda: iter(p))


def test_iteration_of_a_view(device):
    x = np.arange(12).reshape(3, 4)
    p = pygpu.asarray(x, device=device)
    for r, nr in zip(p[::-1, 1::2], x[::-1, 1::2]):
        assert_array_equal(r, nr)
    for r, nr in zip(p.T, x.T):
        assert_array_equal(r, nr)


# ------------------------------------------------------------------ conversions of one element


@settings(max_examples=60, **SETTINGS)
@given(dtype=st.sampled_from(DTYPES), value=st.integers(-3, 3), shape=st.sampled_from([(), (1,), (1, 1)]))
def test_scalar_conversions(device, dtype, value, shape):
    if np.dtype(dtype).kind in "ub":
        value = abs(value)
    x = np.array(value).astype(dtype).reshape(shape)
    p = pygpu.asarray(x, device=device)
    for conv in (bool, int, float, complex, operator.index):
        try:
            expected = conv(x)
        except Exception:
            same_error(lambda: conv(x), lambda: conv(p))
        else:
            got = conv(p)
            assert type(got) is type(expected) and got == expected


@pytest.mark.parametrize("shape", [(0,), (2,), (2, 2), (1, 0)])
def test_conversion_errors(device, shape):
    x = np.zeros(shape)
    p = pygpu.asarray(x, device=device)
    for conv in (bool, int, float, complex, operator.index):
        same_error(lambda: conv(x), lambda: conv(p))


def test_special_values(device):
    for v in [np.nan, np.inf, -0.0]:
        x = np.asarray(v)
        p = pygpu.asarray(x, device=device)
        assert bool(p) == bool(x)
        assert repr(float(p)) == repr(float(x))
    assert bool(pygpu.asarray(np.asarray(0j + 1j), device=device)) is True
    assert bool(pygpu.asarray(np.asarray(0j), device=device)) is False
    big = np.asarray(np.uint64(2 ** 64 - 1))
    assert int(pygpu.asarray(big, device=device)) == 2 ** 64 - 1
    assert operator.index(pygpu.asarray(big, device=device)) == 2 ** 64 - 1
    # usable where Python wants an integer
    n = pygpu.asarray(np.asarray(3, dtype=np.int16), device=device)
    assert [0, 1, 2, 3, 4][n] == 3 and list(range(n)) == [0, 1, 2]


def test_conversion_after_device_work(device):
    p = pygpu.zeros((4,), dtype="float64", device=device)
    p[2] = 5.5   # queued work; the conversion waits for it
    assert float(p[2]) == 5.5
    assert p[2].item() == 5.5 and p.item(2) == 5.5


# ------------------------------------------------------------------ item / tolist


@settings(max_examples=60, **SETTINGS)
@given(dtype=st.sampled_from(DTYPES), shape=st.lists(st.integers(1, 3), max_size=3).map(tuple), data=st.data())
def test_item_and_tolist(device, dtype, shape, data):
    x = sample(shape, dtype)
    if x.ndim and data.draw(st.booleans()):
        x = x[(slice(None, None, -1),) * x.ndim]
        p = pygpu.asarray(x[(slice(None, None, -1),) * x.ndim].copy(), device=device)[(slice(None, None, -1),) * x.ndim]
    else:
        p = pygpu.asarray(x, device=device)
    assert p.tolist() == x.tolist()
    flat = data.draw(st.integers(-x.size, x.size - 1))
    got, expected = p.item(flat), x.item(flat)
    assert type(got) is type(expected) and got == expected
    multi = tuple(data.draw(st.integers(-n, n - 1)) for n in x.shape)
    assert p.item(*multi) == x.item(*multi) and p.item(multi) == x.item(multi)
    if x.size == 1:
        assert p.item() == x.item() and type(p.item()) is type(x.item())


@pytest.mark.parametrize("shape, args", [
    ((6,), ()), ((6,), (10,)), ((6,), (-7,)), ((2, 3), (6,)), ((2, 3), (1, 5)), ((2, 3), (1, 2, 3)),
    ((6,), (1, 2)), ((), (1,)), ((2, 3), (2.0,)), ((0,), ()),
])
def test_item_errors(device, shape, args):
    x = np.zeros(shape)
    p = pygpu.asarray(x, device=device)
    same_error(lambda: x.item(*args), lambda: p.item(*args))


def test_tolist_shapes(device):
    for x in [np.zeros((0, 3)), np.asarray(2.5), np.arange(6).reshape(2, 3).T, np.array([1 + 2j, 3j])]:
        assert pygpu.asarray(x, device=device).tolist() == x.tolist()


# ------------------------------------------------------------------ pickling and copying


@settings(max_examples=30, **SETTINGS)
@given(dtype=st.sampled_from(DTYPES), shape=st.lists(st.integers(0, 3), max_size=3).map(tuple),
       proto=st.integers(2, pickle.HIGHEST_PROTOCOL))
def test_pickle_round_trip(device, dtype, shape, proto):
    x = sample(shape, dtype)
    p = pygpu.asarray(x, device=device)
    q = pickle.loads(pickle.dumps(p, protocol=proto))
    assert isinstance(q, pygpu.ndarray) and q.device == p.device
    assert_array_equal(q, x)
    if x.ndim >= 2:  # views pickle their contents
        v = pickle.loads(pickle.dumps(p.T[::-1], protocol=proto))
        assert_array_equal(v, x.T[::-1])


def test_pickle_onto_missing_device():
    """An array pickled on a GPU this process does not have (cuda:99 here; any cuda:N on a
    machine without CUDA) lands where new arrays go, as the same program runs with or without a
    GPU (a laptop, a CPU-only Dask worker without pygpu.dask preloaded); a device name that is not
    one is still refused, saying what was being unpickled."""
    host = np.arange(3.0)

    class PickledOnAGPU:
        def __reduce__(self):
            return pygpu._core._reconstruct, (host, "cuda:99")

    q = pickle.loads(pickle.dumps(PickledOnAGPU()))
    assert isinstance(q, pygpu.ndarray) and q.device == pygpu.default_device()
    assert_array_equal(q, host)
    q[0] = 7.0   # its own memory, not the pickle's
    assert host[0] == 0.0
    with pygpu.Device("cpu"):
        assert pygpu._core._reconstruct(host, "cuda:99").device == pygpu.Device("cpu")
    for bad in ("tpu:0", "cuda:x", "cuda:", "cuda:-1"):
        with pytest.raises(ValueError, match="cannot unpickle a pygpu array onto device") as e:
            pygpu._core._reconstruct(host, bad)
        assert e.value.__cause__ is not None
    with pytest.raises(TypeError):
        pygpu._core._reconstruct([1, 2], "cpu")


@needs_kernels   # the fake driver's device exists only where the build has kernels
def test_pickle_from_a_gpu_loads_where_there_is_none(mock_driver):
    """A cuda:0 array pickled by a process with a GPU (a child on the fake driver) loads in this
    process: on cuda:0 where it has one, else on the current device (the CPU here)."""
    code = """
a = pygpu.asarray(np.arange(6.0).reshape(2, 3), device="cuda:0")
print(json.dumps([str(a.device), pickle.dumps(a).hex()]))   # contiguous: the fake driver copies, runs no kernels
"""
    left, hexed = run_mock(mock_driver, "import pickle\n" + code)
    assert left == "cuda:0"
    q = pickle.loads(bytes.fromhex(hexed))
    has_gpu = pygpu.cuda.is_available()
    assert q.device == (pygpu.Device("cuda:0") if has_gpu else pygpu.Device("cpu"))
    assert_array_equal(q, np.arange(6.0).reshape(2, 3))


def test_copy_and_deepcopy(device):
    x = np.arange(6.0).reshape(2, 3)
    p = pygpu.asarray(x, device=device)
    for c in (copy.copy(p), copy.deepcopy(p), copy.deepcopy([p, p])[0], copy.copy(p.T)):
        assert isinstance(c, pygpu.ndarray) and c.base is None and c.device == device
    c = copy.copy(p)
    c[0, 0] = 100
    assert_array_equal(p, x)
    assert_array_equal(copy.deepcopy(p.T), x.T)


# ------------------------------------------------------------------ reference leaks


def test_no_reference_or_memory_leak(device):
    base = pygpu.asarray(np.arange(240.0).reshape(12, 20), device=device)
    pool = pygpu.get_memory_pool(device)

    def cycle():
        v = base[1:, ::2]
        w = v.T.reshape(-1)            # a copy
        u = base.reshape(20, 12)       # a view
        base[0] = 1.0
        base[1:] = base[:-1]           # overlap: a temporary copy
        base[2, :] = np.arange(20.0)
        base[3] = [0.5] * 20
        base[4] = base[5]
        base[6, ::-1] = base[6]         # overlap, reversed
        e = base[5, 6]
        float(e), bool(e), int(e), e.item(), base.item(7)
        list(base[:3])
        pygpu.broadcast_to(base[0], (4, 20))[..., None].squeeze(-1)
        pygpu.expand_dims(base, (0, 3)).ravel("K")
        pygpu.moveaxis(base, 0, -1).flatten()
        pickle.loads(pickle.dumps(base[:2]))
        for bad in (lambda: base[100], lambda: base[[1]], lambda: base.reshape(7),
                    lambda: base.__setitem__((0, 0), [1, 2])):
            try:
                bad()
            except (IndexError, ValueError):
                pass
        return w, u

    for _ in range(20):  # warm up caches (pool blocks, interned objects)
        cycle()
    gc.collect()
    refs = sys.getrefcount(base)
    used = pool.used_bytes()
    tracemalloc.start()
    try:
        for _ in range(20):
            cycle()
        gc.collect()
        start, _ = tracemalloc.get_traced_memory()
        for _ in range(300):
            cycle()
        gc.collect()
        end, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sys.getrefcount(base) == refs
    assert pool.used_bytes() == used
    assert end - start < 64 * 1024, end - start


# ---------------------------------------------------------------- objects NumPy's operators meet

def test_equality_with_objects_no_ufunc_takes_is_elementwise():
    from decimal import Decimal
    from fractions import Fraction
    x = np.array([0.5, 1.0, 2.0])
    p = pygpu.asarray(x)
    for other in (None, "a", b"a", Fraction(1, 2), Fraction(1, 3), Decimal("1.0"), object(), {1: 2}, {0.5}):
        for op in (operator.eq, operator.ne):
            assert_array_equal(op(p, other), op(x, other))
            assert_array_equal(op(other, p), op(other, x))
    assert (None in p) is False and ("a" in p) is False and (Fraction(1, 2) in p) is True
    with pytest.raises(TypeError):
        p < None


def test_sequences_and_buffers_are_array_operands():
    # on the CPU device: there a pygpu array has the buffer protocol, as a NumPy array has, so
    # that bytearray > p is bytearray's comparison of buffers (a bool), as NumPy's; device memory
    # has no buffer protocol (nor has CuPy's), so a GPU's answer is p's reflected comparison
    import array
    u = np.array([1, 2, 3], np.uint8)
    p = pygpu.asarray(u, device="cpu")
    for other in (bytearray(b"\x00\x00\x09"), memoryview(bytearray(b"\x01\x02\x03")), range(3),
                  array.array("d", [1.5, 2.5, 3.5])):
        for op in (operator.add, operator.gt, operator.mul):
            assert_array_equal(op(p, other), op(u, other))
            assert_array_equal(op(other, p), op(other, u))

    class Wrapped:   # an array-like by __array__ alone
        def __array__(self, dtype=None, copy=None):
            return np.array([10, 20, 30], np.int16)

    assert_array_equal(p + Wrapped(), u + Wrapped())


def test_in_place_operators_never_give_way():
    # NEP 13: a += b is add(a, b, out=a) or an error, never a rebinding of a
    a = pygpu.zeros(3)
    view = a[1:]
    a += np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    assert isinstance(a, pygpu.ndarray)
    assert_array_equal(a, np.array([1.0, 2.0, 3.0]))
    assert_array_equal(view, np.array([2.0, 3.0]))

    class Refuses:
        __array_ufunc__ = None

        def __radd__(self, other):
            return "radd"

    assert pygpu.zeros(2) + Refuses() == "radd"   # a binary operator does give way
    b = pygpu.zeros(2)
    with pytest.raises(TypeError, match="does not support ufuncs"):
        b += Refuses()


def test_writeable_flag_can_be_cleared_and_set_back():
    a = pygpu.arange(4.0)
    a.flags["WRITEABLE"] = False
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 9
    v = a[1:]
    with pytest.raises(ValueError, match="read-only"):
        v[0] = 9                                     # views of a read-only array are read-only
    with pytest.raises(ValueError, match="WRITEABLE"):
        v.setflags(write=True)
    a.flags.writeable = True
    a[0] = 9
    assert a[0] == 9
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        a += 1
    with pytest.raises(KeyError):
        a.flags["C_CONTIGUOUS"] = False


@pytest.mark.parametrize("steps", [
    [dict(align=False)], [dict(align=False), dict(align=True)], [dict(align=True)],
    [dict(write=False, align=False)], [dict(uic=False)], [dict(uic=True)],
])
def test_setflags_as_numpy(steps):
    x, p = np.arange(4.0), pygpu.arange(4.0)
    for kw in steps:
        try:
            x.setflags(**kw)
        except ValueError:
            same_error(lambda: x.setflags(**kw), lambda: p.setflags(**kw))
        else:
            p.setflags(**kw)
    for key in ("ALIGNED", "BEHAVED", "CARRAY", "WRITEABLE"):
        assert p.flags[key] == x.flags[key], key
    q = pygpu.arange(4.0)
    q.flags.aligned = False
    assert not q.flags["A"] and not q.flags.behaved
    q.flags["ALIGNED"] = True
    assert q.flags.aligned


def test_numpy_ufuncs_store_into_numpy_outputs():
    # on the CPU device (test_numpy_outs_of_arrays_on_a_gpu_are_refused: a GPU's)
    rng = np.random.default_rng(0)
    m, v = rng.standard_normal((3, 3)), rng.standard_normal(3)
    pm, pv = pygpu.asarray(m, device="cpu"), pygpu.asarray(v, device="cpu")
    for call in (lambda x, y, o: np.matmul(x, y, out=o), lambda x, y, o: np.matvec(x, y[0], out=o[0]),
                 lambda x, y, o: np.vecdot(x, y, out=o[0])):
        want, got = np.zeros((3, 3)), np.zeros((3, 3))
        call(m, m, want)
        call(pm, pm, got)
        np.testing.assert_allclose(got, want, rtol=1e-12)
    q, r = np.zeros(3), np.zeros(3)
    res = np.divmod(pv, 0.3, out=(q, r))
    assert res[0] is q and res[1] is r
    np.testing.assert_array_equal(q, np.floor_divide(v, 0.3))
    np.testing.assert_array_equal(r, np.remainder(v, 0.3))
    f, i = np.zeros(3), np.zeros(3)
    np.modf(pv, out=(f, i))
    np.testing.assert_array_equal(f, np.modf(v)[0])
    host = m.copy()
    host @= pm                                      # NumPy's in-place matmul passes axes=
    np.testing.assert_allclose(host, m @ m, rtol=1e-12)
    with pytest.raises(TypeError):                  # NumPy's casting rule: float64 into int64
        np.matmul(pm, pm, out=np.zeros((3, 3), np.int64))



def test_numpy_copyto_full_and_full_like_into_numpy_arrays_with_pygpu_values():
    # NumPy's own np.full(shape, fill, dtype=) and np.full_like run np.copyto(numpy_array, fill):
    # on the CPU device (test_numpy_outs_of_arrays_on_a_gpu_are_refused: a GPU's)
    c = np.array([[1.5, 2.5]])
    fill = pygpu.asarray(c, device="cpu")
    assert_array_equal(np.full((3, 2), fill, dtype=np.float64), np.full((3, 2), c, dtype=np.float64))
    got = np.full_like(np.zeros(3, np.int32), pygpu.asarray(2.0, device="cpu"))
    assert type(got) is np.ndarray and got.dtype == np.int32 and got.tolist() == [2, 2, 2]
    def pygpu_where(kw):
        return {k: pygpu.asarray(v, device="cpu") if k == "where" else v for k, v in kw.items()}
    for kw in ({}, {"where": np.array([True, False, True])}, {"casting": "unsafe"}):
        want, got = np.zeros(3), np.zeros(3)
        np.copyto(want, np.array([1.0, 2.0, 3.0]), **kw)
        np.copyto(got, pygpu.asarray([1.0, 2.0, 3.0], device="cpu"), **pygpu_where(kw))
        assert_array_equal(got, want)
    for src, kw in ((np.array([1.5, 2.0]), {}), (np.array([1, 2]), {"casting": "no"}),
                    (np.ones(3), {}), (np.ones(2), {"where": np.ones(2)})):
        same_error(lambda: np.copyto(np.zeros(2, np.int32), src, **kw),
                   lambda: np.copyto(np.zeros(2, np.int32), pygpu.asarray(src, device="cpu"), **pygpu_where(kw)))



NUMPY_OUT_CALLS = [   # (call, the out's shape, its dtypes)
    (lambda x, o: np.sum(x, axis=0, out=o), (3,), "dfl"), (lambda x, o: np.sum(x, 0, None, o), (3,), "dl"),
    (lambda x, o: np.mean(x, axis=1, out=o), (2,), "df"), (lambda x, o: np.max(x, axis=0, out=o), (3,), "dl"),
    (lambda x, o: np.prod(x, axis=0, out=o), (3,), "dl"), (lambda x, o: np.std(x, axis=0, out=o), (3,), "df"),
    (lambda x, o: np.argmax(x, axis=0, out=o), (3,), "l"), (lambda x, o: np.any(x, axis=0, out=o), (3,), "?l"),
    (lambda x, o: np.cumsum(x, axis=0, out=o), (2, 3), "dl"), (lambda x, o: np.clip(x, 0, 2, out=o), (2, 3), "df"),
    (lambda x, o: np.around(x, out=o), (2, 3), "df"), (lambda x, o: np.take(x, [0, 4], out=o), (2,), "df"),
    (lambda x, o: np.add.reduce(x, axis=0, out=o), (3,), "dl"),
    (lambda x, o: np.add.accumulate(x, axis=1, out=o), (2, 3), "dl"),
    (lambda x, o: np.maximum.reduce(x, axis=0, out=(o,)), (3,), "d"),
    (lambda x, o: np.subtract.reduce(x, axis=0, out=o), (3,), "d"),
    (lambda x, o: np.sum(x, axis=0, out=o, where=np.array([True, False, True])), (3,), "d"),
    (lambda x, o: x.sum(axis=0, out=o), (3,), "dl"), (lambda x, o: x.cumsum(axis=1, out=o), (2, 3), "d"),
    (lambda x, o: x.clip(0, 2, out=o), (2, 3), "d"), (lambda x, o: x.take([1, 5], out=o), (2,), "d"),
    (lambda x, o: x.mean(out=o), (), "d"),
]


@pytest.mark.parametrize("i", range(len(NUMPY_OUT_CALLS)))
def test_numpy_out_of_reductions_scans_and_array_functions(i):
    # NumPy's answer: the result stored into the NumPy out (by the function's own casting rule:
    # unsafe for sum into int64, same_kind for clip) and that same array returned, on the CPU
    # device (test_numpy_outs_of_arrays_on_a_gpu_are_refused: a GPU's)
    call, shape, dtypes = NUMPY_OUT_CALLS[i]
    x = np.array([[1.5, -2.0, 3.25], [4.0, 0.5, -6.0]])
    for dt in dtypes:
        want, got = np.full(shape, 7, dt), np.full(shape, 7, dt)
        assert call(x, want) is want
        assert call(pygpu.asarray(x, device="cpu"), got) is got
        assert_array_equal(got, want)


def test_numpy_outs_of_arrays_on_a_gpu_are_refused(device):
    """A NumPy out= (or NumPy array to fill) with pygpu arrays on a GPU: a TypeError naming the
    function, the NumPy array untouched; pygpu does not copy device arrays to the host behind the
    user's back (CuPy refuses such calls too)."""
    if device.kind == "cpu":
        pytest.skip("the CPU device takes them (the tests above)")
    x = np.array([[1.5, -2.0, 3.25], [4.0, 0.5, -6.0]])
    p = pygpu.asarray(x, device=device)
    for call, shape, dtypes in NUMPY_OUT_CALLS:
        host, untouched = np.full(shape, 7, dtypes[0]), np.full(shape, 7, dtypes[0])
        with pytest.raises(TypeError, match="with a NumPy out= is NumPy's, on the CPU device only; an operand is on "
                                            "cuda"):
            call(p, host)
        assert_array_equal(host, untouched)   # (a bool out holds True, not 7)
    m = pygpu.asarray(np.eye(3), device=device)
    for call in (lambda: np.matmul(m, m, out=np.zeros((3, 3))), lambda: np.divmod(p, 0.3, out=(x.copy(), x.copy())),
                 lambda: np.full((3, 2), p[0, :2], dtype=np.float64), lambda: np.copyto(np.zeros(3), p[0])):
        with pytest.raises(TypeError, match="on the CPU device only; an operand is on cuda"):
            call()


def test_numpy_out_errors_and_overlap():
    # on the CPU device (test_numpy_outs_of_arrays_on_a_gpu_are_refused: a GPU's)
    x = np.array([[1.5, -2.0, 3.25], [4.0, 0.5, -6.0]])
    for call, o in ((lambda x, o: np.clip(x, 0, 2, out=o), np.zeros((2, 3), np.int64)),
                    (lambda x, o: np.argmax(x, axis=0, out=o), np.zeros(3)),
                    (lambda x, o: x.std(axis=0, out=o), np.zeros(3, np.int64))):
        with pytest.raises(TypeError) as ne:
            call(x, o.copy())
        with pytest.raises(TypeError) as pe:
            call(pygpu.asarray(x, device="cpu"), o.copy())
        assert str(pe.value) == str(ne.value)
    ro = np.zeros(3)
    ro.flags.writeable = False
    same_error(lambda: np.sum(x, axis=0, out=ro), lambda: np.sum(pygpu.asarray(x, device="cpu"), axis=0, out=ro))
    p = pygpu.asarray(x, device="cpu")
    view = np.asarray(p)   # the out is the input's own memory: NumPy's result all the same
    assert np.cumsum(p, axis=1, out=view) is view
    assert_array_equal(p, np.cumsum(x, axis=1))


def test_zero_d_argsort_squeeze_repeat_and_item_as_numpy():
    a, p = np.array(5.0), pygpu.asarray(5.0)
    for call in (lambda x: x.argsort(), lambda x: np.argsort(x, axis=None), lambda x: x.squeeze(0),
                 lambda x: x.squeeze(-1), lambda x: x.squeeze(())):
        assert_array_equal(call(p), call(a))
    for call in (lambda x: x.squeeze((0,)), lambda x: x.squeeze(1), lambda x: np.argsort(x, axis=3),
                 lambda x: np.sort(x)):
        same_error(lambda: call(a), lambda: call(p))
    for shape, axis in (((0, 3), 0), ((3, 0), 1), ((0,), None)):
        assert_array_equal(pygpu.zeros(shape).repeat(-1, axis=axis), np.zeros(shape).repeat(-1, axis=axis))
    same_error(lambda: np.zeros(3).repeat(-1), lambda: pygpu.zeros(3).repeat(-1))
    same_error(lambda: np.zeros(2).repeat([-1, 2, 3]), lambda: pygpu.zeros(2).repeat([-1, 2, 3]))
    same_error(lambda: np.zeros(3).repeat([-1, 2, 3]), lambda: pygpu.zeros(3).repeat([-1, 2, 3]))
    same_error(lambda: np.arange(3).item(True), lambda: pygpu.arange(3).item(True))


def test_scalar_power_fast_paths_as_numpy():
    # x ** 2 is square (bool ** 2 is int8); complex ** 2.0 and ** -1.0 are power's, not square's
    for x in (np.array([True, False]), np.array([3, -2], np.int8), np.array([1 + 1j, np.inf + 0j, -0.0 + 0j]),
              np.array([-0.0, 2.5, np.inf], np.float32)):
        for e in (2, 2.0, -1, -1.0, 0.5, 3) if x.dtype.kind != "b" else (2, 3):
            if x.dtype.kind in "iub" and (e in (-1, -1.0) or isinstance(e, float)):
                continue
            with np.errstate(all="ignore"):
                want = x ** e
            got = pygpu.asarray(x) ** e
            assert_array_equal(got, want)
