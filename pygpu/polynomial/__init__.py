"""numpy.polynomial for pygpu arrays: the six series (power, Chebyshev, Legendre, Hermite,
HermiteE, Laguerre) evaluated, fitted and turned into Vandermonde matrices on the points'
device; coefficients and their algebra are NumPy's, on the host, as in NumPy (they are short).

    from pygpu.polynomial import Chebyshev
    p = Chebyshev.fit(x, y, 8)        # x, y pygpu arrays: the least squares on their device
    p(x)                              # evaluated there too
"""
from numpy.polynomial import polyutils, set_default_printstyle  # noqa: F401  (coefficient helpers, printing: the host's)

from . import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial  # noqa: F401
from .chebyshev import Chebyshev  # noqa: F401
from .hermite import Hermite  # noqa: F401
from .hermite_e import HermiteE  # noqa: F401
from .laguerre import Laguerre  # noqa: F401
from .legendre import Legendre  # noqa: F401
from .polynomial import Polynomial  # noqa: F401

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev", "legendre", "Legendre",
           "hermite", "Hermite", "hermite_e", "HermiteE", "laguerre", "Laguerre"]
