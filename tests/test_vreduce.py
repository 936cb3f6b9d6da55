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
