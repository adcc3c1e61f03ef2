#!/bin/bash
# The engine on dense blocks, two `grundy` binaries one after the other
# (issue 41's outcome search): the blocks of `ab-blocks.sh` (COUNT random
# connected blocks in a 7 x 7 box, 23 to 35 cells, from seed SEED), each
# given to `grundy clear --move --json` of both binaries under the same
# time budget; prints, per block, each binary's kind of move (winning,
# losing, unproven), wall seconds and peak memory, then the totals.
#
# usage: bench/engine-blocks.sh OLD_GRUNDY NEW_GRUNDY [SEED [COUNT [MAX_TIME]]]
#   defaults: seed 41, 10 blocks, the engine's own budget (5 s).
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 2 "OLD_GRUNDY NEW_GRUNDY [SEED [COUNT [MAX_TIME]]]" "$@"
old=$1
new=$2
seed=${3:-41}
count=${4:-10}
budget=()
[ -n "${5:-}" ] && budget=(--max-time "$5")
make_work_dir
dense_blocks "$dir" "$seed" "$count"
kind_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$1"; }
old_total=0
new_total=0
for k in $(seq 1 "$count"); do
  block="$dir/block$k.txt"
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    /usr/bin/time -f "%e %M" -o "$dir/$side.time" "$bin" clear --move --json "${budget[@]}" "$block" >"$dir/$side.json"
  done
  read -r old_wall old_peak <"$dir/old.time"
  read -r new_wall new_peak <"$dir/new.time"
  printf 'block %2d (%s, %2d cells): old %-8s %6.2f s %7d KB, new %-8s %6.2f s %7d KB\n' \
    "$k" "$(paste -sd/ "$block")" "$(tr -cd 1 <"$block" | wc -c)" \
    "$(kind_of "$dir/old.json")" "$old_wall" "$old_peak" "$(kind_of "$dir/new.json")" "$new_wall" "$new_peak"
  old_total=$(awk -v t="$old_total" -v u="$old_wall" 'BEGIN { print t + u }')
  new_total=$(awk -v t="$new_total" -v u="$new_wall" 'BEGIN { print t + u }')
done
echo "total wall: old $old_total s, new $new_total s"
