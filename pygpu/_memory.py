"""pygpu.get_memory_pool(): the caching allocator of a device, CuPy's MemoryPool interface."""
import operator

from . import _core


class MemoryPool:
    """The caching pool of one device. Freed arrays return their memory here for reuse."""

    def __init__(self, device):
        self.device = device

    def used_bytes(self):
        """Bytes held by live arrays."""
        return _core._pool_stats(self.device)[0]

    def total_bytes(self):
        """Bytes held by live arrays plus bytes cached for reuse."""
        return _core._pool_stats(self.device)[1]

    def free_bytes(self):
        """Bytes cached for reuse."""
        used, total, _ = _core._pool_stats(self.device)
        return total - used

    def n_free_blocks(self):
        """The number of freed blocks the pool keeps for reuse."""
        return _core._pool_stats(self.device)[2]

    def free_all_blocks(self):
        """Give every cached block back to the device (or the operating system)."""
        _core._pool_free_all(self.device)

    def set_limit(self, size=None, fraction=None):
        """Limit the bytes the pool holds (in use and cached), as CuPy's ``set_limit``: ``size`` in
        bytes or ``fraction`` of the device's memory; ``size=0`` or neither removes the limit. An
        allocation past it first frees the cached blocks, then raises ``pygpu.OutOfMemoryError``.
        """
        if size is not None and fraction is not None:
            raise ValueError("size and fraction cannot be specified at one time")
        if fraction is not None:
            fraction = float(fraction)
            if not 0 <= fraction <= 1:
                raise ValueError("memory limit fraction out of range: %r" % fraction)
            size = int(self.device.properties()["total_memory"] * fraction)
        elif size is None:
            size = 0
        else:
            size = operator.index(size)
            if size < 0:
                raise ValueError("memory limit size out of range: %d" % size)
        _core._pool_limit(self.device, size)

    def get_limit(self):
        """The pool's limit in bytes (0: none)."""
        return _core._pool_limit(self.device)

    def __repr__(self):
        return f"<pygpu.MemoryPool {self.device}: used={self.used_bytes()} total={self.total_bytes()}>"


def get_memory_pool(device=None):
    """The memory pool of `device` (default: the current device)."""
    return MemoryPool(_core.get_device() if device is None else _core.Device(device))


def get_default_memory_pool():
    """The current device's memory pool (CuPy's cupy.get_default_memory_pool; get_memory_pool())."""
    return get_memory_pool()
