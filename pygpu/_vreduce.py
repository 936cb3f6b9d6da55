"""Reductions and scans with a user's binary function as the combiner: pygpu.reduce (and Numba's
cuda.reduce spelling), and .reduce / .accumulate of vectorize functions of two arguments.

The combiner runs as a VM program (vectorize): a reduction halves the data each step (the first
half combined with the second, an odd last element kept aside), log2(n) passes of n/2, n/4, ...
elements; a scan doubles its reach each step (Hillis and Steele). Both assume an associative
combiner, as Numba's does."""
import operator

import numpy as np

from . import _core
from ._vectorize import vectorize


def _as_device_array(arr, device=None):
    if isinstance(arr, _core.ndarray):
        return arr
    return _core.asarray(arr, device=device)


def _empty_reduction(uf, shape, initial, device):
    if initial is None:
        raise ValueError(f"zero-size array to reduction operation {uf.__name__} which has no identity")
    return _core.full(shape, initial, device=device)


def tree_reduce(uf, arr, axis=0, dtype=None, out=None, keepdims=False, initial=None):
    """uf.reduce: arr reduced along axis (an int, a tuple, or None for all axes) with the binary
    ufunc uf."""
    a = _as_device_array(arr, uf.target)
    if dtype is not None:
        a = a.astype(dtype)
    if axis is None:
        axes = tuple(range(a.ndim))
    elif isinstance(axis, tuple):
        axes = tuple(operator.index(x) for x in axis)
    else:
        axes = (operator.index(axis),)
    nd = a.ndim
    norm = []
    for x in axes:
        if not -nd <= x < nd:
            raise np.exceptions.AxisError(x, nd)
        norm.append(x % nd)
    if len(set(norm)) != len(norm):
        raise ValueError("duplicate value in 'axis'")
    kept = [i for i in range(nd) if i not in norm]
    kept_shape = tuple(a.shape[i] for i in kept)
    n = 1
    for i in norm:
        n *= a.shape[i]
    # the reduced axes in front, merged into one
    work = _core.permute_dims(a, tuple(norm) + tuple(kept)).reshape((n,) + kept_shape)
    if n == 0:
        result = _empty_reduction(uf, kept_shape, initial if initial is not None else vars(uf).get("_identity"),
                                  a.device)
    else:
        leftovers = []
        while work.shape[0] > 1:
            m = work.shape[0]
            h = m // 2
            if m % 2:
                leftovers.append(work[m - 1])
            work = uf(work[:h], work[h:2 * h])
        result = work[0]
        for rest in reversed(leftovers):
            result = uf(result, rest)
        if initial is not None:
            result = uf(initial, result)
    if keepdims:
        full = [1] * nd
        for i, s in zip(kept, kept_shape):
            full[i] = s
        result = result.reshape(tuple(full))
    if out is not None:
        out[...] = result
        return out
    return result


def tree_accumulate(uf, arr, axis=0, dtype=None, out=None):
    """uf.accumulate: the running combination along axis (log2(n) passes)."""
    a = _as_device_array(arr, uf.target)
    if dtype is not None:
        a = a.astype(dtype)
    if a.ndim == 0:
        raise ValueError("accumulate: a 0-d array has no axis to accumulate along")
    axis = operator.index(axis)
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(axis, a.ndim)
    moved = _core.moveaxis(a, axis, 0)
    n = moved.shape[0]
    # the result's dtype: what one combination of two elements gives
    probe = uf(moved[:1], moved[:1]) if n else moved
    result = moved.astype(probe.dtype)  # a copy, combined in place
    k = 1
    while k < n:
        uf(result[:n - k], result[k:], out=result[k:])  # overlapping: buffered as NumPy does
        k *= 2
    result = _core.moveaxis(result, 0, axis)
    if out is not None:
        out[...] = result
        return out
    return result


def attach(uf):
    """Gives a binary vectorize function NumPy's .reduce and .accumulate."""
    if uf.nin != 2:
        return uf

    def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None):
        """The reduction of array along axis with this function (NumPy's ufunc.reduce)."""
        return tree_reduce(uf, array, axis, dtype, out, keepdims, initial)

    def accumulate(array, axis=0, dtype=None, out=None):
        """The running reduction of array along axis (NumPy's ufunc.accumulate)."""
        return tree_accumulate(uf, array, axis, dtype, out)

    uf.reduce = reduce
    uf.accumulate = accumulate
    return uf


class Reduce:
    """A reduction with a binary Python function (Numba's cuda.reduce): r = Reduce(lambda a, b: a + b);
    r(arr, size=None, res=None, init=0, stream=0) gives the combination of arr's elements (and
    init) as a Python number, or stores it in res[0]."""

    def __init__(self, functor):
        self.functor = functor
        self.ufunc = attach(vectorize(functor))
        if self.ufunc.nin != 2:
            raise TypeError("reduce needs a function of two arguments")

    def __repr__(self):
        return f"<pygpu.reduce {getattr(self.functor, '__name__', self.functor)!r}>"

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        from .cuda import _on_stream
        with _on_stream(stream):
            a = _as_device_array(arr)
            a = a.reshape(-1) if a.ndim != 1 else a
            if size is not None:
                a = a[:size]
            if a.size == 0:
                value = _core.asarray(init, device=a.device)
            else:
                value = tree_reduce(self.ufunc, a, 0, initial=init)
            if res is not None:
                res[0] = value
                return None
            return value.item()


def reduce(functor):
    """pygpu.reduce(f): a reduction whose combiner is the binary Python function f (Numba's
    cuda.reduce). The function is compiled like vectorize's."""
    return Reduce(functor)
