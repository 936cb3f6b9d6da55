"""pygpu arrays through dask.distributed's wire protocol (registered by pygpu.dask when
distributed is installed): one frame with the elements, zero-copy from CPU-device memory and
one device-to-host copy from a GPU, and a header with dtype, shape and the device kind. A chunk
lands on the receiving worker's current device: a GPU worker's chunk reaches a CPU-only worker
as a CPU array, so one graph runs on mixed clusters."""
import numpy as np
from distributed.protocol import dask_deserialize, dask_serialize

import pygpu


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
