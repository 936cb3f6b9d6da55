"""The compiled tier of vectorize and fuse: a VM program (pygpu/_compiler/vm.py, kernels/vm.h)
translated to a CUDA C elementwise kernel, compiled by NVRTC for a GPU (by the host C++
compiler for the CPU) while the VM runs the first calls.

The translation is of the checked program itself, instruction by instruction: one C variable per
register (a union of the register types), each op-table loop the op table's own expression
(kernels/ops.def, as cuda.jit's C defines them: the same pg_math.h functions), casts, complex
parts and moves as vm.h computes them, masked moves as `if (mask)`, jumps as `goto`. The kernel
runs the program for one element per iteration of a grid-stride loop (the CPU: a contiguous run
per block), so registers live in machine registers instead of the VM's local-memory register
file, and the compiler schedules the whole function. With one element per thread a
`jump_if_none` is taken when this element's mask is clear, which is the VM's rule for a thread
of one lane, and masked moves are how the VM keeps lanes apart: every element gets the value the
VM gives it. Both compile with --fmad=false (no contraction across or within ops), so on a GPU
the results are bitwise the VM's. On the CPU the VM computes float32/float64 sin, exp, log, ...
with the whole-array functions of kernels/vmath.h, the compiled tier with pg_math.h's scalar
ones: within their documented 1 ulp of each other, not bitwise.

Two kernels per program, device and operand types: contiguous (every array operand walked
along one merged dimension: plain indexing) and strided (up to 4 merged dimensions of any
strides, broadcasting's 0 included: the VM's div/mod offsets); scalars are passed by value.
Deeper layouts and reductions (pygpu.reduce, .reduce) stay on the VM. The C ufunc path calls
hook() (set with _core._vm_tier_hook) for a layout on a device until it answers; the answer is
kept in the program (jit/vm_launch.c). A kernel is compiled for the operand types a program
first meets there; other types run the VM.

PYGPU_VECTORIZE_TIER picks the tier: 'auto' (the default: the VM until the kernel, queued at the
program's second call, is compiled by a background thread, then the kernel; a kernel in the disk
cache from the first call; on the CPU only for the programs the kernel runs faster,
cpu_prefers_compiled()), 'compiled' (every device compiles at the first call and waits for it:
the tests' way of running every program through the compiled tier; PYGPU_TIER_STRICT=1 raises
a compile error instead of falling back to the VM) or 'vm'. set_mode() changes it at run time."""
import os
import threading

import numpy as np

from .. import _core
from .._compiler import types as T

_SUFFIX = {T.NUMBER[t]: T.SUFFIX[t] for t in T.ALL}
SCALAR = 100   # added to a scalar operand's type in the C launch's key (jit/vm_launch.c)
_ITEMSIZE = {T.NUMBER[t]: t.itemsize for t in T.ALL}
_DTYPE = {T.NUMBER[t]: t for t in T.ALL}
_REG_SUFFIXES = ("b", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "c64", "c128")
_MODES = ("auto", "compiled", "vm")
_mode = None
auto_cpu = False   # 'auto' compiles every program for the CPU device too (tests)
stats = {"compiled": 0, "cache_hits": 0, "failed": 0}   # for tests and benchmarks


def mode():
    return _mode


def set_mode(value=None):
    """Sets the tier ('auto', 'compiled', 'vm'; None: $PYGPU_VECTORIZE_TIER, else 'auto') and
    returns the previous one. Programs that already have a kernel keep using it."""
    global _mode
    if value is None:
        value = os.environ.get("PYGPU_VECTORIZE_TIER", "auto").strip().lower() or "auto"
    if value not in _MODES:
        raise ValueError("PYGPU_VECTORIZE_TIER must be one of %s, not %r" % (", ".join(_MODES), value))
    previous, _mode = _mode, value
    _core._vm_tier_hook(None if value == "vm" else hook)
    return previous


# ------------------------------------------------------------------ the C source

