"""Reductions with a user's binary function: pygpu.reduce / pygpu.cuda.reduce (Numba's
cuda.reduce spelling) and .reduce / .accumulate of binary vectorize functions, against NumPy and
functools.reduce, on every device."""
import functools

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal


def add(a, b):
    return a + b


def bigger(a, b):
    return a if a > b else b


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64, 1000, 4097])
@pytest.mark.parametrize("dt", ["int32", "int64", "float32", "float64", "complex128"])
def test_reduce_sum(device, n, dt):
    r = pygpu.reduce(lambda a, b: a + b)
    a = (np.arange(n) % 13 + 1).astype(dt)
    with device:
        got = r(pygpu.asarray(a))
    assert got == pytest.approx(a.sum(dtype="complex128" if dt.startswith("c") else "float64"))
    assert r(a, init=10) == pytest.approx(a.sum() + 10)


def test_reduce_numba_spelling(device):
    r = pygpu.cuda.reduce(bigger)
    v = np.random.default_rng(0).random(999)
    d = pygpu.asarray(v, device=device)
    assert r(d) == v.max()
    assert r(d, size=10) == v[:10].max()
    res = pygpu.zeros(1, device=device)
    assert r(d, res=res) is None and float(res[0]) == v.max()
    assert r(d[:0], init=-5.0) == -5.0
    s = pygpu.Stream(device=device) if hasattr(pygpu, "Stream") and device.kind == "cuda" else 0
    assert r(d, stream=s) == v.max()
    assert isinstance(pygpu.cuda.Reduce(add), pygpu.cuda.Reduce)
    with pytest.raises(TypeError, match="two arguments"):
        pygpu.reduce(lambda a: a)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, None, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vectorize_reduce_matches_numpy(device, axis, keepdims):
    uf = pygpu.vectorize(add)
    x = np.arange(60, dtype=np.int64).reshape(3, 4, 5)
    got = uf.reduce(pygpu.asarray(x, device=device), axis=axis, keepdims=keepdims)
    expected = np.add.reduce(x, axis=axis, keepdims=keepdims)
    assert_array_equal(got, expected)


