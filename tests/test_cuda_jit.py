"""pygpu.cuda.jit: Numba's CUDA Python kernels, compiled to CUDA C, on every device present (the CPU
through the host C++ compiler, a GPU through NVRTC). Every construct is compared with the same
computation in NumPy; errors (CompileError with file and line, argument and launch checks, out-of-
range indices) and the compile cache are checked too."""
import math
import os

import numpy as np
import pytest

import pygpu
from pygpu import cuda
from pygpu._jit import cache, hostcc

from conftest import assert_array_equal

try:
    from numba import float32 as nb_float32
except ImportError:  # pragma: no cover
    nb_float32 = np.float32


@pytest.fixture(scope="session", autouse=True)
def kernel_cache(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("jit-cache"))
    os.environ["PYGPU_CACHE_DIR"] = folder
    cache._folder = None
    yield folder
    cache._folder = None


def on(device, a):
    return pygpu.asarray(a, device=device)


# ------------------------------------------------------------------ the seeds

@cuda.jit
def add_kernel(x, y, out):
    index = cuda.grid(1)
    out[index] = x[index] + y[index]


@cuda.jit
def smooth_gpu(x, out):
    i, j = cuda.grid(2)
    n, m = x.shape
    if 1 <= i < n - 1 and 1 <= j < m - 1:
        out[i, j] = (x[i - 1, j - 1] + x[i - 1, j] + x[i - 1, j + 1] +
                     x[i, j - 1] + x[i, j] + x[i, j + 1] +
                     x[i + 1, j - 1] + x[i + 1, j] + x[i + 1, j + 1]) // 9


def numpy_smooth(a):
    out = a.copy()
    out[1:-1, 1:-1] = (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1] + a[1:-1, 2:] +
                       a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:]) // 9
    return out


def test_seed_add_kernel(device):
    with device:
        n = 4096
        x = np.arange(n).astype(np.int32)
        y = np.ones_like(x)
        x_on_device = cuda.to_device(x)
        y_on_device = cuda.to_device(y)
        out_on_device = cuda.device_array_like(x_on_device)
        add_kernel[32, 128](x_on_device, y_on_device, out_on_device)
        cuda.synchronize()
        assert_array_equal(out_on_device.copy_to_host(), x + y)


def test_numpy_arguments_copied_back(device):
    with device:
        x = np.arange(256, dtype=np.float64)
        out = np.zeros_like(x)
        add_kernel[2, 128](x, x, out)
        assert_array_equal(out, 2 * x)


def test_seed_smooth(device):
    a = np.random.default_rng(0).integers(0, 1000, (70, 45)).astype(np.int32)
    d, o = on(device, a), on(device, a)
    smooth_gpu[(5, 3), (16, 16)](d, o)
    assert_array_equal(o.get(), numpy_smooth(a))


TPB = 16


@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=nb_float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=nb_float32)
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    tmp = nb_float32(0.)
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = A[y, tx + i * TPB]
        sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    C[y, x] = tmp


