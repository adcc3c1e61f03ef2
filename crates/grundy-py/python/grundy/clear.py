"""Rectangle clearing: a move clears an axis-parallel rectangle of ones; who
cannot move loses. Boards of any size: up to 64 cells the full analysis
(``ClearAnalysis``), past that the large boards' (``LargeClearAnalysis``:
the value when the budget finds it, pairs of equal shapes cancelled, the
winning moves found); ``engine_move`` plays on any board. A ``Solver``
keeps its shape memo across calls.

>>> import grundy
>>> a = grundy.clear.analyze(["0110", "0000", "0000", "0001"])
>>> a.value, a.winner
(3, 'first')
>>> a.winning_moves[0]
Move(top=0, left=1, bottom=0, right=1, board=0)

The position after a move, in the form ``analyze`` takes (``after``):

>>> grundy.clear.after(["0110", "0000", "0000", "0001"], grundy.clear.Move(0, 1, 0, 1))
['0010', '0000', '0000', '0001']
>>> grundy.clear.analyze(a.after(a.winning_moves[0])).value
0
"""

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

from . import _grundy
from ._inputs import boards_texts, boards_texts_given, check_limits, check_threads, tables_db

if TYPE_CHECKING:
    from .tables import Database

Move = _grundy.ClearMove
#: The class's own name, by which pickle finds it.
ClearMove = Move
LargeMove = _grundy.LargeMove
Component = _grundy.Component
ClearAnalysis = _grundy.ClearAnalysis
LargeClearAnalysis = _grundy.LargeClearAnalysis

#: The default of ``max_positions``, as ``grundy clear``'s.
DEFAULT_MAX_POSITIONS = 20_000_000


def analyze(
    board: Any,
    *,
    max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = None,
    tables: "Optional[Database]" = None,
    threads: Optional[int] = None,
) -> "ClearAnalysis | LargeClearAnalysis":
    """Analyse a board, or a list of boards played as a sum.

    Args:
        board: rows of ``"0"``/``"1"`` (also ``"."``/``"#"``) as a list of
            strings, one a row (a line break at a row's end, as
            ``f.readlines()`` leaves it, is dropped; a blank row is an
            error); a 2-D numpy array of bools or 0/1 ints; a list of lists
            of 0/1; the text of a board file, as ``str`` or UTF-8 ``bytes``
            (boards separated by blank lines are a sum); or a list of such
            boards, played as a sum (a list of strings is read as board
            texts when one of them holds a line break before its end).
        max_positions: give up after solving this many distinct shapes,
            counting the helper thread's (``None``: no limit).
        max_time: give up after this many seconds (``math.inf``: no time
            limit, also on boards past 64 cells, where leaving it out
            gives 30 s). It bounds the searches: making the board's text,
            labelling its components and grouping them come first
            (seconds on a board of 10^8 cells), as ``grundy clear`` reads
            before its clock starts; :func:`engine_move` counts the
            labelling and grouping, but not the making of the text.
        max_memory: give up before the shape memo would pass this many bytes.
        tables: a :class:`grundy.tables.Database` consulted before searching
            (the built-in 5 x 5 database always is).
        threads: 1, or 2 for a helper thread, as ``grundy clear
            --threads``: it joins each search of a shape of at most 64 cells
            (the whole board, or a component of a larger one) once it has
            solved 65,536 shapes, searches the same shape in the opposite
            order, and shares what it finds; it may hold a quarter of
            ``max_memory`` (2 GiB without it). ``None``: 2 when the process
            may run on two cores.

    Returns:
        For boards of at most 64 cells, a :class:`ClearAnalysis`:
        ``.value``, ``.winner``, ``.winning_moves`` (``Move`` rectangles
        with ``top``, ``left``, ``bottom``, ``right``, 0-based and
        inclusive, and ``board``), ``.components``, ``.board_values``,
        ``.options()``, ``.play()`` and ``.after(move)`` (the position after
        a move, as :func:`after` gives it). For larger boards a
        :class:`LargeClearAnalysis`: ``.value`` and ``.winner`` (``None``
        when the budget ran out first; ``max_time`` defaults to 30 s there),
        ``.winning_moves``, ``.winning_moves_complete``, ``.components``
        (``(board, cells, value)``), ``.classes`` (``(cells, count,
        value)``: congruent components, which cancel in pairs) and
        ``.stopped``.

    Raises:
        ValueError: a bad board, with the command line's located message
            (``<board>:2:3: ...``), a bad array (ragged, not 2-D, entries
            other than 0/1), or a board whose analysis would need more than
            ``max_memory`` bytes (8 GiB by default).
        grundy.BudgetExceeded: a budget ran out. For boards of at most 64
            cells its ``found`` says who wins all the same when it is
            proven (``winner``, ``winning_moves``): where one shape is left
            alone, an outcome search looks for a move to 0, with a quarter
            of ``max_time`` kept for it.
        KeyboardInterrupt: Ctrl-C during the search.
    """
    limits = check_limits(max_positions, max_time, max_memory)
    texts, as_list = boards_texts_given(board, limit=None, max_memory=limits[2])
    db = tables_db(tables)
    if _grundy.clear_fits_small(texts, limits[2]):
        return _grundy.clear_analyze(
            texts, *limits, db, threads=check_threads(threads), as_list=as_list
        )
    return _grundy.clear_analyze_large(
        texts, *limits, db, threads=check_threads(threads), as_list=as_list
    )


