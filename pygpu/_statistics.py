"""NumPy's covariance and correlation matrices and the NaN-skipping scans (numpy/lib/
_function_base_impl.py and _nanfunctions_impl.py are the reference), from pygpu's average,
matmul and cumsum so that they run on the data's device."""
import operator
import warnings

import numpy as _np

import pygpu as _pg

__all__ = ["cov", "corrcoef", "nancumsum", "nancumprod"]


def _rows(x, dtype):
    """x as a 2-d array of dtype: a vector becomes one row (NumPy's ndmin=2)."""
    x = _pg.asarray(x).astype(dtype, copy=False)   # cov subtracts the means into a new array
    return x.reshape((1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x


def _weights(w, n, what, integral):
    w = _pg.asarray(w).astype(_np.float64)
    if integral and not bool(_pg.all(w == _pg.trunc(w))):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {what}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {what}")
    if bool(_pg.any(w < 0)):
        raise ValueError(f"{what} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """The covariance matrix of the variables in m's rows (columns with rowvar=False), and y's,
    with frequency and analytic weights; a 0-d array for one variable, as NumPy's."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _pg.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _pg.asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _pg.result_type(m, _np.float64) if y is None else _pg.result_type(m, y, _np.float64)
    X = _rows(m, dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:   # NumPy's early np.array([]).reshape(0, 0): float64 whatever the dtypes
        return _pg.empty((0, 0), dtype=_np.float64, device=X.device)
    if y is not None:
        Y = _rows(y, dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = _pg.concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = X.shape[1]
    w = None
    if fweights is not None:
        w = _weights(fweights, n, "fweights", True)
    if aweights is not None:
        aweights = _weights(aweights, n, "aweights", False)
        w = aweights if w is None else w * aweights
    if w is None:   # no weights: a plain mean, and no total to read back from the device
        avg = _pg.mean(X, axis=1)
        fact = n - ddof
    else:
        avg, w_sum = _pg.average(X, axis=1, weights=w, returned=True)
        w_sum = complex(w_sum.reshape(-1)[0]).real   # one total for every row
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(_pg.sum(w * aweights)) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    # NumPy subtracts in place (X -= avg), so an integer or bool dtype= refuses the float means
    X = _pg.subtract(X, avg[:, None], out=_pg.empty_like(X))
    X_T = X.T if w is None else (X * w).T
    if _np.issubdtype(X_T.dtype, _np.complexfloating):
        X_T = _pg.conj(X_T)
    c = _pg.matmul(X, X_T)
    with _np.errstate(divide="ignore", invalid="ignore"):
        c *= _np.true_divide(1, fact)
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov normalised by the standard deviations, clipped to
    [-1, 1] (the real and imaginary parts of complex ones)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c   # one variable: 1, or NaN for no variance (as NumPy)
    d = _pg.diagonal(c)
    stddev = _pg.sqrt(_pg.real(d))
    c = c / stddev[:, None] / stddev[None, :]
    if _np.issubdtype(c.dtype, _np.complexfloating):
        return _pg.clip(_pg.real(c), -1, 1) + 1j * _pg.clip(_pg.imag(c), -1, 1)
    return _pg.clip(c, -1, 1)


def _nan_scan(scan, identity, a, axis, dtype, out):
    a = _pg.asarray(a)
    if _np.issubdtype(a.dtype, _np.inexact):
        a = _pg.where(_pg.isnan(a), identity, a)
    if axis is not None:
        axis = operator.index(axis)
    return scan(a, axis=axis, dtype=dtype, out=out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero (leading NaNs become zeros)."""
    return _nan_scan(_pg.cumsum, 0, a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    return _nan_scan(_pg.cumprod, 1, a, axis, dtype, out)
