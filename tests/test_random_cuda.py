"""The host side of pygpu.random's CUDA path against the fake driver (conftest.mock_driver,
which runs no kernels): which kernel of the random module a draw launches, with what grid,
and how the generator's counter moves. The numbers themselves are checked on a real GPU by the
`device` fixture of test_random.py and test_random_stream.py."""
import pytest

from conftest import run_mock
from pygpu import _core

needs_kernels = pytest.mark.skipif("random" not in _core._fatbin_modules(),
                                   reason="this build has no CUDA kernels")


@needs_kernels
def test_mock_random_launches(mock_driver):
    out = run_mock(mock_driver, """
        import pygpu.random as pr
        res = {}
        g = pr.default_rng(1)
        g.random(10**6, dtype=np.float32, device="cuda:0")  # 250,000 blocks of 4
        res["uniform"] = stats()
        g.standard_normal(10, device="cuda:0")
        res["normal"] = stats()
        g.integers(0, 7, 100, device="cuda:0")
        res["integers"] = stats()
        g.poisson(3.0, 1000, device="cuda:0")
        res["poisson"] = stats()
        g.normal([1.0, 2.0], 1.0, device="cuda:0")  # a parameter array: uploaded, then one launch
        res["params"] = stats()
        g.random(0, device="cuda:0")  # nothing to draw: no launch
        res["empty"] = stats()
        res["counter"] = g.bit_generator.state["state"]["counter"]
        print(json.dumps(res))
    """)
    u, n, i, p, a, e = (out[k] for k in ("uniform", "normal", "integers", "poisson", "params", "empty"))
    # 4 SMs * 16 blocks caps the grid; 256 threads a block, one Philox block each
    assert u["last_kernel"] == "pg_random_uniform" and u["grid"] == 64 and u["block"] == 256
    assert n["last_kernel"] == "pg_random_transform" and n["grid"] == 1
    assert i["last_kernel"] == "pg_random_integers" and i["grid"] == 1
    assert p["last_kernel"] == "pg_random_sampler" and p["grid"] == 4
    assert a["last_kernel"] == "pg_random_transform" and a["launches"] == p["launches"] + 1
    assert e["launches"] == a["launches"]
    assert out["counter"] == 250000 + 5 + 25 + 1000 + 1


@needs_kernels
def test_mock_random_launch_error(mock_driver):
    out = run_mock(mock_driver, """
        import pygpu.random as pr
        g = pr.default_rng(1)
        res = {"error": error(lambda: g.random(10, device="cuda:0")),
               "counter": g.bit_generator.state["state"]["counter"]}
        print(json.dumps(res))
    """, MOCK_CUDA_LAUNCH_ERROR=701)
    assert out["error"]["type"] == "CUDAError" and out["error"]["code"] == 701
    assert out["counter"] == 0  # a failed draw takes no numbers from the stream
