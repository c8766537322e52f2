#!/usr/bin/env bash
# The multiprecision speed figures as ratios, each pair measured side by side in one run of thmcheck_bench:
#   Ozaki product / MPFR loop product (N x N at 50 and 100 digits), [Q] GD step at mp50 and mp100 / double step.
# Usage: bench/mp_speed.sh [BUILD_DIR]   (default build; run `make bench` or build thmcheck_bench first)
set -euo pipefail
build=${1:-build}
bench="$build/bench/thmcheck_bench"
[ -x "$bench" ] || { echo "mp_speed.sh: $bench not built (cmake --build $build --target thmcheck_bench)" >&2; exit 2; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$bench" --benchmark_filter='BM_Product(Ozaki|MpfrLoop)<thm::mpfr_dynamic, thm::mp(50|100)_digits>/(32|64|128)$|BM_GdStep<' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=0.5 \
  --benchmark_format=json > "$json" 2>/dev/null
/usr/bin/python3 - "$json" <<'PY'
import json, sys
unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
runs = {b["run_name"]: b["cpu_time"] * unit[b["time_unit"]]
        for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("aggregate_name") == "median"}
def t(name):
    return next(v for k, v in runs.items() if k.startswith(name))
scalar = {50: "thm::mpfr_dynamic, thm::mp50_digits", 100: "thm::mpfr_dynamic, thm::mp100_digits"}  # both rungs: mpfr_dynamic
print("| figure | ratio (median CPU time of 3) |\n|---|---|")
for digits in (50, 100):
    for n in (32, 64, 128):
        loop, oz = t(f"BM_ProductMpfrLoop<{scalar[digits]}>/{n}"), t(f"BM_ProductOzaki<{scalar[digits]}>/{n}")
        print(f"| {n} x {n} product at {digits} digits: MPFR loop / Ozaki | {loop / oz:.1f}x faster |")
d = t("BM_GdStep<double>")
for digits in (50, 100):
    print(f"| [Q] GD step at mp{digits} / double step | {t(f'BM_GdStep<{scalar[digits]}>') / d:.0f}x slower |")
PY
