"""The NVRTC 12 kernel toolchain of the build (PYGPU_CUDA_TOOLCHAIN=nvrtc12): compiles each
csrc/kernels/*.cu into a cubin per architecture plus PTX for the newest, with the NVRTC and CCCL
of NVIDIA's pip wheels, so that a machine without a CUDA 12 nvcc builds kernels that load on every
driver from CUDA 12.0 (R525) on.

Why NVRTC 12: a cubin built by CUDA 12.x runs on any 12.x driver (minor version compatibility)
and on every later driver (a newer driver runs older cubins); nvcc 13's need R580+. The PTX is
there for GPUs newer than the newest cubin; the driver JIT-compiles it, which needs a driver at
least as new as this NVRTC (12.9: R575+), since PTX of a newer ISA does not load on older ones.

- NVRTC is libnvrtc.so.12 of the `nvidia-cuda-nvrtc-cu12` wheel, or $PYGPU_NVRTC (a path). The
  CCCL headers (CUB, libcu++) come from `nvidia-cuda-cccl-cu12`, or $PYGPU_CCCL_INCLUDE.
- The C library headers the kernels include resolve to csrc/kernels/rtc_libc/ (NVRTC has none).
- Each (module, architecture) is one NVRTC program: NVRTC compiles for one target at a time.
  They run on a thread pool as wide as the machine (NVRTC releases the GIL, and its programs are
  independent). Each image is xz-compressed (Python's lzma: about 30:1 for these cubins, whose
  repeats lie further apart than zlib's 32 KiB window sees, where zlib gives 6:1) and cached under
  build/cuda-cache keyed by the sources, the options, the architecture, NVRTC's version and
  CCCL's; the loader (runtime/module_image.c) inflates the one it picks.
- The kernels of a module are the `.entry` names of its PTX that are not C++-mangled: every
  kernel pygpu launches is extern "C", as build_cuda.py reads them from nvcc's preprocessor.
"""
import concurrent.futures
import ctypes
import hashlib
import os
import re
import sys
import threading
import time
import lzma

import build_cuda

HERE = build_cuda.HERE
KERNEL_DIR = build_cuda.KERNEL_DIR
RTC_LIBC = os.path.join(KERNEL_DIR, "rtc_libc")

# the options nvcc gets in build_cuda.py that mean the same to NVRTC (--fmad=false: see there);
# 1444: CCCL 12.9 deprecates CUB traits its own agents still use
NVRTC_FLAGS = ["-std=c++17", "--fmad=false", "-default-device", "-diag-suppress=1444"]
ENTRY = re.compile(r"^\s*(?:\.(?:visible|weak)\s+)*\.entry\s+([A-Za-z_$][\w$]*)", re.M)


_MEASURED_SECONDS = {"elementwise": 280, "vm_reduce": 85, "reduce": 75, "vm": 70, "random": 8, "sort": 5}


class NvrtcError(RuntimeError):
    pass


def _package_dir(module, *parts):
    """A folder inside an installed `nvidia.*` wheel, or None."""
    try:
        mod = __import__(module, fromlist=["_"])
    except ImportError:
        return None
    paths = list(getattr(mod, "__path__", []))
    for base in paths:
        path = os.path.join(base, *parts)
        if os.path.exists(path):
            return path
    return None


def find_nvrtc():
    """The path of libnvrtc.so.12, or None."""
    explicit = os.environ.get("PYGPU_NVRTC")
    if explicit:
        if not os.path.exists(explicit):
            raise RuntimeError(f"PYGPU_NVRTC={explicit}: no such file")
        return explicit
    return _package_dir("nvidia.cuda_nvrtc", "lib", "libnvrtc.so.12")


def find_cccl():
    """The include folder holding cub/ and cuda/std/ of CCCL 12, or None."""
    explicit = os.environ.get("PYGPU_CCCL_INCLUDE")
    if explicit:
        if not os.path.isdir(os.path.join(explicit, "cub")):
            raise RuntimeError(f"PYGPU_CCCL_INCLUDE={explicit} has no cub/ folder")
        return explicit
    return _package_dir("nvidia.cuda_cccl", "include")


