"""What numpy.polynomial does to arrays of points, on their device: evaluation (`chebval`,
`Chebyshev(...)(x)`), Vandermonde matrices and least-squares fits, for the six bases. The algebra
of coefficients (add, multiply, derivatives, roots, ...) is NumPy's own: coefficient arrays are
short host arrays, as in NumPy.

Every basis is a three-term recurrence P[k+1] = (A(k) x + B(k)) P[k] - C(k) P[k-1] with P[0] = 1,
so one Clenshaw loop evaluates every series and one loop builds every Vandermonde matrix."""
import warnings

import numpy as np
import numpy.polynomial.polyutils as _pu

import pygpu
from .._polynomial import check_fit_points

# basis -> (A, B, C) of its recurrence, functions of k
RECURRENCES = {
    "polynomial": (lambda k: 1.0, lambda k: 0.0, lambda k: 0.0),
    "chebyshev": (lambda k: 1.0 if k == 0 else 2.0, lambda k: 0.0, lambda k: 1.0),
    "legendre": (lambda k: (2 * k + 1) / (k + 1), lambda k: 0.0, lambda k: k / (k + 1)),
    "hermite": (lambda k: 2.0, lambda k: 0.0, lambda k: 2.0 * k),
    "hermite_e": (lambda k: 1.0, lambda k: 0.0, lambda k: float(k)),
    "laguerre": (lambda k: -1 / (k + 1), lambda k: (2 * k + 1) / (k + 1), lambda k: k / (k + 1)),
}


def _points(x):
    """x as a pygpu array of a float or complex dtype (integers become float64, as NumPy's x + 0.0)."""
    x = pygpu.asarray(x)
    if not (np.issubdtype(x.dtype, np.inexact)):
        x = x.astype(np.float64)
    return x


def _coefficients(c):
    """c as an array (pygpu arrays stay on their device) with at least one dimension, of a float
    or complex dtype."""
    if not isinstance(c, pygpu.ndarray):
        c = np.array(c, ndmin=1)
    elif c.ndim == 0:
        c = c.reshape(1)
    if not np.issubdtype(c.dtype, np.inexact):
        c = c.astype(np.float64)
    return c


def _is_array(x):
    return isinstance(x, (pygpu.ndarray, np.ndarray, list, tuple))


def make_val(basis):
    A, B, C = RECURRENCES[basis]

    def val(x, c, tensor=True):
        c = _coefficients(c)
        x = _points(x) if _is_array(x) else x
        if isinstance(x, pygpu.ndarray) and not isinstance(c, pygpu.ndarray):
            c = pygpu.asarray(c, device=x.device)   # the few coefficients, to the points' device
        if _is_array(x) and tensor:
            c = c.reshape(tuple(c.shape) + (1,) * x.ndim)
        n = len(c) - 1
        factors = {}

        def factor(k):   # A(k) x + B(k), made once per distinct (A, B): x itself for the power basis
            key = (A(k), B(k))
            if key not in factors:
                a, b = key
                factors[key] = x if (a, b) == (1.0, 0.0) else a * x if b == 0 else a * x + b
            return factors[key]

        def minus(value, k, b2):   # value - C(k) b2, without the terms that are zero
            ck = C(k)
            return value if ck == 0 or b2 is None else value - b2 if ck == 1 else value - ck * b2

        # Clenshaw: b[k] = c[k] + (A(k) x + B(k)) b[k+1] - C(k+1) b[k+2], down to k = 1
        b1, b2 = None, None
        for k in range(n, 0, -1):
            step = c[k] if b1 is None else c[k] + factor(k) * b1
            b1, b2 = minus(step, k + 1, b2), b1
        # a constant still takes x's shape (and its NaNs), as NumPy's c0 + 0 * x
        result = c[0] + x * 0 if b1 is None else minus(c[0] + factor(0) * b1, 1, b2)
        return pygpu.asarray(result) if isinstance(result, pygpu.ndarray) or _is_array(x) else result
    return val


def make_vander(basis):
    A, B, C = RECURRENCES[basis]

    def vander(x, deg):
        deg = _pu._as_int(deg, "deg")
        if deg < 0:
            raise ValueError("deg must be non-negative")
        x = _points(x)
        if x.ndim == 0:
            x = x.reshape(1)
        columns = [pygpu.ones_like(x)]
        if deg > 0:
            columns.append(A(0) * x + B(0))
        for k in range(1, deg):
            columns.append((A(k) * x + B(k)) * columns[k] - C(k) * columns[k - 1])
        return pygpu.moveaxis(pygpu.stack(columns), 0, -1)   # NumPy's layout: each column contiguous
    return vander


def make_valnd(val, n):
    def valnd(*args):
        *points, c = args
        if len(points) != n:
            raise TypeError(f"expected {n} arrays of points and the coefficients")
        points = [pygpu.asarray(p) for p in points]
        if any(p.shape != points[0].shape for p in points[1:]):
            raise ValueError({2: "x, y are incompatible", 3: "x, y, z are incompatible"}[n])
        c = val(points[0], c)
        for p in points[1:]:
            c = val(p, c, tensor=False)
        return c
    return valnd


def make_gridnd(val, n):
    def gridnd(*args):
        *points, c = args
        if len(points) != n:
            raise TypeError(f"expected {n} arrays of points and the coefficients")
        for p in points:
            c = val(p, c)
        return c
    return gridnd


