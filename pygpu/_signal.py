"""NumPy's 1-d signal routines: correlate and convolve (direct sums: the correlation kernels for
floating types, seven kernel taps per fused pass for the others; on a GPU, kernels of 64 taps
or more through cuFFT),
interp (linear interpolation: searchsorted, the cell's ends gathered, one fused pass), unwrap, and the bartlett, blackman, hamming
and hanning windows (numpy/_core/numeric.py, numpy/lib/_function_base_impl.py and NumPy's
compiled interp are the reference for results and errors)."""
import functools
import math
import warnings as _warnings

import numpy as _np

import pygpu as _pg
from ._numeric import _compiled

__all__ = ["correlate", "convolve", "interp", "unwrap", "bartlett", "blackman", "hamming", "hanning", "kaiser", "i0"]

_MODES = ("valid", "same", "full")


def _signal(x, which, message):
    x = _pg.asarray(x)
    if x.ndim != 1:
        raise ValueError(f"{which}: a 1-d sequence is needed (got {x.ndim} dimensions)")
    if x.shape[0] == 0:
        raise ValueError(message)
    return x


# the dtypes of the correlation kernels (csrc/kernels/correlate.h); the others (integers, exact
# in any order, and bool and float16, rounded as NumPy rounds them) go through fused passes
_NATIVE = tuple(_np.dtype(t) for t in ("f4", "f8", "c8", "c16"))
_TAPS_PER_PASS = 7   # x and w of each tap, and the running sum: 15 inputs, a fused program's most


@functools.cache
def _taps_pass(taps, running):
    """A fused program (pygpu.fuse) of one pass over `taps` shifted signals: [sum +] x0 * w0 +
    x1 * w1 + ..., summed left to right as the one-tap-at-a-time loop sums."""
    params = (["total"] if running else []) + [f"x{j}" for j in range(taps)] + [f"w{j}" for j in range(taps)]
    body = " + ".join((["total"] if running else []) + [f"x{j} * w{j}" for j in range(taps)])
    namespace = {}
    exec(f"def taps({', '.join(params)}):\n    return {body}\n", namespace)
    return _pg.fuse(namespace["taps"])


_FFT_TAPS = 64   # on a GPU a kernel of this many taps or more is correlated through cuFFT


def _fft_pays(a, m):
    """Whether the correlation with an m-tap kernel goes through the FFT: on a GPU, for long
    kernels (O(n log n) against the direct sum's O(n m)); the CPU's direct kernel wins there at
    the short kernels NumPy users convolve with."""
    return a.device.kind == "cuda" and m >= _FFT_TAPS


def _fast_length(n):
    """The smallest 2^a 3^b 5^c 7^d >= n: a length cuFFT transforms fast."""
    best = 1 << max(n - 1, 0).bit_length()
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                p2 = p3
                while p2 < n:
                    p2 *= 2
                best = min(best, p2)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def _fft_correlation(a, v):
    """The full correlation of a with v (already conjugated) as a convolution with v reversed,
    through the FFT of a length that holds it without wrapping around."""
    n, m = a.shape[0], v.shape[0]
    size = _fast_length(n + m - 1)
    kernel = v[::-1]
    if _np.issubdtype(a.dtype, _np.complexfloating):
        product = _pg.fft.fft(a, size) * _pg.fft.fft(kernel, size)
        return _pg.fft.ifft(product, size)[:n + m - 1]
    product = _pg.fft.rfft(a, size) * _pg.fft.rfft(kernel, size)
    return _pg.fft.irfft(product, size)[:n + m - 1]


