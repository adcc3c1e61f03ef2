#!/bin/bash
# Whether the budgets bound what they promise, two builds in turn: each
# case's wall seconds, peak memory, exit code and the budget's message.
#   - a 200 x 200 board at 85% ones (one component of about 34,000 cells)
#     under --max-positions 10, under --max-memory 300MB, and in `grundy
#     sum` under --max-memory 100MB;
#   - a 4001 x 4001 checkerboard (8 million lone cells, value 1, every one a
#     winning move) under --max-time 1;
#   - `grundy sum` on a dense 8 x 8 board (one shape of 56 cells, whose
#     value takes minutes) with 3,000 `winner 1 1` queries under --max-time 1;
#   - `grundy clear` on that 8 x 8 board under --max-time 1 (the message
#     should name 1 s);
#   - the engine's move (`grundy clear --move`, its outcome search) on a
#     60 x 60 board at 85% ones under --max-memory 100MB.
# Random boards from fixed seeds (Python's random).
#
# usage: bench/budgets.sh OLD NEW
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
def board(path, rows, cols, p, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        for _ in range(rows):
            f.write("".join("1" if rng.random() < p else "0" for _ in range(cols)) + "\n")
board(f"{work}/r200.txt", 200, 200, 0.85, 1)
board(f"{work}/r60.txt", 60, 60, 0.85, 3)
with open(f"{work}/d8.txt", "w") as f:
    f.write("11111111\n11111111\n10011101\n11111111\n11111111\n00111101\n11110111\n11111111\n")
with open(f"{work}/checker.txt", "w") as f:
    for r in range(4001):
        f.write("".join("1" if (r + c) % 2 == 0 else "0" for c in range(4001)) + "\n")
with open(f"{work}/value.txt", "w") as f:
    f.write("value 1 1\n")
with open(f"{work}/winners.txt", "w") as f:
    f.write("winner 1 1\n" * 3000)
PY
run() {
  local bin=$1 label=$2
  shift 2
  local rc=0
  /usr/bin/time -f "%e %M" -o "$work/time" timeout 120 "$bin" "$@" >/dev/null 2>"$work/err" || rc=$?
  read -r wall kb < <(tail -1 "$work/time")
  printf '%-34s %-24s %6.2f s %6d MB exit %d  %s\n' "$label" "$bin" "$wall" "$((kb / 1024))" "$rc" \
    "$(grep -o 'gave up[^;]*' "$work/err" | head -1)"
}
for bin in "$1" "$2"; do
  run "$bin" "clear --max-positions 10 200x200" clear --max-positions 10 "$work/r200.txt"
  run "$bin" "clear --max-memory 300MB 200x200" clear --max-memory 300MB --max-time 30 "$work/r200.txt"
  run "$bin" "sum --max-memory 100MB 200x200" sum --max-memory 100MB --max-time 30 --queries "$work/value.txt" "$work/r200.txt"
  run "$bin" "clear --max-time 1 checkerboard" clear --max-time 1 "$work/checker.txt"
  run "$bin" "sum --max-time 1 3000 winners" sum --max-time 1 --queries "$work/winners.txt" "$work/d8.txt"
  run "$bin" "clear --max-time 1 8x8" clear --max-time 1 "$work/d8.txt"
  run "$bin" "clear --move --max-memory 100MB 60x60" clear --move --threads 1 --max-memory 100MB --max-time 20 "$work/r60.txt"
done
