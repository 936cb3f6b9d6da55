"""The CPU's whole-array math (csrc/kernels/vmath_cpu.c, vmath_elements.h): error in ulps against
float64 (for float32) and long double (for float64) references, for every instruction-set variant
this CPU runs, through the ufuncs (contiguous and buffered paths) and the VM; special values as
NumPy gives them."""
import ctypes
import ctypes.util
import math
from fractions import Fraction

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

CPU = pygpu.Device("cpu")
VARIANTS = ["x86-64-v4", "x86-64-v3", "baseline"]
# max ulp error of each float32 function (NumPy's own float32 loops: sin/cos 1.5, exp 2.3,
# log 3.6); the functions computed in double precision give the exact value rounded (0.5 ulp)
BOUND = {"sin": 1.6, "cos": 1.6, "exp": 1.1, "log": 1.0}
IN_DOUBLE = ["tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
             "exp2", "expm1", "log2", "log10", "log1p", "cbrt"]
BOUND.update({name: 0.501 for name in IN_DOUBLE})
FLOAT32 = list(BOUND)


@pytest.fixture(params=VARIANTS)
def variant(request):
    before = pygpu._core._vmath_variant()
    if pygpu._core._vmath_variant(request.param) is None:
        pytest.skip(f"this CPU does not run the {request.param} variant")
    yield request.param
    pygpu._core._vmath_variant(before)


def ulps(got, ref):
    """|got - ref| in units of float32 spacing at ref, over finite normal references."""
    with np.errstate(over="ignore"):
        ref32 = ref.astype(np.float32)
    ok = np.isfinite(ref32) & (np.abs(ref) >= np.finfo(np.float32).tiny)
    spacing = np.spacing(np.abs(ref32[ok])).astype(np.float64)
    return np.abs(got[ok].astype(np.float64) - ref[ok]) / spacing


def ulps64(got, ref):
    """|got - ref| in float64 ulps at ref (a long double reference), over normal results"""
    with np.errstate(over="ignore"):
        ref64 = ref.astype(np.float64)
    ok = np.isfinite(ref64) & (np.abs(ref64) >= np.finfo(np.float64).tiny)
    return (np.abs(got[ok].astype(np.longdouble) - ref[ok]) / np.spacing(np.abs(ref64[ok]))).astype(np.float64)


def magnitudes(rng, low, high, n):
    """n values spread evenly in log scale over [low, high]"""
    return np.exp(rng.uniform(np.log(low), np.log(high), n))


def signed(rng, x):
    return np.where(rng.random(len(x)) < 0.5, -x, x)


