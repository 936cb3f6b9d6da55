"""NumPy ufuncs the op table has no loop for, as Python functions that the compiler compiles like
any user function (vectorize): pygpu.gcd and pygpu.lcm, and np.gcd / np.lcm inside fuse."""


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
