"""Typed IR for Python's operators on scalars, under Numba's rules (vectorize) or NumPy's (fuse):
shared by the front end and the tracer. Errors raise TypingError with the message; callers add
the place."""
import numpy as np

from . import composed, ir, optable
from . import types as T


class TypingError(Exception):
    pass


BINARY_OPS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
              "%": "remainder", "**": "power", "<<": "left_shift", ">>": "right_shift", "&": "bitwise_and",
              "|": "bitwise_or", "^": "bitwise_xor"}
COMPARE_OPS = {"<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal", "==": "equal",
               "!=": "not_equal"}


def cast(e, t):
    """e converted to type t (constants folded)."""
    if e.type == t:
        return e
    if isinstance(e, ir.Const):
        return ir.Const(convert(e.value, t), t)
    return ir.Cast(e, t)


def to_dtype(e, t):
    """e converted to dtype t as NumPy converts it, float16 included: a float16 is computed in
    float32, rounded to the nearest float16 as NumPy's half loops round every result."""
    if t != T.FLOAT16:
        return cast(e, t)
    if isinstance(e, ir.Op) and e.op == "_round_half":
        return e
    if isinstance(e, ir.Const):
        return ir.Const(convert(e.value, T.FLOAT16), T.FLOAT32)
    return ir.Op("_round_half", [cast(e, T.FLOAT32)], T.FLOAT32)


def convert(value, t):
    """A constant converted to type t as NumPy's cast converts it."""
    if isinstance(value, np.generic):
        value = value.item()
    with np.errstate(all="ignore"):
        if T.is_complex(t):
            return complex(value)
        if isinstance(value, complex):
            value = value.real
        if T.is_float(t):
            return float(np.array(value).astype(t))
        if T.is_bool(t):
            return bool(value)
        return int(np.array(value).astype(t))


def truth(e):
    """bool(e)."""
    if T.is_bool(e.type):
        return e
    return ir.Op("not_equal", [e, ir.Const(0, e.type)], T.BOOL)


def _small_power(a, value, t):
    """a ** 2, 3, 4 by multiplication (as Numba does for constant exponents; NumPy squares)."""
    x = cast(a, t)
    sq = ir.Op("square", [x], t)
    if value == 2:
        return sq
    if value == 3:
        return ir.Op("multiply", [sq, x], t)
    return ir.Op("square", [sq], t)


def _int_const(e):
    return isinstance(e, ir.Const) and isinstance(e.value, (int, np.integer)) and not isinstance(e.value, bool)


def binary(sym, a, b):
    """a <sym> b under Numba's rules."""
    if sym == "/":
        t = T.true_divide(a.type, b.type)
    elif sym == "**":
        negative = _int_const(b) and b.value < 0
        t = T.power(a.type, b.type, negative)
        if _int_const(b) and 2 <= b.value <= 4:
            return _small_power(a, b.value, t)
    elif sym in ("&", "|", "^"):
        t = T.bitwise(a.type, b.type)
    elif sym in ("<<", ">>"):
        t = T.shift(a.type, b.type)
    elif sym == "@":
        raise TypingError("matrix multiplication (@) is not supported")
    else:
        t = T.arithmetic(a.type, b.type)
    opname = BINARY_OPS[sym]
    out = None if t is None else optable.find(opname, (t, t))
    if out is None:
        raise TypingError(f"unsupported operand types for {sym}: '{a.type}' and '{b.type}'")
    return ir.Op(opname, [cast(a, t), cast(b, t)], out)


def compare(sym, a, b):
    t = T.comparison(a.type, b.type)
    if T.is_complex(t) and sym not in ("==", "!="):
        raise TypingError(f"'{sym}' is not supported between complex numbers")
    return ir.Op(COMPARE_OPS[sym], [cast(a, t), cast(b, t)], T.BOOL)


def unary(sym, v):
    if sym == "not":
        return ir.Op("logical_not", [v], T.BOOL)
    if sym == "-":
        t = T.unary_minus(v.type)
        if T.is_int(v.type):   # Numba negates at the operand's width, then widens: -int8(-128) is -128
            return cast(ir.Op("negative", [v], v.type), t)
        return ir.Op("negative", [cast(v, t)], t)
    if sym == "+":
        return cast(v, T.unary_minus(v.type))
    if sym == "~":
        if T.is_bool(v.type):
            return ir.Op("logical_not", [v], T.BOOL)
        if not T.is_int(v.type):
            raise TypingError(f"bad operand type for unary ~: '{v.type}'")
        return cast(ir.Op("invert", [v], v.type), T.unary_minus(v.type))   # ~uint16(0) is 65535
    raise TypingError(f"the operator {sym} is not supported")


# ------------------------------------------------------------------ NumPy's rules (fuse)

