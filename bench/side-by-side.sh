# Sourced by the A/B benchmarks (ab-build.sh, ab-alternate.sh,
# ab-large-tier.sh): what they share. ab-build.sh and ab-large-tier.sh
# run two binaries at once, each pinned to its own core, swapping the
# cores every round so that both see the same machine; ab-alternate.sh
# runs them one after the other.

# Prints "usage: SCRIPT $2" and exits 2 unless at least $1 arguments
# follow the two.
need_args() {
  local least=$1 usage=$2
  shift 2
  if [ $# -lt "$least" ]; then
    echo "usage: $0 $usage" >&2
    exit 2
  fi
}

# Parses the arguments of the build benchmarks, BOX OLD NEW [THREADS
# [ROUNDS]], into $box, $old, $new, $threads (default 1) and $rounds
# (default 2); prints the usage and exits 2 when they are too few.
build_args() {
  need_args 3 "BOX OLD_GRUNDY NEW_GRUNDY [THREADS [ROUNDS]]" "$@"
  box=$1
  old=$2
  new=$3
  threads=${4:-1}
  rounds=${5:-2}
}

# Makes "$dir", a directory removed on exit.
make_work_dir() {
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
}

# Refuses a machine of fewer than 2 cores, and makes "$dir".
side_by_side_setup() {
  if [ "$(nproc)" -lt 2 ]; then
    echo "error: needs 2 cores, one for each binary" >&2
    exit 2
  fi
  make_work_dir
}

# Sets the cores of round $1: a for the old binary, b for the new one
# (0 and 1 in odd rounds, 1 and 0 in even ones).
cores_of_round() {
  if [ $(($1 % 2)) = 1 ]; then a=0; b=1; else a=1; b=0; fi
}

# Builds $box with binary $1 into "$dir/$2.gdb", timed into "$dir/$2.time"
# by /usr/bin/time (user seconds first), under the command prefix given
# after the two (taskset, or nothing).
timed_build() {
  local bin=$1 side=$2
  shift 2
  rm -f "$dir/$side.gdb"
  # A failed build is reported by report_round, not fatal here.
  /usr/bin/time -f "%U %e %M" -o "$dir/$side.time" \
    "$@" "$bin" tables build --box "$box" --threads "$threads" --out "$dir/$side.gdb" >/dev/null 2>&1 || true
}

# Prints the round's two runs (round $1, with the cores in $2 and $3 when
# given), whether the files are byte for byte the same, and the ratio of
# user CPU old / new, which it adds to "$dir/ratios".
report_round() {
  local round=$1 old_where=${2:+ (core $2)} new_where=${3:+ (core $3)}
  local old_user old_wall old_peak new_user new_wall new_peak side
  echo "round $round"
  # A failed build: /usr/bin/time puts "Command exited with non-zero
  # status N" before the figures.
  for side in old new; do
    if [ "$(wc -l <"$dir/$side.time")" != 1 ]; then
      echo "$side: $(head -n 1 "$dir/$side.time"), no ratio this round"
      return 0
    fi
  done
  read -r old_user old_wall old_peak <"$dir/old.time"
  read -r new_user new_wall new_peak <"$dir/new.time"
  echo "old: $old_user s user, $old_wall s wall, $old_peak KB peak$old_where"
  echo "new: $new_user s user, $new_wall s wall, $new_peak KB peak$new_where"
  if cmp -s "$dir/old.gdb" "$dir/new.gdb"; then
    echo "same bytes"
  else
    echo "the files differ"
  fi
  if awk -v o="$old_user" -v n="$new_user" 'BEGIN { exit !(o > 0 && n > 0) }'; then
    awk -v o="$old_user" -v n="$new_user" 'BEGIN { printf "ratio old / new: %.3f\n", o / n }'
    awk -v o="$old_user" -v n="$new_user" 'BEGIN { print o / n }' >>"$dir/ratios"
  else
    echo "ratio old / new: too short to time"
  fi
}

# Prints the geometric mean of the rounds' ratios.
report_mean() {
  [ -s "$dir/ratios" ] || return 0
  awk '{ s += log($1); n++ } END { if (n) printf "geometric mean of %d rounds: %.3f\n", n, exp(s / n) }' "$dir/ratios"
}

# Writes COUNT random connected blocks in a 7 x 7 box of 23 to 35 cells,
# grown cell by cell from seed SEED (Python's random), to
# "$1/block1.txt".. (so every run reads the same blocks): the dense
# components of issue 41.
dense_blocks() {
  python3 - "$1" "$2" "$3" <<'PY'
import random, sys
out, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
for b in range(count):
    cells = rng.randint(23, 35)
    shape = {(rng.randrange(7), rng.randrange(7))}
    while len(shape) < cells:
        r, c = rng.choice(sorted(shape))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        if 0 <= r + dr < 7 and 0 <= c + dc < 7:
            shape.add((r + dr, c + dc))
    with open(f"{out}/block{b + 1}.txt", "w") as f:
        for r in range(7):
            f.write("".join("1" if (r, c) in shape else "0" for c in range(7)) + "\n")
PY
}
