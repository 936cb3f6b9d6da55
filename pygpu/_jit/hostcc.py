"""CUDA C compiled for the CPU device by the host's C++ compiler.

The source is compiled as: the header of kernels/cuda_cpu.h (embedded in the extension, so it
matches the backend that runs the result), the user's source (``extern __shared__`` arrays
rewritten to the block's dynamic shared memory), and a footer that exports the kernels asked for
(names, or C++ name expressions such as ``f<float, 4>``). The result is a shared object in the
kernel cache (cache.py), keyed by all of that and by the compiler's identity, so later processes
load it without compiling. The compiler is ``$PYGPU_CXX``, else the first of c++, g++, clang++
on PATH.
"""
import functools
import hashlib
import os
import platform
import re
import shutil
import subprocess

from . import cache, cuda_c_names, headers, signature
from .. import _core
from .._core import CompileError

# -ffp-contract=off: no fused multiply-add, as the rest of pygpu's CPU kernels (see setup.py)
# -fvisibility=hidden: modules loaded together must not share template instances (GNU unique
# symbols are process-wide even under RTLD_LOCAL)
FLAGS = ("-std=c++17", "-O3", "-fPIC", "-shared", "-fno-exceptions", "-fno-rtti", "-ffp-contract=off",
         "-fvisibility=hidden", "-march=native")

# the source uses a barrier or warp collective: its blocks run as fibers
_BARRIERS = re.compile(r"\b(?:__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__all_sync|__any_sync|__uni_sync|"
                       r"__activemask|__match_\w+)\b")
_EXTERN_SHARED = re.compile(r"\bextern\s+__shared__\s+((?:__align__\s*\(\s*\d+\s*\)\s*)?)([^;\[\]{}()]*?)\s*"
                            r"\b(\w+)\s*\[\s*\]\s*;")
_EXPORTS_FILE = "<pygpu exports>"
# the version of the rewriting full_source does (part of the cache key: a change recompiles)
_REWRITES = 3


@functools.lru_cache(maxsize=None)
def compiler():
    """(path, identity) of the host C++ compiler; CompileError saying so when there is none. The
    identity (the real path, size and time of the binary) keys the cache without running it."""
    explicit = os.environ.get("PYGPU_CXX")
    candidates = [explicit] if explicit else ["c++", "g++", "clang++"]
    for name in candidates:
        found = shutil.which(name)
        if found is None:
            continue
        real = os.path.realpath(found)
        st = os.stat(real)
        return found, "%s %d %d" % (real, st.st_size, st.st_mtime_ns)
    raise CompileError(
        "pygpu runs CUDA C kernels on the CPU by compiling them with the host's C++ compiler, and found none "
        "(looked for %s): install one (e.g. `apt-get install g++`), name it with PYGPU_CXX, or run on a CUDA "
        "device" % (", ".join(candidates)))


@functools.lru_cache(maxsize=None)
def _cpu_identity():
    """What -march=native compiles for: the cache must not hand one CPU's code to another."""
    model = flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and not model:
                    model = line.split(":", 1)[1].strip()
                elif line.startswith(("flags", "Features")) and not flags:
                    flags = hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return platform.machine(), model, flags


@functools.lru_cache(maxsize=None)
def header():
    return _core._cuda_cpu_header()


@functools.lru_cache(maxsize=None)
def _header_digest():
    return hashlib.sha256(header().encode()).hexdigest()


def uses_barriers(source):
    return _BARRIERS.search(source) is not None


def rewrite_dynamic_shared(source, filename):
    """``extern __shared__ T name[];`` becomes a name for the block's dynamic shared memory (the
    host compiler cannot size an extern array at run time); line numbers are kept."""
    out, pos = [], 0
    for m in _EXTERN_SHARED.finditer(source):
        line = source.count("\n", 0, m.end()) + 1
        ctype, name = m.group(2).strip(), m.group(3)
        out.append(source[pos:m.start()])
        out.append('\n#undef %s\n#define %s ((%s *)__pg_idx.dynamic_shared)\n#line %d "%s"\n'
                   % (name, name, ctype, line, filename))
        pos = m.end()
    out.append(source[pos:])
    return "".join(out)


_INDICES = re.compile(r"\b(?:threadIdx|blockIdx|blockDim|gridDim|__lanemask_\w+)\b")


