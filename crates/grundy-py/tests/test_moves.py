"""The move classes as values: pickled, copied and deep-copied back to an
equal move of the same class (notebooks, `multiprocessing`), and sorted by
the key their equality compares: `(board, top, left, bottom, right)` for a
clear move (`grundy.clear.Move` and `LargeMove` alike), `(row, col)` for a
split move, `(pawn, x, y)` for a pawn move. Anything else is unordered with
them (`NotImplemented`, so Python raises `TypeError`)."""

import copy
import pickle

import pytest

import grundy

ClearMove = grundy.clear.Move
LargeMove = grundy.clear.LargeMove
SplitMove = grundy.split.Move
PawnMove = grundy.pawn.Move


def clear_key(m):
    return (m.board, m.top, m.left, m.bottom, m.right)


def split_key(m):
    return (m.row, m.col)


def pawn_key(m):
    return (m.pawn, m.x, m.y)


def large_board():
    """A 9 x 9 board (81 cells, past 64: a large board) of two lines of 3
    and a cell: value 3 ^ 3 ^ 1 = 1, and every move is a LargeMove."""
    rows = ["0" * 9 for _ in range(9)]
    rows[0] = "111" + "0" * 6
    rows[4] = "0" * 6 + "111"
    rows[8] = "1" + "0" * 8
    return rows


def clear_moves():
    """The moves of a real analysis: every option of a sum of two boards."""
    a = grundy.clear.analyze([["0110", "0000", "0001"], ["111", "010"]])
    return [m for m, _ in a.options()]


def split_moves():
    return [m for m, _ in grundy.split.analyze(["101", "010", "101"]).options()]


def pawn_moves():
    return [m for m, _ in grundy.pawn.analyze([(3, 2), (2, 4)]).options()]


def large_moves():
    s = grundy.sum.BoardSum([large_board(), ["111", "010"], large_board()], max_time=20)
    moves = s.winning_moves()
    assert any(isinstance(m, LargeMove) for m in moves), moves
    return moves


def every_move():
    return clear_moves() + large_moves() + split_moves() + pawn_moves()


def test_the_analyses_give_moves_of_each_class():
    assert {type(m) for m in every_move()} == {ClearMove, LargeMove, SplitMove, PawnMove}


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trips_every_move_to_an_equal_move_of_its_class(protocol):
    moves = every_move()
    for move in moves:
        back = pickle.loads(pickle.dumps(move, protocol=protocol))
        assert back == move and type(back) is type(move), (move, back)
        assert hash(back) == hash(move)
        assert repr(back) == repr(move)
    # A list of them, as multiprocessing sends it.
    assert pickle.loads(pickle.dumps(moves, protocol=protocol)) == moves


def test_copy_and_deepcopy_give_an_equal_move_of_its_class():
    for move in every_move():
        for back in (copy.copy(move), copy.deepcopy(move)):
            assert back == move and type(back) is type(move), (move, back)
    nested = {"moves": every_move()}
    assert copy.deepcopy(nested) == nested


def test_a_large_move_past_byte_sides_round_trips_as_a_large_move():
    """A LargeMove has a constructor of its own (a ClearMove's sides fit a
    byte): pickle gives back a LargeMove, whatever its sides."""
    move = LargeMove(300, 70000, 301, 70002, board=5)
    assert clear_key(move) == (5, 300, 70000, 301, 70002)
    for back in (pickle.loads(pickle.dumps(move)), copy.deepcopy(move)):
        assert type(back) is LargeMove and back == move
    assert LargeMove(0, 1, 0, 1) == ClearMove(0, 1, 0, 1)
    # Its repr names its class, and evaluates back past byte sides.
    assert eval(repr(move), {"LargeMove": LargeMove}) == move


def test_sorted_follows_the_documented_keys():
    for moves, key in ((clear_moves(), clear_key), (split_moves(), split_key), (pawn_moves(), pawn_key)):
        assert len(moves) > 3
        reordered = list(reversed(moves))
        assert sorted(reordered) == sorted(moves, key=key)
        assert [key(m) for m in sorted(reordered)] == sorted(key(m) for m in moves)
    boards = {m.board for m in clear_moves()}
    pawns = {m.pawn for m in pawn_moves()}
    assert boards == {0, 1} and pawns == {0, 1}


