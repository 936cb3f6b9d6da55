"""pygpu benchmarks: one program, ratios against NumPy and (where importable) CuPy, PyTorch and
Numba measured in the same run.

    python benchmarks/run.py [--device cpu|cuda:0] [--quick] [--json PATH] [--only SUBSTRING]

Times are medians of repeated batches, in microseconds per call; on a GPU each batch ends with a
synchronize, so a time covers the work and not only the launch. Bandwidths are in GB/s (bytes
read + written). The JSON has every number, the device and the command line.
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))
import pygpu  # noqa: E402
from user_functions import COS2_SIN2, MANDEL, fresh_functions, load_function  # noqa: E402
import kernels  # noqa: E402  (benchmarks/kernels.py: user kernels)
import dask_cases  # noqa: E402  (benchmarks/dask_cases.py: Dask arrays of each library's chunks)


def optional(name):
    try:
        return __import__(name)
    except Exception:
        return None


cp = optional("cupy")
torch = optional("torch")
numba_cuda = None
kernels.numba_numpy_shim()
try:
    from numba import cuda as numba_cuda  # noqa: E402

    if not numba_cuda.is_available():
        numba_cuda = None
    else:  # a compile, where a version mismatch shows
        numba_cuda.jit("void(float32[:])")(lambda x: None)
except Exception as e:
    if numba_cuda is not None:
        print(f"numba.cuda left out: {type(e).__name__}: {e}")
    numba_cuda = None
if cp is not None:
    try:
        cp.cuda.runtime.getDeviceCount()
    except Exception:
        cp = None
if torch is not None and not torch.cuda.is_available():
    torch = None


def timeit(fn, sync=None, min_time=0.2, repeat=7, quick=False):
    """Median seconds per call of fn(), over `repeat` batches sized to take ~min_time/repeat."""
    if quick:
        min_time, repeat = min_time / 4, 3
    fn()
    if sync:
        sync()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if sync:
            sync()
        dt = time.perf_counter() - t0
        if dt > min_time / repeat or n > 1 << 22:
            break
        n *= 4 if dt < min_time / repeat / 8 else 2
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if sync:
            sync()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


class Bench:
    def __init__(self, device, quick, no_numpy=False, case=None):
        self.device = pygpu.Device(device) if device else pygpu.get_device()
        self.case = re.compile(case) if case else None   # elementwise_case labels to run
        self.no_numpy = no_numpy
        self.on_gpu = self.device.kind == "cuda"
        self.quick = quick
        self.rows = []
        self.sync = self.device.synchronize if self.on_gpu else None

    def others(self):
        """The GPU libraries to compare with (only when pygpu runs on a GPU)."""
        if not self.on_gpu:
            return {}
        libs = {}
        if cp is not None:
            libs["cupy"] = cp.cuda.Device().synchronize
        if torch is not None:
            libs["torch"] = torch.cuda.synchronize
        if numba_cuda is not None:
            libs["numba"] = numba_cuda.synchronize
        return libs

    def time(self, fn, sync):
        return timeit(fn, sync, quick=self.quick)

    def np_time(self, fn):
        """NumPy's time for the case, or None under --no-numpy (a GPU run whose minutes are
        short: NumPy on 2^26 elements costs more of them than every GPU library together)."""
        return None if self.no_numpy else timeit(fn, None, quick=self.quick)

    def add(self, group, case, unit, results, note=""):
        """results: {lib: seconds per call (unit 'us') or GB/s (unit 'GB/s')}; None = n/a."""
        self.rows.append({"group": group, "case": case, "unit": unit, "results": results, "note": note})
        self.print_row(self.rows[-1])

    def print_row(self, row):
        res = row["results"]
        cells = []
        for lib in ("pygpu", "numpy", "cupy", "torch", "numba"):
            v = res.get(lib)
            cells.append("-" if v is None else (f"{v * 1e6:9.2f}" if row["unit"] == "us" else f"{v:9.2f}"))
        ratios = []
        p = res.get("pygpu")
        for lib in ("numpy", "cupy", "torch", "numba"):
            v = res.get(lib)
            if p and v:
                # ratio > 1 means pygpu is better (faster, or more bandwidth)
                r = v / p if row["unit"] == "us" else p / v
                ratios.append(f"{lib} {r:5.2f}x")
        print(f"{row['case'][:44]:44s} {row['unit']:>4s} " + " ".join(f"{c:>9s}" for c in cells) + "  "
              + ", ".join(ratios) + (f"  [{row['note']}]" if row["note"] else ""), flush=True)


def header(title):
    print(f"\n== {title}")
    print(f"{'case':44s} unit " + " ".join(f"{n:>9s}" for n in ("pygpu", "numpy", "cupy", "torch", "numba"))
          + "  speed-up of pygpu over")


# ------------------------------------------------------------------ cases: the device array

def bench_allocation(b):
    header("allocation + free (us per call)")
    dev = b.device
    for n in (1000, 1 << 20):
        res = {"pygpu": b.time(lambda: pygpu.empty((n,), dtype=np.float32, device=dev), b.sync),
               "numpy": b.np_time(lambda: np.empty((n,), dtype=np.float32))}
        if "cupy" in b.others():
            res["cupy"] = b.time(lambda: cp.empty((n,), dtype=np.float32), b.others()["cupy"])
        if "torch" in b.others():
            res["torch"] = b.time(lambda: torch.empty((n,), dtype=torch.float32, device="cuda"), b.others()["torch"])
        if "numba" in b.others():
            res["numba"] = b.time(lambda: numba_cuda.device_array((n,), dtype=np.float32), b.others()["numba"])
        b.add("memory", f"empty(({n},), float32)", "us", res)


def bench_asarray(b):
    header("asarray of a NumPy array (us per call)")
    dev = b.device
    for n in (1, 1 << 20):
        x = np.ones(n, dtype=np.float32)
        res = {"pygpu": b.time(lambda: pygpu.asarray(x, device=dev), b.sync),
               "numpy": b.np_time(lambda: np.array(x))}
        if "cupy" in b.others():
            res["cupy"] = b.time(lambda: cp.asarray(x), b.others()["cupy"])
        if "torch" in b.others():
            res["torch"] = b.time(lambda: torch.as_tensor(x, device="cuda"), b.others()["torch"])
        if "numba" in b.others():
            res["numba"] = b.time(lambda: numba_cuda.to_device(x), b.others()["numba"])
        b.add("memory", f"asarray(float32[{n}])", "us", res, "numpy: np.array copy")


def bench_bandwidth(b):
    header("copy bandwidth (GB/s, bytes read + written for device copies)")
    dev = b.device
    n = (1 << 26) if b.on_gpu else (1 << 24)
    if b.quick:
        n //= 4
    nbytes = n * 4
    host = np.ones(n, dtype=np.float32)
    if b.on_gpu:
        for kind in ("pageable", "pinned"):
            src = host if kind == "pageable" else pygpu.cuda.pinned_array(n, dtype=np.float32)
            if kind == "pinned":
                src[...] = 1
            d = pygpu.empty(n, dtype=np.float32, device=dev)
            res = {"pygpu": nbytes / b.time(lambda: d.__setitem__(Ellipsis, src), b.sync) / 1e9}
            if "cupy" in b.others():
                hsrc = host if kind == "pageable" else cp.cuda.alloc_pinned_memory(nbytes)
                cd = cp.empty(n, dtype=np.float32)
                if kind == "pinned":
                    hview = np.frombuffer(hsrc, np.float32, n)
                    res["cupy"] = nbytes / b.time(lambda: cd.set(hview), b.others()["cupy"]) / 1e9
                else:
                    res["cupy"] = nbytes / b.time(lambda: cd.set(host), b.others()["cupy"]) / 1e9
            if "torch" in b.others():
                t_host = torch.from_numpy(host)
                if kind == "pinned":
                    t_host = t_host.pin_memory()
                td = torch.empty(n, dtype=torch.float32, device="cuda")
                res["torch"] = nbytes / b.time(lambda: td.copy_(t_host), b.others()["torch"]) / 1e9
            b.add("bandwidth", f"host->device {kind} ({nbytes >> 20} MiB)", "GB/s", res)
        d = pygpu.ones(n, dtype=np.float32, device=dev)
        out = np.empty(n, dtype=np.float32)
        res = {"pygpu": nbytes / b.time(lambda: d.get(out=out), None) / 1e9}
        if "cupy" in b.others():
            cd = cp.ones(n, dtype=np.float32)
            res["cupy"] = nbytes / b.time(lambda: cd.get(out=out), None) / 1e9
        b.add("bandwidth", f"device->host pageable ({nbytes >> 20} MiB)", "GB/s", res)
    src = pygpu.ones(n, dtype=np.float32, device=dev)
    dst = pygpu.empty(n, dtype=np.float32, device=dev)
    copy = lambda: dst.__setitem__(Ellipsis, src)  # noqa: E731
    if not hasattr(pygpu.ndarray, "__setitem__"):
        copy = lambda: src.copy()  # noqa: E731
    res = {"pygpu": 2 * nbytes / b.time(copy, b.sync) / 1e9}
    hs, hd = np.ones(n, np.float32), np.empty(n, np.float32)
    t_np = b.np_time(lambda: np.copyto(hd, hs))
    res["numpy"] = 2 * nbytes / t_np / 1e9 if t_np else None
    if "cupy" in b.others():
        cs, cd = cp.ones(n, dtype=np.float32), cp.empty(n, dtype=np.float32)
        res["cupy"] = 2 * nbytes / b.time(lambda: cp.copyto(cd, cs), b.others()["cupy"]) / 1e9
    if "torch" in b.others():
        ts, td = torch.ones(n, device="cuda"), torch.empty(n, device="cuda")
        res["torch"] = 2 * nbytes / b.time(lambda: td.copy_(ts), b.others()["torch"]) / 1e9
    b.add("bandwidth", f"device->device copy ({nbytes >> 20} MiB)", "GB/s", res,
          "the ceiling for elementwise figures")
    b.copy_bandwidth = res["pygpu"]


# ------------------------------------------------------------------ cases: elementwise math

def has_operators():
    try:
        pygpu.ones(1) + pygpu.ones(1)
        return True
    except TypeError:
        return False


def other_time(b, fn, lib):
    """Seconds per call of another library's version, or None where it has no such function (torch
    has no pad, ...): a comparison to skip, not a failed run."""
    try:
        return b.time(fn, b.others()[lib])
    except (AttributeError, TypeError, NotImplementedError):
        return None
    except Exception as e:  # the library's own failure (cupy.fuse's compile of where, ...)
        print(f"   {lib} failed: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
        return None


def elementwise_case(b, label, make, expr, nbytes=None, group="elementwise"):
    """make(xp, n-arrays) -> inputs; expr(xp, *inputs) -> result. Times pygpu, numpy and others."""
    if b.case and not b.case.search(label):
        return
    dev = b.device
    res = {}
    inputs = make(np)
    res["numpy"] = b.np_time(lambda: expr(np, *inputs))
    with dev:
        pin = [pygpu.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs]
    res["pygpu"] = b.time(lambda: expr(pygpu, *pin), b.sync)
    if "cupy" in b.others():
        cin = [cp.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs]
        res["cupy"] = other_time(b, lambda: expr(cp, *cin), "cupy")
    if "torch" in b.others():
        tin = [torch.as_tensor(x, device="cuda") if isinstance(x, np.ndarray) else x for x in inputs]
        res["torch"] = other_time(b, lambda: expr(torch, *tin), "torch")
    note = ""
    if nbytes and b.on_gpu and getattr(b, "copy_bandwidth", None):
        gbs = nbytes / res["pygpu"] / 1e9
        note = f"{gbs:.0f} GB/s = {100 * gbs / b.copy_bandwidth:.0f}% of copy"
    b.add(group, label, "us", res, note)


def bench_elementwise(b):
    header("elementwise (us per call)")
    if not has_operators():
        print("(pygpu operators not available in this build)")
        return
    sizes = [10 ** 3, 10 ** 5, 10 ** 7] + ([1 << 26] if b.on_gpu else [])
    if b.quick:
        sizes = [10 ** 3, 10 ** 6]
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        for n in sizes:
            isz = np.dtype(dtype).itemsize
            elementwise_case(b, f"a + b {np.dtype(dtype).name} n={n:.0e}",
                             lambda xp: (rng.random(n).astype(dtype), rng.random(n).astype(dtype)),
                             lambda xp, a, c: a + c, 3 * n * isz)
            elementwise_case(b, f"cos(x)**2 + sin(x)**2 {np.dtype(dtype).name} n={n:.0e}",
                             lambda xp: (rng.random(n).astype(dtype),),
                             lambda xp, x: xp.cos(x) ** 2 + xp.sin(x) ** 2)
    n = sizes[-1] if b.on_gpu else 10 ** 6
    elementwise_case(b, f"int32 + float64 n={n:.0e}",
                     lambda xp: (rng.integers(0, 100, n).astype(np.int32), rng.random(n)),
                     lambda xp, a, c: a + c, n * (4 + 8 + 8))
    side = int(math.sqrt(n))
    elementwise_case(b, f"strided a[::2] + b[::2] n={n // 2:.0e}",
                     lambda xp: (rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)),
                     lambda xp, a, c: a[::2] + c[::2], 3 * (n // 2) * 4)
    elementwise_case(b, f"broadcast (m,1) + (1,m) m={side}",
                     lambda xp: (rng.random((side, 1)).astype(np.float32), rng.random((1, side)).astype(np.float32)),
                     lambda xp, a, c: a + c, side * side * 4)
    elementwise_case(b, f"strided sqrt(a[::2]) f32 n={n // 2:.0e}", lambda xp: (rng.random(n).astype(np.float32),),
                     lambda xp, a: xp.sqrt(a[::2]), 2 * (n // 2) * 4)
    big = 1000 if b.quick else 3000
    elementwise_case(b, f"transposed a + b.T {big}x{big} f64", lambda xp: (rng.random((big, big)), rng.random((big, big))),
                     lambda xp, a, c: a + c.T, 3 * big * big * 8)
    elementwise_case(b, f"transposed copy of a.T into C order {big}x{big} f64", lambda xp: (rng.random((big, big)),),
                     lambda xp, a: a.T.contiguous() if xp is torch else xp.ascontiguousarray(a.T), 2 * big * big * 8)
    m = 10 ** 6
    elementwise_case(b, f"floor float32 n={m:.0e}", lambda xp: (rng.standard_normal(m).astype(np.float32) * 10,),
                     lambda xp, a: xp.floor(a), 2 * m * 4)
    elementwise_case(b, f"left_shift int64 n={m:.0e}",
                     lambda xp: (rng.integers(0, 1 << 20, m), rng.integers(0, 40, m)),
                     lambda xp, a, c: a << c, 3 * m * 8)
    elementwise_case(b, f"clip(x, -1, 1) float64 n={m:.0e}", lambda xp: (rng.standard_normal(m),),
                     lambda xp, a: xp.clip(a, -1.0, 1.0), 2 * m * 8)
    with_nans = rng.random(m).astype(np.float32) + 0.5
    with_nans[rng.random(m) < 0.3] = np.nan
    elementwise_case(b, f"log float32 n={m:.0e}, 30% NaN", lambda xp: (with_nans,), lambda xp, a: xp.log(a), 2 * m * 4)
    signed = rng.standard_normal(m).astype(np.float32)
    elementwise_case(b, f"log float32 n={m:.0e}, half negative", lambda xp: (signed,), lambda xp, a: xp.log(a),
                     2 * m * 4)
    for ct, size in ((np.complex64, 8), (np.complex128, 16)):
        elementwise_case(b, f"abs {np.dtype(ct).name} n={m:.0e}",
                         lambda xp, ct=ct: ((rng.standard_normal(m) + 1j * rng.standard_normal(m)).astype(ct),),
                         lambda xp, a: xp.abs(a), m * (size + size // 2))
    z = rng.standard_normal(m) + 1j * rng.standard_normal(m)
    for name in ("log", "sqrt", "arcsin"):   # the complex functions: exact near |z| = 1 and z = 1, tiny and huge
        elementwise_case(b, f"{name} complex128 n={m:.0e}", lambda xp: (z,),
                         lambda xp, a, name=name: getattr(xp, name)(a), 2 * m * 16)
    elementwise_case(b, f"hypot float64 n={m:.0e}", lambda xp: (rng.standard_normal(m), rng.standard_normal(m)),
                     lambda xp, a, c: xp.hypot(a, c), 3 * m * 8)
    elementwise_case(b, "per-call overhead: a + b, 1 element",
                     lambda xp: (np.ones(1, np.float32), np.ones(1, np.float32)),
                     lambda xp, a, c: a + c)


# ------------------------------------------------------------------ cases: reductions and scans

def copy_bandwidth(b):
    """The device-to-device copy bandwidth (GB/s, bytes read + written) of this run: the ceiling
    the GPU figures are read against (measured here when the bandwidth group did not run)."""
    if getattr(b, "copy_bandwidth", None):
        return b.copy_bandwidth
    n = 1 << 26
    src = pygpu.ones(n, dtype=np.float32, device=b.device)
    dst = pygpu.empty(n, dtype=np.float32, device=b.device)
    b.copy_bandwidth = 2 * n * 4 / b.time(lambda: dst.__setitem__(Ellipsis, src), b.sync) / 1e9
    return b.copy_bandwidth


def reduction_case(b, label, make, expr, nbytes=None, torch_expr=None):
    """make() -> NumPy inputs; expr(xp, *inputs) the same call in NumPy, pygpu and CuPy;
    torch_expr(torch, *inputs) where PyTorch spells it differently. On a GPU the note gives the
    bytes read per second as a fraction of the copy bandwidth (which counts bytes read + written,
    so a reduction at the memory's limit reads at about the same rate)."""
    dev = b.device
    inputs = make()
    res = {"numpy": b.np_time(lambda: expr(np, *inputs))}
    with dev:
        pin = [pygpu.asarray(x) for x in inputs]
    res["pygpu"] = b.time(lambda: expr(pygpu, *pin), b.sync)
    if "cupy" in b.others():
        cin = [cp.asarray(x) for x in inputs]
        res["cupy"] = b.time(lambda: expr(cp, *cin), b.others()["cupy"])
    if "torch" in b.others():
        tin = [torch.as_tensor(x, device="cuda") for x in inputs]
        texpr = torch_expr or (lambda t, *a: expr(t, *a))
        res["torch"] = b.time(lambda: texpr(torch, *tin), b.others()["torch"])
    note = ""
    if nbytes and b.on_gpu:
        gbs = nbytes / res["pygpu"] / 1e9
        note = f"{gbs:.0f} GB/s read = {100 * gbs / copy_bandwidth(b):.0f}% of copy"
    b.add("reductions", label, "us", res, note)


def bench_reductions(b):
    header("reductions and scans (us per call)")
    rng = np.random.default_rng(0)
    if b.on_gpu:
        n = 1 << 28 if not b.quick else 1 << 26
        reduction_case(b, f"sum float32 n=2^{n.bit_length() - 1}", lambda: (rng.random(n, dtype=np.float32),),
                       lambda xp, x: x.sum(), 4 * n)
        side = 8192 if not b.quick else 4096
        make = lambda: (rng.random((side, side), dtype=np.float32),)  # noqa: E731
        for axis in (0, 1):
            reduction_case(b, f"sum(axis={axis}) float32 {side}x{side}", make, lambda xp, x, a=axis: x.sum(axis=a),
                           4 * side * side, lambda t, x, a=axis: x.sum(dim=a))
        reduction_case(b, f"argmin(axis=1) float32 {side}x{side}", make, lambda xp, x: x.argmin(axis=1),
                       4 * side * side, lambda t, x: x.argmin(dim=1))
        reduction_case(b, f"mean(axis=0) float32 {side}x{side}", make, lambda xp, x: x.mean(axis=0),
                       4 * side * side, lambda t, x: x.mean(dim=0))
        m = 1 << 26
        reduction_case(b, "cumsum float32 n=2^26", lambda: (rng.random(m, dtype=np.float32),),
                       lambda xp, x: xp.cumsum(x), 4 * m, lambda t, x: t.cumsum(x, dim=0))
        return
    n = 10 ** 7 if not b.quick else 10 ** 6
    reduction_case(b, f"sum float32 n={n:.0e}", lambda: (rng.random(n, dtype=np.float32),), lambda xp, x: x.sum())
    side = 3000 if not b.quick else 1000
    make = lambda: (rng.random((side, side)),)  # noqa: E731
    reduction_case(b, f"sum(axis=0) float64 {side}x{side}", make, lambda xp, x: x.sum(axis=0))
    reduction_case(b, f"sum(axis=1) float64 {side}x{side}", make, lambda xp, x: x.sum(axis=1))
    reduction_case(b, f"cumsum float64 n={n:.0e}", lambda: (rng.random(n),), lambda xp, x: xp.cumsum(x))
    reduction_case(b, f"cumsum float32 n={n:.0e}", lambda: (rng.random(n, dtype=np.float32),),
                   lambda xp, x: xp.cumsum(x))
    reduction_case(b, f"cumsum float16 n={n:.0e} (every step rounded, as NumPy)",
                   lambda: (rng.random(n).astype(np.float16),), lambda xp, x: xp.cumsum(x))
    reduction_case(b, f"max float64 n={n:.0e}", lambda: (rng.random(n),), lambda xp, x: x.max())
    reduction_case(b, f"argmin(axis=1) float64 {side}x{side}", make, lambda xp, x: x.argmin(axis=1))
    reduction_case(b, f"mean float64 n={n:.0e}", lambda: (rng.random(n),), lambda xp, x: x.mean())
    reduction_case(b, f"var float64 n={n:.0e}", lambda: (rng.random(n),), lambda xp, x: x.var())
    pixels = lambda: (rng.integers(0, 256, 10 ** 7 if not b.quick else 10 ** 6).astype(np.uint8),)  # noqa: E731
    reduction_case(b, "max uint8 n=%.0e" % (10 ** 7 if not b.quick else 10 ** 6), pixels, lambda xp, x: x.max())
    reduction_case(b, "argmax uint8 n=%.0e" % (10 ** 7 if not b.quick else 10 ** 6), pixels, lambda xp, x: x.argmax())
    reduction_case(b, f"min(axis=1) int16 {side}x{side}", lambda: (rng.integers(-9999, 9999, (side, side)).astype(np.int16),),
                   lambda xp, x: x.min(axis=1))
    reduction_case(b, "argmax int32 n=%.0e" % n, lambda: (rng.integers(-10 ** 9, 10 ** 9, n).astype(np.int32),),
                   lambda xp, x: x.argmax())
    reduction_case(b, f"count_nonzero bool n={n:.0e}", lambda: (rng.random(n) > 0.5,),
                   lambda xp, x: xp.count_nonzero(x))
    reduction_case(b, "per-call overhead: sum, 1 element", lambda: (np.ones(1, np.float32),), lambda xp, x: x.sum())

# ------------------------------------------------------------------ cases: user functions

numba = optional("numba")
numexpr = optional("numexpr")

def settled(f, *args):
    """f after its compiled tier is in place (pygpu/_jit/tier.py: the VM runs the first calls
    while the kernel compiles in the background): the steady state a long run reaches. Returns
    the tier each of its programs runs on this device, for the notes."""
    from pygpu._jit import tier
    f(*args)
    for p in tier.programs(f):
        tier.wait(p, 300)
    f(*args)
    states = [s for p in tier.programs(f) for s in pygpu._core._vm_tier_state(p).values()]
    return "compiled tier" if "compiled" in states else "VM"


TRANSCENDENTAL = {  # name: the arguments it takes, from x in [0, 1)
    "sin": lambda x: 10 * x, "cos": lambda x: 10 * x, "tan": lambda x: 3 * x - 1.5,
    "arcsin": lambda x: 2 * x - 1, "arccos": lambda x: 2 * x - 1, "arctan": lambda x: 20 * x - 10,
    "sinh": lambda x: 20 * x - 10, "cosh": lambda x: 20 * x - 10, "tanh": lambda x: 10 * x - 5,
    "arcsinh": lambda x: 20 * x - 10, "arccosh": lambda x: 10 * x + 1, "arctanh": lambda x: 1.98 * x - 0.99,
    "exp": lambda x: 20 * x - 10, "exp2": lambda x: 20 * x - 10, "expm1": lambda x: 4 * x - 2,
    "log": lambda x: 10 * x + 0.1, "log2": lambda x: 10 * x + 0.1, "log10": lambda x: 10 * x + 0.1,
    "log1p": lambda x: 10 * x - 0.9, "cbrt": lambda x: 20 * x - 10,
}


def bench_transcendental(b):
    """The float32 and float64 transcendental ufuncs, power and arctan2: on the CPU, vectorised
    polynomials (kernels/vmath_cpu.c) where vmath.h lists one, else the C library's."""
    header("transcendental ufuncs (us per call)")
    n = (1 << 26 if b.on_gpu else 10 ** 6) // (10 if b.quick else 1)
    x = np.random.default_rng(0).random(n)
    y = np.random.default_rng(1).random(n)
    for dt in ("float32", "float64"):
        for name, arguments in TRANSCENDENTAL.items():
            v = arguments(x).astype(dt)
            elementwise_case(b, f"{name} {dt} n={n:.0e}", lambda xp: (v,), lambda xp, a: getattr(xp, name)(a),
                             2 * v.nbytes, group="transcendental")
        base, exponent = (10 * x + 0.1).astype(dt), (6 * y - 3).astype(dt)
        elementwise_case(b, f"power {dt} n={n:.0e}", lambda xp: (base, exponent), lambda xp, a, e: xp.power(a, e),
                         3 * base.nbytes, group="transcendental")
        elementwise_case(b, f"x ** 3 {dt} n={n:.0e}", lambda xp: (base,), lambda xp, a: a ** 3,
                         2 * base.nbytes, group="transcendental")
        ys, xs = (2 * x - 1).astype(dt), (2 * y - 1).astype(dt)
        elementwise_case(b, f"arctan2 {dt} n={n:.0e}", lambda xp: (ys, xs), lambda xp, a, c: xp.arctan2(a, c),
                         3 * ys.nbytes, group="transcendental")


def bench_vectorize(b):
    header("vectorize and fuse (us per call)")
    dev = b.device
    target = "cuda" if b.on_gpu else "cpu"
    numba_target = "cuda" if b.on_gpu else "parallel"
    sync = b.sync

    # first call of a new function: compile + run on 10 elements
    x10 = np.linspace(0, 1, 10, dtype=np.float32)
    with dev:
        d10 = pygpu.asarray(x10)
    pygpu.vectorize(["float32(float32)"], target=target)(load_function(COS2_SIN2, "warm"))(d10)
    times = []
    for f in fresh_functions(COS2_SIN2, 3 if b.quick else 10, "pg"):
        t0 = time.perf_counter()
        r = pygpu.vectorize(["float32(float32)"], target=target)(f)(d10)
        if sync:
            sync()
        times.append(time.perf_counter() - t0)
        del r
    res = {"pygpu": statistics.median(times)}
    note = ""
    if numba is not None and (numba_target != "cuda" or numba_cuda is not None):
        ntimes = []
        for f in fresh_functions(COS2_SIN2, 2 if b.quick else 3, "nb"):
            t0 = time.perf_counter()
            numba.vectorize(["float32(float32)"], target=numba_target)(f)(x10)
            ntimes.append(time.perf_counter() - t0)
        res["numba"] = statistics.median(ntimes)
        note = f"numba @vectorize(target='{numba_target}')"
    b.add("vectorize", "first call of a new @vectorize (10 elements)", "us", res, note)

    # cos(x)**2 + sin(x)**2 in float32: the fused function against the unfused expression
    n = (10 ** 8 if b.on_gpu else 10 ** 7) // (10 if b.quick else 1)
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    with dev:
        dx = pygpu.asarray(x)
    f = pygpu.vectorize(["float32(float32)"], target=target)(load_function(COS2_SIN2, "steady"))
    on = settled(f, dx)
    res = {"pygpu": b.time(lambda: f(dx), sync),
           "numpy": b.np_time(lambda: np.cos(x) ** 2 + np.sin(x) ** 2)}
    notes = []
    if numexpr is not None and not b.on_gpu:
        t = b.time(lambda: numexpr.evaluate("cos(x)**2 + sin(x)**2", local_dict={"x": x}), None)
        res["numexpr"] = t
        notes.append(f"numexpr {t * 1e6:.0f} us: {t / res['pygpu']:.2f}x")
    if "cupy" in b.others():
        cx = cp.asarray(x)
        res["cupy"] = b.time(lambda: cp.cos(cx) ** 2 + cp.sin(cx) ** 2, b.others()["cupy"])
    if numba is not None and (not b.on_gpu or numba_cuda is not None):
        nf = numba.vectorize(["float32(float32)"], target=numba_target)(load_function(COS2_SIN2, "nbsteady"))
        if b.on_gpu:
            nx = numba_cuda.to_device(x)
            res["numba"] = b.time(lambda: nf(nx), numba_cuda.synchronize)
        else:
            res["numba"] = b.time(lambda: nf(x), None)
    if b.on_gpu and getattr(b, "copy_bandwidth", None):
        gbs = 8 * n / res["pygpu"] / 1e9
        notes.append(f"{gbs:.0f} GB/s = {100 * gbs / b.copy_bandwidth:.0f}% of copy")
    notes.append("numpy/cupy: unfused")
    notes.append("pygpu: " + on)
    b.add("vectorize", f"vectorize cos(x)**2+sin(x)**2 f32 n={n:.0e}", "us", res, "; ".join(notes))

    # Mandelbrot, 1024 x 1024, 100 iterations
    side = 256 if b.quick else 1024
    xs = np.linspace(-2, 1, side)[None, :]
    ys = np.linspace(-1.5, 1.5, side)[:, None]
    xb, yb = (np.ascontiguousarray(v) for v in np.broadcast_arrays(xs, ys))
    with dev:
        px, py = pygpu.asarray(xb), pygpu.asarray(yb)
    mf = pygpu.vectorize(["int32(float64, float64, int32)"], target=target)(load_function(MANDEL, "mandel"))
    on = settled(mf, px, py, 100)
    res = {"pygpu": b.time(lambda: mf(px, py, 100), sync)}
    if numba is not None and (not b.on_gpu or numba_cuda is not None):
        nm = numba.vectorize(["int32(float64, float64, int32)"], target=numba_target)(load_function(MANDEL, "nbm"))
        if b.on_gpu:
            nx, ny = numba_cuda.to_device(xb), numba_cuda.to_device(yb)
            res["numba"] = b.time(lambda: nm(nx, ny, 100), numba_cuda.synchronize)
        else:
            res["numba"] = b.time(lambda: nm(xb, yb, 100), None)
    b.add("vectorize", f"Mandelbrot {side}x{side}, 100 iterations", "us", res,
          f"numba @vectorize(target='{numba_target}'); pygpu: {on}")

    # SELU with where, fused
    n = (10 ** 8 if b.on_gpu else 10 ** 7) // (10 if b.quick else 1)
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    with dev:
        dx = pygpu.asarray(x)
    selu = pygpu.fuse(lambda v: 1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1)))
    on = settled(selu, dx)
    res = {"pygpu": b.time(lambda: selu(dx), sync),
           "numpy": b.np_time(lambda: 1.0507 * np.where(x > 0, x, 1.6733 * (np.exp(x) - 1)))}
    if "cupy" in b.others():
        cx = cp.asarray(x)
        cselu = cp.fuse(lambda v: 1.0507 * cp.where(v > 0, v, 1.6733 * (cp.exp(v) - 1)))
        res["cupy"] = other_time(b, lambda: cselu(cx), "cupy")
    b.add("vectorize", f"fuse SELU f32 n={n:.0e}", "us", res, f"numpy unfused; cupy.fuse; pygpu: {on}")

    # SELU then its sum, fused: one pass, the program as the reduction's map
    selu_sum = pygpu.fuse(lambda v: (1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1))).sum())
    res = {"pygpu": b.time(lambda: selu_sum(dx), sync),
           "numpy": b.np_time(lambda: (1.0507 * np.where(x > 0, x, 1.6733 * (np.exp(x) - 1))).sum())}
    if "cupy" in b.others():
        csum = cp.fuse(lambda v: cp.sum(1.0507 * cp.where(v > 0, v, 1.6733 * (cp.exp(v) - 1))))
        res["cupy"] = other_time(b, lambda: csum(cx), "cupy")
    b.add("vectorize", f"fuse SELU then sum f32 n={n:.0e}", "us", res, "numpy unfused; cupy.fuse")

    # reductions and scans with a user's combiner (the reduction kernels, a VM program combining)
    add = pygpu.vectorize(lambda u, v: u + v)
    red = pygpu.reduce(lambda u, v: u + v)
    res = {"pygpu": b.time(lambda: red(dx), sync), "numpy": b.np_time(lambda: x.sum())}
    if "numba" in b.others():
        nred = numba_cuda.reduce(lambda u, v: u + v)
        nx = numba_cuda.to_device(x)
        res["numba"] = b.time(lambda: nred(nx), b.others()["numba"])
    b.add("vectorize", f"pygpu.reduce(a + b) f32 n={n:.0e}", "us", res, "numpy sum; numba cuda.reduce")
    res = {"pygpu": b.time(lambda: add.accumulate(dx), sync), "numpy": b.np_time(lambda: np.cumsum(x))}
    b.add("vectorize", f"vectorize(a + b).accumulate f32 n={n:.0e}", "us", res, "numpy cumsum")
    side = 8192 if b.on_gpu else 3000
    m = np.random.default_rng(2).random((side, side))
    with dev:
        dm = pygpu.asarray(m)
    for axis in (0, 1):
        res = {"pygpu": b.time(lambda: add.reduce(dm, axis=axis), sync),
               "numpy": b.np_time(lambda: m.sum(axis=axis))}
        b.add("vectorize", f"vectorize(a + b).reduce axis={axis} {side}^2 f64", "us", res, "numpy sum")