def test_vectorize_reduce_options(device):
    uf = pygpu.vectorize(["float64(float64, float64)"])(bigger)
    x = np.random.default_rng(1).random((7, 9))
    px = pygpu.asarray(x, device=device)
    assert_array_equal(uf.reduce(px, axis=1), x.max(axis=1))
    assert_array_equal(uf.reduce(px.T, axis=0), x.max(axis=1))
    assert_array_equal(uf.reduce(px, axis=0, initial=0.5), np.maximum(x.max(axis=0), 0.5))
    out = pygpu.zeros(9, device=device)
    assert uf.reduce(px, axis=0, out=out) is out
    assert_array_equal(out, x.max(axis=0))
    assert_array_equal(uf.reduce(px[:, :0], axis=1, initial=1.0), np.ones(7))
    with pytest.raises(ValueError, match="zero-size array to reduction operation bigger which has no identity"):
        uf.reduce(px[:0], axis=0)
    with pytest.raises(np.exceptions.AxisError):
        uf.reduce(px, axis=2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        uf.reduce(px, axis=(0, 0))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_vectorize_accumulate_matches_numpy(device, axis):
    uf = pygpu.vectorize(add)
    x = np.arange(35, dtype=np.int32).reshape(5, 7)
    got = uf.accumulate(pygpu.asarray(x, device=device), axis=axis)
    assert_array_equal(got, np.add.accumulate(x.astype(np.int64), axis=axis))
    mx = pygpu.vectorize(["float64(float64, float64)"])(bigger)
    v = np.random.default_rng(2).random(100)
    assert_array_equal(mx.accumulate(pygpu.asarray(v, device=device)), np.maximum.accumulate(v))


def test_reduce_against_functools_for_a_non_builtin_combiner(device):
    def combine(a, b):
        return a * 0.5 + b * 0.5 + 1.0 if a < b else a - b * 0.25

    uf = pygpu.vectorize(["float64(float64, float64)"])(combine)
    v = np.array([3.0, 1.0])  # two elements: one combination, whatever the tree
    assert float(uf.reduce(pygpu.asarray(v, device=device))) == functools.reduce(combine, v.tolist())


def test_unary_vectorize_has_no_reduce():
    uf = pygpu.vectorize(["f8(f8)"])(lambda x: x)
    assert "reduce" not in vars(uf)


def test_identity_is_the_empty_reduction(device):
    uf = pygpu.vectorize(["int64(int64, int64)"], identity=0)(add)
    assert_array_equal(uf.reduce(pygpu.zeros((0, 3), dtype=np.int64, device=device), axis=0), np.zeros(3, np.int64))
    assert pygpu.vectorize(identity="reorderable")(add) is not None
    with pytest.raises(ValueError, match="identity must be"):
        pygpu.vectorize(identity="x")(add)


# ------------------------------------------------------------------ the reduction kernels (kernels/vm_reduce.h)

def first(a, b):
    return a


def last(a, b):
    return b


LAYOUTS = {
    "c": lambda x: x,
    "transposed": lambda x: x.T,
    "negative": lambda x: x[::-1, ::-2],
    "broadcast": lambda x: np.broadcast_to(x[:1], x.shape),
}


@pytest.mark.parametrize("dt", ["bool", "int8", "int32", "int64", "uint16", "uint64", "float16", "float32",
                                "float64", "complex64", "complex128"])
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vectorize_reduce_dtypes_axes(device, dt, axis, keepdims):
    uf = pygpu.vectorize(add)
    x = ((np.arange(60).reshape(6, 10) % 7) + 1).astype(dt)
    got = uf.reduce(pygpu.asarray(x, device=device), axis=axis, keepdims=keepdims)
    # the loop for (dt, dt) gives the accumulator's dtype, as Numba types a + b
    expected = np.add.reduce(x.astype(got.dtype), axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(got.get().astype(expected.dtype), expected, rtol=2e-3 if dt == "float16" else 1e-6)
    assert got.shape == expected.shape


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("shape, axis", [((37, 300), 0), ((37, 300), 1), ((300, 37), None), ((3, 5000), 1),
                                         ((5000, 3), 0), ((0, 4), 1), ((4, 0), 1)])
def test_order_is_kept(device, layout, shape, axis):
    """first/last are associative but not commutative: any reordering of the elements shows."""
    x = LAYOUTS[layout](np.arange(np.prod(shape), dtype=np.int64).reshape(shape))
    px = pygpu.asarray(np.ascontiguousarray(x), device=device)
    px = LAYOUTS[layout](pygpu.asarray(np.arange(np.prod(shape), dtype=np.int64).reshape(shape), device=device))
    f, g = pygpu.vectorize(["int64(int64, int64)"])(first), pygpu.vectorize(["int64(int64, int64)"])(last)
    red = x.shape[axis] if axis is not None else x.size
    if red == 0:
        with pytest.raises(ValueError, match="zero-size array to reduction operation first which has no identity"):
            f.reduce(px, axis=axis)
        assert f.reduce(px, axis=axis, initial=7).shape == np.add.reduce(x, axis=axis).shape
        return
    flat = x.reshape(-1) if axis is None else np.moveaxis(x, axis, -1)
    assert_array_equal(f.reduce(px, axis=axis), flat[..., 0])
    assert_array_equal(g.reduce(px, axis=axis), flat[..., -1])
    assert_array_equal(f.reduce(px, axis=axis, initial=-1), np.full(flat.shape[:-1], -1))
    if axis is not None:
        assert_array_equal(g.accumulate(px, axis=axis), x)
        assert_array_equal(f.accumulate(px, axis=axis), np.repeat(np.take(x, [0], axis=axis), x.shape[axis], axis))


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 1023, 1025, 70001])
def test_long_reductions_and_scans(device, n):
    """Lengths around the chunks and passes of both backends."""
    x = np.random.default_rng(n).random(n)
    uf = pygpu.vectorize(["float64(float64, float64)"])(add)
    px = pygpu.asarray(x, device=device)
    np.testing.assert_allclose(float(uf.reduce(px)), x.sum(), rtol=1e-12)
    np.testing.assert_allclose(uf.accumulate(px).get(), np.cumsum(x), rtol=1e-12)
    g = pygpu.vectorize(["int64(int64, int64)"])(last)
    i = pygpu.arange(n, device=device)
    assert int(g.reduce(i)) == n - 1
    assert_array_equal(g.accumulate(i[::-1]), np.arange(n)[::-1])


