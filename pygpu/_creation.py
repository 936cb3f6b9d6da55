"""The rest of NumPy's array creation: array with ndmin=, and the NEP 35 creation functions that
read host data (frombuffer, fromiter, fromstring, fromfile, loadtxt, genfromtxt: NumPy parses,
one copy to the device) or call a function on index grids (fromfunction). With `like=` a pygpu
array, NumPy sends each here (NumPy drops `like` before dispatching; it is accepted for calls
made directly)."""
import pickle as _pickle

import numpy as _np

import pygpu as _pg
from . import _core

__all__ = ["array", "fromfunction", "frombuffer", "fromiter", "fromstring", "fromfile", "loadtxt", "genfromtxt"]


def array(obj, dtype=None, device=None, copy=True, order="K", *, subok=False, ndmin=0, like=None):
    """A pygpu array of obj, copied unless copy is False or None (as asarray); ndmin prepends
    dimensions of length 1 up to that many."""
    a = _core.array(obj, dtype=dtype, device=device, copy=copy, order=order)
    if ndmin > a.ndim:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices(shape)): the function called once on the index grids (device arrays),
    as NumPy calls it."""
    return function(*_pg.indices(shape, dtype=dtype), **kwargs)


def _to_device(host):
    return _core.asarray(host)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """The bytes of a host buffer read as a 1-d array of dtype, copied to the device."""
    return _to_device(_np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromiter(iter, dtype, count=-1, *, like=None):   # noqa: A002 (NumPy's name)
    """A 1-d array of the iterable's items, copied to the device."""
    return _to_device(_np.fromiter(iter, dtype=dtype, count=count))


def fromstring(string, dtype=float, count=-1, *, sep="", like=None):
    """The numbers in a text string separated by sep, as a 1-d array on the device."""
    return _to_device(_np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """An array read from a binary or text file (NumPy reads it), on the device."""
    return _to_device(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def loadtxt(*args, like=None, **kwargs):
    """numpy.loadtxt's array, on the device."""
    return _to_device(_np.loadtxt(*args, **kwargs))


def genfromtxt(*args, like=None, **kwargs):
    """numpy.genfromtxt's array, on the device (masked results are not supported: usemask=False)."""
    if kwargs.get("usemask"):
        raise TypeError("genfromtxt(usemask=True) makes a masked array: pygpu has none")
    return _to_device(_np.genfromtxt(*args, **kwargs))


# ------------------------------------------------------------------ ndarray methods NumPy has

def _dot(self, b, out=None):
    """The dot product with b, as pygpu.dot(a, b)."""
    return _pg.dot(self, b, out=out)


def _clip(self, min=None, max=None, out=None, **kwargs):   # noqa: A002 (NumPy's names)
    """The values limited to [min, max], as pygpu.clip(a, min, max)."""
    return _pg.clip(self, min, max, out=out, **kwargs)


def _conj(self):
    """The complex conjugate; a real array itself, as NumPy's method returns it (not a copy)."""
    return _pg.conj(self) if self.dtype.kind == "c" else self


def _round(self, decimals=0, out=None):
    """Rounded to decimals places (halves to even), as pygpu.round(a, decimals)."""
    return _pg.round(self, decimals=decimals, out=out)


def _tobytes(self, order="C"):
    """The elements' bytes in C (or F) order: read from the device, as the name says."""
    return self.get().tobytes(order=order)


def _tofile(self, fid, sep="", format="%s"):   # noqa: A002 (NumPy's name)
    """Writes the elements to a file (read from the device first), as numpy.ndarray.tofile."""
    self.get().tofile(fid, sep=sep, format=format)


def _dumps(self):
    """The array pickled (its device and data), as bytes."""
    return _pickle.dumps(self, protocol=_pickle.HIGHEST_PROTOCOL)


def _dump(self, file):
    """The array pickled into a file (a path or an open binary file)."""
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "wb") as f:
            _pickle.dump(self, f, protocol=_pickle.HIGHEST_PROTOCOL)
    else:
        _pickle.dump(self, file, protocol=_pickle.HIGHEST_PROTOCOL)


def _sizeof(self):
    """The object and, for an array that owns its memory, its data: what Dask's and
    distributed's memory accounting read through sys.getsizeof."""
    return object.__sizeof__(self) + (self.nbytes if self.base is None else 0)


_core._add_methods({"dot": _dot, "clip": _clip, "conj": _conj, "conjugate": _conj, "round": _round,
                    "tobytes": _tobytes, "tofile": _tofile, "dumps": _dumps, "dump": _dump, "__sizeof__": _sizeof})
