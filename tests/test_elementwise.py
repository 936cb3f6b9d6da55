"""Every elementwise function of the op table against NumPy: each loop dtype, layouts (contiguous,
strided, negative strides, broadcast, 0-d, empty), special values, and the Python-composed
functions (where, clip, isclose, round, angle, real/imag)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import DEVICES, assert_array_equal, same_error

CHAR_DTYPES = {c: np.dtype(c) for c in "?bBhHiIlLefdFD"}

UFUNCS = sorted(name for name in dir(pygpu) if isinstance(getattr(pygpu, name), pygpu.ufunc)
                and getattr(pygpu, name).__name__ == name)


def test_ufunc_objects_match_numpy_names():
    assert len(UFUNCS) > 70
    for name in UFUNCS:
        uf = getattr(pygpu, name)
        npuf = getattr(np, name)
        assert uf.nin == npuf.nin and uf.nout == npuf.nout
        assert repr(uf) == f"<ufunc '{name}'>"
        # each pygpu loop is one of NumPy's loops (restricted to pygpu's dtypes), same order
        np_types = [t.replace("q", "l").replace("Q", "L") for t in npuf.types]   # int64 is 'l' here
        np_norm = list(dict.fromkeys(t for t in np_types if all(c in CHAR_DTYPES for c in t.replace("->", ""))))
        assert [t for t in np_norm if t in uf.types] == uf.types, name
        assert uf.ntypes == len(uf.types)
    # array API aliases are the same objects, as in NumPy
    assert pygpu.acos is pygpu.arccos and pygpu.pow is pygpu.power and pygpu.abs is pygpu.absolute
    assert pygpu.bitwise_invert is pygpu.invert and pygpu.conj is pygpu.conjugate


# ------------------------------------------------------------------ inputs per function

RNG = np.random.default_rng(1234)
UNIT = {"arccos", "arcsin", "arctanh"}
POSITIVE = {"log", "log2", "log10", "sqrt", "reciprocal"}


def sample(name, dt, shape, arg=0):
    """Values for input `arg` of ufunc `name` in dtype dt, inside the function's real domain."""
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return RNG.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -100), min(info.max, 100)
        if name in ("left_shift", "right_shift") and arg == 1:
            lo, hi = 0, dt.itemsize * 8 - 1
        if name == "power":
            lo, hi = (max(lo, -3), 4) if arg == 0 else (0, 5)
        v = RNG.integers(lo, hi + 1, n)
        return v.astype(dt).reshape(shape)
    lo, hi = -3.0, 3.0
    if name in UNIT:
        lo, hi = -0.95, 0.95
    elif name in POSITIVE or (name == "power" and arg == 0):
        lo, hi = 0.1, 4.0
    elif name == "arccosh":
        lo, hi = 1.05, 4.0
    elif name == "log1p":
        lo, hi = -0.9, 4.0
    v = RNG.uniform(lo, hi, n)
    if dt.kind == "c":
        v = v + 1j * RNG.uniform(lo, hi, n)
    return v.astype(dt).reshape(shape)


