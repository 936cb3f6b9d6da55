"""CuPy-internal module names CuPy's tests import (merged from the three hunts of 2026-11-28).

Each is a name mapping only: CuPy-specific machinery (cuSOLVER availability, CUB/cuTENSOR
accelerators, cuFFT plan config, allocators) is either reported as absent or, where a test
must call into it, raises NotImplementedError so the test fails visibly as class (b).
"""
import contextlib
import contextvars
import sys
import types
import warnings

import numpy
import pygpu
import pygpu.fft as _pgfft
import pygpu.random as _pgrandom

_cupy = sys.modules["cupy"]


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, m)
    return m


def _cupy_only(name):
    def f(*args, **kwargs):
        raise NotImplementedError(f"{name} is CuPy-internal (not in pygpu/NumPy)")
    f.__name__ = name.rpartition(".")[2]
    return f


# cupy._core becomes package-like: _accelerator (no CUB/cuTENSOR routines), _cub_reduction
_core = sys.modules["cupy._core"]
_core.__path__ = []
_module("cupy._core._accelerator", ACCELERATOR_CUB=1, ACCELERATOR_CUTENSOR=2,
        ACCELERATOR_CUTENSORNET=3,
        get_routine_accelerators=lambda: [], set_routine_accelerators=lambda accs: None,
        get_reduction_accelerators=lambda: [], set_reduction_accelerators=lambda accs: None)
_module("cupy._core._cub_reduction", _CUB_REDUCE_SIZE_THRESHOLD=2 ** 31,
        _SimpleCubReductionKernel_get_cached_function=_cupy_only(
            "cupy._core._cub_reduction._SimpleCubReductionKernel_get_cached_function"))
_core.get_routine_accelerators = sys.modules["cupy._core._accelerator"].get_routine_accelerators
_core.set_routine_accelerators = sys.modules["cupy._core._accelerator"].set_routine_accelerators
_core.get_reduction_accelerators = sys.modules["cupy._core._accelerator"].get_reduction_accelerators
_core.set_reduction_accelerators = sys.modules["cupy._core._accelerator"].set_reduction_accelerators
# cuBLAS compute types (a CuPy-only knob)
_module("cupy._core._routines_linalg", COMPUTE_TYPE_DEFAULT=0, COMPUTE_TYPE_PEDANTIC=1, COMPUTE_TYPE_TF32=2,
        COMPUTE_TYPE_FP16=3, COMPUTE_TYPE_FP32=4, COMPUTE_TYPE_FP64=5)
_compute_types = {}
_core.get_compute_type = lambda dtype: _compute_types.get(numpy.dtype(dtype), 0)
_core.set_compute_type = lambda dtype, t: _compute_types.__setitem__(numpy.dtype(dtype), t)
_core.ElementwiseKernel = pygpu.ElementwiseKernel
_core.ReductionKernel = pygpu.ReductionKernel
_core.create_reduction_func = lambda *a, **k: _cupy_only("a cupy._core.create_reduction_func kernel")
_module("cupy._core.core", ndarray=pygpu.ndarray)
_module("cupy._core.flags")
_module("cupy._core._scalar", get_typename=_cupy_only("cupy._core._scalar.get_typename"))
_module("cupy._core._gufuncs", _GUFunc=_cupy_only("cupy._core._gufuncs._GUFunc"))
_module("cupy._core._routines_math", _scan_for_test=_cupy_only("cupy._core._routines_math._scan_for_test"))
_module("cupy._indexing", __path__=[])
_module("cupy._indexing.generate")


class PerformanceWarning(RuntimeWarning):
    pass


_module("cupy._util", PerformanceWarning=PerformanceWarning, CUDA_ARRAY_INTERFACE_EXPORT_VERSION=3,
        ENABLE_SLICE_COPY=True, clear_memo=lambda: None)
_module("cupy._environment", get_cub_path=lambda: None, get_hipcc_path=lambda: None)