def arguments(name, n=400_000):
    """float32 arguments over each function's whole range, and about its hard places"""
    rng = np.random.default_rng(7)
    if name in ("sin", "cos", "tan"):
        parts = [rng.uniform(-10, 10, n), rng.uniform(-71476, 71476, n), rng.uniform(-1e-3, 1e-3, n // 4)]
        if name == "tan":  # the float32 values nearest the poles and zeros (past 71476 libm's tanf, 0.8 ulp)
            parts.append(np.arange(-45000, 45000) * (np.pi / 2))
        else:
            parts.append(rng.uniform(-1e7, 1e7, n // 8))
    elif name in ("exp", "expm1"):
        parts = [rng.uniform(-104, 89, n), rng.uniform(-1, 1, n), signed(rng, magnitudes(rng, 1e-40, 1e-3, n // 4))]
    elif name == "exp2":
        parts = [rng.uniform(-151, 128.5, n), rng.uniform(-1, 1, n), np.arange(-149, 128)]
    elif name in ("sinh", "cosh"):
        parts = [rng.uniform(-89.5, 89.5, n), rng.uniform(-2, 2, n), signed(rng, magnitudes(rng, 1e-40, 1e-2, n // 4))]
    elif name == "tanh":
        parts = [rng.uniform(-12, 12, n), rng.uniform(-1, 1, n), signed(rng, magnitudes(rng, 1e-40, 1e-2, n // 4))]
    elif name in ("arcsin", "arccos", "arctanh"):
        parts = [rng.uniform(-1, 1, n), signed(rng, 1 - magnitudes(rng, 6e-8, 1e-2, n // 4)),
                 signed(rng, magnitudes(rng, 1e-40, 1e-2, n // 4))]
    elif name in ("arctan", "arcsinh", "cbrt"):
        parts = [signed(rng, magnitudes(rng, 1e-45, 3e38, n)), rng.uniform(-3, 3, n)]
    elif name == "arccosh":
        parts = [1 + magnitudes(rng, 1e-7, 3e38, n), rng.uniform(1, 3, n)]
    elif name == "log1p":
        parts = [magnitudes(rng, 1e-45, 3e38, n), rng.uniform(-1, 1, n), -magnitudes(rng, 1e-45, 1, n // 4)]
    else:  # log, log2, log10
        parts = [magnitudes(rng, 1e-37, 3e38, n), rng.uniform(0.5, 2, n),
                 rng.uniform(0.999, 1.001, n // 4), rng.uniform(0, 1e-38, n // 8)]
    return np.concatenate(parts).astype(np.float32)


@pytest.mark.parametrize("name", FLOAT32)
def test_ulp_error(variant, name):
    x = arguments(name)
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x.astype(np.float64))
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    err = ulps(got, ref)
    assert err.max() <= BOUND[name], (variant, name, err.max(), x[np.argmax(err)])
    # results that underflow to float32's subnormals: the exact value rounded, within one step
    sub = np.isfinite(ref) & (np.abs(ref) < np.finfo(np.float32).tiny)
    assert (np.abs(got[sub] - ref[sub]) <= np.finfo(np.float32).smallest_subnormal).all()


SPECIAL32 = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-39, 1e30, -1e30, 3.4e38, -3.4e38, 88.72284,
             88.72283, 89.5, -89.5, -103.97208, -103.97, -150.0, 128.0, 127.99, 1.0, -1.0, 0.5, -0.5, 2.0, 8.0,
             1000.0, 71476.0, 71477.0, 1.0000001, 0.99999994, -0.99999994, 1e-7, -1e-7, 1e-20, 1.5707964, 20.0]


@pytest.mark.parametrize("name", FLOAT32)
def test_special_values(variant, name):
    x = np.array(SPECIAL32, np.float32)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x)
        reference = getattr(np, name)(x.astype(np.float64))
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    same_class = (np.isnan(got) == np.isnan(expected)) & (np.isinf(got) == np.isinf(expected))
    assert same_class.all(), (name, x[~same_class], got[~same_class])
    finite = np.isfinite(expected)
    err = ulps(got[finite], reference[finite])
    assert err.max(initial=0) <= BOUND[name], (name, x[finite][np.argmax(err)])
    np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]))
    assert_array_equal(got[np.isinf(expected)], expected[np.isinf(expected)])


# ------------------------------------------------------------------ power and arctan2
BINARY = [("power", "float32"), ("arctan2", "float32"), ("power", "float64"), ("arctan2", "float64")]


def arguments2(name, dt="float32", n=400_000):
    """pairs over the functions' ranges (float32's negative bases go to libm)"""
    rng = np.random.default_rng(9)
    big = 3e38 if dt == "float32" else 1.7e308
    if name == "power":
        x = [magnitudes(rng, 1e-45, 3e38, n), rng.uniform(0, 3, n), rng.uniform(-3, 3, n // 4), rng.uniform(0.9, 1.1, n)]
        y = [rng.uniform(-4, 4, n), rng.uniform(-30, 30, n), rng.integers(-5, 6, n // 4), rng.uniform(-1000, 1000, n)]
        if dt == "float64":  # the whole range, results near overflow and underflow, x near 1 with large y
            x += [magnitudes(rng, 1e-307, 1e308, n), rng.uniform(1.0, 1.5, n // 4), rng.uniform(0.5, 1.0, n // 4),
                  1 + signed(rng, magnitudes(rng, 1e-15, 1e-3, n // 4)), rng.uniform(-10, 10, n // 4)]
            y += [rng.uniform(-1, 1, n), 709.7 / np.log(rng.uniform(1.0001, 1.5, n // 4)),
                  -745 / -np.log(rng.uniform(0.5, 0.9999, n // 4)), signed(rng, magnitudes(rng, 1, 1e17, n // 4)),
                  rng.integers(-300, 301, n // 4)]
    else:
        x = [signed(rng, magnitudes(rng, 1e-300, big, n)), rng.uniform(-2, 2, n), rng.uniform(-1, 1, n // 4)]
        y = [signed(rng, magnitudes(rng, 1e-300, big, n)), rng.uniform(-2, 2, n), np.zeros(n // 4)]
    return np.concatenate(x).astype(dt), np.concatenate(y).astype(dt)


@pytest.mark.parametrize("name, dt", BINARY)
def test_ulp_error_binary(variant, name, dt):
    x, y = arguments2(name, dt)
    if dt == "float64" and not EXTENDED:
        pytest.skip("needs an extended-precision long double for the reference")
    wide = np.float64 if dt == "float32" else np.longdouble
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x.astype(wide), y.astype(wide))
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU)).get()
    if dt == "float64":  # power 0.64 measured (NumPy's own 0.73), arctan2 0.75
        assert ulps64(got, ref).max() <= 0.8, (variant, name)
        return
    ours = x > 0 if name == "power" else np.ones(len(x), bool)   # negative bases: libm's powf (0.5015)
    assert ulps(got[ours], ref[ours]).max() <= 0.501, (variant, name)
    assert ulps(got, ref).max() <= 1.0
    sub = np.isfinite(ref) & (np.abs(ref) < np.finfo(np.float32).tiny)
    assert (np.abs(got[sub] - ref[sub]) <= np.finfo(np.float32).smallest_subnormal).all()


@pytest.mark.parametrize("name, dt", BINARY)
def test_special_values_binary(variant, name, dt):
    special = np.array(SPECIAL32 if dt == "float32" else SPECIAL64, dt)
    x, y = (a.ravel() for a in np.meshgrid(special, special))
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x, y)
        reference = getattr(np, name)(x.astype(np.float64), y.astype(np.float64))
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU)).get()
    same_class = (np.isnan(got) == np.isnan(expected)) & (np.isinf(got) == np.isinf(expected))
    assert same_class.all(), (name, x[~same_class], y[~same_class], got[~same_class])
    finite = np.isfinite(expected)
    if dt == "float32":
        assert ulps(got[finite], reference[finite]).max(initial=0) <= 1.0
    else:
        np.testing.assert_allclose(got[finite], expected[finite], rtol=3e-16, atol=1e-300)
    np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]))
    assert_array_equal(got[np.isinf(expected)], expected[np.isinf(expected)])


@pytest.mark.parametrize("name, dt", BINARY)
def test_binary_paths_agree(name, dt):
    """Both arrays, a scalar on either side, strided, in place and the VM give the same results
    (x ** 3, 2 ** x, arctan2(y, 1))."""
    rng = np.random.default_rng(3)
    x = rng.uniform(0.1, 4, 3000).astype(dt)
    y = rng.uniform(-3, 3, 3000).astype(dt)
    px, py = pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU)
    f = getattr(pygpu, name)
    both = f(px, py).get()
    np.testing.assert_allclose(both, getattr(np, name)(x, y), rtol=4 * np.finfo(dt).eps)
    assert_array_equal(f(pygpu.asarray(np.repeat(x, 2), device=CPU)[::2], py), both)
    for size in (1, 7, 1023, 1024, 1025):
        assert_array_equal(f(px[:size], py[:size]), both[:size])
    assert_array_equal(f(px, np.dtype(dt).type(3)), f(px, pygpu.full_like(px, 3)))
    assert_array_equal(f(np.dtype(dt).type(2), py), f(pygpu.full_like(py, 2), py))
    inplace = pygpu.asarray(x, device=CPU)
    f(inplace, py, out=inplace)
    assert_array_equal(inplace, both)
    inplace = pygpu.asarray(y, device=CPU)
    f(px, inplace, out=inplace)
    assert_array_equal(inplace, both)
    fn = {"power": math.pow, "arctan2": math.atan2}[name]
    vm = pygpu.vectorize([f"{dt}({dt}, {dt})"])(lambda v, w: fn(v, w))
    assert_array_equal(vm(px, py), both)
    if name == "power":
        assert_array_equal(px ** 3, f(px, pygpu.full_like(px, 3)))
        negative = -px  # integer exponents of negative bases: the sign by the exponent's parity
        for k in (-3, 2, 3, 2 ** 52 + 1, 2.0 ** 53):
            k = np.dtype(dt).type(k)
            with np.errstate(over="ignore", under="ignore"):
                expected = np.power(-x, k)
            np.testing.assert_allclose(pygpu.power(negative, k).get(), expected, rtol=2 * np.finfo(dt).eps)
        assert np.isnan(pygpu.power(negative, np.dtype(dt).type(0.5)).get()).all()


# ------------------------------------------------------------------ float64
# max ulp error: exp 0.77 and log 0.86 measured over 10^7 arguments; the others over 1.4-4 million
# (about these same ranges): exp2 0.63, expm1 0.90, log2 0.78, log10 0.70, log1p 0.81, sinh 0.82,
# cosh 0.87, tanh 0.77, arcsinh 0.81, arccosh 0.80, arctanh 0.78, arcsin 0.66, arccos 0.62,
# arctan 0.75, arctan2 0.75, sin 0.77, cos 0.77, tan 1.0 (0.88 with FMA), cbrt 0.50 (NumPy's own
# float64 loops on this machine: 0.73, 0.53, 0.52, 0.60, 0.60, 0.86, 0.75, 1.19, 0.73, 0.72,
# 0.51, 0.82, 0.82, 0.55, 0.79, 0.52, 0.52, 0.57, 0.55)
BOUND64 = {"exp": 0.9, "log": 0.95, "exp2": 0.7, "expm1": 0.95, "log2": 0.85, "log10": 0.8, "log1p": 0.9,
           "sinh": 0.9, "cosh": 0.95, "tanh": 0.85, "arcsinh": 0.9, "arccosh": 0.9, "arctanh": 0.85,
           "arcsin": 0.7, "arccos": 0.7, "arctan": 0.8, "sin": 0.85, "cos": 0.85, "tan": 1.1, "cbrt": 0.55}
FLOAT64 = list(BOUND64)
EXTENDED = np.finfo(np.longdouble).nmant >= 63   # x86's 80-bit long double: a reference to 2^-64


def arguments64(name, n=400_000):
    rng = np.random.default_rng(8)
    if name == "exp":
        parts = [rng.uniform(-745.2, 709.8, n), rng.uniform(-1, 1, n), rng.uniform(-1e-6, 1e-6, n // 4),
                 rng.uniform(-745.2, -708, n // 4), rng.uniform(700, 709.78, n // 4)]
    elif name == "exp2":
        parts = [rng.uniform(-1075, 1024, n), rng.uniform(-1, 1, n), rng.uniform(-1e-6, 1e-6, n // 4),
                 rng.uniform(-1075, -1020, n // 4)]
    elif name == "expm1":
        parts = [rng.uniform(-60, 709.7, n), rng.uniform(-2, 2, n), signed(rng, magnitudes(rng, 1e-300, 1e-2, n)),
                 rng.uniform(-40, 40, n)]
    elif name in ("sin", "cos", "tan"):  # past 2^19 pi/2 = 823550, libm's
        parts = [rng.uniform(-10, 10, n), rng.uniform(-823549, 823549, n), signed(rng, magnitudes(rng, 1e-300, 1e-2, n // 4)),
                 np.arange(-200_000, 200_000) * (np.pi / 2), np.arange(-200_000, 200_000) * (np.pi / 4),
                 rng.uniform(-1e10, 1e10, n // 8)]
    elif name == "cbrt":
        parts = [signed(rng, magnitudes(rng, 1e-307, 1.7e308, n)), rng.uniform(-3, 3, n), magnitudes(rng, 5e-324, 1e-300, n // 8)]
    elif name in ("sinh", "cosh"):
        parts = [rng.uniform(-710.4, 710.4, n), rng.uniform(-3, 3, n), signed(rng, magnitudes(rng, 1e-300, 1e-2, n // 4))]
    elif name == "tanh":
        parts = [rng.uniform(-20, 20, n), rng.uniform(-1, 1, n), signed(rng, magnitudes(rng, 1e-300, 1e-2, n // 4))]
    elif name == "log1p":
        parts = [magnitudes(rng, 1e-300, 1e300, n), rng.uniform(-1, 1, n), -magnitudes(rng, 1e-300, 1, n // 4)]
    elif name == "arcsinh":
        parts = [signed(rng, magnitudes(rng, 1e-300, 1.7e308, n)), rng.uniform(-3, 3, n),
                 signed(rng, magnitudes(rng, 1e8, 1e9, n // 4))]
    elif name == "arccosh":
        parts = [1 + magnitudes(rng, 1e-300, 1.7e308, n), rng.uniform(1, 3, n), magnitudes(rng, 1e8, 1e9, n // 4)]
    elif name in ("arctanh", "arcsin", "arccos"):
        parts = [rng.uniform(-1, 1, n), signed(rng, 1 - magnitudes(rng, 1.2e-16, 1e-2, n // 4)),
                 signed(rng, magnitudes(rng, 1e-300, 1e-2, n // 4))]
    elif name == "arctan":
        parts = [signed(rng, magnitudes(rng, 1e-300, 1.7e308, n)), rng.uniform(-3, 3, n),
                 np.arange(-64, 65) / 8 + rng.uniform(-1e-3, 1e-3, 129)]
    else:  # log, log2, log10
        parts = [magnitudes(rng, 1e-307, 1.7e308, n), rng.uniform(0.5, 2, n),
                 rng.uniform(0.999, 1.001, n // 4), 1 + rng.uniform(-1e-9, 1e-9, n // 4), rng.uniform(0, 1e-308, n // 8)]
    return np.concatenate(parts)


@pytest.mark.skipif(not EXTENDED, reason="needs an extended-precision long double for the reference")
@pytest.mark.parametrize("name", FLOAT64)
def test_ulp_error_float64(variant, name):
    x = arguments64(name)
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x.astype(np.longdouble))
        ref64 = ref.astype(np.float64)
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    assert ulps64(got, ref).max() <= BOUND64[name], (variant, name)
    # subnormal results: within one subnormal step of the exact value (rounded once)
    sub = np.isfinite(ref64) & (np.abs(ref64) < np.finfo(np.float64).tiny)
    step = np.finfo(np.float64).smallest_subnormal
    assert (np.abs(got[sub].astype(np.longdouble) - ref[sub]) <= step).all()


SPECIAL64 = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e300, -1e300,
             1.7976931348623157e308, 709.782712893384, 709.7827128933841, 710.4758600739439, 710.475860073944,
             -745.1332191019411, -745.1332191019412, -745.2, -708.4, -800.0, 1023.9999, 1024.0, -1074.0, -1075.0,
             -1076.0, 1.0, -1.0, 0.5, 2.0, np.e, 1e-20, -1e-20, 0.9999999999999999, -0.9999999999999999, 19.1, 20.5,
             1000.0, 36.8, 37.5, -37.5]


@pytest.mark.parametrize("name", FLOAT64)
def test_special_values_float64(variant, name):
    x = np.array(SPECIAL64)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x)
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    same_class = (np.isnan(got) == np.isnan(expected)) & (np.isinf(got) == np.isinf(expected))
    assert same_class.all(), (name, x[~same_class], got[~same_class])
    finite = np.isfinite(expected) & (np.abs(expected) >= np.finfo(np.float64).tiny)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=6e-16, atol=0)
    small = np.isfinite(expected) & ~finite
    assert (np.abs(got[small] - expected[small]) <= np.finfo(np.float64).smallest_subnormal).all()
    np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]))
    assert_array_equal(got[np.isinf(expected)], expected[np.isinf(expected)])


@pytest.mark.parametrize("name, dt", [("exp", "float32"), ("exp", "float64"), ("exp2", "float64"), ("log2", "float32"),
                                      ("log2", "float64"), ("log10", "float32"), ("log10", "float64"), ("cbrt", "float32"),
                                      ("cbrt", "float64"), ("power", "float64")])
def test_exact_results(variant, name, dt):
    """Powers of the base (and cubes) give the exact result, as libm's do."""
    k = np.arange(-20, 21) if name != "log10" else np.arange(0, 11 if dt == "float32" else 23)
    if name == "power":  # every exactly representable integer power of 2, 3, 5, 7, 10, -3, 0.5, 1.5
        pairs = [(b, e) for b in (2.0, 3.0, 5.0, 7.0, 10.0, -3.0, 0.5, 1.5, 0.75) for e in range(-40, 80)
                 if Fraction(b) ** e == Fraction(float(Fraction(b) ** e))]
        x, y = (np.array(v, dt) for v in zip(*pairs))
        expected = np.array([float(Fraction(b) ** e) for b, e in pairs])
        got = pygpu.power(pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU)).get()
        assert_array_equal(got, expected)
        return
    if name in ("exp", "exp2"):
        x, expected = (k if name == "exp2" else np.zeros(1)), (np.exp2(k) if name == "exp2" else np.ones(1))
    elif name == "cbrt":
        x, expected = k.astype(float) ** 3, k.astype(float)
    else:
        x, expected = (2.0 ** k if name == "log2" else 10.0 ** k), k
    got = getattr(pygpu, name)(pygpu.asarray(np.asarray(x, dt), device=CPU)).get()
    assert_array_equal(got, np.asarray(expected, dt))


@pytest.mark.parametrize("name, dt", [("sin", "float32"), ("exp", "float32"), ("log", "float32"), ("tanh", "float32"),
                                      ("arctan", "float32"), ("log1p", "float32"), ("exp", "float64"),
                                      ("log", "float64"), ("tanh", "float64"), ("log1p", "float64")])
def test_every_path_agrees(name, dt):
    """Contiguous, strided (buffered), in place, the VM, and lengths about the libm pass's chunks
    give the same results."""
    x = np.abs(arguments(name, 5000) if dt == "float32" else arguments64(name, 5000)) + np.dtype(dt).type(0.5)
    a = pygpu.asarray(x, device=CPU)
    contiguous = getattr(pygpu, name)(a).get()
    strided = getattr(pygpu, name)(pygpu.asarray(np.repeat(x, 2), device=CPU)[::2]).get()
    assert_array_equal(strided, contiguous)
    b = pygpu.asarray(x, device=CPU)
    getattr(pygpu, name)(b, out=b)
    assert_array_equal(b, contiguous)
    fn = {"sin": math.sin, "exp": math.exp, "log": math.log, "tanh": math.tanh, "arctan": math.atan,
          "log1p": math.log1p}[name]
    vm = pygpu.vectorize([f"{dt}({dt})"])(lambda v: fn(v))
    assert_array_equal(vm(a), contiguous)
    for size in (1, 7, 1023, 1024, 1025, 4097):
        assert_array_equal(getattr(pygpu, name)(a[:size]).get(), contiguous[:size])


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_sqrt_is_exact(variant, dt):
    """sqrt's whole-array loop (every variant, contiguous and through the strided path's blocks)
    gives IEEE's exactly rounded root, as NumPy's does, special values included."""
    rng = np.random.default_rng(4)
    tiny = np.finfo(dt).smallest_subnormal
    x = np.concatenate([magnitudes(rng, float(tiny), float(np.finfo(dt).max), 100_000), rng.uniform(0, 4, 10_000),
                        np.array(SPECIAL32 if dt == "float32" else SPECIAL64)]).astype(dt)
    with np.errstate(invalid="ignore"):
        expected = np.sqrt(x)
    assert_array_equal(pygpu.sqrt(pygpu.asarray(x, device=CPU)), expected)
    strided = pygpu.asarray(np.repeat(x, 2), device=CPU)[::2]
    assert_array_equal(pygpu.sqrt(strided), expected)
    assert_array_equal(np.signbit(pygpu.sqrt(pygpu.asarray(np.array([-0.0], dt), device=CPU)).get()), [True])


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(set(FLOAT32) | {"sqrt"}))
def test_many_nans(variant, name, dt):
    """Arrays with many missing values (NaN at random places, a third of them) and arguments
    that need the C library among them: NaN exactly where the inputs are, every other result bit
    for bit as without the NaNs."""
    rng = np.random.default_rng(17)
    x = (arguments(name, 20_000) if dt == "float32" else arguments64(name, 20_000)).astype(dt)
    x = np.concatenate([x, np.array([0.0, -0.0, np.inf, -np.inf, -1.0, 1e-310 if dt == "float64" else 1e-40],
                                    dtype=dt)])
    rng.shuffle(x)
    holes = rng.random(x.size) < 0.3
    with_nans = np.where(holes, np.nan, x).astype(dt)
    f = getattr(pygpu, name)
    clean = f(pygpu.asarray(x, device=CPU)).get()
    got = f(pygpu.asarray(with_nans, device=CPU)).get()
    assert np.isnan(got[holes]).all()
    assert_array_equal(got[~holes], clean[~holes])
    with np.errstate(all="ignore"):
        assert np.array_equal(np.isnan(got), np.isnan(getattr(np, name)(with_nans)))


DOMAIN_EDGES = {"log": [0.0, -0.0, -1.0, -3.5, np.inf, -np.inf], "log2": [0.0, -2.0, np.inf, -np.inf],
                "log10": [0.0, -0.0, -7.0, np.inf], "log1p": [-1.0, -1.5, -np.inf, np.inf],
                "arcsin": [1.5, -2.0, np.inf, -np.inf, 1.0, -1.0], "arccos": [1.5, -2.0, np.inf, 1.0, -1.0],
                "arccosh": [0.5, -1.0, 0.0, np.inf, -np.inf, 1.0], "arctanh": [1.0, -1.0, 1.5, -np.inf, np.inf]}


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(DOMAIN_EDGES))
def test_many_arguments_outside_the_domain(variant, name, dt):
    """A third of the arguments outside the function's domain or at its edges (log of zeros and
    negative numbers, arcsin past 1, ...), given in the vector pass: NaN or the infinity as the C
    library gives them (a NaN's sign is not compared: glibc's differs between its functions and
    versions), the others bit for bit as without them."""
    rng = np.random.default_rng(5)
    x = (arguments(name, 20_000) if dt == "float32" else arguments64(name, 20_000)).astype(dt)
    holes = rng.random(x.size) < 0.3
    edges = np.array(DOMAIN_EDGES[name], dt)
    mixed = x.copy()
    mixed[holes] = edges[rng.integers(0, edges.size, holes.sum())]
    f = getattr(pygpu, name)
    clean = f(pygpu.asarray(x, device=CPU)).get()
    got = f(pygpu.asarray(mixed, device=CPU)).get()
    assert_array_equal(got[~holes].view(np.uint8), clean[~holes].view(np.uint8))
    one_by_one = np.array([f(pygpu.asarray(edges[i:i + 1], device=CPU)).get()[0] for i in range(edges.size)], dt)
    cname = {"arcsin": "asin", "arccos": "acos", "arccosh": "acosh", "arctanh": "atanh"}.get(name, name)
    libm = getattr(ctypes.CDLL(ctypes.util.find_library("m")), cname + ("f" if dt == "float32" else ""))
    ctype = ctypes.c_float if dt == "float32" else ctypes.c_double
    libm.restype, libm.argtypes = ctype, [ctype]
    want = np.array([libm(float(v)) for v in edges], dt)
    assert_array_equal(one_by_one, want)
    for i, v in enumerate(edges):   # in the pass, among the others: the same values
        at = holes & (mixed == v)
        assert_array_equal(got[at], np.repeat(want[i:i + 1], at.sum()))
