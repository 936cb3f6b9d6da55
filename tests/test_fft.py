"""pygpu.fft against numpy.fft: every function, dtype (single precision stays single), shape (batched,
strided, padded and cropped with n/s), norm, out=, and np.fft.* on pygpu arrays staying pygpu.

Every test also runs a third way, "cpu+cufft-plan": the CUDA code path of pygpu.fft (axes moved,
lengths cut and padded, one batched plan or one axis at a time, normalisation after) on CPU arrays,
with a NumPy stand-in for the one cuFFT call (pygpu._core._cufft) that checks the layouts it is
given as the C binding does and overwrites complex-to-real inputs as cuFFT may."""
import re
import warnings

import numpy as np
import pytest

import pygpu
from conftest import DEVICES
from pygpu import fft as pfft


def emulated_cufft(x, out, rank, inverse):
    """pygpu._core._cufft with numpy.fft: the unnormalised transform of x's last `rank` axes."""
    xa, oa = np.asarray(x), np.asarray(out)
    assert xa.flags.c_contiguous and oa.flags.c_contiguous and oa.flags.writeable
    assert 1 <= rank <= 3 and xa.ndim == oa.ndim and xa.shape[:-rank] == oa.shape[:-rank]
    assert (xa.dtype in (np.float32, np.complex64)) == (oa.dtype in (np.float32, np.complex64))
    axes = tuple(range(xa.ndim - rank, xa.ndim))
    if xa.dtype.kind == "c" and oa.dtype.kind == "c":
        assert xa.shape == oa.shape
        result = np.fft.ifftn(xa, axes=axes, norm="forward") if inverse else np.fft.fftn(xa, axes=axes)
    elif xa.dtype.kind == "f":
        assert oa.shape == xa.shape[:-1] + (xa.shape[-1] // 2 + 1,) and not inverse
        result = np.fft.rfftn(xa, axes=axes)
    else:
        assert xa.shape == oa.shape[:-1] + (oa.shape[-1] // 2 + 1,) and inverse
        result = np.fft.irfftn(xa, s=oa.shape[-rank:], axes=axes, norm="forward")
        xa[...] = np.nan   # cuFFT may overwrite a complex-to-real input: the caller's copy
    oa[...] = result


@pytest.fixture(params=DEVICES + ["cpu+cufft-plan"])
def device(request, monkeypatch):
    """The devices present, and the CPU taking the CUDA code path over emulated cuFFT calls."""
    if request.param == "cpu+cufft-plan":
        monkeypatch.setattr(pygpu._core, "_cufft", emulated_cufft)
        monkeypatch.setattr(pfft, "_on_cpu", lambda a: False)
        return pygpu.Device("cpu")
    return pygpu.Device(request.param)

DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int32, np.bool_]


def close(got, want):
    assert isinstance(got, pygpu.ndarray), type(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    single = want.dtype in (np.float16, np.float32, np.complex64)
    scale = max(np.abs(want).max(), 1.0) if want.size else 1.0
    np.testing.assert_allclose(got.get(), want, rtol=1e-3 if want.dtype == np.float16 else 1e-5 if single else 1e-12,
                               atol=(1e-3 if want.dtype == np.float16 else 1e-5 if single else 1e-12) * scale)


def signal(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if dtype == np.bool_:
        return x > 0
    if np.dtype(dtype).kind == "i":
        return (10 * x).astype(dtype)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_dimensional(device, name, dtype):
    if name in ("rfft", "ihfft") and np.dtype(dtype).kind == "c":
        with pytest.raises(TypeError):
            getattr(np.fft, name)(signal(8, dtype))
        return
    for shape, n, axis in [((64,), None, -1), ((5, 37), None, -1), ((12, 6), 16, 0), ((3, 4, 10), 7, 1),
                           ((1,), None, -1), ((1000,), 1024, -1)]:
        x = signal(shape, dtype)
        try:
            want = getattr(np.fft, name)(x, n=n, axis=axis)
        except ValueError:   # irfft/hfft of one point: no output points, NumPy's error
            with pytest.raises(ValueError):
                getattr(pfft, name)(pygpu.asarray(x, device=device), n=n, axis=axis)
            continue
        close(getattr(pfft, name)(pygpu.asarray(x, device=device), n=n, axis=axis), want)
    x = signal((6, 20), dtype)
    for norm in ("backward", "ortho", "forward"):
        close(getattr(pfft, name)(pygpu.asarray(x, device=device)[:, ::2], norm=norm),
              getattr(np.fft, name)(x[:, ::2], norm=norm))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.complex128])
@pytest.mark.parametrize("name", ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"])
def test_several_dimensions(device, name, dtype):
    if name.startswith("rfft") and np.dtype(dtype).kind == "c":
        return
    x = signal((4, 6, 10), dtype)
    px = pygpu.asarray(x, device=device)
    close(getattr(pfft, name)(px), getattr(np.fft, name)(x))
    close(getattr(pfft, name)(px, axes=(0, 2)), getattr(np.fft, name)(x, axes=(0, 2)))
    close(getattr(pfft, name)(px, s=(8, 5), axes=(1, 2)), getattr(np.fft, name)(x, s=(8, 5), axes=(1, 2)))
    close(getattr(pfft, name)(px.transpose(2, 0, 1), norm="ortho"), getattr(np.fft, name)(x.transpose(2, 0, 1),
                                                                                      norm="ortho"))
    if not name.endswith("2"):
        # four axes (cuFFT takes three at a time: one by one), a repeated axis (NumPy applies it
        # twice, each with its length), odd and prime lengths
        y = signal((3, 5, 2, 7), dtype)
        close(getattr(pfft, name)(pygpu.asarray(y, device=device)), getattr(np.fft, name)(y))
        close(getattr(pfft, name)(px, s=(5, 13), axes=(2, 2)), getattr(np.fft, name)(x, s=(5, 13), axes=(2, 2)))
        close(getattr(pfft, name)(px, s=(3, 7, 11), axes=(0, 1, 2)), getattr(np.fft, name)(x, s=(3, 7, 11), axes=(0, 1, 2)))


@pytest.mark.parametrize("name", ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"])
def test_lengths_minus_one_none_and_no_axes(device, name):
    # s: -1 is the input's length (irfftn's last axis too, not 2 (m - 1)), None the axis's default
    # (NumPy 2 deprecates it, and s without axes, with its DeprecationWarnings); no axes: fftn & co.
    # return the input itself, rfftn & co. raise NumPy's IndexError
    x = signal((2, 3, 4), np.float64)
    px = pygpu.asarray(x, device=device)
    for s, axes in [((2, -1), (0, 2)), ((-1, -1), (1, 2)), ((None, 3), (1, 2)), ((3, None), (1, 2)), ((-1, 3), None),
                    (None, ()), ((), ()), ((3,), ())]:
        with warnings.catch_warnings(record=True) as w_np:
            warnings.simplefilter("always")
            try:
                want = getattr(np.fft, name)(x, s=s, axes=axes)
            except Exception as e:
                want = e
        with warnings.catch_warnings(record=True) as w_pg:
            warnings.simplefilter("always")
            if isinstance(want, Exception):
                with pytest.raises(type(want)):
                    getattr(pfft, name)(px, s=s, axes=axes)
            else:
                got = getattr(pfft, name)(px, s=s, axes=axes)
                if want is x:
                    assert got is px
                else:
                    close(got, want)
        assert [(w.category, str(w.message)) for w in w_pg] == [(w.category, str(w.message)) for w in w_np]
        assert all(w.filename == __file__ for w in w_pg)


def test_round_trips_and_out(device):
    x = signal((16, 32), np.float64)
    px = pygpu.asarray(x, device=device)
    np.testing.assert_allclose(pfft.irfft(pfft.rfft(px), n=32).get(), x, atol=1e-12)
    np.testing.assert_allclose(pfft.ifftn(pfft.fftn(px)).get().real, x, atol=1e-12)
    out = pygpu.empty((16, 17), dtype=np.complex128, device=device)
    got = pfft.rfft(px, out=out)
    assert got is out
    close(out, np.fft.rfft(x))
    with pytest.raises(TypeError, match="pygpu array"):
        pfft.fft(px, out=np.empty((16, 32), np.complex128))
    with pytest.raises(ValueError, match="shape"):
        pfft.rfft(px, out=pygpu.empty((16, 32), dtype=np.complex128, device=device))
    z = signal((4, 9), np.complex128)
    pz = pygpu.asarray(z, device=device)
    close(pfft.irfft(pz), np.fft.irfft(z))
    np.testing.assert_array_equal(pz.get(), z)   # the input is not overwritten (cuFFT's c2r may)
    empty = pygpu.zeros((0, 8), dtype=np.complex64, device=device)
    close(pfft.fft(empty), np.fft.fft(np.zeros((0, 8), np.complex64)))


def test_numpy_functions_stay_on_pygpu():
    x = signal((8, 8), np.float32)
    px = pygpu.asarray(x)
    for name in ("fft", "rfft", "fft2", "irfftn", "fftshift", "ifftshift"):
        got = getattr(np.fft, name)(px)
        assert isinstance(got, pygpu.ndarray), name
        close(got, getattr(np.fft, name)(x))


def test_frequencies_and_shifts():
    for n, d in [(8, 1.0), (9, 0.25), (1, 2.0)]:
        close(pfft.fftfreq(n, d), np.fft.fftfreq(n, d))
        close(pfft.rfftfreq(n, d), np.fft.rfftfreq(n, d))
    assert pfft.fftfreq(6, dtype=np.float32).dtype == np.float32
    assert pfft.rfftfreq(6, device=pygpu.Device("cpu")).device == pygpu.Device("cpu")
    with pytest.raises(ValueError, match="integer"):
        pfft.fftfreq(2.5)
    # NumPy's arithmetic: 1 / (n d) in d's precision, then the integers times it
    for n, d in [(4, np.float32(0.1)), (7, np.float16(3.3)), (5, 1 / 3)]:
        for f in ("fftfreq", "rfftfreq"):
            want, got = getattr(np.fft, f)(n, d), getattr(pfft, f)(n, d)
            np.testing.assert_array_equal(pygpu.asnumpy(got), want)
            assert got.dtype == want.dtype
    assert pfft.rfftfreq(-4).shape == np.fft.rfftfreq(-4).shape
    for call in (lambda m: m.fftfreq(4, d=0), lambda m: m.fftfreq(0), lambda m: m.rfftfreq(0), lambda m: m.fftfreq(-3)):
        with pytest.raises(Exception) as want:
            call(np.fft)
        with pytest.raises(type(want.value), match=str(want.value)):
            call(pfft)
    x = np.arange(30).reshape(5, 6)
    for axes in (None, 0, (1,), (0, 1), np.int64(1), ()):
        close(pfft.fftshift(pygpu.asarray(x), axes=axes), np.fft.fftshift(x, axes=axes))
        close(pfft.ifftshift(pygpu.asarray(x), axes=axes), np.fft.ifftshift(x, axes=axes))
    px = pygpu.asarray(x)
    pfft.fftshift(px, axes=())[...] = 0   # a new array, as NumPy's, even when nothing moves
    close(px, x)


def test_bad_input_raises_as_numpy_does(device):
    x, x2 = signal(8, np.float64), signal(24, np.float64).reshape(4, 6)
    px, p2 = pygpu.asarray(x, device=device), pygpu.asarray(x2, device=device)
    for call in (lambda m, a, b: m.fft(a, n=0), lambda m, a, b: m.fft(a, axis=3),
                 lambda m, a, b: m.fft(a, norm="sideways"), lambda m, a, b: m.fftn(a, s=(4, 4), axes=(0,)),
                 lambda m, a, b: m.irfft(a[:1]), lambda m, a, b: m.rfft(a.astype(np.complex128)),
                 lambda m, a, b: m.fft(a, n=True), lambda m, a, b: m.fft(a, n=4, axis=2),
                 lambda m, a, b: m.fftn(b, s=(3,), axes=()), lambda m, a, b: m.fftn(b, s=(3,), axes=(2,)),
                 lambda m, a, b: m.fftn(b, s=(2, 3, 5)), lambda m, a, b: m.ifft2(b, s=(2, 3, 5))):
        with pytest.raises(Exception) as want:
            call(np.fft, x, x2)   # NumPy's own, on NumPy arrays
        # the same words but where NumPy's come from its internals: an IndexError's 'tuple index out
        # of range' (ours, an AxisError, is an IndexError naming the axis), its rfft ufunc's TypeError
        same_words = str(want.value) != "tuple index out of range" and "ufunc" not in str(want.value) and \
            not str(want.value).startswith("Invalid norm value")   # (NumPy 2.4 and 2.5 word it apart)
        with pytest.raises(type(want.value), match=re.escape(str(want.value)) if same_words else None):
            call(pfft, px, p2)
    # out= of another shape is refused, never broadcast into
    with pytest.raises(ValueError, match="output array has wrong shape"):
        pfft.fft(px, out=pygpu.empty((2, 8), dtype=np.complex128, device=device))


def test_plans_kept_per_call_never_stand_for_another(device):
    """The CUDA path keeps what it works out per (dtype, shape, arguments): a second call of the
    same kind answers as the first, and an argument equal to a kept one but refused by NumPy
    (n=True or n=4.0 after n=4: equal and hashed alike) is still refused."""
    x = signal((3, 8), np.float32)
    px = pygpu.asarray(x, device=device)
    for _ in range(2):
        close(pfft.rfft(px, n=4), np.fft.rfft(x, n=4))
        close(pfft.fft(px, n=4, norm="ortho"), np.fft.fft(x, n=4, norm="ortho"))
        close(pfft.irfft(pfft.rfft(px), norm="forward"), np.fft.irfft(np.fft.rfft(x), norm="forward"))
    for bad in (4.0, np.float64(4.0)):
        with pytest.raises(TypeError):
            pfft.fft(px, n=bad)
    pfft.fft(px, n=1)
    with pytest.raises(TypeError, match="an integer is required"):
        pfft.fft(px, n=True)


def test_array_api_namespace_has_fft():
    xp = pygpu.asarray([1.0]).__array_namespace__()
    assert xp.fft.fft is pfft.fft and xp.fft.fftfreq is pfft.fftfreq


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_convolve_and_correlate_through_the_fft(device, dtype, monkeypatch):
    """numpy.convolve/correlate with long kernels on a GPU go through cuFFT (here on every device:
    the switch forced), with NumPy's results within the transforms' rounding."""
    from pygpu import _signal
    monkeypatch.setattr(_signal, "_fft_pays", lambda a, m: True)
    for n, m in ((1000, 100), (37, 64), (5, 7), (64, 1), (1, 1)):
        a, v = signal(n, dtype, seed=n), signal(m, dtype, seed=m + 1)
        pa, pv = pygpu.asarray(a, device=device), pygpu.asarray(v, device=device)
        for mode in ("full", "same", "valid"):
            for name in ("convolve", "correlate"):
                want = getattr(np, name)(a, v, mode)
                got = getattr(pygpu, name)(pa, pv, mode)
                assert got.dtype == want.dtype and got.shape == want.shape, (name, mode, n, m)
                tol = 2e-4 if np.dtype(dtype).itemsize <= 8 and dtype != np.float64 else 1e-10
                scale = np.abs(want).max() if want.size else 1
                np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * scale, err_msg=f"{name} {mode}")
