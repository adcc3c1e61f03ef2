"""Turning Python boards (strings, lists, numpy arrays) into the text formats
the engine's parsers read, and checking keyword arguments.

Text is parsed by the command line's own parsers (in the native module), so
a list of strings fails with the same located message as a file. Arrays and
lists of numbers are checked here first (shape, 0/1 entries, and at most 64
cells where only small boards are taken), where a message can name the
array's shape rather than a line.
"""

import numbers
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import _grundy
from ._errors import BoardTooLarge

MAX_CELLS = 64

#: The memory budget of a board of any size when ``max_memory`` is not
#: given, as the native half's (``DEFAULT_BOARD_MEMORY``): 8 GiB.
DEFAULT_BOARD_MEMORY = 8 << 30


def check_text_size(
    rows: int, cols: int, what: str, max_memory: Optional[int], spent: int = 0
) -> None:
    """A board's text, made here and copied once into the engine (about
    two bytes a cell), fits the memory budget; else the BoardTooLarge the
    engine gives a board too large for it, before any text is made (a
    board of 10^10 cells would otherwise fill the memory first). ``spent``:
    the bytes of the texts of a sum's boards before this one, which count
    too. Texts of less than 64 MiB in all are made all the same: the
    engine's own check then says what the budget refuses (an analysis, or
    cells too many for a move), more precisely than a text's size can."""
    allowed = DEFAULT_BOARD_MEMORY if max_memory is None else max_memory
    needs = spent + 2 * rows * (cols + 1)
    if needs > allowed and needs > 1 << 26:
        raise BoardTooLarge(
            f"<{what}>: board too large for the memory budget: a {rows} x {cols} board's "
            f"text alone takes {needs - spent} bytes"
            + (f", {needs} with the boards before it" if spent else "")
            + f", over the limit of {allowed} (max_memory, "
            f"{DEFAULT_BOARD_MEMORY >> 30} GiB by default)",
            "max_memory",
            allowed,
            {"positions_solved": 0},
        )

Text = Tuple[str, str]


def _is_array(x: Any) -> bool:
    return hasattr(x, "ndim") and hasattr(x, "shape") and hasattr(x, "dtype")


def _is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Real, bool)) or (
        _is_array(x) and getattr(x, "ndim", 1) == 0
    )


def _rows_from_numbers(
    board: Any, what: str, limit: Optional[int], max_memory: Optional[int] = None, spent: int = 0
) -> str:
    """Rows of 0/1 from a 2-D array or a list of lists of numbers; of any
    size (``limit`` None) when the text fits ``max_memory``."""
    import numpy as np

    if _is_array(board):
        array = board
        if array.ndim != 2:
            raise ValueError(
                f"{what}: expected a 2-D array (rows x cols), got a {array.ndim}-D "
                f"array of shape {tuple(array.shape)}"
                + (" (for a sum, pass a list of 2-D boards)" if array.ndim == 3 else "")
            )
    else:
        rows = list(board)
        if rows and isinstance(rows[0], str):
            # Rows of text from the first: the row at fault is the first
            # that is not text, not the text rows before it.
            r, row = next((r, row) for r, row in enumerate(rows) if not isinstance(row, str))
            raise ValueError(f"{what}: row {r} is {row!r}, not a string of 0/1 as row 0 is")
        for r, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
                raise ValueError(f"{what}: row {r} is {row!r}, not a list of 0/1")
            if len(row) != len(rows[0]):
                raise ValueError(
                    f"{what}: ragged rows: row {r} has {_cells(len(row))}, "
                    f"row 0 has {_cells(len(rows[0]))}"
                )
        try:
            array = np.asarray(rows)
        except (ValueError, TypeError) as err:
            raise ValueError(f"{what}: not a 2-D list of 0/1: {err}") from None
        if array.ndim != 2:
            raise ValueError(
                f"{what}: expected rows of 0/1, got an array of shape {tuple(array.shape)}"
            )
    rows_n, cols_n = array.shape
    if rows_n == 0 or cols_n == 0:
        raise ValueError(f"{what}: an empty board ({rows_n} x {cols_n})")
    if limit is not None and rows_n * cols_n > limit:
        raise ValueError(
            f"{what}: a {rows_n} x {cols_n} board has {rows_n * cols_n} cells; at most {limit}"
        )
    if limit is None:
        check_text_size(rows_n, cols_n, what, max_memory, spent)
    check_entries(array, what, None if _is_array(board) else rows)
    # The text in a few passes of numpy, a byte a cell: a row of Python
    # strings a cell took seconds and gigabytes on 10^4 x 10^4 boards.
    text = np.empty((rows_n, cols_n + 1), dtype=np.uint8)
    text[:, :cols_n] = np.where(np.asarray(array) != 0, ord("1"), ord("0"))
    text[:, cols_n] = ord("\n")
    return text.tobytes()[:-1].decode("ascii")


