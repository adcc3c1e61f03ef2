"""Bad input raises a clear Python exception, never crashes: located
messages for text (the CLI's own), shapes and entries for arrays, and
budgets that run out."""

import math

import numpy as np
import pytest

import grundy


def test_a_ragged_list_of_strings_is_located_as_the_cli_does(cli):
    with pytest.raises(ValueError) as err:
        grundy.clear.analyze(["0110", "011"])
    done = cli.run(["clear", "-"], "0110\n011\n")
    assert done.returncode == 2
    # The CLI prints `error: <stdin>:2:4: what`; Python names the board.
    cli_where_what = done.stderr.strip().split(":", 2)[2]
    assert str(err.value) == "<board>:" + cli_where_what


def test_a_ragged_list_of_lists():
    with pytest.raises(ValueError, match="ragged rows: row 1 has 2 cells, row 0 has 3"):
        grundy.clear.analyze([[1, 0, 1], [1, 1]])


def test_a_3d_array_where_2d_is_expected():
    with pytest.raises(ValueError, match="expected a 2-D array.*3-D array of shape \\(2, 3, 3\\)"):
        grundy.clear.analyze(np.ones((2, 3, 3), dtype=int))
    with pytest.raises(ValueError, match="expected a 2-D array"):
        grundy.split.analyze(np.ones((2, 3, 3)))


def test_entries_other_than_0_or_1():
    with pytest.raises(ValueError, match=r"entry \(1, 2\) is 2; entries must be 0 or 1"):
        grundy.clear.analyze(np.array([[1, 0, 1], [1, 1, 2]]))
    with pytest.raises(ValueError, match="entries must be 0 or 1"):
        grundy.clear.analyze([[0.5, 1]])
    # A row as a string nested one list too deep.
    with pytest.raises(ValueError, match=r"is '10'; entries must be 0 or 1 \(a row written as a string goes in the list itself: \['10', \.\.\.\]\)"):
        grundy.split.analyze([["10"], ["01"]])
    with pytest.raises(ValueError, match=r"<board>:1:3: "):
        grundy.clear.analyze(["01x1"])
    with pytest.raises(ValueError, match=r"entry \[0, 0, 1\] is 3"):
        grundy.tables.open().values(np.array([[[1, 3]]]))


def test_an_object_array_of_zeros_and_ones_is_a_board():
    assert grundy.clear.analyze(np.array([[1, True], [0, 1.0]], dtype=object)).value == grundy.clear.analyze(["11", "01"]).value
    with pytest.raises(ValueError, match=r"entry \(0, 1\) is None"):
        grundy.clear.analyze(np.array([[1, None]], dtype=object))


def refused_for_memory(refused, limit):
    """A board refused for ``max_memory`` is a budget, as the CLI's exit 3
    says, and bad input too."""
    error = refused.value
    assert isinstance(error, grundy.BudgetExceeded) and isinstance(error, ValueError)
    assert (error.budget, error.limit, error.found) == ("max_memory", limit, {"positions_solved": 0})
    # Its repr names its own class, as it is made.
    assert repr(error).startswith("BoardTooLarge("), repr(error)


def test_boards_past_the_memory_limit():
    with pytest.raises(grundy.BoardTooLarge, match="board too large for the memory budget: 9 x 9") as refused:
        grundy.clear.analyze(np.ones((9, 9), dtype=bool), max_memory=1000)
    refused_for_memory(refused, 1000)
    # The engine still plays a board whose cells fit the budget, though
    # its analysis does not: unproven, the first run of ones cleared.
    played = grundy.clear.engine_move(["0" + "1" * 64, "1" * 65], max_memory=1000)
    assert (played["kind"], played["proven"]) == ("unproven", False)
    mv = played["move"]
    assert (mv.top, mv.left, mv.bottom, mv.right) == (0, 1, 0, 64)
    # Refused, it is for its cells alone, which is all a move needs, worded
    # as `grundy clear --move` words it.
    with pytest.raises(
        grundy.BoardTooLarge,
        match=r"<board>:1:1: boards too large for the memory budget: their cells alone need .*, "
        r"over the limit of 8 bytes \(engine_move plays any boards whose cells fit\)",
    ) as refused:
        grundy.clear.engine_move(["1" * 65], max_memory=8)
    refused_for_memory(refused, 8)
    with pytest.raises(ValueError, match="a 5 x 13 board has 65 cells"):
        grundy.tables.open().values(np.ones((1, 5, 13), dtype=bool))


