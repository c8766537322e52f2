#!/usr/bin/env python3
"""Closed-form calibration figures of goel.baseline.sgd_vs_algorithm1.

Backs docs/derivations/goel.baseline.sgd_vs_algorithm1.md, "Calibration" and "Notes" (fresh-seed stability): the
binomial rule at 5 cases, the Wilson intervals of the measured hold rates, the per-run false-failure probability
(1 - p)^5, the former rule's failure rate, and the control-power bound from the log-normal tail of (i).
The counts (148 of 178, 77 of 100, 3 of 178; log-ratio mean 3.13 and sd 0.99) are measurements (see the derivation);
this script only turns them into the figures quoted.
Pure Python (math only); every figure is printed with its name.
"""
import math
from _common import binom_cdf, norm_sf, show


def wilson(x, n, z=1.959964):
    ph = x / n
    centre = (ph + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    return centre - half, centre + half


show("P(Bin(5, 0.8) <= 0)", binom_cdf(0, 5, 0.8))
show("P(Bin(5, 0.8) <= 1)", binom_cdf(1, 5, 0.8))
p = 148 / 178
lo, hi = wilson(148, 178)
show("p_hat = 148/178", p)
show("Wilson 95% lower end, 148/178", lo)
show("Wilson 95% upper end, 148/178", hi)
show("(1 - p)^5 at p_hat", (1 - p) ** 5)
show("(1 - p)^5 at the Wilson lower end", (1 - lo) ** 5)
show("former rule (violated at >= 2 of 5): 1 - p^5 - 5 p^4 (1 - p) at p_hat", 1 - p ** 5 - 5 * p ** 4 * (1 - p))
p2 = 225 / 278
lo2, hi2 = wilson(225, 278)
show("p_hat = 225/278", p2)
show("Wilson 95% lower end, 225/278", lo2)
show("Wilson 95% upper end, 225/278", hi2)
show("(1 - p)^5 at the Wilson lower end, 225/278", (1 - lo2) ** 5)
# Measured 2026-12-02: seeds 1..20, one default run each at double (5 cases): 82 of 100 held.
for x, n in ((82, 100), (225 + 82, 278 + 100)):
    lo3, hi3 = wilson(x, n)
    show("p_hat = %d/%d" % (x, n), x / n)
    show("Wilson 95%% interval lower end, %d/%d" % (x, n), lo3)
    show("Wilson 95%% interval upper end, %d/%d" % (x, n), hi3)
    show("(1 - p)^5 at the Wilson lower end, %d/%d" % (x, n), (1 - lo3) ** 5)
show("(1 - p_20)^5 at p_20 = 0.9 (mp50)", 0.1 ** 5)
zq = (0 - 3.13) / 0.99
show("log-normal tail of (i): z = (0 - 3.13)/0.99", zq, "%.2f")
pi_ = norm_sf(-zq)
show("P(ratio < 1) = Phi(z)", pi_)
show("share with (ii) and (iii) both failing: 3/178", 3 / 178)
show("P(control case holds) <= Phi(z) x 3/178 (independence)", pi_ * 3 / 178)
show("P(control not caught per run) <= 5 x that", 5 * pi_ * 3 / 178)
show("without independence: 5 x Phi(z)", 5 * pi_)
