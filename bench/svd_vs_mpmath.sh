#!/bin/bash
# Singular values of N x N matrices at 50 and 100 digits, side by side in one run: our BM_SingularValuesRefined
# (refinement of a double SVD, numerics/refined_svd.hpp) and the MPFR JacobiSVD (BM_SingularValues; no MPFR BDCSVD is built), against
# mpmath's svd_r(A, compute_uv=False) at mp.dps = 50 and 100 on the same kind of matrix (spectrum-first, singular
# values geometric from 1 to 1e-3, random orthogonal factors). Prints the times and the ratios mpmath / ours.
# Usage: bench/svd_vs_mpmath.sh [SIZES]   (from the repository root, after building thmcheck_bench; SIZES default
# "8 16 32"; mpmath at N = 64 takes several seconds per call). Debian's python3-mpmath, i.e. /usr/bin/python3.
set -eu
sizes=${1:-8 16 32}
bench=${THMCHECK_BENCH:-build/bench/thmcheck_bench}
python=${PYTHON:-/usr/bin/python3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
alt=$(echo "$sizes" | tr ' ' '|')
"$bench" --benchmark_filter="BM_SingularValues(Refined)?<thm::mpfr_dynamic(, thm::SvdMethod::jacobi)?, thm::mp(50|100)_digits>/($alt)(/|\$)" \
  --benchmark_format=json --benchmark_out="$out" --benchmark_out_format=json > /dev/null
"$python" - "$out" $sizes <<'PY'
import json, random, sys, time
import mpmath
from mpmath import mp

bench = json.load(open(sys.argv[1]))
sizes = [int(s) for s in sys.argv[2:]]
ours = {}  # (kind, digits, n) -> ms
for b in bench["benchmarks"]:
    name = b["name"]  # e.g. BM_SingularValuesRefined<thm::mpfr_dynamic, thm::mp50_digits>/32/min_time:0.050
    head, n = name.split("/")[:2]
    digits = 50 if "mp50" in head else 100
    kind = "refined" if "Refined" in head else "jacobi"
    scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6, "s": 1e3}[b.get("time_unit", "ns")]
    ours[(kind, digits, int(n))] = b["real_time"] * scale
    if kind == "refined" and b.get("refined", 1) < 1:
        print(f"note: {name} took the MPFR fallback in {100 * (1 - b['refined']):.0f} % of calls")

def householder_orthogonal(rng, n):
    q = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for _ in range(n):
        v = [rng.gauss(0, 1) for _ in range(n)]
        vv = sum(x * x for x in v)
        qv = [sum(q[i][k] * v[k] for k in range(n)) for i in range(n)]
        for i in range(n):
            for j in range(n):
                q[i][j] -= 2.0 / vv * qv[i] * v[j]
    return q

def spectrum_first(n, kappa=1e3, seed=42):
    rng = random.Random(seed)
    u, v = householder_orthogonal(rng, n), householder_orthogonal(rng, n)
    s = [kappa ** (-k / max(1, n - 1)) for k in range(n)]
    return [[sum(u[i][k] * s[k] * v[j][k] for k in range(n)) for j in range(n)] for i in range(n)]

print(f"{'N':>3} {'digits':>6} {'mpmath svd_r':>13} {'refined':>9} {'Jacobi':>9}"
      f" {'mpmath/refined':>15} {'mpmath/Jacobi':>14}   (ms)")
for n in sizes:
    a = spectrum_first(n)
    for digits in (50, 100):
        mp.dps = digits
        A = mpmath.matrix(a)
        best = float("inf")
        for _ in range(3 if n <= 32 else 1):
            t = time.perf_counter()
            s = mpmath.svd_r(A, compute_uv=False)
            best = min(best, time.perf_counter() - t)
        ms = best * 1e3
        assert abs(float(s[n - 1]) - 1e-3) < 1e-9, "mpmath's sigma_min is off"
        r, j = (ours.get((k, digits, n), float("nan")) for k in ("refined", "jacobi"))
        print(f"{n:>3} {digits:>6} {ms:>13.2f} {r:>9.2f} {j:>9.2f} {ms / r:>15.1f} {ms / j:>14.1f}")
PY