def test_a_board_whose_text_passes_the_memory_budget_is_refused_before_it_is_made():
    # One row repeated: a list of 10^5 references to one string of 10^5
    # cells, whose text (10^10 bytes, twice) would fill the memory before
    # the engine could refuse it.
    huge = ["1" * 100_000] * 100_000
    for call in (grundy.clear.analyze, grundy.clear.engine_move):
        with pytest.raises(grundy.BoardTooLarge, match=r"<board>: board too large for the memory budget: a 100000 x 100000 board's text alone takes 20000200000 bytes, over the limit of 1000000 \(max_memory") as refused:
            call(huge, max_memory=10**6)
        refused_for_memory(refused, 10**6)
        # The default budget, 8 GiB, refuses it too.
        with pytest.raises(ValueError, match=r"over the limit of 8589934592"):
            call(huge)
    with pytest.raises(ValueError, match=r"a 20000 x 20000 board's text alone"):
        # A view of one row, nothing allocated: refused by its shape alone.
        grundy.clear.analyze(np.broadcast_to(np.ones(20_000, dtype=bool), (20_000, 20_000)), max_memory=10**8)
    # A sum: the boards' texts together, each under the 64 MiB left to the
    # engine's own check (8 boards of 5,000 x 5,000 made 400 MB of text
    # before the engine refused them).
    board = np.broadcast_to(np.ones(5_000, dtype=bool), (5_000, 5_000))
    for call in (grundy.clear.analyze, grundy.clear.engine_move, lambda b, **k: grundy.sum.BoardSum(b, **k)):
        with pytest.raises(ValueError, match=r"<boards\[1\]>: .* with the boards before it, over the limit of 10000000"):
            call([board] * 8, max_memory=10_000_000)


def test_bytes_are_text_and_numbers_are_no_board():
    text = "0110\n0000\n0000\n0001"
    assert grundy.clear.analyze(text.encode()).value == grundy.clear.analyze(text).value
    assert grundy.clear.analyze(bytearray(text.encode())).value == grundy.clear.analyze(text).value
    assert grundy.split.analyze(b"101\n010").value == grundy.split.analyze("101\n010").value
    with pytest.raises(ValueError, match="board: not UTF-8 text"):
        grundy.clear.analyze(b"\xff\xfe")
    for bad in (5, 2.5, object(), None):
        for call in (grundy.clear.analyze, grundy.clear.engine_move, grundy.clear.Solver().analyze):
            with pytest.raises(TypeError, match="board must be a string of rows, a list of rows or a 2-D array"):
                call(bad)
    with pytest.raises(TypeError, match="grid must be a string of rows"):
        grundy.split.analyze(7)
    with pytest.raises(TypeError, match=r"at must be a pawn \(x, y\) or a list of pawns, not NoneType"):
        grundy.pawn.analyze(None)


def test_rows_as_bytes_lists_of_characters_sets_and_one_board_for_a_sum():
    """Rows read from a binary file are rows; rows as lists of characters
    read both as a board and as a sum of columns, so they are refused; a
    set has no order of rows; a sum is a list of boards, not one board."""
    rows = ["110", "011"]
    expected = grundy.clear.analyze(rows).value
    assert grundy.clear.analyze([r.encode() for r in rows]).value == expected
    with pytest.raises(ValueError, match="lists of characters"):
        grundy.clear.analyze([list(r) for r in rows])
    with pytest.raises(TypeError, match="no order of rows"):
        grundy.clear.analyze(set(rows))
    with pytest.raises(TypeError, match="boards must be a list of boards"):
        grundy.sum.BoardSum("111")
    # A sum of boards given as lists of row strings is still a sum.
    pair = grundy.clear.analyze([rows, ["1"]])
    assert pair.value == expected ^ grundy.clear.analyze(["1"]).value


def _clear_brute(cells):
    """Value and winning rectangles (top, left, bottom, right) of the clear
    game on `cells` (a set of (row, col)), by mex over every all-ones
    rectangle removed."""
    from functools import lru_cache

    def rects(board):
        for (t, l) in board:
            for b in range(t, 64):
                if (b, l) not in board:
                    break
                for r in range(l, 64):
                    if any((i, r) not in board for i in range(t, b + 1)):
                        break
                    yield (t, l, b, r)

    @lru_cache(maxsize=None)
    def value(board):
        seen = set()
        for (t, l, b, r) in rects(board):
            seen.add(value(board - {(i, j) for i in range(t, b + 1) for j in range(l, r + 1)}))
        return next(v for v in range(len(seen) + 1) if v not in seen)

    board = frozenset(cells)
    winning = sorted(
        rect
        for rect in rects(board)
        if value(board - {(i, j) for i in range(rect[0], rect[2] + 1) for j in range(rect[1], rect[3] + 1)}) == 0
    )
    return value(board), winning


