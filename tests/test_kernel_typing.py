"""Numba's typing of scalar code in kernels and vectorize, where pygpu once differed (found by a
differential hunt against Numba 0.68 / numba-cuda and its CUDA simulator): a float stored into an
int array, shifts and negation at the operand's width, uint64 mixed with signed integers, the
NaN rules of atomic max/min, cuda.reduce per dtype, popc/clz of narrow integers, local names
that are C macros, and where a raise says it happened."""
import numpy as np
import pytest

import pygpu
from pygpu import cuda


@pytest.fixture(scope="module", autouse=True)
def on_cpu():
    with pygpu.Device("cpu"):
        yield


@cuda.jit
def store(y, o):
    i = cuda.grid(1)
    o[i] = y[i]


@cuda.jit
def store_int_of(x, y, o):
    i = cuda.grid(1)
    if i < x.size:
        o[i] = int(y[i])


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("src", ["float32", "float64"])
def test_a_float_stored_into_an_int_array(src, dt):
    y = np.array([2.5, -3.5, 7.9, 0.0], src) if dt[0] == "i" else np.array([2.5, 3.5, 7.9, 0.0], src)
    o = np.zeros(4, dt)
    store[1, 4](y, o)
    np.testing.assert_array_equal(o, y.astype(dt))
    f = np.zeros(4)
    store_int_of[1, 4](y.copy(), y, f)
    np.testing.assert_array_equal(f, np.trunc(y))


def test_guvectorize_stores_a_float_into_an_int_output():
    def first_as_int(a, out):
        out[0] = a[0]
    g = pygpu.guvectorize(["void(float64[:], int64[:])"], "(n)->()")(first_as_int)
    np.testing.assert_array_equal(pygpu.asnumpy(g(np.array([[1.5, -2.5], [3.9, 0.0]]))), [1, 3])


@cuda.jit
def shifts_and_unary(a, b, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i, 0] = a[i] >> 1
        o[i, 1] = a[i] << 1
        o[i, 2] = -b[i]
        o[i, 3] = ~b[i]


def test_shifts_keep_the_left_operands_signedness_and_unary_ops_its_width():
    a = np.array([2**63, 2**64 - 1, 5], np.uint64)
    o = np.zeros((3, 4), np.uint64)
    shifts_and_unary[1, 3](a, np.array([1, 0, 255], np.uint8), o)
    np.testing.assert_array_equal(o[:, 0], a >> np.uint64(1))
    np.testing.assert_array_equal(o[:, 1], a << np.uint64(1))
    np.testing.assert_array_equal(o[:, 2], [255, 0, 1])     # -uint8(1) is 255, as Numba's
    np.testing.assert_array_equal(o[:, 3], [254, 255, 0])   # ~uint8(0) is 255
    s = np.zeros((3, 4), np.int64)
    shifts_and_unary[1, 3](np.array([-8, 7, 1], np.int64), np.array([-128, 1, 127], np.int8), s)
    np.testing.assert_array_equal(s[:, 0], [-4, 3, 0])
    np.testing.assert_array_equal(s[:, 2], [-128, -1, -127])  # -int8(-128) wraps at 8 bits
    np.testing.assert_array_equal(s[:, 3], [127, -2, -128])
    f = pygpu.vectorize(lambda x: x >> 1)
    r = f(a)
    assert r.dtype == np.uint64
    np.testing.assert_array_equal(pygpu.asnumpy(r), a >> np.uint64(1))


@cuda.jit
def mixed(u, s, o):
    i = cuda.grid(1)
    if i < u.size:
        o[i, 0] = max(u[i], s[i])
        o[i, 1] = min(u[i], s[i])
        o[i, 2] = u[i] if u[i] > 3 else s[i]
        o[i, 3] = u[i] + s[i]


def test_uint64_with_a_signed_integer_is_float64():
    u, s = np.array([2**63, 2], np.uint64), np.array([-7, -7], np.int64)
    o = np.zeros((2, 4))
    mixed[1, 2](u, s, o)
    np.testing.assert_array_equal(o[0], [2.0**63, -7.0, 2.0**63, 2.0**63 - 7])
    np.testing.assert_array_equal(o[1], [2.0, -7.0, -7.0, -5.0])
    r = pygpu.vectorize(lambda a, b: max(a, b))(u, s)
    assert r.dtype == np.float64