# ------------------------------------------------------------------ cases: sorting and indexing

def library_case(b, group, label, make, run, note=""):
    """make(xp) -> inputs (NumPy arrays are moved to each library's device); run(xp, *inputs)."""
    dev = b.device
    inputs = make()
    res = {"numpy": b.np_time(lambda: run(np, *inputs))}
    with dev:
        pin = [pygpu.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs]
    res["pygpu"] = b.time(lambda: run(pygpu, *pin), b.sync)
    if "cupy" in b.others():
        cin = [cp.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs]
        try:   # a case CuPy has no spelling of (pygpu.polynomial's chebval on CuPy arrays)
            res["cupy"] = b.time(lambda: run(cp, *cin), b.others()["cupy"])
        except Exception:
            pass
    if "torch" in b.others() and getattr(run, "torch", True):
        tin = [torch.as_tensor(x, device="cuda") if isinstance(x, np.ndarray) else x for x in inputs]
        try:
            res["torch"] = b.time(lambda: run(torch, *tin), b.others()["torch"])
        except Exception:
            pass
    b.add(group, label, "us", res, note)
    return res


def bench_sort(b):
    header("sorting and searching (us per call)")
    rng = np.random.default_rng(0)
    n = (1 << 26) if b.on_gpu else 10 ** 6
    if b.quick and b.on_gpu:
        n = 1 << 24
    res = library_case(b, "sort", f"sort float32 n={n:.2e}", lambda: (rng.random(n, dtype=np.float32),),
                       lambda xp, x: xp.sort(x),
                       "target: >= 0.95x numpy (CPU), >= 0.90x cupy (CUDA)")
    if b.on_gpu:
        print(f"   keys/s: pygpu {n / res['pygpu'] / 1e9:.2f} G" +
              (f", cupy {n / res['cupy'] / 1e9:.2f} G" if res.get("cupy") else ""))
    library_case(b, "sort", f"argsort float32 n={n:.2e}", lambda: (rng.random(n, dtype=np.float32),),
                 lambda xp, x: xp.argsort(x))
    library_case(b, "sort", f"sort float64 n={n:.2e}", lambda: (rng.random(n),), lambda xp, x: xp.sort(x))
    rows = 1000 if not b.on_gpu else 8192
    library_case(b, "sort", f"sort rows ({rows}, 1000) float32", lambda: (rng.random((rows, 1000), dtype=np.float32),),
                 lambda xp, x: xp.sort(x, axis=-1))
    m = n // 10
    library_case(b, "sort", f"searchsorted {m:.0e} values into {n:.0e}",
                 lambda: (np.sort(rng.random(n)), rng.random(m)),
                 lambda xp, a, v: xp.searchsorted(a, v))
    unique = lambda xp, x: xp.unique(x)  # noqa: E731
    unique.torch = False
    library_case(b, "sort", f"unique int64 n={n:.0e}", lambda: (rng.integers(0, n // 100, n),), unique)


def bench_indexing(b):
    header("advanced indexing (us per call)")
    rng = np.random.default_rng(0)
    n = (1 << 26) if b.on_gpu else 10 ** 6
    if b.quick and b.on_gpu:
        n = 1 << 24
    target = "target: >= 0.8x numpy (CPU)"
    library_case(b, "indexing", f"x[mask] float32 n={n:.0e} (half true)",
                 lambda: (rng.random(n, dtype=np.float32), rng.random(n) < 0.5), lambda xp, x, m: x[m],
                 target + ", faster than cupy (CUDA)")
    library_case(b, "indexing", f"x[idx] float32 n={n:.0e} (random int64)",
                 lambda: (rng.random(n, dtype=np.float32), rng.integers(0, n, n)), lambda xp, x, i: x[i], target)
    setmask = lambda xp, x, m: x.__setitem__(m, 0)  # noqa: E731
    library_case(b, "indexing", f"x[mask] = 0 float32 n={n:.0e}",
                 lambda: (rng.random(n, dtype=np.float32), rng.random(n) < 0.5), setmask)
    setidx = lambda xp, x, i, v: x.__setitem__(i, v)  # noqa: E731
    library_case(b, "indexing", f"x[idx] = v float32 n={n:.0e} (permutation)",
                 lambda: (rng.random(n, dtype=np.float32), rng.permutation(n), rng.random(n, dtype=np.float32)),
                 setidx)
    nz = lambda xp, x: xp.nonzero(x)  # noqa: E731
    library_case(b, "indexing", f"nonzero bool n={n:.0e}", lambda: (rng.random(n) < 0.5,), nz)

# ------------------------------------------------------------------ cases: array manipulation

def bench_manipulation(b):
    header("manipulation (us per call)")
    rng = np.random.default_rng(0)
    n = 10 ** 6
    for dtype in (np.float32, np.float64):
        isz = np.dtype(dtype).itemsize
        elementwise_case(b, f"concatenate 2 x {n:.0e} {np.dtype(dtype).name}",
                         lambda xp: (rng.random(n).astype(dtype), rng.random(n).astype(dtype)),
                         lambda xp, a, c: xp.concatenate((a, c)), 4 * n * isz, group="manipulation")
    side = 1000
    elementwise_case(b, f"stack 4 x ({side},{side}) float32 axis=1",
                     lambda xp: tuple(rng.random((side, side)).astype(np.float32) for _ in range(4)),
                     lambda xp, *a: xp.stack(a, axis=1), 8 * side * side * 4, group="manipulation")
    elementwise_case(b, f"pad ({side},{side}) float32 by 16, reflect",
                     lambda xp: (rng.random((side, side)).astype(np.float32),),
                     lambda xp, a: xp.pad(a, 16, mode="reflect"), group="manipulation")
    elementwise_case(b, f"tile ({side},) float32 ({side}, 1)",
                     lambda xp: (rng.random(side).astype(np.float32),),
                     lambda xp, a: xp.tile(a, (side, 1)), group="manipulation")
# ------------------------------------------------------------------ cases: NumPy's functions (issue 19)

def bench_numpy_functions(b):
    header("NumPy's functions built from pygpu's operations (us per call)")
    rng = np.random.default_rng(0)
    n = 10 ** 7 if b.on_gpu else 10 ** 6
    target = "target: >= 1.0x numpy (CPU)"
    x, y = rng.random(n), rng.random(n)
    y[::7] = x[::7]
    library_case(b, "numpy-functions", f"allclose float64 n={n:.0e}", lambda: (x, x + 1e-9),
                 lambda xp, a, c: xp.allclose(a, c), target)
    holes = x.copy()
    holes[::100] = np.nan
    holes[1::100] = np.inf
    library_case(b, "numpy-functions", f"nan_to_num float64 n={n:.0e}", lambda: (holes,),
                 lambda xp, a: xp.nan_to_num(a), target)
    table = np.sort(rng.random(10 ** 4))
    library_case(b, "numpy-functions", f"interp {n:.0e} points into 1e4", lambda: (x, table, np.sin(table)),
                 lambda xp, q, tx, ty: xp.interp(q, tx, ty), target)
    library_case(b, "numpy-functions", f"convolve float64 n={n:.0e} with 9 taps, same",
                 lambda: (x, np.hanning(9)), lambda xp, a, k: xp.convolve(a, k, mode="same"), target)
    rows = rng.random((64, n // 64))
    library_case(b, "numpy-functions", f"cov (64, {n // 64}) float64", lambda: (rows,),
                 lambda xp, a: xp.cov(a), target)
    library_case(b, "numpy-functions", f"frexp float64 n={n:.0e}", lambda: (x * 1e10,),
                 lambda xp, a: xp.frexp(a))
    library_case(b, "numpy-functions", f"ldexp float64, int32 n={n:.0e}",
                 lambda: (x, rng.integers(-50, 50, n).astype(np.int32)), lambda xp, a, e: xp.ldexp(a, e))
    library_case(b, "numpy-functions", f"bitwise_count uint8 n={n:.0e}",
                 lambda: (rng.integers(0, 256, n).astype(np.uint8),), lambda xp, a: xp.bitwise_count(a))
    library_case(b, "numpy-functions", "subtract.outer float64 1000x1000", lambda: (x[:1000], y[:1000]),
                 lambda xp, a, c: xp.subtract.outer(a, c))
    cheb = np.polynomial.chebyshev
    coef = rng.standard_normal(13)

    def chebval(xp, a):
        return (cheb if xp is np else pygpu.polynomial.chebyshev).chebval(a, coef)
    chebval.torch = False
    library_case(b, "numpy-functions", f"chebval degree 12 n={n:.0e}", lambda: (2 * x - 1,), chebval)


# ------------------------------------------------------------------ cases: FFT

def bench_fft(b):
    header("FFT: cuFFT on a GPU, pocketfft on the CPU (us per call)")
    rng = np.random.default_rng(0)
    small = b.quick   # the sizes (2^24 points take a second a call in numpy.fft on a 2-core CPU)
    n = 1 << (20 if small else 24)
    target = "target: >= 0.95x cupy (GPU, same cuFFT), >= 1.0x numpy (CPU)"
    signal = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    library_case(b, "fft", f"fft 1-d complex64 n=2^{n.bit_length() - 1}", lambda: (signal,),
                 lambda xp, a: xp.fft.fft(a), target)
    rows = rng.standard_normal((256 if small else 1024, 4096)).astype(np.float32)
    library_case(b, "fft", f"rfft batched {rows.shape[0]}x4096 float32", lambda: (rows,),
                 lambda xp, a: xp.fft.rfft(a), target)
    side = 1024 if small else 4096
    image = (rng.standard_normal((side, side)) + 1j * rng.standard_normal((side, side))).astype(np.complex64)
    library_case(b, "fft", f"fft2 {side}^2 complex64", lambda: (image,), lambda xp, a: xp.fft.fft2(a), target)


# ------------------------------------------------------------------ cases: random numbers

def bench_random(b):
    """pygpu.random against NumPy's default_rng (CPU: the figures the issue asks of one core
    come from OMP_NUM_THREADS=1) and, on a GPU, CuPy's default_rng and torch; the GPU cases
    also as a fraction of the write bandwidth of a fill of the same size."""
    import pygpu.random as pr
    threads = "" if b.on_gpu else f" ({pygpu._core._cpu_threads()} CPU threads)"
    header(f"random numbers (us per call){threads}")
    dev = b.device
    g, npg = pr.default_rng(0), np.random.default_rng(0)
    cpg = cp.random.default_rng(0) if "cupy" in b.others() else None
    n = (1 << 26) if b.on_gpu else 10 ** 7
    if b.quick:
        n //= 4
    write_bw = None
    if b.on_gpu:
        d = pygpu.empty(n, dtype=np.float32, device=dev)
        write_bw = n * 4 / b.time(lambda: d.fill(0.0), b.sync) / 1e9

    def case(label, pg, npf, cpf=None, tf=None, nbytes=None):
        res = {"pygpu": b.time(pg, b.sync), "numpy": b.np_time(npf) if npf else None}
        if cpf and "cupy" in b.others():
            res["cupy"] = b.time(cpf, b.others()["cupy"])
        if tf and "torch" in b.others():
            res["torch"] = b.time(tf, b.others()["torch"])
        note = ""
        if nbytes and write_bw:
            gbs = nbytes / res["pygpu"] / 1e9
            note = f"{gbs:.0f} GB/s = {100 * gbs / write_bw:.0f}% of a fill's {write_bw:.0f} GB/s"
        b.add("random", label, "us", res, note)

    for dtype in (np.float32, np.float64):
        name = np.dtype(dtype).name
        out, nout = pygpu.empty(n, dtype=dtype, device=dev), np.empty(n, dtype=dtype)
        tdt = {np.float32: "float32", np.float64: "float64"}[dtype]
        case(f"random {name} n={n:.2g}", lambda: g.random(dtype=dtype, out=out),
             lambda: npg.random(dtype=dtype, out=nout),
             cpf=(lambda: cpg.random(n, dtype=dtype)) if cpg else None,
             tf=(lambda: torch.rand(n, dtype=getattr(torch, tdt), device="cuda")) if torch else None,
             nbytes=n * np.dtype(dtype).itemsize)
        case(f"standard_normal {name} n={n:.2g}", lambda: g.standard_normal(dtype=dtype, out=out),
             lambda: npg.standard_normal(dtype=dtype, out=nout),
             cpf=(lambda: cpg.standard_normal(n, dtype=dtype)) if cpg else None,
             tf=(lambda: torch.randn(n, dtype=getattr(torch, tdt), device="cuda")) if torch else None,
             nbytes=n * np.dtype(dtype).itemsize)
    with dev:
        case(f"integers(0, 100) int64 n={n:.2g}", lambda: g.integers(0, 100, n), lambda: npg.integers(0, 100, n),
             cpf=(lambda: cpg.integers(0, 100, n)) if cpg else None,
             tf=(lambda: torch.randint(0, 100, (n,), device="cuda")) if torch else None, nbytes=n * 8)
        case(f"standard_exponential float64 n={n:.2g}", lambda: g.standard_exponential(n),
             lambda: npg.standard_exponential(n), cpf=(lambda: cpg.standard_exponential(n)) if cpg else None)
        m = n // 10
        case(f"standard_gamma(2.5) float64 n={m:.2g}", lambda: g.standard_gamma(2.5, m),
             lambda: npg.standard_gamma(2.5, m), cpf=(lambda: cpg.standard_gamma(2.5, m)) if cpg else None)
        case(f"poisson(5) n={m:.2g}", lambda: g.poisson(5.0, m), lambda: npg.poisson(5.0, m),
             cpf=(lambda: cpg.poisson(5.0, m)) if cpg else None)
        case(f"binomial(1000, 0.3) n={m:.2g}", lambda: g.binomial(1000, 0.3, m), lambda: npg.binomial(1000, 0.3, m),
             cpf=(lambda: cpg.binomial(1000, 0.3, m)) if cpg else None)
        k = 10 ** 6 if not b.quick else 10 ** 5
        case(f"permutation({k:.0e})", lambda: g.permutation(k), lambda: npg.permutation(k))


# ------------------------------------------------------------------ cases: linear algebra

# FP32 and FP64 fused multiply-adds per clock per SM (CUDA cores, not tensor cores), for the peak
# a GFLOP/s figure is set against; compute capabilities not listed get no peak.
FMA_PER_SM = {(7, 0): (64, 32), (8, 0): (64, 32), (9, 0): (128, 64), (10, 0): (128, 64)}


def gpu_peak_gflops(b, dtype):
    if not b.on_gpu:
        return None
    p = b.device.properties()
    fma = FMA_PER_SM.get(tuple(p.get("compute_capability", ())))
    if fma is None:
        return None
    per_sm = fma[1] if np.dtype(dtype) in (np.float64, np.complex128) else fma[0]
    return 2 * per_sm * p["multiprocessors"] * p["clock_rate_khz"] * 1e3 / 1e9


def linalg_case(b, label, make, expr, flops=None, dtype=np.float64, heavy=False):
    """make() -> NumPy inputs; expr(xp, *inputs) runs the case with xp = numpy, pygpu, cupy, torch.
    A heavy case (seconds a call on a GPU) is timed over fewer batches, without NumPy on a GPU."""
    dev = b.device
    inputs = make()
    t = (lambda fn, sync: timeit(fn, sync, repeat=3, quick=b.quick)) if heavy else b.time
    res = {"numpy": None if (heavy and b.on_gpu) or b.no_numpy else t(lambda: expr(np, *inputs), None)}
    with dev:
        pin = [pygpu.asarray(x) for x in inputs]
    res["pygpu"] = t(lambda: expr(pygpu, *pin), b.sync)
    if "cupy" in b.others():
        cin = [cp.asarray(x) for x in inputs]
        res["cupy"] = t(lambda: expr(cp, *cin), b.others()["cupy"])
    if "torch" in b.others():
        tin = [torch.as_tensor(x, device="cuda") for x in inputs]
        res["torch"] = t(lambda: expr(torch, *tin), b.others()["torch"])
    note = ""
    if flops:
        gflops = flops / res["pygpu"] / 1e9
        peak = gpu_peak_gflops(b, dtype)
        # cuBLAS runs float64 on the tensor cores of sm_80+, which can pass the CUDA-core peak
        note = f"{gflops:.0f} GFLOP/s" + (f" (CUDA-core {np.dtype(dtype).name} peak {peak:.0f})" if peak else "")
    b.add("linalg", label, "us", res, note)


def _la(xp):
    return xp.linalg


def bench_linalg(b):
    header("linear algebra (us per call)")
    rng = np.random.default_rng(0)
    f64, f32 = np.float64, np.float32
    # the seeds: a @ b, cp.dot(x, y), jnp.dot(x, x.T), a batch of matrix-vector products
    m, k, n = 1024, 2048, 512
    linalg_case(b, "matmul f64 1024x2048 @ 2048x512", lambda: (rng.random((m, k)), rng.random((k, n))),
                lambda xp, x, y: x @ y, 2 * m * k * n)
    linalg_case(b, "dot f64 1000x1000", lambda: (rng.random((1000, 1000)), rng.random((1000, 1000))),
                lambda xp, x, y: xp.matmul(x, y) if xp is torch else xp.dot(x, y), 2e9)
    side = 3000 if (b.on_gpu and not b.quick) else 1000
    linalg_case(b, f"dot(x, x.T) f32 {side}x{side}", lambda: (rng.random((side, side), dtype=f32),),
                lambda xp, x: xp.matmul(x, x.T) if xp is torch else xp.dot(x, x.T), 2 * side ** 3, f32,
                heavy=side > 1000)
    batch = 10000
    linalg_case(b, f"batched matvec f32 {batch} x (16x16 @ 16)",
                lambda: (rng.random((batch, 16, 16), dtype=f32), rng.random((batch, 16, 1), dtype=f32)),
                lambda xp, x, v: x @ v, 2 * batch * 256, f32)
    linalg_case(b, f"batched matmul f32 {batch} x 16x16 @ 16x16",
                lambda: (rng.random((batch, 16, 16), dtype=f32), rng.random((batch, 16, 16), dtype=f32)),
                lambda xp, x, y: x @ y, 2 * batch * 16 ** 3, f32)
    if b.on_gpu:
        s = 4096 if b.quick else 8192
        linalg_case(b, f"matmul f32 {s}^3", lambda: (rng.random((s, s), dtype=f32), rng.random((s, s), dtype=f32)),
                    lambda xp, x, y: x @ y, 2 * s ** 3, f32, heavy=True)
    linalg_case(b, "einsum bij,bjk->bik f64 64x64x64", lambda: (rng.random((64, 64, 64)), rng.random((64, 64, 64))),
                lambda xp, x, y: xp.einsum("bij,bjk->bik", x, y), 2 * 64 ** 4)
    s = 4096 if (b.on_gpu and not b.quick) else 1000
    spd = lambda n, dt: (lambda a: (a @ a.T + n * np.eye(n)).astype(dt))(rng.random((n, n)))  # noqa: E731
    linalg_case(b, f"linalg.solve f64 {s}x{s}", lambda: (spd(s, f64), rng.random((s,))),
                lambda xp, x, y: _la(xp).solve(x, y), 2 / 3 * s ** 3, heavy=s > 1000)
    linalg_case(b, f"linalg.cholesky f64 {s}x{s}", lambda: (spd(s, f64),), lambda xp, x: _la(xp).cholesky(x),
                s ** 3 / 3, heavy=s > 1000)
    s = 2000 if (b.on_gpu and not b.quick) else 500
    linalg_case(b, f"linalg.svd f32 {s}x{s}", lambda: (rng.random((s, s), dtype=f32),),
                lambda xp, x: _la(xp).svd(x), None, f32, heavy=True)
    s = 1000 if not b.quick else 300
    linalg_case(b, f"linalg.qr f64 {s}x{s}", lambda: (rng.random((s, s)),), lambda xp, x: _la(xp).qr(x))
    linalg_case(b, f"linalg.inv f64 {s}x{s}", lambda: (spd(s, f64),), lambda xp, x: _la(xp).inv(x), 2 * s ** 3)
    linalg_case(b, f"linalg.eigh f64 {s}x{s}", lambda: (spd(s, f64),), lambda xp, x: _la(xp).eigh(x))
    linalg_case(b, "per-call overhead: 4x4 @ 4x4 f64", lambda: (rng.random((4, 4)), rng.random((4, 4))),
                lambda xp, x, y: x @ y)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default=None, help="pygpu device (default: the default device)")
    ap.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    ap.add_argument("--json", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                                   "latest.json"))
    ap.add_argument("--only", default=None, help="run the groups whose name contains this")
    ap.add_argument("--case", default=None,
                    help="of the elementwise-style cases, run those whose label matches this regular expression")
    ap.add_argument("--no-numpy", action="store_true", help="skip NumPy's timings (GPU runs against CuPy/PyTorch)")
    args = ap.parse_args()
    b = Bench(args.device, args.quick, args.no_numpy, args.case)
    print(f"pygpu {pygpu.__version__} on {b.device} ({b.device.properties().get('name')}); numpy {np.__version__}; "
          f"cupy {'yes' if cp else 'no'}, torch {'yes' if torch else 'no'}, numba {'yes' if numba_cuda else 'no'}")
    groups = [("memory", bench_allocation), ("memory", bench_asarray), ("bandwidth", bench_bandwidth),
              ("elementwise", bench_elementwise), ("reductions", bench_reductions),
              ("manipulation", bench_manipulation), ("random", bench_random), ("linalg", bench_linalg),
              ("sort", bench_sort), ("indexing", bench_indexing), ("transcendental", bench_transcendental),
              ("vectorize", bench_vectorize), ("numpy-functions", bench_numpy_functions), ("fft", bench_fft)]
    groups += [("kernel-" + name, lambda b, fn=fn: fn(b, header, cp)) for name, fn in kernels.CASES]
    groups += [("dask", lambda b: dask_cases.bench_dask(b, header, cp))]
    for name, fn in groups:
        if args.only and args.only not in name:
            continue
        fn(b)
    report = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "device": str(b.device),
        "device_properties": {k: (v if isinstance(v, (int, float, str)) else str(v))
                              for k, v in b.device.properties().items()},
        "host": platform.platform(),
        "versions": {"pygpu": pygpu.__version__, "numpy": np.__version__,
                     "cupy": getattr(cp, "__version__", None), "torch": getattr(torch, "__version__", None)},
        "rows": b.rows,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
