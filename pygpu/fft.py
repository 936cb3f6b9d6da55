"""numpy.fft for pygpu arrays (and the array API's fft extension): the whole module, with NumPy's
signatures, result dtypes (float32 and complex64 stay single precision, as NumPy 2 keeps them)
and `out=`.

On the CPU device the transforms are pocketfft's, run on the array's memory rather than a copy
(zero-copy through the buffer protocol): SciPy's scipy.fft where SciPy is installed, with pygpu's
CPU threads (`workers=`), else NumPy's numpy.fft (the same library; measured on a 2-core AMD
EPYC, complex64 2^20 points: numpy.fft 64 ms, scipy.fft 16 ms on one thread, 13 ms on two), with
NumPy's result dtypes either way. fftfreq, rfftfreq, fftshift and ifftshift are pygpu operations
on any device.

On a GPU the transforms need cuFFT, which pygpu does not load yet (issue 21): they raise
TypeError rather than copy to the host behind the caller's back, as every NumPy function pygpu
lacks does there (call them on pygpu.asnumpy(x))."""
import numpy as _np

import pygpu as _pg
from ._products import _wrap

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


try:
    import scipy.fft as _scipy_fft
except ImportError:
    _scipy_fft = None

_result_dtypes = {}


def _numpy_result_dtype(name, dtype, kwargs):
    """The dtype numpy.fft.<name> gives for input of dtype (asked on a 2-point array)."""
    key = (name, dtype)
    if key not in _result_dtypes:
        axes = kwargs.get("axes")
        probe = _np.ones((2,) * (len(axes) if axes is not None else 2), dtype=dtype)
        _result_dtypes[key] = getattr(_np.fft, name)(probe, **({"axes": tuple(range(-probe.ndim, 0))} if "axes" in kwargs
                                                                else {})).dtype
    return _result_dtypes[key]


def _run(name, a, out, **kwargs):
    """The transform over a's memory (zero-copy): scipy.fft's pocketfft on pygpu's threads where SciPy
    is installed (4x NumPy's at 2^20 points, on one thread too), else numpy.fft's; NumPy's result
    dtypes either way. The result on a's device, or written into out."""
    a = a if isinstance(a, _pg.ndarray) else _pg.asarray(a)
    if a.device.kind != "cpu":
        raise TypeError(f"pygpu.fft.{name} of an array on {a.device}: GPU transforms need cuFFT, which this pygpu "
                        f"does not load yet; run it on pygpu.asnumpy(x) (numpy.fft), or on the CPU device")
    if out is not None:
        if not isinstance(out, _pg.ndarray):
            raise TypeError(f"out must be a pygpu array, not {type(out).__name__}")
        if out.device != a.device:
            raise ValueError(f"out is on {out.device}, the input on {a.device}")
    host = _np.asarray(a)
    if _scipy_fft is None or a.dtype.kind not in "fc" or a.dtype == _np.float16:   # SciPy's half: less exact
        if out is not None:
            getattr(_np.fft, name)(host, out=_np.asarray(out), **kwargs)
            return out
        return _wrap(getattr(_np.fft, name)(host, **kwargs), a.device)
    result = getattr(_scipy_fft, name)(host, workers=_pg._core._cpu_threads(), **kwargs)
    want = _numpy_result_dtype(name, a.dtype, kwargs)
    if out is not None:
        _np.asarray(out)[...] = result
        return out
    return _wrap(result if result.dtype == want else result.astype(want), a.device)


# ------------------------------------------------------------------ one-dimensional

def fft(a, n=None, axis=-1, norm=None, out=None):
    """The discrete Fourier transform along axis (numpy.fft.fft)."""
    return _run("fft", a, out, n=n, axis=axis, norm=norm)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse discrete Fourier transform along axis (numpy.fft.ifft)."""
    return _run("ifft", a, out, n=n, axis=axis, norm=norm)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of real input: the n // 2 + 1 non-negative frequencies (numpy.fft.rfft)."""
    return _run("rfft", a, out, n=n, axis=axis, norm=norm)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of rfft: n real values (numpy.fft.irfft)."""
    return _run("irfft", a, out, n=n, axis=axis, norm=norm)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of a Hermitian-symmetric signal given by its first half: real (numpy.fft.hfft)."""
    return _run("hfft", a, out, n=n, axis=axis, norm=norm)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of hfft (numpy.fft.ihfft)."""
    return _run("ihfft", a, out, n=n, axis=axis, norm=norm)


# ------------------------------------------------------------------ several dimensions

def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional transform over axes (numpy.fft.fftn)."""
    return _run("fftn", a, out, s=s, axes=axes, norm=norm)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional inverse transform (numpy.fft.ifftn)."""
    return _run("ifftn", a, out, s=s, axes=axes, norm=norm)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-dimensional transform over axes (numpy.fft.fft2)."""
    return _run("fft2", a, out, s=s, axes=axes, norm=norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-dimensional inverse transform (numpy.fft.ifft2)."""
    return _run("ifft2", a, out, s=s, axes=axes, norm=norm)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional transform of real input, halved along the last axis (numpy.fft.rfftn)."""
    return _run("rfftn", a, out, s=s, axes=axes, norm=norm)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of rfftn (numpy.fft.irfftn)."""
    return _run("irfftn", a, out, s=s, axes=axes, norm=norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-dimensional transform of real input (numpy.fft.rfft2)."""
    return _run("rfft2", a, out, s=s, axes=axes, norm=norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of rfft2 (numpy.fft.irfft2)."""
    return _run("irfft2", a, out, s=s, axes=axes, norm=norm)


# ------------------------------------------------------------------ frequencies and shifts (any device)

def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of an n-point transform with sample spacing d: [0, 1, ...,
    n/2 - 1, -n/2, ..., -1] / (d n) (numpy.fft.fftfreq; the array API's dtype and device)."""
    n = _index(n, "n")
    k = _pg.arange(n, dtype=_np.int64, device=device)
    k = _pg.where(k < (n + 1) // 2, k, k - n)
    return _frequencies(k, n, d, dtype)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft's result: [0, 1, ..., n // 2] / (d n) (numpy.fft.rfftfreq)."""
    n = _index(n, "n")
    return _frequencies(_pg.arange(n // 2 + 1, dtype=_np.int64, device=device), n, d, dtype)


def _index(n, name):
    if isinstance(n, bool) or not isinstance(n, (int, _np.integer)):
        raise ValueError(f"{name} should be an integer")   # NumPy's words and kind
    if n <= 0:
        raise ValueError(f"{name} must be positive, not {n}")
    return int(n)


def _frequencies(k, n, d, dtype):
    if dtype is not None and _np.dtype(dtype).kind not in "fc":
        raise ValueError(f"dtype must be a real or complex floating-point dtype, not {_np.dtype(dtype)}")
    out = k / (n * d)
    return out.astype(dtype) if dtype is not None else out


def fftshift(x, axes=None):
    """x with the zero frequency moved to the centre: rolled by half of each axis in axes (all
    when None)."""
    x = _pg.asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else ((axes,) if isinstance(axes, int) else tuple(axes))
    if not axes:
        return x
    return _pg.roll(x, [x.shape[a] // 2 for a in axes], axis=axes)


def ifftshift(x, axes=None):
    """The inverse of fftshift (they differ for odd lengths)."""
    x = _pg.asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else ((axes,) if isinstance(axes, int) else tuple(axes))
    if not axes:
        return x
    return _pg.roll(x, [-(x.shape[a] // 2) for a in axes], axis=axes)
