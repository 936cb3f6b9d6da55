"""NumPy's functions that call the user's functions on parts of an array: apply_along_axis
(one call per 1-d slice, as NumPy makes them, each on the device), apply_over_axes and piecewise
(numpy/lib/_shape_base_impl.py and _function_base_impl.py are the reference)."""
import collections.abc

import numpy as _np

import pygpu as _pg

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d(slice, *args, **kwargs) for every 1-d slice of arr along axis; the results (of one
    shape) take that axis's place."""
    arr = _pg.asarray(arr)
    nd = arr.ndim
    axis = _np.lib.array_utils.normalize_axis_index(axis, nd)
    moved = _pg.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    indices = iter(_np.ndindex(outer))
    try:
        first = next(indices)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _pg.asarray(func1d(moved[first], *args, **kwargs))
    out = _pg.empty(outer + res.shape, dtype=res.dtype, device=res.device)
    out[first] = res
    for index in indices:
        out[index] = _pg.asarray(func1d(moved[index], *args, **kwargs))
    dims = list(range(out.ndim))
    order = dims[:axis] + dims[out.ndim - res.ndim:] + dims[axis:out.ndim - res.ndim]
    return out.transpose(order)


def apply_over_axes(func, a, axes):
    """func(a, axis) over each axis in turn, each result kept at a's number of dimensions."""
    val = _pg.asarray(a)
    n = val.ndim
    for axis in (axes,) if _np.ndim(axes) == 0 else axes:
        axis = axis + n if axis < 0 else axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = _pg.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """x's elements through funclist[i] (a function of the selected elements, or a value) where
    condlist[i] holds; one more function than conditions: where none holds; 0 elsewhere."""
    x = _pg.asarray(x)
    if _np.isscalar(condlist) or (not isinstance(condlist[0], (list, _np.ndarray, _pg.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conds = _pg.stack([_pg.asarray(c, device=x.device).astype(bool) for c in condlist])
    n = conds.shape[0]
    if n == len(funclist) - 1:
        conds = _pg.concatenate([conds, ~_pg.any(conds, axis=0, keepdims=True)], axis=0)
        n += 1
    elif n != len(funclist):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _pg.zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
            continue
        values = x[cond]
        if values.size > 0:
            y[cond] = func(values, *args, **kw)
    return y
