"""CuPy code as CuPy's users write it, with `import pygpu as cp`: the patterns of CuPy's own guide
and examples (black_scholes's preamble of T, a reduction identity of CUDART_INF_F, sgemm's
args= launch, a struct passed as a one-element NumPy array) and its host names (Stream.null,
stream.use(), get_current_stream, cuda.Device/Event/get_elapsed_time, get_array_module,
get_default_memory_pool, ndarray.set). A hunt of 55 programs from CuPy's examples and public
code found these refused (no wrong answers); each is checked here against NumPy."""
import numpy as np
import pytest

import pygpu as cp


def test_elementwise_preamble_sees_the_placeholder_types():
    # CuPy declares the placeholders' typedefs before the preamble (its black_scholes example)
    k = cp.ElementwiseKernel("T x", "T y", "y = twice(x) + 1", "twice_plus_one",
                             preamble="__device__ inline T twice(T v) { return v + v; }")
    for dt in (np.float32, np.int64):
        x = np.arange(7, dtype=dt)
        np.testing.assert_array_equal(k(cp.asarray(x)).get(), 2 * x + 1)


def test_cuda_math_constants_in_user_kernels():
    # CuPy's kernels see CUDA's math_constants.h (a min reduction's identity is CUDART_INF_F)
    vmin = cp.ReductionKernel("T x", "T y", "x", "min(a, b)", "y = a", "CUDART_INF_F", "vmin")
    x = np.array([[3.0, -1.5, 2.0], [np.inf, 7.0, 0.25]], np.float32)
    np.testing.assert_array_equal(vmin(cp.asarray(x), axis=1).get(), x.min(axis=1))
    k = cp.ElementwiseKernel("T x", "T y", "y = x < 0 ? CUDART_NAN : x * CUDART_PI", "pi_times")
    np.testing.assert_array_equal(k(cp.asarray(np.array([1.0, -1.0]))).get(), [np.pi, np.nan])


def test_reduction_kernel_outputs_by_position():
    # CuPy's ReductionKernel takes the outputs after the inputs as well as by out=
    sq_sum = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sqsum")
    a = np.arange(12.0).reshape(3, 4)
    out = cp.zeros(3)
    assert sq_sum(cp.asarray(a), out, axis=1) is out
    np.testing.assert_array_equal(out.get(), (a * a).sum(axis=1))


ADD3 = r'''
extern "C" __global__ void add3(const double3 *lhs, double3 rhs, double scale, double3 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i].x = (lhs[i].x + rhs.x) * scale;
        out[i].y = (lhs[i].y + rhs.y) * scale;
        out[i].z = (lhs[i].z + rhs.z) * scale;
    }
}
'''


def test_raw_kernel_launch_by_keywords_and_values_from_one_element_arrays():
    double3 = np.dtype({"names": ["x", "y", "z"], "formats": [np.float64] * 3})
    k = cp.RawKernel(ADD3, "add3")
    n = 33
    lhs = np.random.default_rng(0).random((n, 3))
    rhs = np.array([(1.0, 2.0, 3.0)], dtype=double3)       # a struct by value, as a 1-element array
    out = cp.zeros((n, 3))
    k((2,), (32,), args=(cp.asarray(lhs), rhs, np.array([0.5]), out, np.int32(n)), shared_mem=0)
    np.testing.assert_allclose(out.get(), (lhs + [1.0, 2.0, 3.0]) * 0.5)
    with pytest.raises(TypeError, match="twice"):
        k((1,), (32,), (cp.asarray(lhs), rhs, 1.0, out, np.int32(n)), args=())
    with pytest.raises(TypeError, match="kernel"):
        k((1,), (32,))


def test_host_names_of_cupy_cuda():
    x = np.arange(10.0)
    assert cp.get_array_module(cp.asarray(x), 1) is cp and cp.get_array_module(x, 1) is np
    d = cp.empty(10)
    d.set(x)
    np.testing.assert_array_equal(d.get(), x)
    with pytest.raises(TypeError):
        d.set(x.astype(np.float32))
    with pytest.raises(ValueError, match="Shape mismatch"):
        d.set(x[:5])
    with cp.cuda.Device(cp.get_device().id if cp.get_device().kind == "cuda" else "cpu") as dev:
        dev.synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    (cp.asarray(x) * 2).sum()
    end.record()
    end.synchronize()
    assert cp.cuda.get_elapsed_time(start, end) >= 0
    null = cp.cuda.Stream.null
    null.synchronize()
    assert isinstance(cp.cuda.stream(), cp.cuda.Stream)              # Numba's cuda.stream() still
    assert cp.cuda.stream.Stream is cp.cuda.Stream and cp.cuda.stream.Event is cp.cuda.Event
    s = cp.cuda.Stream()
    assert s.use() is s
    try:
        assert cp.cuda.get_current_stream() is s
        with cp.cuda.Stream() as inner:
            assert cp.cuda.get_current_stream() is inner
        assert cp.cuda.get_current_stream() is s
    finally:
        null.use()
    assert cp.cuda.get_current_stream().ptr == 0
    pool = cp.get_default_memory_pool()
    assert pool.used_bytes() >= 0 and pool.total_bytes() >= pool.used_bytes()


def test_ndarray_constructor_makes_an_uninitialised_array():
    # NumPy's and CuPy's ndarray(shape, dtype, order=): new memory on the current device only
    a = cp.ndarray((3, 4), dtype=np.float32)
    assert isinstance(a, cp.ndarray) and a.shape == (3, 4) and a.dtype == np.float32 and a.flags.c_contiguous
    f = cp.ndarray((3, 4), np.int8, order="F")
    assert f.dtype == np.int8 and f.flags.f_contiguous and not f.flags.c_contiguous
    assert cp.ndarray(5).dtype == np.float64 and cp.ndarray(5).device == cp.get_device()
    for existing in ({"buffer": b"\0" * 8}, {"strides": (8,)}, {"offset": 8}, {"memptr": 0}):
        with pytest.raises(TypeError, match="asarray"):
            cp.ndarray((1,), **existing)
    with pytest.raises(TypeError):
        cp.ndarray((2,), "not a dtype")
