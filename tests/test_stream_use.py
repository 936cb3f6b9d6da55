"""Memory freed right after a launch on another stream is not reused early (issue 16, item 3 and
tests item 6).

Every public operation below runs on a non-blocking stream of the strict fake driver while that
stream is held (its queued work cannot run), with inputs made on the default stream. Its inputs
and outputs are then freed, and new arrays of the same sizes are filled on the default stream. The
pool may hand the freed memory out again only ordered after the held work: the test reads the freed
bytes through the fake driver (whose device memory is host memory) and fails if a fill overwrote
them before the held stream was let go.

Which operations must be here is not a hand list: the fake driver logs every kernel launched, and
the test fails naming each kernel family of the embedded modules (_core._fatbin_modules(), the
launch table) that no case launched, so a new kernel family needs a case. A second test checks the
source: the driver calls that queue work appear only in csrc/runtime/cuda_queue.c, which notes the
stream with the pool (runtime/queue_log.h), so a new launch path cannot skip the note.
"""
import os
import re
import textwrap

import pytest

import pygpu
from conftest import run_mock

CSRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "csrc")

# the driver and library calls that queue work on a stream, and the only files that may call them
QUEUE_CALLS = {
    r"pg_cu\.cuLaunchKernel\b": "runtime/cuda_queue.c",
    r"pg_cu\.cuLaunchCooperativeKernel\s*\(": "runtime/cuda_queue.c",
    r"pg_cu\.cuMemcpy\w*Async\b": "runtime/cuda_queue.c",
    r"pg_cu\.cuMemsetD\w*\b": "runtime/cuda_queue.c",
    r"pg_cu\.cuStreamWaitValue\w*\b": "runtime/cuda_queue.c",
    r"\bcublasSetStream\b": "runtime/cuda_handles.c",
    r"\bcusolverDnSetStream\b": "runtime/cuda_handles.c",
    r"\bcufftSetStream\b": "runtime/cuda_fft.c",
}


# the loaders' symbol tables name every entry point
LOADERS = {"runtime/cuda_loader.h", "runtime/cuda_loader.c", "runtime/cuda_libs.h", "runtime/cuda_libs.c"}


def _sources():
    """{path under csrc/: text} of every C source and header."""
    texts = {}
    for root, _, files in os.walk(CSRC):
        for f in files:
            if f.endswith((".c", ".h")):
                path = os.path.join(root, f)
                with open(path) as fh:
                    texts[os.path.relpath(path, CSRC)] = fh.read()
    return texts


def test_only_the_queue_file_queues_work():
    sources = _sources()
    strays = []
    for rel, text in sources.items():
        if rel in LOADERS:
            continue
        for pattern, home in QUEUE_CALLS.items():
            for m in re.finditer(pattern, text):
                if rel != home:
                    line = text.count("\n", 0, m.start()) + 1
                    strays.append(f"csrc/{rel}:{line}: {m.group(0)} (only {home} may queue work)")
    assert not strays, "\n".join(strays)
    queue = sources["runtime/cuda_queue.c"]
    for fn in re.findall(r"^pg_cuda_queue_\w+\(.*?\n\}", queue, re.S | re.M):
        assert "pg_pool_note_queue" in fn or "pg_cuda_queue_launch(" in fn, fn
    handles = sources["runtime/cuda_handles.c"]
    for getter in ("pg_cublas_handle", "pg_cusolver_handle"):
        body = re.search(r"^%s\(.*?\n\}" % getter, handles, re.S | re.M).group(0)
        assert "pg_pool_note_queue(dev, stream)" in body, getter


