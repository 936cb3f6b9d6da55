"""NumPy's floating-point error state (seterr, geterr, errstate, seterrcall, geterrcall) under
pygpu's name. pygpu's kernels compute IEEE results (inf, nan, 0) and never check for errors, so
no pygpu operation warns, prints or logs: the state is NumPy's own, kept so that code written
with `with np.errstate(divide='ignore'):` runs, and so that the host NumPy computations inside
it follow it. The modes that promise an action on an error, 'raise' and 'call', are refused:
pygpu cannot see the errors, so accepting them would silently promise what never happens."""
import numpy as _np

__all__ = ["seterr", "geterr", "errstate", "seterrcall", "geterrcall"]

_CATEGORIES = ("divide", "over", "under", "invalid")


def _refuse_unhonoured(all=None, **modes):
    for category in _CATEGORIES:
        mode = modes.get(category)
        mode = all if mode is None else mode
        if isinstance(mode, str) and mode in ("raise", "call"):
            raise NotImplementedError(
                f"pygpu cannot honour {category}={mode!r}: its kernels return IEEE results (inf, nan) "
                "without detecting floating-point errors; check results with pygpu.isfinite or pygpu.isnan "
                "instead ('ignore', 'warn', 'print' and 'log' are accepted, and pygpu never warns)")


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are treated and returns the old settings (numpy.seterr);
    pygpu's own operations never detect such errors. 'raise' and 'call' raise NotImplementedError."""
    _refuse_unhonoured(all=all, divide=divide, over=over, under=under, invalid=invalid)
    return _np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)


geterr = _np.geterr
seterrcall = _np.seterrcall
geterrcall = _np.geterrcall


class errstate(_np.errstate):
    """numpy.errstate, as a context manager or a decorator: sets the error treatment within it.
    pygpu's operations never detect floating-point errors; 'raise' and 'call' raise
    NotImplementedError (pygpu could not honour them)."""
    __slots__ = ()

    def __init__(self, **kwargs):
        # NumPy's own keyword checks first (its TypeError for an unknown name)
        super().__init__(**kwargs)
        kwargs.pop("call", None)   # the callback alone does nothing until a mode says 'call'
        _refuse_unhonoured(**kwargs)
