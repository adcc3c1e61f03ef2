# pshtbrth, correct but O(N) per range query (so O(N M) in all): the
# Grundy value of each 4 x 4 board by brute force from the statement
# (memoised mex over the all-ones rectangles), the XOR of the range per
# query. Independent of grundy. On large inputs it is the O(n^2) solution
# that `grundy check` catches as a timeout.
#
# The wrong variants (pshtbrth_noupdate.py and the like) import this file
# and pass main() their own won() or replace(), so each differs from it by
# its bug alone.
import sys
from functools import reduce
from operator import xor

RECTS = []
for r1 in range(4):
    for r2 in range(r1, 4):
        for c1 in range(4):
            for c2 in range(c1, 4):
                RECTS.append(sum(1 << (4 * r + c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)))

memo = {0: 0}


def grundy(s):
    if s not in memo:
        seen = {grundy(s ^ m) for m in RECTS if s & m == m}
        g = 0
        while g in seen:
            g += 1
        memo[s] = g
    return memo[s]


def won(values, left, right):
    """Whether the first player wins on boards left to right (1-based, inclusive)."""
    return reduce(xor, values[left - 1:right], 0) != 0


def replace(values, p, board):
    """Replacement query: board p (1-based) becomes the board read next."""
    values[p - 1] = grundy(board())


def main(won=won, replace=replace):
    tokens = sys.stdin.buffer.read().split()
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def board():
        rows = b"".join(take() for _ in range(4))
        return sum(1 << i for i, ch in enumerate(rows) if ch == ord("1"))

    out = []
    for _ in range(int(take())):
        n, m = int(take()), int(take())
        values = [grundy(board()) for _ in range(n)]
        for _ in range(m):
            if int(take()) == 1:
                left, right = int(take()), int(take())
                out.append("Pishty" if won(values, left, right) else "Lotsy")
            else:
                replace(values, int(take()), board)
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
