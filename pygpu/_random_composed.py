"""The Generator distributions pygpu composes from its kernels' draws (uniform, normal,
exponential, gamma, chi-square, Poisson, binomial): by transformation (Cauchy, Rayleigh,
Pareto, Weibull, power, Gumbel, triangular, Wald, F, noncentral chi-square and F, negative
binomial, Dirichlet, multivariate normal, multinomial) or by rejection, redrawing the elements
not yet accepted until none is left (logseries, Zipf, von Mises), with NumPy's algorithms and
parameter checks. Each is a sequence of whole-array draws from the Generator's stream, so the
numbers are the same on every device, as the rest of pygpu.random's."""
import math
import warnings

import numpy as np

import pygpu as _pg


def _floats(v, none_is_nan=False):
    """A real parameter as a float64 host array; None is NumPy's TypeError (np.asarray makes it NaN)
    unless none_is_nan (where NumPy reads the parameter as an array)."""
    if v is None and not none_is_nan:
        raise TypeError("must be real number, not NoneType")
    return np.asarray(v.get() if isinstance(v, _pg.ndarray) else v, dtype=np.float64)


def _values(v, name, check, message, nan_ok=False, none_is_nan=False):
    """A parameter as a host array, checked as NumPy checks it (ValueError with its message); a
    NaN fails the check unless nan_ok (NumPy's scale < 0 test lets it through: the draw is NaN)."""
    a = _floats(v, none_is_nan)
    with np.errstate(invalid="ignore"):
        bad = ~(check(a) | np.isnan(a)) if nan_ok else ~check(a) | np.isnan(a)
    if np.any(bad):
        raise ValueError(message.format(name=name))
    return a


def _positive(v, name):
    return _values(v, name, lambda a: a > 0, "{name} <= 0", nan_ok=True)


def _non_negative(v, name):
    return _values(v, name, lambda a: a >= 0, "{name} < 0", nan_ok=True)


def _shape_of(size, *params):
    """The draw's shape: size, or the parameters' broadcast shape."""
    if size is not None:
        return (size,) if np.ndim(size) == 0 else tuple(size)
    return np.broadcast_shapes(*[np.shape(p) for p in params])


def _on(value, shape, device):
    """A parameter broadcast to the draw's shape, on the device (a Python float stays one)."""
    if np.ndim(value) == 0:
        return float(value)
    return _pg.asarray(np.broadcast_to(value, shape), device=device)


