"""Threads (issue 16, tests item 5): 8 threads, each on a stream of its own, run reductions,
scans, vectorize, fuse, a RawKernel, a cuda.jit kernel, sorting, indexing and transfers at once;
the results equal a serial run bit for bit, and nothing deadlocks (a join with a timeout fails
the test). On the CPU device everything computes; on the strict fake driver (whose kernels do
nothing) the transfers are compared and every launch, copy and synchronisation must go through
from 8 threads without an error or a hang."""
import threading

import numpy as np
import pytest

import pygpu
from pygpu import cuda
from conftest import run_mock
from test_raw_kernels_cuda_mock import needs_kernels

THREADS = 8
TIMEOUT = 120

SCALE = r'''
extern "C" __global__ void scale(const double* x, double* out, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i];
}
'''


@cuda.jit
def _shift(x, out, by):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] + by


def _hypot(a, b):
    return (a * a + b * b) ** 0.5


HYPOT = pygpu.vectorize(["float64(float64, float64)"])(_hypot)
SELU_SUM = pygpu.fuse(lambda v: (1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1))).sum())
KERNEL = pygpu.RawKernel(SCALE, "scale")


def _work(seed, device):
    """One thread's work on `device` (inside the caller's stream): NumPy results to compare."""
    rng = np.random.default_rng(seed)
    n = 70_001 + seed * 1000
    x = pygpu.asarray(rng.standard_normal(n), device=device)
    m = pygpu.asarray(rng.standard_normal((301, 257)), device=device)
    idx = pygpu.asarray(rng.integers(0, n, 5000), device=device)
    out = pygpu.empty(n, dtype=np.float64, device=device)
    KERNEL((n + 255) // 256, 256, (x, out, 1.0 + seed, np.int32(n)))
    shifted = pygpu.empty(n, dtype=np.float64, device=device)
    _shift[(n + 127) // 128, 128](x, shifted, float(seed))
    res = {
        "sum": x.sum(), "axis0": m.sum(axis=0), "argmin": m.argmin(axis=1), "var": m.var(axis=1),
        "cumsum": pygpu.cumsum(x), "cummax": pygpu.maximum.accumulate(m, axis=0),
        "reduceat": pygpu.add.reduceat(x, [0, 7, 4000, n - 2]),
        "hypot": HYPOT(x, x[::-1]), "selu_sum": SELU_SUM(x),
        "kernel": out, "jit": shifted, "sort": pygpu.sort(m, axis=1), "take": x[idx],
        "mask": x[x > 0.5],
    }
    return {k: v.get() for k, v in res.items()}


def _run_threads(fn, count):
    results, errors = [None] * count, []

    def body(i):
        try:
            results[i] = fn(i)
        except BaseException as e:  # reported below, with the thread that raised it
            errors.append((i, e))
    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a thread is still running after %d s: deadlock?" % TIMEOUT
    assert not errors, errors
    return results


@pytest.mark.parametrize("non_blocking", [False, True])
def test_eight_threads_with_their_own_streams_match_the_serial_run(device, non_blocking):
    _work(0, device)                      # compiles the kernels once, before the threads
    serial = [_work(i, device) for i in range(THREADS)]

    def threaded(i):
        with device, pygpu.Stream(device=device, non_blocking=non_blocking):
            r = _work(i, device)
        return r
    for i, got in enumerate(_run_threads(threaded, THREADS)):
        for k, v in serial[i].items():
            np.testing.assert_array_equal(got[k], v, err_msg="thread %d, %s" % (i, k))


@needs_kernels
def test_eight_threads_on_the_strict_fake_driver(mock_driver):
    """Transfers, launches, events and pool traffic from 8 threads, each on a non-blocking stream
    of the fake driver (which checks the current context per thread and runs each stream's work
    on a worker of its own): every upload comes back as it went, nothing errs or hangs."""
    out = run_mock(mock_driver, """
        import threading
        errors, ok = [], [0] * 8
        def body(i):
            try:
                rng = np.random.default_rng(i)
                s = pygpu.Stream(device="cuda:0", non_blocking=True)
                for rep in range(20):
                    with pygpu.Device("cuda:0"), s:
                        x = rng.standard_normal(1000 + 17 * i)
                        d = pygpu.asarray(x)
                        y = d + 1.0            # kernels: launched, not run
                        d.sum(); pygpu.cumsum(d); d[::3].copy()   # (no x[mask]: its size comes from a kernel)
                        s.synchronize()
                        back = d.get()
                        del y
                    if not np.array_equal(back, x):
                        raise AssertionError("thread %d, round %d: the upload came back changed" % (i, rep))
                ok[i] = 1
            except BaseException as e:
                errors.append("%d: %r" % (i, e))
        threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(8)]
        for t in threads: t.start()
        for t in threads: t.join(120)
        pygpu.synchronize("cuda:0")
        print(json.dumps({"alive": sum(t.is_alive() for t in threads), "errors": errors, "ok": sum(ok),
                          "faults": stats()["faults"]}))
    """, MOCK_CUDA_DELAY_US=50)
    assert out == {"alive": 0, "errors": [], "ok": 8, "faults": 0}