def _full_correlation(a, v):
    """c[k + len(v) - 1] = sum_n a[n + k] * conj(v[n]), every k where the two overlap."""
    n, m = a.shape[0], v.shape[0]
    v = _pg.conj(v) if _np.issubdtype(v.dtype, _np.complexfloating) else v
    if a.dtype in _NATIVE and _fft_pays(a, m):
        return _fft_correlation(a, v)
    if a.dtype in _NATIVE:
        return _pg._core._correlate(a, v, True)   # the products with the padding left out
    if a.dtype == _np.float16:   # rounded after every step: one tap at a time, over its overlap
        return _overlap_correlation(a, v)
    zeros = _pg.zeros(m - 1, dtype=a.dtype, device=a.device)   # (no inf or NaN in the types below)
    padded = _pg.concatenate((zeros, a, zeros))
    if a.dtype == _np.bool_:   # or of ands, one tap at a time
        out = padded[0:n + m - 1] * v[0]
        for j in range(1, m):
            out += padded[j:j + n + m - 1] * v[j]
        return out
    out = None
    for start in range(0, m, _TAPS_PER_PASS):
        taps = range(start, min(start + _TAPS_PER_PASS, m))
        args = [padded[j:j + n + m - 1] for j in taps] + [v[j] for j in taps]
        out = _taps_pass(len(taps), False)(*args) if out is None else _taps_pass(len(taps), True)(out, *args)
    return out


def _overlap_correlation(a, v):
    """The full correlation summed over the overlapping products only, as NumPy sums it (an inf
    or NaN tap times zero padding would be NaN where that tap never overlaps a), one tap at a time."""
    n, m = a.shape[0], v.shape[0]
    out = _pg.zeros(n + m - 1, dtype=a.dtype, device=a.device)
    for j in range(m):
        out[m - 1 - j:m - 1 - j + n] += a * v[j]
    return out


def _mode_slice(full, n, m, mode, ceil_same):
    if mode == "full":
        return full
    short = min(n, m)
    if mode == "valid":
        return full[short - 1:short - 1 + max(n, m) - short + 1]
    start = short // 2 if ceil_same else (short - 1) // 2
    return full[start:start + max(n, m)]


def _mode(mode):
    """NumPy's mode names, and its legacy numbers for them (0 valid, 1 same, 2 full)."""
    mode = {0: "valid", 1: "same", 2: "full"}.get(mode, mode) if type(mode) is int else mode
    if mode not in _MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    return mode


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-d sequences: c[k] = sum_n a[n + k] * conj(v[n]) ('valid':
    where the shorter lies inside the longer, 'same': as long as the longer one, centred as
    NumPy centres it, 'full': every overlap)."""
    mode = _mode(mode)
    a = _signal(a, "correlate", "first array argument cannot be empty")
    v = _signal(v, "correlate", "second array argument cannot be empty")
    dtype = _pg.result_type(a, v)
    a, v = a.astype(dtype, copy=False), v.astype(dtype, copy=False)
    full = _full_correlation(a, v)
    return _mode_slice(full, a.shape[0], v.shape[0], mode, ceil_same=a.shape[0] < v.shape[0])


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-d sequences (NumPy's modes and result dtype)."""
    mode = _mode(mode)
    a, v = _pg.asarray(a), _pg.asarray(v)
    a = a.reshape(1) if a.ndim == 0 else a
    v = v.reshape(1) if v.ndim == 0 else v
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    dtype = _pg.result_type(a, v)
    a, v = a.astype(dtype, copy=False), v[::-1].astype(dtype, copy=False)
    if _np.issubdtype(dtype, _np.complexfloating):
        v = _pg.conj(v)   # correlate conjugates v; a convolution does not
    full = _full_correlation(a, v)
    return _mode_slice(full, a.shape[0], v.shape[0], mode, ceil_same=False)


@_pg.fuse   # one pass from the cell to the value
def _interp_tail(x, j, last, xlast, x0, x1, y0, y1, left, right):
    """interp's value at x from its cell [x0, x1] (j: the last sample <= x, -1 below them all;
    last: n - 1; xlast: the last sample): the line through the cell; where that is NaN (an
    infinite slope) the line from the right end, and for equal ends that value; a sample's own
    value at a sample; left and right outside; NaN at NaN."""
    slope = (y1 - y0) / (x1 - x0)
    value = slope * (x - x0) + y0
    value = _pg.where(_pg.isnan(value), slope * (x - x1) + y1, value)
    value = _pg.where(_pg.isnan(value) & (y0 == y1), y0, value)
    value = _pg.where(j == last, y1, _pg.where(x0 == x, y0, value))
    value = _pg.where(j < 0, left, value)
    value = _pg.where(x > xlast, right, value)
    return _pg.where(_pg.isnan(x), x, value)


