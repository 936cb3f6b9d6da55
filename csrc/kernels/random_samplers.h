/* The rejection samplers of random.h (gamma, beta, Poisson, binomial), each drawing from an
 * element's own stream (random_variates.h) as many words as it needs. Common subset of C and
 * CUDA C; every rounding operation through random_math.h. */
#ifndef PG_RANDOM_SAMPLERS_H
#define PG_RANDOM_SAMPLERS_H
#include "random_variates.h"

/* ------------------------------------------------------------------ samplers */

/* Marsaglia and Tsang, "A simple method for generating gamma variables" (2000), shape >= 1. */
PG_INLINE PG_HOST_DEVICE double
pg_gamma_mt(PgRandStream *st, double shape)
{
    double d = PG_DSUB(shape, 0x1.5555555555555p-2); /* shape - 1/3 */
    double c = PG_DDIV(1.0, PG_DSQRT(PG_DMUL(9.0, d)));
    while (!st->failed) {
        double x, v;
        do {
            x = pg_rstream_normal(st);
            v = PG_DADD(1.0, PG_DMUL(c, x));
        } while (v <= 0.0 && !st->failed);
        v = PG_DMUL(PG_DMUL(v, v), v);
        double u = pg_rstream_u01_open(st);
        double x2 = PG_DMUL(x, x);
        if (u < PG_DSUB(1.0, PG_DMUL(PG_DMUL(0.0331, x2), x2)))
            return PG_DMUL(d, v);
        double rhs = PG_DADD(PG_DMUL(0.5, x2), PG_DMUL(d, PG_DADD(PG_DSUB(1.0, v), pg_rlog(v))));
        if (pg_rlog_normal(u) < rhs)
            return PG_DMUL(d, v);
    }
    return PG_R_NAN;
}

PG_INLINE PG_HOST_DEVICE double
pg_sample_gamma(PgRandStream *st, double shape)
{
    if (!(shape > 0.0))
        return shape == 0.0 ? 0.0 : PG_R_NAN;
    if (shape == PG_R_INF)
        return shape;
    if (shape < 1.0) {
        /* Gamma(a) = Gamma(a + 1) U^(1/a) */
        double g = pg_gamma_mt(st, PG_DADD(shape, 1.0));
        double u = pg_rstream_u01_open(st);
        return PG_DMUL(g, pg_rexp(PG_DDIV(pg_rlog_normal(u), shape)));
    }
    return pg_gamma_mt(st, shape);
}

/* Johnk's method for a, b <= 1 (in logarithms when a power underflows), else two gammas; for
 * a, b below 3e-103 a value other than 0 or 1 has a probability under 1e-100, so it is 1 with
 * probability a / (a + b). */
PG_INLINE PG_HOST_DEVICE double
pg_sample_beta(PgRandStream *st, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) {
        if (a < 3e-103 && b < 3e-103)
            return PG_DMUL(PG_DADD(a, b), pg_rstream_u01(st)) < a ? 1.0 : 0.0;
        while (!st->failed) {
            double lx = PG_DDIV(pg_rlog_normal(pg_rstream_u01_open(st)), a);
            double ly = PG_DDIV(pg_rlog_normal(pg_rstream_u01_open(st)), b);
            double x = pg_rexp(lx), y = pg_rexp(ly), xy = PG_DADD(x, y);
            if (xy <= 1.0) {
                if (x > 0.0 && y > 0.0)
                    return PG_DDIV(x, xy);
                double d = PG_DSUB(lx, ly); /* x / (x + y) = 1 / (1 + e^-d) */
                if (d > 0.0)
                    return pg_rexp(PG_DSUB(0.0, pg_rlog1p(pg_rexp(PG_DSUB(0.0, d)))));
                return pg_rexp(PG_DSUB(d, pg_rlog1p(pg_rexp(d))));
            }
        }
        return PG_R_NAN;
    }
    double ga = pg_sample_gamma(st, a);
    double gb = pg_sample_gamma(st, b);
    return PG_DDIV(ga, PG_DADD(ga, gb));
}

/* Hormann, "The transformed rejection method for generating Poisson random variables" (1993),
 * PTRS, for lam >= 10. */
