#!/bin/bash
# Small time budgets, where what a `grundy clear` process does before its
# search counts: `grundy clear --move --max-time T` on random boards of
# 9 x 9, 12 x 12 and 20 x 20 at density 1/2 (Python's random, seed 9),
# budgets of 0, 1 and 10 ms, the two binaries in turn, 21 runs each: the
# median and least wall time of each, and each binary's answer (the move's
# kind) on the last run.
#
# usage: bench/small-budgets.sh OLD NEW
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD NEW" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$1" "$2" <<'PY'
import json, random, statistics, subprocess, sys, time
work, old, new = sys.argv[1:4]
rng = random.Random(9)
for side in (9, 12, 20):
    path = f"{work}/b{side}.txt"
    with open(path, "w") as f:
        for _ in range(side):
            f.write("".join("1" if rng.random() < 0.5 else "0" for _ in range(side)) + "\n")
    for budget in ("0", "0.001", "0.01"):
        args = ["clear", "--move", "--json", "--max-time", budget, path]
        times = {old: [], new: []}
        kinds = {}
        for _ in range(21):
            for binary in (old, new):
                start = time.perf_counter()
                run = subprocess.run([binary] + args, capture_output=True)
                times[binary].append(time.perf_counter() - start)
                kinds[binary] = json.loads(run.stdout)["kind"]
        print(f"{side} x {side}, --max-time {budget}: " + "; ".join(
            f"{name} median {statistics.median(times[b]) * 1000:.1f} ms, least {min(times[b]) * 1000:.1f} ms, {kinds[b]}"
            for name, b in (("old", old), ("new", new))))
PY