def tolerance(name, dt):
    """rtol/atol for comparing with NumPy: exact for integers and exact float operations, a few
    ulp for the transcendental functions."""
    dt = np.dtype(dt)
    if dt.kind in "biu" or name in EXACT:
        return dict(rtol=0, atol=0)
    eps = {2: 1e-3, 4: 2e-6, 8: 4e-15, 16: 4e-15}[dt.itemsize if dt.kind != "c" else dt.itemsize // 2]
    factor = 8 if dt.kind == "c" else 4
    return dict(rtol=factor * eps, atol=factor * eps)


EXACT = {"add", "subtract", "multiply", "negative", "positive", "absolute", "fabs", "square", "maximum",
         "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
         "logical_and", "logical_or", "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "signbit",
         "floor", "ceil", "trunc", "rint", "copysign", "nextafter", "sign", "conjugate", "heaviside",
         "floor_divide", "remainder", "fmod", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
         "left_shift", "right_shift", "ldexp"}


def compare(name, got, expected, dt):
    got = got.get() if isinstance(got, pygpu.ndarray) else got
    assert got.dtype == expected.dtype, (name, dt, got.dtype, expected.dtype)
    assert got.shape == expected.shape
    tol = tolerance(name, expected.dtype if expected.dtype.kind in "fc" else dt)
    if np.dtype(dt).kind == "c" and expected.dtype.kind in "fc" and name not in ("add", "subtract", "negative"):
        tol = tolerance("exp", expected.dtype)  # complex math (hypot, division) within a few ulp
    np.testing.assert_allclose(got, expected, equal_nan=True, err_msg=f"{name} {dt}", **tol)


def run_both(name, np_args, pg_args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = getattr(np, name)(*np_args)
    got = getattr(pygpu, name)(*pg_args)
    return got, expected


@pytest.mark.parametrize("name", UFUNCS)
def test_every_loop(device, name):
    """Every loop of every ufunc on contiguous arrays, against NumPy."""
    uf = getattr(pygpu, name)
    for types in uf.types:
        dt = CHAR_DTYPES[types[0]]
        in_dts = [CHAR_DTYPES[c] for c in types[:uf.nin]]
        np_args = [sample(name, d, (7,), arg=i) for i, d in enumerate(in_dts)]
        pg_args = [pygpu.asarray(a, device=device) for a in np_args]
        got, expected = run_both(name, np_args, pg_args)
        compare(name, got, expected, dt)


LAYOUT_DTYPES = ["i4", "f4", "f8", "c16"]


def strided_view(x, device):
    """A pygpu view with every other element of a larger array, equal to x."""
    shape = x.shape
    base = np.zeros(shape[:-1] + (2 * shape[-1],), x.dtype)
    base[..., ::2] = x
    pb = pygpu.asarray(base, device=device)
    strides = pb.strides[:-1] + (2 * x.itemsize,)
    return pygpu._core._as_strided(pb, shape, strides)


def reversed_view(x, device):
    """A pygpu view with negative strides in every dimension, equal to x."""
    pb = pygpu.asarray(np.ascontiguousarray(x[(slice(None, None, -1),) * x.ndim]), device=device)
    offset = (x.size - 1) * x.itemsize
    return pygpu._core._as_strided(pb, x.shape, tuple(-s for s in pb.strides), offset)


def transposed_view(x, device):
    pb = pygpu.asarray(np.ascontiguousarray(x.T), device=device)
    return pygpu._core._as_strided(pb, x.shape, pb.strides[::-1])


LAYOUTS = {
    "strided": strided_view,
    "negative": reversed_view,
    "transposed": transposed_view,
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name", UFUNCS)
def test_layouts(device, name, layout):
    uf = getattr(pygpu, name)
    for types in uf.types:
        if types[0] not in "iefdD" or (types[0] == "e" and layout != "strided"):
            continue
        in_dts = [CHAR_DTYPES[c] for c in types[:uf.nin]]
        np_args = [sample(name, d, (3, 5), arg=i) for i, d in enumerate(in_dts)]
        pg_args = [LAYOUTS[layout](a, device) for a in np_args]
        for a, p in zip(np_args, pg_args):
            assert_array_equal(p, a)
        got, expected = run_both(name, np_args, pg_args)
        compare(name, got, expected, in_dts[0])


@pytest.mark.parametrize("name", [n for n in UFUNCS if getattr(pygpu, n).nin == 2])
def test_column_broadcast_rows(device, name):
    """A column (or a whole plane) broadcast along rows long enough to run row by row, each row
    with the column's element as its scalar: every loop, either input broadcast or both, and a
    column that is itself a strided view."""
    uf = getattr(pygpu, name)
    for types in uf.types:
        if types[0] not in "?iefdD":
            continue
        in_dts = [CHAR_DTYPES[c] for c in types[:2]]
        for shapes in (((5, 33), (5, 1)), ((5, 1), (5, 33)), ((2, 3, 40), (1, 3, 1)), ((4, 1, 20), (4, 3, 1))):
            np_args = [sample(name, d, s, arg=i) for i, (d, s) in enumerate(zip(in_dts, shapes))]
            pg_args = [pygpu.asarray(a, device=device) for a in np_args]
            got, expected = run_both(name, np_args, pg_args)
            compare(name, got, expected, in_dts[0])
        wide = sample(name, in_dts[1], (5, 2), arg=1)
        column = pygpu.asarray(wide, device=device)[:, 1:]   # stride two elements
        base = sample(name, in_dts[0], (5, 33), arg=0)
        got, expected = run_both(name, (base, wide[:, 1:]), (pygpu.asarray(base, device=device), column))
        compare(name, got, expected, in_dts[0])


@pytest.mark.parametrize("name", [n for n in UFUNCS if getattr(pygpu, n).nin == 2])
def test_broadcast_scalar_0d_empty(device, name):
    uf = getattr(pygpu, name)
    types = [t for t in uf.types if t[0] in "fdil"][0]
    d0, d1 = CHAR_DTYPES[types[0]], CHAR_DTYPES[types[1]]
    cases = [((4, 1, 3), (5, 1)), ((), (3,)), ((), ()), ((0, 3), (3,)), ((2, 0), (1, 0)), ((1,), (3, 1))]
    for s0, s1 in cases:
        a, b = sample(name, d0, s0, 0), sample(name, d1, s1, 1)
        got, expected = run_both(name, (a, b), (pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)))
        assert isinstance(got, pygpu.ndarray)
        compare(name, got, expected, d0)


@pytest.mark.parametrize("name", [n for n in UFUNCS if getattr(pygpu, n).nin == 1])
def test_unary_0d_empty(device, name):
    uf = getattr(pygpu, name)
    dt = CHAR_DTYPES[[t for t in uf.types if t[0] in "fdil"][0][0]]
    for shape in [(), (0,), (3, 0, 2)]:
        a = sample(name, dt, shape)
        got, expected = run_both(name, (a,), (pygpu.asarray(a, device=device),))
        assert isinstance(got, pygpu.ndarray) and got.shape == shape
        compare(name, got, expected, dt)


# ------------------------------------------------------------------ special values

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-30, -1e-30, 1e30,
                    -1e30, 3.0, 100.0, -100.0])
