"""The headers pygpu gives users' CUDA C (_jit/headers.py): CuPy's <cupy/complex.cuh> and
<cupy/float16.cuh> on both backends, CUDA's <cuComplex.h> and <cuda_fp16.h> on the CPU; and
ElementwiseKernel / ReductionKernel with complex and float16 parameters, which use them. Values
are NumPy's (the complex functions are the ufuncs' own); NVRTC's compile of the same sources is
checked against the fake driver."""
import numpy as np
import pytest

import pygpu

from conftest import run_mock

RNG = np.random.default_rng(7)
Z = RNG.standard_normal(300) + 1j * RNG.standard_normal(300)
# |z| = 1 (log's hard case), tiny, real, negative real with -0 imaginary, huge
Z[:6] = [0.6 + 0.8j, 1e-10 + 1e-12j, 1 + 0j, -2 - 0j, 1e200 + 1e200j, -0.5 + 1e-30j]

COMPLEX_SRC = r'''
#include <cupy/complex.cuh>
extern "C" __global__ void f(const CT* x, CT* out, int n, int which) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    CT z = x[i], r;
    switch (which) {
    case 0: r = exp(z); break;          case 1: r = log(z); break;
    case 2: r = sqrt(z); break;         case 3: r = sin(z); break;
    case 4: r = cos(z); break;          case 5: r = tan(z); break;
    case 6: r = sinh(z); break;         case 7: r = cosh(z); break;
    case 8: r = tanh(z); break;         case 9: r = asin(z); break;
    case 10: r = acos(z); break;        case 11: r = atan(z); break;
    case 12: r = asinh(z); break;       case 13: r = acosh(z); break;
    case 14: r = atanh(z); break;       case 15: r = log10(z); break;
    case 16: r = pow(z, CT(0.5, 1)); break;
    case 17: r = z / (z + CT(1, 2)); break;
    case 18: r = CT(abs(z), arg(z)); break;
    case 19: r = conj(z) * 2 + 1.5 - z; break;
    case 20: r = CT(norm(z), real(z) + imag(z)); break;
    case 21: r = thrust::pow(z, 2.0); break;
    case 22: { CT t = z; t *= z; t /= CT(3, 4); t += 1; t -= z; r = t; } break;
    case 23: r = 1.0 / z; break;
    case 24: r = CT(isnan(z), isfinite(z * 1e300)); break;
    }
    out[i] = r;
}
'''
def _cx(re, im):
    """The complex numbers of these parts (re + 1j * im would turn an infinite part's 0 * inf into NaN)."""
    out = np.empty(np.shape(re), np.complex128)
    out.real, out.imag = re, im
    return out


CASES = [np.exp, np.log, np.sqrt, np.sin, np.cos, np.tan, np.sinh, np.cosh, np.tanh, np.arcsin, np.arccos, np.arctan,
         np.arcsinh, np.arccosh, np.arctanh, np.log10,
         lambda z: z ** z.dtype.type(0.5 + 1j),
         lambda z: z / (z + z.dtype.type(1 + 2j)),
         lambda z: _cx(np.abs(z), np.angle(z)),
         lambda z: np.conj(z) * 2 + 1.5 - z,
         lambda z: _cx(np.abs(z) ** 2, z.real + z.imag),
         lambda z: np.power(z, np.full_like(z, 2)),   # power's loop (z ** 2 is NumPy's square)
         lambda z: z * z / z.dtype.type(3 + 4j) + 1 - z,
         lambda z: 1 / z,
         lambda z: _cx(np.isnan(z), np.isfinite(z * 1e300))]


