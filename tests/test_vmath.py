"""The CPU's vectorised float32 sin, cos, exp and log and float64 exp and log
(csrc/kernels/vmath_cpu.c): error in ulps against float64 (long double) references, for every
instruction-set variant this CPU runs, through the ufuncs (contiguous and buffered paths) and the
VM; special values as NumPy gives them."""
import math

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

CPU = pygpu.Device("cpu")
VARIANTS = ["x86-64-v4", "x86-64-v3", "baseline"]
# max ulp error of each function (NumPy's own float32 loops: sin/cos 1.5, exp 2.3, log 3.6)
BOUND = {"sin": 1.6, "cos": 1.6, "exp": 1.1, "log": 1.0}


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


def arguments(name, n=400_000):
    rng = np.random.default_rng(7)
    if name in ("sin", "cos"):
        parts = [rng.uniform(-10, 10, n), rng.uniform(-71476, 71476, n), rng.uniform(-1e-3, 1e-3, n // 4),
                 rng.uniform(-1e7, 1e7, n // 8)]
    elif name == "exp":
        parts = [rng.uniform(-104, 89, n), rng.uniform(-1, 1, n)]
    else:
        parts = [np.exp(rng.uniform(np.log(1e-37), np.log(3e38), n)), rng.uniform(0.5, 2, n),
                 rng.uniform(0.999, 1.001, n // 4), rng.uniform(0, 1e-38, n // 8)]
    return np.concatenate(parts).astype(np.float32)


@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log"])
def test_ulp_error(variant, name):
    x = arguments(name)
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x.astype(np.float64))
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    err = ulps(got, ref)
    assert err.max() <= BOUND[name], (variant, name, err.max(), x[np.argmax(err)])


@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log"])
def test_special_values(variant, name):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-39, 1e30, -1e30, 3.4e38, 88.72284,
                  88.72283, -103.97208, -103.97, -150.0, 1.0, -1.0, 71476.0, 71477.0], np.float32)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x)
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    same_class = (np.isnan(got) == np.isnan(expected)) & (np.isinf(got) == np.isinf(expected))
    assert same_class.all(), (name, x[~same_class], got[~same_class])
    finite = np.isfinite(expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=3e-7, atol=0)
    np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]))
    assert_array_equal(got[np.isinf(expected)], expected[np.isinf(expected)])



# ------------------------------------------------------------------ float64 exp and log
# max ulp error (measured 0.77 and 0.86 on 10^7 arguments; glibc's: 0.73 and 0.62)
BOUND64 = {"exp": 0.9, "log": 0.95}
EXTENDED = np.finfo(np.longdouble).nmant >= 63   # x86's 80-bit long double: a reference to 2^-64


def arguments64(name, n=400_000):
    rng = np.random.default_rng(8)
    if name == "exp":
        parts = [rng.uniform(-745.2, 709.8, n), rng.uniform(-1, 1, n), rng.uniform(-1e-6, 1e-6, n // 4),
                 rng.uniform(-745.2, -708, n // 4), rng.uniform(700, 709.78, n // 4)]
    else:
        parts = [np.exp(rng.uniform(np.log(1e-307), np.log(1.7e308), n)), rng.uniform(0.5, 2, n),
                 rng.uniform(0.999, 1.001, n // 4), 1 + rng.uniform(-1e-9, 1e-9, n // 4), rng.uniform(0, 1e-308, n // 8)]
    return np.concatenate(parts)


@pytest.mark.skipif(not EXTENDED, reason="needs an extended-precision long double for the reference")
@pytest.mark.parametrize("name", ["exp", "log"])
def test_ulp_error_float64(variant, name):
    x = arguments64(name)
    with np.errstate(all="ignore"):
        ref = getattr(np, name)(x.astype(np.longdouble))
        ref64 = ref.astype(np.float64)
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    ok = np.isfinite(ref64) & (np.abs(ref64) >= np.finfo(np.float64).tiny)
    err = (np.abs(got[ok].astype(np.longdouble) - ref[ok]) / np.spacing(np.abs(ref64[ok]))).astype(np.float64)
    assert err.max() <= BOUND64[name], (variant, name, err.max(), x[ok][np.argmax(err)])
    # subnormal results: within one subnormal step of the exact value (rounded once)
    sub = np.isfinite(ref64) & ~ok
    step = np.finfo(np.float64).smallest_subnormal
    assert (np.abs(got[sub].astype(np.longdouble) - ref[sub]) <= step).all()


@pytest.mark.parametrize("name", ["exp", "log"])
def test_special_values_float64(variant, name):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e300,
                  -1e300, 1.7976931348623157e308, 709.782712893384, 709.7827128933841, -745.1332191019411,
                  -745.1332191019412, -745.2, -708.4, -800.0, 1.0, -1.0, 0.5, 2.0, np.e, 1e-20, -1e-20])
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x)
    got = getattr(pygpu, name)(pygpu.asarray(x, device=CPU)).get()
    same_class = (np.isnan(got) == np.isnan(expected)) & (np.isinf(got) == np.isinf(expected))
    assert same_class.all(), (name, x[~same_class], got[~same_class])
    finite = np.isfinite(expected) & (np.abs(expected) >= np.finfo(np.float64).tiny)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=4e-16, atol=0)
    small = np.isfinite(expected) & ~finite
    assert (np.abs(got[small] - expected[small]) <= np.finfo(np.float64).smallest_subnormal).all()
    np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]))
    assert_array_equal(got[np.isinf(expected)], expected[np.isinf(expected)])
    assert_array_equal(got[[x.tolist().index(1.0)]], expected[[x.tolist().index(1.0)]])   # exp(1), log(1) exact


@pytest.mark.parametrize("name, dt", [("sin", "float32"), ("exp", "float32"), ("log", "float32"),
                                      ("exp", "float64"), ("log", "float64")])
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
    fn = {"sin": math.sin, "exp": math.exp, "log": math.log}[name]
    vm = pygpu.vectorize([f"{dt}({dt})"])(lambda v: fn(v))
    assert_array_equal(vm(a), contiguous)
    for size in (1, 7, 1023, 1024, 1025, 4097):
        assert_array_equal(getattr(pygpu, name)(a[:size]).get(), contiguous[:size])
