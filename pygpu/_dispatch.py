"""NumPy's functions on pygpu arrays: ndarray.__array_function__ (NEP 18).

One table maps each NumPy function to pygpu's: `np.concatenate(pygpu_arrays)` runs
pygpu.concatenate on the arrays' device and returns a pygpu array. The table is built on the first
dispatch from three sources:

  1. the pygpu namespace: every public pygpu function whose name NumPy also has
     (pygpu.concatenate for numpy.concatenate, pygpu.sum for numpy.sum, ...);
  2. submodules: pygpu.linalg for numpy.linalg, pygpu.fft for numpy.fft, ..., by name likewise,
     when they exist. A submodule may also hold a dict
     `_NUMPY_FUNCTIONS = {numpy_function: pygpu_function}` for functions whose names differ;
  3. explicit entries: `register(numpy_function, pygpu_function)` (or as a decorator,
     `@register(numpy.foo)`), from any module.

A NumPy function with no entry runs NumPy's own implementation when every pygpu array among its
arguments is on the CPU device: NumPy reads them through the buffer protocol, zero-copy, as
np.asarray does, and the arrays it returns come back as pygpu arrays. With an array on a GPU it
raises TypeError naming the function: pygpu never copies device arrays to the host behind the
user's back. A function pygpu has takes the same route when an argument is one no pygpu dtype
holds (None, str, objects); NumPy's results of such dtypes stay NumPy arrays. The same holds for NumPy's ufuncs pygpu lacks (np.frexp, np.ldexp, ...), which
reach array_ufunc below through ndarray.__array_ufunc__, as do the ones pygpu implements in
Python (registered with register_gufunc: numpy.matmul, vecdot, gcd, divmod, ...).
"""
import importlib
import inspect
import types as _types

import numpy as _np

from . import _core
from ._ufunc_on_host import is_numpy_out, store_into, with_numpy_out

# numpy namespace -> pygpu module name, mapped by function name
_SUBMODULES = {"numpy.linalg": "pygpu.linalg", "numpy.fft": "pygpu.fft", "numpy.emath": "pygpu.emath",
               "numpy.lib.stride_tricks": "pygpu.lib.stride_tricks"}

_explicit = {}
_table = None
_gufuncs = {}   # name of a NumPy gufunc -> pygpu function
_out_positions = {}   # NumPy function -> the position of its out parameter (None: keyword-only or none)


def register(numpy_function, implementation=None):
    """Maps numpy_function to implementation for __array_function__ (usable as a decorator)."""
    def add(impl):
        global _table
        _explicit[numpy_function] = impl
        _table = None   # rebuilt on the next dispatch
        return impl
    return add if implementation is None else add(implementation)


def _is_function(obj):
    return callable(obj) and not isinstance(obj, (type, _types.ModuleType, _np.ufunc, _core.ufunc))


def _by_name(np_namespace, pg_namespace, table):
    for name in dir(pg_namespace):
        if name.startswith("_"):
            continue
        np_func = getattr(np_namespace, name, None)
        pg_func = getattr(pg_namespace, name)
        if _is_function(np_func) and _is_function(pg_func):
            table[np_func] = pg_func
    table.update(getattr(pg_namespace, "_NUMPY_FUNCTIONS", {}))


def _build():
    import pygpu
    table = {}
    _by_name(_np, pygpu, table)
    for np_name, pg_name in _SUBMODULES.items():
        try:
            pg_mod = importlib.import_module(pg_name)
        except ModuleNotFoundError as e:
            if e.name != pg_name:
                raise
            continue
        np_mod = _np
        for part in np_name.split(".")[1:]:   # numpy.emath is an attribute of numpy, not a module path
            np_mod = getattr(np_mod, part)
        _by_name(np_mod, pg_mod, table)
    table.update(_explicit)
    return table


def implementation(numpy_function):
    """pygpu's function for numpy_function, or None."""
    global _table
    if _table is None:
        _table = _build()
    return _table.get(numpy_function)


def _name(func):
    module = getattr(func, "__module__", None) or "numpy"
    return f"{module}.{getattr(func, '__name__', repr(func))}"


def _pygpu_arrays(obj, depth=0):
    """The pygpu arrays among a call's arguments (inside lists, tuples and dicts too)."""
    if isinstance(obj, _core.ndarray):
        yield obj
    elif depth < 3 and isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _pygpu_arrays(item, depth + 1)
    elif depth < 3 and isinstance(obj, dict):
        for item in obj.values():
            yield from _pygpu_arrays(item, depth + 1)


def _all_on_cpu(args, kwargs):
    return all(a.device.kind == "cpu" for a in _pygpu_arrays((args, kwargs)))


def _to_pygpu(result):
    """NumPy's results as pygpu arrays on the CPU device (numbers and other objects as they are,
    and NumPy arrays of dtypes pygpu lacks, object or str, stay NumPy's)."""
    if isinstance(result, _np.ndarray):
        from ._array_api import _SUPPORTED
        return _core.asarray(result) if result.dtype in _SUPPORTED else result
    if isinstance(result, tuple) and hasattr(result, "_fields"):
        return type(result)(*[_to_pygpu(r) for r in result])
    if isinstance(result, (tuple, list)):
        return type(result)(_to_pygpu(r) for r in result)
    return result


def _not_implemented(what):
    return TypeError(f"{what} is not implemented for pygpu arrays on a GPU; pygpu does not copy them to the host "
                     "implicitly: call it on pygpu.asnumpy(x) to run NumPy's version")


_UNSUPPORTED_DTYPE = "pygpu does not support dtype"   # the start of pygpu's TypeError for such a dtype


