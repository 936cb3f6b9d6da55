"""NumPy's whole-array comparisons, conversions, type predicates and small elementwise functions,
built from pygpu's own operations so that they run on the array's device (numpy/_core/numeric.py,
numpy/lib/_type_check_impl.py, _function_base_impl.py and friends are the reference for what
each returns). The result dtypes follow NumPy's, asked of NumPy on an empty array where a rule
has exceptions."""
import functools

import numpy as _np

import pygpu as _pg
from . import _core, _dispatch
from ._compiler.composed import gcd_of, lcm_of
from ._manipulation import _shape_str
from ._out import into, write_outputs

__all__ = ["allclose", "array_equal", "array_equiv", "asanyarray", "ascontiguousarray", "asfortranarray",
           "asarray_chkfinite", "require", "copy", "isreal", "iscomplex", "isrealobj", "iscomplexobj", "isneginf",
           "isposinf", "isscalar", "iterable", "isfortran", "real_if_close", "fix", "sinc", "nan_to_num",
           "float_power", "divmod", "gcd", "lcm", "spacing", "modf", "frexp", "isnat", "packbits", "unpackbits",
           "broadcast_shapes",
           "rollaxis", "may_share_memory", "shares_memory"]


def _asarray(a, dtype=None):
    return _pg.asarray(a, dtype=dtype)


def _numpy_result_dtype(function, *dtypes):
    """The dtype NumPy's function gives for inputs of these dtypes (asked on empty arrays; the
    first result's, for a function of several)."""
    result = function(*[_np.empty(0, dtype=d) for d in dtypes])
    return (result[0] if isinstance(result, tuple) else result).dtype


# ------------------------------------------------------------------ whole-array comparisons

