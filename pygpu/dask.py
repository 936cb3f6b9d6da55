"""pygpu arrays as Dask chunks (issue 20). Importing this module (Dask's backend entry point
`pygpu` does, as does `import pygpu` when Dask is already imported) registers pygpu.ndarray with
Dask: as a chunk type, so that Dask arrays and pygpu arrays combine; in Dask's dispatch tables
(concatenate, take, tensordot, einsum, percentile, numel, nannumel, empty, to_numpy) and its
sizeof; and a `to_pygpu` dispatch for Array.to_backend("pygpu").

    dask.config.set({"array.backend": "pygpu"})     # da.ones, da.random.* ... make pygpu chunks
    x = da.from_array(pygpu.arange(10**6), chunks=10**5)
    x.to_backend("numpy")                             # NumPy chunks; .to_backend("pygpu") back

The chunks live on the current pygpu device of the worker that computes them; a pygpu array that
reaches a worker through dask.distributed lands on that worker's default device, so a graph runs
on mixed clusters (pygpu/_distributed.py). Dask's blocked
linear algebra (da.linalg.lu, solve, inv, cholesky, solve_triangular, lstsq) runs pygpu.linalg's
lu and solve_triangular on pygpu blocks where Dask calls SciPy's. pygpu.dask.LocalCluster starts
one worker per GPU (and CPU workers beside them, for mixed clusters)."""
import uuid

import dask.array as da
import numpy as np
from dask import config
from dask.array.backends import ArrayBackendEntrypoint, _nannumel, _numel_arraylike, percentile
from dask.array.backends import array_creation_dispatch
from dask.array.core import Array
from dask.highlevelgraph import HighLevelGraph
from dask.array.dispatch import (concatenate_lookup, einsum_lookup, empty_lookup, nannumel_lookup, numel_lookup,
                                 percentile_lookup, take_lookup, tensordot_lookup, to_numpy_dispatch)
from dask.sizeof import sizeof
from dask.utils import Dispatch

import pygpu

__all__ = ["LocalCluster", "PygpuBackendEntrypoint", "to_pygpu_dispatch"]

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
        return pygpu.einsum(*operands, **kwargs)   # casting= and order= as NumPy's

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


def __getattr__(name):
    if name == "LocalCluster":   # one worker per GPU (pygpu/_cluster.py); needs dask.distributed
        from ._cluster import LocalCluster
        return LocalCluster
    raise AttributeError(f"module 'pygpu.dask' has no attribute {name!r}")


def _has_pygpu_meta(values):
    """Whether a Dask array among values (or in a tuple or list of them) has pygpu chunks."""
    return any(_has_pygpu_meta(v) if isinstance(v, (tuple, list)) else isinstance(getattr(v, "_meta", None),
                                                                                   pygpu.ndarray) for v in values)


def _pygpu_meta(x):
    """An empty pygpu array of x's dtype and dimensions: a Dask array's meta for pygpu chunks."""
    return pygpu.empty((0,) * x.ndim, dtype=x.dtype)


def _to_pygpu_chunks(x):
    """x with each chunk converted to a pygpu array (a no-op for those that are) and a pygpu meta."""
    return x.map_blocks(pygpu.asarray, dtype=x.dtype, meta=_pygpu_meta(x))


def _as_pygpu_meta(result):
    """A Dask array (or each of a tuple's or list's) whose chunks are pygpu arrays, with a pygpu
    meta; an empty one, whose chunks Dask makes afresh with NumPy (da.empty), converted to pygpu."""
    if isinstance(result, (tuple, list)):
        return type(result)(_as_pygpu_meta(r) for r in result)
    if not isinstance(result, Array) or isinstance(result._meta, pygpu.ndarray):
        return result
    if result.size == 0:
        return _to_pygpu_chunks(result)
    return Array(result.dask, result.name, result.chunks, meta=_pygpu_meta(result))


def _pygpu_metas(original):
    """A Dask function that builds its result without its input's meta (`Array(graph, name,
    chunks, dtype)`, or a map_blocks that probes NumPy): the same, with a pygpu meta when an input
    has one (its chunks are pygpu arrays all the same)."""
    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        return _as_pygpu_meta(result) if _has_pygpu_meta(list(args) + list(kwargs.values())) else result
    return _wrapper_of(wrapped, original)


