#!/bin/bash
# The analysis of dense blocks under a time budget, two `grundy` binaries
# one after the other: the blocks of `ab-blocks.sh` (COUNT random connected
# blocks in a 7 x 7 box, 23 to 35 cells, from seed SEED), each given to
# `grundy clear --json --max-time MAX_TIME` of both; prints, per block, what
# each binary's report knows (the value, else the winner, else nothing:
# a binary that prints no report counts as knowing nothing), its exit code
# and wall seconds, then how many blocks each valued and each named the
# winner of.
#
# usage: bench/analysis-blocks.sh OLD_GRUNDY NEW_GRUNDY [SEED [COUNT [MAX_TIME]]]
#   defaults: seed 41, 10 blocks, 2 s (the web server's budget).
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 2 "OLD_GRUNDY NEW_GRUNDY [SEED [COUNT [MAX_TIME]]]" "$@"
old=$1
new=$2
seed=${3:-41}
count=${4:-10}
max_time=${5:-2}
make_work_dir
dense_blocks "$dir" "$seed" "$count"
# "value N", "winner first|second", or "nothing" from a report (or none).
known_by() {
  python3 -c '
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except ValueError:
    report = {}
if report.get("grundy") is not None:
    print("value", report["grundy"])
elif report.get("winner"):
    print("winner", report["winner"])
else:
    print("nothing")' "$1"
}
declare -A valued=([old]=0 [new]=0) named=([old]=0 [new]=0)
for k in $(seq 1 "$count"); do
  block="$dir/block$k.txt"
  line=$(printf 'block %2d (%2d cells):' "$k" "$(tr -cd 1 <"$block" | wc -c)")
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    code=0
    /usr/bin/time -f "%e" -o "$dir/$side.time" "$bin" clear --json --max-time "$max_time" "$block" \
      >"$dir/$side.json" 2>/dev/null || code=$?
    known=$(known_by "$dir/$side.json")
    case $known in
      value*) valued[$side]=$((valued[$side] + 1)); named[$side]=$((named[$side] + 1)) ;;
      winner*) named[$side]=$((named[$side] + 1)) ;;
    esac
    line+=$(printf ' %s %-15s exit %d %5.2f s;' "$side" "$known" "$code" "$(tail -n 1 "$dir/$side.time")")
  done
  echo "$line"
done
echo "valued: old ${valued[old]}, new ${valued[new]} of $count; winner named: old ${named[old]}, new ${named[new]}"
