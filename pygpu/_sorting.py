"""The sorting, searching and counting functions that NumPy itself composes in Python (unique and
the array API's unique_*, isin, histogram, digitize, median, percentile, quantile) and the
indexing helpers select, place and extract, built on pygpu's C primitives: sort/argsort/partition,
searchsorted, nonzero and mask compaction, take, bincount/_histogram. The data stays on the
array's device; the host sees only what NumPy decides on (bin edges, quantile positions, counts
that size an output)."""
import collections as _collections
import math as _math
import operator as _operator
import warnings as _warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

from . import _core
from ._out import check_cast, values_as

__all__ = [
    "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    "isin", "histogram", "digitize", "median", "percentile", "quantile",
    "select", "place", "extract", "bincount",
]

UniqueAllResult = _collections.namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = _collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _collections.namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _as(x, device=None):
    return x if isinstance(x, _core.ndarray) and (device is None or x.device == device) \
        else _core.asarray(x, device=device)


# ---------------------------------------------------------------- bincount

def bincount(x, weights=None, minlength=0):
    """The count (or summed weight) of each value of the non-negative integers x (the C count,
    with NumPy's answers where x is empty or holds uint64 values past int64's range)."""
    if isinstance(x, (list, tuple)) and len(x) == 0:
        x = _core.empty(0, dtype=_np.int64)   # NumPy converts the sequence as intp: [] is no float64
    x = _as(x)
    if x.ndim == 1 and x.dtype.kind in "biu" and x.shape[0] == 0:
        minlength = _operator.index(minlength) if minlength is not None else 0
        if minlength < 0:
            raise ValueError("'minlength' must not be negative")
        return _core.zeros(minlength, dtype=_np.int64, device=x.device)   # NumPy: intp zeros, weights unread
    if x.dtype == _np.uint64 and x.ndim == 1 and int(_core.max(x)) > _np.iinfo(_np.int64).max:
        raise ValueError("'list' argument must have no negative elements")   # NumPy's cast to intp wraps these
    return _core.bincount(x, weights=weights, minlength=minlength)


# ---------------------------------------------------------------- unique

