"""cuda.jit kernels on the CUDA side, against the fake driver (tests/mock_cuda): the generated CUDA C
compiles with NVRTC for real (for the fake sm_90 device) and the launch hands the driver each array
as its {data, shape, strides} struct; the kernels do nothing there, so what is checked is the host
side: parameter bytes, the per-type dispatch, and a debug kernel's error report."""
import struct
import textwrap

import pytest

from conftest import run_mock
from test_raw_kernels_cuda_mock import needs_kernels, needs_nvrtc

pytestmark = [needs_kernels, needs_nvrtc]

KERNELS = '''
import numpy as np
from pygpu import cuda

@cuda.jit
def add_kernel(x, y, out):
    i = cuda.grid(1)
    out[i] = x[i] + y[i]

@cuda.jit(debug=True)
def checked(x):
    i = cuda.grid(1)
    x[i] = 1.0

@cuda.jit
def scaled(x, a, n):
    i = cuda.grid(1)
    if i < n:
        x[i, 0] = a
'''


def mock(mock_driver, code, tmp_path):
    kernels = tmp_path / "jit_kernels.py"
    kernels.write_text(KERNELS)
    prelude = textwrap.dedent('''
        import sys
        sys.path.insert(0, %r)
        import jit_kernels as K
        def params():
            s = stats()
            return bytes.fromhex(s["last_params"]), s["last_nparams"]
    ''' % str(tmp_path))
    return run_mock(mock_driver, prelude + textwrap.dedent(code), PYGPU_CACHE_DIR=str(tmp_path),
                    MOCK_CUDA_DELAY_US=0)


def test_arrays_reach_the_driver_as_structs(mock_driver, tmp_path):
    out = mock(mock_driver, """
        res = {}
        x = pygpu.zeros(64, dtype=np.float32)
        y = pygpu.zeros(64, dtype=np.float32)
        K.add_kernel[2, 32](x, y, x)
        raw, n = params()
        res["n"], res["raw"], res["x"], res["y"] = n, raw[:72].hex(), x.data_ptr, y.data_ptr
        res["params"] = K.add_kernel.specialization(K.add_kernel.signatures[0]).function(pygpu.Device("cuda:0")).params
        a = pygpu.zeros((8, 6), dtype=np.float64)[::2, 1:]
        K.scaled[1, 4](a, 2, 4)          # a strided view, a Python int for a float64 parameter
        raw, n = params()
        res["n2"], res["raw2"], res["a"] = n, raw[:56].hex(), a.data_ptr
        res["specs"] = [str(t) for s in K.scaled.signatures for t in s]
        print(json.dumps(res))
    """, tmp_path)
    assert out["n"] == 3
    raw = bytes.fromhex(out["raw"])
    # three structs of 24 bytes: data, shape[0], strides[0]
    assert struct.unpack_from("<QqqQqqQqq", raw, 0) == (out["x"], 64, 4, out["y"], 64, 4, out["x"], 64, 4)
    assert out["params"] == [[16, 10 | 1 << 8 | 1 << 16, 24]] * 3
    assert out["n2"] == 3
    raw = bytes.fromhex(out["raw2"])
    assert struct.unpack_from("<Qqqqq", raw, 0) == (out["a"], 4, 5, 96, 8)
    assert struct.unpack_from("<q", raw, 40)[0] == 2 and struct.unpack_from("<q", raw, 48)[0] == 4
    assert out["specs"] == ["float64[:, :]", "int64", "int64"]


def test_debug_kernels_report_out_of_range_indices(mock_driver, tmp_path):
    out = mock(mock_driver, """
        res = {}
        x = pygpu.zeros(32, dtype=np.float64)
        K.checked[1, 32](x)               # nothing recorded: no error
        spec = K.checked.specialization(K.checked.signatures[0])
        module = spec.module(True)._loaded[pygpu.Device("cuda:0")][0]
        record = module.get_global("pg_jit_error", np.uint64)
        record[...] = pygpu.asarray(np.array([1, 40, 32, 0 + 256 * 12], np.uint64), device="cuda:0")
        res["raised"] = error(lambda: K.checked[1, 32](x))
        res["cleared"] = int(record.get()[0])
        print(json.dumps(res))
    """, tmp_path)
    assert out["raised"]["type"] == "IndexError"
    assert out["raised"]["msg"] == "index 40 is out of bounds for axis 0 with size 32 (jit_kernels.py, line 12)"
    assert out["cleared"] == 0