def check_entries(array: Any, what: str, rows: Optional[List[Any]] = None) -> None:
    """Every entry of ``array`` (a numpy array, any number of axes) is
    0, 1 or a bool; else a ValueError naming the first other entry by its
    index, whatever the array's type (strings, huge integers and ``None``
    make an array of strings or objects, whose type names no entry).
    ``rows``: the lists the array was made of, whose entries are named as
    given (numpy turns ``[[1, '1']]`` into strings throughout)."""
    import numpy as np

    if array.dtype == bool:
        return
    if array.dtype.kind in "biuf":
        bad = np.argwhere((array != 0) & (array != 1))
        if not len(bad):
            return
        index = tuple(int(i) for i in bad[0])
        value = array[index].item()
    else:
        entries = (
            np.ndenumerate(array)
            if rows is None
            else (((r, c), v) for r, row in enumerate(rows) for c, v in enumerate(row))
        )
        index, value = next(
            (
                (index, v)
                for index, v in entries
                if isinstance(v, (str, bytes, np.str_, np.bytes_))
                or not _is_number(v)
                or v not in (0, 1)
            ),
            (None, None),
        )
        if index is None:
            if array.dtype == object:
                # Python numbers and bools, every one 0 or 1.
                return
            raise ValueError(f"{what}: entries must be 0/1 numbers or bools, not {array.dtype}")
        index = tuple(int(i) for i in index)
        value = value.item() if isinstance(value, np.generic) else value
    where = ", ".join(str(i) for i in index)
    where = f"({where})" if len(index) == 2 else f"[{where}]"
    # A whole row as a string, nested one list too deep ([["10"], ["01"]]).
    hint = (
        f" (a row written as a string goes in the list itself: [{value!r}, ...])"
        if isinstance(value, str) and len(value) > 1 and _is_row_text(value)
        else ""
    )
    raise ValueError(f"{what}: entry {where} is {value!r}; entries must be 0 or 1{hint}")


def _is_row_text(text: str) -> bool:
    """Whether ``text`` reads as a row of cells (``'0110'``, ``'.##.'``)."""
    return all(_is_cell_char(c) for c in text)


def _as_text(board: Any, what: str) -> Any:
    """Bytes (a file read in binary mode) as the text they hold; anything
    that is no board at all (a number, None) refused by its type."""
    if isinstance(board, memoryview):
        # A buffer: of bytes (1-D), the text they hold, as `bytes` is read;
        # of more dimensions (a NumPy array's buffer), its rows as lists,
        # as an array's. Iterated as it is, a 2-D view raises CPython's
        # NotImplementedError.
        board = bytes(board) if board.ndim <= 1 else board.tolist()
    if isinstance(board, (bytes, bytearray)):
        try:
            return bytes(board).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"{what}: not UTF-8 text: {err}") from None
    if isinstance(board, (set, frozenset, dict)):
        # Their order is not the rows' (a set's is arbitrary).
        raise TypeError(
            f"{what} must be a string of rows, a list of rows or a 2-D array, "
            f"not a {type(board).__name__} (it has no order of rows)"
        )
    if not isinstance(board, str) and not _is_array(board) and not hasattr(board, "__iter__"):
        raise TypeError(
            f"{what} must be a string of rows, a list of rows or a 2-D array, "
            f"not {type(board).__name__}"
        )
    if not isinstance(board, str) and not _is_array(board) and iter(board) is board:
        # A generator or another one-pass iterator: read once, here, as
        # the checks below look at it more than once.
        return list(board)
    return board


