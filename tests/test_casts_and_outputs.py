"""NumPy's answers where a value changes type or lands in an output: float16 rounded once from
float64, the loop a reduction into another dtype's out= computes in, the out= dtypes NumPy's
ufuncs refuse, outputs that alias inputs, keep-order flattening of broadcast views, fill values
cast as full() casts them, and the smaller dtype rules (sign of bools, astype(None), casting=).
Each was a wrong answer or a wrong error once (found by differential hunts against NumPy)."""
import warnings

import numpy as np
import pytest

import pygpu as pg
from test_edge_semantics import same


def errors_alike(f_np, f_pg, kind=TypeError):
    with pytest.raises(kind) as e_np:
        f_np()
    with pytest.raises(kind) as e_pg:
        f_pg()
    return str(e_np.value), str(e_pg.value)


# ---------------------------------------------------------------- float16, rounded once

def near_half_ties(rng, n, scale):
    """float64 values at and just beside float16's rounding ties, where a float32 step in between
    rounds twice (65519.999 went to 65520.0, then to inf)."""
    h = (rng.standard_normal(n) * scale).astype(np.float16)
    h = h[np.isfinite(h)].astype(np.float64)
    gap = np.spacing(h.astype(np.float16)).astype(np.float64) / 2
    return np.concatenate([h + gap, h - gap, h + gap * (1 + 2**-40), h - gap * (1 + 2**-40),
                           [65519.999, 65520.0, -65519.999, 2049.0000000009313, 1.0004882812509095,
                            2.9802322388562674e-08, 5.960464477539063e-08 * 1.5, np.nan, np.inf, -0.0, 1e-300]])


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")   # NumPy's, for the complex source
@pytest.mark.parametrize("scale", [1e-6, 1.0, 3e3, 6e4])
def test_float64_to_float16_rounds_once(scale):
    x = near_half_ties(np.random.default_rng(int(scale * 10)), 20_000, scale)
    want = x.astype(np.float16)
    for src in (x, x.astype(np.complex128)):
        got = pg.asnumpy(pg.asarray(src).astype(np.float16))
        np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    got = pg.asnumpy(pg.asarray(x, dtype=np.float16))
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    dst = pg.zeros(x.shape, np.float16)
    dst[...] = pg.asarray(x)
    np.testing.assert_array_equal(pg.asnumpy(dst).view(np.uint16), want.view(np.uint16))


def test_float16_loops_see_their_operands_as_float16():
    """NumPy casts a float16 loop's operands to float16 first: add(f8, f4, dtype=f2) adds halves."""
    a = np.array([1.0004882812509095, 70000.7, 3.3, 2049.0000000009313])
    b = np.array([2**-12, 1.0, 1.0, 1.0], np.float32)
    with np.errstate(over="ignore"):
        same(pg.add(pg.asarray(a), pg.asarray(b), dtype=np.float16), np.add(a, b, dtype=np.float16))
        i = np.array([70000, 2049, -3], np.int64)
        same(pg.multiply(pg.asarray(i), pg.asarray(np.ones(3, np.float16))), i * np.ones(3, np.float16))


def test_float16_loops_round_before_a_wider_out():
    """The float16 loop's value is a float16 before it is cast into a float32 or float64 out= (a
    float32 was stored straight from the loop's float computation)."""
    i8, h = np.array([3, 5, 7, -2], np.int8), np.array([2.5, 0.1, 3.3, 1000.7], np.float16)
    with np.errstate(all="ignore"):
        for f, args in (("sqrt", (i8,)), ("exp", (h,)), ("add", (h, h[::-1])), ("true_divide", (i8, 7)),
                        ("multiply", (h, 0.1))):
            for dt in ("f4", "f8", "c8"):
                want = getattr(np, f)(*args, out=np.zeros(4, dt))
                got = getattr(pg, f)(*[pg.asarray(a) if isinstance(a, np.ndarray) else a for a in args],
                                     out=pg.zeros(4, dt))
                same(got, want)


