"""The Python array API namespace bits of pygpu (dtype names, constants, promotion functions,
__array_namespace_info__) and the elementwise functions that NumPy itself composes in Python
(isclose, round, angle, real, imag). The elementwise ufuncs and operators are C (pygpu._core)."""
import math as _math

import operator as _operator

import numpy as _np

from . import _core
from ._out import into

__all__ = [
    "__array_api_version__", "__array_namespace_info__",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
    "e", "pi", "inf", "nan", "newaxis",
    "result_type", "can_cast", "promote_types", "finfo", "iinfo", "isdtype",
    "isclose", "round", "around", "angle", "real", "imag", "astype",
]

__array_api_version__ = "2024.12"

# dtype names are NumPy's scalar types, as in CuPy: usable as dtype= and compared with dtypes
bool = _np.bool_  # noqa: A001
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None

_SUPPORTED = frozenset(_np.dtype(t) for t in (
    _np.bool_, _np.int8, _np.int16, _np.int32, _np.int64, _np.uint8, _np.uint16, _np.uint32, _np.uint64,
    _np.float16, _np.float32, _np.float64, _np.complex64, _np.complex128))


def _as_dtype_arg(x):
    """What numpy's promotion functions should see for x: arrays by dtype, the rest as given
    (Python scalars stay weak, as NEP 50 says)."""
    if isinstance(x, _core.ndarray):
        return x.dtype
    return x


def _checked(dt):
    dt = _np.dtype(dt)
    if dt not in _SUPPORTED:
        raise TypeError(f"pygpu does not support dtype {dt!r}")
    return dt


def result_type(*arrays_and_dtypes):
    """The dtype NumPy 2 gives an operation on these arrays, dtypes and (weak) Python scalars."""
    return _checked(_np.result_type(*[_as_dtype_arg(x) for x in arrays_and_dtypes]))


def can_cast(from_, to, casting="safe"):
    """numpy.can_cast for pygpu arrays and dtypes."""
    if isinstance(from_, (int, float, complex)) and not isinstance(from_, _np.generic):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because the result "
                        "used to depend on the value.\nThis change was part of adopting NEP 50, we may "
                        "explicitly allow them again in the future.")
    return _np.can_cast(_as_dtype_arg(from_), to, casting=casting)


def promote_types(type1, type2):
    """numpy.promote_types, restricted to pygpu's dtypes."""
    return _checked(_np.promote_types(type1, type2))


class finfo_object:
    """numpy.finfo's fields as Python numbers (the array API asks for float and int, where
    NumPy's finfo holds NumPy scalars): bits, eps, max, min, smallest_normal, dtype, and NumPy's
    others (tiny, resolution, epsneg, precision, smallest_subnormal, machep, negep, minexp,
    maxexp, nexp, nmant, iexp)."""

    _FLOATS = ("eps", "epsneg", "max", "min", "resolution", "smallest_normal", "smallest_subnormal", "tiny")
    _INTS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant", "precision")

    def __init__(self, info):
        for name in self._FLOATS:
            setattr(self, name, float(getattr(info, name)))
        for name in self._INTS:
            setattr(self, name, int(getattr(info, name)))
        self.dtype = info.dtype
        self._numpy = info

    def __repr__(self):
        return repr(self._numpy)

    def __str__(self):
        return str(self._numpy)   # NumPy's table


class iinfo_object:
    """numpy.iinfo's fields as Python ints: bits, min, max, dtype (and kind)."""

    def __init__(self, info):
        self.bits, self.min, self.max = int(info.bits), int(info.min), int(info.max)
        self.dtype, self.kind = info.dtype, info.kind
        self._numpy = info

    def __repr__(self):
        return repr(self._numpy)

    def __str__(self):
        return str(self._numpy)   # NumPy's table


def finfo(type):  # noqa: A002
    """Machine limits of a floating or complex dtype (or of a pygpu array's), as Python floats."""
    return finfo_object(_np.finfo(_as_dtype_arg(type)))


def iinfo(type):  # noqa: A002
    """Machine limits of an integer dtype (or of a pygpu array's), as Python ints."""
    return iinfo_object(_np.iinfo(_as_dtype_arg(type)))


def isdtype(dtype, kind):
    """Array API isdtype: whether dtype is of kind ('bool', 'signed integer', 'unsigned integer',
    'integral', 'real floating', 'complex floating', 'numeric'), a dtype, or a tuple of those."""
    return _np.isdtype(_np.dtype(dtype), kind)


