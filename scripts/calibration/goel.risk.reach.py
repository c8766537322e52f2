#!/usr/bin/env python3
"""Designs of the one-sequence risk claims' deciding budget within reach (closed form, no simulation).

Backs docs/derivations/goel.risk.excess_bound_1_over_n.md ("Reach"), which chose the full budget's design from these
figures. The former full budget (n = 32..4096, max(4, 32768 / n) draws below the top, 12 at 4096; "full" below, the
reference every ratio is taken against) decides, but costs 37.5 min of CPU per claim at 2 instances (Notes, "Full budget
at 32768"): about 56 min on 2 cores for the three one-sequence claims. A run of Algorithm 1 on one sequence of n tokens
costs about n^2 per step, so a design's cost relative to the full budget is sum(draws n^2) / the full's (per-draw
overheads ignored: an optimistic ratio where the design puts thousands of draws at n = 32).

What a design buys is the exponent test's standard error. Under the boundary model of the derivation (log(L - L*) =
-log n + c' + noise, the noise the same law at every n), SE = sd / sqrt(Sxx), Sxx the draws' spread of log n: at the
same noise, SE(design) / SE(full) = sqrt(Sxx(full) / Sxx(design)). The two instances measured at the full budget had
t SE = 0.125 (seed 2026120501, case 0, d = 1, k = 2) and 0.287 (seed 1, case 0, d = k = 1); a design decides them
where the scaled t SE stays <= 1/2, and the derivation's allowance for noisier instances is 1.25 times the spread.
The v1 shape's own fitted slope over each design (what goel.risk.excess_bound_v1's exponent test compares with) is
printed too.
"""
import math

from _common import load_script, show

exponent = load_script("goel.risk.exponent.py")

MEASURED_T_SE = ((0.125, "seed 2026120501 case 0, d = 1, k = 2"), (0.287, "seed 1 case 0, d = k = 1"))
FULL_CPU_MINUTES_PER_CLAIM = 37.5  # excess_bound_1_over_n, 2 instances, --budget full (derivation, Notes)
ONE_SEQUENCE_CLAIMS = 3


design = exponent.design


def spread(pts):
    N = sum(k for _, k in pts)
    mx = sum(k * math.log(n) for n, k in pts) / N
    return N, mx, sum(k * (math.log(n) - mx) ** 2 for n, k in pts)


def cost(pts):
    return sum(k * n * n for n, k in pts)


def v1_slope(pts):
    """OLS slope of log(n^-2 log^6 n) on log n over the design's draws."""
    N, mx, sxx = spread(pts)
    return sum(k * (math.log(n) - mx) * (-2 * math.log(n) + 6 * math.log(math.log(n))) for n, k in pts) / sxx


def main():
    full = design(4096, 32768, 12)
    N_full, _, sxx_full = spread(full)
    t_full = exponent.t_quantile_upper(exponent.LEVEL, N_full - 2)
    for n_max, scale, top in ((4096, 32768, 12), (2048, 32768, 16), (1024, 32768, 32), (1024, 65536, 32), (512, 65536, 128),
                              (512, 131072, 256)):
        pts = design(n_max, scale, top)
        N, _, sxx = spread(pts)
        t = exponent.t_quantile_upper(exponent.LEVEL, N - 2)
        se_ratio = math.sqrt(sxx_full / sxx)
        c = cost(pts) / cost(full)
        label = "n = 32..%d, max(4, %d / n) below the top, %d at the top" % (n_max, scale, top)
        print("== " + label)
        show("  draws N", N, "%d")
        show("  SE / SE(full) at the same noise", se_ratio, "%.3f")
        show("  cost / cost(full), runs of n^2 per step", c, "%.3f")
        show("  CPU minutes, the three one-sequence claims (from the former full's 37.5 per claim)", ONE_SEQUENCE_CLAIMS * FULL_CPU_MINUTES_PER_CLAIM * c, "%.1f")
        for t_se, name in MEASURED_T_SE:
            scaled = t_se * se_ratio * t / t_full
            show("  t SE of %s" % name, scaled, "%.3f")
        show("  t SE of the noisier one at 1.25 x its spread (decided if <= 0.5)", 1.25 * MEASURED_T_SE[1][0] * se_ratio * t / t_full, "%.3f")
        show("  the v1 shape's fitted slope over the design", v1_slope(pts), "%.3f")


if __name__ == "__main__":
    main()
