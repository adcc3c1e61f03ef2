"""The position after a move, for each game: `grundy.clear.after` (and
`ClearAnalysis.after`), `grundy.split.analyze(grid, moves=...)` (and
`engine_move`, `SplitAnalysis.after`), `grundy.pawn.after` (and
`PawnAnalysis.after`).

Each is checked against a brute force of the game's rules written here, in
plain Python and independent of the package: the position a move leaves,
its value (the mex of its options' values, the XOR over a sum), the legal
moves, and the refusal of every other move."""

import functools
import random

import numpy as np
import pytest

import grundy

ClearMove = grundy.clear.Move
LargeMove = grundy.clear.LargeMove
SplitMove = grundy.split.Move
PawnMove = grundy.pawn.Move


def mex(values):
    values = set(values)
    n = 0
    while n in values:
        n += 1
    return n


# Rectangle clearing --------------------------------------------------------


def clear_rects(rows):
    """Every rectangle of ones of a board (a tuple of '0'/'1' strings):
    (top, left, bottom, right), inclusive."""
    h, w = len(rows), len(rows[0])
    out = []
    for top in range(h):
        for left in range(w):
            for bottom in range(top, h):
                for right in range(left, w):
                    if all(rows[r][c] == "1" for r in range(top, bottom + 1) for c in range(left, right + 1)):
                        out.append((top, left, bottom, right))
    return out


def clear_play(rows, rect):
    top, left, bottom, right = rect
    return tuple(
        "".join("0" if top <= r <= bottom and left <= c <= right else ch for c, ch in enumerate(row))
        for r, row in enumerate(rows)
    )


@functools.lru_cache(maxsize=None)
def clear_value(rows):
    return mex(clear_value(clear_play(rows, rect)) for rect in clear_rects(rows))


def random_board(rng, h, w, density=0.7):
    return ["".join("1" if rng.random() < density else "0" for _ in range(w)) for _ in range(h)]


@pytest.mark.parametrize("seed", range(6))
def test_clear_after_each_option_is_the_brute_force_position_and_value(seed):
    rng = random.Random(seed)
    board = random_board(rng, rng.randint(1, 3), rng.randint(2, 4))
    a = grundy.clear.analyze(board)
    assert a.value == clear_value(tuple(board))
    options = a.options()
    assert sorted((m.top, m.left, m.bottom, m.right) for m, _ in options) == sorted(
        clear_rects(tuple(board))
    )
    for m, left in options:
        after = grundy.clear.after(board, m)
        expected = clear_play(tuple(board), (m.top, m.left, m.bottom, m.right))
        assert after == list(expected)
        assert a.after(m) == after
        assert grundy.clear.analyze(after).value == left == clear_value(expected)
    assert a.value == mex(v for _, v in options)
    for m in a.winning_moves:
        assert clear_value(tuple(grundy.clear.after(board, m))) == 0


def test_clear_after_on_a_sum_changes_only_the_board_named():
    boards = [["0110", "0000", "0001"], ["111", "010"]]
    a = grundy.clear.analyze(boards)
    for m, left in a.options():
        after = grundy.clear.after(boards, m)
        assert len(after) == 2
        assert after[1 - m.board] == boards[1 - m.board]
        assert after[m.board] == list(clear_play(tuple(boards[m.board]), (m.top, m.left, m.bottom, m.right)))
        assert a.after(m) == after
        assert grundy.clear.analyze(after).value == left
        assert clear_value(tuple(after[0])) ^ clear_value(tuple(after[1])) == left
    for m in a.winning_moves:
        assert grundy.clear.analyze(grundy.clear.after(boards, m)).value == 0


def test_clear_after_keeps_the_form_analyze_was_given():
    one = grundy.clear.after(np.array([[1, 1], [0, 1]]), ClearMove(0, 0, 0, 1))
    assert one == ["00", "01"]
    assert grundy.clear.analyze(np.array([[1, 1], [0, 1]])).after(ClearMove(0, 0, 0, 1)) == one
    # A list of one board is a sum, and stays a list.
    assert grundy.clear.after([["11"]], ClearMove(0, 0, 0, 0)) == [["01"]]
    assert grundy.clear.analyze([["11"]]).after(ClearMove(0, 0, 0, 0)) == [["01"]]
    assert grundy.clear.Solver().analyze([["11"]]).after(ClearMove(0, 0, 0, 0)) == [["01"]]
    # A text of two boards is a sum too.
    text = "11\n\n1\n"
    assert grundy.clear.after(text, ClearMove(0, 0, 0, 0, board=1)) == [["11"], ["0"]]
    assert grundy.clear.analyze(text).after(ClearMove(0, 0, 0, 0, board=1)) == [["11"], ["0"]]
    # The board given is not changed.
    board = ["11", "11"]
    grundy.clear.after(board, ClearMove(0, 0, 1, 1))
    assert board == ["11", "11"]


