"""numpy.polynomial.legendre with its points on their device: legval, legvander, legfit, their 2-d
and 3-d forms and Legendre(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.legendre as _numpy_module

from ._series import fill_module

fill_module(globals(), "legendre", _numpy_module, "leg", "Legendre")
