"""pygpu.fuse: the fused function against the same function run by NumPy (values and dtypes),
over dtypes, Python and NumPy scalars, broadcasting and layouts, on every device."""
import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal, same_error


def selu(x):
    return 1.0507 * pygpu.where(x > 0, x, 1.6733 * (pygpu.exp(x) - 1))


def selu_np(x):
    return 1.0507 * np.where(x > 0, x, 1.6733 * (np.exp(x) - 1))


def mixed(a, b, s):
    return a * s + np.sin(b) ** 2 - (a > b) + abs(a - b) // 2 + np.maximum(a, 0.5)


def logic(a, b):
    return (a < b) & ~(a == 1) | (b > 3)


def complex_fn(z, w):
    return z * w.conjugate() + np.exp(z) - abs(w) + z.real * w.imag


TOLERANCE = {2: 2e-3, 4: 2e-6, 8: 1e-13}   # by the bytes of a real (or of a complex's part)


def tolerance(dtype):
    dtype = np.dtype(dtype)
    return TOLERANCE[dtype.itemsize if dtype.kind == "f" else dtype.itemsize // 2]


def compare(got, expected, tol=None):
    """got against NumPy's result, at the precision of `tol` (default: of the result's type)."""
    assert isinstance(got, pygpu.ndarray)
    got = got.get()
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    if got.dtype.kind in "fc":
        tol = tol or tolerance(got.dtype)
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_selu_is_one_kernel(device, dt):
    fused = pygpu.fuse(selu)
    x = np.linspace(-3, 3, 101).astype(dt)
    compare(fused(pygpu.asarray(x, device=device)), selu_np(x))
    uf, reduction = fused.cache[(np.dtype(dt),)]
    assert reduction is None and len(uf._programs) == 1  # one program: one pass


@pytest.mark.parametrize("da, db", [("f4", "f4"), ("f2", "f8"), ("i4", "f4"), ("i8", "i8"), ("u1", "i2"),
                                    ("f8", "f8")])
@pytest.mark.parametrize("s", [2, 2.5, np.float32(1.5), np.int8(3), np.float64(0.75), np.bool_(True)])  # float64 is a float
def test_mixed_against_numpy(device, da, db, s):
    a = (np.arange(12).reshape(3, 4) % 7).astype(da)
    b = (np.arange(4)[::-1] + 0.25).astype(db)
    fused = pygpu.fuse(mixed)
    with np.errstate(all="ignore"):
        expected = mixed(a, b, s)
    # sin(b) is computed in b's float type (float32 for int16) whatever the result's type, and a
    # device's sin is its own within an ulp of NumPy's (CUDA's sinf differs from NumPy's SIMD one)
    tol = max(tolerance(np.sin(b).dtype), tolerance(expected.dtype))
    compare(fused(pygpu.asarray(a, device=device), pygpu.asarray(b, device=device), s), expected, tol)


def test_bool_and_complex(device):
    a, b = np.arange(6.0), np.arange(6.0)[::-1]
    compare(pygpu.fuse(logic)(pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)), logic(a, b))
    z = (np.arange(6) + 1j * np.arange(6)[::-1]).astype(np.complex64)
    w = z[::-1] * 0.5
    compare(pygpu.fuse(complex_fn)(pygpu.asarray(z, device=device), pygpu.asarray(w, device=device)),
            complex_fn(z, w))


def test_layouts_and_numpy_inputs(device):
    fused = pygpu.fuse(lambda x, y: x * 2 + y)
    base = np.arange(20.0).reshape(4, 5)
    pb = pygpu.asarray(base, device=device)
    compare(fused(pb.T, pb.T[::-1]), base.T * 2 + base.T[::-1])
    compare(fused(pb[:, :1], np.arange(5.0)), base[:, :1] * 2 + np.arange(5.0))  # NumPy input moved
    compare(fused(pb[:0], 1.0), base[:0] * 2 + 1.0)


