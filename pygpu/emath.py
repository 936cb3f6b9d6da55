"""numpy.emath (numpy.lib.scimath) on pygpu arrays: sqrt, log, log2, log10, logn, power, arccos,
arcsin and arctanh that give complex results where the real function has none (the square root
or logarithm of a negative number, arcsin(2), ...), instead of NaN; real inputs that need no
complex result keep their real dtype, as NumPy's."""
import numpy as _np

import pygpu as _pg

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]


def _complex(x):
    """x as complex: complex64 for float32 and the small integers, complex128 otherwise (NumPy's)."""
    return x.astype(_np.complex64 if x.dtype.char in "fbhBHF" else _np.complex128)


def _real_below_zero(x):
    x = _pg.asarray(x)
    if not _np.issubdtype(x.dtype, _np.complexfloating) and bool(_pg.any(x < 0)):
        return _complex(x)
    return x


def _real_beyond_one(x):
    x = _pg.asarray(x)
    if not _np.issubdtype(x.dtype, _np.complexfloating) and bool(_pg.any(_pg.abs(x) > 1)):
        return _complex(x)
    return x


def sqrt(x):
    """The principal square root (complex for negative reals)."""
    return _pg.sqrt(_real_below_zero(x))


def log(x):
    """The natural logarithm (complex for negative reals)."""
    return _pg.log(_real_below_zero(x))


def log2(x):
    """The base-2 logarithm (complex for negative reals)."""
    return _pg.log2(_real_below_zero(x))


def log10(x):
    """The base-10 logarithm (complex for negative reals)."""
    return _pg.log10(_real_below_zero(x))


def logn(n, x):
    """The base-n logarithm of x (complex where either is a negative real)."""
    return _pg.log(_real_below_zero(x)) / _pg.log(_real_below_zero(n))


def power(x, p):
    """x ** p (complex for negative real x; negative integer powers computed in floats)."""
    x = _real_below_zero(x)
    p = _pg.asarray(p)
    if _np.issubdtype(p.dtype, _np.integer) and bool(_pg.any(p < 0)):
        p = p * 1.0
    return _pg.power(x, p)


def arccos(x):
    """The inverse cosine (complex for reals beyond [-1, 1])."""
    return _pg.arccos(_real_beyond_one(x))


def arcsin(x):
    """The inverse sine (complex for reals beyond [-1, 1])."""
    return _pg.arcsin(_real_beyond_one(x))


def arctanh(x):
    """The inverse hyperbolic tangent (complex for reals beyond [-1, 1])."""
    return _pg.arctanh(_real_beyond_one(x))
