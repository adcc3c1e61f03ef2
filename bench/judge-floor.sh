#!/bin/bash
# The judges beside their floor: for each problem, the median wall time of
# `grundy judge PROBLEM`, of the C++ baseline of ../shared/baselines, and of
# `wc -l` (one process that reads the whole input once and looks at every
# byte: the floor any judge pays before its first answer), each over the
# baseline's. The three run in turn, ROUNDS times, the input on standard
# input as ../shared/baselines/compare.sh runs them, on either core; run
# compare.sh once first, which builds the baseline and makes the input
# under ${TMPDIR:-/tmp}/grundy-compare. On a shared machine only the ratios
# of one run compare.
#
# usage: bench/judge-floor.sh ROUNDS GRUNDY PROBLEM...
#   e.g. bench/judge-floor.sh 40 target/release/grundy pshtbrth gridgame
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
rounds=$1 grundy=$2
shift 2
work=${TMPDIR:-/tmp}/grundy-compare
for p in "$@"; do
  for f in "$work/$p.big.in" "$work/${p}_ref"; do
    [ -e "$f" ] || { echo "$f: missing (run ../shared/baselines/compare.sh $p first)" >&2; exit 1; }
  done
  cmp -s <("$grundy" judge "$p" <"$work/$p.big.in") <("$work/${p}_ref" <"$work/$p.big.in") ||
    { echo "$p: $grundy's answers differ from the baseline's" >&2; exit 1; }
  python3 - "$p" "$work/$p.big.in" "$rounds" "$grundy" "$work/${p}_ref" <<'PY'
import os, statistics, subprocess, sys, time
problem, path, rounds, grundy, ref = sys.argv[1:]
runs = {"wc -l (floor)": ["wc", "-l"], "grundy": [grundy, "judge", problem], "baseline": [ref]}
times = {name: [] for name in runs}
order = list(runs)
for round in range(int(rounds)):
    for name in order if round % 2 == 0 else order[::-1]:
        with open(path, "rb") as f:
            start = time.perf_counter()
            subprocess.run(runs[name], stdin=f, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - start)
base = statistics.median(times["baseline"])
size = os.path.getsize(path) / 1e6
print(f"{problem} ({size:.1f} MB, {rounds} rounds):")
for name in order:
    m = statistics.median(times[name])
    print(f"  {name:14} median {m * 1000:7.2f} ms, least {min(times[name]) * 1000:7.2f} ms, over the baseline {m / base:.3f}")
PY
done
