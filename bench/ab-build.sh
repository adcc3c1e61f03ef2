#!/bin/bash
# Side-by-side timing of two `grundy` binaries building the same box: both
# run at once, each pinned to its own core (`taskset`), twice with the cores
# swapped, so that both see the same machine; prints each run's user CPU
# seconds and peak memory, and whether the two files are byte for byte the
# same. The timings of docs/plan-tier-engine.md and docs/results.md come
# from it (a shared, noisy machine: compare the two runs of one round, not
# runs of different days).
#
# usage: bench/ab-build.sh BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]
#   e.g. bench/ab-build.sh 5x6 /path/to/old/grundy target/release/grundy
#   ROUNDS (default 2): 1 for a box too long to build twice (6 x 6: about
#   40 minutes a round).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]" >&2
  exit 2
fi
box=$1
old=$2
new=$3
threads=${4:-1}
rounds=${5:-2}
. "$(dirname "$0")"/side-by-side.sh
side_by_side_setup
for round in $(seq 1 "$rounds"); do
  cores_of_round "$round"
  rm -f "$dir"/old.gdb "$dir"/new.gdb
  /usr/bin/time -f "old: %U s user, %M KB peak (core $a)" -o "$dir"/old.time \
    taskset -c $a "$old" tables build --box "$box" --threads "$threads" --out "$dir"/old.gdb >/dev/null 2>&1 &
  /usr/bin/time -f "new: %U s user, %M KB peak (core $b)" -o "$dir"/new.time \
    taskset -c $b "$new" tables build --box "$box" --threads "$threads" --out "$dir"/new.gdb >/dev/null 2>&1 &
  wait
  echo "round $round"
  cat "$dir"/old.time "$dir"/new.time
  if cmp -s "$dir"/old.gdb "$dir"/new.gdb; then
    echo "same bytes"
  else
    echo "the files differ"
  fi
done
