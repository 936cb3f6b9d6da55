"""Device arrays of records (NumPy structured dtypes) for cuda.jit kernels, as Numba's
DeviceRecord arrays: `cuda.to_device(recs)`, `cuda.device_array(n, dtype=rec_dtype)`, passed to
kernels (which read and write `r[i].x`), `copy_to_host()`.

pygpu's arrays hold numbers; a record array keeps its records' bytes in a uint8 pygpu array of one
more dimension (the record's itemsize), which kernels receive as an array of records (the launch
reads `_pygpu_record_bytes`: jit/launch.c pack_records). A field (`d['x']`) is a pygpu array view
of those bytes, so the usual array functions work on it."""
import numpy as np

from .. import _core


class DeviceRecordArray:
    """An array of records on a device: shape, dtype (structured), the records' bytes."""

    def __init__(self, record_bytes, dtype):
        self._pygpu_record_bytes = record_bytes
        self.dtype = np.dtype(dtype)

    @property
    def shape(self):
        return tuple(self._pygpu_record_bytes.shape[:-1])

    @property
    def ndim(self):
        return self._pygpu_record_bytes.ndim - 1

    @property
    def size(self):
        return int(np.prod(self.shape))

    @property
    def strides(self):
        return tuple(self._pygpu_record_bytes.strides[:-1])

    @property
    def device(self):
        return self._pygpu_record_bytes.device

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d record array")
        return self.shape[0]

    def copy_to_host(self, ary=None, stream=0):
        """The records as a NumPy structured array (into `ary` when given), as Numba's."""
        raw = self._pygpu_record_bytes.copy_to_host(stream=stream)
        host = np.ascontiguousarray(raw).view(self.dtype).reshape(self.shape)
        if ary is None:
            return host
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise ValueError("copy_to_host into an array of shape %s and dtype %s, not %s and %s"
                             % (self.shape, self.dtype, ary.shape, ary.dtype))
        ary[...] = host
        return ary

    def copy_to_device(self, ary, stream=0):
        """Writes the records of a NumPy structured array of the same shape and dtype."""
        ary = np.asarray(ary)
        if ary.shape != self.shape or ary.dtype != self.dtype:
            raise ValueError("copy_to_device from an array of shape %s and dtype %s into one of %s and %s"
                             % (ary.shape, ary.dtype, self.shape, self.dtype))
        self._pygpu_record_bytes[...] = _bytes_of(ary)

    def get(self):
        return self.copy_to_host()

    def __getitem__(self, key):
        """A field (d['x']: a pygpu array of it, sharing the memory), or records (d[1:3])."""
        if isinstance(key, str):
            if key not in (self.dtype.names or ()):
                raise KeyError("no field %r in %s" % (key, self.dtype))
            fdt, offset = self.dtype.fields[key][:2]
            if fdt.subdtype is not None or fdt.names is not None:
                raise TypeError("field %r is a %s: fields of numbers can be viewed" % (key, fdt))
            part = self._pygpu_record_bytes[..., offset:offset + fdt.itemsize]
            return part.view(fdt)[..., 0]
        key = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in key):
            raise IndexError("an Ellipsis in the index of a record array")
        picked = self._pygpu_record_bytes[key + (slice(None),)]
        if picked.ndim == 1:   # one record: its values, as NumPy gives a np.void
            return np.ascontiguousarray(picked.get()).view(self.dtype)[0]
        return DeviceRecordArray(picked, self.dtype)

    def __repr__(self):
        return "<pygpu.cuda record array of shape %s, dtype %s on %s>" % (self.shape, self.dtype, self.device)


def _bytes_of(ary):
    """The bytes of a structured NumPy array as a uint8 array of one more dimension."""
    ary = np.ascontiguousarray(ary)
    return ary.view(np.uint8).reshape(ary.shape + (ary.dtype.itemsize,))


def is_record_dtype(dtype):
    try:
        return np.dtype(dtype).names is not None
    except TypeError:
        return False


def to_device(ary):
    """A NumPy structured array on the current device."""
    ary = np.asarray(ary)
    return DeviceRecordArray(_core.asarray(_bytes_of(ary), device=_core.get_device(), copy=True), ary.dtype)


def empty(shape, dtype):
    """An uninitialised (zeroed) record array on the current device."""
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
    dtype = np.dtype(dtype)
    return DeviceRecordArray(_core.zeros(shape + (dtype.itemsize,), dtype=np.uint8, device=_core.get_device()),
                             dtype)
