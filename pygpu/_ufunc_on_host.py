"""The ufunc calls where pygpu's kernels do not reach: reduce, accumulate and reduceat of ufuncs
that do not reorder (subtract, divide, power, arctan2, ...: NumPy folds them left to right), at
of any ufunc and index (negative, divide, slices, masks), and NumPy's ufuncs called on pygpu
arrays with a NumPy array as out= (`numpy_array += pygpu_array`; with_numpy_out: NumPy's other
functions, np.sum(pygpu_array, out=numpy_array)). NumPy's own method runs on the
arrays' memory, zero-copy, on the CPU device, with NumPy's rules and errors (a NumPy out= takes
pygpu's result); with an array on a GPU it raises TypeError, as pygpu never copies device arrays
to the host behind the user's back."""
import numpy as _np

from . import _core
from ._out import check_cast


def _host(x, where):
    """x with each pygpu array (in tuples, lists and dicts too) as its NumPy view."""
    if isinstance(x, tuple):
        return tuple(_host(i, where) for i in x)
    if isinstance(x, list):
        return [_host(i, where) for i in x]
    if isinstance(x, dict):
        return {k: _host(v, where) for k, v in x.items()}
    if isinstance(x, _core.ndarray):
        if x.device.kind != "cpu":
            raise TypeError(f"pygpu's {where} is NumPy's, on the CPU device only; an operand is on {x.device}")
        return _np.asarray(x)
    return x


def _numpy_ufunc(ufunc, method):
    npuf = getattr(_np, ufunc.__name__, None)
    if not isinstance(npuf, _np.ufunc):
        raise TypeError(f"pygpu's {ufunc.__name__}.{method} is not supported")
    return npuf


def at(ufunc, a, indices, b=None):
    """ufunc.at(a, indices, b) by numpy's ufunc of the same name, in place on a's memory."""
    where = f"{ufunc.__name__}.at"
    npuf = _numpy_ufunc(ufunc, "at")
    npuf.at(_host(a, where), _host(indices, where), *(() if b is None else (_host(b, where),)))


def _method(ufunc, method, array, args, kwargs):
    where = f"{ufunc.__name__}.{method}"
    npuf = _numpy_ufunc(ufunc, method)
    out = kwargs.get("out")
    result = getattr(npuf, method)(_host(array, where), *_host(args, where), **_host(kwargs, where))
    if out is not None:
        return out[0] if isinstance(out, tuple) else out
    return _core.asarray(result, device="cpu")


def reduce(ufunc, array, *args, **kwargs):
    return _method(ufunc, "reduce", array, args, kwargs)


def accumulate(ufunc, array, *args, **kwargs):
    return _method(ufunc, "accumulate", array, args, kwargs)


def reduceat(ufunc, array, *args, **kwargs):
    return _method(ufunc, "reduceat", array, args, kwargs)


def call(ufunc, inputs, kwargs):
    """np.<ufunc>(*inputs, **kwargs) for pygpu's ufunc of that name, where out= may be a NumPy
    array (pygpu's result stored into it, with NumPy's casting and where=) and where= a mask."""
    kwargs = dict(kwargs)
    kwargs.pop("subok", None)
    if kwargs.get("order", "K") == "K":
        kwargs.pop("order", None)
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is None or isinstance(out, _core.ndarray):
        return ufunc(*inputs, out=out, **kwargs)
    mask = kwargs.pop("where", True)
    return store_into(ufunc.__name__, ufunc(*inputs, **kwargs), out, kwargs.get("casting", "same_kind"), mask)


def store_into(name, result, out, casting, mask=True):
    """pygpu's result of NumPy's ufunc `name` stored into out (a NumPy array, or a pygpu one, or
    None: result itself), with NumPy's casting check; returns out."""
    if out is None:
        return result
    if isinstance(out, _core.ndarray):
        check_cast(name, result.dtype, out.dtype, casting)
        out[...] = result
        return out
    where = f"numpy.{name} with a NumPy out="
    check_cast(name, result.dtype, out.dtype, casting)
    _np.copyto(out, _host(result, where), casting="unsafe", where=_host(mask, where))
    return out


def is_numpy_out(out):
    """out= holds a NumPy array (one, or in a tuple)."""
    return isinstance(out, _np.ndarray) or (isinstance(out, tuple) and any(isinstance(o, _np.ndarray) for o in out))


def _stand_in(out):
    """A pygpu copy of the NumPy array out on the CPU device (its values kept for where=), for the
    function's own out= checks and errors to apply to; other outs as they are."""
    if not isinstance(out, _np.ndarray):
        return out
    if not out.flags.writeable:
        raise ValueError("output array is read-only")   # NumPy's words
    return _core.asarray(out, device="cpu")


def with_numpy_out(name, fn, args, kwargs, at):
    """fn(*args, **kwargs) for NumPy's function `name`, whose out= (kwargs["out"] when at is "out",
    else args[at]) holds NumPy arrays: fn computes into pygpu stand-ins with its own casting rules
    and errors (NumPy's: each function has its own, 'unsafe' for sum, 'same_kind' for clip), and
    store_into copies them into the NumPy arrays, which are returned where fn returns the stand-ins."""
    _host((args, kwargs), f"numpy.{name} with a NumPy out=")   # device arrays: TypeError, no implicit copy
    out = kwargs["out"] if at == "out" else args[at]
    outs = out if isinstance(out, tuple) else (out,)
    stand_ins = tuple(_stand_in(o) for o in outs)
    given = stand_ins if isinstance(out, tuple) else stand_ins[0]
    if at == "out":
        kwargs = {**kwargs, "out": given}
    else:
        args = args[:at] + (given,) + args[at + 1:]
    result = fn(*args, **kwargs)
    for o, s in zip(outs, stand_ins):
        if s is not o:
            store_into(name, s, o, "unsafe")   # s has o's dtype: fn's rule has been applied
    numpy_of = {id(s): o for s, o in zip(stand_ins, outs)}
    if isinstance(result, tuple):
        return tuple(numpy_of.get(id(r), r) for r in result)
    return numpy_of.get(id(result), result)
