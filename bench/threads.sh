#!/bin/bash
# The value search's helper thread (`grundy clear --threads`): COUNT dense
# blocks (those of ab-blocks.sh: random connected blocks in a 7 x 7 box of
# 23 to 35 cells, from a fixed seed), each valued by `grundy clear --json`
# with --threads 1 and then --threads 2, one after the other with the
# machine to themselves (the second uses both cores). Prints each run's
# wall and user CPU seconds and peak memory, stops if the outputs differ,
# and prints the totals and the wall-time ratio 2 threads / 1 of each
# round. A block past the default budget of 20,000,000 positions stops
# both runs there (exit 3): the helper's positions count in it, so such a
# block does one thread's work on two cores and shows the helper's cost,
# not its gain.
#
# usage: bench/threads.sh GRUNDY [ROUNDS [SEED [COUNT]]]
#   defaults: 1 round, seed 41, 10 blocks (about 5 minutes a round).
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 1 "GRUNDY [ROUNDS [SEED [COUNT]]]" "$@"
bin=$1
rounds=${2:-1}
seed=${3:-41}
count=${4:-10}
side_by_side_setup
dense_blocks "$dir" "$seed" "$count"
for round in $(seq 1 "$rounds"); do
  one_total=0
  two_total=0
  for k in $(seq 1 "$count"); do
    block="$dir/block$k.txt"
    for threads in 1 2; do
      # Exit 3 (the position budget) still prints the partial analysis.
      /usr/bin/time -f "%e %U %M" -o "$dir/$threads.time" \
        "$bin" clear --json --threads "$threads" "$block" >"$dir/$threads.json" 2>/dev/null || true
    done
    if ! cmp -s "$dir/1.json" "$dir/2.json"; then
      echo "block $k: the outputs differ" >&2
      cat "$block" >&2
      exit 1
    fi
    read -r one_wall one_user one_peak < <(tail -n 1 "$dir/1.time")
    read -r two_wall two_user two_peak < <(tail -n 1 "$dir/2.time")
    printf 'block %2d (%2d cells): 1 thread %6.2f s wall %6.2f s user %7d KB, 2 threads %6.2f s wall %6.2f s user %7d KB\n' \
      "$k" "$(tr -cd 1 <"$block" | wc -c)" "$one_wall" "$one_user" "$one_peak" "$two_wall" "$two_user" "$two_peak"
    one_total=$(awk -v t="$one_total" -v u="$one_wall" 'BEGIN { print t + u }')
    two_total=$(awk -v t="$two_total" -v u="$two_wall" 'BEGIN { print t + u }')
  done
  ratio=$(awk -v n="$two_total" -v o="$one_total" 'BEGIN { printf "%.3f", n / o }')
  echo "round $round: wall 1 thread $one_total s, 2 threads $two_total s, 2/1 $ratio"
done
