"""numpy.fft for pygpu arrays (and the array API's fft extension): the whole module, with NumPy's
signatures, result dtypes (float32 and complex64 stay single precision, as NumPy 2 keeps them)
and `out=`.

On the CPU device the transforms are pocketfft's, run on the array's memory rather than a copy
(zero-copy through the buffer protocol): SciPy's scipy.fft where SciPy is installed, with pygpu's
CPU threads (`workers=`), else NumPy's numpy.fft (the same library; measured on a 2-core AMD
EPYC, complex64 2^20 points: numpy.fft 64 ms, scipy.fft 16 ms on one thread, 13 ms on two), with
NumPy's result dtypes either way. fftfreq, rfftfreq, fftshift and ifftshift are pygpu operations
on any device.

On a CUDA device the transforms are cuFFT's (loaded at run time from the CUDA toolkit or NVIDIA's
`nvidia-cufft` / `nvidia-cufft-cu12` wheels, a CUDAError naming the package when it is absent):
the transformed axes go to the end, are cut or zero-padded to the lengths asked for, and run as
one batched plan of up to three axes when they are the array's last axes (fft, fft2, fftn of up
to 3-d, rfft*, irfft*), else one axis at a time as NumPy does; plans are cached per shape and
device (16 of them, as CuPy's plan cache), bound to the current stream, their work areas from
pygpu's memory pool. The normalisation is applied after the unnormalised transform. What a call
works out in Python (dtypes, axes, lengths, the factor) is kept per (dtype, shape, arguments), so a
repeated transform of a contiguous input is one cuFFT call and ~2 us of Python.
pygpu._core._cufft is the one call into the library (csrc/math/fft_cuda.c)."""
import operator as _operator
import warnings as _warnings

import numpy as _np

import pygpu as _pg
from . import _core
from ._out import check_cast
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
    if out is not None:
        if not isinstance(out, _pg.ndarray):
            raise TypeError(f"out must be a pygpu array, not {type(out).__name__}")
        if out.device != a.device:
            raise ValueError(f"out is on {out.device}, the input on {a.device}")
    if "s" in kwargs:
        _nd_deprecations(kwargs)
        if kwargs["axes"] is not None and len(kwargs["axes"]) == 0:
            # no axes: numpy.fft's fftn & co. return the input itself, its rfftn & co. fail on s[-1]
            getattr(_np.fft, name)(_np.zeros((1,) * a.ndim, a.dtype), **kwargs)   # NumPy's error, if any
            return a
    if not _on_cpu(a):
        return _into(_gpu(name, a, kwargs), out, name)
    _check_norm(kwargs.get("norm"))
    if a.ndim:   # NumPy's checks of axes and lengths, before SciPy's (its errors differ, or it has none)
        axes, lengths = _axes_and_lengths(name, a, kwargs)
        if name in ("irfft", "irfft2", "irfftn", "hfft") and axes and lengths[-1] is None:
            _points(2 * (a.shape[axes[-1]] - 1))   # NumPy's error for 2 (m - 1) == 0 (SciPy's answers a shape)
        if kwargs.get("s") is not None and None in list(kwargs["s"]):
            # None in s: the axis's default length (SciPy refuses None)
            last = 2 * (a.shape[axes[-1]] - 1) if name.startswith("irfft") else a.shape[axes[-1]]
            kwargs = dict(kwargs, s=tuple(a.shape[ax] if n is None else n for n, ax in zip(lengths[:-1], axes))
                          + (last if lengths[-1] is None else lengths[-1],))
    host = _np.asarray(a)
    axes = kwargs.get("axes")
    repeated = axes is not None and len({ax % max(a.ndim, 1) for ax in axes}) != len(axes)
    if _scipy_fft is None or a.dtype.kind not in "fc" or a.dtype == _np.float16 or repeated:
        # SciPy's half is less exact, and it refuses a repeated axis (NumPy transforms it again)
        if out is not None:
            getattr(_np.fft, name)(host, out=_np.asarray(out), **kwargs)
            return out
        return _wrap(getattr(_np.fft, name)(host, **kwargs), a.device)
    result = getattr(_scipy_fft, name)(host, workers=_pg._core._cpu_threads(), **kwargs)
    want = _numpy_result_dtype(name, a.dtype, kwargs)
    if out is not None:
        _check_out_shape(out, result.shape)
        check_cast(name, want, out.dtype)
        _np.asarray(out)[...] = result
        return out
    return _wrap(result if result.dtype == want else result.astype(want), a.device)