# ---------------------------------------------------------------- reductions into another dtype

def test_mean_of_float16_into_a_float32_out_is_the_float32_mean():
    # NumPy sums float16 in float32 into out and divides there (not the float16 mean, cast)
    h = (np.random.default_rng(3).random((37, 53)) * 100).astype(np.float16)
    for f in ("mean", "nanmean"):
        for axis in (None, 0, 1):
            shape = () if axis is None else (53 if axis == 0 else 37,)
            want, got = np.zeros(shape, np.float32), pg.zeros(shape, np.float32)
            getattr(np, f)(h, axis=axis, out=want)
            getattr(pg, f)(pg.asarray(h), axis=axis, out=got)
            np.testing.assert_allclose(pg.asnumpy(got), want, rtol=2e-6)   # (summation orders differ)

@pytest.mark.parametrize("f,x,dt", [
    ("sum", [0.6, 0.6, 0.6], "i8"), ("sum", [0.9, 0.9], "i8"), ("prod", [2.5, 2.5], "i8"),
    ("sum", [1, -1], "?"), ("nansum", [0.6, np.nan, 0.6, 0.6], "i8"), ("sum", np.array([100, 100], "i1"), "i8"),
    ("cumsum", [0.6, 0.6, 0.6, 0.9], "i8"), ("cumprod", [2.5, 2.5, 2.5], "i8"), ("max", [1.5, 2.7], "i4"),
])
def test_reductions_into_another_kind_compute_in_the_inputs_type(f, x, dt):
    """NumPy loops in out's dtype only where the input casts to it by 'same_kind' (int8 into int64
    sums int64s); a float sum into an int out sums floats, then casts."""
    x = np.asarray(x)
    shape = x.shape if f.startswith("cum") else ()
    want = getattr(np, f)(x, out=np.zeros(shape, dt))
    same(getattr(pg, f)(pg.asarray(x), out=pg.zeros(shape, dt)), want)


# ---------------------------------------------------------------- out= dtypes NumPy refuses

X = np.array([[1.5, 2.5], [3.5, 4.5]])


@pytest.mark.parametrize("call", [
    lambda m, a: m.vecdot(a, a, out=m.zeros(2, "i8")),
    lambda m, a: m.vecmat(a[0], a, out=m.zeros(2, "i8")),
    lambda m, a: m.outer(a, a, out=m.zeros((4, 4), "i8")),
    lambda m, a: m.round(a, out=m.zeros((2, 2), "i8")),
    lambda m, a: m.round(a, 1, out=m.zeros((2, 2), "i8")),
    lambda m, a: m.fix(a, out=m.zeros((2, 2), "i8")),
    lambda m, a: m.fft.fft(a, out=m.zeros((2, 2))),
    lambda m, a: m.std(a, axis=0, out=m.zeros(2, "i8")),
    lambda m, a: m.nanmean(a, axis=0, out=m.zeros(2, "i8")),
    lambda m, a: m.nanvar(a, axis=0, out=m.zeros(2, "i8")),
    lambda m, a: m.nanstd(a, axis=0, out=m.zeros(2, "i8")),
    lambda m, a: m.quantile(a, 0.5, axis=0, out=m.zeros(2, "i8")),
    lambda m, a: m.argmax(a, axis=0, out=m.zeros(2)),
    lambda m, a: m.argmin(a, axis=0, out=m.zeros(2, "u8")),
])
def test_out_dtypes_numpy_refuses(call):
    np_msg, pg_msg = errors_alike(lambda: call(np, X), lambda: call(pg, pg.asarray(X)))
    assert pg_msg.split(" from ")[0].split(" output")[0] == np_msg.split(" from ")[0].split(" output")[0]


