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
        self.index = 0       # the next element __next__ gives (NumPy's flatiter.index)
        self._flat = None

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
        positions = None
        if v is None or not isinstance(key, slice):
            # the C-order positions key selects (as multi-indices into a strided base)
            positions = _core.arange(self.base.size, device=self.base.device)[key]
        if _np.ndim(value) > 0 and (positions is None or positions.ndim > 0):
            # NumPy's flat assignment takes the values in C order, repeated or cut to the
            # number of elements selected: a.flat[::2] = [1, 2] fills 1, 2, 1, 2, ...
            value = value if isinstance(value, _core.ndarray) else _core.asarray(value, device=self.base.device)
            shape = positions.shape if positions is not None else (len(range(*key.indices(self.base.size))),)
            count = int(_np.prod(shape))
            if value.size != count and value.size > 0:
                value = resize(value.ravel(), count)
            value = value.reshape(shape)
        if v is not None:
            v[key] = value
        else:
            self.base[unravel_index(positions, self.base.shape)] = value

    def __iter__(self):
        return self

    def __next__(self):
        """The next element in C order (NumPy's flatiter is its own iterator)."""
        if self.index >= self.base.size:
            raise StopIteration
        if self._flat is None:
            self._flat = self.base.ravel()
        self.index += 1
        return self._flat[self.index - 1]

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
