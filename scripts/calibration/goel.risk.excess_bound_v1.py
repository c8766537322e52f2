#!/usr/bin/env python3
"""Calibration figures of goel.risk.excess_bound_v1 (and goel.risk.excess_bound_1_over_n, same test).

Backs docs/derivations/goel.risk.excess_bound_v1.md ("Derivation", the exact null of the Jonckheere-Terpstra test;
"Negative control", the spread of log chi^2_1; "Calibration", false failure and control power) and
docs/derivations/goel.risk.excess_bound_1_over_n.md ("Calibration").

- The exact null: under exchangeability J (pairs from a smaller-n group to a larger-n group with r increasing) is
  the number of inversions of a random multiset permutation; its generating function is the q-multinomial
  coefficient, computed here with exact integers. Rejection at p < 5e-4 (kRiskLevel).
- The control's power: a Monte-Carlo simulation (fixed seed, 20000 replicates for the control itself, 4000 for the variants) of the worst noise of step 4,
  log r = (power - 1) log 2 per grid step plus log chi^2_nu, group sizes 5, 5, 5, 3.
Pure Python (math, random); every figure is printed with its name.
"""
import math
import random
from _common import bisect, load_script, show


def poly_mul(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def q_int(n):  # [n]_q = 1 + q + ... + q^(n-1)
    return [1] * n


def q_multinomial(sizes):
    """Coefficients of the q-multinomial coefficient [N; sizes]_q (exact integers)."""
    num = [1]
    for m in range(1, sum(sizes) + 1):
        num = poly_mul(num, q_int(m))
    den = [1]
    for s in sizes:
        for m in range(1, s + 1):
            den = poly_mul(den, q_int(m))
    # Exact polynomial division num / den.
    quot = [0] * (len(num) - len(den) + 1)
    rem = num[:]
    for i in range(len(quot) - 1, -1, -1):
        c = rem[i + len(den) - 1] // den[-1]
        quot[i] = c
        for j, d in enumerate(den):
            rem[i + j] -= c * d
    assert all(r == 0 for r in rem)
    return quot


def critical(sizes, level):
    """Smallest j with P(J >= j) < level, and that size."""
    coef = q_multinomial(sizes)
    total = sum(coef)
    tail = 0
    best = None
    for j in range(len(coef) - 1, -1, -1):
        tail += coef[j]
        if tail / total < level:
            best = (j, tail / total)
        else:
            break
    return best, len(coef) - 1


def jt_statistic(groups):
    j = 0
    for a in range(len(groups)):
        for b in range(a + 1, len(groups)):
            for x in groups[a]:
                for y in groups[b]:
                    j += y > x
    return j


level = 5e-4
for sizes in ((5, 5, 5, 3), (3, 3, 3, 3)):
    (jstar, size), jmax = critical(sizes, level)
    label = ",".join(map(str, sizes))
    show("group sizes %s: maximum J" % label, jmax, "%d")
    show("group sizes %s: critical value (reject iff J >= j*)" % label, jstar, "%d")
    show("group sizes %s: exact size P(J >= j*)" % label, size)
size = critical((5, 5, 5, 3), level)[0][1]
show("per run, 2 independent instances: 1 - (1 - size)^2", 1 - (1 - size) ** 2)
coef = q_multinomial((5, 5, 5, 3))
show("p-value P(J >= 86), sizes 5,5,5,3 (thmcheck: 0.02144 on seed 4261191524, case 4)", sum(coef[86:]) / sum(coef), "%.5f")
show("expected p-values below 0.05 among 166 exchangeable instances", 166 * 0.05, "%.1f")
show("sd of log chi^2_1 = pi / sqrt(2)", math.pi / math.sqrt(2), "%.2f")

sizes = (5, 5, 5, 3)
jstar = critical(sizes, level)[0][0]
rng = random.Random(20261201)


def caught_share(power, nu, reps=4000):
    caught = 0
    for _ in range(reps):
        groups = []
        for g, s in enumerate(sizes):
            groups.append([(power - 1) * math.log(2) * g + math.log(rng.gammavariate(nu / 2.0, 2.0)) for _ in range(s)])
        caught += jt_statistic(groups) >= jstar
    return caught / reps


p7 = caught_share(7, 1, 20000)
show("control n^-7 (log r +6 log 2 per step), chi^2_1 noise: P(caught), 20000 reps", p7, "%.4f")
show("control n^-6 (+5 log 2 per step), chi^2_1 noise: P(caught)", caught_share(6, 1), "%.4f")
show("control n^-8 (+7 log 2 per step), chi^2_1 noise: P(caught)", caught_share(8, 1), "%.4f")
show("control n^-7, chi^2_2 noise: P(caught)", caught_share(7, 2), "%.4f")
show("per run, 2 instances: 1 - (1 - P(caught))^2 at n^-7, chi^2_1", 1 - (1 - p7) ** 2, "%.6f")


# What the data can show against v1 (derivation, "What the data show"). The exponent test compares the data's OLS slope of
# log(L - L*) on log n with the bound's own slope over the same draws. Over the full budget's design (n = 32..512,
# max(4, 65536/n) draws below the top, 128 at 512; n = 32..4096, max(4, 32768/n) and 12 at the top until 2026-12-08, where
# the spread and the cost below were measured) the v1 shape fits a slope well above -1, so a 1/n excess lies inside it. A grid on which a 1/n excess would refute v1's shape needs v1's slope below -1 by 2 t SE (the decided threshold of
# the test); its cost follows from the residual spread measured at the full budget (SE 0.034 and 0.077 over 2044 draws:
# goel.risk.excess_bound_1_over_n, Notes, "Full budget at 32768") and the measured cost of the full budget (37.5 min of
# CPU for 2 instances), taking a run's cost proportional to n^2 (the attention over n tokens, m = 300 steps at every n).
def v1_log(n):
    return 6 * math.log(math.log(n)) - 2 * math.log(n)


def design_slope(design, f):
    xs, ys = [], []
    for n, c in design:
        xs += [math.log(n)] * c
        ys += [f(n)] * c
    mx = sum(xs) / len(xs)
    my = sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx, math.sqrt(sxx / len(xs))


design = load_script("goel.risk.exponent.py").design
full = design(4096, 32768, 12)  # the full budget until 2026-12-08
reach = design(512, 65536, 128)  # the full budget since
standard = [(32, 5), (64, 5), (128, 5), (256, 3)]
slope_full, sd_full = design_slope(full, v1_log)
show("v1 shape n^-2 log^6 n: OLS slope over the full design, n = 32..512 (3968 draws)", design_slope(reach, v1_log)[0], "%.4f")
show("v1 shape n^-2 log^6 n: OLS slope over the former full design, n = 32..4096 (2044 draws)", slope_full, "%.4f")
show("v1 shape n^-2 log^6 n: OLS slope over the standard design (18 draws)", design_slope(standard, v1_log)[0], "%.4f")
hi_root = bisect(lambda u: u - 6 * math.log(u), 6.0, 40.0)
show("n^-2 log^6 n = 1/n at n (upper root, ln n = u)", math.exp(hi_root), "%.5g")
cpu_unit = 37.5 * 60 / 2 / sum(c * n * n for n, c in full)
show("CPU seconds per run and n^2 (former full budget, measured)", cpu_unit, "%.3g")
show("CPU seconds of one run at n = 4096", cpu_unit * 4096 ** 2, "%.3g")
t = 3.72  # t_{1 - 1e-4} at ~1000 degrees of freedom
for se_measured in (0.034, 0.077):
    sigma = se_measured * sd_full * math.sqrt(2044)
    show("residual spread of log(L - L*) behind SE %.3f at the former full budget" % se_measured, sigma, "%.3g")
    for lo, hi in ((1024, 8192), (2048, 16384), (4096, 32768)):
        levels = [2 ** k for k in range(int(math.log2(lo)), int(math.log2(hi)) + 1)]
        slope, sd = design_slope([(n, 1) for n in levels], v1_log)
        gap = -1 - slope
        runs = (t * sigma / (sd * gap / 2)) ** 2
        hours = sum(runs / len(levels) * n * n * cpu_unit for n in levels) / 3600
        show("  grid %d..%d: v1 slope %.3f; runs for t SE <= gap/2 %.0f; CPU hours per instance" % (lo, hi, slope, runs), hours, "%.0f")
