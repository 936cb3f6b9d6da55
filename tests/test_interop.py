"""Interop protocols: DLPack (both capsule kinds, both directions), the buffer protocol,
__array__, and __cuda_array_interface__ (export on CUDA; strict validation of imported dicts,
which happens before any device lookup and so is tested on every machine)."""
import gc
import hashlib
import io
import sys

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

ALL_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.float16, np.float32, np.float64, np.complex64, np.complex128]


def sample(dtype, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))) % 5).astype(dtype).reshape(shape)


def cpu(a):
    return pygpu.asarray(a, device="cpu")


# ------------------------------------------------------------------ buffer protocol, __array__ (CPU)

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_memoryview_zero_copy(dtype):
    src = sample(dtype)
    a = cpu(src)
    m = memoryview(a)
    assert m.shape == src.shape and m.strides == src.strides and m.itemsize == src.itemsize
    assert m.format == memoryview(src).format
    assert not m.readonly
    view = np.asarray(a)
    assert view.ctypes.data == a.data_ptr
    assert_array_equal(view, src)
    view[0, 0] = 1  # writes through to the pygpu array
    assert a.get()[0, 0] == 1


def test_buffer_requests():
    src = np.asfortranarray(sample(np.float32))
    a = cpu(src)
    m = memoryview(a)
    assert m.f_contiguous and not m.c_contiguous and m.strides == src.strides
    # a consumer that cannot take strides needs C order
    with pytest.raises(BufferError, match="not C-contiguous"):
        hashlib.sha1(a)  # a PyBUF_SIMPLE request
    c = cpu(sample(np.int16))
    assert np.frombuffer(c, dtype=np.int16).tolist() == sample(np.int16).ravel().tolist()
    assert bytes(c) == sample(np.int16).tobytes()


def test_buffer_keeps_array_alive():
    a = cpu(np.arange(5.0))
    m = memoryview(a)
    assert m.obj is a
    del a
    gc.collect()
    assert m.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_array_dunder_copy_semantics():
    src = sample(np.float64)
    a = cpu(src)
    v = a.__array__()
    assert v.ctypes.data == a.data_ptr and v.base is a
    v2 = np.asarray(a, copy=False)
    assert v2.ctypes.data == a.data_ptr
    c = np.array(a, copy=True)
    assert c.ctypes.data != a.data_ptr
    assert_array_equal(c, src)
    f = a.__array__(np.float32)
    assert f.dtype == np.float32 and f.ctypes.data != a.data_ptr
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        a.__array__(np.float32, copy=False)
    with pytest.raises(TypeError):
        a.__array__("not a dtype")
    assert np.asarray(a, dtype=np.int64).tolist() == src.astype(np.int64).tolist()


def test_no_cuda_array_interface_on_cpu():
    a = cpu(np.arange(3))
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="CUDA device"):
        a.__cuda_array_interface__


# ------------------------------------------------------------------ DLPack on the CPU

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_from_dlpack_shares_memory(dtype):
    src = sample(dtype)
    a = cpu(src)
    assert a.__dlpack_device__() == (1, 0)
    out = np.from_dlpack(a)
    assert out.ctypes.data == a.data_ptr
    assert_array_equal(out, src)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_from_dlpack_numpy_shares_memory(dtype):
    src = sample(dtype)
    a = pygpu.from_dlpack(src)
    assert a.data_ptr == src.ctypes.data and a.device == pygpu.Device("cpu")
    assert_array_equal(a, src)


@pytest.mark.parametrize("make", [lambda s: s[::2, ::-1], lambda s: s.T, lambda s: s[1:, 1:3], lambda s: s[0]])
def test_dlpack_strided_round_trip(make):
    src = make(np.arange(40.0).reshape(5, 8))
    a = pygpu.from_dlpack(src)
    assert a.data_ptr == src.ctypes.data and a.strides == src.strides
    back = np.from_dlpack(a)
    assert back.ctypes.data == src.ctypes.data and back.strides == src.strides
    assert_array_equal(back, src)


