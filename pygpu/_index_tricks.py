"""NumPy's index helpers and the creation routines built on others: the indices of diagonals and
triangles, flat <-> multi-dimensional indices, open meshes (ix_), fill_diagonal, putmask, block,
vander, logspace and geomspace (numpy/lib/_index_tricks_impl.py, _twodim_base_impl.py,
numpy/_core/function_base.py and shape_base.py are the reference). Results are int64 index
arrays on the current device, as NumPy's are intp."""
import math as _math
import operator

import numpy as _np

import pygpu as _pg
from . import _core
from ._out import values_as

__all__ = ["diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
           "triu_indices_from", "mask_indices", "fill_diagonal", "putmask", "unravel_index", "ravel_multi_index",
           "ix_", "vander", "linspace", "logspace", "geomspace", "block", "mgrid", "ogrid", "r_", "c_"]


def _index(value, what):
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


# ------------------------------------------------------------------ diagonals and triangles

def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an (n, n, ..., n) array: ndim copies of arange(n)."""
    idx = _pg.arange(_index(n, "n"), dtype=_np.int64)
    return (idx,) * _index(ndim, "ndim")


def diag_indices_from(arr):
    """diag_indices for an array whose dimensions are all of one length."""
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n, k=0, m=None):
    """(rows, cols) of the lower triangle of an (n, m) array, diagonal k and below."""
    return _pg.nonzero(_pg.tri(_index(n, "n"), m, k=_index(k, "k"), dtype=bool))


def triu_indices(n, k=0, m=None):
    """(rows, cols) of the upper triangle of an (n, m) array, diagonal k and above."""
    return _pg.nonzero(~_pg.tri(_index(n, "n"), m, k=_index(k, "k") - 1, dtype=bool))


def _two_d(arr):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr.shape


def tril_indices_from(arr, k=0):
    """tril_indices for arr's shape."""
    n, m = _two_d(arr)
    return tril_indices(n, k=k, m=m)