def _lexsort_in_groups(keys, axis, group):
    """lexsort of more keys than one sort takes (`group`, from C's lexsort): stable sorts chained,
    each group of keys (the later, the more significant) sorting the order the groups before it
    made, as the keys of one sort would."""
    first = _core.asarray(keys[0])
    keys = [first] + [_core.asarray(k, device=first.device) for k in keys[1:]]
    if any(k.shape != first.shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    axis = -1 if axis is None else axis
    order = _core.lexsort(keys[:group], axis=axis)
    if first.ndim == 0:
        return order
    for start in range(group, len(keys), group):
        moved = [_core.take_along_axis(k, order, axis=axis) for k in keys[start:start + group]]
        order = _core.take_along_axis(order, _core.lexsort(moved, axis=axis), axis=axis)
    return order


def _unique_flat(ar, return_index, return_inverse, return_counts, equal_nan):
    flat = _core.ravel(ar)
    n = flat.size
    optional = return_index or return_inverse
    if optional:
        perm = _core.argsort(flat, kind="stable")
        aux = flat[perm]
    else:
        aux = _core.sort(flat)
    mask = _core.empty(n, dtype=_np.bool_, device=ar.device)
    if n:
        mask[:1] = True
        kind = aux.dtype.kind
        if equal_nan and kind in "fc" and bool(_core.isnan(aux[-1])):
            # every NaN (sorted last) is one value: keep the first
            if kind == "c":
                first = int(_core.searchsorted(_core.isnan(aux), True))
            else:
                first = int(_core.searchsorted(aux, aux[-1:])[0])
            if first > 1:
                mask[1:first] = _core.not_equal(aux[1:first], aux[:first - 1])
            mask[first:first + 1] = True
            mask[first + 1:] = False
        else:
            mask[1:] = _core.not_equal(aux[1:], aux[:-1])
    ret = (aux[mask],)
    if return_index:
        ret += (perm[mask],)
    if return_inverse:
        ret += (_inverse(perm, mask).reshape(ar.shape),)
    if return_counts:
        ret += (_run_lengths(mask),)
    return ret


def _inverse(order, first):
    """For sorted items (order: their positions) with `first` marking each distinct one's first,
    the index of each item's distinct value, at the item's position."""
    inv = _core.empty(first.size, dtype=_np.int64, device=first.device)
    if first.size:
        inv[order] = _core._true_rank(first) - 1
    return inv


def _run_lengths(first):
    """The length of each run of equal sorted items, `first` marking the start of each."""
    starts = _core.flatnonzero(first)
    counts = _core.empty(starts.size, dtype=_np.int64, device=first.device)
    if starts.size:
        counts[:-1] = starts[1:] - starts[:-1]
        counts[-1:] = first.size - starts[-1:]
    return counts


def _unique_slices(ar, axis, return_index, return_inverse, return_counts):
    """unique along axis: the distinct slices ar[..., i, ...] in lexicographic order of their
    elements (NumPy's order: its sort of the slices as records), by lexsort of the slices' elements
    and a comparison of neighbours; a slice holding a NaN equals no other, as in NumPy."""
    axis = _np.lib.array_utils.normalize_axis_index(axis, ar.ndim)
    moved = _core.moveaxis(ar, axis, 0)
    n = moved.shape[0]
    rows = _core.reshape(moved, (n, _math.prod(moved.shape[1:])))
    order = _core.lexsort(rows.T[::-1]) if rows.shape[1] else _core.arange(n, device=ar.device)
    aux = rows[order]
    mask = _core.empty(n, dtype=_np.bool_, device=ar.device)
    if n:
        mask[:1] = True
        mask[1:] = _core.any(_core.not_equal(aux[1:], aux[:-1]), axis=1)
    kept = aux[mask]
    values = _core.moveaxis(_core.reshape(kept, kept.shape[:1] + moved.shape[1:]), 0, axis)
    ret = (values,)
    if return_index:
        ret += (order[mask],)
    if return_inverse:
        ret += (_inverse(order, mask),)
    if return_counts:
        ret += (_run_lengths(mask),)
    return ret


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):  # noqa: A002
    """numpy.unique: the sorted unique elements (with axis=, the unique slices along that axis), and
    optionally the index of each one's first occurrence, the inverse (ar's shape; with axis=, one
    index per slice) and the counts. NaNs count as one value unless equal_nan=False (with axis=, a
    slice holding a NaN is unique, as NumPy's)."""
    ar = _as(ar)
    if axis is not None:
        ret = _unique_slices(ar, axis, return_index, return_inverse, return_counts)
    else:
        ret = _unique_flat(ar, return_index, return_inverse, return_counts, equal_nan)
    return ret[0] if len(ret) == 1 else ret


def unique_all(x):
    """Array API: the unique values, first indices, inverse indices (x's shape) and counts."""
    v, i, inv, c = _unique_flat(_as(x), True, True, True, False)
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x):
    """Array API: the unique values and their counts."""
    v, c = _unique_flat(_as(x), False, False, True, False)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    """Array API: the unique values and the inverse indices (x's shape)."""
    v, inv = _unique_flat(_as(x), False, True, False, False)
    return UniqueInverseResult(v, inv)


def unique_values(x):
    """Array API: the unique values (sorted)."""
    return _unique_flat(_as(x), False, False, False, False)[0]


# ---------------------------------------------------------------- isin