def test_capsule_kinds():
    a = cpu(np.arange(6.0))
    legacy = a.__dlpack__()
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    versioned = a.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(versioned)
    assert "dltensor_versioned" in repr(a.__dlpack__(max_version=(1, 3)))
    assert "versioned" not in repr(a.__dlpack__(max_version=(0, 8)))
    for cap, used in [(legacy, "used_dltensor"), (versioned, "used_dltensor_versioned")]:
        b = pygpu.from_dlpack(cap)
        assert b.data_ptr == a.data_ptr
        assert used in repr(cap)
        with pytest.raises(ValueError, match="consumed only once"):
            pygpu.from_dlpack(cap)


def test_capsule_lifetime_and_refcounts():
    a = cpu(np.arange(6.0))
    before = sys.getrefcount(a)
    for _ in range(200):
        cap = a.__dlpack__(max_version=(1, 0))
        del cap  # never consumed: the capsule destructor frees it
        b = np.from_dlpack(a)
        del b
        c = pygpu.from_dlpack(a)
        del c
        d = pygpu.from_dlpack(a.__dlpack__())
        del d
    gc.collect()
    assert sys.getrefcount(a) == before


def test_imported_memory_outlives_producer():
    src = np.arange(1000.0)
    a = pygpu.from_dlpack(src)
    del src
    gc.collect()
    assert_array_equal(a, np.arange(1000.0))
    b = cpu(np.arange(7))
    out = np.from_dlpack(b)
    del b
    gc.collect()
    assert out.tolist() == list(range(7))


def test_readonly_dlpack():
    src = np.arange(4.0)
    src.flags.writeable = False
    a = pygpu.from_dlpack(src)
    assert not a.flags["WRITEABLE"]
    assert memoryview(a).readonly
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(a)[0] = 1
    with pytest.raises(TypeError, match="read-write"):
        io.BytesIO(b"x" * 32).readinto(a)  # a PyBUF_WRITABLE request
    with pytest.raises(BufferError, match="readonly"):
        a.__dlpack__()
    back = np.from_dlpack(a)
    assert not back.flags.writeable


def test_dlpack_copy_and_device_arguments():
    a = cpu(np.arange(4.0))
    c = np.from_dlpack(a, copy=True)
    assert c.ctypes.data != a.data_ptr
    assert_array_equal(c, np.arange(4.0))
    assert np.from_dlpack(a, copy=False).ctypes.data == a.data_ptr
    with pytest.raises(BufferError):
        a.__dlpack__(dl_device=(2, 0))
    with pytest.raises(ValueError, match="stream must be None"):
        a.__dlpack__(stream=1)
    with pytest.raises(TypeError):
        a.__dlpack__(max_version=1)
    with pytest.raises(TypeError):
        a.__dlpack__(dl_device="cpu")
    b = pygpu.from_dlpack(np.arange(3.0), copy=True)
    assert_array_equal(b, np.arange(3.0))
    src = np.arange(3.0)
    assert pygpu.from_dlpack(src, device="cpu", copy=False).data_ptr == src.ctypes.data


class DLPackOnly:
    """A foreign producer: only the DLPack protocol (optionally pre-1.0, without max_version)."""

    def __init__(self, arr, legacy=False):
        self.arr = arr
        self.legacy = legacy

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()

    def __dlpack__(self, stream=None, **kw):
        if self.legacy and kw:
            raise TypeError("unexpected keyword argument")
        return self.arr.__dlpack__(stream=stream, **kw)


@pytest.mark.parametrize("legacy", [False, True])
def test_asarray_of_dlpack_producer(legacy):
    src = np.arange(12, dtype=np.int32).reshape(3, 4)
    obj = DLPackOnly(src, legacy)
    a = pygpu.asarray(obj, device="cpu")
    assert a.data_ptr == src.ctypes.data
    assert_array_equal(a, src)
    assert pygpu.from_dlpack(obj).data_ptr == src.ctypes.data


def test_asarray_of_dlpack_producer_to_device(device):
    src = np.arange(6.0)
    a = pygpu.asarray(DLPackOnly(src), device=device)
    assert a.device == device
    assert_array_equal(a, src)


