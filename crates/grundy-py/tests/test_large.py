"""Boards of any size: the large boards' analysis and the engine's move,
checked against the command line (`grundy clear --json` and `--move
--json`, the same engine through another front-end) and against facts that
need no search: a line of k cells has value k, and two congruent shapes
cancel (X xor X = 0)."""

import json
import pickle
import os
import subprocess

import numpy as np
import pytest

import grundy


def block_pair_and_line():
    """Two mirror-image dense 4 x 7 blocks and a line of 3 (value 3)."""
    block = ["1011111", "1111101", "1101101", "0111101"]
    rows = [r + "00" + r[::-1] for r in block]
    rows.append("0" * 16)
    rows.append("111" + "0" * 13)
    return rows


def test_equal_blocks_cancel_and_the_line_decides():
    a = grundy.clear.analyze(block_pair_and_line(), max_time=20)
    assert isinstance(a, grundy.clear.LargeClearAnalysis)
    assert a.value == 3
    assert a.winner == "first"
    assert a.winning_moves_complete
    line = grundy.clear.LargeMove
    assert any(
        (m.top, m.left, m.bottom, m.right) == (5, 0, 5, 2) for m in a.winning_moves
    ), a.winning_moves
    # The classes: the blocks' shape twice, the line once.
    counts = sorted(count for _, count, _ in a.classes)
    assert counts == [1, 2]
    assert line is not None


def test_a_database_values_boards_past_64_cells_as_analyze_does():
    db = grundy.tables.open()
    board = block_pair_and_line()
    assert db.value(board, max_time=20) == grundy.clear.analyze(board, max_time=20).value
    # A sum with a board past 64 cells, as a list of boards.
    line = grundy.clear.analyze(["11"]).value
    assert db.value([board, ["11"]], max_time=20) == db.value(board, max_time=20) ^ line
    with pytest.raises(grundy.BudgetExceeded) as stopped:
        db.value(["1" * 9] * 8, max_time=0.2)
    assert stopped.value.budget == "max_time"
    assert stopped.value.found["components"] == [None]


def test_numpy_boards_of_any_size():
    rng = np.random.default_rng(7)
    board = rng.random((40, 90)) < 0.15
    a = grundy.clear.analyze(board, max_time=20)
    assert a.value is not None
    cells = sum(len(c[1]) for c in a.components)
    assert cells == int(board.sum())
    # Each component's cells are the ones of the board, listed once: the
    # same list at every read, and again after a pickle.
    assert a.components is a.components
    listed = sorted(cell for c in a.components for cell in c[1])
    assert listed == [(int(r), int(c)) for r, c in zip(*np.nonzero(board))]
    again = pickle.loads(pickle.dumps(a))
    assert again.components == a.components
    bin_path = os.environ.get("GRUNDY_BIN")
    if bin_path:
        text = "\n".join("".join("1" if v else "0" for v in row) for row in board)
        out = subprocess.run(
            [bin_path, "clear", "--json", "-"], input=text, capture_output=True, text=True, check=True
        )
        report = json.loads(out.stdout)
        assert report["grundy"] == a.value
        got = {(m.top, m.left, m.bottom, m.right) for m in a.winning_moves}
        want = {(m["top"], m["left"], m["bottom"], m["right"]) for m in report["winning_moves"]}
        assert got == want


def test_engine_move_on_a_full_board_is_proven():
    full = np.ones((100, 100), dtype=bool)
    answer = grundy.clear.engine_move(full)
    assert answer["proven"] and answer["kind"] == "winning"
    mv = answer["move"]
    assert (mv.top, mv.left, mv.bottom, mv.right) == (0, 0, 99, 99)
    cornerless = full.copy()
    for r, c in [(0, 0), (0, 99), (99, 0), (99, 99)]:
        cornerless[r, c] = False
    answer = grundy.clear.engine_move(cornerless)
    assert answer["proven"] and "two equal halves" in answer["reason"]
    mv = answer["move"]
    assert (mv.top, mv.bottom) == (49, 50)
    assert grundy.clear.engine_move(np.zeros((3, 3), dtype=bool))["move"] is None


def test_out_of_time_the_value_is_none_but_a_move_is_given():
    dense = ["1011111", "1111101", "1101101", "0111101", "1011111", "0111110", "0111001"]
    answer = grundy.clear.engine_move(dense, max_time=0.001)
    assert answer["move"] is not None
    assert answer["kind"] in ("unproven", "winning", "losing")


def test_engine_move_on_a_dense_block_is_proven_by_outcome_search():
    # Block 1 of bench/ab-blocks.sh: its value needs more than 20,000
    # positions, a move to 0 far fewer; the move leaves a value of 0.
    dense = ["1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000"]
    answer = grundy.clear.engine_move(dense, max_positions=20_000)
    assert answer["proven"] and answer["kind"] == "winning"
    assert "leaves a total of 0" in answer["reason"]
    mv = answer["move"]
    board = np.array([[c == "1" for c in row] for row in dense])
    board[mv.top : mv.bottom + 1, mv.left : mv.right + 1] = False
    assert grundy.clear.analyze(board).value == 0


def test_a_stopped_analysis_still_says_who_wins():
    # The same block: its analysis runs out of positions, and what it found
    # names the winner and a winning move proven by outcome search, which
    # leaves a value of 0.
    dense = ["1111110", "1111110", "1111100", "0111000", "0111000", "0111000", "0111000"]
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.clear.analyze(dense, max_positions=20_000)
    found = err.value.found
    assert found["positions_solved"] >= 20_000
    assert found["winner"] == "first" and found["value"] is None
    [mv] = found["winning_moves"]
    board = np.array([[c == "1" for c in row] for row in dense])
    assert board[mv.top : mv.bottom + 1, mv.left : mv.right + 1].all()
    board[mv.top : mv.bottom + 1, mv.left : mv.right + 1] = False
    assert grundy.clear.analyze(board).value == 0


