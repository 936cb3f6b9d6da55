"""The compiled tier of vectorize and fuse (pygpu/_jit/tier.py): a VM program translated to a C
elementwise kernel. The rule is that the kernel gives every element the VM's bits: on the CPU
(host C++ compiler) for every op but the few the CPU's VM computes with kernels/vmath.h's
whole-array functions (sin, exp, log, ... in float32/float64: bounded by their documented 1 ulp
from pg_math.h's scalar ones, which the kernel calls, as a GPU's VM does); on a GPU (NVRTC,
--fmad=false as the VM's nvcc build) for every op, which test_gpu_tier_is_bitwise_the_vm
checks there. The CUDA launch itself (NVRTC for real, the fake driver's launch) is checked here
without a GPU."""
import math
import struct

import numpy as np
import pytest

import pygpu
from pygpu import _core
from pygpu._jit import tier

from test_raw_kernels_cuda_mock import needs_kernels, needs_nvrtc


@pytest.fixture
def tier_mode():
    """set(mode): the tier for the test (restored after it)."""
    previous = tier.mode()
    yield tier.set_mode
    tier.set_mode(previous)


def both_tiers(set_mode, make, args, **kw):
    """The VM's result and the compiled tier's for the same function (two ufuncs made by make():
    a program keeps the kernel it got), each on its own tier, and the compiled one's program."""
    set_mode("vm")
    vm = make()(*args, **kw)
    set_mode("compiled")
    uf = make()
    before = dict(tier.stats)
    compiled = uf(*args, **kw)
    return pygpu.asnumpy(vm), pygpu.asnumpy(compiled), tier.stats["compiled"] - before["compiled"]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.dtype("u%d" % a.dtype.itemsize)) if a.dtype.kind in "fc" and a.dtype.itemsize <= 8 else a


