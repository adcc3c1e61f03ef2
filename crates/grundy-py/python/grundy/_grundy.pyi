"""Types of the native module `grundy._grundy` (PyO3). Use the Python
modules (`grundy.clear`, `grundy.split`, ...) rather than these functions;
the result classes below are what they return."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar, Union

Text = Tuple[str, str]

_AnyClearMove = Union["ClearMove", "LargeMove"]

_Self = TypeVar("_Self")
_State = Tuple[Any, ...]
"""A result's pickled state: plain data, its first element the layout
version (1), which the restore function checks."""

class ClearMove:
    """Clear the rectangle top..=bottom x left..=right (0-based, inclusive)
    of board `board`. Ordered, as ``LargeMove`` is, by ``(board, top, left,
    bottom, right)``, the key ``==`` compares; picklable and copyable."""

    board: int
    top: int
    left: int
    bottom: int
    right: int
    def __init__(self, top: int, left: int, bottom: int, right: int, board: int = 0) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: _AnyClearMove) -> bool: ...
    def __le__(self, other: _AnyClearMove) -> bool: ...
    def __gt__(self, other: _AnyClearMove) -> bool: ...
    def __ge__(self, other: _AnyClearMove) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Type[ClearMove], Tuple[int, int, int, int, int]]: ...

class LargeMove:
    """A move of a board of any size: clear top..=bottom x left..=right
    (0-based, inclusive) of board `board`. Equal to, and of the same hash
    as, the ``ClearMove`` of the same rectangle on the same board, and
    ordered with it by ``(board, top, left, bottom, right)``. Picklable and
    copyable: its own constructor gives back a ``LargeMove`` (a
    ``ClearMove``'s sides stop at 255)."""

    board: int
    top: int
    left: int
    bottom: int
    right: int
    def __init__(self, top: int, left: int, bottom: int, right: int, board: int = 0) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: _AnyClearMove) -> bool: ...
    def __le__(self, other: _AnyClearMove) -> bool: ...
    def __gt__(self, other: _AnyClearMove) -> bool: ...
    def __ge__(self, other: _AnyClearMove) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Type[LargeMove], Tuple[int, int, int, int, int]]: ...

class LargeClearAnalysis:
    """The analysis of a board (or a sum) of any size; ``value`` and
    ``winner`` are ``None`` when the budget ran out first, and ``stopped``
    then says which budget. Picklable (the boards and every answer
    travel); ``copy`` gives the object itself."""

    value: Optional[int]
    winner: Optional[str]
    winning_moves: List[LargeMove]
    winning_moves_complete: bool
    components: List[Tuple[int, List[Tuple[int, int]], Optional[int]]]
    """Each component: ``(board, cells, value or None)``, cells ``(row, col)``;
    listed when first read, then the same list at every read (copy it
    before changing it). A list of every cell: on a board of 10^7 cells
    or more, its first read, a pickle and ``to_data`` take seconds and
    gigabytes; ``classes`` is the summary."""
    classes: List[Tuple[int, int, Optional[int]]]
    """Each class of congruent components: ``(cells, count, value or None)``."""
    def explain(self) -> Dict[str, Any]:
        """Raises ValueError: explanations are of boards of at most 64
        cells, as ``--explain``'s."""
    stopped: Optional[str]
    def after(
        self, move: _AnyClearMove
    ) -> Union[List[str], List[List[str]], List[List[List[int]]]]:
        """The position after ``move``, played on the boards analysed, in
        the form the analysis was given, as :meth:`ClearAnalysis.after`
        gives it. An illegal move raises ValueError, in the command line's
        words (from 1) with why."""
    def __reduce__(self) -> Tuple[Callable[[_State], LargeClearAnalysis], Tuple[_State]]: ...
    def __copy__(self: _Self) -> _Self: ...
    def __deepcopy__(self: _Self, memo: Any) -> _Self: ...

class Component:
    """A 4-connected component of ones: cells as (row, col), its value.
    Picklable; ``copy`` gives the object itself; equal to a component of
    the same board, cells and value."""

    board: int
    cells: List[Tuple[int, int]]
    value: int
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Callable[[_State], Component], Tuple[_State]]: ...
    def __copy__(self: _Self) -> _Self: ...
    def __deepcopy__(self: _Self, memo: Any) -> _Self: ...

