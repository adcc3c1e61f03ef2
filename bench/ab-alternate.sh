#!/bin/bash
# Timing of two `grundy` binaries building the same box one after the
# other (old, new, old, new, ...), each alone on the machine: the
# complement of ab-build.sh, whose side-by-side runs share the L3 cache,
# so that the binary with the larger working set slows the other one
# down (an engine of 8-byte tables takes 140 MB on 5 x 6, the compact
# one 67 MB). Prints each run's user CPU seconds, wall seconds and peak
# memory, whether the files of each round are byte for byte the same, the
# ratio old / new of each round and their geometric mean.
#
# usage: bench/ab-alternate.sh BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]
#   e.g. bench/ab-alternate.sh 5x6 /path/to/old/grundy target/release/grundy 1 2
#   THREADS 1 (the default) pins each run to core 0.
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
build_args "$@"
make_work_dir
pin=()
if [ "$threads" = 1 ]; then pin=(taskset -c 0); fi
for round in $(seq 1 "$rounds"); do
  timed_build "$old" old "${pin[@]}"
  timed_build "$new" new "${pin[@]}"
  report_round "$round"
done
report_mean
