"""pygpu.cuda: Numba's names, on every device present (on a machine without a GPU they work on
the CPU device, so GPU notebooks run unchanged)."""
import numpy as np
import pytest

import pygpu
from pygpu import cuda
from conftest import assert_array_equal
from test_raw_kernels_cuda_mock import needs_kernels


def test_availability_is_consistent():
    n = cuda.device_count()
    assert isinstance(n, int) and n >= 0
    assert cuda.is_available() == (n > 0)
    reason = cuda.unavailable_reason()
    if n == 0:
        assert isinstance(reason, str) and reason
    else:
        assert reason == ""


def test_detect(capsys):
    found = cuda.detect()
    out = capsys.readouterr().out
    assert found == cuda.is_available()
    if found:
        assert "Found %d CUDA devices" % cuda.device_count() in out
    else:
        assert "CUDA is not available" in out and cuda.unavailable_reason() in out


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_to_device_round_trip(device, dtype):
    src = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    with device:
        d = cuda.to_device(src)
    assert d.device == device and d.dtype == dtype
    assert_array_equal(d.copy_to_host(), src)
    out = np.empty_like(src)
    assert d.copy_to_host(out) is out
    assert_array_equal(out, src)
    assert d.data_ptr != src.ctypes.data  # always a copy, as in Numba


def test_to_device_layouts(device):
    src = np.arange(24.0).reshape(2, 3, 4)
    with device:
        for view in [np.asfortranarray(src), src[:, ::-1], src.T]:
            assert_array_equal(cuda.to_device(view).copy_to_host(), view)


def test_to_device_stream(device):
    with device:
        s = pygpu.Stream()
        d = cuda.to_device(np.arange(5.0), stream=s)
        s.synchronize()
        assert_array_equal(d.copy_to_host(), np.arange(5.0))
        with pytest.raises(TypeError, match="stream"):
            cuda.to_device(np.arange(3), stream="default")


@pytest.mark.parametrize("order", ["C", "F"])
def test_device_array(device, order):
    with device:
        d = cuda.device_array((3, 4), dtype=np.float32, order=order)
    assert d.shape == (3, 4) and d.dtype == np.float32 and d.device == device
    assert d.flags[order + "_CONTIGUOUS"] and d.memory_kind == "device"
    with device:
        default = cuda.device_array(5)
    assert default.dtype == np.float64 and default.shape == (5,)


def test_device_array_strides(device):
    with device:
        f = cuda.device_array((3, 4), dtype=np.int16, strides=(2, 6))
        assert f.flags["F_CONTIGUOUS"] and f.strides == (2, 6)
        c = cuda.device_array((3, 4), dtype=np.int16, strides=(8, 2))
        assert c.flags["C_CONTIGUOUS"]
        with pytest.raises(ValueError, match="dense"):
            cuda.device_array((3, 4), dtype=np.int16, strides=(16, 2))
        with pytest.raises(ValueError, match="order"):
            cuda.device_array((3, 4), order="K")
        with pytest.raises(ValueError, match="negative"):
            cuda.device_array((3, -1))


def test_device_array_like(device):
    for src in [np.zeros((4, 5), np.int32), np.zeros((4, 5), np.float32, order="F")]:
        with device:
            d = cuda.device_array_like(src)
        assert d.shape == src.shape and d.dtype == src.dtype and d.device == device
        assert d.flags["F_CONTIGUOUS"] == src.flags.f_contiguous
        assert d.flags["C_CONTIGUOUS"] == src.flags.c_contiguous


def test_pinned_array(device):
    with device:
        h = cuda.pinned_array((2, 3), dtype=np.float32)
    assert type(h) is np.ndarray and h.shape == (2, 3) and h.dtype == np.float32
    assert isinstance(h.base, pygpu.ndarray) and h.base.memory_kind == "pinned"
    h[...] = np.arange(6).reshape(2, 3)
    with device:
        d = cuda.to_device(h)
    assert_array_equal(d.copy_to_host(), np.arange(6, dtype=np.float32).reshape(2, 3))


@pytest.mark.parametrize("fn,kind", [(cuda.mapped_array, "mapped"), (cuda.managed_array, "managed")])
def test_mapped_and_managed(device, fn, kind):
    with device:
        a = fn((4,), dtype=np.int32)
    assert isinstance(a, pygpu.ndarray) and a.memory_kind == kind and a.device == device
    a.fill(3)
    host = np.asarray(a)  # host-accessible memory: zero-copy
    assert host.ctypes.data == a.data_ptr
    assert host.tolist() == [3, 3, 3, 3]


def test_synchronize_and_streams(device):
    with device:
        cuda.synchronize()
        s = cuda.stream()
        assert isinstance(s, pygpu.Stream)
        assert cuda.default_stream() == 0
        e = cuda.event()
        e.record()
        e.synchronize()
        assert cuda.get_current_device() == device


def test_as_cuda_array(device):
    with device:
        d = cuda.to_device(np.arange(3))
    assert cuda.as_cuda_array(d) is d
    assert cuda.is_cuda_array(d) == (device.kind == "cuda")
    assert not cuda.is_cuda_array(np.arange(3))


