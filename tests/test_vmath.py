"""The CPU's vectorised float32 sin, cos, exp and log (csrc/kernels/vmath_cpu.c): error in ulps
against float64 references, for every instruction-set variant this CPU runs, through the ufuncs
(contiguous and buffered paths) and the VM; special values as NumPy gives them."""
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


@pytest.mark.parametrize("name", ["sin", "exp", "log"])
def test_every_path_agrees(name):
    """Contiguous, strided (buffered), in place and the VM give the same results."""
    x = np.abs(arguments(name, 5000)) + np.float32(0.5)
    a = pygpu.asarray(x, device=CPU)
    contiguous = getattr(pygpu, name)(a).get()
    strided = getattr(pygpu, name)(pygpu.asarray(np.repeat(x, 2), device=CPU)[::2]).get()
    assert_array_equal(strided, contiguous)
    b = pygpu.asarray(x, device=CPU)
    getattr(pygpu, name)(b, out=b)
    assert_array_equal(b, contiguous)
    fn = {"sin": math.sin, "exp": math.exp, "log": math.log}[name]
    vm = pygpu.vectorize(["float32(float32)"])(lambda v: fn(v))
    assert_array_equal(vm(a), contiguous)