# exponents of ldexp: around the float32 and float64 ranges and far past them
INT_SPECIAL = np.array([0, 1, -1, 2, 3, 100, -100, 127, 128, -126, -149, -150, 1023, 1024, -1022, -1074, -1075,
                        2 ** 40, -2 ** 40])


@pytest.mark.parametrize("dt", ["f4", "f8"])
@pytest.mark.parametrize("name", [n for n in UFUNCS if any(t[0] == "f" for t in getattr(pygpu, n).types)])
def test_special_values_real(device, name, dt):
    uf = getattr(pygpu, name)
    if uf.nin == 1:
        np_args = [SPECIAL.astype(dt)]
    else:
        # the loop's second input: a float, or ldexp's integer exponent
        second = CHAR_DTYPES[next(t for t in uf.types if t[0] == np.dtype(dt).char)[1]]
        a, b = np.meshgrid(SPECIAL, SPECIAL if second.kind == "f" else INT_SPECIAL)
        np_args = [a.ravel().astype(dt), b.ravel().astype(dt if second.kind == "f" else second)]
    pg_args = [pygpu.asarray(x, device=device) for x in np_args]
    got, expected = run_both(name, np_args, pg_args)
    got = got.get()
    compare(name, got, expected, dt)
    if expected.dtype.kind == "f":
        # the sign of zeros and the place of NaNs, as NumPy
        np.testing.assert_array_equal(np.signbit(got[expected == 0]), np.signbit(expected[expected == 0]),
                                      err_msg=name)


CSPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan]
CSPECIAL = np.array([complex(r, i) for r in CSPECIAL_PARTS for i in CSPECIAL_PARTS])


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "equal", "not_equal", "less", "isnan", "isinf",
                                  "isfinite", "absolute", "negative", "conjugate", "exp", "log", "sqrt",
                                  "square", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_not",
                                  "reciprocal", "sign", "arcsin", "arccos", "arcsinh", "arccosh"])
def test_special_values_complex(device, name):
    uf = getattr(pygpu, name)
    if uf.nin == 1:
        np_args = [CSPECIAL]
    else:
        a, b = np.meshgrid(CSPECIAL, CSPECIAL[::3])
        np_args = [a.ravel(), b.ravel()]
    pg_args = [pygpu.asarray(x, device=device) for x in np_args]
    got, expected = run_both(name, np_args, pg_args)
    got = got.get()
    assert got.dtype == expected.dtype
    if name == "multiply":  # inf * 0 components: NumPy gives nan like us, but not always the same part
        finite = np.isfinite(np_args[0]) & np.isfinite(np_args[1])
        got, expected = got[finite], expected[finite]
    np.testing.assert_allclose(got, expected, rtol=SPECIAL_RTOL[device.kind].get(name, 1e-15), atol=0,
                               equal_nan=True, err_msg=name)


# CUDA's double exp, log, sin, cos, hypot and atan2 are within 1-2 ulp, not glibc's correctly rounded
# (or 1 ulp) results; a complex function combines a few of them. Allowed relative error per function
# on CUDA, in units of float64's eps (2.2e-16); everything else, and the CPU, within 1e-15 (~4.5 eps).
CUDA_ULPS = {"exp": 8, "log": 8, "sqrt": 8, "absolute": 4}
SPECIAL_RTOL = {"cpu": {}, "cuda": {name: ulps * np.finfo(np.float64).eps for name, ulps in CUDA_ULPS.items()}}


@pytest.mark.parametrize("name", ["cosh", "sinh", "tanh", "arctanh", "cos", "sin", "tan", "arctan"])
@pytest.mark.parametrize("dt", ["F", "D"])
def test_complex_special_values_c99(device, name, dt):
    """C99 Annex G's values for infinities, NaNs and signed zeros (G.6.2), as glibc's that NumPy
    calls: every pair of special and ordinary parts, zero signs included; NaN's sign is free.
    Also where the result is finite but tiny (tanh of a large real part keeps its imaginary
    part) and where a cancellation lost it (atanh near the imaginary axis in complex64)."""
    parts = [0.0, -0.0, 1.5, -1.5, 0.25, -3.0, 30.0, -30.0, 400.0, np.inf, -np.inf, np.nan, 1e-300]
    z = np.array([complex(x, y) for x in parts for y in parts], dtype=dt)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
    got = getattr(pygpu, name)(pygpu.asarray(z, device=device)).get()
    rtol = 1e-5 if dt == "F" else 1e-13
    for a, w, g in zip(z, want, got):
        for wv, gv in ((w.real, g.real), (w.imag, g.imag)):
            if np.isnan(wv):
                assert np.isnan(gv), (name, a, w, g)
            elif wv == 0:
                assert gv == 0 and np.signbit(gv) == np.signbit(wv), (name, a, w, g)
            else:
                assert gv == wv or abs(gv - wv) <= rtol * abs(wv), (name, a, w, g)


@pytest.mark.parametrize("name", ["sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan",
                                  "arcsinh", "arccosh", "arctanh", "exp2", "expm1", "log2", "log10", "log1p",
                                  "power", "divide", "reciprocal", "sign"])