def _opcode_names():
    return {v: k for k, v in _core._vm_opcodes().items()}


_names = None


MAXDIMS = 4   # PG_TIER_MAXDIMS (jit/jit.h): the strided kernel's dimensions


def source(ir, types, cpu, strided=False):
    """The C (after the prelude) of the kernel `pg_tier` of a program's _tier_ir for operands
    stored as `types` (PgType numbers: the inputs, then the output; + SCALAR for a scalar),
    contiguous, or strided: then the kernel takes the number of dimensions, the shape from the
    innermost dimension out and each array's byte strides (jit/vm_launch.c packs them)."""
    global _names
    if _names is None:
        _names = _opcode_names()
    from .._compiler import cemit
    code, consts, nslots, in_regs, in_types, out_reg, out_type, name = ir
    ops_text = cemit.op_sources()
    ops = {}
    body = []
    targets = {insn[3] for insn in code if _names[insn[0]] == "jump_if_none"} | \
              {insn[2] for insn in code if _names[insn[0]] == "jump"}

    def r(k, suffix):
        return "pg_r%d.%s" % (k, suffix)

    for pc, (op, dst, a, b, c) in enumerate(code):
        if pc in targets:
            body.append("pg_L%d:;" % pc)
        n = _names[op]
        if n == "move":
            body.append("%s = %s;" % (r(dst, "m%d" % c), r(a, "m%d" % c)))
        elif n == "move_masked":
            body.append("if (%s) %s = %s;" % (r(b, "b"), r(dst, "m%d" % c), r(a, "m%d" % c)))
        elif n == "cast":
            f, t = _SUFFIX[b], _SUFFIX[c]
            body.append("%s = pg_load_%s((const char *)&%s, PG_TYPE_%s);" % (r(dst, t), t, r(a, f), f))
        elif n == "complex":
            s, p = ("c64", "f32") if c == T.NUMBER[T.COMPLEX64] else ("c128", "f64")
            body.append("{ pg_t_%s re = %s, im = %s; %s = re; %s = im; }"
                        % (p, r(a, p), r(b, p), r(dst, s + ".re"), r(dst, s + ".im")))
        elif n in ("real", "imag"):
            s = "c64" if c == T.NUMBER[T.COMPLEX64] else "c128"
            p = "f32" if s == "c64" else "f64"
            body.append("%s = %s;" % (r(dst, p), r(a, s + (".re" if n == "real" else ".im"))))
        elif n == "jump":
            poll = "(void)__pg_going(); " if cpu and a <= pc else ""
            body.append("%sgoto pg_L%d;" % (poll, a))
        elif n == "jump_if_none":
            body.append("if (!%s) goto pg_L%d;" % (r(a, "b"), b))
        else:   # an op-table loop
            ins, out, text = ops_text[n]
            if n not in ops:
                params = ", ".join("pg_t_%s x%d" % (s, i) for i, s in enumerate(ins))
                ops[n] = "PG_JIT_FN pg_t_%s op_%s(%s) { return (pg_t_%s)(%s); }" % (out, n, params, out, text)
            args = ", ".join(r(x, s) for x, s in zip((a, b, c), ins))
            body.append("%s = op_%s(%s);" % (r(dst, out), n, args))
    if len(code) in targets:
        body.append("pg_L%d:;" % len(code))

    nin = len(in_regs)
    lines = ["/* %s: the compiled tier of a vectorize program (pygpu/_jit/tier.py) */" % name.replace("*/", ""),
             "typedef struct { uint64_t w[2]; } pg_tier_u128;",
             "union pg_tier_reg { pg_tier_u128 m16; uint8_t m1; uint16_t m2; uint32_t m4; uint64_t m8; %s };"
             % " ".join("pg_t_%s %s;" % (s, s) for s in _REG_SUFFIXES)]
    lines += [ops[k] for k in sorted(ops)]
    if cpu:   # the element loop is bounded: no Ctrl-C poll in it (the program's backward jumps poll)
        lines += ['#pragma push_macro("for")', "#undef for"]
    params = ["int64_t pg_n"]
    if strided:
        params += ["int64_t pg_nd"] + ["int64_t pg_shape%d" % d for d in range(MAXDIMS)]
    for k in range(nin + 1):
        if types[k] >= SCALAR:
            params.append("uint64_t pg_s%da, uint64_t pg_s%db" % (k, k))
        else:
            params.append("char *pg_d%d" % k)
            if strided:
                params += ["int64_t pg_st%d_%d" % (k, d) for d in range(MAXDIMS)]
    params = ", ".join(params)
    lines.append('extern "C" PG_JIT_KERNEL __global__ void pg_tier(%s)' % params)
    lines.append("{")
    if cpu:   # a contiguous run of elements per block (one thread each)
        lines += ["    const int64_t pg_per = (pg_n + gridDim.x - 1) / gridDim.x;",
                  "    const int64_t pg_lo = (int64_t)blockIdx.x * pg_per;",
                  "    const int64_t pg_hi = pg_lo + pg_per < pg_n ? pg_lo + pg_per : pg_n;",
                  "    for (int64_t pg_i = pg_lo; pg_i < pg_hi; pg_i++) {"]
    else:
        lines += ["    for (int64_t pg_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; pg_i < pg_n;",
                  "         pg_i += (int64_t)blockDim.x * gridDim.x) {"]
    arrays = [k for k in range(nin + 1) if types[k] < SCALAR]
    if strided:   # each array's byte offset of element pg_i (as vm.cu's vm_offsets)
        lines += ["        int64_t %s;" % ", ".join("pg_o%d = 0" % k for k in arrays),
                  "        int64_t pg_e = pg_i;"]
        for d in range(MAXDIMS):
            lines.append("        if (%d < pg_nd) {" % d)
            lines.append("            const int64_t pg_q = pg_e / pg_shape%d, pg_j = pg_e - pg_q * pg_shape%d;" % (d, d))
            lines += ["            pg_o%d += pg_j * pg_st%d_%d;" % (k, k, d) for k in arrays]
            lines.append("            pg_e = pg_q;")
            lines.append("        }")

    def at(k):
        return ("pg_d%d + pg_o%d" % (k, k)) if strided else ("pg_d%d + pg_i * %d" % (k, _ITEMSIZE[types[k]]))

    lines += ["        union pg_tier_reg %s;" % ", ".join("pg_r%d = {}" % k for k in range(max(nslots, 1)))]
    for reg, t, value in consts:   # the VM's constant registers, as the bytes it fills them with
        value = value.item() if isinstance(value, np.generic) else value
        data = np.array(value, dtype=_DTYPE[t]).tobytes()
        if len(data) == 16:
            lo, hi = int.from_bytes(data[:8], "little"), int.from_bytes(data[8:], "little")
            lines.append("        pg_r%d.m16.w[0] = 0x%xULL; pg_r%d.m16.w[1] = 0x%xULL;" % (reg, lo, reg, hi))
        else:
            lines.append("        pg_r%d.m%d = 0x%xULL;" % (reg, len(data), int.from_bytes(data, "little")))
    for k in range(nin):
        s = _SUFFIX[in_types[k]]
        if types[k] >= SCALAR:   # its value's bytes, as stored (the VM loads it the same way)
            lines.append("        { const uint64_t pg_v[2] = {pg_s%da, pg_s%db}; %s = pg_load_%s((const char *)pg_v, %d); }"
                         % (k, k, r(in_regs[k], s), s, types[k] - SCALAR))
            continue
        lines.append("        %s = pg_load_%s(%s, %d);" % (r(in_regs[k], s), s, at(k), types[k]))
    lines += ["        " + x for x in body]
    so = _SUFFIX[out_type]
    lines.append("        pg_store_%s(%s, %d, %s);" % (so, at(nin), types[nin], r(out_reg, so)))
    lines += ["    }", "}"]
    if cpu:
        lines.append('#pragma pop_macro("for")')
    return "\n".join(lines) + "\n"


