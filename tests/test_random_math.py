"""The elementary functions of the random-number transforms (csrc/kernels/random_math.h), which
pygpu computes itself so that every device gives the same bits: their error in ulps against
NumPy's float64 functions (and mpmath's, where installed). Evaluated on the host through
_core._random_math; the same code runs in the GPU kernels."""
import numpy as np
import pytest

from pygpu import _core


def ulps(got, ref, dtype):
    """|got - ref| in units of the last place of ref rounded to dtype."""
    ref_t = ref.astype(dtype)
    spacing = np.spacing(np.abs(ref_t)).astype(np.float64)
    return np.abs(got.astype(np.float64) - ref) / spacing


def float32_uniform_inputs(n, seed=0):
    """The logarithm's inputs in the transforms (w * 2**-32 + 2**-33 for 32-bit words w), and
    normal floats of every exponent."""
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 2 ** 32, n, dtype=np.uint64)
    u = (words.astype(np.float32) * np.float32(2.0 ** -32) + np.float32(2.0 ** -33)).astype(np.float32)
    anywhere = (2.0 ** rng.uniform(-126, 127, n)).astype(np.float32)
    edges = np.array([2.0 ** -126, 2.0 ** -33, 0.5, np.sqrt(0.5), np.nextafter(np.float32(np.sqrt(0.5)), 0), 1.0,
                      np.sqrt(2.0), 2.0, 3.4e38], dtype=np.float32)
    return np.concatenate([u, anywhere, edges, np.float32(2.0) ** np.arange(-126, 128, dtype=np.float32)])


def test_logf_within_one_ulp():
    x = float32_uniform_inputs(200_000)
    err = ulps(_core._random_math("logf", x), np.log(x.astype(np.float64)), np.float32)
    assert err.max() <= 1.0, err.max()
    assert _core._random_math("logf", np.float32([1.0]))[0] == 0.0


def test_sincosf_within_one_ulp():
    x = np.random.default_rng(1).uniform(-np.pi / 4, np.pi / 4, 200_000).astype(np.float32)
    x = np.concatenate([x, np.float32([0.0, -0.0, 1e-30, np.pi / 4, -np.pi / 4])])
    s, c = _core._random_math("sincosf", x)
    x64 = x.astype(np.float64)
    nz = x != 0
    assert ulps(s[nz], np.sin(x64[nz]), np.float32).max() <= 1.0
    assert ulps(c, np.cos(x64), np.float32).max() <= 1.0
    assert s[~nz].tolist() == [0.0, 0.0]


def double_inputs(seed=2):
    rng = np.random.default_rng(seed)
    return {
        "log": np.concatenate([rng.uniform(0, 1, 50_000), rng.uniform(0.5, 2, 50_000),
                               2.0 ** rng.uniform(-1074, 1024, 50_000), [5e-324, 2.2e-308, 1.0, 2.0, 1.7e308]]),
        "exp": np.concatenate([rng.uniform(-745, 709.7, 50_000), rng.uniform(-1, 1, 50_000),
                               rng.uniform(-40, 40, 50_000), [0.0, -708.5, -740.0, 709.78]]),
        "log1p": np.concatenate([-rng.uniform(0, 1, 50_000), -(2.0 ** rng.uniform(-60, 0, 50_000)),
                                 2.0 ** rng.uniform(-60, 10, 50_000), [0.0, 1e-300, -0.5]]),
        "sincos": np.concatenate([rng.uniform(-np.pi / 4, np.pi / 4, 100_000), [np.pi / 4, -np.pi / 4, 1e-300]]),
    }


@pytest.mark.parametrize("name, reference, bound", [
    ("log", np.log, 1.5),        # ours within 1 ulp, NumPy's (glibc) within 0.5
    ("exp", np.exp, 1.5),
    ("log1p", np.log1p, 3.0),    # log(1+x) rescaled: a few ulps
])
def test_double_functions_against_numpy(name, reference, bound):
    x = double_inputs()[name]
    err = ulps(_core._random_math(name, x), reference(x), np.float64)
    assert err.max() <= bound, (name, err.max(), x[np.argmax(err)])


def test_sincos_against_numpy():
    x = double_inputs()["sincos"]
    s, c = _core._random_math("sincos", x)
    assert ulps(s, np.sin(x), np.float64).max() <= 1.5
    assert ulps(c, np.cos(x), np.float64).max() <= 1.5


def test_loggam_at_the_integers():
    """log Gamma(k + 1) = log k!, where the Poisson sampler uses it."""
    from math import lgamma
    k = np.arange(1, 5000, dtype=np.float64)
    got = _core._random_math("loggam", k)
    ref = np.array([lgamma(v) for v in k])
    assert got[0] == 0.0 and got[1] == 0.0
    assert ulps(got[2:], ref[2:], np.float64).max() <= 4.0


def test_special_values():
    inf, nan = np.inf, np.nan
    log = _core._random_math("log", np.array([0.0, -1.0, inf, nan, 5e-324]))
    assert log[0] == -inf and np.isnan(log[1]) and log[2] == inf and np.isnan(log[3])
    assert abs(log[4] - np.log(5e-324)) <= abs(np.spacing(np.log(5e-324)))
    exp = _core._random_math("exp", np.array([nan, 710.0, -800.0, -inf, inf, 0.0]))
    assert np.isnan(exp[0]) and exp[1] == inf and exp[2] == 0.0 and exp[3] == 0.0 and exp[4] == inf
    assert exp[5] == 1.0
    sub = np.linspace(-745.0, -708.0, 1001)  # subnormal results: one rounding
    assert np.all(np.abs(_core._random_math("exp", sub) - np.exp(sub)) <= np.spacing(np.exp(sub)))
    log1p = _core._random_math("log1p", np.array([-1.0, -2.0, inf, 1e-300]))
    assert log1p[0] == -inf and np.isnan(log1p[1]) and log1p[2] == inf and log1p[3] == 1e-300


def test_double_functions_against_mpmath():
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    rng = np.random.default_rng(3)
    cases = {"log": (mp.log, double_inputs()["log"]), "exp": (mp.exp, double_inputs()["exp"]),
             "log1p": (mp.log1p, double_inputs()["log1p"])}
    for name, (f, x) in cases.items():
        x = rng.choice(x, 3000, replace=False)
        got = _core._random_math(name, x)
        ref = [f(mp.mpf(float(v))) for v in x]
        err = max(abs(float((mp.mpf(float(g)) - r) / mp.mpf(float(np.spacing(abs(float(r))))))) for g, r in zip(got, ref)
                  if float(r) != 0)
        assert err <= (1.0 if name != "log1p" else 3.0), (name, err)
    x = rng.uniform(-np.pi / 4, np.pi / 4, 3000)
    s, c = _core._random_math("sincos", x)
    for got, f in ((s, mp.sin), (c, mp.cos)):
        err = max(abs(float((mp.mpf(float(g)) - f(mp.mpf(float(v)))) / float(np.spacing(abs(g))))) for g, v in zip(got, x))
        assert err <= 1.0
