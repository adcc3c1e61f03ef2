"""Rectangle clearing: a move clears an axis-parallel rectangle of ones; who
cannot move loses. Boards of any shape up to 64 cells.

>>> import grundy
>>> a = grundy.clear.analyze(["0110", "0000", "0000", "0001"])
>>> a.value, a.winner
(3, 'first')
>>> a.winning_moves[0]
Move(top=0, left=1, bottom=0, right=1, board=0)
"""

from typing import TYPE_CHECKING, Any, Optional

from . import _grundy
from ._inputs import boards_texts, check_limits

if TYPE_CHECKING:
    from .tables import Database

Move = _grundy.ClearMove
Component = _grundy.Component
ClearAnalysis = _grundy.ClearAnalysis

#: The default of ``max_positions``, as ``grundy clear``'s.
DEFAULT_MAX_POSITIONS = 20_000_000


def analyze(
    board: Any,
    *,
    max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = None,
    tables: "Optional[Database]" = None,
) -> ClearAnalysis:
    """Analyse a board, or a list of boards played as a sum.

    Args:
        board: rows of ``"0"``/``"1"`` (also ``"."``/``"#"``) as a list of
            strings; a 2-D numpy array of bools or 0/1 ints; a list of lists
            of 0/1; the text of a board file (boards separated by blank lines
            are a sum); or a list of such boards, played as a sum.
        max_positions: give up after solving this many distinct shapes
            (``None``: no limit).
        max_time: give up after this many seconds.
        max_memory: give up before the shape memo would pass this many bytes.
        tables: a :class:`grundy.tables.Database` consulted before searching
            (the built-in 5 x 5 database always is).

    Returns:
        A :class:`ClearAnalysis`: ``.value``, ``.winner``, ``.winning_moves``
        (``Move`` rectangles with ``top``, ``left``, ``bottom``, ``right``,
        0-based and inclusive, and ``board``), ``.components``,
        ``.board_values``, ``.options()`` and ``.play()``.

    Raises:
        ValueError: a bad board, with the command line's located message
            (``<board>:2:3: ...``), or a bad array (ragged, not 2-D, entries
            other than 0/1, more than 64 cells).
        grundy.BudgetExceeded: a budget ran out.
        KeyboardInterrupt: Ctrl-C during the search.
    """
    limits = check_limits(max_positions, max_time, max_memory)
    return _grundy.clear_analyze(boards_texts(board), *limits, None if tables is None else tables._db)


__all__ = ["analyze", "ClearAnalysis", "Component", "Move", "DEFAULT_MAX_POSITIONS"]
