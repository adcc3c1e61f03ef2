#!/bin/bash
# Side-by-side timing of two `grundy` binaries building the same box: both
# run at once, each pinned to its own core (`taskset`), the cores swapped
# every round, so that both see the same machine; prints each run's user
# CPU seconds, wall seconds and peak memory, whether the two files are byte
# for byte the same, the ratio old / new of each round and their geometric
# mean. Most timings of docs/results.md and docs/design.md come from it
# (on a shared, noisy machine, compare the two runs of one round, not runs
# of different days).
#
# usage: bench/ab-build.sh BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]
#   e.g. bench/ab-build.sh 5x6 /path/to/old/grundy target/release/grundy
#   ROUNDS (default 2): 1 for a box too long to build twice (6 x 6: about
#   40 minutes a round).
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
build_args "$@"
side_by_side_setup
for round in $(seq 1 "$rounds"); do
  cores_of_round "$round"
  timed_build "$old" old taskset -c $a &
  timed_build "$new" new taskset -c $b &
  wait
  report_round "$round" $a $b
done
report_mean