def test_one_row_of_characters_is_refused_as_two_are_and_the_message_names_what_works():
    """A single row as a list of characters reads as a 3 x 1 column as well
    as a 1 x 3 row; the forms the message offers instead are each read one
    way, checked against a brute force."""
    with pytest.raises(ValueError, match="lists of characters") as one:
        grundy.clear.analyze([list("110")])
    with pytest.raises(ValueError, match="lists of characters") as two:
        grundy.clear.analyze([list("110"), list("011")])
    assert str(one.value) == str(two.value)
    with pytest.raises(ValueError, match="lists of characters"):
        grundy.clear.engine_move([list("110")])
    # One board: the row 110.
    row = {(0, 0), (0, 1)}
    value, winning = _clear_brute(row)
    for board in (["110"], [[1, 1, 0]]):
        a = grundy.clear.analyze(board)
        assert a.value == value
        assert sorted((m.top, m.left, m.bottom, m.right) for m in a.winning_moves) == winning
    # A sum of one-column boards: the columns 110 and 011.
    columns = [{(0, 0), (1, 0)}, {(1, 0), (2, 0)}]
    total = _clear_brute(columns[0])[0] ^ _clear_brute(columns[1])[0]
    for board in (
        [[[1], [1], [0]], [[0], [1], [1]]],
        [np.array([[1], [1], [0]]), np.array([[0], [1], [1]])],
    ):
        a = grundy.clear.analyze(board)
        assert a.value == total
        assert a.board_values == [_clear_brute(c)[0] for c in columns]


def test_blocked_cells_as_text_bytes_or_with_a_byte_order_mark():
    """The text of a `grundy pawn` file, as the CLI reads it: a leading
    byte order mark and CRLF taken, bytes read as the text they hold."""
    plain = grundy.pawn.analyze((3, 3), blocked=[(1, 1), (2, 2)]).value
    assert grundy.pawn.analyze((3, 3), blocked="\ufeff1 1\r\n2 2\r\n").value == plain
    assert grundy.pawn.analyze((3, 3), blocked=b"1 1\n2 2\n").value == plain


def test_threads_are_one_or_two():
    for bad, error in [(-1, ValueError), (3, ValueError), (True, TypeError), (1.0, TypeError)]:
        with pytest.raises(error, match="threads must be 1"):
            grundy.clear.analyze(["11"], threads=bad)
        with pytest.raises(error, match="threads must be 1"):
            grundy.clear.engine_move(["11"], threads=bad)
    assert grundy.clear.analyze(["11"], threads=2).value == grundy.clear.analyze(["11"]).value


def test_a_sum_names_the_board_at_fault():
    # Row 2 of board 2 falls short after its one cell: column 2.
    with pytest.raises(ValueError, match=r"^<boards\[1\]>:2:2: ragged row"):
        grundy.clear.analyze([["11", "11"], ["11", "1"]])


def test_a_blank_row_in_a_list_of_rows_is_an_error_not_a_second_board():
    # In a board's text a blank line separates boards; in a list of rows
    # it would split the one board, and shift every later board's index.
    for rows in (["11", "", "01"], ["11", "  ", "01"], ["11", ""]):
        with pytest.raises(ValueError, match=r"^board\[1\] is blank: in a list of rows"):
            grundy.clear.analyze(rows)
    with pytest.raises(ValueError, match=r"^boards\[0\]\[1\] is blank"):
        grundy.sum.BoardSum([["11", "", "01"], ["1"]])
    with pytest.raises(ValueError, match=r"^grid\[1\] is blank"):
        grundy.split.analyze(["11", ""])
    # A text of two boards is one board too many for one board of a sum.
    with pytest.raises(ValueError, match=r"^<boards\[0\]>: one board expected, found 2"):
        grundy.sum.BoardSum(["11\n\n01\n", "1\n"])


def test_rows_as_read_from_a_file_and_board_texts_in_a_list():
    rows = ["11\n", "01\n"]
    assert grundy.clear.analyze(rows).value == grundy.clear.analyze(["11", "01"]).value
    assert grundy.clear.analyze([b"11\r\n", b"01\r\n"]).boards == [["11", "01"]]
    # Texts of boards, as read from files: a sum, as BoardSum takes them.
    texts = ["11\n01\n", "1\n"]
    summed = grundy.clear.analyze(texts)
    assert summed.boards == [["11", "01"], ["1"]]
    assert summed.board_values == grundy.sum.BoardSum(texts).values