# Each case: name, the NumPy inputs (made on the default stream), the operation (its arguments:
# the device arrays), and how to hold its stream: None, from the start; a kernel name prefix, at
# that kernel (for an operation that waits inside, the first kernel it queues after its last wait);
# WAITS(prefix): the operation waits for all its work before it returns (an index bounds check or a
# result read on the host): its last kernel is held, and the test checks that it queued no kernel
# after the hold let go (nothing of it can still be running once it returns).
CASES = textwrap.dedent(r'''
    rng = np.random.default_rng(5)
    f64 = lambda *s: rng.standard_normal(s)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)
    i64 = lambda n, hi: rng.integers(0, hi, n)
    N = 3000
    WAITS = lambda prefix: ("waits", prefix)

    def vec_body(x, y):
        return x * y + 1.0
    VEC = pygpu.vectorize(["float64(float64, float64)"])(vec_body)
    FUSED = pygpu.fuse(lambda v: (v * 2.0 + 1.0).sum())

    def hist_auto_range(a):
        # the fake driver computes nothing: the range its min/max kernel leaves is garbage
        try:
            return pygpu.histogram(a, bins=10)
        except ValueError as e:
            assert "range" in str(e), e

    ADD = pygpu.vectorize(["float64(float64, float64)"])(lambda a, b: a + b)
    RNG = pygpu.random.default_rng(1)

    CASES = [
        ("add contiguous", [f64(N), f64(N)], lambda a, b: a + b, None),
        ("add strided", [f64(N), f64(N)], lambda a, b: a[::3] + b[::-3], None),
        ("astype", [f64(N)], lambda a: a.astype(np.float32), None),
        ("transpose copy", [f64(60, 50)], lambda a: a.T.copy(), None),
        ("sum", [f32(N)], lambda a: a.sum(), None),
        ("sum axis 0", [f64(300, 20)], lambda a: a.sum(axis=0), None),
        ("sum axis 1", [f64(20, 300)], lambda a: a.sum(axis=1), None),
        ("argmax", [f64(N)], lambda a: a.argmax(), None),
        ("argmin axis", [f64(40, 70)], lambda a: a.argmin(axis=1), None),
        ("var", [f64(50, 60)], lambda a: a.var(axis=0), None),
        ("max", [f64(N)], lambda a: a.max(), None),
        ("cumsum", [f64(N)], lambda a: pygpu.cumsum(a), None),
        ("cumsum axis 0", [f64(500, 3)], lambda a: pygpu.cumsum(a, axis=0), None),
        ("maximum.accumulate", [f64(N)], lambda a: pygpu.maximum.accumulate(a), None),
        ("add.reduceat", [f64(N), np.array([0, 5, 100, 2000])], lambda a, i: pygpu.add.reduceat(a, i), "rseg_"),
        ("add.at", [f64(N), i64(500, N), f64(500)], lambda a, i, v: pygpu.add.at(a, i, v), "rat_"),
        ("maximum.at", [f64(N), i64(500, N), f64(500)], lambda a, i, v: pygpu.maximum.at(a, i, v), "rat_"),
        ("take", [f64(N), i64(700, N)], lambda a, i: a[i], WAITS("pg_index_gather")),
        ("take 2-d", [f64(60, 50), i64(30, 60)], lambda a, i: a[i, 1:7], WAITS("pg_index_gather")),
        ("take 5 index arrays", [f64(4, 5, 6, 7, 8)] + [i64(50, 4)] * 5,
         lambda a, i, j, k, l, m: a[i, j, k, l, m], WAITS("pg_index_gather")),
        ("scatter", [f64(N), i64(700, N), f64(700)], lambda a, i, v: a.__setitem__(i, v), WAITS("pg_index_scatter")),
        ("masked assign", [f64(N), f64(N)], lambda a, m: a.__setitem__(m > 0, 1.5), None),
        ("mask", [f64(N), f64(N)], lambda a, m: a[m > 0], "pg_compact_write"),
        ("nonzero", [f64(N)], lambda a: pygpu.nonzero(a > 0), "pg_compact_write"),
        ("sort", [f64(N)], lambda a: pygpu.sort(a), None),
        ("sort int32", [i64(N, 1000).astype(np.int32)], lambda a: pygpu.sort(a), None),
        ("argsort", [f64(N)], lambda a: pygpu.argsort(a), None),
        ("sort rows", [f64(30, 200)], lambda a: pygpu.sort(a, axis=1), None),
        ("lexsort", [i64(N, 7), f64(N)], lambda a, b: pygpu.lexsort((b, a)), None),
        ("sort large", [f64(300_000)], lambda a: pygpu.sort(a), None),
        ("argsort large", [f32(300_000)], lambda a: pygpu.argsort(a), None),
        ("partition", [f64(N)], lambda a: pygpu.partition(a, 10), None),
        ("searchsorted", [np.sort(f64(N)), f64(500)], lambda a, v: pygpu.searchsorted(a, v), None),
        ("histogram", [f64(N)], lambda a: pygpu.histogram(a, bins=10, range=(-3.0, 3.0)), None),
        ("convolve", [f64(N), f64(9)], lambda a, v: pygpu.convolve(a, v, mode="same"), None),
        ("histogram auto range", [f64(N)], hist_auto_range, WAITS("pg_hist_minmax")),
        ("matmul int", [i64(40 * 30, 9).reshape(40, 30), i64(30 * 20, 9).reshape(30, 20)],
         lambda a, b: a @ b, None),
        ("vectorize", [f64(N), f64(N)], lambda a, b: VEC(a, b), None),
        ("fuse sum", [f64(N)], lambda a: FUSED(a), None),
        ("reduce", [f64(N)], lambda a: pygpu.reduce(lambda x, y: x + y)(a), WAITS("pg_vm_reduce")),
        ("vectorize reduce axis", [f64(40, 70)], lambda a: ADD.reduce(a, axis=1), None),
        ("vectorize accumulate", [f64(40, 70)], lambda a: ADD.accumulate(a, axis=0), None),
        ("random uniform", [], lambda: RNG.random(N, device="cuda:0"), None),
        ("random integers", [], lambda: RNG.integers(0, 9, N, device="cuda:0"), None),
        ("random normal", [], lambda: RNG.standard_normal(N, device="cuda:0"), None),
        ("random normal params", [f64(N)], lambda loc: RNG.normal(loc, 1.0), "pg_random_"),
        ("random gamma", [], lambda: RNG.gamma(2.0, size=N, device="cuda:0"), None),
        ("random poisson", [], lambda: RNG.poisson(3.0, N, device="cuda:0"), None),
        ("permutation", [], lambda: RNG.permutation(N, device="cuda:0"), None),
    ]

    # user kernels, where NVRTC is there to compile them (compiled here, before any stream is held)
    try:
        from pygpu._jit import nvrtc
        nvrtc.load()
        NVRTC = True
    except RuntimeError:
        NVRTC = False
    if NVRTC:
        from pygpu import cuda
        SCALE = pygpu.RawKernel(r"""
        extern "C" __global__ void scale(const double* x, double* out, double a, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) out[i] = a * x[i];
        }""", "scale")

        import importlib.util, tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write("from pygpu import cuda\n@cuda.jit\ndef shift(x, out):\n    i = cuda.grid(1)\n"
                    "    if i < x.size:\n        out[i] = x[i] + 1.0\n")
        spec = importlib.util.spec_from_file_location("stream_use_kernels", f.name)
        kernels = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernels)
        shift = kernels.shift   # cuda.jit reads a kernel's Python source: it lives in a file

        DOUBLE = pygpu.ElementwiseKernel("T x", "T y", "y = x * 2", "ek_double")
        RSUM = pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rk_sum")

        def raw_kernel(x):
            out = pygpu.empty_like(x)
            SCALE(((x.size + 255) // 256,), (256,), (x, out, 2.0, np.int32(x.size)))
            return out

        def jit_kernel(x):
            out = pygpu.empty_like(x)
            shift[(x.size + 127) // 128, 128](x, out)
            return out

        def jit_kernel_explicit_stream(x):
            # the stream given to the launch, not the current one
            out = pygpu.empty_like(x)
            with pygpu.Stream(device="cuda:0", null=True):
                shift[(x.size + 127) // 128, 128, HELD](x, out)
            return out

        with pygpu.Device("cuda:0"):
            warm = pygpu.asarray(np.ones(8))
        for fn in (raw_kernel, jit_kernel, DOUBLE, RSUM):
            fn(warm)
        pygpu.cuda.synchronize()
        CASES += [
            ("RawKernel", [f64(N)], raw_kernel, None),
            ("cuda.jit", [f64(N)], jit_kernel, None),
            ("cuda.jit explicit stream", [f64(N)], jit_kernel_explicit_stream, None),
            ("ElementwiseKernel", [f64(N)], lambda a: DOUBLE(a), None),
            ("ReductionKernel", [f64(N)], lambda a: RSUM(a), None),
        ]
''')

