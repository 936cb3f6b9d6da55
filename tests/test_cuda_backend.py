"""The CUDA backend, in three parts:

1. What this build and this machine report (runs everywhere): availability and its reason, the
   error for Device('cuda:0') when there is no GPU, the build facts.
2. The host side of the backend against a mock driver (tests/mock_cuda/, built by conftest's
   mock_driver fixture and put on LD_LIBRARY_PATH of a child interpreter): the loader, contexts,
   the fatbin handed to the driver, staged pageable copies, the out-of-memory path, sticky errors,
   launch configuration, streams and events, properties. The mock runs no kernels, so only results
   that need no kernel (plain transfers) are compared.
3. Real GPU tests (the cuda_device fixture; skipped with the reason where no GPU is usable).
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import pygpu
from pygpu import _core

from conftest import child_pythonpath, run_mock

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = _core._build_info()
HAS_KERNELS = BUILD["fatbin_bytes"] > 0


# ---------------------------------------------------------------- 1. this build, this machine

def test_availability_is_consistent():
    count, reason = _core._cuda_device_count()
    assert pygpu.cuda.is_available() == (count > 0)
    if count == 0:
        assert isinstance(reason, str) and reason
    else:
        assert reason == ""


def test_reason_names_the_cause():
    count, reason = _core._cuda_device_count()
    if count:
        pytest.skip("a GPU is usable here")
    if _core._cuda_driver_version() is None:
        assert reason == "no CUDA driver: libcuda.so.1 not found"
    elif not HAS_KERNELS:
        assert reason == "this build has no CUDA kernels: nvcc was not found when it was built"


@pytest.mark.parametrize("spec", ["cuda:0", "cuda", 0])
def test_device_without_gpu_raises_with_reason(spec):
    count, reason = _core._cuda_device_count()
    if count:
        pytest.skip("a GPU is usable here")
    with pytest.raises(pygpu.CUDAError, match="CUDA is not available") as info:
        pygpu.Device(spec)
    assert reason in str(info.value)
    with pytest.raises(pygpu.CUDAError, match="CUDA is not available"):
        _core._cuda_device_properties(0)


def test_default_device_without_gpu_is_cpu():
    if pygpu.cuda.is_available() or os.environ.get("PYGPU_DEVICE"):
        pytest.skip("a GPU is usable here, or PYGPU_DEVICE is set")
    assert str(pygpu.default_device()) == "cpu"


def test_build_info():
    info = _core._build_info()
    assert set(info) == {"fatbin_archs", "fatbin_bytes", "cuda_build_version", "cuda_toolchain", "cpu_threads"}
    assert info["cpu_threads"] >= 1
    archs = info["fatbin_archs"]
    assert isinstance(archs, tuple)
    if HAS_KERNELS:
        assert info["cuda_build_version"] >= 11000
        assert info["cuda_toolchain"] in ("nvcc", "nvrtc")
        sass = [a for a in archs if a.startswith("sm_")]
        ptx = [a for a in archs if a.startswith("compute_")]
        assert sass and len(ptx) == 1
        # PTX of the newest architecture, for GPUs newer than the SASS list
        assert int(ptx[0].split("_")[1]) == max(int(a.split("_")[1]) for a in sass)
        if not os.environ.get("PYGPU_CUDA_ARCHS"):
            for a in ("sm_75", "sm_80", "sm_90"):  # sm_86/sm_89 run the sm_80 SASS
                assert a in archs
    else:
        assert archs == () and info["cuda_build_version"] is None and info["cuda_toolchain"] is None


def test_driver_version_type():
    v = _core._cuda_driver_version()
    assert v is None or (isinstance(v, int) and v > 0)


def test_device_properties_bad_argument():
    with pytest.raises(TypeError):
        _core._cuda_device_properties("0")


def test_build_script_arch_parsing():
    sys.path.insert(0, os.path.dirname(HERE))
    try:
        import build_cuda
    finally:
        sys.path.pop(0)
    assert build_cuda.parse_archs("80;90") == [80, 90]
    assert build_cuda.parse_archs("sm_90, 75") == [75, 90]
    with pytest.raises(ValueError):
        build_cuda.parse_archs("ampere")
    with pytest.raises(ValueError):
        build_cuda.parse_archs(" ; ")
    cmd = build_cuda.nvcc_command("nvcc", [80, 90], "elementwise.cu", "out.fatbin")
    assert "arch=compute_90,code=compute_90" in cmd and "arch=compute_80,code=sm_80" in cmd
    assert "arch=compute_80,code=compute_80" not in cmd
    assert cmd[-3:] == ["-o", "out.fatbin", "elementwise.cu"]


@pytest.mark.skipif(not HAS_KERNELS, reason="this build has no CUDA kernels (nvcc was not found)")
def test_fatbin_holds_every_kernel_the_tables_name():
    """The names the backend looks up exist in the embedded modules (read from nvcc's output at
    build time): a loop in the kernel table without its kernel would fail only on a GPU."""
    modules = _core._fatbin_modules()
    assert "elementwise" in modules
    size, names = modules["elementwise"]
    assert size > 0
    wanted = {f"{name}_{form}" for name, _, _ in _core._kernel_table() for form in "cs"}
    assert wanted <= set(names), sorted(wanted - set(names))[:10]
    assert sum(size for size, _ in modules.values()) == BUILD["fatbin_bytes"]


def test_build_script_modules_and_cache_keys(tmp_path):
    """Every .cu of csrc/kernels is a module; its cache key follows the headers it includes."""
    sys.path.insert(0, os.path.dirname(HERE))
    try:
        import build_cuda
    finally:
        sys.path.pop(0)
    modules = build_cuda.module_sources()
    assert "elementwise" in modules
    files = build_cuda.included_files(modules["elementwise"])
    names = {os.path.basename(f) for f in files}
    assert {"elementwise.cu", "elementwise.h", "convert.h", "loops.def", "ops.def"} <= names
    assert not any(n.endswith(".c") for n in names)  # the CPU instantiations are not nvcc's
    # a module of one's own: its key changes with a header it includes, not with others
    (tmp_path / "a.h").write_text("#define A 1\n")
    (tmp_path / "b.h").write_text("#define B 1\n")
    (tmp_path / "m.cu").write_text('#include "a.h"\n')
    key = build_cuda.cache_key(str(tmp_path / "m.cu"), ["-O3"], "nvcc 13")
    (tmp_path / "b.h").write_text("#define B 2\n")
    assert build_cuda.cache_key(str(tmp_path / "m.cu"), ["-O3"], "nvcc 13") == key
    (tmp_path / "a.h").write_text("#define A 2\n")
    assert build_cuda.cache_key(str(tmp_path / "m.cu"), ["-O3"], "nvcc 13") != key
    assert build_cuda.cache_key(str(tmp_path / "m.cu"), ["-O2"], "nvcc 13") != \
        build_cuda.cache_key(str(tmp_path / "m.cu"), ["-O3"], "nvcc 13")


# ---------------------------------------------------------------- 2. the mock driver

def test_mock_unavailable_reasons(mock_driver):
    code = "print(json.dumps(_core._cuda_device_count()))"
    count, reason = run_mock(mock_driver, code, MOCK_CUDA_INIT_ERROR=100)
    assert count == 0
    if HAS_KERNELS:
        assert "cuInit" in reason and "CUDA_ERROR_NO_DEVICE (100)" in reason
        v = BUILD["cuda_build_version"]
        count, reason = run_mock(mock_driver, code, MOCK_CUDA_DRIVER_VERSION=v - 1000)
        assert count == 0
        assert "driver is too old" in reason and f"{v // 1000 - 1}.{v % 1000 // 10}" in reason
        # same major version, older minor: minor version compatibility applies
        count, _ = run_mock(mock_driver, code, MOCK_CUDA_DRIVER_VERSION=v // 1000 * 1000)
        assert count == 1
    else:
        assert reason == "this build has no CUDA kernels: nvcc was not found when it was built"


needs_kernels = pytest.mark.skipif(not HAS_KERNELS, reason="this build has no CUDA kernels")


@needs_kernels
def test_mock_device_transfers_and_properties(mock_driver):
    out = run_mock(mock_driver, """
        res = {"available": pygpu.cuda.is_available(), "default": str(pygpu.default_device()),
               "driver": _core._cuda_driver_version()}
        dev = pygpu.Device("cuda:0")
        res["same"] = dev is pygpu.Device(0)
        props = _core._cuda_device_properties(0)
        res["props"] = {k: props[k] for k in ("name", "compute_capability", "multiprocessors",
                                               "total_memory", "free_memory", "driver_version")}
        res["no_pools_key"] = "memory_pools_supported" not in props
        ok = []
        rng = np.random.default_rng(0)
        # sizes around the staging threshold (1 MiB) and the chunk (8 MiB)
        for n in [1, 1000, (1 << 20) - 1, 1 << 20, (8 << 20) + 3, 3 * (8 << 20), 2 * (8 << 20) + 12345]:
            x = rng.integers(0, 256, n, dtype=np.uint8)
            before = stats()
            d = pygpu.asarray(x, device=dev)
            y = d.get()
            after = stats()
            ok.append({"n": n, "equal": bool(np.array_equal(x, y)),
                       "copies": after["copies"] - before["copies"],
                       "driver_staged": after["pageable_copies"] - before["pageable_copies"]})
        res["transfers"] = ok
        x = np.arange(12.0).reshape(3, 4)
        res["float_roundtrip"] = bool(np.array_equal(pygpu.asarray(x, device=dev).get(), x))
        print(json.dumps(res))
    """)
    assert out["available"] and out["default"] == "cuda:0" and out["driver"] == 13000
    assert out["same"]
    assert out["props"]["name"] == "Mock GPU"
    assert out["props"]["compute_capability"] == [9, 0]
    assert out["props"]["multiprocessors"] == 4
    assert out["props"]["total_memory"] == 256 << 20
    assert 0 < out["props"]["free_memory"] <= 256 << 20
    assert out["no_pools_key"]  # an attribute the driver refuses is left out
    chunk = 8 << 20
    for t in out["transfers"]:
        assert t["equal"], t
        if t["n"] >= 1 << 20:
            # both directions through the pinned chunks: ceil(n / chunk) DMAs each way
            assert t["driver_staged"] == 0, t
            assert t["copies"] == 2 * -(-t["n"] // chunk), t
        else:
            assert t["driver_staged"] == 2 and t["copies"] == 2, t
    assert out["float_roundtrip"]


@needs_kernels
def test_mock_launch_configuration(mock_driver):
    out = run_mock(mock_driver, """
        res = {}
        a = pygpu.zeros(10**6, dtype=np.float32, device="cuda:0")
        res["big"] = stats()
        b = pygpu.zeros(10, dtype=np.float64, device="cuda:0")
        res["small"] = stats()
        c = pygpu.asarray(np.zeros((3, 5), np.int32), device="cuda:0").copy(order="F")
        res["strided"] = stats()
        print(json.dumps(res))
    """)
    big, small, strided = out["big"], out["small"], out["strided"]
    # 4 SMs * 32 blocks caps the grid of a million elements; 256 threads a block
    assert big["last_kernel"] == "copy_f32_c" and big["grid"] == 128 and big["block"] == 256
    assert small["last_kernel"] == "copy_f64_c" and small["grid"] == 1
    assert strided["last_kernel"] == "copy_i32_s" and strided["grid"] == 1
    assert strided["launches"] == small["launches"] + 1 == big["launches"] + 2


@needs_kernels
def test_mock_out_of_memory(mock_driver):
    out = run_mock(mock_driver, """
        res = {}
        res["huge"] = error(lambda: pygpu.empty(10**15, dtype=np.uint8, device="cuda:0"))
        a = pygpu.empty(1000, device="cuda:0")
        res["after"] = a.shape
        # 40 MiB cached, then 50 MiB: fits in 64 MiB only once the pool gives its cache back
        b = pygpu.empty(40 << 20, dtype=np.uint8, device="cuda:0")
        del b
        c = pygpu.empty(50 << 20, dtype=np.uint8, device="cuda:0")
        res["retry"] = c.nbytes
        res["is_memory_error"] = issubclass(pygpu.OutOfMemoryError, MemoryError)
        print(json.dumps(res))
    """, MOCK_CUDA_MEM_LIMIT=64 << 20)
    assert out["huge"]["type"] == "OutOfMemoryError"
    assert "1000000000000000 bytes" in out["huge"]["msg"]
    assert out["after"] == [1000]
    assert out["retry"] == 50 << 20
    assert out["is_memory_error"]


@needs_kernels
def test_mock_sticky_error_marks_device_failed(mock_driver):
    out = run_mock(mock_driver, """
        res = {"launch": error(lambda: pygpu.zeros(10, device="cuda:0"))}
        res["later"] = error(lambda: pygpu.synchronize("cuda:0"))
        res["alloc"] = error(lambda: pygpu.Stream(device="cuda:0"))
        res["cpu_fine"] = float(pygpu.ones(3, device="cpu").get().sum())
        res["is_runtime_error"] = issubclass(pygpu.CUDAError, RuntimeError)
        print(json.dumps(res))
    """, MOCK_CUDA_LAUNCH_ERROR=700)
    launch = out["launch"]
    assert launch["type"] == "CUDAError"
    assert launch["name"] == "CUDA_ERROR_ILLEGAL_ADDRESS" and launch["code"] == 700
    assert "cuLaunchKernel" in launch["msg"] and "CUDA_ERROR_ILLEGAL_ADDRESS (700)" in launch["msg"]
    assert "unusable" in launch["msg"]
    for later in (out["later"], out["alloc"]):
        assert later["type"] == "CUDAError" and "unusable" in later["msg"]
        assert "CUDA_ERROR_ILLEGAL_ADDRESS" in later["msg"]
    assert out["cpu_fine"] == 3.0
    assert out["is_runtime_error"]


@needs_kernels
def test_mock_non_sticky_error_leaves_device_usable(mock_driver):
    out = run_mock(mock_driver, """
        res = {"launch": error(lambda: pygpu.zeros(10, device="cuda:0"))}
        res["later"] = error(lambda: pygpu.synchronize("cuda:0"))
        x = np.arange(5.0)
        res["roundtrip"] = pygpu.asarray(x, device="cuda:0").get().tolist()
        print(json.dumps(res))
    """, MOCK_CUDA_LAUNCH_ERROR=701)
    assert out["launch"]["code"] == 701 and out["launch"]["name"] == "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
    assert "unusable" not in out["launch"]["msg"]
    assert out["later"] is None
    assert out["roundtrip"] == [0.0, 1.0, 2.0, 3.0, 4.0]


@needs_kernels
def test_mock_streams_and_events(mock_driver):
    out = run_mock(mock_driver, """
        s = pygpu.Stream(device="cuda:0")
        e0 = s.record()
        with s:
            d = pygpu.asarray(np.arange(100.0), device="cuda:0")
        e1 = s.record()
        s.synchronize()
        ms = e0.elapsed_time(e1)
        s.wait_event(e1)
        res = {"ms": ms, "query": s.query(), "event_query": e1.query(), "ptr": s.ptr != 0,
               "values": d.get().tolist()[:3]}
        del s
        print(json.dumps(res))
    """)
    assert out["ms"] >= 0 and out["query"] is True and out["event_query"] is True
    assert out["ptr"] and out["values"] == [0.0, 1.0, 2.0]


# ---------------------------------------------------------------- 3. a real GPU

def test_gpu_properties(cuda_device):
    props = cuda_device.properties()
    assert isinstance(props["name"], str) and props["name"]
    major, minor = props["compute_capability"]
    assert major >= 7
    assert props["multiprocessors"] > 0
    assert 0 < props["free_memory"] <= props["total_memory"]
    assert props["driver_version"] == _core._cuda_driver_version()
    assert _core._cuda_device_properties(0)["name"] == props["name"]


@pytest.mark.parametrize("n", [0, 1, 1000, (1 << 20) + 7, 3 * (8 << 20) + 5])
def test_gpu_roundtrip(cuda_device, n):
    x = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    d = pygpu.asarray(x, device=cuda_device)
    assert d.device == cuda_device
    np.testing.assert_array_equal(d.get(), x)


def test_gpu_kernels_run(cuda_device):
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    d = pygpu.asarray(x, device=cuda_device)
    np.testing.assert_array_equal(d.copy(order="F").get(), x)
    np.testing.assert_array_equal(d.astype(np.int64).get(), x.astype(np.int64))
    np.testing.assert_array_equal(pygpu.zeros(1000, device=cuda_device).get(), np.zeros(1000))
    np.testing.assert_array_equal(pygpu.full((3, 3), 7, dtype=np.int16, device=cuda_device).get(),
                                  np.full((3, 3), 7, np.int16))


def test_gpu_stream_event_timing(cuda_device):
    s = pygpu.Stream(device=cuda_device)
    start = s.record()
    with s:
        d = pygpu.zeros(1 << 24, dtype=np.float32, device=cuda_device)
    end = s.record()
    end.synchronize()
    assert end.query()
    assert start.elapsed_time(end) >= 0
    s.synchronize()
    assert s.query()
    np.testing.assert_array_equal(d.get()[:10], np.zeros(10, np.float32))


def test_gpu_out_of_memory_then_recovers(cuda_device):
    with pytest.raises(pygpu.OutOfMemoryError, match="1000000000000000 bytes"):
        pygpu.empty(10**15, dtype=np.uint8, device=cuda_device)
    d = pygpu.asarray(np.arange(10.0), device=cuda_device)
    np.testing.assert_array_equal(d.get(), np.arange(10.0))


def test_gpu_pool_reuse(cuda_device):
    pool = pygpu.get_memory_pool(cuda_device)
    a = pygpu.empty(1 << 20, dtype=np.uint8, device=cuda_device)
    ptr = a.data_ptr
    del a
    b = pygpu.empty(1 << 20, dtype=np.uint8, device=cuda_device)
    assert b.data_ptr == ptr
    del b
    pool.free_all_blocks()


# ---------------------------------------------------------------- a GPU pygpu cannot use

def test_unusable_gpu_is_reported_loudly(tmp_path):
    """nvidia-smi sees a GPU that pygpu cannot use: python -m pygpu says so, and a test session
    fails instead of skipping every CUDA test (PYGPU_TEST_ALLOW_NO_CUDA=1 accepts it)."""
    if pygpu.cuda.is_available():
        pytest.skip("a GPU is usable here")
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 'GPU 0: Fake GPU 80GB (UUID: GPU-0000)'\n")
    smi.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYGPU_TEST")}
    env["PATH"] = str(tmp_path) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = child_pythonpath()
    main = subprocess.run([sys.executable, "-c", "from pygpu.__main__ import report; report()"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert main.returncode == 0, main.stderr
    assert "WARNING: this machine has 1 NVIDIA GPU (Fake GPU 80GB) but pygpu cannot use it" in main.stdout
    assert _core._cuda_device_count()[1] in main.stdout
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    conftest = os.path.join(HERE, "conftest.py")
    shutil.copy(conftest, tmp_path / "conftest.py")
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_nothing.py")]
    failed = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert failed.returncode == 3 and "Fake GPU 80GB" in failed.stdout + failed.stderr
    env["PYGPU_TEST_ALLOW_NO_CUDA"] = "1"
    allowed = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr


@needs_kernels
def test_mock_sort_index_search_launches(mock_driver):
    # The mock runs no kernel: this drives the host side of the sort, index and search families on
    # cuda:0 (buffers, launches, flags) and checks which kernel each ends with.
    out = run_mock(mock_driver, """
        res = {}
        x = pygpu.asarray(np.arange(10**5, dtype=np.float32)[::-1].copy(), device="cuda:0")

        def last(name, fn):
            fn()
            s = stats()
            res[name] = [s["last_kernel"], s["grid"], s["block"]]

        last("sort", lambda: pygpu.sort(x))
        last("argsort", lambda: pygpu.argsort(x))
        last("sort_rows", lambda: pygpu.sort(x.reshape(100, 1000)))
        last("sort_complex", lambda: pygpu.sort(x.astype(np.complex64)))
        last("sort_f64_desc", lambda: pygpu.sort(x.astype(np.float64), descending=True))
        last("lexsort", lambda: pygpu.lexsort([x, x.astype(np.int8)]))
        last("gather", lambda: x[pygpu.arange(10, device="cuda:0")])
        last("scatter", lambda: x.__setitem__(pygpu.arange(10, device="cuda:0"), 1.0))
        last("take_wrap", lambda: pygpu.take(x, [5, -1], mode="wrap"))
        last("searchsorted", lambda: pygpu.searchsorted(x, x))
        last("histogram", lambda: pygpu.histogram(x, bins=10, range=(0, 1)))
        print(json.dumps(res))
    """)
    assert out["sort"][0] == "pg_sort_step_unkey"
    assert out["argsort"][0] == "pg_sort_step_positions"
    assert out["sort_rows"][0] == "pg_sort_step_gather"
    assert out["sort_complex"][0] == "pg_sort_step_gather"
    assert out["sort_f64_desc"][0] == "pg_sort_step_unkey"
    assert out["lexsort"][0] == "pg_sort_step_positions"
    assert out["gather"][0] == "pg_index_gather" and out["gather"][2] == 256
    assert out["scatter"][0] == "pg_index_scatter"
    assert out["take_wrap"][0] == "pg_index_gather"
    assert out["searchsorted"][0] == "pg_searchsorted"
    assert out["histogram"][0] == "pg_hist_count"


@needs_kernels
def test_family_kernels_are_in_their_modules():
    """Every kernel the sort, index and search families launch by name is in its module."""
    import re
    modules = _core._fatbin_modules()
    root = os.path.dirname(HERE)
    for family in ("index", "sort", "search"):
        with open(os.path.join(root, "csrc", "runtime", f"backend_cuda_{family}.c")) as f:
            names = set(re.findall(r'"(pg_[a-z0-9_]+)"', f.read()))
        assert names and names <= set(modules[family][1]), (family, sorted(names - set(modules[family][1])))