_HEAD = None


def _head():
    """(the text before a kernel's source: the prelude, and its digest)."""
    global _HEAD
    if _HEAD is None:
        import hashlib
        from .cudajit import prelude
        text = "#define PG_JIT_CHECK 0\n" + prelude() + "\n"
        _HEAD = (text, hashlib.sha256(text.encode()).hexdigest())
    return _HEAD


def full_source(ir, types, cpu, strided=False):
    return _head()[0] + source(ir, types, cpu, strided)


# ------------------------------------------------------------------ compiling and loading

_FILENAME = "pg_tier.cu"


def _compile(device, text, cached_only):
    """What _load needs: the image (GPU) or the shared object's path (CPU); None when cached_only
    and it is not in the cache."""
    if device.type == "cpu":
        from . import hostcc
        try:
            return hostcc.compile_module(text, ["pg_tier"], (), _FILENAME, cached_only=cached_only,
                                         user_headers=False)[0]
        except hostcc.CompileError as e:
            if "internal compiler error" not in str(e):
                raise
            # gcc 12's SLP vectorizer fails on some programs' straight-line complex code
            # (get_vectype_for_scalar_type): the same module without it
            text = '#pragma GCC optimize("no-tree-slp-vectorize")\n' + text
            return hostcc.compile_module(text, ["pg_tier"], (), _FILENAME, cached_only=cached_only,
                                         user_headers=False)[0]
    from . import nvrtc
    from .module import compute_capability
    head, digest = _head()   # the key: of the prelude's digest and the kernel's own text
    key_text = digest + text[len(head):] if text.startswith(head) else None
    hit = nvrtc.compile_source(text, (), (), compute_capability(device), _FILENAME, cached_only=cached_only,
                               user_headers=False, key_text=key_text)
    return None if hit is None else hit[0]


