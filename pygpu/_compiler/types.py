"""Scalar types of the IR (NumPy dtypes), signature strings, and Numba's typing rules for Python's
operators on scalars."""
import re

import numpy as np

from . import numba_types

BOOL = np.dtype("bool")
INT8, INT16, INT32, INT64 = (np.dtype(t) for t in ("int8", "int16", "int32", "int64"))
UINT8, UINT16, UINT32, UINT64 = (np.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64"))
FLOAT16, FLOAT32, FLOAT64 = (np.dtype(t) for t in ("float16", "float32", "float64"))
COMPLEX64, COMPLEX128 = np.dtype("complex64"), np.dtype("complex128")

ALL = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FLOAT16, FLOAT32, FLOAT64,
       COMPLEX64, COMPLEX128)

# the op table's loop suffixes (csrc/kernels/ops.def)
SUFFIX = {BOOL: "b", INT8: "i8", INT16: "i16", INT32: "i32", INT64: "i64", UINT8: "u8", UINT16: "u16",
          UINT32: "u32", UINT64: "u64", FLOAT16: "f16", FLOAT32: "f32", FLOAT64: "f64", COMPLEX64: "c64",
          COMPLEX128: "c128"}
# the number of each type in the C core (PgType)
NUMBER = {BOOL: 0, INT8: 1, INT16: 2, INT32: 3, INT64: 4, UINT8: 5, UINT16: 6, UINT32: 7, UINT64: 8,
          FLOAT16: 9, FLOAT32: 10, FLOAT64: 11, COMPLEX64: 12, COMPLEX128: 13}


def is_bool(t):
    return t.kind == "b"


def is_int(t):
    """Integers, not bool."""
    return t.kind in "iu"


def is_float(t):
    return t.kind == "f"


def is_complex(t):
    return t.kind == "c"


def compute_type(t):
    """The type a value of type t is computed in: float16 as float32 (as NumPy's half loops)."""
    return FLOAT32 if t == FLOAT16 else t


def real_of(t):
    """The real type of a complex type (itself for real types)."""
    return {COMPLEX64: FLOAT32, COMPLEX128: FLOAT64}.get(t, t)


def complex_of(t):
    """The complex type holding a value of type t: complex64 for float32 and the small integers."""
    if is_complex(t):
        return t
    return COMPLEX64 if np.can_cast(t, COMPLEX64) and t != INT32 and t != UINT32 else COMPLEX128


def promote(a, b):
    """numpy.promote_types, computing float16 as float32."""
    return compute_type(np.promote_types(a, b))


# ------------------------------------------------------------------ Numba's rules for operators

def _machine_int(a, b):
    """Numba computes integer arithmetic in 64 bits: int64, or uint64 when no operand is signed."""
    signed = any(t.kind in "ib" for t in (a, b))
    return INT64 if signed else UINT64


def unify(a, b):
    """The type of a variable assigned values of types a and b: Numba's unification, NumPy's
    promote_types (uint64 and int64 give float64)."""
    if a == b:
        return a
    return promote(a, b)


def arithmetic(a, b):
    """+ - * // % of two numbers: integers in 64 bits, but float64 for uint64 with a signed
    integer (Numba's int64 and uint64 signatures take neither safely; float64 takes both)."""
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        if UINT64 in (a, b) and any(t.kind == "i" for t in (a, b)):
            return FLOAT64
        return _machine_int(a, b)
    return promote(a, b)


def true_divide(a, b):
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        return FLOAT64
    return promote(a, b)


def power(a, b, negative_literal=False):
    """a ** b: integers stay integers (float64 for a negative literal exponent); float32 ** int
    stays float32."""
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        return FLOAT64 if negative_literal else _machine_int(a, b)
    if a == COMPLEX64 and b in (INT32, UINT16, UINT32, INT64, UINT64):
        return COMPLEX128   # Numba's complex ** complex: those integers reach only complex128 safely
    if (is_float(a) or is_complex(a)) and (is_int(b) or is_bool(b)):
        return a
    return promote(a, b)


def bitwise(a, b):
    """& | ^ of bools or integers (None for other types)."""
    if is_bool(a) and is_bool(b):
        return BOOL
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        return _machine_int(a, b)
    return None


def shift(a, b):
    """<< >> of integers: 64 bits of the left operand's signedness (Numba's; None for others)."""
    if (is_int(a) or is_bool(a)) and (is_int(b) or is_bool(b)):
        return UINT64 if a.kind == "u" else INT64
    return None


def unary_minus(a):
    if is_int(a) or is_bool(a):
        return _machine_int(a, a)
    return a


def comparison(a, b):
    """The type two numbers are compared in."""
    return promote(a, b)


# ------------------------------------------------------------------ signatures

