#!/bin/bash
# The web server's resident memory under load and once idle, for each build
# given, in turn:
#   - six analyses of full boards of about 250 x 250 (one component each,
#     no two equal) sent at once from six client addresses to `grundy serve
#     --max-concurrent 2 --max-memory 64MiB --kept-memory 32MiB`, twice: the peak
#     (VmHWM) and, a second after, the idle process's VmRSS;
#   - one 8 x 9 board, all ones but a corner, analysed twice by `grundy
#     serve --max-memory 64MiB --kept-memory 0 --max-time 10`: the peak.
# A server starts at about 10 MB.
#
# usage: bench/serve-memory.sh BIN... (port 18700 and up must be free)
set -euo pipefail
port=18700
for bin in "$@"; do
  for case in concurrent 8x9; do
    port=$((port + 1))
    if [ "$case" = concurrent ]; then
      args=(--max-concurrent 2 --max-memory 64MiB --kept-memory 32MiB)
    else
      args=(--max-memory 64MiB --kept-memory 0 --max-time 10)
    fi
    "$bin" serve --addr "127.0.0.1:$port" "${args[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep 0.7
    python3 - "$port" "$case" <<'PY'
import http.client, json, sys, threading
port, case = int(sys.argv[1]), sys.argv[2]
def post(board, source):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    c.request("POST", "/api/v1/clear/analyze", json.dumps({"board": board}),
              {"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    assert r.status == 200, r.status
if case == "concurrent":
    for _ in range(2):
        threads = [threading.Thread(target=post, args=(["1" * (250 - i * 3 % 7)] * (250 - i), f"127.0.0.{20 + i}"))
                   for i in range(6)]
        [t.start() for t in threads]
        [t.join() for t in threads]
else:
    for _ in range(2):
        post(["011111111"] + ["111111111"] * 7, "127.0.0.1")
PY
    sleep 1
    echo "$bin $case: $(grep VmHWM /proc/$pid/status | tr -s ' \t' ' '), idle $(grep VmRSS /proc/$pid/status | tr -s ' \t' ' ')"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
