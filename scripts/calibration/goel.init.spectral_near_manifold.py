#!/usr/bin/env python3
"""Closed-form calibration figures of goel.init.spectral_near_manifold.

Backs docs/derivations/goel.init.spectral_near_manifold.md: "Derivation", step 6 (limit fractions inside rho,
P(chi^2_m <= c median(chi^2_m)), and the frequency test's rejection probability at those fractions) and
"Calibration" (frequency-test level, per-run bound, normal tail counts, control power from the fresh-seed counts).
The per-instance slope figures (8.3e-6, the Student-t variants, the plug-in 7.4e-4) need the 270 replayed
instances' slopes and half-widths, which were not kept: they are not recomputed here.
Pure Python (math only); every figure is printed with its name.
"""
import math
from _common import binom_cdf, bisect, norm_sf, show


def chi2_cdf(x, m):
    """CDF of chi^2_m for m = 1, 2, 3 (closed forms)."""
    if m == 1:
        return math.erf(math.sqrt(x / 2.0))
    if m == 2:
        return 1.0 - math.exp(-x / 2.0)
    if m == 3:
        return math.erf(math.sqrt(x / 2.0)) - math.sqrt(2.0 * x / math.pi) * math.exp(-x / 2.0)
    raise ValueError(m)


for c in (2, 4):
    for m in (1, 2, 3):
        med = bisect(lambda x: chi2_cdf(x, m) - 0.5, 0.0, 50.0)
        show("limit fraction P(chi^2_%d <= %d median(chi^2_%d))" % (m, c, m), chi2_cdf(c * med, m), "%.3f")

# The frequency test: 32 seeds, support 0.75, level 1e-3; rejects iff held <= k*.
n, p0 = 32, 0.75
kstar = max(k for k in range(n + 1) if binom_cdf(k, n, p0) < 1e-3)
show("frequency test rejects iff at most k* of 32 seeds inside: k*", kstar, "%d")
show("test level at the boundary P(Bin(32, 0.75) <= k*)", binom_cdf(kstar, n, p0))
for p in (0.66, 0.6, 0.5, 0.823, 0.85):
    show("rejection probability P(Bin(32, %.3f) <= k*)" % p, binom_cdf(kstar, n, p))
show("per run, 28 judged points at 0.823", 28 * binom_cdf(kstar, n, 0.823))
show("two-sided 99% normal quantile (bootstrap half-width in SE)", bisect(lambda x: 0.01 - 2 * norm_sf(x), 0, 10), "%.3f")
show("slope threshold in SE at the largest h = 0.193: 2.576 (1 + 0.1/h)", 2.576 * (1 + 0.1 / 0.193), "%.2f")
show("expected count beyond |t - mean| > 2.5 among 270 normals", 270 * 2 * norm_sf(2.5), "%.1f")
show("expected count beyond |t - mean| > 3 among 270 normals", 270 * 2 * norm_sf(3.0), "%.1f")
show("95% upper bound on the rate, 0 failures in 270 instances", 1 - 0.05 ** (1 / 270))
f_l = 0.001 ** (1 / 330)
show("f_L: 99.9% one-sided Clopper-Pearson lower bound, 330 of 330 violated", f_l, "%.4f")
show("P(control not caught per run) <= (1 - f_L)^3", (1 - f_l) ** 3)