def _is_cell_char(x: Any) -> bool:
    return isinstance(x, str) and len(x) == 1


def _chomp(line: Any) -> Any:
    """A row without its one line break at the end, as ``f.readlines()``
    gives rows (str or bytes)."""
    crlf, lf = ("\r\n", "\n") if isinstance(line, str) else (b"\r\n", b"\n")
    if line.endswith(crlf):
        return line[: -len(crlf)]
    if line.endswith(lf):
        return line[: -len(lf)]
    return line


def _holds_lines(item: Any) -> bool:
    """A string (or bytes) with a line break before its end: a board's
    text, not a row."""
    if not isinstance(item, (str, bytes, bytearray)):
        return False
    return ("\n" if isinstance(item, str) else b"\n") in _chomp(item)


def _is_one_board(board: Any) -> bool:
    """A single board: a string, a 2-D array, or a list of strings (or of
    bytes) or of rows of numbers (as opposed to a list of boards).

    Rows given as lists of characters (``[list('110'), list('011')]``, and
    a single such row, ``[list('110')]``) are refused: they read as well as
    a sum of one-column boards, and either reading would be a silent wrong
    answer for someone (the moves of a column come back transposed)."""
    if isinstance(board, str) or _is_array(board):
        return True
    items = list(board)
    if not items:
        return True
    first = items[0]
    if isinstance(first, (str, bytes, bytearray)):
        # A list of strings is one board's rows (``f.readlines()`` too, each
        # with its line break), unless one holds a line break before its
        # end: then each string is a board's text, and the list a sum.
        return not any(_holds_lines(item) for item in items)
    if (
        all(isinstance(item, (list, tuple)) for item in items)
        and len({len(item) for item in items}) == 1
        and len(first) > 1
        and all(_is_cell_char(c) for item in items for c in item)
    ):
        raise ValueError(
            "rows given as lists of characters (such as ['1', '1', '0']) read both as one "
            "board and as a sum of one-column boards: for one board, join each row into a "
            "string (['110']) or give rows of 0/1 numbers ([[1, 1, 0]]); for a sum of "
            "one-column boards, give each board as rows of 0/1 numbers ([[1], [1], [0]]) "
            "or as a 2-D numpy array"
        )
    if _is_array(first):
        return first.ndim <= 1
    if isinstance(first, (list, tuple)):
        # Rows of numbers, or of anything that is no row (`[[None]]`): one
        # board, whose entries are checked as such; rows of rows or of
        # strings: a sum.
        return not first or not (
            isinstance(first[0], (list, tuple, str, bytes, bytearray)) or _is_array(first[0])
        )
    return _is_number(first)


