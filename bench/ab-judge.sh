#!/bin/bash
# Wall time of `grundy judge PROBLEM INPUT` for two or more binaries run in
# turn, ROUNDS times, the order reversed every other round (A, B, B, A, A,
# B, ...: a run right after another can be slower, by up to a third for
# pshtbrth with --stdin, whichever binary it is), all on core 1: the
# median and the least of each, and each median over the first binary's.
# Every run reads the input file itself (mapped), as `grundy judge PROBLEM
# FILE` does. With --stdin, the runs are as ../shared/baselines/compare.sh
# makes them instead: the input on standard input, on either core. The
# inputs of compare.sh are in ${TMPDIR:-/tmp}/grundy-compare once it has
# run. On a shared machine only the ratios of one run compare. With
# --control, a copy of the first binary (a file of its own, so loaded into
# other pages) runs as one more: its ratio is the run's noise, against
# which to read the others' (copies have measured 0.98 to 1.01 of the
# binary they copy).
#
# usage: bench/ab-judge.sh [--stdin] [--control] PROBLEM INPUT ROUNDS GRUNDY...
#   e.g. bench/ab-judge.sh --control gridgame /tmp/grundy-compare/gridgame.big.in 60 \
#          /path/to/old/grundy target/release/grundy
set -euo pipefail
stdin=0 control=0
while [ $# -gt 0 ]; do
  case $1 in
    --stdin) stdin=1 ;;
    --control) control=1 ;;
    *) break ;;
  esac
  shift
done
if [ $# -lt 4 ]; then
  sed -n '2,19p' "$0" >&2
  exit 2
fi
problem=$1 input=$2 rounds=$3
shift 3
if [ "$control" = 1 ]; then
  copy=$(mktemp "${TMPDIR:-/tmp}/grundy-control.XXXXXX")
  trap 'rm -f "$copy"' EXIT
  cp "$1" "$copy"
  chmod +x "$copy"
  first=$1
  shift
  set -- "$first" "$copy" "$@"
  export AB_CONTROL=$copy
fi
for bin in "$@"; do
  cmp -s <("$1" judge "$problem" "$input") <("$bin" judge "$problem" "$input") ||
    { echo "$bin: answers differ from $1's" >&2; exit 1; }
done
python3 - "$stdin" "$problem" "$input" "$rounds" "$@" <<'PY'
import os, statistics, subprocess, sys, time
stdin, problem, path, rounds, *bins = sys.argv[1:]
stdin = stdin == "1"
if not stdin:
    os.sched_setaffinity(0, {1})
times = {b: [] for b in bins}
for round in range(int(rounds)):
    for b in bins if round % 2 == 0 else bins[::-1]:
        with open(path, "rb") as f:
            args = [b, "judge", problem] + ([] if stdin else [path])
            start = time.perf_counter()
            subprocess.run(args, stdin=f if stdin else None, stdout=subprocess.DEVNULL, check=True)
            times[b].append(time.perf_counter() - start)
first = statistics.median(times[bins[0]])
for b in bins:
    m = statistics.median(times[b])
    name = f"{bins[0]} (its copy, the control)" if b == os.environ.get("AB_CONTROL") else b
    print(f"{name}: median {m * 1000:.2f} ms, least {min(times[b]) * 1000:.2f} ms, ratio {m / first:.3f}")
PY
