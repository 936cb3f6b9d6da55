"""pygpu.polynomial (numpy.polynomial with its points on the device): every basis's val, vander,
fit, 2-d and 3-d forms and series classes against NumPy's, on both backends."""

import numpy as np
import numpy.polynomial as NP
import pytest

import pygpu
from pygpu import polynomial as PP

BASES = [("polynomial", "poly", "Polynomial"), ("chebyshev", "cheb", "Chebyshev"), ("legendre", "leg", "Legendre"),
         ("hermite", "herm", "Hermite"), ("hermite_e", "herme", "HermiteE"), ("laguerre", "lag", "Laguerre")]


def fit_close(got, want):
    """Fitted coefficients agree as the problem's conditioning allows (relative to the largest)."""
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9 * max(np.abs(want).max(), 1.0))


@pytest.mark.parametrize("module, p, cls", BASES)
def test_evaluation_and_vandermonde(module, p, cls, device):
    nm, pm = getattr(NP, module), getattr(PP, module)
    rng = np.random.default_rng(len(p))
    x = np.linspace(-1.5, 1.5, 257)
    px = pygpu.asarray(x, device=device)
    for c in (rng.standard_normal(9), [2.5], [1, -2], rng.standard_normal((4, 3)), np.arange(5)):
        got, want = getattr(pm, p + "val")(px, c), getattr(nm, p + "val")(x, c)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12)
    c = rng.standard_normal((4, 3))
    want = getattr(nm, p + "val")(x[:3], c, tensor=False)
    np.testing.assert_allclose(getattr(pm, p + "val")(pygpu.asarray(x[:3], device=device), c, tensor=False).get(),
                               want, rtol=1e-12)
    z = x[:7] + 0.5j
    np.testing.assert_allclose(getattr(pm, p + "val")(pygpu.asarray(z, device=device), c[:, 0]).get(),
                               getattr(nm, p + "val")(z, c[:, 0]), rtol=1e-12)
    for deg in (0, 1, 6):
        got, want = getattr(pm, p + "vander")(px, deg), getattr(nm, p + "vander")(x, deg)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="non-negative"):
        getattr(pm, p + "vander")(px, -1)


