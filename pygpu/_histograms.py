"""NumPy's bin edges and multidimensional histograms (numpy/lib/_histograms_impl.py is the
reference): the edges come from the host numbers NumPy would use (the data's range, computed
on the device); each sample's bin index per dimension is a searchsorted on the device, and the
counts one bincount of the flattened bin indices."""
import operator

import numpy as _np

import pygpu as _pg
from ._sorting import _bin_edges, _histogram_data, _numpy_histogram, _outer_edges

__all__ = ["histogram_bin_edges", "histogramdd", "histogram2d"]


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002 (NumPy's name)
    """The edges numpy.histogram would use: for a number of bins, given edges, or an estimator
    of the width ('auto', 'fd', 'doane', 'scott', 'rice', 'sturges', 'sqrt')."""
    a = _histogram_data(a)
    if a.dtype.kind == "c":
        return _numpy_histogram("histogram_bin_edges", a.device, a, bins, range=range, weights=weights)
    edges, _ = _bin_edges(a, bins, range, weights)
    return _pg.asarray(edges, device=a.device)


def _samples(sample):
    """The samples as an (N, D) array: from one, or from a sequence of D 1-d arrays."""
    if isinstance(sample, _pg.ndarray) or (hasattr(sample, "ndim") and hasattr(sample, "shape")):
        s = _pg.asarray(sample)
        return s.reshape(-1, 1) if s.ndim == 1 else s
    return _pg.stack([_pg.asarray(x) for x in sample], axis=1)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """The D-dimensional histogram of N samples ((N, D), or D arrays of N): (hist, [edges per
    dimension]); counts are float64, as NumPy's; samples on the last edge count in the last bin."""
    s = _samples(sample)
    if s.dtype.kind == "c":
        return _numpy_histogram("histogramdd", s.device, s, bins, range=range, density=density, weights=weights)
    n, d = s.shape
    try:
        if len(bins) != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:   # a number of bins (or a 0-d array): for every dimension
        bins = [bins] * d
    if range is None:
        range = (None,) * d   # noqa: A001
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    if weights is not None:
        weights = _pg.asarray(weights, device=s.device)
    edges, index = [], []
    for i in _np.arange(d):
        column = s[:, int(i)]
        b = bins[int(i)]
        if _np.ndim(b) == 0:
            try:
                count = operator.index(b)
            except TypeError:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from None
            if count < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            first, last = _outer_edges(column, range[int(i)])
            e = _np.linspace(first, last, count + 1)
        else:
            e = b.get() if isinstance(b, _pg.ndarray) else _np.asarray(b)
            if e.ndim != 1:
                raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
            if _np.any(e[:-1] > e[1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        device_edges = _pg.asarray(e, device=s.device)
        k = _pg.searchsorted(device_edges, column, side="right")
        # the last edge closes the last bin
        k = _pg.where(column == device_edges[-1], k - 1, k)
        edges.append(device_edges)
        index.append(k)
    nbin = tuple(int(e.shape[0]) + 1 for e in edges)   # an outlier bin before and after each
    flat = _pg.ravel_multi_index(tuple(index), nbin) if n else _pg.zeros(0, dtype=_np.int64, device=s.device)
    size = 1
    for m in nbin:
        size *= m
    hist = _pg.bincount(flat, weights=weights, minlength=size).reshape(nbin)
    hist = hist[(slice(1, -1),) * d].astype(_np.float64 if weights is None or weights.dtype.kind != "c"
                                            else weights.dtype)
    if density:
        total = hist.sum()
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = e.shape[0] - 1
            hist = hist / _pg.diff(e).reshape(shape)
        hist = hist / total
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """The 2-d histogram of (x, y) samples: (hist, xedges, yedges)."""
    x, y = _pg.asarray(x), _pg.asarray(y)
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError("x and y must be 1-d arrays of one length")
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb != 1 and nb != 2:   # NumPy's reading: one sequence of edges for both
        bins = [bins, bins]
    hist, (xedges, yedges) = histogramdd([x, y], bins, range, density, weights)
    return hist, xedges, yedges