def test_cache_per_dtypes():
    fused = pygpu.fuse(lambda x, s: x + s)
    a = pygpu.arange(4, dtype=np.int32)
    fused(a, 1)
    fused(a, 2)
    fused(a, 1.5)
    fused(a.astype(np.float32), 1)
    assert set(fused.cache) == {(np.dtype("int32"), int), (np.dtype("int32"), float), (np.dtype("float32"), int)}
    assert fused(a, 1.5).dtype == np.float64 and fused(a, 1).dtype == np.int32


def test_errors():
    with pytest.raises(pygpu.CompileError, match="use pygpu.where"):
        pygpu.fuse(lambda x: x if x > 0 else -x)(pygpu.ones(3))
    with pytest.raises(pygpu.CompileError, match="must return an array"):
        pygpu.fuse(lambda x: 3)(pygpu.ones(3))
    with pytest.raises(TypeError, match="unsupported argument of type str"):
        pygpu.fuse(lambda x: x)("a")
    with pytest.raises(TypeError, match="unexpected keyword"):
        pygpu.fuse(bogus=1)
    named = pygpu.fuse(kernel_name="k")(lambda x: x + 1)
    assert named.name == "k" and repr(named) == "<pygpu.fuse k>"


def sum_of_squares(x, y):
    return ((x - y) ** 2).sum(axis=1)


def test_final_reduction(device):
    x = np.arange(12.0).reshape(3, 4)
    got = pygpu.fuse(sum_of_squares)(pygpu.asarray(x, device=device), pygpu.asarray(x[::-1], device=device))
    compare(got, sum_of_squares(x, x[::-1]))
    mean = pygpu.fuse(lambda x: np.mean(x * 2, axis=0))(pygpu.asarray(x, device=device))
    compare(mean, np.mean(x * 2, axis=0))


# ------------------------------------------------------------------ final reductions: one pass, no temporaries

REDUCTIONS = ["sum", "prod", "max", "min", "mean"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dt", ["bool", "int8", "int32", "uint16", "int64", "float16", "float32", "float64",
                                "complex64"])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), (-1, False), ((0, 1), True)])
def test_final_reduction_against_numpy(device, name, dt, axis, keepdims):
    def fn(x, y):
        e = (x & y) if dt == "bool" else (x * 1 + y)
        return getattr(e, name)(axis=axis, keepdims=keepdims)

    rng = np.random.default_rng(3)
    x = (rng.random((5, 7)) * 3).astype(dt)
    y = (rng.random(7) * 2).astype(dt)
    got = pygpu.fuse(fn)(pygpu.asarray(x, device=device), pygpu.asarray(y, device=device))
    with np.errstate(all="ignore"):
        expected = fn(x, y)
        if dt == "float16" and name == "prod":  # accumulates in float32, as pygpu's prod does
            expected = np.prod((x * 1 + y).astype(np.float32), axis=axis, keepdims=keepdims).astype(np.float16)
    compare(got, np.asarray(expected))


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "scalar"])
def test_final_reduction_layouts(device, layout):
    base = np.arange(24.0).reshape(4, 6) - 7
    pb = pygpu.asarray(base, device=device)
    x, px = {"transposed": (base.T, pb.T), "negative": (base[::-1, ::-2], pb[::-1, ::-2]),
             "broadcast": (base[:1], pb[:1]), "scalar": (base, pb)}[layout]
    other = 2.5 if layout == "scalar" else x[::-1]
    pother = 2.5 if layout == "scalar" else px[::-1]

    got = pygpu.fuse(lambda a, b: pygpu.where(a > 0, a * b, -a).max(axis=0))(px, pother)
    compare(got, np.where(x > 0, x * other, -x).max(axis=0))


