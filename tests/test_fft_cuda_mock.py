"""pygpu.fft's cuFFT path without a GPU: the fake driver (tests/mock_cuda/libcuda_mock.c, whose
device memory is host memory) and a fake cuFFT (libcufft_mock.c, which transforms by the
definition), loaded through PYGPU_CUFFT_LIBRARY. What runs for real here is pygpu's C side: the
loader, the plan cache (one plan per shape, 16 kept, the least recently used destroyed), the
binding of each execution to the current stream with a work area from the pool, the layouts and
transform kinds handed to cuFFT, its complex-to-real input overwritten on a copy, and the error
naming the package when cuFFT is missing. The fake driver runs no kernels, so the cases are those
that need none: contiguous inputs of the transform's type, and norms that scale nothing (the
Python side's copies, casts and scaling run on the CPU device in test_fft.py's cpu+cufft-plan)."""
import os
import subprocess
import sysconfig
import textwrap

import pytest

import pygpu
from conftest import run_mock

HERE = os.path.dirname(os.path.abspath(__file__))

pytestmark = pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0,
                                reason="this build has no CUDA kernels")


@pytest.fixture(scope="module")
def fake_cufft(tmp_path_factory):
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    out = str(tmp_path_factory.mktemp("cufft") / "libcufft.so.12")
    proc = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-Wall", "-o", out,
                           os.path.join(HERE, "mock_cuda", "libcufft_mock.c"), "-lm", "-ldl"], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail("building the fake cuFFT failed:\n" + proc.stderr)
    return out


PRELUDE = """
import pygpu.fft as pfft

class FftStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_long) for n in ("creates", "destroys", "plans", "execs", "set_streams", "work_areas",
                                               "auto_allocation_off")] + [
        ("last_stream", ctypes.c_void_p), ("last_work_area", ctypes.c_void_p), ("last_batch", ctypes.c_longlong),
        ("last_rank", ctypes.c_int), ("last_type", ctypes.c_int)]

lib = ctypes.CDLL(os.environ["PYGPU_CUFFT_LIBRARY"])
lib.mock_cufft_stats.restype = ctypes.POINTER(FftStats)

def fft_stats():
    s = lib.mock_cufft_stats().contents
    return {f: getattr(s, f) for f, _ in FftStats._fields_}

dev = pygpu.Device("cuda:0")
rng = np.random.default_rng(0)

def same(got, want, tol=1e-9):
    got = got.get()
    return bool(got.dtype == want.dtype and got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol))
"""


def run(mock_driver, fake_cufft, code, **env):
    return run_mock(mock_driver, "import os\n" + PRELUDE + textwrap.dedent(code), PYGPU_CUFFT_LIBRARY=fake_cufft,
                    **env)


def test_transforms_through_cufft(mock_driver, fake_cufft):
    out = run(mock_driver, fake_cufft, """
        res = {}
        z = rng.standard_normal((3, 8)) + 1j * rng.standard_normal((3, 8))
        res["fft"] = same(pfft.fft(pygpu.asarray(z, device=dev)), np.fft.fft(z))
        z64 = (rng.standard_normal((2, 4, 6)) + 1j * rng.standard_normal((2, 4, 6))).astype(np.complex64)
        res["fft2"] = same(pfft.fft2(pygpu.asarray(z64, device=dev)), np.fft.fft2(z64), 1e-4)
        res["rank2"] = fft_stats()["last_rank"]
        res["fftn"] = same(pfft.fftn(pygpu.asarray(z64, device=dev)), np.fft.fftn(z64), 1e-4)
        res["rank3"] = fft_stats()["last_rank"]
        res["ifft unscaled"] = same(pfft.ifft(pygpu.asarray(z, device=dev), norm="forward"),
                                    np.fft.ifft(z, norm="forward"))
        x = rng.standard_normal((5, 9))
        res["rfft"] = same(pfft.rfft(pygpu.asarray(x, device=dev)), np.fft.rfft(x))
        res["rfft2"] = same(pfft.rfft2(pygpu.asarray(x, device=dev)), np.fft.rfft2(x))
        h = np.fft.rfft(x)
        ph = pygpu.asarray(h, device=dev)
        res["irfft"] = same(pfft.irfft(ph, n=9, norm="forward"), np.fft.irfft(h, n=9, norm="forward"))
        res["input kept"] = bool(np.array_equal(ph.get(), h))   # cuFFT overwrote a copy
        res["empty"] = pfft.fft(pygpu.zeros((0, 8), dtype=np.complex128, device=dev)).shape == (0, 8)
        print(json.dumps(res))
    """)
    for key in ("fft", "fft2", "fftn", "ifft unscaled", "rfft", "rfft2", "irfft", "input kept", "empty"):
        assert out[key], key
    assert out["rank2"] == 2 and out["rank3"] == 3   # the trailing axes in one plan


def test_plan_cache_stream_and_work_area(mock_driver, fake_cufft):
    out = run(mock_driver, fake_cufft, """
        res = {}
        z = pygpu.asarray(np.ones((4, 16), np.complex128), device=dev)
        pygpu._core._cufft_clear_plans()
        before = fft_stats()
        for _ in range(3):
            pfft.fft(z)
        s = fft_stats()
        res["one plan for one shape"] = s["plans"] - before["plans"]
        res["auto allocation off"] = s["auto_allocation_off"] - before["auto_allocation_off"]
        res["work areas"] = s["work_areas"] - before["work_areas"]
        res["batch"] = s["last_batch"]
        stream = pygpu.Stream(device=dev)
        with stream:
            pfft.fft(z)
        res["stream bound"] = fft_stats()["last_stream"] == stream.ptr
        for n in range(1, 21):   # twenty shapes: sixteen plans kept, the oldest destroyed
            pfft.fft(pygpu.asarray(np.ones(n, np.complex128), device=dev))
        res["cached"] = pygpu._core._cufft_plans()
        res["destroyed"] = fft_stats()["destroys"] - before["destroys"]
        pygpu._core._cufft_clear_plans()
        res["cleared"] = pygpu._core._cufft_plans()
        res["library"] = pygpu._core._cufft_library()
        print(json.dumps(res))
    """)
    assert out["one plan for one shape"] == 1
    assert out["auto allocation off"] == 1 and out["work areas"] == 3   # pygpu's pool gives the work area
    assert out["batch"] == 4
    assert out["stream bound"]
    assert out["cached"] == 16 and out["destroyed"] >= 5
    assert out["cleared"] == 0
    assert out["library"].endswith("libcufft.so.12")


def test_missing_cufft_names_the_package(mock_driver):
    out = run_mock(mock_driver, """
        import pygpu.fft as pfft
        dev = pygpu.Device("cuda:0")
        err = error(lambda: pfft.fft(pygpu.asarray(np.ones(8, np.complex128), device=dev)))
        bad = error(lambda: _core._cufft(pygpu.asarray(np.ones(8, np.complex128), device=dev),
                                         pygpu.empty(8, dtype=np.float64, device=dev), 1, False))
        print(json.dumps({"err": err, "bad": bad}))
    """, PYGPU_CUFFT_LIBRARY="/nonexistent/libcufft.so.12")
    assert out["err"]["type"] == "CUDAError"
    assert "PYGPU_CUFFT_LIBRARY=/nonexistent/libcufft.so.12" in out["err"]["msg"]
    assert "nvidia-cufft" in out["err"]["msg"]
    assert out["bad"]["type"] == "ValueError"   # complex to real of 8 from 8: not n // 2 + 1