PG_INLINE PG_HOST_DEVICE int64_t
pg_poisson_ptrs(PgRandStream *st, double lam)
{
    double slam = PG_DSQRT(lam), loglam = pg_rlog(lam);
    double b = PG_DADD(0.931, PG_DMUL(2.53, slam));
    double a = PG_DADD(-0.059, PG_DMUL(0.02483, b));
    double log_invalpha = pg_rlog(PG_DADD(1.1239, PG_DDIV(1.1328, PG_DSUB(b, 3.4))));
    double vr = PG_DSUB(0.9277, PG_DDIV(3.6224, PG_DSUB(b, 2.0)));
    while (!st->failed) {
        double u = PG_DSUB(pg_rstream_u01(st), 0.5);
        double v = pg_rstream_u01(st);
        double us = PG_DSUB(0.5, fabs(u));
        double k = PG_DFLOOR(PG_DADD(PG_DADD(PG_DMUL(PG_DADD(PG_DDIV(PG_DMUL(2.0, a), us), b), u), lam), 0.43));
        if (us >= 0.07 && v <= vr)
            return (int64_t)k;
        if (k < 0.0 || (us < 0.013 && v > us))
            continue;
        double lhs = PG_DSUB(PG_DADD(pg_rlog(v), log_invalpha), pg_rlog(PG_DADD(PG_DDIV(a, PG_DMUL(us, us)), b)));
        double rhs = PG_DSUB(PG_DADD(-lam, PG_DMUL(k, loglam)), pg_rloggam(PG_DADD(k, 1.0)));
        if (lhs <= rhs)
            return (int64_t)k;
    }
    return 0;
}

PG_INLINE PG_HOST_DEVICE int64_t
pg_sample_poisson(PgRandStream *st, double lam)
{
    if (lam >= 10.0)
        return pg_poisson_ptrs(st, lam);
    if (lam == 0.0)
        return 0;
    /* multiply uniforms until the product falls below exp(-lam) */
    double enlam = pg_rexp(-lam), prod = 1.0;
    int64_t x = 0;
    while (!st->failed) {
        prod = PG_DMUL(prod, pg_rstream_u01(st));
        if (prod <= enlam)
            return x;
        x++;
    }
    return 0;
}

/* Inversion, for n p <= 30 (p <= 1/2): the CDF walked up from 0, restarted past a far bound. */
PG_INLINE PG_HOST_DEVICE int64_t
pg_binomial_inversion(PgRandStream *st, int64_t n, double p)
{
    double q = PG_DSUB(1.0, p), dn = (double)n;
    double qn = pg_rexp(PG_DMUL(dn, pg_rlog(q)));
    double np = PG_DMUL(dn, p);
    double bound = PG_DADD(np, PG_DMUL(10.0, PG_DSQRT(PG_DADD(PG_DMUL(np, q), 1.0))));
    if (bound > dn)
        bound = dn;
    int64_t x = 0;
    double px = qn, u = pg_rstream_u01(st);
    while (u > px && !st->failed) {
        x++;
        if ((double)x > bound) {
            x = 0;
            px = qn;
            u = pg_rstream_u01(st);
        } else {
            u = PG_DSUB(u, px);
            px = PG_DDIV(PG_DMUL(PG_DMUL((double)(n - x + 1), p), px), PG_DMUL((double)x, q));
        }
    }
    return x;
}

/* de Moivre's correction to Stirling's formula, 1/(12x) - 1/(360x^3) + ..., for BTPE. */
PG_INLINE PG_HOST_DEVICE double
pg_stirling_tail(double x)
{
    double x2 = PG_DMUL(x, x);
    double t = PG_DSUB(99.0, PG_DDIV(140.0, x2));
    t = PG_DSUB(132.0, PG_DDIV(t, x2));
    t = PG_DSUB(462.0, PG_DDIV(t, x2));
    t = PG_DSUB(13860.0, PG_DDIV(t, x2));
    return PG_DDIV(PG_DDIV(t, x), 166320.0);
}

/* Kachitvichyanukul and Schmeiser, "Binomial random variate generation" (1988), BTPE, for
 * n p > 30 with p <= 1/2. The final test adds the Stirling corrections of m! and (n-m)! and
 * subtracts those of y! and (n-y)!. */
