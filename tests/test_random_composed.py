"""The Generator distributions composed in Python (pygpu/_random_composed.py): each against
NumPy's own sampler by a two-sample Kolmogorov-Smirnov statistic (fixed seeds: the verdict is
the same on every run), moments where they exist, NumPy's parameter errors, shapes, and the
legacy module functions of pygpu.random."""
import numpy as np
import pytest

import pygpu

N = 60_000
# two-sample KS critical value for n = m = N at a significance of 1e-6 (conservative for discrete data)
D_CRIT = np.sqrt(-np.log(0.5e-6) / 2) * np.sqrt(2.0 / N)


def ks_statistic(a, b):
    a, b = np.sort(a), np.sort(b)
    both = np.concatenate([a, b])
    return np.max(np.abs(np.searchsorted(a, both, side="right") / a.size - np.searchsorted(b, both, side="right") / b.size))


CASES = [
    ("standard_cauchy", ()), ("rayleigh", (2.0,)), ("pareto", (3.0,)), ("weibull", (1.5,)), ("weibull", (0.5,)),
    ("power", (2.0,)), ("power", (0.3,)), ("gumbel", (1.0, 2.0)), ("triangular", (0.0, 1.0, 3.0)),
    ("triangular", (-1.0, -1.0, 2.0)), ("wald", (1.0, 2.0)), ("wald", (3.0, 0.5)), ("f", (5.0, 7.0)),
    ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 1.5)), ("noncentral_chisquare", (2.0, 0.0)),
    ("noncentral_f", (3.0, 8.0, 2.0)), ("negative_binomial", (5, 0.3)), ("negative_binomial", (0.5, 0.9)),
    ("logseries", (0.6,)), ("logseries", (0.99,)), ("zipf", (2.5,)), ("zipf", (1.3,)), ("vonmises", (0.5, 2.0)),
    ("vonmises", (-2.0, 0.3)), ("vonmises", (1.0, 1e-9)), ("vonmises", (1.0, 5e6)),
    ("hypergeometric", (15, 15, 10)), ("hypergeometric", (100, 200, 50)), ("hypergeometric", (5, 3000, 200)),
    ("hypergeometric", (2000, 1500, 3000)), ("hypergeometric", (7, 3, 10)),
]


@pytest.mark.parametrize("name, args", CASES)
def test_distribution_matches_numpy(name, args):
    ours = pygpu.asnumpy(getattr(pygpu.random.default_rng(7), name)(*args, size=N))
    theirs = getattr(np.random.default_rng(8), name)(*args, size=N)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert ks_statistic(ours, theirs) < D_CRIT, name
    again = pygpu.asnumpy(getattr(pygpu.random.default_rng(7), name)(*args, size=N))
    np.testing.assert_array_equal(ours, again)   # the seed fixes the numbers


