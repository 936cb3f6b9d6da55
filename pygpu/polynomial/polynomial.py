"""numpy.polynomial.polynomial with its points on their device: polyval, polyvander, polyfit, their 2-d
and 3-d forms and Polynomial(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy as _np
import numpy.polynomial.polynomial as _numpy_module

import pygpu as _pg
from ._series import fill_module

fill_module(globals(), "polynomial", _numpy_module, "poly", "Polynomial")


def polyvalfromroots(x, r, tensor=True):
    """The product of (x - r_n) over the roots (r's first axis), numpy's rule with pygpu points: with
    tensor=True every polynomial at every point (r.shape[1:] + x.shape), else each at its own
    broadcast point."""
    if isinstance(x, (tuple, list)):
        x = _pg.asarray(x)
    if not isinstance(x, _pg.ndarray) and not isinstance(r, _pg.ndarray):
        return _numpy_module.polyvalfromroots(x, r, tensor=tensor)
    r = _pg.asarray(r)
    r = r.reshape(1) if r.ndim == 0 else r
    if r.dtype.kind in "biu":
        r = r.astype(_np.float64)
    if isinstance(x, _pg.ndarray):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _pg.prod(x - r, axis=0)
