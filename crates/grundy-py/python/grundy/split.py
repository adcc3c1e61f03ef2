"""The splitting game: a grid has candidate cells and starts as one
rectangle; a move picks a candidate in a rectangle and deletes its row and
column from that rectangle, leaving up to four smaller ones.

>>> import grundy
>>> grundy.split.analyze(["101", "000", "100"]).winning_moves
[Move(row=0, col=0)]

The position after moves, replayed and checked (``moves``):

>>> a = grundy.split.analyze(["101", "000", "101"], moves=[(0, 0)])
>>> a.value, a.moves, a.winning_moves
(1, [Move(row=0, col=0)], [Move(row=2, col=2)])
>>> grundy.split.analyze(["101", "000", "101"], moves=a.after(a.winning_moves[0])).value
0
"""

import numbers
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from . import _grundy
from ._inputs import GRID_AXES, board_text, cells_list, check_limits, refuse_repeats

Move = _grundy.SplitMove
#: The class's own name, by which pickle finds it.
SplitMove = Move
SplitAnalysis = _grundy.SplitAnalysis

#: The defaults of ``grundy split``: 3 x 10^8 positions, 2 GiB.
DEFAULT_MAX_POSITIONS = 300_000_000
DEFAULT_MAX_MEMORY = 2 * 1024**3
#: The most rows (and columns) of a grid: 10^9, the engine's bound.
MAX_SIDE: int = _grundy.SPLIT_MAX_SIDE


def _grid_text(
    grid: Any, size: Optional[Tuple[int, int]], cells: Optional[Iterable[Tuple[int, int]]]
) -> Tuple[str, str, bool]:
    """The grid as the native parsers read it: `(text, source, is a cell
    list)`, from either `grid` or `size` with `cells`."""
    if (grid is None) == (size is None):
        raise ValueError("give either a grid, or size=(rows, cols) with cells=[(row, col), ...]")
    if size is not None:
        rows, cols = _size(size)
        # Not `cells or []`: a numpy array of pairs has no truth value.
        listed = cells_list([] if cells is None else cells, "cells", GRID_AXES)
        # Checked here, where a message can name the list's index; the
        # native parser checks the same of the text, whose lines the user
        # never wrote.
        for i, (r, c) in enumerate(listed):
            for name, v, n in (("row", r, rows), ("col", c, cols)):
                if v >= n:
                    raise ValueError(
                        f"cells[{i}] is ({r}, {c}): {name} {v} is out of range 0 to {n - 1}"
                    )
        refuse_repeats(listed, "cells", "candidate")
        text = f"{rows} {cols}\n" + "".join(f"{r} {c}\n" for r, c in listed)
        return text, "<cells list, line = index + 2>", True
    text, source = board_text(grid, "grid", limit=None)
    return text, source, False


def _size(size: Any) -> Tuple[int, int]:
    """`size` as `(rows, cols)`: two integers from 1 (the native parser
    checks the largest)."""
    try:
        rows, cols = size
    except (TypeError, ValueError):
        rows = cols = None
    for v in (rows, cols):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
            raise ValueError(f"size is {size!r}: a size is (rows, cols), two integers from 1")
        if v > MAX_SIDE:
            raise ValueError(f"size is {size!r}: a grid has at most {MAX_SIDE} rows and columns")
    return int(rows), int(cols)


def _moves(moves: Optional[Iterable[Union[Move, Tuple[int, int]]]]) -> List[Tuple[int, int]]:
    """The moves played, `(row, col)` pairs from 0: each a :class:`Move` or a
    pair."""
    if moves is None:
        return []
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise TypeError(f"moves must be a list of moves, not {type(moves).__name__}")
    listed = [(m.row, m.col) if isinstance(m, Move) else m for m in moves]
    return cells_list(listed, "moves", GRID_AXES)


