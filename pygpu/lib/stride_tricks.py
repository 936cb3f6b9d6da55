"""numpy.lib.stride_tricks on pygpu arrays: views of an array's memory with other strides, on the
array's device (no copy)."""
import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

from .. import _core
from .._manipulation import _as

__all__ = ["as_strided", "sliding_window_view"]


def _view(x, shape, strides, writeable):
    """x's memory as (shape, strides), starting at x's first element; read-only unless writeable
    and x is. pygpu checks that the view lies inside the memory x's base owns (NumPy does not
    check: a view out of bounds would fault a kernel and take the device down)."""
    root = x.base if isinstance(x.base, _core.ndarray) else x
    if not root.flags["C_CONTIGUOUS"]:   # imported memory with its own layout: bounds unknown
        if writeable:
            raise ValueError("as_strided: the array's memory is not C-contiguous; pass pygpu.ascontiguousarray(x)")
        x = root = _core.ascontiguousarray(x)
    v = _core._as_strided(root, tuple(shape), tuple(strides), x.data_ptr - root.data_ptr)
    if not (writeable and x.flags["WRITEABLE"]):
        v.flags.writeable = False
    return v


def as_strided(x, shape=None, strides=None, subok=False, writeable=True, *, check_bounds=None):
    """A view of x's memory with the given shape and strides (bytes); x's when None. The view must
    lie inside the memory x's base owns (ValueError otherwise), whatever check_bounds says."""
    x = _as(x)
    return _view(x, x.shape if shape is None else shape, x.strides if strides is None else strides, writeable)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """A read-only view (writeable=True: writeable) of every window of shape window_shape sliding
    over x's axes `axis` (all when None): the windows' axes come after x's, trimmed by the window."""
    window_shape = tuple(window_shape) if _np.iterable(window_shape) else (window_shape,)
    x = _as(x)
    if any(int(w) < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axis = _normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    shape = list(x.shape)
    for ax, dim in zip(axis, window_shape):
        if shape[ax] < dim:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= dim - 1
    strides = x.strides + tuple(x.strides[ax] for ax in axis)
    return _view(x, tuple(shape) + tuple(int(w) for w in window_shape), strides, writeable)
