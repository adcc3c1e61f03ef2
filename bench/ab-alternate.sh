#!/bin/bash
# Timing of two `grundy` binaries building the same box one after the
# other (old, new, old, new, ...), each alone on the machine: the
# complement of ab-build.sh, whose side-by-side runs share the L3 cache,
# so that the binary with the larger working set slows the other one
# down (b201dd7's 8-byte tables take 140 MB on 5 x 6, the compact engine
# 67 MB). Prints each run's user CPU seconds and peak memory, and whether
# the files of the last round are byte for byte the same.
#
# usage: bench/ab-alternate.sh BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]
#   e.g. bench/ab-alternate.sh 5x6 /path/to/old/grundy target/release/grundy 1 2
#   THREADS 1 (the default) pins each run to core 0.
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
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pin=()
if [ "$threads" = 1 ]; then pin=(taskset -c 0); fi
for round in $(seq 1 "$rounds"); do
  echo "round $round"
  for side in old new; do
    rm -f "$dir/$side.gdb"
    bin=$old
    if [ "$side" = new ]; then bin=$new; fi
    /usr/bin/time -f "$side: %U s user, %e s wall, %M KB peak" -o "$dir/$side.time" \
      "${pin[@]}" "$bin" tables build --box "$box" --threads "$threads" --out "$dir/$side.gdb" >/dev/null 2>&1
    cat "$dir/$side.time"
  done
  if cmp -s "$dir"/old.gdb "$dir"/new.gdb; then
    echo "same bytes"
  else
    echo "the files differ"
  fi
done
