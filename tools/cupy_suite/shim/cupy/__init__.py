"""A test-only shim: CuPy's test suite imports `cupy`; this module is pygpu under that name.

Only what cupy.testing and the tests' imports need beyond pygpu's own namespace lives here;
everything else is forwarded to pygpu, so a test that fails shows a pygpu gap or defect.
"""
import sys
import types

import numpy
import pygpu
from pygpu import *  # noqa: F401,F403
import pygpu.random as _pgrandom

_self = sys.modules[__name__]
ndarray = pygpu.ndarray


def __getattr__(name):
    return getattr(pygpu, name)


# cupy._core.internal.prod (used by cupy.testing's shaped_* helpers)
_core = types.ModuleType("cupy._core")
_core.internal = types.ModuleType("cupy._core.internal")
_core.internal.prod = lambda shape: int(numpy.prod(shape, dtype=numpy.int64))
_core.internal.prod_sequence = _core.internal.prod
_core.ndarray = pygpu.ndarray
sys.modules["cupy._core"] = _core
sys.modules["cupy._core.internal"] = _core.internal

# cupy.exceptions: pygpu's if it has them, else NumPy's classes (which pygpu raises)
exceptions = getattr(pygpu, "exceptions", None) or numpy.exceptions
sys.modules["cupy.exceptions"] = exceptions

# cupy.random with the private state table cupy.testing._random saves and restores
_gen = types.ModuleType("cupy.random._generator")
_gen._random_states = {}


class _RandomModule(types.ModuleType):
    def __getattr__(self, name):
        return getattr(_pgrandom, name)


random = _RandomModule("cupy.random")
random._generator = _gen


def _reset_states():
    _gen._random_states = {}


random.reset_states = _reset_states
sys.modules["cupy.random"] = random
sys.modules["cupy.random._generator"] = _gen

from cupy import _internals  # noqa: E402,F401  CuPy-internal module names (name mapping only)