def analyze(
    grid: Any = None,
    *,
    size: Optional[Tuple[int, int]] = None,
    cells: Optional[Iterable[Tuple[int, int]]] = None,
    moves: Optional[Iterable[Union[Move, Tuple[int, int]]]] = None,
    max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = DEFAULT_MAX_MEMORY,
) -> SplitAnalysis:
    """Analyse a splitting-game grid.

    Args:
        grid: rows of ``"0"``/``"1"`` (``1``/``x`` a candidate) as a list of
            strings, a 2-D numpy array or list of lists of 0/1, or the text
            of a grid file.
        size, cells: instead of ``grid``, a grid of ``size = (rows, cols)``
            (up to 10^9 each) with candidates at ``cells``, ``(row, col)``
            pairs from 0 (a list, or an ``N x 2`` numpy integer array), as
            ``grundy split --cells``.
        moves: the moves played so far from the grid, in order, each a
            :class:`Move` or a ``(row, col)`` pair from 0: replayed and
            checked (as the web API's ``moves``), the analysis being of the
            position they reach (several rectangles in play). An illegal
            one raises ``ValueError`` naming it and why, in the command
            line's words (``moves[1]: split at (1,3) is illegal (cells
            counting from 1, as the command line does): no longer in play:
            an earlier move deleted its row or column``).
        max_positions, max_time, max_memory: the search budget (``None``,
            or ``math.inf`` for ``max_time``: no limit); running out raises
            :class:`grundy.BudgetExceeded`. As ``grundy split FILE``, a grid
            given as rows is refused before any search when a block of its
            candidates has more than 65,535 (``ValueError``) or needs a
            table past ``max_memory`` (``BudgetExceeded``, naming the bytes).

    Returns:
        A :class:`SplitAnalysis`: ``.value``, ``.winner``,
        ``.winning_moves`` (``Move`` with ``row``, ``col``), ``.options()``,
        ``.play()``, ``.moves`` (the moves played) and ``.after(move)``
        (``moves`` with ``move`` played after them, to pass as ``moves``).
    """
    limits = check_limits(max_positions, max_time, max_memory)
    played = _moves(moves)
    return _grundy.split_analyze(*_grid_text(grid, size, cells), *limits, played)


def engine_move(
    grid: Any = None,
    *,
    size: Optional[Tuple[int, int]] = None,
    cells: Optional[Iterable[Tuple[int, int]]] = None,
    moves: Optional[Iterable[Union[Move, Tuple[int, int]]]] = None,
    max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = DEFAULT_MAX_MEMORY,
) -> Dict[str, Any]:
    """The engine's move on a grid of any size, as ``grundy split --move``:
    always a move (within ``max_time``, 5 s by default, ``math.inf`` for
    none), and whether it is proven.

    Args:
        grid, size, cells, moves: the grid and the moves played on it, as
            for :func:`analyze`.
        max_positions, max_time, max_memory: the search budget; running out
            gives an unproven move, never an exception. Ctrl-C stops the
            search and raises ``KeyboardInterrupt``.

    Returns:
        ``{"move": Move or None, "proven": bool, "kind": "winning" |
        "losing" | "unproven" | "none", "grundy": int or None, "reason": str,
        "text": str or None}`` (``grundy`` the value the move leaves the
        whole position, when known: 0 after a winning move, and 0 with no move;
        ``text`` the move in the command line's words, 1-based, as
        ``--move --json`` gives it): ``winning`` moves
        are proven to win (by the values, or because the rectangles they
        leave pair up); ``losing`` means every move loses; ``unproven`` that
        the budget ran out before a proof.
    """
    limits = check_limits(max_positions, max_time, max_memory)
    played = _moves(moves)
    return _grundy.split_engine_move(*_grid_text(grid, size, cells), *limits, played)


__all__ = [
    "analyze",
    "engine_move",
    "Move",
    "SplitAnalysis",
    "DEFAULT_MAX_POSITIONS",
    "DEFAULT_MAX_MEMORY",
]
