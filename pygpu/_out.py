"""Results written into out= as NumPy's ufuncs write them: cast by a casting rule ('same_kind'
unless said), refused with NumPy's UFuncTypeError words (a TypeError) where the rule forbids; and
values written into an array as NumPy's putmask and place convert them."""
import numpy as _np

from . import _core
from ._manipulation import copyto


def check_cast(name, result_dtype, out_dtype, casting="same_kind"):
    """TypeError, as NumPy's ufunc `name` raises it, when result_dtype does not cast to out_dtype."""
    if not _np.can_cast(result_dtype, out_dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {_np.dtype(result_dtype)!r} to "
                        f"{_np.dtype(out_dtype)!r} with casting rule '{casting}'")


def into(out, result, name, casting="same_kind"):
    """result, or result written into out (broadcast) and out, after check_cast."""
    return write_outputs(name, result, (out,), None, True, casting)


def write_outputs(name, results, positional=(), out=None, where=True, casting="same_kind"):
    """results (a tuple for several outputs) as NumPy's ufunc `name` gives them: written into the
    outputs given (out=, or positionally after the inputs) where `where` holds, each cast by
    check_cast; those not given are returned as computed."""
    single = not isinstance(results, tuple)
    results = (results,) if single else results
    if out is None:
        outs = tuple(positional) + (None,) * (len(results) - len(positional))
    else:
        if any(p is not None for p in positional):
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != len(results):
        raise ValueError(f"The 'out' tuple must have exactly {len(results)} entries: one per ufunc output")
    written = []
    for o, r in zip(outs, results):
        if o is not None:
            check_cast(name, r.dtype, o.dtype, casting)
            copyto(o, r, casting="unsafe", where=where)
        written.append(r if o is None else o)
    return written[0] if single else tuple(written)


def values_as(values, dtype, device, casting="safe"):
    """values (1-d) in dtype on device, converted as NumPy converts the values of putmask and place
    (PyArray_FromAny into the array's dtype): numbers and lists element by element (a Python int
    out of range is NumPy's OverflowError, a complex into a real dtype its TypeError), arrays by
    `casting` (NumPy's TypeError for int64 into int32 under 'safe')."""
    if isinstance(values, (_core.ndarray, _np.ndarray)):
        if not _np.can_cast(values.dtype, dtype, casting):
            raise TypeError(f"Cannot cast array data from {values.dtype!r} to {_np.dtype(dtype)!r} according to "
                            f"the rule {casting!r}")
        v = values if isinstance(values, _core.ndarray) else _core.asarray(values, device=device)
        return _core.ravel(v.astype(dtype, copy=False))
    return _core.ravel(_core.asarray(_np.asarray(values, dtype=dtype), device=device))
