#!/bin/sh
# Reports are whole or absent: a run killed while it works leaves the previous report intact (its staging
# directory is removed by the next run), and a reused report directory keeps nothing of the runs before.
set -eu
THM=$1
DIR=$2
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
"$THM" run --claims qin.softmax.rank_collapse --cases 5 --precision double --report r >/dev/null
cp r/summary.json before.json
echo stale >r/stale.txt
"$THM" run --claims 'goel.*' --precision double,mp50 --report r >/dev/null 2>&1 &
pid=$!
sleep 2
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
cmp r/summary.json before.json || { echo "the killed run changed the previous report"; exit 1; }
test -f r/stale.txt || { echo "the killed run removed the previous report's files"; exit 1; }
ls -a | grep -q '^\.r\.staging\.' || { echo "expected the killed run's staging directory"; exit 1; }
"$THM" run --claims qin.softmax.rank_collapse --cases 5 --precision double --report r >/dev/null
if ls -a | grep -q '^\.r\.staging\.'; then echo "the staging directory of the killed run was not removed"; exit 1; fi
test ! -e r/stale.txt || { echo "a file of an earlier run survived in the reused report directory"; exit 1; }
test -f r/summary.json
echo "reports are whole or absent"
