"""Fits the polynomial coefficients of csrc/kernels/random_math.h (run by hand; prints C).

Each function is reduced to a smooth function of z = x*x on a small interval and approximated by
mpmath's Chebyshev fit (near-minimax), evaluated at 60 digits, then rounded to the target type.
The tests measure the ulp error of the finished functions (tests/test_random_math.py)."""
import mpmath as mp

mp.mp.dps = 60


def fit(name, f, lo, hi, degree):
    coeffs, err = mp.chebyfit(f, [lo, hi], degree + 1, error=True)
    coeffs = coeffs[::-1]  # lowest degree first
    print(f"/* {name}: degree {degree} on [{mp.nstr(lo, 6)}, {mp.nstr(hi, 6)}], fit error {mp.nstr(err, 3)} */")
    for k, c in enumerate(coeffs):
        print(f"#define {name}{k} {mp.nstr(c, 21, min_fixed=-1000, max_fixed=1000)}")
    return coeffs


# log(1+f) = f - hfsq + s*(hfsq + z*G(z)), s = f/(2+f), z = s*s, G(z) = (2 atanh(s)/s - 2)/z.
# For m in [sqrt(1/2), sqrt(2)): |s| <= (sqrt(2)-1)/(sqrt(2)+1) = 3 - 2 sqrt(2).
zmax = (3 - 2 * mp.sqrt(2)) ** 2


def G(z):
    if z == 0:
        return mp.mpf(2) / 3
    s = mp.sqrt(z)
    return (2 * mp.atanh(s) / s - 2) / z


fit("PG_LOGF_G", G, 0, zmax, 2)
fit("PG_LOG_G", G, 0, zmax, 6)

# exp(r) = 1 + r + r*c/(2 - c), c = r - z*P(z), z = r*r, P(z) = (r coth(r/2) - 2)/z, |r| <= ln2/2.
rmax = mp.log(2) / 2


def P(z):
    if z == 0:
        return mp.mpf(1) / 6
    r = mp.sqrt(z)
    return (r * mp.coth(r / 2) - 2) / z


fit("PG_EXP_P", P, 0, rmax ** 2, 4)

# sin(x) = x + x*z*S(z), cos(x) = 1 - z/2 + z*z*C(z), z = x*x, |x| <= pi/4.
zmax = (mp.pi / 4) ** 2


def S(z):
    if z == 0:
        return -mp.mpf(1) / 6
    x = mp.sqrt(z)
    return (mp.sin(x) / x - 1) / z


def C(z):
    if z == 0:
        return mp.mpf(1) / 24
    x = mp.sqrt(z)
    return (mp.cos(x) - 1 + z / 2) / (z * z)


fit("PG_SINF_S", S, 0, zmax, 3)
fit("PG_COSF_C", C, 0, zmax, 2)
fit("PG_SIN_S", S, 0, zmax, 6)
fit("PG_COS_C", C, 0, zmax, 5)
