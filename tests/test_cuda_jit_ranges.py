"""cuda.jit's value-range facts and the CPU's thread order (pygpu/_compiler/ranges.py and
threadorder.py): an index the emitter proves non-negative skips Python's wraparound, one it proves
inside its dimension skips the bounds check, // and % of non-negative operands are C's, and the
CPU loop walks the thread dimension that selects contiguous memory innermost. None of it may
change a result: negative indices still wrap, every access the facts do not cover is still
checked on the CPU, and the thread order does not change what a kernel computes."""
import os
import re

import numpy as np
import pytest

import pygpu
from pygpu import cuda
from pygpu._jit import cache, cudajit

from conftest import assert_array_equal
from test_raw_kernels_cuda_mock import needs_nvrtc


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("jit-ranges-cache"))
    old = os.environ.get("PYGPU_CACHE_DIR")
    os.environ["PYGPU_CACHE_DIR"] = folder
    cache._folder = None
    yield folder
    if old is None:
        os.environ.pop("PYGPU_CACHE_DIR", None)
    else:
        os.environ["PYGPU_CACHE_DIR"] = old
    cache._folder = None


def on(device, a):
    return pygpu.asarray(a, device=device)


def cpu_only(device):
    if device.type != "cpu":
        pytest.skip("bounds checks run on the CPU (and with debug=True)")


# ------------------------------------------------------------------ the seeds' stencil

@cuda.jit
def smooth_gpu(x, out):
    i, j = cuda.grid(2)
    n, m = x.shape
    if 1 <= i < n - 1 and 1 <= j < m - 1:
        out[i, j] = (x[i-1, j-1] + x[i-1, j] + x[i-1, j+1] +
                     x[i  , j-1] + x[i  , j] + x[i  , j+1] +
                     x[i+1, j-1] + x[i+1, j] + x[i+1, j+1]) // 9


def numpy_smooth(a, out):
    out = out.copy()
    out[1:-1, 1:-1] = (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1] + a[1:-1, 2:] +
                       a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:]).astype(np.int64) // 9
    return out


def test_smooth_facts_and_results(device):
    a = np.random.default_rng(0).integers(-1000, 1000, (37, 53)).astype(np.int32)
    o = np.zeros_like(a)
    d, do = on(device, a), on(device, o)
    smooth_gpu[(3, 4), (16, 16)](d, do)
    assert_array_equal(do.get(), numpy_smooth(a, o))
    src = smooth_gpu.inspect_source()
    # x's indices are inside x by the guard on x.shape; out's only non-negative: still checked
    assert src.count("pg_at_in(x, ") == 18 and "pg_at(" not in src
    # out's, where out is at least x's shape less one: tested once, the store written for each outcome
    assert "const bool pg_fits0 = x.shape[0] + -1 <= out.shape[0] && x.shape[1] + -1 <= out.shape[1];" in src
    assert re.search(r"if \(__builtin_expect\(pg_fits0, 1\)\) \{\n\s*pg_at_in\(out, ", src)
    assert re.search(r"\} else \{\n\s*pg_at_known<0, 3>\(out, ", src)
    assert "PG_CPU_THREAD_ORDER(smooth_gpu, 1)" in src
    # a strided (transposed) input takes the same facts
    t = np.ascontiguousarray(a.T).T
    do = on(device, o)
    smooth_gpu[(3, 4), (16, 16)](on(device, t), do)
    assert_array_equal(do.get(), numpy_smooth(t, o))


def test_smooth_out_smaller_than_x_still_checked(device):
    cpu_only(device)
    a = np.ones((20, 20), np.int32)
    with pytest.raises(IndexError, match=r"index 1\d is out of bounds for axis 1 with size 10"):
        smooth_gpu[(2, 2), (16, 16)](on(device, a), pygpu.zeros((20, 10), np.int32, device=device))
    smooth_gpu[(2, 2), (16, 16)](on(device, a), on(device, a))   # the device carries on
    big = pygpu.zeros((19, 30), np.int32, device=device)        # out one row short of x: still fits
    smooth_gpu[(2, 2), (16, 16)](on(device, a), big)
    assert_array_equal(big.get()[1:19, 1:19], np.full((18, 18), 1, np.int32))


# ------------------------------------------------------------------ negative indices