def assert_bitwise(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind == "c":
        assert_bitwise(a.real.copy(), b.real.copy())
        assert_bitwise(a.imag.copy(), b.imag.copy())
        return
    assert np.array_equal(bits(a), bits(b)), (a, b)


def horner(x):
    return ((x * 3.0 - 2.0) * x + 0.5) * x - x / 7.0


def piecewise(x, y):
    if x > y:
        r = x - y
    elif x < 0:
        r = -x * 2.5
    else:
        r = y % 3.0
    return r


def mandel(x, y, limit):
    c = complex(x, y)
    z = 0j
    for i in range(limit):
        z = z * z + c
        if abs(z) > 2.0:
            return i
    return limit


def collatz(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
        if steps > 200:
            break
    return steps


def casts(x, k):
    return int(x * 3.7) // (k | 1) + (k << 2) - (x > 0.5)


def cplx(z, w):
    return (z * w.conjugate() + 1j) / (abs(w) + 1.0)


ARGS = {
    "f64": np.linspace(-3, 3, 1001),
    "f32": np.linspace(-3, 3, 1001, dtype=np.float32),
    "i64": np.arange(1, 1002, dtype=np.int64),
    "c128": (np.linspace(-2, 2, 1001) + 1j * np.linspace(1, -1, 1001)),
}

CASES = [
    ("horner f64", lambda: pygpu.vectorize(["float64(float64)"])(horner), [ARGS["f64"]]),
    ("horner f32", lambda: pygpu.vectorize(["float32(float32)"])(horner), [ARGS["f32"]]),
    ("piecewise", lambda: pygpu.vectorize(["float64(float64, float64)"])(piecewise), [ARGS["f64"], ARGS["f64"][::-1].copy()]),
    ("mandel", lambda: pygpu.vectorize(["int32(float64, float64, int32)"])(mandel), [ARGS["f64"] / 2, ARGS["f64"][::-1] / 2, 50]),
    ("collatz", lambda: pygpu.vectorize(["int64(int64)"])(collatz), [ARGS["i64"]]),
    ("casts", lambda: pygpu.vectorize(["int64(float64, int64)"])(casts), [ARGS["f64"], ARGS["i64"]]),
    ("complex", lambda: pygpu.vectorize(["complex128(complex128, complex128)"])(cplx), [ARGS["c128"], ARGS["c128"][::-1].copy()]),
    ("lazy", lambda: pygpu.vectorize(lambda x, y: x + y if x > 0 else x * y), [ARGS["i64"] - 500, np.int64(7)]),
    ("bool out", lambda: pygpu.vectorize(lambda x: x > 0.25 and x < 2), [ARGS["f64"]]),
    ("int32 in f64 loop", lambda: pygpu.vectorize(["float64(float64)"])(horner), [np.arange(-50, 50, dtype=np.int32)]),
]


@pytest.mark.parametrize("name,make,args", CASES, ids=[c[0] for c in CASES])
def test_compiled_tier_is_bitwise_the_vm_on_the_cpu(tier_mode, name, make, args):
    dargs = [pygpu.asarray(a, device="cpu") if isinstance(a, np.ndarray) else a for a in args]
    vm, compiled, n = both_tiers(tier_mode, make, dargs)
    assert n == 1, "the compiled tier did not run"
    assert_bitwise(vm, compiled)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vmath_functions_within_their_ulp(tier_mode, dtype):
    """sin, cos, exp, log on the CPU: the VM's whole-array functions (vmath.h, about 1 ulp) and
    pg_math.h's scalar ones in the kernel: each term within 1 ulp of its value (at most 4 here),
    so the results within a few ulp of 4."""
    x = pygpu.asarray(np.linspace(0.01, 20, 5001, dtype=dtype), device="cpu")
    vm, compiled, n = both_tiers(tier_mode, lambda: pygpu.vectorize(
        lambda v: math.cos(v) ** 2 + math.sin(v) ** 2 + math.exp(-v) * math.log(v)), [x])
    assert n == 1
    assert np.all(np.abs(vm - compiled) <= 4 * np.spacing(dtype(4)))


def test_out_dtype_and_where_go_through_the_ufunc(tier_mode):
    """out=, dtype= and a float16 output: the C ufunc path around the kernel is the VM's."""
    x = ARGS["f64"][:64]
    for v in (x, x.astype(np.float32)):   # a lazy loop per dtype
        vm, compiled, n = both_tiers(tier_mode, lambda: pygpu.vectorize(horner), [pygpu.asarray(v, device="cpu")])
        assert n == 1
        assert_bitwise(vm, compiled)
    out_vm = pygpu.zeros(64, dtype=np.float16, device="cpu")
    out_c = pygpu.zeros(64, dtype=np.float16, device="cpu")
    tier_mode("vm")
    pygpu.vectorize(["float64(float64)"])(horner)(pygpu.asarray(x, device="cpu"), out=out_vm)
    tier_mode("compiled")
    pygpu.vectorize(["float64(float64)"])(horner)(pygpu.asarray(x, device="cpu"), out=out_c)
    assert_bitwise(pygpu.asnumpy(out_vm), pygpu.asnumpy(out_c))


@pytest.mark.parametrize("name,make,args", CASES[:7], ids=[c[0] for c in CASES[:7]])
def test_strided_and_broadcast_operands_run_the_strided_kernel(tier_mode, name, make, args):
    """Views and broadcasting: the kernel of any strides (up to 4 merged dimensions), bitwise."""
    views = []
    for a in args:
        if isinstance(a, np.ndarray):
            m = np.resize(a, 2 * 3 * 40).reshape(2, 3, 40)
            views.append(pygpu.asarray(m, device="cpu")[:, ::-1, ::2])   # reversed and strided
        else:
            views.append(a)
    views[0] = views[0][:1]   # broadcast along the first dimension
    vm, compiled, n = both_tiers(tier_mode, make, views)
    assert n == 1, "the compiled tier did not run"
    assert vm.shape[1:] == (3, 20)
    assert_bitwise(vm, compiled)


def test_deep_layouts_stay_on_the_vm(tier_mode):
    """More than 4 merged dimensions: the VM."""
    tier_mode("compiled")
    f = pygpu.vectorize(["float64(float64, float64)"])(piecewise)
    a = pygpu.asarray(np.linspace(0, 1, 2 ** 6).reshape((2,) * 6), device="cpu")[..., ::-1, :, ::-1, :, ::-1, :]
    before = dict(tier.stats)
    r = f(a, a[0])
    assert tier.stats == before   # not asked: the VM ran
    tier_mode("vm")
    assert_bitwise(pygpu.asnumpy(r), pygpu.asnumpy(pygpu.vectorize(["float64(float64, float64)"])(piecewise)(a, a[0])))


def test_fuse_runs_compiled(tier_mode):
    def selu(v):
        return 1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1))
    x = pygpu.asarray(np.linspace(-3, 3, 999, dtype=np.float32), device="cpu")
    vm, compiled, n = both_tiers(tier_mode, lambda: pygpu.fuse(selu), [x])
    assert n == 1
    # exp: vmath.h's on the CPU's VM, within 1 ulp of pg_math.h's; exp(v) - 1 near 0 keeps
    # that absolute error (of 1 * 1.6733 * 1.0507)
    assert np.all(np.abs(vm - compiled) <= 2 * np.spacing(np.maximum(np.abs(vm), np.float32(2))))