@cuda.jit
def atomics(a, v):
    cuda.atomic.max(a, 0, v[0])
    cuda.atomic.min(a, 1, v[0])
    cuda.atomic.nanmax(a, 2, v[0])
    cuda.atomic.nanmin(a, 3, v[0])


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_atomic_max_min_keep_a_stored_nan_and_ignore_a_nan_value(dt):
    a = np.full(4, np.nan, dt)
    atomics[1, 1](a, np.array([1.0], dt))
    np.testing.assert_array_equal(a, [np.nan, np.nan, 1.0, 1.0])
    a = np.array([2.0, 2.0, 2.0, 2.0], dt)
    atomics[1, 1](a, np.array([np.nan], dt))
    np.testing.assert_array_equal(a, [2.0, 2.0, 2.0, 2.0])
    a = np.array([2.0, 2.0, 2.0, 2.0], dt)
    atomics[1, 1](a, np.array([3.0], dt))
    np.testing.assert_array_equal(a, [3.0, 2.0, 3.0, 2.0])


def test_cuda_reduce_compiles_for_each_arrays_dtype():
    s = cuda.reduce(lambda a, b: a + b)
    assert s(np.ones(3)) == 3.0
    big = np.array([2**60, 1, 1, 1], np.int64)
    r = s(big)
    assert r == 2**60 + 3 and isinstance(r, int)


@cuda.jit
def bits(a, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i, 0] = cuda.popc(a[i])
        o[i, 1] = cuda.clz(a[i])
        o[i, 2] = cuda.ffs(a[i])


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "uint16", "int32", "uint64"])
def test_bit_counts_at_the_operands_width(dt):
    bitsz = np.dtype(dt).itemsize * 8
    v = np.array([-1 if dt[0] == "i" else 2**bitsz - 1, 1, 0, 6], dt)
    o = np.zeros((4, 3), np.int64)
    bits[1, 4](v, o)
    u = v.view(f"uint{bitsz}").astype(object)
    np.testing.assert_array_equal(o[:, 0], [bin(int(x)).count("1") for x in u])
    np.testing.assert_array_equal(o[:, 1], [bitsz - int(x).bit_length() for x in u])
    np.testing.assert_array_equal(o[:, 2], [(int(x) & -int(x)).bit_length() for x in u])


@cuda.jit
def macro_names(o):
    INT_MAX = 5
    M_PI = 2
    NULL = 1
    EOF = 3
    errno = 4
    o[0] = INT_MAX + M_PI + NULL + EOF + errno


def test_locals_named_like_c_macros():
    o = np.zeros(1, np.int64)
    macro_names[1, 1](o)
    assert o[0] == 15


@cuda.jit
def raises_at(a, k):
    i = cuda.grid(1)
    if i == k:
        raise ValueError("boom")
    a[i] = i


def test_a_raise_names_the_thread_that_raised():
    with pytest.raises(ValueError, match=r"boom \(kernel raises_at, block \(1, 0, 0\), thread \(1, 0, 0\)\)"):
        raises_at[2, 4](np.zeros(8), 5)


def test_builtin_conversions_and_complex_powers_keep_numbas_types():
    assert pygpu.vectorize(lambda x: float(x))(np.ones(2, np.float32)).dtype == np.float32
    assert pygpu.vectorize(lambda x: int(x))(np.ones(2, np.int32)).dtype == np.int32
    assert pygpu.vectorize(lambda x: int(x))(np.ones(2, np.float32)).dtype == np.int64
    z = np.array([1 + 1j], np.complex64)
    assert pygpu.vectorize(lambda a, b: a ** b)(z, np.array([2], np.int32)).dtype == np.complex128
    assert pygpu.vectorize(lambda a, b: a ** b)(z, np.array([2], np.int16)).dtype == np.complex64


@cuda.jit(device=True)
def scaled(a, b=5, c=2.5):
    return a + b * c


@cuda.jit
def calls_with_defaults(o):
    o[0] = scaled(1)
    o[1] = scaled(1, 2)
    o[2] = scaled(1, 2, 3)


def test_device_functions_with_default_arguments():
    o = np.zeros(3)
    calls_with_defaults[1, 1](o)
    np.testing.assert_array_equal(o, [13.5, 6.0, 7.0])

    def times(x, k=3):
        return x * k
    v = pygpu.vectorize(lambda x: times(x) + times(x, 2))
    np.testing.assert_array_equal(pygpu.asnumpy(v(np.arange(3.0))), [0.0, 5.0, 10.0])