def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element of a is close to b's (pygpu.isclose), as a Python bool."""
    return bool(_pg.all(_pg.isclose(_asarray(a), _asarray(b), rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have the same shape and elements (NaNs equal with equal_nan)."""
    a1, a2 = _asarray(a1), _asarray(a2)
    if a1.shape != a2.shape:
        return False
    if not equal_nan or not (_np.issubdtype(a1.dtype, _np.inexact) or _np.issubdtype(a2.dtype, _np.inexact)):
        return bool(_pg.all(a1 == a2))
    nan1, nan2 = _pg.isnan(a1), _pg.isnan(a2)
    if not bool(_pg.all(nan1 == nan2)):
        return False
    return bool(_pg.all((a1 == a2) | nan1))


def array_equiv(a1, a2):
    """True when a1 and a2 broadcast to one shape and are equal there."""
    a1, a2 = _asarray(a1), _asarray(a2)
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_pg.all(a1 == a2))


# ------------------------------------------------------------------ conversions

def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """pygpu.asarray: pygpu has one array type, so every array is already the 'any' kind."""
    return _pg.asarray(a, dtype=dtype, device=device, copy=copy, order=order or "K")


def ascontiguousarray(a, dtype=None, *, like=None):
    """a as a C-contiguous array of at least one dimension (a copy only when it is not one)."""
    a = _pg.asarray(a, dtype=dtype, order="C")
    return a.reshape(1) if a.ndim == 0 else a


def asfortranarray(a, dtype=None, *, like=None):
    """a as a Fortran-contiguous array of at least one dimension (a copy only when it is not one)."""
    a = _pg.asarray(a, dtype=dtype, order="F")
    return a.reshape(1) if a.ndim == 0 else a


def asarray_chkfinite(a, dtype=None, order=None):
    """pygpu.asarray(a), raising ValueError when a holds an inf or a NaN."""
    a = _pg.asarray(a, dtype=dtype, order=order or "K")
    if _np.issubdtype(a.dtype, _np.inexact) and not bool(_pg.all(_pg.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an array of dtype meeting the requirements ('C', 'F', 'A', 'W', 'O', 'E' or their
    long names), copied only when it does not."""
    wanted = set()
    for r in requirements or ():   # a string is a sequence of one-letter flags, as in NumPy
        key = _REQUIREMENTS.get(str(r).upper())
        if key is None:
            raise KeyError(r)
        wanted.add(key)
    if "C" in wanted and "F" in wanted:
        raise ValueError("Cannot specify both 'C' and 'F' order")
    order = "C" if "C" in wanted else "F" if "F" in wanted else "K"
    arr = _pg.asarray(a, dtype=dtype, order=order)
    flags = arr.flags
    if ("O" in wanted and not flags["OWNDATA"] and arr.base is not None) or ("W" in wanted and not flags["WRITEABLE"]):
        arr = arr.copy()
    return arr


def copy(a, order="K", subok=False):
    """A copy of a, on a's device (array-likes become arrays on the current device)."""
    return _pg.array(a, copy=True, order=order)


# ------------------------------------------------------------------ type predicates

def _dtype_of(x):
    dt = getattr(x, "dtype", None)
    if dt is not None:
        try:
            return _np.dtype(dt)
        except TypeError:
            pass
    return _np.asarray(x).dtype if not isinstance(x, _core.ndarray) else x.dtype


def iscomplexobj(x):
    """True when x's dtype is complex (whatever its values)."""
    return _np.issubdtype(_dtype_of(x), _np.complexfloating)


def isrealobj(x):
    """True when x's dtype is not complex."""
    return not iscomplexobj(x)


def iscomplex(x):
    """Element-wise: a nonzero imaginary part (False everywhere for real dtypes)."""
    x = _asarray(x)
    if iscomplexobj(x):
        return _pg.imag(x) != 0
    return _pg.zeros(x.shape, dtype=bool, device=x.device)


def isreal(x):
    """Element-wise: a zero imaginary part (True everywhere for real dtypes)."""
    if type(x) in (bool, int, float, complex):
        return x.imag == 0   # NumPy's imag(x) == 0: a Python bool for a Python number
    x = _asarray(x)
    if iscomplexobj(x):
        return _pg.imag(x) == 0
    return _pg.ones(x.shape, dtype=bool, device=x.device)


def _signed_infinity(x, out, negative):
    x = _asarray(x)
    if iscomplexobj(x):
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    result = _pg.logical_and(_pg.isinf(x), _pg.signbit(x) if negative else ~_pg.signbit(x))
    if out is None:
        return result
    out[...] = result
    return out


def isneginf(x, out=None):
    """Element-wise: -inf."""
    return _signed_infinity(x, out, True)


def isposinf(x, out=None):
    """Element-wise: +inf."""
    return _signed_infinity(x, out, False)


def isscalar(element):
    """NumPy's rule: Python and NumPy scalars (numbers, str, bytes), not arrays of any kind."""
    return _np.isscalar(element)


def iterable(y):
    """Whether iter(y) works (0-d arrays are not iterable)."""
    return _np.iterable(y)


def isfortran(a):
    """True when a is Fortran-contiguous and not C-contiguous."""
    flags = a.flags
    return bool(flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"])


def real_if_close(a, tol=100):
    """The real part of a complex a whose imaginary parts are all within tol machine epsilons
    (tol < 1: an absolute tolerance) of zero; a itself otherwise."""
    a = _asarray(a)
    if not iscomplexobj(a):
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(_pg.all(_pg.abs(_pg.imag(a)) < tol)):
        return _pg.real(a)
    return a


# ------------------------------------------------------------------ elementwise compositions

def fix(x, out=None):
    """Rounds toward zero (NumPy's dtypes: floats stay floats, integers as NumPy 2 gives them)."""
    x = _asarray(x)
    result = _pg.trunc(x)
    want = _numpy_result_dtype(_np.trunc, x.dtype)   # numpy.fix is numpy.trunc since NumPy 2.4
    if result.dtype != want:
        result = result.astype(want)
    return into(out, result, "trunc")


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (NumPy's formula: pi x's 0 replaced by the dtype's eps, which
    float16 holds where 1e-20 would underflow back to 0; 1e-20 for complex)."""
    x = _asarray(x)
    if not _np.issubdtype(x.dtype, _np.inexact):
        x = x.astype(_numpy_result_dtype(_np.sinc, x.dtype))
    x = _pg.pi * x
    y = _pg.where(x != 0, x, _np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1.0e-20)
    return _pg.sin(y) / y


@_pg.fuse   # one pass
def _nan_or_clipped(p, nan, small, big):
    return _pg.where(_pg.isnan(p), nan, _pg.clip(p, small, big))


def _cast_like_copyto(v, dtype, device):
    """v as an array of dtype (0-d for a scalar), cast as NumPy's copyto casts it (same_kind)."""
    if type(v) in (int, float) and (type(v) is float or abs(v) <= 2**53) and abs(v) <= float(_np.finfo(dtype).max):
        return v   # a Python number dtype holds (the defaults among them): weak, exact, no host round trip
    v = v.get() if isinstance(v, _pg.ndarray) else v
    dst = _np.empty(_np.shape(v), dtype)
    _np.copyto(dst, v, casting="same_kind")
    return _pg.asarray(dst, device=device)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default the dtype's largest), -inf -> neginf (its most
    negative); complex values part by part. Integers and bools are returned as they are."""
    x = _asarray(x)
    if not _np.issubdtype(x.dtype, _np.inexact):
        return _pg.array(x, copy=True) if copy else x
    part = x.real.dtype if iscomplexobj(x) else x.dtype
    info = _np.finfo(part)
    # NumPy copies each replacement in with copyto's same_kind cast: x keeps its dtype whatever
    # the values' types (np.float64(3) into float16 is float16; 1j into float32 is its TypeError)
    big = float(info.max) if posinf is None else posinf
    small = float(info.min) if neginf is None else neginf
    nan, big, small = (_cast_like_copyto(v, part, x.device) for v in (nan, big, small))
    for v in (nan, big, small):   # copied into x: each broadcasts to x's shape, not x to theirs
        if _np.ndim(v) and _np.broadcast_shapes(_np.shape(v), x.shape) != x.shape:
            raise ValueError(f"could not broadcast input array from shape {_shape_str(_np.shape(v))} "
                             f"into shape {_shape_str(x.shape)}")

    def fixed(p):
        if posinf is None and neginf is None:   # the dtype's extremes: clipping moves the infinities only
            if p.dtype != _np.float16:   # (the VM has no half arithmetic to keep it half)
                return _nan_or_clipped(p, nan, small, big)
            kept = _pg.clip(p, small, big)
        else:
            inf = _pg.isinf(p)
            kept = _pg.where(_pg.logical_and(inf, p > 0), big, _pg.where(_pg.logical_and(inf, p < 0), small, p))
        return _pg.where(_pg.isnan(p), nan, kept)

    if not iscomplexobj(x):
        if copy:
            return fixed(x)
        x[...] = fixed(x)
        return x
    out = _pg.empty_like(x) if copy else x
    out.real[...], out.imag[...] = fixed(x.real), fixed(x.imag)   # both computed before either is written
    return out


def float_power(x1, x2, out=None, **kwargs):
    """x1 ** x2 computed in float64 (complex128 for complex inputs), as NumPy's float_power."""
    # a Python number stays one, as float64 or complex128 takes it (2**64 is a float, not an object)
    xs = [x if type(x) in (int, float, complex) else _asarray(x) for x in (x1, x2)]
    wide = _np.complex128 if any(type(x) is complex or (type(x) not in (int, float) and iscomplexobj(x))
                                 for x in xs) else _np.float64
    if kwargs.get("dtype") is not None:   # NumPy's loop for dtype= (float64 or complex128) and its errors
        dtypes = tuple(type(x) if type(x) in (int, float, complex) else x.dtype for x in xs) + (None,)
        wide = _np.float_power.resolve_dtypes(dtypes, signature=(None, None, _np.dtype(kwargs["dtype"])),
                                              casting=kwargs.get("casting", "same_kind"))[-1].type
    # (a complex scalar into a float64 loop, by casting='unsafe': NumPy's cast, ComplexWarning and all)
    xs = [_np.asarray(x).astype(wide) if type(x) is complex and wide is not _np.complex128 else
          (complex(x) if wide is _np.complex128 else float(x)) if type(x) in (int, float, complex) else x.astype(wide)
          for x in xs]
    return _pg.power(*xs, out=out, **kwargs)


def divmod(x1, x2, out1=None, out2=None, **kwargs):
    """(x1 // x2, x1 % x2), element-wise, as NumPy's divmod."""
    out, where = kwargs.pop("out", None), kwargs.pop("where", True)
    # both computed before either out is written: an out may be an input (divmod(a, b, out=(a, r)))
    results = (_pg.floor_divide(x1, x2, **kwargs), _pg.remainder(x1, x2, **kwargs))
    return write_outputs("divmod", results, (out1, out2), out, where, kwargs.get("casting", "same_kind"))


@functools.cache
def _compiled(function, dtype=None):
    """function compiled once into an elementwise loop: pygpu.vectorize, for dtype's loop alone when
    given (a lazily compiled one would run later calls of other dtypes through its first loop,
    which they cast to safely, as Numba's)."""
    if dtype is None:
        return _pg.vectorize(function)
    name = _np.dtype(dtype).name
    return _pg.vectorize([f"{name}({name}, {name})"])(function)


def _integer_kernel(name, function, x1, x2, dtype=None, casting="same_kind"):
    """function (Euclid's loop & co.) as a compiled elementwise function of integer arrays, in the
    loop NumPy's ufunc `name` picks for them (NEP 50: a Python int takes the array's type, and must
    fit it), or for dtype= the loop computing in dtype that takes them by `casting`; NumPy's errors
    where it has no loop (an int64 with a uint64, floats, two bools, a float dtype=)."""
    xs = [x if type(x) is int else _asarray(x) for x in (x1, x2)]
    dtypes = tuple(int if type(x) is int else x.dtype for x in xs) + (None,)
    ufunc = getattr(_np, name)
    if dtype is None:
        dtype = ufunc.resolve_dtypes(dtypes)[-1]
    else:
        dtype = _np.dtype(dtype)
        for x in xs:   # as NumPy, a Python int converts to the loop's type before any casting check
            if type(x) is int and dtype.kind in "iu":
                _np.asarray(x, dtype=dtype)
        dtype = ufunc.resolve_dtypes(dtypes, signature=(None, None, dtype), casting=casting)[-1]
    device = next((x.device for x in xs if type(x) is not int), None)
    xs = [_pg.asarray(_np.asarray(x, dtype=dtype), device=device) if type(x) is int else x.astype(dtype, copy=False)
          for x in xs]
    return _compiled(function, dtype)(*xs)


def gcd(x1, x2, /, out=None, *, where=True, casting="same_kind", dtype=None):
    """The greatest common divisor of |x1| and |x2|, element-wise (0 for two zeros)."""
    return write_outputs("gcd", _integer_kernel("gcd", gcd_of, x1, x2, dtype, casting), (out,), None, where, casting)


def lcm(x1, x2, /, out=None, *, where=True, casting="same_kind", dtype=None):
    """The lowest common multiple of |x1| and |x2|, element-wise (0 when either is 0)."""
    return write_outputs("lcm", _integer_kernel("lcm", lcm_of, x1, x2, dtype, casting), (out,), None, where, casting)


def spacing(x, /, out=None, *, where=True, casting="same_kind"):
    """The distance from x to its neighbour away from zero, with x's sign (NaN at inf), as
    NumPy's spacing ufunc (out=, where=, casting= as its)."""
    return write_outputs("spacing", _spacing(x), (out,), None, where, casting)


def _spacing(x):
    """The distance from x to its neighbour away from zero, with x's sign (NaN at inf), as
    NumPy's; for float16 NumPy's half-precision rule: the magnitude of the gap, the one below
    for negative numbers (smaller at powers of two)."""
    x = _asarray(x)
    if not _np.issubdtype(x.dtype, _np.floating):
        x = x.astype(_numpy_result_dtype(_np.spacing, x.dtype))
    negative = x < 0   # not -0.0: its spacing is positive, as NumPy's
    if x.dtype == _np.float16:
        ax = _pg.abs(x)
        gap = _pg.where(negative, ax - _pg.nextafter(ax, 0), _pg.nextafter(ax, _np.inf) - ax)
        return _pg.where(_pg.isinf(x), _np.nan, gap)
    away = _pg.where(negative, x.dtype.type(-_np.inf), x.dtype.type(_np.inf))
    return _pg.nextafter(x, away) - x


def modf(x, /, *outs, out=None, where=True, casting="same_kind"):
    """(fractional part, integral part) of x, both with x's sign, as C's modf (0 and +-inf for
    infinities); the outputs as NumPy's ufunc takes them (out=(o1, o2), or positionally)."""
    return write_outputs("modf", _modf(x), outs, out, where, casting)


def _modf(x):
    """modf's two results."""
    x = _asarray(x)
    if not _np.issubdtype(x.dtype, _np.floating):
        x = x.astype(_numpy_result_dtype(_np.modf, x.dtype))
    whole = _pg.trunc(x)
    fraction = _pg.copysign(_pg.where(_pg.isinf(x), 0, x - whole), x)
    return fraction, whole


def frexp(x, /, *outs, out=None, where=True, casting="same_kind"):
    """(mantissa, exponent) with x == mantissa * 2**exponent and 0.5 <= |mantissa| < 1, as C's
    frexp (0, inf and nan give themselves and 0): the mantissa of x's float dtype, the exponent
    int32; the outputs as NumPy's ufunc takes them."""
    return write_outputs("frexp", _frexp(x), outs, out, where, casting)


def _frexp(x):
    """frexp's two results, read from the float's bits, one pass each."""
    x = _asarray(x)
    if _np.issubdtype(x.dtype, _np.complexfloating):
        raise TypeError("ufunc 'frexp' not supported for the input types, and the inputs could not be safely "
                        "coerced to any supported types according to the casting rule ''safe''")
    if not _np.issubdtype(x.dtype, _np.floating):
        x = x.astype(_numpy_result_dtype(_np.frexp, x.dtype))
    return _core._frexp_mantissa(x), _core._frexp_exponent(x)


def _bit_weights(bitorder, device):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = _pg.arange(8, dtype=_np.uint8, device=device)
    return shifts[::-1] if bitorder == "big" else shifts


def packbits(a, axis=None, bitorder="big"):
    """The elements' truth values packed 8 to a uint8 along axis (the flattened array for None),
    the last byte padded with zeros; bitorder 'big' puts the first in the high bit."""
    a = _asarray(a)
    if not (_np.issubdtype(a.dtype, _np.integer) or a.dtype == bool):
        raise TypeError("Expected an input array of integer or boolean data type")
    if axis is None or a.ndim == 0:   # NumPy's: a 0-d array is a 1-d one, whatever the axis
        a, axis = a.reshape(-1), 0 if axis is None else axis
    axis = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    bits = _pg.moveaxis(a != 0, axis, -1).astype(_np.uint8)
    n = bits.shape[-1]
    pad = (-n) % 8
    if pad:
        bits = _pg.concatenate([bits, _pg.zeros(bits.shape[:-1] + (pad,), dtype=_np.uint8, device=a.device)], axis=-1)
    grouped = bits.reshape(bits.shape[:-1] + ((n + pad) // 8, 8))
    packed = _pg.sum(grouped << _bit_weights(bitorder, a.device), axis=-1, dtype=_np.uint8)
    return _pg.moveaxis(packed, -1, axis)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 array as a uint8 array of 0s and 1s along axis (the flattened array
    for None): 8 per byte, the first `count` of them (a negative count drops that many)."""
    a = _asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if axis is None or a.ndim == 0:   # NumPy's: a 0-d array is a 1-d one, whatever the axis
        a, axis = a.reshape(-1), 0 if axis is None else axis
    axis = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    moved = _pg.moveaxis(a, axis, -1)
    bits = (moved[..., None] >> _bit_weights(bitorder, a.device)) & 1
    bits = bits.reshape(moved.shape[:-1] + (moved.shape[-1] * 8,)).astype(_np.uint8)
    if count is not None:
        total = bits.shape[-1]
        keep = count if count >= 0 else max(total + count, 0)
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = _pg.concatenate([bits, _pg.zeros(bits.shape[:-1] + (keep - total,), dtype=_np.uint8,
                                                     device=a.device)], axis=-1)
    return _pg.moveaxis(bits, -1, axis)


def isnat(x):
    """NaT test of datetime64 and timedelta64 arrays: pygpu has neither, so, as NumPy does for
    other dtypes, a TypeError."""
    raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and np.timedelta64.")


# ------------------------------------------------------------------ shapes and memory

def broadcast_shapes(*args):
    """The shape the given shapes broadcast to (NumPy's rule and errors)."""
    return _np.broadcast_shapes(*args)


def rollaxis(a, axis, start=0):
    """a with axis moved to before position start (moveaxis is the clearer spelling)."""
    a = _asarray(a)
    n = a.ndim
    if not -n <= axis < n:
        raise _np.exceptions.AxisError(axis, n)
    axis %= n
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


class _Addresses:
    """A pygpu array's memory as NumPy sees an array: its address, shape and strides, so that
    NumPy's overlap tests run on them (they read no element)."""

    def __init__(self, a):
        self.__array_interface__ = {"data": (a.data_ptr, False), "shape": a.shape, "strides": a.strides,
                                    "typestr": a.dtype.str, "version": 3}


def _address_view(x):
    if isinstance(x, _core.ndarray):
        return _np.asarray(_Addresses(x))
    return x


def may_share_memory(a, b, max_work=None):
    """Whether a and b (pygpu or NumPy arrays) may share memory: their extents overlap. Device
    and host addresses are one address space (CUDA's unified addressing), so a device array and a
    host array never do."""
    return _np.may_share_memory(_address_view(a), _address_view(b), max_work=max_work)


def shares_memory(a, b, max_work=None):
    """Whether a and b (pygpu or NumPy arrays) share an element's memory (NumPy's exact test)."""
    return _np.shares_memory(_address_view(a), _address_view(b), max_work=max_work)


# NumPy's ufuncs among these: np.gcd(pygpu_array, ...) arrives through __array_ufunc__
for _ufunc in (divmod, float_power, gcd, lcm, spacing, modf, frexp, isnat):
    _dispatch.register_gufunc(_ufunc.__name__, _ufunc)