def _load(device, built):
    return _core._Module(device, built).get_function("pg_tier", None, "pg_tier")


class _Job:
    """A program's kernel on one device: the source, the calls the VM made of it, and the
    background compile's outcome (done, then result: what _compile returned, or error)."""

    def __init__(self, device, text):
        self.device, self.text = device, text
        self.calls = 0
        self.queued = self.done = False
        self.result = self.error = None

    def run(self):
        try:
            self.result = _compile(self.device, self.text, False)
        except BaseException as e:  # the VM keeps running the program
            self.error = e
        self.text = None
        self.done = True


_queue = []               # jobs waiting for the worker, oldest first
_cv = threading.Condition()
_worker = None
_current = None           # the job the worker is compiling
_stopping = False


def _work():
    global _current
    while True:
        with _cv:
            while not _queue and not _stopping:
                _cv.wait()
            if _stopping:
                return
            _current = _queue.pop(0)
        _current.run()
        with _cv:
            _current = None
            _cv.notify_all()


def _submit(job):
    """Queues a compile for the one worker thread (a daemon: at exit the queue is dropped and
    the compile under way, if any, is waited for, _at_exit)."""
    global _worker
    with _cv:
        if _worker is None:
            _worker = threading.Thread(target=_work, name="pygpu-tier", daemon=True)
            _worker.start()
            import atexit
            atexit.register(_at_exit)
        job.queued = True
        _queue.append(job)
        _cv.notify_all()


def _at_exit():
    """The interpreter ends: no new compile; the one under way finishes first (NVRTC or the
    host compiler's child must not outlive the objects they use)."""
    global _stopping
    with _cv:
        _stopping = True
        _queue.clear()
        _cv.notify_all()
        while _current is not None:
            _cv.wait(0.1)


def _after_fork_in_child():
    """A forked child has no worker thread: it starts its own, and its jobs are queued again."""
    global _worker, _current, _cv, _stopping
    for job in _queue + ([_current] if _current is not None else []):
        job.queued = False
    _queue.clear()
    _worker = _current = None
    _cv = threading.Condition()
    _stopping = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