@pytest.mark.parametrize("dtype, ctype", [(np.complex64, "complex<float>"), (np.complex128, "complex<double>")])
def test_cupy_complex_header_computes_numpys_functions(dtype, ctype):
    k = pygpu.RawKernel(COMPLEX_SRC.replace("CT", ctype), "f")
    with np.errstate(over="ignore"):
        z = Z.astype(dtype)
    x = pygpu.asarray(z)
    rtol = 2e-5 if dtype == np.complex64 else 1e-13
    for which, expected in enumerate(CASES):
        out = pygpu.zeros(z.size, dtype=dtype)
        k((2,), (256,), (x, out, np.int32(z.size), np.int32(which)))
        with np.errstate(all="ignore"):
            want = np.asarray(expected(z)).astype(dtype)
        got = pygpu.asnumpy(out)
        # the ufuncs' own functions: NumPy's answers to rounding, NaNs where NumPy's are
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg="case %d" % which)


def test_complex_float_and_double_convert_and_scalars_of_other_types_mix():
    src = r'''
#include <cupy/complex.cuh>
extern "C" __global__ void g(const complex<float>* x, complex<double>* out) {
    complex<double> d = x[0];                    // widened, as thrust's
    complex<float> f = complex<float>(d * 2);    // narrowed explicitly
    out[0] = d + 1;                              // an int with a complex<double>
    out[1] = complex<double>(f * 0.5);           // a double with a complex<float>
    out[2] = proj(complex<double>(INFINITY, -3));  // every infinity is (inf, +-0)
    out[3] = complex<double>(polar(2.0f, 0.5f));
}
'''
    out = pygpu.zeros(4, dtype=np.complex128)
    pygpu.RawKernel(src, "g")((1,), (1,), (pygpu.asarray(np.array([1.5 - 2j], np.complex64)), out))
    got = pygpu.asnumpy(out)
    assert got[0] == 2.5 - 2j and got[1] == 1.5 - 2j
    assert got[2].real == np.inf and got[2].imag == 0 and np.signbit(got[2].imag)
    np.testing.assert_allclose(got[3], 2 * np.exp(0.5j), rtol=1e-7)


def test_cucomplex_h_on_the_cpu():
    src = r'''
#include <cuComplex.h>
extern "C" __global__ void f(const cuFloatComplex* a, const cuDoubleComplex* b, cuFloatComplex* o1,
                             cuDoubleComplex* o2, float* o3, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuFloatComplex x = a[i];
    o1[i] = cuCaddf(cuCmulf(x, make_cuFloatComplex(2, 1)), cuCdivf(x, cuConjf(x)));
    o2[i] = cuCfma(b[i], b[i], cuComplexFloatToDouble(x));
    o3[i] = cuCabsf(x) + cuCrealf(x) * cuCimagf(x);
}
'''
    a = Z[:50].astype(np.complex64)
    b = Z[50:100]
    o1, o2, o3 = pygpu.zeros(50, np.complex64), pygpu.zeros(50, np.complex128), pygpu.zeros(50, np.float32)
    pygpu.RawKernel(src, "f")((1,), (64,), (pygpu.asarray(a), pygpu.asarray(b), o1, o2, o3, np.int32(50)))
    np.testing.assert_allclose(pygpu.asnumpy(o1), a * (2 + 1j) + a / np.conj(a), rtol=2e-5)
    np.testing.assert_allclose(pygpu.asnumpy(o2), b * b + a.astype(np.complex128), rtol=1e-13)
    np.testing.assert_allclose(pygpu.asnumpy(o3), np.abs(a) + a.real * a.imag, rtol=2e-5, atol=1e-6)


