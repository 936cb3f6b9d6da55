"""Every test that takes the `device` fixture runs once per device present: the CPU always,
cuda:0 when a usable GPU exists (PYGPU_TEST_DEVICES=cpu,cuda:0 narrows or widens the list)."""
import glob
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import numpy as np
import pytest

import pygpu


def _devices():
    env = os.environ.get("PYGPU_TEST_DEVICES")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    devs = ["cpu"]
    if pygpu.cuda.is_available():
        devs.append("cuda:0")
    return devs


DEVICES = _devices()


def pytest_sessionstart(session):
    """A GPU that nvidia-smi sees but pygpu cannot use fails the run, rather than skipping every
    CUDA test in silence (PYGPU_TEST_ALLOW_NO_CUDA=1 accepts it)."""
    from pygpu._system import unusable_gpu_warning

    warning = unusable_gpu_warning()
    if warning and not os.environ.get("PYGPU_TEST_ALLOW_NO_CUDA"):
        pytest.exit(warning + " Fix that, or set PYGPU_TEST_ALLOW_NO_CUDA=1 to test on the CPU only.", returncode=3)


@pytest.fixture(params=DEVICES)
def device(request):
    """A pygpu.Device; tests taking it run on every device present."""
    return pygpu.Device(request.param)


@pytest.fixture
def cuda_device():
    """cuda:0, or a skip saying why there is none."""
    if not pygpu.cuda.is_available():
        pytest.skip("no usable CUDA device: " + pygpu._core._cuda_device_count()[1])
    return pygpu.Device("cuda:0")


def assert_array_equal(actual, expected, **kw):
    """Compares a pygpu array (or anything) with a NumPy result: values, dtype and shape."""
    if isinstance(actual, pygpu.ndarray):
        actual = actual.get()
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected, **kw)


DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def same_error(np_call, pg_call):
    """Both calls raise, with the same exception class and message."""
    with pytest.raises(Exception) as e_np:
        np_call()
    with pytest.raises(Exception) as e_pg:
        pg_call()
    assert type(e_pg.value) is type(e_np.value), (e_pg.value, e_np.value)
    assert str(e_pg.value) == str(e_np.value)


# ---------------------------------------------------------------- child interpreters

PKG_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(pygpu.__file__)))


def child_pythonpath(*first):
    """PYTHONPATH for a child interpreter: the checkout this pygpu is imported from (then `first`)
    ahead of the inherited PYTHONPATH, which is kept (where a run's other packages may come from:
    a GPU run's site folder with dask, matplotlib, ...). pytest puts the checkout on sys.path, not
    on PYTHONPATH, so a child that only inherits the environment may not find pygpu."""
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([PKG_ROOT, *first, *inherited])


# ---------------------------------------------------------------- the fake CUDA driver

HERE = os.path.dirname(os.path.abspath(__file__))
MOCK_SOURCES = os.path.join(HERE, "mock_cuda")
KERNEL_HEADERS = os.path.join(os.path.dirname(HERE), "csrc", "kernels")


@pytest.fixture(scope="session")
def mock_driver(tmp_path_factory):
    """A folder with the fake libcuda.so.1 (tests/mock_cuda) and kernels.txt, the names of the
    kernels this build embeds (one section per module, from _core._fatbin_modules()), which the
    fake driver's cuModuleGetFunction knows and no others."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}) to build the mock driver")
    out = tmp_path_factory.mktemp("mock_cuda")
    cmd = [cc, "-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-pthread", "-I", KERNEL_HEADERS,
           "-o", str(out / "libcuda.so.1")] + sorted(glob.glob(os.path.join(MOCK_SOURCES, "*.c")))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail("building the mock driver failed:\n" + proc.stderr)
    lines = []
    for module, (size, names) in pygpu._core._fatbin_modules().items():
        lines.append(f"@{module} {size}")
        lines.extend(names)
    (out / "kernels.txt").write_text("\n".join(lines) + "\n")
    return str(out)


# MockStats of tests/mock_cuda/mock.h, and stats() to read it in a child that has `libcuda`.
MOCK_STATS = textwrap.dedent("""
    class Stats(ctypes.Structure):
        _fields_ = [("launches", ctypes.c_long), ("copies", ctypes.c_long),
                    ("pageable_copies", ctypes.c_long), ("event_syncs", ctypes.c_long),
                    ("grid", ctypes.c_uint), ("block", ctypes.c_uint),
                    ("param_bytes_hint", ctypes.c_size_t), ("last_kernel", ctypes.c_char * 128),
                    ("modules_loaded", ctypes.c_long), ("unknown_kernels", ctypes.c_long),
                    ("misaligned_launches", ctypes.c_long), ("faults", ctypes.c_long),
                    ("blocking_streams", ctypes.c_long), ("non_blocking_streams", ctypes.c_long),
                    ("async_copies", ctypes.c_long), ("implicit_waits", ctypes.c_long),
                    ("grid_yz", ctypes.c_uint * 2), ("block_yz", ctypes.c_uint * 2), ("shared_mem", ctypes.c_uint),
                    ("last_nparams", ctypes.c_uint), ("last_params", ctypes.c_ubyte * 512)]

    def stats():
        libcuda.mock_stats.restype = ctypes.POINTER(Stats)
        s = libcuda.mock_stats().contents
        def value(f):
            v = getattr(s, f)
            return v.decode() if f == "last_kernel" else bytes(v).hex() if f == "last_params" else \
                list(v) if f in ("grid_yz", "block_yz") else v
        return {f: value(f) for f, _ in Stats._fields_}