def test_from_dlpack_errors():
    with pytest.raises(TypeError, match="DLPack"):
        pygpu.from_dlpack(object())

    class Bad:
        def __dlpack_device__(self):
            return (1, 0)

        def __dlpack__(self, **kw):
            return 42

    with pytest.raises(TypeError, match="PyCapsule"):
        pygpu.from_dlpack(Bad())

    class BadDevice(Bad):
        def __dlpack_device__(self):
            return "cpu"

    with pytest.raises(TypeError):
        pygpu.from_dlpack(BadDevice())

    class Raises(Bad):
        def __dlpack__(self, **kw):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        pygpu.asarray(Raises())


# ------------------------------------------------------------------ __cuda_array_interface__ validation

class CAI:
    def __init__(self, d, keep=None):
        self.d = d
        self.keep = keep

    @property
    def __cuda_array_interface__(self):
        return self.d


def good(**changes):
    d = {"shape": (2, 3), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3, "strides": None}
    for k, v in changes.items():
        if v is KeyError:
            d.pop(k)
        else:
            d[k] = v
    return d


MALFORMED = [
    ([1, 2], TypeError, "must be a dict"),
    (good(shape=KeyError), ValueError, "'shape'"),
    (good(typestr=KeyError), ValueError, "'typestr'"),
    (good(data=KeyError), ValueError, "'data'"),
    (good(version=KeyError), ValueError, "'version'"),
    (good(version="3"), TypeError, "version"),
    (good(version=9), ValueError, "version 9"),
    (good(shape=[2, 3]), TypeError, "tuple of ints"),
    (good(shape=(2, -3)), ValueError, "negative dimensions"),
    (good(shape=(2, 1.5)), TypeError, "tuple of ints"),
    (good(shape=(2, 2**70)), ValueError, "out of range"),
    (good(shape=(2**40, 2**40)), ValueError, "too big"),
    (good(shape=(1,) * 40), ValueError, "at most"),
    (good(typestr=4), TypeError, "must be a str"),
    (good(typestr="f4"), ValueError, "not a valid typestr"),
    (good(typestr="<f4x"), ValueError, "not a valid typestr"),
    (good(typestr="<f"), ValueError, "not a valid typestr"),
    (good(typestr=">f8"), ValueError, "byte order"),
    (good(typestr="<V8"), ValueError, "not a valid typestr"),
    (good(typestr="<f3"), TypeError, "not a dtype pygpu supports"),
    (good(typestr="|O8"), ValueError, "not a valid typestr"),
    (good(data=[1, False]), TypeError, "'data'"),
    (good(data=(1, 0)), TypeError, "'data'"),
    (good(data=(1,)), TypeError, "'data'"),
    (good(data=(1.0, False)), TypeError, "'data'"),
    (good(data=(-5, False)), ValueError, "not a valid address"),
    (good(data=(0, False)), ValueError, "null pointer"),
    (good(strides=(4,)), ValueError, "has 1 entries"),
    (good(strides=[12, 4]), TypeError, "tuple of ints"),
    (good(strides=(12.0, 4)), TypeError, "tuple of ints"),
    (good(mask=object()), ValueError, "mask"),
    (good(stream=0), ValueError, "must not be 0"),
    (good(stream="1"), TypeError, "'stream'"),
    (good(stream=-3), ValueError, "stream"),
]


@pytest.mark.parametrize("d,exc,msg", MALFORMED)
def test_malformed_cai(d, exc, msg):
    with pytest.raises(exc, match=msg):
        pygpu.asarray(CAI(d))


def test_cai_property_raising_propagates():
    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        pygpu.asarray(Broken())


def test_valid_cai_without_gpu():
    if pygpu.cuda.is_available():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="no usable CUDA device"):
        pygpu.asarray(CAI(good()))
    with pytest.raises(RuntimeError, match="no usable CUDA device"):
        pygpu.asarray(CAI(good(shape=(0,), data=(0, False), stream=1, mask=None)))


# ------------------------------------------------------------------ CUDA (run where a GPU is lent)

