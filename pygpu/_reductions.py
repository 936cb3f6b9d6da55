"""The reductions NumPy itself composes in Python from others: ptp, diff, average. The reductions
and scans proper (sum, mean, argmin, cumsum, ufunc.reduce, ...) are C (pygpu._core)."""
import operator as _operator
import warnings as _warnings

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
        if a.size == 0 and _count_items(a, axis, False, True) == 0:   # mean's warning, at our caller
            with _warnings.catch_warnings():
                _warnings.simplefilter("ignore", RuntimeWarning)
                avg = _core.mean(a, axis=axis, **kw)
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        else:
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


def _count_items(a, axis, keepdims, where):
    """NumPy's _count_reduce_items: a host int without where=, else the device counts."""
    if where is True:
        axes = range(a.ndim) if axis is None else ((axis,) if not isinstance(axis, tuple) else axis)
        n = 1
        for ax in axes:
            n *= a.shape[_normalize_axis(_operator.index(ax), a.ndim)]
        return n
    return _core.sum(_core.broadcast_to(_as_array(where, a), a.shape), axis=axis, dtype=_np.int64, keepdims=keepdims)


def _divide_into(total, count):
    """total / count in place (NumPy's true_divide(..., out=ret, casting='unsafe')); count a strong
    int64 (NumPy's intp), so a float32 total is divided in float64 and rounded, as NumPy's."""
    if not isinstance(count, _core.ndarray):
        count = _core.asarray(_np.asarray(count, dtype=_np.int64 if isinstance(count, int) else _np.float64),
                              device=total.device)
    return _core.true_divide(total, count, out=total, casting="unsafe")


def _moments_as_numpy(kind, a, axis, dtype, out, ddof, keepdims, where, skipnan):
    """mean, var or std (kind) as NumPy's _methods and nanfunctions compute them, step by step:
    each sum in NumPy's dtype (a float16 one rounded to float16, so it may overflow), the
    division in out's. pygpu's C reductions call this for what their one pass would answer
    otherwise (which calls come here is csrc/math/reductions.c's numpy_steps): float16 sums, a
    complex dtype= for var, an out= of another dtype, and the dtype= NumPy refuses. Warns as NumPy
    does, at the caller."""
    a = _as_array(a)
    if dtype is not None:
        dtype = _np.dtype(dtype)
    where = True if where is None else where
    if skipnan and a.dtype.kind in "fc":
        return _nan_moments(kind, a, axis, dtype, out, ddof, keepdims, where)
    rcount = _count_items(a, axis, keepdims, where)
    if kind == "mean":
        if (rcount == 0) if where is True else bool(_core.any(rcount == 0)):
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        is_f16 = False
        if dtype is None:
            if a.dtype.kind in "biu":
                dtype = _np.dtype("f8")
            elif a.dtype == _np.float16:
                dtype, is_f16 = _np.dtype("f4"), True
        ret = _divide_into(_core.sum(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where), rcount)
        return ret.astype(a.dtype) if is_f16 and out is None else ret
    if (ddof >= rcount) if where is True else bool(_core.any(rcount <= ddof)):
        _warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
    if dtype is None and a.dtype.kind in "biu":
        dtype = _np.dtype("f8")
    mean = _core.sum(a, axis=axis, dtype=dtype, keepdims=True, where=where)
    mean = _divide_into(mean, rcount if where is True else rcount.reshape(mean.shape))
    x = _core.subtract(a, mean)
    if x.dtype.kind == "c":   # |x|^2 in x's real dtype, as NumPy's complex fast path
        x = _core.add(_core.square(x.real), _core.square(x.imag))
    else:
        x = _core.square(x)
    ret = _core.sum(x, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    dof = max(rcount - ddof, 0) if where is True else _core.maximum(rcount - ddof, 0)
    ret = _divide_into(ret, dof)
    if kind == "std" and ret.ndim == 0 and out is None and not keepdims:
        return _core.sqrt(ret).astype(ret.dtype)   # NumPy's scalar: its sqrt cast back, never refused
    return _core.sqrt(ret, out=ret) if kind == "std" else ret


def _nan_moments(kind, a, axis, dtype, out, ddof, keepdims, where):
    """NumPy's nanmean, nanvar and nanstd of an inexact a."""
    if dtype is not None and dtype.kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    mask = _core.isnan(a)
    arr = _core.where(mask, a.dtype.type(0), a)
    if kind == "mean":
        cnt = _core.sum(_core.logical_not(mask), axis=axis, dtype=_np.int64, keepdims=keepdims, where=where)
        tot = _core.sum(arr, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
        avg = _core.true_divide(tot, cnt, out=tot, casting="unsafe")
        if bool(_core.any(cnt == 0)):
            _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        return avg
    cnt = _core.sum(_core.logical_not(mask), axis=axis, dtype=_np.int64, keepdims=True, where=where)
    avg = _core.sum(arr, axis=axis, dtype=dtype, keepdims=True, where=where)
    avg = _core.true_divide(avg, cnt, out=avg, casting="unsafe")
    # NumPy's subtract(arr, avg, out=arr, casting='unsafe', where=where): in the wider dtype, then cast
    diff = _core.subtract(arr, avg).astype(arr.dtype)
    arr = diff if where is True else _core.where(where, diff, arr)
    arr = _core.where(mask, a.dtype.type(0), arr)
    if arr.dtype.kind == "c":
        sqr = _core.multiply(arr, _core.conjugate(arr)).real
    else:
        sqr = _core.square(arr)
    var = _core.sum(sqr, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
    if var.ndim < cnt.ndim:
        cnt = cnt.squeeze(axis) if axis is not None else cnt.reshape(())
    dof = cnt - ddof
    var = _core.true_divide(var, dof, out=var, casting="unsafe")
    bad = dof <= 0
    if bool(_core.any(bad)):
        _warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=3)
        var[...] = _core.where(bad, _np.nan, var)
    return _core.sqrt(var, out=var) if kind == "std" else var