RUN = CASES + textwrap.dedent(r'''
    import gc, time
    HOLD_S = 2.0
    dev = pygpu.Device("cuda:0")

    def ptr(a):
        return a.__cuda_array_interface__["data"][0]

    words = []   # the hold words, kept alive (the fake driver's late writes may outlive a case)

    def host_word():
        words.append(ctypes.c_uint32(0))
        return ctypes.c_void_p(ctypes.addressof(words[-1]))

    def run(name, inputs, op, hold_at):
        with dev:
            ins = [pygpu.asarray(x) for x in inputs]
        pygpu.cuda.synchronize()
        freed = [(ptr(a), a.nbytes) for a in ins if a.nbytes]
        before = [ctypes.string_at(p, n) for p, n in freed]
        global HELD
        s2 = HELD = pygpu.Stream(device="cuda:0", non_blocking=True)
        waits = isinstance(hold_at, tuple)
        if waits:
            hold_at = hold_at[1]
        if hold_at is None:
            release = hold(s2, release_after=HOLD_S)
        else:
            word = host_word()
            libcuda.mock_hold_at(hold_at.encode(), word)
            assert libcuda.mock_write_after(word, ctypes.c_uint32(1), ctypes.c_long(int(HOLD_S * 1e6))) == 0
            release = lambda: setattr(ctypes.c_uint32.from_address(word.value), "value", 1)
        t0 = time.monotonic()
        with s2:
            out = op(*ins)
        took = time.monotonic() - t0
        if waits:
            libcuda.mock_launches_at_release.restype = ctypes.c_long
            queued_after = stats()["launches"] - libcuda.mock_launches_at_release()
        outs = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, pygpu.ndarray)]
        freed += [(ptr(o), o.nbytes) for o in outs if o.nbytes]
        before += [None] * (len(freed) - len(before))
        del ins, out, outs
        gc.collect()
        # the default stream fills new arrays of the freed sizes with bytes no input holds
        with dev:
            fills = [pygpu.asarray(np.full(n, 0x5A, np.uint8)) for _, n in freed]
        reused = sum(any(p <= ptr(f) < p + n for p, n in freed) for f in fills)
        time.sleep(0.2)   # an unordered fill has run by now
        clobbered = [i for i, ((p, n), b) in enumerate(zip(freed, before))
                     if b is not None and ctypes.string_at(p, n) != b]
        release()
        pygpu.cuda.synchronize()
        del fills
        if waits:
            return {"took": took, "synced": took > HOLD_S / 2, "waits": True, "queued_after": queued_after,
                    "reused": reused, "clobbered": []}
        return {"took": took, "synced": took > HOLD_S / 2, "reused": reused, "clobbered": clobbered}

    def control():
        # the same check where reuse is allowed at once (freed and refilled on the held stream
        # itself, whose order puts the fill after the held work): the fills land on the freed
        # blocks, and the held stream keeps them from running
        s2 = pygpu.Stream(device="cuda:0", non_blocking=True)
        release = hold(s2, release_after=HOLD_S)
        with s2:
            a = pygpu.asarray(np.arange(N, dtype=np.float64), device="cuda:0")
            b = a * 2.0
            p, n = ptr(b), b.nbytes
            del a, b
            fill = pygpu.asarray(np.full(n, 0x5A, np.uint8), device="cuda:0")
            reused = p <= ptr(fill) < p + n
        release()
        pygpu.cuda.synchronize()
        return reused

    results = {}
    for name, inputs, op, hold_at in CASES:
        try:
            results[name] = run(name, inputs, op, hold_at)
        except Exception as e:
            results[name] = {"error": f"{type(e).__name__}: {e}"}
    control_reused = control()
    names, i = [], 0
    libcuda.mock_launched.restype = ctypes.c_char_p
    while (n := libcuda.mock_launched(i)) is not None:
        names.append(n.decode())
        i += 1
    print(json.dumps({"results": results, "launched": names, "control_reused": control_reused}))
''')