def test_selu_sum_is_one_pass_without_temporaries(device):
    """The fused elementwise program is the reduction's map: nothing of the input's size is
    allocated (only the chunks' partial sums)."""
    n = 1 << 20
    x = np.linspace(-3, 3, n).astype(np.float32)
    px = pygpu.asarray(x, device=device)
    fused = pygpu.fuse(lambda v: selu(v).sum())
    fused(px[:10])  # traced and compiled
    pool = pygpu.get_memory_pool(device)
    pool.free_all_blocks()
    before = pool.total_bytes()
    got = fused(px)
    grown = pool.total_bytes() - before
    assert grown < x.nbytes // 8, grown
    np.testing.assert_allclose(float(got), selu_np(x.astype(np.float64)).sum(), rtol=1e-4)
    unfused = pygpu.fuse(selu)
    pool.free_all_blocks()
    before = pool.total_bytes()
    unfused(px).sum()
    assert pool.total_bytes() - before >= x.nbytes  # the check above can fail


def test_final_reduction_errors(device):
    x = pygpu.zeros((0, 3), device=device)
    same_error(lambda: np.max(np.zeros((0, 3)) * 2, axis=0),
               lambda: pygpu.fuse(lambda v: (v * 2).max(axis=0))(x))
    assert_array_equal(pygpu.fuse(lambda v: (v * 2).sum(axis=0))(x), np.zeros(3))
    assert_array_equal(pygpu.fuse(lambda v: (v * 2).prod(axis=0))(x), np.ones(3))
    assert_array_equal(pygpu.fuse(lambda v: (v * 2).max(axis=1))(x), np.zeros(0))
    same_error(lambda: np.sum(np.ones((2, 2)), axis=2), lambda: pygpu.fuse(lambda v: (v * 2).sum(axis=2))(
        pygpu.ones((2, 2), device=device)))
    with pytest.raises(pygpu.CompileError, match="dtype=, out="):
        pygpu.fuse(lambda v: (v * 2).sum(dtype=np.float32))(pygpu.ones(2, device=device))


def test_pygpu_reductions_inside_fuse(device):
    """pygpu.sum(t) and pygpu.max(t) on a traced array, as CuPy users write cupy.sum inside
    cupy.fuse (issue 16 item 12: they raised "does not support dtype('O')")."""
    x = np.linspace(-2, 3, 1001)
    d = pygpu.asarray(x, device=device)
    got = pygpu.fuse(lambda v: pygpu.sum(v * v + 1.0))(d)
    np.testing.assert_allclose(got.get(), np.sum(x * x + 1.0), rtol=1e-12)
    got = pygpu.fuse(lambda v: pygpu.max(pygpu.abs(v - 0.5)))(d)
    assert float(got.get()) == np.max(np.abs(x - 0.5))
    got = pygpu.fuse(lambda v: pygpu.mean(v, axis=None))(d)
    np.testing.assert_allclose(got.get(), np.mean(x), rtol=1e-12)


def test_reduction_checks_python_ints_as_the_elementwise_call(device):
    """A Python int past an int32 operand's range raises OverflowError in arithmetic with a final
    reduction as without one (found by the fuzzer: the reduction wrapped 2**31 to -2**31 and summed
    9.0 where NumPy gives 6.0), and compares exactly, as NumPy 2 compares it; in range, the fused
    reduction equals NumPy's."""
    a = np.array([7, 2 ** 31 - 1, -2 ** 31, 4], np.int32)
    d = pygpu.asarray(a, device=device)
    f = pygpu.fuse(lambda n, x: ((n >= x) * 1.5 + (n < x) * 2.5).sum())
    for n in (2 ** 31, -2 ** 31 - 1, 5):
        assert float(f(n, d).get()) == ((n >= a) * 1.5 + (n < a) * 2.5).sum()
    g = pygpu.fuse(lambda n, x: (n + x).sum())
    for h in (g, pygpu.fuse(lambda n, x: n + x)):
        with pytest.raises(OverflowError, match="Python integer 2147483648 out of bounds for int32"):
            h(2 ** 31, d)
    assert int(g(5, d).get()) == (5 + a).sum()


