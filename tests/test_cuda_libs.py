"""cuBLAS and cuSOLVER without a GPU: fake libraries (tests/mock_cuda/libcublas_mock.c,
libcusolver_mock.c) laid out like NVIDIA's pip wheels in a fake site-packages, with the mock
driver, in a child interpreter. Checked: where the loader looks (CUDA 13 and CUDA 12 wheel
layouts, the newest the driver supports, PYGPU_CUBLAS_LIBRARY), its errors (missing library,
an old one lacking a symbol: a CUDAError naming the pip package, and the rest of pygpu works),
handles per stream with a workspace from the pool, and what matmul hands to cuBLAS: transpose
flags and leading dimensions instead of copies, strided batches, one tall GEMM for a batch
times a matrix, compute types (TF32 only on request), the integer kernel; cuSOLVER's info
becoming numpy.linalg.LinAlgError. The mock cuBLAS computes its products, so results are
compared with NumPy. Real GPU runs of the same paths are the cuda:0 runs of test_matmul.py and
test_linalg.py."""
import ctypes.util
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import pygpu
from conftest import run_mock
from test_cuda_backend import HAS_KERNELS

HERE = os.path.dirname(os.path.abspath(__file__))
pytestmark = pytest.mark.skipif(not HAS_KERNELS, reason="this build has no CUDA kernels")


def _cc():
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}) to build the mock libraries")
    return cc


def _build(cc, src, out, *flags):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [cc, "-shared", "-fPIC", "-O1", "-Wall", *flags, "-o", out]
    if src:
        cmd += [os.path.join(HERE, "mock_cuda", src), "-ldl"]
    else:
        cmd += ["-x", "c", "/dev/null"]  # an empty library standing for a dependency
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"building {out} failed:\n{proc.stderr}")


@pytest.fixture(scope="module")
def fake_sites(tmp_path_factory):
    """site13: the CUDA 13 wheels' layout (nvidia/cu13/lib); site12: CUDA 12's (nvidia/<lib>/lib);
    old: a cuBLAS lacking GemmStridedBatchedEx."""
    cc = _cc()
    root = tmp_path_factory.mktemp("sites")
    s13 = root / "site13" / "nvidia" / "cu13" / "lib"
    _build(cc, "libcublas_mock.c", str(s13 / "libcublas.so.13"))
    _build(cc, "libcusolver_mock.c", str(s13 / "libcusolver.so.12"))
    for dep in ("libcublasLt.so.13", "libcusparse.so.12", "libnvJitLink.so.13"):
        _build(cc, None, str(s13 / dep))
    s12 = root / "site12" / "nvidia"
    _build(cc, "libcublas_mock.c", str(s12 / "cublas" / "lib" / "libcublas.so.12"))
    _build(cc, None, str(s12 / "cublas" / "lib" / "libcublasLt.so.12"))
    _build(cc, "libcusolver_mock.c", str(s12 / "cusolver" / "lib" / "libcusolver.so.11"))
    _build(cc, None, str(s12 / "cusparse" / "lib" / "libcusparse.so.12"))
    _build(cc, None, str(s12 / "nvjitlink" / "lib" / "libnvJitLink.so.12"))
    _build(cc, "libcublas_mock.c", str(root / "old" / "libcublas.so.13"), "-DMOCK_CUBLAS_OLD")
    return {"site13": str(root / "site13"), "site12": str(root / "site12"), "old": str(root / "old"),
            "empty": str(root / "empty")}