def _pygpu_backend(original):
    """A Dask function that makes index arrays with da.arange & co. (argwhere, nonzero), which
    follow the array backend: for pygpu inputs, with the backend set to pygpu, so the whole result
    is pygpu chunks."""
    def wrapped(*args, **kwargs):
        if not _has_pygpu_meta(list(args) + list(kwargs.values())):
            return original(*args, **kwargs)
        with config.set({"array.backend": "pygpu"}):
            return _as_pygpu_meta(original(*args, **kwargs))
    return _wrapper_of(wrapped, original)


def _wrapper_of(wrapped, original):
    wrapped.__name__ = original.__name__
    wrapped.__qualname__ = original.__qualname__
    wrapped.__doc__ = original.__doc__
    wrapped.__wrapped__ = original
    wrapped._pygpu_original = original   # the mark of pygpu's wrapper (Dask's own have __wrapped__)
    return wrapped


# The Dask functions whose results lose a pygpu input's meta (found by tests/dask's sweep of
# operations against NumPy with Dask's own assert_eq), by module.
_META_LOSERS = {
    "dask.array": ["histogram", "gradient", "apply_along_axis", "extract", "coarsen", "quantile",
                   "nanquantile", "percentile", "nanpercentile", "nanmedian", "ravel_multi_index"],
    "dask.array.routines": ["gradient", "apply_along_axis", "extract", "coarsen", "ravel_multi_index"],
    "dask.array.reductions": ["nanmedian", "prefixscan_blelloch"],   # cumsum(method="blelloch")
    "dask.array.rechunk": ["rechunk"],   # an empty array rechunked is da.empty's NumPy chunks
    "dask.array.slicing": ["slice_with_bool_dask_array"],   # x[mask], looked up at each call
    "dask.array.fft": ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn",
                       "rfft2", "irfft2", "rfftn", "irfftn"],
}
_BACKEND_FOLLOWERS = {"dask.array": ["argwhere", "nonzero", "flatnonzero"],
                      "dask.array.routines": ["argwhere", "nonzero", "flatnonzero"]}


def _wrap_all(table, wrapper):
    import importlib
    for module_name, names in table.items():
        module = importlib.import_module(module_name)
        for name in names:
            original = getattr(module, name, None)
            if original is not None and not hasattr(original, "_pygpu_original"):
                setattr(module, name, wrapper(original))


def _pygpu_histograms(original):
    """da.histogram2d and da.histogramdd: Dask sums the chunks' NumPy-typed histograms (its own
    meta), which leaves NumPy counts; for samples with pygpu chunks, the counts as pygpu blocks with
    a pygpu meta, as da.histogram gives them."""
    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        samples = [v for a in list(args) + list(kwargs.values()) for v in (a if isinstance(a, (tuple, list)) else (a,))]
        if not _has_pygpu_meta(samples):
            return result
        return (_to_pygpu_chunks(result[0]),) + tuple(result[1:])
    return _wrapper_of(wrapped, original)


def _pygpu_chunks(original):
    """A Dask function whose result may hold NumPy chunks for pygpu input (da.average's
    sum_of_weights: a NumPy scalar broadcast): each array of the result as pygpu chunks."""
    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        if not _has_pygpu_meta(list(args) + list(kwargs.values())):
            return result
        results = result if isinstance(result, tuple) else (result,)
        converted = tuple(_to_pygpu_chunks(r) if isinstance(r, Array) else r for r in results)
        return converted if isinstance(result, tuple) else converted[0]
    return _wrapper_of(wrapped, original)


def _pygpu_when_backend(original):
    """A Dask creation function that makes NumPy chunks whatever the array backend (da.eye,
    da.linspace): pygpu chunks when the backend is pygpu, as da.ones & co. give them."""
    def wrapped(*args, **kwargs):
        result = original(*args, **kwargs)
        if config.get("array.backend", "numpy") != "pygpu" or not isinstance(result, Array):
            return result
        return _to_pygpu_chunks(result)
    return _wrapper_of(wrapped, original)


def _posify_pygpu(original):
    """Dask's posify_index (negative indices made positive, on the host, where Dask plans which
    chunk each index reads) for a pygpu index array: as the NumPy array it is read as (Dask left
    it negative, and its in-chunk index then wrapped around as an unsigned one)."""
    def wrapped(shape, ind):
        return original(shape, pygpu.asnumpy(ind) if isinstance(ind, pygpu.ndarray) else ind)
    return _wrapper_of(wrapped, original)


