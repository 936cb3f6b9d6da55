"""NumPy's type objects, type helpers and index helpers under pygpu's name, as CuPy has them:
they hold no array data, so they are NumPy's own objects (pygpu.float32 is numpy.float32), and
code written as `xp.intp`, `xp.issubdtype(...)`, `xp.s_[...]` works with xp = pygpu."""
import numpy as _np

_TYPES = ["bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "long", "ulong", "longlong",
          "ulonglong", "intp", "uintp", "half", "single", "double", "longdouble", "csingle", "cdouble", "clongdouble",
          "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
          "complexfloating", "character", "flexible", "bytes_", "str_", "void", "object_", "datetime64",
          "timedelta64", "dtype", "dtypes", "False_", "True_", "ScalarType", "sctypeDict", "typecodes"]
_HELPERS = ["issubdtype", "min_scalar_type", "mintypecode", "common_type", "typename", "exceptions", "index_exp", "s_",
            "ndindex", "little_endian", "euler_gamma"]

__all__ = [n for n in _TYPES + _HELPERS if hasattr(_np, n)]
globals().update({n: getattr(_np, n) for n in __all__})


# NumPy dispatches these two on their arguments' __array_function__, which leads back here: they
# look at dtypes only (and a 0-d array's value), so NumPy's own take stand-ins holding those
def _stand_in(a):
    if hasattr(a, "__array_namespace__") and not isinstance(a, _np.ndarray):
        return _np.asarray(a) if getattr(a, "ndim", 1) == 0 else _np.empty(0, a.dtype)
    return a


def common_type(*arrays):
    """The inexact scalar type common to the arrays (NumPy's common_type)."""
    return _np.common_type(*(_stand_in(a) for a in arrays))


def min_scalar_type(a, /):
    """The smallest dtype holding a's value (an array's own dtype unless it is 0-d), as NumPy's."""
    return _np.min_scalar_type(_stand_in(a))
