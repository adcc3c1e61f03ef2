# gridgame, WRONG: every coordinate indexes fixed arrays of 1001 entries (the
# author assumed coordinates up to 1000): a crash (IndexError) on larger ones.
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
        blocked = {(take(), take()) for _ in range(take())}
        seen_row = [0] * 1001
        for x, y in blocked:
            seen_row[y] += 1
            seen_row[x] += 0
        starts = [(take(), take()) for _ in range(take())]
        for x, y in starts:
            seen_row[x] += 0
            seen_row[y] += 0
        points = list(blocked) + starts
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
