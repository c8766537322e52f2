#!/usr/bin/env python3
"""Closed-form calibration figures of goel.optimum.excess_falls_prompts and goel.optimum.excess_falls_one_sequence.

Backs docs/derivations/goel.optimum.excess_falls_prompts.md and goel.optimum.excess_falls_one_sequence.md, "Negative
control" and "Calibration": the support test's rejection region at p0 = 1/2 and level 1e-3 (40 and 700 cases), one-sided
95% Clopper-Pearson bounds of the measured rates, the false-failure probability of the prompts claim, the power of the
controls (the excess falls 100-, 300-, 1000-fold), and the probability that a run of 700 cases shows the finding.
The counts are measurements (development seeds 12 and 101 at m = 1000: 299 of 396 held; seed 101: 31, 15 and 8 of 296
fell 100-, 300- and 1000-fold; seed 102: 355 of 996 held on one sequence); this script only turns them into the figures.
Pure Python (math only); every figure is printed with its name.
"""
from _common import binom_cdf, bisect, show


def cutoff(n, p0=0.5, level=1e-3):
    """The largest k with P(Bin(n, p0) <= k) < level (-1 if none): the support test rejects at <= k held."""
    k = -1
    while binom_cdf(k + 1, n, p0) < level:
        k += 1
    return k


def cp_upper(x, n, conf=0.95):
    return bisect(lambda p: (1 - conf) - binom_cdf(x, n, p), x / n, 1.0) if x < n else 1.0


def cp_lower(x, n, conf=0.95):
    return bisect(lambda p: (1 - binom_cdf(x - 1, n, p)) - (1 - conf), 0.0, x / n) if x > 0 else 0.0


for n in (40, 700):
    k = cutoff(n)
    show("support test, %d cases: rejects when held <=" % n, k, "%d")
    show("  its size P(Bin(%d, 1/2) <= %d)" % (n, k), binom_cdf(k, n, 0.5))
k40 = cutoff(40)
lo = cp_lower(299, 396)
show("prompts: hold rate 299/396", 299 / 396)
show("prompts: Clopper-Pearson 95% lower bound", lo)
show("prompts: false failure P(Bin(40, p_low) <= %d)" % k40, binom_cdf(k40, 40, lo))
for factor, x in ((100, 31), (300, 15), (1000, 8)):
    up = cp_upper(x, 296)
    show("control %d-fold: rate %d/296, 95%% upper bound" % (factor, x), up)
    show("control %d-fold: power at 40 cases, P(Bin(40, p_up) <= %d)" % (factor, k40), binom_cdf(k40, 40, up), "%.5f")
k700 = cutoff(700)
up = cp_upper(355, 996)
show("one sequence: hold rate 355/996", 355 / 996)
show("one sequence: Clopper-Pearson 95% upper bound", up)
show("one sequence: the finding shows, P(Bin(700, p_up) <= %d)" % k700, binom_cdf(k700, 700, up), "%.5f")
for n in (500, 600, 800):
    show("one sequence: the same at %d cases" % n, binom_cdf(cutoff(n), n, up), "%.5f")
# The later algorithm (goel.optimum.scale_invariant_prompts; seeds 105 and 106, 100 and 300 cases): 307 of 396 held, the
# control held on 24 of 396.
lo = cp_lower(307, 396)
show("later algorithm: hold rate 307/396", 307 / 396)
show("later algorithm: Clopper-Pearson 95% lower bound", lo)
up = cp_upper(24, 396)
show("later algorithm: control 300-fold, rate 24/396, 95% upper bound", up)
for n in (40, 60):
    k = cutoff(n)
    show("later algorithm: false failure at %d cases, P(Bin(%d, p_low) <= %d)" % (n, n, k), binom_cdf(k, n, lo))
    show("later algorithm: control power at %d cases, P(Bin(%d, p_up) <= %d)" % (n, n, k), binom_cdf(k, n, up), "%.5f")
