#!/usr/bin/env bash
# The multiprecision speed figures as ratios, each pair measured side by side in one run of thmcheck_bench:
#   Ozaki product / MPFR loop product (N x N at 50 and 100 digits), [Q] GD step at mp50 and mp100 / double step.
# Usage: bench/mp_speed.sh [BUILD_DIR]   (default build; run `make bench` or build thmcheck_bench first)
# Environment: SIZES (the product sizes, default "32 64 128", each in 8..128), REPETITIONS (default 3), MIN_TIME (seconds
# per product repetition, default 0.5); the test bench.scripts_tiny runs it with SIZES=8 REPETITIONS=1 MIN_TIME=0.01.
set -euo pipefail
build=${1:-build}
sizes=${SIZES:-32 64 128}
repetitions=${REPETITIONS:-3}
min_time=${MIN_TIME:-0.5}
alt=$(echo "$sizes" | tr ' ' '|')
bench="$build/bench/thmcheck_bench"
[ -x "$bench" ] || { echo "mp_speed.sh: $bench not built (cmake --build $build --target thmcheck_bench)" >&2; exit 2; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$bench" --benchmark_filter="BM_Product(Ozaki|MpfrLoop)<thm::mpfr_dynamic, thm::mp(50|100)_digits>/($alt)\$|BM_GdStep<" \
  --benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=true --benchmark_min_time="$min_time" \
  --benchmark_format=json > "$json" 2>/dev/null
/usr/bin/python3 - "$json" $sizes <<'PY'
import json, sys
unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
benchmarks = json.load(open(sys.argv[1]))["benchmarks"]
# The median of the repetitions; with one repetition Google Benchmark reports the run itself, no aggregate.
medians = [b for b in benchmarks if b.get("aggregate_name") == "median"]
runs = {b["run_name"]: b["cpu_time"] * unit[b["time_unit"]] for b in (medians or benchmarks)}
def t(name):
    return next(v for k, v in runs.items() if k.startswith(name))
scalar = {50: "thm::mpfr_dynamic, thm::mp50_digits", 100: "thm::mpfr_dynamic, thm::mp100_digits"}  # both rungs: mpfr_dynamic
sizes = [int(n) for n in sys.argv[2:]]
print("| figure | ratio (median CPU time of the repetitions) |\n|---|---|")
for digits in (50, 100):
    for n in sizes:
        loop, oz = t(f"BM_ProductMpfrLoop<{scalar[digits]}>/{n}"), t(f"BM_ProductOzaki<{scalar[digits]}>/{n}")
        print(f"| {n} x {n} product at {digits} digits: MPFR loop / Ozaki | {loop / oz:.1f}x faster |")
d = t("BM_GdStep<double>")
for digits in (50, 100):
    print(f"| [Q] GD step at mp{digits} / double step | {t(f'BM_GdStep<{scalar[digits]}>') / d:.0f}x slower |")
PY