def test_python_scalars_stay_weak_through_operators(device):
    """Operators between Python-scalar arguments give Python scalars (weak for the array they meet
    next, NEP 50), ufuncs of them NumPy scalars (found by the fuzzer: s + 1 made a float32
    expression float64, s / 1.0 > float32 array compared in float64, and a < a of two ints did not
    compile)."""
    x = np.array([1.0, 2.0, 3.0], np.float32)
    d = pygpu.asarray(x, device=device)
    for fn, args in [(lambda v, s: v * (s + 1), (2.0,)), (lambda v, s: v - abs(-s), (2.5,)),
                     (lambda v, s: v * np.floor(s), (2.0,)), (lambda v, a: np.where(a < a, a, v), (3,)),
                     (lambda v, s: (s / 1.0) > np.where(v > v, v, s), (-7.889554293394703,))]:
        got = pygpu.fuse(fn)(d, *args)
        want = fn(x, *args)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        assert_array_equal(got, want)


def test_float16_intermediate_is_rounded_as_numpy_rounds_it(device):
    # NumPy's sin of a bool array is float16 (0.8413 for True), and float16 * float64 promotes
    # that rounded value (pygpu.sin(b) * y too); fuse computed sin(1) = 0.841471 in float32 and
    # kept it (found by the long fuzz run of issue 16): float16 results are rounded now
    rng = np.random.default_rng(3)
    b = np.array([True, False, True])
    y = np.ones(3)
    f = pygpu.fuse(lambda x, z: np.sin(x) * z)
    got = f(pygpu.asarray(b, device=device), pygpu.asarray(y, device=device))
    assert_array_equal(got, np.sin(b) * y)
    # the fuzz run's expression, with a final reduction
    p = rng.standard_normal((3, 65)).astype(np.float32)

    def expr(p0):
        p0 = np.arctan2((p0 - p0), (1 | 10))
        p0 = ((-p0) != (p0 / p0))
        return ((np.arctan2(np.exp(np.sin((p0 * 2))), np.abs((p0 * 2))) / np.sin((p0 * p0)))).sum(axis=0)
    with np.errstate(all="ignore"):
        want = expr(p)
    np.testing.assert_allclose(pygpu.fuse(expr)(pygpu.asarray(p, device=device)).get(), want, rtol=1e-12)
    # float16 arithmetic and a cast to float16 round each result
    h = rng.standard_normal(50).astype(np.float16)
    d = rng.standard_normal(50)
    for fn in (lambda a, z: (a * a + a) * z, lambda a, z: z.astype(np.float16) * a + z,
               lambda a, z: np.exp(a) / 3.0 * z):
        assert_array_equal(pygpu.fuse(fn)(pygpu.asarray(h, device=device), pygpu.asarray(d, device=device)),
                           fn(h, d))


def _same_bits(got, want):
    """Values, dtype and signs of zeros equal to NumPy's (NaNs anywhere NumPy has them)."""
    got = got.get() if isinstance(got, pygpu.ndarray) else np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)
    keep = ~np.isnan(want.real)
    np.testing.assert_array_equal(np.signbit(got.real)[keep], np.signbit(want.real)[keep])