def _no_host_fallback(func, error):
    """The TypeError of NumPy's func called with an argument pygpu has no arrays of (None, a str,
    objects) and pygpu arrays on a GPU: NumPy's version would run on them in host memory (as it
    does for arrays on the CPU device), and pygpu does not copy device arrays to the host implicitly."""
    return TypeError(f"{_name(func)} got an argument pygpu has no arrays of ({str(error).split(';')[0]}) with "
                     "pygpu arrays on a GPU: NumPy's version needs them in host memory, and pygpu does not copy "
                     "device arrays to the host implicitly; copy them with .get() or pygpu.asnumpy() (or use "
                     "arrays on the CPU device) to run NumPy's version")


def _out_position(func):
    try:
        return _out_positions[func]
    except KeyError:
        pass
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        params = []
    pos = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    _out_positions[func] = pos.index("out") if "out" in pos else None
    return _out_positions[func]


def _numpy_out_at(func, args, kwargs):
    """Where the call passes NumPy arrays as func's out=: "out", its position in args, or None."""
    if "out" in kwargs:
        return "out" if is_numpy_out(kwargs["out"]) else None
    i = _out_position(func)
    return i if i is not None and i < len(args) and is_numpy_out(args[i]) else None


def _asks_unsupported_dtype(kwargs):
    """Whether the call asks for a dtype pygpu has no arrays of (np.empty_like(x, dtype=[...])):
    the TypeError is the answer then, as CuPy's (Dask's arg reductions catch it and take dicts)."""
    dtype = kwargs.get("dtype")
    if dtype is None:
        return False
    try:
        dtype = _np.dtype(dtype)
    except TypeError:
        return False
    return dtype.fields is not None or dtype.kind in "OSUVMm"


def array_function(self, func, types, args, kwargs):
    """ndarray.__array_function__: NumPy's func called with pygpu arrays among its arguments."""
    for t in types:
        if not issubclass(t, (_core.ndarray, _np.ndarray)):
            return NotImplemented   # another library's array: let it answer
    impl = implementation(func)
    at = _numpy_out_at(func, args, kwargs)
    numpy_impl = getattr(func, "_implementation", None)
    if impl is not None:
        if at is not None:   # np.sum(pygpu_array, out=numpy_array): computed, then stored into it
            return with_numpy_out(getattr(func, "__name__", "?"), impl, args, kwargs, at)
        try:
            return impl(*args, **kwargs)
        except TypeError as e:
            # an argument pygpu cannot hold (None, str, objects: matplotlib's np.broadcast_arrays(x,
            # height, ..., hatch=None)): NumPy's answer on zero-copy views of CPU memory, as for
            # the functions pygpu lacks; any other error stays pygpu's; with arrays on a GPU, an
            # error that says why NumPy's answer is not taken (no implicit copy to the host)
            if not str(e).startswith(_UNSUPPORTED_DTYPE) or numpy_impl is None or _asks_unsupported_dtype(kwargs):
                raise
            if not _all_on_cpu(args, kwargs):
                raise _no_host_fallback(func, e) from e
            return _to_pygpu(numpy_impl(*args, **kwargs))
    if numpy_impl is None or not _all_on_cpu(args, kwargs):
        raise _not_implemented(_name(func))
    result = numpy_impl(*args, **kwargs)   # zero-copy views of CPU memory
    if at is not None and result is (kwargs["out"] if at == "out" else args[at]):
        return result   # NumPy's out= itself, not a pygpu copy of it
    return _to_pygpu(result)


def register_gufunc(name, implementation):
    """Runs `implementation` for NumPy's ufunc `name` called on pygpu arrays: one that is not
    elementwise ("matmul"), or one pygpu computes in Python ("gcd", "divmod")."""
    _gufuncs[name] = implementation


def array_ufunc(ufunc, method, *inputs, **kwargs):
    """ndarray.__array_ufunc__ for the NumPy ufuncs pygpu's op table does not have."""
    impl = _gufuncs.get(getattr(ufunc, "__name__", None))
    if impl is None or method != "__call__":
        if method == "__call__" and "out" not in kwargs and _all_on_cpu(inputs, kwargs) and \
                all(isinstance(x, (_core.ndarray, _np.ndarray, int, float, complex, bool, _np.generic)) for x in inputs):
            views = [_np.asarray(x) if isinstance(x, _core.ndarray) else x for x in inputs]
            return _to_pygpu(ufunc(*views, **kwargs))   # NumPy's loop on zero-copy views of CPU memory
        return NotImplemented
    if kwargs.get("axes") == [(-2, -1)] * 3 and ufunc.__name__ == "matmul":
        del kwargs["axes"]   # NumPy's a @= b passes matmul's default axes
    out = kwargs.pop("out", None)
    outs = out if isinstance(out, tuple) else (out,)
    if all(o is None or isinstance(o, _core.ndarray) for o in outs):
        if out is not None:
            kwargs["out"] = outs[0] if len(outs) == 1 else outs
        return impl(*inputs, **kwargs)
    # a NumPy out= (numpy_array @= pygpu_array, np.divmod(..., out=(q, r))): pygpu's results stored
    # into the outputs, as NumPy's casting allows, on the CPU device
    results = impl(*inputs, **kwargs)
    results = results if isinstance(results, tuple) else (results,)
    if len(outs) != len(results):
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    stored = tuple(store_into(ufunc.__name__, r, o, kwargs.get("casting", "same_kind")) for r, o in zip(results, outs))
    return stored if len(stored) > 1 else stored[0]


_core._add_methods({"__array_function__": array_function})