@pytest.mark.parametrize("layout", ["c", "transposed", "negative"])
@pytest.mark.parametrize("shape, axis", [((130, 1000), 1), ((50, 3001), 1), ((3001, 50), 0), ((9, 65, 129), 2),
                                         ((9, 65, 129), (1, 2)), ((40, 7, 300), 1)])
@pytest.mark.parametrize("dt", ["int32", "int64", "uint8", "complex128"])
def test_many_outputs_in_chunks(device, layout, shape, axis, dt):
    """Many outputs, each in several chunks (blocks of whole outputs on the CPU, a ragged last
    chunk), inputs converted on the way: exact sums and running sums against NumPy's."""
    x = LAYOUTS[layout](np.random.default_rng(1).integers(0, 200, shape).astype(dt))
    px = LAYOUTS[layout](pygpu.asarray(np.random.default_rng(1).integers(0, 200, shape).astype(dt), device=device))
    sig = "complex128(complex128, complex128)" if dt == "complex128" else "int64(int64, int64)"
    uf = pygpu.vectorize([sig])(add)
    wide = x.astype(np.complex128 if dt == "complex128" else np.int64)
    assert_array_equal(uf.reduce(px, axis=axis), np.add.reduce(wide, axis=axis))
    if isinstance(axis, int):
        assert_array_equal(uf.accumulate(px, axis=axis), np.add.accumulate(wide, axis=axis))
        out = pygpu.zeros(np.add.reduce(wide, axis=axis).shape, dtype=np.float64, device=device)
        if dt != "complex128":  # stored through a cast
            uf.reduce(px, axis=axis, out=out)
            assert_array_equal(out, np.add.reduce(wide, axis=axis).astype(np.float64))


def test_float32_sum_is_accurate(device):
    """10,000,001 x 0.1 in float32: chunks folded in order, then the chunks' sums."""
    uf = pygpu.vectorize(["float32(float32, float32)"])(add)
    x = pygpu.full(10_000_001, 0.1, dtype=np.float32, device=device)
    assert abs(float(uf.reduce(x)) - 1000000.1) < 1.0


def test_0d_and_scalar_inputs(device):
    uf = pygpu.vectorize(add)
    z = pygpu.asarray(np.float64(2.5), device=device)
    assert_array_equal(uf.reduce(z), np.float64(2.5))
    assert_array_equal(uf.reduce(z, axis=None), np.float64(2.5))
    assert_array_equal(uf.reduce(np.arange(5.0)), np.float64(10.0))  # NumPy input moved
    with pytest.raises(ValueError, match="0-d"):
        uf.accumulate(z)
    with pytest.raises(np.exceptions.AxisError):
        uf.accumulate(pygpu.ones(3, device=device), axis=1)


def test_dtype_and_out(device):
    uf = pygpu.vectorize(add)
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    px = pygpu.asarray(x, device=device)
    assert_array_equal(uf.reduce(px, axis=0, dtype=np.float32), x.sum(axis=0, dtype=np.float32))
    out = pygpu.zeros(3, dtype=np.float64, device=device)  # another dtype: cast on the way
    assert uf.reduce(px, axis=1, out=out) is out
    assert_array_equal(out, x.sum(axis=1).astype(np.float64))
    out = pygpu.zeros((3, 4), dtype=np.int64, device=device)
    assert uf.accumulate(px, axis=1, out=(out,)) is out
    assert_array_equal(out, np.cumsum(x, axis=1))
    with pytest.raises(ValueError, match="wrong shape"):
        uf.reduce(px, axis=1, out=pygpu.zeros(4, device=device))