def encodable(text: str, source: str) -> str:
    """``text``, which the native parsers take as UTF-8: a lone surrogate
    (``"\\ud800"``, which no UTF-8 holds) is refused where it stands, as
    the parsers locate every other bad character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        at = err.start
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise ValueError(
            f"{source}:{line}:{col}: U+{ord(text[at]):04X} is a lone surrogate, not a character"
        ) from None
    return text


def board_text(
    board: Any,
    what: str = "board",
    limit: Optional[int] = MAX_CELLS,
    max_memory: Optional[int] = None,
    spent: int = 0,
) -> Text:
    """One board as `(text, source)`: the source names it in messages. Of
    any size when `limit` is None, if its text fits `max_memory`
    (:func:`check_text_size`)."""
    board = _as_text(board, what)
    if isinstance(board, str):
        return encodable(board, f"<{what}>"), f"<{what}>"
    if not _is_array(board) and all(isinstance(r, (bytes, bytearray)) for r in board):
        # Rows read from a binary file: the text they hold.
        board = [_as_text(r, f"{what}[{i}]") for i, r in enumerate(board)]
    if _is_array(board) or not all(isinstance(r, str) for r in board):
        return _rows_from_numbers(board, what, limit, max_memory, spent), f"<{what}>"
    rows = [_chomp(row) for row in board]
    if not rows:
        raise ValueError(f"{what}: an empty list of rows")
    if limit is None:
        # Before the rows are joined: the text of a list of one row
        # repeated is far larger than the list.
        check_text_size(len(rows), max(len(row) for row in rows), what, max_memory, spent)
    for r, row in enumerate(rows):
        if "\n" in row:
            raise ValueError(f"{what}: row {r} holds a line break; give one row per string")
        if not row.strip():
            # In a board's text a blank line separates the boards of a sum;
            # in a list of rows it would silently split the one board.
            # Named as the argument's item (from 0), as every other item of
            # a Python list is, not as a line of a text the user never wrote.
            raise ValueError(
                f"{what}[{r}] is blank: in a list of rows each string is a row of the one board"
            )
    return encodable("\n".join(rows), f"<{what}>"), f"<{what}>"


def boards_texts(
    board: Any, limit: Optional[int] = MAX_CELLS, max_memory: Optional[int] = None
) -> List[Text]:
    """A board or a list of boards (a sum) as `(text, source)` pairs, each
    of at most `limit` cells (`None`: any size whose text fits
    `max_memory`)."""
    return boards_texts_given(board, limit, max_memory)[0]


def boards_texts_given(
    board: Any, limit: Optional[int] = MAX_CELLS, max_memory: Optional[int] = None
) -> Tuple[List[Text], bool]:
    """:func:`boards_texts`, and whether `board` was given as a list of
    boards (rather than as one board, or one text)."""
    board = _as_text(board, "board")
    if _is_one_board(board):
        return [board_text(board, limit=limit, max_memory=max_memory)], False
    texts = []
    spent = 0
    for i, b in enumerate(board):
        text = board_text(b, f"boards[{i}]", limit, max_memory, spent)
        # Python's text and the engine's copy, as `check_text_size` counts.
        spent += 2 * len(text[0])
        texts.append(text)
    return texts, True


def check_limits(
    max_positions: Optional[int], max_time: Optional[float], max_memory: Optional[int]
) -> Tuple[Optional[int], Optional[float], Optional[int]]:
    """Budgets: non-negative numbers or None (``max_time`` may be
    ``math.inf``, which the native half reads as no time limit), and
    ``max_memory`` at least 1, as the command line's ``--max-memory``."""
    for name, value, integral in (
        ("max_positions", max_positions, True),
        ("max_time", max_time, False),
        ("max_memory", max_memory, True),
    ):
        if value is None:
            continue
        kind = "an integer" if integral else "a number"
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be {kind} or None, not {type(value).__name__}")
        if integral and not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer or None, not {value!r}")
        if name == "max_memory" and value < 1:
            # As the command line refuses `--max-memory 0`: no search fits
            # in no memory, so there is no answer (not even an unproven
            # move) to give. One wording for 0 and below.
            raise ValueError(f"invalid value {value!r} for max_memory: must be at least one byte")
        if value < 0 or value != value:
            raise ValueError(f"{name} must be >= 0, got {value!r}")
        if integral and value >= 2**64:
            raise ValueError(f"{name} is too large: {value!r}")
    return (
        None if max_positions is None else int(max_positions),
        None if max_time is None else float(max_time),
        None if max_memory is None else int(max_memory),
    )