def _nd_deprecations(kwargs):
    """NumPy 2's DeprecationWarnings (numpy.fft's _cook_nd_args) for s without axes, None in s."""
    s = kwargs["s"]
    if s is None:
        return
    if kwargs["axes"] is None:
        _warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future "
                       "version of NumPy, this will raise an error and `s[i]` will correspond to the size along the "
                       "transformed axis specified by `axes[i]`. To retain current behaviour, pass a sequence "
                       "[0, ..., k-1] to `axes` for an array of dimension k.", DeprecationWarning, stacklevel=4)
    if None in list(s):
        _warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise "
                       "an error in a future version of NumPy. To use the default behaviour of the corresponding 1-D "
                       "transform, pass the value matching the default for its `n` parameter. To use the default "
                       "behaviour for every axis, the `s` argument can be omitted.", DeprecationWarning, stacklevel=4)


def _on_cpu(a):
    return a.device.kind == "cpu"


def _check_out_shape(out, shape):
    if out.shape != shape:   # never broadcast into
        raise ValueError("output array has wrong shape.")


def _into(result, out, name):
    if out is None:
        return result
    _check_out_shape(out, result.shape)
    check_cast(name, result.dtype, out.dtype)
    out[...] = result
    return out


# ------------------------------------------------------------------ CUDA: cuFFT

_INVERSE = {"ifft", "ifft2", "ifftn", "irfft", "irfft2", "irfftn", "hfft"}
_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _points(n):
    if isinstance(n, bool):
        raise TypeError("an integer is required")
    n = _operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _scale(norm, inverse, steps, first_real, real):
    """The factor numpy.fft applies after the unnormalised transform: numpy.fft transforms one
    axis at a time (`steps`, the lengths in its order), each scaled by a factor computed in the
    real type of that step's input (`first_real` for the first: float16 input rounds it to half
    precision, as NumPy does; `real` for the others)."""
    if norm != "ortho" and not ((norm in (None, "backward") and inverse) or (norm == "forward" and not inverse)):
        return 1
    factor = 1.0
    for i, n in enumerate(steps):
        dtype = first_real if i == 0 else real
        factor *= float(_np.reciprocal(_np.sqrt(n, dtype=dtype)) if norm == "ortho" else _np.reciprocal(n, dtype=dtype))
    return factor


def _axes_and_lengths(name, a, kwargs):
    """(axes, lengths) of the transform, as numpy.fft reads n/axis or s/axes; a length of None
    keeps the axis (irfft's default: 2 (m - 1))."""
    if "axis" in kwargs:
        axes = (_np.lib.array_utils.normalize_axis_index(kwargs["axis"], a.ndim),)
        lengths = (kwargs.get("n"),)
    else:
        s, axes = kwargs.get("s"), kwargs.get("axes")
        if axes is None:   # s's axes are the last len(s): NumPy's AxisError when there are fewer
            axes = range(a.ndim) if s is None else range(-len(s), 0)
        axes = tuple(_np.lib.array_utils.normalize_axis_index(ax, a.ndim) for ax in axes)
        if s is None:
            lengths = (None,) * len(axes)
        else:
            if len(s) != len(axes):
                raise ValueError("Shape and axes have different lengths.")
            # -1: the input's length (numpy.fft's, for irfftn's last axis too); None: the default
            lengths = tuple(a.shape[ax] if n is not None and n == -1 else n for n, ax in zip(s, axes))
    return axes, tuple(None if n is None else _points(n) for n in lengths)