def test_cai_export(cuda_device):
    a = pygpu.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=cuda_device)
    cai = a.__cuda_array_interface__
    assert cai["shape"] == (3, 4) and cai["typestr"] == "<f4" and cai["version"] == 3
    assert cai["data"] == (a.data_ptr, False) and cai["strides"] is None
    assert cai["stream"] == 1
    b = pygpu.asarray(np.array([True, False]), device=cuda_device)
    assert b.__cuda_array_interface__["typestr"] == "|b1"
    e = pygpu.empty((0,), device=cuda_device)
    assert e.__cuda_array_interface__["data"][0] == 0
    s = pygpu.Stream()
    with s:
        assert a.__cuda_array_interface__["stream"] == s.ptr


def test_cai_import_zero_copy(cuda_device):
    a = pygpu.asarray(np.arange(12.0).reshape(3, 4), device=cuda_device)
    d = dict(a.__cuda_array_interface__)
    holder = CAI(d, keep=a)
    b = pygpu.asarray(holder)
    assert b.data_ptr == a.data_ptr and b.device == cuda_device and b.base is holder
    assert_array_equal(b, np.arange(12.0).reshape(3, 4))
    ro = pygpu.asarray(CAI(dict(d, data=(d["data"][0], True)), keep=a))
    assert not ro.flags["WRITEABLE"]
    strided = pygpu.asarray(CAI(dict(d, shape=(3, 2), strides=(32, 16)), keep=a))
    assert_array_equal(strided, np.arange(12.0).reshape(3, 4)[:, ::2])
    del holder, a
    gc.collect()
    assert_array_equal(b, np.arange(12.0).reshape(3, 4))  # the holder (and the memory) live on


def test_device_memory_buffer_error(cuda_device):
    a = pygpu.zeros(3, device=cuda_device)
    with pytest.raises(BufferError, match=r"pygpu array on cuda:0 is in device memory; copy it to the host with "
                                          r"\.get\(\) or pygpu\.asnumpy\(\)"):
        memoryview(a)
    with pytest.raises(ValueError, match="device memory"):
        a.__array__(copy=False)
    assert_array_equal(np.asarray(a), np.zeros(3))


def test_cuda_dlpack_device(cuda_device):
    a = pygpu.zeros(3, device=cuda_device)
    assert a.__dlpack_device__() == (2, 0)
    assert_array_equal(np.from_dlpack(a, device="cpu"), np.zeros(3))  # a copy through dl_device=(1, 0)
    b = pygpu.from_dlpack(a)
    assert b.data_ptr == a.data_ptr
    assert pygpu.from_dlpack(a.__dlpack__(max_version=(1, 0), stream=-1)).data_ptr == a.data_ptr


def test_host_memory_kinds_on_cuda(cuda_device):
    for kind, dl in [("pinned", 3), ("managed", 13)]:
        a = pygpu._core._empty_kind((4,), "f8", "C", cuda_device, kind)
        assert a.memory_kind == kind and a.__dlpack_device__()[0] == dl
        a.fill(2.0)
        v = np.asarray(a)
        assert v.ctypes.data == a.data_ptr and v.tolist() == [2.0] * 4


def test_cupy_round_trip(cuda_device):
    cp = pytest.importorskip("cupy")
    x = cp.arange(10, dtype=cp.float32)
    a = pygpu.asarray(x)
    assert a.data_ptr == x.data.ptr
    assert_array_equal(a, np.arange(10, dtype=np.float32))
    y = cp.asarray(a)
    assert y.data.ptr == a.data_ptr
    z = cp.from_dlpack(a)
    assert z.data.ptr == a.data_ptr
    assert pygpu.from_dlpack(x).data_ptr == x.data.ptr


def test_torch_round_trip(cuda_device):
    torch = pytest.importorskip("torch")
    t = torch.arange(10, dtype=torch.float64, device="cuda")
    a = pygpu.asarray(t)
    assert a.data_ptr == t.data_ptr()
    assert pygpu.from_dlpack(t).data_ptr == t.data_ptr()
    back = torch.from_dlpack(a)
    assert back.data_ptr() == a.data_ptr
    assert back.cpu().numpy().tolist() == list(range(10))
    assert torch.as_tensor(a, device="cuda").data_ptr() == a.data_ptr