def engine_move(
    board: Any,
    *,
    max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = None,
    tables: "Optional[Database]" = None,
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """The engine's move for the player to move, on a board of any size, as
    ``grundy clear --move``: always a move within the time budget
    (``max_time``, 5 s by default, ``math.inf`` for none), and whether it
    is proven. The budget starts once the board's text is made, as the
    command line's starts once the file is read: turning a list of 10^8
    cells into text takes seconds before it. ``threads``
    as for :func:`analyze`: a helper joins the long value searches of the
    shapes left.

    Returns:
        ``{"move": LargeMove or None, "proven": bool, "kind": "winning" |
        "losing" | "unproven" | "none", "grundy": int or None, "reason": str,
        "text": str or None}`` (``grundy`` the value the move leaves the
        whole position, when known: 0 after a winning move, and 0 with no move;
        ``text`` the move in the command line's words, 1-based, as
        ``--move --json`` gives it): ``winning`` moves
        are proven to win (by the values; by an outcome search, when one
        shape is left alone, that finds a move to value 0 without the
        values; or because every shape left has an equal partner);
        ``losing`` means every move loses; ``unproven`` that the budget ran
        out before a proof.
    """
    limits = check_limits(max_positions, max_time, max_memory)
    db = tables_db(tables)
    return _grundy.clear_engine_move(
        boards_texts(board, limit=None, max_memory=limits[2]), *limits, db, threads=check_threads(threads)
    )


def after(
    board: Any,
    move: "Move | LargeMove",
    *,
    max_memory: Optional[int] = None,
) -> Union[List[str], List[List[str]], List[List[List[int]]]]:
    """The position after ``move``, in the form :func:`analyze` takes: the
    board's rows (strings of ``0``/``1``) for one board, the list of the
    boards' rows for a sum (a list of boards, or a text of several boards);
    a sum of boards one column wide as rows of 0/1 numbers (``[[[1], [0]],
    [[1]]]``), since rows of one character would read as one board too.
    The board is not changed. For a walk down the game tree::

        >>> import grundy
        >>> board = ["111", "010"]
        >>> m = grundy.clear.analyze(board).winning_moves[0]
        >>> m, grundy.clear.after(board, m)
        (Move(top=0, left=0, bottom=0, right=1, board=0), ['001', '010'])
        >>> grundy.clear.analyze(grundy.clear.after(board, m)).value
        0

    Args:
        board: one board or a sum, of any size, as :func:`analyze` takes it.
        move: a :class:`Move` or :class:`LargeMove`; its ``board`` picks the
            board of a sum (from 0).
        max_memory: the bytes a board's cells may take, as for
            :func:`analyze` (8 GiB by default).

    Raises:
        ValueError: a bad board, as :func:`analyze` says it; an illegal move,
            worded as the command line words moves (from 1) with why: ``clear
            (1,1)-(1,2) is illegal (cells counting from 1, as the command
            line does): cell (1,1) is 0``; a row or column outside the board; a
            board past the sum (``move.board is 2: there are only 2 boards
            (0 to 1)``). (A rectangle with its corners inverted is
            refused when the move is made: ``Move(3, 3, 0, 0)``.)
        TypeError: ``move`` is not a clear move.
    """
    limits = check_limits(None, None, max_memory)
    texts, as_list = boards_texts_given(board, limit=None, max_memory=limits[2])
    return _grundy.clear_after(texts, move, limits[2], as_list)


class Solver:
    """A shape memo kept across calls: what one search found answers the
    next at once. Analyse a family of related positions (the positions of a
    game, a board with one cell changed), or an analysis's ``options()`` and
    ``play()``, which search the analysis's options again without it::

        >>> import grundy
        >>> s = grundy.clear.Solver()
        >>> a = s.analyze(["0110", "0000", "0000", "0001"])
        >>> a.value, len(s.engine_move(["0110", "0000"])["reason"]) > 0
        (3, True)

    A budget that runs out keeps what was found, so the same call made again
    goes on from there. The memo grows with what is searched (its
    ``memory_bytes``; ``max_memory`` counts it) until ``clear()``: keep one
    ``Solver`` for related positions, not one per position of a long list.
    One thread's call at a time uses the memo; a call made while another
    thread's holds it searches alone.

    Args:
        tables: a :class:`grundy.tables.Database` consulted before searching
            (the built-in 5 x 5 database always is).
        threads: the threads of its analyses of boards of at most 64
            cells, as :func:`analyze`'s.
    """

    def __init__(
        self, *, tables: "Optional[Database]" = None, threads: Optional[int] = None
    ) -> None:
        self._memo = _grundy.ClearMemo(tables_db(tables), check_threads(threads))

    def analyze(
        self,
        board: Any,
        *,
        max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
        max_time: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> "ClearAnalysis | LargeClearAnalysis":
        """:func:`analyze`, going on from the memo; the analysis's
        ``options()`` and ``play()`` search with the memo too."""
        limits = check_limits(max_positions, max_time, max_memory)
        texts, as_list = boards_texts_given(board, limit=None, max_memory=limits[2])
        if _grundy.clear_fits_small(texts, limits[2]):
            return _grundy.clear_analyze(texts, *limits, None, self._memo, as_list=as_list)
        return _grundy.clear_analyze_large(texts, *limits, None, self._memo, as_list=as_list)

    def engine_move(
        self,
        board: Any,
        *,
        max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
        max_time: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Dict[str, Any]:
        """:func:`engine_move`, going on from the memo."""
        limits = check_limits(max_positions, max_time, max_memory)
        texts = boards_texts(board, limit=None, max_memory=limits[2])
        return _grundy.clear_engine_move(texts, *limits, None, self._memo)

    @property
    def memory_bytes(self) -> int:
        """The bytes the memo holds, as ``max_memory`` counts them."""
        return self._memo.memory_bytes()

    def clear(self) -> None:
        """Forgets every value found."""
        self._memo.clear()

    def __repr__(self) -> str:
        return f"Solver(memory_bytes={self.memory_bytes})"

    # The memo lives in this process, shared by the threads that call it: a
    # copy that shared it, or a pickle of hundreds of MB, is not what a
    # caller means. Refused, with the way to make another.
    _NOT_COPIED = (
        "a Solver is not copied or pickled (its memo lives in this process); make another: "
        "Solver(tables=..., threads=...), or pickle the analyses it returns"
    )

    def __copy__(self) -> "Solver":
        raise TypeError(self._NOT_COPIED)

    def __deepcopy__(self, memo: Any) -> "Solver":
        raise TypeError(self._NOT_COPIED)

    def __reduce__(self) -> Any:
        raise TypeError(self._NOT_COPIED)


__all__ = [
    "analyze",
    "after",
    "engine_move",
    "Solver",
    "ClearAnalysis",
    "LargeClearAnalysis",
    "Component",
    "Move",
    "LargeMove",
    "DEFAULT_MAX_POSITIONS",
]
