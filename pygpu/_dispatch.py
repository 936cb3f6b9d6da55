"""NumPy functions called on pygpu arrays (NEP 18's __array_function__, and NEP 13's __array_ufunc__
for the ufuncs that are not elementwise, such as numpy.matmul): the tables of what pygpu
implements, consulted by ndarray's C methods.

Modules register their tables at import (pygpu.linalg registers numpy.dot, numpy.einsum,
numpy.linalg.*, ...); a function not in a table gives NotImplemented, so NumPy raises its usual
TypeError rather than silently copying device data to the host."""
import numpy as _np

from . import _core

# numpy function -> pygpu function with the same signature
FUNCTIONS = {}
# name of a numpy ufunc that is not an op-table loop -> pygpu function
UFUNCS = {}


def register(functions=None, ufuncs=None):
    """Adds {numpy function: pygpu function} and {ufunc name: pygpu function} entries."""
    FUNCTIONS.update(functions or {})
    UFUNCS.update(ufuncs or {})


def _ours(types):
    return all(issubclass(t, (_core.ndarray, _np.ndarray)) for t in types)


def array_function(func, types, args, kwargs):
    impl = FUNCTIONS.get(func)
    if impl is None or not _ours(types):
        return NotImplemented
    return impl(*args, **kwargs)


def array_ufunc(ufunc, method, *inputs, **kwargs):
    impl = UFUNCS.get(getattr(ufunc, "__name__", None))
    if impl is None or method != "__call__":
        return NotImplemented
    out = kwargs.get("out")
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        kwargs["out"] = out[0]
    if not all(isinstance(x, (_core.ndarray, _np.ndarray, _np.generic, int, float, complex, list, tuple))
               for x in inputs + ((kwargs["out"],) if kwargs.get("out") is not None else ())):
        return NotImplemented
    return impl(*inputs, **kwargs)