def ufunc(op, args, operands):
    """The op-table loop NumPy picks for op on args; operands: each arg's dtype, or its Python
    type when it is a weak Python scalar."""
    return numpy_ufunc(op, args, operands)[0]


_COMPARE_NAMES = frozenset(COMPARE_OPS.values())


def _literal_beyond(args, operands, ins):
    """The position of a Python int literal (a weak operand) outside the integer type its loop
    would read it in, or None."""
    for k, (a, o, t) in enumerate(zip(args, operands, ins)):
        if _int_const(a) and o is int and T.is_int(t):
            info = np.iinfo(t)
            if not info.min <= a.value <= info.max:
                return k
    return None


def _exact_comparison(args, ins, k):
    """(args, input types) comparing literal args[k], beyond the other operand's type, exactly as
    NumPy does: in int64 or uint64 (the op table compares int64 with uint64 exactly), or past 64
    bits against a float64 +-2**65, which every 64-bit integer is below or above as the int is."""
    v, other = args[k].value, ins[1 - k]
    if -2**63 <= v < 2**63:
        lit = T.INT64
    elif 0 <= v < 2**64:
        lit = T.UINT64
    else:
        args = list(args)
        args[k] = ir.Const(float(2**65 if v > 0 else -2**65), T.FLOAT64)
        return args, (T.FLOAT64, T.FLOAT64)
    wide = T.UINT64 if other == T.UINT64 else T.INT64
    return args, tuple(lit if j == k else wide for j in range(2))


def _weak_argument(a, o):
    """Whether a is a Python int argument of fuse (read at run time, weak): not a literal."""
    return o is int and not isinstance(a, ir.Const)


def numpy_ufunc(op, args, operands, fast=True):
    """(ufunc()'s Op, the dtype NumPy gives the result: float16 where the Op computes float32)."""
    if op == "power" and fast and operands[1] in (int, float):
        # NumPy's float32 and float64 power loops take a scalar exponent 0.5, 2, -1 as sqrt,
        # square, reciprocal (np.power(x, 0.5) of -0.0 is -0.0): the loop's, so an integer or
        # bool array meeting a Python float too (int64_array ** 0.5 is the float64 loop's sqrt;
        # pow's result there is 1 ulp off sqrt's on CUDA); float16's loop has no fast path
        r = optable.resolve_numpy(op, operands)
        loop = r[3][0] if r is not None else None
        if loop in (T.FLOAT32, T.FLOAT64):
            return _scalar_power(cast(args[0], loop), args[1], (loop, operands[1]),
                                 {0.5: "sqrt", 2: "square", -1: "reciprocal"})
    composed = _COMPOSED.get(op)
    if composed is not None:
        return _composed_ufunc(op, composed, args, operands)
    r = optable.resolve_numpy(op, operands)
    if r is None:
        if not optable.has(op):
            raise TypingError(f"NumPy's {op}() is not supported")
        types = ", ".join(str(o if isinstance(o, np.dtype) else o.__name__) for o in operands)
        raise TypingError(f"{op}() is not supported for operands of type {types}")
    ins, out, np_out, np_ins = r
    beyond = _literal_beyond(args, operands, ins)
    if beyond is not None:
        if op not in _COMPARE_NAMES:   # NEP 50: the literal must fit the type it meets
            raise OverflowError(f"Python integer {args[beyond].value} out of bounds for {np.dtype(ins[beyond])}")
        args, ins = _exact_comparison(args, ins, beyond)
    elif op in _COMPARE_NAMES:
        # a Python int argument compares exactly, as NumPy 2 compares it (int8_array < 300): in
        # int64 (the argument's type), with a uint64 by the op table's exact mixed loop
        k = next((k for k in range(2) if _weak_argument(args[k], operands[k]) and T.is_int(ins[k])), None)
        if k is not None:
            wide = T.UINT64 if ins[1 - k] == T.UINT64 else T.INT64
            ins = tuple(T.INT64 if j == k else wide for j in range(2))
    if op == "power" and T.is_int(ins[1]) and _int_const(args[1]) and args[1].value < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")   # NumPy's, for a literal
    # NEP 50: a weak Python scalar takes the loop's dtype first (float16_array * 0.1 multiplies
    # by float16(0.1))
    args = [to_dtype(a, T.FLOAT16) if isinstance(o, type) and d == T.FLOAT16 else a
            for a, o, d in zip(args, operands, np_ins)]
    args = [cast(a, t) for a, t in zip(args, ins)]
    if op == "nextafter" and np_ins[0] == T.FLOAT16:
        return _nextafter_half(*args), np_out
    e = ir.Op(optable.ALIASES.get(op, op), args, out)
    if np_out == T.FLOAT16 and out == T.FLOAT32:
        e = to_dtype(e, T.FLOAT16)  # NumPy's float16 loop rounds its result to float16
    return e, np_out