def test_numba_round_trip(cuda_device):
    pytest.importorskip("numba")
    from numba import cuda as ncuda
    d = ncuda.to_device(np.arange(8.0))
    a = pygpu.asarray(d)
    assert a.data_ptr == d.device_ctypes_pointer.value
    back = ncuda.as_cuda_array(a)
    assert back.device_ctypes_pointer.value == a.data_ptr
    assert back.copy_to_host().tolist() == list(range(8))


def test_torch_cpu_zero_copy():
    torch = pytest.importorskip("torch")
    t = torch.arange(6, dtype=torch.int32)
    a = pygpu.asarray(t, device="cpu")
    assert a.data_ptr == t.data_ptr()
    assert torch.from_dlpack(a).data_ptr() == t.data_ptr()


# ---------------------------------------------------------------- third-party code (found running scikit-learn)

def test_operators_defer_to_masked_arrays():
    m = np.ma.masked_array(np.arange(4.0), mask=[0, 1, 0, 0])
    r = pygpu.asarray(np.arange(4.0)) >= m
    assert isinstance(r, np.ma.MaskedArray)
    assert r.mask.tolist() == [False, True, False, False]
    assert isinstance(pygpu.asarray(np.arange(4.0)) + m, np.ma.MaskedArray)


def test_astype_of_a_numpy_array_and_devices_equal_to_their_names():
    r = pygpu.astype(np.arange(3.0), pygpu.float32, copy=False)
    assert isinstance(r, pygpu.ndarray) and r.dtype == np.float32
    cpu = pygpu.Device("cpu")
    assert pygpu.asarray(np.ones(2), device=cpu).device == np.ones(1).device == "cpu"
    assert cpu == pygpu.Device("cpu") and cpu != "cuda:0" and hash(cpu) == hash("cpu")
    assert not (cpu == 3)


def test_flat_reads_and_writes_through():
    for make in (lambda a: a, lambda a: a.T, lambda a: a[:, ::-1]):   # C order, and two strided views
        nb = np.arange(12.0).reshape(3, 4)
        pb = pygpu.asarray(nb.copy())
        n, p = make(nb), make(pb)
        assert pygpu.asnumpy(p.flat[5]) == n.flat[5]
        assert_array_equal(p.flat[::3], n.flat[::3])
        p.flat[[0, 5, 7]] = -1.0
        n.flat[[0, 5, 7]] = -1.0
        assert_array_equal(p, n)
        assert_array_equal(pb, nb)   # written through to the base
        assert len(p.flat) == n.size
        assert_array_equal(np.asarray(p.flat), np.asarray(n.flat))
    sq = pygpu.asarray(np.arange(9.0).reshape(3, 3))
    sq.flat[::4] = 0
    assert_array_equal(pygpu.diagonal(sq), np.zeros(3))
    d = pygpu.zeros(5)
    d.flat = [1, 2]
    e = np.zeros(5)
    e.flat = [1, 2]
    assert_array_equal(d, e)


@pytest.mark.parametrize("key", [slice(None), slice(None, 10), slice(10, None, -2), [1, 5, 7],
                                 np.array([[1, 2], [3, 4]]), Ellipsis, np.arange(24) % 3 == 0])
def test_flat_assignment_repeats_or_cuts_the_values(key):
    """a.flat[key] = v takes v's elements in C order, repeated or cut to the count selected, as
    NumPy's flatiter (it raised a broadcast error); on C, F and strided arrays."""
    for xp_make in ((np.zeros, pygpu.zeros), (lambda s: np.zeros(s, order="F"), lambda s: pygpu.zeros(s, order="F")),
                    (lambda s: np.zeros(s)[:, ::-1], lambda s: pygpu.zeros(s)[:, ::-1])):
        for v in (np.arange(3.0) + 1, np.arange(6.0).reshape(2, 3) + 1):
            n, p = xp_make[0]((2, 3, 4)), xp_make[1]((2, 3, 4))
            n.flat[key] = v
            p.flat[key] = pygpu.asarray(v)
            assert_array_equal(p, n)
    with pytest.raises(ValueError):
        pygpu.zeros(4).flat[2] = [1, 2]


