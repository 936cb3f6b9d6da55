"""Scans and segments against NumPy: cumsum cumprod cumulative_sum cumulative_prod (include_initial)
ufunc.accumulate, diff, ufunc.reduceat and ufunc.at (unbuffered: repeated indices accumulate);
every dtype, layouts, axes, out=, and NumPy's errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from conftest import DTYPES, same_error
from test_reductions import compare, layouts, to_device, values

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_cumsum_cumprod(device, dt, name):
    for shape in [(), (0,), (9,), (3, 4), (2, 3, 5), (3, 0, 2)]:
        x0 = values(dt, shape, small=name == "cumprod")
        for layout, x in layouts(x0):
            d = to_device(x, device)
            for axis in [None] + list(range(-x.ndim, x.ndim)):
                expected = getattr(np, name)(x, axis=axis)
                if dt == "float16":  # pygpu accumulates float16 in float32 (NumPy rounds each step)
                    expected = getattr(np, name)(x.astype(np.float32), axis=axis).astype(np.float16)
                compare(getattr(pygpu, name)(d, axis=axis), expected)
                compare(getattr(d, name)(axis=axis), expected)


@pytest.mark.parametrize("dt", ["int8", "uint32", "float32", "complex128", "bool"])
def test_cumulative(device, dt):
    x = values(dt, (3, 4), small=True)
    d = to_device(x, device)
    for name in ("cumulative_sum", "cumulative_prod"):
        for axis in (0, 1, -1):
            for inc in (False, True):
                compare(getattr(pygpu, name)(d, axis=axis, include_initial=inc),
                        getattr(np, name)(x, axis=axis, include_initial=inc))
        v = x[1]
        compare(getattr(pygpu, name)(to_device(v, device), include_initial=True),
                getattr(np, name)(v, include_initial=True))
        same_error(lambda: getattr(np, name)(x), lambda: getattr(pygpu, name)(d))
    compare(pygpu.cumulative_sum(d, axis=1, dtype=np.float64), np.cumulative_sum(x, axis=1, dtype=np.float64))


ACCUMULATING = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
                "bitwise_and", "bitwise_or", "bitwise_xor"]


@pytest.mark.parametrize("name", ACCUMULATING)
@pytest.mark.parametrize("dt", ["bool", "int16", "uint64", "float16", "float64", "complex64"])
def test_accumulate(device, name, dt):
    x = values(dt, (4, 5), nan=True, small=name == "multiply")
    d = to_device(x, device)
    np_uf, uf = getattr(np, name), getattr(pygpu, name)
    for axis in (0, 1, -1):
        try:
            expected = np_uf.accumulate(x, axis=axis)
        except TypeError:
            same_error(lambda: np_uf.accumulate(x, axis=axis), lambda: uf.accumulate(d, axis=axis))
            return
        compare(uf.accumulate(d, axis=axis), expected)
    compare(uf.accumulate(d), np_uf.accumulate(x))


def test_accumulate_errors_and_out(device):
    x = values("float64", (3, 4))
    d = to_device(x, device)
    same_error(lambda: np.add.accumulate(x, axis=None), lambda: pygpu.add.accumulate(d, axis=None))
    same_error(lambda: np.add.accumulate(np.float64(1.0)), lambda: pygpu.add.accumulate(pygpu.asarray(1.0)))
    same_error(lambda: np.add.accumulate(x, axis=2), lambda: pygpu.add.accumulate(d, axis=2))
    out = pygpu.empty((3, 4), dtype=np.float32, device=device)
    assert pygpu.cumsum(d, axis=1, out=out) is out
    compare(out, np.cumsum(x, axis=1).astype(np.float32))
    y = to_device(np.arange(6.0), device)  # in place
    pygpu.cumsum(y, out=y)
    compare(y, np.cumsum(np.arange(6.0)))
    with pytest.raises(ValueError):
        pygpu.cumsum(d, axis=1, out=pygpu.empty((4, 3), device=device))


@pytest.mark.parametrize("n,rows", [(1_000_003, 1), (300_001, 2), (5, 100_000), (20_000, 7)])
def test_long_scans(device, n, rows):
    x = values("float64", (rows, n))
    xi = values("int64", (rows, n))
    for v in (x, np.ascontiguousarray(x.T).T):
        compare(pygpu.cumsum(to_device(v, device), axis=1), np.cumsum(v, axis=1), scale=1e4)
    compare(pygpu.cumsum(to_device(xi, device), axis=1), np.cumsum(xi, axis=1))
    compare(pygpu.maximum.accumulate(to_device(x, device), axis=1), np.maximum.accumulate(x, axis=1))
    t = np.ascontiguousarray(x.T)  # the scanned axis outer
    compare(pygpu.cumsum(to_device(t, device), axis=0), np.cumsum(t, axis=0), scale=1e4)


@pytest.mark.parametrize("n", [10, 3000, 70_001])
def test_float16_scans_round_every_step_as_numpy(device, n):
    # NumPy's float16 loops round each step of a cumsum or cumprod to float16: a float32 running
    # sum drifted (1487 against 1493 after 3000 steps); every layout and axis, and into out=
    rng = np.random.default_rng(n)
    a = rng.random(n).astype(np.float16)
    p = pygpu.asarray(a, device=device)
    for f, x, px in (("cumsum", a, p), ("nancumsum", a, p), ("cumprod", (a * 0.1 + 0.95).astype(np.float16), None)):
        px = pygpu.asarray(x, device=device) if px is None else px
        np.testing.assert_array_equal(getattr(pygpu, f)(px).get().view(np.uint16), getattr(np, f)(x).view(np.uint16))
    m = rng.random((37, n // 37 + 3)).astype(np.float16)
    pm = pygpu.asarray(m, device=device)
    for axis in (0, 1):
        for view, pview in ((m, pm), (m[:, ::3], pm[:, ::3]), (m.T, pm.T)):
            np.testing.assert_array_equal(pygpu.cumsum(pview, axis=axis).get(), np.cumsum(view, axis=axis))
    out, pout = np.zeros(n, np.float16), pygpu.zeros(n, np.float16, device=device)
    np.add.accumulate(a.astype(np.float32), out=out, dtype=np.float16)
    pygpu.add.accumulate(p.astype(np.float32), out=pout, dtype=np.float16)
    np.testing.assert_array_equal(pout.get(), out)


def test_diff(device):
    for dt in ("int16", "uint8", "float32", "bool", "complex64"):
        x = values(dt, (4, 6))
        d = to_device(x, device)
        for n in (0, 1, 2, 7):
            for axis in (0, 1, -1):
                compare(pygpu.diff(d, n=n, axis=axis), np.diff(x, n=n, axis=axis))
    x = values("float64", (3, 4))
    d = to_device(x, device)
    compare(pygpu.diff(d, prepend=0.5), np.diff(x, prepend=0.5))
    compare(pygpu.diff(d, axis=0, append=x[:1]), np.diff(x, axis=0, append=x[:1]))
    same_error(lambda: np.diff(np.float64(1.0)), lambda: pygpu.diff(pygpu.asarray(1.0)))
    same_error(lambda: np.diff(x, n=-1), lambda: pygpu.diff(d, n=-1))
    same_error(lambda: np.diff(x, axis=2), lambda: pygpu.diff(d, axis=2))


# ------------------------------------------------------------------ reduceat

@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or", "bitwise_xor"])
@pytest.mark.parametrize("dt", ["int8", "uint16", "float32", "complex128", "bool"])
def test_reduceat(device, name, dt):
    np_uf, uf = getattr(np, name), getattr(pygpu, name)
    x = values(dt, (8, 5), small=True)
    d = to_device(x, device)
    for idx in ([0, 4, 1, 5], [0], [7], [3, 3, 2], [0, 2, 4, 6], np.array([1, 7])):
        for axis in (0,):
            try:
                expected = np_uf.reduceat(x, idx, axis=axis)
            except TypeError:
                same_error(lambda: np_uf.reduceat(x, idx, axis=axis), lambda: uf.reduceat(d, idx, axis=axis))
                return
            compare(uf.reduceat(d, idx, axis=axis), expected)
    compare(uf.reduceat(d, [0, 2, 4], axis=1), np_uf.reduceat(x, [0, 2, 4], axis=1))
    compare(uf.reduceat(to_device(x.T, device), [1, 3], axis=1), np_uf.reduceat(x.T, [1, 3], axis=1))


def test_reduceat_long_float32_segment_is_pairwise(device):
    """A segment of 2**25 float32 ones sums to 2**25 (a sequential fold stops at 2**24: issue 16
    item 2), and segments of 0.1f keep the precision of a pairwise sum."""
    ones = pygpu.ones(2 ** 25 + 3, dtype=np.float32, device=device)
    got = pygpu.add.reduceat(ones, [0, 2 ** 25]).get()
    assert got.tolist() == [2.0 ** 25, 3.0]
    x = np.full(3_000_017, 0.1, dtype=np.float32)
    idx = [0, 5, 1_000_000, 1_000_001, 2_999_999]
    got = pygpu.add.reduceat(to_device(x, device), idx).get().astype(np.float64)
    exact = np.add.reduceat(x.astype(np.float64), idx)
    np.testing.assert_allclose(got, exact, rtol=4e-7)


@pytest.mark.parametrize("name", ["add", "maximum", "minimum", "multiply", "logical_and", "bitwise_or"])
@pytest.mark.parametrize("dt", ["float64", "int32", "complex64", "bool"])
def test_reduceat_segment_lengths_around_every_block(device, name, dt):
    """Segments whose lengths cross the fold's blocks of 8, its binary counter's powers of two and
    the GPU's threads per segment (over a mean length of 64: up to 256 lanes, 8 loads each):
    against NumPy, in order (decreasing indices give one element), on a row and along axis 0."""
    np_uf, uf = getattr(np, name), getattr(pygpu, name)
    lengths = [1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 511, 512, 513, 2047, 2048, 2049, 8191, 8193, 40000]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    n = int(np.sum(lengths))
    x = values(dt, (n,), small=True)
    if name == "multiply" and dt in ("float64", "complex64"):  # products of 40000 factors near 1
        x = (1 + 1e-5 * x).astype(dt)
    try:
        np_uf.reduceat(x, starts)
    except TypeError:
        same_error(lambda: np_uf.reduceat(x, starts), lambda: uf.reduceat(to_device(x, device), starts))
        return
    rounded = dt in ("float64", "complex64") and name in ("add", "multiply")  # the order differs
    # sums pairwise: a few roundings; products: each factor's rounding adds up whatever the order
    # (sqrt(40000) of them, with a margin)
    tol = {("add", "float64"): 1e-12, ("add", "complex64"): 2e-6,
           ("multiply", "float64"): 1e-11, ("multiply", "complex64"): 2e-4}.get((name, dt))

    def check(x, idx, axis=0):
        got = uf.reduceat(to_device(x, device), idx, axis=axis)
        if rounded:  # against the same sums and products in double precision
            wide = np_uf.reduceat(x.astype(np.complex128 if dt == "complex64" else np.float64), idx, axis=axis)
            assert got.dtype == np_uf.reduceat(x, idx, axis=axis).dtype
            np.testing.assert_allclose(got.get(), wide, rtol=tol, atol=tol)
        else:
            compare(got, np_uf.reduceat(x, idx, axis=axis))
    check(x, starts)
    check(x, np.array([5, 3, 3, 100, 40000, 0, n - 1]))   # not increasing: single elements
    m = values(dt, (3000, 3), small=True)
    if name == "multiply" and dt in ("float64", "complex64"):
        m = (1 + 1e-5 * m).astype(dt)
    check(m, [0, 1000, 1001, 2999], axis=0)


def test_reduceat_errors_and_options(device):
    x = np.arange(8)
    d = to_device(x, device)
    same_error(lambda: np.add.reduceat(x, [0, 10]), lambda: pygpu.add.reduceat(d, [0, 10]))
    same_error(lambda: np.add.reduceat(x, [-1]), lambda: pygpu.add.reduceat(d, [-1]))
    compare(pygpu.add.reduceat(d, [0.5, 3]), np.add.reduceat(x, [0.5, 3]))  # cast, as NumPy
    compare(pygpu.add.reduceat(d, []), np.add.reduceat(x, []))
    compare(pygpu.add.reduceat(d, to_device(np.array([0, 3]), device)), np.add.reduceat(x, [0, 3]))
    compare(pygpu.add.reduceat(d, [0, 3], dtype=np.float32), np.add.reduceat(x, [0, 3], dtype=np.float32))
    out = pygpu.zeros(2, dtype=np.int32, device=device)
    assert pygpu.add.reduceat(d, [0, 3], out=out) is out
    compare(out, np.add.reduceat(x, [0, 3]).astype(np.int32))


# ------------------------------------------------------------------ at

@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "logical_and",
                                  "logical_or", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("dt", DTYPES)
def test_at(device, name, dt):
    np_uf, uf = getattr(np, name), getattr(pygpu, name)
    x = values(dt, (6,), small=True)
    idx = np.array([0, 0, 3, 5, 3, 0, -1])
    b = values(dt, (7,), small=True)
    expected = x.copy()
    try:
        np_uf.at(expected, idx, b)
    except TypeError:
        d = to_device(x, device)
        same_error(lambda: np_uf.at(x.copy(), idx, b), lambda: uf.at(d, idx, b))
        return
    d = to_device(x, device)
    assert uf.at(d, idx, to_device(b, device)) is None
    compare(d, expected)
    # a scalar b, and a pygpu index array
    expected = x.copy()
    np_uf.at(expected, idx, b[0])
    d = to_device(x, device)
    uf.at(d, to_device(idx, device), b[:1].reshape(()))
    compare(d, expected)


def test_at_multidimensional(device):
    x = values("float64", (4, 3, 2))
    for index, b in [(([0, 1, 0], [2, 2, 2]), 1.5), (([0, 0],), np.ones((2, 3, 2))),
                     ((np.array([[0, 3], [3, 3]]),), values("float64", (2, 2, 3, 2))), (([1, 2], [0, 0], [1, 1]), 2.0),
                     (2, 3.0)]:
        expected = x.copy()
        np.add.at(expected, index, b)
        d = to_device(x, device)
        pygpu.add.at(d, index, b)
        compare(d, expected)
    strided = to_device(np.zeros(10), device)[::-2]  # negative strides
    pygpu.add.at(strided, [0, 0, 4], 1.0)
    e = np.zeros(10)[::-2]
    np.add.at(e, [0, 0, 4], 1.0)
    compare(strided, e)


def test_at_errors(device):
    x = np.zeros(3)
    d = to_device(x, device)
    same_error(lambda: np.add.at(x.copy(), [0, 5], 1), lambda: pygpu.add.at(d, [0, 5], 1))
    compare(d, np.zeros(3))  # nothing written
    same_error(lambda: np.add.at(x.copy(), [-4], 1), lambda: pygpu.add.at(d, [-4], 1))
    same_error(lambda: np.add.at(np.zeros((2, 2)), ([0], [0], [0]), 1),
               lambda: pygpu.add.at(pygpu.zeros((2, 2), device=device), ([0], [0], [0]), 1))
    with pytest.raises(ValueError, match="second operand"):
        pygpu.add.at(d, [0], None)
    same_error(lambda: np.add.at(x.copy(), [0.5], 1), lambda: pygpu.add.at(d, [0.5], 1))
    u = np.zeros(3, np.uint8)
    np.add.at(u, [0], 300)  # NumPy wraps rather than raising
    du = pygpu.zeros(3, dtype=np.uint8, device=device)
    pygpu.add.at(du, [0], 300)
    compare(du, u)
    host = np.zeros(3)   # a NumPy array to update: NumPy's at on it (np.add.at with pygpu values lands here)
    pygpu.add.at(host, [0, 0], 1)
    assert host.tolist() == [2.0, 0.0, 0.0]
    pygpu.add.at(d, slice(None), 1)   # any index NumPy takes: the scatter kernels, on every device
    if device.kind == "cpu":   # ufuncs beyond the scatter kernels: NumPy's at, on the memory
        pygpu.divide.at(d, [0], 2.0)
        compare(d, np.array([0.5, 1.0, 1.0]))
    else:                      # never copied to the host behind the user's back
        compare(d, np.array([1.0, 1.0, 1.0]))
        with pytest.raises(TypeError, match="divide.at"):
            pygpu.divide.at(d, [0], 1.0)


def test_at_histogram(device):
    """Many repeated indices: every update lands (atomics on the GPU)."""
    idx = RNG.integers(0, 17, 200_000)
    for dt in ("int32", "float32", "float64", "uint8", "int64", "complex64", "float16"):
        counts = to_device(np.zeros(17, dt), device)
        pygpu.add.at(counts, idx, 1)
        expected = np.zeros(17, dt)
        np.add.at(expected, idx, 1)
        compare(counts, expected)
    best = to_device(np.full(17, -1.0), device)
    vals = RNG.uniform(0, 1, idx.size)
    pygpu.maximum.at(best, idx, vals)
    expected = np.full(17, -1.0)
    np.maximum.at(expected, idx, vals)
    compare(best, expected, exact=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(0, 1), st.booleans(),
       st.sampled_from(["int32", "float32", "complex64", "uint8"]))
def test_hypothesis_scans(rows, cols, axis, transpose, dt):
    x = values(dt, (rows, cols), small=True)
    if transpose:
        x = np.ascontiguousarray(x.T).T
    d = pygpu.asarray(x)
    compare(pygpu.cumsum(d, axis=axis), np.cumsum(x, axis=axis))
    compare(pygpu.maximum.accumulate(d, axis=axis), np.maximum.accumulate(x, axis=axis))
    idx = sorted(RNG.integers(0, x.shape[axis], 3).tolist())
    compare(pygpu.add.reduceat(d, idx, axis=axis), np.add.reduceat(x, idx, axis=axis))


def test_at_on_a_4_byte_aligned_complex64_view(device):
    """Imported complex64 views may sit on a 4-byte boundary: add.at adds part by part and works;
    other ops, whose GPU update is one 8-byte compare-and-swap, refuse with a clear error on every
    device (issue 16 item 6: the CAS word rounded down and the store wrote 4 bytes past it)."""
    base = np.zeros(9, np.float32)
    view = base[1:].view(np.complex64)
    if device.kind == "cpu":
        d = pygpu.from_dlpack(view)
    else:
        owner = pygpu.zeros(9, np.float32, device=device)
        cai = dict(owner[1:].__cuda_array_interface__, typestr="<c8", shape=(4,), strides=None)
        holder = type("Holder", (), {"__cuda_array_interface__": cai})()
        d = pygpu.asarray(holder)
    assert d.data_ptr % 8 == 4
    with pytest.raises(ValueError, match="multiply.at on a complex64 array whose elements are not 8-byte aligned"):
        pygpu.multiply.at(d, [0, 0, 1], 2j)
    pygpu.add.at(d, [0, 0, 1], 1 + 2j)
    np.testing.assert_array_equal(d.get(), [2 + 4j, 1 + 2j, 0, 0])
    aligned = d.copy()
    pygpu.multiply.at(aligned, [0, 0, 1], 2j)
    np.testing.assert_array_equal(aligned.get(), [-8 - 16j, -4 + 2j, 0, 0])


@pytest.mark.parametrize("n,rows", [(3, 1), (5, 4), (300_001, 2), (20_000, 3)])
def test_scans_start_from_the_first_element(device, n, rows):
    """cumprod of complex values starts from each row's first element, as NumPy's: 1 + 0j times
    inf + 0j is inf + nanj, so starting from the identity turned an infinite first element (and
    a -0.0 real part) into another value; every path (short rows, rows in parts) and both axes."""
    rng = np.random.default_rng(n)
    x = (rng.uniform(0.99, 1.01, (rows, n)) + 1j * rng.uniform(-1e-3, 1e-3, (rows, n))).astype(np.complex128)
    firsts = [complex(np.inf, 0), complex(-0.0, -0.0), complex(np.inf, np.inf), complex(-0.0, 2.0)]
    for r in range(rows):
        x[r, 0] = firsts[r % len(firsts)]
    d = pygpu.asarray(x, device=device)
    with np.errstate(invalid="ignore"):
        want = np.cumprod(x, axis=1)
        got = pygpu.asnumpy(pygpu.cumprod(d, axis=1))
        np.testing.assert_array_equal(got[:, 0], want[:, 0])
        np.testing.assert_array_equal(np.signbit(got[:, 0].real), np.signbit(want[:, 0].real))
        finite = np.isfinite(x[:, 0])
        np.testing.assert_allclose(got[finite, :50], want[finite, :50], rtol=1e-12)
        got0 = pygpu.asnumpy(pygpu.cumprod(d.T.copy(), axis=0))
        np.testing.assert_array_equal(got0[0], want[:, 0])
