"""Docstrings and signatures of the op table's ufuncs (pygpu.sin, pygpu.add, ...): the C objects
share their type's docstring, so each gets its own here, with the call NumPy's ufuncs take, for
help(), Jupyter's Shift-Tab and the API reference."""
import inspect

_P = inspect.Parameter
_SUMMARY = {
    "absolute": "Absolute value, elementwise (the magnitude for complex numbers).",
    "arccos": "Inverse cosine, elementwise, in radians in [0, pi].",
    "arccosh": "Inverse hyperbolic cosine, elementwise.",
    "add": "Sum of the arguments, elementwise (``x1 + x2``).",
    "arcsin": "Inverse sine, elementwise, in radians in [-pi/2, pi/2].",
    "arcsinh": "Inverse hyperbolic sine, elementwise.",
    "arctan": "Inverse tangent, elementwise, in radians in [-pi/2, pi/2].",
    "arctan2": "The angle of the point (x2, x1), elementwise, in radians in [-pi, pi], by the signs of both.",
    "arctanh": "Inverse hyperbolic tangent, elementwise.",
    "bitwise_and": "Bitwise AND of integers or booleans, elementwise (``x1 & x2``).",
    "bitwise_count": "The number of 1 bits in the magnitude of integers, elementwise, as uint8.",
    "invert": "Bitwise NOT of integers, logical NOT of booleans, elementwise (``~x``).",
    "left_shift": "Bits of ``x1`` shifted left by ``x2``, elementwise (``x1 << x2``).",
    "bitwise_or": "Bitwise OR of integers or booleans, elementwise (``x1 | x2``).",
    "right_shift": "Bits of ``x1`` shifted right by ``x2``, elementwise (``x1 >> x2``).",
    "bitwise_xor": "Bitwise XOR of integers or booleans, elementwise (``x1 ^ x2``).",
    "cbrt": "Cube root, elementwise (real, also of negative numbers).",
    "ceil": "The smallest integer not below ``x``, elementwise.",
    "conjugate": "Complex conjugate, elementwise (real numbers unchanged).",
    "copysign": "``x1``'s magnitude with ``x2``'s sign, elementwise.",
    "cos": "Cosine, elementwise (radians).",
    "cosh": "Hyperbolic cosine, elementwise.",
    "deg2rad": "Degrees converted to radians, elementwise.",
    "rad2deg": "Radians converted to degrees, elementwise.",
    "divide": "True division, elementwise (``x1 / x2``; integers give float64).",
    "equal": "``x1 == x2``, elementwise, as booleans.",
    "exp": "The exponential ``e**x``, elementwise.",
    "exp2": "``2**x``, elementwise.",
    "expm1": "``exp(x) - 1``, elementwise, accurate near zero.",
    "fabs": "Absolute value of real numbers, elementwise, as floats.",
    "floor": "The largest integer not above ``x``, elementwise.",
    "floor_divide": "The floor of ``x1 / x2``, elementwise (``x1 // x2``).",
    "fmax": "The larger of the arguments, elementwise, ignoring NaN where the other is a number.",
    "fmin": "The smaller of the arguments, elementwise, ignoring NaN where the other is a number.",
    "fmod": "The remainder of division with the sign of ``x1`` (C's fmod), elementwise.",
    "greater": "``x1 > x2``, elementwise, as booleans.",
    "greater_equal": "``x1 >= x2``, elementwise, as booleans.",
    "heaviside": "The Heaviside step function: 0 below zero, ``x2`` at zero, 1 above, elementwise.",
    "hypot": "``sqrt(x1**2 + x2**2)``, elementwise, without overflow on the way.",
    "isfinite": "True where ``x`` is neither infinite nor NaN, elementwise.",
    "isinf": "True where ``x`` is positive or negative infinity, elementwise.",
    "isnan": "True where ``x`` is NaN, elementwise.",
    "ldexp": "``x1 * 2**x2`` (``x2`` integers), elementwise, rounded once as C's ldexp.",
    "less": "``x1 < x2``, elementwise, as booleans.",
    "less_equal": "``x1 <= x2``, elementwise, as booleans.",
    "log": "Natural logarithm, elementwise.",
    "log10": "Base-10 logarithm, elementwise.",
    "log1p": "``log(1 + x)``, elementwise, accurate near zero.",
    "log2": "Base-2 logarithm, elementwise.",
    "logaddexp": "``log(exp(x1) + exp(x2))``, elementwise, without overflow.",
    "logaddexp2": "``log2(2**x1 + 2**x2)``, elementwise, without overflow.",
    "logical_and": "Truth of ``x1 and x2``, elementwise, as booleans.",
    "logical_not": "Truth of ``not x``, elementwise, as booleans.",
    "logical_or": "Truth of ``x1 or x2``, elementwise, as booleans.",
    "logical_xor": "Truth of ``bool(x1) != bool(x2)``, elementwise, as booleans.",
    "maximum": "The larger of the arguments, elementwise; NaN where either is NaN.",
    "minimum": "The smaller of the arguments, elementwise; NaN where either is NaN.",
    "remainder": "The remainder of floor division, with the sign of ``x2`` (``x1 % x2``), elementwise.",
    "multiply": "Product of the arguments, elementwise (``x1 * x2``).",
    "negative": "``-x``, elementwise.",
    "nextafter": "The next representable float after ``x1`` towards ``x2``, elementwise.",
    "not_equal": "``x1 != x2``, elementwise, as booleans.",
    "positive": "``+x``, elementwise (a copy).",
    "power": "``x1`` raised to the power ``x2``, elementwise (``x1 ** x2``).",
    "reciprocal": "``1 / x``, elementwise (integer division for integers, as NumPy's).",
    "rint": "Rounded to the nearest integer, halves to even, elementwise.",
    "sign": "-1, 0 or 1 by the sign of ``x`` (``x / |x|`` for complex numbers), elementwise; NaN stays NaN.",
    "signbit": "True where the sign bit is set (negative numbers and -0.0), elementwise.",
    "sin": "Sine, elementwise (radians).",
    "sinh": "Hyperbolic sine, elementwise.",
    "sqrt": "Non-negative square root, elementwise (NaN for negative reals; complex roots of complex numbers).",
    "square": "``x * x``, elementwise.",
    "subtract": "Difference of the arguments, elementwise (``x1 - x2``).",
    "tan": "Tangent, elementwise (radians).",
    "tanh": "Hyperbolic tangent, elementwise.",
    "trunc": "The integer part of ``x``, rounded towards zero, elementwise.",
}

