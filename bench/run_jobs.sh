#!/bin/bash
# make run's work with --jobs 1 and with --jobs N (default: the number of cores), side by side in one call: wall times,
# their ratio, and a byte comparison of the two reports. Usage: bench/run_jobs.sh [SEED] [N]  (from the repository root,
# after make; on an idle machine).
set -eu
seed=${1:-20261202}
jobs=${2:-$(nproc)}
thm=${THMCHECK:-build/thmcheck}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
seconds() {
  local start
  start=$(date +%s.%N)
  "$thm" run --seed "$seed" --jobs "$1" --report "$out/j$1" > /dev/null || true  # exit 1 is a verdict, not an error
  echo "$(date +%s.%N) - $start" | bc
}
one=$(seconds 1)
many=$(seconds "$jobs")
printf "seed %s: --jobs 1 %.1f s, --jobs %s %.1f s, speed-up %.2fx\n" "$seed" "$one" "$jobs" "$many" "$(echo "$one / $many" | bc -l)"
diff -r "$out/j1" "$out/j$jobs" > /dev/null && echo "reports identical" || { echo "REPORTS DIFFER"; exit 1; }