def astype(x, dtype, /, *, copy=True, device=None):
    """The array API's astype: x.astype(dtype, copy=copy, device=device) (x made a pygpu array
    first, as pygpu's other functions take NumPy arrays)."""
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x, device=device)
    return x.astype(dtype, copy=copy, device=device)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: |a - b| <= atol + rtol * |b| where b is finite, or a == b."""
    a = a if isinstance(a, _core.ndarray) else _core.asarray(a)
    b = b if isinstance(b, _core.ndarray) else _core.asarray(b, device=a.device)
    dt = result_type(a, b, 1.0)
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    # NumPy's formula to the letter: equal values are close whatever atol and rtol are (nan, < 0)
    with_finite = _core.less_equal(_core.absolute(a - b), atol + rtol * _core.absolute(b))
    res = _core.logical_or(_core.logical_and(with_finite, _core.isfinite(b)), _core.equal(a, b))
    if equal_nan:
        res = _core.logical_or(res, _core.logical_and(_core.isnan(a), _core.isnan(b)))
    return res


def round(x, decimals=0, out=None):  # noqa: A001
    """numpy.round: half to even; decimals != 0 scales by 10**decimals as NumPy does."""
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
    decimals = _operator.index(decimals)   # NumPy's TypeError for a float
    # NumPy reads decimals as a C long, then a C int
    if not -2**63 <= decimals < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    if not -2**31 <= decimals < 2**31:
        raise OverflowError(f"signed integer is {'greater than maximum' if decimals > 0 else 'less than minimum'}")
    kind = x.dtype.kind
    if kind in "bf" and decimals != 0 and isinstance(out, _core.ndarray):
        # NumPy's sequence of ufuncs into out: the scaling in x's dtype, the rounding and the
        # unscaling in out's (a float32 x rounded into float64 is 1.1, not float32's 1.10000002)
        if out.size != x.size:
            raise ValueError("invalid output shape")
        with _np.errstate(over="ignore"):
            f = float(_np.power(_np.float64(10.0), abs(decimals)))
        scale, unscale = (_core.multiply, _core.true_divide) if decimals > 0 else (_core.true_divide, _core.multiply)
        scale(x, f, out=out)
        _core.rint(out, out=out)
        return unscale(out, f, out=out)
    if kind == "b" and decimals != 0:
        raise TypeError(f"Cannot cast ufunc '{'multiply' if decimals > 0 else 'divide'}' output from dtype('float64') "
                        "to dtype('bool') with casting rule 'same_kind'")
    if kind == "b":
        res = _core.rint(x)   # NumPy's round of bools: its rint's float
    elif kind in "iu":
        if decimals >= 0:
            res = x.copy()
        elif 10 ** (-decimals) <= _np.iinfo(x.dtype).max:
            # NumPy's integer rounding for negative decimals, exact in the integer domain
            f = 10 ** (-decimals)
            q = _core.floor_divide(x, f)
            r = x - q * f
            half = f // 2
            up = _core.logical_or(r > half, _core.logical_and(r == half, _core.remainder(q, 2) == 1))
            res = (q + up.astype(x.dtype)) * f
        else:   # a factor past the dtype: NumPy's way through float64 (mostly 0, its casts beyond)
            f = float(10 ** (-decimals)) if -decimals < 309 else _np.inf
            res = (_core.rint(x / f) * f).astype(x.dtype)
    elif decimals == 0:
        res = _core.rint(x)
    else:
        if kind == "c":
            return _rejoin(round(x.real, decimals), round(x.imag, decimals), out)
        with _np.errstate(over="ignore"):   # 10.0 ** 309 is inf, and the result NaN, as NumPy's
            f = float(_np.power(_np.float64(10.0), abs(decimals)))   # weak: float32 stays float32
        if decimals > 0:
            res = _core.rint(x * f) / f
        else:
            res = _core.rint(x / f) * f
        res = res.astype(x.dtype, copy=False)
    return into(out, res, "rint" if decimals == 0 else "multiply" if decimals > 0 else "divide")


around = round


def _rejoin(re, im, out):
    res = _core.empty(re.shape, dtype=_np.result_type(re.dtype, 1j), device=re.device) if out is None else out
    res.real = re
    res.imag = im
    return res


def angle(z, deg=False):
    """numpy.angle: the argument of z (radians, or degrees with deg=True)."""
    if isinstance(z, type(True)) or not isinstance(z, (int, float, complex)):   # Python numbers go as they are
        z = z if isinstance(z, _core.ndarray) else _core.asarray(z)
        if z.dtype == _np.bool_:
            z = z.astype(_np.int64)   # NumPy's arctan2(0, z): a weak 0 and bool give int64, so float64
    a = _core._angle(z)
    if deg:
        a = a * (180.0 / _math.pi)
    return a


def real(x):
    """The real part (a view for complex arrays)."""
    if type(x) in (type(True), int, float, complex):   # (bool here is the dtype)
        return x.real   # NumPy's val.real: a Python number's own
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
    return x.real


def imag(x):
    """The imaginary part (a view for complex arrays; zeros otherwise)."""
    if type(x) in (type(True), int, float, complex):   # (bool here is the dtype)
        return x.imag   # NumPy's val.imag: a Python number's own
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
    return x.imag


class _NamespaceInfo:
    """What pygpu.__array_namespace_info__() returns (array API inspection utilities)."""

    def capabilities(self):
        # x[mask], nonzero and unique_* are supported (their result sizes are read back from the device)
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}

    def default_device(self):
        return _core.default_device()

    def default_dtypes(self, *, device=None):
        return {"real floating": _np.dtype(_np.float64), "complex floating": _np.dtype(_np.complex128),
                "integral": _np.dtype(_np.int64), "indexing": _np.dtype(_np.int64)}

    def devices(self):
        devs = [_core.Device("cpu")]
        n = _core._cuda_device_count()[0]
        devs += [_core.Device(f"cuda:{i}") for i in range(n)]
        return devs

    def dtypes(self, *, device=None, kind=None):
        names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128"]
        res = {n: _np.dtype(n) for n in names}
        if kind is None:
            return res
        return {n: d for n, d in res.items() if _np.isdtype(d, kind)}


def __array_namespace_info__():
    return _NamespaceInfo()