def test_float16_nextafter_spacing_and_weak_scalars_as_numpy(device):
    """float16 nextafter stepped in float32 and rounded back to x (found by a differential hunt):
    now float16's own step, every float16 value; spacing (a bare KeyError before) as NumPy's; a
    Python float meeting a float16 array is a float16 first (NEP 50: h * 0.1 multiplies by 0.1's
    float16); clip, imag and angle of float16 stay float16."""
    every = np.arange(65536, dtype=np.uint16).view(np.float16)
    d = pygpu.asarray(every, device=device)
    step = pygpu.fuse(lambda x, y: np.nextafter(x, y))
    nonzero = every != 0
    for y in (0.0, -0.0, 1.0, -np.inf, np.inf):
        toward = np.full_like(every, y)
        got = step(d, pygpu.asarray(toward, device=device)).get()
        _same_bits(got[nonzero], np.nextafter(every, toward)[nonzero])
        # (+-0 toward -+0 is y, as C's nextafter and NumPy 2.5's; NumPy 2.4 gave x)
        np.testing.assert_array_equal(np.signbit(got[~nonzero]), np.signbit(y))
    shuffled = every[np.random.default_rng(5).permutation(every.size)]
    _same_bits(step(d, pygpu.asarray(shuffled, device=device)), np.nextafter(every, shuffled))
    _same_bits(pygpu.fuse(lambda x: np.spacing(x))(d), np.spacing(every))
    x = np.array([0, -0.0, 1, -1, 3.5, 1e-30, 65504, np.inf, np.nan])
    for dt in ("float32", "float64", "int8", "bool"):
        with np.errstate(all="ignore"):
            v = x.astype(dt)
        _same_bits(pygpu.fuse(lambda a: np.spacing(a))(pygpu.asarray(v, device=device)), np.spacing(v))
    h = np.array([1.5, 6550.0, -7.0, 0.3], np.float16)
    dh = pygpu.asarray(h, device=device)
    for fn in (lambda a: a * 0.1, lambda a: a + 70000, lambda a: np.clip(a, 1, 5.3), lambda a: np.imag(a),
               lambda a: np.angle(a), lambda a: np.maximum(a, 1e-5)):
        with np.errstate(over="ignore"):
            _same_bits(pygpu.fuse(fn)(dh), fn(h))
    _same_bits(pygpu.fuse(lambda a, s: a * s)(dh, 0.1), h * 0.1)   # a Python float argument too


def test_scalar_powers_take_numpy_fast_paths(device):
    """x ** 0.5 is NumPy's sqrt (-0.0 stays -0.0, -inf gives nan; fuse computed pow), x ** -1 of
    complex numbers its reciprocal, bool ** 2 its square (int8), np.power(x, 0.5) of float32 and
    float64 the power loop's sqrt: literals, and Python scalar arguments picked at run time."""
    base = np.array([-0.0, -np.inf, 4.0, 2.0, np.nan, 0.1, -3.0, np.inf])
    for dt in ("float16", "float32", "float64", "complex64", "complex128", "int64", "bool"):
        x = base.astype(dt) if dt != "int64" else np.array([0, -3, 4, 2])
        if dt.startswith("complex"):
            x = x + 1j * np.array([0, -0.0, 1, np.inf, np.nan, 2, 0, 0.5], dt)
        dx = pygpu.asarray(x, device=device)
        for e in (0.5, 2, -1, 2.0, -1.0, 3):
            if dt in ("int64", "bool") and e == -1:
                continue
            with np.errstate(all="ignore"):
                want, want_call = x ** e, np.power(x, e)
                _same_bits(pygpu.fuse(lambda a: a ** e)(dx), want)
                if not (dt == "bool" and e == 2):   # bool ** 2 is int8, bool ** 3 int64: no one program
                    _same_bits(pygpu.fuse(lambda a, p: a ** p)(dx, e), want)
                if not dt.startswith("complex"):   # (complex pow's special values are the op table's)
                    _same_bits(pygpu.fuse(lambda a: np.power(a, e))(dx), want_call)


def test_integer_arrays_to_float_powers_take_the_float_loops_fast_paths(monkeypatch):
    """int64_array ** 0.5 is np.power's float64 loop with a scalar exponent, which NumPy computes
    as sqrt (and 2.0, -1.0 as square, reciprocal): fuse computed pow there, 1 ulp off sqrt 2 on
    CUDA (equal on the CPU, whose glibc pow is correctly rounded there: so the program's ops are
    read here); a float16 loop has no fast path, and float_power none either."""
    from pygpu import _fuse
    from pygpu._compiler import ir
    programs = []
    emit = _fuse.vm.emit
    monkeypatch.setattr(_fuse.vm, "emit", lambda fn: programs.append(ir.dump(fn)) or emit(fn))

    def ops(fn, *args):
        programs.clear()
        pygpu.fuse(fn)(*args)
        return programs[0]
    x = pygpu.asarray(np.array([0, 3, 4, 2]), device="cpu")
    assert "sqrt" in ops(lambda a: a ** 0.5, x) and "power" not in ops(lambda a: a ** 0.5, x)
    assert "sqrt" in ops(lambda a: np.power(a, 0.5), x)
    assert "square" in ops(lambda a: np.power(a, 2.0), x) and "reciprocal" in ops(lambda a: a ** -1.0, x)
    picked = ops(lambda a, p: a ** p, x, 0.5)   # a Python float argument: picked at run time
    assert "sqrt" in picked and "power" in picked
    assert "sqrt" in ops(lambda a: a ** 0.5, pygpu.asarray(np.array([True]), device="cpu"))
    assert "sqrt" not in ops(lambda a: np.power(a, 0.5), pygpu.asarray(np.array([1.0], np.float16), device="cpu"))
    assert "sqrt" not in ops(lambda a: np.float_power(a, 0.5), x)