def _resized(x, axis, n):
    """x cut or zero-padded to n along axis (itself when it has n)."""
    have = x.shape[axis]
    if have == n:
        return x
    if have > n:
        return x[(slice(None),) * axis + (slice(0, n),)]
    padded = _pg.zeros(x.shape[:axis] + (n,) + x.shape[axis + 1:], dtype=x.dtype, device=x.device)
    padded[(slice(None),) * axis + (slice(0, have),)] = x
    return padded


def _cufft(x, out_shape, out_dtype, rank, inverse):
    """One cuFFT call over the last `rank` axes of x (made C-contiguous) into a new array."""
    x = _pg.ascontiguousarray(x)
    out = _pg.empty(out_shape, dtype=out_dtype, device=x.device)
    _core._cufft(x, out, rank, inverse)
    return out


def _c2c(x, axes, inverse):
    """Complex transforms along axes (already their lengths): one call when they are the last
    axes in order, at most three, else one axis at a time from the last (numpy.fft's order)."""
    k = len(axes)
    if 0 < k <= 3 and axes == tuple(range(x.ndim - k, x.ndim)):
        return _cufft(x, x.shape, x.dtype, k, inverse)
    for ax in reversed(axes):
        moved = _pg.moveaxis(x, ax, -1)
        x = _pg.moveaxis(_cufft(moved, moved.shape, x.dtype, 1, inverse), -1, ax)
    return x


def _last_to_end(x, axes):
    """x with the last of axes moved to the end, and the axes after that move."""
    last = axes[-1]
    if last == x.ndim - 1:
        return x, axes
    order = [d for d in range(x.ndim) if d != last] + [last]
    where = {d: i for i, d in enumerate(order)}
    return _pg.transpose(x, order), tuple(where[d] for d in axes)


def _restore_last(y, last):
    return y if last == y.ndim - 1 else _pg.moveaxis(y, -1, last)


