"""The CUDA side of user kernels against the fake driver (tests/mock_cuda): NVRTC compiles for real
(for the fake sm_90 device), the driver parses the cubin or PTX it is given for the kernels'
names, parameters and shared memory, and records what a launch hands it. Its kernels do nothing,
so what is checked is the host side: the parameter bytes, the launch configuration and its
limits, the opt-in to large shared memory, the copies of NumPy arguments, the cache, the
parameter sizes with and without cuFuncGetParamInfo, and a kernel fault at the next
synchronisation."""
import struct
import textwrap

import numpy as np
import pytest

import pygpu
from pygpu._core import _build_info

from conftest import run_mock

needs_kernels = pytest.mark.skipif(_build_info()["fatbin_bytes"] == 0, reason="this build has no CUDA kernels")


def _nvrtc_missing():
    from pygpu._jit import nvrtc
    try:
        nvrtc.load()
    except RuntimeError as e:
        return str(e)
    return None


needs_nvrtc = pytest.mark.skipif(_nvrtc_missing() is not None, reason="NVRTC is not installed")
pytestmark = [needs_kernels, needs_nvrtc]

PRELUDE = r'''
SRC = r"""
extern "C" __global__ void mix(const float* x, double a, int n, unsigned char c, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] * a + c;
}
extern "C" __global__ void tiled(float* x) { __shared__ float t[1024]; t[threadIdx.x] = 1; x[0] = t[0]; }
template <typename T> __global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
__device__ int flag[4];
"""
def params():
    s = stats()
    return bytes.fromhex(s["last_params"]), s["last_nparams"]
'''


def mock(mock_driver, code, tmp_path, **env):
    env.setdefault("PYGPU_CACHE_DIR", str(tmp_path))
    env.setdefault("MOCK_CUDA_DELAY_US", 0)
    return run_mock(mock_driver, PRELUDE + textwrap.dedent(code), **env)


def test_parameters_reach_the_driver_as_declared(mock_driver, tmp_path):
    out = mock(mock_driver, """
        k = pygpu.RawKernel(SRC, "mix")
        x = pygpu.zeros(100, dtype=np.float32)
        y = pygpu.empty(100, dtype=np.float32)
        k((2, 3), (32, 2, 1), (x, 2.5, 100, 7, y))
        raw, n = params()
        s = stats()
        print(json.dumps({"raw": raw[:40].hex(), "n": n, "x": x.data_ptr, "y": y.data_ptr, "kernel": s["last_kernel"],
                          "grid": [s["grid"]] + s["grid_yz"], "block": [s["block"]] + s["block_yz"],
                          "params": k.kernel.params}))
    """, tmp_path)
    assert out["kernel"] == "mix" and out["n"] == 5
    assert out["grid"] == [2, 3, 1] and out["block"] == [32, 2, 1]
    raw = bytes.fromhex(out["raw"])
    # x at 0, a at 8, n at 16, c at 20, out at 24: the cubin's own layout
    assert struct.unpack_from("<Q", raw, 0)[0] == out["x"]
    assert struct.unpack_from("<d", raw, 8)[0] == 2.5
    assert struct.unpack_from("<i", raw, 16)[0] == 100
    assert raw[20] == 7
    assert struct.unpack_from("<Q", raw, 24)[0] == out["y"]
    # sizes from cuFuncGetParamInfo, kinds from the source
    assert out["params"] == [[1, 10, 8], [5, 11, 8], [3, 3, 4], [4, 5, 1], [1, 10, 8]]


def test_parameter_sizes_without_cufuncgetparaminfo(mock_driver, tmp_path):
    out = mock(mock_driver, """
        res = {}
        k = pygpu.RawKernel(SRC, "mix")
        res["params"] = k.kernel.params
        x = pygpu.zeros(4, dtype=np.float32)
        k(1, 4, (x, 1.0, 4, 1, x))
        res["n"] = params()[1]
        # a kernel whose declaration cannot be read: arguments go by their own sizes
        m = pygpu.RawModule(code='#define DECL(n) extern "C" __global__ void n(float* x, int v)\\nDECL(macro) { }')
        g = m.get_function("macro")
        res["macro_params"] = g.kernel.params
        g(1, 1, (x, np.int32(3)))
        raw, n = params()
        res["macro_raw"] = raw[:12].hex()
        res["x"] = x.data_ptr
        print(json.dumps(res))
    """, tmp_path, MOCK_CUDA_NO_PARAM_INFO=1)
    assert out["params"] == [[1, 10, 8], [5, 11, 8], [3, 3, 4], [4, 5, 1], [1, 10, 8]]
    assert out["n"] == 5
    assert out["macro_params"] is None
    raw = bytes.fromhex(out["macro_raw"])
    assert struct.unpack_from("<Q", raw, 0)[0] == out["x"] and struct.unpack_from("<i", raw, 8)[0] == 3