def test_round_and_integer_rounding_keep_numpy_dtypes(device):
    """np.round of integers keeps their dtype and values (fuse gave float64, 2**62 + 1 rounded to
    2**62), negative decimals round in float64 as NumPy's; floats round with decimals= in their own
    dtype, complex numbers part by part; fix, floor, ceil, trunc, rint of integers as NumPy's."""
    x = np.array([0, -0.0, 1.5, 2.5, -2.5, 1234.5678, -15, 25, np.inf, np.nan])
    for dt in ("int8", "uint8", "int64", "float16", "float32", "float64", "complex128"):
        with np.errstate(invalid="ignore"):
            v = x.astype(dt) if dt != "int64" else np.array([2 ** 62 + 1, -3, 15, 25, -25, 7])
        dv = pygpu.asarray(v, device=device)
        for decimals in (0, 1, 2, -1):
            with np.errstate(all="ignore"):
                _same_bits(pygpu.fuse(lambda a: np.round(a, decimals))(dv), np.round(v, decimals))
                _same_bits(pygpu.fuse(lambda a: np.around(a, decimals=decimals))(dv), np.round(v, decimals))
        if dt[0] in "iu":
            for fn in (np.rint, np.floor, np.ceil, np.trunc, np.round):
                _same_bits(pygpu.fuse(lambda a: fn(a))(dv), fn(v))


def test_ufuncs_without_loops_of_their_own(device):
    """degrees, radians, float_power, spacing, gcd and lcm raised a bare KeyError in fuse: NumPy's
    (degrees as NumPy's float32 constant 180.0f / pi_f), gcd and lcm as pygpu's Euclid loop, with
    NumPy's dtypes and NEP 50's OverflowError for a literal; another ufunc names itself."""
    rng = np.random.default_rng(7)
    x = np.array([0, -0.0, 1, -1, 3.25, 1e-3, np.inf, np.nan])
    for dt in ("float16", "float32", "float64", "int8"):
        with np.errstate(invalid="ignore"):
            v = x.astype(dt)
        dv = pygpu.asarray(v, device=device)
        for fn in (np.degrees, np.radians, lambda a: np.float_power(a, 0.5) + np.float_power(a, 2)):
            with np.errstate(invalid="ignore"):
                _same_bits(pygpu.fuse(fn)(dv), fn(v))
    for dt in ("int8", "uint16", "int64"):
        a = rng.integers(-100 if dt[0] == "i" else 0, 100, 40).astype(dt)
        b = rng.integers(0, 100, 40).astype(dt)
        da, db = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
        _same_bits(pygpu.fuse(lambda p, q: np.gcd(p, q))(da, db), np.gcd(a, b))
        _same_bits(pygpu.fuse(lambda p, q: np.lcm(p, q) + 1)(da, db), np.lcm(a, b) + 1)
        _same_bits(pygpu.fuse(lambda p, n: np.gcd(p, n))(da, 12), np.gcd(a, 12))
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        pygpu.fuse(lambda p: np.gcd(p, 300))(pygpu.asarray(np.array([4], np.int8), device=device))
    with pytest.raises(pygpu.CompileError, match="divmod"):
        pygpu.fuse(lambda p: np.divmod(p, 2))(pygpu.asarray(x, device=device))


