"""The CPU kernels built twice, for baseline x86-64 and for x86-64-v3 (AVX2; the reductions, the
vectorize VM and the elementwise loops but the complex ones, picked at run time), give the same bits: every fold's order is written out and
a*b+c is never fused, so the wider vectors change the speed only. A child process with
PYGPU_CPU_BASELINE=1 computes the cases on the baseline build; this process on the build the
CPU picks. Where the CPU has no x86-64-v3 both are the baseline and the test still holds."""
import os
import subprocess
import sys

import numpy as np
import pytest

import pygpu
from conftest import child_pythonpath

CASES = r'''
import numpy as np, pygpu
rng = np.random.default_rng(7)
out = {}
for dt in ("float32", "float64", "complex64", "complex128", "int32", "float16"):
    for shape in [(1000003,), (37, 4099), (4099, 37), (3, 5, 1031)]:
        a = rng.standard_normal(shape) * 100
        if dt.startswith("complex"):
            a = a + 1j * rng.standard_normal(shape)
        x = pygpu.asarray(a.astype(dt), device="cpu")
        for axis in (None, 0, -1):
            for name in ("sum", "mean", "prod", "var", "std", "max", "min", "argmax", "argmin", "cumsum"):
                if dt.startswith("complex") and name in ("max", "min", "argmax", "argmin"):
                    continue
                if name == "cumsum" and axis is None:
                    continue
                f = getattr(pygpu, name)
                r = f(x, axis=axis)
                out["%s %s %s %s" % (dt, shape, axis, name)] = pygpu.asnumpy(r).tobytes()
@pygpu.vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def g(u, v):
    return u * v + v / (u + 3.5) - abs(u) ** 0.5
@pygpu.vectorize(["complex128(complex128, complex128)", "complex64(complex64, complex64)"])
def h(u, v):
    return u * v + v * v - u / (v + 2.0)
for dt in ("float32", "float64"):
    u = pygpu.asarray(rng.standard_normal(100003).astype(dt), device="cpu")
    out["vectorize " + dt] = pygpu.asnumpy(g(u, u[::-1])).tobytes()
for dt in ("complex64", "complex128"):
    z = rng.standard_normal(100003) + 1j * rng.standard_normal(100003)
    u = pygpu.asarray(z.astype(dt), device="cpu")
    out["vectorize " + dt] = pygpu.asnumpy(h(u, u[::-1])).tobytes()
    out["multiply " + dt] = pygpu.asnumpy(u * u[::-1]).tobytes()
# the loops that give bools (comparisons, logical ops, predicates): every input dtype, NaNs and
# infinities, contiguous, strided, with a scalar and broadcast
v = rng.standard_normal(20011) * 3
v[::7] = np.nan
v[::11] = np.inf
v[::13] = -np.inf
v[::5] = np.round(v[::5])
for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
           "float64", "complex64", "complex128"):
    with np.errstate(all="ignore"):
        a = v.astype(dt) if dt[0] in "fcb" else np.nan_to_num(v, posinf=100, neginf=-100).astype(dt)
    if dt.startswith("complex"):
        a = a + 1j * a[::-1]
    x = pygpu.asarray(a, device="cpu")
    y = x[::-1]
    pairs = {"contiguous": (x, y), "strided": (x[::2], y[::2]), "scalar": (x, pygpu.asarray(a[3], device="cpu")),
             "broadcast": (x[:100].reshape(100, 1), y[:50].reshape(1, 50))}
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
                 "logical_or", "logical_xor"):
        if dt.startswith("complex") and name in ("less", "less_equal", "greater", "greater_equal"):
            continue
        for layout, (p, q) in pairs.items():
            out["%s %s %s" % (name, dt, layout)] = pygpu.asnumpy(getattr(pygpu, name)(p, q)).tobytes()
    for name in ("isnan", "isinf", "isfinite", "signbit", "logical_not"):
        if name == "signbit" and dt.startswith("complex"):
            continue
        out["%s %s" % (name, dt)] = pygpu.asnumpy(getattr(pygpu, name)(x)).tobytes()
        out["%s %s strided" % (name, dt)] = pygpu.asnumpy(getattr(pygpu, name)(y[::3])).tobytes()
# every ufunc's loops over every dtype (the integer, float and double parts have x86-64-v3 builds
# too), specials included, contiguous and strided; every cast between dtypes
ufuncs = sorted({getattr(pygpu, n) for n in dir(pygpu) if isinstance(getattr(pygpu, n), pygpu.ufunc)},
                key=lambda f: f.__name__)
shift = np.abs(np.nan_to_num(v, posinf=3, neginf=70)).astype(np.int64) % 70   # shifts past the width too
for dt in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
           "float64", "complex64", "complex128"):
    with np.errstate(all="ignore"):
        a = v.astype(dt) if dt[0] in "fcb" else np.nan_to_num(v * 1e3, posinf=2**62, neginf=-2**62).astype(dt)
    if dt.startswith("complex"):
        a = a + 1j * a[::-1]
    x = pygpu.asarray(a, device="cpu")
    y = x[::-1]
    for f in ufuncs:
        # shifts past the width; integer powers with exponents >= 0 (negative ones raise)
        counted = f.__name__.endswith("shift") or (f.__name__ == "power" and dt[0] in "iu")
        args = (x,) if f.nin == 1 else (x, pygpu.asarray(shift.astype(dt), device="cpu") if counted else y)
        for layout, operands in (("contiguous", args), ("strided", tuple(o[::3] for o in args))):
            try:
                r = f(*operands)
            except TypeError:   # no loop for this dtype
                continue
            out["ufunc %s %s %s" % (f.__name__, dt, layout)] = pygpu.asnumpy(r).tobytes()
    for to in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
               "float64", "complex64", "complex128"):
        out["cast %s %s" % (dt, to)] = pygpu.asnumpy(x.astype(to)).tobytes()
'''


def compute(baseline):
    env = dict(os.environ, PYGPU_CPU_BASELINE="1" if baseline else "0", PYGPU_DEVICE="cpu",
               PYTHONPATH=child_pythonpath())
    code = CASES + "\nimport pickle, sys\nsys.stdout.buffer.write(pickle.dumps(out))\n"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=600,
                          cwd=os.path.dirname(os.path.abspath(__file__)))
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    import pickle
    return pickle.loads(proc.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the x86-64-v3 builds are gcc's on Linux")
def test_baseline_and_x86_64_v3_builds_agree_bit_for_bit():
    wide, base = compute(False), compute(True)
    assert wide.keys() == base.keys() and len(wide) > 3000
    differ = [k for k in wide if wide[k] != base[k]]
    assert not differ, "the builds differ on %d cases, e.g. %s" % (len(differ), differ[:5])


def test_baseline_build_is_numpy_exact_on_a_few_sums():
    """The baseline tables (the ones a CPU without AVX2 runs) are reached and right."""
    code = ("import numpy as np, pygpu\n"
            "a = np.arange(1, 100001, dtype=np.float64).reshape(100, 1000)\n"
            "x = pygpu.asarray(a, device='cpu')\n"
            "assert float(pygpu.sum(x)) == 5000050000.0\n"
            "assert (pygpu.asnumpy(pygpu.sum(x, axis=0)) == a.sum(axis=0)).all()\n"
            "assert int(pygpu.argmax(x)) == 99999\n")
    env = dict(os.environ, PYGPU_CPU_BASELINE="1", PYTHONPATH=child_pythonpath())
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300,
                          cwd=os.path.dirname(os.path.abspath(__file__)))
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert pygpu.Device("cpu") is not None and np is not None
