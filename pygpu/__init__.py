"""pygpu: NumPy-like arrays on the GPU, with the same code running on the CPU when there is none."""
from . import _core
from ._core import *  # noqa: F401,F403  (every public name of the C core)
from ._core import (  # noqa: F401
    CUDAError, Device, Event, OutOfMemoryError, Stream, ndarray,
    array, asarray, empty, empty_like, full, full_like, ones, ones_like, zeros, zeros_like,
    default_device, get_device, synchronize,
)
from ._memory import get_memory_pool, MemoryPool  # noqa: F401
from . import cuda  # noqa: F401
from ._array_api import *  # noqa: F401,F403,E402  (array API names, promotion, isclose, round, ...)
from ._reductions import *  # noqa: F401,F403,E402  (ptp, diff, average)

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
