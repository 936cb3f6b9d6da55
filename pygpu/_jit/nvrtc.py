"""CUDA C compiled for a GPU by NVRTC, loaded at run time.

NVRTC comes from NVIDIA's pip wheels (``nvidia-cuda-nvrtc`` for CUDA 13 drivers,
``nvidia-cuda-nvrtc-cu12`` for CUDA 12 ones) or a CUDA toolkit; ``$PYGPU_NVRTC`` names the library
outright. The one whose major version matches the driver's is preferred: what a newer NVRTC
compiles, an older driver may refuse to load. A kernel is compiled for the device's architecture
(a cubin), or, for a GPU newer than NVRTC knows, to PTX of the newest architecture it knows (the
driver compiles that when it loads it). Results are cached in memory and on disk (cache.py) by
source, options, name expressions, architecture and NVRTC's version.
"""
import functools
import glob
import os
import re
import shutil
import site
import sys

from . import cache, headers
from .. import _core

_WHEELS = (("nvidia", "cu13", "lib", "libnvrtc.so.13"), ("nvidia", "cuda_nvrtc", "lib", "libnvrtc.so.12"),
           ("nvidia", "cuda_nvrtc", "lib", "libnvrtc.so.11.2"))
_SONAMES = ("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so")


def _toolkits():
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    roots += ["/usr/local/cuda"] + sorted(glob.glob("/usr/local/cuda-*"), reverse=True)
    seen = []
    for r in roots:
        if r and os.path.isdir(r) and r not in seen:
            seen.append(r)
    return seen


def _site_dirs():
    dirs = list(sys.path)
    try:
        dirs += site.getsitepackages() + [site.getusersitepackages()]
    except AttributeError:  # virtualenvs of old
        pass
    return [d for d in dict.fromkeys(dirs) if d and os.path.isdir(d)]


def _major(path):
    m = re.search(r"libnvrtc\.so\.(\d+)", os.path.basename(path))
    return int(m.group(1)) if m else None


def candidates(driver_version=None):
    """The libraries to try, best first: the driver's major version first, then older ones, then
    newer; within one, the explicit one, the wheels, the toolkits, then the loader's path."""
    explicit = os.environ.get("PYGPU_NVRTC")
    found = []
    for d in _site_dirs():
        found += [os.path.join(d, *w) for w in _WHEELS if os.path.exists(os.path.join(d, *w))]
    for root in _toolkits():
        for lib in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib"), os.path.join("targets", "sbsa-linux", "lib")):
            found += [os.path.join(root, lib, s) for s in _SONAMES[:-1] if os.path.exists(os.path.join(root, lib, s))]
    found += list(_SONAMES)
    found = list(dict.fromkeys(found))
    if driver_version:
        want = driver_version // 1000

        def rank(p):
            m = _major(p)
            if m is None:
                return 3
            return 0 if m == want else 1 if m < want else 2
        found.sort(key=rank)  # stable: keeps the order within a rank
    return ([explicit] if explicit else []) + found


_MISSING = ("NVRTC, the CUDA runtime compiler pygpu compiles CUDA C kernels with, was not found ({why}): "
            "install it with `pip install nvidia-cuda-nvrtc` (CUDA 13 drivers) or `pip install "
            "nvidia-cuda-nvrtc-cu12` (CUDA 12 drivers), or a CUDA toolkit; PYGPU_NVRTC may name the library")


@functools.lru_cache(maxsize=None)
def load():
    """(path, (major, minor)) of NVRTC, loaded on first use; RuntimeError naming the packages."""
    try:
        path = _core._nvrtc_load(candidates(_core._cuda_driver_version()))
    except OSError as e:
        raise RuntimeError(_MISSING.format(why=e)) from None
    return path, _core._nvrtc_version()


_CUDA_VERSION = re.compile(rb"#define\s+(?:CUDA_VERSION|CUDART_VERSION)\s+(\d+)")


def headers_major(folder):
    """The CUDA major version of the headers in folder (cuda.h's CUDA_VERSION, else
    cuda_runtime_api.h's CUDART_VERSION), or None when it says none."""
    for name in ("cuda.h", "cuda_runtime_api.h"):
        try:
            with open(os.path.join(folder, name), "rb") as f:
                m = _CUDA_VERSION.search(f.read())
        except OSError:
            continue
        if m:
            return int(m.group(1)) // 1000
    return None