def test_deep_layouts_are_copied(device):
    uf = pygpu.vectorize(add)
    x = np.arange(2 ** 10, dtype=np.int64).reshape((2,) * 10)
    px = pygpu.asarray(x, device=device)
    axes = (0, 2, 4, 6, 8)
    assert_array_equal(uf.reduce(px.transpose(1, 0, 3, 2, 5, 4, 7, 6, 9, 8), axis=axes, keepdims=True),
                       np.add.reduce(x.transpose(1, 0, 3, 2, 5, 4, 7, 6, 9, 8), axis=axes, keepdims=True))


def test_combiner_that_branches(device):
    """A program with jumps as the combiner: lanes diverge inside the reduction."""
    def gcd_like(a, b):
        while b > 0:
            a, b = b, a % b
        return a

    uf = pygpu.vectorize(["int64(int64, int64)"])(gcd_like)
    x = np.array([12 * k for k in range(1, 400)] * 3, dtype=np.int64)
    assert int(uf.reduce(pygpu.asarray(x, device=device))) == functools.reduce(gcd_like, x.tolist())
    assert_array_equal(uf.accumulate(pygpu.asarray(x[:50], device=device)),
                       np.array(list(__import__("itertools").accumulate(x[:50].tolist(), gcd_like))))


def test_lazy_combiner_compiles_the_accumulator_loop(device):
    uf = pygpu.vectorize(add)  # int8 + int8 gives int64 (Numba's typing): the loop (int64, int64) is compiled
    x = np.arange(100, dtype=np.int8)
    assert_array_equal(uf.reduce(pygpu.asarray(x, device=device)), np.int64(x.astype(np.int64).sum()))
    assert any(tuple(t) == (np.dtype("int64"),) * 3 for t, _ in uf._programs)


def test_reduce_needs_a_combiner_that_keeps_its_type():
    uf = pygpu.vectorize(["float64(int32, int32)"])(add)
    with pytest.raises(TypeError, match="no loop of add combines two float64"):
        uf.reduce(pygpu.arange(4, dtype=np.int32))


@pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0, reason="this build has no CUDA kernels")
def test_mock_cuda_vm_reduce_launch(mock_driver):
    """The CUDA launches of a VM reduction: kernel pg_vm_reduce of module vm_reduce, a grid capped
    at 8 blocks per SM, passes over the partials of a long reduction, both programs copied once,
    the register limit refused on the host."""
    from conftest import run_mock
    out = run_mock(mock_driver, """
        res = {}
        r = pygpu.reduce(lambda a, b: a + b)
        a = pygpu.zeros(10**6, dtype=np.float32, device="cuda:0")
        b0 = stats()
        r(a)
        res["long"] = stats()
        res["before"] = b0
        fused = pygpu.fuse(lambda x, y: (x * y).sum(axis=1))
        m = pygpu.zeros((4096, 8), dtype=np.float32, device="cuda:0")
        b1 = stats()
        fused(m, m)
        res["fused"] = stats()
        res["before_fused"] = b1
        src = "lambda a, b: " + " + ".join(f"a * {i}.5 + b" for i in range(30))
        big = pygpu.vectorize(["float64(float64, float64)"])(eval(src))
        res["big"] = error(lambda: big.reduce(pygpu.zeros(4, device="cuda:0")))
        print(json.dumps(res))
    """)
    long, before = out["long"], out["before"]
    assert long["last_kernel"] == "pg_vm_reduce" and long["block"] == 256
    assert long["launches"] - before["launches"] >= 2     # the chunks, then their partials
    assert long["grid"] <= 32                            # 4 SMs * 8 blocks
    fused, bf = out["fused"], out["before_fused"]
    assert fused["launches"] - bf["launches"] == 1       # 4096 outputs of 8: one pass
    assert fused["copies"] - bf["copies"] == 2           # the map and the combiner, once each
    assert out["big"]["type"] == "ValueError" and "registers" in out["big"]["msg"], out["big"]