def _isin_table(e, t, lo, hi):
    """isin of integers through a table of the test values' range [lo, hi] (NumPy's 'table'
    kind): one lookup per element instead of a binary search. Offsets from lo are taken modulo
    2^64 (exact wherever a value is inside the range, whatever the two dtypes); elements outside
    are masked."""
    span = hi - lo
    base = _np.uint64(lo % (1 << 64))
    table = _core.zeros(span + 1, dtype=_np.bool_, device=e.device)
    table[(t.astype(_np.uint64) - base).astype(_np.int64)] = True
    inside = _core.logical_and(_core.greater_equal(e, lo), _core.less_equal(e, hi))
    offset = _core.minimum(e.astype(_np.uint64) - base, _np.uint64(span)).astype(_np.int64)
    return _core.logical_and(inside, _core.take(table, offset))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """numpy.isin: whether each element of `element` is in test_elements (a bool array of its shape),
    by a binary search in the sorted test elements, or for integers whose test values span a
    range no longer than about the data (NumPy's choice for kind=None), or kind='table', by a
    lookup table of that range. NaN is in nothing, as in NumPy."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = _as(element)
    t = _core.ravel(_as(test_elements, e.device))
    integral = e.dtype.kind in "iub" and t.dtype.kind in "iub"
    if kind == "table" and not integral:
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    possible = None
    if integral and _np.uint64 in (e.dtype, t.dtype) and "i" in (e.dtype.kind, t.dtype.kind):
        # a signed side and a uint64 side have no common integer type (their result type, float64,
        # rounds above 2**53): a negative value equals no uint64, the others compare as uint64
        if e.dtype.kind == "i":
            possible = _core.greater_equal(e, 0)
            e = e.astype(_np.uint64)
        else:
            t = t[_core.greater_equal(t, 0)].astype(_np.uint64)
    found = None
    if t.size == 0:
        found = _core.zeros(e.shape, dtype=_np.bool_, device=e.device)
    elif integral and kind != "sort":
        e = e.astype(_np.uint8) if e.dtype == _np.bool_ else e
        t = t.astype(_np.uint8) if t.dtype == _np.bool_ else t
        lo, hi = (int(v) for v in _core._minmax(t))
        if hi - lo <= _np.iinfo(t.dtype).max and (kind == "table" or hi - lo <= 6 * (e.size + t.size)):
            found = _isin_table(e, t, lo, hi)      # NumPy's tests: the offsets fit, the table is small
        elif kind == "table":
            raise RuntimeError("You have specified kind='table', but the range of values in `ar2` or `ar1` exceed "
                               "the maximum integer of the datatype. Please set `kind` to None or 'sort'.")
    if found is None:
        from ._array_api import result_type
        dt = result_type(e, t)
        e = e.astype(dt, copy=False)
        s_ = _core.sort(t.astype(dt, copy=False))
        found = _core.equal(_core.take(s_, _core.searchsorted(s_, e), mode="clip"), e)
    if possible is not None:
        found = _core.logical_and(found, possible)
    return _core.logical_not(found) if invert else found


# ---------------------------------------------------------------- histogram, digitize

def _outer_edges(a, range):  # noqa: A002
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        lo, hi = _core._minmax(a)
        first, last = a.dtype.type(lo), a.dtype.type(hi)
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _ptp(x):
    lo, hi = _core._minmax(x)
    return float(hi) - float(lo)


def _width_fd(x):
    """Freedman-Diaconis: twice the interquartile range over the cube root of the count."""
    q1, q3 = (float(v) for v in percentile(x.astype(_np.float64), [25, 75]).get())
    return 2.0 * (q3 - q1) * x.size ** (-1.0 / 3.0)


def _width_sturges(x):
    return _ptp(x) / (_np.log2(x.size) + 1.0)


def _width_doane(x):
    if x.size <= 2:
        return 0.0
    sg1 = _np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
    xf = x.astype(_np.float64)
    sigma = float(_core.std(xf))
    if sigma <= 0.0:
        return 0.0
    g1 = float(_core.mean(((xf - _core.mean(xf)) / sigma) ** 3))
    return _ptp(x) / (1.0 + _np.log2(x.size) + _np.log2(1.0 + abs(g1) / sg1))


def _width_auto(x):
    """NumPy 2's: the smaller of Sturges' width and Freedman-Diaconis' kept at least half the
    square-root estimator's (so few distinct values do not make thousands of bins)."""
    return min(max(_width_fd(x), _ptp(x) / _np.sqrt(x.size) / 2), _width_sturges(x))