class ClearAnalysis:
    """The analysis of a board or a sum of boards.

    Picklable (for ``multiprocessing``): the boards and every answer
    travel, with the limits and threads, but not the shape databases
    (``tables``) nor the memo of a ``Solver``; the restored analysis's
    ``options()``, ``play()`` and ``explain()`` search with the built-in
    tables and no memo, to the same answers, maybe slower. ``copy.copy``
    and ``copy.deepcopy`` give the object itself, tables and memo kept."""

    value: int
    """The Sprague-Grundy value (of the sum)."""
    winner: str
    """"first" when the player to move wins, else "second"."""
    winning_moves: List[ClearMove]
    components: List[Component]
    board_values: List[int]
    boards: Union[List[List[str]], List[List[List[int]]]]
    def options(self) -> List[Tuple[ClearMove, int]]:
        """Every legal move with the total value it leaves (0: winning)."""
    def play(self) -> List[Tuple[ClearMove, int]]:
        """An optimal play-out, each move with the value it leaves."""
    def explain(self) -> Dict[str, Any]:
        """Why, in Sprague-Grundy terms, as ``--explain`` says it: the API's
        ``explain`` fields (``heading``, ``value``, ``parts``, ``winning``,
        ``mex``, ...) and ``text``, the lines ``--explain`` prints. It
        values every move of every component: at once for an analysis made
        by a :class:`Solver`, whose memo holds them; otherwise by a search
        as long as the analysis's own, as ``options()`` and ``play()``."""
    def after(
        self, move: _AnyClearMove
    ) -> Union[List[str], List[List[str]], List[List[List[int]]]]:
        """The position after ``move``, played on ``boards``, in the form
        the analysis was given: the board's rows for one board, the list of
        the boards' rows for a sum (a list of boards, or a text of several;
        boards all one column wide as rows of 0/1 numbers, which read as a
        sum where rows of one character would not),
        as ``grundy.clear.analyze`` takes them. An illegal move raises
        ValueError, in the command line's words (from 1) with why."""
    def __reduce__(self) -> Tuple[Callable[[_State], ClearAnalysis], Tuple[_State]]: ...
    def __copy__(self: _Self) -> _Self: ...
    def __deepcopy__(self: _Self, memo: Any) -> _Self: ...

class SplitMove:
    """Delete the row and column of candidate (row, col), 0-based. Ordered
    by ``(row, col)``; picklable and copyable."""

    row: int
    col: int
    def __init__(self, row: int, col: int) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: SplitMove) -> bool: ...
    def __le__(self, other: SplitMove) -> bool: ...
    def __gt__(self, other: SplitMove) -> bool: ...
    def __ge__(self, other: SplitMove) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Type[SplitMove], Tuple[int, int]]: ...

class SplitAnalysis:
    """The analysis of a splitting-game grid. Picklable: the grid (as its
    candidates), the moves, the limits, the value and the options travel,
    the position is rebuilt from them; ``copy`` gives the object itself."""

    value: int
    winner: str
    rows: int
    cols: int
    winning_moves: List[SplitMove]
    candidates: List[Tuple[int, int]]
    """The grid's candidates (those deleted by ``moves`` included)."""
    moves: List[SplitMove]
    """The moves played from the grid to the position analysed."""
    def after(self, move: Union[SplitMove, Tuple[int, int]]) -> List[SplitMove]:
        """``moves`` with ``move`` after them, checked legal: the ``moves``
        argument of the position after it."""
    def options(self) -> List[Tuple[SplitMove, int]]:
        """Every legal move with the value it leaves (0: winning)."""
    def play(self) -> List[Tuple[SplitMove, int]]:
        """An optimal play-out, each move with the value it leaves."""
    def explain(self) -> Dict[str, Any]:
        """Why, in Sprague-Grundy terms, as ``--explain`` says it: the API's
        ``explain`` fields (``heading``, ``value``, ``parts``, ``winning``,
        ``mex``, ...) and ``text``, the lines ``--explain`` prints."""
    def __reduce__(self) -> Tuple[Callable[[_State], SplitAnalysis], Tuple[_State]]: ...
    def __copy__(self: _Self) -> _Self: ...
    def __deepcopy__(self: _Self, memo: Any) -> _Self: ...