def test_python_int_arguments_checked_where_they_meet_an_integer(device):
    """A Python int argument (not a literal) is checked against the type it is read in, as NumPy
    checks it: int8_array < 300 compares exactly and int8_array / 300 divides in float64 (both raised
    OverflowError), int8_array + 300 raises; an integer argument used as an integer power's exponent
    raises NumPy's ValueError for a negative element (2 ** a computed 0)."""
    a = np.array([1, 2, 100, -5], np.int8)
    da = pygpu.asarray(a, device=device)
    for fn in (lambda x, y: x < y, lambda x, y: y >= x, lambda x, y: x / y, lambda x, y: x * 1.5 + y // 2,
               lambda x, y: x + y, lambda x, y: (x == y).sum()):
        for n in (300, -129, 100, -1):
            try:
                want = np.asarray(fn(a, n))
            except OverflowError as e:
                with pytest.raises(OverflowError, match=str(e)):
                    pygpu.fuse(fn)(da, n)
                continue
            _same_bits(pygpu.fuse(fn)(da, n), want)
    u = pygpu.asarray(np.array([1, 2], np.uint64), device=device)
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint64"):
        pygpu.fuse(lambda x, y: x + y)(u, -1)
    _same_bits(pygpu.fuse(lambda x, y: x < y)(u, -1), np.array([1, 2], np.uint64) < -1)
    for fn in (lambda e: 2 ** e, lambda e: np.power(3, e) + 1, lambda e: (2 ** e).sum()):
        for e in (np.array([1, -1], np.int8), np.array([0, 3], np.int8), np.array([1, 200], np.uint8)):
            try:
                want = np.asarray(fn(e))
            except ValueError as err:
                with pytest.raises(ValueError, match=str(err)):
                    pygpu.fuse(fn)(pygpu.asarray(e, device=device))
                continue
            _same_bits(pygpu.fuse(fn)(pygpu.asarray(e, device=device)), want)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        pygpu.fuse(lambda x, p: x ** p)(da, -1)


def _inplace_chain(x, y):
    w = x * 2
    w += y
    w *= 3
    w //= 2
    return w


@pytest.mark.parametrize("dtypes", [(np.int32, np.int64), (np.float32, np.float64), (np.uint8, np.uint8),
                                    (np.int16, float)])
def test_inplace_operators_on_intermediates_keep_their_dtype(device, dtypes):
    """w += y on a value made in the function keeps w's dtype, as NumPy's in-place ufunc (it was
    rebound to the promoted dtype: int32 += int64 gave int64)."""
    x = np.arange(1, 7, dtype=dtypes[0])
    y = np.arange(6, dtype=dtypes[1]) if dtypes[1] is not float else 2.0
    want = _inplace_chain(x.copy(), y) if dtypes[1] is not float else None
    args = (pygpu.asarray(x, device=device), pygpu.asarray(y, device=device) if isinstance(y, np.ndarray) else y)
    if want is None:
        same_error(lambda: _inplace_chain(x.copy(), y), lambda: pygpu.fuse(_inplace_chain)(*args))
        return
    got = pygpu.fuse(_inplace_chain)(*args)
    assert got.dtype == want.dtype
    assert_array_equal(got, want)


def test_inplace_operator_on_an_argument_raises(device):
    """x += y on an argument: the fused program cannot write into it (NumPy would), so it raises
    instead of leaving the caller's array unchanged; a Python scalar argument is rebound."""
    def update(x, y):
        x += y
        return x * 2

    x = pygpu.asarray(np.arange(3.0), device=device)
    with pytest.raises(pygpu.CompileError, match="in-place"):
        pygpu.fuse(update)(x, pygpu.ones(3, device=device))
    assert_array_equal(x, np.arange(3.0))

    def scaled(s, y):
        s += 1
        return y * s

    assert_array_equal(pygpu.fuse(scaled)(2, pygpu.asarray(np.arange(3), device=device)), scaled(2, np.arange(3)))