def _width_stone(x, outer):
    """Stone's: the count of equal bins over outer (1 to max(100, sqrt(n))) that minimises the
    cross-validated integrated squared error, (2 - (n + 1) * sum(p_k^2)) / width, p_k the bins'
    shares. Every count's histogram is made on the device and read back in one transfer; the
    error is then NumPy's arithmetic on the host, so its ties break as NumPy's (first minimum)."""
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0
    upper = max(100, int(_np.sqrt(n)))
    counts = []
    for k in range(1, upper + 1):
        edges, _ = _bin_edges(x, k, outer)
        counts.append(_core._histogram(x, edges.astype(_np.float64), True, None)[0])
    counts = _core.concatenate(counts).get()
    best, best_j, start = None, None, 0
    for k in range(1, upper + 1):
        p_k = counts[start:start + k] / n
        start += k
        j = (2 - (n + 1) * p_k.dot(p_k)) / (ptp_x / k)
        if best_j is None or j < best_j:
            best, best_j = k, j
    if best == upper:
        # stacklevel: the caller of histogram or histogram_bin_edges
        _warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=5)
    return ptp_x / best


# numpy.histogram_bin_edges' estimators of the bin width (of the data within range; 'stone' is
# also given the outer edges, whose histograms it compares)
_BIN_WIDTHS = {
    "sqrt": lambda x: _ptp(x) / _np.sqrt(x.size),
    "sturges": _width_sturges,
    "rice": lambda x: _ptp(x) / (2.0 * x.size ** (1.0 / 3.0)),
    "scott": lambda x: (24.0 * _np.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(_core.std(x.astype(_np.float64))),
    "fd": _width_fd,
    "doane": _width_doane,
    "auto": _width_auto,
    "stone": _width_stone,
}


def _estimated_bins(a, bins, range, weights):  # noqa: A002
    """The number of equal bins the estimator `bins` gives a's data within range."""
    if bins not in _BIN_WIDTHS:
        known = ", ".join(sorted(_BIN_WIDTHS))
        raise ValueError(f"{bins!r} is not a valid estimator for `bins` (pygpu has {known})")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
    first, last = _outer_edges(a, range)
    if range is not None:
        a = a[_core.logical_and(a >= first, a <= last)]
    if a.size == 0:
        return 1
    x = _core.ravel(a)
    width = _width_stone(x, (first, last)) if bins == "stone" else _BIN_WIDTHS[bins](x)
    if not width:
        return 1   # zero for some estimators (fd, when the interquartile range is 0)
    if _np.issubdtype(a.dtype, _np.integer) and width < 1:
        width = 1   # integers: no bin narrower than one
    return int(_np.ceil((float(last) - float(first)) / width))


def _bin_edges(a, bins, range, weights=None):  # noqa: A002
    """(host edges, uniform?) as numpy.histogram_bin_edges makes them: for a number of bins,
    their edges, or the name of an estimator of their width."""
    if isinstance(bins, str):
        bins = _estimated_bins(a, bins, range, weights)
    if _np.ndim(bins) == 0:
        try:
            n = _operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
        bin_type = _np.result_type(first, last, a.dtype)
        if _np.issubdtype(bin_type, _np.integer):
            bin_type = _np.result_type(bin_type, float)
        edges = _np.linspace(first, last, n + 1, endpoint=True, dtype=bin_type)
        if _np.any(edges[:-1] >= edges[1:]):   # the range overflows, or the dtype cannot space them
            raise ValueError(f"Too many bins for data range. Cannot create {n} finite-sized bins.")
        return edges, True
    edges = bins.get() if isinstance(bins, _core.ndarray) else _np.asarray(bins)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if _np.any(edges[:-1] > edges[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges, False


def _histogram_data(a):
    """a as numpy.histogram reads it: bools as uint8, with NumPy's warning."""
    a = _as(a)
    if a.dtype == _np.bool_:
        _warnings.warn(f"Converting input from bool to {_np.uint8} for compatibility.", RuntimeWarning, stacklevel=3)
        a = a.astype(_np.uint8)
    return a


def _numpy_histogram(name, device, *args, **kwargs):
    """NumPy's histogram function `name` on host copies of the arguments, its arrays back on
    device: for complex samples, which NumPy bins by its complex order (edges from its complex
    linspace, the counts with its ComplexWarning); the device kernels bin real numbers."""
    def host(v):
        if isinstance(v, _core.ndarray):
            return v.get()
        return [host(x) for x in v] if isinstance(v, (list, tuple)) else v

    def back(v):
        if isinstance(v, (list, tuple)):
            return type(v)(back(x) for x in v)
        return _core.asarray(v, device=device) if isinstance(v, _np.ndarray) else v
    return back(getattr(_np, name)(*[host(v) for v in args], **{k: host(v) for k, v in kwargs.items()}))


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """numpy.histogram with an int number of bins or an array of edges: (hist, bin_edges), both on
    a's device. Counts are int64; with weights, sums of the weights' dtype."""
    a = _histogram_data(a)
    if a.dtype.kind == "c":
        return _numpy_histogram("histogram", a.device, a, bins, range=range, density=density, weights=weights)
    if weights is not None:
        weights = _as(weights, a.device)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    edges, uniform = _bin_edges(a, bins, range, weights)
    if weights is not None and weights.dtype.kind == "b" and not uniform:
        # NumPy adds the int64 cumsum of the weights into a bool histogram for edges it is given
        check_cast("add", _np.int64, _np.bool_)
    host_edges = edges.astype(_np.float64)
    if weights is not None and weights.dtype.kind == "c":
        re, total_re = _core._histogram(a, host_edges, uniform, weights.real)
        im, total_im = _core._histogram(a, host_edges, uniform, weights.imag)
        n = (re + 1j * im).astype(weights.dtype)
        total = (total_re + 1j * total_im).astype(weights.dtype)   # density divides by the complex sum
    else:
        n, total = _core._histogram(a, host_edges, uniform, weights)
        if weights is not None:
            n = n.astype(weights.dtype)
            # density divides by NumPy's n.sum(): for bool weights, the number of True bins
            total = _core.sum(n) if weights.dtype.kind == "b" else total.astype(weights.dtype)
    bin_edges = _core.asarray(edges, device=a.device)
    if density:
        db = _core.asarray(_np.diff(edges).astype(_np.float64), device=a.device)   # NumPy's widths: float
        return n / db / total, bin_edges
    return n, bin_edges


def _monotonicity(bins):
    """1 when bins increase, -1 when they decrease, 0 otherwise: NumPy's check_array_monotonic,
    whose direction is set by the first element unequal to bins[0], a NaN one counting as
    decreasing (so [0, nan] decreases)."""
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1
                         else "object of too small depth for desired array")
    if bins.dtype.kind == "c":   # NumPy reads bins as float64
        raise TypeError(f"Cannot cast array data from {bins.dtype!r} to dtype('float64') according to the rule 'safe'")
    if bins.size <= 1:
        return 1
    unequal = _core.not_equal(bins[1:], bins[0])
    first = int(_core.argmax(unequal)) + 1
    if not bool(unequal[first - 1]):
        return 1   # all equal
    if bool(_core.less(bins[0], bins[first])):
        return 1 if _core._count_true(_core.greater(bins[:-1], bins[1:])) == 0 else 0
    return -1 if _core._count_true(_core.less(bins[:-1], bins[1:])) == 0 else 0


def digitize(x, bins, right=False):
    """numpy.digitize: the index of the bin each element of x falls in (int64)."""
    x = _as(x)
    bins = _as(bins, x.device)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return bins.shape[0] - _core.searchsorted(bins[::-1], x, side=side)
    return _core.searchsorted(bins, x, side=side)


# ---------------------------------------------------------------- median, quantile

def _reduce_axes(a, axis):
    """(arr, axis, kept): a with the reduced axes merged into one (axis), and the shape keepdims
    gives the result's trailing part."""
    if axis is None:
        return _core.ravel(a), 0, (1,) * a.ndim
    nd = a.ndim
    norm = _normalize_axis_tuple(axis, nd)
    kept = tuple(1 if d in norm else a.shape[d] for d in range(nd))
    if len(norm) == 1:
        return a, norm[0], kept
    rest = [d for d in range(nd) if d not in norm]
    moved = _core.transpose(a, rest + list(norm))
    n = 1
    for d in norm:
        n *= a.shape[d]
    shape = tuple(a.shape[d] for d in rest) + (n,)   # not -1: unresolvable when a kept axis is empty
    return _core.reshape(moved, shape), len(rest), kept


def _finish(r, out, keepdims, kept, lead=()):
    if keepdims:
        r = r.reshape(tuple(lead) + kept)
    if out is not None:
        out[...] = r
        return out
    return r


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.median: the middle value (or the mean of the two middle ones) along axis; NaN where a
    slice holds a NaN."""
    a = _as(a)
    arr, ax, kept = _reduce_axes(a, axis)
    n = arr.shape[ax]
    inexact = arr.dtype.kind in "fc"
    if n == 0:
        import warnings
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)   # NumPy's mean's words
    kth = [n // 2 - 1, n // 2] if n % 2 == 0 else [(n - 1) // 2]
    if inexact and n:
        kth.append(n - 1)
    part = _core.partition(arr, [k for k in kth if k >= 0], axis=ax) if n else arr
    kind = arr.dtype.kind
    acc = _np.float64 if kind in "biu" else (_np.float32 if arr.dtype == _np.float16 else arr.dtype)
    res = _np.float64 if kind in "biu" else arr.dtype
    lead = (slice(None),) * ax
    if n == 0:
        shape = arr.shape[:ax] + arr.shape[ax + 1:]
        r = _core.full(shape, _np.nan, dtype=res, device=a.device)
    elif n % 2:
        r = part[lead + (n // 2,)].astype(acc)
    else:
        r = (part[lead + (n // 2 - 1,)].astype(acc) + part[lead + (n // 2,)].astype(acc)) / 2
    r = r.astype(res, copy=False)
    if inexact and n:
        r = _core.where(_core.isnan(part[lead + (n - 1,)]), part[lead + (n - 1,)].astype(res), r)
    return _finish(r, out, keepdims, kept)


_QUANTILE_METHODS = {}


def _discrete_to_boundaries(index, gamma_condition):
    previous = _np.floor(index)
    gamma = index - previous
    res = _np.where(gamma_condition(gamma, index), previous, previous + 1).astype(_np.intp)
    res[res < 0] = 0
    return res


def _virtual_index(n, q, alpha, beta):
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


# name: (virtual index from (n, q), gamma fix or None for integer methods), in NumPy's order
_QUANTILE_METHODS.update({
    "inverted_cdf": (lambda n, q: _discrete_to_boundaries(n * q - 1, lambda g, _: g == 0), None),
    "averaged_inverted_cdf": (lambda n, q: n * q - 1, lambda g, _: _np.where(g == 0, 0.5, 1.0)),
    "closest_observation": (lambda n, q: _discrete_to_boundaries(
        n * q - 1 - 0.5, lambda g, i: (g == 0) & (_np.floor(i) % 2 == 1)), None),
    "interpolated_inverted_cdf": (lambda n, q: _virtual_index(n, q, 0, 1), lambda g, _: g),
    "hazen": (lambda n, q: _virtual_index(n, q, 0.5, 0.5), lambda g, _: g),
    "weibull": (lambda n, q: _virtual_index(n, q, 0, 0), lambda g, _: g),
    "linear": (lambda n, q: (n - 1) * q, lambda g, _: g),
    "median_unbiased": (lambda n, q: _virtual_index(n, q, 1 / 3.0, 1 / 3.0), lambda g, _: g),
    "normal_unbiased": (lambda n, q: _virtual_index(n, q, 3 / 8.0, 3 / 8.0), lambda g, _: g),
    "lower": (lambda n, q: _np.floor((n - 1) * q).astype(_np.intp), None),
    "higher": (lambda n, q: _np.ceil((n - 1) * q).astype(_np.intp), None),
    "midpoint": (lambda n, q: 0.5 * (_np.floor((n - 1) * q) + _np.ceil((n - 1) * q)),
                 lambda g, i: _np.where(i % 1 == 0, 0.0, 0.5)),
    "nearest": (lambda n, q: _np.around((n - 1) * q).astype(_np.intp), None),
})


def _quantile(a, q, axis, out, method, keepdims, weak_q, what):
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_QUANTILE_METHODS.keys()}")
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    arr, ax, kept = _reduce_axes(a, axis)
    arr = _core.moveaxis(arr, ax, 0)
    n = arr.shape[0]
    if n == 0:   # NumPy's error kind (its take of index n - 1); median and the nan* ones give NaN
        raise IndexError(f"{what} of an empty axis: index {-1 if arr.dtype.kind == 'f' else 0} is out of bounds "
                         "for axis 0 with size 0")
    get_index, fix_gamma = _QUANTILE_METHODS[method]
    vidx = _np.asanyarray(get_index(n, q))
    supports_nans = arr.dtype.kind == "f"
    device = a.device
    if fix_gamma is None or (method == "linear" and _np.issubdtype(vidx.dtype, _np.integer)):
        kth = sorted({int(k) for k in vidx.ravel()} | ({n - 1} if supports_nans else set()))
        part = _core.partition(arr, kth, axis=0)
        result = _core.take(part, _core.asarray(vidx, device=device), axis=0)
    else:
        prev = _np.floor(vidx)
        nxt = prev + 1
        above = vidx >= n - 1
        prev = _np.where(above, -1, prev)
        nxt = _np.where(above, -1, nxt)
        below = vidx < 0
        prev = _np.where(below, 0, prev)
        nxt = _np.where(below, 0, nxt)
        if arr.dtype.kind == "f":
            nans = _np.isnan(vidx)
            prev = _np.where(nans, -1, prev)
            nxt = _np.where(nans, -1, nxt)
        prev = prev.astype(_np.intp)
        nxt = nxt.astype(_np.intp)
        kth = sorted({0, n - 1} | {int(k) % n for k in prev.ravel()} | {int(k) % n for k in nxt.ravel()})
        part = _core.partition(arr, kth, axis=0)
        below_arr = _core.take(part, _core.asarray(prev, device=device), axis=0)
        above_arr = _core.take(part, _core.asarray(nxt, device=device), axis=0)
        gamma = _np.asanyarray(fix_gamma(_np.asanyarray(vidx - prev), vidx), dtype=vidx.dtype)
        if weak_q:
            gamma = float(gamma)
            t = gamma
            upper = gamma >= 0.5
        else:
            gamma = gamma.reshape(vidx.shape + (1,) * (arr.ndim - 1))
            t = _core.asarray(gamma, device=device)
            upper = _core.asarray(gamma >= 0.5, device=device)
        diff = above_arr - below_arr
        lerp = below_arr + diff * t
        high = (above_arr - diff * (1 - t)).astype(lerp.dtype)
        if isinstance(upper, bool):
            result = high if upper else lerp
        else:
            result = _core.where(upper, high, lerp)
        if out is not None:   # NumPy interpolates into out with its ufuncs: same_kind
            check_cast("add", result.dtype, out.dtype)
    if supports_nans and n:
        last = part[n - 1]
        result = _core.where(_core.isnan(last), last.astype(result.dtype), result)
    return _finish(result, out, keepdims, kept, lead=q.shape)


def _quantile_args(a, q):
    a = _as(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    if isinstance(q, _core.ndarray):
        q = q.get()
    return a, q, weak_q


def _quantile_valid(q):
    return q.size == 0 or bool(_np.all((q >= 0) & (q <= 1)))


def _checked_quantiles(a, q, percent, weights=None, axis=None, method=None):
    """(a, q as fractions in [0, 1], weak_q, weights) for quantile, percentile and their nan-
    forms, checked as NumPy checks them; weights: None, or checked and of a's shape."""
    a, q, weak_q = _quantile_args(a, q)
    q = _np.asanyarray(_np.true_divide(q, 100) if percent else q)
    if not _quantile_valid(q):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else
                         "Quantiles must be in the range [0, 1]")
    if weights is not None:
        weights = checked_weights(a, weights, axis, method)
    return a, q, weak_q, weights


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None):
    """numpy.quantile (every method of NumPy's; weights= with 'inverted_cdf', as NumPy's): the
    q-th quantiles along axis."""
    a, q, weak_q, weights = _checked_quantiles(a, q, False, weights, axis, method)
    if weights is not None:
        return weighted_quantile(a, q, axis, out, keepdims, weights, skip_nans=False)
    return _quantile(a, q, axis, out, method, keepdims, weak_q, "Quantiles")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None):
    """numpy.percentile: the q-th percentiles (0..100) along axis (weights= as quantile's)."""
    a, q, weak_q, weights = _checked_quantiles(a, q, True, weights, axis, method)
    if weights is not None:
        return weighted_quantile(a, q, axis, out, keepdims, weights, skip_nans=False)
    return _quantile(a, q, axis, out, method, keepdims, weak_q, "Percentiles")