def test_multivariate_distributions():
    g, ng = pygpu.random.default_rng(3), np.random.default_rng(4)
    alpha = [0.5, 2.0, 3.0]
    d = pygpu.asnumpy(g.dirichlet(alpha, size=(N // 3, 2)))
    assert d.shape == (N // 3, 2, 3)
    np.testing.assert_allclose(d.sum(axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(d.reshape(-1, 3).mean(axis=0), np.array(alpha) / sum(alpha), atol=0.01)
    m = pygpu.asnumpy(g.multinomial(20, [0.2, 0.3, 0.5], size=N // 3))
    assert m.dtype == np.int64 and (m.sum(axis=1) == 20).all()
    np.testing.assert_allclose(m.mean(axis=0), [4.0, 6.0, 10.0], atol=0.1)
    np.testing.assert_allclose(np.cov(m.T), np.cov(ng.multinomial(20, [0.2, 0.3, 0.5], size=N // 3).T), atol=0.15)
    mean, cov = [0.0, 1.0, -2.0], [[1.0, 0.5, 0.0], [0.5, 2.0, -0.3], [0.0, -0.3, 0.5]]
    for method in ("svd", "eigh", "cholesky"):
        x = pygpu.asnumpy(g.multivariate_normal(mean, cov, size=N // 2, method=method))
        assert x.shape == (N // 2, 3)
        np.testing.assert_allclose(x.mean(axis=0), mean, atol=0.03)
        np.testing.assert_allclose(np.cov(x.T), cov, atol=0.04)
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="positive-semidefinite"):
        g.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], check_valid="raise")
    with pytest.raises(ValueError, match="same length"):
        g.multivariate_normal([0.0], [[1.0, 0.0], [0.0, 1.0]])
    assert g.multivariate_normal(mean, cov).shape == (3,)
    assert g.multinomial(10, [0.5, 0.5]).shape == (2,)


def test_multivariate_hypergeometric():
    g = pygpu.random.default_rng(9)
    colors = [5, 10, 15]
    x = pygpu.asnumpy(g.multivariate_hypergeometric(colors, 12, size=N // 3))
    assert x.shape == (N // 3, 3) and x.dtype == np.int64 and (x.sum(axis=1) == 12).all()
    assert (x <= np.array(colors)).all()
    want = np.random.default_rng(10).multivariate_hypergeometric(colors, 12, size=N // 3)
    for k in range(3):
        assert ks_statistic(x[:, k], want[:, k]) < D_CRIT
    assert g.multivariate_hypergeometric(colors, 0).tolist() == [0, 0, 0]


def test_parameter_arrays_broadcast():
    g = pygpu.random.default_rng(5)
    a = np.array([[1.0], [2.0], [4.0]])
    x = g.pareto(a, size=(3, 4000))
    assert x.shape == (3, 4000)
    means = pygpu.asnumpy(x).mean(axis=1)
    assert means[0] > means[1] > means[2]           # a heavier tail for smaller a
    assert g.wald([1.0, 2.0], 1.0).shape == (2,)
    assert g.zipf([2.0, 3.0, 4.0]).shape == (3,)


@pytest.mark.parametrize("call, message", [
    (lambda g: g.pareto(0.0), "a <= 0"), (lambda g: g.rayleigh(-1.0), "scale < 0"), (lambda g: g.weibull(-1), "a < 0"),
    (lambda g: g.triangular(2, 1, 3), "left > mode"), (lambda g: g.triangular(0, 4, 3), "mode > right"),
    (lambda g: g.triangular(1, 1, 1), "left == right"), (lambda g: g.wald(0.0, 1.0), "mean <= 0"),
    (lambda g: g.f(1.0, 0.0), "dfden <= 0"), (lambda g: g.noncentral_chisquare(1.0, -1.0), "nonc < 0"),
    (lambda g: g.negative_binomial(1, 0.0), "p <= 0"), (lambda g: g.logseries(1.0), "p >= 1"),
    (lambda g: g.zipf(1.0), "a <= 1"), (lambda g: g.vonmises(0.0, -1.0), "kappa < 0"),
    (lambda g: g.dirichlet([1.0, -1.0]), "alpha < 0"), (lambda g: g.multinomial(5, [0.8, 0.8, 0.1]), "sum"),
    (lambda g: g.hypergeometric(5, 5, 11), "ngood \\+ nbad < nsample"), (lambda g: g.hypergeometric(-1, 5, 1), "ngood < 0"),
    (lambda g: g.multivariate_hypergeometric([2, 3], 6), "nsample > sum"),
])
def test_bad_parameters_raise_numpys_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call(pygpu.random.default_rng(0))


def test_legacy_module_functions():
    pygpu.random.seed(11)
    first = pygpu.asnumpy(pygpu.random.gumbel(0.0, 1.0, 10))
    pygpu.random.seed(11)
    np.testing.assert_array_equal(pygpu.asnumpy(pygpu.random.gumbel(0.0, 1.0, 10)), first)
    for name in ("beta", "binomial", "chisquare", "exponential", "gamma", "geometric", "laplace", "logistic", "lognormal",
                 "poisson", "standard_exponential", "standard_gamma", "standard_t", "standard_cauchy", "rayleigh",
                 "pareto", "weibull", "power", "gumbel", "triangular", "wald", "f", "noncentral_chisquare",
                 "noncentral_f", "negative_binomial", "dirichlet", "multivariate_normal", "multinomial", "logseries",
                 "zipf", "vonmises", "hypergeometric", "bytes", "random_integers", "get_bit_generator",
                 "set_bit_generator"):
        assert callable(getattr(pygpu.random, name)), name
    r = pygpu.asnumpy(pygpu.random.random_integers(3, 5, size=2000))
    assert r.min() == 3 and r.max() == 5
    assert isinstance(pygpu.random.bytes(7), bytes) and len(pygpu.random.bytes(7)) == 7
    bg = pygpu.random.Philox4x32(5)
    pygpu.random.set_bit_generator(bg)
    assert pygpu.random.get_bit_generator() is bg
    with pytest.raises(TypeError):
        pygpu.random.set_bit_generator(object())
    rs = pygpu.random.RandomState(2)
    assert rs.vonmises(0.0, 1.0, 5).shape == (5,)


# ---------------------------------------------------------------- found by a hunt against NumPy's Generator

def test_wald_stays_positive_at_large_mean_over_scale():
    """The transformation's y - sqrt(4 s y + y^2) lost every digit for mean/scale >= 1e7 (negative
    draws); its conjugate form keeps them, and the moments stay the distribution's."""
    rng = pygpu.random.default_rng(0)
    for mean, scale in ((1.0, 1e-10), (1e6, 1e-3), (1e9, 1.0)):
        assert float(pygpu.min(rng.wald(mean, scale, size=100_000))) > 0
    w = pygpu.asnumpy(rng.wald(3.0, 2.0, size=200_000))
    assert abs(w.mean() - 3.0) < 5 * np.sqrt(13.5 / w.size)


def test_dirichlet_of_small_and_zero_alphas():
    rng = pygpu.random.default_rng(1)
    x = pygpu.asnumpy(rng.dirichlet([1e-3, 1e-3, 2e-3], 100_000))
    assert not np.isnan(x).any() and np.allclose(x.sum(axis=1), 1.0)
    np.testing.assert_allclose(x.mean(axis=0), [0.25, 0.25, 0.5], atol=0.02)
    y = pygpu.asnumpy(rng.dirichlet([0.05, 0.02, 0.03], (2000, 3)))
    assert y.shape == (2000, 3, 3) and np.allclose(y.sum(axis=-1), 1.0)
    # NumPy's answers for zeros and NaN
    for alpha, want in (([0.0, 0.0], [0.0, 0.0]), ([0.0, 1.0], [0.0, 1.0]), ([1.0, 0.0], [1.0, 0.0])):
        np.testing.assert_array_equal(pygpu.asnumpy(rng.dirichlet(alpha)), want)
    assert np.isnan(pygpu.asnumpy(rng.dirichlet([1.0, np.nan]))).all()


def test_nan_parameters_give_nan_draws_as_numpys():
    rng = pygpu.random.default_rng(2)
    for f, args in (("rayleigh", (np.nan,)), ("pareto", (np.nan,)), ("power", (np.nan,)), ("weibull", (np.nan,)),
                    ("gumbel", (0, np.nan)), ("vonmises", (0, np.nan)), ("wald", (np.nan, 1)), ("f", (np.nan, 1)),
                    ("noncentral_chisquare", (1, np.nan)), ("noncentral_f", (1, 1, np.nan))):
        assert np.isnan(float(getattr(rng, f)(*args))), f
    assert rng.vonmises(0.0, 1.0, size=0).dtype == np.float64
    with pytest.raises(ValueError, match="last dimension of pvals must be greater than 0"):
        rng.multinomial(10, [])


def test_hypergeometric_arguments_as_numpys():
    rng = pygpu.random.default_rng(3)
    assert 0 <= int(rng.hypergeometric(5.5, 5, 3)) <= 3          # floats truncated
    for args, match in (((np.nan, 5, 3), "NaN"), ((10**9, 10**9, 5), "less than 1000000000")):
        with pytest.raises(ValueError, match=match):
            rng.hypergeometric(*args)
    with pytest.raises(ValueError, match="nsample must be an integer"):
        rng.multivariate_hypergeometric([5, 5], 2.5)
    assert rng.multivariate_hypergeometric([], 0).shape == (0,)
    assert rng.multivariate_hypergeometric([], 0, size=3).shape == (3, 0)
    assert rng.permutation(-1).shape == (0,)
