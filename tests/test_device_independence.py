"""Results that must not depend on the device: the GPU's conversion instructions saturate where C
and NumPy wrap, nvcc fuses a*b+c into one rounding where the C build rounds twice, and the
GPU's half-precision conversion canonicalises NaNs. pygpu defines each case once in the kernel
headers, so these tests on the CPU prove what the GPU computes, and on cuda:0 they check it."""
import math

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

INT_BITS = {"i1": 8, "i2": 16, "i4": 32, "i8": 64, "u1": 8, "u2": 16, "u4": 32, "u8": 64}


def trunc_to(x, lo, hi, minimum):
    """x truncated toward zero when lo <= x < hi, else `minimum` (NaN included): x86's cvtt*."""
    return int(x) if (not math.isnan(x) and lo <= x < hi) else minimum


def reference_cast(x, dt):
    """pygpu's float -> integer rule (kernels/convert.h), in Python: a 32-bit intermediate for
    targets of up to 32 bits (a 64-bit one for uint32), the 64-bit split at 2^63 for uint64,
    then two's complement narrowing."""
    bits, signed = INT_BITS[dt], dt[0] == "i"
    if dt == "u8":
        v = trunc_to(x - 2.0**63, -2.0**63, 2.0**63, -2**63) ^ -2**63 if x >= 2.0**63 else \
            trunc_to(x, -2.0**63, 2.0**63, -2**63)
    elif bits <= 32 and dt != "u4":
        v = trunc_to(x, -2147483649.0, 2147483648.0, -2**31)   # (-2^31 - 1, 2^31): truncates into int32
    else:
        v = trunc_to(x, -2.0**63, 2.0**63, -2**63)
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


VALUES = [-8.0, -1.5, -0.0, 0.75, 300.7, -300.7, 70000.0, 3e9, -3e9, 2.0**32 + 5, 5e18, 1.5e19, 1e20, -1e20,
          2.0**63, -2.0**63, 2.0**64, math.inf, -math.inf, math.nan]


@pytest.mark.parametrize("src", ["f2", "f4", "f8", "c8", "c16"])
@pytest.mark.parametrize("dst", list(INT_BITS))
def test_float_to_integer_casts_are_defined(device, src, dst):
    with np.errstate(all="ignore"):
        x = np.array(VALUES, dtype=np.float64).astype(src)
    real = x.real.astype(np.float64)
    expected = np.array([reference_cast(v, dst) for v in real], dtype=dst)
    got = pygpu.asarray(x, device=device).astype(dst)
    assert_array_equal(got, expected)
    # and where NumPy's result is defined (in range, or a negative value wrapping into an unsigned
    # type), it is NumPy's
    in_range = np.isfinite(real) & (np.abs(real) < 2.0**31)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got.get()[in_range], x.real[in_range].astype(dst))


def test_mixed_loads_convert_like_astype(device):
    """An int8 output from a float64 loop goes through the same rule (the strided store)."""
    x = np.array([-8.0, 300.7, math.nan, 1e20])
    out = pygpu.empty(4, dtype=np.uint8, device=device)
    pygpu.add(pygpu.asarray(x, device=device), 0.0, out=out, casting="unsafe")
    assert_array_equal(out, np.array([reference_cast(v, "u1") for v in x], dtype=np.uint8))


def test_no_contraction_in_linspace(device):
    # (i / div) * step + start contracted into an fma gave floor(-1e-17) = -1 on the GPU
    got = pygpu.linspace(-1, 1, 7, dtype=int, device=device)
    assert_array_equal(got, np.linspace(-1, 1, 7, dtype=int))
    assert got[3].item() == 0


@pytest.mark.parametrize("dt", ["F", "D"])
def test_no_contraction_in_complex_multiply(device, dt):
    z = np.random.default_rng(3).standard_normal(1000).astype(np.float64) * (1 + 0.3j)
    z = (z + 1j * np.random.default_rng(4).standard_normal(1000)).astype(dt)
    pz = pygpu.asarray(z, device=device)
    got = (pz * pygpu.conjugate(pz)).get()
    assert np.all(got.imag == 0)               # re*(-im) + im*re is exactly 0 unfused
    # NumPy's own complex64 loop uses FMA instructions on this machine (non-zero imaginary parts)
    np.testing.assert_allclose(got, z * np.conjugate(z), rtol=4 * np.finfo(dt).eps)


def test_float16_nan_sign_and_payload(device):
    bits32 = np.array([0x7fc00000, 0xffc00000, 0x7fd00000, 0xffe02000, 0x7f800000, 0x3f800000], dtype=np.uint32)
    f32 = bits32.view(np.float32)
    got = pygpu.asarray(f32, device=device).astype(np.float16).get().view(np.uint16)
    np.testing.assert_array_equal(got, f32.astype(np.float16).view(np.uint16))
    bits16 = np.array([0x7e00, 0xfe00, 0x7e55, 0xfd01, 0x7c00, 0x3c00], dtype=np.uint16)
    f16 = bits16.view(np.float16)
    back = pygpu.asarray(f16, device=device).astype(np.float32).get().view(np.uint32)
    np.testing.assert_array_equal(back, f16.astype(np.float32).view(np.uint32))
    # a float16 copy keeps every NaN's bits, signaling ones too (NumPy's copy is a memcpy)
    copied = pygpu.asarray(f16, device=device).copy().get().view(np.uint16)
    np.testing.assert_array_equal(copied, bits16)
