"""numpy.polynomial.hermite with its points on their device: hermval, hermvander, hermfit, their 2-d
and 3-d forms and Hermite(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.hermite as _numpy_module

from ._series import fill_module

fill_module(globals(), "hermite", _numpy_module, "herm", "Hermite")