def test_cuda_fp16_h_on_the_cpu_rounds_as_the_gpu():
    src = r'''
#include <cuda_fp16.h>
extern "C" __global__ void h(const __half* x, const __half* y, __half* o, float* f, half2* o2, short* o3, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = x[i], b = y[i];
    o[i] = __hadd(__hmul(a, b), __float2half(1.0f)) + a * b - hsqrt(__habs(a));
    f[i] = __half2float(a) + (float)(a < b) + __low2float(__floats2half2_rn(1.5f, 2.5f)) + (float)__hisnan(a / b);
    half2 v = __halves2half2(a, b);
    o2[i] = __hmul2(v, v) + __float2half2_rn(0.5f);
    o3[i] = __half2short_rz(__hmul(a, __float2half(100.0f)));
}
'''
    x = RNG.standard_normal(60).astype(np.float16)
    y = RNG.standard_normal(60).astype(np.float16)
    y[:3] = 0
    x[0] = 0
    o, f = pygpu.zeros(60, np.float16), pygpu.zeros(60, np.float32)
    o2, o3 = pygpu.zeros(120, np.float16), pygpu.zeros(60, np.int16)
    pygpu.RawKernel(src, "h")((1,), (64,), (pygpu.asarray(x), pygpu.asarray(y), o, f, o2, o3, np.int32(60)))
    h = np.float16
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(pygpu.asnumpy(o), ((x * y + h(1)) + x * y) - np.sqrt(np.abs(x)))
        np.testing.assert_array_equal(pygpu.asnumpy(f), x.astype(np.float32) + (x < y) + 1.5 + np.isnan(x / y))
        pairs = np.empty(120, np.float16)
        pairs[0::2], pairs[1::2] = x * x + h(0.5), y * y + h(0.5)
        np.testing.assert_array_equal(pygpu.asnumpy(o2), pairs)
        np.testing.assert_array_equal(pygpu.asnumpy(o3), np.trunc(x * h(100)).astype(np.int16))


def test_cuda_fp16_h_half2_math_comparisons_saturation_and_atomics_on_the_cpu():
    """The rest of cuda_fp16.h: half2 math (h2sqrt ...), comparisons as half2 and masks, __hisnan2,
    _sat/_relu/_nan forms, __low2half2, integers to half with each rounding, atomicAdd."""
    src = r"""
#include <cuda_fp16.h>
extern "C" __global__ void h(const __half2* a, const __half2* b, __half2* o, unsigned int* m, __half* s, int n,
                             const int* iv, __half* r, __half* acc, __half2* acc2) {
    int i = threadIdx.x;
    atomicAdd(&acc[i % 3], __float2half(0.25f));
    atomicAdd(acc2, __floats2half2_rn(0.5f, 1.0f));
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    o[8 * i + 0] = h2sqrt(__habs2(x));
    o[8 * i + 1] = h2exp(x) + h2log(__habs2(y));
    o[8 * i + 2] = __hlt2(x, y);
    o[8 * i + 3] = __hgeu2(x, y);
    o[8 * i + 4] = __hisnan2(x / y);
    o[8 * i + 5] = __hfma2_relu(x, y, __low2half2(x));
    o[8 * i + 6] = __hadd2_sat(x, __high2half2(y));
    o[8 * i + 7] = __hmax2_nan(x, y);
    m[i] = __heq2_mask(x, y) ^ __hlt2_mask(x, y);
    s[2 * i] = hexp2(__low2half(x));
    s[2 * i + 1] = __hmin_nan(__low2half(x), __high2half(y));
    r[3 * i] = __int2half_rd(iv[i]);
    r[3 * i + 1] = __int2half_ru(iv[i]);
    r[3 * i + 2] = __ll2half_rz((long long)iv[i]);
}
"""
    n = 40
    a = RNG.standard_normal(2 * n).astype(np.float16)
    b = RNG.standard_normal(2 * n).astype(np.float16)
    b[:4] = a[:4]
    a[4], b[5] = np.nan, np.nan
    b[6:8] = 0
    iv = np.array([2049, -2049, 70000, -70000, 65519, 3, 0, -5] * 5, np.int32)
    o, m = pygpu.zeros(16 * n, np.float16), pygpu.zeros(n, np.uint32)
    s, r = pygpu.zeros(2 * n, np.float16), pygpu.zeros(3 * n, np.float16)
    acc, acc2 = pygpu.zeros(3, np.float16), pygpu.zeros(2, np.float16)
    pygpu.RawKernel(src, "h")((1,), (64,), (pygpu.asarray(a), pygpu.asarray(b), o, m, s, n, pygpu.asarray(iv), r, acc,
                                           acc2))
    h, f = np.float16, np.float32
    x, y = a.reshape(n, 2), b.reshape(n, 2)
    with np.errstate(all="ignore"):
        want = np.empty((n, 8, 2), np.float16)
        want[:, 0] = np.sqrt(np.abs(x).astype(f)).astype(h)
        want[:, 1] = np.exp(x.astype(f)).astype(h) + np.log(np.abs(y).astype(f)).astype(h)
        want[:, 2] = x < y
        want[:, 3] = ~(x < y)
        want[:, 4] = np.isnan(x / y)
        fma = (x.astype(np.float64) * y + x[:, :1]).astype(h)
        want[:, 5] = np.where(np.isnan(fma), np.nan, np.maximum(fma, h(0)))
        want[:, 6] = np.where(np.isnan(x + y[:, 1:]), 0, np.clip(x + y[:, 1:], 0, 1))
        want[:, 7] = np.where(np.isnan(x) | np.isnan(y), np.nan, np.maximum(x, y))
        np.testing.assert_array_equal(o.get().reshape(n, 8, 2), want)
        lanes = ((x == y) ^ (x < y)).astype(np.uint32)
        np.testing.assert_array_equal(m.get(), lanes[:, 0] * 0xffff + lanes[:, 1] * 0xffff0000)
        np.testing.assert_array_equal(s.get()[0::2], np.exp2(x[:, 0].astype(f)).astype(h))
        np.testing.assert_array_equal(s.get()[1::2], np.where(np.isnan(x[:, 0]) | np.isnan(y[:, 1]), np.nan,
                                                              np.minimum(x[:, 0], y[:, 1])))
    # 2049 lies between 2048 and 2050; 70000 is past 65504 (to infinity only when rounding up)
    got = r.get().reshape(n, 3)[:8].astype(np.float64)
    np.testing.assert_array_equal(got, [[2048, 2050, 2048], [-2050, -2048, -2048], [65504, np.inf, 65504],
                                        [-np.inf, -65504, -65504], [65504, np.inf, 65504], [3, 3, 3], [0, 0, 0],
                                        [-5, -5, -5]])
    assert acc.get().tolist() == [22 * 0.25, 21 * 0.25, 21 * 0.25] and acc2.get().tolist() == [32.0, 64.0]


