"""Each distribution of pygpu.random at a fixed seed: a Kolmogorov-Smirnov test against the exact
CDF where it has a closed form, a two-sample one against NumPy's sampler otherwise, and a
chi-square test against the exact probabilities for the discrete ones; all at a 0.1% level.
The seeds are fixed, so these pass or fail deterministically. Run on the CPU: every device
gives the same bits (test_random.py)."""
import math

import numpy as np
import pytest

import pygpu
import pygpu.random as pr

N = 100_000
KS_999 = 1.95  # the Kolmogorov distribution's 99.9% quantile


@pytest.fixture(autouse=True)
def on_cpu():
    with pygpu.Device("cpu"):
        yield


def ks_one(x, cdf):
    x = np.sort(np.asarray(x, dtype=np.float64))
    n = x.size
    f = cdf(x)
    d = max((np.arange(1, n + 1) / n - f).max(), (f - np.arange(n) / n).max())
    assert d * math.sqrt(n) < KS_999, d * math.sqrt(n)


def ks_two(a, b):
    a, b = np.sort(np.asarray(a, np.float64)), np.sort(np.asarray(b, np.float64))
    grid = np.concatenate([a, b])
    d = np.abs(np.searchsorted(a, grid, side="right") / a.size - np.searchsorted(b, grid, side="right") / b.size).max()
    assert d * math.sqrt(a.size * b.size / (a.size + b.size)) < KS_999, d


def chi_square(x, pmf, support):
    """x against probabilities pmf(k) over the integers `support`; cells with fewer than 5
    expected merged into their neighbours, and the rest of the probability into the last."""
    x = np.asarray(x)
    assert x.min() >= support[0] and x.max() <= support[-1]
    p = np.array([pmf(k) for k in support])
    expected = p * x.size
    counts = np.bincount(x - support[0], minlength=len(support))[:len(support)].astype(np.float64)
    cells_e, cells_o, e, o = [], [], 0.0, 0.0
    for ek, ok in zip(expected, counts):
        e, o = e + ek, o + ok
        if e >= 5:
            cells_e.append(e)
            cells_o.append(o)
            e, o = 0.0, 0.0
    cells_e[-1] += e + x.size * (1 - p.sum())
    cells_o[-1] += o
    cells_e, cells_o = np.array(cells_e), np.array(cells_o)
    stat = ((cells_o - cells_e) ** 2 / cells_e).sum()
    df = len(cells_e) - 1
    critical = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3  # Wilson-Hilferty, 99.9%
    assert stat < critical, (stat, critical, df)


erf = np.vectorize(math.erf)


def normal_cdf(x):
    return 0.5 * (1 + erf(x / math.sqrt(2)))


def rng(seed=20241123):
    return pr.default_rng(seed)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_random(dtype):
    x = rng().random(N, dtype=dtype).get()
    assert x.dtype == dtype and x.min() >= 0 and x.max() < 1
    ks_one(x, lambda v: v)


def test_uniform():
    ks_one(rng().uniform(-2.0, 3.0, N).get(), lambda v: (v + 2) / 5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_normal(dtype):
    x = rng().standard_normal(N, dtype=dtype).get()
    ks_one(x, normal_cdf)
    assert abs(x.mean()) < 0.02 and abs(x.std() - 1) < 0.01


def test_normal_lognormal():
    ks_one(rng().normal(3.0, 2.0, N).get(), lambda v: normal_cdf((v - 3) / 2))
    ks_one(rng(2).lognormal(0.5, 0.75, N).get(), lambda v: normal_cdf((np.log(v) - 0.5) / 0.75))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_standard_exponential(dtype):
    x = rng().standard_exponential(N, dtype=dtype).get()
    assert x.min() >= 0
    ks_one(x, lambda v: -np.expm1(-v))


def test_exponential_laplace_logistic():
    ks_one(rng().exponential(2.5, N).get(), lambda v: -np.expm1(-v / 2.5))
    ks_one(rng(3).laplace(1.0, 2.0, N).get(),
           lambda v: np.where(v < 1, 0.5 * np.exp((v - 1) / 2), 1 - 0.5 * np.exp(-(v - 1) / 2)))
    ks_one(rng(4).logistic(1.0, 2.0, N).get(), lambda v: 1 / (1 + np.exp(-(v - 1) / 2)))


@pytest.mark.parametrize("shape", [0.05, 0.3, 1.0, 2.5, 40.0, 1e4])
def test_standard_gamma(shape):
    ks_two(rng().standard_gamma(shape, N).get(), np.random.default_rng(1).standard_gamma(shape, N))


def test_standard_gamma_one_is_exponential():
    ks_one(rng().standard_gamma(1.0, N).get(), lambda v: -np.expm1(-v))
    ks_one(rng().standard_gamma(3.0, N, dtype=np.float32).get(), lambda v: 1 - np.exp(-v) * (1 + v + v * v / 2))


def test_gamma_chisquare_t():
    ks_two(rng().gamma(2.0, 3.0, N).get(), np.random.default_rng(1).gamma(2.0, 3.0, N))
    ks_one(rng(5).chisquare(2.0, N).get(), lambda v: -np.expm1(-v / 2))
    ks_two(rng(6).chisquare(7.5, N).get(), np.random.default_rng(1).chisquare(7.5, N))
    ks_one(rng(7).standard_t(1.0, N).get(), lambda v: 0.5 + np.arctan(v) / np.pi)  # Cauchy
    ks_two(rng(8).standard_t(5.0, N).get(), np.random.default_rng(1).standard_t(5.0, N))


@pytest.mark.parametrize("a, b", [(0.3, 0.6), (1.0, 1.0), (0.5, 3.0), (2.0, 5.0), (1e-3, 1e-3), (1e-200, 3e-200)])
def test_beta(a, b):
    x = rng().beta(a, b, N).get()
    assert x.min() >= 0 and x.max() <= 1
    if a == b == 1.0:
        ks_one(x, lambda v: v)
    else:
        ks_two(x, np.random.default_rng(1).beta(a, b, N))


def poisson_pmf(lam):
    return lambda k: math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))