def triu_indices_from(arr, k=0):
    """triu_indices for arr's shape."""
    n, m = _two_d(arr)
    return triu_indices(n, k=k, m=m)


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is nonzero (mask_func: triu, tril, ...)."""
    return _pg.nonzero(mask_func(_pg.ones((n, n), dtype=_np.int64), k) != 0)


def fill_diagonal(a, val, wrap=False):
    """Writes val (cycled when shorter) on a's main diagonal, in place. A tall 2-d array's
    diagonal restarts below the square part with wrap=True, as NumPy's flat stepping does."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:   # checked before val is read, as NumPy checks it
        raise ValueError("All dimensions of input must be of equal length")
    val = values_as(val, a.dtype, a.device, casting="unsafe")   # NumPy's a.flat[...] = val
    if a.ndim == 2:
        rows, cols = a.shape
        end = rows * cols if wrap else min(rows, cols) * cols
        flat = _pg.arange(0, end, cols + 1, dtype=_np.int64, device=a.device)
        index = (flat // cols, flat % cols)
    else:
        index = (_pg.arange(a.shape[0], dtype=_np.int64, device=a.device),) * a.ndim
    count = index[0].shape[0]
    if count == 0 or val.size == 0:
        return None
    values = val if val.size == count else _pg.take(val, _pg.arange(count, dtype=_np.int64,
                                                                         device=a.device) % val.size)
    a[index] = values
    return None


def putmask(a, mask, values):
    """a[mask] = values, in place, values[i % len(values)] going to flat position i (NumPy's
    putmask; pygpu.place takes them in order instead)."""
    if not isinstance(a, _core.ndarray):
        raise TypeError("putmask: first argument must be an array")
    mask = _pg.asarray(mask, device=a.device)
    if mask.shape != a.shape:
        if mask.size != a.size:
            raise ValueError("putmask: mask and data must be the same size")
        mask = mask.reshape(a.shape)
    mask = mask.astype(bool)
    values = values_as(values, a.dtype, a.device)
    if values.size == 0:
        return None
    positions = _pg.nonzero(mask.ravel())[0]
    if positions.shape[0] == 0:
        return None
    a[mask] = _pg.take(values, positions % values.size)
    return None


# ------------------------------------------------------------------ flat and multi-dimensional indices

def _shape(dims):
    dims = (dims,) if not isinstance(dims, (tuple, list)) else tuple(dims)
    return tuple(_index(d, "dims") for d in dims)


def _c_or_f(order):
    """NumPy's order argument of unravel_index/ravel_multi_index: 'C' or 'F' in either case,
    None meaning 'C'."""
    order = "C" if order is None else order.upper() if isinstance(order, str) else order
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return order


def _is_index_dtype(dtype):
    """Integers and bools, which NumPy casts to intp for flat and multi-indices."""
    return _np.issubdtype(dtype, _np.integer) or dtype == _np.bool_


def unravel_index(indices, shape, order="C"):
    """The multi-dimensional indices (a tuple of arrays, one per dimension) of flat indices into
    an array of this shape."""
    shape = _shape(shape)
    order = _c_or_f(order)
    idx = _pg.asarray(indices)
    if not _is_index_dtype(idx.dtype):
        raise TypeError(f"only int indices permitted (got {idx.dtype})")
    idx = idx.astype(_np.int64)
    size = 1
    for d in shape:
        size *= d
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        for bad in (lo, hi):
            if not 0 <= bad < size:
                raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    out = []
    dims = reversed(shape) if order == "C" else shape
    for d in dims:
        out.append(idx % d if d else idx)
        idx = idx // d if d else idx
    return tuple(reversed(out)) if order == "C" else tuple(out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat indices of a tuple of index arrays into an array of shape dims; mode 'raise',
    'wrap' or 'clip', or one per dimension."""
    dims = _shape(dims)
    order = _c_or_f(order)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a string or a sequence of one per dimension")
    if 0 in dims:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    if _math.prod(dims) > _np.iinfo(_np.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    arrays = _pg.broadcast_arrays(*[_pg.asarray(i) for i in multi_index])
    flat, stride = None, 1
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    for k in axes:
        i, d, m = arrays[k], dims[k], modes[k]
        if not _is_index_dtype(i.dtype):
            raise TypeError(f"only int indices permitted (got {i.dtype})")
        i = i.astype(_np.int64)
        if m == "wrap":
            i = i % d if d else i
        elif m == "clip":
            i = _pg.clip(i, 0, max(d - 1, 0))
        elif m == "raise":
            if i.size and (int(i.min()) < 0 or int(i.max()) >= d):
                raise ValueError("invalid entry in coordinates array")
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
        flat = i * stride if flat is None else flat + i * stride
        stride *= d
    return flat


def ix_(*args):
    """An open mesh of 1-d sequences: the k-th of n comes back shaped (1, ..., len, ..., 1), so
    a[ix_(rows, cols)] is the cross product. Boolean sequences stand for their true positions."""
    out = []
    n = len(args)
    for k, seq in enumerate(args):
        a = _pg.asarray(seq)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.size == 0 and not isinstance(seq, _core.ndarray):
            a = a.astype(_np.int64)   # an empty list: NumPy's intp
        if a.dtype == bool:
            a = _pg.nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (n - k - 1)))
    return tuple(out)


# ------------------------------------------------------------------ creation

def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-d x: columns x**(N-1) ... x**0 (or increasing powers), each
    the previous one times x, as NumPy computes them."""
    x = _pg.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else _index(N, "N")
    dtype = _np.promote_types(x.dtype, _np.int64)   # NumPy's: float32 gives float64
    v = _pg.empty((x.shape[0], N), dtype=dtype, device=x.device)
    if N > 0:
        v[:, 0] = 1
    if N > 1:
        v[:, 1:] = x[:, None]
        v[:, 1:] = _pg.multiply.accumulate(v[:, 1:], axis=1)
    return v if increasing else v[:, ::-1]


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """num evenly spaced samples over [start, stop] (or [start, stop) without endpoint). Array
    start and stop give one progression per element, along the new axis `axis`, computed as
    NumPy does (step = (stop - start) / div; the samples i * step + start; stop exact)."""
    if _np.ndim(start) == 0 and _np.ndim(stop) == 0:
        return _core.linspace(start, stop, num=num, endpoint=endpoint, retstep=retstep, dtype=dtype, axis=axis,
                              device=device)
    num = _index(num, "num")
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    # Python-scalar ends stay weak in the dtype, as NumPy's array converter keeps them: a float32
    # start and a stop of 1 give float32
    ends = [v if type(v) in (int, float, complex) else _pg.asarray(v, device=device) for v in (start, stop)]
    start, stop = _pg.asarray(start, device=device), _pg.asarray(stop, device=device)
    dt = _pg.result_type(*ends, float(num))
    start, stop = start.astype(dt), stop.astype(dt)
    div = num - 1 if endpoint else num
    delta = stop - start
    shape = _np.broadcast_shapes(start.shape, stop.shape)
    y = _pg.arange(num, dtype=dt, device=start.device).reshape((num,) + (1,) * len(shape))
    if div > 0:
        step = delta / div
        y = y / div * delta if bool(_pg.any(step == 0)) else y * step
    else:
        step = _np.nan   # no step for 0 samples, or 1 with the endpoint (NumPy's)
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = _pg.moveaxis(y, 0, axis)
    if dtype is not None:
        if _np.issubdtype(dtype, _np.integer):
            y = _pg.floor(y)   # NumPy rounds toward -inf, not toward 0, for an integer dtype
        y = y.astype(dtype)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num): num numbers evenly spaced on a log scale."""
    if isinstance(base, _core.ndarray) or _np.ndim(base) > 0:
        ndmax = len(_np.broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (_pg.asarray(v).reshape((1,) * (ndmax - _np.ndim(v)) + _np.shape(v))
                             for v in (start, stop, base))
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
        base = _pg.expand_dims(base, axis=axis)
    else:
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    result = _pg.power(base, y)
    return result if dtype is None else result.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """num numbers from start to stop spaced evenly on a log scale (a geometric progression),
    both ends exact. Computed by NumPy from host numbers (one small copy to the device); from
    pygpu arrays of real numbers on their device."""
    if not isinstance(start, _core.ndarray) and not isinstance(stop, _core.ndarray):
        return _pg.asarray(_np.geomspace(start, stop, num=num, endpoint=endpoint, dtype=dtype, axis=axis))
    start, stop = _pg.asarray(start) * 1.0, _pg.asarray(stop) * 1.0
    if _np.issubdtype(start.dtype, _np.complexfloating) or _np.issubdtype(stop.dtype, _np.complexfloating):
        raise TypeError("geomspace of complex pygpu arrays: pass host numbers (NumPy computes the complex "
                        "progression)")
    if bool(_pg.any(start == 0)) or bool(_pg.any(stop == 0)):
        raise ValueError("Geometric sequence cannot include zero")
    sign = _pg.sign(start)
    start, stop = start / sign, stop / sign
    result = logspace(_pg.log10(start), _pg.log10(stop), num=num, endpoint=endpoint, base=10.0, axis=axis)
    result = _pg.moveaxis(result, axis, 0)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = _pg.moveaxis(result, 0, axis) * _pg.expand_dims(sign, axis=axis)
    return result if dtype is None else result.astype(dtype)


def _block_depth(arrays, index=()):
    """(depth of list nesting, largest leaf ndim), checking that every leaf is at one depth."""
    if isinstance(arrays, tuple):
        raise TypeError(f"arrays is a tuple. Only lists are supported as arguments to `block`: "
                        f"arrays{''.join('[%d]' % i for i in index)} is a tuple")
    if isinstance(arrays, list):
        if not arrays:
            raise ValueError(f"List at arrays{''.join('[%d]' % i for i in index)} cannot be empty")
        found = [_block_depth(a, index + (i,)) for i, a in enumerate(arrays)]
        depths = {d for d, _ in found}
        if len(depths) != 1:
            raise ValueError("List depths are mismatched. First element was at depth %d, but there is an "
                             "element at depth %d" % (found[0][0] + 1, max(depths - {found[0][0]}) + 1))
        return found[0][0] + 1, max(n for _, n in found)
    return 0, _np.ndim(arrays) if not isinstance(arrays, _core.ndarray) else arrays.ndim


def block(arrays):
    """An array assembled from nested lists of blocks: the innermost lists are joined along the
    last axis, the next ones along the one before, and so on (leaves get leading 1-dimensions
    up to the result's ndim)."""
    depth, leaf_ndim = _block_depth(arrays)
    ndim = max(depth, leaf_ndim)

    def build(x, level):
        if level < depth:
            return _pg.concatenate([build(a, level + 1) for a in x], axis=-(depth - level))
        a = _pg.asarray(x)
        return a.reshape((1,) * (ndim - a.ndim) + a.shape)

    result = build(arrays, 0)
    return result.copy() if depth == 0 else result   # a new array even of one bare block, as NumPy's


# ------------------------------------------------------------------ mgrid, ogrid, r_, c_

def _grid_axis(key):
    """(start, step, count, numbers) of a slice of mgrid/ogrid: a complex step is a count of
    points from start to stop, both included."""
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    if isinstance(step, (complex, _np.complexfloating)):
        count = int(abs(step))
        numbers = [start, key.stop, abs(step)]
        step = (key.stop - start) / float(count - 1) if count != 1 else step.real
        return start, step, count, numbers
    count = int(_np.ceil((key.stop - start) / (step * 1.0)))
    return start, step, max(count, 0), [start, key.stop, step]


class _Grid:
    """mgrid (dense) and ogrid (open) meshes: grid[0:5, 0:1:3j] as NumPy's nd_grid makes them."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice) and key.stop is None and not isinstance(key.step, complex):
            # NumPy's arange(start, None, step): mgrid[3:] is arange(3)
            return _pg.arange(0 if key.start is None else key.start, None,
                              1 if key.step is None else key.step)
        if isinstance(key, slice):
            start, step, count, numbers = _grid_axis(key)
            dtype = _np.result_type(*numbers)
            if not isinstance(key.step, (complex, _np.complexfloating)):
                return _pg.arange(start, key.stop, step, dtype=dtype)
            return _pg.arange(count, dtype=dtype) * step + start
        axes = [_grid_axis(k) for k in key]
        dtype = _np.result_type(*[v for a in axes for v in a[3]])
        counts = [a[2] for a in axes]
        out = []
        for k, (start, step, count, _) in enumerate(axes):
            values = _pg.arange(count, dtype=dtype) * step + start
            values = values.astype(dtype) if values.dtype != dtype else values
            shape = [1] * len(axes)
            shape[k] = count
            values = values.reshape(shape)
            out.append(values if self.sparse else _pg.broadcast_to(values, counts))
        if self.sparse:
            return tuple(out)
        return _pg.stack(out)

    def __len__(self):
        return 0


class _Concatenator:
    """r_ and c_: arrays, sequences, scalars and slices (ranges: start:stop:step, or
    start:stop:countj) joined along an axis; a first string 'axis[,ndmin[,trans1d]]' sets how."""

    def __init__(self, axis, ndmin, trans1d):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        parts, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise ValueError(f"the {item!r} directive makes a numpy.matrix: pygpu has none")
                try:
                    values = [int(v) for v in item.split(",")]
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                axis = values[0]
                ndmin = values[1] if len(values) > 1 else ndmin
                trans1d = values[2] if len(values) > 2 else trans1d
                continue
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, (complex, _np.complexfloating)):
                    part = linspace(start, item.stop, num=int(abs(step)))
                else:
                    part = _pg.arange(start, item.stop, step)
                if ndmin > 1:
                    part = _pg.array(part, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        part = part.swapaxes(-1, trans1d)
                kinds.append(part.dtype)
            elif type(item) in _np.ScalarType:
                part = item
                kinds.append(item)
            else:
                item_ndim = item.ndim if isinstance(item, _core.ndarray) else _np.ndim(item)
                part = _pg.array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2, k1 = ndmin - item_ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    order = list(range(ndmin))
                    part = part.transpose(order[:k1] + order[k2:] + order[k1:k2])
                kinds.append(part.dtype)
            parts.append(part)
        if not parts:
            return _pg.array([])
        dtype = _np.result_type(*kinds)
        parts = [_pg.array(p, copy=None, ndmin=ndmin, dtype=dtype) for p in parts]
        return _pg.concatenate(parts, axis=axis)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)
r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


# ------------------------------------------------------------------ ufunc.at's indices

def _integer_item(item):
    if isinstance(item, bool) or isinstance(item, _np.bool_):
        return False
    if isinstance(item, (int, _np.integer)):
        return True
    if isinstance(item, _np.ndarray):
        return item.dtype.kind in "iu"
    if isinstance(item, list):
        try:
            return _np.asarray(item).dtype.kind in "iu"
        except (ValueError, TypeError):
            return False
    return False


def _at_indices(shape, index):
    """ufunc.at's index into an array of this shape in the scatter kernels' form: a tuple of k
    integer indices (int64 arrays, lists or ints, negative ones allowed; checked and broadcast by
    the caller) for the first k axes. Integer indices stay as they are; any other index NumPy
    takes (a slice, a boolean mask, None, ..., a mix) becomes the coordinates along every axis
    of the elements a[index] holds, in a[index]'s order (repeated updates land as NumPy's), with
    NumPy's IndexError for a bad one. A 0-d array's coordinates are along one axis of length 1.
    pygpu index arrays are read on the host, as ufunc.at's integer index arrays are (indices are
    checked before anything runs); the array to update stays where it is."""
    items = index if isinstance(index, tuple) else (index,)
    items = tuple(i.get() if isinstance(i, _core.ndarray) else i for i in items)
    if items and len(items) <= len(shape) and all(_integer_item(i) for i in items):
        return items
    n = len(shape)
    if n == 0:
        return (_np.zeros((), _np.int64)[items],)
    return tuple(_np.broadcast_to(_np.arange(s, dtype=_np.int64).reshape((s,) + (1,) * (n - d - 1)), shape)[items]
                 for d, s in enumerate(shape))
