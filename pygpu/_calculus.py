"""NumPy's numerical derivative and integral of sampled data: gradient (second-order central
differences inside, first- or second-order one-sided ones at the edges, for uniform or given
coordinates) and trapezoid (numpy/lib/_function_base_impl.py is the reference)."""
import numpy as _np

import pygpu as _pg

__all__ = ["gradient", "trapezoid"]


def _along(ndim, axis, index):
    key = [slice(None)] * ndim
    key[axis] = index
    return tuple(key)


def _spacings(f, axes, varargs):
    """Per axis: a number (uniform spacing) or the 1-d differences of its coordinates."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and _np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for axis, distances in zip(axes, varargs):
        if _np.ndim(distances) == 0:
            out.append(distances)
            continue
        distances = _pg.asarray(distances, device=f.device)
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if distances.shape[0] != f.shape[axis]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if _np.issubdtype(distances.dtype, _np.integer):
            distances = distances.astype(_np.float64)
        steps = _pg.diff(distances)
        out.append(steps[0] if steps.shape[0] and bool(_pg.all(steps == steps[0])) else steps)
    return out


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of sampled f along each axis (a tuple for several axes): spacings as a
    scalar, one per axis, or coordinate arrays."""
    f = _pg.asarray(f)
    nd = f.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = (axis,) if _np.ndim(axis) == 0 else tuple(axis)
        axes = tuple(_np.lib.array_utils.normalize_axis_index(a, nd) for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
    spacings = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if _np.issubdtype(otype, _np.integer):   # NumPy widens integers only: bool reaches its subtraction
        f = f.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    results = []
    for ax, dx in zip(axes, spacings):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        if f.dtype == _np.bool_:
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                            "operator, or the logical_xor function instead.")
        out = _pg.empty(f.shape, dtype=otype, device=f.device)
        at = lambda i: f[_along(nd, ax, i)]   # noqa: E731
        uniform = _np.ndim(dx) == 0
        if not uniform:
            dx = _pg.asarray(dx, device=f.device)
            lead = [1] * nd
            lead[ax] = -1
            d1, d2 = dx[:-1].reshape(lead), dx[1:].reshape(lead)
        if uniform:
            out[_along(nd, ax, slice(1, -1))] = (at(slice(2, None)) - at(slice(None, -2))) / (2.0 * dx)
        else:
            a = -d2 / (d1 * (d1 + d2))
            b = (d2 - d1) / (d1 * d2)
            c = d1 / (d2 * (d1 + d2))
            out[_along(nd, ax, slice(1, -1))] = a * at(slice(None, -2)) + b * at(slice(1, -1)) + c * at(slice(2, None))
        if edge_order == 1:
            first, last = (dx, dx) if uniform else (dx[0], dx[-1])
            out[_along(nd, ax, 0)] = (at(1) - at(0)) / first
            out[_along(nd, ax, -1)] = (at(-1) - at(-2)) / last
        else:
            if uniform:
                a, b, c = -1.5 / dx, 2.0 / dx, -0.5 / dx
            else:
                x1, x2 = dx[0], dx[1]
                a = -(2.0 * x1 + x2) / (x1 * (x1 + x2))
                b = (x1 + x2) / (x1 * x2)
                c = -x1 / (x2 * (x1 + x2))
            out[_along(nd, ax, 0)] = a * at(0) + b * at(1) + c * at(2)
            if uniform:
                a, b, c = 0.5 / dx, -2.0 / dx, 1.5 / dx
            else:
                x1, x2 = dx[-2], dx[-1]
                a = x2 / (x1 * (x1 + x2))
                b = -(x2 + x1) / (x1 * x2)
                c = (2.0 * x2 + x1) / (x2 * (x1 + x2))
            out[_along(nd, ax, -1)] = a * at(-3) + b * at(-2) + c * at(-1)
        results.append(out)
    return results[0] if len(axes) == 1 else tuple(results)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of sampled y along axis by the trapezoidal rule, at coordinates x (1-d, or
    y's shape) or spacing dx."""
    y = _pg.asarray(y)
    nd = y.ndim
    if x is None:
        d = dx
    else:
        x = _pg.asarray(x, device=y.device)
        if x.ndim == 1:
            d = _pg.diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = _pg.diff(x, axis=axis)
    return _pg.sum(d * (y[_along(nd, axis, slice(1, None))] + y[_along(nd, axis, slice(None, -1))]) / 2.0, axis=axis)
