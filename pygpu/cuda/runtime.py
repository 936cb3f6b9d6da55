"""CuPy's ``cupy.cuda.runtime`` as far as user code calls it: how many CUDA devices there are, their
properties under CuPy's (the CUDA runtime's) names, free memory, versions, a synchronize.

``getDeviceCount()`` is 0 on a machine without a usable GPU (CuPy raises there; pygpu runs the
same program on its CPU device, so code that counts GPUs takes its no-GPU branch), and the calls
about one device raise CUDARuntimeError, as CuPy's, when there is no such CUDA device. The numbers
come from ``pygpu.Device(...).properties()`` (the driver's attributes)."""
from .. import _core

__all__ = ["CUDARuntimeError", "is_hip", "getDeviceCount", "getDevice", "getDeviceProperties", "memGetInfo", "get_version",
           "driverGetVersion", "runtimeGetVersion", "deviceSynchronize"]

is_hip = False


class CUDARuntimeError(RuntimeError):
    """An error of the CUDA runtime's kind (CuPy's cupy.cuda.runtime.CUDARuntimeError)."""


# cudaDeviceProp's field names (CuPy's dict keys) for pygpu's property names
_PROPERTY_NAMES = {
    "total_memory": "totalGlobalMem", "max_shared_memory_per_block": "sharedMemPerBlock",
    "max_registers_per_block": "regsPerBlock", "warp_size": "warpSize", "max_threads_per_block": "maxThreadsPerBlock",
    "clock_rate_khz": "clockRate", "total_constant_memory": "totalConstMem",
    "multiprocessors": "multiProcessorCount", "kernel_exec_timeout": "kernelExecTimeoutEnabled",
    "integrated": "integrated", "can_map_host_memory": "canMapHostMemory", "compute_mode": "computeMode",
    "async_engine_count": "asyncEngineCount", "unified_addressing": "unifiedAddressing",
    "memory_clock_rate_khz": "memoryClockRate", "memory_bus_width": "memoryBusWidth", "l2_cache_size": "l2CacheSize",
    "max_threads_per_multiprocessor": "maxThreadsPerMultiProcessor",
    "max_shared_memory_per_multiprocessor": "sharedMemPerMultiprocessor",
    "max_shared_memory_per_block_optin": "sharedMemPerBlockOptin", "managed_memory": "managedMemory",
    "concurrent_managed_access": "concurrentManagedAccess", "ecc_enabled": "ECCEnabled",
    "memory_pools_supported": "memoryPoolsSupported",
}


def _no_device(what):
    n, reason = _core._cuda_device_count()
    if n == 0:
        return CUDARuntimeError(f"cudaErrorNoDevice: no CUDA-capable device is detected ({reason})")
    return CUDARuntimeError(f"cudaErrorInvalidDevice: invalid device ordinal {what} (this machine has {n})")


def _cuda_device(device):
    if isinstance(device, bool) or not isinstance(device, int):
        raise TypeError(f"a CUDA device ordinal (int) is required, not {type(device).__name__}")
    if not 0 <= device < _core._cuda_device_count()[0]:
        raise _no_device(device)
    return _core.Device(f"cuda:{device}")


def getDeviceCount():
    """The number of CUDA devices pygpu can use: 0 without a GPU or a driver (CuPy raises there)."""
    return _core._cuda_device_count()[0]


def getDevice():
    """The ordinal of the current CUDA device: the device of a ``with pygpu.Device('cuda:N')`` block,
    else 0; CUDARuntimeError without a GPU."""
    if getDeviceCount() == 0:
        raise _no_device(0)
    current = _core.get_device()
    return current.index if current.kind == "cuda" else 0


def getDeviceProperties(device):
    """CUDA's cudaDeviceProp of a device as CuPy gives it: a dict with the runtime's field names
    (``name`` as bytes, ``major``/``minor``, ``totalGlobalMem``, ``multiProcessorCount``,
    ``maxThreadsDim``, ``maxGridSize``, ...)."""
    props = _cuda_device(device).properties()
    out = {"name": props["name"].encode(), "major": props["compute_capability"][0],
           "minor": props["compute_capability"][1], "pciBusID": props.get("pci_bus_id", "")}
    for key, name in _PROPERTY_NAMES.items():
        if key in props:
            out[name] = props[key]
    out["maxThreadsDim"] = tuple(props[f"max_block_dim_{c}"] for c in "xyz")
    out["maxGridSize"] = tuple(props[f"max_grid_dim_{c}"] for c in "xyz")
    return out


def memGetInfo():
    """(free, total) bytes of the current CUDA device's memory."""
    props = _cuda_device(getDevice()).properties()
    return props["free_memory"], props["total_memory"]


def driverGetVersion():
    """The CUDA version the driver supports (12040 for 12.4); 0 without a driver, as CUDA answers."""
    if getDeviceCount() == 0:
        return 0
    return _cuda_device(0).properties()["driver_version"]


def runtimeGetVersion():
    """The CUDA version pygpu's kernels were built with (13000 for 13.0; 0 for a build without
    CUDA kernels)."""
    return _core._build_info().get("cuda_build_version") or 0   # None: no CUDA kernels built


def deviceSynchronize():
    """Waits for the work queued on the current CUDA device."""
    _cuda_device(getDevice()).synchronize()


def get_version():
    """Numba's ``cuda.runtime.get_version()``: runtimeGetVersion as (major, minor)."""
    v = runtimeGetVersion()
    return v // 1000, v % 1000 // 10
