"""Compiled modules per device: the machinery RawKernel, RawModule, ElementwiseKernel (and the
kernels cuda.jit emits as CUDA C) share.

A SourceModule is CUDA C that compiles for every device it meets: NVRTC for a GPU, the host C++
compiler for the CPU (nvrtc.py, hostcc.py; both cached). An ImageModule is a cubin, PTX or fatbin
file, which only a GPU loads. Either hands out `_core._Function` objects, the kernels as loaded on
one device, described by what the backend knows and by the parameters read from the source.
"""
import functools
import re

from . import hostcc, nvrtc, signature
from .. import _core


@functools.lru_cache(maxsize=None)
def compute_capability(device):
    return tuple(device.properties()["compute_capability"])


def _function_name(expression):
    """The unqualified function name of a name or name expression ('ns::f<float>' -> 'f')."""
    m = re.match(r"\s*((?:\w+\s*::\s*)*)(\w+)", expression)
    return m.group(2) if m else expression


class SourceModule:
    """CUDA C source (``code``), compiled for each device on first use."""

    def __init__(self, code, options=(), name_expressions=(), exports=None, filename="kernel.cu"):
        if not isinstance(code, str):
            raise TypeError("code must be a str of CUDA C, not %s" % type(code).__name__)
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions or ())
        self.filename = filename
        self._exports = list(exports) if exports is not None else (
            signature.kernel_names(code) + [e for e in self.name_expressions if e not in signature.kernel_names(code)])
        self._loaded = {}

    def load(self, device):
        """(_core._Module, {name: symbol}) of the source on `device`, compiling when needed."""
        hit = self._loaded.get(device)
        if hit is not None:
            return hit
        if device.type == "cpu":
            path, exported = hostcc.compile_module(self.code, self._exports, self.options, self.filename)
            loaded = (_core._Module(device, path), {e: e for e in exported})
        else:
            image, kind, lowered = nvrtc.compile_source(self.code, self.options, self.name_expressions,
                                                       compute_capability(device), self.filename)
            loaded = (_core._Module(device, image), dict(lowered))
        self._loaded[device] = loaded
        return loaded

    def function(self, device, name):
        """The kernel `name` (a name, or a name expression given to name_expressions) on `device`."""
        module, symbols = self.load(device)
        if device.type == "cpu" and name not in symbols and name not in self._exports:
            # the CPU exports a kernel by its C++ expression: a new one is a recompile (cached)
            self._exports.append(name)
            self._loaded.pop(device, None)
            module, symbols = self.load(device)
        expression = name if "<" in name else None
        params = signature.signature(self.code, _function_name(name), expression)
        return module.get_function(symbols.get(name, name), params, name)

    def get_global(self, device, name):
        module, symbols = self.load(device)
        return module.get_global(symbols.get(name, name))


_FATBIN_MAGIC = b"\x50\xed\x55\xba"


def image_kind(data, path=""):
    """'cubin', 'ptx', 'fatbin', or None for something else (CUDA C source, say)."""
    if data.startswith(b"\x7fELF"):
        return "cubin"
    if data.startswith(_FATBIN_MAGIC):
        return "fatbin"
    if path.endswith(".ptx") or (b".version" in data[:4096] and b".target" in data[:4096]):
        return "ptx"
    return None


class ImageModule:
    """A compiled CUDA module (cubin, PTX or fatbin): loads on GPUs only."""

    def __init__(self, data, kind, path):
        self.data, self.kind, self.path = data, kind, path
        self._loaded = {}

    def load(self, device):
        hit = self._loaded.get(device)
        if hit is None:
            if device.type == "cpu":
                raise ValueError("%s is a compiled CUDA module (%s): it runs only on a CUDA device, not on %r "
                                 "(RawModule(code=...) compiles CUDA C source for the CPU too)"
                                 % (self.path, self.kind, device))
            hit = self._loaded[device] = _core._Module(device, self.data)
        return hit

    def function(self, device, name):
        return self.load(device).get_function(name, None, name)

    def get_global(self, device, name):
        return self.load(device).get_global(name)
