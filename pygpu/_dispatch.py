"""NumPy's functions on pygpu arrays: ndarray.__array_function__ (NEP 18).

One table maps each NumPy function to pygpu's: `np.concatenate(pygpu_arrays)` runs
pygpu.concatenate on the arrays' device and returns a pygpu array. The table is built on the first
dispatch from three sources:

  1. the pygpu namespace: every public pygpu function whose name NumPy also has
     (pygpu.concatenate for numpy.concatenate, pygpu.sum for numpy.sum, ...);
  2. submodules: pygpu.linalg for numpy.linalg and pygpu.fft for numpy.fft, by name likewise,
     when they exist. A submodule may also hold a dict
     `_NUMPY_FUNCTIONS = {numpy_function: pygpu_function}` for functions whose names differ;
  3. explicit entries: `register(numpy_function, pygpu_function)` (or as a decorator,
     `@register(numpy.foo)`), from any module.

A NumPy function with no entry raises TypeError naming it: pygpu never copies arrays to the host
behind the user's back. ufuncs do not come here (they go through __array_ufunc__), except NumPy's
ufuncs that are not elementwise (numpy.matmul, vecdot, matvec, vecmat): ndarray.__array_ufunc__
passes those to array_ufunc below, which runs the pygpu function registered for the name with
register_gufunc.
"""
import importlib
import types as _types

import numpy as _np

from . import _core

# numpy namespace -> pygpu module name, mapped by function name
_SUBMODULES = {"numpy.linalg": "pygpu.linalg", "numpy.fft": "pygpu.fft"}

_explicit = {}
_table = None
_gufuncs = {}   # name of a NumPy gufunc -> pygpu function


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
        _by_name(importlib.import_module(np_name), pg_mod, table)
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


def array_function(self, func, types, args, kwargs):
    """ndarray.__array_function__: NumPy's func called with pygpu arrays among its arguments."""
    for t in types:
        if not issubclass(t, (_core.ndarray, _np.ndarray)):
            return NotImplemented   # another library's array: let it answer
    impl = implementation(func)
    if impl is None:
        raise TypeError(f"{_name(func)} is not implemented for pygpu arrays; pygpu does not copy them to the host "
                        "implicitly: call it on pygpu.asnumpy(x) to run NumPy's version")
    return impl(*args, **kwargs)


def register_gufunc(name, implementation):
    """Runs `implementation` for NumPy's ufunc `name` called on pygpu arrays: one that is not
    elementwise ("matmul"), or one pygpu computes in Python ("gcd", "divmod")."""
    _gufuncs[name] = implementation


def array_ufunc(ufunc, method, *inputs, **kwargs):
    """ndarray.__array_ufunc__ for the NumPy ufuncs pygpu's op table does not have."""
    impl = _gufuncs.get(getattr(ufunc, "__name__", None))
    if impl is None or method != "__call__":
        return NotImplemented
    out = kwargs.get("out")
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        kwargs["out"] = out[0]
    return impl(*inputs, **kwargs)


_core._add_methods({"__array_function__": array_function})
