"""NumPy's array manipulation functions, composed in Python from the C core's primitives: views
(slicing, reshape, transpose, broadcast_to, diagonal) and one-pass copies (concatenate, stack,
assignment into slices, reshape of a broadcast view). No loop runs over elements in Python; the
loops here run over axes or pieces. concatenate, stack and diagonal are C (pygpu._core)."""
import itertools as _itertools
import math as _math
import operator as _operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

from . import _core
from ._core import ndarray as _ndarray

__all__ = [
    "concat", "hstack", "vstack", "row_stack", "dstack", "column_stack", "split", "array_split", "hsplit", "vsplit",
    "dsplit", "unstack", "tile", "repeat", "flip", "fliplr", "flipud", "roll", "rot90", "tri", "tril",
    "triu", "diag", "diagflat", "trace", "meshgrid", "indices", "atleast_1d", "atleast_2d", "atleast_3d",
    "append", "insert", "delete", "copyto", "resize", "trim_zeros", "shape", "ndim", "size",
]

concat = _core.concatenate


def _as(a, device=None):
    """a as a pygpu array (itself when it is one), on `device` when it is converted."""
    if isinstance(a, _ndarray):
        return a
    return _core.asarray(a, device=device)


def _slice_at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (Ellipsis,)


def _arrays_for_stack(tup):
    """NumPy's check that stacking functions get a sequence (a generator would be consumed)."""
    if not hasattr(tup, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or tuple.')
    return tup


def _device_of(arrays):
    """The device of the first pygpu array among arrays (where array-likes among them go)."""
    for a in arrays:
        if isinstance(a, _ndarray):
            return a.device
    return None


def _function(name):
    """pygpu.<name>: the reductions and indexing (other modules, C or Python) that a few forms
    here build on, looked up when used (the namespace imports this module)."""
    import pygpu
    return getattr(pygpu, name)


def _gather(a, positions, axis):
    """a's elements at the host-computed integer positions along axis (one gather kernel)."""
    return _function("take")(a, _core.asarray(_np.asarray(positions, dtype=_np.intp), device=a.device), axis=axis)


# ------------------------------------------------------------------ shape and dimension helpers

def shape(a):
    """numpy.shape: the shape of an array (or array-like) as a tuple."""
    return a.shape if isinstance(a, _ndarray) else _np.shape(a)


def ndim(a):
    """numpy.ndim: the number of dimensions."""
    return a.ndim if isinstance(a, _ndarray) else _np.ndim(a)


def size(a, axis=None):
    """numpy.size: the number of elements (along one axis when given)."""
    if not isinstance(a, _ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    # NumPy's: the product over one axis or a tuple of them
    return _math.prod(a.shape[ax] for ax in _normalize_axis_tuple(axis, a.ndim, allow_duplicate=False))


def _atleast(arys, nd, device=None):
    res = []
    for ary in arys:
        a = _as(ary, device)
        if a.ndim < nd:
            if nd == 3 and a.ndim == 1:
                a = a[None, :, None]
            elif nd == 3 and a.ndim == 2:
                a = a[:, :, None]
            else:
                a = a.reshape((1,) * (nd - a.ndim) + a.shape)
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    """Views of the inputs with at least one dimension (one array, or a tuple for several)."""
    return _atleast(arys, 1)


def atleast_2d(*arys):
    """Views with at least two dimensions: a 1-d array of length N becomes (1, N)."""
    return _atleast(arys, 2)


def atleast_3d(*arys):
    """Views with at least three dimensions: (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1)."""
    return _atleast(arys, 3)


# ------------------------------------------------------------------ joining

def _as_tuple(arrs):
    return arrs if isinstance(arrs, tuple) else (arrs,)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Arrays joined along the first axis after atleast_2d (rows on top of each other)."""
    tup = _arrays_for_stack(tup)
    arrs = _as_tuple(_atleast(tup, 2, _device_of(tup)))
    return _core.concatenate(arrs, 0, dtype=dtype, casting=casting)


row_stack = vstack   # NumPy's older name for vstack (deprecated in NumPy 2.0, gone in 2.5)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Arrays joined along the second axis (the first for 1-d arrays)."""
    tup = _arrays_for_stack(tup)
    arrs = _as_tuple(_atleast(tup, 1, _device_of(tup)))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return _core.concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Arrays joined along the third axis after atleast_3d."""
    tup = _arrays_for_stack(tup)
    arrs = _as_tuple(_atleast(tup, 3, _device_of(tup)))
    return _core.concatenate(arrs, 2)


def column_stack(tup):
    """1-d arrays as the columns of a 2-d array; 2-d arrays joined along the second axis."""
    arrays = []
    tup = _arrays_for_stack(tup)
    device = _device_of(tup)
    for v in tup:
        a = _as(v, device)
        if a.ndim < 2:
            a = a.reshape(-1, 1) if a.ndim == 1 else a.reshape(1, 1)
        arrays.append(a)
    return _core.concatenate(arrays, 1)


def append(arr, values, axis=None):
    """arr with values appended (both flattened when axis is None)."""
    arr = _as(arr)
    values = _as(values, arr.device)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = values.ravel()
        axis = arr.ndim - 1
    return _core.concatenate((arr, values), axis)


# ------------------------------------------------------------------ splitting (views)

def array_split(ary, indices_or_sections, axis=0):
    """Views of ary split along axis: into N nearly equal parts, or at the given indices."""
    ary = _as(ary)
    total = ary.shape[axis]
    try:
        nsections = len(indices_or_sections) + 1
        div_points = [0] + [_operator.index(i) for i in indices_or_sections] + [total]
    except TypeError:
        nsections = int(indices_or_sections)
        if nsections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, nsections)
        sizes = [0] + extras * [each + 1] + (nsections - extras) * [each]
        div_points = _np.cumsum(sizes).tolist()
    axis = _normalize_axis_index(axis, ary.ndim)
    return [ary[_slice_at_axis(slice(div_points[i], div_points[i + 1]), axis)] for i in range(nsections)]


def split(ary, indices_or_sections, axis=0):
    """Views of ary split into equal parts (ValueError when they cannot be) or at indices."""
    try:
        len(indices_or_sections)
    except TypeError:
        sections = indices_or_sections
        if _as(ary).shape[axis] % sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along the second axis (the first for 1-d arrays)."""
    ary = _as(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along the first axis (arrays of 2 or more dimensions)."""
    ary = _as(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along the third axis (arrays of 3 or more dimensions)."""
    ary = _as(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0):
    """The views x[..., i, ...] along axis, as a tuple."""
    x = _as(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(_core.moveaxis(x, axis, 0))


# ------------------------------------------------------------------ repeating

def tile(A, reps):
    """A repeated reps times along each axis: one copy from a broadcast view."""
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    tup = tuple(_operator.index(t) for t in tup)
    a = _as(A)
    d = len(tup)
    if d > a.ndim:
        a = a.reshape((1,) * (d - a.ndim) + a.shape)
    tup = (1,) * (a.ndim - d) + tup
    if any(t < 0 for t in tup):
        raise ValueError("negative dimensions are not allowed")
    # a seen as (1, s0, 1, s1, ...) broadcast to (t0, s0, t1, s1, ...): read in C order, that is
    # the tiled array of shape (t0*s0, t1*s1, ...)
    unit = a.reshape(tuple(x for s in a.shape for x in (1, s)))
    inter = _core.broadcast_to(unit, tuple(x for t, s in zip(tup, a.shape) for x in (t, s)))
    return inter.reshape(tuple(t * s for t, s in zip(tup, a.shape)), copy=True)


def _repeat_counts(repeats):
    """The counts as NumPy takes them: an array's by the 'safe' rule (float or uint64 counts are
    its TypeError), numbers and lists truncated."""
    if isinstance(repeats, _ndarray):
        repeats = repeats.get()
    if isinstance(repeats, _np.ndarray) and not _np.can_cast(repeats.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {repeats.dtype!r} to {_np.dtype(_np.intp)!r} according to "
                        f"the rule 'safe'")
    counts = _np.asarray(repeats)
    if counts.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array would exceed the maximum "
                         "number of dimension of 1.")
    return counts.astype(_np.intp)   # (their signs are checked by repeat, in NumPy's order)


def repeat(a, repeats, axis=None):
    """Each element repeated: `repeats` times (one copy from a broadcast view), or per-element
    counts along axis (a gather)."""
    a = _as(a)
    counts = _repeat_counts(repeats)
    if axis is None or a.ndim == 0:   # a 0-d array repeats as a 1-d one (axis 0 or -1), as NumPy's
        axis = 0 if axis is None else _normalize_axis_index(axis, 1)
        a = a.ravel()
    else:
        axis = _normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if counts.size == 1:
        r = int(counts.reshape(-1)[0])
        if r < 0:   # NumPy's error, unless the axis has nothing to repeat
            if n:
                raise ValueError("negative dimensions are not allowed")
            r = 0
        expanded = _core.expand_dims(a, axis + 1)
        b = _core.broadcast_to(expanded, a.shape[:axis + 1] + (r,) + a.shape[axis + 1:])
        return b.reshape(a.shape[:axis] + (n * r,) + a.shape[axis + 1:], copy=True)
    if counts.shape[0] != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({counts.shape[0]},)")
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    return _gather(a, _np.repeat(_np.arange(n), counts), axis)


def resize(a, new_shape):
    """A new array of new_shape filled with a's elements, repeated cyclically in C order."""
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (new_shape,)
    a = _as(a).ravel()
    new_size = 1
    for dim in new_shape:
        new_size *= dim
        if dim < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return _core.zeros(tuple(new_shape), dtype=a.dtype, device=a.device)
    repeats = -(-new_size // a.size)
    flat = _core.broadcast_to(a, (repeats, a.size)).reshape(-1, copy=True)
    return flat[:new_size].reshape(new_shape)


# ------------------------------------------------------------------ reordering (views)

def flip(m, axis=None):
    """A view with the order of elements reversed along the given axes (all when None)."""
    m = _as(m)
    if axis is None:
        index = (slice(None, None, -1),) * m.ndim
    else:
        index = [slice(None)] * m.ndim
        for ax in _normalize_axis_tuple(axis, m.ndim):
            index[ax] = slice(None, None, -1)
        index = tuple(index)
    return m[index]


def fliplr(m):
    """A view with the columns (second axis) reversed."""
    m = _as(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """A view with the rows (first axis) reversed."""
    m = _as(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def rot90(m, k=1, axes=(0, 1)):
    """A view rotated by 90 degrees k times in the plane of axes (from the first towards the second)."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _as(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _core.transpose(flip(m, axes[1]), perm)
    return flip(_core.transpose(m, perm), axes[1])


def roll(a, shift, axis=None):
    """Elements shifted along axes, those leaving at one end coming back at the other: one copy
    per contiguous piece (at most 2**len(axes) pieces)."""
    a = _as(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axis = _normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
    pairs = _np.broadcast(shift, axis)
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in pairs:
        shifts[int(ax)] += int(sh)
    rolls = [((slice(None), slice(None)),)] * a.ndim
    for ax, offset in shifts.items():
        offset %= a.shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)), (slice(-offset, None), slice(None, offset)))
    result = _core.empty_like(a)
    for indices in _itertools.product(*rolls):
        arr_index, res_index = zip(*indices)
        result[res_index] = a[arr_index]
    return result


# ------------------------------------------------------------------ diagonals and triangles

def tri(N, M=None, k=0, dtype=float, *, device=None):
    """An N x M array with ones at and below the k-th diagonal, zeros elsewhere."""
    if M is None:
        M = N
    rows = _core.arange(N, device=device).reshape(-1, 1)
    cols = _core.arange(-k, M - k, device=device)
    m = _core.greater_equal(rows, cols)
    return m.astype(dtype, copy=False)


def _tri_mask(m, k):
    if m.ndim == 0:   # NumPy's tri(*m.shape[-2:]) with no shape
        raise TypeError("tri() missing 1 required positional argument: 'N'")
    rows, cols = m.shape[-2:] if m.ndim >= 2 else (m.shape[-1], m.shape[-1])
    return tri(rows, cols, k=k, dtype=bool, device=m.device)


def tril(m, k=0):
    """The lower triangle: elements above the k-th diagonal zeroed (of each matrix in a stack)."""
    m = _as(m)
    return _core.where(_tri_mask(m, k), m, _core.zeros(1, dtype=m.dtype, device=m.device))


def triu(m, k=0):
    """The upper triangle: elements below the k-th diagonal zeroed (of each matrix in a stack)."""
    m = _as(m)
    return _core.where(_tri_mask(m, k - 1), _core.zeros(1, dtype=m.dtype, device=m.device), m)


def diag(v, k=0):
    """The k-th diagonal of a 2-d array (a view), or a 2-d array with v on its k-th diagonal."""
    v = _as(v)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        res = _core.zeros((n, n), dtype=v.dtype, device=v.device)
        if v.shape[0]:
            offset = k if k >= 0 else -k * n
            step = (n + 1) * res.itemsize
            _core._as_strided(res, v.shape, (step,), offset * res.itemsize)[...] = v
        return res
    if v.ndim == 2:
        return _core.diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """A 2-d array with the flattened input on its k-th diagonal."""
    return diag(_as(v).ravel(), k)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along diagonals (of each matrix in a stack)."""
    d = _core.diagonal(_as(a), offset, axis1, axis2)
    return _function("sum")(d, axis=-1, dtype=dtype, out=out)


# ------------------------------------------------------------------ grids

def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-d coordinate vectors ('xy': Cartesian, 'ij': matrix indexing)."""
    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    device = _device_of(xi)
    output = [_as(x, device).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = _core.broadcast_arrays(*output)
    if copy:
        output = tuple(x.copy() for x in output)
    return tuple(output)


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """The grid of indices of an array of shape `dimensions`: res[i] varies along axis i."""
    dimensions = tuple(dimensions)
    n = len(dimensions)
    shape1 = (1,) * n
    res = () if sparse else _core.empty((n,) + dimensions, dtype=dtype, device=device)
    for i, dim in enumerate(dimensions):
        idx = _core.arange(dim, dtype=dtype, device=device).reshape(shape1[:i] + (dim,) + shape1[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res


# ------------------------------------------------------------------ inserting and deleting

def _axis_and_array(arr, axis):
    arr = _as(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        axis = arr.ndim - 1
    else:
        axis = _normalize_axis_index(axis, arr.ndim)
    return arr, axis


def _host_indices(obj):
    if isinstance(obj, _ndarray):
        obj = obj.get()
    return _np.array(obj)


def _without(arr, axis, start, stop):
    """arr without the sub-arrays start:stop along axis: the two pieces joined."""
    return _core.concatenate((arr[_slice_at_axis(slice(None, start), axis)],
                              arr[_slice_at_axis(slice(stop, None), axis)]), axis)


def delete(arr, obj, axis=None):
    """A new array without the sub-arrays at obj (an int, a slice, or integer/boolean indices)
    along axis (of the flattened array when None)."""
    arr, axis = _axis_and_array(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        xr = range(start, stop, step)
        if len(xr) == 0:
            return arr.copy()
        if step < 0:
            step, start, stop = -step, xr[-1], xr[0] + 1
        if step == 1:
            return _without(arr, axis, start, stop)
        keep = _np.ones(n, dtype=bool)
        keep[start:stop:step] = False
        return _gather(arr, _np.flatnonzero(keep), axis)
    if isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool):
        index = int(obj)
    else:
        given = obj
        obj = _host_indices(obj)
        if obj.size == 0 and not isinstance(given, (_np.ndarray, _ndarray)):
            obj = obj.astype(_np.intp)
        if obj.size == 1 and obj.dtype.kind in "ui":
            index = int(obj.item())
        else:
            if obj.dtype == bool:
                if obj.shape != (n,):
                    raise ValueError("boolean array argument obj to delete must be one dimensional and match the "
                                     f"axis length of {n}")
                keep = ~obj
            else:
                keep = _np.ones(n, dtype=bool)
                keep[obj, ] = False   # NumPy's IndexError for bad indices
            return _gather(arr, _np.flatnonzero(keep), axis)
    if index < -n or index >= n:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")
    if index < 0:
        index += n
    return _without(arr, axis, index, index + 1)


def insert(arr, obj, values, axis=None):
    """A new array with values inserted before the index or indices obj along axis (of the
    flattened array when None)."""
    arr, axis = _axis_and_array(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        indices = _np.arange(*obj.indices(n), dtype=_np.intp)
    else:
        indices = _host_indices(obj)
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = _np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    # NumPy's array(values, dtype=arr.dtype): numbers and lists by their values (300 into uint8 is
    # its OverflowError, 1j into float32 its TypeError), arrays cast
    values = _as(values, arr.device).astype(arr.dtype, copy=False) if isinstance(values, (_ndarray, _np.ndarray)) \
        else _core.asarray(_np.array(values, dtype=arr.dtype), device=arr.device)
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        values = values.reshape((1,) * (arr.ndim - values.ndim) + values.shape)
        if indices.ndim == 0:
            # a scalar index inserts one sub-array: values' first axis goes where it lands
            values = _core.moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        new_shape = list(arr.shape)
        new_shape[axis] += numnew
        new = _core.empty(tuple(new_shape), dtype=arr.dtype, device=arr.device)
        new[_slice_at_axis(slice(None, index), axis)] = arr[_slice_at_axis(slice(None, index), axis)]
        new[_slice_at_axis(slice(index, index + numnew), axis)] = values
        new[_slice_at_axis(slice(index + numnew, None), axis)] = arr[_slice_at_axis(slice(index, None), axis)]
        return new
    if indices.size == 0 and not isinstance(obj, (_np.ndarray, _ndarray)):
        indices = indices.astype(_np.intp)
    # where each old and each new sub-array lands, worked out on the host as NumPy does; then the
    # result is one gather from [arr, values] joined along axis
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += _np.arange(numnew)
    old_mask = _np.ones(n + numnew, dtype=bool)
    old_mask[indices] = False
    source = _np.empty(n + numnew, dtype=_np.intp)
    source[old_mask] = _np.arange(n)
    source[indices] = n + _np.arange(numnew)
    shape = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
    joined = _core.concatenate((arr, _core.broadcast_to(values, shape)), axis, dtype=arr.dtype, casting="unsafe")
    return _gather(joined, source, axis)


def trim_zeros(filt, trim="fb", axis=None):
    """A view of filt without its leading ('f') and/or trailing ('b') zeros along the given axes
    (all when None): the bounding box of the non-zero elements."""
    a = _as(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(a.ndim)) if axis is None else _normalize_axis_tuple(axis, a.ndim, argname="axis")
    if not axes:
        return filt
    any_, argmax = _function("any"), _function("argmax")
    nonzero = _core.not_equal(a, 0)
    index = [slice(None)] * a.ndim
    for ax in axes:
        others = tuple(d for d in range(a.ndim) if d != ax)
        line = any_(nonzero, axis=others) if others else nonzero
        if not bool(any_(line)):   # all zeros: the trimmed axes empty, the others kept (NumPy's)
            index = [slice(0, 0) if d in axes else slice(None) for d in range(a.ndim)]
            break
        start = int(argmax(line)) if "f" in trim else None
        stop = line.shape[0] - int(argmax(line[::-1])) if "b" in trim else None
        index[ax] = slice(start, stop)
    if isinstance(filt, (list, tuple)):   # NumPy slices the input itself: a list stays a list
        return filt[index[0]] if a.ndim == 1 else filt[tuple(index)]
    return a[tuple(index)]


# ------------------------------------------------------------------ copyto

def copyto(dst, src, casting="same_kind", where=True):
    """dst[...] = src (broadcast), where `where` is True, if src casts to dst's dtype under
    `casting`. A NumPy dst (np.full(shape, pygpu_value, dtype=) runs np.copyto into its own array)
    takes the values on the CPU device by NumPy's copyto, with its rules and errors."""
    if isinstance(dst, _np.ndarray):
        from ._ufunc_on_host import _host   # (here: _ufunc_on_host imports this module)
        _np.copyto(dst, _host(src, "copyto"), casting=casting, where=_host(where, "copyto"))
        return
    if not isinstance(dst, _ndarray):
        raise TypeError(f"copyto() argument 1 must be a pygpu.ndarray, not {type(dst).__name__}")
    if isinstance(src, _ndarray):
        if not _np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dst.dtype!r} according to the rule "
                            f"{casting!r}")
    else:
        # NumPy's own check of a host value (NEP 50 rules for Python scalars) on a dummy element;
        # a scalar is copied as that element holds it (np.uint8(200) into int8 is -56, unchecked)
        host = src if isinstance(src, (bool, int, float, complex, _np.generic)) else _np.asarray(src)
        cell = _np.empty((), dst.dtype)
        _np.copyto(cell, host if _np.ndim(host) == 0 else _np.empty((), host.dtype), casting=casting)
        src = _core.asarray(host, device=dst.device) if _np.ndim(host) else cell
    if where is True:
        dst[...] = src
        return
    if isinstance(where, (_ndarray, _np.ndarray)):
        mask = _as(where, dst.device)
    else:
        mask = _core.asarray(where, dtype=bool, device=dst.device)   # a list is read as booleans
    if mask.dtype != _np.bool_:
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to dtype('bool') according to the rule 'safe'")
    if _broadcast_shape(mask.shape, dst.shape) != dst.shape:
        raise ValueError(f"could not broadcast where mask from shape {_shape_str(mask.shape)} into shape "
                         f"{_shape_str(dst.shape)}")
    src_arr = src if isinstance(src, _ndarray) else _core.asarray(src, dtype=dst.dtype, device=dst.device)
    if src_arr.ndim > dst.ndim and all(n == 1 for n in src_arr.shape[:src_arr.ndim - dst.ndim]):
        src_arr = src_arr.reshape(src_arr.shape[src_arr.ndim - dst.ndim:])   # leading 1s dropped, as dst[...] = src
    if src_arr.ndim > dst.ndim or _broadcast_shape(src_arr.shape, dst.shape) != dst.shape:
        raise ValueError(f"could not broadcast input array from shape {_shape_str(src_arr.shape)} into shape "
                         f"{_shape_str(dst.shape)}")
    dst[...] = _core.where(mask, _core.broadcast_to(src_arr, dst.shape), dst)


def _broadcast_shape(*shapes):
    try:
        return _np.broadcast_shapes(*shapes)
    except ValueError:
        return None


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


# ------------------------------------------------------------------ ndarray methods written here

def _method_repeat(self, repeats, axis=None):
    """a.repeat(repeats, axis=None): see pygpu.repeat."""
    return repeat(self, repeats, axis)


def _method_trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """a.trace(offset=0, axis1=0, axis2=1, dtype=None, out=None): see pygpu.trace."""
    return trace(self, offset, axis1, axis2, dtype, out)


_core._add_methods({"repeat": _method_repeat, "trace": _method_trace})