def test_shared_memory_matmul(device):
    n = 64
    rng = np.random.default_rng(1)
    a, b = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
    c = pygpu.zeros((n, n), np.float32, device=device)
    matmul[(n // TPB, n // TPB), (TPB, TPB)](on(device, a), on(device, b), c)
    np.testing.assert_allclose(c.get(), a @ b, rtol=1e-5)


# ------------------------------------------------------------------ thread indices

@cuda.jit
def indices(out):
    b = cuda.blockIdx.x + cuda.gridDim.x * (cuda.blockIdx.y + cuda.gridDim.y * cuda.blockIdx.z)
    t = cuda.threadIdx.x + cuda.blockDim.x * (cuda.threadIdx.y + cuda.blockDim.y * cuda.threadIdx.z)
    k = b * cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z + t
    gx, gy, gz = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    r = out[k]
    r[0] = cuda.threadIdx.x
    r[1] = cuda.threadIdx.y
    r[2] = cuda.threadIdx.z
    r[3] = cuda.blockIdx.x
    r[4] = cuda.blockIdx.y
    r[5] = cuda.blockIdx.z
    r[6] = cuda.blockDim.x * 100 + cuda.blockDim.y * 10 + cuda.blockDim.z
    r[7] = cuda.gridDim.x * 100 + cuda.gridDim.y * 10 + cuda.gridDim.z
    r[8] = gx * 10000 + gy * 100 + gz
    r[9] = sx * 10000 + sy * 100 + sz
    r[10] = cuda.laneid
    r[11] = cuda.warpsize
    r[12] = cuda.grid(1)


def test_thread_indices(device):
    grid, block = (3, 2, 2), (4, 3, 2)
    nthreads = 3 * 2 * 2 * 4 * 3 * 2
    out = pygpu.zeros((nthreads, 13), np.int64, device=device)
    indices[grid, block](out)
    rows = []
    for bz in range(2):
        for by in range(2):
            for bx in range(3):
                for tz in range(2):
                    for ty in range(3):
                        for tx in range(4):
                            t = tx + 4 * (ty + 3 * tz)
                            rows.append([tx, ty, tz, bx, by, bz, 432, 322,
                                         (bx * 4 + tx) * 10000 + (by * 3 + ty) * 100 + bz * 2 + tz, 12 * 10000 + 600 + 4,
                                         t % 32, 32, bx * 4 + tx])
    assert_array_equal(out.get(), np.array(rows, np.int64))


# ------------------------------------------------------------------ dtypes and strides

@cuda.jit
def affine(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 3 + 1


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float32", "float64"])
def test_dtypes(device, dtype):
    x = (np.arange(-20, 80) % 50).astype(dtype)
    out = pygpu.zeros(100, dtype, device=device)
    affine[4, 32](on(device, x), out)
    if np.dtype(dtype).kind == "f":
        expect = x * 3 + 1
    else:
        wide = np.int64 if np.dtype(dtype).kind == "i" else np.uint64
        expect = (x.astype(wide) * 3 + 1).astype(dtype)
    assert_array_equal(out.get(), expect)


@cuda.jit
def copy_cast(x, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[i, j]


def test_bool_and_complex_arrays(device):
    b = np.array([[True, False, True], [False, False, True]])
    out = pygpu.zeros((2, 3), np.float64, device=device)
    copy_cast[(1, 1), (4, 4)](on(device, b), out)
    assert_array_equal(out.get(), b.astype(np.float64))
    z = (np.arange(6) + 1j * np.arange(6)[::-1]).reshape(2, 3).astype(np.complex64)
    zo = pygpu.zeros((2, 3), np.complex128, device=device)
    copy_cast[(1, 1), (4, 4)](on(device, z), zo)
    assert_array_equal(zo.get(), z.astype(np.complex128))


def test_strided_views(device):
    a = np.arange(12 * 10, dtype=np.float32).reshape(12, 10)
    d = on(device, a)
    for view, expect in [(d.T, a.T), (d[::-2, 1::3], a[::-2, 1::3]), (d[2:9, ::-1], a[2:9, ::-1])]:
        out = pygpu.zeros(expect.shape, np.float32, device=device)
        copy_cast[(2, 2), (8, 8)](view, out)
        assert_array_equal(out.get(), expect)
        o2 = pygpu.zeros(expect.shape[::-1], np.float32, device=device).T   # a non-contiguous output
        copy_cast[(2, 2), (8, 8)](view, o2)
        assert_array_equal(o2.get(), expect)


@cuda.jit
def attributes(a, out):
    out[0] = a.ndim
    out[1] = a.size
    out[2] = a.shape[0]
    out[3] = a.shape[1]
    out[4] = a.shape[2]
    out[5] = a.strides[0]
    out[6] = a.strides[1]
    out[7] = a.strides[2]
    out[8] = len(a)
    s = a.shape
    out[9] = s[0] * s[1] * s[2]
    out[10] = a[-1, -1, -1]
    out[11] = a[-2, 0, 1]


def test_array_attributes_and_negative_indices(device):
    a = np.arange(4 * 5 * 6, dtype=np.int64).reshape(4, 5, 6)
    for v in (a, a[:, ::2, ::-1]):
        out = pygpu.zeros(12, np.int64, device=device)
        attributes[1, 1](on(device, v) if v is a else on(device, a)[:, ::2, ::-1], out)
        expect = [3, v.size, *v.shape, *v.strides, len(v), v.size, v[-1, -1, -1], v[-2, 0, 1]]
        assert_array_equal(out.get(), np.array(expect, np.int64))


@cuda.jit
def views(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        tail = row[1:]
        rev = a[i, ::-2]
        total = 0.0
        for k in range(tail.shape[0]):
            total += tail[k]
        for k in range(rev.size):
            total += rev[k] * 100
        out[i] = total


def test_views_in_kernels(device):
    a = np.arange(5 * 7, dtype=np.float64).reshape(5, 7)
    out = pygpu.zeros(5, np.float64, device=device)
    views[1, 8](on(device, a), out)
    assert_array_equal(out.get(), a[:, 1:].sum(1) + a[:, ::-2].sum(1) * 100)


# ------------------------------------------------------------------ memory spaces

@cuda.jit
def reverse_block(x, out):
    buf = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i]
    cuda.syncthreads()
    out[i] = buf[cuda.blockDim.x - 1 - t]


def test_dynamic_shared_memory(device):
    x = np.arange(256, dtype=np.float32)
    out = pygpu.zeros(256, np.float32, device=device)
    reverse_block[4, 64, 0, 64 * 4](on(device, x), out)
    assert_array_equal(out.get(), x.reshape(4, 64)[:, ::-1].reshape(-1))


TABLE = np.array([[1.5, -2.0, 3.25], [4.0, 5.5, -6.0]])


@cuda.jit
def memory_spaces(x, out):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    tmp = cuda.local.array((2, 3), np.float64)
    c = cuda.const.array_like(TABLE)
    for r in range(2):
        for k in range(3):
            tmp[r, k] = c[r, k] * x[i]
    acc = 0.0
    for r in range(2):
        for k in range(3):
            acc += tmp[r, k] * (r + 1)
    out[i] = acc


def test_local_and_const_arrays(device):
    x = np.linspace(-1, 1, 50)
    out = pygpu.zeros(50, np.float64, device=device)
    memory_spaces[2, 32](on(device, x), out)
    np.testing.assert_allclose(out.get(), x * (TABLE[0].sum() + 2 * TABLE[1].sum()))


# ------------------------------------------------------------------ barriers, atomics, warps

@cuda.jit
def block_votes(x, out):
    t = cuda.threadIdx.x
    b = cuda.blockIdx.x
    v = x[cuda.grid(1)]
    out[b, 0] = cuda.syncthreads_count(v > 0)
    out[b, 1] = cuda.syncthreads_and(v > 0)
    out[b, 2] = cuda.syncthreads_or(v > 0)
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()
    if t == 0:
        out[b, 3] = 7


def test_syncthreads_reductions(device):
    x = np.array([1] * 64 + [0] * 63 + [5] + [0] * 64, np.int32)
    out = pygpu.zeros((3, 4), np.int32, device=device)
    block_votes[3, 64](on(device, x), out)
    assert_array_equal(out.get(), np.array([[64, 1, 1, 7], [1, 0, 1, 7], [0, 0, 0, 7]], np.int32))


@cuda.jit
def histogram(x, bins, stats, fstats):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        cuda.atomic.add(bins, v % 10, 1)
        cuda.atomic.max(stats, 0, v)
        cuda.atomic.min(stats, 1, v)
        cuda.atomic.sub(stats, 2, v)
        cuda.atomic.and_(stats, 3, v | 1024)
        cuda.atomic.or_(stats, 4, v)
        cuda.atomic.xor(stats, 5, v)
        cuda.atomic.add(fstats, 0, v * 0.5)
        cuda.atomic.max(fstats, 1, v * 0.5)
        cuda.atomic.min(fstats, (2,), v * 0.5)
        old = cuda.atomic.exch(stats, 6, 3)
        if old != 3 and old != 0:
            stats[7] = -1


def test_atomics(device):
    x = np.random.default_rng(3).integers(0, 1000, 500).astype(np.int64)
    bins = pygpu.zeros(10, np.int32, device=device)
    stats = on(device, np.array([-1, 10 ** 6, 0, -1, 0, 0, 0, 0], np.int64))
    fstats = on(device, np.array([0, -1e9, 1e9], np.float64))
    histogram[4, 128](on(device, x), bins, stats, fstats)
    assert_array_equal(bins.get(), np.bincount(x % 10, minlength=10).astype(np.int32))
    s = stats.get()
    xor = 0
    for v in x:
        xor ^= int(v)
    assert list(s) == [x.max(), x.min(), -x.sum(), np.bitwise_and.reduce(x | 1024), np.bitwise_or.reduce(x), xor, 3, 0]
    np.testing.assert_allclose(fstats.get(), [x.sum() * 0.5, x.max() * 0.5, x.min() * 0.5])


@cuda.jit
def counters(inc, dec, cas, n):
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.inc(inc, 0, 9)
        cuda.atomic.dec(dec, 0, 100)
        cuda.atomic.cas(cas, 0, i, i + 1)


def test_atomic_inc_dec_cas(device):
    for t in (np.uint32, np.uint64):
        inc, dec = pygpu.zeros(1, t, device=device), pygpu.full(1, 5, t, device=device)
        cas = pygpu.zeros(1, np.int32 if t == np.uint32 else np.int64, device=device)
        counters[1, 32](inc, dec, cas, 25)
        assert int(inc.get()[0]) == 25 % 10
        # dec from 5: 4 3 2 1 0 then wraps to the limit (100) and counts down
        assert int(dec.get()[0]) == 100 - (25 - 6)
        # cas: only the thread whose index equals the current value moves it on (0 -> 1 -> ...)
        assert 1 <= int(cas.get()[0]) <= 25


@cuda.jit
def warp_ops(x, out, votes):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    s = v
    off = 16
    while off > 0:
        s += cuda.shfl_down_sync(0xffffffff, s, off)
        off //= 2
    out[i, 0] = s
    out[i, 1] = cuda.shfl_sync(0xffffffff, v, 3)
    out[i, 2] = cuda.shfl_up_sync(0xffffffff, v, 1)
    out[i, 3] = cuda.shfl_xor_sync(0xffffffff, v, 1)
    b = cuda.ballot_sync(0xffffffff, v % 2 == 0)
    a = cuda.all_sync(0xffffffff, v >= 0)
    y = cuda.any_sync(0xffffffff, v > 60)
    if lane == 0:
        votes[i // 32, 0] = b
        votes[i // 32, 1] = a
        votes[i // 32, 2] = y


def test_warp_shuffles_and_votes(device):
    x = np.arange(64, dtype=np.int32)
    out = pygpu.zeros((64, 4), np.int32, device=device)
    votes = pygpu.zeros((2, 3), np.int64, device=device)
    warp_ops[1, 64](on(device, x), out, votes)
    o = out.get()
    assert o[0, 0] == x[:32].sum() and o[32, 0] == x[32:].sum()
    assert_array_equal(o[:, 1], np.repeat(np.int32([3, 35]), 32))
    up = x.copy()
    up[1:32], up[33:] = x[0:31], x[32:63]
    assert_array_equal(o[:, 2], up)
    assert_array_equal(o[:, 3], x ^ 1)
    assert_array_equal(votes.get(), np.array([[0x55555555, 1, 0], [0x55555555, 1, 1]], np.int64))


@cuda.jit
def split_votes(x, out):
    """Each quarter of the lanes (by i % 4) votes in its own branch with its own mask, as in
    Numba's test_warp_ops.test_independent_scheduling: only the mask's lanes take part."""
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    if lane % 4 == 0:
        m = 0x11111111
        out[i, 0] = cuda.ballot_sync(m, True)
    elif lane % 4 == 1:
        m = 0x22222222
        out[i, 0] = cuda.ballot_sync(m, True)
    elif lane % 4 == 2:
        m = 0x44444444
        out[i, 0] = cuda.ballot_sync(m, True)
    else:
        m = 0x88888888
        out[i, 0] = cuda.ballot_sync(m, True)
    if lane < 16:
        out[i, 1] = cuda.ballot_sync(0x0000FFFF, v > 40)
        out[i, 2] = cuda.any_sync(0x0000FFFF, v > 40)
        out[i, 3] = cuda.all_sync(0x0000FFFF, v < 40)
        out[i, 4] = cuda.eq_sync(0x0000FFFF, v > 40)
    else:
        out[i, 1] = cuda.ballot_sync(0xFFFF0000, v > 40)
        out[i, 2] = cuda.any_sync(0xFFFF0000, v > 40)
        out[i, 3] = cuda.all_sync(0xFFFF0000, v < 40)
        out[i, 4] = cuda.eq_sync(0xFFFF0000, v > 40)


@cuda.jit
def branch_activemask(out):
    """Numba's test_warp_ops.test_activemask: each branch of a divergent warp sees its lanes."""
    i = cuda.grid(1)
    out[i, 0] = cuda.activemask()
    if i % 2 == 0:
        out[i, 1] = cuda.activemask()
    else:
        out[i, 2] = cuda.activemask()   # another store: the branches stay two on a GPU


def test_activemask_in_divergent_branches(device):
    out = pygpu.zeros((48, 3), np.int64, device=device)    # a full warp and a half one
    branch_activemask[1, 48](out)
    o = out.get()
    assert_array_equal(o[:, 0], np.repeat([0xFFFFFFFF, 0xFFFF], [32, 16]))
    assert_array_equal(o[0::2, 1], np.repeat([0x55555555, 0x5555], [16, 8]))
    assert_array_equal(o[1::2, 2], np.repeat([0xAAAAAAAA, 0xAAAA], [16, 8]))


def test_votes_count_only_the_lanes_of_their_mask(device):
    x = np.concatenate([np.arange(32), np.arange(32)[::-1] * 2]).astype(np.int32)
    out = pygpu.zeros((64, 5), np.int64, device=device)
    split_votes[1, 64](on(device, x), out)
    o = out.get()
    lane = np.arange(64) % 32
    assert_array_equal(o[:, 0], 0x11111111 << (lane % 4))
    for half in (0, 1):
        for w in (0, 1):
            rows = (np.arange(64) // 32 == w) & ((lane >= 16) == half)
            mask = 0xFFFF0000 if half else 0x0000FFFF
            pred = x[rows] > 40
            ballot = sum(int(p) << int(l) for p, l in zip(pred, lane[rows]))
            assert (o[rows, 1] == ballot & mask).all()
            assert (o[rows, 2] == pred.any()).all()
            assert (o[rows, 3] == (x[rows] < 40).all()).all()
            assert (o[rows, 4] == (pred.all() or not pred.any())).all()


# ------------------------------------------------------------------ math, control flow, device functions

@cuda.jit
def math_kernel(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i]
        out[i, 0] = math.sin(v) + math.cos(v)
        out[i, 1] = math.exp(v) - math.log(v + 2.0)
        out[i, 2] = math.sqrt(abs(v)) + math.atan2(v, 1.5)
        out[i, 3] = math.floor(v * 3) + math.ceil(v) + math.trunc(v)
        out[i, 4] = math.tanh(v) ** 2 + math.hypot(v, 2.0) + v % 0.75 + v // 0.5
        out[i, 5] = cuda.fma(v, 2.0, 1.0) + min(v, 0.25) + max(v, -0.25)


def test_math(device):
    x = np.linspace(-1.5, 1.5, 41)
    for dt in (np.float32, np.float64):
        xs = x.astype(dt)
        out = pygpu.zeros((41, 6), dt, device=device)
        math_kernel[2, 32](on(device, xs), out)
        v = xs.astype(np.float64)
        expect = np.stack([np.sin(v) + np.cos(v), np.exp(v) - np.log(v + 2), np.sqrt(abs(v)) + np.arctan2(v, 1.5),
                           np.floor(v * 3) + np.ceil(v) + np.trunc(v), np.tanh(v) ** 2 + np.hypot(v, 2) + v % 0.75 +
                           v // 0.5, v * 2 + 1 + np.minimum(v, 0.25) + np.maximum(v, -0.25)], 1)
        np.testing.assert_allclose(out.get(), expect, rtol=2e-6 if dt == np.float32 else 1e-12, atol=1e-5)


@cuda.jit(device=True)
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
        if steps > 1000:
            break
    return steps


@cuda.jit(device=True)
def store_pair(out, i, a, b):
    out[i, 0] = a
    out[i, 1] = b


def first_square_above(limit):   # a plain function: compiled as a device function too
    for k in range(100):
        if k * k > limit:
            break
    else:
        return -1
    return k


@cuda.jit
def control_flow(out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    s = 0
    for k in range(i, 0, -3):
        if k % 5 == 0:
            continue
        s += k
    store_pair(out, i, collatz_steps(i + 1), first_square_above(i * 7))
    out[i, 2] = s
    out[i, 3] = 1 if (i > 3 and i < 10) or i == 20 else 0


def test_control_flow_and_device_functions(device):
    out = pygpu.zeros((40, 4), np.int64, device=device)
    control_flow[2, 32](out)

    def collatz(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s
    expect = [[collatz(i + 1), next(k for k in range(100) if k * k > i * 7),
               sum(k for k in range(i, 0, -3) if k % 5), int((3 < i < 10) or i == 20)] for i in range(40)]
    assert_array_equal(out.get(), np.array(expect, np.int64))


# ------------------------------------------------------------------ signatures, specialisation, launch forms

def test_eager_signature_and_scalars(device):
    @cuda.jit("void(float32[:], float32[:], float32, int64)")
    def axpy(x, out, a, n):
        i = cuda.grid(1)
        if i < n:
            out[i] = a * x[i] + out[i]

    x = np.arange(10, dtype=np.float32)
    out = on(device, np.ones(10, np.float32))
    axpy[1, 32](on(device, x), out, 2, 10)        # a Python int for a float32 parameter
    assert_array_equal(out.get(), 2 * x + 1)
    with pytest.raises(TypeError, match="no signature"):
        axpy[1, 32](on(device, x.astype(np.float64)), out, 2.0, 10)
    assert "void axpy(PgArr<float, 1, false> x" in axpy.inspect_source()


def test_lazy_specialisation_per_types(device):
    @cuda.jit
    def twice(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * 2

    for dt in (np.int32, np.float64):
        x = np.arange(5, dtype=dt)
        out = pygpu.zeros(5, dt, device=device)
        twice[1, 8](on(device, x), out)
        assert_array_equal(out.get(), x * 2)
    v = on(device, np.arange(10, dtype=np.int32))[::2]        # not contiguous: a strided specialisation
    out = pygpu.zeros(5, np.int32, device=device)
    twice[1, 8](v, out)
    assert_array_equal(out.get(), np.arange(10, dtype=np.int32)[::2] * 2)
    assert len(twice.signatures) == 3


def test_launch_forms(device):
    x = on(device, np.arange(64, dtype=np.float32))
    out = pygpu.zeros(64, np.float32, device=device)
    s = pygpu.Stream(device=device) if device.type != "cpu" else pygpu.Stream(device=device)
    add_kernel[2, 32, s](x, x, out)
    add_kernel[(2,), (32,), s, 0](x, x, out)
    s.synchronize()
    add_kernel((2,), (32,), (x, x, out))          # CuPy's form
    assert_array_equal(out.get(), 2 * np.arange(64, dtype=np.float32))
    affine.forall(64)(x, out)
    assert_array_equal(out.get(), 3 * np.arange(64, dtype=np.float32) + 1)


class _DLPackOnly:
    """An array known only through DLPack (as a foreign library's would be)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_dlpack_arguments_zero_copy(device):
    x = on(device, np.arange(32, dtype=np.float32))
    out = pygpu.zeros(32, np.float32, device=device)
    add_kernel[1, 32](_DLPackOnly(x), x, _DLPackOnly(out))
    assert_array_equal(out.get(), 2 * np.arange(32, dtype=np.float32))


# ------------------------------------------------------------------ errors

def test_compile_errors_name_file_and_line():
    @cuda.jit
    def bad(x):
        d = {1: 2}   # the line below the def
        x[0] = 1

    with pytest.raises(pygpu.CompileError, match=r"dict displays are not supported in cuda.jit \(test_cuda_jit.py, "
                                                 r"line \d+\)") as e:
        bad[1, 1](np.zeros(1))
    assert e.value.lineno == bad.py_func.__code__.co_firstlineno + 2

    @cuda.jit
    def returns(x):
        return x[0]

    with pytest.raises(pygpu.CompileError, match="a kernel cannot return a value"):
        returns[1, 1](np.zeros(1))

    with pytest.raises(pygpu.CompileError, match="2-d array takes 2 indices, got 3"):
        @cuda.jit("void(float64[:, :])")
        def too_many(a):
            a[0, 1, 2] = 1.0

    @cuda.jit
    def shared_shape(x, n):
        s = cuda.shared.array(n, np.float32)
        s[0] = x[0]

    with pytest.raises(pygpu.CompileError, match="the shape must be a constant integer"):
        shared_shape[1, 1](np.zeros(1, np.float32), 3)


def test_argument_and_launch_errors(device):
    x = on(device, np.zeros(8, np.float32))
    with pytest.raises(TypeError, match="takes 3 arguments but 2 were given"):
        add_kernel[1, 8](x, x)
    with pytest.raises(TypeError, match="kernels take arrays"):
        add_kernel[1, 8](x, x, "out")
    with pytest.raises(ValueError, match="block dimension x is 4096"):
        add_kernel[1, 4096](x, x, x)
    with pytest.raises(ValueError, match="at least 1"):
        add_kernel[0, 8](x, x, x)
    with pytest.raises(TypeError, match="launched with a configuration"):
        add_kernel(x, x, x)


def test_out_of_range_index_raises_on_the_cpu():
    with pygpu.Device("cpu"):
        x = pygpu.zeros(100, np.int32)
        with pytest.raises(IndexError, match=r"index 100 is out of bounds for axis 0 with size 100 "
                                             r"\(test_cuda_jit.py, line \d+\)"):
            add_kernel[1, 128](x, x, x)
        a = pygpu.zeros((4, 5), np.int32)
        with pytest.raises(IndexError, match="for axis 1 with size 5"):
            copy_cast[(1, 1), (8, 8)](a, pygpu.zeros((4, 8), np.int32))
        add_kernel[1, 100](x, x, x)   # the device carries on


def test_cache_hits_and_invalidation(tmp_path):
    src = tmp_path / "k.py"
    body = ("from pygpu import cuda\n@cuda.jit\ndef k(x):\n    i = cuda.grid(1)\n    if i < x.size:\n"
            "        x[i] = i * %d\n")
    import importlib.util

    def load(mult, name):
        src.write_text(body % mult)
        spec = importlib.util.spec_from_file_location(name, src)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        return m.k

    with pygpu.Device("cpu"):
        x = pygpu.zeros(10, np.int64)
        before = hostcc.compiles
        load(3, "k_a")[1, 16](x)
        after_first = hostcc.compiles
        hostcc._memory.clear()          # as a new process would: the disk cache answers
        load(3, "k_b")[1, 16](x)
        assert hostcc.compiles == after_first
        assert_array_equal(x.get(), np.arange(10) * 3)
        load(5, "k_c")[1, 16](x)        # a changed kernel compiles anew
        assert hostcc.compiles == after_first + 1 and after_first >= before
        assert_array_equal(x.get(), np.arange(10) * 5)


# ------------------------------------------------------------------ guvectorize

@pygpu.guvectorize(["void(float32[:], float32[:])", "void(float64[:], float64[:])"], "(n)->(n)")
def running_sum(x, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc


@pygpu.guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"], "(m,n),(n,p)->(m,p)")
def gu_matmul(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


@pygpu.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->()")
def dot_scaled(x, s, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i] * x[i]
    out[0] = acc * s


def test_guvectorize(device):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    r = running_sum(on(device, x))
    assert r.device == device
    assert_array_equal(r.get(), np.cumsum(x, axis=-1))
    rng = np.random.default_rng(5)
    a, b = rng.random((4, 1, 3, 5)), rng.random((2, 5, 2))
    np.testing.assert_allclose(gu_matmul(on(device, a), on(device, b)).get(), a @ b)
    out = pygpu.zeros((4, 2, 3, 2), np.float64, device=device)
    assert gu_matmul(on(device, a), on(device, b), out=out) is out
    np.testing.assert_allclose(out.get(), a @ b)
    v = rng.random((3, 6))
    np.testing.assert_allclose(dot_scaled(on(device, v), on(device, np.array([1.0, 2.0, 3.0]))).get(),
                               (v * v).sum(1) * [1, 2, 3])
    np.testing.assert_allclose(dot_scaled(on(device, v[0]), 2.0).get(), (v[0] * v[0]).sum() * 2)


@pygpu.guvectorize(["void(float32[:], float32, float32[:])", "void(float64[:], float64, float64[:])"],
                   "(n),()->(n)")
def scaled(x, s, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * s


def test_guvectorize_scalar_typing(device):
    """Python numbers take the array's loop (NEP 50); NumPy scalars are typed, as in a NumPy
    gufunc (numpy.float64 is a float and still picks the float64 loop)."""
    x = on(device, np.arange(4, dtype=np.float32))
    assert scaled(x, 2.0).dtype == np.float32 and scaled(x, np.float32(2)).dtype == np.float32
    r = scaled(x, np.float64(2.5))
    assert r.dtype == np.float64
    assert_array_equal(r.get(), np.arange(4) * 2.5)


def test_guvectorize_errors_and_targets():
    with pytest.raises(ValueError, match="mismatch in its core dimension n"):
        gu_matmul(np.ones((2, 3)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="could not be broadcast"):
        gu_matmul(np.ones((2, 2, 3)), np.ones((3, 3, 2)))
    with pytest.raises(TypeError, match="not supported for the input types"):
        running_sum(np.array(["a"]))
    with pytest.raises(pygpu.CompileError, match="guvectorize"):
        @pygpu.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
        def bad(x, out):
            out[0] = [1][0]
    cpu = pygpu.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cpu")(running_sum.py_func)
    assert cpu(np.arange(3.0)).device == pygpu.Device("cpu")
    r = pygpu.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda")(running_sum.py_func)(
        np.arange(3.0))
    assert_array_equal(r.get(), np.array([0.0, 1.0, 3.0]))


@pygpu.guvectorize(["void(int32, int32[:], int32[:])"], "(),(t)->(t)", target="cuda")
def scale_int32(a, b, out):
    for i in range(b.size):
        out[i] = a * b[i]


def test_guvectorize_numba_forms(device):
    """Numba's test_gufunc / test_gufunc_scalar forms: NumPy output arrays get the results and are
    returned; an argument is cast to the first signature whose types cast safely to its dtype
    (np.int64(2) to int32, Numba's search); stream= queues on that stream."""
    x = np.arange(10, dtype=np.float32) + 1
    out = np.zeros_like(x)
    assert running_sum(x, out=out) is out
    assert_array_equal(out, np.cumsum(x))
    out = np.zeros_like(x)
    assert running_sum(on(device, x), out) is out and (out == np.cumsum(x)).all()
    b = np.arange(10, dtype=np.int32)
    for a in (2, np.int64(2), np.int32(2)):
        assert_array_equal(scale_int32(a, b).get(), 2 * b)
    assert_array_equal(scale_int32(np.int64(3), b.astype(np.int64)).get(), 3 * b)
    with pytest.raises(TypeError, match="not supported for the input types"):
        scale_int32(np.int64(3), b.astype(np.complex64))
    s = pygpu.Stream(device=device)
    r = running_sum(on(device, x), stream=s)
    s.synchronize()
    assert_array_equal(r.get(), np.cumsum(x))
    with pytest.raises(TypeError, match="stream must be 0 or a pygpu.Stream"):
        running_sum(x, stream="default")
    with pytest.raises(TypeError, match="outputs must be pygpu or NumPy arrays"):
        running_sum(x, out=[0.0] * 10)


@cuda.jit(debug=True)
def _checked_store(x):
    i = cuda.grid(1)
    x[i] = 1.0


def test_debug_kernel_on_a_non_blocking_stream_reports(cuda_device):
    """The error flag is read after the launch's stream finishes, not the current stream's work
    (issue 16 item 11): a launch on a non-blocking stream still raises."""
    s = pygpu.Stream(device=cuda_device, non_blocking=True)
    x = pygpu.zeros(100, np.float32, device=cuda_device)
    for _ in range(3):
        with pytest.raises(IndexError, match="index 1[0-9][0-9] is out of bounds for axis 0 with size 100"):
            _checked_store[2, 128, s](x)
    _checked_store[1, 100, s](x)     # in range: nothing raised, the flag was cleared
    s.synchronize()
    assert (x.get() == 1.0).all()


@cuda.jit
def _mul_add(a, b, c, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * b[i] + c[i]


def test_kernels_round_as_the_cpu_and_the_ufuncs(device):
    """a*b+c is not contracted into an FMA by NVRTC (--fmad=false, issue 16 item 8): a kernel's
    result is the CPU backend's and the ufuncs', bit for bit."""
    rng = np.random.default_rng(7)
    a, b, c = (rng.standard_normal(4099) for _ in range(3))
    da, db, dc = (pygpu.asarray(v, device=device) for v in (a, b, c))
    out = pygpu.empty(4099, np.float64, device=device)
    _mul_add[(4099 + 127) // 128, 128](da, db, dc, out)
    assert_array_equal(out, a * b + c)
    assert_array_equal(out, (da * db + dc).get())
