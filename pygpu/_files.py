"""NumPy's file formats for pygpu arrays, as CuPy has them: save, savez, savez_compressed and
savetxt write host copies with NumPy's own writers (the files are NumPy's, readable by either);
load reads with NumPy and puts the arrays on the current device (the arrays of an .npz file as
each is asked for, as NumPy's NpzFile reads them)."""
import numpy as _np

import pygpu as _pg
from . import _core

__all__ = ["save", "savez", "savez_compressed", "savetxt", "load"]


def save(file, arr, allow_pickle=True):
    """Write arr (a pygpu or NumPy array, or anything NumPy takes) to a NumPy .npy file."""
    _np.save(file, _pg.asnumpy(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Write several arrays to one uncompressed .npz file (positional ones as arr_0, arr_1, ...)."""
    _np.savez(file, *[_pg.asnumpy(a) for a in args], allow_pickle=allow_pickle,
              **{k: _pg.asnumpy(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Write several arrays to one compressed .npz file."""
    _np.savez_compressed(file, *[_pg.asnumpy(a) for a in args], allow_pickle=allow_pickle,
                         **{k: _pg.asnumpy(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):
    """Write a 1-d or 2-d array to a text file (numpy.savetxt's arguments)."""
    _np.savetxt(fname, _pg.asnumpy(X), *args, **kwargs)


def _to_device(value):
    """A loaded NumPy array as a pygpu array on the current device; other objects (allowed by
    allow_pickle) as they are."""
    if isinstance(value, _np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("the file holds an array of Python objects (dtype object): pygpu arrays hold numbers; "
                            "read it with numpy.load(..., allow_pickle=True)")
        return _core.asarray(value)
    return value


class NpzFile:
    """The arrays of an .npz file by name, each read and put on the device when asked for (as
    numpy.lib.npyio.NpzFile, whose `files`, `keys()`, `items()`, `get()` and `close()` it has);
    a context manager that closes the file."""

    def __init__(self, npz):
        self.npz = npz
        self.files = npz.files

    def __getitem__(self, key):
        return _to_device(self.npz[key])

    def __contains__(self, key):
        return key in self.npz

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return self.npz.keys()

    def items(self):
        return [(k, self[k]) for k in self.files]

    def values(self):
        return [self[k] for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self.npz else default

    def close(self):
        self.npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "pygpu NpzFile of %s" % (self.files,)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000):
    """The array of a .npy file on the current device, or an NpzFile for an .npz file (its arrays
    read as asked for); pickled objects, with allow_pickle=True, as they are. mmap_mode maps the
    file before the copy to the device, as NumPy does before CuPy's copy."""
    loaded = _np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                      encoding=encoding, max_header_size=max_header_size)
    if isinstance(loaded, _np.lib.npyio.NpzFile):
        return NpzFile(loaded)
    return _to_device(loaded)