@pytest.mark.parametrize("dt", ["F", "D"])
def test_complex_functions_wide_range(device, name, dt):
    """Complex functions over a grid that crosses every branch cut and quadrant (finite values)."""
    parts = np.array([-30.0, -3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 30.0])
    z = (parts[:, None] + 1j * parts[None, :]).ravel().astype(dt)
    uf = getattr(pygpu, name)
    np_args = [z] if uf.nin == 1 else [z, z[::-1].copy() * 0.5]
    got, expected = run_both(name, np_args, [pygpu.asarray(x, device=device) for x in np_args])
    got = got.get()
    ok = np.isfinite(expected)
    tol = 1e-4 if dt == "F" else 1e-11
    np.testing.assert_allclose(got[ok], expected[ok], rtol=tol, atol=tol * np.abs(expected[ok]).max(),
                               err_msg=name)


def _accuracy_points(dt):
    """Complex arguments where the textbook formulas lose their digits: tiny and subnormal parts,
    |z| near 1, z near +-1 and +-i, parts near overflow; every quadrant."""
    tiny = [1e-8, 1e-20, 3e-39] + ([1e-300, 5e-324] if dt == "D" else [1e-44])
    big = [1e30, 3e38] + ([1e300, 1.7e308] if dt == "D" else [])
    pts = [complex(t, u) for t in tiny + [0.0, 1.0] for u in tiny + [0.0, 1.0]]
    pts += [complex(1, 1e-8), complex(1, 1e-20), complex(1 - 1e-10, 1e-12), complex(1e-12, 1 - 1e-10),
            complex(0.5, 0.5), complex(2, 3), complex(1, 2.2e-308)]
    pts += [complex(b, c) for b in big for c in (0.0, 1.0, b)]
    z = np.array([p * s for p in pts for s in (1, -1, 1j, -1j)], dtype=dt)
    return z[np.isfinite(z)]


@pytest.mark.parametrize("name", ["sqrt", "log", "log10", "arcsin", "arccos", "arcsinh", "arccosh", "arctanh",
                                  "arctan"])
@pytest.mark.parametrize("dt", ["F", "D"])
def test_complex_functions_keep_their_digits(device, name, dt):
    """Each part within a few ulp of the exact value (Python's cmath, correctly rounded to a few
    ulp itself) where cancellation and overflow used to lose it: log near |z| = 1, asin of small
    and near-1 arguments, sqrt of subnormals, log of |z| beyond the largest float."""
    import cmath
    z = _accuracy_points(dt)
    got = getattr(pygpu, name)(pygpu.asarray(z, device=device)).get()
    fn = {"arcsin": "asin", "arccos": "acos", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
          "arctan": "atan"}.get(name, name)
    def exact(v):
        try:
            return getattr(cmath, fn)(complex(v))
        except (ValueError, OverflowError):   # a pole (log 0, atanh 1): the special-value tests' part
            return complex(np.nan, np.nan)

    want = np.array([exact(v) for v in z]).astype(dt)
    keep = ~np.isnan(want)
    z, want, got = z[keep], want[keep], got[keep]
    eps = np.finfo(got.real.dtype).eps * (8 if device.kind == "cpu" else 16)
    tiny = np.finfo(got.real.dtype).smallest_subnormal
    for v, w, g in zip(z, want, got):
        for wp, gp in ((w.real, g.real), (w.imag, g.imag)):
            assert abs(gp - wp) <= eps * abs(wp) + 2 * tiny, (name, v, w, g)


@pytest.mark.parametrize("name", ["reciprocal", "sqrt", "sign", "arcsin", "arccos", "arcsinh", "arccosh"])
def test_complex_signs_of_zero_parts_as_numpy(device, name):
    # NumPy's reciprocal formula gives 1/(1+0i) = 1-0i; sqrt(inf - 1i) = inf - 0i (C99)
    z = CSPECIAL
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
    got = getattr(pygpu, name)(pygpu.asarray(z, device=device)).get()
    for part in ("real", "imag"):
        w, g = getattr(want, part), getattr(got, part)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=name)
        zero = w == 0
        np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]), err_msg=(name, z[zero]))


def test_complex_log_on_the_unit_circle(device):
    # |0.6 + 0.8i| is 1 to the last bit but not exactly: log's real part is x^2 + y^2 - 1 over 2
    # (values by mpmath at 300 bits; Python's cmath gives 2.8e-17 for the first)
    z = np.array([0.6 + 0.8j, 0.8 - 0.6j, 1 + 1e-8j, 1 + 1e-20j, 1 - 1e-10 + 1e-12j])
    want = [2.2204460492503132e-17, 2.2204460492503132e-17, 5e-17, 5e-41, -1.000000082790366e-10]
    got = pygpu.log(pygpu.asarray(z, device=device)).get().real
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(float).eps)
    got = pygpu.log(pygpu.asarray(np.complex64(0.6 + 0.8j), device=device)).get().real
    np.testing.assert_allclose(got, np.float32(2.3841858e-08), rtol=4 * np.finfo(np.float32).eps)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_degree_conversions_use_numpys_constants(device, dt):
    # NumPy's float32 180/pi is 180.0f / NPY_PIf (57.295776), not the exact value rounded (57.29578)
    x = (np.random.default_rng(1).standard_normal(5000) * 100).astype(dt)
    for name in ("rad2deg", "deg2rad", "degrees", "radians"):
        assert_array_equal(getattr(pygpu, name)(pygpu.asarray(x, device=device)), getattr(np, name)(x))


