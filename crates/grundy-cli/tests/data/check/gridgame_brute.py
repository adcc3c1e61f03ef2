# gridgame, correct for small coordinates: a pawn moves left or down any
# distance without landing on or passing over an impassable cell; a cell is
# losing when no move reaches a losing cell. Row by row from the origin,
# remembering whether the current row segment and each column segment below
# already hold a losing cell: O(X * Y) for coordinates up to X, Y.
# Independent of grundy (and only for small coordinates: use --max-coord).
#
# The wrong variants (gridgame_offbyone.py and the like) import this file
# and pass main() their own answers(), so each differs from it by its bug
# alone.
import sys


def answers(blocked, starts):
    """One test's answers: "Bob" for each losing start, "Alice" for the others."""
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
    return ["Bob" if s in losing else "Alice" for s in starts]


def main(answers=answers):
    tokens = sys.stdin.buffer.read().split()
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return int(tokens[pos - 1])

    out = []
    for _ in range(take()):
        blocked = {(take(), take()) for _ in range(take())}
        starts = [(take(), take()) for _ in range(take())]
        out.extend(answers(blocked, starts))
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
