"""`grundy.clear.Solver` keeps its shape memo across calls: its answers are
those of a fresh search (the module's functions, themselves checked
against the command line), and a search it stopped goes on from what it
found."""

import random

import numpy as np
import pytest

import grundy

from test_agreement import clear_moves, cli_moves

# A 4 x 6 board of 20 cells (value 13): no table or built-in database
# holds it, and its search solves thousands of shapes.
DENSE = ["111110", "101111", "111101", "011111"]


def play(board, mv):
    """`board` (rows) with the move `mv` played, checked legal."""
    cells = np.array([[c == "1" for c in row] for row in board])
    assert cells[mv.top : mv.bottom + 1, mv.left : mv.right + 1].all(), "a legal move"
    cells[mv.top : mv.bottom + 1, mv.left : mv.right + 1] = False
    return ["".join("1" if v else "0" for v in row) for row in cells]


def test_a_solver_agrees_with_fresh_searches_and_the_cli(cli):
    # The positions of games on random 5 x 6 boards, each game on one
    # solver: every answer is a fresh search's, and the CLI's value.
    rng = random.Random(20261129)
    solver = grundy.clear.Solver()
    for _ in range(4):
        board = ["".join("1" if rng.random() < 0.75 else "0" for _ in range(6)) for _ in range(5)]
        for _ply in range(4):
            if "1" not in "".join(board):
                break
            kept = solver.analyze(board)
            fresh = grundy.clear.analyze(board)
            assert (kept.value, kept.winner) == (fresh.value, fresh.winner)
            assert clear_moves(kept.winning_moves) == clear_moves(fresh.winning_moves)
            assert kept.options() == fresh.options()
            assert kept.play() == fresh.play()
            expected = cli.json(["clear", "-"], "\n".join(board) + "\n")
            assert kept.value == expected["grundy"]
            assert clear_moves(kept.winning_moves) == cli_moves(expected["winning_moves"])
            engine = solver.engine_move(board)
            assert engine["kind"] == ("winning" if kept.value else "losing")
            board = play(board, engine["move"])
            if engine["kind"] == "winning":
                assert grundy.clear.analyze(board).value == 0


def test_a_solver_answers_again_without_a_search_and_goes_on_after_a_stop():
    solver = grundy.clear.Solver()
    # A budget far too small for the board: each call stops, keeping what
    # it found, and the next goes on from there until the value is found.
    calls = 0
    while True:
        calls += 1
        assert calls < 1000, "the memo keeps what each stopped search found"
        try:
            analysis = solver.analyze(DENSE, max_positions=500)
            break
        except grundy.BudgetExceeded:
            pass
    assert calls > 1
    assert analysis.value == grundy.clear.analyze(DENSE).value
    # Asked again, the value is in the memo: one position of budget is
    # enough, where a fresh search runs out.
    assert solver.analyze(DENSE, max_positions=1).value == analysis.value
    with pytest.raises(grundy.BudgetExceeded):
        grundy.clear.analyze(DENSE, max_positions=1)
    # The options are the values of shapes the search valued: no search.
    assert analysis.options() == grundy.clear.analyze(DENSE).options()
    assert solver.memory_bytes > 0
    solver.clear()
    assert solver.memory_bytes == 0
    with pytest.raises(grundy.BudgetExceeded):
        solver.analyze(DENSE, max_positions=1)


def test_a_solver_keeps_the_memo_of_boards_past_64_cells():
    # A 9 x 9 board holding the dense block: the large boards.
    # analysis values the block with the solver's memo.
    board = [row + "000" for row in DENSE] + ["0" * 9] * 5
    solver = grundy.clear.Solver()
    first = solver.analyze(board)
    assert first.value == grundy.clear.analyze(DENSE).value
    again = solver.analyze(board, max_positions=1)
    assert again.value == first.value
    assert repr(solver).startswith("Solver(memory_bytes=")


def test_a_helper_thread_changes_no_answer():
    # With threads=2 a helper thread is woken once a search has solved
    # 65,536 shapes: block 7 of bench/ab-blocks.sh (25 cells) wakes it,
    # DENSE and most of the 4 x 6 boards do not.
    rng = random.Random(20261130)
    block7 = ["0000001", "0000011", "0001110", "0011110", "1010110", "1111110", "0111110"]
    boards = [block7, DENSE] + [
        ["".join("1" if rng.random() < 0.85 else "0" for _ in range(6)) for _ in range(4)]
        for _ in range(3)
    ]
    kept = grundy.clear.Solver(threads=2)
    for board in boards:
        alone = grundy.clear.analyze(board, threads=1)
        for helped in (grundy.clear.analyze(board, threads=2), kept.analyze(board)):
            assert (helped.value, helped.winner) == (alone.value, alone.winner)
            assert clear_moves(helped.winning_moves) == clear_moves(alone.winning_moves)
            assert helped.options() == alone.options()
    for threads in (0, 3):
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            grundy.clear.analyze(DENSE, threads=threads)
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            grundy.clear.Solver(threads=threads)


def test_a_helper_thread_changes_no_answer_past_64_cells():
    # Block 7 and a row of three cells on a 9 x 9 board (the large boards'
    # analysis): the block's value search, 25 cells, wakes the helper.
    block7 = ["0000001", "0000011", "0001110", "0011110", "1010110", "1111110", "0111110"]
    board = [row + "00" for row in block7] + ["0" * 9, "111000000"]
    alone = grundy.clear.analyze(board, threads=1)
    helped = grundy.clear.analyze(board, threads=2)
    assert alone.value is not None
    assert (helped.value, helped.winner) == (alone.value, alone.winner)
    assert helped.winning_moves == alone.winning_moves
    assert helped.components == alone.components
    assert grundy.clear.engine_move(board, threads=2) == grundy.clear.engine_move(board, threads=1)
    for threads in (0, 3):
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            grundy.clear.analyze(board, threads=threads)
        with pytest.raises(ValueError, match="threads must be 1 or 2"):
            grundy.clear.engine_move(board, threads=threads)


def test_a_later_calls_memory_budget_bounds_what_the_solver_holds():
    # A helped search leaves its helper's memo and its exchange (128 MiB,
    # allocated whole) in the solver; a later call whose max_memory is
    # smaller than what the solver holds searches within it all the same.
    s = grundy.clear.Solver(threads=2)
    s.analyze(["1111"] * 6)
    limit = s.memory_bytes // 2
    try:
        value = s.analyze(["111111111"] * 3, max_memory=limit).value
        assert value == grundy.clear.analyze(["111111111"] * 3).value
    except grundy.BudgetExceeded as err:
        assert err.budget == "max_memory"
    assert s.memory_bytes <= limit, (s.memory_bytes, limit)
