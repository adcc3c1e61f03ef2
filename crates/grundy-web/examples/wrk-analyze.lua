-- wrk script: POST the seed 4 x 4 example to /api/v1/clear/analyze.
-- wrk -t2 -c32 -d10s --latency -s crates/grundy-web/examples/wrk-analyze.lua http://127.0.0.1:8080
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"board": ["0110", "0000", "0000", "0001"]}'
wrk.path = "/api/v1/clear/analyze"
