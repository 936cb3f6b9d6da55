"""pygpu.cuda: Numba's names, on every device present (on a machine without a GPU they work on
the CPU device, so GPU notebooks run unchanged)."""
import numpy as np
import pytest

import pygpu
from pygpu import cuda
from conftest import assert_array_equal


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
    assert rt.runtimeGetVersion() == pygpu._core._build_info().get("cuda_build_version", 0)
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