def test_cuda_fp16_h_half2_bool_comparisons_on_the_cpu():
    """__hb<op>2: true when the comparison holds in both lanes; the unordered forms (u) hold where
    either operand is NaN, the ordered ones do not."""
    src = r"""
#include <cuda_fp16.h>
extern "C" __global__ void hb(const __half2* a, const __half2* b, bool* o, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    bool r[12] = {__hbeq2(x, y), __hbne2(x, y), __hblt2(x, y), __hble2(x, y), __hbgt2(x, y), __hbge2(x, y),
                  __hbequ2(x, y), __hbneu2(x, y), __hbltu2(x, y), __hbleu2(x, y), __hbgtu2(x, y), __hbgeu2(x, y)};
    for (int k = 0; k < 12; k++) o[12 * i + k] = r[k];
}
"""
    x = np.array([[1, 2], [1, 2], [1, 2], [3, 1], [np.nan, 1], [1, np.nan], [0, -0.0], [np.nan, np.nan]], np.float16)
    y = np.array([[1, 2], [2, 3], [0, 1], [2, 2], [1, 1], [1, 1], [-0.0, 0], [1, 1]], np.float16)
    n = len(x)
    o = pygpu.zeros(12 * n, np.bool_)
    pygpu.RawKernel(src, "hb")((1,), (32,), (pygpu.asarray(x), pygpu.asarray(y), o, n))
    nan = np.isnan(x) | np.isnan(y)
    with np.errstate(invalid="ignore"):
        ordered = [x == y, x != y, x < y, x <= y, x > y, x >= y]
    want = [(c & ~nan).all(axis=1) for c in ordered] + [(c | nan).all(axis=1) for c in ordered]
    want[1] = ((x != y) & ~nan).all(axis=1)   # __hbne2 is ordered: false where a lane is NaN
    want[7] = (x != y).all(axis=1)            # __hbneu2: NaN lanes compare unequal
    np.testing.assert_array_equal(o.get().reshape(n, 12), np.stack(want, axis=1))