PRELUDE = """
import numpy as np

class BlasStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_long) for n in ("creates", "destroys", "set_streams", "workspaces", "gemms",
                                               "batched_gemms")] + [
        ("last_stream", ctypes.c_void_p), ("last_workspace_size", ctypes.c_size_t)] + [
        (n, ctypes.c_int) for n in ("transa", "transb", "m", "n", "k", "lda", "ldb", "ldc", "batch", "compute",
                                    "dtype")] + [(n, ctypes.c_longlong) for n in ("stride_a", "stride_b", "stride_c")]

class SolverStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_long) for n in ("creates", "set_streams", "params", "calls")] + [
        ("last_call", ctypes.c_char * 64)]

def blas():
    lib = ctypes.CDLL(_core._cuda_libs()["cublas"])
    lib.mock_cublas_stats.restype = ctypes.POINTER(BlasStats)
    s = lib.mock_cublas_stats().contents
    return {f: getattr(s, f) for f, _ in BlasStats._fields_ if f != "last_stream"}

def solver():
    lib = ctypes.CDLL(_core._cuda_libs()["cusolver"])
    lib.mock_cusolver_stats.restype = ctypes.POINTER(SolverStats)
    s = lib.mock_cusolver_stats().contents
    return {f: (getattr(s, f).decode() if f == "last_call" else getattr(s, f)) for f, _ in SolverStats._fields_}

def on(x):
    return pygpu.asarray(x, device="cuda:0")
"""


def run(mock_driver, sites, site, code, **env):
    root = os.path.dirname(os.path.dirname(os.path.abspath(pygpu.__file__)))
    paths = [root] + ([sites[site]] if site else [])
    return run_mock(mock_driver, PRELUDE + textwrap.dedent(code), PYTHONPATH=os.pathsep.join(paths), **env)


def test_cublas_from_cuda13_wheel_computes_products(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        rng = np.random.default_rng(0)
        res = {"errors": []}
        a, b = rng.standard_normal((6, 5)), rng.standard_normal((5, 4))
        pa, pb = on(a), on(b)
        before = stats()["launches"]
        cases = [(pa @ pb, a @ b), (pa.T @ on(a), a.T @ a), (pb.T @ pa.T, b.T @ a.T), (pa[::2] @ pb, a[::2] @ b),
                 (pa @ pb[:, 1], a @ b[:, 1]), (pa[0] @ pb, a[0] @ b)]
        res["launches"] = stats()["launches"] - before   # no copy kernel: flags and leading dimensions
        for dt in ("float32", "complex128", "complex64"):
            x, y = on(a.astype(dt)), on(b.astype(dt))
            cases.append((x @ y, a.astype(dt) @ b.astype(dt)))
        for got, exp in cases:
            g = got.get()
            if g.shape != exp.shape or not np.allclose(g, exp, rtol=1e-5):
                res["errors"].append(str(exp.shape))
        res["path"] = _core._cuda_libs()["cublas"]
        res["blas"] = blas()
        print(json.dumps(res))
    """)
    assert out["errors"] == []
    assert out["launches"] == 0
    assert out["path"] == os.path.join(fake_sites["site13"], "nvidia", "cu13", "lib", "libcublas.so.13")
    assert out["blas"]["creates"] == 1 and out["blas"]["set_streams"] == 1
    assert out["blas"]["workspaces"] == 1 and out["blas"]["last_workspace_size"] == 32 << 20  # compute 9.0


def test_cublas_transpose_flags_batches_and_tall_products(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        rng = np.random.default_rng(1)
        res = {}
        a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
        # C-ordered C: cuBLAS computes C^T = B^T A^T, both operands without a transpose flag
        r = (on(a) @ on(b)).get()
        s = blas()
        res["plain"] = [s["transa"], s["transb"], s["m"], s["n"], s["k"], s["lda"], s["ldb"], s["ldc"],
                        bool(np.allclose(r, a @ b))]
        # a transposed view is passed with a flag and its own leading dimension
        at = on(np.ascontiguousarray(a.T))
        r = (at.T @ on(b)).get()
        s = blas()
        res["flagged"] = [s["transa"], s["transb"], s["ldb"], bool(np.allclose(r, a @ b))]
        # a batch against one matrix: a single tall product
        x = rng.standard_normal((50, 7, 3))
        before = blas()
        r = (on(x) @ on(b)).get()
        s = blas()
        res["tall"] = [s["gemms"] - before["gemms"], s["batched_gemms"] - before["batched_gemms"], s["n"],
                       bool(np.allclose(r, x @ b))]
        # a batch against a batch: one strided batched product
        y = rng.standard_normal((50, 3, 2))
        r = (on(x) @ on(y)).get()
        s = blas()
        res["batched"] = [s["batch"], s["stride_a"], s["stride_b"], s["stride_c"], bool(np.allclose(r, x @ y))]
        # a broadcast operand: batch stride 0
        r = (on(b.T) @ on(y)).get()
        s = blas()
        res["broadcast"] = [s["batch"], s["stride_b"], bool(np.allclose(r, b.T @ y))]
        print(json.dumps(res))
    """)
    assert out["plain"] == [0, 0, 5, 4, 3, 5, 3, 5, True]
    assert out["flagged"][1] == 1 and out["flagged"][2] == 4 and out["flagged"][3]
    assert out["tall"] == [1, 0, 350, True]
    assert out["batched"] == [50, 6, 21, 14, True]
    assert out["broadcast"][0] == 50 and out["broadcast"][1] == 0 and out["broadcast"][2]


