# gridgame, WRONG: impassable cells are ignored: a start is losing exactly
# when X = Y, as on an empty grid.
import sys

tokens = sys.stdin.buffer.read().split()
pos = 0


def take():
    global pos
    pos += 1
    return int(tokens[pos - 1])


out = []
for _ in range(take()):
    for _ in range(take()):
        take(), take()
    for _ in range(take()):
        x, y = take(), take()
        out.append("Bob" if x == y else "Alice")
print("\n".join(out))