def test_clear_after_on_a_sum_of_columns_reads_back_as_that_sum():
    # Rows of one character would read as one board too (and be refused as
    # ambiguous): such a sum comes back as rows of 0/1 numbers.
    text = "1\n1\n\n1\n1\n"
    a = grundy.clear.analyze(text)
    position = a.after(ClearMove(0, 0, 0, 0))
    assert position == [[[0], [1]], [[1], [1]]]
    assert grundy.clear.after(text, ClearMove(0, 0, 0, 0)) == position
    again = grundy.clear.analyze(position)
    # Brute force of the two columns: a column of n ones is worth n.
    assert again.value == 1 ^ 2
    assert grundy.clear.after(position, ClearMove(1, 0, 1, 0)) == [[[0], [0]], [[1], [1]]]
    # The analysis's own boards read back as the sum too.
    assert a.boards == [[[1], [1]], [[1], [1]]]
    assert grundy.clear.analyze(a.boards).value == a.value


def test_clear_after_walks_a_game_to_its_end():
    board = ["1101", "1111", "0110"]
    position = board
    for _ in range(20):
        a = grundy.clear.analyze(position)
        options = a.options()
        if not options:
            break
        m, left = options[len(options) // 2]
        position = a.after(m)
        assert clear_value(tuple(position)) == left
    assert position == ["0000", "0000", "0000"]


def large_board():
    """9 x 9 (81 cells, past 64): three runs of ones."""
    rows = ["0" * 9 for _ in range(9)]
    rows[0] = "111" + "0" * 6
    rows[4] = "0" * 6 + "111"
    rows[8] = "1" + "0" * 8
    return rows


def test_clear_after_on_a_large_board():
    board = large_board()
    a = grundy.clear.analyze(board)
    assert isinstance(a, grundy.clear.LargeClearAnalysis)
    for m in [LargeMove(0, 1, 0, 1), ClearMove(4, 6, 4, 8), *a.winning_moves]:
        after = grundy.clear.after(board, m)
        expected = clear_play(tuple(board), (m.top, m.left, m.bottom, m.right))
        assert after == list(expected)
        # The analysis plays it on its own boards, as `after` does.
        assert a.after(m) == list(expected)
    # Value 3 ^ 3 ^ 1 = 1; clearing the lone cell leaves 0.
    assert grundy.clear.analyze(grundy.clear.after(board, ClearMove(8, 0, 8, 0))).value == 0
    with pytest.raises(ValueError, match=r"clear \(1,4\)-\(1,4\) is illegal .*: cell \(1,4\) is 0"):
        grundy.clear.after(board, LargeMove(0, 3, 0, 3))
    with pytest.raises(ValueError, match="row 300 lies outside the 9 x 9 board"):
        grundy.clear.after(board, LargeMove(0, 0, 299, 0))
    for bad in [LargeMove(0, 3, 0, 3), LargeMove(0, 0, 299, 0), LargeMove(0, 0, 0, 0, board=1)]:
        with pytest.raises(ValueError) as from_function:
            grundy.clear.after(board, bad)
        with pytest.raises(ValueError) as from_analysis:
            a.after(bad)
        assert str(from_analysis.value) == str(from_function.value)


def test_a_large_analysis_gives_a_sum_back_as_a_list_of_boards():
    board = large_board()
    small = ["11", "01"]
    for given in ([board, small], [board]):
        a = grundy.clear.analyze(given)
        assert isinstance(a, grundy.clear.LargeClearAnalysis)
        m = LargeMove(8, 0, 8, 0, board=0)
        assert a.after(m) == grundy.clear.after(given, m)
        assert a.after(m)[0] == list(clear_play(tuple(board), (8, 0, 8, 0)))


@pytest.mark.parametrize(
    "board, move, message",
    [
        (["0110", "0000"], ClearMove(0, 0, 0, 1), r"clear \(1,1\)-\(1,2\) is illegal .*: cell \(1,1\) is 0"),
        (["0110", "0000"], ClearMove(0, 1, 1, 2), r"cell \(2,2\) is 0"),
        (["0110", "0000"], ClearMove(4, 1, 4, 1), r"row 5 lies outside the 2 x 4 board"),
        (["0110", "0000"], ClearMove(0, 1, 0, 4), r"column 5 lies outside the 2 x 4 board"),
        (["0110", "0000"], ClearMove(0, 1, 0, 1, board=1), r"^move.board is 1: there is only 1 board \(board 0\)$"),
        ([["1"], ["1"]], ClearMove(0, 0, 0, 0, board=2), r"^move.board is 2: there are only 2 boards \(0 to 1\)$"),
        ([["1"], ["10"]], ClearMove(0, 1, 0, 1, board=1), r"clear \(1,2\)-\(1,2\) on board 2 is illegal .*: cell \(1,2\) is 0"),
    ],
)
def test_clear_after_refuses_an_illegal_move_saying_why(board, move, message):
    # The brute force agrees that it is no move.
    boards = board if isinstance(board[0], list) else [board]
    if move.board < len(boards):
        assert (move.top, move.left, move.bottom, move.right) not in clear_rects(tuple(boards[move.board]))
    with pytest.raises(ValueError, match=message):
        grundy.clear.after(board, move)
    with pytest.raises(ValueError, match=message):
        grundy.clear.analyze(board).after(move)


def test_clear_after_refuses_inverted_corners_and_other_moves():
    with pytest.raises(ValueError, match="top is 3 and bottom is 0"):
        ClearMove(3, 3, 0, 0)
    with pytest.raises(ValueError, match="left is 2 and right is 1"):
        LargeMove(0, 2, 0, 1)
    with pytest.raises(TypeError, match="grundy.clear.Move or LargeMove"):
        grundy.clear.after(["11"], (0, 0, 0, 0))
    with pytest.raises(TypeError, match="grundy.clear.Move or LargeMove"):
        grundy.clear.analyze(["11"]).after(SplitMove(0, 0))
    with pytest.raises(ValueError, match=r"<board>:1:2"):
        grundy.clear.after(["1x"], ClearMove(0, 0, 0, 0))


# The splitting game ---------------------------------------------------------


@functools.lru_cache(maxsize=None)
def split_rect_value(cands, rect):
    """The value of rectangle `rect` (top, left, bottom, right), given the
    grid's candidates (a frozenset of (row, col))."""
    top, left, bottom, right = rect
    options = []
    for r, c in cands:
        if top <= r <= bottom and left <= c <= right:
            options.append(
                functools.reduce(
                    lambda a, b: a ^ b,
                    (split_rect_value(cands, part) for part in split_parts(rect, (r, c))),
                    0,
                )
            )
    return mex(options)


def split_parts(rect, cell):
    top, left, bottom, right = rect
    r, c = cell
    parts = [(top, left, r - 1, c - 1), (top, c + 1, r - 1, right), (r + 1, left, bottom, c - 1), (r + 1, c + 1, bottom, right)]
    return [p for p in parts if p[0] <= p[2] and p[1] <= p[3]]


def split_replay(grid, moves):
    """The rectangles in play after `moves`, or None if one is illegal."""
    cands = frozenset((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "1")
    rects = [(0, 0, len(grid) - 1, len(grid[0]) - 1)]
    for r, c in moves:
        holding = [rect for rect in rects if (r, c) in cands and rect[0] <= r <= rect[2] and rect[1] <= c <= rect[3]]
        if not holding:
            return cands, None
        rects.remove(holding[0])
        rects.extend(split_parts(holding[0], (r, c)))
    return cands, rects


def split_value(grid, moves):
    cands, rects = split_replay(grid, moves)
    return functools.reduce(lambda a, b: a ^ b, (split_rect_value(cands, rect) for rect in rects), 0)


@pytest.mark.parametrize("seed", range(6))
def test_split_moves_reach_the_position_each_option_leaves(seed):
    rng = random.Random(seed)
    grid = random_board(rng, rng.randint(3, 5), rng.randint(3, 6), 0.4)
    a = grundy.split.analyze(grid)
    assert a.moves == []
    assert a.value == split_value(grid, [])
    for m, left in a.options():
        b = grundy.split.analyze(grid, moves=[m])
        assert b.value == left == split_value(grid, [(m.row, m.col)])
        assert b.moves == [m]
        assert a.after(m) == [m]
        # Pairs work as well as moves.
        assert grundy.split.analyze(grid, moves=[(m.row, m.col)]).value == left
        for m2, left2 in b.options():
            moves = b.after(m2)
            assert moves == [m, m2]
            assert grundy.split.analyze(grid, moves=moves).value == left2 == split_value(
                grid, [(m.row, m.col), (m2.row, m2.col)]
            )
        # The legal moves after it are those the brute force finds.
        cands, rects = split_replay(grid, [(m.row, m.col)])
        in_play = {(r, c) for r, c in cands for t, l, bo, ri in rects if t <= r <= bo and l <= c <= ri}
        assert {(o.row, o.col) for o, _ in b.options()} == in_play


def test_split_engine_move_plays_in_the_position_reached():
    grid = ["10101", "01010", "10101", "01010"]
    a = grundy.split.analyze(grid)
    for m, _ in a.options():
        b = grundy.split.analyze(grid, moves=[m])
        chosen = grundy.split.engine_move(grid, moves=[m])
        legal = {o for o, _ in b.options()}
        if not legal:
            assert chosen["move"] is None and chosen["kind"] == "none"
            continue
        assert chosen["move"] in legal
        if b.value != 0:
            assert chosen["kind"] == "winning"
            assert split_value(grid, [(m.row, m.col), (chosen["move"].row, chosen["move"].col)]) == 0


def test_split_moves_with_cells_and_a_numpy_array():
    a = grundy.split.analyze(size=(4, 4), cells=[(0, 0), (1, 2), (3, 3)], moves=np.array([[1, 2]]))
    grid = ["1000", "0010", "0000", "0001"]
    assert a.value == split_value(grid, [(1, 2)])
    assert a.moves == [SplitMove(1, 2)]


@pytest.mark.parametrize(
    "grid, moves, message",
    [
        (["101", "000", "101"], [(0, 1)], r"^moves\[0\]: split at \(1,2\) is illegal \(cells counting from 1, as the command line does\): cell \(1,2\) is 0, not a candidate$"),
        (["101", "000", "101"], [(0, 0), (0, 2)], r"^moves\[1\]: split at \(1,3\) is illegal \(cells counting from 1, as the command line does\): no longer in play: an earlier move deleted its row or column$"),
        (["101", "000", "101"], [(0, 0), (0, 0)], r"^moves\[1\]: split at \(1,1\) is illegal \(cells counting from 1, as the command line does\): no longer in play"),
        (["101", "000", "101"], [(5, 5)], r"^moves\[0\]: split at \(6,6\) is illegal \(cells counting from 1, as the command line does\): it lies outside the 3 x 3 grid$"),
        (["101", "000", "101"], [(2**40, 0)], r"^moves\[0\] is \(1099511627776, 0\): outside the 3 x 3 grid$"),
        (["101", "000", "101"], [(0, -1)], r"^moves\[0\] is \(0, -1\): negative col -1: rows and columns count from 0$"),
        (["101", "000", "101"], [(0,)], r"moves\[0\] is \(0,\), not a pair of integers"),
    ],
)
def test_split_refuses_an_illegal_move_naming_it(grid, moves, message):
    if all(len(m) == 2 and min(m) >= 0 for m in moves):
        # The brute force agrees that a move is illegal.
        assert split_replay(grid, moves)[1] is None
    with pytest.raises(ValueError, match=message):
        grundy.split.analyze(grid, moves=moves)
    with pytest.raises(ValueError, match=message):
        grundy.split.engine_move(grid, moves=moves)


def test_split_after_refuses_an_illegal_move():
    a = grundy.split.analyze(["101", "000", "101"], moves=[(0, 0)])
    with pytest.raises(ValueError, match=r"^split at \(3,1\) is illegal \(cells counting from 1, as the command line does\): no longer in play"):
        a.after((2, 0))
    with pytest.raises(ValueError, match=r"^split at \(2,2\) is illegal \(cells counting from 1, as the command line does\): cell \(2,2\) is 0, not a candidate$"):
        a.after(SplitMove(1, 1))
    with pytest.raises(TypeError, match="grundy.split.Move or a"):
        a.after("22")
    with pytest.raises(TypeError, match="moves must be a list of moves"):
        grundy.split.analyze(["1"], moves=3)


# The pawn game ---------------------------------------------------------------


def pawn_moves(cell, blocked):
    """Every cell the pawn at `cell` reaches in one move: toward the origin
    along its row or column, stopping before an impassable cell."""
    x, y = cell
    out = []
    for tx in range(x - 1, -1, -1):
        if (tx, y) in blocked:
            break
        out.append((tx, y))
    for ty in range(y - 1, -1, -1):
        if (x, ty) in blocked:
            break
        out.append((x, ty))
    return out


def pawn_value(cell, blocked):
    @functools.lru_cache(maxsize=None)
    def value(c):
        return mex(value(t) for t in pawn_moves(c, blocked))

    return value(cell)


@pytest.mark.parametrize("seed", range(6))
def test_pawn_after_each_option_and_refusing_every_other_cell(seed):
    rng = random.Random(seed)
    n = 7
    blocked = frozenset((rng.randrange(n), rng.randrange(n)) for _ in range(8))
    open_cells = [(x, y) for x in range(n) for y in range(n) if (x, y) not in blocked]
    pawns = rng.sample(open_cells, rng.randint(1, 3))
    a = grundy.pawn.analyze(pawns, blocked=sorted(blocked))
    assert a.value == functools.reduce(lambda u, v: u ^ v, (pawn_value(p, blocked) for p in pawns), 0)
    options = a.options()
    for m, left in options:
        after = grundy.pawn.after(pawns, m, blocked=sorted(blocked))
        assert a.after(m) == after
        expected = list(pawns)
        expected[m.pawn] = (m.x, m.y)
        assert after == expected
        assert grundy.pawn.analyze(after, blocked=sorted(blocked)).value == left
        assert functools.reduce(lambda u, v: u ^ v, (pawn_value(p, blocked) for p in after), 0) == left
    for m in a.winning_moves:
        assert grundy.pawn.analyze(a.after(m), blocked=sorted(blocked)).value == 0
    # Every cell of the board is a legal target exactly when the brute
    # force says so.
    for index, pawn in enumerate(pawns):
        legal = set(pawn_moves(pawn, blocked))
        assert {(m.x, m.y) for m, _ in options if m.pawn == index} == legal
        for x in range(n):
            for y in range(n):
                if (x, y) in legal:
                    continue
                with pytest.raises(ValueError, match=r"is illegal( \(pawns counting from 1, as the command line does\))?: "):
                    a.after(PawnMove(x, y, pawn=index))


def test_pawn_after_keeps_the_form_analyze_was_given():
    assert grundy.pawn.after((2, 2), PawnMove(0, 2)) == (0, 2)
    assert grundy.pawn.analyze((2, 2)).after(PawnMove(0, 2)) == (0, 2)
    assert grundy.pawn.after([(2, 2)], PawnMove(0, 2)) == [(0, 2)]
    assert grundy.pawn.analyze([(2, 2)]).after(PawnMove(0, 2)) == [(0, 2)]
    assert grundy.pawn.after([(3, 2), (2, 4)], PawnMove(2, 2, pawn=1)) == [(3, 2), (2, 2)]
    # Far out, past the region of values, with a text of impassable cells.
    assert grundy.pawn.after((10**9, 5), PawnMove(10**9, 0), blocked="3 3\n") == (10**9, 0)


@pytest.mark.parametrize(
    "at, move, message",
    [
        ((2, 2), PawnMove(1, 1), r"^move pawn \(2,2\) -> \(1,1\) is illegal: a pawn moves toward the origin along its row or its column"),
        ((2, 2), PawnMove(3, 2), r"toward the origin"),
        ((2, 2), PawnMove(2, 2), r"toward the origin"),
        ((2, 2), PawnMove(1, 2), r"^move pawn \(2,2\) -> \(1,2\) is illegal: \(1,2\) is impassable$"),
        ((2, 2), PawnMove(0, 2), r"^move pawn \(2,2\) -> \(0,2\) is illegal: it passes over the impassable cell \(1,2\)$"),
        ((2, 5), PawnMove(2, 0), r"it passes over the impassable cell \(2,3\)$"),
        ([(2, 2), (4, 4)], PawnMove(4, 1, pawn=1), r"^move pawn 2 \(4,4\) -> \(4,1\) is illegal \(pawns counting from 1, as the command line does\): it passes over the impassable cell \(4,2\)$"),
        ([(2, 2), (4, 4)], PawnMove(0, 0, pawn=2), r"^move.pawn is 2: there are only 2 pawns \(0 to 1\)$"),
        ((2, 2), PawnMove(0, 0, pawn=1), r"^move.pawn is 1: there is only 1 pawn \(pawn 0\)$"),
    ],
)
def test_pawn_after_refuses_an_illegal_move_saying_why(at, move, message):
    blocked = [(1, 2), (2, 3), (4, 2), (2, 1)]
    with pytest.raises(ValueError, match=message):
        grundy.pawn.after(at, move, blocked=blocked)
    with pytest.raises(ValueError, match=message):
        grundy.pawn.analyze(at, blocked=blocked).after(move)


def test_pawn_after_refuses_bad_arguments():
    with pytest.raises(TypeError, match="grundy.pawn.Move"):
        grundy.pawn.after((2, 2), (1, 2))
    with pytest.raises(ValueError, match=r"at\[0\] is \(1, 1\), an impassable cell"):
        grundy.pawn.after((1, 1), PawnMove(0, 1), blocked=[(1, 1)])
    # The analysis's own `after` words it the same.
    with pytest.raises(TypeError, match="move must be a grundy.pawn.Move, not tuple"):
        grundy.pawn.analyze((2, 2)).after((1, 2))


def test_coordinates_past_64_bits_are_value_errors():
    # Python ints have no bound; the native side takes 64 bits.
    with pytest.raises(ValueError, match=rf"moves\[0\] is .*: row {2**70} is past the largest grid"):
        grundy.split.analyze(["101", "000", "101"], moves=[(2**70, 0)])
    with pytest.raises(ValueError, match=rf"at\[0\] is .*: x coordinate {2**70} is out of range 0 to 1000000000$"):
        grundy.pawn.analyze([(2**70, 2)])


def total(pawns, blocked):
    return functools.reduce(lambda u, v: u ^ v, (pawn_value(p, blocked) for p in pawns), 0)


@pytest.mark.parametrize("seed", range(6))
def test_pawn_engine_move_wins_when_the_brute_force_says_it_can(seed):
    rng = random.Random(100 + seed)
    n = 8
    blocked = frozenset((rng.randrange(n), rng.randrange(n)) for _ in range(9))
    open_cells = [(x, y) for x in range(n) for y in range(n) if (x, y) not in blocked]
    for _ in range(10):
        pawns = rng.sample(open_cells, rng.randint(1, 3))
        m = grundy.pawn.engine_move(pawns, blocked=sorted(blocked))
        can_move = any(pawn_moves(p, blocked) for p in pawns)
        if not can_move:
            assert (m["move"], m["kind"], m["proven"]) == (None, "none", True)
            continue
        after = grundy.pawn.after(pawns, m["move"], blocked=sorted(blocked))
        assert m["proven"]
        if total(pawns, blocked) != 0:
            assert m["kind"] == "winning"
            assert total(after, blocked) == 0
        else:
            assert m["kind"] == "losing"


def test_pawn_engine_move_plays_a_sum_past_the_values_unproven():
    # One pawn past 4096 x 4096 with an impassable cell below-left: its
    # value is out of reach, so analyze refuses the sum, and the engine
    # still plays a legal move, saying it is unproven.
    pawns, walls = [(2, 2), (5000, 6000)], [(1, 1)]
    with pytest.raises(ValueError, match="a sum of pawns needs Grundy values"):
        grundy.pawn.analyze(pawns, blocked=walls)
    m = grundy.pawn.engine_move(pawns, blocked=walls)
    assert (m["kind"], m["proven"]) == ("unproven", False)
    assert grundy.pawn.after(pawns, m["move"], blocked=walls) != pawns
    assert m["text"].startswith("move pawn ")
