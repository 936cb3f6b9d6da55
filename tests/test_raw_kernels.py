"""CUDA C kernels from the user (pygpu.RawKernel, pygpu.RawModule) on every device present: on the
CPU they are compiled by the host C++ compiler and run over the grid (blocks in parallel, threads
as a loop or as fibers at barriers); on a GPU by NVRTC. Results are compared with NumPy; launch
errors, argument checks, faults, the compile cache and the compile errors are checked too."""
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import pygpu
from pygpu._jit import cache, hostcc

from conftest import DTYPES, assert_array_equal, child_pythonpath

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="session", autouse=True)
def kernel_cache(tmp_path_factory):
    """A cache folder of this session's own: kernels compile for real, once per process."""
    folder = str(tmp_path_factory.mktemp("kernel-cache"))
    os.environ["PYGPU_CACHE_DIR"] = folder
    cache._folder = None
    yield folder
    cache._folder = None


ADD = r'''
extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
'''

INDICES = r'''
extern "C" __global__ void indices(int* out, int n) {
    // one row per thread: its linear id, then threadIdx, blockIdx, blockDim, gridDim
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int id = b * blockDim.x * blockDim.y * blockDim.z + t;
    if (id >= n) return;
    int* r = out + 13 * id;
    r[0] = id;
    r[1] = threadIdx.x; r[2] = threadIdx.y; r[3] = threadIdx.z;
    r[4] = blockIdx.x; r[5] = blockIdx.y; r[6] = blockIdx.z;
    r[7] = blockDim.x; r[8] = blockDim.y; r[9] = blockDim.z;
    r[10] = gridDim.x; r[11] = gridDim.y; r[12] = gridDim.z;
}
'''

SMOOTH = r'''
extern "C" __global__ void smooth(const int* x, int* out, int n, int m) {
    int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (1 <= i && i < n - 1 && 1 <= j && j < m - 1)
        out[i * m + j] = (x[(i-1)*m + j-1] + x[(i-1)*m + j] + x[(i-1)*m + j+1] +
                          x[i*m + j-1]     + x[i*m + j]     + x[i*m + j+1] +
                          x[(i+1)*m + j-1] + x[(i+1)*m + j] + x[(i+1)*m + j+1]) / 9;
}
'''

MATMUL = r'''
template <typename T, int TILE>
__global__ void matmul(const T* A, const T* B, T* C, int n) {
    __shared__ T sa[TILE][TILE];
    __shared__ T sb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    T acc = 0;
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int ac = t * TILE + tx, br = t * TILE + ty;
        sa[ty][tx] = row < n && ac < n ? A[row * n + ac] : T(0);
        sb[ty][tx] = br < n && col < n ? B[br * n + col] : T(0);
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += sa[ty][k] * sb[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
'''

REDUCE = r'''
extern "C" __global__ void block_sum(const double* x, double* out, long long n) {
    extern __shared__ double partial[];
    double v = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += blockDim.x * (long long)gridDim.x)
        v += x[i];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0;
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
        if (lane == 0) atomicAdd(out, v);
    }
}
'''

COLLECTIVES = r'''
extern "C" __global__ void collectives(const int* p, int* out) {
    int t = threadIdx.x, lane = t % 32;
    int* r = out + 12 * t;
    r[0] = __syncthreads_count(p[t]);
    r[1] = __syncthreads_and(p[t]);
    r[2] = __syncthreads_or(p[t]);
    r[3] = (int)__ballot_sync(0xffffffff, p[t]);
    r[4] = __all_sync(0xffffffff, p[t]);
    r[5] = __any_sync(0xffffffff, p[t]);
    r[6] = __shfl_sync(0xffffffff, t * 10, 3);
    r[7] = __shfl_sync(0xffffffff, t * 10, lane + 1, 8);
    r[8] = __shfl_up_sync(0xffffffff, t * 10, 2);
    r[9] = __shfl_down_sync(0xffffffff, t * 10, 5, 16);
    r[10] = __shfl_xor_sync(0xffffffff, t * 10, 1);
    __syncwarp();
    r[11] = lane;
}
'''

# the halves of a warp vote in different branches, each with its own mask: only its lanes count
SPLIT_VOTES = r'''
extern "C" __global__ void split_votes(const int* p, int* out) {
    int t = threadIdx.x, lane = t % 32;
    int* r = out + 4 * t;
    unsigned int m = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    if (lane < 16) {
        r[0] = (int)__ballot_sync(m, p[t]);
        r[1] = __any_sync(m, p[t]);
        r[2] = __all_sync(m, p[t]);
        r[3] = __uni_sync(m, p[t]);
    } else {
        r[0] = (int)__ballot_sync(m, p[t]);
        r[1] = __any_sync(m, p[t]);
        r[2] = __all_sync(m, p[t]);
        r[3] = __uni_sync(m, p[t]);
    }
}
'''

ATOMICS = r'''
extern "C" __global__ void histogram(const int* x, int n, int* bins, unsigned int* counters,
                                     unsigned long long* total, float* fsum, int* extremes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&bins[x[i]], 1);
    atomicInc(&counters[0], 0xffffffffu);
    atomicAdd(total, (unsigned long long)x[i]);
    atomicAdd(fsum, 0.5f);
    atomicMax(&extremes[0], x[i]);
    atomicMin(&extremes[1], x[i]);
    atomicOr(&extremes[2], 1 << (x[i] % 31));
    int old = atomicCAS(&extremes[3], 0, i + 1);
    if (old != 0) atomicExch(&extremes[4], 7);
}
'''


def _numpy_indices(grid, block, n):
    rows = []
    for bz in range(grid[2]):
        for by in range(grid[1]):
            for bx in range(grid[0]):
                for tz in range(block[2]):
                    for ty in range(block[1]):
                        for tx in range(block[0]):
                            b = bx + grid[0] * (by + grid[1] * bz)
                            t = tx + block[0] * (ty + block[1] * tz)
                            i = b * block[0] * block[1] * block[2] + t
                            if i < n:
                                rows.append((i, tx, ty, tz, bx, by, bz, *block, *grid))
    rows.sort()
    return np.array(rows, dtype=np.int32).reshape(-1, 13)


# ---------------------------------------------------------------- launching