@pytest.mark.parametrize("module, p, cls", BASES)
def test_two_and_three_dimensions(module, p, cls, device):
    nm, pm = getattr(NP, module), getattr(PP, module)
    rng = np.random.default_rng(3)
    X, Y, Z = rng.uniform(-1, 1, (3, 4, 5))
    c2, c3 = rng.standard_normal((3, 4)), rng.standard_normal((2, 3, 2))
    gx, gy, gz = (pygpu.asarray(a, device=device) for a in (X, Y, Z))
    np.testing.assert_allclose(getattr(pm, p + "val2d")(gx, gy, c2).get(), getattr(nm, p + "val2d")(X, Y, c2),
                               rtol=1e-12)
    np.testing.assert_allclose(getattr(pm, p + "val3d")(gx, gy, gz, c3).get(),
                               getattr(nm, p + "val3d")(X, Y, Z, c3), rtol=1e-12)
    np.testing.assert_allclose(getattr(pm, p + "grid2d")(gx[0], gy[1, :3], c2).get(),
                               getattr(nm, p + "grid2d")(X[0], Y[1, :3], c2), rtol=1e-12)
    np.testing.assert_allclose(getattr(pm, p + "grid3d")(gx[0, :2], gy[1, :3], gz[2, :4], c3).get(),
                               getattr(nm, p + "grid3d")(X[0, :2], Y[1, :3], Z[2, :4], c3), rtol=1e-12)
    np.testing.assert_allclose(getattr(pm, p + "vander2d")(gx, gy, [2, 3]).get(),
                               getattr(nm, p + "vander2d")(X, Y, [2, 3]), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(getattr(pm, p + "vander3d")(gx, gy, gz, [1, 2, 2]).get(),
                               getattr(nm, p + "vander3d")(X, Y, Z, [1, 2, 2]), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="incompatible"):
        getattr(pm, p + "val2d")(gx, gy[:2], c2)


@pytest.mark.parametrize("module, p, cls", BASES)
def test_least_squares_fits(module, p, cls, device):
    nm, pm = getattr(NP, module), getattr(PP, module)
    rng = np.random.default_rng(5)
    x = np.linspace(-1, 1, 200)
    y = np.sin(3 * x) + 0.01 * rng.standard_normal(200)
    w = rng.uniform(0.5, 2, 200)
    px, py, pw = (pygpu.asarray(a, device=device) for a in (x, y, w))
    fit_close(getattr(pm, p + "fit")(px, py, 6).get(), getattr(nm, p + "fit")(x, y, 6))
    fit_close(getattr(pm, p + "fit")(px, py, [0, 2, 5], w=pw).get(), getattr(nm, p + "fit")(x, y, [0, 2, 5], w=w))
    two = np.stack([y, y ** 2], axis=1)
    fit_close(getattr(pm, p + "fit")(px, pygpu.asarray(two, device=device), 4).get(), getattr(nm, p + "fit")(x, two, 4))
    coef, (resid, rank, sv, rcond) = getattr(pm, p + "fit")(px, py, 3, full=True)
    _, (resid0, rank0, sv0, rcond0) = getattr(nm, p + "fit")(x, y, 3, full=True)
    assert rank == rank0 and rcond == rcond0
    np.testing.assert_allclose(pygpu.asnumpy(resid), resid0, rtol=1e-6)
    with pytest.warns(np.exceptions.RankWarning):
        getattr(pm, p + "fit")(px[:3], py[:3], 6)
    with pytest.raises(TypeError, match="1D vector for x"):
        getattr(pm, p + "fit")(px.reshape(20, 10), py, 2)
    with pytest.raises(ValueError, match="deg >= 0"):
        getattr(pm, p + "fit")(px, py, [-1, 2])


@pytest.mark.parametrize("module, p, cls", BASES)
def test_series_classes(module, p, cls, device):
    Cls, NCls = getattr(PP, cls), getattr(NP, cls)
    x = np.linspace(0, 4, 300)
    y = np.exp(-x) * np.cos(2 * x)
    px, py = pygpu.asarray(x, device=device), pygpu.asarray(y, device=device)
    s, s0 = Cls.fit(px, py, 7), NCls.fit(x, y, 7)
    assert type(s) is Cls and np.allclose(s.domain, s0.domain)
    fit_close(s.coef, s0.coef)
    got = s(px)
    assert isinstance(got, pygpu.ndarray) and got.device == px.device
    same = NCls(s.coef, domain=s.domain, window=s.window)   # this series, evaluated by NumPy
    rounding = 1e-12 * max(1.0, np.abs(s.coef).sum())       # (Laguerre's cancel: coefficients ~1e3)
    np.testing.assert_allclose(got.get(), same(x), rtol=1e-10, atol=rounding)
    np.testing.assert_allclose(got.get(), y, atol=2e-2)      # and the fit fits (degree 7)
    assert type(s.deriv()) is Cls and type(s + s) is Cls                # the algebra: NumPy's
    np.testing.assert_allclose(s.deriv()(px).get(), same.deriv()(x), rtol=1e-9, atol=10 * rounding)
    np.testing.assert_allclose(s(x), same(x), rtol=1e-12)    # host points: NumPy's evaluation
    t, status = Cls.fit(px, py, 3, domain=[0, 4], full=True)
    assert list(t.domain) == [0, 4] and status[1] == 4


def test_package_names():
    assert pygpu.polynomial.Polynomial is PP.polynomial.Polynomial
    for module, p, cls in BASES:
        ours, theirs = getattr(PP, module), getattr(NP, module)
        missing = {n for n in dir(theirs) if not n.startswith("_") and n not in ("np", "pu", "la", "ABCPolyBase")} - \
            set(dir(ours))
        assert not missing, (module, missing)
        assert getattr(ours, p + "add") is getattr(theirs, p + "add")      # coefficient algebra: NumPy's


def test_polyutils_is_numpys():
    # numpy.polynomial.polyutils (as_series, trimseq, trimcoef, getdomain, mapdomain, ...):
    # coefficient helpers, NumPy's own on the host as the rest of the coefficient algebra
    assert PP.polyutils is NP.polyutils
    c = pygpu.asarray([1.0, 2.0, 0.0, 0.0], device="cpu")   # NumPy reads CPU arrays in place
    np.testing.assert_array_equal(PP.polyutils.trimseq(c.get()), [1.0, 2.0])
    np.testing.assert_array_equal(PP.polyutils.trimcoef(c), [1.0, 2.0])


@pytest.mark.parametrize("module, p, cls", BASES)
def test_vander_layout_is_numpys(module, p, cls):
    # NumPy builds each power as a contiguous row, then moves that axis last: the matrix of 1-d
    # points is Fortran-ordered (code passing it on to LAPACK or checking flags sees the same)
    for x in (np.linspace(-1, 1, 7), np.linspace(-1, 1, 12).reshape(3, 4), np.float64(0.5)):
        want = getattr(getattr(NP, module), p + "vander")(x, 3)
        got = getattr(getattr(PP, module), p + "vander")(pygpu.asarray(x), 3)
        assert got.shape == want.shape and got.strides == want.strides
        assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
        np.testing.assert_allclose(got.get(), want, rtol=1e-14)