def test_auto_compiles_in_the_background_then_launches_the_kernel(tier_mode, monkeypatch):
    monkeypatch.setattr(tier, "auto_cpu", True)
    tier_mode("auto")
    f = pygpu.vectorize(["float64(float64)"])(lambda v: v * 1.5 + 0.25)
    x = pygpu.asarray(ARGS["f64"], device="cpu")
    first = f(x)   # the VM; the compile starts
    (program,) = tier.programs(f)
    tier.wait(program, timeout=120)
    second = f(x)
    assert _core._vm_tier_state(program) == {0: "compiled"}   # from the compile, or the disk cache
    assert_bitwise(pygpu.asnumpy(first), pygpu.asnumpy(second))


def test_vm_mode_never_asks():
    previous = tier.set_mode("vm")
    try:
        f = pygpu.vectorize(["float64(float64)"])(horner)
        before = dict(tier.stats)
        f(pygpu.asarray(ARGS["f64"], device="cpu"))
        assert tier.stats == before
    finally:
        tier.set_mode(previous)


def test_bad_mode_raises():
    with pytest.raises(ValueError, match="PYGPU_VECTORIZE_TIER"):
        tier.set_mode("fast")


def test_a_cached_kernel_is_used_from_the_first_call(tmp_path):
    """A second process finds the kernel in the disk cache: no VM call, no compile."""
    import os
    import subprocess
    import sys
    code = """if True:
        import numpy as np, pygpu
        from pygpu._jit import tier
        tier.auto_cpu = True
        f = pygpu.vectorize(["float64(float64)"])(lambda v: v * 2.5 - 1.0)
        x = pygpu.asarray(np.arange(10.0), device="cpu")
        f(x)
        for _, p in f._programs:
            tier.wait(p, 120)
        f(x)
        print(tier.stats["compiled"], tier.stats["cache_hits"])
    """
    env = dict(os.environ, PYGPU_CACHE_DIR=str(tmp_path), PYGPU_VECTORIZE_TIER="auto")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert first.stdout.split() == ["1", "0"] and second.stdout.split() == ["0", "1"], (first.stdout, second.stdout)


# ------------------------------------------------------------------ the CUDA side, against the fake driver

@needs_kernels
@needs_nvrtc
def test_mock_cuda_compiled_tier_launch(mock_driver, tmp_path):
    """NVRTC compiles the kernel of a program (for the fake sm_90 device, for real) and the launch
    hands it (n, the operands' pointers; a scalar's two words): 'compiled' at the first call,
    'auto' after the background compile (a strided operand: the VM), and at once for a program
    the CUDA VM's 32 registers cannot hold."""
    from conftest import run_mock
    out = run_mock(mock_driver, """
        from pygpu._jit import tier
        import struct
        res = {}
        f = pygpu.vectorize(["int32(float64, float64, int32)"], target="cuda")(
            lambda x, y, k: int(x * y) + k if x > y else k)
        a = pygpu.zeros(10**6, dtype=np.float64, device="cuda:0")
        f(a, a, 7)
        s = stats()
        res["compiled"] = [s["last_kernel"], s["grid"], s["block"], s["last_nparams"], s["last_params"][:80],
                           a.data_ptr, dict(tier.stats), _core._nvrtc_version()]
        tier.set_mode("auto")
        g = pygpu.vectorize(["float32(float32)"], target="cuda")(lambda x: np.cos(x) ** 2 + np.sin(x) ** 2)
        b = pygpu.zeros(1000, dtype=np.float32, device="cuda:0")
        g(b)
        res["auto_first"] = stats()["last_kernel"]
        for _, p in g._programs:
            tier.wait(p, 120)
        g(b)
        res["auto_later"] = stats()["last_kernel"]
        g(b[::2])
        res["strided"] = stats()["last_kernel"]
        tier.set_mode("compiled")
        h = pygpu.vectorize(["float64(float64, float64)"], target="cuda")(lambda x, k: x * k)
        m = pygpu.zeros((6, 8), dtype=np.float64, device="cuda:0")
        h(m[:, 1:5], 3.0)
        s = stats()
        res["strided_compiled"] = [s["last_kernel"], s["last_nparams"], s["last_params"][:288], m.data_ptr]
        src = "lambda x: " + " + ".join(f"x * {i}.5" for i in range(40))   # 44 registers: past the VM's 32
        big = pygpu.vectorize(["float64(float64)"], target="cuda")(eval(src))
        big(pygpu.zeros(4, device="cuda:0"))
        res["big"] = stats()["last_kernel"]
        print(json.dumps(res))
    """, PYGPU_VECTORIZE_TIER="compiled", PYGPU_TIER_STRICT="1", PYGPU_CACHE_DIR=str(tmp_path), MOCK_CUDA_DELAY_US=0)
    kernel, grid, block, nparams, raw, ptr, stats, version = out["compiled"]
    assert kernel == "pg_tier" and block == 256 and grid == (10**6 + 1023) // 1024
    assert nparams == 6   # n, x, y, the scalar's two words, out
    n, px, py, k0 = struct.unpack_from("<qQQQ", bytes.fromhex(raw), 0)
    assert (n, px, py, k0) == (10**6, ptr, ptr, 7)
    assert stats["compiled"] == 1 and stats["failed"] == 0
    assert out["auto_first"] == "pg_vm_run" and out["auto_later"] == "pg_tier" and out["strided"] == "pg_vm_run"
    kernel, nparams, raw, ptr = out["strided_compiled"]
    assert kernel == "pg_tier" and nparams == 18   # n, nd, shape[4], x and its strides[4], k's two words, out ...
    words = struct.unpack_from("<qqqqqqQqqqqdQ", bytes.fromhex(raw), 0)
    assert words[:6] == (24, 2, 4, 6, 1, 1)        # 24 elements, 2 dimensions, innermost first
    assert words[6:11] == (ptr + 8, 8, 64, 0, 0)  # x: columns 1 to 4 of a 6 x 8 float64 array
    assert words[11] == 3.0
    assert out["big"] == "pg_tier"   # compiled at its first call: the CUDA VM cannot hold it


