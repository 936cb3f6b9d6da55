"""pygpu arrays as Dask chunks (issue 20). Importing this module (Dask's backend entry point
`pygpu` does, as does `import pygpu` when Dask is already imported) registers pygpu.ndarray with
Dask: as a chunk type, so that Dask arrays and pygpu arrays combine; in Dask's dispatch tables
(concatenate, take, tensordot, einsum, percentile, numel, nannumel, empty, to_numpy) and its
sizeof; and a `to_pygpu` dispatch for Array.to_backend("pygpu").

    dask.config.set({"array.backend": "pygpu"})     # da.ones, da.random.* ... make pygpu chunks
    x = da.from_array(pygpu.arange(10**6), chunks=10**5)
    x.to_backend("numpy")                             # NumPy chunks; .to_backend("pygpu") back

The chunks live on the current pygpu device of the worker that computes them."""
import uuid

import dask.array as da
import numpy as np
from dask import config
from dask.array.backends import ArrayBackendEntrypoint, _nannumel, _numel_arraylike, percentile
from dask.array.backends import array_creation_dispatch
from dask.array.core import Array
from dask.array.dispatch import (concatenate_lookup, einsum_lookup, empty_lookup, nannumel_lookup, numel_lookup,
                                 percentile_lookup, take_lookup, tensordot_lookup, to_numpy_dispatch)
from dask.sizeof import sizeof
from dask.utils import Dispatch

import pygpu

to_pygpu_dispatch = Dispatch("to_pygpu")


def _register():
    da.register_chunk_type(pygpu.ndarray)
    concatenate_lookup.register(pygpu.ndarray, pygpu.concatenate)
    take_lookup.register(pygpu.ndarray, pygpu.take)
    tensordot_lookup.register(pygpu.ndarray, pygpu.tensordot)
    percentile_lookup.register(pygpu.ndarray, percentile)   # Dask's, whose np.percentile is pygpu's
    numel_lookup.register(pygpu.ndarray, _numel_arraylike)
    nannumel_lookup.register(pygpu.ndarray, _nannumel)
    empty_lookup.register(pygpu.ndarray, pygpu.empty)

    @einsum_lookup.register(pygpu.ndarray)
    def _einsum(*operands, **kwargs):
        kwargs.pop("casting", None)   # Dask passes NumPy's; pygpu.einsum casts safely as NumPy's default
        kwargs.pop("order", None)
        return pygpu.einsum(*operands, **kwargs)

    @to_numpy_dispatch.register(pygpu.ndarray)
    def _to_numpy(data, **kwargs):
        return pygpu.asnumpy(data)

    @to_pygpu_dispatch.register(np.ndarray)
    def _from_numpy(data, **kwargs):
        return pygpu.asarray(data, **kwargs)

    @to_pygpu_dispatch.register(pygpu.ndarray)
    def _same(data, **kwargs):
        return data

    @sizeof.register(pygpu.ndarray)
    def _sizeof(x):
        return int(x.nbytes)


def _identity(block):
    return block


def _pygpu_metas(original):
    """A Dask function that builds its result without a meta of its input's type (da.histogram:
    `Array(graph, name, chunks, dtype=...)`, a NumPy meta over pygpu chunks): the same, with pygpu
    metas when the input has one. The only Dask functions pygpu.dask wraps."""
    def wrapped(a, *args, **kwargs):
        result = original(a, *args, **kwargs)
        if not isinstance(getattr(a, "_meta", None), pygpu.ndarray):
            return result
        first = result[0] if isinstance(result, tuple) else result
        if isinstance(first, Array) and not isinstance(first._meta, pygpu.ndarray):
            first = first.map_blocks(_identity, meta=pygpu.empty((0,) * first.ndim, dtype=first.dtype))
        return (first,) + tuple(result[1:]) if isinstance(result, tuple) else first
    wrapped.__name__ = original.__name__
    wrapped.__qualname__ = original.__qualname__
    wrapped.__doc__ = original.__doc__
    wrapped.__wrapped__ = original
    return wrapped


def _tokenize(self):
    """A token for Dask's graph keys that reads no data: arrays are mutable and may live on a
    GPU, so each call gives a fresh one (no two arrays, nor two states of one, share a key)."""
    return ("pygpu.ndarray", uuid.uuid4().hex)


def _with_pygpu_meta(function, /, *args, meta=None, **kwargs):
    # positional-only: Dask passes name= (the graph key's name) through to da.zeros & co.
    meta = pygpu.empty((0,)) if meta is None else meta
    with config.set({"array.backend": "numpy"}):
        return getattr(da, function)(*args, meta=meta, **kwargs)


class PygpuBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend `pygpu`: creation functions and random numbers make pygpu chunks."""

    def __init__(self):
        pass   # the registrations ran when this module was imported

    @classmethod
    def to_backend_dispatch(cls):
        return to_pygpu_dispatch

    @classmethod
    def to_backend(cls, data: Array, **kwargs):
        if isinstance(data._meta, pygpu.ndarray):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        return pygpu.random.RandomState

    @property
    def default_bit_generator(self):
        return pygpu.random.Philox4x32

    @staticmethod
    def ones(*args, **kwargs):
        return _with_pygpu_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_pygpu_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_pygpu_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_pygpu_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        like = pygpu.empty((0,)) if like is None else like
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


_register()
if not hasattr(da.histogram, "__wrapped__"):
    da.histogram = _pygpu_metas(da.histogram)
pygpu._core._add_methods({"__dask_tokenize__": _tokenize})
try:
    from . import _distributed  # noqa: F401  (dask.distributed's serializers, when it is installed)
except ImportError:
    pass
# the backend under its name at once (the entry point finds the same class: for checkouts that
# are on sys.path without installed metadata, and so that the first lookup costs nothing)
array_creation_dispatch.register_backend("pygpu", PygpuBackendEntrypoint())
