"""`explain()` of every game's analysis: the same words as the command
line's `--explain` and the API's `explain` fields, and numbers a brute
force confirms (each part's mex, the total, the winning moves' count)."""

import random
from functools import lru_cache

import pytest

import grundy

SEED = 20261201


def clear_value(cells):
    """The clear game's value of a set of (row, col) cells, by mex over
    every all-ones rectangle removed."""

    @lru_cache(maxsize=None)
    def value(board):
        seen = set()
        for (t, l) in board:
            b = t
            while (b, l) in board:
                r = l
                while all((i, r) in board for i in range(t, b + 1)):
                    rest = board - {(i, j) for i in range(t, b + 1) for j in range(l, r + 1)}
                    seen.add(value(rest))
                    r += 1
                b += 1
        return next(v for v in range(len(seen) + 1) if v not in seen)

    return value(frozenset(cells))


def pawn_value(walls, x, y):
    """A pawn's value by mex: left along the row, down the column, up to
    the first impassable cell."""

    @lru_cache(maxsize=None)
    def value(x, y):
        seen = set()
        for to in range(x - 1, -1, -1):
            if (to, y) in walls:
                break
            seen.add(value(to, y))
        for to in range(y - 1, -1, -1):
            if (x, to) in walls:
                break
            seen.add(value(x, to))
        return next(v for v in range(len(seen) + 1) if v not in seen)

    return value(x, y)


@pytest.mark.parametrize("case", range(20))
def test_clear_explanations_match_a_brute_force_and_the_cli(cli, case):
    rng = random.Random(SEED + case)
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    board = ["".join(rng.choice("011") for _ in range(cols)) for _ in range(rows)]
    if "1" not in "".join(board):
        board[0] = "1" + board[0][1:]
    analysis = grundy.clear.analyze(board)
    why = analysis.explain()
    cells = {(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "1"}
    assert why["parts"] and [p["grundy"] for p in why["parts"]] == [
        clear_value({cell for cell in component.cells}) for component in analysis.components
    ]
    assert [m["grundy"] for m in why["mex"]] == [p["grundy"] for p in why["parts"]]
    total = 0
    for part in why["parts"]:
        total ^= part["grundy"]
    assert total == clear_value(cells) == analysis.value
    assert len(why["winning"]) == len(analysis.winning_moves)
    # The same lines as `grundy clear --explain`, after its report.
    text = cli.run(["clear", "--explain", "-"], "\n".join(board) + "\n").stdout
    assert why["text"] in text


def test_split_and_pawn_explanations_say_what_the_cli_says(cli):
    grid = ["0110", "1001", "0110"]
    why = grundy.split.analyze(grid).explain()
    assert why["text"] in cli.run(["split", "--explain", "-"], "\n".join(grid) + "\n").stdout
    walls = {(1, 1), (3, 0)}
    pawns = [(4, 3), (2, 2)]
    analysis = grundy.pawn.analyze(pawns, blocked=sorted(walls))
    why = analysis.explain()
    assert [m["grundy"] for m in why["mex"]] == [pawn_value(walls, x, y) for x, y in pawns]
    args = ["pawn", "-", "--at", "4,3", "--at", "2,2", "--explain"]
    assert why["text"] in cli.run(args, "1 1\n3 0\n").stdout
    # A far pawn is explained by its formula, x xor y.
    far = grundy.pawn.analyze([(5000, 6000), (1, 3)]).explain()
    assert far["formula"] == [f"pawn 1 at (5000,6000) = 5000 xor 6000 = {5000 ^ 6000}"]


def test_a_board_past_64_cells_is_not_explained_as_the_cli_says():
    large = grundy.clear.analyze(["100000001"] + ["0" * 9] * 7 + ["100000001"])
    with pytest.raises(ValueError, match="explains boards of at most 64 cells"):
        large.explain()
    # Each method keeps its own documentation.
    small = grundy.clear.analyze(["11"])
    assert small.explain.__doc__.startswith("Why, in Sprague-Grundy terms")
    assert small.play.__doc__.startswith("An optimal play-out")