def test_float_power_of_a_python_int_past_int64(device):
    x = np.array([1.0, 2.0, 0.5])
    with np.errstate(over="ignore"):
        assert_array_equal(pygpu.float_power(pygpu.asarray(x, device=device), 2**64), np.float_power(x, 2**64))
        assert_array_equal(pygpu.float_power(2**70, pygpu.asarray(x, device=device)), np.float_power(2**70, x))
    assert_array_equal(pygpu.float_power(pygpu.asarray(x, device=device), 1j), np.float_power(x, 1j))


def test_integer_division_semantics(device):
    for dt in ["i1", "i2", "i4", "i8", "u1", "u8"]:
        info = np.iinfo(dt)
        cands = [info.min, info.min + 1, -7, -1, 0, 1, 7, info.max]
        vals = np.array(sorted({v for v in cands if info.min <= v <= info.max}), dtype=dt)
        a, b = [x.ravel() for x in np.meshgrid(vals, vals)]
        pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
        for name in ["floor_divide", "remainder", "fmod", "add", "subtract", "multiply"]:
            got, expected = run_both(name, (a, b), (pa, pb))
            assert_array_equal(got, expected)


def test_float_division_semantics(device):
    vals = np.array([-7.5, -1.0, -0.0, 0.0, 1.0, 7.5, np.inf, -np.inf, np.nan])
    a, b = [x.ravel() for x in np.meshgrid(vals, vals)]
    for name in ["floor_divide", "remainder", "fmod", "divide"]:
        got, expected = run_both(name, (a, b), (pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)))
        got = got.get()
        np.testing.assert_array_equal(got, expected, err_msg=name)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected), err_msg=name)


def test_shifts_out_of_range(device):
    for dt in ["i1", "i4", "i8", "u1", "u8"]:
        a = np.array([-5, 3, 1, -1], dtype=dt) if np.dtype(dt).kind == "i" else np.array([5, 3, 1, 255], dtype=dt)
        s = np.array([70, 8, 64, 200], dtype=dt) if np.dtype(dt).itemsize > 1 else np.array([9, 8, 100, 7], dtype=dt)
        for name in ["left_shift", "right_shift"]:
            got, expected = run_both(name, (a, s), (pygpu.asarray(a, device=device), pygpu.asarray(s, device=device)))
            assert_array_equal(got, expected)


# ------------------------------------------------------------------ functions composed from ufuncs

def test_where(device):
    c = np.array([[True, False, True]])
    x = np.arange(6.0).reshape(2, 3)
    y = np.float32(-1)
    assert_array_equal(pygpu.where(pygpu.asarray(c, device=device), pygpu.asarray(x, device=device), y),
                       np.where(c, x, y))
    # a non-bool condition is read as bool; NEP 50 for the scalars
    ci = np.array([0, 2, 0], dtype=np.int32)
    xi = np.arange(3, dtype=np.int8)
    assert_array_equal(pygpu.where(pygpu.asarray(ci, device=device), pygpu.asarray(xi, device=device), 5),
                       np.where(ci, xi, 5))
    assert_array_equal(pygpu.where(pygpu.asarray(ci, device=device), pygpu.asarray(xi, device=device), 2.5),
                       np.where(ci, xi, 2.5))
    # the one-argument form is nonzero
    for a, b in zip(pygpu.where(pygpu.asarray(c, device=device)), np.where(c)):
        assert_array_equal(a, b)
    with pytest.raises(ValueError, match="either both or neither"):
        pygpu.where(pygpu.asarray(c, device=device), pygpu.asarray(x, device=device))


def test_clip(device):
    x = np.array([-3.0, -1.0, 0.5, 2.0, np.nan, 7.0], dtype=np.float32)
    px = pygpu.asarray(x, device=device)
    assert_array_equal(pygpu.clip(px, -1, 2), np.clip(x, -1, 2))
    assert_array_equal(pygpu.clip(px, None, 2), np.clip(x, None, 2))
    assert_array_equal(pygpu.clip(px, min=0.0), np.clip(x, min=0.0))
    assert_array_equal(pygpu.clip(px, None, None), np.clip(x, None, None))
    lo = np.array([0.0, 1.0, np.nan, 0.0, 0.0, 0.0], dtype=np.float32)
    assert_array_equal(pygpu.clip(px, pygpu.asarray(lo, device=device), 5), np.clip(x, lo, 5))
    xi = np.arange(-5, 5, dtype=np.int16)
    assert_array_equal(pygpu.clip(pygpu.asarray(xi, device=device), -2, 3), np.clip(xi, -2, 3))
    out = pygpu.empty(xi.shape, dtype=np.int16, device=device)
    r = pygpu.clip(pygpu.asarray(xi, device=device), -2, 3, out=out)
    assert r is out
    assert_array_equal(out, np.clip(xi, -2, 3))