def test_the_order_is_total_and_consistent_with_equality():
    for moves, key in ((clear_moves() + large_moves(), clear_key), (split_moves(), split_key), (pawn_moves(), pawn_key)):
        for a in moves:
            for b in moves:
                ka, kb = key(a), key(b)
                assert (a == b) == (ka == kb)
                assert (a != b) == (ka != kb)
                assert (a < b) == (ka < kb)
                assert (a <= b) == (ka <= kb)
                assert (a > b) == (ka > kb)
                assert (a >= b) == (ka >= kb)
                assert sum((a < b, a == b, a > b)) == 1


def test_large_and_small_clear_moves_sort_and_compare_together():
    """A sum of large and small boards gives moves of both classes; they
    sort as one list by one key, and the LargeMove of a rectangle equals
    the ClearMove of it, so neither sorts before the other."""
    large = large_moves()
    small = [ClearMove(m.top, m.left, m.bottom, m.right, m.board) for m in large if isinstance(m, LargeMove)]
    mixed = large + small + clear_moves()
    ordered = sorted(mixed)
    assert ordered == sorted(mixed, key=clear_key)
    assert [clear_key(m) for m in ordered] == sorted(clear_key(m) for m in mixed)
    assert {type(m) for m in ordered} == {ClearMove, LargeMove}
    for big, little in zip((m for m in large if isinstance(m, LargeMove)), small):
        assert big == little and little == big
        assert big <= little and little <= big and big >= little and little >= big
        assert not big < little and not little < big
        assert hash(big) == hash(little)
    assert LargeMove(0, 0, 0, 0, board=1) > ClearMove(7, 7, 7, 7, board=0)
    assert ClearMove(0, 0, 0, 1) < LargeMove(0, 0, 1, 0)
    # Sorting is stable on equal keys: the large move stays first.
    tied = sorted([LargeMove(1, 2, 3, 4), ClearMove(0, 0, 0, 0), ClearMove(1, 2, 3, 4)])
    assert [type(m) for m in tied] == [ClearMove, LargeMove, ClearMove]


@pytest.mark.parametrize(
    "make",
    [
        lambda: ClearMove(0, 1, 0, 1),
        lambda: LargeMove(0, 1, 0, 1),
        lambda: SplitMove(0, 1),
        lambda: PawnMove(1, 2),
    ],
    ids=["ClearMove", "LargeMove", "SplitMove", "PawnMove"],
)
def test_other_types_are_unordered_with_moves(make):
    move = make()
    for other in ((0, 1, 0, 1, 0), 3, "Move", None):
        assert move.__lt__(other) is NotImplemented
        assert move.__eq__(other) is NotImplemented
        assert move != other
        for compare in (lambda: move < other, lambda: move >= other, lambda: other > move):
            with pytest.raises(TypeError):
                compare()


def test_moves_of_different_games_are_unequal_and_unordered():
    clear, split, pawn = ClearMove(0, 1, 0, 1), SplitMove(0, 1), PawnMove(0, 1)
    assert clear != split and split != pawn and pawn != clear
    with pytest.raises(TypeError):
        sorted([clear, split])
    with pytest.raises(TypeError):
        split < pawn


def test_a_pickled_class_is_found_by_its_own_name():
    """Pickle finds a class by `__module__` and `__qualname__`: each module
    holds its move class by that name too, the very class."""
    assert grundy.clear.ClearMove is ClearMove
    assert grundy.split.SplitMove is SplitMove
    assert grundy.pawn.PawnMove is PawnMove
    for cls in (ClearMove, LargeMove, SplitMove, PawnMove):
        module = __import__(cls.__module__, fromlist=["_"])
        assert getattr(module, cls.__qualname__) is cls