def make_vandernd(vander, n):
    def vandernd(*args):
        *points, deg = args
        if len(points) != n or len(deg) != n:
            raise ValueError(f"expected {n} arrays of points and {n} degrees")
        points = [_points(p) for p in points]
        points = pygpu.broadcast_arrays(*points)
        dtype = np.result_type(*[p.dtype for p in points])
        out = None
        for k, (p, d) in enumerate(zip(points, deg)):
            v = vander(p.astype(dtype), d)
            v = v.reshape(tuple(v.shape[:-1]) + (1,) * k + (v.shape[-1],) + (1,) * (n - 1 - k))
            out = v if out is None else out * v
        return out.reshape(tuple(out.shape[:-n]) + (-1,))
    return vandernd


def make_fit(vander):
    def fit(x, y, deg, rcond=None, full=False, w=None):
        x, y = _points(x), _points(y)
        deg = np.asarray(deg)
        if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
            raise TypeError("deg must be an int or non-empty 1-D array of int")
        if deg.min() < 0:
            raise ValueError("expected deg >= 0")
        check_fit_points(x, y)
        picked = np.sort(deg) if deg.ndim else None
        top = int(deg) if deg.ndim == 0 else int(picked[-1])
        design = vander(x, top)
        if picked is not None:
            design = design[:, pygpu.asarray(picked, device=design.device)]
        rhs = y
        if w is not None:
            w = _points(w)
            if w.ndim != 1:
                raise TypeError("expected 1D vector for w")
            if len(w) != len(x):
                raise TypeError("expected x and w to have same length")
            design = design * w[:, None]
            rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
        if rcond is None:
            rcond = len(x) * np.finfo(x.dtype).eps
        # the columns scaled to unit norm: the least-squares problem is then well scaled
        scale = pygpu.sqrt(pygpu.sum(pygpu.abs(design) ** 2, axis=0))
        scale = pygpu.where(scale == 0, 1.0, scale)
        coef, resids, rank, sv = pygpu.linalg.lstsq(design / scale, rhs, rcond)
        coef = coef / (scale if coef.ndim == 1 else scale[:, None])
        if picked is not None:
            whole = pygpu.zeros((top + 1,) + tuple(coef.shape[1:]), dtype=coef.dtype, device=coef.device)
            whole[pygpu.asarray(picked, device=coef.device)] = coef
            coef = whole
        order = top + 1 if deg.ndim == 0 else len(picked)
        if rank != order and not full:
            warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
        return (coef, [resids, rank, sv, rcond]) if full else coef
    return fit


def make_class(numpy_class, val, fit):
    """NumPy's series class whose evaluation and fit take pygpu arrays on their device (the
    coefficients, the domain and the algebra stay NumPy's, on the host)."""

    class Series(numpy_class):
        def __call__(self, arg):
            if not isinstance(arg, pygpu.ndarray):
                return super().__call__(arg)
            off, scl = _pu.mapparms(self.domain, self.window)
            return val(off + scl * arg, self.coef)

        @classmethod
        def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
            if not any(isinstance(a, pygpu.ndarray) for a in (x, y, w)):
                return super().fit(x, y, deg, domain=domain, rcond=rcond, full=full, w=w, window=window,
                                   symbol=symbol)
            x = _points(x)
            if domain is None:   # the data's extent: two numbers brought to the host
                domain = np.array([pygpu.min(x).item(), pygpu.max(x).item()])
                if domain[0] == domain[1]:
                    domain += np.array([-1, 1])
            elif isinstance(domain, list) and len(domain) == 0:
                domain = cls.domain
            if window is None:
                window = cls.window
            off, scl = _pu.mapparms(domain, window)
            got = fit(off + scl * x, y, deg, w=w, rcond=rcond, full=full)
            coef, status = got if full else (got, None)
            series = cls(pygpu.asnumpy(coef), domain=domain, window=window, symbol=symbol)
            return (series, status) if full else series

    Series.__name__ = Series.__qualname__ = numpy_class.__name__
    Series.__doc__ = numpy_class.__doc__
    return Series


def fill_module(namespace, basis, numpy_module, prefix, class_name):
    """A numpy.polynomial module's names in namespace: NumPy's own for the coefficients' algebra,
    the device versions for points (val, grid, vander, fit, the class)."""
    for name in dir(numpy_module):
        if not name.startswith("_") and name not in ("np", "pu", "la", "ABCPolyBase"):
            namespace[name] = getattr(numpy_module, name)
    val, vander = make_val(basis), make_vander(basis)
    fit = make_fit(vander)
    made = {"val": val, "vander": vander, "fit": fit, "val2d": make_valnd(val, 2), "val3d": make_valnd(val, 3),
            "grid2d": make_gridnd(val, 2), "grid3d": make_gridnd(val, 3), "vander2d": make_vandernd(vander, 2),
            "vander3d": make_vandernd(vander, 3)}
    for suffix, f in made.items():
        f.__name__ = f.__qualname__ = prefix + suffix
        f.__module__ = namespace["__name__"]
        f.__doc__ = getattr(numpy_module, prefix + suffix).__doc__
        namespace[prefix + suffix] = f
    namespace[class_name] = make_class(getattr(numpy_module, class_name), val, fit)
    namespace[class_name].__module__ = namespace["__name__"]