def test_isclose(device):
    a = np.array([1.0, 1.0 + 1e-9, np.inf, np.inf, np.nan, 0.0, 1e-10])
    b = np.array([1.0, 1.0, np.inf, -np.inf, np.nan, 1e-9, 0.0])
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    assert_array_equal(pygpu.isclose(pa, pb), np.isclose(a, b))
    assert_array_equal(pygpu.isclose(pa, pb, equal_nan=True), np.isclose(a, b, equal_nan=True))
    assert_array_equal(pygpu.isclose(pa, pb, rtol=0, atol=1e-8), np.isclose(a, b, rtol=0, atol=1e-8))
    f = np.array([1, 2], np.float32)
    assert_array_equal(pygpu.isclose(pygpu.asarray(f, device=device), 1.0000001), np.isclose(f, 1.0000001))
    # NumPy ORs in a == b: equal values are close with atol=nan or rtol < 0, infinities included
    for kw in ({"atol": np.nan}, {"rtol": -1}, {"rtol": np.nan, "atol": 0}):
        assert_array_equal(pygpu.isclose(pa, pb, **kw), np.isclose(a, b, **kw))
        assert pygpu.allclose(pa[:1], pb[:1], **kw) == np.allclose(a[:1], b[:1], **kw)
    i = np.array([1, 0, -3], np.int8)
    assert_array_equal(pygpu.isclose(pygpu.asarray(i, device=device), pygpu.asarray(i, device=device), rtol=-1),
                       np.isclose(i, i, rtol=-1))


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "i4", "u1", "c16"])
def test_round(device, dt):
    x = (np.array([0.5, 1.5, 2.5, -0.5, -2.5, 123.456, -987.654, 3.14159]) * (1 if np.dtype(dt).kind != "u" else 0)
         + (100 if np.dtype(dt).kind == "u" else 0)).astype(dt) if np.dtype(dt).kind != "c" else \
        np.array([0.5 + 1.5j, 2.567 - 3.211j], dtype=dt)
    if np.dtype(dt).kind in "iu":
        x = np.array([0, 15, 25, 35, 149, 150, 151, 250, 255] if dt == "u1" else [-155, -150, -25, 0, 25, 35, 149, 150],
                     dtype=dt)
    px = pygpu.asarray(x, device=device)
    for d in ([0, 1, 2, -1] if np.dtype(dt).kind != "u" else [0, -1, -2]):
        got = pygpu.round(px, d)
        expected = np.round(x, d)
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got.get(), expected, rtol=1e-6 if dt != "f2" else 1e-3)


def test_round_decimals_past_a_c_int(device):
    """NumPy reads decimals as a C long, then a C int: past either its OverflowError, any dtype."""
    for x in (np.array([1]), np.array([1.5])):
        px = pygpu.asarray(x, device=device)
        for d in (2**31, -2**31 - 1, 2**63):
            same_error(lambda: np.around(x, d), lambda: pygpu.around(px, d))


def test_round_into_wider_out(device):
    """around(x, decimals, out=) runs NumPy's ufuncs into out: the rounding and unscaling in out's
    dtype (float32 x into float64 is 1.1, not 1.10000002), bool into a float out, out's errors."""
    x = np.array([1.1, 2.2, 2.25, -3.35, 1e30], np.float32)
    for src in (x, np.array([True, False, True, True, False])):
        for dec in (1, 2, -1):
            for out_dt in ("f8", "f4", "c16"):
                want = np.zeros(5, out_dt)
                np.around(src, dec, out=want)
                out = pygpu.zeros(5, dtype=out_dt, device=device)
                assert pygpu.around(pygpu.asarray(src, device=device), dec, out=out) is out
                assert_array_equal(out, want)
    px = pygpu.asarray(x, device=device)
    for out_dt, shape in (("i4", 5), ("f8", 3)):
        same_error(lambda: np.around(x, 1, out=np.zeros(shape, out_dt)),
                   lambda: pygpu.around(px, 1, out=pygpu.zeros(shape, dtype=out_dt, device=device)))
    pb, pout = pygpu.asarray([True], device=device), pygpu.zeros(1, dtype=bool, device=device)
    same_error(lambda: np.around(np.array([True]), 1, out=np.zeros(1, bool)), lambda: pygpu.around(pb, 1, out=pout))