CALLS_BEFORE_COMPILING = 2   # the VM runs a program this many times on a device before it compiles


def hook(program, device, types, now=False, strided=False):
    """The C launch's question (jit/vm_launch.c): the kernel of `program` for operands stored as
    `types` on `device`, None (not yet: run the VM), or False (the VM only there). now: the VM
    cannot run it there (more registers than the CUDA interpreter has): compile and wait.
    strided: the kernel for operands of any strides (broadcast, views) instead of contiguous.
    'auto' looks in the disk cache at the first call (a kernel there runs from the first call),
    queues the compile at the second (a function called once never costs a compile), and
    launches the kernel from the first call after the compile is done."""
    ir = getattr(program, "_tier_ir", None)
    if ir is None or _mode == "vm":
        return False
    if any((t - SCALAR if t >= SCALAR else t) not in _ITEMSIZE for t in types) or types[-1] >= SCALAR:
        return False
    jobs = getattr(program, "_tier_jobs", None)
    if jobs is None:
        jobs = program._tier_jobs = {}
    key = (str(device), tuple(types), bool(strided))
    job = jobs.get(key)
    try:
        if job is None:
            if device.type == "cpu" and _mode != "compiled" and not now and not auto_cpu \
                    and not cpu_prefers_compiled(ir):
                return False
            text = full_source(ir, types, device.type == "cpu", strided)
            if _mode == "compiled" or now:
                fn = _load(device, _compile(device, text, False))
                stats["compiled"] += 1
                return fn
            built = _compile(device, text, True)
            if built is not None:   # in the disk cache: the kernel from the first call
                stats["cache_hits"] += 1
                return _load(device, built)
            job = jobs[key] = _Job(device, text)
        job.calls += 1
        if not job.queued and job.calls >= CALLS_BEFORE_COMPILING:
            _submit(job)
        if not job.done:
            return None
        if job.error is not None:
            raise job.error
        fn = _load(device, job.result)
        stats["compiled"] += 1
        return fn
    except Exception as e:   # whatever went wrong, the VM still computes the program
        program._tier_error = e
        stats["failed"] += 1
        if _mode == "compiled" and os.environ.get("PYGPU_TIER_STRICT"):
            raise
        return False


_vmath = None


def cpu_prefers_compiled(ir):
    """'auto' on the CPU: the kernel unless the program calls one of the functions the VM
    computes with vmath.h's vectorised functions (sin, exp, log, ...: 3.5-6x faster there than
    the kernel's scalar calls, and the kernel's bits would differ by their ulp). Measured on 2
    cores of a Xeon, 10^7 elements: a straight-line float64 polynomial 2.9x the VM's speed, a
    float32 function with branches 5.8x, a Mandelbrot set 2.3x (the VM pays each instruction for
    a block's lanes, under masks where they branch); cos(x)**2 + sin(x)**2 0.23x."""
    global _names, _vmath
    if _names is None:
        _names = _opcode_names()
    if _vmath is None:
        _vmath = frozenset(_core._vmath_loops())
    return not any(_names[insn[0]] in _vmath for insn in ir[0])


def programs(obj):
    """The VmPrograms of a vectorize ufunc (its loops) or a fuse function (its compiled ones)."""
    if hasattr(obj, "_programs"):
        return [p for _, p in (obj._programs or ())]
    return [p for uf, _ in getattr(obj, "cache", {}).values() for _, p in (uf._programs or ())]


def wait(program, timeout=None):
    """Waits for the background compiles of a program (tests, benchmarks); a compile not queued
    yet (a program called once) is queued now."""
    import time
    end = None if timeout is None else time.monotonic() + timeout
    for job in list(getattr(program, "_tier_jobs", {}).values()):
        if not job.queued:
            _submit(job)
        while not job.done and (end is None or time.monotonic() < end):
            time.sleep(0.005)