_CALL = """
Parameters
----------
{inputs}
out : ndarray, optional
    Where the result goes: a pygpu array of the result's shape on the inputs' device (also
    ``out=(array,)``). Made when absent.
dtype : dtype, optional
    The type the loop computes in (the inputs are cast to it by ``casting``).
casting : {{'no', 'equiv', 'safe', 'same_kind', 'unsafe'}}, optional
    NumPy's casting rule for the inputs and ``out``; ``'same_kind'`` by default.

Returns
-------
ndarray
    On the inputs' device, of the type NumPy's promotion gives (NEP 50: Python scalars are weak).

Notes
-----
As ``numpy.{name}``, with NumPy's loops, type resolution and special values; it runs on the
device of its array arguments. ``{name}.reduce``, ``.accumulate``, ``.reduceat`` and ``.at``
are NumPy's methods where NumPy defines them for this ufunc. ``np.{name}(x)`` of a pygpu array
comes here through ``__array_ufunc__``.
"""


def _signature(nin):
    names = ["x"] if nin == 1 else ["x%d" % (i + 1) for i in range(nin)]
    params = [_P(n, _P.POSITIONAL_ONLY) for n in names]
    params.append(_P("out", _P.POSITIONAL_OR_KEYWORD, default=None))
    params += [_P("dtype", _P.KEYWORD_ONLY, default=None), _P("casting", _P.KEYWORD_ONLY, default="same_kind")]
    return inspect.Signature(params), names


def document(ufunc):
    """Gives an op-table ufunc its docstring and signature (those made by vectorize have theirs)."""
    name = ufunc.__name__
    summary = _SUMMARY.get(name)
    if summary is None or "__doc__" in ufunc.__dict__:
        return
    signature, names = _signature(ufunc.nin)
    inputs = "\n".join("%s : array_like\n    An input: a pygpu array, a NumPy array, a Python or NumPy scalar." % n
                       for n in names)
    ufunc.__signature__ = signature
    ufunc.__doc__ = "%s%s\n\n%s\n%s" % (name, signature, summary, _CALL.format(inputs=inputs, name=name))