PG_INLINE PG_HOST_DEVICE int64_t
pg_binomial_btpe(PgRandStream *st, int64_t n, double p)
{
    double dn = (double)n, r = p, q = PG_DSUB(1.0, p);
    double fm = PG_DADD(PG_DMUL(dn, r), r);
    double m = PG_DFLOOR(fm);
    double nrq = PG_DMUL(PG_DMUL(dn, r), q);
    double p1 = PG_DADD(PG_DFLOOR(PG_DSUB(PG_DMUL(2.195, PG_DSQRT(nrq)), PG_DMUL(4.6, q))), 0.5);
    double xm = PG_DADD(m, 0.5), xl = PG_DSUB(xm, p1), xr = PG_DADD(xm, p1);
    double c = PG_DADD(0.134, PG_DDIV(20.5, PG_DADD(15.3, m)));
    double al = PG_DDIV(PG_DSUB(fm, xl), PG_DSUB(fm, PG_DMUL(xl, r)));
    double laml = PG_DMUL(al, PG_DADD(1.0, PG_DMUL(0.5, al)));
    double ar = PG_DDIV(PG_DSUB(xr, fm), PG_DMUL(xr, q));
    double lamr = PG_DMUL(ar, PG_DADD(1.0, PG_DMUL(0.5, ar)));
    double p2 = PG_DMUL(p1, PG_DADD(1.0, PG_DMUL(2.0, c)));
    double p3 = PG_DADD(p2, PG_DDIV(c, laml));
    double p4 = PG_DADD(p3, PG_DDIV(c, lamr));
    while (!st->failed) {
        double u = PG_DMUL(pg_rstream_u01(st), p4);
        double v = pg_rstream_u01(st);
        double y;
        if (u <= p1) /* the triangle: accepted at once */
            return (int64_t)PG_DFLOOR(PG_DADD(PG_DSUB(xm, PG_DMUL(p1, v)), u));
        if (u <= p2) { /* the parallelograms */
            double x = PG_DADD(xl, PG_DDIV(PG_DSUB(u, p1), c));
            v = PG_DSUB(PG_DADD(PG_DMUL(v, c), 1.0), PG_DDIV(fabs(PG_DADD(PG_DSUB(m, x), 0.5)), p1));
            if (v > 1.0)
                continue;
            y = PG_DFLOOR(x);
        } else if (u <= p3) { /* the left exponential tail */
            y = PG_DFLOOR(PG_DADD(xl, PG_DDIV(pg_rlog(v), laml)));
            if (y < 0.0)
                continue;
            v = PG_DMUL(PG_DMUL(v, PG_DSUB(u, p2)), laml);
        } else { /* the right one */
            y = PG_DFLOOR(PG_DSUB(xr, PG_DDIV(pg_rlog(v), lamr)));
            if (y > dn)
                continue;
            v = PG_DMUL(PG_DMUL(v, PG_DSUB(u, p3)), lamr);
        }
        double k = fabs(PG_DSUB(y, m));
        if (k <= 20.0 || k >= PG_DSUB(PG_DDIV(nrq, 2.0), 1.0)) {
            /* f(y)/f(m) by the recurrence f(i)/f(i-1) = a/i - s */
            double s = PG_DDIV(r, q), aa = PG_DMUL(s, PG_DADD(dn, 1.0)), f = 1.0;
            if (m < y)
                for (double i = PG_DADD(m, 1.0); i <= y; i = PG_DADD(i, 1.0))
                    f = PG_DMUL(f, PG_DSUB(PG_DDIV(aa, i), s));
            else if (m > y)
                for (double i = PG_DADD(y, 1.0); i <= m; i = PG_DADD(i, 1.0))
                    f = PG_DDIV(f, PG_DSUB(PG_DDIV(aa, i), s));
            if (v <= f)
                return (int64_t)y;
            continue;
        }
        /* squeeze on log f(y)/f(m), then the exact test */
        double rho = PG_DMUL(PG_DDIV(k, nrq),
                             PG_DADD(PG_DDIV(PG_DADD(PG_DMUL(k, PG_DADD(PG_DDIV(k, 3.0), 0.625)), 0x1.5555555555555p-3), nrq), 0.5));
        double t = PG_DDIV(PG_DMUL(-k, k), PG_DMUL(2.0, nrq));
        double la = pg_rlog(v);
        if (la < PG_DSUB(t, rho))
            return (int64_t)y;
        if (la > PG_DADD(t, rho))
            continue;
        double x1 = PG_DADD(y, 1.0), f1 = PG_DADD(m, 1.0), z = PG_DSUB(PG_DADD(dn, 1.0), m), w = PG_DADD(PG_DSUB(dn, y), 1.0);
        double bound = PG_DMUL(xm, pg_rlog(PG_DDIV(f1, x1)));
        bound = PG_DADD(bound, PG_DMUL(PG_DADD(PG_DSUB(dn, m), 0.5), pg_rlog(PG_DDIV(z, w))));
        bound = PG_DADD(bound, PG_DMUL(PG_DSUB(y, m), pg_rlog(PG_DDIV(PG_DMUL(w, r), PG_DMUL(x1, q)))));
        bound = PG_DADD(bound, PG_DSUB(PG_DADD(pg_stirling_tail(f1), pg_stirling_tail(z)),
                                       PG_DADD(pg_stirling_tail(x1), pg_stirling_tail(w))));
        if (la <= bound)
            return (int64_t)y;
    }
    return 0;
}

PG_INLINE PG_HOST_DEVICE int64_t
pg_sample_binomial(PgRandStream *st, int64_t n, double p)
{
    if (n == 0 || p == 0.0)
        return 0;
    int flip = p > 0.5;
    double r = flip ? PG_DSUB(1.0, p) : p;
    int64_t y = PG_DMUL(r, (double)n) <= 30.0 ? pg_binomial_inversion(st, n, r) : pg_binomial_btpe(st, n, r);
    return flip ? n - y : y;
}
#endif
