#!/usr/bin/env python3
"""Closed-form calibration figures of goel.optimum.excess_falls_prompts and goel.optimum.excess_falls_one_sequence.

Backs docs/derivations/goel.optimum.excess_falls_prompts.md and goel.optimum.excess_falls_one_sequence.md, "Negative
control" and "Calibration": the support test's rejection region at p0 = 1/2 and level 1e-3 (40 and 700 cases), one-sided
95% Clopper-Pearson bounds of the measured rates, the false-failure probability of the prompts claim, the power of the
controls (the excess falls 100-, 300-, 1000-fold), the probability that a run of 700 cases shows the finding, and the prompts claims' budget of 550 cases: the smallest
at which a run rejects the one-sequence reading's share of falling runs (its 95% upper bound 0.382) with probability at
least 0.99 at every judged count a run of 550 can have after its discards (533 to 550).
The counts are measurements (development seeds 12 and 101 at m = 1000: 299 of 396 held; seed 101: 31, 15 and 8 of 296
fell 100-, 300- and 1000-fold; seed 102: 355 of 996 held on one sequence); this script only turns them into the figures.
Pure Python (math only); every figure is printed with its name.
"""
from _common import binom_cdf, bisect, show


def cutoff(n, p0=0.5, level=1e-3):
    """The largest k with P(Bin(n, p0) <= k) < level (-1 if none): the support test rejects at <= k held."""
    # Bisection on k: the tail sums are non-decreasing in k (each adds a non-negative term to the same sum, and
    # rounding is monotonic), so this is the k of the linear scan, in O(log n) tail sums instead of O(n).
    lo, hi = -1, n  # P(<= -1) = 0 < level; P(<= n) = 1 >= level
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if binom_cdf(mid, n, p0) < level:
            lo = mid
        else:
            hi = mid
    return lo


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

# The prompts claims' budget (goel.optimum.excess_falls_prompts and goel.optimum.scale_invariant_prompts, "Calibration"):
# a `holds` must tell the prompts reading from the one-sequence reading, so a run of the support test at p0 = 1/2 must reject
# the one-sequence share with probability >= 0.99. The alternative is that share's one-sided 95% upper bound (355 of 996),
# not its estimate: the hardest one-sequence share the measurement allows. Power at N judged cases is P(Bin(N, p_up) <= k(N)).
up = cp_upper(355, 996)
power = {n: binom_cdf(cutoff(n), n, up) for n in range(400, 701)}
smallest = min(n for n in power if all(power[m] >= 0.99 for m in range(n, 701)))
show("prompts budget: smallest N with power >= 0.99 at every count N..700", smallest, "%d")
show("prompts budget: power at 40 cases (the former budget), P(Bin(40, p_up) <= %d)" % cutoff(40), binom_cdf(cutoff(40), 40, up), "%.5f")
show("prompts budget: power at 60 cases (the former later-algorithm budget)", binom_cdf(cutoff(60), 60, up), "%.5f")
show("prompts budget: power at 40 cases at the estimate 355/996", binom_cdf(cutoff(40), 40, 355 / 996), "%.5f")
for n in (540, 550):
    show("prompts budget: %d cases reject when held <=" % n, cutoff(n), "%d")
    show("  size P(Bin(%d, 1/2) <= %d)" % (n, cutoff(n)), binom_cdf(cutoff(n), n, 0.5))
    show("  power against one sequence, P(Bin(%d, p_up) <= %d)" % (n, cutoff(n)), power[n], "%.5f")
    show("  the same at the estimate 355/996", binom_cdf(cutoff(n), n, 355 / 996), "%.5f")
# A default run judges 550 less its discards (the generator's hypothesis; development seeds 12 and 101: 4 of 400, 105 and
# 106: 4 of 400, 102: 4 of 1000, so 12 of 1800): its power is the smallest over the counts it can reach, 533 = 550 less 17
# discards, more than the rate's 95% upper bound allows except with the probability printed.
show("prompts budget: smallest power over 533..550 judged cases", min(power[m] for m in range(533, 551)), "%.5f")
d_up = cp_upper(12, 1800)
show("  discard rate 12/1800, 95% upper bound", d_up)
show("  P(more than 17 of 550 discarded) at that rate", 1 - binom_cdf(17, 550, d_up))
lo_bal, lo_si = cp_lower(299, 396), cp_lower(307, 396)
show("prompts budget: false failure at 550, balancing regulariser, P(Bin(533, 0.717) <= %d)" % cutoff(533),
     binom_cdf(cutoff(533), 533, lo_bal))
show("prompts budget: false failure at 550, later algorithm, P(Bin(533, 0.738) <= %d)" % cutoff(533),
     binom_cdf(cutoff(533), 533, lo_si))
for factor, x, n in ((300, 15, 296), (100, 31, 296), (300, 24, 396)):
    show("prompts budget: control %d-fold (%d/%d held), power at 533 judged cases" % (factor, x, n),
         binom_cdf(cutoff(533), 533, cp_upper(x, n)), "%.5f")
