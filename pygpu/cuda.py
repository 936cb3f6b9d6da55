"""Numba's ``numba.cuda`` names over pygpu, so notebooks written for Numba run unchanged.

Arrays are created on the current pygpu device: ``cuda:0`` when a usable GPU exists, else the
CPU device, where the same code runs (slower) with no GPU at all. ``stream`` arguments take
``0`` (the default stream) or a :class:`pygpu.Stream`.

Kernels: ``@cuda.jit`` (pygpu/_jit/cudajit.py) compiles Numba's CUDA Python to CUDA C, run by
NVRTC on a GPU and by the host C++ compiler on the CPU; the names kernels use (``cuda.grid``,
``cuda.threadIdx``, ``cuda.shared.array``, ``cuda.atomic.add``, ...) are here too.

Differences from Numba worth knowing:

* ``pinned_array`` returns a NumPy array over page-locked host memory, as Numba does; its
  ``.base`` is the pygpu array that owns the memory (``memory_kind == 'pinned'``).
* ``mapped_array`` and ``managed_array`` return pygpu arrays (``memory_kind`` ``'mapped'`` /
  ``'managed'``) usable on the device and, through the buffer protocol, zero-copy from NumPy
  (``numpy.asarray(a)``).
* On the CPU device every memory kind is ordinary host memory; the arrays still report the kind
  that was asked for.
"""
import contextlib

import numpy as np

from . import _core

__all__ = [
    "to_device", "device_array", "device_array_like", "pinned_array", "mapped_array",
    "managed_array", "synchronize", "is_available", "detect", "device_count",
    "unavailable_reason", "stream", "default_stream", "event", "as_cuda_array",
    "is_cuda_array", "get_current_device", "reduce", "Reduce",
    # kernels (pygpu/_jit/cudajit.py) and the names used inside them (pygpu/_jit/stubs.py)
    "jit", "threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "grid", "gridsize", "shared",
    "local", "const", "atomic", "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp",
    "threadfence", "threadfence_block", "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "activemask", "lanemask_lt", "popc", "clz",
    "ffs", "brev", "fma",
]


def device_count():
    """The number of usable CUDA devices (0 when there is no GPU, driver or runtime)."""
    return _core._cuda_device_count()[0]


def is_available():
    """True when a usable CUDA device is present."""
    return device_count() > 0


def unavailable_reason():
    """Why CUDA is unavailable, in words ('' when it is available)."""
    n, reason = _core._cuda_device_count()
    return "" if n > 0 else reason


def get_current_device():
    """The pygpu.Device that these functions allocate on."""
    return _core.get_device()


def detect():
    """Prints the CUDA devices (as numba.cuda.detect does); True when at least one is usable."""
    n = device_count()
    if n == 0:
        print("CUDA is not available: %s" % unavailable_reason())
        print("pygpu runs on the CPU device instead.")
        return False
    print("Found %d CUDA devices" % n)
    for i in range(n):
        dev = _core.Device("cuda:%d" % i)
        try:
            props = dev.properties()
        except Exception as e:  # a device that fails to initialise is reported, not fatal
            print("id %d    %-40s [NOT SUPPORTED: %s]" % (i, "?", e))
            continue
        print("id %d    %-40s [SUPPORTED]" % (i, props.get("name", "?")))
        for key in sorted(props):
            if key != "name":
                print("%40s: %s" % (key.replace("_", " ").capitalize(), props[key]))
    print("Summary:\n\t%d/%d devices are supported" % (n, n))
    return True


def synchronize():
    """Waits for all work queued on the current device."""
    _core.synchronize()


def stream():
    """A new pygpu.Stream on the current device (numba.cuda.stream)."""
    return _core.Stream()


def default_stream():
    """The default stream: pass ``0`` (or use this value) wherever a stream is taken."""
    return 0


def event(timing=True):
    """A new pygpu.Event (numba.cuda.event)."""
    return _core.Event()