""")

MOCK_PRELUDE = textwrap.dedent("""
    import ctypes, json, sys
    import numpy as np
    import pygpu
    from pygpu import _core

    libcuda = ctypes.CDLL("libcuda.so.1")

    def error(fn):
        try:
            fn()
        except Exception as e:
            return {"type": type(e).__name__, "msg": str(e), "name": getattr(e, "name", None),
                    "code": getattr(e, "code", None)}
        return None

    def hold(stream=None, device=0, release_after=None):
        # Holds a stream of the fake driver (None: device's legacy default stream): work queued
        # on it waits until the returned function is called or, with release_after, that many
        # seconds have passed (let go by the driver's own thread, whatever holds the GIL). Uses
        # the device's primary context (pygpu's), pushed and popped around the calls.
        ctx, word, top = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        assert libcuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), device) == 0
        assert libcuda.cuCtxPushCurrent_v2(ctx) == 0
        assert libcuda.cuMemHostAlloc(ctypes.byref(word), 4, 0) == 0
        ctypes.c_uint32.from_address(word.value).value = 0
        handle = ctypes.c_void_p(stream.ptr if stream is not None else None)
        r = libcuda.cuStreamWaitValue32_v2(handle, ctypes.c_ulonglong(word.value), ctypes.c_uint32(1),
                                           ctypes.c_uint(0))
        assert libcuda.cuCtxPopCurrent_v2(ctypes.byref(top)) == 0
        assert r == 0, r
        if release_after is not None:
            assert libcuda.mock_write_after(word, ctypes.c_uint32(1), ctypes.c_long(int(release_after * 1e6))) == 0

        def release():
            ctypes.c_uint32.from_address(word.value).value = 1
        return release
""") + MOCK_STATS


def mock_env(mock_driver, env):
    """The environment of a child that loads the mock: this one's, less MOCK_CUDA_* and PYGPU_*,
    with the mock first on LD_LIBRARY_PATH, the checkout first on PYTHONPATH, its kernel names,
    and env on top."""
    child_env = {k: v for k, v in os.environ.items() if not k.startswith(("MOCK_CUDA_", "PYGPU_"))}
    child_env["LD_LIBRARY_PATH"] = mock_driver + os.pathsep + os.environ.get("LD_LIBRARY_PATH", "")
    child_env["PYTHONPATH"] = child_pythonpath()
    child_env["MOCK_CUDA_KERNELS"] = os.path.join(mock_driver, "kernels.txt")
    child_env.update({k: str(v) for k, v in env.items()})
    return child_env


def run_child(prelude, code, env, timeout=120):
    """Runs prelude + code in a child interpreter; its last line of output, parsed as JSON."""
    proc = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, cwd=HERE, timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_mock(mock_driver, code, **env):
    """Runs pygpu code in a child interpreter whose libcuda.so.1 is the mock (its kernel names
    those of this build unless MOCK_CUDA_KERNELS says otherwise); returns the child's last line of
    output, parsed as JSON. The prelude gives the child stats(), error(fn) and libcuda (ctypes)."""
    return run_child(MOCK_PRELUDE, code, mock_env(mock_driver, env))


def numpy_and_pygpu(f):
    """[NumPy's answer, pygpu's] to f(module): (dtype, shape, values), or the exception's type name
    (warnings silenced), for tests that hold both to the same answer or the same error kind."""
    import warnings
    out = []
    for m in (np, pygpu):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = f(m)
            v = pygpu.asnumpy(v) if isinstance(v, pygpu.ndarray) else np.asarray(v)
            out.append((v.dtype.str, v.shape, v.tolist()))
        except Exception as e:  # noqa: BLE001 - the exception's type is the answer compared
            out.append(type(e).__name__)
    return out
