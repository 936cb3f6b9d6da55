"""NumPy ufuncs the op table has no loop for, as Python functions that the compiler compiles like
any user function (vectorize): pygpu.gcd and pygpu.lcm, and np.gcd / np.lcm inside fuse; and
round(x, ndigits) of a run-time ndigits."""
import math


def gcd_of(a, b):
    a = abs(a)
    b = abs(b)
    if b < 0:   # abs(-2**63) wraps: Euclid's divisor stays positive (NumPy's gcd is unsigned)
        a, b = b, a
    while b != 0:
        a, b = b, a % b
    return a


def lcm_of(a, b):
    g = gcd_of(a, b)
    if g == 0:
        return g
    return abs(a // g * b)   # as NumPy's, wrapping where it wraps


def round_ndigits(x, ndigits):
    # round(x, ndigits) with ndigits known at run time only: Numba's CUDA implementation
    # (cudaimpl.round_to_impl, CPython's fallback double_round), in float64
    if math.isinf(x) or math.isnan(x):
        return x
    pow2 = 1.0
    if ndigits >= 0:
        if ndigits > 22:   # pow1 * pow2 == 10 ** ndigits could overflow where each does not
            pow1 = 10.0 ** (ndigits - 22)
            pow2 = 1e22
        else:
            pow1 = 10.0 ** ndigits
        y = (x * pow1) * pow2
        if math.isinf(y):
            return x
    else:
        pow1 = 10.0 ** (-ndigits)
        y = x / pow1
    z = round(y)
    if math.fabs(y - z) == 0.5:   # halfway: to even
        z = 2.0 * round(y / 2.0)
    if ndigits >= 0:
        z = (z / pow2) / pow1
    else:
        z *= pow1
    return z
