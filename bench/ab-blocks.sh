#!/bin/bash
# Top-down search on dense blocks, two `grundy` binaries side by side (issue
# 41's benchmark): COUNT random connected blocks in a 7 x 7 box of 23 to 35
# cells, grown cell by cell from a fixed seed (Python's random), so every
# run reads the same blocks. Each block is valued by `grundy clear --json`
# of both binaries at once, each pinned to its own core, the cores swapped
# every round; prints each block's user CPU seconds and peak memory for
# both, stops if the values differ, and prints the totals, the ratio new /
# old of each round and their geometric mean. A block past `grundy clear`'s
# default budget of 20,000,000 positions shows value None: both binaries
# solved the same positions in the same order before they stopped.
#
# usage: bench/ab-blocks.sh OLD_GRUNDY NEW_GRUNDY [ROUNDS [SEED [COUNT]]]
#   defaults: 2 rounds, seed 41, 10 blocks (about 2 minutes a round).
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 2 "OLD_GRUNDY NEW_GRUNDY [ROUNDS [SEED [COUNT]]]" "$@"
old=$1
new=$2
rounds=${3:-2}
seed=${4:-41}
count=${5:-10}
side_by_side_setup
dense_blocks "$dir" "$seed" "$count"
# The value, or None when the block ran past the budget (a binary older
# than the analysis that still reports then prints nothing).
value_of() { python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["grundy"])
except ValueError: print(None)' "$1"; }
for round in $(seq 1 "$rounds"); do
  cores_of_round "$round"
  echo "round $round (old on core $a, new on core $b)"
  old_total=0
  new_total=0
  for k in $(seq 1 "$count"); do
    block="$dir/block$k.txt"
    /usr/bin/time -f "%U %M" -o "$dir/old.time" taskset -c $a "$old" clear --json "$block" >"$dir/old.json" &
    /usr/bin/time -f "%U %M" -o "$dir/new.time" taskset -c $b "$new" clear --json "$block" >"$dir/new.json" &
    wait
    # A block past the position budget exits 3 (value None), and
    # /usr/bin/time puts a line saying so before the figures.
    read -r old_user old_peak < <(tail -n 1 "$dir/old.time")
    read -r new_user new_peak < <(tail -n 1 "$dir/new.time")
    old_value=$(value_of "$dir/old.json")
    new_value=$(value_of "$dir/new.json")
    if [ "$old_value" != "$new_value" ]; then
      echo "block $k: values differ (old $old_value, new $new_value)" >&2
      cat "$block" >&2
      exit 1
    fi
    printf 'block %2d (%s, %2d cells, value %s): old %6.2f s %7d KB, new %6.2f s %7d KB\n' \
      "$k" "$(paste -sd/ "$block")" "$(tr -cd 1 <"$block" | wc -c)" "$new_value" \
      "$old_user" "$old_peak" "$new_user" "$new_peak"
    old_total=$(awk -v t="$old_total" -v u="$old_user" 'BEGIN { print t + u }')
    new_total=$(awk -v t="$new_total" -v u="$new_user" 'BEGIN { print t + u }')
  done
  ratio=$(awk -v n="$new_total" -v o="$old_total" 'BEGIN { printf "%.3f", n / o }')
  echo "round $round: old $old_total s, new $new_total s, new/old $ratio"
  echo "$ratio" >>"$dir/ratios"
done
python3 -c 'import math,sys; r=[float(x) for x in open(sys.argv[1])]; print(f"geometric mean of new/old: {math.exp(sum(map(math.log,r))/len(r)):.3f}")' "$dir/ratios"