def _r2c(x, axes, complex_dtype):
    """rfftn's transform (lengths already applied): real to complex along the last of axes, then
    complex along the others; one call when they are the array's last axes (at most three)."""
    k = len(axes)
    moved, maxes = _last_to_end(x, axes)
    if 0 < k <= 3 and maxes == tuple(range(x.ndim - k, x.ndim)):
        y = _cufft(moved, moved.shape[:-1] + (moved.shape[-1] // 2 + 1,), complex_dtype, k, False)
        return _restore_last(y, axes[-1])
    y = _cufft(moved, moved.shape[:-1] + (moved.shape[-1] // 2 + 1,), complex_dtype, 1, False)
    y = _restore_last(y, axes[-1])
    return _c2c(y, axes[:-1], False) if k > 1 else y


def _c2r(x, axes, n_last, real_dtype, owned):
    """irfftn's transform: complex inverse along all but the last of axes, then complex to real
    of n_last points along the last (x's last axis cut or padded to n_last // 2 + 1 already).
    cuFFT overwrites a complex-to-real input: x is copied unless `owned`."""
    k = len(axes)
    moved, maxes = _last_to_end(x, axes)
    if not (0 < k <= 3 and maxes == tuple(range(x.ndim - k, x.ndim))):
        if k > 1:
            moved = _c2c(moved, maxes[:-1], True)
            owned = True
        k = 1
    work = _pg.ascontiguousarray(moved)
    if not owned and work is moved:
        work = work.copy()
    y = _cufft(work, moved.shape[:-1] + (n_last,), real_dtype, k, True)
    return _restore_last(y, axes[-1])


def _by_axis(name, a, axes, lengths, norm, inverse):
    """numpy.fft's own order of one-axis transforms, for axes that repeat (NumPy transforms such an
    axis again, at its own length)."""
    pairs = list(zip(axes, lengths))
    if name.startswith("irfft"):
        for ax, n in pairs[:-1]:
            a = _gpu("ifft", a, {"n": n, "axis": ax, "norm": norm})
        return _gpu("irfft", a, {"n": pairs[-1][1], "axis": pairs[-1][0], "norm": norm})
    kind = "ifft" if inverse else "fft"
    if name.startswith("rfft"):
        a = _gpu("rfft", a, {"n": pairs[-1][1], "axis": pairs[-1][0], "norm": norm})
        pairs, kind = pairs[:-1], "fft"
    for ax, n in reversed(pairs):
        a = _gpu(kind, a, {"n": n, "axis": ax, "norm": norm})
    return a


class _Plan:
    """What numpy.fft.<name> of one (dtype, shape, arguments) asks of cuFFT, worked out once: the
    result and work dtypes, the axes and their lengths, NumPy's normalisation factor, and whether
    the input goes to cuFFT as it is (`direct`: the last axes in order, at most three, of their own
    lengths, already of the transform's type, so one call on a contiguous input and nothing else)."""
    __slots__ = ("want", "complex_dtype", "real_dtype", "axes", "lengths", "inverse", "repeated", "n_last",
                 "factor", "direct", "out_shape", "rank")

    def __init__(self, name, a, kwargs):
        norm = kwargs.get("norm")
        _check_norm(norm)
        self.want = want = _numpy_result_dtype(name, a.dtype, kwargs)   # NumPy's TypeError for rfft(complex)
        self.complex_dtype = complex_dtype = _np.result_type(want, _np.complex64)
        self.real_dtype = real_dtype = _np.finfo(complex_dtype).dtype
        axes, lengths = _axes_and_lengths(name, a, kwargs)
        self.axes = axes
        self.inverse = inverse = name in _INVERSE
        self.repeated = len(set(axes)) != len(axes)
        self.direct = False
        if self.repeated:
            self.lengths = lengths
            return
        shape = list(a.shape)
        if name.startswith("irfft"):
            self.n_last = n_last = lengths[-1] if lengths[-1] is not None else _points(2 * (shape[axes[-1]] - 1))
            for ax, n in zip(axes[:-1], lengths[:-1]):
                shape[ax] = n if n is not None else shape[ax]
            steps = [shape[ax] for ax in axes[:-1]] + [n_last]   # NumPy: ifft over the others, then irfft
            work_dtype, resized = complex_dtype, tuple(shape) != a.shape or a.shape[axes[-1]] != n_last // 2 + 1
        else:
            self.n_last = None
            for ax, n in zip(axes, lengths):
                shape[ax] = n if n is not None else _points(shape[ax])
            steps = [shape[ax] for ax in reversed(axes)]   # NumPy: from the last axis
            work_dtype = real_dtype if name.startswith("rfft") else complex_dtype
            resized = tuple(shape) != a.shape
        self.lengths = lengths
        first_real = _np.result_type(_np.real(_np.zeros((), a.dtype)).dtype, 1.0)
        self.factor = _scale(norm, inverse, steps, first_real, real_dtype)
        k = len(axes)
        self.rank = k
        self.direct = (0 < k <= 3 and axes == tuple(range(a.ndim - k, a.ndim)) and not resized
                       and a.dtype == work_dtype and want == (real_dtype if name.startswith("irfft") else complex_dtype))
        if self.direct:
            last = a.shape[-1]
            self.out_shape = a.shape[:-1] + ((self.n_last,) if name.startswith("irfft") else
                                             (last // 2 + 1,) if name.startswith("rfft") else (last,))


_plans = {}
_PLANS_KEPT = 512


def _plan(name, a, kwargs):
    """The _Plan of this call, from the cache when the same dtype, shape and arguments came before
    (the Python side of a call took ~25 us on a 2-core Xeon before, ~4 us from the cache). Only
    arguments of exact types are keys: True == 1 and 2.0 == 2 hash alike but NumPy refuses them."""
    values = tuple(kwargs.values())
    for v in values:
        kind = type(v)
        if not (v is None or kind is int or kind is str or kind is tuple and all(type(e) is int for e in v)):
            return _Plan(name, a, kwargs)
    key = (name, a.dtype, a.shape, values)
    plan = _plans.get(key)
    if plan is None:
        plan = _Plan(name, a, kwargs)
        if len(_plans) >= _PLANS_KEPT:
            _plans.pop(next(iter(_plans)))
        _plans[key] = plan
    return plan


def _gpu(name, a, kwargs):
    """numpy.fft.<name> of a CUDA array, through cuFFT."""
    if name in ("hfft", "ihfft"):
        norm = kwargs.get("norm")
        _check_norm(norm)
        swapped = dict(kwargs, norm=_SWAPPED_NORM[norm])
        if name == "hfft":
            return _gpu("irfft", _pg.conj(a) if a.dtype.kind == "c" else a, swapped)
        return _pg.conj(_gpu("rfft", a, swapped))
    plan = _plan(name, a, kwargs)
    if plan.direct:   # one cuFFT call (which overwrites a complex-to-real input: a copy)
        y = _cufft(a.copy() if name.startswith("irfft") else a, plan.out_shape, plan.want, plan.rank, plan.inverse)
        if plan.factor != 1:
            y *= plan.factor
        return y
    axes, lengths, inverse = plan.axes, plan.lengths, plan.inverse
    if plan.repeated:
        return _by_axis(name, a, axes, lengths, kwargs.get("norm"), inverse)
    if name.startswith("irfft"):
        n_last = plan.n_last
        x = a.astype(plan.complex_dtype, copy=False)
        owned = x is not a
        for ax, n in zip(axes[:-1], lengths[:-1]):
            if n is not None:
                x = _resized(x, ax, n)
        half = _resized(x, axes[-1], n_last // 2 + 1)
        owned = owned or half is not x
        y = _c2r(half, axes, n_last, plan.real_dtype, owned)
    else:
        x = a.astype(plan.real_dtype if name.startswith("rfft") else plan.complex_dtype, copy=False)
        for ax, n in zip(axes, lengths):
            x = _resized(x, ax, n if n is not None else x.shape[ax])
        y = _r2c(x, axes, plan.complex_dtype) if name.startswith("rfft") else _c2c(x, axes, inverse)
    if plan.factor != 1:
        y *= plan.factor
    return y if y.dtype == plan.want else y.astype(plan.want)


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
    step = 1.0 / (n * d)   # NumPy's arithmetic: ZeroDivisionError for a Python 0, d's precision
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    k = _pg.arange(n, dtype=_np.int64, device=device)
    return _frequencies(_pg.where(k < (n + 1) // 2, k, k - n), step, dtype)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft's result: [0, 1, ..., n // 2] / (d n) (numpy.fft.rfftfreq)."""
    n = _index(n, "n")
    step = 1.0 / (n * d)
    return _frequencies(_pg.arange(max(n // 2 + 1, 0), dtype=_np.int64, device=device), step, dtype)


def _index(n, name):
    if isinstance(n, bool) or not isinstance(n, (int, _np.integer)):
        raise ValueError(f"{name} should be an integer")   # NumPy's words and kind
    return int(n)


def _frequencies(k, step, dtype):
    if dtype is not None and _np.dtype(dtype).kind not in "fc":
        raise ValueError(f"dtype must be a real or complex floating-point dtype, not {_np.dtype(dtype)}")
    out = k * step
    return out.astype(dtype) if dtype is not None else out


def _shift_axes(x, axes):
    if axes is None:
        return tuple(range(x.ndim))
    return (axes,) if isinstance(axes, (int, _np.integer)) else tuple(axes)


def fftshift(x, axes=None):
    """x with the zero frequency moved to the centre: rolled by half of each axis in axes (all
    when None); a new array, as NumPy's."""
    x = _pg.asarray(x)
    axes = _shift_axes(x, axes)
    if not axes:
        return x.copy()
    return _pg.roll(x, [x.shape[a] // 2 for a in axes], axis=axes)


def ifftshift(x, axes=None):
    """The inverse of fftshift (they differ for odd lengths)."""
    x = _pg.asarray(x)
    axes = _shift_axes(x, axes)
    if not axes:
        return x.copy()
    return _pg.roll(x, [-(x.shape[a] // 2) for a in axes], axis=axes)
