#!/bin/bash
# How closely `grundy clear --max-time T` keeps its time budget on shapes
# past 64 cells that are wide or long, where a stopped search has millions
# of pending parts to give back: full 2 x 400, 3 x 300 and 100 x 100
# boards, and a 10 x 100 board at 85% ones (Python's random, seed 7). Each
# binary in turn, one core each (taskset -c 0), wall seconds and peak
# memory, for budgets of 1 and 3 s; each case REPEAT times.
#
# usage: bench/time-budgets.sh OLD NEW [REPEAT]
set -euo pipefail
repeat=${3:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
def full(name, rows, cols):
    with open(f"{work}/{name}", "w") as f:
        f.write(("1" * cols + "\n") * rows)
full("full2x400.txt", 2, 400)
full("full3x300.txt", 3, 300)
full("full100x100.txt", 100, 100)
rng = random.Random(7)
with open(f"{work}/dense10x100.txt", "w") as f:
    for _ in range(10):
        f.write("".join("1" if rng.random() < 0.85 else "0" for _ in range(100)) + "\n")
PY
for board in full2x400 full3x300 full100x100 dense10x100; do
  for budget in 1 3; do
    for i in $(seq 1 "$repeat"); do
      for bin in "$1" "$2"; do
        /usr/bin/time -f "%e %M" -o "$work/time" taskset -c 0 "$bin" clear --max-time "$budget" \
          "$work/$board.txt" >/dev/null 2>&1 || true
        read -r wall kb < <(tail -1 "$work/time")
        printf '%-12s --max-time %s  %-28s %6.2f s %6d MB\n' "$board" "$budget" "$bin" "$wall" "$((kb / 1024))"
      done
    done
  done
done
