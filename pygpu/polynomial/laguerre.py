"""numpy.polynomial.laguerre with its points on their device: lagval, lagvander, lagfit, their 2-d
and 3-d forms and Laguerre(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.laguerre as _numpy_module

from ._series import fill_module

fill_module(globals(), "laguerre", _numpy_module, "lag", "Laguerre")
