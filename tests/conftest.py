"""Every test that takes the `device` fixture runs once per device present: the CPU always,
cuda:0 when a usable GPU exists (PYGPU_TEST_DEVICES=cpu,cuda:0 narrows or widens the list)."""
import os

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