class ComposedDistributions:
    """Methods of pygpu.random.Generator (a mixin: self has the kernel-backed draws)."""

    def _device_of(self, device):
        return _pg.Device(device) if device is not None else None

    def _uniform01(self, shape, device):
        return self.random(shape, device=device)

    # -- transformations of one draw

    def standard_cauchy(self, size=None, *, device=None):
        """The standard Cauchy distribution: a ratio of two standard normals."""
        shape = _shape_of(size)
        return self.standard_normal(shape, device=device) / self.standard_normal(shape, device=device)

    def rayleigh(self, scale=1.0, size=None, *, device=None):
        """scale * sqrt(2 E), E standard exponential."""
        s = _non_negative(scale, "scale")
        shape = _shape_of(size, s)
        e = self.standard_exponential(shape, device=device)
        return _on(s, shape, e.device) * _pg.sqrt(2.0 * e)

    def pareto(self, a, size=None, *, device=None):
        """The Pareto II (Lomax) distribution: expm1(E / a)."""
        a = _positive(a, "a")
        shape = _shape_of(size, a)
        e = self.standard_exponential(shape, device=device)
        return _pg.expm1(e / _on(a, shape, e.device))

    def weibull(self, a, size=None, *, device=None):
        """E ** (1 / a) (0 where a is 0)."""
        a = _non_negative(a, "a")
        shape = _shape_of(size, a)
        e = self.standard_exponential(shape, device=device)
        ad = _on(a, shape, e.device)
        if isinstance(ad, float):
            return e ** (1.0 / ad) if ad else _pg.zeros_like(e)
        return _pg.where(ad == 0, 0.0, e ** (1.0 / _pg.where(ad == 0, 1.0, ad)))

    def power(self, a, size=None, *, device=None):
        """The power distribution on [0, 1] with exponent a - 1: (1 - exp(-E)) ** (1 / a)."""
        a = _positive(a, "a")
        shape = _shape_of(size, a)
        e = self.standard_exponential(shape, device=device)
        return (-_pg.expm1(-e)) ** (1.0 / _on(a, shape, e.device))

    def gumbel(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """loc - scale * log(E)."""
        loc = _floats(loc)
        s = _non_negative(scale, "scale")
        shape = _shape_of(size, loc, s)
        e = self.standard_exponential(shape, device=device)
        return _on(loc, shape, e.device) - _on(s, shape, e.device) * _pg.log(e)

    def triangular(self, left, mode, right, size=None, *, device=None):
        """The triangular distribution on [left, right] peaking at mode (by inversion)."""
        lo, mo, hi = (_floats(v) for v in (left, mode, right))
        if np.any(lo > mo):
            raise ValueError("left > mode")
        if np.any(mo > hi):
            raise ValueError("mode > right")
        if np.any(lo == hi):
            raise ValueError("left == right")
        shape = _shape_of(size, lo, mo, hi)
        u = self._uniform01(shape, device)
        lo, mo, hi = (_on(v, shape, u.device) for v in (lo, mo, hi))
        base = hi - lo
        left_base = mo - lo
        return _pg.where(u <= left_base / base, lo + _pg.sqrt(u * left_base * base),
                         hi - _pg.sqrt((1.0 - u) * (hi - mo) * base))

    def wald(self, mean, scale, size=None, *, device=None):
        """The inverse Gaussian distribution (Michael, Schucany and Haas's transformation)."""
        m, s = _positive(mean, "mean"), _positive(scale, "scale")
        shape = _shape_of(size, m, s)
        n = self.standard_normal(shape, device=device)
        u = self._uniform01(shape, device)
        m, s = _on(m, shape, n.device), _on(s, shape, n.device)
        y = m * n * n
        # m + m / (2 s) (y - sqrt(4 s y + y^2)) without its cancellation (y >> s lost every digit:
        # negative draws at m / s = 1e7): the difference's conjugate form
        x = m - 2.0 * m * y / (y + _pg.sqrt(4.0 * s * y + y * y))
        return _pg.where(u <= m / (m + x), x, m * m / x)

    def f(self, dfnum, dfden, size=None, *, device=None):
        """Fisher's F: (chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden)."""
        a, b = _positive(dfnum, "dfnum"), _positive(dfden, "dfden")
        shape = _shape_of(size, a, b)
        num = self.chisquare(a, shape, device=device)
        den = self.chisquare(b, shape, device=device)
        return (num * _on(b, shape, num.device)) / (den * _on(a, shape, num.device))

    def noncentral_chisquare(self, df, nonc, size=None, *, device=None):
        """The noncentral chi-square distribution (NumPy's three cases: nonc 0, df > 1, df <= 1)."""
        df, nonc = _positive(df, "df"), _non_negative(nonc, "nonc")
        shape = _shape_of(size, df, nonc)
        dfb, ncb = np.broadcast_to(df, shape), np.broadcast_to(nonc, shape)
        central = self.chisquare(dfb, shape, device=device)
        big = self.chisquare(np.where(dfb > 1, dfb - 1, 1.0), shape, device=device)
        n = self.normal(np.sqrt(ncb), 1.0, shape, device=device)
        i = self.poisson(np.where(np.isnan(ncb), 0.0, ncb) / 2.0, shape, device=device)   # a NaN nonc: NaN below
        small = self.chisquare(_pg.asarray(dfb, device=i.device) + 2.0 * i, shape, device=device)
        d, c = _on(dfb, shape, n.device), _on(ncb, shape, n.device)
        return _pg.where(c == 0, central, _pg.where(d > 1, big + n * n, _pg.where(_pg.isnan(c), np.nan, small)))

    def noncentral_f(self, dfnum, dfden, nonc, size=None, *, device=None):
        """The noncentral F distribution."""
        a, b, c = _positive(dfnum, "dfnum"), _positive(dfden, "dfden"), _non_negative(nonc, "nonc")
        shape = _shape_of(size, a, b, c)
        t = self.noncentral_chisquare(np.broadcast_to(a, shape), np.broadcast_to(c, shape), shape, device=device)
        den = self.chisquare(np.broadcast_to(b, shape), shape, device=device)
        return (t * _on(b, shape, t.device)) / (den * _on(a, shape, t.device))

    def negative_binomial(self, n, p, size=None, *, device=None):
        """Failures before the n-th success: poisson(gamma(n, (1 - p) / p)) (int64)."""
        n = _values(n, "n", lambda a: a > 0, "{name} <= 0", none_is_nan=True)
        p = _values(p, "p", lambda a: (a > 0) & (a <= 1), "{name} <= 0, {name} > 1 or {name} is NaN", none_is_nan=True)
        shape = _shape_of(size, n, p)
        nb, pb = np.broadcast_to(n, shape), np.broadcast_to(p, shape)
        y = self.gamma(nb, (1.0 - pb) / pb, shape, device=device)
        return self.poisson(y.get() if y.ndim else float(y), shape, device=device)

    def dirichlet(self, alpha, size=None, *, device=None):
        """Points on the simplex: standard_gamma(alpha) normalised along the last axis; for small
        alphas (all below 0.1, where the gammas underflow to 0 and 0/0 gave NaN rows) NumPy's
        stick-breaking by beta draws. A NaN alpha gives NaN points, as NumPy's."""
        if np.ndim(alpha) == 0:
            len(alpha)   # NumPy takes len(alpha) first: Python's TypeError for a scalar
        alpha = np.asarray(alpha.get() if isinstance(alpha, _pg.ndarray) else alpha, dtype=np.float64)
        if alpha.ndim != 1:
            raise ValueError("alpha must be a one-dimensional array")
        if np.any(alpha < 0):
            raise ValueError("alpha < 0")
        k = alpha.shape[0]
        shape = (() if size is None else _shape_of(size)) + (k,)
        if k and np.all(alpha == 0):
            return _pg.zeros(shape, device=self._device_of(device))
        if k and alpha.max() < 0.1:
            return self._dirichlet_sticks(alpha, shape, device)
        g = self.standard_gamma(np.broadcast_to(alpha, shape), shape, device=device)
        total = g.sum(axis=-1, keepdims=True)
        return g / total

    def _dirichlet_sticks(self, alpha, shape, device):
        """Stick-breaking: part j of what is left is beta(alpha[j], sum(alpha[j+1:])) (0 where
        alpha[j] is 0, all of it where nothing follows), the last part what remains."""
        rest = np.cumsum(alpha[::-1])[::-1]   # rest[j] = sum(alpha[j:])
        left = _pg.ones(shape[:-1], device=self._device_of(device))
        parts = []
        for j in range(alpha.shape[0] - 1):
            a, b = alpha[j], rest[j + 1]
            v = self.beta(a, b, shape[:-1], device=device) if a > 0 and b > 0 else \
                _pg.full(shape[:-1], 0.0 if a == 0 else 1.0, device=left.device)
            parts.append(left * v)
            left = left * (1.0 - v)
        parts.append(left)
        return _pg.stack(parts, axis=-1)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd", device=None):
        """mean + z @ A with A from cov ('svd', 'eigh' or 'cholesky' factorisation), z standard
        normal of shape size + (n,)."""
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        dev = self._device_of(device)
        mean = _pg.asarray(mean, device=dev) + 0.0
        cov = _pg.asarray(cov, device=mean.device) + 0.0
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        n = mean.shape[0]
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if cov.shape[0] != n:
            raise ValueError("mean and cov must have same length")
        shape = (() if size is None else _shape_of(size)) + (n,)
        z = self.standard_normal(shape, device=mean.device)
        if method == "cholesky":
            a = _pg.linalg.cholesky(cov).T
        else:
            if method == "eigh":
                s, u = _pg.linalg.eigh(cov)
                psd = bool(_pg.all(s >= -tol))
                a = (u * _pg.sqrt(_pg.abs(s))).T
            else:
                u, s, vh = _pg.linalg.svd(cov)
                psd = _pg.allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol)
                a = _pg.sqrt(s)[:, None] * vh
            if not psd and check_valid != "ignore":
                if check_valid == "warn":
                    warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
                else:
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
        return z @ a + mean

    def multinomial(self, n, pvals, size=None, *, device=None):
        """Counts of n draws among the last axis of pvals' outcomes (int64), one binomial per
        outcome in turn; pvals of more dimensions give one distribution per leading index, which
        broadcast with n and size, as NumPy's Generator."""
        pvals = np.asarray(pvals.get() if isinstance(pvals, _pg.ndarray) else pvals, dtype=np.float64)
        if pvals.ndim == 0 or pvals.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be "
                             "greater than 0.")
        if np.any(pvals < 0) or np.any(pvals > 1) or np.any(np.isnan(pvals)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if np.any(pvals[..., :-1].sum(axis=-1) > 1.0 + 1e-12):
            raise ValueError("sum(pvals[:-1]) > 1.0")
        n = np.asarray(n.get() if isinstance(n, _pg.ndarray) else n)
        if np.any(n < 0):
            raise ValueError("n < 0")
        k = pvals.shape[-1]
        lead = _shape_of(size, n, pvals[..., 0])
        remaining = np.broadcast_to(n, lead).astype(np.int64)
        out = []
        rest, left = _pg.asarray(remaining, device=self._device_of(device)), np.ones(pvals.shape[:-1])
        for j in range(k - 1):
            with np.errstate(divide="ignore", invalid="ignore"):
                p = np.where(left > 0, np.clip(pvals[..., j] / left, 0.0, 1.0), 0.0)
            p = np.broadcast_to(p, lead) if p.ndim else float(p)
            x = self.binomial(rest.get() if rest.ndim else int(rest), p, lead, device=device)
            out.append(x)
            rest = rest - x
            left = left - pvals[..., j]
        out.append(rest)
        return _pg.stack(out, axis=-1)

    # -- rejection: redraw what was not accepted

    def _reject(self, shape, device, propose, dtype=np.int64):
        """An array of shape filled by propose(count, index) -> (values, accepted) over the
        elements still pending (their flat indices), until every one is accepted (of dtype when
        there is none to propose)."""
        total = int(np.prod(shape))
        dev = self._device_of(device)
        out = None
        pending = _pg.arange(total, dtype=np.int64, device=dev)
        while pending.shape[0]:
            values, accepted = propose(pending.shape[0], pending)
            if out is None:
                out = _pg.empty(total, dtype=values.dtype, device=values.device)
            out[pending[accepted]] = values[accepted]
            pending = pending[~accepted]
        if out is None:
            out = _pg.empty(total, dtype=dtype, device=dev)
        return out.reshape(shape)

    def logseries(self, p, size=None, *, device=None):
        """The logarithmic series distribution (Kemp's algorithm), int64."""
        p = _values(p, "p", lambda a: (a >= 0) & (a < 1), "{name} < 0, {name} >= 1 or {name} is NaN")
        shape = _shape_of(size, p)
        flat = np.broadcast_to(p, shape).reshape(-1)

        def propose(count, index):
            pp = _pg.take(_pg.asarray(flat, device=index.device), index)
            v = self.random(count, device=index.device)
            u = self.random(count, device=index.device)
            q = -_pg.expm1(_pg.log1p(-pp) * u)
            with np.errstate(divide="ignore", invalid="ignore"):
                k = _pg.floor(1.0 + _pg.log(v) / _pg.log(q))
            tail = _pg.logical_and(v < pp, v <= q * q)
            result = _pg.where(v >= pp, 1.0, _pg.where(tail, k, _pg.where(v >= q, 1.0, 2.0)))
            ok = ~_pg.logical_and(tail, _pg.logical_or(k < 1, v == 0))
            return result.astype(np.int64), ok

        return self._reject(shape, device, propose)

    def zipf(self, a, size=None, *, device=None):
        """The Zipf distribution with exponent a > 1 (Devroye's rejection), int64."""
        a = _values(a, "a", lambda x: x > 1, "{name} <= 1 or {name} is NaN")
        shape = _shape_of(size, a)
        flat = np.broadcast_to(a, shape).reshape(-1)
        limit = float(np.iinfo(np.int64).max)

        def propose(count, index):
            am1 = _pg.take(_pg.asarray(flat, device=index.device), index) - 1.0
            b = 2.0 ** am1
            u = 1.0 - self.random(count, device=index.device)
            v = self.random(count, device=index.device)
            x = _pg.floor(u ** (-1.0 / am1))
            inside = _pg.logical_and(x >= 1.0, x <= limit)
            xs = _pg.where(inside, x, 1.0)
            t = (1.0 + 1.0 / xs) ** am1
            ok = _pg.logical_and(inside, v * xs * (t - 1.0) / (b - 1.0) <= t / b)
            return _pg.where(ok, xs, 1.0).astype(np.int64), ok

        return self._reject(shape, device, propose)

    def vonmises(self, mu, kappa, size=None, *, device=None):
        """The von Mises distribution on [-pi, pi] (Best and Fisher's rejection; uniform for
        kappa < 1e-8, a wrapped normal for kappa > 1e6, as NumPy's)."""
        mu = _floats(mu)
        kappa = _non_negative(kappa, "kappa")
        shape = _shape_of(size, mu, kappa)
        mus, kappas = np.broadcast_to(mu, shape).reshape(-1), np.broadcast_to(kappa, shape).reshape(-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = 1 + np.sqrt(1 + 4 * kappas * kappas)
            rho = (r - np.sqrt(2 * r)) / (2 * kappas)
            s_all = np.where(kappas < 1e-5, 1.0 / kappas + kappas, (1 + rho * rho) / (2 * rho))

        def propose(count, index):
            dev = index.device
            k = _pg.take(_pg.asarray(kappas, device=dev), index)
            m = _pg.take(_pg.asarray(mus, device=dev), index)
            s = _pg.take(_pg.asarray(np.where(np.isfinite(s_all), s_all, 1.0), device=dev), index)
            u = self.random(count, device=dev)
            v = self.random(count, device=dev)
            side = self.random(count, device=dev)
            z = _pg.cos(np.pi * u)
            w = (1 + s * z) / (s + z)
            y = k * (s - w)
            with np.errstate(divide="ignore", invalid="ignore"):
                ok = _pg.logical_or(y * (2 - y) - v >= 0, _pg.log(y / v) + 1 - y >= 0)
            angle = _pg.arccos(_pg.clip(w, -1.0, 1.0))
            angle = _pg.where(side < 0.5, -angle, angle) + m
            wrapped = _pg.fmod(_pg.abs(angle) + np.pi, 2 * np.pi) - np.pi
            result = _pg.where(angle < 0, -wrapped, wrapped)
            normal = m + _pg.sqrt(1.0 / _pg.where(k > 0, k, 1.0)) * self.standard_normal(count, device=dev)
            normal = _pg.where(normal < -np.pi, normal + 2 * np.pi, _pg.where(normal > np.pi, normal - 2 * np.pi, normal))
            flat_u = np.pi * (2 * u - 1)
            result = _pg.where(k < 1e-8, flat_u, _pg.where(k > 1e6, normal, result))
            ok = _pg.logical_or(ok, _pg.logical_or(k < 1e-8, k > 1e6))
            nan = _pg.logical_or(_pg.isnan(k), _pg.isnan(m))   # NumPy's draw of a NaN parameter
            return _pg.where(nan, np.nan, result), _pg.logical_or(ok, nan)

        return self._reject(shape, device, propose, np.float64)


    # -- hypergeometric (helpers below the class)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, device=None):
        """The number of good items in a sample of nsample drawn without replacement from ngood good
        and nbad bad ones (int64): an urn draw for samples up to 10, Stadlober's HRUA beyond."""
        return _hypergeometric(self, ngood, nbad, nsample, size, device)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals", *, device=None):
        """How many of each colour a sample of nsample without replacement holds (int64, the
        colours on the last axis): one hypergeometric draw per colour against the rest."""
        if method not in ("marginals", "count"):
            raise ValueError('method must be "count" or "marginals".')
        colors = np.asarray(colors.get() if isinstance(colors, _pg.ndarray) else colors)
        if colors.ndim == 1 and colors.size == 0:
            colors = colors.astype(np.int64)   # no colours: an empty draw, as NumPy's
        if not isinstance(nsample, (int, np.integer)):
            raise ValueError("nsample must be an integer")
        if colors.ndim != 1 or not np.issubdtype(colors.dtype, np.integer):
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers")
        if np.any(colors < 0):
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers")
        total = int(colors.sum())
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        lead = () if size is None else _shape_of(size)
        remaining = np.full(lead, int(nsample), dtype=np.int64)
        left = total
        out = []
        rest = _pg.asarray(remaining, device=self._device_of(device))
        if colors.shape[0] == 0:
            return _pg.zeros(lead + (0,), dtype=np.int64, device=rest.device)
        for k in range(colors.shape[0] - 1):
            left -= int(colors[k])
            x = _hypergeometric(self, int(colors[k]), left, rest, lead, device)
            out.append(x)
            rest = rest - x
        out.append(rest)
        return _pg.stack(out, axis=-1)


_LOG_FACTORIALS = np.array([math.lgamma(k + 1.0) for k in range(126)])


def _log_factorial(k):
    """log(k!) of a float array of integers: a table below 126, Stirling's series above (its
    next term is below 1e-15 relative there)."""
    table = _pg.take(_pg.asarray(_LOG_FACTORIALS, device=k.device), _pg.clip(k, 0, 125).astype(np.int64))
    big = _pg.maximum(k, 126.0)
    stirling = (big + 0.5) * _pg.log(big) - big + 0.5 * math.log(2 * math.pi) + 1.0 / (12.0 * big) \
        - 1.0 / (360.0 * big ** 3)
    return _pg.where(k < 126, table, stirling)


def _hypergeometric_urn(self, good, bad, sample, device):
    """Small samples (at most 10): draw the sample one item at a time from the urn."""
    dev = good.device
    left_good, total = good.astype(np.float64), (good + bad).astype(np.float64)
    taken = _pg.zeros(good.shape, dtype=np.int64, device=dev)
    for step in range(int(_pg.max(sample)) if sample.size else 0):
        active = sample > step
        u = self.random(good.shape, device=dev)
        hit = _pg.logical_and(active, u * total < left_good)
        taken = taken + hit.astype(np.int64)
        left_good = left_good - hit.astype(np.float64)
        total = total - active.astype(np.float64)
    return taken


def _hypergeometric_ratio(self, good, bad, sample, device):
    """Larger samples: Stadlober's ratio-of-uniforms rejection (HRUA), on the smaller of the
    two colours and the smaller of the sample and its complement, mapped back after."""
    popsize = (good + bad).astype(np.float64)
    small_sample = _pg.minimum(sample, good + bad - sample).astype(np.float64)
    lo = _pg.minimum(good, bad).astype(np.float64)
    hi = _pg.maximum(good, bad).astype(np.float64)
    p, q = lo / popsize, hi / popsize
    a = small_sample * p + 0.5
    c = _pg.sqrt((popsize - small_sample) * small_sample * p * q / (popsize - 1) + 0.5)
    h = 1.7155277699214135 * c + 0.8989161620588988   # 2 sqrt(2/e) and 3 - 2 sqrt(3/e)
    mode = _pg.floor((small_sample + 1) * (lo + 1) / (popsize + 2))
    g = _log_factorial(mode) + _log_factorial(lo - mode) + _log_factorial(small_sample - mode) + \
        _log_factorial(hi - small_sample + mode)
    bound = _pg.minimum(_pg.minimum(small_sample, lo) + 1, _pg.floor(a + 16 * c))
    flat = [x.reshape(-1) for x in (a, h, g, bound, lo, hi, small_sample)]

    def propose(count, index):
        aa, hh, gg, bb, mn, mx, ss = (_pg.take(x, index) for x in flat)
        u = self.random(count, device=index.device)
        v = self.random(count, device=index.device)
        x = aa + hh * (v - 0.5) / u
        inside = _pg.logical_and(x >= 0.0, x < bb)
        k = _pg.floor(_pg.where(inside, x, 0.0))
        t = gg - (_log_factorial(k) + _log_factorial(mn - k) + _log_factorial(ss - k) + _log_factorial(mx - ss + k))
        with np.errstate(divide="ignore"):
            accept = _pg.logical_or(u * (4.0 - u) - 3.0 <= t,
                                    _pg.logical_and(u * (u - t) < 1, 2.0 * _pg.log(u) <= t))
        return k, _pg.logical_and(inside, accept)

    k = self._reject(good.shape, device, propose)
    k = _pg.where(good > bad, small_sample - k, k)
    return _pg.where(small_sample < sample, good - k, k).astype(np.int64)


def _hypergeometric(self, ngood, nbad, nsample, size, device):
    # integers as NumPy's cast takes them: floats truncated, NaN its ValueError
    good, bad, sample = (np.asarray(v.get() if isinstance(v, _pg.ndarray) else v) for v in (ngood, nbad, nsample))
    for v in (good, bad, sample):
        if v.dtype.kind in "fc" and np.any(np.isnan(v)):
            raise ValueError("cannot convert float NaN to integer")
    good, bad, sample = (np.trunc(v).astype(np.int64) if v.dtype.kind == "f" else v for v in (good, bad, sample))
    if np.any(good >= 10**9) or np.any(bad >= 10**9):
        raise ValueError("both ngood and nbad must be less than 1000000000")
    if np.any(good < 0):
        raise ValueError("ngood < 0")
    if np.any(bad < 0):
        raise ValueError("nbad < 0")
    if np.any(sample < 0):
        raise ValueError("nsample < 0")
    if np.any(good + bad < sample):
        raise ValueError("ngood + nbad < nsample")
    shape = _shape_of(size, good, bad, sample)
    dev = self._device_of(device)
    good, bad, sample = (_pg.asarray(np.broadcast_to(v, shape).astype(np.int64), device=dev) for v in (good, bad, sample))
    small = _hypergeometric_urn(self, good, bad, _pg.where(sample <= 10, sample, 0), device)
    if not bool(_pg.any(sample > 10)):
        return small
    large = _hypergeometric_ratio(self, good, bad, _pg.maximum(sample, 11), device)
    return _pg.where(sample <= 10, small, large)