def test_add_both_launch_forms(device):
    k = pygpu.RawKernel(ADD, "add")
    n = 1000
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 0.5, np.float32)
    dx, dy = pygpu.asarray(x, device=device), pygpu.asarray(y, device=device)
    out = pygpu.zeros(n, dtype=np.float32, device=device)
    k((4,), (256,), (dx, dy, out, n))            # CuPy's form
    assert_array_equal(out, x + y)
    out2 = pygpu.zeros(n, dtype=np.float32, device=device)
    k[(n + 127) // 128, 128](dx, dy, out2, np.int32(n))  # Numba's form
    assert_array_equal(out2, x + y)
    out3 = pygpu.zeros(n, dtype=np.float32, device=device)
    k[8, 128, 0, 0](dx, dy, out3, n)
    assert_array_equal(out3, x + y)


@pytest.mark.parametrize("name", ["pg_sum", "pg_idx", "pg_lane", "pg_kernels", "pg_thunk", "pg_runtime"])
def test_user_names_do_not_clash_with_the_cpu_header(device, name):
    # the CPU header's own names are reserved ones (__pg_*): a user's kernel may be called pg_sum
    src = 'extern "C" __global__ void %s(float *x) { x[threadIdx.x] += 1.0f; }' % name
    x = pygpu.zeros(4, dtype="float32", device=device)
    pygpu.RawKernel(src, name)((1,), (4,), (x,))
    assert x.get().tolist() == [1.0] * 4


def test_kernel_runs_on_the_device_of_its_arrays(device):
    k = pygpu.RawKernel(ADD, "add")
    x = pygpu.ones(10, dtype=np.float32, device=device)
    out = pygpu.empty(10, dtype=np.float32, device=device)
    with pygpu.Device("cpu"):
        k(1, 32, (x, x, out, 10))
    assert out.device == device
    assert_array_equal(out, np.full(10, 2, np.float32))


@pytest.mark.parametrize("grid,block", [((1, 1, 1), (1, 1, 1)), ((3, 1, 1), (5, 1, 1)), ((2, 3, 1), (4, 2, 1)),
                                        ((2, 2, 2), (3, 2, 2)), ((1, 1, 5), (1, 7, 1))])
def test_thread_and_block_indices(device, grid, block):
    k = pygpu.RawKernel(INDICES, "indices")
    n = int(np.prod(grid) * np.prod(block))
    out = pygpu.zeros((n, 13), dtype=np.int32, device=device)
    k(grid, block, (out, n))
    assert_array_equal(out, _numpy_indices(grid, block, n))


@settings(max_examples=15, deadline=None)
@given(grid=st.tuples(st.integers(1, 4), st.integers(1, 3), st.integers(1, 2)),
       block=st.tuples(st.integers(1, 9), st.integers(1, 3), st.integers(1, 2)),
       cut=st.integers(0, 5))
def test_indices_any_shape(grid, block, cut):
    k = pygpu.RawKernel(INDICES, "indices")
    n = max(int(np.prod(grid) * np.prod(block)) - cut, 0)
    out = pygpu.zeros((max(n, 1), 13), dtype=np.int32, device="cpu")
    k(grid, block, (out, n))
    expected = _numpy_indices(grid, block, n)
    got = out.get()[:n]
    np.testing.assert_array_equal(got, expected)


def test_smooth_stencil(device):
    x = np.random.default_rng(0).integers(0, 1000, (67, 45), dtype=np.int32)
    expected = x.copy()
    expected[1:-1, 1:-1] = (x[:-2, :-2] + x[:-2, 1:-1] + x[:-2, 2:] + x[1:-1, :-2] + x[1:-1, 1:-1] + x[1:-1, 2:] +
                            x[2:, :-2] + x[2:, 1:-1] + x[2:, 2:]) // 9
    k = pygpu.RawKernel(SMOOTH, "smooth")
    d = pygpu.asarray(x, device=device)
    out = pygpu.asarray(x, device=device)
    k[((45 + 15) // 16, (67 + 15) // 16), (16, 16)](d, out, 67, 45)
    assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype,n", [("float32", 64), ("float64", 50), ("int32", 33)])
def test_tiled_matmul_with_shared_memory_and_barriers(device, dtype, n):
    ctype = {"float32": "float", "float64": "double", "int32": "int"}[dtype]
    expr = "matmul<%s, 16>" % ctype
    m = pygpu.RawModule(code=MATMUL, name_expressions=[expr])
    k = m.get_function(expr)
    rng = np.random.default_rng(1)
    a = (rng.random((n, n)) * 10).astype(dtype)
    b = (rng.random((n, n)) * 10).astype(dtype)
    c = pygpu.empty((n, n), dtype=dtype, device=device)
    k(((n + 15) // 16, (n + 15) // 16), (16, 16), (pygpu.asarray(a, device=device), pygpu.asarray(b, device=device),
                                                     c, n))
    if dtype == "int32":
        assert_array_equal(c, a @ b)
    else:
        np.testing.assert_allclose(c.get(), a @ b, rtol=1e-5)


@pytest.mark.parametrize("threads", [32, 96, 256])
def test_reduction_with_shuffles_dynamic_shared_memory_and_atomics(device, threads):
    x = np.random.default_rng(2).random(10007)
    out = pygpu.zeros(1, device=device)
    k = pygpu.RawKernel(REDUCE, "block_sum")
    k(7, threads, (pygpu.asarray(x, device=device), out, len(x)), shared_mem=8 * ((threads + 31) // 32))
    np.testing.assert_allclose(out.get()[0], x.sum(), rtol=1e-12)


def test_block_and_warp_collectives(device):
    n = 64
    p = (np.arange(n) % 3 == 0).astype(np.int32)
    p[32:] = 1
    out = pygpu.zeros((n, 12), dtype=np.int32, device=device)
    pygpu.RawKernel(COLLECTIVES, "collectives")(1, n, (pygpu.asarray(p, device=device), out))
    got = out.get()
    t = np.arange(n)
    lane = t % 32
    warp_p = p.reshape(2, 32)
    ballots = np.array([sum(int(v) << i for i, v in enumerate(w)) for w in warp_p], dtype=np.uint32).view(np.int32)
    np.testing.assert_array_equal(got[:, 0], p.sum())
    np.testing.assert_array_equal(got[:, 1], int(p.all()))
    np.testing.assert_array_equal(got[:, 2], int(p.any()))
    np.testing.assert_array_equal(got[:, 3], np.repeat(ballots, 32))
    np.testing.assert_array_equal(got[:, 4], np.repeat(warp_p.all(axis=1).astype(int), 32))
    np.testing.assert_array_equal(got[:, 5], np.repeat(warp_p.any(axis=1).astype(int), 32))
    np.testing.assert_array_equal(got[:, 6], (t - lane + 3) * 10)
    seg = lane & ~7
    np.testing.assert_array_equal(got[:, 7], (t - lane + seg + (lane + 1) % 8) * 10)
    np.testing.assert_array_equal(got[:, 8], np.where(lane >= 2, t - 2, t) * 10)
    seg16 = lane & ~15
    np.testing.assert_array_equal(got[:, 9], np.where(lane + 5 < seg16 + 16, t + 5, t) * 10)
    np.testing.assert_array_equal(got[:, 10], (t ^ 1) * 10)
    np.testing.assert_array_equal(got[:, 11], lane)


def test_votes_count_only_the_lanes_of_their_mask(device):
    p = np.zeros(64, np.int32)
    p[16:32] = 1          # warp 0: the low half all 0, the high half all 1
    p[32:48:3] = 1        # warp 1: the low half mixed, the high half all 0
    out = pygpu.zeros((64, 4), dtype=np.int32, device=device)
    pygpu.RawKernel(SPLIT_VOTES, "split_votes")(1, 64, (pygpu.asarray(p, device=device), out))
    got = out.get()
    for start in range(0, 64, 16):
        half = p[start:start + 16]
        ballot = sum(int(v) << (start % 32 + i) for i, v in enumerate(half))
        want = [np.uint32(ballot).view(np.int32), int(half.any()), int(half.all()), int(half.all() or not half.any())]
        np.testing.assert_array_equal(got[start:start + 16], np.tile(want, (16, 1)))


def test_atomics(device):
    x = np.random.default_rng(3).integers(0, 20, 5000, dtype=np.int32)
    bins = pygpu.zeros(20, dtype=np.int32, device=device)
    counters = pygpu.zeros(1, dtype=np.uint32, device=device)
    total = pygpu.zeros(1, dtype=np.uint64, device=device)
    fsum = pygpu.zeros(1, dtype=np.float32, device=device)
    extremes = pygpu.asarray(np.array([-1, 1 << 30, 0, 0, 0], np.int32), device=device)
    k = pygpu.RawKernel(ATOMICS, "histogram")
    k((len(x) + 127) // 128, 128, (pygpu.asarray(x, device=device), len(x), bins, counters, total, fsum, extremes))
    assert_array_equal(bins, np.bincount(x, minlength=20).astype(np.int32))
    assert counters.get()[0] == len(x)
    assert total.get()[0] == x.sum()
    assert fsum.get()[0] == 0.5 * len(x)
    e = extremes.get()
    assert e[0] == x.max() and e[1] == x.min()
    assert e[2] == np.bitwise_or.reduce(1 << (x % 31))
    assert 1 <= e[3] <= len(x) and e[4] == 7


# ---------------------------------------------------------------- arguments


def test_numpy_arguments_are_copied_there_and_back(device):
    k = pygpu.RawKernel(ADD, "add")
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, np.float32)
    k(1, 128, (x, x, out, 100))
    np.testing.assert_array_equal(out, 2 * x)
    # a read-only array is not written back; a strided one is, through its dense copy
    ro = np.zeros(100, np.float32)
    ro.flags.writeable = False
    k(1, 128, (x, x, ro, 100))
    assert not ro.any()
    big = np.zeros(200, np.float32)
    k(1, 128, (x, x, big[::2], 100))
    np.testing.assert_array_equal(big[::2], 2 * x)
    assert not big[1::2].any()


class _DLPackOnly:
    """An array known only through DLPack (as a tensor of another library)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kw):
        return self._a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_dlpack_and_cuda_array_interface_arguments_share_memory(device):
    k = pygpu.RawKernel(ADD, "add")
    x = pygpu.arange(10, dtype=np.float32, device=device)
    out = pygpu.zeros(10, dtype=np.float32, device=device)
    k(1, 32, (_DLPackOnly(x), x, _DLPackOnly(out), 10))
    assert_array_equal(out, 2 * np.arange(10, dtype=np.float32))
    if device.type == "cuda":
        class CAI:
            __cuda_array_interface__ = out.__cuda_array_interface__
        k(1, 32, (x, x, CAI(), 10))
        assert_array_equal(out, 2 * np.arange(10, dtype=np.float32))


SCALARS = r'''
extern "C" __global__ void scalars(double* out, float f, double d, int i, unsigned int u, long long ll,
                                   bool b, signed char c, unsigned short us, float2 v) {
    out[0] = f; out[1] = d; out[2] = i; out[3] = u; out[4] = (double)ll; out[5] = b; out[6] = c; out[7] = us;
    out[8] = v.x; out[9] = v.y;
}
'''


def test_scalar_arguments_are_converted_to_their_parameters(device):
    k = pygpu.RawKernel(SCALARS, "scalars")
    out = pygpu.zeros(10, device=device)
    v = np.array([1.25, -2.5], np.float32).view(np.complex64)[0]
    k(1, 1, (out, 1.5, 2.25, -3, 4, -(2**40), True, -5, 60000, v))
    assert out.get().tolist() == [1.5, 2.25, -3, 4, -(2**40), 1, -5, 60000, 1.25, -2.5]
    k(1, 1, (out, np.float64(0.5), np.float32(0.75), np.int16(-7), np.uint8(8), np.int64(9), np.bool_(False), 1, 2,
             b"\0\0\0\0\0\0\0\0"))
    assert out.get().tolist() == [0.5, 0.75, -7, 8, 9, 0, 1, 2, 0, 0]


@pytest.mark.parametrize("index,value,error,match", [
    (2, 1.5, TypeError, "argument 4 is int32, got float"),
    (3, -1, OverflowError, "out of bounds for uint32"),
    (7, 2**16, OverflowError, "out of bounds for uint16"),
    (1, 1j, TypeError, "argument 3 is float64, got complex"),
    (8, 1.0, TypeError, "argument 10 is a 8-byte value, got float"),
    (8, b"abc", TypeError, "it has 3 bytes"),
    (0, "x", TypeError, "argument 2 is float32, got str"),
])
def test_scalar_argument_errors(device, index, value, error, match):
    k = pygpu.RawKernel(SCALARS, "scalars")
    args = [pygpu.zeros(10, device=device), 1.5, 2.25, -3, 4, 5, True, 1, 2, np.complex64(0)]
    args[1 + index] = value
    with pytest.raises(error, match=match):
        k(1, 1, tuple(args))


def test_array_argument_errors(device):
    k = pygpu.RawKernel(ADD, "add")
    x = pygpu.zeros(10, dtype=np.float32, device=device)
    with pytest.raises(TypeError, match=r"kernel add\(\) takes 4 arguments but 3 were given"):
        k(1, 32, (x, x, x))
    with pytest.raises(TypeError, match=r"kernel add\(\) takes 4 arguments but 5 were given"):
        k[1, 32](x, x, x, 10, 10)
    with pytest.raises(TypeError, match="argument 2 is a pointer to float32, got an array of float64"):
        k(1, 32, (x, pygpu.zeros(10, device=device), x, 10))
    with pytest.raises(TypeError, match="argument 4 is int32, got pygpu.ndarray"):
        k(1, 32, (x, x, x, x))
    with pytest.raises(TypeError, match="argument 1 is a pointer to float32, got int"):
        k(1, 32, (5, x, x, 10))
    with pytest.raises(TypeError, match="must be a tuple or a list"):
        k(1, 32, x)
    with pytest.raises(TypeError, match="unexpected keyword argument 'shared'"):
        k(1, 32, (x, x, x, 10), shared=0)


def test_array_on_another_device_is_refused(device):
    if device.type == "cpu":
        pytest.skip("needs a second device")
    k = pygpu.RawKernel(ADD, "add")
    x = pygpu.zeros(10, dtype=np.float32, device=device)
    with pytest.raises(ValueError, match="runs on .*cuda:0.*argument 2 is on .*cpu"):
        k(1, 32, (x, pygpu.zeros(10, dtype=np.float32, device="cpu"), x, 10))


# ---------------------------------------------------------------- launch configuration


@pytest.mark.parametrize("grid,block,shared,error,match", [
    (0, 32, 0, ValueError, "grid dimension x is 0; every dimension must be at least 1"),
    (1, (32, 0), 0, ValueError, "block dimension y is 0"),
    (1, 2048, 0, ValueError, "block dimension x is 2048; .* allows at most 1024"),
    (1, (32, 32, 2), 0, ValueError, r"a block of 2048 threads \(32, 32, 2\) is more than the 1024"),
    (1, (1, 1, 65), 0, ValueError, "block dimension z is 65; .* allows at most 64"),
    ((1, 70000), 1, 0, ValueError, "grid dimension y is 70000; .* allows at most 65535"),
    ((1, 1, 1, 1), 1, 0, ValueError, "the grid must have 1 to 3 dimensions, got 4"),
    (1.5, 1, 0, TypeError, "the grid must be an int or a tuple of 1 to 3 ints, not float"),
    (1, 1, -1, ValueError, "shared_mem must be at least 0"),
    (1, 1, 1 << 20, ValueError, r"1048576 bytes of shared memory per block .* is more than"),
])
def test_launch_configuration_errors(device, grid, block, shared, error, match):
    k = pygpu.RawKernel(ADD, "add")
    out = pygpu.zeros(4, dtype=np.float32, device=device)
    with pytest.raises(error, match=match):
        k(grid, block, (out, out, out, 4), shared_mem=shared)
    with pytest.raises(ValueError, match="a launch configuration is"):
        k[1](out, out, out, 4)
    assert not out.get().any()


def test_streams(device):
    k = pygpu.RawKernel(ADD, "add")
    x = pygpu.ones(100, dtype=np.float32, device=device)
    out = pygpu.zeros(100, dtype=np.float32, device=device)
    s = pygpu.Stream(device=device)
    k[1, 128, s](x, x, out, 100)
    k(1, 128, (out, x, out, 100), stream=s)
    s.synchronize()
    assert_array_equal(out, np.full(100, 3, np.float32))
    with s:
        k[1, 128](out, x, out, 100)
    s.synchronize()
    assert_array_equal(out, np.full(100, 4, np.float32))


def test_attributes(device):
    k = pygpu.RawKernel(MATMUL.replace("template <typename T, int TILE>", "typedef float T; enum { TILE = 8 };\n"
                                       "extern \"C\""), "matmul")
    with device:
        assert k.max_threads_per_block >= 64
        assert set(k.attributes) >= {"max_threads_per_block", "num_regs", "shared_size_bytes"}
        assert k.kernel.params == ((1, 10, 8), (1, 10, 8), (1, 10, 8), (3, 3, 4))


# ---------------------------------------------------------------- modules


MODULE = r'''
__device__ int counter;
__constant__ float scale[4];
extern "C" __global__ void bump(float* x) { atomicAdd(&counter, 1); x[threadIdx.x] *= scale[threadIdx.x % 4]; }
template <typename T> __global__ void fill(T* x, T v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}
namespace ns { template <int N> __global__ void iota(int* x) { x[threadIdx.x] = threadIdx.x * N; } }
'''


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "float32", "float64"])
def test_module_templates_through_name_expressions(device, dtype):
    ctype = {"int8": "signed char", "uint16": "unsigned short", "int32": "int", "int64": "long long",
             "float32": "float", "float64": "double"}[dtype]
    exprs = ["fill<%s>" % ctype, "ns::iota<3>"]
    m = pygpu.RawModule(code=MODULE, name_expressions=exprs)
    with device:
        f = m.get_function(exprs[0])
        x = pygpu.zeros(50, dtype=dtype)
        f(1, 64, (x, 7, 50))
        assert_array_equal(x, np.full(50, 7, dtype))
        y = pygpu.zeros(8, dtype=np.int32)
        m.get_function("ns::iota<3>")(1, 8, (y,))
        assert_array_equal(y, np.arange(8, dtype=np.int32) * 3)


def test_module_globals(device):
    m = pygpu.RawModule(code=MODULE)
    with device:
        scale = m.get_global("scale", np.float32)
        assert scale.shape == (4,) and scale.dtype == np.float32
        scale[...] = pygpu.asarray(np.array([1, 2, 3, 4], np.float32))
        counter = m.get_global("counter", np.int32)
        counter[...] = 0
        x = pygpu.ones(8, dtype=np.float32)
        m.get_function("bump")(1, 8, (x,))
        assert_array_equal(x, np.array([1, 2, 3, 4] * 2, np.float32))
        assert_array_equal(counter, np.array([8], np.int32))
        with pytest.raises(ValueError, match="no global variable 'nope'"):
            m.get_global("nope")
        with pytest.raises(ValueError, match="no kernel 'nope'"):
            m.get_function("nope")


def test_module_from_a_source_file(device, tmp_path):
    (tmp_path / "k.cu").write_text(ADD)
    m = pygpu.RawModule(path=str(tmp_path / "k.cu"))
    x = pygpu.ones(4, dtype=np.float32, device=device)
    m.get_function("add")[1, 4](x, x, x, 4)
    assert_array_equal(x, np.full(4, 2, np.float32))


def test_compiled_image_runs_only_on_a_gpu(tmp_path):
    (tmp_path / "k.ptx").write_text("//\n.version 8.0\n.target sm_90\n.address_size 64\n")
    m = pygpu.RawModule(path=str(tmp_path / "k.ptx"))
    with pygpu.Device("cpu"), pytest.raises(ValueError, match="runs only on a CUDA device"):
        m.get_function("k")


def test_constructor_errors():
    with pytest.raises(TypeError, match="one of code= and path="):
        pygpu.RawModule()
    with pytest.raises(ValueError, match="NVRTC"):
        pygpu.RawKernel(ADD, "add", backend="nvcc")
    with pytest.raises(TypeError, match="name must be a str"):
        pygpu.RawKernel(ADD, 3)


# ---------------------------------------------------------------- compile errors


def test_compile_error_carries_the_log(device):
    k = pygpu.RawKernel('extern "C" __global__ void broken(float* x) {\n  x[0] = undefined_thing;\n}\n', "broken")
    with device, pytest.raises(pygpu.CompileError) as info:
        k.compile()
    assert "undefined_thing" in info.value.log
    # the file and the line: kernel.cu:2 from the host compiler, kernel.cu(2) from NVRTC
    assert re.search(r"kernel\.cu(:2\b|\(2\))", str(info.value)), str(info.value)


def test_missing_kernel(device):
    k = pygpu.RawKernel(ADD, "sub")
    with device, pytest.raises(ValueError, match="no kernel 'sub'"):
        k.compile()


def test_no_compiler_is_a_clear_error(tmp_path):
    code = textwrap.dedent("""
        import pygpu
        k = pygpu.RawKernel('extern "C" __global__ void k(int* x) {}', 'k')
        try:
            k.compile()
        except pygpu.CompileError as e:
            print(e)
    """)
    env = dict(os.environ, PYGPU_CXX="pygpu-no-such-compiler", PYGPU_CACHE_DIR=str(tmp_path), PYGPU_DEVICE="cpu",
               PYTHONPATH=child_pythonpath())
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=HERE)
    assert "found none (looked for pygpu-no-such-compiler)" in out.stdout, out.stdout + out.stderr


# ---------------------------------------------------------------- the cache


def test_cache_hits_and_invalidation():
    src = ADD.replace("add", "cached_add")
    before = hostcc.compiles
    with pygpu.Device("cpu"):
        pygpu.RawKernel(src, "cached_add").compile()
        assert hostcc.compiles == before + 1
        pygpu.RawKernel(src, "cached_add").compile()           # memory
        assert hostcc.compiles == before + 1
        pygpu.RawKernel(src + "\n// changed\n", "cached_add").compile()
        pygpu.RawKernel(src, "cached_add", options=("-DX=1",)).compile()
        assert hostcc.compiles == before + 3


def test_an_edited_user_header_is_a_new_cache_entry(device, tmp_path):
    """The disk cache's key holds the contents of the user's headers the source includes (issue 16
    item 10): editing one recompiles, on both backends."""
    header = tmp_path / "scale.h"
    src = '#include "scale.h"\nextern "C" __global__ void scaled(int* x) { x[threadIdx.x] = SCALE * threadIdx.x; }\n'
    results = []
    for scale in (3, 5, 3):
        header.write_text("#define SCALE %d\n" % scale)
        x = pygpu.zeros(4, dtype=np.int32, device=device)
        with device:
            pygpu.RawKernel(src, "scaled", options=("-I" + str(tmp_path),))(1, 4, (x,))
        results.append(x.get().tolist())
    assert results == [[0, 3, 6, 9], [0, 5, 10, 15], [0, 3, 6, 9]]


def test_nvrtc_takes_headers_of_its_own_major_version(tmp_path, monkeypatch):
    """Toolkit headers of another CUDA major version are not put on NVRTC's include path (an
    NVRTC 12 given CUDA 13 headers fails on every #include <cuda_fp16.h>)."""
    from pygpu._jit import nvrtc
    for major, where in ((12, "cuda_runtime"), (13, "cu13")):
        inc = tmp_path / "nvidia" / where / "include"
        inc.mkdir(parents=True)
        (inc / "cuda_runtime_api.h").write_text("#define CUDART_VERSION %d040\n" % major)
    assert nvrtc.headers_major(str(tmp_path / "nvidia" / "cu13" / "include")) == 13
    monkeypatch.setattr(nvrtc, "_site_dirs", lambda: [str(tmp_path)])
    monkeypatch.setattr(nvrtc, "_toolkits", lambda: [])
    assert nvrtc._include_dirs.__wrapped__(12) == (str(tmp_path / "nvidia" / "cuda_runtime" / "include"),)
    assert nvrtc._include_dirs.__wrapped__(13) == (str(tmp_path / "nvidia" / "cu13" / "include"),)


def test_cache_is_shared_across_processes(tmp_path):
    code = textwrap.dedent("""
        import numpy as np, pygpu
        from pygpu._jit import hostcc
        k = pygpu.RawKernel('extern "C" __global__ void twice(int* x) { x[threadIdx.x] *= 2; }', 'twice')
        x = pygpu.arange(8, dtype=np.int32, device="cpu")
        k(1, 8, (x,))
        print(hostcc.compiles, x.get().tolist())
    """)
    env = dict(os.environ, PYGPU_CACHE_DIR=str(tmp_path), PYTHONPATH=child_pythonpath())
    run = [sys.executable, "-c", code]
    procs = [subprocess.Popen(run, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE)
             for _ in range(3)]
    outs = [p.communicate() for p in procs]
    for out, err in outs:
        assert out.split(" ", 1)[1].strip() == str([2 * i for i in range(8)]), err
    # a later process compiles nothing: the shared object comes from the disk
    again = subprocess.run(run, env=env, capture_output=True, text=True, cwd=HERE)
    assert again.stdout.split(" ", 1)[0] == "0", again.stdout + again.stderr
    files = os.listdir(os.path.join(str(tmp_path), "kernels"))
    assert [f for f in files if f.endswith(".so")] and not [f for f in files if f.endswith(".tmp")]


def test_damaged_blob_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_folder", str(tmp_path))
    name = cache.key("test") + ".nvrtc"
    cache.store_blob(name, {"kind": "ptx"}, b"payload")
    assert cache.load_blob(name) == ({"kind": "ptx", "sha256": cache.load_blob(name)[0]["sha256"], "size": 7},
                                     b"payload")
    with open(cache.path(name), "r+b") as f:
        f.seek(-2, 2)
        f.write(b"XX")
    assert cache.load_blob(name) is None


# ---------------------------------------------------------------- faults on the CPU

FAULTS = r'''
extern "C" __global__ void wild(float* x, long long offset) { x[offset] = 1; }
extern "C" __global__ void divide(int* x, int d) { x[threadIdx.x] = 100 / d; }
extern "C" __global__ void check(int* x) { assert(threadIdx.x < 5); x[threadIdx.x] = 1; }
extern "C" __global__ void trap(int* x) { if (blockIdx.x == 2) __trap(); }
extern "C" __global__ void deadlock(int* x) { if (threadIdx.x < 40) __syncthreads(); else __syncwarp(); }
__device__ int deep(int n);
__device__ int (*volatile again)(int) = deep;  // a call the compiler cannot turn into a loop
__device__ int deep(int n) { volatile char pad[4096]; pad[0] = (char)n; return n == 0 ? pad[0] : again(n - 1) + pad[0]; }
extern "C" __global__ void overflow(int* x, int n) { __syncthreads(); x[0] = deep(n); }
'''


@pytest.mark.parametrize("name,args,error,match", [
    ("wild", (1 << 44,), IndexError, r"kernel wild accessed memory outside its arrays .* block \(0, 0, 0\)"),
    ("divide", (0,), ZeroDivisionError, "integer division by zero"),
    ("check", (), AssertionError, r"assertion 'threadIdx.x < 5' failed \(kernel check, block \(\d, 0, 0\), "
                                  r"thread \((5|6|7), 0, 0\)\)"),
    ("trap", (), RuntimeError, r"__trap\(\) called \(kernel trap, block \(2, 0, 0\)"),
    ("deadlock", (), RuntimeError, "deadlock: the threads of a block wait at different barriers"),
    ("overflow", (1 << 20,), RuntimeError, "overflowed its stack"),
])
def test_cpu_faults_raise_and_the_interpreter_carries_on(name, args, error, match):
    m = pygpu.RawModule(code=FAULTS)
    x = pygpu.zeros(64, dtype=np.float32 if name == "wild" else np.int32, device="cpu")
    with pygpu.Device("cpu"):
        f = m.get_function(name)
        with pytest.raises(error, match=match):
            f(4, 64, (x,) + args)
        # the same kernel runs again, and so does everything else
        if name == "divide":
            f(1, 64, (x, 4))
            assert_array_equal(x, np.full(64, 25, np.int32))
    assert float(pygpu.ones(3, device="cpu").get().sum()) == 3.0


# ---------------------------------------------------------------- dtypes through templates


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d not in ("float16", "complex64", "complex128", "bool")])
def test_template_kernel_over_dtypes(device, dtype):
    ctype = {"int8": "signed char", "int16": "short", "int32": "int", "int64": "long long", "uint8": "unsigned char",
             "uint16": "unsigned short", "uint32": "unsigned int", "uint64": "unsigned long long",
             "float32": "float", "float64": "double"}[dtype]
    src = "template <typename T> __global__ void axpy(T a, const T* x, T* y, int n) {\n" \
          "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n"
    expr = "axpy<%s>" % ctype
    m = pygpu.RawModule(code=src, name_expressions=[expr])
    x = np.arange(20).astype(dtype)
    y = np.ones(20, dtype)
    dy = pygpu.asarray(y, device=device)
    with device:
        m.get_function(expr)[1, 32](3, pygpu.asarray(x, device=device), dy, 20)
    assert_array_equal(dy, (np.asarray(3, dtype) * x + y).astype(dtype))


GRID_SUM = r'''
#include <cooperative_groups.h>
extern "C" __global__ void grid_sum(const float* x, float* partial, float* out, int n) {
    auto grid = cooperative_groups::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[i] = i < n ? x[i] : 0.0f;
    grid.sync();                                   // every block's partial is written
    if (i == 0) {
        float s = 0.0f;
        for (int k = 0; k < gridDim.x * blockDim.x; k++) s += partial[k];
        out[0] = s;
    }
}
'''


def test_cooperative_kernel_syncs_the_grid(cuda_device):
    """A grid-wide sync runs under enable_cooperative_groups=True (cuLaunchCooperativeKernel):
    thread 0 reads every block's partial after grid.sync(); one it read before its block wrote
    it would be the NaN partial starts with. Small integers, so that the float32 sum is exact in
    any order (arange's would pass 2**24 and round)."""
    k = pygpu.RawKernel(GRID_SUM, "grid_sum", enable_cooperative_groups=True)
    blocks = cuda_device.properties()["multiprocessors"]
    with cuda_device:
        xs = (np.arange(blocks * 128) % 7).astype(np.float32)
        x = pygpu.asarray(xs)
        partial = pygpu.full(blocks * 128, np.nan, dtype=np.float32)
        out = pygpu.zeros(1, dtype=np.float32)
        k(blocks, 128, (x, partial, out, np.int32(blocks * 128)))
        assert out.get()[0] == xs.astype(np.float64).sum()
        with pytest.raises(ValueError, match="cooperative launch of"):
            k(blocks * 1000, 128, (x, partial, out, np.int32(blocks * 128)))


# ---------------------------------------------------------------- kernels named like C library functions

# names the host's C library declares or GCC knows as builtins: free names on NVRTC (the CPU gives
# each kernel a private C++ name and exports it under the user's)
LIBC_NAMES = ["cabs", "cabsf", "cexp", "csqrt", "conj", "carg", "creal", "cimag", "clog", "cpow", "ccos", "random",
              "rand", "select", "gamma", "bcmp", "memcpy", "memset", "calloc", "index", "rindex", "abort"]
# names CUDA declares with C linkage for device code: NVRTC refuses a kernel of one with C linkage
# ("more than one instance of overloaded function "malloc" has "C" linkage"), and so does the CPU
CUDA_C_NAMES = ["malloc", "free", "printf", "sin", "expf", "rsqrt", "normcdf", "max", "umin", "clock64", "__popc",
                "__syncthreads"]


@pytest.mark.parametrize("name", LIBC_NAMES + ["double_it"])
def test_kernel_named_like_a_c_library_function(device, name):
    code = 'extern "C" __global__ void %s(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] * 2; }' % name
    x = pygpu.asarray(np.array([1.5, 2.5], np.float32), device=device)
    y = pygpu.zeros(2, np.float32, device=device)
    pygpu.RawKernel(code, name)((1,), (2,), (x, y))
    assert_array_equal(y, np.array([3, 5], np.float32))


@pytest.mark.parametrize("name", CUDA_C_NAMES)
def test_kernel_with_c_linkage_named_like_a_cuda_function_does_not_compile(device, name):
    x = pygpu.asarray(np.array([1.5, 2.5], np.float32), device=device)
    y = pygpu.zeros(2, np.float32, device=device)
    for code in ['extern "C" __global__ void %s(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] * 2; }',
                 'extern "C" {\n__global__ void %s(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] * 2; }\n}']:
        with pytest.raises(pygpu.CompileError, match='"%s" has "C" linkage' % name):
            pygpu.RawKernel(code % name, name)((1,), (2,), (x, y))
    # in a namespace, with C++ linkage, the name is free
    code = 'namespace k { __global__ void %s(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] * 2; } }' % name
    pygpu.RawModule(code=code, name_expressions=["k::" + name]).get_function("k::" + name)((1,), (2,), (x, y))
    assert_array_equal(y, np.array([3, 5], np.float32))


def test_template_and_module_kernels_named_like_c_library_functions():
    """Name expressions, namespaces, forward declarations, explicit instantiations and several
    kernels in one module map to the private names as well (CPU: NVRTC's math library has these)."""
    cpu_device = pygpu.Device("cpu")
    code = r'''
namespace ns { template <typename T> __global__ void sqrt(T* y, T a) { y[threadIdx.x] = a * threadIdx.x; } }
template <typename T> __global__ void exp(T* y);
template <typename T> __global__ void exp(T* y) { y[threadIdx.x] = (T)3; }
template __global__ void exp<double>(double*);
extern "C" __global__ void sinl(float* y) { y[threadIdx.x] = 7.0f; }
extern "C" __global__ void plain(float* y) { y[threadIdx.x] = sinf(0.0f) + expf(0.0f); }
#define STAMP(name, v) extern "C" __global__ void name(float* y) { y[threadIdx.x] = v; }
STAMP(stamped, 9.0f)
'''
    m = pygpu.RawModule(code=code, name_expressions=["ns::sqrt<float>", "exp<double>"])
    with cpu_device:
        a = pygpu.zeros(3, np.float32)
        m.get_function("ns::sqrt<float>")((1,), (3,), (a, np.float32(2)))
        assert_array_equal(a, np.array([0, 2, 4], np.float32))
        b = pygpu.zeros(2, np.float64)
        m.get_function("exp<double>")((1,), (2,), (b,))
        assert_array_equal(b, np.array([3, 3], np.float64))
        c = pygpu.zeros(2, np.float32)
        m.get_function("sinl")((1,), (2,), (c,))
        assert_array_equal(c, np.array([7, 7], np.float32))
        m.get_function("plain")((1,), (2,), (c,))
        assert_array_equal(c, np.array([1, 1], np.float32))
        m.get_function("stamped")((1,), (2,), (c,))   # a kernel a macro declares keeps its name
        assert_array_equal(c, np.array([9, 9], np.float32))


# ---------------------------------------------------------------- pointers to complex, half and vector types

POINTEE_HEADERS = "#include <cupy/complex.cuh>\n#include <cupy/float16.cuh>\n#include <cuComplex.h>\n#include <cuda_fp16.h>\n"


@pytest.mark.parametrize("ctype, accepted, refused", [
    ("complex<float>", ["complex64"], ["complex128", "float32", "float64", "int64", "float16"]),
    ("complex<double>", ["complex128"], ["complex64", "float64", "float32"]),
    ("thrust::complex<float>", ["complex64"], ["complex128"]),
    ("cuFloatComplex", ["complex64"], ["complex128", "float64"]),
    ("cuComplex", ["complex64"], ["complex128"]),
    ("cuDoubleComplex", ["complex128"], ["complex64", "float32"]),
    ("float2", ["complex64", "float32"], ["complex128", "float64", "int32"]),
    ("double2", ["complex128", "float64"], ["complex64", "float32"]),
    ("int4", ["int32", "uint32"], ["float32", "int64"]),
    ("__half", ["float16"], ["float32", "int16", "uint16"]),
    ("half", ["float16"], ["float32"]),
    ("__half2", ["float16"], ["float32", "complex64"]),
    ("float16", ["float16"], ["float32"]),
    # complex data through a pointer to its parts, half data as its bits (CuPy passes the pointer)
    ("float", ["float32", "complex64"], ["complex128", "float64"]),
    ("double", ["float64", "complex128"], ["complex64"]),
    ("unsigned short", ["uint16", "int16", "float16"], ["float32"]),
    ("short", ["int16", "float16"], ["int32"]),
])
def test_pointer_arguments_are_checked_against_class_pointees(device, ctype, accepted, refused):
    """An array passed for a pointer to a complex, half or vector type holds that type's numbers."""
    code = POINTEE_HEADERS + 'extern "C" __global__ void k(const %s* x, char* flag) { flag[0] = 1; }' % ctype
    k = pygpu.RawKernel(code, "k")
    flag = pygpu.zeros(1, np.int8, device=device)
    for dtype in accepted:
        k((1,), (1,), (pygpu.zeros(4, dtype, device=device), flag))
    assert flag.get()[0] == 1
    for dtype in refused:
        with pytest.raises(TypeError, match="argument 1 is a pointer to"):
            k((1,), (1,), (pygpu.zeros(4, dtype, device=device), flag))


def test_interleaved_complex_through_a_real_pointer(device):
    code = 'extern "C" __global__ void k(const float* x, float* o) { int i = threadIdx.x; o[i] = x[2*i] + x[2*i+1]; }'
    o = pygpu.zeros(2, np.float32, device=device)
    pygpu.RawKernel(code, "k")((1,), (2,), (pygpu.asarray(np.array([1 + 2j, 3 + 4j], np.complex64), device=device), o))
    assert_array_equal(o, np.array([3, 7], np.float32))
    code = 'extern "C" __global__ void k(const unsigned short* x, unsigned int* o) { o[threadIdx.x] = x[threadIdx.x]; }'
    h = np.array([1.0, -2.0], np.float16)
    o = pygpu.zeros(2, np.uint32, device=device)
    pygpu.RawKernel(code, "k")((1,), (2,), (pygpu.asarray(h, device=device), o))
    assert_array_equal(o, h.view(np.uint16).astype(np.uint32))


@pytest.mark.parametrize("a, h", [(np.complex128(1 + 2j), 1.5), (np.complex64(1 + 2j), np.float32(1.5)),
                                  (1 + 2j, np.float16(1.5)), (1, 1.5), (np.float64(1), np.float64(1.5))])
def test_complex_and_half_values_are_converted(device, a, h):
    """Scalars are converted to a complex<float> or __half parameter's type, as to a float one."""
    code = POINTEE_HEADERS + 'extern "C" __global__ void k(complex<float> a, __half h, complex<double> b, float* o) ' \
                             '{ o[0] = a.real(); o[1] = a.imag(); o[2] = __half2float(h); o[3] = (float)b.imag(); }'
    o = pygpu.zeros(4, np.float32, device=device)
    pygpu.RawKernel(code, "k")((1,), (1,), (a, h, a, o))
    assert_array_equal(o, np.array([complex(a).real, complex(a).imag, 1.5, complex(a).imag], np.float32))
    with pytest.raises(TypeError, match="argument 2"):
        pygpu.RawKernel(code, "k")((1,), (1,), (a, 1 + 1j, a, o))


# ---------------------------------------------------------------- the rest of CUDA's math API

MATH_API = r'''
extern "C" __global__ void k(const double* x, double* o, float* of, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    double v = x[i];
    float f = (float)v;
    double* r = o + 8 * i;
    r[0] = erfinv(v); r[1] = erfcinv(v); r[2] = erfcx(v); r[3] = normcdfinv(v);
    r[4] = cyl_bessel_i0(v); r[5] = cyl_bessel_i1(v); r[6] = norm3d(v, 2 * v, 2.0); r[7] = rhypot(v, 1.0);
    float* s = of + 8 * i;
    s[0] = erfinvf(f); s[1] = erfcinvf(f); s[2] = erfcxf(f); s[3] = normcdfinvf(f);
    s[4] = cyl_bessel_i0f(f); s[5] = cyl_bessel_i1f(f); s[6] = norm3df(f, 2 * f, 2.0f); s[7] = rhypotf(f, 1.0f);
}'''


def test_math_api_inverse_error_functions_and_bessel(device):
    """erfinv, erfcinv, erfcx, normcdfinv, cyl_bessel_i0/i1, norm3d, rhypot against SciPy, from 0
    to the tails (erfcinv(1e-300)) and the special values (CUDA's, where SciPy's differ)."""
    sp = pytest.importorskip("scipy.special")
    xs = np.concatenate([np.linspace(-1, 2, 301), [1e-300, 1e-100, 1e-20, 1e-10, -1e-20, 1 - 1e-15, 2 - 1e-12,
                                                  1.999, 3, 10, 24.9, 25.1, 29.9, 30.1, 50, 100, 700, -5, -26,
                                                  -27, np.inf, -np.inf, np.nan]])
    n = len(xs)
    o = pygpu.zeros(n * 8, np.float64, device=device)
    of = pygpu.zeros(n * 8, np.float32, device=device)
    pygpu.RawKernel(MATH_API, "k")(((n + 63) // 64,), (64,), (pygpu.asarray(xs, device=device), o, of, n))
    # SciPy's i0 and i1 are NaN at +-inf; CUDA documents +inf for I0(+-inf), +-inf for I1(+-inf)
    refs = [sp.erfinv, sp.erfcinv, sp.erfcx, sp.ndtri, lambda v: np.where(np.isinf(v), np.inf, sp.i0(v)),
            lambda v: np.where(np.isinf(v), v, sp.i1(v)),
            lambda v: np.sqrt(v * v + 4 * v * v + 4.0), lambda v: 1 / np.hypot(v, 1.0)]
    with np.errstate(all="ignore"):
        for j, ref in enumerate(refs):
            np.testing.assert_allclose(o.get().reshape(n, 8)[:, j], ref(xs), rtol=2e-15, atol=0, err_msg=str(j))
            xf = xs.astype(np.float32)
            np.testing.assert_allclose(of.get().reshape(n, 8)[:, j], ref(xf.astype(np.float64)).astype(np.float32),
                                       rtol=2.5e-7, atol=0, err_msg="%d (float)" % j)


def test_math_api_float_overloads_and_integer_helpers(device):
    # cupyx's gausspulse calls sincos with T = float; CUDA's C++ has these overloads
    code = r'''extern "C" __global__ void k(float* o, long long* l, unsigned long long* u) {
    float s, c; sincos(0.5f, &s, &c); o[0] = s; o[1] = c;
    sincospi(0.25f, &s, &c); o[2] = s; o[3] = c;
    o[4] = normcdf(0.0f) + (float)normcdf(0.0); o[5] = fdividef(1.0f, 4.0f); o[6] = norm4d(1.0f, 1.0f, 1.0f, 1.0f);
    o[7] = rnorm3d(0.0f, 3.0f, 4.0f) + rnorm4df(0.f, 0.f, 3.f, 4.f) + rhypot(3, 4);
    l[0] = llmax(-3LL, 2LL); l[1] = llmin(-3LL, 2LL); u[0] = umax(3u, 7u); u[1] = umin(3u, 7u);
    u[2] = ullmax(1ULL << 40, 5ULL); u[3] = ullmin(1ULL << 40, 5ULL);
    __builtin_assume(threadIdx.x > 0);   // a hint only: thread 0 does not satisfy it (CuPy's upfirdn)
}'''
    o = pygpu.zeros(8, np.float32, device=device)
    ll = pygpu.zeros(2, np.int64, device=device)
    u = pygpu.zeros(4, np.uint64, device=device)
    pygpu.RawKernel(code, "k")((1,), (1,), (o, ll, u))
    np.testing.assert_allclose(o.get(), [np.sin(.5), np.cos(.5), np.sqrt(.5), np.sqrt(.5), 1, .25, 2, .6], rtol=1e-6)
    assert ll.get().tolist() == [2, -3] and u.get().tolist() == [7, 3, 1 << 40, 5]


# CUDA declares its math functions for float and for double (and min/max for the integer types):
# an integer argument, or float and double mixed, is ambiguous to NVRTC; the CPU refuses the same
# source (the C++ library's templates for integer arguments are not CUDA's)
AMBIGUOUS_IN_CUDA = ["normcdf(0)", "sin(1)", "sqrt(2u)", "isnan(1)", "erfinv(1LL)", "cyl_bessel_i0(1)", "j0(1)",
                     "rsqrt(4)", "sinpi(1)", "exp10(1)", "pow(2, 3)", "pow(1.0f, 2.0)", "fmax(1.0f, 2.0)",
                     "hypot(1, 2)", "fma(1, 2, 3)", "ldexp(1, 2)", "min(1.0f, 2)", "max(1LL, 2)", "copysign(1.0f, 2)"]


@pytest.mark.parametrize("expr", AMBIGUOUS_IN_CUDA)
def test_math_calls_cuda_finds_ambiguous_do_not_compile(device, expr):
    code = 'extern "C" __global__ void k(double* o) { o[0] = (double)(%s); }' % expr
    o = pygpu.zeros(1, np.float64, device=device)
    with pytest.raises(pygpu.CompileError):
        pygpu.RawKernel(code, "k")((1,), (1,), (o,))


# the result's type as CUDA's overloads give it (a float overload for a float argument, with an
# integer too; rhypot and norm3d are double only)
RESULT_TYPES = [("sinpi(1.0f)", 4), ("rsqrt(1.0f)", 4), ("exp10(1.0f)", 4), ("j0(1.0f)", 4), ("yn(1, 2.0f)", 4),
                ("erfinv(0.5f)", 4), ("erfinv(0.5)", 8), ("pow(2.0f, 3)", 4), ("hypot(1.0f, 2)", 4),
                ("fmax(1, 2.0f)", 4), ("rhypot(1.0f, 2.0f)", 8), ("norm3d(1.0f, 2.0f, 3.0f)", 8),
                ("rhypot(3, 4)", 8), ("min(1u, 2)", 4), ("min(1.0f, 2.0)", 8), ("pow(2.0, 3)", 8)]


@pytest.mark.parametrize("expr, size", RESULT_TYPES)
def test_math_call_result_types_are_cudas(device, expr, size):
    code = 'extern "C" __global__ void k(double* o) { static_assert(sizeof(%s) == %d, "type"); o[0] = (double)(%s); }' % (
        expr, size, expr)
    o = pygpu.zeros(1, np.float64, device=device)
    pygpu.RawKernel(code, "k")((1,), (1,), (o,))