def test_negative_and_wrongly_typed_budgets():
    for kwargs in ({"max_positions": -1}, {"max_time": -0.5}, {"max_time": float("nan")}):
        with pytest.raises(ValueError, match="must be >= 0"):
            grundy.clear.analyze(["11"], **kwargs)
    # A memory budget of 0 is refused too: one wording for 0 and below.
    for bad in (-1, 0):
        with pytest.raises(ValueError, match=rf"^invalid value {bad} for max_memory: must be at least one byte$"):
            grundy.clear.analyze(["11"], max_memory=bad)
    with pytest.raises(TypeError):
        grundy.clear.analyze(["11"], max_positions="many")
    # A count says it wants an integer, whatever the wrong type.
    for bad in (True, 1.5, "many"):
        with pytest.raises(TypeError, match="max_positions must be an integer or None"):
            grundy.clear.analyze(["11"], max_positions=bad)
    with pytest.raises(TypeError, match="max_time must be a number or None"):
        grundy.clear.analyze(["11"], max_time="soon")
    with pytest.raises(ValueError, match="must be >= 0"):
        grundy.split.analyze(["11"], max_time=-1)
    with pytest.raises(ValueError, match="must be >= 0"):
        grundy.tables.build((2, 2), "x.gdb", max_time=-1)


@pytest.mark.parametrize("endless", [math.inf, 1e300, 1e19])
def test_an_endless_time_budget_is_no_time_limit(endless, tmp_path):
    """``math.inf``, and spans past what the clock can count, ask for no
    time limit: every call answers as it does with no time given, on small
    and large boards alike, and none raises (not even a PanicException)."""
    small = ["0110", "1111", "0110"]
    large = ["1110000000", "0000000000", "0000000111"] + ["0" * 10] * 6 + ["1111100000"]

    def same(call):
        return call(max_time=endless) == call(max_time=None)

    def analysis(board):
        def call(**budget):
            a = grundy.clear.analyze(board, **budget)
            return a.value, a.winner, [str(m) for m in a.winning_moves]

        return call

    assert same(analysis(small))
    assert same(analysis(large))
    for board in (small, large):
        assert same(lambda **b: str(grundy.clear.engine_move(board, **b)))
    assert same(lambda **b: grundy.clear.Solver().analyze(small, **b).value)
    assert same(lambda **b: grundy.split.analyze(["111", "111"], **b).value)
    assert same(lambda **b: grundy.sum.BoardSum([small, large], **b).values)
    paths = iter([tmp_path / "endless.gdb", tmp_path / "none.gdb"])

    def build(**budget):
        path = next(paths)
        grundy.tables.build((2, 3), path, progress=False, **budget)
        return path.read_bytes()

    assert same(build)


def test_a_board_of_text_rows_names_the_row_that_is_not_text():
    for board, r, row in [(["01", 5], 1, "5"), (["01", "10", None], 2, "None"), (["01", [0, 1]], 1, r"\[0, 1\]")]:
        with pytest.raises(ValueError, match=rf"^board: row {r} is {row}, not a string of 0/1 as row 0 is$"):
            grundy.clear.analyze(board)
    # From a list first, a text row is the one named.
    with pytest.raises(ValueError, match=r"^board: row 1 is '01', not a list of 0/1$"):
        grundy.clear.analyze([[0, 1], "01"])


def test_a_coordinate_past_64_bits_is_worded_as_one_in_range_is():
    # Past 64 bits the Python half refuses it, below the native half: the
    # same words either way.
    for v in (10**9 + 1, 2**64):
        with pytest.raises(ValueError, match=rf"^at\[0\] is \(0, {v}\): y coordinate {v} is out of range 0 to 1000000000$"):
            grundy.pawn.analyze((0, v))
        with pytest.raises(ValueError, match=rf"^at\[0\] is \({v}, 0\): x coordinate {v} is out of range 0 to 1000000000$"):
            grundy.pawn.analyze((v, 0))
    with pytest.raises(ValueError, match=rf"^cells\[0\] is \({2**64}, 0\): row {2**64} is past the largest grid"):
        grundy.split.analyze(size=(3, 3), cells=[(2**64, 0)])