def test_flat_is_its_own_iterator():
    a = pygpu.arange(5)
    it = a.flat
    assert iter(it) is it
    assert int(next(it)) == 0 and int(it.__next__()) == 1 and it.index == 2
    assert [int(x) for x in it] == [2, 3, 4]
    assert_array_equal(it.copy(), np.arange(5))   # the whole array, wherever the iteration stands


def test_numpy_ufunc_at_into_a_numpy_array_with_pygpu_values():
    r = np.zeros(3)
    np.add.at(r, np.array([0, 0, 1]), pygpu.asarray([1.0, 2.0, 3.0], device="cpu"))
    assert r.tolist() == [3.0, 3.0, 0.0]


# ---------------------------------------------------------------- numpy.lib (found running xarray)

@pytest.mark.parametrize("make, window, axis", [
    (lambda a: a, (2, 3), None), (lambda a: a, 2, -1), (lambda a: a, (2, 1), (0, 0)),
    (lambda a: a[::-1, 1::2], 2, 0), (lambda a: a.T, (3,), 1), (lambda a: a[:0], 1, 1)])
def test_lib_stride_tricks_sliding_window_view(make, window, axis):
    n = make(np.arange(24.0).reshape(4, 6))
    p = make(pygpu.asarray(np.arange(24.0).reshape(4, 6)))
    ref = np.lib.stride_tricks.sliding_window_view(n, window, axis)
    for got in (pygpu.lib.stride_tricks.sliding_window_view(p, window, axis),
                np.lib.stride_tricks.sliding_window_view(p, window, axis)):   # NumPy's name dispatches to it
        assert isinstance(got, pygpu.ndarray) and not got.flags["WRITEABLE"]
        assert got.strides == ref.strides
        assert_array_equal(got, ref)
    w = pygpu.lib.stride_tricks.sliding_window_view(p, window, axis, writeable=True)
    if w.size:
        w[(0,) * w.ndim] = -1.0   # a view: written through
        assert pygpu.asnumpy(p)[(0,) * p.ndim] == -1.0


def test_lib_stride_tricks_errors_and_as_strided():
    p = pygpu.arange(6.0)
    for bad in (dict(window_shape=7), dict(window_shape=-1), dict(window_shape=(2, 2)),
                dict(window_shape=(2, 2), axis=0)):
        with pytest.raises(ValueError) as pe:
            pygpu.lib.stride_tricks.sliding_window_view(p, **bad)
        with pytest.raises(ValueError) as ne:
            np.lib.stride_tricks.sliding_window_view(np.arange(6.0), **bad)
        assert str(pe.value) == str(ne.value)
    v = pygpu.lib.stride_tricks.as_strided(p[1:], (2, 3), (16, 8))
    assert_array_equal(v, np.lib.stride_tricks.as_strided(np.arange(6.0)[1:], (2, 3), (16, 8)))
    with pytest.raises(ValueError):   # pygpu checks bounds: a view past the memory would fault a kernel
        pygpu.lib.stride_tricks.as_strided(p, (7,), (8,))
    assert pygpu.lib.scimath is pygpu.emath


def test_xarray_rolling_and_cumulative_keep_pygpu():
    xr = pytest.importorskip("xarray")
    data = np.array([[1.0, np.nan, 3.0, 4.0, 5.0], [2.0, 0.5, -1.0, 7.0, 8.0]])
    n, p = xr.DataArray(data, dims=("x", "y")), xr.DataArray(pygpu.asarray(data), dims=("x", "y"))
    for f in (lambda d: d.rolling(y=3).mean(), lambda d: d.rolling(y=2, center=True, min_periods=1).sum(),
              lambda d: d.rolling(y=3).max(), lambda d: d.rolling(y=2).construct("w"),
              lambda d: d.cumulative("y").sum()):
        got = f(p)
        assert isinstance(got.data, pygpu.ndarray)
        np.testing.assert_allclose(pygpu.asnumpy(got.data), f(n).data, rtol=1e-12)