def test_launch_limits_are_checked_before_the_launch(mock_driver, tmp_path):
    out = mock(mock_driver, """
        res = {}
        k = pygpu.RawKernel(SRC, "mix")
        x = pygpu.zeros(4, dtype=np.float32)
        args = (x, 1.0, 4, 1, x)
        before = stats()["launches"]
        res["threads"] = error(lambda: k(1, 512, args))
        res["shared"] = error(lambda: k(1, 32, args, shared_mem=240000))
        res["grid"] = error(lambda: k((1, 1, 70000), 1, args))
        res["refused_launches"] = stats()["launches"] - before
        # more than the default 48 KiB: the kernel is opted in first, then launched
        k(1, 32, args, shared_mem=100000)
        res["big_shared"] = stats()["shared_mem"]
        res["opted"] = k.kernel.attributes["max_dynamic_shared_size_bytes"]
        t = pygpu.RawKernel(SRC, "tiled")
        res["static"] = t.attributes["shared_size_bytes"]
        res["static_plus"] = error(lambda: t(1, 1, (x,), shared_mem=232448 - res["static"] + 1))
        print(json.dumps(res))
    """, tmp_path, MOCK_CUDA_FUNC_MAX_THREADS=256)
    assert out["threads"]["type"] == "ValueError"
    assert "a block of 512 threads (512, 1, 1) is more than the 256 threads per block it can run with" in \
        out["threads"]["msg"]
    assert out["shared"]["type"] == "ValueError" and "240000 bytes of shared memory" in out["shared"]["msg"]
    assert out["grid"]["type"] == "ValueError" and "grid dimension z is 70000" in out["grid"]["msg"]
    assert out["refused_launches"] == 0
    assert out["big_shared"] == 100000 and out["opted"] == 100000
    assert out["static"] >= 4096  # the array, and what the architecture reserves
    assert "(%d static + %d dynamic)" % (out["static"], 232448 - out["static"] + 1) in out["static_plus"]["msg"]


def test_cooperative_launches_fit_the_device(mock_driver, tmp_path):
    """enable_cooperative_groups=True launches with cuLaunchCooperativeKernel, after checking that
    every block is resident at once (the fake device: 4 multiprocessors of 2048 threads); a
    larger grid is refused before anything runs (issue 16 item 7: the option was ignored)."""
    out = mock(mock_driver, """
        res = {}
        k = pygpu.RawKernel(SRC, "mix", enable_cooperative_groups=True)
        x = pygpu.zeros(4, dtype=np.float32)
        args = (x, 1.0, 4, 1, x)
        before = stats()["launches"]
        k(32, 256, args)                          # 8 blocks of 256 per multiprocessor x 4
        res["launched"] = stats()["launches"] - before
        res["cooperative"] = k.kernel.cooperative
        res["too_many"] = error(lambda: k(33, 256, args))
        res["after_refusal"] = stats()["launches"] - before
        res["plain"] = pygpu.RawKernel(SRC, "mix").kernel.cooperative
        m = pygpu.RawModule(code=SRC, enable_cooperative_groups=True)
        res["module"] = m.get_function("mix").kernel.cooperative
        print(json.dumps(res))
    """, tmp_path)
    assert out["launched"] == 1 and out["cooperative"] is True and out["module"] is True
    assert out["too_many"]["type"] == "ValueError"
    assert "cooperative launch of 33 blocks: at most 32 blocks of 256 threads" in out["too_many"]["msg"]
    assert "(8 per multiprocessor x 4 multiprocessors)" in out["too_many"]["msg"]
    assert out["after_refusal"] == 1 and out["plain"] is False


def test_templates_numpy_arguments_and_globals(mock_driver, tmp_path):
    out = mock(mock_driver, """
        res = {}
        m = pygpu.RawModule(code=SRC, name_expressions=["fill<double>"])
        f = m.get_function("fill<double>")
        x = np.arange(32.0)
        before = stats()
        f(1, 32, (x, 1.5))
        after = stats()
        res["kernel"] = after["last_kernel"]
        res["copies"] = after["copies"] - before["copies"]
        res["unchanged"] = x.tolist() == list(np.arange(32.0))  # the fake kernel writes nothing
        raw, n = params()
        res["v"] = struct.unpack_from("<d", raw, 8)[0]
        g = m.get_global("flag", np.int32)
        res["global"] = [g.shape, str(g.device), g.get().tolist()]
        print(json.dumps(res))
    """.replace("res = {}", "import struct; res = {}"), tmp_path)
    assert out["kernel"] == "_Z4fillIdEvPT_S0_"
    assert out["copies"] == 2 and out["unchanged"]
    assert out["v"] == 1.5
    assert out["global"] == [[4], "cuda:0", [0, 0, 0, 0]]