def _interp_real(x, xp, fp, left, right):
    n = xp.shape[0]
    if n == 1:   # one sample: left below it, right above, its value elsewhere (NaN included)
        return _pg.where(x < xp[0], left, _pg.where(x > xp[0], right, fp[0]))
    j = _pg.searchsorted(xp, x, side="right") - 1
    inner = _pg.clip(j, 0, n - 2)   # the cell [xp[inner], xp[inner + 1]]
    after = inner + 1
    x0, x1, y0, y1 = _pg.take(xp, inner), _pg.take(xp, after), _pg.take(fp, inner), _pg.take(fp, after)
    return _interp_tail(x, j, n - 1, xp[n - 1], x0, x1, y0, y1, left, right)


def interp(x, xp, fp, left=None, right=None, period=None):
    """The piecewise-linear interpolant of (xp, fp) at x (xp increasing; left and right outside
    it, fp's ends by default; period for angles), in float64 or complex128 as NumPy's."""
    given = (x, xp)
    x, xp, fp = _pg.asarray(x), _pg.asarray(xp), _pg.asarray(fp)
    if x.dtype.kind == "c" or xp.dtype.kind == "c":
        if period is None:   # NumPy's compiled interp: float() of a list's items, a safe cast of an array's
            listed = [not isinstance(v, (_pg.ndarray, _np.ndarray)) for v, a in zip(given, (x, xp)) if a.dtype.kind == "c"]
            if any(listed):
                raise TypeError("float() argument must be a string or a real number, not 'complex'")
            dt = x.dtype if x.dtype.kind == "c" else xp.dtype
            raise TypeError(f"Cannot cast array data from {dt!r} to dtype('float64') according to the rule 'safe'")
        # with a period NumPy makes float64 arrays of them first: the real parts, with its warning each
        for _ in range((x.dtype.kind == "c") + (xp.dtype.kind == "c")):
            _warnings.warn("Casting complex values to real discards the imaginary part", _np.exceptions.ComplexWarning,
                           stacklevel=2)
        x, xp = _pg.real(x), _pg.real(xp)
    x = x.astype(_np.float64)
    complex_fp = _np.issubdtype(fp.dtype, _np.complexfloating)
    fp = fp.astype(_np.complex128 if complex_fp else _np.float64)
    xp = xp.astype(_np.float64)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if fp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = x % period, xp % period
        order = _pg.argsort(xp)
        xp, fp = _pg.take(xp, order), _pg.take(fp, order)
        xp = _pg.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = _pg.concatenate((fp[-1:], fp, fp[0:1]))
    if complex_fp:
        lo = fp[0] if left is None else _pg.asarray(complex(left))
        hi = fp[-1] if right is None else _pg.asarray(complex(right))
        re = _interp_real(x, xp, _pg.real(fp), _pg.real(lo), _pg.real(hi))
        im = _interp_real(x, xp, _pg.imag(fp), _pg.imag(lo), _pg.imag(hi))
        out = _pg.empty(x.shape, dtype=_np.complex128, device=x.device)
        out.real[...] = re
        out.imag[...] = im
        return out
    lo = fp[0] if left is None else float(left)
    hi = fp[-1] if right is None else float(right)
    return _interp_real(x, xp, fp, lo, hi)