def _fft_wrap_pygpu(original):
    """da.fft.fft_wrap(f): the wrapped transform gives pygpu metas for pygpu inputs, as the named
    da.fft functions do."""
    def wrapped(*args, **kwargs):
        return _pygpu_metas(original(*args, **kwargs))
    return _wrapper_of(wrapped, original)


def _unique_pygpu(original):
    """da.unique with return_index/return_inverse/return_counts: Dask's way merges the chunks'
    answers in a structured array, which pygpu has not; for pygpu chunks it runs on the arrays'
    NumPy form (on the CPU device, their memory) and gives pygpu chunks back."""
    def wrapped(ar, *args, **kwargs):
        if not (_has_pygpu_meta([ar]) and (any(args) or any(kwargs.values()))):
            return original(ar, *args, **kwargs)
        result = original(ar.to_backend("numpy"), *args, **kwargs)
        return tuple(r.to_backend("pygpu") for r in result) if isinstance(result, tuple) else \
            result.to_backend("pygpu")
    return _wrapper_of(wrapped, original)


def _scipy_linalg_safe(original):
    """Dask's scipy_linalg_safe (the SciPy routine of a block: solve_triangular in lu, solve,
    inv, cholesky and lstsq), taking pygpu's for pygpu blocks (pygpu.linalg.solve_triangular)."""
    def wrapped(func_name, *args, **kwargs):
        if isinstance(args[0], pygpu.ndarray):
            return getattr(pygpu.linalg, func_name)(*args, **kwargs)
        return original(func_name, *args, **kwargs)
    return _wrapper_of(wrapped, original)


def _retarget(task, replace):
    """A legacy Dask task (a tuple whose head is callable; nested tasks, lists of keys) with its
    callables looked up in `replace`."""
    if isinstance(task, tuple) and task and callable(task[0]):
        return (replace.get(task[0], task[0]),) + tuple(_retarget(t, replace) for t in task[1:])
    if isinstance(task, list):
        return [_retarget(t, replace) for t in task]
    return task


def _pygpu_lu(original):
    """da.linalg.lu (and so solve and inv, which call it): Dask writes scipy.linalg.lu into the
    tasks of the diagonal blocks and numpy.zeros into the zero blocks; for a pygpu array both
    become pygpu's, so every block of P, L and U is a pygpu array."""
    import scipy.linalg

    def wrapped(a):
        factors = original(a)
        if not isinstance(getattr(a, "_meta", None), pygpu.ndarray):
            return factors
        replace = {scipy.linalg.lu: pygpu.linalg.lu, np.zeros: pygpu.zeros}   # float64 zeros, as np.zeros
        layer = factors[0].dask.layers[factors[0].name]
        tasks = {key: _retarget(task, replace) for key, task in layer.items()}
        return tuple(Array(HighLevelGraph.from_collections(f.name, tasks, dependencies=[a]), f.name,
                           chunks=f.chunks, meta=_pygpu_meta(f)) for f in factors)
    return _wrapper_of(wrapped, original)


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
_wrap_all(_META_LOSERS, _pygpu_metas)
_wrap_all(_BACKEND_FOLLOWERS, _pygpu_backend)
_wrap_all({"dask.array": ["histogram2d", "histogramdd"], "dask.array.routines": ["histogram2d", "histogramdd"]},
          _pygpu_histograms)
_wrap_all({"dask.array.utils": ["scipy_linalg_safe"]}, _scipy_linalg_safe)
_wrap_all({"dask.array.slicing": ["posify_index"]}, _posify_pygpu)
_wrap_all({"dask.array": ["average"], "dask.array.routines": ["average"]}, _pygpu_chunks)
_wrap_all({"dask.array": ["eye", "linspace"], "dask.array.creation": ["eye", "linspace"]}, _pygpu_when_backend)
_wrap_all({"dask.array.fft": ["fft_wrap"]}, _fft_wrap_pygpu)
_wrap_all({"dask.array": ["unique"], "dask.array.routines": ["unique"]}, _unique_pygpu)
try:
    _wrap_all({"dask.array.linalg": ["lu"]}, _pygpu_lu)
except ImportError:   # without SciPy Dask has no lu either
    pass
pygpu._core._add_methods({"__dask_tokenize__": _tokenize})
try:
    from . import _distributed  # noqa: F401  (dask.distributed's serializers, when it is installed)
except ImportError:
    pass
# the backend under its name at once (the entry point finds the same class: for checkouts that
# are on sys.path without installed metadata, and so that the first lookup costs nothing)
array_creation_dispatch.register_backend("pygpu", PygpuBackendEntrypoint())
