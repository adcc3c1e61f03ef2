"""The pawn game: a pawn on cell ``(x, y)`` moves to ``(x - d, y)`` or
``(x, y - d)``, ``d >= 1``, never onto or over an impassable cell; who
cannot move loses. Coordinates up to 10^9.

>>> import grundy
>>> a = grundy.pawn.analyze((2, 2), blocked=[(1, 1), (4, 2)])
>>> a.winner, a.winning_moves
('first', [Move(x=1, y=2, pawn=0), Move(x=2, y=1, pawn=0)])

The pawns after a move, in the form ``analyze`` takes (``after``):

>>> a.after(a.winning_moves[1])
(2, 1)
>>> grundy.pawn.analyze((2, 1), blocked=[(1, 1), (4, 2)]).value
0
"""

import numbers
from typing import Any, Dict, Iterable, List, Optional, Sequence, SupportsIndex, Tuple, Union

from . import _grundy
from ._inputs import PAWN_AXES, cells_list, encodable, refuse_repeats

Move = _grundy.PawnMove
#: The class's own name, by which pickle finds it.
PawnMove = Move
PawnAnalysis = _grundy.PawnAnalysis
#: The largest coordinate: 10^9.
MAX_COORD: int = _grundy.PAWN_MAX_COORD

Cell = Tuple[int, int]


def analyze(
    at: Union[Cell, Sequence[Cell]],
    blocked: Union[str, Iterable[Cell], None] = None,
) -> PawnAnalysis:
    """Analyse one pawn, or several played as a sum.

    Args:
        at: a pawn ``(x, y)``, or a list of pawns.
        blocked: the impassable cells, as ``(x, y)`` pairs or as the text of
            a ``grundy pawn`` file (one ``X Y`` or ``X,Y`` a line).

    Returns:
        A :class:`PawnAnalysis`: ``.value`` (``None`` for one pawn at 4096 or
        beyond with an impassable cell at or below-left of it, whose outcome
        is known but not its value; with none there, ``x ^ y``), ``.values``,
        ``.losing``, ``.winner``, ``.winning_moves`` (``Move`` with ``pawn``,
        ``x``, ``y``), ``.options()``, ``.play()``, ``.after(move)`` (the
        pawns after a move, as :func:`after` gives them).

    Raises:
        ValueError: bad coordinates, a pawn on an impassable cell, a repeated
            impassable cell (located, for text), a sum with a pawn beyond the
            region of values.
    """
    pawns, one = _pawns(at)
    return _grundy.pawn_analyze(pawns, *_blocked_text(blocked), one=one)


def after(
    at: Union[Cell, Sequence[Cell]],
    move: Move,
    blocked: Union[str, Iterable[Cell], None] = None,
) -> Union[Cell, List[Cell]]:
    """The pawns after ``move``, in the form :func:`analyze` takes them: one
    ``(x, y)`` for one pawn, a list of ``(x, y)`` for a list of pawns (a
    sum). The move's legality is the engine's rule: pawn ``move.pawn`` goes
    toward the origin along its row or column, neither onto nor over an
    impassable cell.

    >>> import grundy
    >>> grundy.pawn.after([(3, 2), (2, 4)], grundy.pawn.Move(2, 2, pawn=1))
    [(3, 2), (2, 2)]

    Args:
        at: a pawn ``(x, y)``, or a list of pawns, as for :func:`analyze`.
        move: a :class:`Move`.
        blocked: the impassable cells, as for :func:`analyze`.

    Raises:
        ValueError: bad pawns or impassable cells, as :func:`analyze` says
            them; an illegal move, in the command line's words with why
            (``move pawn (2,2) -> (0,2) is illegal: it passes over the
            impassable cell (1,2)``), or a pawn index past the pawns.
        TypeError: ``move`` is not a pawn move.
    """
    if not isinstance(move, Move):
        raise TypeError(f"move must be a grundy.pawn.Move, not {type(move).__name__}")
    pawns, one = _pawns(at)
    cells = _grundy.pawn_after(pawns, move, *_blocked_text(blocked))
    return cells[0] if one else cells