# ---------------------------------------------------------------- select, place, extract

def select(condlist, choicelist, default=0):
    """numpy.select: from choicelist, the first choice whose condition holds, else default."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    from ._array_api import result_type
    device = next((c.device for c in list(condlist) + list(choicelist) if isinstance(c, _core.ndarray)), None)
    choices = [c if type(c) in (int, float, complex) else _as(c, device) for c in choicelist]
    dflt = default if type(default) in (int, float, complex) else _as(default, device)
    try:
        dtype = result_type(*choices, dflt)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    # then NumPy makes int64/float64/complex128 arrays of the Python scalars: the default fills
    # the result unchecked (-1 with uint8 choices is 255), the choices are copied in same_kind
    if type(dflt) in (int, float, complex):
        dflt = _np.asarray(dflt).astype(dtype)
    for i, c in enumerate(choices):
        if type(c) in (int, float, complex):
            c = _np.asarray(c)
            if not _np.can_cast(c.dtype, dtype, "same_kind"):
                raise TypeError(f"Cannot cast array data from {c.dtype!r} to {_np.dtype(dtype)!r} according to the "
                                "rule 'same_kind'")
            choices[i] = c.astype(dtype)
    conds = [_as(c, device) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    arrays = conds + [c for c in choices + [dflt] if isinstance(c, _core.ndarray)]
    shape = _core.broadcast_arrays(*arrays)[0].shape if len(arrays) > 1 else arrays[0].shape
    result = _core.full(shape, dflt if not isinstance(dflt, _core.ndarray) else 0, dtype=dtype,
                        device=conds[0].device)
    if isinstance(dflt, _core.ndarray):
        result[...] = dflt
    for choice, cond in zip(reversed(choices), reversed(conds)):
        result = _core.where(cond, choice, result).astype(dtype, copy=False)
    return result


def place(arr, mask, vals):
    """numpy.place: arr's elements where mask is true set to vals, repeated as needed (in place)."""
    if not isinstance(arr, _core.ndarray):
        raise TypeError(f"argument 1 must be pygpu.ndarray, not {type(arr).__name__}")
    mask = _as(mask, arr.device).astype(_np.bool_, copy=False)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    mask = mask.reshape(arr.shape)
    n = _core._count_true(mask)
    if n == 0:
        return
    vals = values_as(vals, arr.dtype, arr.device)
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[mask] = _core.take(vals, _core.arange(n, device=arr.device), mode="wrap")


def extract(condition, arr):
    """numpy.extract: the elements of arr (flattened) where condition (flattened) is true."""
    arr = _as(arr)
    cond = _core.ravel(_as(condition, arr.device))
    return _core.take(_core.ravel(arr), _core.flatnonzero(cond))


# the weighted forms are made of this module's helpers: imported once they are all defined
from ._weighted_quantiles import checked_weights, weighted_quantile  # noqa: E402