def test_angle_real_imag(device):
    z = np.array([1 + 1j, -1 + 0j, -1 - 0j, 0j, 3 - 4j], dtype=np.complex64)
    pz = pygpu.asarray(z, device=device)
    np.testing.assert_allclose(pygpu.angle(pz).get(), np.angle(z), rtol=1e-6)
    np.testing.assert_allclose(pygpu.angle(pz, deg=True).get(), np.angle(z, deg=True), rtol=1e-6)
    assert_array_equal(pygpu.angle(pygpu.asarray(np.array([-1, 0, 2]), device=device)), np.angle(np.array([-1, 0, 2])))
    for b in (np.array([True, False]), np.True_):   # bool gives float64 (NumPy's arctan2 of a weak 0 and bool)
        got = pygpu.angle(pygpu.asarray(b, device=device))
        assert got.dtype == np.angle(b).dtype
        assert_array_equal(got, np.angle(b))
    assert pygpu.angle(True).dtype == np.angle(True).dtype
    assert_array_equal(pygpu.real(pz), z.real)
    assert_array_equal(pygpu.imag(pz), z.imag)
    assert_array_equal(pz.real, z.real)
    assert_array_equal(pz.imag, z.imag)
    # views: writing through them changes the complex array
    w = pygpu.asarray(np.zeros((2, 3), np.complex128), device=device)
    w.imag = pygpu.asarray(np.arange(3.0), device=device)
    w.real = 5
    expected = np.zeros((2, 3), np.complex128)
    expected.imag = np.arange(3.0)
    expected.real = 5
    assert_array_equal(w, expected)
    r = pygpu.asarray(np.arange(3.0), device=device)
    assert r.real is r
    assert_array_equal(r.imag, np.zeros(3))
    with pytest.raises(TypeError):
        r.imag = 1
    # strided complex input
    zz = np.arange(12).reshape(3, 4) * (1 - 2j)
    pzz = strided_view(zz, device)
    assert_array_equal(pzz.real, zz.real)
    assert_array_equal(pzz.imag, zz.imag)
    assert_array_equal(pygpu.conj(pzz), np.conj(zz))


# ------------------------------------------------------------------ hypothesis

@st.composite
def broadcastable(draw):
    nd = draw(st.integers(0, 4))
    shape = draw(st.lists(st.integers(0, 4), min_size=nd, max_size=nd))
    def sub(shape):
        k = draw(st.integers(0, len(shape)))
        return tuple(1 if draw(st.booleans()) else s for s in shape[len(shape) - k:])
    return sub(shape), sub(shape)


@settings(max_examples=60, deadline=None)
@given(shapes=broadcastable(), dts=st.tuples(st.sampled_from(["?", "i1", "u2", "i4", "i8", "f2", "f4", "f8", "c8"]),
                                            st.sampled_from(["?", "u1", "i2", "u4", "f4", "f8", "c16"])),
       op=st.sampled_from(["add", "multiply", "maximum", "less", "not_equal"]), flip=st.booleans())
def test_hypothesis_broadcast_mixed_dtypes(shapes, dts, op, flip):
    s0, s1 = shapes
    a = sample(op, dts[0], s0)
    b = sample(op, dts[1], s1)
    if flip and a.ndim:
        a = a[(slice(None, None, -1),) * a.ndim]
    for dev in DEVICES:
        device = pygpu.Device(dev)
        pa = reversed_view(a, device) if flip and a.ndim and a.size else pygpu.asarray(a, device=device)
        got, expected = run_both(op, (a, b), (pa, pygpu.asarray(b, device=device)))
        compare(op, got, expected, expected.dtype)


@pytest.mark.parametrize("dt", ["bool", "int8", "int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(9, 130), (300, 700), (257, 1025), (1000, 513)])
def test_transposed_operands(device, dt, shape):
    """A transposed operand (a + b.T, copies of a.T into C order, out= in the other order), shapes
    about the CPU's tiles (512 columns, 256 rows) and below them: against NumPy, in place too."""
    rng = np.random.default_rng(6)
    a = (rng.standard_normal(shape) * 10).astype(dt)
    b = (rng.standard_normal(shape[::-1]) * 10).astype(dt)
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for name in ("add", "multiply", "maximum", "less", "logical_and"):
            f, g = getattr(np, name), getattr(pygpu, name)
            assert_array_equal(g(pa, pb.T), f(a, b.T))
            assert_array_equal(g(pb.T, pa), f(b.T, a))
            assert_array_equal(g(pa[::-1], pb[:, ::-1].T), f(a[::-1], b[:, ::-1].T))
            assert_array_equal(g(pa[:, ::2], pb[::2].T), f(a[:, ::2], b[::2].T))
        assert_array_equal(pygpu.ascontiguousarray(pb.T), np.ascontiguousarray(b.T))
        assert_array_equal(pb.T.copy(), b.T.copy())
        assert_array_equal(pb.T.astype(np.complex128), b.T.astype(np.complex128))
        out = pygpu.asarray(np.zeros(shape, dt, order="F"), device=device)  # written across its rows
        pygpu.add(pa, pb.T, out=out)
        assert_array_equal(out, np.add(a, b.T))
        if dt != "bool":  # the operands overlap: NumPy's result, as if the input were copied first
            square = (rng.standard_normal((shape[1], shape[1])) * 10).astype(dt)
            ps = pygpu.asarray(square, device=device)
            ps += ps.T
            square += square.T
            assert_array_equal(ps, square)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int16", "int64", "float16", "float32", "float64", "complex64"])
def test_strided_inputs_in_place_of_blocks(device, dt):
    """Inputs that are all strided (steps 2, 3, -1 and 0), with a scalar or a 0-d array beside
    them, over lengths about the CPU's blocks and its threads' chunks: the loops that read such
    elements in place, against NumPy, and the same loops through a converting (mixed-dtype) call."""
    rng = np.random.default_rng(5)
    for n in (1, 255, 256, 257, 100003):
        base = (rng.standard_normal(3 * n + 3) * 10).astype(dt)
        other = (rng.standard_normal(3 * n + 3) * 10).astype(dt)
        p, q = pygpu.asarray(base, device=device), pygpu.asarray(other, device=device)
        views = [(base[::2][:n], p[::2][:n]), (other[::3][:n], q[::3][:n]), (base[::-1][:n], p[::-1][:n]),
                 (np.broadcast_to(base[:1], (n,)), pygpu.broadcast_to(p[:1], (n,)))]
        scalar = base[5]
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            for (x, px), (y, py) in zip(views, views[1:] + views[:1]):
                for name in ("add", "multiply", "less", "logical_and", "maximum"):
                    f, g = getattr(np, name), getattr(pygpu, name)
                    assert_array_equal(g(px, py), f(x, y))
                    assert_array_equal(g(px, scalar), f(x, scalar))
                    assert_array_equal(g(pygpu.asarray(scalar, device=device), px), f(scalar, x))
                    if dt != "bool":
                        assert_array_equal(g(px, py.astype(np.float64)), f(x, y.astype(np.float64)))
                for name in ("absolute", "negative", "sqrt", "exp", "logical_not"):
                    if dt == "bool" and name in ("negative", "absolute"):
                        continue
                    expected = getattr(np, name)(x)
                    got = getattr(pygpu, name)(px)
                    if expected.dtype.kind in "fc" and name in ("sqrt", "exp"):
                        np.testing.assert_allclose(got.get(), expected, rtol=2e-3 if dt == "float16" else 1e-6,
                                                   equal_nan=True)
                    else:
                        assert_array_equal(got, expected)
                assert_array_equal(px.copy(), x.copy())


# ------------------------------------------------------------------ ufunc.outer

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "equal", "less", "maximum", "power",
                                  "arctan2", "ldexp", "logical_xor", "left_shift"])