class PawnMove:
    """Pawn `pawn` (0-based) moves to (x, y). Ordered by ``(pawn, x, y)``;
    picklable and copyable."""

    pawn: int
    x: int
    y: int
    def __init__(self, x: int, y: int, pawn: int = 0) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: PawnMove) -> bool: ...
    def __le__(self, other: PawnMove) -> bool: ...
    def __gt__(self, other: PawnMove) -> bool: ...
    def __ge__(self, other: PawnMove) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Type[PawnMove], Tuple[int, int, int]]: ...

class PawnAnalysis:
    """The analysis of one pawn or a sum of pawns. Picklable: the pawns and
    the impassable cells travel, and unpickling analyses them again (as
    quick as ``analyze``); ``copy`` gives the object itself."""

    value: Optional[int]
    """The total value; None when a pawn at 4096 or beyond (with an
    impassable cell below-left of it) has no known value and neither pairs
    with another nor drops out of the sum."""
    values: List[Optional[int]]
    losing: List[bool]
    winner: str
    winning_moves: List[PawnMove]
    """Every winning move, unless winning_moves_complete is False."""
    winning_moves_complete: bool
    """False when pawns that drop out of a won sum without their values
    (on losing cells, or paired on shared cells, at 4096 or beyond) have
    moves not examined."""
    def after(self, move: PawnMove) -> Union[Tuple[int, int], List[Tuple[int, int]]]:
        """The pawns after ``move``, in the form the analysis was given:
        one ``(x, y)`` for a pawn, a list of ``(x, y)`` for a list of pawns;
        an illegal move raises ValueError with why."""
    def options(self) -> List[Tuple[PawnMove, int]]:
        """Every legal move with the total value it leaves. Raises
        ValueError, naming the pawn, when a pawn lies at 4096 or beyond on
        an axis (the values are read from a table below 4096 x 4096)."""
    def play(self) -> List[Tuple[PawnMove, int]]:
        """An optimal play-out, each move with the total value it leaves.
        Raises ValueError as :meth:`options` does."""
    def explain(self) -> Dict[str, Any]:
        """Why, in Sprague-Grundy terms, as ``--explain`` says it: the API's
        ``explain`` fields (``heading``, ``value``, ``parts``, ``winning``,
        ``mex``, ...) and ``text``, the lines ``--explain`` prints."""
    def __reduce__(self) -> Tuple[Callable[[_State], PawnAnalysis], Tuple[_State]]: ...
    def __copy__(self: _Self) -> _Self: ...
    def __deepcopy__(self: _Self, memo: Any) -> _Self: ...

class BoardSum:
    def __init__(
        self,
        texts: List[Text],
        max_positions: Optional[int],
        max_time: Optional[float],
        max_memory: Optional[int],
        tables: Optional[Database],
    ) -> None: ...
    def __len__(self) -> int: ...
    values: List[int]
    def board(self, index: int) -> List[str]: ...
    def value(self, start: int = 0, stop: Optional[int] = None) -> int: ...
    def winner(self, start: int = 0, stop: Optional[int] = None) -> str: ...
    def winning_move(
        self, start: int = 0, stop: Optional[int] = None
    ) -> Optional[Tuple[Union[ClearMove, LargeMove], int, int]]: ...
    def winning_moves(
        self, start: int = 0, stop: Optional[int] = None
    ) -> List[Union[ClearMove, LargeMove]]: ...
    def set_text(self, index: int, text: str, source: str) -> int: ...

class Database:
    box: Tuple[int, int]
    path: PathLike[str]
    part_count: int
    """How many files hold it: 1, or the parts of a partitioned build."""
    def info(self, values: bool = False) -> Dict[str, Any]: ...
    def value_text(
        self,
        texts: List[Text],
        max_positions: Optional[int],
        max_time: Optional[float],
        max_memory: Optional[int],
    ) -> int: ...
    def values_packed(
        self,
        packed: bytes,
        count: int,
        rows: int,
        cols: int,
        max_positions: Optional[int],
        max_time: Optional[float],
        max_memory: Optional[int],
    ) -> bytes: ...