@functools.lru_cache(maxsize=None)
def _include_dirs(nvrtc_major):
    """Toolkit headers (cuda_fp16.h, cooperative_groups.h, ...) for #include in kernels: the folders
    whose headers are of the loaded NVRTC's major version (CUDA 13 headers do not compile under
    NVRTC 12), or that say no version (kept: a folder of fp16 headers alone), each with its cccl/."""
    dirs = []
    for d in _site_dirs():
        for w in (("nvidia", "cu13", "include"), ("nvidia", "cuda_runtime", "include"), ("nvidia", "cuda_nvrtc", "include")):
            if os.path.isdir(os.path.join(d, *w)):
                dirs.append(os.path.join(d, *w))
    for root in _toolkits():
        if os.path.isdir(os.path.join(root, "include")) and headers_major(os.path.join(root, "include")) == nvrtc_major:
            dirs.append(os.path.join(root, "include"))
            break
    kept = [d for d in dict.fromkeys(dirs) if headers_major(d) in (None, nvrtc_major)]
    # CUDA 13 keeps libcu++ and the rest of CCCL (cuda/std/..., which cooperative_groups.h and
    # cuda_fp16.h include) in include/cccl
    return tuple(x for d in kept for x in (d, os.path.join(d, "cccl")) if os.path.isdir(x))


@functools.lru_cache(maxsize=None)
def target(compute_capability):
    """The -arch option for a device of (major, minor): sm_XY (a cubin) when NVRTC knows the
    architecture, else compute_XY of the newest it knows that the device runs (PTX)."""
    load()
    cc = compute_capability[0] * 10 + compute_capability[1]
    archs = _core._nvrtc_supported_archs()
    if archs is None or cc in archs:
        return "sm_%d" % cc
    older = [a for a in archs if a <= cc]
    if not older:
        raise RuntimeError("NVRTC %d.%d cannot compile for compute capability %d.%d (it knows %s)"
                           % (*_core._nvrtc_version(), *compute_capability, ", ".join(map(str, archs))))
    return "compute_%d" % max(older)


def contraction_options(options):
    """The user's options, with --fmad=false first unless they ask for fast math or name --fmad
    themselves: NVRTC contracts a*b+c into an FMA by default, which rounds differently from the
    CPU backend and the ufuncs (built with -ffp-contract=off and --fmad=false)."""
    options = list(options)
    for o in options:
        flag = o.lstrip("-")
        if flag.startswith("fmad") or flag in ("use_fast_math", "use-fast-math"):
            return options
    return ["--fmad=false"] + options


_memory = {}
compiles = 0  # NVRTC runs in this process (the cache's misses), for tests and benchmarks


def compile_source(source, options, name_expressions, compute_capability, filename="kernel.cu", cached_only=False,
                   user_headers=True, key_text=None):
    """(image, kind, {name expression: lowered name}) of source compiled for a device of the given
    compute capability: from memory, from the disk cache, or by NVRTC (cached_only: None instead
    of compiling). user_headers=False: the source includes none of the user's headers (pygpu's
    own code: the key skips looking for them, a scan of the source that costs milliseconds);
    key_text: a shorter text that determines the source, keyed instead of it (the key of a long
    source costs about a millisecond)."""
    path, version = load()
    arch = target(tuple(compute_capability))
    # the user's folders, then pygpu's headers, then the toolkit's: pygpu's <thrust/complex.h> (CuPy's
    # complex) compiles under NVRTC, CCCL's needs <cmath>
    opts = (["-arch=" + arch] + contraction_options(options) + headers.include_options(cpu=False) +
            ["-I" + d for d in _include_dirs(version[0])])
    k = cache.key("nvrtc", list(version), opts, list(name_expressions), filename,
                  source if key_text is None else ["key", key_text],
                  cache.included_files_digest(source, options) if user_headers else "")
    hit = _memory.get(k)
    if hit is not None:
        return hit
    name = k + ".nvrtc"
    stored = cache.load_blob(name)
    if stored is not None:
        meta, image = stored
        result = (image, meta["kind"], meta["lowered"])
    elif cached_only:
        return None
    else:
        global compiles
        compiles += 1
        image, kind, log, lowered = _core._nvrtc_compile(source, filename, opts, list(name_expressions))
        cache.store_blob(name, {"kind": kind, "lowered": lowered, "arch": arch, "nvrtc": list(version)}, image)
        result = (image, kind, lowered)
    _memory[k] = result
    return result
