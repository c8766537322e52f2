#!/usr/bin/env python3
"""Closed-form calibration figures of goel.rate.geometric_in_m.

Backs docs/derivations/goel.rate.geometric_in_m.md, "Calibration": the smallest allowance of the gauge identity,
m chain_eps(n + k + d) = m 16 (n + k + d) eps with m = 1500, n + k + d = 36, and the largest allowance of the
control's condition (a), 24000 x 16 x 38 x eps x 300, with eps = 2^-52 (the derivation rounds it to 2.2e-16).
The measured distances (7.8e-13, 2.5e-5) are not closed-form; measure them with
`build/thmcheck run --claims goel.rate.geometric_in_m --seed S [--negative-control]` (observations of each case).
Pure Python; every figure is printed with its name.
"""
from _common import show

eps = 2.0 ** -52


gauge = 1500 * 16 * 36 * eps
show("gauge allowance 1500 x 16 x 36 x eps (times kappa(Sigma_hat) >= 1)", gauge)
show("margin against the largest measured distance 7.8e-13", gauge / 7.8e-13, "%.0f")
show("control (a) allowance 24000 x 16 x 38 x eps x 300", 24000 * 16 * 38 * eps * 300)
