"""The headers pygpu gives its users' kernels: CuPy's ``<cupy/complex.cuh>``,
``<cupy/float16.cuh>``, ``<cupy/math_constants.h>``, ``<cupy/carray.cuh>``, ``<cupy/atomics.cuh>``
and ``<thrust/complex.h>`` (CuPy's complex) for both compilers, and for the host C++ compiler
CUDA's ``<cuComplex.h>``, ``<cuda_fp16.h>`` and ``<math_constants.h>`` (the toolkit's own compile
for NVRTC only). Their text is embedded in the
extension (setup.py's USER_HEADERS, from csrc/kernels), so it always matches the backend that runs
the kernels; it is written once into the kernel cache, in a folder named by its digest, and both
compilers get that folder with -I.
"""
import functools
import hashlib
import os
import re
import shutil
import tempfile

from . import cache
from .. import _core


@functools.lru_cache(maxsize=None)
def _folders():
    """(common, cpu_only): the include folders, written on first use."""
    headers = _core._user_headers()
    digest = hashlib.sha256(repr(headers).encode()).hexdigest()[:16]
    root = os.path.join(cache.folder(), "include-" + digest)
    if not os.path.isdir(root):
        parent = os.path.dirname(root)
        try:
            temp = tempfile.mkdtemp(prefix=".include-", dir=parent)
        except OSError:  # a cache folder that cannot be written: the process's own
            root = temp = tempfile.mkdtemp(prefix="pygpu-include-")
        for name, text, cpu_only in headers:
            path = os.path.join(temp, "cpu" if cpu_only else "common", *name.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        if temp != root:
            try:
                os.rename(temp, root)
            except OSError:  # another process wrote the same folder first
                shutil.rmtree(temp, ignore_errors=True)
    return os.path.join(root, "common"), os.path.join(root, "cpu")


def include_options(cpu):
    """The -I options of pygpu's headers for the host compiler (cpu) or NVRTC."""
    common, cpu_only = _folders()
    return ["-I" + cpu_only, "-I" + common] if cpu else ["-I" + common]


_CUCOMPLEX_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]cuComplex\.h[>"]', re.M)
_BRIDGE = "#include <cupy/cuComplex_bridge.h>"


def translate_cucomplex(code):
    """CuPy's translate_cucomplex: cuComplex's names as thrust's complex<T> (the bridge header in
    place of <cuComplex.h>, else before the code, its lines numbered as the user's)."""
    if _CUCOMPLEX_INCLUDE.search(code):
        return _CUCOMPLEX_INCLUDE.sub(_BRIDGE, code)
    return _BRIDGE + '\n#line 1 "kernel.cu"\n' + code