def test_outer(device, name):
    """NumPy's ufunc.outer: A's dimensions then B's, each loop's dtypes, strided and empty operands."""
    uf = getattr(pygpu, name)
    for types in uf.types[::3]:
        d0, d1 = CHAR_DTYPES[types[0]], CHAR_DTYPES[types[1]]
        for s0, s1 in (((4,), (3,)), ((2, 3), (5,)), ((), (3,)), ((0, 2), (3,)), ((3,), ())):
            a, b = sample(name, d0, s0, 0), sample(name, d1, s1, 1)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                expected = getattr(np, name).outer(a, b)
            got = uf.outer(pygpu.asarray(a, device=device), pygpu.asarray(b, device=device))
            compare(name, got, expected, d0)
    x = sample(name, CHAR_DTYPES[uf.types[-1][0]], (6, 4), 0)
    y = sample(name, CHAR_DTYPES[uf.types[-1][1]], (4, 6), 1)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = getattr(np, name).outer(x[::2, 1:], y.T)
    px, py = pygpu.asarray(x, device=device), pygpu.asarray(y, device=device)
    compare(name, uf.outer(px[::2, 1:], py.T), expected, x.dtype)
    got = getattr(np, name).outer(px[::2, 1:], py.T)      # NumPy's outer stays on pygpu
    assert isinstance(got, pygpu.ndarray)
    compare(name, got, expected, x.dtype)


def test_outer_options_and_errors(device):
    a = pygpu.asarray([1, 2, 3], device=device)
    b = pygpu.asarray([10.0, 20.0], device=device)
    out = pygpu.empty((3, 2), device=device)
    assert pygpu.add.outer(a, b, out=out) is out
    assert_array_equal(out, np.add.outer([1, 2, 3], [10.0, 20.0]))
    got = pygpu.multiply.outer(a, a, dtype="float32")
    assert got.dtype == np.float32 and got.device == a.device
    # operands become arrays first, as NumPy's: a Python int is int64 there
    assert pygpu.add.outer(pygpu.asarray([1.0], dtype="float32", device=device), 2).dtype == \
        np.add.outer(np.float32([1.0]), 2).dtype
    assert_array_equal(pygpu.subtract.outer([1, 2], [[3], [4]]), np.subtract.outer([1, 2], [[3], [4]]))
    f = pygpu.vectorize(lambda u, v: u * 10 + v)
    assert_array_equal(f.outer(a, a), np.add.outer(np.arange(1, 4) * 10, np.arange(1, 4)))
    with pytest.raises(ValueError, match="only supported for binary functions"):
        pygpu.sin.outer(a, a)
    with pytest.raises(TypeError, match="exactly two arguments"):
        pygpu.add.outer(a)
    with pytest.raises(ValueError, match="dimensions"):
        pygpu.add.outer(pygpu.ones((1,) * 20, device=device), pygpu.ones((1,) * 20, device=device))
    with pytest.raises(ValueError):
        pygpu.add.outer(a, b, out=pygpu.empty((2, 3), device=device))