class _NoPinnedPool:   # pygpu has no pinned host memory pool: the tests only free it
    def free_all_blocks(self):
        pass

    def n_free_blocks(self):
        return 0


_pinned_pool = _NoPinnedPool()
_cupy.get_default_pinned_memory_pool = lambda: _pinned_pool
import pygpu.lib  # noqa: E402
import pygpu.lib.stride_tricks  # noqa: E402,F401
sys.modules["cupy.lib"] = pygpu.lib
sys.modules["cupy.lib.stride_tricks"] = pygpu.lib.stride_tricks

# cupy.cuda: pygpu.cuda's names plus the CuPy runtime/driver queries the tests read
_cuda = types.ModuleType("cupy.cuda")
_cuda.__path__ = []
_cuda.__getattr__ = lambda name: getattr(pygpu.cuda, name)
sys.modules["cupy.cuda"] = _cuda
_cupy.cuda = _cuda


class CUDARuntimeError(RuntimeError):
    pass


_runtime = _module("cupy.cuda.runtime", is_hip=False, CUDARuntimeError=CUDARuntimeError,
                   runtimeGetVersion=lambda: 12080, driverGetVersion=lambda: 12080,
                   getDeviceCount=lambda: 1, getDevice=lambda: 0, streamLegacy=1, streamPerThread=2,
                   cudaDevAttrCooperativeLaunch=95, deviceGetAttribute=lambda attr, dev: 0)
_driver = _module("cupy.cuda.driver", get_build_version=lambda: 12080)
_module("cupy.cuda.device", Device=pygpu.cuda.Device, get_compute_capability=lambda: "90")
_module("cupy.cuda.memory", alloc=_cupy_only("cupy.cuda.memory.alloc"))
_module("cupy.cuda.cub", available=False)
_module("cupy.cuda.cutensor", available=False)
_module("cupy.cuda.compiler", _run_cc=lambda cmd, cwd, backend: "release 12.8", _get_arch=lambda: "90")


class _CacheBackendStub:
    def __init__(self, *a, **k):
        raise NotImplementedError("CuPy's kernel cache backend is CuPy-internal")


_module("cupy.cuda._compiler_cache", DiskKernelCacheBackend=_CacheBackendStub)
_module("cupy.cuda.texture", ChannelFormatDescriptor=None, CUDAarray=None, ResourceDescriptor=None,
        TextureDescriptor=None, TextureObject=None, TextureReference=None, SurfaceObject=None)
_cuda.get_local_runtime_version = lambda: 12080
_cuda.get_nvcc_path = lambda: "nvcc"   # test_raw's module-level skip mark asks nvcc's version

# cupy_backends: the same runtime/driver under CuPy's backend package names
_backends = sys.modules.get("cupy_backends") or types.ModuleType("cupy_backends")
_backends.__path__ = []
sys.modules["cupy_backends"] = _backends
_module("cupy_backends.cuda", __path__=[])
_module("cupy_backends.cuda.stream")
_module("cupy_backends.cuda.api", __path__=[], runtime=_runtime, driver=_driver)
sys.modules["cupy_backends.cuda.api.runtime"] = _runtime
sys.modules["cupy_backends.cuda.api.driver"] = _driver
_module("cupy_backends.cuda.libs", __path__=[])
_module("cupy_backends.cuda.libs.nvrtc")
_module("cupy.cuda.curand")
_module("cupy.cuda.cufft", get_current_plan=lambda: None,
        Plan1d=_cupy_only("cupy.cuda.cufft.Plan1d"), PlanNd=_cupy_only("cupy.cuda.cufft.PlanNd"))

# cupyx: errstate(linalg=...) chooses whether CuPy raises LinAlgError; pygpu always raises
# (docs/guide/linalg_fft_random.md), which is NumPy's behaviour and CuPy's linalg='raise'.
_cupyx = sys.modules.get("cupyx") or __import__("cupyx")


@contextlib.contextmanager
def _cupyx_errstate(*, linalg=None):
    yield


