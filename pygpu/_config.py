"""pygpu.show_config(): what this installation is built from and what it finds at run time (CuPy's
show_config, Numba's `numba -s`): versions, the CUDA kernels' toolchain and architectures, the
driver and its devices, the run-time libraries and the host C++ compiler that CPU kernels need.
`python -m pygpu` prints it before its demo."""
import os
import platform
import sys

import numpy as np

from . import _core


def _cuda_version(v):
    return "%d.%d" % (v // 1000, v % 1000 // 10)


def _nvrtc():
    from ._jit import nvrtc
    try:
        path, (major, minor) = nvrtc.load()
    except RuntimeError as e:
        return "not found: %s" % e
    return "%s (%d.%d)" % (path, major, minor)


def _host_compiler():
    from ._jit import hostcc
    try:
        path, identity = hostcc.compiler()
    except Exception as e:  # CompileError: none found, with what to do
        return "none: %s" % e
    return "%s (%s)" % (path, identity.split()[0])


def config():
    """The report as (section, [(name, value), ...]) pairs."""
    from . import __version__, Device, default_device
    info = _core._build_info()
    archs = info.get("fatbin_archs") or ()
    if archs:
        # nvcc: fatbins; nvrtc: compressed cubins per architecture (and PTX), from NVRTC 12's wheels
        toolchain = {"nvcc": "nvcc", "nvrtc": "NVRTC"}.get(info["cuda_toolchain"], info["cuda_toolchain"])
        kernels = "%s %s for %s (%d KiB)" % (toolchain, _cuda_version(info["cuda_build_version"]), ", ".join(archs),
                                            info["fatbin_bytes"] // 1024)
    else:
        kernels = "none: built without nvcc, CPU only"
    build = [("pygpu", __version__), ("Python", sys.version.split()[0]), ("NumPy", np.__version__),
             ("platform", platform.platform()), ("package", os.path.dirname(os.path.abspath(__file__))),
             ("CUDA kernels", kernels)]
    count, reason = _core._cuda_device_count()
    cuda = []
    if count:
        cuda.append(("driver", "CUDA %s" % _cuda_version(_core._cuda_driver_version())))
        for i in range(count):
            p = Device(i).properties()
            cuda.append(("cuda:%d" % i, "%s, compute %s, %d SMs, %.1f GiB" % (
                p["name"], ".".join(map(str, p["compute_capability"])), p["multiprocessors"],
                p["total_memory"] / 2**30)))
    else:
        cuda.append(("devices", "none: %s" % reason))
    loaded = _core._cuda_libs()
    cuda.append(("NVRTC (user kernels)", _nvrtc()))
    for name, label in (("cublas", "cuBLAS"), ("cusolver", "cuSOLVER")):
        cuda.append((label, loaded.get(name) or "loaded at first use"))
    cuda.append(("cuFFT", _core._cufft_library() or "loaded at first use"))
    cpu = Device("cpu").properties()
    host = [("cpu", "%s, %d cores, %.1f GiB" % (cpu["name"], cpu["cores"], cpu["total_memory"] / 2**30)),
            ("threads", str(info["cpu_threads"])),
            ("C++ compiler (CPU kernels)", _host_compiler())]
    return [("build", build), ("CUDA", cuda), ("CPU", host), ("default device", [("device", str(default_device()))])]


def show_config(file=None):
    """Prints what pygpu is built from and what it finds at run time."""
    out = file or sys.stdout
    for section, rows in config():
        print("%s:" % section, file=out)
        width = max(len(k) for k, _ in rows)
        for k, v in rows:
            print("  %-*s  %s" % (width, k, v), file=out)
