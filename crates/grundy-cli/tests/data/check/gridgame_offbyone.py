# gridgame, WRONG: the impassable cells are read as 1-based (X - 1, Y - 1).
# Otherwise as gridgame_brute.py.
import sys


def main():
    tokens = sys.stdin.buffer.read().split()
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return int(tokens[pos - 1])

    out = []
    for _ in range(take()):
        blocked = {(take() - 1, take() - 1) for _ in range(take())}
        starts = [(take(), take()) for _ in range(take())]
        points = [(max(x, 0), max(y, 0)) for x, y in blocked] + starts
        width = max(x for x, _ in points) + 1
        height = max(y for _, y in points) + 1
        losing = set()
        column_has = [False] * width
        for y in range(height):
            row_has = False
            for x in range(width):
                if (x, y) in blocked:
                    row_has = False
                    column_has[x] = False
                elif not row_has and not column_has[x]:
                    losing.add((x, y))
                    row_has = column_has[x] = True
        out.extend("Bob" if s in losing else "Alice" for s in starts)
    sys.stdout.write("".join(line + "\n" for line in out))


main()