def test_bad_pawns_and_impassable_cells():
    with pytest.raises(ValueError, match=r"^at\[0\] is \(1, 1\), an impassable cell"):
        grundy.pawn.analyze((1, 1), blocked=[(1, 1)])
    with pytest.raises(ValueError, match=r"^<blocked>:2:1: "):
        grundy.pawn.analyze((3, 3), blocked="1 1\n1 1\n")
    with pytest.raises(ValueError, match=r"^at\[0\] is \(-1, 2\): negative x coordinate -1: coordinates are 0 to 1000000000$"):
        grundy.pawn.analyze((-1, 2))
    # One pawn badly written is named as `at`, not as a list's first pawn.
    for at in [(1.0, 2), (1, 2, 3), "2,2"]:
        with pytest.raises(ValueError, match=r"^at is .*: a pawn is \(x, y\), two integers"):
            grundy.pawn.analyze(at)
    # A list of pawns with a bad one still names it by its index.
    with pytest.raises(ValueError, match=r"^at\[1\] is \(1.0, 2\), not a pair of integers"):
        grundy.pawn.analyze([(0, 1), (1.0, 2)])
    with pytest.raises(ValueError):
        grundy.pawn.analyze((2 * 10**9, 2))
    with pytest.raises(ValueError, match=r"needs Grundy values.* at\[0\] is \(5000, 1\), beyond"):
        grundy.pawn.analyze([(5000, 1), (1, 1)], blocked=[(0, 0)])
    with pytest.raises(ValueError, match="no pawns"):
        grundy.pawn.analyze([])
    with pytest.raises(ValueError, match=r"^<blocked>:2:1: "):
        grundy.pawn.classify([(3, 3)], blocked="1 1\n1 1\n")
    with pytest.raises(ValueError, match=r"^cells\[1\] is \(-1, 2\): negative x coordinate -1: "):
        grundy.pawn.classify([(1, 2), (-1, 2)])
    with pytest.raises(ValueError, match=r"cells\[1\] is \(2000000000, 2\)"):
        grundy.pawn.classify([(1, 2), (2 * 10**9, 2)])


def test_bad_split_input():
    with pytest.raises(ValueError, match=r"^<grid>:2:"):
        grundy.split.analyze(["101", "1"])
    with pytest.raises(ValueError, match="either a grid"):
        grundy.split.analyze()
    # The size is one pair, named as `size`, not as a list's first item.
    for bad in [(-1, 3), (0, 3), (3,), (1.5, 3), "33", (True, 3), 3]:
        with pytest.raises(ValueError, match=r"^size is .*: a size is \(rows, cols\)"):
            grundy.split.analyze(size=bad, cells=[])


def test_a_split_grid_the_cli_refuses_up_front_is_refused_up_front(cli, tmp_path):
    """`grundy split FILE` refuses, before any search, a block whose dense
    table would pass the memory budget (exit 3, naming the bytes it needs)
    and a block of more candidates than a table holds (exit 2): so does
    Python, with the same words, the budget named as Python spells it."""
    import time

    # A full n x n block has (n (n + 1) / 2)^2 sub-rectangles.
    n = 250
    grid = ["1" * n] * n
    start = time.monotonic()
    with pytest.raises(grundy.BudgetExceeded) as over:
        grundy.split.analyze(grid, max_memory=10 * 2**20)
    assert time.monotonic() - start < 5
    assert over.value.budget == "max_memory"
    assert over.value.limit == 10 * 2**20
    assert over.value.found == {"positions_solved": 0}
    message = str(over.value)
    assert message.startswith("<grid>:1:1: grid too large for max_memory: ")
    assert f"table of {(n * (n + 1) // 2) ** 2} sub-rectangles" in message
    number, unit = message.split(" sub-rectangles needs ")[1].split(" with")[0].split(" ")
    units = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
    assert float(number) * units[unit] > 10 * 2**20
    file = tmp_path / "g250.txt"
    file.write_text("\n".join(grid) + "\n")
    done = cli.run(["split", "--max-memory", "10MiB", str(file)])
    assert done.returncode == 3
    cli_words = done.stderr.strip().removeprefix(f"error: {file}:")
    assert message.removeprefix("<grid>:").split("; found:")[0] == cli_words.replace(
        "--max-memory", "max_memory"
    )
    # A block of 256 x 256 candidates: one more than a table holds.
    grid = ["1" * 256] * 256
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"^<grid>:1:1: grid too large: .* block of 65536 candidates") as big:
        grundy.split.analyze(grid)
    assert time.monotonic() - start < 5
    file = tmp_path / "g256.txt"
    file.write_text("\n".join(grid) + "\n")
    done = cli.run(["split", str(file)])
    assert done.returncode == 2
    assert str(big.value).removeprefix("<grid>:") == done.stderr.strip().removeprefix(f"error: {file}:")


def test_sum_ranges_and_boards():
    s = grundy.sum.BoardSum([["11"], ["1"]])
    with pytest.raises(IndexError):
        s.value(1, 3)
    with pytest.raises(IndexError):
        s.value(2, 1)
    with pytest.raises(IndexError):
        s.set(5, ["1"])
    with pytest.raises(ValueError, match=r"<boards\[0\]>"):
        s.set(0, ["1", "11"])
    # Negative indices count from the end, as a list's; past the boards
    # is an IndexError either way, however large.
    s[-1] = ["111"]
    assert s[1] == ["111"]
    assert s.value(-1) == s.value(1)
    assert s.value(0, -1) == s.value(0, 1)
    for bad in [(0, 2**70), (-3, None), (1, -2)]:
        with pytest.raises(IndexError):
            s.value(*bad)
    with pytest.raises(IndexError):
        s[-3]
    with pytest.raises(TypeError):
        s.value(0.5)
    with pytest.raises(TypeError):
        s[True]