def test_out_dtypes_numpy_casts_into():
    same(pg.outer(pg.asarray(X), pg.asarray(X), out=pg.zeros((4, 4), "f4")), np.outer(X, X, out=np.zeros((4, 4), "f4")))
    same(pg.var(pg.asarray(X), axis=0, out=pg.zeros(2, "i8")), np.var(X, axis=0, out=np.zeros(2, "i8")))
    same(pg.median(pg.asarray(X), axis=0, out=pg.zeros(2, "i8")), np.median(X, axis=0, out=np.zeros(2, "i8")))
    same(pg.argmax(pg.asarray(X), axis=0, out=pg.zeros(2, "i8")), np.argmax(X, axis=0, out=np.zeros(2, "i8")))
    same(pg.quantile(pg.asarray(X), 0.5, axis=0, method="lower", out=pg.zeros(2, "i8")),
         np.quantile(X, 0.5, axis=0, method="lower", out=np.zeros(2, "i8")))
    with pytest.raises(ValueError, match="not acceptable"):
        pg.linalg.multi_dot([pg.asarray(X)] * 3, out=pg.zeros((2, 2), "f4"))


def test_ufunc_outputs_of_modf_frexp_spacing_gcd_lcm():
    x = np.array([1.5, -2.25, np.inf, 0.0])
    d = pg.asarray(x)
    o1, o2 = pg.zeros(4), pg.zeros(4)
    r = pg.modf(d, out=(o1, o2))
    assert r[0] is o1 and r[1] is o2
    same(o1, np.modf(x)[0])
    r = pg.modf(d, o1, o2)
    assert r[0] is o1
    m, e = pg.zeros(4), pg.zeros(4, "i4")
    pg.frexp(d, out=(m, e))
    same(m, np.frexp(x)[0])
    same(e, np.frexp(x)[1])
    mask = np.array([True, False, True, False])
    o = pg.full(4, 7.0)
    pg.spacing(d, out=o, where=pg.asarray(mask))
    with np.errstate(invalid="ignore"):
        same(o, np.spacing(x, out=np.full(4, 7.0), where=mask))
    same(pg.gcd(pg.arange(6), 4, out=pg.zeros(6, "i8")), np.gcd(np.arange(6), 4, out=np.zeros(6, "i8")))
    same(pg.lcm(pg.arange(3), 2, pg.zeros(3, "f8")), np.lcm(np.arange(3), 2, np.zeros(3, "f8")))
    errors_alike(lambda: np.gcd(np.arange(3), 2, out=np.zeros(3, "f4"), casting="safe"),
                 lambda: pg.gcd(pg.arange(3), 2, out=pg.zeros(3, "f4"), casting="safe"))


# ---------------------------------------------------------------- outputs that are inputs

def test_dtype_fixes_the_output_and_the_loop_search_takes_the_inputs_safely():
    # NumPy's dtype= is the output's signature: the first loop with that output taking the inputs
    # safely (F->f for absolute of complex64, ff->? for equal of bool and float32, b->b for
    # negative of bools), else the loop computing in dtype
    b, f4, c8 = np.array([True, False]), np.array([1.5, 0.0], np.float32), np.array([3 + 4j], np.complex64)
    for call in (lambda m, x: m.negative(x(b), dtype=np.int8), lambda m, x: m.subtract(x(b), x(b), dtype=np.int8),
                 lambda m, x: m.sign(x(b), dtype=np.float32), lambda m, x: m.absolute(x(c8), dtype=np.float32),
                 lambda m, x: m.equal(x(b), x(f4), dtype=bool), lambda m, x: m.logical_and(x(b), x(f4), dtype=bool),
                 lambda m, x: m.add(x(f4.astype("f8")), x(f4.astype("f8")), dtype=np.float32),
                 lambda m, x: m.add(x(b), x(f4), dtype=np.float16)):
        same(call(pg, pg.asarray), call(np, np.asarray))
    for call in (lambda m, x: m.negative(x(b), dtype=bool), lambda m, x: m.sign(x(b), dtype=bool),
                 lambda m, x: m.absolute(x(c8), dtype=np.int8)):
        with pytest.raises(TypeError):
            call(np, np.asarray)
        with pytest.raises(TypeError):
            call(pg, pg.asarray)
    for call in (lambda m, x: m.sign(x(b)), lambda m, x: m.sign(x(b), dtype=bool)):
        with pytest.raises(TypeError) as ne:
            call(np, np.asarray)
        with pytest.raises(TypeError) as pe:
            call(pg, pg.asarray)
        # NumPy's no-loop error (a UFuncTypeError), which callers may catch by that class
        assert type(pe.value) is type(ne.value) and str(pe.value) == str(ne.value)


