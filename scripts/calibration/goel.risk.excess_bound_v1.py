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
from _common import show


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