def test_float16_to_half_conversions_round_as_named():
    src = r'''
#include <cuda_fp16.h>
extern "C" __global__ void r(const float* x, __half* o, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    o[4 * i] = __float2half_rn(x[i]);
    o[4 * i + 1] = __float2half_rz(x[i]);
    o[4 * i + 2] = __float2half_rd(x[i]);
    o[4 * i + 3] = __float2half_ru(x[i]);
}
'''
    x = np.array([1 + 2.0 ** -12, -(1 + 2.0 ** -12), 70000.0, -70000.0, 1e-9, -1e-9, 0.0, 3.0], np.float32)
    o = pygpu.zeros(4 * x.size, np.float16)
    pygpu.RawKernel(src, "r")((1,), (8,), (pygpu.asarray(x), o, np.int32(x.size)))
    got = pygpu.asnumpy(o).reshape(-1, 4).astype(np.float64)
    xd = x.astype(np.float64)
    tiny = 2.0 ** -24
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got[:, 0], x.astype(np.float16))
    # toward zero never grows; down never above; up never below; each a float16 neighbour of x
    assert (np.abs(got[:, 1]) <= np.abs(xd)).all()
    assert (got[:, 2] <= xd).all() and (got[:, 3] >= xd).all()
    assert got[2, 1] == 65504 and got[2, 3] == np.inf and got[3, 2] == -np.inf and got[3, 1] == -65504
    assert got[4, 3] == tiny and got[4, 2] == 0 and got[5, 2] == -tiny
    assert (got[[6, 7]] == xd[[6, 7], None]).all()


TRANSLATED_SRC = r'''
#include <cuComplex.h>
extern "C" __global__ void t(const cuComplex* a, const cuDoubleComplex* b, cuComplex* o1, cuDoubleComplex* o2,
                             float* o3, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuComplex x = a[i];
    o1[i] = cuCadd(cuCmulf(x, make_cuComplex(2, 1)), cuCdivf(x, cuConjf(x)));   // cuCadd of cuComplex: CuPy's too
    o2[i] = cuCfma(b[i], b[i], cuComplexFloatToDouble(x));
    o3[i] = cuCabsf(x) + cuCrealf(x) * cuCimagf(x);
}
'''


@pytest.mark.parametrize("how", ["kernel", "module", "no include"])
def test_translate_cucomplex_runs_cucomplex_code_on_thrusts_complex(how):
    src = TRANSLATED_SRC.replace("#include <cuComplex.h>\n", "") if how == "no include" else TRANSLATED_SRC
    k = (pygpu.RawModule(code=src, translate_cucomplex=True).get_function("t") if how == "module"
         else pygpu.RawKernel(src, "t", translate_cucomplex=True))
    a, b = Z[:50].astype(np.complex64), Z[50:100]
    o1, o2, o3 = pygpu.zeros(50, np.complex64), pygpu.zeros(50, np.complex128), pygpu.zeros(50, np.float32)
    k((1,), (64,), (pygpu.asarray(a), pygpu.asarray(b), o1, o2, o3, np.int32(50)))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(pygpu.asnumpy(o1), a * (2 + 1j) + a / np.conj(a), rtol=2e-5)
        np.testing.assert_allclose(pygpu.asnumpy(o2), b * b + a.astype(np.complex128), rtol=1e-13)
        np.testing.assert_allclose(pygpu.asnumpy(o3), np.abs(a) + a.real * a.imag, rtol=2e-5, atol=1e-6)


# ---------------------------------------------------------------- ElementwiseKernel / ReductionKernel

