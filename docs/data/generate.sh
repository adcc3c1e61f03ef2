#!/usr/bin/env bash
# Regenerates the generated files of docs/data/:
#   docs/data/full-boards.csv from the provenance tables of full-boards.py
#   docs/data/boxes/AxB.json  `grundy tables info --json` of each database
#   docs/data/img/*.svg       the pictures (crates/grundy-plots)
#   docs/data/SHA256SUMS and the checksum table of docs/results.md (the same)
#
#   docs/data/generate.sh            build the boxes listed below that are
#                                    missing from $GRUNDY_DATA_DBS, then write
#                                    every JSON and picture
#   docs/data/generate.sh --rebuild  delete and rebuild those databases first
#                                    (after a change to the file format)
#
# Databases live in $GRUNDY_DATA_DBS (default target/data-dbs). A big box
# built elsewhere (6x6, 5x7, 4x9, 2x20, 3x13, 4x8, 2x21, 2x22, 2x23, 2x24: see docs/results.md, "How
# to check and how to cite") gets its JSON too when its file, and its
# build record `clear-AxB.gdb.build.json`, are copied there.
#
# Builds run in release mode at low priority (nice), one at a time.
# `cargo test -p grundy-cli --test data_files` checks the CSV against these
# JSONs and the small boxes' JSON against fresh builds.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"

# Built here by this script (seconds to ~2 minutes of CPU each). The first
# five are rebuilt by the test, which compares their JSON.
BUILT="2x8 2x12 3x8 4x6 5x5 3x9 4x7 3x10 5x6"
# Built elsewhere; JSON written only when the database is present.
BIG="4x8 2x20 6x6 5x7 4x9 3x13 2x21 2x22 2x23 2x24"

dbs=${GRUNDY_DATA_DBS:-target/data-dbs}
mkdir -p "$dbs" docs/data/boxes docs/data/img
cargo build --release --locked -p grundy-cli -p grundy-plots
grundy=target/release/grundy

if [ "${1:-}" = "--rebuild" ]; then
    for box in $BUILT; do
        rm -f "$dbs/clear-$box.gdb" "$dbs/clear-$box.gdb.build.json" "$dbs/clear-$box.gdb.partial"
    done
fi

for box in $BUILT; do
    if [ ! -f "$dbs/clear-$box.gdb" ]; then
        # The same command the JSON's build record shows: the output by its
        # file name, written in the databases' directory.
        (cd "$dbs" && nice -n 10 "$OLDPWD/$grundy" tables build --box "$box" --out "clear-$box.gdb" >/dev/null)
    fi
done

for box in $BUILT $BIG; do
    db="$dbs/clear-$box.gdb"
    if [ -f "$db" ]; then
        "$grundy" tables info --json "$db" > "docs/data/boxes/$box.json.tmp"
        mv "docs/data/boxes/$box.json.tmp" "docs/data/boxes/$box.json"
        echo "docs/data/boxes/$box.json"
    fi
done

python3 docs/data/full-boards.py
target/release/grundy-plots docs/data
