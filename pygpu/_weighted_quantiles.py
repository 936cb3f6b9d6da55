"""Weighted quantiles (quantile, percentile and their nan- forms with weights=), as NumPy computes
them with its one method that takes weights, 'inverted_cdf': each slice sorted (stably) with its
weights, their cumulative sum divided by the total is the slice's distribution, and the quantile
q is the first value whose share reaches q. All slices at once on the device: the count of
shares below q is where q would go in the sorted shares (NumPy's searchsorted 'left')."""
import warnings

import numpy as _np

from . import _core
from ._sorting import _as, _finish, _normalize_axis_tuple, _reduce_axes


def checked_weights(a, weights, axis, method):
    """weights as an array of a's shape (broadcast along the reduced axes, as NumPy lays them
    out), checked as NumPy checks them."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    norm = None if axis is None else _normalize_axis_tuple(axis, a.ndim)
    w = _as(weights, a.device)
    if w.shape != a.shape:
        if norm is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[d] for d in norm):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = _core.transpose(w, tuple(int(k) for k in _np.argsort(norm)))
        w = w.reshape(tuple(s if d in norm else 1 for d, s in enumerate(a.shape)))
        w = _core.broadcast_to(w, a.shape)
    if bool(_core.any(w < 0)):
        raise ValueError("Weights must be non-negative.")
    return w


def weighted_quantile(a, q, axis, out, keepdims, weights, skip_nans):
    """The q-th quantiles (fractions, checked) of a along axis with weights (checked_weights);
    skip_nans: the nan- forms (NaNs and their weights left out; NaN for a slice of NaNs only),
    else a slice holding a NaN gives NaN."""
    arr, ax, kept = _reduce_axes(a, axis)
    w, _, _ = _reduce_axes(weights, axis)
    arr, w = _core.moveaxis(arr, ax, 0), _core.moveaxis(w, ax, 0)
    n = arr.shape[0]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    order = _core.argsort(arr, axis=0, kind="stable")   # NaNs last
    values = _core.take_along_axis(arr, order, axis=0)
    w = _core.take_along_axis(w, order, axis=0)
    inexact = arr.dtype.kind == "f"
    all_nan = _core.isnan(values[0]) if skip_nans and inexact else None
    if all_nan is not None:   # a NaN has no share; a slice of NaNs only is NaN, with a warning
        w = _core.where(_core.isnan(values), 0, w)
        if bool(_core.any(all_nan)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    cdf = _core.cumsum(w, axis=0, dtype=_np.float64)
    with _np.errstate(divide="ignore", invalid="ignore"):
        cdf = cdf / cdf[-1]
    bad_total = _core.isnan(cdf[-1])
    if all_nan is not None:
        bad_total = bad_total & ~all_nan
    if bool(_core.any(bad_total)):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if q.dtype.kind == "f":   # compared in q's precision, as NumPy does
        cdf = cdf.astype(q.dtype)
    cdf = _core.where(cdf == 0, -1, cdf)   # a leading zero weight is no share of q = 0
    qs = q.reshape(-1)
    shares = _core.asarray(qs, device=a.device).reshape((qs.size,) + (1,) * arr.ndim)
    index = _core.count_nonzero(cdf[None] < shares, axis=1)
    index = _core.minimum(index, n - 1)
    result = _core.take_along_axis(values[None], index[:, None], axis=1)[:, 0]
    result = result.reshape(q.shape + arr.shape[1:])
    if all_nan is not None:
        result = _core.where(all_nan, _np.nan, result)
    elif inexact:
        last = values[n - 1]
        result = _core.where(_core.isnan(last), last, result)
    return _finish(result, out, keepdims, kept, lead=q.shape)