A = RNG.standard_normal((5, 7)) + 1j * RNG.standard_normal((5, 7))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_elementwise_kernel_complex_placeholders_and_scalars(dtype):
    k = pygpu.ElementwiseKernel("T x, T y, float64 s, T c", "T z", "z = x * y + s * exp(x) - c", "cx")
    x, y = A.astype(dtype), (A[::-1] * 2).astype(dtype)
    got = k(pygpu.asarray(x), pygpu.asarray(y), 0.5, dtype(1 - 2j))
    assert got.dtype == dtype
    np.testing.assert_allclose(pygpu.asnumpy(got), x * y + 0.5 * np.exp(x) - dtype(1 - 2j),
                               rtol=2e-5 if dtype == np.complex64 else 1e-13)


def test_elementwise_kernel_complex_conversions():
    # a Python complex binds complex128; real arrays load into complex parameters
    k = pygpu.ElementwiseKernel("complex128 x, complex128 c", "complex128 z", "z = x * c", "cmul")
    np.testing.assert_allclose(pygpu.asnumpy(k(pygpu.arange(4.0), 2 - 1j)), np.arange(4.0) * (2 - 1j))
    mk = pygpu.ElementwiseKernel("float32 x", "complex64 z", "z = complex<float>(x, -x)", "mk")
    assert pygpu.asnumpy(mk(pygpu.arange(3, dtype=np.float32))).tolist() == [0j, 1 - 1j, 2 - 2j]
    # a complex array is not loaded into a real parameter (same_kind), as CuPy refuses it
    with pytest.raises(TypeError, match="mismatched"):
        pygpu.ElementwiseKernel("float64 x", "float64 z", "z = x", "re")(pygpu.asarray(A))


def test_elementwise_kernel_float16_rounds_when_stored():
    h, h2 = RNG.standard_normal(200).astype(np.float16), RNG.standard_normal(200).astype(np.float16)
    # arithmetic in float, rounded once when stored (CuPy's float16)
    k = pygpu.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "fma16")
    got = k(pygpu.asarray(h), pygpu.asarray(h2))
    assert got.dtype == np.float16
    want = (h.astype(np.float32) * h2.astype(np.float32) + 1).astype(np.float16)
    np.testing.assert_array_equal(pygpu.asnumpy(got), want)
    widen = pygpu.ElementwiseKernel("float16 x", "float32 z", "z = x", "widen")
    np.testing.assert_array_equal(pygpu.asnumpy(widen(pygpu.asarray(h))), h.astype(np.float32))
    # doubles round straight to float16 (through float they could round twice)
    d = np.array([1 + 2.0 ** -11 + 2.0 ** -40, 65519.99, 65520.0, 1e-8, -0.0, np.nan, np.inf, 2049.0000001])
    narrow = pygpu.ElementwiseKernel("float64 x", "float16 z", "z = x", "narrow")
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(pygpu.asnumpy(narrow(pygpu.asarray(d))), d.astype(np.float16))
    np.testing.assert_array_equal(pygpu.asnumpy(pygpu.ElementwiseKernel("float16 x", "float16 z", "z = max(x, (float16)0.5)",
                                                                        "mx")(pygpu.asarray(h))), np.fmax(h, np.float16(0.5)))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_reduction_kernel_complex(dtype):
    x = A.astype(dtype)
    total = pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "csum")
    got = total(pygpu.asarray(x), axis=1)
    assert got.dtype == dtype
    np.testing.assert_allclose(pygpu.asnumpy(got), x.sum(axis=1), rtol=2e-5)
    # no identity: the largest by magnitude, per column
    biggest = pygpu.ReductionKernel("T x", "T y", "x", "abs(a) > abs(b) ? a : b", "y = a", None, "cbig")
    np.testing.assert_array_equal(pygpu.asnumpy(biggest(pygpu.asarray(x), axis=0)),
                                  x[np.abs(x).argmax(axis=0), np.arange(7)])
    norm1 = pygpu.ReductionKernel("T x", "float64 y", "abs(x)", "a + b", "y = a", "0", "cnorm1")
    np.testing.assert_allclose(float(norm1(pygpu.asarray(x))), np.abs(x).sum(), rtol=1e-6)


