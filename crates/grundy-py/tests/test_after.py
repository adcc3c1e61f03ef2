"""The position after a move of rectangle clearing: `grundy.clear.after`
(and `ClearAnalysis.after`).

Checked against a brute force of the game's rules written here, in plain
Python and independent of the package: the position a move leaves, its
value (the mex of its options' values, the XOR over a sum), the legal
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
    # Value 3 ^ 3 ^ 1 = 1; clearing the lone cell leaves 0.
    assert grundy.clear.analyze(grundy.clear.after(board, ClearMove(8, 0, 8, 0))).value == 0
    with pytest.raises(ValueError, match=r"clear \(1,4\)-\(1,4\) is illegal .*: cell \(1,4\) is 0"):
        grundy.clear.after(board, LargeMove(0, 3, 0, 3))
    with pytest.raises(ValueError, match="row 300 lies outside the 9 x 9 board"):
        grundy.clear.after(board, LargeMove(0, 0, 299, 0))


@pytest.mark.parametrize(
    "board, move, message",
    [
        (["0110", "0000"], ClearMove(0, 0, 0, 1), r"clear \(1,1\)-\(1,2\) is illegal .*: cell \(1,1\) is 0"),
        (["0110", "0000"], ClearMove(0, 1, 1, 2), r"cell \(2,2\) is 0"),
        (["0110", "0000"], ClearMove(4, 1, 4, 1), r"row 5 lies outside the 2 x 4 board"),
        (["0110", "0000"], ClearMove(0, 1, 0, 4), r"column 5 lies outside the 2 x 4 board"),
        (["0110", "0000"], ClearMove(0, 1, 0, 1, board=1), r"on board 2 is illegal .*: there is only 1 board"),
        ([["1"], ["1"]], ClearMove(0, 0, 0, 0, board=2), r"on board 3 is illegal .*: there are only 2 boards"),
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
