"""Numba-style names (being written)."""
from . import _core


def is_available():
    """True when a usable CUDA device is present."""
    return _core._cuda_device_count()[0] > 0
