# caos3, correct: brute force from the statement. Candidates are the '^'
# cells whose four arms of contiguous '^' (not counting the cell) are all at
# least 2 long; a rectangle's value is the mex over its candidates of the
# XOR of the four parts left when the candidate's row and column are
# deleted. Memoised over sub-rectangles. Independent of grundy.
#
# The wrong variants (caos3_arm1.py and the like) import this file and pass
# main() their own solve(), so each differs from it by its bug alone.
import sys
from functools import lru_cache

ARM = 2


def arm(grid, r, c, dr, dc):
    n = 0
    r, c = r + dr, c + dc
    while 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == "^":
        n += 1
        r, c = r + dr, c + dc
    return n


def solve(grid, least_arm=ARM):
    """The map's value: candidates are the '^' cells whose arms are all at
    least least_arm long."""
    rows, cols = len(grid), len(grid[0])
    cands = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if grid[r][c] == "^" and min(arm(grid, r, c, dr, dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))) >= least_arm
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


def main(solve=solve):
    tokens = sys.stdin.read().split()
    pos = 1
    out = []
    for _ in range(int(tokens[0])):
        rows = int(tokens[pos])
        grid = tokens[pos + 2 : pos + 2 + rows]
        pos += 2 + rows
        out.append("Asuna" if solve(grid) else "Kirito")
    print("\n".join(out))


if __name__ == "__main__":
    main()
