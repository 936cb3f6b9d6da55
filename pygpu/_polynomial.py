"""NumPy's classic polynomial functions on coefficient arrays, highest power first
(numpy/lib/_polynomial_impl.py is the reference): evaluation by Horner's rule, arithmetic,
derivatives and integrals, division, least-squares fits (pygpu.linalg.lstsq on the scaled
Vandermonde matrix), and roots (eigenvalues of the companion matrix)."""
import warnings

import numpy as _np

import pygpu as _pg

__all__ = ["polyval", "polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv", "polyfit", "roots", "poly",
           "poly1d"]


def _coeffs(p):
    p = p._coeffs if isinstance(p, poly1d) else _pg.asarray(p)
    return p.reshape(1) if p.ndim == 0 else p


def _truepoly(*args):
    """Whether NumPy would answer with a poly1d: some argument is one (pygpu's or NumPy's)."""
    return any(isinstance(a, (poly1d, _np.poly1d)) for a in args)


def polyval(p, x):
    """p[0] * x**(n-1) + ... + p[n-1], element-wise in x (Horner's rule); a polynomial when x
    is a poly1d (the composition p(x))."""
    p = _pg.asarray(p)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")   # NumPy's loop over p's coefficients
    if isinstance(x, (poly1d, _np.poly1d)):
        # NumPy starts from the Python int 0, so integer coefficients stay integer
        x, y = poly1d(x), 0
        for c in p.get():
            y = y * x + c
        return y
    x = _pg.asarray(x)
    y = _pg.zeros_like(x)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def _aligned(a1, a2):
    a1, a2 = _coeffs(a1), _coeffs(a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = _pg.concatenate((_pg.zeros(diff, dtype=a1.dtype, device=a1.device), a1))
    elif diff < 0:
        a2 = _pg.concatenate((_pg.zeros(-diff, dtype=a2.dtype, device=a2.device), a2))
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials."""
    truepoly = _truepoly(a1, a2)
    a1, a2 = _aligned(a1, a2)
    return poly1d(a1 + a2) if truepoly else a1 + a2


def polysub(a1, a2):
    """The difference of two polynomials."""
    truepoly = _truepoly(a1, a2)
    a1, a2 = _aligned(a1, a2)
    return poly1d(a1 - a2) if truepoly else a1 - a2


def _trimmed(p):
    """p's coefficients without leading zeros, as numpy.poly1d keeps them ([0.] for none left)."""
    p = _coeffs(p)
    nonzero = _pg.flatnonzero(p)
    if nonzero.size == 0:
        return _pg.zeros(1, dtype=p.dtype, device=p.device)
    return p[int(nonzero[0]):]


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their coefficients, leading zeros
    dropped first as numpy.polymul's poly1d does)."""
    val = _pg.convolve(_trimmed(a1), _trimmed(a2))
    return poly1d(val) if _truepoly(a1, a2) else val


def polyder(p, m=1):
    """The m-th derivative."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = _truepoly(p)
    p = p._coeffs if isinstance(p, poly1d) else _pg.asarray(p)
    if p.ndim == 0:
        raise TypeError("len() of unsized object")   # NumPy's len(p)
    # NumPy's recursion takes one product more than it returns: an N-d p (N > 1) raises there
    for step in range(m + (p.ndim > 1)):
        n = p.shape[0] - 1
        y = p[:-1] * _pg.arange(n, 0, -1, device=p.device)
        p = y if step < m else p
    return poly1d(p) if truepoly else p


def polyint(p, m=1, k=None):
    """The m-th antiderivative, with integration constants k (zeros by default; one per
    integration, the first integration's first)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = [0] * m if k is None else (list(_np.atleast_1d(_pg.asnumpy(k) if isinstance(k, _pg.ndarray) else k)))
    if len(k) == 1 and m > 1:
        k = k * m
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = _truepoly(p)
    p = p._coeffs if isinstance(p, poly1d) else _pg.asarray(p)
    if m == 0:
        return poly1d(p) if truepoly else p   # as it is, 0-d too (NumPy's)
    if p.ndim == 0:
        raise TypeError("len() of unsized object")
    dtype = _np.result_type(p.dtype, _np.asarray(k).dtype, _np.float64)   # complex coefficients stay complex
    for i in range(m):
        n = p.shape[0]
        p = _pg.concatenate((p.astype(dtype) / _pg.arange(n, 0, -1, device=p.device),
                             _pg.asarray([k[i]], dtype=dtype, device=p.device)))
    return poly1d(p) if truepoly else p


def polydiv(u, v):
    """(quotient, remainder) of the polynomial division u / v."""
    truepoly = _truepoly(u, v)
    u, v = _coeffs(u) + 0.0, _coeffs(v) + 0.0
    dtype = _pg.result_type(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = _pg.zeros(max(m - n + 1, 1), dtype=dtype, device=u.device)
    r = u.astype(dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[0] > 1 and _pg.allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    return (poly1d(q), poly1d(r)) if truepoly else (q, r)


def check_fit_points(x, y):
    """NumPy's errors for the points of a least-squares fit (polyfit, numpy.polynomial's *fit)."""
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial of degree deg through (x, y) (y's columns fitted together):
    its coefficients, highest power first; full=True adds (residuals, rank, singular values,
    rcond), cov=True the coefficients' covariance."""
    order = int(deg) + 1
    x, y = _pg.asarray(x) + 0.0, _pg.asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(x, y)
    if rcond is None:
        rcond = x.shape[0] * _np.finfo(x.dtype).eps
    lhs = _pg.vander(x, order)
    rhs = y
    if w is not None:
        w = _pg.asarray(w, device=x.device) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = _pg.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = _pg.linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = _pg.linalg.inv(lhs.T @ lhs) / _pg.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


def roots(p):
    """The roots of the polynomial with coefficients p (highest power first): the eigenvalues of
    its companion matrix, and zeros for trailing zero coefficients."""
    p = _pg.asarray(p)
    if p.ndim == 0:   # NumPy's __array_function__ dispatcher cannot iterate a scalar
        raise TypeError("dispatcher for __array_function__ did not return an iterable")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nonzero = _pg.nonzero(p)[0].get()
    if nonzero.size == 0:
        return _pg.asarray([], dtype=_np.float64, device=p.device)
    trailing = p.shape[0] - int(nonzero[-1]) - 1
    p = p[int(nonzero[0]):int(nonzero[-1]) + 1]
    if not _np.issubdtype(p.dtype, _np.inexact):
        p = p.astype(_np.float64)
    n = p.shape[0]
    if n > 1:
        a = _pg.diag(_pg.ones(n - 2, dtype=p.dtype, device=p.device), -1)
        a[0, :] = -p[1:] / p[0]
        found = _pg.linalg.eigvals(a)
        if not _np.issubdtype(p.dtype, _np.complexfloating) and _np.issubdtype(found.dtype, _np.complexfloating) \
                and not bool(_pg.any(_pg.imag(found) != 0)):
            found = _pg.real(found).copy()   # real roots of a real polynomial stay real, as NumPy's
    else:
        found = _pg.asarray([], dtype=_np.float64, device=p.device)   # NumPy's array([]), whatever p's dtype
    return _pg.concatenate((found, _pg.zeros(trailing, dtype=found.dtype, device=p.device)))


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots (or of a square matrix's
    characteristic polynomial); real when the roots come in conjugate pairs."""
    z = _pg.asarray(seq_of_zeros)
    if z.ndim == 0:   # NumPy's __array_function__ dispatcher cannot iterate a scalar
        raise TypeError("dispatcher for __array_function__ did not return an iterable")
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = _pg.linalg.eigvals(z)
    elif z.ndim == 1:
        pass
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0   # NumPy's Python float
    # NumPy's mintypecode: float32, float64 and the complex types stay, the rest (float16 too) float64
    dtype = z.dtype if z.dtype.char in "FDfd" else _np.dtype(_np.float64)
    a = _pg.ones(1, dtype=dtype, device=z.device)
    for k in range(z.shape[0]):
        a = _pg.convolve(a, _pg.concatenate((_pg.ones(1, dtype=dtype, device=z.device), -z[k:k + 1].astype(dtype))),
                         mode="full")
    if _np.issubdtype(a.dtype, _np.complexfloating):
        roots_ = z.astype(a.dtype)
        pos = _pg.sort_complex(roots_[_pg.imag(roots_) > 0])
        neg = _pg.sort_complex(_pg.conj(roots_[_pg.imag(roots_) < 0]))
        if pos.shape == neg.shape and bool(_pg.all(pos == neg)):
            a = _pg.real(a).copy()
    return a


class poly1d:
    """A polynomial, as numpy.poly1d: poly1d([1, 2, 3]) is x**2 + 2x + 3 (or poly1d(roots, r=True)
    the monic one with those roots). Its coefficients (highest power first) are a pygpu array on
    their device; calling it evaluates it there; + - * / ** combine polynomials and numbers."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if isinstance(c_or_r, _np.poly1d) and variable is None:
            variable = c_or_r.variable
        if r:
            c_or_r = poly(c_or_r)
        c = _pg.asarray(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = c.reshape(-1)
        nonzero = _pg.nonzero(c)[0]
        c = c[int(nonzero[0]):] if nonzero.shape[0] else _pg.zeros(1, dtype=c.dtype, device=c.device)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first."""
        return self._coeffs

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        """The degree."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self._coeffs.get(), dtype=dtype)

    def __repr__(self):
        return "poly1d(%s)" % repr(self._coeffs.get())[6:-1]   # NumPy's: its array's repr (dtype= too)

    def __str__(self):
        return str(_np.poly1d(self._coeffs.get(), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    @staticmethod
    def _coefficients_of(other):
        return other._coeffs if isinstance(other, poly1d) else _coeffs(other)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, self._coefficients_of(other)))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, self._coefficients_of(other)))

    def __rsub__(self, other):
        return poly1d(polysub(self._coefficients_of(other), self._coeffs))

    def __mul__(self, other):
        if _np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, self._coefficients_of(other)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if _np.isscalar(other):
            return poly1d(self._coeffs / other)
        return tuple(poly1d(p) for p in polydiv(self._coeffs, self._coefficients_of(other)))

    def __rtruediv__(self, other):
        return tuple(poly1d(p) for p in polydiv(self._coefficients_of(other), self._coeffs))

    def __pow__(self, n):
        if not _np.isscalar(n) or int(n) != n or n < 0:
            raise ValueError("Power to non-negative integers only.")
        result = poly1d([1])
        for _ in range(n):   # a float power is NumPy's TypeError
            result = result * self
        return result

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return self._coeffs.shape == other._coeffs.shape and bool(_pg.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self == other

    def __getitem__(self, power):
        """The coefficient of x**power (0 beyond the degree)."""
        index = self.order - power
        if power > self.order or power < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[index]

    def __setitem__(self, power, value):
        """Sets the coefficient of x**power; past the degree the polynomial grows (NumPy's)."""
        if power < 0:
            raise ValueError("Does not support negative powers.")
        if power > self.order:
            zeros = _pg.zeros(power - self.order, dtype=self._coeffs.dtype, device=self._coeffs.device)
            self._coeffs = _pg.concatenate((zeros, self._coeffs))
        self._coeffs[self.order - power] = value

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative (see polyint)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative (see polyder)."""
        return poly1d(polyder(self._coeffs, m=m))