_cupyx.errstate = _cupyx_errstate
_module("cupyx.cusolver", check_availability=lambda name: True)
import cupyx.scipy  # noqa: E402
_module("cupyx.scipy.fftpack", get_fft_plan=_cupy_only("cupyx.scipy.fftpack.get_fft_plan"))
_module("cupy.cublas", get_batched_gesv_limit=lambda: 256,
        set_batched_gesv_limit=lambda limit: None)

# cupy.linalg._util (CuPy's helpers)
import pygpu.linalg  # noqa: E402
_linalg = types.ModuleType("cupy.linalg")
_linalg.__path__ = []
_linalg.__getattr__ = lambda name: getattr(pygpu.linalg, name)
sys.modules["cupy.linalg"] = _linalg
_cupy.linalg = _linalg


def _stacked_identity(batch_shape, n, dtype):
    # a test helper (identity matrices stacked over batch_shape), as CuPy's
    return pygpu.ascontiguousarray(
        pygpu.broadcast_to(pygpu.eye(n, dtype=dtype), tuple(batch_shape) + (n, n)))


_module("cupy.linalg._util", stacked_identity=_stacked_identity)

# cupy.fft: pygpu.fft (NumPy's numpy.fft) plus CuPy's plan configuration (CuPy-only)
_fft = types.ModuleType("cupy.fft")
_fft.__path__ = []
_fft.__getattr__ = lambda name: getattr(_pgfft, name)
for _n in _pgfft.__all__:
    setattr(_fft, _n, getattr(_pgfft, _n))
sys.modules["cupy.fft"] = _fft
_cupy.fft = _fft


class _FFTConfig(types.ModuleType):
    _nd = True

    @property
    def enable_nd_planning(self):
        warnings.warn("enable_nd_planning is deprecated", DeprecationWarning)
        return self._nd

    @enable_nd_planning.setter
    def enable_nd_planning(self, value):
        warnings.warn("enable_nd_planning is deprecated", DeprecationWarning)
        type(self)._nd = value


_config = _FFTConfig("cupy.fft.config")
_config.__dict__.update(
    _use_multi_gpus=contextvars.ContextVar("_use_multi_gpus", default=False),
    _devices=contextvars.ContextVar("_devices", default=None),
    use_multi_gpus=False,
    set_cufft_gpus=_cupy_only("cupy.fft.config.set_cufft_gpus"),
    clear_plan_cache=lambda: None,
    get_plan_cache=_cupy_only("cupy.fft.config.get_plan_cache"),
    show_plan_cache_info=_cupy_only("cupy.fft.config.show_plan_cache_info"),
    set_cufft_callbacks=_cupy_only("cupy.fft.config.set_cufft_callbacks"),
)
sys.modules["cupy.fft.config"] = _config
_fft.config = _config
_module("cupy.fft._fft",
        _default_fft_func=_cupy_only("cupy.fft._fft._default_fft_func"),
        _fft=_cupy_only("cupy.fft._fft._fft"), _fftn=_cupy_only("cupy.fft._fft._fftn"),
        _size_last_transform_axis=_cupy_only("cupy.fft._fft._size_last_transform_axis"))
_module("cupy.fft._cache", PlanCache=_cupy_only("cupy.fft._cache.PlanCache"))

# cupy.random's CuPy-private helpers: _generator's state table and pygpu's RandomState
_gen = sys.modules["cupy.random._generator"]
_gen.RandomState = _pgrandom.RandomState
_gen.get_random_state = _pgrandom.get_random_state
_gen.set_random_state = _pgrandom.set_random_state
_gen.reset_states = _cupy.random.reset_states
_cupy.random.__path__ = []
# cupy.random._distributions holds CuPy's module-level distribution functions (cupy.random.X)
_dist = _module("cupy.random._distributions")
_dist.__getattr__ = lambda name: getattr(_pgrandom, name)

# cupy.random._bit_generator: CuPy's Philox4x3210 is Philox4x32-10, pygpu's Philox4x32
_module("cupy.random._bit_generator", Philox4x3210=_pgrandom.Philox4x32)
