"""pygpu arrays through dask.distributed's wire protocol (registered by pygpu.dask when
distributed is installed).

- "dask" serializer (TCP, and any comm between machines): one frame with the elements,
  zero-copy from CPU-device memory and one device-to-host copy from a GPU, and a header with
  dtype, shape, order and the device kind. A chunk lands on the receiving worker's current
  device: a GPU worker's chunk reaches a CPU-only worker as a CPU array, so one graph runs on
  mixed clusters.
- "cuda" serializer (UCX between GPU workers: NVLink, InfiniBand): a GPU array is one device
  frame, a byte view of its memory (no copy when it is contiguous), which the receiver wraps
  through __cuda_array_interface__ (RMM's or Numba's device buffer, or pygpu's own). A CPU-device
  array is not device memory: the cuda serializer declines it and the dask one takes it."""
import numpy as np
from distributed.protocol import dask_deserialize, dask_serialize
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
    return pygpu.asarray(host)                    # the receiving worker's current device


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
    if header["order"] == "F":
        return flat.reshape(shape[::-1]).T
    return flat.reshape(shape)