def add_index_parameter(source):
    """Each kernel declared in the source gets its indices as a first parameter
    (``const PgCpuThread &__pg_idx``, see kernels/cuda_cpu.h), so that a block's loop passes them in
    registers; returns the new source and whether code outside those kernels reads indices (then
    the loop keeps the thread-local record current as well)."""
    found = signature.sites(source)
    text = signature.strip_comments(source)
    outside = text
    for _, _, _, _, body in found:
        if body is not None:
            outside = outside[:body[0]] + " " * (body[1] - body[0]) + outside[body[1]:]
    uses_tls = _INDICES.search(outside) is not None
    out = source
    for _, _, paren, params, _ in sorted(found, key=lambda f: -f[2]):
        if params.strip() in ("", "void"):
            out = out[:paren + 1] + "const PgCpuThread &__pg_idx" + out[paren + 1 + len(params):]
        else:
            out = out[:paren + 1] + "const PgCpuThread &__pg_idx, " + out[paren + 1:]
    return out, uses_tls


_PRIVATE = "__pg_user_"


def private_names(source):
    """Each kernel the source declares gets a private C++ name (``__pg_user_`` + its name) and is
    exported under the user's: a kernel named like a C library function (cabs, exp, random,
    index, ...) would otherwise be that function to the host compiler (a builtin silently
    called instead, or a clash with the declaration of <stdlib.h> & co.), where NVRTC has no such
    functions. The declarations (forward ones and definitions), explicit instantiations and
    PG_CPU_THREAD_ORDER(name, d) are rewritten; positions after them shift, lines do not.
    Returns the new source and the set of names renamed."""
    found = signature.sites(source)
    text = signature.strip_comments(source)
    decls, macros = [], set()
    for name, _, paren, _, _ in found:
        m = re.search(r"\b%s\s*$" % re.escape(name), text[:paren])
        if m and _in_directive(text, m.start()):
            macros.add(name)   # a macro's parameter (#define K(name) __global__ void name(...)): kept
        elif m:
            decls.append((name, m.start()))
    names = {name for name, _ in decls} - macros
    if not names:
        return source, names
    spots = [pos for name, pos in decls if name in names]
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    inserts = []
    # `template __global__ void f<float>(float *);` (it gets the index parameter too) and
    # cuda.jit's PG_CPU_THREAD_ORDER(f, d)
    for m in re.finditer(r"\btemplate\s+(?!<)[^;{}<>()]*?\b(%s)\s*<|\bPG_CPU_THREAD_ORDER\s*\(\s*(%s)\b" % (alt, alt),
                         text):
        if m.group(1):
            spots.append(m.start(1))
            paren = text.find("(", m.end())
            params = signature._balanced(text, paren) if paren >= 0 else None
            if params is not None:
                inserts.append((paren + 1, len(params) if params.strip() in ("", "void") else 0))
        else:
            spots.append(m.start(2))
    edits = [(pos, 0, _PRIVATE) for pos in set(spots)]
    edits += [(pos, drop, "const PgCpuThread &" if drop or not text[pos:paren_end(text, pos)].strip()
               else "const PgCpuThread &, ") for pos, drop in inserts]
    out = source
    for pos, drop, what in sorted(edits, reverse=True):
        out = out[:pos] + what + out[pos + drop:]
    return out, names


def paren_end(text, pos):
    """The position of the ')' closing the parameter list that starts at `pos`."""
    return pos + len(signature._balanced(text, pos - 1))


def _in_directive(text, pos):
    """Whether `pos` lies in a preprocessor directive (its logical line, continuations included,
    starts with #)."""
    start = text.rfind("\n", 0, pos) + 1
    while start > 1 and text[start - 2] == "\\":
        start = text.rfind("\n", 0, start - 1) + 1
    return text[start:].lstrip().startswith("#")


def private_expression(expression, names):
    """The C++ expression of an export: its function name made private when the source's kernel
    of that name was renamed ('ns::f<float, 4>' -> 'ns::__pg_user_f<float, 4>')."""
    m = re.match(r"(\s*&?\s*(?:\w+\s*::\s*)*)(\w+)", expression)
    if m and m.group(2) in names:
        return m.group(1) + _PRIVATE + expression[m.start(2):]
    return expression


def full_source(source, exports, filename="kernel.cu"):
    """The translation unit: header, the user's source, then the exports of `exports` (names or
    name expressions, in order: entry i exports exports[i])."""
    body, uses_tls = add_index_parameter(rewrite_dynamic_shared(source, filename))
    body, renamed = private_names(body)
    lines = ['#line 1 "%s"' % _EXPORTS_FILE]
    for i, e in enumerate(exports):
        lines.append("PG_CPU_EXPORT(%d, %s)" % (i, private_expression(e, renamed)))
    entries = " ".join('PG_CPU_KERNEL(%d, "%s")' % (i, e.replace("\\", "\\\\").replace('"', '\\"'))
                       for i, e in enumerate(exports))
    lines.append("PG_CPU_MODULE(%d, %s)" % (1 if uses_barriers(source) else 0, entries))
    if not exports:
        lines[-1] = "static const PgCpuKernel __pg_kernels[1] = {{0}};\n" \
                    'extern "C" __attribute__((visibility("default"))) const PgCpuModule pg_cpu_module = ' \
                    "{PG_CPU_ABI_VERSION, 0, 0, __pg_kernels, __pg_thread_state, __pg_set_runtime};"
    return "#define PG_TLS_INDICES %d\n%s\n#line 1 \"%s\"\n%s\n%s\n" % (
        uses_tls, header(), filename, body, "\n".join(lines))