_NAMES = {
    "boolean": BOOL, "bool_": BOOL, "bool": BOOL, "b1": BOOL,
    "int8": INT8, "i1": INT8, "byte": INT8, "int16": INT16, "i2": INT16, "short": INT16,
    "int32": INT32, "i4": INT32, "intc": INT32, "int64": INT64, "i8": INT64, "intp": INT64, "int_": INT64,
    "long": INT64, "longlong": INT64,
    "uint8": UINT8, "u1": UINT8, "ubyte": UINT8, "uint16": UINT16, "u2": UINT16, "ushort": UINT16,
    "uint32": UINT32, "u4": UINT32, "uintc": UINT32, "uint64": UINT64, "u8": UINT64, "uintp": UINT64,
    "uint": UINT64, "ulonglong": UINT64,
    "float16": FLOAT16, "f2": FLOAT16, "half": FLOAT16, "float32": FLOAT32, "f4": FLOAT32, "single": FLOAT32,
    "float64": FLOAT64, "f8": FLOAT64, "double": FLOAT64, "float": FLOAT64, "float_": FLOAT64,
    "complex64": COMPLEX64, "c8": COMPLEX64, "csingle": COMPLEX64, "complex128": COMPLEX128,
    "c16": COMPLEX128, "cdouble": COMPLEX128, "complex": COMPLEX128, "complex_": COMPLEX128,
}


def parse_type(name):
    """A dtype from a Numba or NumPy type name ('float32', 'f4', 'int32', 'boolean'), a NumPy
    dtype or scalar type, or a scalar type object of Numba's or of pygpu.cuda.types; None when it
    is not one (an array type is not)."""
    if isinstance(name, str):
        t = _NAMES.get(name.strip())
        if t is None:   # NumPy's type codes and spellings ('d', '?', '<f4'): vectorize(otypes='d')
            try:
                t = np.dtype(name.strip())
            except (TypeError, ValueError, SyntaxError):   # not a dtype NumPy knows either
                return None
        return t if t in NUMBER else None
    if isinstance(name, numba_types.Scalar):
        return name.dtype
    if numba_types.is_array_type(name) or isinstance(name, numba_types.Type):
        return None
    if type(name).__module__.startswith("numba"):
        t = _NAMES.get(str(name))
    else:
        try:
            t = np.dtype(name)
        except TypeError:
            return None
    return t if t in NUMBER else None


def is_type_value(obj):
    """A type used as a value (a dtype, np.float32, Numba's or pygpu.cuda.types' uint32): given to
    a device function or a kernel, it is bound while compiling, as a function is."""
    return isinstance(obj, np.dtype) or is_type_object(obj) or (isinstance(obj, type) and parse_type(obj) is not None)


def is_type_object(obj):
    """A scalar type object that converts when called in a kernel: numba.float32, or
    pygpu.cuda.types.float32 (NumPy's np.float32 is a conversion the vectorize subset knows)."""
    return isinstance(obj, numba_types.Scalar) or (type(obj).__module__.startswith("numba")
                                                   and parse_type(obj) is not None)


_SIG = re.compile(r"^\s*([A-Za-z_][\w]*)\s*\((.*)\)\s*$")
_ARROW = re.compile(r"^\s*\((.*)\)\s*->\s*([A-Za-z_][\w]*)\s*$")


def parse_signature(sig):
    """(argument dtypes, return dtype or None) from 'float32(float32, int32)', '(f4, f4) -> f4',
    'f4(f4)', a (return, args) tuple, a Numba signature, or an argument list without a return
    type ('float32, float32' or a tuple of types). Raises TypeError naming what is wrong."""
    if hasattr(sig, "args") and hasattr(sig, "return_type"):  # a numba Signature
        args = [parse_type(a) for a in sig.args]
        ret = parse_type(sig.return_type) if sig.return_type is not None else None
        if any(a is None for a in args):   # not `None in args`: dtype('float64') == None is True
            raise TypeError(f"unsupported type in signature {sig}")
        return args, ret
    if isinstance(sig, tuple) and sig and not isinstance(sig[0], (tuple, list)):
        args = [parse_type(a) for a in sig]
        if any(a is None for a in args):
            raise TypeError(f"unsupported type in signature {sig!r}")
        return args, None
    if not isinstance(sig, str):
        raise TypeError(f"a signature is a string such as 'float32(float32, float32)', not {sig!r}")
    m = _SIG.match(sig)
    if m:
        ret_name, arg_text = m.group(1), m.group(2)
    else:
        m = _ARROW.match(sig)
        if m:
            arg_text, ret_name = m.group(1), m.group(2)
        else:
            ret_name, arg_text = None, sig
    names = [a for a in (s.strip() for s in arg_text.split(",")) if a]
    args = [parse_type(a) for a in names]
    for name, t in zip(names, args):
        if t is None:
            raise TypeError(f"unknown type {name!r} in signature {sig!r}")
    ret = None
    if ret_name is not None:
        ret = parse_type(ret_name)
        if ret is None:
            raise TypeError(f"unknown type {ret_name!r} in signature {sig!r}")
    return args, ret


def python_type(value):
    """The IR type of a Python or NumPy number (Python int: int64, or uint64 past its range; float:
    float64; complex: complex128), or None when value is not a number."""
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, np.generic):
        t = value.dtype
        return t if t in NUMBER else None
    if isinstance(value, int):
        if -2 ** 63 <= value < 2 ** 63:
            return INT64
        if 0 <= value < 2 ** 64:
            return UINT64
        return None
    if isinstance(value, float):
        return FLOAT64
    if isinstance(value, complex):
        return COMPLEX128
    return None
