# gfg, WRONG: the rectangle loops stop one short (range(r1, 3)), so no move
# touches the last row or column.
import sys

RECTS = []
for r1 in range(4):
    for r2 in range(r1, 3):
        for c1 in range(4):
            for c2 in range(c1, 3):
                RECTS.append(sum(1 << (4 * r + c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)))

# Largest moves first: a win is usually found sooner.
RECTS.sort(key=lambda m: -bin(m).count("1"))
memo = {}


def wins(s):
    if s not in memo:
        memo[s] = any(s & m == m and not wins(s ^ m) for m in RECTS)
    return memo[s]


cells = sys.stdin.read().split()
board = sum(int(c) << i for i, c in enumerate(cells[:16]))
print("A" if wins(board) else "B")
