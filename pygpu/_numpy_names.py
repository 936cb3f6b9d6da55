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