def test_cupy_runtime_names_in_this_process():
    """cupy.cuda.runtime as user code calls it: a count of 0 without a GPU (CuPy raises; pygpu's
    program goes on on the CPU), CUDARuntimeError for one device that is not there."""
    rt = cuda.runtime
    n = rt.getDeviceCount()
    assert n == cuda.device_count() and rt.is_hip is False
    assert rt.runtimeGetVersion() == (pygpu._core._build_info().get("cuda_build_version") or 0)
    assert rt.get_version() == (rt.runtimeGetVersion() // 1000, rt.runtimeGetVersion() % 1000 // 10)
    with pytest.raises(rt.CUDARuntimeError, match="cudaErrorInvalidDevice|cudaErrorNoDevice"):
        rt.getDeviceProperties(n)
    with pytest.raises(TypeError):
        rt.getDeviceProperties("0")
    free, total = pygpu.Device("cpu").mem_info   # CuPy's Device.mem_info, on every device
    assert 0 < free <= total == pygpu.Device("cpu").properties()["total_memory"]
    if n == 0:
        assert rt.driverGetVersion() == 0
        for call in (rt.getDevice, rt.memGetInfo, rt.deviceSynchronize):
            with pytest.raises(rt.CUDARuntimeError, match="cudaErrorNoDevice"):
                call()


@needs_kernels   # the fake driver's device exists only where the build has kernels
def test_cupy_runtime_names_on_a_gpu(mock_driver):
    """The same on the fake driver's GPU: CuPy's cudaDeviceProp keys from the driver's attributes."""
    from conftest import run_mock
    got = run_mock(mock_driver, """
rt = pygpu.cuda.runtime
p = rt.getDeviceProperties(0)
free, total = rt.memGetInfo()
rt.deviceSynchronize()
with pygpu.Device("cpu"):
    on_cpu = rt.getDevice()
print(json.dumps([rt.getDeviceCount(), rt.getDevice(), on_cpu, type(p["name"]).__name__, p["major"], p["minor"],
                  p["totalGlobalMem"] == total, 0 <= free <= total, p["maxThreadsDim"], p["maxGridSize"],
                  p["warpSize"], p["multiProcessorCount"] > 0, rt.driverGetVersion() > 0,
                  pygpu.Device("cuda:0").properties()["compute_capability"], pygpu.Device(0).mem_info[1] == total]))
""")
    count, current, on_cpu, name_type, major, minor, same_total, free_ok, threads, grid, warp, sms, driver, cc, mem = got
    assert count >= 1 and current == 0 and on_cpu == 0 and name_type == "bytes" and mem
    assert [major, minor] == cc and same_total and free_ok and driver
    assert len(threads) == 3 and len(grid) == 3 and warp == 32 and sms


def test_select_device_use_gpus_and_close_without_a_gpu():
    """Numba's device calls in a script made for a GPU run on a machine without one: select_device(0)
    makes the CPU current, cuda.gpus is empty, close() gives cached memory back."""
    if cuda.is_available():
        pytest.skip("this process has a GPU: test_select_device_use_gpus_and_close covers it")
    import threading
    assert cuda.select_device(0) == pygpu.Device("cpu") == cuda.get_current_device()
    assert len(cuda.gpus) == 0 and list(cuda.gpus) == [] and cuda.list_devices() == [] and cuda.gpus.current == "cpu"
    pool = pygpu.get_memory_pool(pygpu.Device("cpu"))
    a = pygpu.ones(1 << 20)
    del a
    cuda.close()
    assert pool.used_bytes() == pool.total_bytes()
    seen = []
    t = threading.Thread(target=lambda: seen.append(str(cuda.get_current_device())))
    t.start()
    t.join()
    assert seen == ["cpu"]


@needs_kernels
def test_select_device_use_gpus_and_close(mock_driver):
    """CuPy's Device.use() and Numba's select_device: the thread's current device from then on,
    or until the end of the `with` block it is called in (then the device before the block);
    other threads keep theirs; cuda.gpus[i] as a `with` block; close() empties the pool's cache."""
    from conftest import run_mock
    got = run_mock(mock_driver, """
import threading
from pygpu import cuda
seen = [str(cuda.get_current_device())]
pygpu.Device("cpu").use()
seen.append(str(pygpu.zeros(1).device))
with pygpu.Device("cuda:0"):
    seen.append(str(cuda.get_current_device()))
    pygpu.Device("cpu").use()
    seen.append(str(cuda.get_current_device()))
seen.append(str(cuda.get_current_device()))
other = []
t = threading.Thread(target=lambda: other.append(str(cuda.get_current_device())))
t.start(); t.join()
seen.append(str(cuda.select_device(0)))
seen.append(str(cuda.get_current_device()))
with cuda.gpus[0]:
    seen.append(str(pygpu.zeros(1).device))
pool = pygpu.get_memory_pool(pygpu.Device("cuda:0"))
a = pygpu.ones(1 << 20)
del a
cached = pool.total_bytes() - pool.used_bytes()
cuda.close()
print(json.dumps([seen, other, len(cuda.gpus), [str(d) for d in cuda.list_devices()], cached > 0,
                  pool.total_bytes() == pool.used_bytes()]))
""")
    seen, other, n, listed, cached, emptied = got
    assert seen == ["cuda:0", "cpu", "cuda:0", "cpu", "cpu", "cuda:0", "cuda:0", "cuda:0"]
    assert other == ["cuda:0"] and n >= 1 and listed[0] == "cuda:0" and cached and emptied
