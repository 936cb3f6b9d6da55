"""NumPy's printing and number formatting for pygpu arrays. A pygpu array prints through NumPy's
formatting of a host copy (repr adds its device), so NumPy's print options are pygpu's: the
option functions are NumPy's own objects, and the formatting functions take pygpu arrays and
scalars as well as NumPy's."""
import numpy as _np

import pygpu as _pg
from . import _core

__all__ = ["array2string", "array_repr", "array_str", "format_float_positional", "format_float_scientific",
           "get_printoptions", "set_printoptions", "printoptions", "base_repr", "binary_repr"]

get_printoptions = _np.get_printoptions
set_printoptions = _np.set_printoptions
printoptions = _np.printoptions


def _host_scalar(x):
    """A 0-d pygpu array as the NumPy scalar of its dtype (the formatting functions take scalars)."""
    if isinstance(x, _core.ndarray):
        if x.ndim != 0:
            raise TypeError("a scalar (or 0-d array) is needed, not an array of shape %s" % (x.shape,))
        return x.get()[()]
    return x


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """repr(arr) with these options: NumPy's "array([...])", with the device for a pygpu array."""
    text = _np.array_repr(_pg.asnumpy(arr), max_line_width=max_line_width, precision=precision,
                          suppress_small=suppress_small)
    if isinstance(arr, _core.ndarray) and text.endswith(")"):   # not an override_repr's words
        text = "%s, device='%s')" % (text[:-1], arr.device)
    return text


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """str(a) with these options."""
    return _np.array_str(_pg.asnumpy(a), max_line_width=max_line_width, precision=precision,
                         suppress_small=suppress_small)


def array2string(a, *args, **kwargs):
    """The elements of a as text (numpy.array2string's options: precision, separator, threshold,
    formatter, ...)."""
    return _np.array2string(_pg.asnumpy(a), *args, **kwargs)


def format_float_positional(x, *args, **kwargs):
    """x (a float, NumPy scalar or 0-d array) in positional notation, as numpy.format_float_positional."""
    return _np.format_float_positional(_host_scalar(x), *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    """x (a float, NumPy scalar or 0-d array) in scientific notation, as numpy.format_float_scientific."""
    return _np.format_float_scientific(_host_scalar(x), *args, **kwargs)


def binary_repr(num, width=None):
    """The binary digits of the integer num (two's complement in width bits when negative)."""
    return _np.binary_repr(_host_scalar(num), width=width)


def base_repr(number, base=2, padding=0):
    """The digits of the integer number in base (2 to 36), with padding zeros on the left."""
    return _np.base_repr(_host_scalar(number), base=base, padding=padding)
