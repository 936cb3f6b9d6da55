"""The compiled tier of vectorize/fuse against the VM on one device: bitwise equality of the two
tiers' results, and the steady-state time of each for the cases of issue 23 (vectorize
cos(x)**2+sin(x)**2 f32, Mandelbrot 1024^2 x 100, fuse SELU f32, pygpu.reduce(a + b) f32; the
reduction has no compiled tier: its two rows are the same kernels), plus the first call of a new
@vectorize in 'auto' (the VM's, no compile wait) and how long its background compile takes.

    python benchmarks/tier_check.py [--device cuda:0] [--n 100000000]
"""
import argparse
import math
import statistics
import sys
import time

import numpy as np

import pygpu
from pygpu import _core
from pygpu._jit import tier
from user_functions import COS2_SIN2, MANDEL, load_function


cos2sin2 = load_function(COS2_SIN2, "tier_cos2sin2")
mandel = load_function(MANDEL, "tier_mandel")


def poly(x):
    return ((x * 3.0 - 2.0) * x + 0.5) * x - x / 7.0


def piecewise(x):
    if x > 0.5:
        return x * x - 0.25
    elif x > 0.25:
        return 0.5 * x
    return -x


def selu(v):
    return 1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1))


def timed(fn, sync, reps=20):
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e6


def bits_equal(a, b):
    a, b = pygpu.asnumpy(a), pygpu.asnumpy(b)
    if a.dtype.kind == "c":
        return bits_equal(a.real.copy(), b.real.copy()) and bits_equal(a.imag.copy(), b.imag.copy())
    if a.dtype.kind == "f":
        return a.dtype == b.dtype and np.array_equal(a.view("u%d" % a.dtype.itemsize), b.view("u%d" % b.dtype.itemsize))
    return a.dtype == b.dtype and np.array_equal(a, b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0" if _core._cuda_device_count()[0] else "cpu")
    ap.add_argument("--n", type=float, default=None)
    args = ap.parse_args()
    dev = pygpu.Device(args.device)
    gpu = dev.type != "cpu"
    n = int(args.n) if args.n else (10 ** 8 if gpu else 10 ** 7)
    sync = dev.synchronize
    if gpu:
        from pygpu._jit import nvrtc
        nvrtc.load()   # (the version is read from the loaded library: the GPU run of 2026-11-28 stopped here)
    print("device", dev, "n", n, "nvrtc", _core._nvrtc_version() if gpu else "-", flush=True)
    rng = np.random.default_rng(0)
    with dev:
        x = pygpu.asarray(rng.random(n, dtype=np.float32))
        s = pygpu.asarray(rng.standard_normal(n).astype(np.float32))
        x64 = pygpu.asarray(rng.random(n))
        side = 1024
        xs, ys = np.broadcast_arrays(np.linspace(-2, 1, side)[None, :], np.linspace(-1.5, 1.5, side)[:, None])
        px, py = pygpu.asarray(np.ascontiguousarray(xs)), pygpu.asarray(np.ascontiguousarray(ys))
        bx, by = pygpu.asarray(np.linspace(-2, 1, side)[None, :]), pygpu.asarray(np.linspace(-1.5, 1.5, side)[:, None])

    cases = [
        ("vectorize cos2+sin2 f32", lambda: pygpu.vectorize(["float32(float32)"])(cos2sin2), (x,)),
        ("Mandelbrot 1024^2 x100", lambda: pygpu.vectorize(["int32(float64, float64, int32)"])(mandel), (px, py, 100)),
        ("Mandelbrot broadcast", lambda: pygpu.vectorize(["int32(float64, float64, int32)"])(mandel), (bx, by, 100)),
        ("fuse SELU f32", lambda: pygpu.fuse(selu), (s,)),
        ("fuse SELU f32 strided", lambda: pygpu.fuse(selu), (s[::2],)),
        ("polynomial f64 (straight)", lambda: pygpu.vectorize(["float64(float64)"])(poly), (x64,)),
        ("piecewise f32 (branches)", lambda: pygpu.vectorize(["float32(float32)"])(piecewise), (x,)),
    ]
    failures = 0
    for name, make, a in cases:
        tier.set_mode("vm")
        f_vm = make()
        r_vm = f_vm(*a)
        sync()
        t_vm = timed(lambda: f_vm(*a), sync)
        tier.set_mode("compiled")
        f_c = make()
        t0 = time.perf_counter()
        r_c = f_c(*a)
        sync()
        t_first = (time.perf_counter() - t0) * 1e3
        t_c = timed(lambda: f_c(*a), sync)
        ok = bits_equal(r_vm, r_c)
        # the CPU's VM computes sin, exp, ... with vmath.h (within 1 ulp of the kernel's pg_math.h)
        expected = gpu or all(tier.cpu_prefers_compiled(p._tier_ir) for p in tier.programs(f_c))
        failures += expected and not ok
        state = [(_core._vm_tier_state(p), _core._vm_tier_state(p, strided=True)) for p in tier.programs(f_c)]
        verdict = "EQUAL" if ok else "DIFFERENT" + ("" if expected else " (vmath.h, expected)")
        print("%-26s vm %9.0f us   compiled %9.0f us   speedup %5.2fx   bitwise %s   (compile+first %.0f ms, %s)"
              % (name, t_vm, t_c, t_vm / t_c, verdict, t_first, state), flush=True)

    red = pygpu.reduce(lambda u, v: u + v)
    print("%-26s %9.0f us (no compiled tier: the reduction kernels with a VM combiner)"
          % ("pygpu.reduce(a + b) f32", timed(lambda: red(x), sync)), flush=True)

    # 'auto': the first call of a new @vectorize is the VM's; the kernel arrives later
    tier.set_mode("auto")
    small = x[:10]
    src = "def g(x):\n    return math.cos(x) ** 2 + math.sin(x) ** 2 + %r\n" % (time.time() % 1)
    ns = {"math": math}
    exec(compile(src, "<auto-check>", "exec"), ns)
    t0 = time.perf_counter()
    g = pygpu.vectorize(["float32(float32)"])(ns["g"])
    g(small)
    sync()
    first = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    for p in tier.programs(g):
        tier.wait(p, 60)
    g(small)
    sync()
    ready = (time.perf_counter() - t0) * 1e3
    print("auto: first call %.2f ms (VM), compiled kernel ready %.0f ms later: %s; stats %s"
          % (first, ready, [_core._vm_tier_state(p) for p in tier.programs(g)], tier.stats), flush=True)
    print("RESULT", "PASS" if failures == 0 else "FAIL (%d cases differ)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
