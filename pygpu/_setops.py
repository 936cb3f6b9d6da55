"""NumPy's set routines on 1-d arrays (numpy/lib/_arraysetops_impl.py is the reference): union,
intersection, difference and symmetric difference as sorted unique values, built on
pygpu.unique, sort and isin so that they run on the arrays' device; ediff1d and sort_complex."""
import numpy as _np

import pygpu as _pg

__all__ = ["union1d", "intersect1d", "setdiff1d", "setxor1d", "ediff1d", "sort_complex"]


def _flat(a):
    return _pg.asarray(a).reshape(-1)


def union1d(ar1, ar2):
    """The sorted unique values that are in either array."""
    return _pg.unique(_pg.concatenate((_flat(ar1), _flat(ar2))))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted unique values in both arrays; with return_indices, also where each first
    occurs in ar1 and in ar2 (flattened)."""
    ar1, ar2 = _flat(ar1), _flat(ar2)
    if not assume_unique:
        if return_indices:
            ar1, first1 = _pg.unique(ar1, return_index=True)
            ar2, first2 = _pg.unique(ar2, return_index=True)
        else:
            ar1, ar2 = _pg.unique(ar1), _pg.unique(ar2)
    both = _pg.concatenate((ar1, ar2))
    if return_indices:
        order = _pg.argsort(both, kind="stable")
        both = _pg.take(both, order)
    else:
        both = _pg.sort(both)
    twice = both[1:] == both[:-1]
    common = both[:-1][twice]
    if not return_indices:
        return common
    in1 = order[:-1][twice]
    in2 = order[1:][twice] - ar1.shape[0]
    if not assume_unique:
        in1, in2 = _pg.take(first1, in1), _pg.take(first2, in2)
    return common, in1, in2


def setdiff1d(ar1, ar2, assume_unique=False):
    """The unique values of ar1 that are not in ar2 (sorted, unless assume_unique keeps ar1's
    order)."""
    ar1 = _flat(ar1) if assume_unique else _pg.unique(ar1)
    ar2 = _flat(ar2) if assume_unique else _pg.unique(ar2)
    return ar1[_pg.isin(ar1, ar2, assume_unique=True, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted unique values in exactly one of the arrays."""
    if not assume_unique:
        ar1, ar2 = _pg.unique(ar1), _pg.unique(ar2)
    both = _pg.sort(_pg.concatenate((_flat(ar1), _flat(ar2))))
    if both.shape[0] == 0:
        return both
    edge = _pg.ones(1, dtype=bool, device=both.device)
    differs = _pg.concatenate((edge, both[1:] != both[:-1], edge))
    return both[differs[1:] & differs[:-1]]


def _ends(values, dtype, which):
    if values is None:
        return None
    values = _pg.asarray(values)
    if not _np.can_cast(values.dtype, dtype, casting="same_kind"):
        raise TypeError(f"dtype of `{which}` must be compatible with input `ary` under the `same_kind` rule.")
    return values.astype(dtype).reshape(-1)


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of consecutive elements of the flattened array, with to_begin before
    and to_end after them (in ary's dtype)."""
    ary = _flat(ary)
    begin, end = _ends(to_begin, ary.dtype, "to_begin"), _ends(to_end, ary.dtype, "to_end")
    parts = [p for p in (begin, (ary[1:] - ary[:-1]).astype(ary.dtype), end) if p is not None]
    return _pg.concatenate(parts) if len(parts) > 1 else parts[0]


def sort_complex(a):
    """a sorted by real part, then imaginary part, as complex numbers (NumPy's result types:
    complex64 for 8- and 16-bit integers, complex128 for other real types)."""
    b = _pg.sort(_pg.asarray(a))
    if _np.issubdtype(b.dtype, _np.complexfloating):
        return b
    return b.astype(_np.complex64 if b.dtype.char in "bhBH" else _np.complex128)
