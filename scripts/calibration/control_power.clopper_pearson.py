#!/usr/bin/env python3
"""Clopper-Pearson bounds and control-power figures quoted in the "Calibration" sections of the derivations.

For each claim: the one-sided 99.9% Clopper-Pearson lower bound f_L on the per-case violation probability of its
negative control, from the pooled fresh-seed counts (x of n double cases violated), and the bound
P(control not caught per run) <= (1 - f_L)^m for m cases per run. Backs the "Control power" paragraphs of
docs/derivations/demo.fp.one_pass_variance.md, goel.geometry.one_point_strong_convexity.md,
goel.init.spectral_exact.md, goel.manifold.global_minima.md, goel.population.invariances.md and
goel.precond.equivalence.md, and the one-sided 99.9% hold-rate bounds of qin.gd.residual_speeds_convergence.md and
qin.residual.conditioning_trend.md.
The counts are the measurements the derivations report (rerun them with the `build/thmcheck run` commands under
"Seeds and reproduction" there); this script turns them into the bounds. Pure Python (math only).
"""
import math
import functools

from _common import show

show = functools.partial(show, width=80)  # this script's longer names


def log_binom_pmf(k, n, p):
    if p <= 0.0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1.0:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binom_sf(x, n, p):
    """P(Bin(n, p) >= x)."""
    return sum(math.exp(log_binom_pmf(k, n, p)) for k in range(x, n + 1))


def binom_cdf(x, n, p):
    """P(Bin(n, p) <= x)."""
    return sum(math.exp(log_binom_pmf(k, n, p)) for k in range(0, x + 1))


def cp_lower(x, n, alpha):
    """One-sided lower bound: the p with P(Bin(n, p) >= x) = alpha."""
    if x == 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if binom_sf(x, n, mid) < alpha:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def cp_upper(x, n, alpha):
    """One-sided upper bound: the p with P(Bin(n, p) <= x) = alpha."""
    if x == n:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if binom_cdf(x, n, mid) > alpha:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# claim, violated, judged double cases (pooled over 20 fresh seeds), cases per run
controls = [
    ("demo.fp.one_pass_variance", 800, 800, 40),
    ("goel.geometry.one_point_strong_convexity", 1035, 4000, 200),
    ("goel.init.spectral_exact", 1000, 1000, 50),
    ("goel.manifold.global_minima", 1059, 2000, 100),
    ("goel.population.invariances", 2000, 2000, 100),
    ("goel.precond.equivalence", 1000, 1000, 50),
]
for claim, x, n, m in controls:
    f_l = cp_lower(x, n, 1e-3)
    show("%s: f_L (%d of %d violated)" % (claim, x, n), f_l, "%.4f")
    # (1 - f_L)^m in log10 to survive underflow
    lg = m * math.log10(1 - f_l)
    e = math.floor(lg)
    print("%-80s %.2fe%d" % ("%s: P(control not caught per run) <= (1 - f_L)^%d" % (claim, m), 10 ** (lg - e), e))

# Hold rates of the [Q] trends, one-sided 99.9% bounds each side.
rates = [
    ("qin.gd.residual_speeds_convergence (C1)", 3507, 3600),
    ("qin.residual.conditioning_trend", 9624, 10322),
]
for claim, x, n in rates:
    show("%s: hold rate %d/%d" % (claim, x, n), x / n, "%.4f")
    show("%s: one-sided 99.9%% lower bound" % claim, cp_lower(x, n, 1e-3), "%.4f")
    show("%s: one-sided 99.9%% upper bound" % claim, cp_upper(x, n, 1e-3), "%.4f")
