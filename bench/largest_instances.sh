#!/bin/bash
# Wall time of `thmcheck explore` on each claim's largest generated instances (the last cases of a 20-case budget,
# drawn at full size) at the given digits: the measurement behind the claims' size limits (InstanceSchema,
# docs/spec/design.md "Instance schemas"). Usage: bench/largest_instances.sh [DIGITS] [SEED]  (from the repository root,
# after make; one claim at a time, so run it on an idle machine).
set -eu
digits=${1:-200}
seed=${2:-11}
thm=${THMCHECK:-build/thmcheck}
printf "%-45s %8s %8s %8s  (seconds at %s digits, seed %s)\n" claim "case 17" "case 18" "case 19" "$digits" "$seed"
for c in $("$thm" list | awk 'NR > 1 {print $1}'); do
  times=()
  for i in 17 18 19; do
    start=$(date +%s.%N)
    "$thm" explore "$c" --seed "$seed" --case $i --cases 20 --digits "$digits" > /dev/null
    times+=("$(echo "$(date +%s.%N) - $start" | bc)")
  done
  printf "%-45s %8.1f %8.1f %8.1f\n" "$c" "${times[@]}"
done