def test_reduction_kernel_float16_through_a_float_accumulator():
    h = RNG.standard_normal(1000).astype(np.float16)
    k = pygpu.ReductionKernel("float16 x", "float16 y", "x", "a + b", "y = a", "0", "hsum", reduce_type="float32")
    assert float(k(pygpu.asarray(h))) == float(np.float16(h.astype(np.float32).sum(dtype=np.float32)))


# ---------------------------------------------------------------- NVRTC (the fake driver)

CUPY_HEADERS_SRC = r"""
#include <cupy/carray.cuh>
#include <cupy/math_constants.h>
#include <cupy/atomics.cuh>
#include <thrust/complex.h>
extern "C" __global__ void acc(const complex<double>* z, complex<double>* zs, const float16* h, float16* hs,
                               const thrust::complex<float>* c, complex<float>* cs, double* pi, int n) {
    CUPY_FOR(i, n) {
        atomicAdd(zs, z[i]);
        atomicAdd(&hs[i % 2], h[i]);
        atomicAdd(cs, c[i]);
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) { pi[0] = CUDART_PI; pi[1] = M_PI; pi[2] = CUDART_SQRT_2PI_F; }
}
"""


def test_cupy_carray_math_constants_atomics_and_thrust_complex_headers():
    """CuPy's other headers, included out of habit: carray.cuh (its types, constants, CUPY_FOR),
    math_constants.h, atomics.cuh (atomicAdd on complex and float16) and thrust/complex.h."""
    n = 64
    z = Z[6:6 + n]
    h = np.ones(n, np.float16) * np.float16(0.5)
    c = z.astype(np.complex64)
    zs = pygpu.zeros(1, np.complex128)
    hs = pygpu.zeros(2, np.float16)
    cs = pygpu.zeros(1, np.complex64)
    pi = pygpu.zeros(3, np.float64)
    pygpu.RawKernel(CUPY_HEADERS_SRC, "acc")((4,), (8,), (pygpu.asarray(z), zs, pygpu.asarray(h), hs,
                                                         pygpu.asarray(c), cs, pi, n))
    np.testing.assert_allclose(zs.get()[0], z.sum(), rtol=1e-12)
    assert hs.get().tolist() == [16.0, 16.0]   # 32 halves of 0.5 each, exact in any order
    np.testing.assert_allclose(cs.get()[0], c.astype(np.complex128).sum(), rtol=1e-5)
    np.testing.assert_allclose(pi.get(), [np.pi, np.pi, np.float32(np.sqrt(2 * np.pi))], rtol=1e-7)


def test_cpu_uses_its_own_cuda_headers_before_a_toolkit_include_folder(tmp_path):
    """-I<cuda>/include (a common CuPy option) must not bring the toolkit's cuda_fp16.h,
    cuda_runtime.h or vector_types.h, which clash with the CPU's vector types; the user's own
    headers in that folder are still found, and CuPy's names stay the user's to override."""
    toolkit = tmp_path / "include"
    (toolkit / "cupy").mkdir(parents=True)
    for name in ("cuda_fp16.h", "cuComplex.h", "cuda_runtime.h", "vector_types.h", "device_launch_parameters.h",
                 "math_constants.h"):
        (toolkit / name).write_text("#error the toolkit's %s\n" % name)
    (toolkit / "mine.h").write_text("#define MINE 3.0f\n")
    (toolkit / "cupy" / "float16.cuh").write_text("#define USERS_FLOAT16 1\n")
    src = r"""
#include <cuda_runtime.h>
#include <vector_types.h>
#include <device_launch_parameters.h>
#include <cuda_fp16.h>
#include <cuComplex.h>
#include <math_constants.h>
#include <cupy/float16.cuh>
#include "mine.h"
extern "C" __global__ void k(float2* p, const __half* h) {
    p[threadIdx.x] = make_float2(__half2float(h[threadIdx.x]) + MINE + USERS_FLOAT16, cuCrealf(make_cuFloatComplex(CUDART_ONE_F, 0.f)));
}
"""
    p = pygpu.zeros(4, np.float32, device="cpu")
    k = pygpu.RawKernel(src, "k", options=("-std=c++14", "-I" + str(toolkit)))
    k((1,), (2,), (p, pygpu.asarray(np.array([1, 2], np.float16), device="cpu")))
    np.testing.assert_array_equal(p.get(), [5, 1, 6, 1])


