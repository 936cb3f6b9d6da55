"""Numba's type objects for cuda.jit signatures, for code without Numba: ``from pygpu.cuda.types
import void, float32, int64`` where Numba code has ``from numba import void, float32, int64``, then
``@cuda.jit(void(float32[:, ::1], int64))`` (defined in pygpu/_compiler/numba_types.py)."""
from .._compiler.numba_types import *  # noqa: F401,F403
from .._compiler.numba_types import __all__  # noqa: F401