def test_integer_powers_check_the_exponents_the_loop_sees():
    # a float exponent cast into an integer loop: NaN becomes INT_MIN (refused as negative), -0.5
    # becomes 0 (allowed), as NumPy casts before its check
    base = np.array([3, 3], np.int8)
    for exps, refused in (([-2.0, np.nan], True), ([np.nan, 2.0], True), ([-0.5, 2.0], False)):
        e = np.array(exps, np.float32)
        call = lambda m, x: m.power(x(base), x(e), dtype=np.int32, casting="unsafe")   # noqa: E731
        if refused:
            errors_alike(lambda: call(np, np.asarray), lambda: call(pg, pg.asarray), ValueError)
        else:
            same(call(pg, pg.asarray), call(np, np.asarray))


def test_a_huge_python_int_with_no_loop_for_the_array_is_numpys_type_error():
    # no loop for the float array's type: TypeError, not the int's OverflowError (NumPy's order)
    for f, arr, v in (("bitwise_and", np.float32([1.5]), 2**63), ("left_shift", np.float32([1.5]), 2**64),
                      ("floor_divide", np.complex64([1]), 2**63)):
        errors_alike(lambda: getattr(np, f)(arr, v), lambda: getattr(pg, f)(pg.asarray(arr), v), TypeError)
    errors_alike(lambda: np.bitwise_and(np.int8([1]), 2**63), lambda: pg.bitwise_and(pg.asarray(np.int8([1])), 2**63),
                 OverflowError)


def test_logical_ufuncs_take_any_python_int_as_a_truth_value():
    for arr, v in ((np.array([0, 1, 100], np.int8), 128), (np.array([0, 1], np.uint8), -1),
                   (np.array([True, False]), 300)):
        for f in ("logical_and", "logical_or", "logical_xor"):
            same(getattr(pg, f)(pg.asarray(arr), v), getattr(np, f)(arr, v))
            same(getattr(pg, f)(v, pg.asarray(arr)), getattr(np, f)(v, arr))


def test_gcd_and_lcm_of_the_most_negative_integer():
    # abs(-2**63) wraps: NumPy's gcd is unsigned underneath (gcd(1, -2**63) is 1, not -1)
    x = np.array([0, 1, -1, 6, 128, 2**63 - 1, -2**63], np.int64)
    for y in (-2**63, np.int64(-2**63), x[::-1].copy()):
        same(pg.gcd(pg.asarray(x), pg.asarray(y) if isinstance(y, np.ndarray) else y), np.gcd(x, y))
        same(pg.gcd(pg.asarray(y) if isinstance(y, np.ndarray) else y, pg.asarray(x)), np.gcd(y, x))
        with np.errstate(all="ignore"):
            same(pg.lcm(pg.asarray(x), pg.asarray(y) if isinstance(y, np.ndarray) else y), np.lcm(x, y))


