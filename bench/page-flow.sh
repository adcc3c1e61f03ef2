#!/bin/bash
# The playground's requests on dense blocks, with the server's search memos
# kept between requests and without: one `grundy serve` of GRUNDY with
# `--kept-memory 256MiB` (the default), then one with `--kept-memory 0`. On
# each of the blocks of `ab-blocks.sh` (COUNT random connected blocks in a
# 7 x 7 box, 23 to 35 cells, from seed SEED), a game is played as the page
# plays one against the engine: at every ply the page asks `analyze` of
# the position; on the person's plies (the first, third, ...) the person
# clears one cell (the first in reading order, which keeps the position
# hard), and on the engine's the page asks `play` of the same position.
# Up to PLIES plies, or until no cell is left. Prints, per block and
# server, the wall seconds of the first `analyze`, of the requests after
# it, and how many `analyze` answers were a 422 (the budget ran out); then
# each server's peak memory and the totals. The blocks go to one server in
# turn, so a block may find shapes an earlier block's searches valued.
#
# usage: bench/page-flow.sh GRUNDY [SEED [COUNT [PLIES]]]
#   defaults: seed 41, 10 blocks, 6 plies.
set -euo pipefail
. "$(dirname "$0")"/side-by-side.sh
need_args 1 "GRUNDY [SEED [COUNT [PLIES]]]" "$@"
bin=$1
seed=${2:-41}
count=${3:-10}
plies=${4:-6}
make_work_dir
dense_blocks "$dir" "$seed" "$count"
for kept in 256MiB 0; do
  "$bin" serve --addr 127.0.0.1:0 --kept-memory "$kept" >"$dir/serve.$kept" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    grep -q "listening on" "$dir/serve.$kept" && break
    sleep 0.1
  done
  port=$(sed -n 's/.*port \([0-9]*\)[;)].*/\1/p' "$dir/serve.$kept" | head -n 1)
  python3 - "$port" "$kept" "$plies" "$dir"/block*.txt <<'PY' | tee -a "$dir/results"
import http.client, json, sys, time
port, kept, plies, blocks = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
blocks.sort(key=lambda path: int(path.rsplit("block", 1)[1].split(".")[0]))
def ask(endpoint, rows):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    body = json.dumps({"board": rows})
    started = time.perf_counter()
    conn.request("POST", f"/api/v1/clear/{endpoint}", body, {"Content-Type": "application/json"})
    response = conn.getresponse()
    answer = json.loads(response.read())
    conn.close()
    return response.status, answer, time.perf_counter() - started
for path in blocks:
    rows = open(path).read().split()
    name = path.rsplit("/", 1)[1].removesuffix(".txt")
    times, too_large, played = [], 0, 0
    for ply in range(plies):
        if "1" not in "".join(rows):
            break
        status, _, seconds = ask("analyze", rows)
        times.append(seconds)
        too_large += status == 422
        if ply % 2 == 0:
            # The person clears one cell, the first in reading order.
            at = "".join(rows).index("1")
            row, col = divmod(at, len(rows[0]))
            rows[row] = rows[row][:col] + "0" + rows[row][col + 1:]
        else:
            status, answer, seconds = ask("play", rows)
            times.append(seconds)
            if status != 200 or answer.get("move") is None:
                break
            rows = answer["boards"][0]
        played += 1
    print(f"kept {kept} {name}: first analyze {times[0]:.2f} s, "
          f"{len(times) - 1} requests after {sum(times[1:]):.2f} s, {played} plies, "
          f"{too_large} analyses too large")
PY
  echo "kept $kept: the server's peak memory $(awk '/VmHWM/ {print $2, $3}' /proc/$pid/status)"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
done
python3 - "$dir/results" <<'PY'
import re, sys
totals = {}
for line in open(sys.argv[1]):
    kept = line.split()[1]
    first_a, after = (float(x) for x in re.findall(r"([0-9.]+) s", line))
    large = int(re.search(r"(\d+) analyses too large", line).group(1))
    t = totals.setdefault(kept, [0.0, 0.0, 0])
    t[0] += first_a; t[1] += after; t[2] += large
for kept, (a, after, large) in totals.items():
    print(f"total, kept {kept} MB: first analyses {a:.2f} s, "
          f"requests after {after:.2f} s, {large} analyses too large")
PY
