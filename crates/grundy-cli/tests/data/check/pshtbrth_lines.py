# pshtbrth, correct for the samples' layout only: it reads line by line,
# as the sample lays the input out (a blank line after each of the N
# boards, none after a replacement's board), and values each board by
# brute force from the statement (memoised mex over the all-ones
# rectangles). `grundy check --whitespace plain` must lay every input out
# so. Independent of grundy.
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


def main():
    lines = sys.stdin.read().split("\n")
    at = 0

    def line():
        nonlocal at
        at += 1
        return lines[at - 1]

    def board():
        rows = "".join(line() for _ in range(4))
        if len(rows) != 16:
            raise ValueError(f"line {at}: not a board row")
        return sum(1 << i for i, ch in enumerate(rows) if ch == "1")

    out = []
    for _ in range(int(line())):
        n, m = map(int, line().split())
        values = []
        for _ in range(n):
            values.append(grundy(board()))
            if line() != "":
                raise ValueError(f"line {at}: a board is not followed by a blank line")
        for _ in range(m):
            query = list(map(int, line().split()))
            if query[0] == 1:
                out.append("Pishty" if reduce(xor, values[query[1] - 1:query[2]], 0) else "Lotsy")
            else:
                values[query[1] - 1] = grundy(board())
    sys.stdout.write("".join(answer + "\n" for answer in out))


main()
