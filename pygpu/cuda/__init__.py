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
from operator import index as _operator_index

import numpy as np

from .. import _core, _memory
from . import records  # record arrays (structured dtypes) for kernels
from . import runtime  # CuPy's cupy.cuda.runtime (and Numba's cuda.runtime.get_version)

__all__ = [
    "to_device", "device_array", "device_array_like", "pinned_array", "pinned_array_like", "mapped_array",
    "mapped_array_like", "managed_array", "synchronize", "is_available", "detect", "device_count",
    "select_device", "list_devices", "gpus", "close",
    "unavailable_reason", "stream", "Stream", "default_stream", "legacy_default_stream",
    "per_thread_default_stream", "event", "event_elapsed_time", "as_cuda_array",
    "is_cuda_array", "get_current_device", "reduce", "Reduce", "types",
    # CuPy's cupy.cuda names
    "Device", "Event", "get_current_stream", "get_elapsed_time",
    # kernels (pygpu/_jit/cudajit.py) and the names used inside them (pygpu/_jit/stubs.py)
    "jit", "threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "grid", "gridsize", "shared",
    "local", "const", "atomic", "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp",
    "threadfence", "threadfence_block", "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
    "activemask", "lanemask_lt", "popc", "clz", "ffs", "brev", "fma", "cbrt", "selp", "fp16",
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


def select_device(device_id):
    """Numba's cuda.select_device: cuda:device_id becomes this thread's current device (CuPy's
    Device(device_id).use()), and is returned. On a machine without a GPU the CPU device is made
    current instead, so a script that starts with select_device(0) runs there unchanged."""
    dev = _core.Device(f"cuda:{_operator_index(device_id)}") if is_available() else _core.Device("cpu")
    dev.use()
    return dev


def list_devices():
    """The CUDA devices (Numba's cuda.list_devices): [] without a GPU."""
    return [_core.Device(f"cuda:{i}") for i in range(device_count())]


class _GPUList:
    """Numba's cuda.gpus: len(cuda.gpus), cuda.gpus[i] (a device, usable as `with cuda.gpus[1]:`),
    iteration, and cuda.gpus.current."""

    def __len__(self):
        return device_count()

    def __getitem__(self, i):
        return list_devices()[i]

    def __iter__(self):
        return iter(list_devices())

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        return f"<pygpu.cuda.gpus: {len(self)} CUDA device(s)>"


gpus = _GPUList()


def close():
    """Numba's cuda.close, which destroys the thread's CUDA context to give its memory back: here
    the current device's queued work is waited for and the blocks its memory pool caches are
    returned to the driver. Arrays still referenced stay valid (pygpu's memory lives as long as its
    arrays)."""
    dev = get_current_device()
    dev.synchronize()
    _memory.get_memory_pool(dev).free_all_blocks()


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


class _StreamType(type):
    @property
    def null(cls):
        """The current device's default stream (CuPy's cupy.cuda.Stream.null)."""
        return _core.Stream(null=True)


class Stream(_core.Stream, metaclass=_StreamType):
    """A pygpu.Stream with numba.cuda's extra names (what cuda.stream() returns) and CuPy's
    (Stream.null, use())."""

    @contextlib.contextmanager
    def auto_synchronize(self):
        """A context that waits for the stream's work when it ends (Numba's Stream.auto_synchronize)."""
        yield self
        self.synchronize()


class _StreamNames:
    """numba.cuda.stream(), a new stream on the current device, that also answers as CuPy's
    cupy.cuda.stream module does (stream.Stream, stream.Event, stream.get_current_stream)."""

    Stream = Stream        # CuPy's names (the module-level class, as the name is read here)
    Event = _core.Event

    def __call__(self):
        return Stream()

    @staticmethod
    def get_current_stream():
        return get_current_stream()

    def __repr__(self):
        return "<pygpu.cuda.stream: numba.cuda.stream() and CuPy's cupy.cuda.stream names>"


stream = _StreamNames()
stream.__doc__ = "A new stream on the current device (numba.cuda.stream): a pygpu.Stream."


def get_current_stream():
    """The thread's current stream (CuPy's cupy.cuda.get_current_stream): the innermost
    `with stream:`, else the one stream.use() made current, else the device's default stream."""
    current = _core._current_stream()
    return current if current is not None else _core.Stream(null=True)


Device = _core.Device   # CuPy's cupy.cuda.Device: `with Device(0):`, Device().synchronize(), .id
Event = _core.Event     # CuPy's cupy.cuda.Event


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events (CuPy's cupy.cuda.get_elapsed_time)."""
    return start_event.elapsed_time(end_event)


def default_stream():
    """The default stream: pass ``0`` (or use this value) wherever a stream is taken."""
    return 0


def legacy_default_stream():
    """The legacy default stream (numba.cuda.legacy_default_stream): pygpu's default, ``0``."""
    return 0


def per_thread_default_stream():
    """numba.cuda.per_thread_default_stream: pygpu queues on the default stream, ``0``, unless a
    `with stream:` block says otherwise (per thread)."""
    return 0


def event(timing=True):
    """A new pygpu.Event (numba.cuda.event)."""
    return _core.Event()


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events (numba.cuda.event_elapsed_time)."""
    return evtstart.elapsed_time(evtend)


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
    """An uninitialised array on the current device (numba.cuda.device_array); of a structured
    dtype, a record array for kernels (pygpu.cuda.records)."""
    with _on_stream(stream):
        if records.is_record_dtype(dtype):
            return records.empty(shape, dtype)
        return _empty(shape, dtype, strides, order, "device")


def _like(ary, make, transpose):
    """A new dense array of ary's shape and dtype whose axes lie in memory in the order of ary's
    (as Numba's *_like functions give): C or F as they are; a view of another layout (a
    transpose, a slice) gets the dense layout of its axes sorted by stride."""
    shape, dtype = tuple(ary.shape), np.dtype(ary.dtype)
    flags = ary.flags
    if bool(flags["C_CONTIGUOUS"]) or len(shape) <= 1:
        return make(shape, dtype, "C")
    if bool(flags["F_CONTIGUOUS"]):
        return make(shape, dtype, "F")
    # outermost first: the largest |stride| (ties keep the axis order), as NumPy's empty_like does
    order = sorted(range(len(shape)), key=lambda d: -abs(ary.strides[d]))
    dense = make(tuple(shape[d] for d in order), dtype, "C")
    return transpose(dense, tuple(order.index(d) for d in range(len(shape))))


def device_array_like(ary, stream=0):
    """An uninitialised device array with ary's shape, dtype and layout: C, F, or the dense
    layout with the axis order of ary's strides for other views (numba.cuda.device_array_like)."""
    if records.is_record_dtype(getattr(ary, "dtype", None)):
        return device_array(ary.shape, ary.dtype, stream=stream)
    return _like(ary, lambda shape, dtype, order: device_array(shape, dtype, order=order, stream=stream),
                 lambda a, axes: a.transpose(axes))


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array over page-locked host memory (numba.cuda.pinned_array)."""
    return _empty(shape, dtype, strides, order, "pinned").__array__()


def pinned_array_like(ary):
    """pinned_array with ary's shape, dtype and layout (numba.cuda.pinned_array_like)."""
    return _like(ary, lambda shape, dtype, order: pinned_array(shape, dtype, order=order),
                 lambda a, axes: a.transpose(axes))


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """mapped_array with ary's shape, dtype and layout (numba.cuda.mapped_array_like)."""
    return _like(ary, lambda shape, dtype, order: mapped_array(shape, dtype, order=order, stream=stream),
                 lambda a, axes: a.transpose(axes))


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
        if isinstance(to, records.DeviceRecordArray):
            to.copy_to_device(obj)
            return to
        if to is not None:
            to[...] = obj
            return to
        if isinstance(obj, records.DeviceRecordArray):
            return obj if not copy else records.to_device(obj.copy_to_host())
        if records.is_record_dtype(getattr(obj, "dtype", None)):
            return records.to_device(obj)
        return _core.asarray(obj, device=_core.get_device(), copy=True if copy else None)


def as_cuda_array(obj, sync=True):
    """A pygpu array sharing the memory of an object with __cuda_array_interface__ or __dlpack__."""
    return _core.asarray(obj, copy=False)


def is_cuda_array(obj):
    """True when obj exports __cuda_array_interface__."""
    return hasattr(obj, "__cuda_array_interface__")


from .._vreduce import Reduce, reduce  # noqa: E402,F401  (numba.cuda.reduce: a binary Python function)
from .._jit.cudajit import jit  # noqa: E402,F401  (numba.cuda.jit: kernels in Python)
from . import types  # noqa: E402,F401  (numba's type objects: float32[::1], void(...))
from .._jit import stubs as _stubs  # noqa: E402
globals().update({_n: getattr(_stubs, _n) for _n in _stubs.VECTOR_TYPES})   # cuda.float32x4 & co.
__all__ += list(_stubs.VECTOR_TYPES)
from .._jit.stubs import (  # noqa: E402,F401
    activemask, all_sync, any_sync, atomic, ballot_sync, blockDim, blockIdx, brev, cbrt, clz, const, eq_sync, ffs, fma,
    fp16,
    grid, gridDim, gridsize, lanemask_lt, laneid, local, match_all_sync, match_any_sync, popc, shared,
    selp, shfl_down_sync, shfl_sync, shfl_up_sync,
    shfl_xor_sync, syncthreads, syncthreads_and, syncthreads_count, syncthreads_or, syncwarp, threadfence,
    threadfence_block, threadfence_system, threadIdx, warpsize)
