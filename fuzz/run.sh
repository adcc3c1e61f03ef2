#!/bin/sh
# Runs one fuzz target with its seeds (and dictionary, if any):
#   fuzz/run.sh <target> [seconds] [cargo fuzz run options...]
# New inputs go to fuzz/corpus/<target>, crashes to fuzz/artifacts/<target>
# (both ignored by git). One fuzzer in one process (libFuzzer default): the
# machine is shared. The machine has a stable toolchain only: cargo-fuzz
# needs nightly flags, which RUSTC_BOOTSTRAP=1 unlocks.
set -eu
target=$1
seconds=${2:-240}
[ $# -ge 2 ] && shift 2 || shift 1
cd "$(dirname "$0")/.."
mkdir -p "fuzz/corpus/$target"
dict=""
[ -f "fuzz/dicts/$target.dict" ] && dict="-dict=fuzz/dicts/$target.dict"
RUSTC_BOOTSTRAP=1 exec cargo fuzz run "$@" "$target" \
    "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 $dict
