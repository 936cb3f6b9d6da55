"""The reductions NumPy itself composes in Python from others: ptp, diff, average. The reductions
and scans proper (sum, mean, argmin, cumsum, ufunc.reduce, ...) are C (pygpu._core)."""
import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

from . import _core

__all__ = ["ptp", "diff", "average"]


def _as_array(x, like=None):
    if isinstance(x, _core.ndarray):
        return x
    return _core.asarray(x, device=like.device if like is not None else None)


def ptp(a, axis=None, out=None, keepdims=False):
    """numpy.ptp: max - min along the axes, in the array's dtype (wrapping as NumPy's does), or as
    NumPy with out=: the max stored into out first, so a wider out subtracts in its dtype."""
    a = _as_array(a)
    return _core.subtract(_core.max(a, axis=axis, out=out, keepdims=keepdims),
                          _core.min(a, axis=axis, keepdims=keepdims), out=out)


def _normalize_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _with_neighbours(a, axis, prepend, append):
    """a with prepend and append joined along axis (scalars broadcast to one slice)."""
    parts = []
    for p in (prepend, append):
        if p is None:
            parts.append(None)
            continue
        p = _as_array(p, a)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            p = _core.broadcast_to(p, tuple(shape))
        parts.append(p)
    if parts[0] is None and parts[1] is None:
        return a
    # NumPy's concatenate: its promotion, and its ValueError for a prepend or append of another shape
    return _core.concatenate([p for p in (parts[0], a, parts[1]) if p is not None], axis=axis)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """numpy.diff: the n-th discrete difference along axis (not_equal for booleans); prepend and
    append are joined first. None means none (the array API's reading)."""
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _as_array(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _normalize_axis(axis, a.ndim)
    a = _with_neighbours(a, axis, prepend, append)
    later = [slice(None)] * a.ndim
    earlier = [slice(None)] * a.ndim
    later[axis] = slice(1, None)
    earlier[axis] = slice(None, -1)
    later, earlier = tuple(later), tuple(earlier)
    op = _core.not_equal if a.dtype == _np.bool_ else _core.subtract
    for _ in range(n):
        a = op(a[later], a[earlier])
    return a


_NO_VALUE = object()


def average(a, axis=None, weights=None, returned=False, *, keepdims=_NO_VALUE):
    """numpy.average: the mean, or the weighted mean sum(a * w) / sum(w) along the axes; with
    returned=True also the sum of the weights. Integer inputs average in float64."""
    a = _as_array(a)
    if axis is not None:   # NumPy's normalize_axis_tuple: lists too, and its errors
        axis = _normalize_axis_tuple(axis, a.ndim, argname="axis")
    kw = {} if keepdims is _NO_VALUE else {"keepdims": keepdims}
    if weights is None:
        avg = _core.mean(a, axis=axis, **kw)
        scl = avg.dtype.type(a.size / max(avg.size, 1))
        if returned:
            return avg, _core.full(avg.shape, scl, dtype=avg.dtype, device=a.device)
        return avg
    w = _as_array(weights, a)
    if a.dtype.kind in "biu":
        result_dtype = _np.result_type(a.dtype, w.dtype, "f8")
    else:
        result_dtype = _np.result_type(a.dtype, w.dtype)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = w.transpose(tuple(_np.argsort(axis)))
        w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
    scl = _core.sum(w, axis=axis, dtype=result_dtype, **kw)
    if bool(_core.any(scl == 0.0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _core.sum(_core.multiply(a, w, dtype=result_dtype), axis=axis, **kw) / scl
    if returned:
        if scl.shape != avg.shape:
            scl = _core.broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg


def _var_about(a, axis, dtype, out, ddof, keepdims, where, mean, std, skipnan=False):
    """var (std when `std`) of a about a given mean (NumPy's mean=, of keepdims shape):
    sum(|a - mean|^2) / max(n - ddof, 0), n counting the elements `where` selects (and that are
    not NaN, for nanvar/nanstd: NaN where no more than ddof are left, as NumPy's). pygpu.var,
    std, nanvar and nanstd call this when mean= is given."""
    a = _as_array(a)
    kind = a.dtype.kind
    if skipnan and kind in "fc":
        valid = _core.logical_not(_core.isnan(a))
        where = valid if where is True else _core.logical_and(valid, _as_array(where, a))
        a = _core.where(valid, a, 0)
    calc = _np.dtype(dtype) if dtype is not None else (_np.dtype("f8") if kind in "biu" else a.dtype)
    d = _core.subtract(a.astype(calc, copy=False), _as_array(mean, a))
    sq = (d * _core.conjugate(d)).real if d.dtype.kind == "c" else d * d
    total = _core.sum(sq, axis=axis, keepdims=keepdims, where=where)
    if where is True:
        axes = range(a.ndim) if axis is None else ((axis,) if not isinstance(axis, tuple) else axis)
        n = 1
        for ax in axes:
            n *= a.shape[ax]
        n = max(n - ddof, 0)
    else:
        mask = _core.broadcast_to(_as_array(where, a), a.shape)
        n = _core.maximum(_core.count_nonzero(mask, axis=axis, keepdims=keepdims) - ddof, 0)
    res = _core.divide(total, n)
    if skipnan:
        res = _core.where(_core.asarray(n, device=a.device) > 0, res, _np.nan)
    if std:
        res = _core.sqrt(res)
    if out is not None:
        out[...] = res
        return out
    return res
