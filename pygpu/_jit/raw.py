"""pygpu.RawKernel and pygpu.RawModule: CUDA C from the user, with CuPy's API and launch form,
Numba's launch form too, running on a GPU (NVRTC) or on the CPU (the host C++ compiler)."""
import os

from .. import _core
from . import headers
from .module import ImageModule, SourceModule, image_kind

__all__ = ["RawKernel", "RawModule"]


def _check_options(options):
    """The compiler options as a tuple of str: one str alone would be taken apart character by
    character (and a '-D' lost), so it is refused, as are entries of other types."""
    if isinstance(options, (str, bytes)):
        raise TypeError("options is a tuple of str (options=(%r,)), not a single %s" % (options, type(options).__name__))
    try:
        options = tuple(options)
    except TypeError:
        raise TypeError("options is a tuple of str, not %s" % type(options).__name__) from None
    for o in options:
        if not isinstance(o, str):
            raise TypeError("options are str, not %s (%r)" % (type(o).__name__, o))
    return options


def _check_backend(backend, jitify):
    if backend != "nvrtc":
        raise ValueError("pygpu compiles CUDA C with NVRTC (backend='nvrtc'), not %r" % (backend,))
    if jitify:
        raise ValueError("jitify=True is not supported")


class _DeviceAttributes:
    """What CuPy's RawKernel exposes of the compiled kernel, on the current device."""

    @property
    def attributes(self):
        """Attributes of the kernel compiled for the current device (max_threads_per_block, num_regs,
        shared_size_bytes, ...)."""
        return self._function(_core.get_device()).attributes

    def _attribute(name, doc):   # noqa: N805 (a helper of the class body)
        return property(lambda self: self.attributes[name], doc=doc + " (on the current device)")

    max_threads_per_block = _attribute("max_threads_per_block", "The most threads a block of this kernel may have")
    shared_size_bytes = _attribute("shared_size_bytes", "Bytes of static shared memory the kernel uses")
    const_size_bytes = _attribute("const_size_bytes", "Bytes of constant memory the kernel uses")
    local_size_bytes = _attribute("local_size_bytes", "Bytes of local memory per thread")
    num_regs = _attribute("num_regs", "Registers per thread")
    ptx_version = _attribute("ptx_version", "The PTX version it was compiled for (major * 10 + minor)")
    binary_version = _attribute("binary_version", "The architecture of its binary (major * 10 + minor)")
    max_dynamic_shared_size_bytes = _attribute("max_dynamic_shared_size_bytes",
                                               "The most dynamic shared memory a launch may ask for")
    del _attribute


class RawKernel(_DeviceAttributes, _core._Kernel):
    """A kernel written in CUDA C: ``RawKernel(code, name, options=())``.

    ``code`` defines ``name`` (``extern "C" __global__ void name(...)``). Launch it CuPy's way,
    ``k(grid, block, args, shared_mem=0, stream=None)``, or Numba's, ``k[grid, block](*args)``
    (``k[grid, block, stream, shared_mem]``); grid and block are ints or tuples of up to three.
    It runs on the device of its pygpu array arguments (else the current device): compiled by
    NVRTC for a GPU, by the host C++ compiler for the CPU, once per device (and cached on disk).
    Arguments: pygpu arrays, NumPy arrays (copied to the device and back), objects with
    ``__cuda_array_interface__`` or DLPack, Python and NumPy scalars, each checked against its
    parameter.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False, *,
                 enable_cooperative_groups=False, jitify=False, _module=None):
        _check_backend(backend, jitify)
        if not isinstance(name, str):
            raise TypeError("name must be a str, not %s" % type(name).__name__)
        if not name.strip():
            # refused before any device sees it: the driver's answer (cuModuleGetFunction("")) is
            # an opaque invalid-argument error, and the CPU's would differ from it
            raise ValueError("name must name the kernel (a kernel's name or a name expression), not %r" % (name,))
        self.name = name
        self.options = _check_options(options)
        if translate_cucomplex and isinstance(code, str):
            code = headers.translate_cucomplex(code)
        self.code = code
        self.enable_cooperative_groups = enable_cooperative_groups
        self._source = _module if _module is not None else SourceModule(code, self.options, exports=[name])

    def _get_function(self, device):
        fn = self._source.function(device, self.name)
        if self.enable_cooperative_groups:
            # every block resident at once, so that a grid-wide sync (cooperative_groups::
            # this_grid().sync()) can finish; a grid larger than the device holds is refused
            fn.cooperative = True
        return fn

    def compile(self, log_stream=None):
        """Compiles the kernel for the current device now (else on its first launch there)."""
        self._function(_core.get_device())

    @property
    def kernel(self):
        """The compiled kernel on the current device."""
        return self._function(_core.get_device())

    def __repr__(self):
        return "<pygpu.RawKernel %s>" % self.name


class RawModule:
    """A module of CUDA C (``code=``) or a compiled one (``path=``: a cubin, PTX or fatbin file,
    loaded as is on a GPU; a .cu file is read as source): ``RawModule(code=None, *, path=None,
    options=(), name_expressions=None)``. ``get_function(name)`` gives a RawKernel; a C++ template
    instance is asked for by one of ``name_expressions`` (``'f<float, 4>'``)."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        _check_backend(backend, jitify)
        if (code is None) == (path is None):
            raise TypeError("RawModule takes one of code= and path=")
        self.options = _check_options(options)
        if isinstance(name_expressions, str):
            raise TypeError("name_expressions is a sequence of str (['f<float>']), not a single str")
        self.name_expressions = tuple(name_expressions) if name_expressions is not None else None
        for e in self.name_expressions or ():
            if not isinstance(e, str):
                raise TypeError("name_expressions are str ('f<float>'), not %s (%r)" % (type(e).__name__, e))
        self.enable_cooperative_groups = enable_cooperative_groups
        self.path = path
        if path is not None:
            with open(path, "rb") as f:
                data = f.read()
            kind = image_kind(data, path)
            if kind is not None:
                if name_expressions:
                    raise ValueError("name_expressions need CUDA C source; %s is a %s" % (path, kind))
                self.code = None
                self._module = ImageModule(data, kind, os.fspath(path))
                return
            code = data.decode("utf-8")
        if translate_cucomplex and isinstance(code, str):
            code = headers.translate_cucomplex(code)
        self.code = code
        self._module = SourceModule(code, self.options, self.name_expressions or (), filename="kernel.cu")
        self._kernels = {}

    def compile(self, log_stream=None):
        """Compiles the module for the current device now."""
        self._module.load(_core.get_device())

    def get_function(self, name):
        """The kernel `name` (or name expression) of the module, as a RawKernel."""
        k = getattr(self, "_kernels", {}).get(name)
        if k is None:
            k = RawKernel(self.code, name, self.options, enable_cooperative_groups=self.enable_cooperative_groups,
                          _module=self._module)
            if hasattr(self, "_kernels"):
                self._kernels[name] = k
        # a name the module lacks fails now, not at the launch
        k._function(_core.get_device())
        return k

    def get_global(self, name, dtype=None):
        """The global variable `name` (``__device__`` or ``__constant__``) of the module on the
        current device, as a 1-d pygpu array of `dtype` (default: its bytes, uint8)."""
        device = _core.get_device()
        module = self._module.load(device)
        if isinstance(module, tuple):
            module, symbols = module
            name = symbols.get(name, name)
        return module.get_global(name, dtype)
