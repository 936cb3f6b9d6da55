"""numpy.pad for pygpu arrays: the padded array is allocated once, the original copied into its
middle, and each axis's pad areas filled by copies of slices (NumPy's algorithm, whose loops run
over axes and, for reflect/symmetric/wrap wider than the array, over repetitions)."""
import numpy as _np

from . import _core
from ._core import ndarray as _ndarray
from ._manipulation import _as, _function, _slice_at_axis

__all__ = ["pad"]


def _any(mask):
    """Whether any element of a pygpu bool array is true (a Python bool)."""
    return bool(_function("any")(mask))


def _as_pairs(x, ndim, as_index=False):
    if x is None:
        return ((None, None),) * ndim
    if isinstance(x, _ndarray):
        x = x.get()
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return _np.broadcast_to(x, (ndim, 2)).tolist()


def _view_roi(array, original_area_slice, axis):
    axis += 1
    return array[(slice(None),) * axis + original_area_slice[axis:]]


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_slice_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_slice_at_axis(slice(padded.shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    left = width_pair[0]
    right = padded.shape[axis] - width_pair[1]
    return (padded[_slice_at_axis(slice(left, left + 1), axis)],
            padded[_slice_at_axis(slice(right - 1, right), axis)])


def _ramp(end_value, edge, width, axis, dtype):
    """NumPy's linspace(end_value, edge, width, endpoint=False, dtype, axis) for an edge slice,
    computed as linspace does: arange * ((edge - end) / width) + end, floored for integers. The
    end value is a NumPy scalar (a strong type, as in NumPy's pad)."""
    dt = _np.result_type(edge.dtype, end_value)
    if dt.kind not in "fc":
        dt = _np.dtype(_np.float64)
    shape = [1] * edge.ndim
    shape[axis] = width
    delta = edge.astype(dt) - end_value
    y = _core.arange(width, dtype=dt, device=edge.device).reshape(shape)
    if width:
        step = delta / width
        if _any(_core.equal(step, 0)):
            y = y / width * delta   # linspace's other rounding, taken when any step is zero
        else:
            y = y * step
    y = y + end_value
    if _np.dtype(dtype).kind in "iu":
        y = _core.floor(y)
    return y.astype(dtype)


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    edges = _get_edges(padded, axis, width_pair)
    left = _ramp(end_value_pair[0], edges[0], width_pair[0], axis, padded.dtype)
    right = _ramp(end_value_pair[1], edges[1], width_pair[1], axis, padded.dtype)
    return left, right[_slice_at_axis(slice(None, None, -1), axis)]


def _get_stats(padded, axis, width_pair, length_pair, func, is_extreme):
    left_index = width_pair[0]
    right_index = padded.shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and is_extreme:
        raise ValueError("stat_length of 0 yields no value for padding")

    def stat(chunk):
        s = func(chunk, axis=axis, keepdims=True)
        if padded.dtype.kind in "iu":
            s = _core.rint(s)
        return s

    left_stat = stat(padded[_slice_at_axis(slice(left_index, left_index + left_length), axis)])
    if left_length == right_length == max_length:
        return left_stat, left_stat
    return left_stat, stat(padded[_slice_at_axis(slice(right_index - right_length, right_index), axis)])


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    left_pad, right_pad = width_pair
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        start = stop + chunk_length
        left_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            left_chunk = 2 * padded[_slice_at_axis(slice(left_pad, left_pad + 1), axis)] - left_chunk
        padded[_slice_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        stop = start - chunk_length
        right_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            right_chunk = 2 * padded[_slice_at_axis(slice(-right_pad - 1, -right_pad), axis)] - right_chunk
        start = padded.shape[axis] - right_pad
        padded[_slice_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    left_pad, right_pad = width_pair
    period = padded.shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left_pad = new_right_pad = 0
    if left_pad > 0:
        slice_end = left_pad + period
        slice_start = slice_end - min(period, left_pad)
        right_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if left_pad > period:
            pad_area = _slice_at_axis(slice(left_pad - period, left_pad), axis)
            new_left_pad = left_pad - period
        else:
            pad_area = _slice_at_axis(slice(None, left_pad), axis)
        padded[pad_area] = right_chunk
    if right_pad > 0:
        slice_start = -right_pad - period
        slice_end = slice_start + min(period, right_pad)
        left_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if right_pad > period:
            pad_area = _slice_at_axis(slice(-right_pad, -right_pad + period), axis)
            new_right_pad = right_pad - period
        else:
            pad_area = _slice_at_axis(slice(-right_pad, None), axis)
        padded[pad_area] = left_chunk
    return new_left_pad, new_right_pad


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"], "linear_ramp": ["end_values"],
    "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"], "minimum": ["stat_length"],
    "reflect": ["reflect_type"], "symmetric": ["reflect_type"],
}
_PAD_STATS = {"maximum": "max", "minimum": "min", "mean": "mean", "median": "median"}


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad: modes constant, edge, linear_ramp, reflect, symmetric, wrap, empty, maximum,
    minimum, mean, median, or a function. A padded array is allocated once, the original copied
    into its middle, and each axis's pad areas filled by copies of slices."""
    array = _as(array)
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * array.ndim
        for ax, width in pad_width.items():
            seq[ax] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = seq
    pad_width = _np.asarray(pad_width.get() if isinstance(pad_width, _ndarray) else pad_width)
    if pad_width.dtype.kind != "i" and pad_width.dtype.kind != "u":
        raise TypeError("`pad_width` must be of integral type.")
    pad_width = _as_pairs(pad_width, array.ndim, as_index=True)

    if callable(mode):
        padded, _ = _pad_simple(array, pad_width, fill_value=0)
        for ax in range(padded.ndim):
            view = _core.moveaxis(padded, ax, -1)
            for ind in _np.ndindex(view.shape[:-1]):
                mode(view[ind + (Ellipsis,)], pad_width[ax], ax, kwargs)
        return padded

    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")

    padded, original_area_slice = _pad_simple(array, pad_width)
    axes = range(padded.ndim)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for ax, width_pair, value_pair in zip(axes, pad_width, values):
            roi = _view_roi(padded, original_area_slice, ax)
            _set_pad_area(roi, ax, width_pair, value_pair)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for ax, width_pair in zip(axes, pad_width):
            if array.shape[ax] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
    elif mode == "edge":
        for ax, width_pair in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, ax)
            _set_pad_area(roi, ax, width_pair, _get_edges(roi, ax, width_pair))
    elif mode == "linear_ramp":
        end_values = _as_pairs(kwargs.get("end_values", 0), padded.ndim)
        for ax, width_pair, value_pair in zip(axes, pad_width, end_values):
            roi = _view_roi(padded, original_area_slice, ax)
            _set_pad_area(roi, ax, width_pair, _get_linear_ramps(roi, ax, width_pair, value_pair))
    elif mode in _PAD_STATS:
        func = _function(_PAD_STATS[mode])
        length = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for ax, width_pair, length_pair in zip(axes, pad_width, length):
            roi = _view_roi(padded, original_area_slice, ax)
            stats = _get_stats(roi, ax, width_pair, length_pair, func, mode in ("maximum", "minimum"))
            _set_pad_area(roi, ax, width_pair, stats)
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for ax, (left, right) in zip(axes, pad_width):
            if array.shape[ax] == 1 and (left > 0 or right > 0):
                _set_pad_area(padded, ax, (left, right), _get_edges(padded, ax, (left, right)))
                continue
            roi = _view_roi(padded, original_area_slice, ax)
            while left > 0 or right > 0:
                left, right = _set_reflect_both(roi, ax, (left, right), method, array.shape[ax], include_edge)
    elif mode == "wrap":
        for ax, (left, right) in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, ax)
            period = padded.shape[ax] - right - left
            while left > 0 or right > 0:
                left, right = _set_wrap_both(roi, ax, (left, right), period)
    return padded


def _pad_simple(array, pad_width, fill_value=None):
    new_shape = tuple(left + n + right for n, (left, right) in zip(array.shape, pad_width))
    f_order = array.flags["F_CONTIGUOUS"] and not array.flags["C_CONTIGUOUS"]
    padded = _core.empty(new_shape, dtype=array.dtype, order="F" if f_order else "C", device=array.device)
    if fill_value is not None:
        padded.fill(fill_value)
    original_area_slice = tuple(slice(left, left + n) for n, (left, right) in zip(array.shape, pad_width))
    padded[original_area_slice] = array
    return padded, original_area_slice