# ------------------------------------------------------------------ on a GPU

needs_gpu = pytest.mark.skipif(_core._cuda_device_count()[0] == 0, reason="no CUDA device")

GPU_CASES = CASES + [
    ("cos2 sin2 f32", lambda: pygpu.vectorize(["float32(float32)"])(lambda v: math.cos(v) ** 2 + math.sin(v) ** 2),
     [np.random.default_rng(0).random(100003, dtype=np.float32) * 100]),
    ("exp log f64", lambda: pygpu.vectorize(lambda v: math.exp(-v) * math.log(v) + math.tanh(v)), [ARGS["f64"] + 3.5]),
    ("selu fuse", lambda: pygpu.fuse(lambda v: 1.0507 * pygpu.where(v > 0, v, 1.6733 * (pygpu.exp(v) - 1))),
     [np.random.default_rng(1).standard_normal(100003).astype(np.float32)]),
]


@needs_gpu
@pytest.mark.parametrize("name,make,args", GPU_CASES, ids=[c[0] for c in GPU_CASES])
def test_gpu_tier_is_bitwise_the_vm(tier_mode, name, make, args):
    """On a GPU the kernel (NVRTC, --fmad=false) computes the VM's bits (nvcc, --fmad=false) for
    every op, the transcendental functions included: both call pg_math.h's same functions."""
    dargs = [pygpu.asarray(a, device="cuda:0") if isinstance(a, np.ndarray) else a for a in args]
    vm, compiled, n = both_tiers(tier_mode, make, dargs)
    assert n == 1, "the compiled tier did not run"
    assert_bitwise(vm, compiled)


def test_cpu_auto_keeps_vmath_programs_on_the_vm():
    """'auto' on the CPU compiles what the kernel runs faster: not a program calling sin/exp/...
    (the VM's vmath.h functions are several times faster than scalar calls)."""
    trig = pygpu.vectorize(["float32(float32)"])(lambda v: math.cos(v) ** 2 + math.sin(v) ** 2)
    poly = pygpu.vectorize(["float64(float64)"])(horner)
    loop = pygpu.vectorize(["int64(int64)"])(collatz)
    assert [tier.cpu_prefers_compiled(p._tier_ir) for f in (trig, poly, loop) for p in tier.programs(f)] == \
        [False, True, True]


def test_auto_compiles_at_the_second_call(tier_mode, monkeypatch):
    """A function called once costs no compile: the second call queues it."""
    tier_mode("auto")
    import time
    ns = {}   # a program no earlier run has put in the disk cache
    exec("def g(n):\n    return n * %d + 1 if n > 3 else n\n" % (time.time_ns() % 10**9), ns)
    f = pygpu.vectorize(["int64(int64)"])(ns["g"])
    x = pygpu.asarray(ARGS["i64"][:50], device="cpu")
    f(x)
    (program,) = tier.programs(f)
    (job,) = program._tier_jobs.values()
    assert not job.queued
    f(x)
    assert job.queued
    tier.wait(program, 120)
    r = f(x)
    assert _core._vm_tier_state(program) == {0: "compiled"}
    tier_mode("vm")
    assert_bitwise(pygpu.asnumpy(r), pygpu.asnumpy(pygpu.vectorize(["int64(int64)"])(ns["g"])(x)))