def test_a_position_budget_says_what_was_found():
    full = np.ones((7, 7), dtype=bool)
    board = [np.array([[1, 1], [1, 1]]), full]
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.clear.analyze(board, max_positions=2000)
    e = err.value
    assert e.budget == "max_positions" and e.limit == 2000
    assert "raise max_positions" in str(e)
    # The 2 x 2 board was valued before the 7 x 7 one ran out.
    assert [(c.board, c.value) for c in e.found["components"]] == [(0, 1)]
    assert e.found["positions_solved"] >= 2000


def test_a_time_budget():
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.clear.analyze(np.ones((8, 8), dtype=bool), max_time=0.2)
    assert err.value.budget == "max_time"


@pytest.mark.parametrize(
    "call",
    [
        lambda t: grundy.clear.analyze(np.ones((8, 8), dtype=bool), max_time=t),
        lambda t: grundy.clear.Solver().analyze(np.ones((8, 8), dtype=bool), max_time=t),
        lambda t: grundy.split.analyze(np.ones((60, 60), dtype=int), max_time=t),
    ],
    ids=["clear", "clear-solver", "split"],
)
@pytest.mark.parametrize("limit", [0.2, 0.0])
def test_a_time_budget_names_the_callers_limit(call, limit):
    """The search runs from the call, so its clock lost the time the call
    waited for its thread; the error still names the limit given."""
    with pytest.raises(grundy.BudgetExceeded) as err:
        call(limit)
    assert err.value.budget == "max_time"
    assert err.value.limit == limit
    assert f"time budget of {limit:g} s" in str(err.value), str(err.value)


def test_a_memory_budget():
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.clear.analyze(np.ones((8, 8), dtype=bool), max_memory=1 << 20)
    assert err.value.budget == "max_memory"


def test_a_split_budget():
    rng = np.random.default_rng(5)
    grid = rng.random((40, 40)) < 0.5
    with pytest.raises(grundy.BudgetExceeded) as err:
        grundy.split.analyze(grid.astype(int), max_positions=10)
    assert err.value.budget == "max_positions"


def test_inputs_python_hands_over_in_other_forms():
    """numpy integers for a pawn, and a generator of rows, are taken as
    the plain ints and the list they stand for."""
    plain = grundy.pawn.analyze((2, 3), blocked=[(1, 1)])
    for pawn in [(np.int64(2), np.int64(3)), np.array([2, 3])]:
        other = grundy.pawn.analyze(pawn, blocked=[(1, 1)])
        assert (other.value, other.winning_moves) == (plain.value, plain.winning_moves)
    rows = ["0110", "1111", "0110"]
    assert grundy.clear.analyze(r for r in rows).value == grundy.clear.analyze(rows).value


def test_reprs_show_python_values():
    """Each analysis' repr shows its fields as Python writes them."""
    analyses = [
        grundy.clear.analyze(["11", "11"]),
        grundy.clear.analyze(np.ones((20, 20), dtype=bool), max_time=0.2),
        grundy.pawn.analyze((2, 3)),
        grundy.split.analyze(["101", "000", "101"]),
    ]
    for a in analyses:
        assert f"value={a.value!r}" in repr(a), repr(a)
        assert f"winner={a.winner!r}" in repr(a), repr(a)


def test_numpy_cells_of_a_split_grid():
    # An N x 2 integer array of (row, col) pairs is the list of pairs it
    # holds (numpy's "truth value of an array is ambiguous" before).
    cells = [(0, 1), (2, 2), (4, 0)]
    listed = grundy.split.analyze(size=(5, 3), cells=cells)
    for given in (np.array(cells), np.array(cells, dtype=np.uint32)):
        from_array = grundy.split.analyze(size=(5, 3), cells=given)
        assert from_array.options() == listed.options()
        assert grundy.split.engine_move(size=(5, 3), cells=given) == grundy.split.engine_move(
            size=(5, 3), cells=cells
        )
    with pytest.raises(ValueError, match=r"cells\[0\] is .*not a pair of integers"):
        grundy.split.analyze(size=(5, 3), cells=np.array([[0, 1, 2]]))