class ClearMemo:
    """A shape memo kept across calls (``grundy.clear.Solver``)."""

    def __init__(self, tables: Optional[Database], threads: Optional[int] = None) -> None: ...
    def memory_bytes(self) -> int: ...
    def clear(self) -> None: ...

def clear_analyze(
    texts: List[Text],
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    tables: Optional[Database],
    memo: Optional[ClearMemo] = None,
    threads: Optional[int] = None,
    as_list: bool = False,
) -> ClearAnalysis: ...
def clear_after(
    texts: List[Text], mv: _AnyClearMove, max_memory: Optional[int], as_list: bool
) -> Union[List[str], List[List[str]], List[List[List[int]]]]: ...
def clear_fits_small(texts: List[Text], max_memory: Optional[int]) -> bool: ...
def clear_analysis_bytes(rows: int, cols: int) -> int: ...
def clear_analyze_large(
    texts: List[Text],
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    tables: Optional[Database],
    memo: Optional[ClearMemo] = None,
    threads: Optional[int] = None,
    as_list: bool = False,
) -> LargeClearAnalysis: ...
def clear_value_large(
    texts: List[Text],
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    tables: Optional[Database],
) -> int: ...
def clear_engine_move(
    texts: List[Text],
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    tables: Optional[Database],
    memo: Optional[ClearMemo] = None,
    threads: Optional[int] = None,
) -> Dict[str, Any]: ...
def split_analyze(
    text: str,
    source: str,
    cells: bool,
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    moves: List[Tuple[int, int]] = ...,
) -> SplitAnalysis: ...
def split_engine_move(
    text: str,
    source: str,
    cells: bool,
    max_positions: Optional[int],
    max_time: Optional[float],
    max_memory: Optional[int],
    moves: List[Tuple[int, int]] = ...,
) -> Dict[str, Any]: ...
def pawn_analyze(
    at: List[Tuple[int, int]], text: str, source: str, one: bool = False
) -> PawnAnalysis: ...
def pawn_after(
    at: List[Tuple[int, int]], mv: PawnMove, text: str, source: str
) -> List[Tuple[int, int]]: ...
def pawn_engine_move(at: List[Tuple[int, int]], text: str, source: str) -> Dict[str, Any]: ...
def pawn_classify(cells: List[Tuple[int, int]], text: str, source: str) -> List[str]: ...
def _restore_component(state: _State) -> Component: ...
def _restore_clear_analysis(state: _State) -> ClearAnalysis: ...
def _restore_large_clear_analysis(state: _State) -> LargeClearAnalysis: ...
def _restore_split_analysis(state: _State) -> SplitAnalysis: ...
def _restore_pawn_analysis(state: _State) -> PawnAnalysis:
    """The restore functions pickle calls: a state of another version, or
    one whose parts do not fit together (boards, moves, components, the
    value and the boards' values), raises ValueError; one of the wrong
    types TypeError. The values are not searched again: a state that fits
    together but holds wrong values is restored as it is (a pickle is
    trusted data)."""

def tables_open(path: Optional[Union[str, PathLike[str]]]) -> Database: ...
def tables_discover(
    paths: List[Union[str, PathLike[str]]],
) -> Tuple[List[Database], List[Tuple[str, str]]]: ...
TABLES_MAX_THREADS: int
"""The most worker threads `tables_build` takes."""
SPLIT_MAX_SIDE: int
"""The most rows (and columns) of a splitting game's grid."""
PAWN_MAX_COORD: int
"""The largest coordinate of the pawn game."""

def tables_build(
    rows: int,
    cols: int,
    out: Union[str, PathLike[str]],
    threads: Optional[int],
    progress: Optional[Callable[[int, int, int, int], None]],
    own_bar: bool,
    max_time: Optional[float],
    max_memory: Optional[int],
) -> Database: ...