def engine_move(
    at: Union[Cell, Sequence[Cell]],
    blocked: Union[str, Iterable[Cell], None] = None,
) -> Dict[str, Any]:
    """The engine's move for the player to move, as ``grundy pawn --move``:
    always a move while a pawn can move, and whether it is proven. Unlike
    :func:`analyze`, it answers a sum with a pawn past the region of values
    too (a pawn at 4096 or beyond with an impassable cell below-left of
    it), with a guess it says is unproven.

    >>> import grundy
    >>> m = grundy.pawn.engine_move((5000, 6000), blocked=[(1, 1)])
    >>> m["kind"], m["move"]
    ('winning', Move(x=5000, y=5000, pawn=0))
    >>> grundy.pawn.engine_move([(2, 2), (5000, 6000)], blocked=[(1, 1)])["kind"]
    'unproven'

    Args:
        at: a pawn ``(x, y)``, or a list of pawns, as for :func:`analyze`.
        blocked: the impassable cells, as for :func:`analyze`.

    Returns:
        ``{"move": Move or None, "proven": bool, "kind": "winning" |
        "losing" | "unproven" | "none", "grundy": int or None, "reason": str,
        "text": str or None}`` (``grundy`` the value the move leaves the
        whole position, when known: 0 after a winning move, and 0 with no move;
        ``text`` the move in the command line's words, as ``--move
        --json`` gives it): ``winning`` moves are proven to win;
        ``losing`` means every move loses; ``unproven`` that a pawn's value
        is out of reach; ``none`` that no pawn can move.

    Raises:
        ValueError: bad pawns or impassable cells, as :func:`analyze` says
            them.
    """
    pawns, _ = _pawns(at)
    return _grundy.pawn_engine_move(pawns, *_blocked_text(blocked))


def _pawns(at: Union[Cell, Sequence[Cell]]) -> Tuple[List[Cell], bool]:
    """The pawns of ``at`` as ``(x, y)`` pairs, and whether ``at`` is one
    pawn rather than a list of them."""
    if not hasattr(at, "__len__"):
        raise TypeError(f"at must be a pawn (x, y) or a list of pawns, not {type(at).__name__}")
    if len(at) == 2 and all(_is_int(v) for v in at):
        return cells_list([at], "at", PAWN_AXES), True
    if isinstance(at, str) or any(isinstance(v, (numbers.Number, str)) for v in at):
        # Numbers or text where pawns would be: one pawn meant, badly written.
        raise ValueError(f"at is {at!r}: a pawn is (x, y), two integers from 0, or give a list of pawns")
    return cells_list(list(at), "at", PAWN_AXES), False


def _is_int(v: object) -> bool:
    """An integer as a coordinate (numpy's included), not a bool."""
    return isinstance(v, SupportsIndex) and not isinstance(v, bool) and not hasattr(v, "__len__")


def classify(
    cells: Iterable[Cell],
    blocked: Union[str, Iterable[Cell], None] = None,
) -> List[str]:
    """What each cell is: ``"losing"`` (the player to move from there
    loses), ``"winning"`` or ``"blocked"`` (impassable), in the order given.

    For many cells at once, anywhere up to 10^9: one sweep of the rows
    answers them all, where :func:`analyze` of each cell would sweep once
    a cell. Values are not computed.

    >>> import grundy
    >>> grundy.pawn.classify([(2, 1), (1, 1), (2, 2)], blocked=[(1, 1), (4, 2)])
    ['losing', 'blocked', 'winning']

    Args:
        cells: ``(x, y)`` pairs.
        blocked: the impassable cells, as for :func:`analyze`.

    Raises:
        ValueError: bad coordinates (with the cell's index), a repeated
            impassable cell.
    """
    return _grundy.pawn_classify(cells_list(cells, "cells", PAWN_AXES), *_blocked_text(blocked))


def _blocked_text(blocked: Union[str, Iterable[Cell], None]) -> Tuple[str, str]:
    """The impassable cells as the text of a ``grundy pawn`` file, and the
    name its errors give."""
    if blocked is None:
        return "", "<blocked>"
    if isinstance(blocked, (bytes, bytearray)):
        # A file read in binary mode: the text it holds (not its bytes as
        # numbers, which a list of cells would take them for).
        try:
            blocked = bytes(blocked).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"blocked: not UTF-8 text: {err}") from None
    if isinstance(blocked, str):
        # A leading byte order mark, as `grundy pawn` reading a file drops it.
        return encodable(blocked.removeprefix("\ufeff"), "<blocked>"), "<blocked>"
    if not hasattr(blocked, "__iter__"):
        raise TypeError(
            f"blocked must be a list of (x, y) pairs, a text or None, not {type(blocked).__name__}"
        )
    cells = cells_list(blocked, "blocked", PAWN_AXES)
    # Checked here, where a message can name the list's index (as the
    # pawns' are named); the native parser checks the same of the text.
    for i, (x, y) in enumerate(cells):
        for axis, v in (("x", x), ("y", y)):
            if v > MAX_COORD:
                raise ValueError(
                    f"blocked[{i}] is ({x}, {y}): {axis} coordinate {v} is out of range 0 to {MAX_COORD}"
                )
    refuse_repeats(cells, "blocked", "impassable cell")
    # One cell a line: a located error's line is the list index + 1.
    return "".join(f"{x} {y}\n" for x, y in cells), "<blocked list, line = index + 1>"


__all__ = ["analyze", "after", "classify", "engine_move", "Move", "PawnAnalysis"]
