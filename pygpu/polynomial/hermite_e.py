"""numpy.polynomial.hermite_e with its points on their device: hermeval, hermevander, hermefit, their 2-d
and 3-d forms and HermiteE(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.hermite_e as _numpy_module

from ._series import fill_module

fill_module(globals(), "hermite_e", _numpy_module, "herme", "HermiteE")
