# caos3, WRONG: arms of length 1 are enough (>= 1 instead of >= 2).
# Otherwise as caos3_brute.py.
import sys
from functools import lru_cache

ARM = 1


def arm(grid, r, c, dr, dc):
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == "^":
        n += 1
        r, c = r + dr, c + dc
    return n


def solve(grid):
    rows, cols = len(grid), len(grid[0])
    cands = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if grid[r][c] == "^" and min(arm(grid, r, c, dr, dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))) >= ARM
    ]

    @lru_cache(maxsize=None)
    def value(r0, r1, c0, c1):
        seen = set()
        for r, c in cands:
            if r0 <= r < r1 and c0 <= c < c1:
                seen.add(value(r0, r, c0, c) ^ value(r0, r, c + 1, c1) ^ value(r + 1, r1, c0, c) ^ value(r + 1, r1, c + 1, c1))
        g = 0
        while g in seen:
            g += 1
        return g

    return value(0, rows, 0, cols)


def main():
    tokens = sys.stdin.read().split()
    pos = 1
    out = []
    for _ in range(int(tokens[0])):
        rows = int(tokens[pos])
        grid = tokens[pos + 2 : pos + 2 + rows]
        pos += 2 + rows
        out.append("Asuna" if solve(grid) else "Kirito")
    print("\n".join(out))


main()
