#!/usr/bin/env bash
# Renders the HTML report in headless Chromium: index.html and one claim page must produce a
# screenshot, and the pages must carry non-empty inline SVG. Usage: browser_test.sh THMCHECK DIR
set -euo pipefail
thmcheck=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
"$thmcheck" run --claims 'qin.softmax.*,qin.gd.linear_rate' --cases 8 --precision double --report "$dir/report" >/dev/null
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed (scripts/install-deps installs it)" >&2
  exit 1
fi
for page in index.html claims/qin.gd.linear_rate.html; do
  grep -q '<svg' "$dir/report/$page" || { echo "$page has no SVG" >&2; exit 1; }
  grep -q '<polyline\|<rect' "$dir/report/$page" || { echo "$page has an empty SVG" >&2; exit 1; }
  shot="$dir/$(basename "$page" .html).png"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$dir/profile-$(basename "$page" .html)" --window-size=1200,1600 \
    --screenshot="$shot" "file://$dir/report/$page" >/dev/null 2>&1 || true
  if [ ! -s "$shot" ]; then
    echo "no screenshot of $page" >&2
    exit 1
  fi
  echo "$page rendered: $(stat -c %s "$shot") bytes"
done