def test_no_memory_is_refused_as_the_cli_refuses_it():
    # `grundy clear --move --max-memory 0` and `grundy split --move
    # --max-memory 0` exit 2: "invalid value '0' for '--max-memory <SIZE>':
    # must be at least one byte". Every call taking max_memory says the same.
    calls = [
        lambda m: grundy.clear.engine_move(["11", "01"], max_memory=m),
        lambda m: grundy.clear.analyze(["11", "01"], max_memory=m),
        lambda m: grundy.clear.Solver().engine_move(["11", "01"], max_memory=m),
        lambda m: grundy.split.engine_move(["11", "01"], max_memory=m),
        lambda m: grundy.split.analyze(["11", "01"], max_memory=m),
        lambda m: grundy.sum.BoardSum([["11", "01"]], max_memory=m),
        lambda m: grundy.tables.open().value(["11", "01"], max_memory=m),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"^invalid value 0 for max_memory: must be at least one byte$"):
            call(0)
        call(1 << 20)


def test_tables_given_as_a_path_is_refused_by_its_type(tmp_path):
    """`tables` takes what `grundy.tables.open` returns; a path (a str or a
    Path) names the argument rather than failing on a missing attribute."""
    path = str(tmp_path / "x.gdb")
    calls = (
        lambda t: grundy.clear.analyze(["11"], tables=t),
        lambda t: grundy.clear.engine_move(["11"], tables=t),
        lambda t: grundy.clear.Solver(tables=t),
        lambda t: grundy.sum.BoardSum([["11"]], tables=t),
    )
    for call in calls:
        for bad in (path, tmp_path / "x.gdb"):
            with pytest.raises(TypeError, match=r"^tables must be a grundy\.tables\.Database"):
                call(bad)
    # A Database and None are taken.
    db = grundy.tables.open()
    assert grundy.clear.analyze(["11"], tables=db).value == grundy.clear.analyze(["11"], tables=None).value == 2


@pytest.mark.parametrize(
    "board, message",
    [
        # numpy makes strings (or objects) of every entry: the entry given
        # is named, not the array's type.
        ([[1, 0], [0, "1"]], r"board: entry \(1, 1\) is '1'; entries must be 0 or 1"),
        ([[2**70]], r"board: entry \(0, 0\) is 1180591620717411303424; entries must be 0 or 1"),
        (np.array([["1", "0"]]), r"board: entry \(0, 0\) is '1'; entries must be 0 or 1"),
        # One board with an entry that is no number, not a sum of boards.
        ([[None]], r"^board: entry \(0, 0\) is None; entries must be 0 or 1$"),
        ([[[1, 0]], [[None]]], r"^boards\[1\]: entry \(0, 0\) is None"),
        # A lone surrogate is located as every other bad character.
        (["\ud800"], r"^<board>:1:1: U\+D800 is a lone surrogate, not a character$"),
        (["10", "0\ud800"], r"^<board>:2:2: U\+D800 is a lone surrogate"),
    ],
)
def test_bad_entries_are_named_where_they_stand(board, message):
    with pytest.raises(ValueError, match=message):
        grundy.clear.analyze(board)


def test_a_stack_of_boards_names_its_bad_entry_or_refuses_its_type():
    db = grundy.tables.open()
    with pytest.raises(TypeError, match="boards must be an N x rows x cols array"):
        db.values(None)
    with pytest.raises(ValueError, match=r"boards: entry \[1, 0, 1\] is 2; entries must be 0 or 1"):
        db.values([[[1, 0]], [[0, 2]]])
    with pytest.raises(ValueError, match=r"boards: entry \[0, 0, 0\] is '1'"):
        db.values(np.array([[["1", "0"]]]))


def test_arguments_of_the_wrong_type_are_named():
    with pytest.raises(TypeError, match="blocked must be a list of .x, y. pairs, a text or None, not int"):
        grundy.pawn.analyze((2, 2), blocked=5)
    with pytest.raises(TypeError, match="cells must be a list of pairs of integers, not NoneType"):
        grundy.pawn.classify(None)
    with pytest.raises(TypeError, match="boards must be a list of boards, not NoneType"):
        grundy.sum.BoardSum(None)
    with pytest.raises(ValueError, match=r"<blocked>:2:1: U\+D800 is a lone surrogate"):
        grundy.pawn.analyze((2, 2), blocked="1 1\n\ud800")


def test_split_cells_are_named_by_their_index():
    with pytest.raises(ValueError, match=r"^cells\[0\] is \(5, 5\): row 5 is out of range 0 to 2$"):
        grundy.split.analyze(size=(3, 3), cells=[(5, 5)])
    with pytest.raises(ValueError, match=r"^cells\[1\] is \(1, 3\): col 3 is out of range 0 to 2$"):
        grundy.split.analyze(size=(3, 3), cells=[(0, 0), (1, 3)])
    with pytest.raises(ValueError, match=r"^cells\[2\] is \(0, 0\), as cells\[0\] is: each candidate is listed once$"):
        grundy.split.analyze(size=(3, 3), cells=[(0, 0), (1, 1), (0, 0)])
    with pytest.raises(ValueError, match="a grid has at most 1000000000 rows and columns"):
        grundy.split.analyze(size=(2**70, 3), cells=[])
    # The largest grid is taken, with a candidate on its last row.
    assert grundy.split.MAX_SIDE == 10**9
    assert grundy.split.analyze(size=(10**9, 10**9), cells=[(10**9 - 1, 0)]).value == 1