def test_nvrtc_compiles_the_cupy_headers_and_the_kernels_using_them(mock_driver, tmp_path):
    from test_raw_kernels_cuda_mock import needs_kernels, needs_nvrtc  # noqa: F401 - their skips
    if needs_nvrtc.args[0] or needs_kernels.args[0]:
        pytest.skip(needs_nvrtc.kwargs.get("reason") or needs_kernels.kwargs.get("reason"))
    code = "SRC = %r\nCUPY_HEADERS_SRC = %r\nTRANSLATED_SRC = %r\n" % (
        COMPLEX_SRC.replace("CT", "complex<double>"), CUPY_HEADERS_SRC, TRANSLATED_SRC) + """
import json, numpy as np, pygpu
res = {}
x = pygpu.zeros(4, dtype=np.complex128)
k = pygpu.RawKernel(SRC, "f")
k((1,), (4,), (x, x, np.int32(4), np.int32(1)))
res["raw"] = k.kernel.params is not None
h = pygpu.RawKernel('#include <cupy/float16.cuh>\\nextern "C" __global__ void g(float16* x) '
                    '{ x[0] = max(x[0], float16(1.5)) * 2.0f + nextafter(x[1], x[2]); x[1] += 1; }', "g")
h((1,), (1,), (pygpu.zeros(3, dtype=np.float16),))
ek = pygpu.ElementwiseKernel("T x, float16 h", "T z", "z = x * (float)h + exp(x)", "ek")
ek(pygpu.zeros(4, dtype=np.complex64), np.float16(2))
rk = pygpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rk")
rk(pygpu.zeros((2, 3), dtype=np.complex128), axis=1)
rk16 = pygpu.ReductionKernel("float16 x", "float16 y", "x", "a + b", "y = a", None, "rk16")
rk16(pygpu.zeros(5, dtype=np.float16))
acc = pygpu.RawKernel(CUPY_HEADERS_SRC, "acc")
acc((1,), (2,), (pygpu.zeros(2, dtype=np.complex128), pygpu.zeros(1, dtype=np.complex128),
                 pygpu.zeros(2, dtype=np.float16), pygpu.zeros(2, dtype=np.float16), pygpu.zeros(2, dtype=np.complex64),
                 pygpu.zeros(1, dtype=np.complex64), pygpu.zeros(3), np.int32(2)))
t = pygpu.RawKernel(TRANSLATED_SRC, "t", translate_cucomplex=True)
t((1,), (2,), (pygpu.zeros(2, dtype=np.complex64), pygpu.zeros(2, dtype=np.complex128), pygpu.zeros(2, dtype=np.complex64),
               pygpu.zeros(2, dtype=np.complex128), pygpu.zeros(2, dtype=np.float32), np.int32(2)))
xr = pygpu.zeros((2, 3, 4), dtype=np.int32).transpose(2, 0, 1)   # raw arguments: CuPy's CArray calls
pygpu.ElementwiseKernel("raw int32 x", "int64 s, int64 st, int64 nd", "s = x.shape()[i]; st = x.strides()[i]; "
                        "nd = x.ndim", "pg_carray_layout")(xr, size=3)
pygpu.ElementwiseKernel("raw T x", "int32 y", "ptrdiff_t idx[] = {i / 6, i / 3 % 2, i % 3}; y = x[idx] + x[0]",
                        "pg_carray_multi_index")(xr, pygpu.empty((4, 2, 3), dtype=np.int32))
res["compiled"] = pygpu._jit.nvrtc.compiles
print(json.dumps(res))
"""
    out = run_mock(mock_driver, code, PYGPU_CACHE_DIR=str(tmp_path), MOCK_CUDA_DELAY_US=0)
    assert out["raw"] and out["compiled"] == 9