@contextlib.contextmanager
def _on_stream(s):
    if s is None or (isinstance(s, int) and not isinstance(s, bool) and s == 0):
        yield
    elif isinstance(s, _core.Stream):
        with s:
            yield
    else:
        raise TypeError("stream must be 0 or a pygpu.Stream, not %s" % type(s).__name__)


def _check_strides(shape, dtype, strides, order):
    """Numba's strides= argument: accepted when it describes the dense C or F layout."""
    if order not in ("C", "F"):
        raise ValueError("order must be 'C' or 'F', not %r" % (order,))
    if strides is None:
        return order
    shape = (shape,) if np.ndim(shape) == 0 else tuple(shape)
    strides = (strides,) if np.ndim(strides) == 0 else tuple(strides)
    itemsize = np.dtype(dtype).itemsize
    for o, dims in (("C", range(len(shape) - 1, -1, -1)), ("F", range(len(shape)))):
        expect, acc = [0] * len(shape), itemsize
        for d in dims:
            expect[d] = acc
            acc *= shape[d]
        if tuple(expect) == strides:
            return o
    raise ValueError("pygpu allocates dense arrays only: strides %r describe neither the C nor the F "
                     "layout of shape %r" % (strides, shape))


def _empty(shape, dtype, strides, order, kind):
    order = _check_strides(shape, dtype, strides, order)
    return _core._empty_kind(shape, dtype, order, _core.get_device(), kind)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised array on the current device (numba.cuda.device_array)."""
    with _on_stream(stream):
        return _empty(shape, dtype, strides, order, "device")


def device_array_like(ary, stream=0):
    """An uninitialised device array with ary's shape, dtype and (C or F) layout."""
    flags = ary.flags
    f_only = bool(flags["F_CONTIGUOUS"]) and not bool(flags["C_CONTIGUOUS"])
    return device_array(ary.shape, ary.dtype, order="F" if f_only else "C", stream=stream)


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array over page-locked host memory (numba.cuda.pinned_array)."""
    return _empty(shape, dtype, strides, order, "pinned").__array__()


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A pygpu array in page-locked host memory mapped into the device's address space."""
    with _on_stream(stream):
        return _empty(shape, dtype, strides, order, "mapped")


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """A pygpu array in unified (managed) memory."""
    with _on_stream(stream):
        return _empty(shape, dtype, strides, order, "managed")


def to_device(obj, stream=0, copy=True, to=None):
    """Copies obj (a NumPy array or anything array-like) to the current device; with `to`, into
    that existing device array instead (numba.cuda.to_device)."""
    with _on_stream(stream):
        if to is not None:
            to[...] = obj
            return to
        return _core.asarray(obj, device=_core.get_device(), copy=True if copy else None)


def as_cuda_array(obj, sync=True):
    """A pygpu array sharing the memory of an object with __cuda_array_interface__ or __dlpack__."""
    return _core.asarray(obj, copy=False)


def is_cuda_array(obj):
    """True when obj exports __cuda_array_interface__."""
    return hasattr(obj, "__cuda_array_interface__")


from ._vreduce import Reduce, reduce  # noqa: E402,F401  (numba.cuda.reduce: a binary Python function)
from ._jit.cudajit import jit  # noqa: E402,F401  (numba.cuda.jit: kernels in Python)
from ._jit.stubs import (  # noqa: E402,F401
    activemask, all_sync, any_sync, atomic, ballot_sync, blockDim, blockIdx, brev, clz, const, eq_sync, ffs, fma,
    grid, gridDim, gridsize, lanemask_lt, laneid, local, popc, shared, shfl_down_sync, shfl_sync, shfl_up_sync,
    shfl_xor_sync, syncthreads, syncthreads_and, syncthreads_count, syncthreads_or, syncwarp, threadfence,
    threadfence_block, threadfence_system, threadIdx, warpsize)
