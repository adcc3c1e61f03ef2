#!/bin/bash
# Side-by-side timing of two builds of the `large_tier` example (crates/
# grundy-db/examples/large_tier.rs), valuing the same sample of one large
# tier against a database's earlier tiers held in huge pages: both run at
# once, each pinned to its own core with one rayon thread, ROUNDS times
# with the cores swapped every round, so that both see the same machine.
# Prints each run's microseconds a shape. This is how a change to the
# worker's lookups is judged without a build of an hour
# (docs/design.md).
#
# usage: bench/ab-large-tier.sh DB CELLS OLD_LARGE_TIER NEW_LARGE_TIER [ROUNDS [SAMPLES]]
#   e.g. bench/ab-large-tier.sh clear-6x6.gdb 26 /tmp/old/large_tier \
#          target/release/examples/large_tier 4 150000
#   Build each binary with `cargo build --release -p grundy-db --example
#   large_tier` at the commit to compare, and copy it aside.
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 4 "DB CELLS OLD_LARGE_TIER NEW_LARGE_TIER [ROUNDS [SAMPLES]]" "$@"
db=$1
cells=$2
old=$3
new=$4
rounds=${5:-4}
samples=${6:-150000}
side_by_side_setup
for round in $(seq 1 "$rounds"); do
  cores_of_round "$round"
  RAYON_NUM_THREADS=1 taskset -c $a "$old" "$db" "$cells" "$samples" huge >"$dir"/old.out 2>&1 &
  RAYON_NUM_THREADS=1 taskset -c $b "$new" "$db" "$cells" "$samples" huge >"$dir"/new.out 2>&1 &
  wait
  echo "round $round: old (core $a) $(tail -n 1 "$dir"/old.out | cut -d' ' -f2) µs, new (core $b) $(tail -n 1 "$dir"/new.out | cut -d' ' -f2) µs a shape"
done
