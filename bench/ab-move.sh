#!/bin/bash
# The engine's move on given blocks, two `grundy` binaries side by side
# (issue 41's hard blocks for `--move`): each BLOCK is a board file or its
# rows joined by `/` (such as 1011111/1111101/...); both binaries run
# `grundy clear --move --max-time MAX_TIME` on it at once, each pinned to
# its own core, the cores swapped every round. Prints each block's user CPU
# seconds and peak memory for both, whether the two printed the same move,
# and each round's totals and ratio new / old.
#
# usage: bench/ab-move.sh OLD_GRUNDY NEW_GRUNDY ROUNDS MAX_TIME BLOCK...
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 5 "OLD_GRUNDY NEW_GRUNDY ROUNDS MAX_TIME BLOCK..." "$@"
old=$1
new=$2
rounds=$3
max_time=$4
shift 4
side_by_side_setup
files=()
for block in "$@"; do
  if [ -f "$block" ]; then
    files+=("$block")
  else
    file="$dir/block${#files[@]}.txt"
    tr / '\n' <<<"$block" >"$file"
    files+=("$file")
  fi
done
for round in $(seq 1 "$rounds"); do
  cores_of_round "$round"
  echo "round $round (old on core $a, new on core $b)"
  old_total=0
  new_total=0
  for file in "${files[@]}"; do
    # Exit 3 (out of budget) still prints a move; /usr/bin/time then puts
    # a line saying so before the figures.
    /usr/bin/time -f "%U %M" -o "$dir/old.time" taskset -c $a "$old" clear --move --max-time "$max_time" "$file" >"$dir/old.out" || true &
    /usr/bin/time -f "%U %M" -o "$dir/new.time" taskset -c $b "$new" clear --move --max-time "$max_time" "$file" >"$dir/new.out" || true &
    wait
    read -r old_user old_peak < <(tail -n 1 "$dir/old.time")
    read -r new_user new_peak < <(tail -n 1 "$dir/new.time")
    same="same move"
    cmp -s <(head -n 1 "$dir/old.out") <(head -n 1 "$dir/new.out") || same="moves differ"
    printf '%s: old %6.2f s %7d KB, new %6.2f s %7d KB, %s; new: %s\n' \
      "$(paste -sd/ "$file")" "$old_user" "$old_peak" "$new_user" "$new_peak" "$same" \
      "$(sed -n 2p "$dir/new.out" | cut -d: -f1)"
    old_total=$(awk -v t="$old_total" -v u="$old_user" 'BEGIN { print t + u }')
    new_total=$(awk -v t="$new_total" -v u="$new_user" 'BEGIN { print t + u }')
  done
  awk -v o="$old_total" -v n="$new_total" -v r="$round" \
    'BEGIN { printf "round %s total: old %.2f s, new %.2f s, new / old %.3f\n", r, o, n, n / o }'
done