def test_cublas_compute_types_and_tf32(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        res = {}
        for dt in ("float32", "float64", "complex64", "complex128", "float16"):
            x = on(np.ones((2, 2), dt))
            x @ x
            s = blas()
            res[dt] = [s["dtype"], s["compute"]]
        pygpu.set_matmul_precision("tf32")
        for dt in ("float32", "complex64", "float64", "float16"):
            x = on(np.ones((2, 2), dt))
            x @ x
            res["tf32 " + dt] = blas()["compute"]
        print(json.dumps(res))
    """)
    assert out["float32"] == [0, 68] and out["float64"] == [1, 70] and out["complex64"] == [4, 68]
    assert out["complex128"] == [5, 70] and out["float16"] == [2, 68]
    assert out["tf32 float32"] == 77 and out["tf32 complex64"] == 77
    assert out["tf32 float64"] == 70 and out["tf32 float16"] == 68


def test_handles_per_stream(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        x = on(np.ones((3, 3)))
        x @ x
        x @ x
        first = blas()["creates"]
        s1, s2 = pygpu.Stream(), pygpu.Stream()
        with s1:
            x @ x
            x @ x
        with s2:
            x @ x
        print(json.dumps({"first": first, "after": blas()["creates"], "streams": blas()["set_streams"]}))
    """)
    assert out == {"first": 1, "after": 3, "streams": 3}