def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    """p with its jumps larger than discont (period / 2 by default) along axis replaced by their
    complement modulo period (phase unwrapping)."""
    p = _pg.asarray(p)
    nd = p.ndim
    dd = _pg.diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = _np.result_type(dd.dtype, period)
    if _np.issubdtype(dtype, _np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = _pg.mod(dd - low, period) + low
    if ambiguous:   # a jump of exactly half a period keeps its sign
        ddmod = _pg.where(_pg.logical_and(ddmod == low, dd > 0), high, ddmod)
    correction = _pg.where(_pg.abs(dd) < discont, 0, ddmod - dd)
    up = _pg.asarray(p, dtype=dtype, copy=True)
    tail = [slice(None)] * nd
    tail[axis] = slice(1, None)
    tail = tuple(tail)
    up[tail] = p[tail] + _pg.cumsum(correction, axis=axis)
    return up


def _window(M, shape):
    """The window of M points: shape(n, M - 1) at n = 1 - M, 3 - M, ..., M - 1 (NumPy's
    expressions, in its order of operations)."""
    M = float(_np.asarray(M, dtype=_np.float64))
    if M < 1:
        return _pg.empty(0, dtype=_np.float64)
    if M == 1:
        return _pg.ones(1, dtype=_np.float64)
    n = _pg.arange(1 - M, M, 2, dtype=_np.float64)
    return shape(n, M - 1)


def bartlett(M):
    """The Bartlett (triangular) window of M points."""
    return _window(M, lambda n, d: _pg.where(n <= 0, 1 + n / d, 1 - n / d))


def blackman(M):
    """The Blackman window of M points."""
    return _window(M, lambda n, d: 0.42 + 0.5 * _pg.cos(_np.pi * n / d) + 0.08 * _pg.cos(2.0 * _np.pi * n / d))


def hamming(M):
    """The Hamming window of M points."""
    return _window(M, lambda n, d: 0.54 + 0.46 * _pg.cos(_np.pi * n / d))


def hanning(M):
    """The Hann window of M points."""
    return _window(M, lambda n, d: 0.5 + 0.5 * _pg.cos(_np.pi * n / d))


def _i0_of(x):
    """I0(|x|): its power series up to 30 (89 terms: below an ulp), the asymptotic series of
    exp(x) / sqrt(2 pi x) beyond (29 terms); within 3e-15 of NumPy's Chebyshev expansions."""
    x = abs(x)
    if x <= 30.0:
        q = x * x / 4.0
        term = q * 0.0 + 1.0
        total = term
        for k in range(1, 90):
            term = term * q / (k * k)
            total += term
        return total
    t = 1.0 / (8.0 * x)
    term = t * 0.0 + 1.0
    total = term
    for k in range(1, 30):
        term = term * ((2 * k - 1) * (2 * k - 1)) * t / k
        total += term
    # sqrt(x) apart from 2 pi: sqrt(2 pi x) overflows first, and inf / inf would give NaN for I0 = inf
    return math.exp(x) / math.sqrt(x) * (total / math.sqrt(2.0 * math.pi))


def i0(x):
    """The modified Bessel function of the first kind, order 0, element-wise (one compiled
    elementwise loop in float64; a float type stays itself, the others give float64)."""
    x = _pg.asarray(x)
    if _np.issubdtype(x.dtype, _np.complexfloating):
        raise TypeError("i0 not supported for complex values")
    result = _compiled(_i0_of)(x.astype(_np.float64))
    if x.dtype.kind != "f" or x.dtype == _np.float64:
        return result
    # NumPy computes exp(|x|) in x's own dtype: inf once that overflows (result * inf: NaN stays NaN)
    big = abs(x) > math.log(float(_np.finfo(x.dtype).max))
    return _pg.where(big, result * _np.inf, result).astype(x.dtype)


def kaiser(M, beta):
    """The Kaiser window of M points with shape parameter beta."""
    M, beta = float(M), float(beta)
    if M == 1:
        return _pg.ones(1, dtype=_np.float64)
    n = _pg.arange(0, M, dtype=_np.float64)
    alpha = (M - 1) / 2.0
    return i0(beta * _pg.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(_pg.asarray(beta))