def test_board_sum_takes_boards_of_any_size(tmp_path):
    """A sum holding boards past 64 cells: each board's value is
    grundy.clear.analyze's, the range values are their XOR, a winning move
    on a large board is a LargeMove that leaves the board 0 (checked by
    playing it with set), and the sum answers as `grundy sum` does on the
    same boards and queries."""
    rng = np.random.default_rng(11)
    large = rng.random((12, 30)) < 0.2
    large_rows = ["".join("1" if v else "0" for v in row) for row in large]
    small = ["111", "010"]
    blocks = block_pair_and_line()
    boards = [large_rows, small, blocks]
    s = grundy.sum.BoardSum([large, small, blocks], max_time=20)
    values = [grundy.clear.analyze(b, max_time=20).value for b in boards]
    assert s.values == values
    assert s.value() == values[0] ^ values[1] ^ values[2]
    assert s[0] == large_rows
    assert isinstance(s.winning_move(1, 2)[0], grundy.clear.Move)
    bin_path = os.environ.get("GRUNDY_BIN")
    if bin_path:
        (tmp_path / "b.txt").write_text("\n\n".join("\n".join(b) for b in boards) + "\n")
        (tmp_path / "q.txt").write_text("value 1 3\nvalue 1 1\nmove 1 1\nmove 3 3\n")
        out = subprocess.run(
            [bin_path, "sum", "--json", "--queries", str(tmp_path / "q.txt"), str(tmp_path / "b.txt")],
            capture_output=True,
            text=True,
            check=True,
        )
        answers = [json.loads(line) for line in out.stdout.splitlines()]
        assert [a["grundy"] for a in answers[:2]] == [s.value(), s.value(0, 1)]
        for answer, (start, stop) in zip(answers[2:], [(0, 1), (2, 3)]):
            found = s.winning_move(start, stop)
            if answer["move"] is None:
                assert found is None
            else:
                m, a = found[0], answer["move"]
                assert (m.board, m.top, m.left, m.bottom, m.right) == (
                    a["board"], a["top"], a["left"], a["bottom"], a["right"],
                )
    found = s.winning_move(0, 1)
    if values[0] == 0:
        assert found is None
        return
    move, before, after = found
    assert isinstance(move, grundy.clear.LargeMove)
    assert (move.board, before, after) == (0, values[0], 0)
    played = large.copy()
    assert played[move.top : move.bottom + 1, move.left : move.right + 1].all()
    played[move.top : move.bottom + 1, move.left : move.right + 1] = False
    assert s.set(0, played) == 0
    assert s.value(0, 1) == 0


def test_a_large_move_is_the_same_move_as_a_small_one_clearing_the_same_cells():
    """A move past 64 cells equals, and hashes as, the `grundy.clear.Move`
    of the same rectangle on the same board, and prints as the `LargeMove`
    it is (`LargeMove(top=..., ...)`, the same fields). A 9 x 9 board (81 cells) with one cell at (0, 0): its value
    is that cell's, 1, and the one winning move clears it."""
    big = grundy.clear.analyze(["1" + "0" * 8] + ["0" * 9] * 8)
    assert isinstance(big, grundy.clear.LargeClearAnalysis)
    (move,) = big.winning_moves
    assert isinstance(move, grundy.clear.LargeMove)
    small = grundy.clear.Move(0, 0, 0, 0)
    assert move == small and small == move
    assert not (move != small) and not (small != move)
    assert hash(move) == hash(small)
    assert len({move, small}) == 1
    assert repr(move) == "LargeMove(top=0, left=0, bottom=0, right=0, board=0)"
    assert eval(repr(move), {"LargeMove": grundy.clear.LargeMove}) == move
    assert repr(small) == "Move(top=0, left=0, bottom=0, right=0, board=0)"
    # Another rectangle or another board is another move.
    for other in (grundy.clear.Move(0, 0, 0, 1), grundy.clear.Move(0, 0, 0, 0, board=1)):
        assert move != other and other != move
    assert move != (0, 0, 0, 0, 0) and move != "Move(top=0, left=0, bottom=0, right=0, board=0)"
    # The engine's move on a large board is a LargeMove too.
    chosen = grundy.clear.engine_move(["1" + "0" * 8] + ["0" * 9] * 8)["move"]
    assert chosen == small and hash(chosen) == hash(small)


@pytest.mark.parametrize(
    "text",
    ["11\n\n111\n", b"11\n\n111\n", "0110\n0000\n0000\n0001\n\n111\n"],
    ids=["won-str", "won-bytes", "lost"],
)
def test_engine_move_on_boards_in_one_text_names_its_board(cli, text):
    """A text of several boards is a sum: the move's text names its board,
    as the command line's and the list form's do."""
    as_str = text.decode() if isinstance(text, bytes) else text
    answer = grundy.clear.engine_move(text)
    printed = json.loads(cli.run(["clear", "--move", "--json", "-"], stdin=as_str).stdout)
    assert answer["text"] == printed["text"], (answer, printed)
    assert answer["text"].endswith(f" on board {answer['move'].board + 1}")
    boards = [b.split("\n") for b in as_str.strip("\n").split("\n\n")]
    assert grundy.clear.engine_move(boards)["text"] == answer["text"]
