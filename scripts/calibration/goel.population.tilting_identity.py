#!/usr/bin/env python3
"""Closed-form calibration figures of goel.population.tilting_identity.

Backs docs/derivations/goel.population.tilting_identity.md, sections "Measured" 2 and 6 (upper bounds from zero
failures, normal reference tail) and "Calibration" (per-instance and per-run false-failure bounds, control power
from the fresh-seed and generator counts). The zero-failure counts themselves (9.3e6 protocol runs) are historical
simulation results; this script only turns them into the bounds quoted.
Pure Python (math only); every figure is printed with its name.
"""
import math
from _common import cp_lower_all, norm_sf, show


def upper_zero(n, level):
    """One-sided upper confidence bound on a rate when 0 of n trials failed (exact binomial)."""
    return 1.0 - (1.0 - level) ** (1.0 / n)


show("normal one-sided tail P(u > 4.5)", norm_sf(4.5))
show("95% upper bound, 0 failures in 1e6 runs (one shape)", upper_zero(1e6, 0.95))
show("95% upper bound, 0 failures in 6e6 runs (six shapes pooled)", upper_zero(6e6, 0.95))
per_condition = upper_zero(9.3e6, 0.95)
show("95% upper bound per condition, 0 failures in 9.3e6 runs", per_condition)
per_instance = 2 * per_condition
show("per instance, two conditions", per_instance)
show("per run, 20 instances (Measured 6)", 1 - (1 - per_instance) ** 20)
show("per default run, 10 instances", 1 - (1 - per_instance) ** 10)
run12 = 1 - (1 - per_instance) ** 12
show("per default run, 12 instances (mp50 rows counted)", run12)
show("margin to the 1e-3 requirement", 1e-3 / run12, "%.0f")
run20 = 1 - (1 - per_instance) ** 20
show("per default run, 20 instances (all 10 mp50 rows counted)", run20)
show("margin to the 1e-3 requirement, 20 instances", 1e-3 / run20, "%.0f")
f_l = cp_lower_all(200, 0.999)
show("f_L: 99.9% one-sided Clopper-Pearson lower bound, 200 of 200 violated", f_l, "%.4f")
show("P(control not caught per run) <= (1 - f_L)^10", (1 - f_l) ** 10)
f_l2 = cp_lower_all(200 + 20000, 0.999)
show("f_L with the 20000 of 20000 generator runs pooled in", f_l2, "%.5f")
show("P(control not caught per run) <= (1 - f_L)^10, pooled", (1 - f_l2) ** 10)
