"""numpy.polynomial.polynomial with its points on their device: polyval, polyvander, polyfit, their 2-d
and 3-d forms and Polynomial(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.polynomial as _numpy_module

from ._series import fill_module

fill_module(globals(), "polynomial", _numpy_module, "poly", "Polynomial")