def test_divmod_into_its_own_inputs():
    for k in (0, 1):
        xn, bn = np.arange(12) * 3 - 7, np.array([2, 3, -4, 5] * 3)
        xp, bp = pg.asarray(xn), pg.asarray(bn)
        rn, rp = np.zeros(12, "i8"), pg.zeros(12, "i8")
        if k == 0:
            np.divmod(xn, bn, out=(xn, rn))
            q, r = pg.divmod(xp, bp, out=(xp, rp))
            assert q is xp and r is rp
        else:
            np.divmod(xn, bn, out=(bn, rn))
            pg.divmod(xp, bp, out=(bp, rp))
        same(xp, xn)
        same(bp, bn)
        same(rp, rn)
    mask = np.array([True, False] * 3)
    o1n, o2n, o1p, o2p = np.full(6, -1), np.full(6, -1), pg.full(6, -1), pg.full(6, -1)
    np.divmod(np.arange(6), 4, out=(o1n, o2n), where=mask)
    pg.divmod(pg.arange(6), 4, out=(o1p, o2p), where=pg.asarray(mask))
    same(o1p, o1n)
    same(o2p, o2n)


# ---------------------------------------------------------------- keep order of broadcast views

@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (4, 1, 3), (2, 2, 2, 2)])
def test_flatten_keep_order_of_broadcast_and_permuted_views(shape):
    """order='K' reads a broadcast axis (stride 0) where C order has it, as NumPy's iterator."""
    import itertools
    base = np.arange(int(np.prod(shape))).reshape(shape)
    pbase = pg.asarray(base)
    for perm in itertools.permutations(range(len(shape))):
        v, pv = base.transpose(perm)[..., ::-1], pbase.transpose(perm)[..., ::-1]
        views = [(v, pv)]
        for ax in range(v.ndim):
            cut = tuple(slice(0, 1) if i == ax else slice(None) for i in range(v.ndim))
            views.append((np.broadcast_to(v[cut], v.shape), pg.broadcast_to(pv[cut], v.shape)))
        for x, p in views:
            same(p.ravel("K"), x.ravel("K"))
            same(p.flatten("K"), x.flatten("K"))
            same(pg.ravel(p, order="K"), np.ravel(x, order="K"))


def test_asarray_with_an_order_it_cannot_keep_without_copying():
    t = pg.ones((2, 3)).T
    for f in (pg.asarray, pg.array):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            f(t, order="C", copy=False)
    assert pg.asarray(t, order="F", copy=False) is t
    assert pg.asarray(t, order="C").flags.c_contiguous


# ---------------------------------------------------------------- values into dtypes

