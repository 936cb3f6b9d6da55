"""numpy.lib's array functions on pygpu arrays: stride_tricks (sliding_window_view, as_strided: what
xarray's rolling and cumulative call as `xp.lib.stride_tricks` for any array-API namespace, as
CuPy's cupy.lib.stride_tricks) and scimath (numpy.lib.scimath is numpy.emath: pygpu.emath)."""
from . import stride_tricks  # noqa: F401
from .. import emath as scimath  # noqa: F401

__all__ = ["stride_tricks", "scimath"]
