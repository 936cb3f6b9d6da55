"""python -m pygpu: the device report, then a short demo with timings on the default device.

    python -m pygpu            the report and the demo (exit status 1 if a result is wrong)
    python -m pygpu --config   the report only (pygpu.show_config())
    python -m pygpu --json     the report as JSON, for bug reports and scripts
"""
import argparse
import json
import math
import sys
import time

import numpy as np

import pygpu
from pygpu import cuda
from pygpu._system import unusable_gpu_warning


def report():
    pygpu.show_config()
    warning = unusable_gpu_warning()
    if warning:
        print("\n" + "!" * 100 + "\n" + warning + "\n" + "!" * 100 + "\n")


def timed(fn, sync):
    fn()
    sync()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best


def demo():
    dev = pygpu.default_device()
    sync = dev.synchronize
    n = 10_000_000
    print(f"\ndemo on {dev}: {n:,} float32 elements")
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    y = np.random.default_rng(1).random(n, dtype=np.float32)
    t = timed(lambda: pygpu.asarray(x, device=dev), sync)
    print(f"  to the device     {t * 1e3:8.2f} ms  ({x.nbytes / t / 1e9:.1f} GB/s)")
    dx, dy = pygpu.asarray(x, device=dev), pygpu.asarray(y, device=dev)
    t = timed(lambda: dx.get(), sync)
    print(f"  back to the host  {t * 1e3:8.2f} ms  ({x.nbytes / t / 1e9:.1f} GB/s)")
    tp = timed(lambda: dx + dy, sync)
    tn = timed(lambda: x + y, lambda: None)
    ok = np.array_equal((dx + dy).get(), x + y)
    print(f"  x + y             {tp * 1e3:8.2f} ms  (NumPy {tn * 1e3:.2f} ms)  matches NumPy: {ok}")
    tp = timed(lambda: pygpu.cos(dx) ** 2 + pygpu.sin(dx) ** 2, sync)
    tn = timed(lambda: np.cos(x) ** 2 + np.sin(x) ** 2, lambda: None)
    r = (pygpu.cos(dx) ** 2 + pygpu.sin(dx) ** 2).get()
    print(f"  cos(x)**2+sin(x)**2 {tp * 1e3:6.2f} ms  (NumPy {tn * 1e3:.2f} ms)  max |r - 1| = "
          f"{float(np.abs(r - 1).max()):.1e}")
    tp = timed(lambda: dx.sum(), sync)
    tn = timed(lambda: x.sum(), lambda: None)
    total = float(dx.sum())
    ok &= bool(np.isclose(total, float(x.sum(dtype=np.float64)), rtol=1e-6))
    print(f"  x.sum()           {tp * 1e3:8.2f} ms  (NumPy {tn * 1e3:.2f} ms)  = {total:.6g}")
    ok &= vectorize_demo(dx, x, sync)
    ok &= kernel_demo(dx, dy, x, y, sync)
    return ok


def cos2_sin2(x):
    return math.cos(x) ** 2 + math.sin(x) ** 2


def vectorize_demo(dx, x, sync):
    """A vectorize function: its first call compiles it (no compiler runs: the VM's interpreter
    kernels were built with pygpu), later calls are one fused pass."""
    t0 = time.perf_counter()
    f = pygpu.vectorize(["float32(float32)"], target="cuda")(cos2_sin2)
    first = f(dx[:10])
    sync()
    t_first = time.perf_counter() - t0
    tp = timed(lambda: f(dx), sync)
    ok = bool(np.allclose(first.get(), 1.0, atol=1e-6))
    print("  @vectorize(['float32(float32)'], target='cuda') of cos(x)**2 + sin(x)**2:")
    print(f"    first call (compile + run on 10 elements) {t_first * 1e3:.2f} ms; on all {x.size:,}: "
          f"{tp * 1e3:.2f} ms, one pass  (runs on {f.target})")
    return ok


def add_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def kernel_demo(dx, dy, x, y, sync):
    """A cuda.jit kernel (Numba's spelling): the first launch compiles it (NVRTC on a GPU, the
    host C compiler on the CPU) or loads it from the disk cache; later launches are a C call."""
    kernel = cuda.jit(add_kernel)
    out = pygpu.empty_like(dx)
    threads = 256
    blocks = (x.size + threads - 1) // threads
    t0 = time.perf_counter()
    try:
        kernel[blocks, threads](dx, dy, out)
        sync()
    except pygpu.CompileError as e:  # no C compiler on a CPU-only machine
        print(f"  @cuda.jit add_kernel: not run ({str(e).splitlines()[0]})")
        return True
    t_first = time.perf_counter() - t0
    tp = timed(lambda: kernel[blocks, threads](dx, dy, out), sync)
    ok = bool(np.array_equal(out.get(), x + y))
    print(f"  @cuda.jit add_kernel[{blocks}, {threads}]: first launch {t_first * 1e3:.1f} ms "
          f"(compile or disk cache), then {tp * 1e3:.2f} ms  matches NumPy: {ok}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pygpu", description="pygpu's device report and a demo "
                                     "with timings on the default device (the CPU when there is no usable GPU).")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--config", action="store_true", help="print the report only (pygpu.show_config())")
    what.add_argument("--json", action="store_true", help="print the report as JSON (no demo)")
    args = parser.parse_args(argv)
    if args.json:
        from ._config import config
        print(json.dumps({section: dict(rows) for section, rows in config()}, indent=1))
        return 0
    report()
    if args.config:
        return 0
    ok = demo()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
