# Sourced by the side-by-side benchmarks (ab-build.sh, ab-large-tier.sh):
# what they share. Both run two binaries at once, each pinned to its own
# core, swapping the cores every round so that both see the same machine.

# Refuses a machine of fewer than 2 cores, and makes "$dir", a directory
# removed on exit.
side_by_side_setup() {
  if [ "$(nproc)" -lt 2 ]; then
    echo "error: needs 2 cores, one for each binary" >&2
    exit 2
  fi
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
}

# Sets the cores of round $1: a for the old binary, b for the new one
# (0 and 1 in odd rounds, 1 and 0 in even ones).
cores_of_round() {
  if [ $(($1 % 2)) = 1 ]; then a=0; b=1; else a=1; b=0; fi
}