def _family(module, name):
    """The kernel family a launch-table name belongs to: its name less the dtype and form parts
    (elementwise: the form alone, _c contiguous or _s strided; reduce: the kind and, for the
    arg/moment reductions, their name)."""
    if module == "elementwise":
        return "elementwise" + name[-2:]
    if module == "reduce":
        kind = name.split("_")[0]
        m = re.match(r"reduce_(argmax|argmin|moments)", name)
        return m.group(0) if m else kind
    return re.sub(r"(_(b|bool|[iuf]\d+|c\d+|v\d+|k\d+|\d+))+$", "", name)


needs_kernels = pytest.mark.skipif(not pygpu._core._fatbin_modules(),
                                   reason="this build embeds no CUDA kernels (built without nvcc)")


@pytest.fixture(scope="module")
def stream_use(mock_driver):
    return run_mock(mock_driver, RUN)


@needs_kernels
def test_freed_memory_waits_for_the_held_stream(stream_use):
    bad = {}
    for name, r in stream_use["results"].items():
        if "error" in r:
            bad[name] = r["error"]
        elif r.get("waits"):
            if not r["synced"]:
                bad[name] = "marked WAITS, but it returned while its last kernel was held"
            elif r["queued_after"]:
                bad[name] = f"marked WAITS, but it queued {r['queued_after']} kernel(s) after its wait"
        elif r["synced"]:
            bad[name] = f"synchronised while its stream was held ({r['took']:.1f} s): give it a kernel to hold at"
        elif r["clobbered"]:
            bad[name] = f"freed memory overwritten by the default stream while the launch was held: {r}"
    assert not bad, bad


@needs_kernels
def test_the_check_sees_reuse(stream_use):
    # the method proves something only if a fill does land on freed memory where the pool allows
    # it: on the held stream itself at once, and on the default stream for some case whose
    # launch path tags nothing (the integer matmul's, at the time of writing), once the pool has
    # ordered the default stream after the held one (queue_log.h)
    assert stream_use["control_reused"]
    assert any(r.get("reused") and not r.get("waits") for r in stream_use["results"].values()), \
        stream_use["results"]


@needs_kernels
def test_every_kernel_family_is_checked(stream_use):
    modules = pygpu._core._fatbin_modules()
    launched = set()
    for name in stream_use["launched"]:
        for module, (_, names) in modules.items():
            if name in names:
                launched.add((module, _family(module, name)))
    table = {(m, _family(m, n)) for m, (_, names) in modules.items() for n in names}
    missing = sorted(table - launched)
    assert not missing, f"kernel families no stream-use case launches (add a case to CASES): {missing}"