def _nextafter_half(x, y):
    """NumPy's float16 nextafter of float16 values held in float32 (the VM has no float16 loops):
    float32's step from x toward y scaled by 2**13 (float16 has 13 bits fewer), at least float16's
    smallest subnormal, is float16's step there; an infinity steps to the largest float16, x == y
    gives y, a step to zero keeps x's sign, NaN stays NaN (NumPy's npy_half_nextafter)."""
    f = T.FLOAT32
    step = ir.Op("subtract", [ir.Op("nextafter", [x, y], f), x], f)
    size = ir.Op("maximum", [ir.Op("multiply", [ir.Op("absolute", [step], f), ir.Const(8192.0, f)], f),
                             ir.Const(2.0 ** -24, f)], f)
    r = ir.Op("add", [x, ir.Op("copysign", [size, ir.Op("subtract", [y, x], f)], f)], f)
    r = ir.Select(ir.Op("equal", [r, ir.Const(0.0, f)], T.BOOL), ir.Op("copysign", [r, x], f), r, f)
    r = ir.Select(ir.Op("isinf", [x], T.BOOL), ir.Op("copysign", [ir.Const(65504.0, f), x], f), r, f)
    r = ir.Select(ir.Op("equal", [x, y], T.BOOL), y, r, f)
    r = ir.Select(ir.Op("isnan", [y], T.BOOL), y, r, f)
    return to_dtype(r, T.FLOAT16)


# NumPy ufuncs the op table lacks, made of a Python function compiled as vectorize compiles it
# (pygpu.gcd's and pygpu.lcm's Euclid loop)
_COMPOSED = {"gcd": composed.gcd_of, "lcm": composed.lcm_of}


def _composed_ufunc(op, function, args, operands):
    try:
        dts = getattr(np, op).resolve_dtypes(tuple(operands) + (None,))
    except (TypeError, np.exceptions.DTypePromotionError):
        types = ", ".join(str(o if isinstance(o, np.dtype) else o.__name__) for o in operands)
        raise TypingError(f"{op}() is not supported for operands of type {types}") from None
    t = dts[-1]
    beyond = _literal_beyond(args, operands, dts[:-1])
    if beyond is not None:
        raise OverflowError(f"Python integer {args[beyond].value} out of bounds for {t}")
    from .frontend import compile_function
    callee = compile_function(function, [t, t], t)
    return ir.Call(callee, [cast(a, p.type) for a, p in zip(args, callee.params)], t), t


def _is_array(o):
    return isinstance(o, np.dtype)


def numpy_binary(sym, a, b, operands):
    """(Op, NumPy's result dtype) of a <sym> b on arrays."""
    if sym == "**" and _is_array(operands[0]) and operands[1] in (int, float):
        fast = _fast_powers(operands[0], operands[1])
        if fast:
            return _scalar_power(a, b, operands, fast)
    if sym in COMPARE_OPS:
        return numpy_ufunc(COMPARE_OPS[sym], [a, b], operands)
    return numpy_ufunc(BINARY_OPS[sym], [a, b], operands)


def _fast_powers(t, kind):
    """NumPy's fast paths of array ** Python scalar: x ** 2 as square(x) (bool ** 2 is int8), and
    for float and complex arrays x ** -1 as reciprocal, x ** 0.5 as sqrt (then complex ** 2.0 and
    ** -1.0 are power's; for real floats power's loop gives square's and reciprocal's results):
    {exponent: ufunc}."""
    inexact = T.is_float(t) or T.is_complex(t)
    if kind is int:
        return {2: "square", -1: "reciprocal"} if inexact else {2: "square"}
    if not inexact:
        return {}
    return {0.5: "sqrt"} if T.is_complex(t) else {0.5: "sqrt", 2.0: "square", -1.0: "reciprocal"}


def _scalar_power(a, b, operands, fast):
    """a ** b for a weak Python scalar b, by NumPy's fast paths: a literal picks its ufunc; a
    Python scalar argument of fuse picks it at run time (each side computed, one selected)."""
    if isinstance(b, ir.Const):
        op = fast.get(b.value)
        if op is not None:
            return numpy_ufunc(op, [a], operands[:1])
        return numpy_ufunc("power", [a, b], operands, fast=False)
    e, dt = numpy_ufunc("power", [a, b], operands, fast=False)
    for value, op in fast.items():
        if T.is_int(b.type) and value != int(value):
            continue
        alt, _ = numpy_ufunc(op, [a], operands[:1])
        if alt.type != e.type:   # bool ** 2 is int8, bool ** 3 int64: power's type, as it must be one
            continue
        e = ir.Select(ir.Op("equal", [b, ir.Const(value, b.type)], T.BOOL), alt, e, e.type)
    return e, dt
