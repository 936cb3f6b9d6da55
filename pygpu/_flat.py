"""ndarray.flat: the array seen as 1-d in C order, as NumPy's flatiter: indexing it reads and
writes through to the array (a[...].flat[::4] = 0 sets the diagonal of a square C array), and
iterating it gives the elements in C order."""
import numpy as _np

from . import _core
from ._index_tricks import unravel_index
from ._manipulation import resize


class flatiter:
    """A 1-d view of `base` in C order (NumPy's numpy.flatiter)."""

    def __init__(self, base):
        self.base = base

    def _view(self):
        """The 1-d view, where base's layout has one (C-contiguous), else None."""
        return self.base.reshape(-1) if self.base.flags.c_contiguous else None

    def __len__(self):
        return self.base.size

    def __getitem__(self, key):
        v = self._view()
        return (v if v is not None else self.base.ravel())[key]

    def __setitem__(self, key, value):
        v = self._view()
        if v is not None:
            v[key] = value
            return
        # a strided array: the C-order positions key selects, as multi-indices into base
        positions = _core.arange(self.base.size, device=self.base.device)[key]
        self.base[unravel_index(positions, self.base.shape)] = value

    def __iter__(self):
        return iter(self.base.ravel())

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self.base.ravel(), dtype=dtype)

    def copy(self):
        """The elements as a new 1-d array."""
        return self.base.flatten()

    def __repr__(self):
        return f"<pygpu flatiter of {self.base.shape} {self.base.dtype}>"


def _get_flat(self):
    """The array seen as 1-d in C order (reads and writes through), as NumPy's a.flat."""
    return flatiter(self)


def _set_flat(self, value):
    """a.flat = value: every element, the values repeated in C order as NumPy's."""
    value = value if isinstance(value, _core.ndarray) else _core.asarray(value, device=self.device)
    self[...] = resize(value.astype(self.dtype, copy=False), self.shape) if value.size != 1 else value.reshape(())


_core._add_methods({"flat": property(_get_flat, _set_flat)})
