"""A row of rectangle-clearing boards of any size played side by side,
with point updates, range values and winning moves (``grundy sum``'s
structure). A move on a board of at most 64 cells is a
:class:`grundy.clear.Move`, past that a :class:`grundy.clear.LargeMove`,
as :func:`grundy.clear.analyze` gives them.

Indices count from 0 (negatives from the end) and ranges are half-open,
as Python slices, but a range past the boards is an ``IndexError``:
``s.value(1, 3)`` is the value of boards 1 and 2 (``grundy sum``'s query
``value 2 3``, whose boards count from 1).

>>> import grundy
>>> s = grundy.sum.BoardSum([["0110", "0000", "0000", "0001"], ["11", "11"], ["1"]])
>>> s.value(), s.winning_move()
(3, (Move(top=0, left=1, bottom=0, right=1, board=0), 3, 0))
"""

import operator
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, SupportsIndex, Tuple, Union

from . import _grundy
from ._inputs import _is_array, board_text, check_limits, tables_db
from .clear import DEFAULT_MAX_POSITIONS, LargeMove, Move

if TYPE_CHECKING:
    from .tables import Database


class BoardSum:
    """Boards played as one sum; each is solved once when put in.

    Args:
        boards: a list of boards of any size (each as
            ``grundy.clear.analyze`` takes one).
        max_positions, max_time, max_memory: the search budget of every
            board put in and every winning move searched, each call afresh;
            a call on a range holding a board past 64 cells gets 30 seconds
            when ``max_time`` is not given, as ``grundy sum``
            (``math.inf``: no time limit).
        tables: a :class:`grundy.tables.Database` consulted first.
    """

    def __init__(
        self,
        boards: Iterable[Any],
        *,
        max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
        max_time: Optional[float] = None,
        max_memory: Optional[int] = None,
        tables: "Optional[Database]" = None,
    ) -> None:
        limits = check_limits(max_positions, max_time, max_memory)
        if isinstance(boards, (str, bytes, bytearray)) or _is_array(boards):
            # One board given alone, not a list of boards: a string would
            # otherwise be read a character a board.
            raise TypeError(
                "boards must be a list of boards (BoardSum(['111']) for one board), "
                f"not a single board given as a {type(boards).__name__}"
            )
        if not hasattr(boards, "__iter__"):
            raise TypeError(f"boards must be a list of boards, not {type(boards).__name__}")
        texts = []
        spent = 0
        for i, b in enumerate(boards):
            # The boards' texts together within the memory budget (see
            # `check_text_size`).
            texts.append(board_text(b, f"boards[{i}]", None, limits[2], spent))
            spent += 2 * len(texts[-1][0])
        self._sum = _grundy.BoardSum(texts, *limits, tables_db(tables))

    def __len__(self) -> int:
        return len(self._sum)

    def _index(self, index: Any) -> int:
        """``index`` as a list takes it (negatives count from the end)."""
        if isinstance(index, bool) or not isinstance(index, SupportsIndex):
            raise TypeError(f"a board index must be an integer, not {type(index).__name__}")
        index = operator.index(index)
        n = len(self)
        if not -n <= index < n:
            held = {0: "there are no boards", 1: "there is only 1 board (index 0 or -1)"}
            raise IndexError(
                f"board index {index} is out of range: "
                + held.get(n, f"there are {n} boards (indexes {-n} to {n - 1})")
            )
        return index + n if index < 0 else index

    def _range(self, start: Any, stop: Any) -> Tuple[int, int]:
        """``start..stop`` as a slice reads them (negatives count from the
        end); a range past the boards is an ``IndexError``, not clamped."""
        n = len(self)
        bounds = []
        for name, bound in (("start", 0 if start is None else start), ("stop", n if stop is None else stop)):
            if isinstance(bound, bool) or not isinstance(bound, SupportsIndex):
                raise TypeError(f"{name} must be an integer, not {type(bound).__name__}")
            bound = operator.index(bound)
            bounds.append(bound + n if bound < 0 else bound)
        lo, hi = bounds
        if 0 <= hi < lo <= n:
            raise IndexError(
                f"range {start}..{stop} runs backwards: start {lo} is past stop {hi} "
                f"(0 <= start <= stop <= {n})"
            )
        if not 0 <= lo <= hi <= n:
            raise IndexError(
                f"range {start}..{stop} is not within the {n} boards (0 <= start <= stop <= {n})"
            )
        return lo, hi

    def __getitem__(self, index: int) -> List[str]:
        """Board ``index`` as rows of ``"0"``/``"1"``."""
        return self._sum.board(self._index(index))

    def __setitem__(self, index: int, board: Any) -> None:
        self.set(index, board)

    @property
    def values(self) -> List[int]:
        """Each board's value."""
        return self._sum.values

    def value(self, start: Optional[int] = 0, stop: Optional[int] = None) -> int:
        """The value (XOR) of boards ``start..stop``."""
        return self._sum.value(*self._range(start, stop))

    def winner(self, start: Optional[int] = 0, stop: Optional[int] = None) -> str:
        """``"first"`` or ``"second"``: who wins boards ``start..stop``."""
        return self._sum.winner(*self._range(start, stop))

    def winning_move(
        self, start: Optional[int] = 0, stop: Optional[int] = None
    ) -> Optional[Tuple[Union[Move, LargeMove], int, int]]:
        """A winning move in boards ``start..stop`` as ``(move, before,
        after)``, the board's value before and after; ``None`` when the
        player to move loses."""
        return self._sum.winning_move(*self._range(start, stop))

    def winning_moves(
        self, start: Optional[int] = 0, stop: Optional[int] = None
    ) -> List[Union[Move, LargeMove]]:
        """Every winning move in boards ``start..stop``."""
        return self._sum.winning_moves(*self._range(start, stop))

    def set(self, index: int, board: Any) -> int:
        """Replace board ``index``; returns its value."""
        index = self._index(index)
        text, source = board_text(board, f"boards[{index}]", limit=None)
        return self._sum.set_text(index, text, source)

    def __repr__(self) -> str:
        return f"BoardSum(boards={len(self)}, value={self.value()})"

    # A copy would share the boards' solver (a `set` on one would change
    # both), and the solver does not pickle: refused, with the way to make
    # another.
    _NOT_COPIED = (
        "a BoardSum is not copied or pickled (it holds its boards' solver); make another "
        "from its boards: BoardSum([s[i] for i in range(len(s))], ...)"
    )

    def __copy__(self) -> "BoardSum":
        raise TypeError(self._NOT_COPIED)

    def __deepcopy__(self, memo: Any) -> "BoardSum":
        raise TypeError(self._NOT_COPIED)

    def __reduce__(self) -> Any:
        raise TypeError(self._NOT_COPIED)


__all__ = ["BoardSum"]
