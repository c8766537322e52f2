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

# Every experiment page, rendered by the browser; in the DOM it parsed, each figure (each <svg>) must hold at least one
# plotted series with two or more finite points.
for e in qin-beta-sweep qin-depth goel-m-scaling goel-n-scaling goel-baseline; do
  "$thmcheck" experiment "$e" --seeds 1 --steps 10 --out "$dir/$e" >/dev/null
  page="$dir/$e/$e.html"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$dir/profile-$e" --dump-dom "file://$page" > "$dir/$e.dom.html" 2>/dev/null || true
  python3 - "$dir/$e.dom.html" "$e" <<'PY'
import math, re, sys
dom, name = open(sys.argv[1]).read(), sys.argv[2]
svgs = re.findall(r"<svg\b.*?</svg>", dom, re.S)
if not svgs:
    sys.exit(f"{name}: the browser's DOM has no figure")
for k, svg in enumerate(svgs):
    best = 0
    for pts in re.findall(r'<polyline[^>]*\spoints="([^"]*)"', svg):
        xy = [p.split(",") for p in pts.split()]
        ok = [p for p in xy if len(p) == 2 and all(math.isfinite(float(v)) for v in p)]
        best = max(best, len(ok))
    if best < 2:
        sys.exit(f"{name}: figure {k + 1} has no plotted series with two finite points")
print(f"{name}: {len(svgs)} figures, each with a plotted series")
PY
done
