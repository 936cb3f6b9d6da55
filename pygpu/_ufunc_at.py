"""ufunc.at where pygpu's scatter kernels do not reach: ufuncs that are not reductions (negative,
divide, power, ...) and indices with slices, masks, None or Ellipsis. NumPy's own ufunc.at runs on
the array's memory, zero-copy, on the CPU device (its rules: every occurrence of a repeated index
applied in turn); with an array on a GPU it raises TypeError, as pygpu never copies device arrays
to the host behind the user's back."""
import numpy as _np

from . import _core


def _host(x, name):
    if isinstance(x, tuple):
        return tuple(_host(i, name) for i in x)
    if isinstance(x, list):
        return [_host(i, name) for i in x]
    if isinstance(x, _core.ndarray):
        if x.device.kind != "cpu":
            raise TypeError(f"pygpu's {name}.at with these operands is NumPy's, on the CPU device only; "
                            f"an operand is on {x.device}")
        return _np.asarray(x)
    return x


def at(ufunc, a, indices, b=None):
    """ufunc.at(a, indices, b) by numpy's ufunc of the same name, in place on a's memory."""
    name = ufunc.__name__
    npuf = getattr(_np, name, None)
    if not isinstance(npuf, _np.ufunc):
        raise TypeError(f"pygpu's {name}.at is not supported: NumPy has no ufunc {name!r} to run it")
    target = _host(a, name)
    npuf.at(target, _host(indices, name), *(() if b is None else (_host(b, name),)))