@pytest.mark.parametrize("value,dt", [
    (1 + 2j, "f4"), (np.uint64(2**64 - 1), "i8"), (np.int64(300), "i1"), (2.7, "i4"), (np.float64(1e300), "f4"),
    (np.complex128(1 + 2j), "i4"), (True, "f8"), (np.array(5.5), "i2"), (np.float32(3.3), "f8"), (0.5, bool),
    (-2**63, "i8"), (3, "c8"), (np.nan, "i4"), (np.inf, "i8"),   # NaN and inf: NumPy's cast, with its warning
])
def test_full_casts_its_fill_as_numpy(value, dt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(pg.full(3, value, dt), np.full(3, value, dt))
        same(pg.full_like(pg.zeros(3, dt), value), np.full_like(np.zeros(3, dt), value))


def test_full_refuses_what_numpy_refuses():
    errors_alike(lambda: np.full(2, 2**63, bool), lambda: pg.full(2, 2**63, bool), OverflowError)
    errors_alike(lambda: np.full(2, 300, "i1"), lambda: pg.full(2, 300, "i1"), OverflowError)


def test_arange_keeps_its_first_value_with_an_infinite_step():
    with np.errstate(over="ignore", invalid="ignore"):
        for dt in ("f2", "f4"):
            same(pg.arange(0, 100000, 70000, dtype=dt), np.arange(0, 100000, 70000, dtype=dt))
        same(pg.arange(0.0, 3e38, 2e38, dtype="f4"), np.arange(0.0, 3e38, 2e38, dtype="f4"))


def test_small_dtype_rules():
    b = pg.asarray([True, False])
    for f in (pg.sign, pg.positive, lambda x: +x):
        with pytest.raises(TypeError, match="did not contain a loop"):
            f(b)
    x = pg.arange(3.0)
    assert x.conj() is x and x.conjugate() is x
    assert b.conj() is b
    z = pg.asarray([1 + 2j])
    same(z.conj(), np.array([1 - 2j]))
    same(pg.hypot(b, 2**63), np.hypot(np.array([True, False]), 2**63))
    same(pg.arange(3).astype(None), np.arange(3).astype(None))
    same(pg.tri(2, dtype=None), np.tri(2, dtype=None))
    for casting in (None, 1):
        errors_alike(lambda: np.arange(3).astype("f4", casting=casting),
                     lambda: pg.arange(3).astype("f4", casting=casting))
        errors_alike(lambda: np.add(np.arange(3), 1, casting=casting), lambda: pg.add(pg.arange(3), 1, casting=casting))
    assert pg.common_type(pg.ones(2, "f4")) is np.float32
    assert np.common_type(pg.ones(2, "i4"), pg.ones(2, "f2")) is np.float64
    assert pg.min_scalar_type(pg.asarray(np.array(300))) == np.uint16
    assert np.min_scalar_type(pg.ones(3, "i8")) == np.int64


def test_clip_of_complex_values_orders_as_numpys():
    a = np.array([2 + 1j, -3j, 0.5 + 4j, -2 - 1j, 1 + 0.5j])
    for lo, hi in [(-1, 1), (-1 + 2j, 1 - 1j), (1, -1)]:
        same(pg.clip(pg.asarray(a), lo, hi), np.clip(a, lo, hi))
    out = pg.zeros(5, "c16")
    assert pg.clip(pg.asarray(a), -1, 1, out=out) is out


# ---------------------------------------------------------------- a user ufunc's loop for Python scalars

def test_vectorize_loops_for_python_scalars_as_numpys_search():
    """A Python scalar is weak in the loop search only next to an array of at least its kind: an
    int8 array with 0.1 takes the float64 loop, with 300 the int32 one; two Python ints int64."""
    mul = pg.vectorize(["float32(float32, float32)", "float64(float64, float64)"])(lambda a, b: a * b)
    r = mul(pg.asarray(np.array([1, 3, 7], np.int8)), 0.1)
    same(r, np.array([1, 3, 7]) * 0.1)
    assert mul(pg.asarray(np.ones(2, np.float32)), 0.1).dtype == np.float32
    add = pg.vectorize(["int32(int32, int32)", "float64(float64, float64)"])(lambda a, b: a + b)
    same(add(pg.asarray(np.array([1, 3, 7], np.int8)), 300), np.array([301, 303, 307], np.int32))
    add4 = pg.vectorize(["int32(int32, int32)", "int64(int64, int64)", "float32(float32, float32)",
                         "float64(float64, float64)"])(lambda a, b: a + b)
    same(add4(2**31 - 1, 1), np.int64(2**31))
    same(add4(16777217, 0.0), np.float64(16777217.0))


def test_ufunc_order_and_subok_keywords():
    a = pg.asarray(np.arange(6.0).reshape(2, 3))
    r = pg.add(a, 1, order="F")
    assert r.flags.f_contiguous and not r.flags.c_contiguous
    same(r, np.add(np.arange(6.0).reshape(2, 3), 1, order="F"))
    assert pg.multiply(a.T, 2, order="C").flags.c_contiguous
    same(pg.sqrt(a, subok=True), np.sqrt(np.arange(6.0).reshape(2, 3)))
    with pytest.raises(ValueError):
        pg.add(a, 1, order="X")


def test_smaller_signatures_as_numpys():
    same(pg.arange(stop=3), np.arange(stop=3))
    for args, kwargs in [((), {}), ((), {"start": 2})]:
        errors_alike(lambda: np.arange(*args, **kwargs), lambda: pg.arange(*args, **kwargs))
    x, v = pg.ones((3, 2, 2)), pg.ones((3, 2))
    out = pg.zeros((3, 2))
    assert pg.matvec(x, v, out=out) is out
    with pytest.raises(ValueError, match="binary mode of fromstring is removed"):
        pg.fromstring(b"abcd", dtype="u1")
    assert str(pg.finfo("f4")) == str(np.finfo("f4")) and str(pg.iinfo("i2")) == str(np.iinfo("i2"))


def test_strict_casting_rules_apply_to_the_loop_found():
    a8 = np.array([1, 2], "i1")
    p8 = pg.asarray(a8)
    for f in (lambda m, x: m.add(x, m.asarray(np.array([1.5, 2], "f4")), casting="no"),
              lambda m, x: m.sqrt(x, casting="equiv"),
              lambda m, x: m.add(x, m.asarray(np.array([1], "i2")), casting="equiv")):
        errors_alike(lambda: f(np, a8), lambda: f(pg, p8))
    same(pg.add(p8, p8, casting="no"), np.add(a8, a8, casting="no"))
    same(pg.add(p8, 1, casting="no"), np.add(a8, 1, casting="no"))


# ---------------------------------------------------------------- ComplexWarning

CASTS = {
    "astype": lambda m, c, f: m.asarray(c).astype(np.float64),
    "astype int": lambda m, c, f: m.asarray(c).astype(np.int32),
    "astype complex": lambda m, c, f: m.asarray(c).astype(np.complex64),
    "astype bool": lambda m, c, f: m.asarray(c).astype(np.bool_),
    "ufunc out= bool": lambda m, c, f: m.add(m.asarray(c), m.asarray(f), out=m.zeros(2, np.bool_), casting="unsafe"),
    "astype empty": lambda m, c, f: m.asarray(c[:0]).astype(np.float32),
    "ufunc out=": lambda m, c, f: m.add(m.asarray(c), m.asarray(c), out=m.zeros(2), casting="unsafe"),
    "ufunc out= int": lambda m, c, f: m.sqrt(m.asarray(c), out=m.zeros(2, np.int32), casting="unsafe"),
    "ufunc dtype=": lambda m, c, f: m.add(m.asarray(c), m.asarray(f), dtype=np.float64, casting="unsafe"),
    "ufunc Python complex": lambda m, c, f: m.add(m.asarray(f), 2j, dtype=np.float64, casting="unsafe"),
    "ufunc complex loop": lambda m, c, f: m.absolute(m.asarray(c)),
    "setitem": lambda m, c, f: m.zeros(2).__setitem__(slice(None), m.asarray(c)),
    "setitem NumPy array": lambda m, c, f: m.zeros(2).__setitem__(slice(None), c),
    "setitem element": lambda m, c, f: m.zeros(2).__setitem__(0, np.complex128(1j)),
    "setitem real part": lambda m, c, f: m.asarray(c).real.__setitem__(slice(None), m.asarray(f)),
    "copyto": lambda m, c, f: m.copyto(m.zeros(2), m.asarray(c), casting="unsafe"),
    "copyto where=": lambda m, c, f: m.copyto(m.zeros(2), m.asarray(c), casting="unsafe",
                                              where=m.asarray([True, False])),
}


@pytest.mark.parametrize("name", CASTS)
def test_complex_to_real_casts_warn_as_numpy(name):
    """NumPy's ComplexWarning wherever a cast drops imaginary parts (astype, a ufunc's casts by
    casting='unsafe', assignment), decided by the dtypes alone; none where no cast drops them."""
    c, f = np.array([1 + 2j, 3 - 1j]), np.ones(2)

    def warned(m):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            CASTS[name](m, c, f)
        return [x.category for x in w if issubclass(x.category, np.exceptions.ComplexWarning)]

    assert warned(pg) == warned(np)