@pytest.mark.parametrize("lam", [0.5, 3.0, 9.9, 10.0, 50.0, 1e4])
def test_poisson(lam):
    x = rng().poisson(lam, N).get()
    assert x.dtype == np.int64
    hi = int(lam + 12 * math.sqrt(lam) + 20)
    chi_square(x, poisson_pmf(lam), range(0, hi))


def binomial_pmf(n, p):
    return lambda k: math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                              + k * math.log(p) + (n - k) * math.log1p(-p))


@pytest.mark.parametrize("n, p", [(20, 0.3), (10, 0.95), (5000, 0.001), (100, 0.5), (1000, 0.9), (100000, 0.3)])
def test_binomial(n, p):
    x = rng().binomial(n, p, N).get()
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= n
    sd = math.sqrt(n * p * (1 - p))
    lo, hi = max(0, int(n * p - 12 * sd - 10)), min(n, int(n * p + 12 * sd + 10))
    chi_square(x, binomial_pmf(n, p), range(lo, hi + 1))


def test_binomial_edges():
    assert np.all(rng().binomial(0, 0.5, 100).get() == 0)
    assert np.all(rng().binomial(7, 0.0, 100).get() == 0)
    assert np.all(rng().binomial(7, 1.0, 100).get() == 7)


@pytest.mark.parametrize("p", [0.01, 0.3, 0.9, 1.0])
def test_geometric(p):
    x = rng().geometric(p, N).get()
    assert x.dtype == np.int64 and x.min() >= 1
    if p == 1.0:
        assert np.all(x == 1)
        return
    hi = int(30 / p) + 10
    chi_square(x, lambda k: (1 - p) ** (k - 1) * p, range(1, hi))


@pytest.mark.parametrize("low, high, dtype", [(-3, 17, np.int64), (0, 2, np.bool_), (0, 256, np.uint8),
                                              (-128, 128, np.int8), (5, 6, np.int32)])
def test_integers(low, high, dtype):
    x = rng().integers(low, high, N, dtype=dtype).get()
    assert x.dtype == dtype
    x = x.astype(np.int64)
    if high - low == 1:
        assert np.all(x == low)
        return
    chi_square(x, lambda k: 1 / (high - low), range(low, high))


def test_integers_wide_and_rejected_ranges():
    # a range past 2**32 (two words each) and one where half the first tries are rejected
    for high, dtype in [(10 ** 12, np.int64), (2 ** 31 + 1, np.uint32), (3 * 2 ** 62, np.uint64)]:
        x = rng().integers(0, high, N, dtype=dtype).get()
        assert int(x.max()) < high
        cells = (x.astype(np.float64) * (16 / high)).astype(np.int64)  # 16 equal cells
        chi_square(cells, lambda k: 1 / 16, range(16))


def test_permutation_is_uniform():
    """All 24 orders of 4 elements equally often."""
    g = rng()
    orders = {}
    for _ in range(2400):
        orders.setdefault(tuple(g.permutation(4).get()), len(orders))
    x = np.array([orders[tuple(g.permutation(4).get())] for _ in range(24_000)])
    assert len(orders) == 24
    chi_square(x, lambda k: 1 / 24, range(24))


def test_choice_probabilities():
    p = np.array([0.1, 0.0, 0.2, 0.3, 0.4])
    x = rng().choice(5, N, p=p).get()
    chi_square(x, lambda k: p[k], range(5))
    # without replacement: the first pick is distributed as p
    g = rng(2)
    first = np.array([int(g.choice(5, 3, replace=False, p=p).get()[0]) for _ in range(4000)])
    chi_square(first, lambda k: p[k], range(5))