def _options(options):
    """The NVRTC/nvcc options that mean something to the host compiler: -D, -U, -I."""
    out = []
    it = iter(options)
    for o in it:
        if o in ("-D", "-U", "-I", "--define-macro", "--undefine-macro", "--include-path"):
            value = next(it, None)
            if value is not None:
                out.append({"--define-macro": "-D", "--undefine-macro": "-U", "--include-path": "-I"}.get(o, o) + value)
        elif o.startswith(("-D", "-U", "-I")):
            out.append(o)
        elif o.startswith(("--define-macro=", "--undefine-macro=", "--include-path=")):
            flag, value = o.split("=", 1)
            out.append({"--define-macro": "-D", "--undefine-macro": "-U", "--include-path": "-I"}[flag] + value)
    return out


def failed_exports(log, exports):
    """Indices of the exports the compiler could not resolve (names the source lacks)."""
    bad = set()
    for m in re.finditer(re.escape(_EXPORTS_FILE) + r":(\d+):", log):
        index = int(m.group(1)) - 1
        if 0 <= index < len(exports):
            bad.add(index)
    return bad


def _run(cxx, flags, text, name):
    def write(tmp):
        global compiles
        compiles += 1
        proc = subprocess.run([cxx, *flags, "-x", "c++", "-", "-o", tmp], input=text, capture_output=True, text=True)
        if proc.returncode != 0:
            err = CompileError("the host C++ compiler could not compile %s:\n%s" % (name, proc.stderr.strip()))
            err.log = proc.stderr
            raise err
    return write


_memory = {}
compiles = 0  # compiler runs in this process (the cache's misses), for tests and benchmarks


def compile_module(source, exports, options=(), filename="kernel.cu", cached_only=False, user_headers=True):
    """The path of the shared object of `source` with `exports` (compiled, or from the cache), and
    the exports it holds: an export the source does not define is dropped (get_function then
    says the module has no such kernel). CompileError with the compiler's log otherwise.
    cached_only: (None, exports) instead of compiling. user_headers=False: the source includes
    none of the user's headers (the key skips looking for them)."""
    exports = list(exports)
    clash = [n for n in signature.c_linkage_names(source) if n in cuda_c_names.NAMES]
    if clash:
        raise CompileError(
            '%s: error: more than one instance of overloaded function "%s" has "C" linkage: CUDA declares '
            '%s for device code, so NVRTC refuses a kernel of that name with C linkage (extern "C"); rename '
            "the kernel" % (filename, clash[0], clash[0]))
    cxx, identity = compiler()
    user_flags = list(FLAGS) + _options(options)
    # pygpu's headers (named by their digest): the CPU's versions of CUDA's own headers
    # (cuda_fp16.h, cuda_runtime.h, ...) before the user's folders, as the toolkit's (a common
    # -I<cuda>/include) do not compile for the CPU; CuPy's after them: the user's win
    cpu_first, common = headers.include_options(cpu=True)
    flags = list(FLAGS) + [cpu_first] + _options(options) + [common]
    while True:
        # the key is of what the translation unit is made from (it is built only on a miss: the
        # rewriting passes over a long source cost more than loading the cached result)
        k = cache.key("cpu", _REWRITES, identity, _cpu_identity(), flags, _header_digest(), filename, exports,
                      hashlib.sha256(source.encode()).hexdigest(),
                      cache.included_files_digest(source, user_flags) if user_headers else "")
        name = k + ".so"
        hit = _memory.get(k)
        if hit is not None:
            return hit, exports
        path = cache.path(name)
        if not os.path.exists(path):
            if cached_only:
                return None, exports
            text = full_source(source, exports, filename)
            try:
                path = cache.write_atomically(name, _run(cxx, flags, text, filename))
            except CompileError as e:
                bad = failed_exports(e.log, exports)
                # errors in the user's own file are real; those in the header follow from exports
                other = [ln for ln in e.log.splitlines() if ": error" in ln and ln.startswith(filename + ":")]
                if bad and not other:
                    exports = [x for i, x in enumerate(exports) if i not in bad]
                    continue
                raise
        _memory[k] = path
        return path, exports