@pytest.mark.parametrize("cls, most", [(ClearMove, 255), (LargeMove, 2**32 - 1)])
def test_a_clear_moves_constructor_refuses_what_is_no_rectangle_naming_the_argument(cls, most):
    # The largest sides are taken; one past them, a negative side or board,
    # or a top below the bottom (or a left past the right) is refused with
    # a ValueError that names the argument.
    assert cls(0, 0, most, most).bottom == most
    for args, named in [
        ((-1, 0, 0, 0), "top is -1"),
        ((0, -2, 0, 0), "left is -2"),
        ((0, 0, most + 1, 0), f"bottom is {most + 1}"),
        ((0, 0, 0, most + 1), f"right is {most + 1}"),
        ((3, 3, 0, 0), "top is 3 and bottom is 0"),
        ((0, 3, 0, 0), "left is 3 and right is 0"),
    ]:
        with pytest.raises(ValueError, match=named):
            cls(*args)
    with pytest.raises(ValueError, match="board is -1"):
        cls(0, 0, 0, 0, board=-1)
    # Far out of any C integer's range, or not an int at all: the same
    # messages, or a TypeError naming the argument.
    with pytest.raises(ValueError, match=f"^right is {2**64}: a column index is at most {most}$"):
        cls(0, 0, 0, 2**64)
    with pytest.raises(ValueError, match="^top is .*: far out of range$"):
        cls(-(2**200), 0, 0, 0)
    with pytest.raises(TypeError, match="^top must be an int, not bool$"):
        cls(True, 0, 1, 1)
    with pytest.raises(TypeError, match="^left must be an int, not float$"):
        cls(0, 1.0, 1, 1)


def test_split_and_pawn_moves_refuse_what_is_out_of_range_naming_the_argument():
    SplitMove, PawnMove = grundy.split.Move, grundy.pawn.Move
    # A split move lies in a grid of at most 10^9 rows and columns; the
    # bound said is the grid's, not the integer type's.
    last = grundy.split.MAX_SIDE - 1
    assert (SplitMove(last, 0).row, PawnMove(10**9, 0, pawn=3).pawn) == (last, 3)
    for make, message in [
        (lambda: SplitMove(-1, 0), "^row is -1: a row index counts from 0$"),
        (lambda: SplitMove(0, last + 1), f"^col is {last + 1}: a column index is at most {last}$"),
        (lambda: PawnMove(10**10, 0), "^x is 10000000000: a coordinate is at most 1000000000$"),
        (lambda: PawnMove(0, -1), "^y is -1: a coordinate counts from 0$"),
        (lambda: PawnMove(0, 0, pawn=-1), "^pawn is -1: a pawn's index counts from 0$"),
    ]:
        with pytest.raises(ValueError, match=message):
            make()
    with pytest.raises(TypeError, match="^row must be an int, not bool$"):
        SplitMove(False, 0)
    # numpy's integers are ints, as everywhere else in the package; its
    # bools are not.
    import numpy as np

    assert SplitMove(np.int64(2), np.uint8(3)) == SplitMove(2, 3)
    assert PawnMove(np.int32(4), 0, pawn=np.int64(1)) == PawnMove(4, 0, pawn=1)
    assert grundy.clear.Move(np.int64(0), 0, np.int16(1), 1).bottom == 1
    with pytest.raises(TypeError, match="must be an int, not bool"):
        SplitMove(np.bool_(True), 0)


def test_calls_from_more_threads_than_cores_keep_their_time_budget():
    """The engine runs calls on a pool of one thread a core; a call that
    waits for a thread counts the wait in its `max_time`, so each of many
    threads' calls still answers about `max_time` after it was made (it
    took `max_time` times the number of waves before)."""
    import concurrent.futures
    import random
    import time

    rng = random.Random(1)
    cells = [(rng.randrange(200_000), rng.randrange(200_000)) for _ in range(3000)]

    def call(_):
        start = time.monotonic()
        mv = grundy.split.engine_move(size=(200_000, 200_000), cells=cells, max_time=0.5)
        return mv, time.monotonic() - start

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(call, range(12)))
    for mv, took in answers:
        assert mv["move"] is not None and mv["kind"] in ("winning", "unproven"), mv
        assert took < 2.0, [round(t, 2) for _, t in answers]
