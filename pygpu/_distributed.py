"""pygpu arrays through dask.distributed's wire protocol (registered by pygpu.dask when
distributed is installed).

The rule, for mixed clusters: a pygpu array that reaches a process through distributed lands on
that process's default device (pygpu.default_device(): cuda:0 on a GPU worker, the CPU on a
worker with PYGPU_DEVICE=cpu), whatever device it left and whichever way it came: the dask
serializer, the cuda serializer, or distributed's pickle (task arguments, arrays embedded in the
graph such as da.from_array's, results inside a tuple or dict that distributed pickles whole).
Chunks computed on a worker derive from arrays that arrived there, or are made on its default
device (da.ones & co.), so every array a task sees on a worker is on that worker's default
device, and Dask's combine steps (concatenate, sum) never meet two devices. Outside distributed,
pickle keeps an array's device (pickle.loads(pickle.dumps(a)).device == a.device) where the
process has it, and lands it on the current device where not (pygpu._core._reconstruct), so a
CPU-only worker that imports pygpu only with its first message still receives a GPU's arrays.

- "dask" serializer (TCP, and any comm between machines): one frame with the elements,
  zero-copy from CPU-device memory and one device-to-host copy from a GPU, and a header with
  dtype, shape, order and the device kind it left.
- "cuda" serializer (UCX between GPU workers: NVLink, InfiniBand): a GPU array is one device
  frame, a byte view of its memory (no copy when it is contiguous), which the receiver wraps
  through __cuda_array_interface__ (RMM's or Numba's device buffer, or pygpu's own), moved to the
  receiver's default device if that is another one. A CPU-device array is not device memory: the
  cuda serializer declines it and the dask one takes it.
- "pickle": distributed.protocol.pickle.loads unpickles pygpu arrays onto the default device
  (pygpu's unpickler, _core._reconstruct, looked up through an Unpickler's find_class)."""
import io
import logging
import pickle

import numpy as np
from distributed.protocol import dask_deserialize, dask_serialize
from distributed.protocol import pickle as distributed_pickle
from distributed.protocol.cuda import cuda_deserialize, cuda_serialize

import pygpu


def _layout(x):
    """x in a layout one frame holds (C or Fortran order), and the order."""
    if x.flags["C_CONTIGUOUS"]:
        return x, "C"
    if x.flags["F_CONTIGUOUS"]:
        return x, "F"
    return pygpu.ascontiguousarray(x), "C"


@dask_serialize.register(pygpu.ndarray)
def _serialize(x):
    if x.device.kind == "cpu":
        host = np.asarray(x)                      # the array's own memory (buffer protocol)
        if not (host.flags.c_contiguous or host.flags.f_contiguous):
            host = np.ascontiguousarray(host)
    else:
        host = x.get()
    order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    frame = memoryview(host.reshape(-1, order=order).view(np.uint8)) if host.size else memoryview(b"")
    header = {"dtype": host.dtype.str, "shape": host.shape, "order": order, "device": x.device.kind}
    return header, [frame]


@dask_deserialize.register(pygpu.ndarray)
def _deserialize(header, frames):
    dtype = np.dtype(header["dtype"])
    shape = tuple(header["shape"])
    flat = np.frombuffer(frames[0], dtype=dtype) if len(frames[0]) else np.empty(0, dtype=dtype)
    host = flat.reshape(shape, order=header["order"])
    return pygpu.asarray(host, device=pygpu.default_device())   # the receiver's, whatever it left


@cuda_serialize.register(pygpu.ndarray)
def _cuda_serialize(x):
    if x.device.kind != "cuda":
        raise NotImplementedError("a CPU-device pygpu array travels in host frames")
    x, order = _layout(x)
    flat = (x if order == "C" else x.T).reshape(-1)
    frame = flat.view(np.uint8) if x.dtype.itemsize > 0 else flat
    header = {"dtype": x.dtype.str, "shape": x.shape, "order": order}
    return header, [frame]


@cuda_deserialize.register(pygpu.ndarray)
def _cuda_deserialize(header, frames):
    (frame,) = frames
    data = pygpu.asarray(frame)                   # a device buffer: zero-copy through its interface
    if data.dtype != np.uint8 or data.ndim != 1:
        data = data.reshape(-1).view(np.uint8)
    shape = tuple(header["shape"])
    flat = data.view(np.dtype(header["dtype"]))
    out = flat.reshape(shape[::-1]).T if header["order"] == "F" else flat.reshape(shape)
    here = pygpu.default_device()
    return out if out.device == here else out.to_device(here)   # a CPU worker's copy, or another GPU's


_reconstruct = pygpu._core._reconstruct        # pygpu's unpickler: (host copy, device it left)


def _reconstruct_here(host, device):
    """pygpu's unpickler within distributed: onto this process's default device."""
    return _reconstruct(host, pygpu.default_device())


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "pygpu._core" and name == "_reconstruct":
            return _reconstruct_here
        return super().find_class(module, name)


def _loads(x, *, buffers=()):
    """distributed.protocol.pickle.loads, with pygpu arrays landing on the default device."""
    try:
        return _Unpickler(io.BytesIO(x), buffers=buffers if buffers else None).load()
    except Exception:
        logging.getLogger("distributed.protocol.pickle").info("Failed to deserialize %s", bytes(x[:10000]),
                                                              exc_info=True)
        raise


if not hasattr(distributed_pickle.loads, "_pygpu_original"):
    _loads._pygpu_original = distributed_pickle.loads
    distributed_pickle.loads = _loads