@cuda.jit
def shift(x, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x[i - 1]          # i - 1 is -1 for the first thread: the last element


@cuda.jit
def pick(x, out, k):
    i = cuda.grid(1)
    if i < out.shape[0]:
        if k > 0:
            j = i
        else:
            j = k                  # one branch may be negative: j keeps the wraparound
        out[i] = x[j]


@cuda.jit
def early_return(x, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i >= n:
        return
    out[i] = x[i] + x[-1] + x[n - 1 - i]


def test_negative_indices_still_wrap(device):
    x = np.arange(10, dtype=np.int64) * 3
    o = on(device, np.zeros(10, np.int64))
    shift[1, 16](on(device, x), o)
    assert_array_equal(o.get(), np.roll(x, 1))
    assert "pg_at(x, " in shift.inspect_source()
    pick[1, 16](on(device, x), o, -2)
    assert_array_equal(o.get(), np.full(10, x[-2]))
    pick[1, 16](on(device, x), o, 1)
    assert_array_equal(o.get(), x)
    early_return[1, 16](on(device, x), o)
    assert_array_equal(o.get(), x + x[-1] + x[::-1])
    src = early_return.inspect_source()
    assert re.search(r"pg_at_in\(x, \d+, i\)", src) and re.search(r"pg_at\(x, \d+, -1\)", src)


# ------------------------------------------------------------------ accesses the facts do not cover

@cuda.jit
def guard_on_scalar(x, n):
    i = cuda.grid(1)
    if 0 <= i < n:
        x[i] = 1


@cuda.jit
def guard_on_other_array(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        b[i] = a[i]


@cuda.jit
def moved_in_loop(x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        k = i
        for t in range(3):
            x[k] = t               # k grows past the guard's fact
            k = k + 1


@cuda.jit
def view_of_x(x, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if i < n:
        v = x[1:]
        out[i] = v[i]              # v is one shorter than x


@cuda.jit
def walk_while(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        j = i
        while x[j] > 0:            # the test runs with j grown by the loop
            j += 1
        out[i] = j


def test_guarded_accesses_still_checked(device):
    cpu_only(device)
    x = pygpu.zeros(10, np.int32, device=device)
    with pytest.raises(IndexError, match=r"index 10 is out of bounds for axis 0 with size 10"):
        guard_on_scalar[1, 16](x, 12)
    guard_on_scalar[1, 16](x, 10)
    assert_array_equal(x.get(), np.ones(10, np.int32))
    with pytest.raises(IndexError, match=r"out of bounds for axis 0 with size 5"):
        guard_on_other_array[1, 16](x, pygpu.zeros(5, np.int32, device=device))
    with pytest.raises(IndexError, match=r"index 10 is out of bounds for axis 0 with size 10"):
        moved_in_loop[1, 16](x)
    with pytest.raises(IndexError, match=r"index 9 is out of bounds for axis 0 with size 9"):
        view_of_x[1, 16](x, pygpu.zeros(10, np.int32, device=device))
    with pytest.raises(IndexError, match=r"index 10 is out of bounds for axis 0 with size 10"):
        walk_while[1, 16](pygpu.ones(10, np.int32, device=device), x)
    for k in (guard_on_scalar, moved_in_loop, walk_while):
        assert "pg_at_in(x" not in k.inspect_source(), k
    # bounded by another array's shape: unchecked only where that shape fits, tested at the access
    assert "const bool pg_fits0 = a.shape[0] + 0 <= b.shape[0];" in guard_on_other_array.inspect_source()
    # v is a view: its shape is tested where it is read
    assert "(x.shape[0] + 0 <= v.shape[0] ? pg_at_in(v, " in view_of_x.inspect_source()


@cuda.jit(device=True)
def load(a, i):
    return a[i]


@cuda.jit
def copy_through_device_function(a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        b[i] = load(a, i) + load(a, a.shape[0] - 1 - i)


def test_checks_skipped_only_where_shapes_fit(device):
    # b[i] is in range when b is at least as long as a: the statement runs unchecked then, checked
    # otherwise (a device function defined inside the statement does not disturb that)
    a = np.arange(10, dtype=np.int64)
    b = on(device, np.zeros(12, np.int64))
    copy_through_device_function[1, 16](on(device, a), b)
    assert_array_equal(b.get(), np.r_[a + a[::-1], 0, 0])
    src = copy_through_device_function.inspect_source()
    assert "const bool pg_fits0 = a.shape[0] + 0 <= b.shape[0];" in src
    assert re.search(r"if \(__builtin_expect\(pg_fits0, 1\)\) \{\n\s*pg_at_in\(b, \d+, i\) = ", src)
    assert re.search(r"\} else \{\n\s*pg_at_known<0, 1>\(b, \d+, i\) = ", src)
    if device.type == "cpu":
        with pytest.raises(IndexError, match=r"out of bounds for axis 0 with size 7"):
            copy_through_device_function[1, 16](on(device, a), pygpu.zeros(7, np.int64, device=device))


def test_guarded_accesses_on_every_device(device):
    x = on(device, np.zeros(10, np.int32))
    moved = on(device, np.full(5, 9, np.int32))
    moved_in_loop[1, 1](moved)
    assert_array_equal(moved.get(), np.array([0, 1, 2, 9, 9], np.int32))
    view_of_x[1, 9](on(device, np.arange(10, dtype=np.int32)), x)
    assert_array_equal(x.get(), np.r_[np.arange(1, 10), 0].astype(np.int32))
    walk_while[1, 16](on(device, np.array([1, 1, 0, 1, 0, 0, 1, 1, 1, 0], np.int32)), x)
    assert_array_equal(x.get(), np.array([2, 2, 2, 4, 4, 5, 9, 9, 9, 9], np.int32))


# ------------------------------------------------------------------ division

@cuda.jit
def divisions(out, k):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = i // 4
        out[i, 1] = i % 4
        out[i, 2] = (i - 7) // 4       # negative dividends: Python's floor
        out[i, 3] = (i - 7) % 4
        out[i, 4] = i // k             # a divisor of either sign
        out[i, 5] = i % k


def test_division_of_non_negative_operands(device):
    i = np.arange(20)
    for k in (3, -3):
        o = on(device, np.zeros((20, 6), np.int64))
        divisions[1, 32](o, k)
        assert_array_equal(o.get(), np.stack([i // 4, i % 4, (i - 7) // 4, (i - 7) % 4, i // k, i % k], axis=1))
    src = divisions.inspect_source()
    assert "(i / 4)" in src and "(i % 4)" in src
    assert "op_floor_divide_i64(op_subtract_i64(i, 7), 4)" in src and "op_floor_divide_i64(i, k)" in src
    assert "op_remainder_i64(op_subtract_i64(i, 7), 4)" in src and "op_remainder_i64(i, k)" in src


# ------------------------------------------------------------------ the CPU's thread order

@cuda.jit
def where_am_i(ox, oy):
    i, j = cuda.grid(2)
    if i < ox.shape[0] and j < ox.shape[1]:
        ox[i, j] = cuda.blockIdx.x * 1000 + cuda.threadIdx.x
        oy[i, j] = cuda.blockIdx.y * 1000 + cuda.threadIdx.y


@cuda.jit
def reverse_in_blocks(a, out):
    s = cuda.shared.array((8, 8), np.int32)
    i, j = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    s[tx, ty] = a[i, j]
    cuda.syncthreads()
    out[i, j] = s[tx, 7 - ty]


@cuda.jit
def own_slot_no_barrier(a, out, hist):
    s = cuda.shared.array((4, 8), np.int64)
    i, j = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    s[tx, ty] = a[i, j] * 2
    out[i, j] = s[tx, ty] + 1
    cuda.atomic.add(hist, a[i, j] % 4, 1)


def test_thread_order_keeps_indices_and_results(device):
    # a grid that is not square, blocks that are not square: block and thread indices must be
    # the ones CUDA gives whatever the order the CPU walks them in
    ox, oy = on(device, np.zeros((12, 16), np.int64)), on(device, np.zeros((12, 16), np.int64))
    where_am_i[(3, 2), (4, 8)](ox, oy)
    i, j = np.meshgrid(np.arange(12), np.arange(16), indexing="ij")
    assert_array_equal(ox.get(), (i // 4) * 1000 + i % 4)
    assert_array_equal(oy.get(), (j // 8) * 1000 + j % 8)
    assert "PG_CPU_THREAD_ORDER(where_am_i, 1)" in where_am_i.inspect_source()

    a = np.random.default_rng(1).integers(0, 100, (16, 24)).astype(np.int32)
    out = on(device, np.zeros_like(a))
    reverse_in_blocks[(2, 3), (8, 8)](on(device, a), out)
    assert_array_equal(out.get(), a.reshape(16, 3, 8)[:, :, ::-1].reshape(16, 24))
    assert "PG_CPU_THREAD_ORDER(reverse_in_blocks, 1)" in reverse_in_blocks.inspect_source()

    a = np.random.default_rng(2).integers(0, 100, (12, 16)).astype(np.int64)
    out = on(device, np.zeros_like(a))
    hist = on(device, np.zeros(4, np.int64))
    own_slot_no_barrier[(3, 2), (4, 8)](on(device, a), out, hist)
    assert_array_equal(out.get(), a * 2 + 1)
    assert_array_equal(hist.get(), np.bincount(a.ravel() % 4, minlength=4))


def test_x_order_kept_for_row_major_kernels():
    @cuda.jit
    def rows(x):
        i, j = cuda.grid(2)
        x[j, i] = i
    x = np.zeros((4, 4), np.int64)
    rows[(1, 1), (4, 4)](x)
    assert_array_equal(x, np.tile(np.arange(4), (4, 1)))
    assert "PG_CPU_THREAD_ORDER" not in rows.inspect_source()


# ------------------------------------------------------------------ the CUDA C stays CUDA C

@needs_nvrtc
def test_generated_sources_compile_with_nvrtc():
    from pygpu._jit import nvrtc
    i32, i64 = np.zeros((4, 4), np.int32), np.zeros((4, 4), np.int64)
    cases = [(smooth_gpu, (i32, i32)), (shift, (i64[0], i64[0])), (early_return, (i64[0], i64[0])),
             (divisions, (i64, 3)), (where_am_i, (i64, i64)), (reverse_in_blocks, (i32, i32)),
             (own_slot_no_barrier, (i64, i64, i64[0])), (guard_on_other_array, (i32[0], i32[0])),
             (smooth_gpu, (i32.T, i32))]
    cases.append((copy_through_device_function, (i64[0], i64[0])))
    for k, args in cases:
        spec = k.specialization(tuple(cudajit.typeof(a) for a in args))
        for check in (False, True):
            nvrtc.compile_source(spec.source(check), (), (), (9, 0), spec.cname + ".cu")
