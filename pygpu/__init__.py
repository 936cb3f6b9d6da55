"""pygpu: NumPy-like arrays on the GPU, with the same code running on the CPU when there is none."""
try:
    from . import _core
except ImportError:
    import glob as _glob
    import os as _os
    _here = _os.path.dirname(_os.path.abspath(__file__))
    if _glob.glob(_os.path.join(_here, "_core.*")):
        raise   # built, but it failed to load: the original error says why
    _root = _os.path.dirname(_here)
    if _os.path.exists(_os.path.join(_root, "setup.py")):
        _msg = (f"pygpu's C extension is not built in the source tree {_root}: build it there with "
                "`pip install -e .` (or `python setup.py build_ext --inplace`), or run Python from another "
                "directory to import an installed pygpu")
    else:
        _msg = f"pygpu's C extension (pygpu._core) is missing from {_here}: reinstall pygpu"
    raise ImportError(_msg) from None
from ._core import *  # noqa: F401,F403  (every public name of the C core)
from ._core import (  # noqa: F401
    CompileError, CUDAError, Device, Event, OutOfMemoryError, Stream, ndarray,
    array, asarray, empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like,
    default_device, get_device, synchronize,
)
from ._memory import get_default_memory_pool, get_memory_pool, MemoryPool  # noqa: F401
from . import _ufunc_docs  # noqa: E402
for _name in dir(_core):
    if isinstance(getattr(_core, _name), ufunc):
        _ufunc_docs.document(getattr(_core, _name))   # help(pygpu.sin): its docstring and call signature
del _name
from . import cuda  # noqa: F401
from . import random  # noqa: F401  (pygpu.random)
from ._array_api import *  # noqa: F401,F403,E402  (array API names, promotion, isclose, round, ...)
from ._sorting import *  # noqa: F401,F403,E402  (unique, isin, histogram, median, quantile, select, ...)
from ._manipulation import *  # noqa: F401,F403,E402  (stack, split, tile, flip, ...)
from ._pad import pad  # noqa: F401,E402
from ._products import (  # noqa: F401,E402  (matmul itself is C: pygpu._core.matmul)
    cross, dot, inner, kron, matvec, outer, tensordot, trace, vdot, vecdot, vecmat,
)
from ._einsum import einsum, einsum_path  # noqa: F401,E402
from . import linalg  # noqa: F401,E402
from . import emath  # noqa: F401,E402  (numpy.emath: complex results where the real function has none)
from . import fft  # noqa: F401,E402  (numpy.fft: pocketfft on the CPU device)
from . import lib  # noqa: F401,E402  (numpy.lib: stride_tricks, scimath)
from . import _dispatch  # noqa: F401,E402  (ndarray.__array_function__: NumPy's functions on pygpu arrays)
from . import _flat  # noqa: F401,E402  (ndarray.flat)
from ._vectorize import vectorize  # noqa: F401,E402
from ._fuse import fuse  # noqa: F401,E402
from ._vreduce import reduce  # noqa: F401,E402
from ._reductions import *  # noqa: F401,F403,E402  (ptp, diff, average)
from ._numeric import *  # noqa: F401,F403,E402  (allclose, array_equal, nan_to_num, may_share_memory, ...)
from ._pyufuncs import *  # noqa: F401,F403,E402  (gcd, divmod, ... with NumPy's ufunc methods)
from ._index_tricks import *  # noqa: F401,F403,E402  (tril_indices, unravel_index, ix_, block, vander, ...)
from ._setops import *  # noqa: F401,F403,E402  (union1d, intersect1d, setdiff1d, setxor1d, ediff1d, sort_complex)
from ._statistics import *  # noqa: F401,F403,E402  (cov, corrcoef, nancumsum, nancumprod)
from ._signal import *  # noqa: F401,F403,E402  (convolve, correlate, interp, unwrap, windows)
from ._calculus import *  # noqa: F401,F403,E402  (gradient, trapezoid)
from ._creation import *  # noqa: F401,F403,E402  (array with ndmin=, fromfunction, frombuffer, loadtxt, ...)
from ._files import *  # noqa: F401,F403,E402  (save, savez, savez_compressed, savetxt, load)
from ._printing import *  # noqa: F401,F403,E402  (array_repr, array2string, set_printoptions, binary_repr, ...)
from ._polynomial import *  # noqa: F401,F403,E402  (polyval, polyfit, roots, poly, polyadd, ...)
from . import polynomial  # noqa: F401,E402  (numpy.polynomial: series evaluated and fitted on the device)
from ._functional import *  # noqa: F401,F403,E402  (apply_along_axis, apply_over_axes, piecewise)
from ._errstate import *  # noqa: F401,F403,E402  (seterr, geterr, errstate: NumPy's error state)
from ._nanquantiles import *  # noqa: F401,F403,E402  (nanmedian, nanquantile, nanpercentile)
from ._histograms import *  # noqa: F401,F403,E402  (histogram_bin_edges, histogram2d, histogramdd)
from ._numpy_names import *  # noqa: F401,F403,E402  (NumPy's type objects and index helpers: intp, issubdtype, s_)
from ._jit.raw import RawKernel, RawModule  # noqa: F401,E402
from ._jit.elementwise import ElementwiseKernel  # noqa: F401,E402
from ._jit.reduction import ReductionKernel  # noqa: F401,E402
from ._jit.guvectorize import guvectorize  # noqa: F401,E402  (Numba's generalized ufuncs, on cuda.jit)

from ._config import show_config  # noqa: F401,E402
# the one version number: the wheel's (pyproject.toml reads it from here) and python -m pygpu's
__version__ = "0.1.0"


def asnumpy(a, stream=None, out=None):
    """A NumPy array with the contents of `a` (a pygpu array, or anything NumPy accepts)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, out=out)
    import numpy
    if out is not None:
        out[...] = a
        return out
    return numpy.asarray(a)


def get_array_module(*args):
    """pygpu when an argument is a pygpu array, else numpy (CuPy's cupy.get_array_module, for code
    that runs on either)."""
    import sys
    import numpy
    for a in args:   # (a loop: this module's any is pygpu.any)
        if isinstance(a, ndarray):
            return sys.modules[__name__]
    return numpy


def _set(self, arr, stream=None):
    """set(arr, stream=None): copies the NumPy array arr into this array (CuPy's ndarray.set): the
    same shape and dtype."""
    import numpy
    if not isinstance(arr, numpy.ndarray):
        raise TypeError("Only numpy.ndarray can be set to pygpu.ndarray")
    if arr.dtype != self.dtype:
        raise TypeError(f"{arr.dtype} array cannot be set to {self.dtype} array")
    if arr.shape != self.shape:
        raise ValueError(f"Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}")
    if stream is None:
        self[...] = arr
    else:
        with stream:
            self[...] = arr


_core._add_methods({"set": _set})

from . import _dask_hook  # noqa: E402
_dask_hook.install()   # pygpu arrays as Dask chunks once dask.array is imported (pygpu/dask.py)