def test_integer_matmul_runs_the_kernel(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        x = on(np.ones((3, 3), np.int32))
        before = stats()["launches"]
        x @ x
        print(json.dumps({"kernel": stats()["last_kernel"], "launches": stats()["launches"] - before,
                          "cublas_loaded": _core._cuda_libs()["cublas"] is not None}))
    """)
    assert out == {"kernel": "pg_gemm_int", "launches": 1, "cublas_loaded": False}


def test_cuda12_wheels_for_a_cuda12_driver(mock_driver, fake_sites):
    """Places are searched in order (sys.path, then the toolkit, then the system), each for the
    newest version the driver supports: a CUDA 12 driver skips the CUDA 13 wheels."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(pygpu.__file__)))
    load = PRELUDE + "print(json.dumps(_core._cuda_libs(True)))"

    def loaded(*sites, **env):
        return run_mock(mock_driver, load, PYTHONPATH=os.pathsep.join([root, *sites]), **env)

    out = loaded(fake_sites["site13"], fake_sites["site12"], MOCK_CUDA_DRIVER_VERSION=12080)
    assert out["cublas"] == os.path.join(fake_sites["site12"], "nvidia", "cublas", "lib", "libcublas.so.12")
    assert out["cusolver"] == os.path.join(fake_sites["site12"], "nvidia", "cusolver", "lib", "libcusolver.so.11")
    out = loaded(fake_sites["site13"], fake_sites["site12"])
    assert out["cublas"].endswith(os.path.join("cu13", "lib", "libcublas.so.13"))
    assert out["cusolver"].endswith(os.path.join("cu13", "lib", "libcusolver.so.12"))
    out = loaded(fake_sites["site12"], fake_sites["site13"])
    assert out["cublas"].endswith(os.path.join("cublas", "lib", "libcublas.so.12"))


def test_missing_or_old_library_is_a_clear_error(mock_driver, fake_sites):
    out = run(mock_driver, fake_sites, "site13", """
        x = on(np.ones((2, 2)))
        res = {"err": error(lambda: x @ x)}
        res["again"] = error(lambda: x @ x)
        res["elementwise"] = list((x + x).shape)   # the rest of pygpu works (the mock runs no kernel)
        res["cpu"] = (pygpu.ones((2, 2), device="cpu") @ pygpu.ones((2, 2), device="cpu")).get().tolist()
        print(json.dumps(res))
    """, PYGPU_CUBLAS_LIBRARY="/nonexistent/libcublas.so.13")
    assert out["err"]["type"] == "CUDAError"
    assert "PYGPU_CUBLAS_LIBRARY=/nonexistent/libcublas.so.13" in out["err"]["msg"]
    assert "pip install nvidia-cublas" in out["err"]["msg"]
    assert out["again"] == out["err"]
    assert out["elementwise"] == [2, 2] and out["cpu"] == [[2.0, 2.0], [2.0, 2.0]]
    out = run(mock_driver, fake_sites, None, """
        x = on(np.ones((2, 2)))
        print(json.dumps(error(lambda: x @ x)))
    """, PYGPU_CUBLAS_LIBRARY=os.path.join(fake_sites["old"], "libcublas.so.13"))
    assert out["type"] == "CUDAError" and "lacks cublasGemmStridedBatchedEx" in out["msg"]


def _cublas_installed():
    """Whether a real cuBLAS would be found: system-wide, in the toolkit or in a wheel of this
    Python environment."""
    places = [os.path.join(d, name) for d in ("/usr/local/cuda/lib64", "/usr/local/cuda/lib")
              for name in ("libcublas.so.13", "libcublas.so.12")]
    places += [os.path.join(p, "nvidia", sub, "lib", name) for p in sys.path if p
               for sub, name in (("cu13", "libcublas.so.13"), ("cublas", "libcublas.so.12"))]
    return bool(ctypes.util.find_library("cublas")) or any(os.path.exists(p) for p in places)


def test_not_found_anywhere_names_the_pip_packages(mock_driver, fake_sites):
    if _cublas_installed():
        pytest.skip("this machine has cuBLAS installed (system-wide, in the toolkit or as a wheel)")
    out = run(mock_driver, fake_sites, "empty", """
        x = on(np.ones((2, 2)))
        print(json.dumps(error(lambda: x @ x)))
    """, CUDA_HOME="/nonexistent")
    assert out["type"] == "CUDAError"
    assert "pip install nvidia-cublas" in out["msg"] and "nvidia-cublas-cu12" in out["msg"]


def test_cusolver_info_becomes_linalgerror(mock_driver, fake_sites):
    code = """
        a = on(np.eye(4) * 2)
        res = {"chol": error(lambda: pygpu.linalg.cholesky(a)), "inv": error(lambda: pygpu.linalg.inv(a)),
               "eigh": error(lambda: pygpu.linalg.eigh(a)), "svd": error(lambda: pygpu.linalg.svd(a))}
        res["shapes"] = [list(pygpu.linalg.cholesky(on(np.eye(3)[None].repeat(5, 0))).shape)] if not res["chol"] \\
            else None
        res["solver"] = solver()
        res["after"] = list((a @ a).shape)   # the device carries on
        print(json.dumps(res))
    """
    out = run(mock_driver, fake_sites, "site13", code, MOCK_CUSOLVER_INFO=2)
    assert out["chol"] == {"type": "LinAlgError", "msg": "Matrix is not positive definite", "name": None,
                           "code": None}
    assert out["inv"]["type"] == "LinAlgError" and out["inv"]["msg"] == "Singular matrix"
    assert out["eigh"]["msg"] == "Eigenvalues did not converge" and out["svd"]["msg"] == "SVD did not converge"
    assert out["solver"]["creates"] == 1 and out["solver"]["params"] == 1
    assert out["after"] == [4, 4]
    out = run(mock_driver, fake_sites, "site13", code)
    assert out["chol"] is None and out["shapes"] == [[5, 3, 3]]
    assert out["solver"]["calls"] >= 5 + 1  # one potrf per matrix of the batch, then the others
