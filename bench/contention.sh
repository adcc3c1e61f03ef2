#!/bin/bash
# Whether the machine's two cores slow each other down, and on what: a
# pure arithmetic loop, then random 8-byte reads from tables of several
# sizes, each run alone on core 0 and then twice at once on cores 0 and 1.
# Prints the user CPU seconds of every run. A tier build that spends more
# CPU with two threads than with one while its profile keeps the same
# shape (docs/results.md, "Two threads cost more CPU") is measured against this: if the
# arithmetic loop pairs at no cost and the reads do not, the cores share
# what the reads use (the L3 cache and the memory controller).
#
# usage: bench/contention.sh [MEGABYTES...]   (default: 4 24 256)
# Needs a C compiler (`cc`) and `taskset`.
set -euo pipefail
sizes=("$@")
if [ ${#sizes[@]} = 0 ]; then sizes=(4 24 256); fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/alu.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
int main(void) {
  uint64_t a = 1, b = 2, c = 3, d = 4;
  for (long i = 0; i < 1500000000L; i++) {
    a ^= a << 13; a ^= a >> 7; b += a * 3; c ^= b >> 3; d += c | a;
  }
  printf("%lu\n", (unsigned long)(a + b + c + d));
  return 0;
}
EOF
cat > "$dir/reads.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* 2 * 10^8 reads at xorshift-random places of a table of argv[1] MB:
   independent reads, as a tier build's lookups are. */
int main(int argc, char **argv) {
  size_t n = ((size_t)atol(argv[1]) << 20) / 8;
  uint64_t *t = malloc(n * 8);
  if (!t) return 1;
  for (size_t i = 0; i < n; i++) t[i] = i * 0x9E3779B97F4A7C15ull;
  uint64_t x = 1, s = 0;
  for (long i = 0; i < 200000000L; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    s += t[x % n];
  }
  printf("%lu\n", (unsigned long)s);
  return 0;
}
EOF
cc -O2 -o "$dir/alu" "$dir/alu.c"
cc -O2 -o "$dir/reads" "$dir/reads.c"
# Prints "NAME alone A; paired B and C" in user seconds.
measure() {
  local name=$1
  shift
  /usr/bin/time -f %U -o "$dir/alone" taskset -c 0 "$@" >/dev/null
  /usr/bin/time -f %U -o "$dir/p0" taskset -c 0 "$@" >/dev/null &
  /usr/bin/time -f %U -o "$dir/p1" taskset -c 1 "$@" >/dev/null &
  wait
  echo "$name: alone $(cat "$dir/alone") s; paired $(cat "$dir/p0") s and $(cat "$dir/p1") s"
}
measure "arithmetic" "$dir/alu"
for mb in "${sizes[@]}"; do
  measure "random reads, $mb MB" "$dir/reads" "$mb"
done
