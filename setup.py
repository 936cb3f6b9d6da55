"""Builds pygpu._core from csrc/.

The extension links no CUDA library (libcuda is dlopen'ed at run time). When nvcc is found the
CUDA kernels are compiled into a fatbin embedded in the extension (see build_cuda.py)."""
import os
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_cuda  # noqa: E402  (the nvcc step lives beside this file)

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "csrc")

SOURCES = [
    "module.c", "dtype.c", "shape.c", "device.c", "memory.c", "stream.c", "array.c", "views.c",
    "indexing.c", "creation.c", "ranges.c", "interop.c", "elementwise.c", "ufunc.c", "operators.c",
    "kernel_table.c",
    "backend_cpu.c", "backend_cuda.c", "cuda_loader.c", "fatbin.c", "kernels/kernels_cpu.c",
]
SOURCES = [os.path.join("csrc", s) for s in SOURCES if os.path.exists(os.path.join(CSRC, s)) or s == "fatbin.c"]

CFLAGS = ["-std=c11", "-O3", "-fopenmp", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
          "-fno-strict-aliasing", "-D_GNU_SOURCE"]
if os.environ.get("PYGPU_WERROR"):
    CFLAGS.append("-Werror")


class BuildExt(build_ext):
    def build_extensions(self):
        # nvcc first: its output is an input of fatbin.c
        build_cuda.write_fatbin_source(os.path.join(CSRC, "fatbin.c"), os.path.join(HERE, "build"))
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "pygpu._core",
            sources=SOURCES,
            include_dirs=[CSRC, numpy.get_include()],
            extra_compile_args=CFLAGS,
            extra_link_args=["-fopenmp", "-ldl"],
            depends=[os.path.join(CSRC, f) for f in os.listdir(CSRC) if f.endswith((".h", ".def"))]
            + [os.path.join(CSRC, "kernels", f) for f in os.listdir(os.path.join(CSRC, "kernels"))],
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