def test_compiled_images_load_on_the_gpu(mock_driver, tmp_path):
    out = mock(mock_driver, """
        from pygpu import _core
        from pygpu._jit import nvrtc
        nvrtc.load()
        res = {}
        for kind, arch in (("cubin", "sm_90"), ("ptx", "compute_90")):
            image, got, log, _ = _core._nvrtc_compile(SRC, "k.cu", ["-arch=" + arch], [])
            path = "%s/k.%s" % (TMP, kind)
            open(path, "wb").write(image)
            m = pygpu.RawModule(path=path)
            k = m.get_function("mix")
            x = pygpu.zeros(4, dtype=np.float32)
            k(1, 4, (x, 1.0, 4, 1, x))
            res[kind] = [got, stats()["last_kernel"], k.kernel.params]
        with pygpu.Device("cpu"):
            res["cpu"] = error(lambda: pygpu.RawModule(path=path).get_function("mix"))
        print(json.dumps(res))
    """.replace("TMP", repr(str(tmp_path))), tmp_path)
    assert out["cubin"][:2] == ["cubin", "mix"] and out["ptx"][:2] == ["ptx", "mix"]
    # no source: sizes from the driver, kinds unknown
    assert out["cubin"][2] == out["ptx"][2] == [[-1, -1, 8], [-1, -1, 8], [-1, -1, 4], [-1, -1, 1], [-1, -1, 8]]
    assert out["cpu"]["type"] == "ValueError" and "runs only on a CUDA device" in out["cpu"]["msg"]


def test_disk_cache_serves_a_new_process(mock_driver, tmp_path):
    code = """
        from pygpu._jit import nvrtc
        k = pygpu.RawKernel(SRC, "mix")
        x = pygpu.zeros(4, dtype=np.float32)
        k(1, 4, (x, 1.0, 4, 1, x))
        print(json.dumps({"compiles": nvrtc.compiles}))
    """
    assert mock(mock_driver, code, tmp_path) == {"compiles": 1}
    assert mock(mock_driver, code, tmp_path) == {"compiles": 0}
    assert mock(mock_driver, code.replace('"mix"', '"mix", options=("-DX=1",)'), tmp_path) == {"compiles": 1}


def test_a_kernel_fault_raises_at_the_next_synchronisation(mock_driver, tmp_path):
    out = mock(mock_driver, """
        k = pygpu.RawKernel(SRC, "mix")
        x = pygpu.empty(4, dtype=np.float32)  # no fill kernel: the user kernel is the first launch
        res = {"launch": error(lambda: k(1, 4, (x, 1.0, 4, 1, x)))}
        res["sync"] = error(lambda: pygpu.synchronize())
        res["later"] = error(lambda: k(1, 4, (x, 1.0, 4, 1, x)))
        res["numpy"] = error(lambda: k(1, 4, (np.zeros(4, np.float32), 1.0, 4, 1, x)))
        res["cpu"] = float(pygpu.ones(2, device="cpu").get().sum())
        print(json.dumps(res))
    """, tmp_path, MOCK_CUDA_FAULT_AFTER=1)
    assert out["launch"] is None
    assert out["sync"]["type"] == "CUDAError" and out["sync"]["name"] == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert "unusable" in out["sync"]["msg"]
    assert out["later"]["type"] == "CUDAError" and "unusable" in out["later"]["msg"]
    assert out["numpy"]["type"] == "CUDAError"
    assert out["cpu"] == 2.0


def test_a_fault_in_a_launch_with_numpy_arguments_shows_at_the_copy_back(mock_driver, tmp_path):
    out = mock(mock_driver, """
        k = pygpu.RawKernel(SRC, "mix")
        y = np.zeros(4, np.float32)
        res = {"launch": error(lambda: k(1, 4, (y, 1.0, 4, 1, y)))}
        print(json.dumps(res))
    """, tmp_path, MOCK_CUDA_FAULT_AFTER=1)
    assert out["launch"]["type"] == "CUDAError" and out["launch"]["name"] == "CUDA_ERROR_ILLEGAL_ADDRESS"