def test_a_board_sums_range_takes_none_at_either_end_as_a_slice_does():
    boards = grundy.sum.BoardSum(["11", "10", "1"])
    assert boards.value(None, None) == boards.value()
    assert boards.value(None, 2) == boards.value(0, 2)
    assert boards.winner(None) == boards.winner()


def test_list_items_are_named_by_their_python_index():
    # An impassable cell of a list is named as blocked[i], as the pawns
    # (at[i]) and a split grid's cells (cells[i]) are.
    with pytest.raises(ValueError, match=r"^blocked\[2\] is \(0, 0\), as blocked\[0\] is: each impassable cell is listed once$"):
        grundy.pawn.analyze((4, 4), blocked=[(0, 0), (3, 3), (0, 0)])
    with pytest.raises(ValueError, match=r"^blocked\[1\] is \(2000000000, 1\): x coordinate 2000000000 is out of range 0 to 1000000000$"):
        grundy.pawn.classify([(4, 4)], blocked=[(1, 1), (2 * 10**9, 1)])
    assert grundy.pawn.MAX_COORD == 10**9
    # A board index past a sum is named as the index it is, from 0, as a
    # pawn's is.
    with pytest.raises(IndexError, match=r"^board index 2 is out of range: there are 2 boards \(indexes -2 to 1\)$"):
        grundy.sum.BoardSum(["1", "11"])[2]
    with pytest.raises(IndexError, match=r"^board index 0 is out of range: there are no boards$"):
        grundy.sum.BoardSum([]).set(0, "1")
    # A range whose ends are both boards but in the wrong order says so,
    # as `grundy sum` says "a range L R needs L <= R".
    boards = grundy.sum.BoardSum([["1"], ["1"]])
    for start, stop, lo, hi in ((2, 1, 2, 1), (-1, 0, 1, 0)):
        for ask in (boards.value, boards.winner, boards.winning_moves):
            with pytest.raises(IndexError, match=rf"^range {start}\.\.{stop} runs backwards: start {lo} is past stop {hi} \(0 <= start <= stop <= 2\)$"):
                ask(start, stop)
    with pytest.raises(IndexError, match=r"^range 0\.\.3 is not within the 2 boards"):
        boards.value(0, 3)


def test_a_memoryview_is_read_as_the_buffer_it_views():
    # A 2-D view (a NumPy array's buffer) as its array; a 1-D view of bytes
    # as the text they hold; the values are those of the plain forms.
    board = np.array([[1, 1, 0], [0, 1, 1]], dtype=np.uint8)
    want = grundy.clear.analyze(board.tolist())
    for given in (memoryview(board), memoryview(b"110\n011\n")):
        got = grundy.clear.analyze(given)
        assert (got.value, got.winning_moves) == (want.value, want.winning_moves)
    assert grundy.split.analyze(memoryview(board)).value == grundy.split.analyze(board).value


def test_a_ragged_board_counts_its_cells_in_words():
    with pytest.raises(ValueError, match=r"row 1 has 1 cell, row 0 has 2 cells"):
        grundy.tables.open().values([[[1, 0], [1]]])
    with pytest.raises(ValueError, match=r"row 1 has 1 cell, row 0 has 2 cells"):
        grundy.clear.analyze([[1, 0], [1]])


def test_moves_values_past_4096_name_the_pawn():
    """A pawn at 4096 or beyond with an impassable cell below-left has a
    winner and winning moves but no table of values: options() and play()
    say which pawn is beyond, as `grundy pawn --play` does."""
    a = grundy.pawn.analyze((5000, 6000), blocked=[(1, 1)])
    assert a.winner in ("first", "second")
    for call in (a.options, a.play):
        with pytest.raises(ValueError, match=r"\(5000,6000\) is beyond"):
            call()


def test_budget_exceeded_shows_its_budget_in_its_repr():
    e = grundy.BudgetExceeded("m", "max_time", 1.0, {"positions_solved": 3, "components": [1, 2]})
    assert repr(e) == (
        "BudgetExceeded('m', budget='max_time', limit=1.0, "
        "found={'positions_solved': 3, 'components': 2 items})"
    )
