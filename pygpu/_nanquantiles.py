"""nanmedian, nanquantile and nanpercentile: quantiles of the values that are not NaN, each slice
with its own count. The slices are sorted on the device (NaNs last), the count of each is taken,
and NumPy's quantile methods (pygpu._sorting's table) turn (count, q) into the indices of every
slice at once, on the device; integer arrays have no NaNs and go to the plain quantile."""
import warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

import pygpu as _pg
from ._sorting import _QUANTILE_METHODS, _checked_quantiles, _finish, _quantile, _reduce_axes
from ._weighted_quantiles import weighted_quantile

__all__ = ["nanquantile", "nanpercentile", "nanmedian"]


def _nanmean_of_empty(a, axis, out, keepdims, stacklevel=4):
    """The nanmean of an empty a, NumPy's answer for its nan- quantiles, with nanmean's warning
    made at the caller of the public function (stacklevel: the frames above this one to it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        r = _pg.nanmean(a, axis=axis, out=out, keepdims=keepdims)
    counted = 1
    for d in (range(a.ndim) if axis is None else _normalize_axis_tuple(axis, a.ndim)):
        counted *= a.shape[d]
    # NumPy's nanmean warns for any slice with no values; of integers, its mean for a count of 0
    if counted == 0 and (r.size > 0 or a.dtype.kind not in "fc"):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=stacklevel)
    return r


def _nan_quantile(a, q, axis, out, method, keepdims, weak_q):
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_QUANTILE_METHODS.keys()}")
    if a.size == 0:   # NumPy's answer: the nanmean (NaN, with its warning) whatever q is
        return _nanmean_of_empty(a, axis, out, keepdims)
    if q.ndim > 2:   # NumPy's limit, as quantile's (its message says 1d)
        raise ValueError("q must be a scalar or 1d")
    if a.dtype.kind != "f":
        return _quantile(a, q, axis, out, method, keepdims, weak_q, "Quantiles")
    # NumPy's result dtype: a Python float q keeps float32, an array of q's is float64
    want = _np.nanquantile(_np.zeros(1, a.dtype), float(q) if weak_q else q, method=method).dtype
    arr, ax, kept = _reduce_axes(a, axis)
    arr = _pg.moveaxis(arr, ax, -1)
    if arr.shape[-1] == 0:
        return _quantile(a, q, axis, out, method, keepdims, weak_q, "Quantiles")
    ordered = _pg.sort(arr, axis=-1)   # NaNs last
    valid = _pg.count_nonzero(~_pg.isnan(arr), axis=-1)
    n = valid.astype(_np.float64)[..., None]
    qs = _pg.asarray(q.reshape(-1).astype(_np.float64), device=a.device)
    get_index, fix_gamma = _QUANTILE_METHODS[method]
    vidx = get_index(n, qs)
    last = _pg.maximum(n - 1, 0)
    if fix_gamma is None:
        index = _pg.clip(vidx, 0, last).astype(_np.int64)
        result = _pg.take_along_axis(ordered, index, axis=-1)
    else:
        floor = _pg.floor(vidx)
        prev = _pg.where(vidx >= n - 1, last, _pg.where(vidx < 0, 0, floor))
        nxt = _pg.where(vidx >= n - 1, last, _pg.where(vidx < 0, 0, floor + 1))
        below = _pg.take_along_axis(ordered, _pg.clip(prev, 0, last).astype(_np.int64), axis=-1)
        above = _pg.take_along_axis(ordered, _pg.clip(nxt, 0, last).astype(_np.int64), axis=-1)
        t = _pg.asarray(fix_gamma(vidx - floor, vidx)) + _pg.zeros_like(vidx)
        diff = above - below
        result = _pg.where(t >= 0.5, above - diff * (1 - t), below + diff * t)
    empty = valid == 0
    if bool(_pg.any(empty)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        result = _pg.where(empty[..., None], _np.nan, result)
    result = _pg.moveaxis(result.astype(want), -1, 0).reshape(q.shape + result.shape[:-1])
    return _finish(result, out, keepdims, kept, lead=q.shape)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None):
    """The q-th quantiles along axis of the values that are not NaN (NaN, with a RuntimeWarning,
    for a slice of NaNs only); every method numpy.quantile has."""
    a, q, weak_q, weights = _checked_quantiles(a, q, False, weights, axis, method)
    if weights is not None:
        return weighted_quantile(a, q, axis, out, keepdims, weights, skip_nans=True)
    return _nan_quantile(a, q, axis, out, method, keepdims, weak_q)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    """The q-th percentiles (0..100) along axis of the values that are not NaN."""
    a, q, weak_q, weights = _checked_quantiles(a, q, True, weights, axis, method)
    if weights is not None:
        return weighted_quantile(a, q, axis, out, keepdims, weights, skip_nans=True)
    return _nan_quantile(a, q, axis, out, method, keepdims, weak_q)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along axis of the values that are not NaN: as NumPy's, the middle one of an odd
    count itself and the mean of the two middle ones of an even count (so an infinity in the
    middle stays one, where quantile's interpolation would give NaN); NaN with a RuntimeWarning
    for a slice of NaNs only."""
    a = _pg.asarray(a)
    if a.size == 0:   # NumPy's answer, as nanquantile's
        return _nanmean_of_empty(a, axis, out, keepdims, stacklevel=3)
    if a.dtype.kind not in "fc":   # complex NaNs (either part) sort last too, as NumPy's
        return _pg.median(a, axis=axis, out=out, keepdims=keepdims)
    arr, ax, kept = _reduce_axes(a, axis)
    ordered = _pg.sort(_pg.moveaxis(arr, ax, -1), axis=-1)   # NaNs last
    valid = _pg.count_nonzero(~_pg.isnan(ordered), axis=-1)
    low_index = _pg.maximum(valid - 1, 0) // 2
    high_index = _pg.minimum(valid // 2, _pg.maximum(valid - 1, 0))
    low = _pg.take_along_axis(ordered, low_index[..., None], axis=-1)[..., 0]
    high = _pg.take_along_axis(ordered, high_index[..., None], axis=-1)[..., 0]
    result = _pg.where(low_index == high_index, low, (low + high) / 2)
    empty = valid == 0
    if bool(_pg.any(empty)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
        result = _pg.where(empty, _np.nan, result)
    return _finish(result.astype(a.dtype), out, keepdims, kept)
