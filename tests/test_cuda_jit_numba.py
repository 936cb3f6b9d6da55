"""Numba's CUDA kernel language as Numba users write it (issue 18): kernels from Numba's documentation
and habits, run unchanged with `from pygpu import cuda`, checked against Python's math and NumPy,
and their CUDA C compiled by NVRTC where it is installed."""
import cmath
import math
import operator

import numpy as np
import pytest

import pygpu
from pygpu import cuda
from pygpu.cuda.types import boolean, f4, float32, float64, int32, int64, uint8, uint64, void
from pygpu._jit import cudajit

from conftest import assert_array_equal
from test_raw_kernels_cuda_mock import needs_nvrtc


@pytest.fixture(scope="module", autouse=True)
def on_cpu():
    """These run on the CPU device: the GPU half is their CUDA C through NVRTC (below)."""
    with pygpu.Device("cpu"):
        yield


# ------------------------------------------------------------------ names C already has

@cuda.jit
def div(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] / b


@cuda.jit
def exp(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = math.exp(a[i])


@cuda.jit
def rsqrt(a):   # a name CUDA declares with C linkage (NVRTC refuses an extern "C" kernel of it)
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 1.0 / math.sqrt(a[i])


def test_kernels_named_like_c_library_functions():
    a = np.arange(8.0)
    div[1, 8](a, 2.0)
    assert_array_equal(a, np.arange(8.0) / 2)
    exp[1, 8](a)
    assert_array_equal(a, np.exp(np.arange(8.0) / 2))
    assert 'void div_(' in div.inspect_source()
    b = np.array([1.0, 4.0, 16.0])
    rsqrt[1, 8](b)
    assert_array_equal(b, [1.0, 0.5, 0.25])
    assert 'void rsqrt_(' in rsqrt.inspect_source()


# ------------------------------------------------------------------ Numba's type objects

def test_array_types_and_signatures_from_pygpu_cuda_types():
    assert str(float32[:]) == "array(float32, 1d, A)"
    assert float32[::1].layout == "C" and float32[:, ::1].layout == "C" and float32[::1, :].layout == "F"
    assert float32[:, :].ndim == 2 and float32[:, :].layout == "A"
    sig = void(float32[:, ::1], int64)
    assert sig.return_type is void and sig.args == (float32[:, ::1], int64)
    assert str(float64(float64, f4)) == "float64(float64, float32)"
    assert float32(1.5) == np.float32(1.5) and type(float32(1.5)) is np.float32
    with pytest.raises(TypeError, match="array types are written"):
        float32[1:]
    with pytest.raises(TypeError, match="only the first or the last"):
        float32[:, ::1, :]
    with pytest.raises(TypeError):
        void(1.5)


@pytest.mark.parametrize("make", [
    lambda f: cuda.jit(void(float32[:, ::1], int32))(f),
    lambda f: cuda.jit((float32[:, ::1], int32))(f),
    lambda f: cuda.jit([void(float32[:, :], int64)])(f),
    lambda f: cuda.jit("void(float32[:, ::1], int32)")(f),
])
def test_eager_signatures_of_type_objects(make):
    def fill(a, v):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = i * 10 + j + v

    k = make(fill)
    assert len(k.signatures) == 1
    a = np.zeros((3, 4), np.float32)
    k[(1, 1), (4, 4)](a, 7)
    assert_array_equal(a, (np.add.outer(np.arange(3) * 10, np.arange(4)) + 7).astype(np.float32))


def test_type_objects_convert_inside_kernels():
    @cuda.jit
    def convert(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i, 0] = float32(x[i]) / float32(3)
            out[i, 1] = int32(x[i] * 2.0)
            out[i, 2] = uint8(x[i] + 300.0)
            out[i, 3] = boolean(x[i])

    x = np.array([0.0, 1.25, 2.5, 7.75])
    out = np.zeros((4, 4))
    convert[1, 4](x, out)
    expect = np.stack([(x.astype(np.float32) / np.float32(3)).astype(np.float64), (x * 2).astype(np.int32),
                       (x + 300).astype(np.int64).astype(np.uint8), x != 0], axis=1).astype(np.float64)
    assert_array_equal(out, expect)


def test_an_array_type_is_not_a_conversion():
    @cuda.jit
    def bad(x):
        x[0] = float32[:](x[0])

    with pytest.raises(pygpu.CompileError):
        bad[1, 1](np.zeros(1))


# ------------------------------------------------------------------ math

VALUES = np.array([0.1, 0.5, 1.0, 2.5, 3.0, -1.5, 7.25, 1e-300, 100.0, 0.7, 6.0, -2.25])


@cuda.jit
def math_zoo(a, out):
    i = cuda.grid(1)
    if i < a.size:
        m, e = math.frexp(a[i])
        out[i, 0] = m
        out[i, 1] = e
        out[i, 2] = math.ldexp(m, e)
        out[i, 3] = math.erf(a[i])
        out[i, 4] = math.erfc(a[i])
        out[i, 5] = math.gamma(a[i]) if a[i] < 150 else 0.0
        out[i, 6] = math.lgamma(a[i])
        f, n = math.modf(a[i])
        out[i, 7] = f
        out[i, 8] = n
        out[i, 9] = math.remainder(a[i], 0.7)
        out[i, 10] = math.nextafter(a[i], 10.0)
        out[i, 11] = cuda.cbrt(a[i])


def _math_expected(x):
    x = float(x)
    return [math.frexp(x)[0], math.frexp(x)[1], x, math.erf(x), math.erfc(x), math.gamma(x) if x < 150 else 0.0,
            math.lgamma(x), math.modf(x)[0], math.modf(x)[1], math.remainder(x, 0.7), math.nextafter(x, 10.0),
            np.cbrt(x)]


def test_math_functions_of_numba_kernels_match_python():
    out = np.zeros((len(VALUES), 12))
    math_zoo[1, 32](VALUES, out)
    expect = np.array([_math_expected(x) for x in VALUES])
    np.testing.assert_allclose(out, expect, rtol=4e-15, atol=0)
    assert out[-1, 7] == -0.25 and out[-1, 8] == -2.0   # modf keeps the sign in both parts, as Python


def test_math_functions_keep_float32():
    x = np.array([0.25, 1.5, 3.0], np.float32)
    out = np.zeros((3, 12), np.float32)
    math_zoo[1, 32](x, out)
    expect = np.array([_math_expected(v) for v in x])
    np.testing.assert_allclose(out, expect, rtol=2e-6)
    src = math_zoo.inspect_source((cudajit.typeof(x), cudajit.typeof(out)))
    assert "erff(" in src and "lgammaf(" in src and "frexpf(" in src


def test_math_function_misuse_is_a_compile_error():
    @cuda.jit
    def too_many(x):
        x[0] = math.erf(x[0], x[1])

    @cuda.jit
    def float_exponent(x):
        x[0] = math.ldexp(x[0], 1.5)

    for k in (too_many, float_exponent):
        with pytest.raises(pygpu.CompileError):
            k[1, 1](np.zeros(2))


def test_bit_count_counts_the_bits_of_the_absolute_value():
    @cuda.jit
    def bits(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i].bit_count()

    a = np.array([0, 1, 7, 255, -1, -8, 2**40 + 3, -2**63], np.int64)
    out = np.zeros(len(a), np.int64)
    bits[1, 8](a, out)
    assert_array_equal(out, [int(v).bit_count() for v in a])
    u = np.array([2**64 - 1, 5], np.uint64)
    out = np.zeros(2, np.int64)
    bits[1, 2](u, out)
    assert_array_equal(out, [64, 2])


# ------------------------------------------------------------------ print

def test_print_in_a_kernel(capfd):
    @cuda.jit
    def talk(a):
        i = cuda.grid(1)
        if i == 0:
            print("a[0] =", a[0], "n", a.size, i < 3, 100%7)
            print("%d literal percent", end="|\n")

    talk[1, 4](np.array([1.5, 2.0]))
    out = capfd.readouterr().out
    assert out == "a[0] = 1.500000 n 2 True 2\n%d literal percent|\n", repr(out)


def test_print_of_what_cannot_be_shown_is_a_compile_error():
    @cuda.jit
    def show_array(a):
        print(a)

    with pytest.raises(pygpu.CompileError):
        show_array[1, 1](np.zeros(2))


# ------------------------------------------------------------------ shared arrays

def test_local_constants_as_shared_array_shapes():
    @cuda.jit
    def reverse(x, out):
        TPB = 32
        ROWS, COLS = 2, 16
        s = cuda.shared.array(TPB, dtype=float32)
        t = cuda.shared.array((ROWS, COLS), dtype=np.int32)
        i = cuda.threadIdx.x
        s[i] = x[i]
        t[i // COLS, i % COLS] = i
        cuda.syncthreads()
        out[i] = s[TPB - 1 - i] + t[(TPB - 1 - i) // COLS, (TPB - 1 - i) % COLS]

    x = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    reverse[1, 32](x, out)
    assert_array_equal(out, 2 * x[::-1])


@cuda.jit
def aligned(a):
    s = cuda.shared.array(4, dtype=np.float32, alignment=16)
    loc = cuda.local.array((2, 2), dtype=np.float64, alignment=64)
    s[1] = 1
    loc[1, 1] = 2
    a[0] = s[1] + loc[1, 1]


def test_alignment_of_shared_and_local_arrays():
    a = np.zeros(1)
    aligned[1, 1](a)
    assert a[0] == 3
    assert "__align__(16) __shared__ float" in aligned.inspect_source()

    @cuda.jit
    def bad(a):
        s = cuda.local.array(4, dtype=np.float32, alignment=3)
        a[0] = s[0]

    with pytest.raises(pygpu.CompileError, match="power of two"):
        bad[1, 1](np.zeros(1, np.float32))


def test_a_reassigned_local_is_no_shape():
    @cuda.jit
    def varying(out):
        n = 4
        n = n + 1
        s = cuda.shared.array(n, dtype=float32)
        out[0] = s[0]

    with pytest.raises(pygpu.CompileError, match="constant"):
        varying[1, 1](np.zeros(1, np.float32))


def test_dynamic_shared_array_has_the_launch_size_and_negative_strides():
    @cuda.jit
    def rev(out, sizes):
        dyn = cuda.shared.array(0, dtype=np.float32)
        i = cuda.threadIdx.x
        dyn[i] = i
        cuda.syncthreads()
        r = dyn[::-2]
        if i == 0:
            sizes[0] = dyn.size
            sizes[1] = r.size
        if i < r.size:
            out[i] = r[i]

    out = np.zeros(8, np.float32)
    sizes = np.zeros(2, np.int64)
    rev[1, 8, 0, 8 * 4](out, sizes)
    assert_array_equal(out[:4], np.array([7, 5, 3, 1], np.float32))
    assert_array_equal(sizes, [8, 4])
    # more dynamic memory than the threads use: the array is as long as the launch made it
    rev[1, 8, 0, 12 * 4](out, sizes)
    assert_array_equal(sizes, [12, 6])


def test_dynamic_shared_array_past_its_launch_size_is_an_index_error():
    @cuda.jit
    def past(out):
        dyn = cuda.shared.array(0, dtype=np.int32)
        dyn[cuda.threadIdx.x] = 1
        out[0] = dyn[0]

    with pytest.raises(IndexError):
        past[1, 4, 0, 2 * 4](np.zeros(1, np.int32))


# ------------------------------------------------------------------ host side

def test_stream_auto_synchronize_and_events():
    s = cuda.stream()
    assert isinstance(s, pygpu.Stream)
    a = cuda.to_device(np.arange(6.0), stream=s)
    start, end = cuda.event(), cuda.event()
    with s.auto_synchronize():
        start.record(s)
        div[1, 8, s](a, 2.0)
        end.record(s)
    assert_array_equal(a.get(), np.arange(6.0) / 2)
    assert cuda.event_elapsed_time(start, end) >= 0
    assert cuda.legacy_default_stream() == 0 and cuda.per_thread_default_stream() == 0


def test_specialize_compiles_for_the_types_of_its_arguments():
    # Numba's Dispatcher.specialize (test_constmem.test_const_record): a kernel of those types only
    @cuda.jit
    def fill(a, v):
        a[0] = v

    s = fill.specialize(np.zeros(1), 1.5)
    assert s.specialized and not fill.specialized and len(s.signatures) == 1
    assert fill.specialize(np.ones(3), 2.5) is s   # the same types: the same kernel
    a = np.zeros(1)
    s[1, 1](a, 3.5)
    assert a[0] == 3.5
    with pytest.raises(TypeError, match="no signature"):
        s[1, 1](np.zeros(1, np.int32), 1.0)
    with pytest.raises(RuntimeError, match="already specialized"):
        s.specialize(a, 1.0)


@pytest.mark.parametrize("view", [
    lambda x: x,
    lambda x: np.asfortranarray(x),
    lambda x: x[:, ::2],
    lambda x: x.transpose(1, 0, 2),
    lambda x: x.transpose(2, 0, 1)[::-1],
])
def test_like_arrays_keep_the_axis_order_of_the_view(view):
    v = view(np.zeros((4, 6, 5)))
    ref = np.empty_like(v)   # NumPy's K order: dense, in the view's axis order
    for made in (cuda.device_array_like(v), cuda.pinned_array_like(v), cuda.mapped_array_like(v)):
        assert made.shape == v.shape and made.dtype == v.dtype
        assert tuple(made.strides) == ref.strides, (made.strides, ref.strides)
    assert isinstance(cuda.pinned_array_like(v), np.ndarray)


# ------------------------------------------------------------------ loops over sequences

@cuda.jit
def loops(a, b, m, out):
    if cuda.grid(1) == 0:
        for j, v in enumerate(a):
            out[0] += j * v
        for x, y in zip(a, b):
            out[1] += x * y
        u = 0.0
        for v in a:
            u += v
            if u > 100:
                break
        else:
            u += 1000
        out[2] = u
        for row in m:
            for v in row:
                out[3] += v
        for q in (1, 2, 3):
            out[4] += q
        for j, (x, y) in enumerate(zip(a, b), 10):
            out[5] += j * x * y
        for n, dim in enumerate(m.shape):
            out[6] += n * dim
        for r in m[1:]:
            out[7] += r[0]
        for x, y in zip(a, b[1:]):   # the shorter decides
            out[8] += 1
        for v in a:
            if v == 1:
                continue
            out[9] += v


def test_for_over_arrays_tuples_enumerate_and_zip():
    a, b = np.arange(5.0), np.arange(5.0) + 1
    m = np.arange(6.0).reshape(3, 2)
    out = np.zeros(10)
    loops[1, 1](a, b, m, out)
    expect = [sum(j * v for j, v in enumerate(a)), float(a @ b), a.sum() + 1000, m.sum(), 6,
              sum(j * x * y for j, (x, y) in enumerate(zip(a, b), 10)), sum(n * d for n, d in enumerate(m.shape)),
              m[1:, 0].sum(), 4, a.sum() - 1]
    assert_array_equal(out, np.array(expect, np.float64))
    # an empty array: the else branch runs, as Python's
    out = np.zeros(10)
    loops[1, 1](a[:0], b[:0], m[:0], out)
    assert out[2] == 1000 and out[0] == 0


@cuda.jit
def more_loops(x, y, out):
    a = cuda.float32x2(np.float32(2.0), np.float32(3.0))
    b = cuda.float32x2(np.float32(4.0), np.float32(5.0))
    j = 0
    for v in (a, b):                            # a tuple of vectors (Numba's test_vector_type)
        out[j] = v.x * v.y
        j += 1
    for (i, xv), yv in zip(enumerate(x), y):    # Numba's test_iterators.test_zip_enumerate
        out[2 + i] = i * 100 + xv + yv
    for (i, xv), (k, yv) in zip(enumerate(x, 5), enumerate(y[1:])):
        out[5 + k] = i + xv * yv


def test_for_over_tuples_of_vectors_and_zip_of_enumerate():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 0.125])
    out = np.zeros(8)
    more_loops[1, 1](x, y, out)
    expect = [6.0, 20.0] + [i * 100 + xv + yv for (i, xv), yv in zip(enumerate(x), y)] + [0.0] * 3
    for (i, xv), (k, yv) in zip(enumerate(x, 5), enumerate(y[1:])):
        expect[5 + k] = i + xv * yv
    assert_array_equal(out, np.array(expect))


def test_for_over_a_number_or_a_tuple_with_break_is_a_compile_error():
    @cuda.jit
    def over_number(a):
        for v in a[0]:
            a[0] = v

    @cuda.jit
    def tuple_break(a):
        for v in (1, 2):
            if v == a[0]:
                break

    for k in (over_number, tuple_break):
        with pytest.raises(pygpu.CompileError):
            k[1, 1](np.zeros(2))


# ------------------------------------------------------------------ tuples and complex numbers

def test_indexing_with_the_tuple_of_grid():
    @cuda.jit
    def copy2d(a, b):
        gid = cuda.grid(2)
        if gid[0] < a.shape[0] and gid[1] < a.shape[1]:
            a[gid] = b[gid] + 1

    b = np.arange(12.0).reshape(3, 4)
    a = np.zeros_like(b)
    copy2d[(1, 1), (4, 4)](a, b)
    assert_array_equal(a, b + 1)


def test_complex_scalar_arguments():
    @cuda.jit
    def scale(a, z):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * z + z.conjugate()

    a = np.full(3, 1 + 1j)
    scale[1, 4](a, 2 - 1j)
    assert_array_equal(a, np.full(3, (1 + 1j) * (2 - 1j) + (2 + 1j)))
    c = np.full(3, 1 + 1j, np.complex64)
    scale[1, 4](c, np.complex64(0.5j))
    assert_array_equal(c, np.full(3, (1 + 1j) * np.complex64(0.5j) + np.complex64(-0.5j), np.complex64))
    scale[1, 4](c, 2.0)   # a real number for a complex parameter of another specialisation
    assert c.dtype == np.complex64


def test_eager_integer_parameters_wrap_as_numba_ctypes():
    """Numba's dispatcher passes ctypes.c_int32(value) & co. (test_intrinsics.test_clz_i4_1s):
    an int out of the parameter's range wraps to its width, where a RawKernel raises."""
    @cuda.jit("void(int32[:], int32, uint8, int64)")
    def k(a, c, u, w):
        a[0] = cuda.clz(c)
        a[1] = c
        a[2] = u
        a[3] = w

    a = np.ones(4, np.int32)
    k[1, 1](a, 0xFFFFFFFF, -1, 7)
    assert a.tolist() == [0, -1, 255, 7]
    k[1, 1](a, np.int64(2**32 + 5), np.uint64(256 + 3), True)
    assert a.tolist() == [29, 5, 3, 1]


def test_cmath_rect_special_values():
    """Numba's test_complex.TestCMath.test_rect: cmath.rect(0.0, inf) is 0j, and every special
    value is Python's (where Python raises ValueError, the value of CPython's table)."""
    from test_vectorize import RECT_PHI, RECT_R, assert_same_complex, rect_expected

    @cuda.jit
    def rect(r, phi, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = cmath.rect(r[i], phi[i])

    out = np.zeros(RECT_R.size, np.complex128)
    rect[1, 64](RECT_R, RECT_PHI, out)
    assert_same_complex(out, rect_expected(RECT_R, RECT_PHI))


# ------------------------------------------------------------------ raise and assert

class KernelSaysNo(Exception):
    pass


LIMIT = 3
BAD = ValueError("negative input")


@cuda.jit(device=True)
def checked_sqrt(x):
    if x < 0:
        raise BAD
    return math.sqrt(x)


@cuda.jit
def raising(a, out, mode):
    i = cuda.grid(1)
    if i < a.size:
        if mode == 1 and a[i] > LIMIT:
            raise ValueError("value above the limit", LIMIT)
        if mode == 2 and a[i] > LIMIT:
            raise KernelSaysNo("no")
        if mode == 3 and a[i] > LIMIT:
            raise ZeroDivisionError
        assert mode != 4 or a[i] <= LIMIT, "assertion with a message"
        out[i] = checked_sqrt(a[i])


@pytest.mark.parametrize("mode, exc, text", [
    (1, ValueError, "('value above the limit', 3)"),
    (2, KernelSaysNo, "no"),
    (3, ZeroDivisionError, "kernel raising"),
    (4, AssertionError, "assertion with a message"),
])
def test_raise_in_a_kernel_raises_on_the_host(mode, exc, text):
    a = np.array([1.0, 4.0, 2.0])
    with pytest.raises(exc) as info:
        raising[1, 4](a, np.zeros(3), mode)
    assert text in str(info.value)
    out = np.zeros(3)
    raising[1, 4](a[[0, 2]], out[:2], mode)   # nothing raised when no thread gets there
    assert_array_equal(out[:2], np.sqrt(a[[0, 2]]))


def test_raise_in_a_device_function_and_of_a_global_exception_object():
    with pytest.raises(ValueError, match="negative input"):
        raising[1, 4](np.array([1.0, -1.0]), np.zeros(2), 0)


@cuda.jit(debug=True, opt=False)
def divide_checked(r, x, y, op):
    if op == 0:
        r[0] = y[0] / x[0]
    elif op == 1:
        r[0] = y[0] // x[0]
    elif op == 2:
        r[0] = y[0] % x[0]
    else:
        r[0] = y[0] / np.int64(x[0])   # int / int: a float division too
    r[1] = y[0]


def test_float_division_by_zero_raises_in_debug_kernels_only():
    # Numba: debug=True uses the Python error model (test_exception.test_zero_division_error_in_debug):
    # ZeroDivisionError, and the thread stops at the division; otherwise NumPy's inf and nan
    for op, text in ((0, "division by zero"), (1, "division by zero"), (2, "modulo by zero"), (3, "division")):
        r = np.zeros(2)
        with pytest.raises(ZeroDivisionError, match=text):
            divide_checked[1, 1](r, np.zeros(1), np.ones(1), op)
        assert r.tolist() == [0, 0]
    r = np.zeros(2)
    divide_checked[1, 1](r, np.full(1, 4.0), np.full(1, -7.0), 2)
    assert r.tolist() == [-7.0 % 4.0, -7.0]
    plain = cuda.jit(divide_checked.py_func)
    for op, expect in ((0, np.inf), (1, np.inf), (2, np.nan)):
        plain[1, 1](r, np.zeros(1), np.ones(1), op)
        assert_array_equal(r, np.array([expect, 1.0]))

    # float32 / under fastmath is Numba's fast division: no check (test_fastmath.test_divf_exception)
    def f10(r, x, y):
        r[0] = x / y
    sig = (float32[::1], float32, float32)
    with pytest.raises(ZeroDivisionError):
        cuda.jit(sig, debug=True)(f10)[1, 4](np.zeros(4, np.float32), 10.0, 0.0)
    r = np.zeros(4, np.float32)
    cuda.jit(sig, debug=True, fastmath=True)(f10)[1, 4](r, 10.0, 0.0)
    assert r[0] == np.inf


def test_raise_of_what_is_not_an_exception_is_a_compile_error():
    @cuda.jit
    def raise_number(a):
        raise a[0]

    @cuda.jit
    def raise_computed(a):
        raise ValueError(a[0])

    for k in (raise_number, raise_computed):
        with pytest.raises(pygpu.CompileError):
            k[1, 1](np.zeros(1))


# ------------------------------------------------------------------ tuple arguments

@cuda.jit
def with_tuples(a, shape, scale, out):
    i, j = cuda.grid(2)
    if i < shape[0] and j < shape[1]:
        a[i, j] = (i * shape[1] + j) * scale[0] + scale[1]
    if i == 0 and j == 0:
        n = 0
        for d in shape:
            n += d
        out[0] = n + len(shape)


def test_tuples_of_numbers_as_kernel_arguments():
    a = np.zeros((3, 5))
    out = np.zeros(1)
    with_tuples[(1, 1), (4, 8)](a, (3, 4), (2, 0.5), out)   # ints; an int and a float: float64
    expect = np.zeros((3, 5))
    expect[:3, :4] = np.arange(12).reshape(3, 4) * 2 + 0.5
    assert_array_equal(a, expect)
    assert out[0] == 9
    a[...] = 0
    with_tuples[(1, 1), (4, 8)](a, (2, 2), (1.0, 1.0), out)
    assert a.sum() == 1 + 2 + 3 + 4 and out[0] == 6


@cuda.jit
def tuples_of_arrays(t, nested, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        x, y = t                                # unpacked into arrays
        (p, q), n, e = nested                   # nested: a tuple of numbers, an array, an empty tuple
        pair = (x, (y, 2.0))                    # a local tuple of arrays and tuples
        out[i, 0] = t[0][i] + t[1][i] * pair[1][1]
        out[i, 1] = x[i] - y[i] + n[i] * (p + q)
        out[i, 2] = len(t) + len(nested) + len(e) + len(nested[0])
        for arr in t:                           # unrolled: one array type each time here
            out[i, 3] += arr[i]


def test_tuples_of_arrays_and_nested_tuples_as_kernel_arguments():
    # Numba's test_array_args: tuples holding arrays, tuples and numbers, passed by their items
    a, b, n = np.arange(4.0), np.arange(4.0) * 10, np.array([1.0, 2.0, 3.0, 4.0])
    out = np.zeros((4, 4))
    for _ in range(2):   # the second launch again flattens (never cached by the key)
        out[...] = 0
        tuples_of_arrays[1, 4]((a, b), ((2, 0.5), n, ()), out)
        assert_array_equal(out, np.stack([a + b * 2.0, a - b + n * 2.5, np.full(4, 2 + 3 + 0 + 2), a + b], axis=1))
    # pygpu arrays too; the tuple kernel argument of numbers stays one parameter
    out = pygpu.asarray(np.zeros((4, 4)))
    tuples_of_arrays[1, 4]((pygpu.asarray(a), pygpu.asarray(b)), ((1, 1), pygpu.asarray(n), ()), out)
    assert_array_equal(out.get()[:, 1], a - b + n * 2)


def test_empty_tuples_and_tuples_of_them_as_kernel_arguments():
    @cuda.jit
    def lengths(r, x, y):
        r[0] = len(x)
        r[1] = len(y)
        r[2] = len(y[0])

    r = np.ones(3, np.int64)
    lengths[1, 1](r, (), ((), (), ()))
    assert r.tolist() == [0, 3, 0]


def test_a_tuple_holding_a_function_is_a_type_error():
    @cuda.jit
    def k(r, t):
        r[0] = t[0][0]

    with pytest.raises(TypeError, match=r"argument 2\[1\] is a builtin_function_or_method: a tuple argument holds arrays"):
        k[1, 1](np.zeros(1), (np.zeros(1), len))


@cuda.jit
def tuple_items_at(out, a, weights, n):
    i = cuda.grid(1)
    if i < out.size:
        offsets = (1, 2.5, 4)                   # one type for all: float64, as promotion gives
        j = i % 3
        out[i] = weights[j] + weights[j - 3] * offsets[cuda.grid(1) % 3] + a.shape[i % 2] \
            + offsets[np.uint32(j)] + offsets[i + n]


def test_tuples_indexed_by_a_variable():
    # Numba indexes a tuple of one type by a run-time value: from the end when negative
    out = np.zeros(3)
    tuple_items_at[1, 8](out, np.zeros((2, 9)), (10, 20, 30), 0)
    i = np.arange(3)
    weights, offsets, shape = np.array([10, 20, 30]), np.array([1, 2.5, 4]), np.array([2, 9])
    assert_array_equal(out, weights[i] * (1 + offsets[i]) + shape[i % 2] + 2 * offsets[i])
    tuple_items_at[1, 8](out[:1], np.zeros((2, 9)), (10, 20, 30), -3)
    assert out[0] == 10 + 10 + 2 + 1 + 1
    # past either end: IndexError, naming the thread
    with pytest.raises(IndexError, match=r"tuple index out of range.*thread \(3, 0, 0\)"):
        tuple_items_at[1, 8](np.zeros(4), np.zeros((2, 9)), (10, 20, 30), 0)
    with pytest.raises(IndexError, match="tuple index out of range"):
        tuple_items_at[1, 8](np.zeros(1), np.zeros((2, 9)), (10, 20, 30), -4)


def test_a_tuple_index_that_is_not_an_integer_is_a_compile_error():
    @cuda.jit
    def float_index(out, x):
        out[0] = (1, 2)[x]

    with pytest.raises(pygpu.CompileError, match="tuple indices must be integers"):
        float_index[1, 1](np.zeros(1), 0.5)


@cuda.jit
def matches(keys, any_out, all_out, pred_out, chained):
    i = cuda.grid(1)
    if i < keys.size:
        any_out[i] = cuda.match_any_sync(0xFFFFFFFF, keys[i])
        m, p = cuda.match_all_sync(0xFFFFFFFF, keys[i] // 100)
        all_out[i] = m
        pred_out[i] = p
        chained[i, 0] = chained[i, 1] = a = b = keys[i] * 2   # a = b = ...: the value once, left to right
        chained[i, 2] = a + b


def test_warp_matches_and_chained_assignments():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 4, 64)                    # two warps
    keys[32:] += 100                                  # the second warp: all keys // 100 equal
    keys[:32] = np.where(np.arange(32) < 16, keys[:32], 100 + keys[:32])
    any_out, all_out = np.zeros(64, np.uint32), np.zeros(64, np.uint32)
    pred, chained = np.zeros(64, np.bool_), np.zeros((64, 3), np.int64)
    matches[2, 32](keys, any_out, all_out, pred, chained)
    for i in range(64):
        w = keys[(i // 32) * 32:(i // 32) * 32 + 32]
        assert any_out[i] == sum(1 << j for j in range(32) if w[j] == keys[i])
        same = len(set(w // 100)) == 1
        assert pred[i] == same and all_out[i] == (0xFFFFFFFF if same else 0)
    assert_array_equal(chained, np.stack([keys * 2, keys * 2, keys * 4], axis=1))


@cuda.jit(device=True)
def _block_sums(data, out, n, dtype, op):
    # Numba's test_atomics pattern: the shared array's size and type are arguments, the size a
    # literal at the call, taken as a constant
    sm = cuda.shared.array(n, dtype)
    t = cuda.threadIdx.x
    if t < n:
        sm[t] = 0
    cuda.syncthreads()
    op(sm, t % n, data[t])
    cuda.syncthreads()
    if t < n:
        out[t] = sm[t]


@cuda.jit
def literal_shapes(data, out4, out8):
    _block_sums(data, out4, 4, int32, cuda.atomic.add)
    _block_sums(data, out8, 8, float64, cuda.atomic.add)


def test_a_literal_argument_sizes_a_device_functions_shared_array():
    data = np.arange(32, dtype=np.int32)
    out4, out8 = np.zeros(4, np.int32), np.zeros(8)
    literal_shapes[1, 32](data, out4, out8)
    assert_array_equal(out4, np.array([data[k::4].sum() for k in range(4)], np.int32))
    assert_array_equal(out8, np.array([data[k::8].sum() for k in range(8)], np.float64))


@cuda.jit(device=True)
def _tile_plus_one(ary, shape):
    # Numba's atomic_binary_2dim_shared: the shape a literal tuple at the call
    sm = cuda.shared.array(shape, float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    sm[tx, ty] = ary[tx, ty] + shape[1]
    cuda.syncthreads()
    ary[tx, ty] = sm[tx, ty]


@cuda.jit
def literal_tuple_shape(ary):
    _tile_plus_one(ary, (4, 8))


def test_a_literal_tuple_argument_shapes_a_device_functions_shared_array():
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    literal_tuple_shape[1, (4, 8)](a)
    assert_array_equal(a, np.arange(32, dtype=np.float32).reshape(4, 8) + 8)


@cuda.jit(device=True)
def _count_at(ary, cast, neg_idx):
    # Numba's atomic_binary_2dim_global: typed, `i % ary.shape[0]` of a uint64 is a float64 index,
    # so the branch compiles only where a literal False rules it out
    i = cast(cuda.threadIdx.x)
    if neg_idx:
        i = i % ary.shape[0]
    if not neg_idx:
        cuda.atomic.add(ary, i, 1)


@cuda.jit(device=True)
def _to_uint64(n):
    return uint64(n)


@cuda.jit
def literal_flags(ary):
    _count_at(ary, _to_uint64, False)


def test_a_literal_false_argument_prunes_the_branch_it_rules_out():
    a = np.zeros(8)
    literal_flags[1, 8](a)
    assert_array_equal(a, np.ones(8))

    @cuda.jit
    def run_time_flag(ary, flag):
        _count_at(ary, _to_uint64, flag)

    with pytest.raises(pygpu.CompileError, match="array indices must be integers, not float64"):
        run_time_flag[1, 8](a, False)


def test_numba_device_attributes_and_type_names():
    # as Numba's cuda.get_current_device() (xrspatial sizes its grids by MAX_THREADS_PER_BLOCK)
    dev = cuda.get_current_device()
    assert dev.MAX_THREADS_PER_BLOCK == 1024 and dev.WARP_SIZE == 32 and dev.MAX_BLOCK_DIM_Z == 64
    assert dev.MULTIPROCESSOR_COUNT >= 1 and dev.MAX_SHARED_MEMORY_PER_BLOCK == 49152
    assert isinstance(dev.name, str)
    with pytest.raises(AttributeError):
        dev.NOT_AN_ATTRIBUTE
    from pygpu.cuda import types as nt
    assert nt.double is nt.float64 and nt.float_ is nt.float32 and nt.intc is nt.int32 and nt.int_ is nt.int64


def test_bad_tuple_arguments_are_type_errors():
    with pytest.raises(TypeError, match=r"argument 2\[0\] is a str"):
        with_tuples[(1, 1), (1, 1)](np.zeros((1, 1)), ("a", 1), (1.0, 0.0), np.zeros(1))
    # empty and nested tuples are arguments (as Numba's), which this kernel cannot index as numbers
    for other in [(), ((1, 2), 3)]:
        with pytest.raises(pygpu.CompileError):
            with_tuples[(1, 1), (1, 1)](np.zeros((1, 1)), other, (1.0, 0.0), np.zeros(1))
    # a tuple of another length is another specialisation, not an error
    with pytest.raises(pygpu.CompileError):
        with_tuples[(1, 1), (1, 1)](np.zeros((1, 1)), (1,), (1.0, 0.0), np.zeros(1))


# ------------------------------------------------------------------ functions held in globals

@cuda.jit(device=True)
def twice(x):
    return 2 * x


TRANSFORM = twice
COUNT = cuda.atomic.add
BELOW = operator.lt


@cuda.jit
def through_globals(a, acc):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = TRANSFORM(a[i])
        if BELOW(a[i], 5):
            COUNT(acc, 0, 1)
        a[i] = operator.neg(operator.mul(a[i], 3)) + operator.floordiv(7, 2) + operator.mod(-7, 3)


def test_device_functions_atomics_and_operators_held_in_globals():
    a = np.arange(4.0)
    acc = np.zeros(1)
    through_globals[1, 4](a, acc)
    assert_array_equal(a, -(np.arange(4.0) * 2 * 3) + 7 // 2 + (-7) % 3)
    assert acc[0] == 3


def test_operator_functions_in_vectorize():
    @pygpu.vectorize(["float64(float64, float64)"])
    def f(x, y):
        return operator.truediv(x, y) + operator.pow(x, 2) - operator.abs(-y)

    x = np.arange(4.0)
    assert_array_equal(f(x, 2.0), x / 2 + x ** 2 - 2)


# ------------------------------------------------------------------ float16

@cuda.jit
def half_arrays(a, b, out):
    i = cuda.grid(1)
    s = cuda.shared.array(16, dtype=np.float16)
    if i < a.size:
        s[i] = a[i] * 3
        out[i] = s[i] + b[i]
        out[i] += 0.1


def test_float16_arrays_compute_in_float32_and_store_rounded():
    a = (np.arange(16) / 3).astype(np.float16)
    b = np.full(16, 0.3, np.float16)
    out = np.zeros(16, np.float16)
    half_arrays[1, 16](a, b, out)
    f32 = np.float32
    expect = (a.astype(f32) * 3).astype(np.float16).astype(f32) + b.astype(f32)
    expect = (expect.astype(np.float16).astype(f32) + f32(0.1)).astype(np.float16)
    assert_array_equal(out, expect)


HALF_OPS = {
    "hadd": lambda a, b: a + b, "hsub": lambda a, b: a - b, "hmul": lambda a, b: a * b, "hdiv": lambda a, b: a / b,
    "hmax": np.fmax, "hmin": np.fmin,
}


@cuda.jit
def half_math(a, b, c, out, flags):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = cuda.fp16.hadd(a[i], b[i])
        out[i, 1] = cuda.fp16.hsub(a[i], b[i])
        out[i, 2] = cuda.fp16.hmul(a[i], b[i])
        out[i, 3] = cuda.fp16.hdiv(a[i], b[i])
        out[i, 4] = cuda.fp16.hmax(a[i], b[i])
        out[i, 5] = cuda.fp16.hmin(a[i], b[i])
        out[i, 6] = cuda.fp16.hfma(a[i], b[i], c[i])
        out[i, 7] = cuda.fp16.hneg(a[i])
        out[i, 8] = cuda.fp16.habs(b[i])
        out[i, 9] = cuda.fp16.hsqrt(c[i])
        out[i, 10] = cuda.fp16.hfloor(b[i])
        flags[i, 0] = cuda.fp16.hlt(a[i], b[i])
        flags[i, 1] = cuda.fp16.heq(a[i], a[i])
        flags[i, 2] = cuda.fp16.hge(a[i], b[i])


def test_cuda_fp16_intrinsics_round_as_half_arithmetic():
    rng = np.random.default_rng(5)
    n = 64
    a = rng.normal(0, 100, n).astype(np.float16)
    b = rng.normal(0, 3, n).astype(np.float16)
    c = rng.uniform(0, 50, n).astype(np.float16)
    out = np.zeros((n, 11), np.float16)
    flags = np.zeros((n, 3), np.bool_)
    half_math[1, 64](a, b, c, out, flags)
    # NumPy's float16 arithmetic rounds each result to float16: the same numbers
    expect = np.stack([a + b, a - b, a * b, a / b, np.fmax(a, b), np.fmin(a, b),
                       (a.astype(np.float64) * b + c).astype(np.float16), -a, np.abs(b), np.sqrt(c), np.floor(b)],
                      axis=1)
    assert_array_equal(out, expect)
    assert_array_equal(flags, np.stack([a < b, a == a, a >= b], axis=1))


def test_fp16_misuse_is_a_compile_error():
    @cuda.jit
    def wrong_count(a):
        a[0] = cuda.fp16.hadd(a[0])

    with pytest.raises(pygpu.CompileError, match="takes 2 arguments"):
        wrong_count[1, 1](np.zeros(2, np.float16))

    @cuda.jit
    def half_atomic(a):
        cuda.atomic.and_(a, 0, 1.0)

    with pytest.raises(pygpu.CompileError, match="and_.. works on arrays of int32"):
        half_atomic[1, 1](np.zeros(2, np.float16))


# ------------------------------------------------------------------ views: .real, .imag, .view(), slices as values

@cuda.jit
def views(a, out, signs, b):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a.real[i] + a.imag[i]       # views used in place
        re = a.real
        im = a.imag
        im[i] = re[i] * 2                        # written through a view
        bits = out.view(np.int64)
        signs[i] = bits[i, 0] >> 63
    if i == 0:
        cuda.atomic.compare_and_swap(b[1:], 0, 5)   # a slice as an argument
        words = out[0].view(np.int32)
        signs[5] = words.size


def test_real_imag_and_dtype_views():
    a = np.array([1 + 2j, 3 - 5j, -1 + 0j])
    before = a.copy()
    out = np.zeros((3, 2))
    signs = np.zeros(8, np.int64)
    b = np.zeros(3, np.int64)
    views[1, 4](a, out, signs, b)
    assert_array_equal(out[:, 0], before.real + before.imag)
    assert_array_equal(a, before.real + 2j * before.real)
    assert_array_equal(signs[:3], -(out[:, 0] < 0).astype(np.int64))
    assert signs[5] == 4
    assert_array_equal(b, np.array([0, 5, 0], np.int64))


def test_parts_of_complex64_are_float32():
    @cuda.jit
    def parts(c, out):
        i = cuda.grid(1)
        if i < c.size:
            out[i] = c.imag[i] - c.real[i]

    c = np.array([1 + 3j, -2 + 0.5j], np.complex64)
    out = np.zeros(2, np.float32)
    parts[1, 2](c, out)
    assert_array_equal(out, c.imag - c.real)


def test_views_that_cannot_be_are_compile_errors():
    @cuda.jit
    def wider(a):
        w = a.view(np.int64)
        w[0] = 1

    @cuda.jit
    def imag_of_real(a):
        a[0] = a.imag[0]

    @cuda.jit
    def view_in_while(a):
        while a[1:][0] < 3:
            a[1] += 1

    for k in (imag_of_real, view_in_while):
        with pytest.raises(pygpu.CompileError):
            k[1, 1](np.zeros(4, np.int32))
    with pytest.raises(pygpu.CompileError, match="C-contiguous"):   # wider: only along a contiguous axis
        wider[1, 1](np.zeros(8, np.int32)[::2])


# ------------------------------------------------------------------ device functions returning tuples

@cuda.jit(device=True)
def divmod3(a, b):
    q = a // b
    return q, a - q * b


@cuda.jit(device=True)
def ordered(x, y):
    if x > y:
        return y, x, 1
    return x, y, 0.5     # the items' types unify across the returns: int64, int64, float64


@cuda.jit
def returns_tuples(a, out):
    i = cuda.grid(1)
    if i < a.size:
        q, r = divmod3(a[i], 3)
        out[i, 0] = q
        out[i, 1] = r
        lo, hi, w = ordered(a[i], 4)
        out[i, 2] = lo * w + hi
        out[i, 3] = divmod3(a[i], 2)[1]


def test_device_functions_return_tuples():
    a = np.arange(-3, 9, dtype=np.int64)
    out = np.zeros((len(a), 4))
    returns_tuples[1, 16](a, out)
    lo, hi = np.minimum(a, 4), np.maximum(a, 4)
    expect = np.stack([a // 3, a % 3, np.where(a > 4, lo * 1 + hi, lo * 0.5 + hi), a % 2], axis=1)
    assert_array_equal(out, expect.astype(np.float64))


@cuda.jit(device=True)
def inside(idx, shape):
    return idx[0] < shape[0] and idx[1] < shape[1]


@cuda.jit(device=True)
def flat_index(idx, shape):
    return idx[0] * shape[1] + idx[1]


@cuda.jit
def takes_tuples(a, flags):
    gid = cuda.grid(2)
    if inside(gid, a.shape):
        a[gid] = flat_index(gid, a.shape)
    if gid[0] == 0 and gid[1] == 0:
        flags[0] = inside((1, 2), (3, 1.5))   # a tuple display of mixed items
        flags[1] = inside((1, 1), (3, 1.5))


@cuda.jit
def vectors(a, out):
    i = cuda.grid(1)
    if i < a.size:
        v = cuda.float32x4(a[i], 2, 3, 4)
        w = cuda.float2(v.x, v.w)              # CUDA's name, from another vector's components
        u = cuda.int32x3(cuda.int32x2(1, i), 7)  # a vector's components then a number
        out[i] = v.x + v.y * v.z + w.y + u.y + u.z


def test_vector_types():
    a = np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    vectors[1, 4](a, out)
    assert_array_equal(out, a + 2 * 3 + 4 + np.arange(4, dtype=np.float32) + 7)

    @cuda.jit
    def wrong(a):
        v = cuda.float32x2(1, 2, 3)
        a[0] = v.x

    with pytest.raises(pygpu.CompileError, match="takes 2 components"):
        wrong[1, 1](np.zeros(1, np.float32))


def test_device_functions_take_tuples():
    a = np.zeros((3, 5))
    flags = np.zeros(2, np.int64)
    takes_tuples[(1, 1), (4, 8)](a, flags)
    assert_array_equal(a, np.arange(15.0).reshape(3, 5))
    assert_array_equal(flags, np.array([0, 1], np.int64))


def test_a_tuple_and_a_number_from_one_function_is_a_compile_error():
    @cuda.jit(device=True)
    def mixed(x):
        if x > 0:
            return x, x
        return x

    @cuda.jit
    def use(a):
        a[0] = mixed(a[0])[0]

    with pytest.raises(pygpu.CompileError, match="returns"):
        use[1, 1](np.zeros(1))


# ------------------------------------------------------------------ functions as values, namedtuples, *args, recursion

@cuda.jit(device=True)
def plus(a, b):
    return a + b


@cuda.jit(device=True)
def times(a, b):
    return a * b


@cuda.jit(device=True)
def combine(f, a, b):
    return f(a, b)


@cuda.jit(device=True)
def combine_twice(f, g, a, b):
    return combine(f, combine(g, a, b), b)   # a function argument passed on


@cuda.jit(device=True)
def update(op, arr, i, v):
    op(arr, i, v)


@cuda.jit
def functions_as_arguments(x, out, counts):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = combine(plus, x[i], 1.0)
        out[i, 1] = combine(times, x[i], 3.0)
        out[i, 2] = combine(operator.sub, x[i], 0.5)
        out[i, 3] = combine(math.hypot, x[i], 4.0)
        out[i, 4] = combine_twice(plus, times, x[i], 2.0)
        update(cuda.atomic.add, counts, 0, 1)
        update(cuda.atomic.max, counts, 1, i)


def test_functions_passed_to_device_functions():
    x = np.linspace(-3, 3, 37)
    out, counts = np.zeros((37, 5)), np.zeros(2, np.int64)
    functions_as_arguments[2, 32](x, out, counts)
    expected = np.stack([x + 1, x * 3, x - 0.5, np.hypot(x, 4.0), x * 2 + 2], axis=1)
    np.testing.assert_allclose(out, expected, rtol=1e-15)
    assert counts.tolist() == [37, 36]
    assert len(functions_as_arguments.inspect_source().split("combine")) > 4   # one C function per function passed


def test_a_function_argument_that_is_assigned_is_a_compile_error():
    @cuda.jit(device=True)
    def rebinds(f, a):
        f = 2.0
        return f * a

    @cuda.jit
    def k(out):
        out[0] = rebinds(plus, 1.0)

    with pytest.raises(pygpu.CompileError, match="holds a function and is assigned"):
        k[1, 1](np.zeros(1))


from collections import namedtuple   # noqa: E402
from typing import NamedTuple   # noqa: E402

Pair = namedtuple("Pair", "lo hi")
Swapped = namedtuple("Swapped", "hi lo")


class Box(NamedTuple):
    width: float
    height: float = 2.0


@cuda.jit(device=True)
def box_of(w):
    return Box(w)


@cuda.jit(device=True)
def area(b):
    return b.width * b.height


@cuda.jit
def named(p, out):
    out[0] = p.hi - p.lo
    b = box_of(p.hi)
    out[1] = area(b) + b.height
    out[2] = area(Box(height=3.0, width=p.lo))
    q = Pair(p.lo * 2, p[1])
    out[3] = q.lo + q[1]


def test_namedtuples_as_arguments_values_and_results():
    out = np.zeros(4)
    named[1, 1](Pair(1.0, 5.0), out)
    assert out.tolist() == [4.0, 12.0, 3.0, 7.0]
    # a namedtuple of the same types with its fields the other way round is another kernel
    named[1, 1](Swapped(5.0, 1.0), out)
    assert out.tolist() == [4.0, 12.0, 3.0, 3.0]     # p[1] is its lo
    named[1, 1](Swapped(1.0, 5.0), out)
    assert out.tolist() == [-4.0, 4.0, 15.0, 15.0]
    named[1, 1](Pair(1.0, 5.0), out)
    assert out.tolist() == [4.0, 12.0, 3.0, 7.0]
    with pytest.raises(pygpu.CompileError, match="of a tuple is not supported"):
        named[1, 1]((1.0, 5.0), out)   # a plain tuple has no .hi


def test_a_namedtuple_field_that_does_not_exist_is_a_compile_error():
    @cuda.jit
    def k(p, out):
        out[0] = p.middle

    with pytest.raises(pygpu.CompileError, match="no field 'middle'.*lo, hi"):
        k[1, 1](Pair(1.0, 2.0), np.zeros(1))


@cuda.jit
def starred(out, shape):
    t = (3.0, 4.0)
    out[0] = plus(*t)
    out[1] = math.hypot(*t)
    out[2] = combine(times, *t)
    out[3] = plus(*(1.0, 2.0))
    out[4] = plus(*shape)


def test_starred_arguments():
    out = np.zeros(5)
    starred[1, 1](out, (2, 5))
    assert out.tolist() == [7.0, 5.0, 12.0, 3.0, 7.0]


@cuda.jit(device=True)
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@cuda.jit(device=True)
def fib_pair(n):
    if n == 0:
        return 0.0, 1.0
    a, b = fib_pair(n - 1)
    return b, a + b


@cuda.jit(device=True)
def fill_down(arr, n):
    if n < 0:
        return
    arr[n] = n * 10
    fill_down(arr, n - 1)


@cuda.jit
def recursion(ns, out, filled):
    i = cuda.grid(1)
    if i < ns.size:
        out[i, 0] = factorial(ns[i])
        out[i, 1] = fib_pair(ns[i])[0]
    if i == 0:
        fill_down(filled, filled.size - 1)


def test_device_functions_that_call_themselves():
    ns = np.arange(12, dtype=np.int64)
    out, filled = np.zeros((12, 2)), np.zeros(7, np.int64)
    recursion[1, 32](ns, out, filled)
    assert out[:, 0].tolist() == [float(math.factorial(max(n, 1))) for n in range(12)]
    fib = [0, 1]
    while len(fib) < 12:
        fib.append(fib[-1] + fib[-2])
    assert out[:, 1].tolist() == fib
    assert filled.tolist() == [0, 10, 20, 30, 40, 50, 60]


def test_recursion_the_compiler_cannot_type_is_a_compile_error():
    @cuda.jit(device=True)
    def even(n):
        return True if n == 0 else odd(n - 1)

    @cuda.jit(device=True)
    def odd(n):
        return False if n == 0 else even(n - 1)

    @cuda.jit(device=True)
    def late_base(n):
        return n * late_base(n - 1) if n > 1 else 1

    @cuda.jit
    def k(out):
        out[0] = even(4)

    @cuda.jit
    def k2(out):
        out[0] = late_base(4)

    with pytest.raises(pygpu.CompileError, match="calls itself with arguments of the types"):
        k[1, 1](np.zeros(1))
    with pytest.raises(pygpu.CompileError, match="write the case that does not recurse first"):
        k2[1, 1](np.zeros(1))


# ------------------------------------------------------------------ types and functions as values

@cuda.jit(device=True)
def staged(a, i, dt):
    s = cuda.local.array(3, dt)       # a dtype given as an argument, used as one
    s[0] = a[i]
    return dt(s[0] * 2)               # and called as a cast


TILE = (2, 3)


@cuda.jit
def types_as_values(a, out, cast):
    i = cuda.grid(1)
    if i < a.size:
        t = cuda.local.array(TILE, float64)   # a global tuple as a shape
        t[1, 2] = staged(a, i, np.float32) + staged(a, i, np.int32)
        out[i] = t[TILE[0] - 1, TILE[1] - 1] + cast(a[i])


def test_types_as_values_and_tuple_globals_as_shapes():
    a = np.array([0.3, 1.7, -2.6, 4.5])
    out = np.zeros(4)
    types_as_values[1, 32](a, out, np.uint8)
    want = [np.float32(np.float32(x) * 2) + np.int32(np.int32(x) * 2) + float(np.array(x).astype(np.uint8))
            for x in a]
    np.testing.assert_allclose(out, want, rtol=1e-6)
    out2 = np.zeros(4)
    types_as_values[1, 32](a, out2, int32)             # pygpu.cuda.types (or Numba's) as an argument
    np.testing.assert_allclose(out2 - out, [np.int32(x) - float(np.array(x).astype(np.uint8)) for x in a], rtol=1e-6)


@cuda.jit
def apply_each(a, f, op):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = f(a[i])
        op(a, 0, 1.0)


@cuda.jit(device=True)
def halve(x):
    return x / 2


def test_functions_as_kernel_arguments():
    """A device function, math.* or a cuda.atomic.* given as a kernel argument is compiled in, as
    Numba does: one specialisation per function, each launch given its own."""
    a = np.arange(1.0, 6.0)
    got = a.copy()
    apply_each[1, 32](got, halve, cuda.atomic.add)
    want = a / 2
    want[0] += 5
    np.testing.assert_allclose(got, want)
    got = a.copy()
    apply_each[1, 32](got, math.sqrt, cuda.atomic.sub)
    want = np.sqrt(a)
    want[0] -= 5
    np.testing.assert_allclose(got, want)
    assert len(apply_each.signatures) == 2


@cuda.jit
def wider_views(a, out, b):
    v = a.view(np.int64)                 # two int32 per int64, along the C-contiguous last axis
    i = cuda.grid(1)
    if i < v.shape[0]:
        out[i] = v[i]
    w = b.view(np.float64)
    if i < w.shape[0] and w.shape[1] == 1:
        w[i, 0] = 1.5


def test_views_to_wider_dtypes():
    a = np.arange(10, dtype=np.int32)
    out = np.zeros(5, np.int64)
    b = np.zeros((2, 6), np.uint16)      # 6 uint16 = 12 bytes a row: one float64, 4 bytes left out
    wider_views[1, 32](a, out, b)
    assert_array_equal(out, a.view(np.int64))
    want = np.zeros((2, 6), np.uint16)
    want[:, :4] = np.full((2, 1), 1.5).view(np.uint16)
    assert_array_equal(b, want)           # each row's float64 written, its last 4 bytes untouched


@cuda.jit
def half_atomics(h, hm, old):
    i = cuda.grid(1)
    if i < 64:
        old[i] = cuda.atomic.add(h, 0, 0.5)
        cuda.atomic.max(hm, 0, np.float16(i) / 8)
        cuda.atomic.min(hm, 1, -np.float16(i))
        cuda.atomic.sub(h, 1, 1)


def test_float16_atomics():
    h = np.zeros(2, np.float16)
    hm = np.zeros(2, np.float16)
    old = np.zeros(64, np.float32)
    half_atomics[2, 32](h, hm, old)
    assert h[0] == 32 and h[1] == -64
    assert hm[0] == np.float16(63 / 8) and hm[1] == -63
    assert sorted(old) == [k * 0.5 for k in range(64)]   # every old value once: each add atomic


# ------------------------------------------------------------------ records (structured dtypes)

PARTICLE = np.dtype([("x", np.float32), ("n", np.int32), ("w", np.float64), ("h", np.float16), ("alive", np.bool_),
                     ("z", np.complex64)])
PACKED = np.dtype([("tag", np.int8), ("v", np.float64), ("k", np.int16)])           # fields off their alignment
ALIGNED = np.dtype([("tag", np.int8), ("v", np.float64), ("k", np.int16)], align=True)


@cuda.jit
def update_particles(r, out):
    i = cuda.grid(1)
    if i < r.shape[0]:
        p = r[i]                          # a reference into the array, as Numba's records
        p.x = p.n * 2.5
        r[i]["w"] += 1.5
        p.h = i / 4
        p.alive = i % 2 == 0
        p.z = complex(i, -i)
        out[i] = r[i].x + p["w"]


TABLE = np.array([(1, 0.5, 3), (2, 1.5, 4)], dtype=PACKED)


@cuda.jit
def record_layouts(r, s, grid):
    i = cuda.grid(1)
    if i < r.size:
        tmp = cuda.local.array(2, PACKED)
        tmp[1].v = r[i].tag * 0.5
        r[i].v = tmp[1].v
        r[i].k += 7
        table = cuda.const.array_like(TABLE)
        s[i].v = r[i].v + s[i].tag + table[i % 2].v
        s[i].k = r[i].k + table[i % 2].k
    if i < grid.shape[0] * grid.shape[1]:
        g = grid[i // grid.shape[1], i % grid.shape[1]]
        g.n = i


@cuda.jit(device=True)
def advance(p, dt):
    p.x += p.n * dt            # a record passed to a device function: a reference, as in Numba
    return p.w


@cuda.jit
def advance_all(r, out):
    i = cuda.grid(1)
    if i < r.size:
        out[i] = advance(r[i], 0.5)
        q = r[i]
        out[i] += advance(q, 0.25)


def test_records_passed_to_device_functions():
    a = _particles()
    out = np.zeros(5)
    advance_all[1, 32](a, out)
    np.testing.assert_array_equal(a["x"], np.arange(5) * 0.75)
    np.testing.assert_array_equal(out, 20.0)


def _particles():
    a = np.zeros(5, PARTICLE)
    a["n"] = np.arange(5)
    a["w"] = 10
    return a


def test_records_read_and_written_by_field():
    a = _particles()
    out = np.zeros(5)
    update_particles[1, 32](a, out)
    np.testing.assert_array_equal(a["x"], np.arange(5) * 2.5)
    np.testing.assert_array_equal(a["w"], 11.5)
    np.testing.assert_array_equal(a["h"], np.float16(np.arange(5) / 4))
    np.testing.assert_array_equal(a["alive"], np.arange(5) % 2 == 0)
    np.testing.assert_array_equal(a["z"], np.arange(5) - 1j * np.arange(5))
    np.testing.assert_array_equal(out, np.arange(5) * 2.5 + 11.5)


def test_records_of_any_layout_local_arrays_and_two_dimensions():
    r = np.zeros(4, PACKED)
    r["tag"] = [1, 2, 3, 4]
    s = np.zeros(4, ALIGNED)
    s["tag"] = [10, 20, 30, 40]
    grid = np.zeros((3, 4), PARTICLE)
    record_layouts[1, 32](r, s, grid)
    np.testing.assert_array_equal(r["v"], [0.5, 1.0, 1.5, 2.0])
    np.testing.assert_array_equal(r["k"], 7)
    np.testing.assert_array_equal(s["v"], r["v"] + s["tag"] + TABLE["v"][np.arange(4) % 2])
    np.testing.assert_array_equal(s["k"], 7 + TABLE["k"][np.arange(4) % 2])
    np.testing.assert_array_equal(grid["n"], np.arange(12).reshape(3, 4))
    assert "pg_field_get" in record_layouts.inspect_source()     # PACKED's fields, read bytewise


def test_device_record_arrays():
    a = _particles()
    d = cuda.to_device(a)
    assert d.shape == (5,) and d.dtype == PARTICLE and len(d) == 5
    out = cuda.device_array(5)
    update_particles[1, 32](d, out)
    h = d.copy_to_host()
    assert h.dtype == PARTICLE
    np.testing.assert_array_equal(h["x"], np.arange(5) * 2.5)
    np.testing.assert_array_equal(d["w"].get(), 11.5)              # a field: a pygpu array over the records
    assert d[2]["n"] == 2 and d[1:3].shape == (2,)
    e = cuda.device_array_like(a)
    np.testing.assert_array_equal(e.copy_to_host()["n"], 0)
    cuda.to_device(a, to=e)
    into = np.zeros(5, PARTICLE)
    e.copy_to_host(into)
    np.testing.assert_array_equal(into, a)


def test_record_misuse_is_a_compile_error():
    @cuda.jit
    def whole(r, s):
        r[0] = s[0]

    @cuda.jit
    def missing(r):
        r[0].nope = 1

    @cuda.jit
    def as_number(r, out):
        out[0] = r[0] + 1

    with pytest.raises(pygpu.CompileError, match="assign its fields"):
        whole[1, 1](_particles(), _particles())
    with pytest.raises(pygpu.CompileError, match="no field 'nope'"):
        missing[1, 1](_particles())
    with pytest.raises(pygpu.CompileError, match="a record is not a number"):
        as_number[1, 1](_particles(), np.zeros(1))
    nested = np.dtype([("p", PACKED), ("q", np.int32)])
    with pytest.raises(TypeError, match="field 'p'"):
        missing[1, 1](np.zeros(2, nested))


# ------------------------------------------------------------------ declared device signatures

@cuda.jit('float64(int32)', device=True)
def _half_of_int(n):
    return n / 2


@cuda.jit('int32(int32, int32, int32, int32)', device=True)
def _rgba(r, g, b, a):
    return ((r & 0xFF) << 16) | ((g & 0xFF) << 8) | (b & 0xFF) | ((a & 0xFF) << 24)


@cuda.jit(['float32(float32)', 'int64(int64)'], device=True)
def _plus_half(x):
    return x + 0.5


@cuda.jit
def declared_signatures(x, v, channels, out):
    x[0] = _half_of_int(v[0])
    x[1] = _rgba(channels[0], channels[1], channels[2], channels[3])
    out[0] = _plus_half(np.float32(1.25))   # float32 in, float32 out
    out[1] = _plus_half(3)                  # int64: x + 0.5 computed, then converted to int64


def test_declared_device_signatures_convert_arguments_and_result():
    # Numba's test_device_casting: the arguments take the signature's types (7.9 -> int32 7)
    x, out = np.zeros(2), np.zeros(2)
    declared_signatures[1, 1](x, np.array([7.9]), np.array([1, 2, 3, 4], np.float32), out)
    assert_array_equal(x, np.array([3.5, 0x04010203]))
    assert_array_equal(out, np.array([1.75, 3.0]))


# ------------------------------------------------------------------ slice and partial-index assignment

@cuda.jit
def slice_stores(a, b, c, t, src, r):
    i = cuda.threadIdx.x
    a[i, :] = 5.0                 # a number into every element
    b[i] = i                      # a partial index fills the row
    b[i, 1:3] = 7.9               # converted to the dtype
    c[i, ::2] = src[i + 1, ::2]   # an array, elementwise
    c[i, 1::2] = r                # a length-1 array broadcasts
    t[i, 1] = 1, 2, 3             # a tuple along the last axis
    t[i, 0] = src[0, 0], i, -1.5


def test_slice_and_partial_index_assignment():
    a, b, c = np.zeros((3, 4)), np.zeros((3, 4), np.int32), np.zeros((3, 4))
    t = np.zeros((3, 2, 3), np.float32)
    src, r = np.arange(16.0).reshape(4, 4), np.array([-2.0])
    slice_stores[1, 3](a, b, c, t, src, r)
    ea, eb, ec, et = np.zeros_like(a), np.zeros_like(b), np.zeros_like(c), np.zeros_like(t)
    for i in range(3):
        ea[i, :] = 5.0
        eb[i] = i
        eb[i, 1:3] = 7.9
        ec[i, ::2] = src[i + 1, ::2]
        ec[i, 1::2] = r
        et[i, 1] = 1, 2, 3
        et[i, 0] = src[0, 0], i, -1.5
    for got, want in ((a, ea), (b, eb), (c, ec), (t, et)):
        assert_array_equal(got, want)


def test_slice_assignment_of_another_size_raises_value_error():
    @cuda.jit
    def from_array(a, v):
        a[0, :] = v

    @cuda.jit
    def from_tuple(a):
        a[0] = 1, 2

    with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
        from_array[1, 1](np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
        from_tuple[1, 1](np.zeros((2, 3)))
    with pytest.raises(ValueError, match="cannot broadcast source array"):
        from_array[1, 1](np.zeros((2, 3)), np.zeros((2, 3)))
    a = np.zeros((2, 3))
    from_array[1, 1](a, np.arange(1.0, 4.0).reshape(1, 3))   # a leading axis of length 1 drops, as in NumPy
    want = np.zeros((2, 3))
    want[0, :] = np.arange(1.0, 4.0).reshape(1, 3)
    assert_array_equal(a, want)


# ------------------------------------------------------------------ expression statements

@cuda.jit
def dropped_values(a, x):
    a[0] ** 2          # Numba's polar_as_complex_usecase: `_two ** _two` alone
    a.shape[-x]        # Numba's test_exception: the index is still checked
    (a[0], 3)
    a[1:]
    a[1] = 1


def test_expression_statements_are_evaluated_and_dropped():
    a = np.zeros(2)
    dropped_values[1, 1](a, 1)
    assert_array_equal(a, np.array([0.0, 1.0]))
    with pytest.raises(IndexError):
        dropped_values[1, 1](a, 2)


# ------------------------------------------------------------------ views of views in one expression

@cuda.jit
def chained_views(b, start, stop, out):
    # Numba's test_reinterpret_array_type: the slice and its view are two hidden locals
    out[0] = b[start:stop].view(np.int32)[0]
    out[1] = b[stop:].view(np.int32)[1:][0]


def test_chained_views_in_one_expression():
    b, out = np.arange(256, dtype=np.uint8), np.zeros(2, np.int32)
    chained_views[1, 1](b, 4, 8, out)
    assert_array_equal(out, np.array([b[4:8].view(np.int32)[0], b[8:].view(np.int32)[1:][0]]))


# ------------------------------------------------------------------ round(x, n) of a run-time n

@cuda.jit
def round_to(out, x, n):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = round(x[i], n[i])


def test_round_with_ndigits_known_at_run_time():
    # halfway cases go to even; big ndigits, inf and nan return x (Numba's round_to_impl)
    x = np.array([3.14159, -1234.5678, 1e30, np.inf, -np.inf, np.nan, 0.5, 1.5, 12345.0, 7.0, 0.125])
    n = np.array([2, -2, 300, 3, 0, 1, 0, 0, -1, 400, 2])
    want = np.array([round(float(v), int(m)) for v, m in zip(x, n)])
    for dt in (np.float64, np.float32):
        out = np.zeros(x.size, dt)
        round_to[1, x.size](out, x.astype(dt), n)
        assert_array_equal(out, want.astype(dt))
    # Numba's algorithm rounds the scaled float (267.5), where CPython rounds the decimal (2.67)
    out = np.zeros(1)
    round_to[1, 1](out, np.array([2.675]), np.array([2]))
    assert out[0] == 2.68


# ------------------------------------------------------------------ cuda.selp

@cuda.jit
def selects(out, ints, x, y):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.selp(x[i] > y[i], x[i], y[i])         # Numba's test_selp
        ints[i] = cuda.selp(i % 2 == 0, np.int32(i), np.int32(-i))


def test_selp_selects_by_the_predicate():
    x, y = np.array([1.0, -2.0, 3.5, np.nan]), np.array([0.5, 4.0, 3.5, 1.0])
    out, ints = np.zeros(4), np.zeros(4, np.int32)
    selects[1, 4](out, ints, x, y)
    assert_array_equal(out, np.where(x > y, x, y))
    assert_array_equal(ints, np.where(np.arange(4) % 2 == 0, np.arange(4), -np.arange(4)).astype(np.int32))


# ------------------------------------------------------------------ float classification

@cuda.jit
def classify(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = math.isinf(a[i])
        out[i, 1] = math.isnan(a[i])
        out[i, 2] = math.isfinite(a[i])


def test_isinf_isnan_isfinite_in_kernels():
    # their loops' text is ops.def's, not the host <math.h>'s expansion, so NVRTC compiles them too
    # (test_new_constructs_compile_with_nvrtc)
    for dt in (np.float32, np.float64):
        a = np.array([0.0, -np.inf, np.inf, np.nan, 1e38], dt)
        out = np.zeros((a.size, 3), np.bool_)
        classify[1, a.size](a, out)
        assert_array_equal(out, np.stack([np.isinf(a), np.isnan(a), np.isfinite(a)], axis=1))


# ------------------------------------------------------------------ the CUDA C stays CUDA C

@needs_nvrtc
def test_new_constructs_compile_with_nvrtc():
    from pygpu._jit import nvrtc

    @cuda.jit
    def everything(a, out, bits):
        M = 16
        s = cuda.shared.array(M, dtype=float64)
        dyn = cuda.shared.array(0, dtype=np.float32)
        i = cuda.grid(1)
        if i < a.size:
            s[i % M] = math.erf(a[i]) + math.lgamma(a[i]) + cuda.cbrt(a[i])
            m, e = math.frexp(a[i])
            out[i] = math.ldexp(m, e) + math.modf(a[i])[0] + math.remainder(a[i], 0.5) + s[i % M]
            bits[i] = bits[i].bit_count()
            r = dyn[::-1]
            dyn[i] = r[0]
            print("i", i, out[i], i < 2)

    args = (np.zeros(4), np.zeros(4), np.zeros(4, np.int64))
    for k, kargs in ((everything, args), (div, (np.zeros(4), 1.0)),
                     (math_zoo, (np.zeros(4, np.float32), np.zeros((4, 12), np.float32))),
                     (loops, (np.zeros(4), np.zeros(4), np.zeros((2, 2)), np.zeros(10))),
                     (more_loops, (np.zeros(3), np.zeros(3), np.zeros(8))),
                     (raising, (np.zeros(4), np.zeros(4), 1)),
                     (divide_checked, (np.zeros(2), np.zeros(1), np.zeros(1), 0)),
                     (with_tuples, (np.zeros((2, 2)), (2, 2), (1.0, 0.5), np.zeros(1))),
                     (tuple_items_at, (np.zeros(4), np.zeros((2, 2)), (1, 2, 3), 0)),
                     (tuples_of_arrays, ((np.zeros(4), np.zeros(4)), ((1, 2.0), np.zeros(4), ()), np.zeros((4, 4)))),
                     (literal_shapes, (np.zeros(32, np.int32), np.zeros(4, np.int32), np.zeros(8))),
                     (matches, (np.zeros(4, np.int64), np.zeros(4, np.uint32), np.zeros(4, np.uint32),
                                np.zeros(4, np.bool_), np.zeros((4, 3), np.int64))),
                     (half_arrays, (np.zeros(4, np.float16), np.zeros(4, np.float16), np.zeros(4, np.float16))),
                     (views, (np.zeros(4, np.complex128), np.zeros((4, 2)), np.zeros(8, np.int64), np.zeros(3, np.int64))),
                     (returns_tuples, (np.zeros(4, np.int64), np.zeros((4, 4)))),
                     (takes_tuples, (np.zeros((2, 2)), np.zeros(2, np.int64))),
                     (aligned, (np.zeros(1),)),
                     (vectors, (np.zeros(4, np.float32), np.zeros(4, np.float32))),
                     (functions_as_arguments, (np.zeros(4), np.zeros((4, 5)), np.zeros(2, np.int64))),
                     (declared_signatures, (np.zeros(2), np.zeros(1), np.zeros(4, np.float32), np.zeros(2))),
                     (slice_stores, (np.zeros((3, 4)), np.zeros((3, 4), np.int32), np.zeros((3, 4)),
                                     np.zeros((3, 2, 3), np.float32), np.zeros((4, 4)), np.zeros(1))),
                     (dropped_values, (np.zeros(2), 1)),
                     (chained_views, (np.zeros(8, np.uint8), 0, 4, np.zeros(2, np.int32))),
                     (literal_tuple_shape, (np.zeros((4, 8), np.float32),)),
                     (literal_flags, (np.zeros(8),)),
                     (round_to, (np.zeros(2), np.zeros(2), np.zeros(2, np.int64))),
                     (selects, (np.zeros(2), np.zeros(2, np.int32), np.zeros(2), np.zeros(2))),
                     (classify, (np.zeros(2, np.float32), np.zeros((2, 3), np.bool_))),
                     (classify, (np.zeros(2), np.zeros((2, 3), np.bool_))),
                     (named, (Pair(1.0, 2.0), np.zeros(4))), (starred, (np.zeros(5), (1, 2))),
                     (recursion, (np.zeros(4, np.int64), np.zeros((4, 2)), np.zeros(3, np.int64))),
                     (half_math, (np.zeros(4, np.float16), np.zeros(4, np.float16), np.zeros(4, np.float16),
                                  np.zeros((4, 11), np.float16), np.zeros((4, 3), np.bool_))),
                     (types_as_values, (np.zeros(4), np.zeros(4), np.uint8)),
                     (apply_each, (np.zeros(4), halve, cuda.atomic.add)),
                     (wider_views, (np.zeros(4, np.int32), np.zeros(2, np.int64), np.zeros((2, 4), np.uint16))),
                     (half_atomics, (np.zeros(2, np.float16), np.zeros(2, np.float16), np.zeros(64, np.float32))),
                     (update_particles, (np.zeros(4, PARTICLE), np.zeros(4))),
                     (advance_all, (np.zeros(4, PARTICLE), np.zeros(4))),
                     (record_layouts, (np.zeros(4, PACKED), np.zeros(4, ALIGNED), np.zeros((2, 2), PARTICLE)))):
        spec = k.specialization(tuple(cudajit.typeof(x) for x in kargs))
        for check in (False, True):
            nvrtc.compile_source(spec.source(check), (), (), (9, 0), spec.cname + ".cu")


# ------------------------------------------------------------------ enums (Numba's test_enums)

import enum  # noqa: E402


class _Request(enum.IntEnum):
    dummy = 2
    not_found = 404
    internal_error = 500


class _Shape(enum.IntEnum):
    circle = 2
    square = 500


class _Color(enum.Enum):
    red = 1
    green = 2


def _request_code(x, out):
    # IntEnum members are ints: compared, added, cast, and picked by name as in Python
    if x > _Request.internal_error:
        out[0] = x - _Request.not_found
    elif x > int32(_Request['not_found']):
        out[0] = x + int32(_Shape.circle) + _Color.green.value
    else:
        out[0] = _Request['dummy'] * (_Color['red'].value + 1)


def test_intenum_members_and_enum_values_in_kernels():
    kernel = cuda.jit(_request_code)
    for x in (300, 450, 550):
        got, want = np.zeros(1, np.int64), np.zeros(1, np.int64)
        kernel[1, 1](x, got)
        _request_code(x, want)
        assert got[0] == want[0], x


def test_enums_in_vectorize():
    def f(x):
        if x != _Request.not_found:
            return _Request['internal_error'] + _Color.red.value
        return _Request.dummy

    x = np.array([2, 404, 500, 404], np.int64)
    assert_array_equal(pygpu.vectorize("int64(int64)")(f)(x), np.array([f(v) for v in x], np.int64))


def test_plain_enum_members_are_refused_clearly():
    @cuda.jit
    def member(out):
        out[0] = _Color.red == _Color.green

    with pytest.raises(pygpu.CompileError, match=r"'_Color.red' is a member of the enum.Enum '_Color', which is not a "
                                                 r"number .*use an enum.IntEnum, or '_Color.red.value'"):
        member[1, 1](np.zeros(1, np.bool_))

    @cuda.jit
    def by_name(out):
        out[0] = _Request['teapot']

    with pytest.raises(pygpu.CompileError, match="'teapot' is not a member of _Request"):
        by_name[1, 1](np.zeros(1, np.int64))
