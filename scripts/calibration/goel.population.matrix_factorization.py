#!/usr/bin/env python3
"""Closed-form calibration figures of goel.population.matrix_factorization.

Backs docs/derivations/goel.population.matrix_factorization.md, sections "Protocol" (false-failure budget),
"Negative control", "Measured" 5 (normal reference tails) and "Calibration" (per-instance and per-run false-failure
probability, control power from the fresh-seed counts, the largest of 10 half-normals).
Pure Python (math only); every figure is printed with its name.
"""
import math
from _common import bisect, cp_lower_all, norm_sf, show


z = 5.0
per_instance = 2.0 * norm_sf(z)
show("two-sided normal quantile for 5e-6 per instance", bisect(lambda x: 5e-6 - 2 * norm_sf(x), 0.0, 10.0), "%.3f")
show("per-instance false failure 2(1 - Phi(5))", per_instance)
show("per-run false failure, 10 instances: 1 - (1 - 2(1-Phi(5)))^10", 1 - (1 - per_instance) ** 10)
show("per-run false failure, 12 instances (mp50 rows counted)", 1 - (1 - per_instance) ** 12)
show("per-run false failure, 20 instances (all 10 mp50 rows counted)", 1 - (1 - per_instance) ** 20)
show("per-run, 12 instances at twice the normal tail", 1 - (1 - 2 * per_instance) ** 12)
show("per-run, 20 instances at twice the normal tail", 1 - (1 - 2 * per_instance) ** 20)
show("normal one-sided tail P(u < -4)", norm_sf(4.0))
show("normal one-sided tail P(u < -4.5)", norm_sf(4.5))
# Control at the (H2) threshold: a gap of about 9.5 S left after b2, judged at z.
for zz in (5.0, 5.5):
    show("control miss per instance at gap 9.5 S, z = %.1f (normal)" % zz, norm_sf(9.5 - zz))
    show("control miss per instance at gap 9.5 S, z = %.1f (3.5x normal tail)" % zz, 3.5 * norm_sf(9.5 - zz))
f_l = cp_lower_all(200, 0.999)
show("f_L: 99.9% one-sided Clopper-Pearson lower bound, 200 of 200 violated", f_l, "%.4f")
show("P(control not caught per run) <= (1 - f_L)^10", (1 - f_l) ** 10)
# Largest of 10 standard half-normals: P(max <= x) = (2 Phi(x) - 1)^10.
med = bisect(lambda x: (1 - 2 * norm_sf(x)) ** 10 - 0.5, 0.0, 10.0)
show("median of the largest of 10 standard half-normals", med, "%.2f")
show("P(largest of 10 half-normals > 3.29)", 1 - (1 - 2 * norm_sf(3.29)) ** 10, "%.3f")
# tests/theorems/test_calibration.cpp: expected exceedances of 1.645 and 2.576 among 150 standardised errors.
show("expected count of |z| > 1.645 among 150 normals", 150 * 2 * norm_sf(1.645), "%.1f")
show("expected count of |z| > 2.576 among 150 normals", 150 * 2 * norm_sf(2.576), "%.1f")