def tables_db(tables: Any) -> Any:
    """The native database of ``tables``: None, or a
    :class:`grundy.tables.Database` (from ``grundy.tables.open``); a path
    is refused by its type, as it would otherwise fail on a missing
    attribute."""
    if tables is None:
        return None
    from .tables import Database

    if not isinstance(tables, Database):
        raise TypeError(
            "tables must be a grundy.tables.Database (grundy.tables.open(path)) or None, "
            f"not {type(tables).__name__}"
        )
    return tables._db


def check_threads(threads: Any) -> Optional[int]:
    """``threads``: None (the default of ``grundy clear``), 1 or 2."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be 1, 2 or None, not {type(threads).__name__}")
    if threads not in (1, 2):
        raise ValueError(f"threads must be 1 or 2, not {threads!r}")
    return int(threads)


#: The two numbers of a grid cell and of a pawn's cell, as the web API
#: names them in its messages, and the range its messages give.
#: The last says a number past 64 bits (a template of ``axis`` and ``v``),
#: as each game's other checks say a number past its range.
GRID_AXES = (
    "row",
    "col",
    "rows and columns count from 0",
    "{axis} {v} is past the largest grid, "
    + f"{_grundy.SPLIT_MAX_SIDE} x {_grundy.SPLIT_MAX_SIDE}",
)
PAWN_AXES = (
    "x coordinate",
    "y coordinate",
    f"coordinates are 0 to {_grundy.PAWN_MAX_COORD}",
    "{axis} {v} is out of range " + f"0 to {_grundy.PAWN_MAX_COORD}",
)


def cells_list(
    cells: Iterable[Any], what: str, axes: Tuple[str, str, str, str]
) -> List[Tuple[int, int]]:
    """A list of `(a, b)` pairs of non-negative integers, from any iterable
    of pairs; anything else refused by its type, naming ``what``, and a
    negative number as the web API words it, by ``axes`` (``GRID_AXES`` or
    ``PAWN_AXES``): ``moves[0] is (0, -1): negative col -1: rows and
    columns count from 0``."""
    if isinstance(cells, (str, bytes, bytearray)) or not hasattr(cells, "__iter__"):
        raise TypeError(f"{what} must be a list of pairs of integers, not {type(cells).__name__}")
    out = []
    for i, cell in enumerate(cells):
        try:
            a, b = cell
        except (TypeError, ValueError):
            raise ValueError(f"{what}[{i}] is {cell!r}, not a pair of integers") from None
        for axis, v in zip(axes, (a, b)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                raise ValueError(f"{what}[{i}] is {cell!r}, not a pair of integers")
            if v < 0:
                raise ValueError(f"{what}[{i}] is {cell!r}: negative {axis} {v}: {axes[2]}")
            if v >= 2**64:
                # Past what the native side takes at all; smaller ones get
                # each game's own bound there, in these words.
                too_large = axes[3].format(axis=axis, v=v)
                raise ValueError(f"{what}[{i}] is {cell!r}: {too_large}")
        out.append((int(a), int(b)))
    return out


def refuse_repeats(pairs: List[Tuple[int, int]], what: str, thing: str) -> None:
    """A ValueError naming the first pair of ``pairs`` (the list argument
    ``what``) that repeats an earlier one, by both Python indexes: ``cells[2]
    is (0, 0), as cells[0] is: each candidate is listed once`` (the web
    API's words)."""
    first: Dict[Tuple[int, int], int] = {}
    for i, pair in enumerate(pairs):
        if pair in first:
            raise ValueError(
                f"{what}[{i}] is ({pair[0]}, {pair[1]}), as {what}[{first[pair]}] is: "
                f"each {thing} is listed once"
            )
        first[pair] = i


def _cells(count: int) -> str:
    """`1 cell`, `3 cells`."""
    return f"{count} cell" if count == 1 else f"{count} cells"