class Nvrtc:
    """The few NVRTC entry points the build needs, through ctypes."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        major, minor = ctypes.c_int(), ctypes.c_int()
        self._check(self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
        self.version = (major.value, minor.value)
        if major.value != 12:
            raise RuntimeError(f"{path} is NVRTC {major.value}.{minor.value}: PYGPU_CUDA_TOOLCHAIN=nvrtc12 "
                               "needs NVRTC 12 (pip install nvidia-cuda-nvrtc-cu12)")
        count = ctypes.c_int()
        self._check(self.lib.nvrtcGetNumSupportedArchs(ctypes.byref(count)), "nvrtcGetNumSupportedArchs")
        archs = (ctypes.c_int * count.value)()
        self._check(self.lib.nvrtcGetSupportedArchs(archs), "nvrtcGetSupportedArchs")
        self.archs = sorted(archs)

    def _check(self, rc, what):
        if rc != 0:
            raise NvrtcError(f"{what}: {self.lib.nvrtcGetErrorString(rc).decode()}")

    def compile(self, source_path, options, ptx):
        """(image bytes, log) of one program: a cubin, or PTX text when ptx is set."""
        with open(source_path, "rb") as f:
            source = f.read()
        prog = ctypes.c_void_p()
        self._check(self.lib.nvrtcCreateProgram(ctypes.byref(prog), source, source_path.encode(), 0, None, None),
                    "nvrtcCreateProgram")
        try:
            opts = [o.encode() for o in options]
            rc = self.lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
            size = ctypes.c_size_t()
            self._check(self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size)), "nvrtcGetProgramLogSize")
            log = ctypes.create_string_buffer(size.value)
            self._check(self.lib.nvrtcGetProgramLog(prog, log), "nvrtcGetProgramLog")
            log = log.value.decode(errors="replace").strip()
            if rc != 0:
                raise NvrtcError(f"NVRTC failed on {os.path.relpath(source_path, HERE)}:\n{log}")
            get_size, get = ((self.lib.nvrtcGetPTXSize, self.lib.nvrtcGetPTX) if ptx
                             else (self.lib.nvrtcGetCUBINSize, self.lib.nvrtcGetCUBIN))
            self._check(get_size(prog, ctypes.byref(size)), "nvrtcGet*Size")
            image = ctypes.create_string_buffer(size.value)
            self._check(get(prog, image), "nvrtcGet*")
            return image.raw, log
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))


def options(arch, ptx, cccl):
    target = f"compute_{arch}" if ptx else f"sm_{arch}"
    return [f"-arch={target}"] + NVRTC_FLAGS + [f"-I{RTC_LIBC}", f"-I{KERNEL_DIR}", f"-I{cccl}"]


def toolchain_key(nvrtc, cccl):
    """What, besides the sources, decides the images: NVRTC's version and CCCL's."""
    h = hashlib.sha256(f"nvrtc {nvrtc.version}".encode())
    with open(os.path.join(cccl, "cub", "version.cuh"), "rb") as f:
        h.update(f.read())
    for name in sorted(os.listdir(RTC_LIBC)):
        with open(os.path.join(RTC_LIBC, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


def kernel_names(ptx_text):
    """The extern "C" kernels of a module, from its PTX."""
    return sorted({n for n in ENTRY.findall(ptx_text) if not n.startswith("_Z")})


def compile_image(nvrtc, cccl, source, arch, ptx, path):
    """Compiles one image into path, xz-compressed; a PTX image also lists the module's kernels
    into path + ".kernels". Both are written atomically. Returns the seconds NVRTC took."""
    start = time.monotonic()
    image, log = nvrtc.compile(source, options(arch, ptx, cccl), ptx)
    elapsed = time.monotonic() - start
    if log:
        sys.stderr.write(log + "\n")
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    if ptx:
        image = image.rstrip(b"\0") + b"\0"  # the driver reads PTX as a C string
        with open(tmp + ".kernels", "w") as f:
            f.write("\n".join(kernel_names(image.decode(errors="replace"))) + "\n")
        os.replace(tmp + ".kernels", path + ".kernels")
    with open(tmp, "wb") as f:
        f.write(lzma.compress(image, preset=9))
    os.replace(tmp, path)
    return elapsed


def choose_archs(nvrtc):
    """The cubin architectures: $PYGPU_CUDA_ARCHS, else base_archs this NVRTC supports. PTX is
    added for the newest."""
    env = os.environ.get("PYGPU_CUDA_ARCHS")
    if env:
        archs = build_cuda.parse_archs(env)
        bad = [a for a in archs if a not in nvrtc.archs]
        if bad:
            raise ValueError("PYGPU_CUDA_ARCHS: NVRTC %d.%d cannot build %s (it supports %s)"
                             % (nvrtc.version + (", ".join(f"sm_{a}" for a in bad),
                                                 " ".join(f"sm_{a}" for a in nvrtc.archs))))
        return archs
    return [a for a in build_cuda.BASE_ARCHS if a in nvrtc.archs]


def build_modules(cache_dir):
    """Builds (or finds cached) the images of every module. Returns the build description of
    build_cuda.py: {"toolchain", "version", "archs", "modules": [(name, [(arch, is_ptx, path)],
    kernels path)]}."""
    path = find_nvrtc()
    if path is None:
        raise RuntimeError("PYGPU_CUDA_TOOLCHAIN=nvrtc12: NVRTC 12 not found: pip install nvidia-cuda-nvrtc-cu12 "
                           "nvidia-cuda-cccl-cu12, or set PYGPU_NVRTC to a libnvrtc.so.12")
    cccl = find_cccl()
    if cccl is None:
        raise RuntimeError("PYGPU_CUDA_TOOLCHAIN=nvrtc12: the CCCL headers not found: pip install "
                           "nvidia-cuda-cccl-cu12, or set PYGPU_CCCL_INCLUDE to a folder holding cub/")
    nvrtc = Nvrtc(path)
    archs = choose_archs(nvrtc)
    newest = max(archs)
    targets = [(a, False) for a in archs] + [(newest, True)]
    common = toolchain_key(nvrtc, cccl)
    modules, stale = [], []
    for name, source in build_cuda.module_sources().items():
        images = []
        for arch, ptx in targets:
            key = hashlib.sha256((common + build_cuda.cache_key(source, options(arch, ptx, "")[:1 + len(NVRTC_FLAGS)], "")).encode())
            kind = "ptx" if ptx else "cubin"
            image = os.path.join(cache_dir, f"{name}-{kind}{arch}-{key.hexdigest()}.xz")
            images.append((arch, ptx, image))
            if not os.path.exists(image) or (ptx and not os.path.exists(image + ".kernels")):
                stale.append((name, source, arch, ptx, image))
        modules.append((name, images, images[-1][2] + ".kernels"))
    arch_names = " ".join([f"sm_{a}" for a in archs] + [f"compute_{newest}"])
    if stale:
        workers = min(len(stale), os.cpu_count() or 1)
        build_cuda.log(f"CUDA kernels: NVRTC {nvrtc.version[0]}.{nvrtc.version[1]} ({path}) for {arch_names}: "
            f"{len(stale)} image(s) on {workers} thread(s)")
        start = time.monotonic()
        # the longest first, so that the last to finish are short (seconds of one sm_90 cubin,
        # measured on the 2-core development machine; modules not listed take a few seconds)
        stale.sort(key=lambda job: -_MEASURED_SECONDS.get(job[0], 0))
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            jobs = {pool.submit(compile_image, nvrtc, cccl, src, a, p, img): (n, a, p) for n, src, a, p, img in stale}
            try:
                for job in concurrent.futures.as_completed(jobs):
                    n, a, p = jobs[job]
                    build_cuda.log(f"CUDA kernels: {n} {'compute' if p else 'sm'}_{a} took {job.result():.1f} s of NVRTC")
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)  # a failure ends the build now
                raise
        build_cuda.log(f"CUDA kernels: NVRTC done in {time.monotonic() - start:.1f} s")
    version = nvrtc.version[0] * 1000 + nvrtc.version[1] * 10
    return {"toolchain": "nvrtc", "version": version, "archs": arch_names, "modules": modules}
