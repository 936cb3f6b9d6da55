"""numpy.polynomial.chebyshev with its points on their device: chebval, chebvander, chebfit, their 2-d
and 3-d forms and Chebyshev(...)(x) take pygpu arrays (_series.py); the rest is NumPy's."""
import numpy.polynomial.chebyshev as _numpy_module

from ._series import fill_module

fill_module(globals(), "chebyshev", _numpy_module, "cheb", "Chebyshev")
