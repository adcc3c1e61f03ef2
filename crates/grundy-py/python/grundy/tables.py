"""Shape databases: every rectangle-clearing shape that fits a box, solved
once bottom-up and stored (the ``.gdb`` files of ``grundy tables``).

>>> import grundy, numpy as np
>>> db = grundy.tables.open()            # the built-in 5 x 5 database
>>> boards = np.random.default_rng(1).integers(0, 2, size=(1000, 5, 5))
>>> values = db.values(boards)           # every core, GIL released
"""

import operator
import os
import sys
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _grundy
from ._inputs import MAX_CELLS, boards_texts, check_entries, check_limits
from .clear import DEFAULT_MAX_POSITIONS

#: The most worker threads :func:`build` takes (``grundy tables build
#: --threads`` too): more only slow a build, and a mistyped count would
#: start that many threads before any work.
MAX_THREADS: int = _grundy.TABLES_MAX_THREADS

Progress = Callable[[int, int, int, int], None]
PathLike = Union[str, "os.PathLike[str]"]


class Database:
    """A shape database, opened with :func:`open` or made by :func:`build`.

    Boards whose components all fit the box are answered by lookups; other
    components are searched under the budget keyword arguments.
    """

    def __init__(self, native: Any) -> None:
        if not isinstance(native, _grundy.Database):
            raise TypeError(
                f"Database wraps an opened database, not {type(native).__name__}: "
                "use grundy.tables.open(path) to open a file"
            )
        self._db = native

    @property
    def box(self) -> Tuple[int, int]:
        """The box ``(rows, cols)``: every shape fitting it either way round."""
        return self._db.box

    @property
    def path(self) -> str:
        """The file (``<built-in clear-5x5.gdb>`` for the built-in one)."""
        return str(self._db.path)

    def info(self, values: bool = False) -> Dict[str, Any]:
        """What ``grundy tables info PATH [--values]`` prints: ``path`` (a
        ``str``, as :attr:`path`), ``format_version``, ``box``, ``shapes``, ``tiers`` (per tier: ``shapes``, ``largest_value``,
        ``crc32`` per part), ``largest_value``, ``full_boards`` (``{(a, b):
        value}``), ``content_crc32``, ``parts`` (the files, as ``str``), and with ``values=True``
        ``shapes_per_value``."""
        info: Dict[str, Any] = self._db.info(values)
        # The built-in database has a name, not a file: paths are text here.
        info["path"] = self.path
        info["parts"] = [str(part) for part in info["parts"]]
        return info

    def value(
        self,
        board: Any,
        *,
        max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
        max_time: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> int:
        """The value of one board (any form ``grundy.clear.analyze`` takes;
        a list of boards is a sum).

        Boards past 64 cells are valued as ``grundy.clear.analyze`` values
        them, this database consulted, ``max_time`` 30 s when left out.

        Raises:
            grundy.BudgetExceeded: a budget ran out; past 64 cells its
                ``found["components"]`` has the value of each component
                found (``None`` for the others).
        """
        limits = check_limits(max_positions, max_time, max_memory)
        texts = boards_texts(board, limit=None, max_memory=limits[2])
        if _grundy.clear_fits_small(texts, limits[2]):
            return self._db.value_text(texts, *limits)
        return _grundy.clear_value_large(texts, *limits, self._db)

    def values(
        self,
        boards: Any,
        *,
        max_positions: Optional[int] = DEFAULT_MAX_POSITIONS,
        max_time: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Any:
        """The values of ``N`` boards given as an ``N x rows x cols`` array
        of bools or 0/1 numbers, as an ``int64`` array of length ``N``.

        Runs on every core with the GIL released. The budget applies to
        each worker's search (boards with components outside the database).
        """
        import numpy as np

        limits = check_limits(max_positions, max_time, max_memory)
        if not hasattr(boards, "__iter__") and not hasattr(boards, "__array__"):
            raise TypeError(
                "boards must be an N x rows x cols array or a list of boards, "
                f"not {type(boards).__name__}"
            )
        try:
            array = np.asarray(boards)
        except ValueError:
            raise ValueError(_uneven_boards(boards)) from None
        if array.ndim != 3:
            raise ValueError(
                f"boards: expected a 3-D array (N x rows x cols), got shape {tuple(array.shape)}"
                + (" (for one board use .value)" if array.ndim == 2 else "")
            )
        n, rows, cols = array.shape
        if rows == 0 or cols == 0:
            raise ValueError(f"boards: empty {rows} x {cols} boards")
        if rows * cols > MAX_CELLS:
            raise ValueError(
                f"boards: a {rows} x {cols} board has {rows * cols} cells; at most {MAX_CELLS}"
            )
        check_entries(array, "boards")
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        # Bit row * cols + col of a little-endian u64 per board.
        packed = np.zeros((n, 8), dtype=np.uint8)
        bits = np.packbits(array.reshape(n, rows * cols).astype(bool), axis=1, bitorder="little")
        packed[:, : bits.shape[1]] = bits
        out = self._db.values_packed(packed.tobytes(), n, rows, cols, *limits)
        return np.frombuffer(out, dtype="<u4").astype(np.int64)

    def __repr__(self) -> str:
        # A partitioned build is named by the path it was asked to write,
        # which a whole file may share: its parts tell the two apart.
        parts = self._db.part_count
        more = f", parts={parts}" if parts > 1 else ""
        return f"Database(box={self.box}, path={self.path!r}{more})"


def open(path: Optional[PathLike] = None) -> Database:
    """Open a database file (memory-mapped; every checksum is checked), the
    one database of a directory (a file, or the parts of one partitioned
    build, as ``grundy tables info DIR`` opens it), or the built-in 5 x 5
    database when ``path`` is None.

    Raises:
        FileNotFoundError: no such file; PermissionError: not readable
            (each an ``OSError`` with ``errno`` and ``filename``, as
            Python's ``open`` raises them).
        ValueError: not a database, a damaged one (``checksum mismatch in
            section tier K``), another format version; a directory without
            a database, or of several (``name one``).
    """
    # `fsdecode`: a path given as bytes too, as `discover` takes it.
    return Database(_grundy.tables_open(None if path is None else os.fsdecode(path)))


def discover(
    paths: "Optional[Union[PathLike, Sequence[PathLike]]]" = None,
) -> List[Database]:
    """The databases ``grundy clear``, ``sum`` and ``serve`` would consult,
    found the same way: ``paths`` (files, or directories of ``*.gdb``; one
    path, or a list of them),
    else the paths in ``GRUNDY_TABLES``, else every ``*.gdb`` in the default
    directory (``$XDG_DATA_HOME/grundy/tables`` or
    ``~/.local/share/grundy/tables``) when it exists. Each falls back on the
    built-in 5 x 5 database, as :func:`open` does. A damaged file found in a
    directory is skipped with a warning.

    Raises:
        FileNotFoundError: a path named (in ``paths`` or ``GRUNDY_TABLES``)
            does not exist; PermissionError, IsADirectoryError and other
            ``OSError`` subclasses: the file system refused a path named or
            a directory's listing (with ``errno`` and ``filename``).
        ValueError: a file named is damaged or not a database; a directory
            named holds no ``*.gdb`` file (``... is a directory without a
            database (*.gdb)``).
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        # One path given alone, not a list: a string would otherwise be
        # read a character a path.
        paths = [paths]
    names = [os.fsdecode(p) for p in (paths or [])]
    found, skipped = _grundy.tables_discover(names)
    for _path, reason in skipped:
        # The reason names the file, as the command line's warning words it.
        warnings.warn(f"skipping {reason}", stacklevel=2)
    return [Database(native) for native in found]


def _uneven_boards(boards: Any) -> str:
    """Why ``boards`` makes no N x rows x cols array: the first board of
    ragged rows, or of another size than the first board."""
    import numpy as np

    first = None
    for i, board in enumerate(boards):
        try:
            shape = np.asarray(board).shape
        except ValueError:
            # Rows of other lengths, or a row that is no row (a number).
            lengths = [len(row) if hasattr(row, "__len__") else None for row in board]
            j = next((j for j, n in enumerate(lengths) if n != lengths[0]), None)
            if j is None or lengths[0] is None or lengths[j] is None:
                return f"boards[{i}]: not rows x cols of 0/1 (rows of one length)"
            return (
                f"boards[{i}]: ragged rows: row {j} has {_cells(lengths[j])}, "
                f"row 0 has {_cells(lengths[0])}"
            )
        if first is None:
            first = shape
        elif shape != first:
            return f"boards[{i}] has shape {shape}, boards[0] {first}: every board has the same size"
    return "boards: not an N x rows x cols array"


def _parse_box(box: Union[str, Tuple[int, int]]) -> Tuple[int, int]:
    if isinstance(box, str):
        text = box.strip().replace("X", "x").replace("\u00d7", "x")
        parts = text.split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"box {box!r} is not ROWSxCOLS, e.g. '6x6'")
        return int(parts[0]), int(parts[1])
    try:
        rows, cols = box
    except (TypeError, ValueError):
        raise ValueError(f"box {box!r} is not (rows, cols) or 'ROWSxCOLS'") from None
    sides = []
    for side in (rows, cols):
        # Any integer, numpy's included (as budgets and cells take them),
        # but not a bool.
        try:
            side = operator.index(side) if not isinstance(side, bool) else None
        except TypeError:
            side = None
        if side is None or side < 1:
            raise ValueError(f"box {box!r}: rows and cols are positive integers")
        sides.append(side)
    return sides[0], sides[1]


class _Tqdm:
    """A tqdm bar per tier."""

    def __init__(self, tqdm: Any) -> None:
        self.tqdm = tqdm
        self.bar: Any = None
        self.tier = -1

    def __call__(self, tier: int, tiers: int, done: int, total: int) -> None:
        if tier != self.tier or self.bar is None:
            self.close()
            self.tier = tier
            self.bar = self.tqdm(total=total or None, desc=f"tier {tier}/{tiers}", unit=" shapes", leave=False)
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.n = done
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def build(
    box: Union[str, Tuple[int, int]],
    out: PathLike,
    threads: Optional[int] = None,
    progress: Union[bool, Progress] = True,
    *,
    max_time: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> Database:
    """Build the database of every shape that fits ``box`` into ``out``, as
    ``grundy tables build --box BOX --out OUT``, and open it.

    Args:
        box: ``"6x6"`` or ``(6, 6)``: at most 52 cells, the long side up to
            8 (or 16 when the short side is at most 4, 26 when at most 2).
        out: the file; ``OUT.partial`` holds the finished tiers until the
            build completes, and a stopped build resumes from it; then
            ``OUT.build.json`` records the build as the command line's
            does (the command, this call's CPU and wall time; no peak
            memory, as the process is the caller's).
        threads: worker threads, 1 to :data:`MAX_THREADS` (1024; default:
            every core).
        progress: ``True``: a tqdm bar when tqdm is installed, else the
            engine's own (a bar on a terminal, a line per tier elsewhere);
            ``False``: none; or a callable ``progress(tier, tiers, done,
            total)`` called a few times a second.
        max_time: stop after this many seconds, keeping the finished tiers
            (raises :class:`grundy.BudgetExceeded`; call again to resume);
            ``None`` or ``math.inf``: no limit.
        max_memory: stop once the process's resident memory (the
            interpreter's and the notebook's included) passes this many
            bytes, sampled every 10 ms, keeping the finished tiers (raises
            :class:`grundy.BudgetExceeded` with ``budget`` ``"max_memory"``;
            call again with more to resume). ``None``: what the process
            holds plus what the system has available as the build starts,
            as ``grundy tables build`` without ``--max-memory``.

    Raises:
        KeyboardInterrupt: Ctrl-C; the finished tiers stay in
            ``OUT.partial`` and the same call resumes from them.
        IsADirectoryError: ``out`` is a directory (before any work);
            FileNotFoundError, PermissionError and other ``OSError``
            subclasses: the file system refused ``out`` or
            ``OUT.partial`` (with ``errno`` and ``filename``).
    """
    rows, cols = _parse_box(box)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
        # A type error, as every other function gives for a bool or a float.
        raise TypeError(
            f"threads must be an integer from 1 to {MAX_THREADS}, not {type(threads).__name__}"
        )
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be an integer from 1 to {MAX_THREADS}, got {threads!r}")
    _, max_time, max_memory = check_limits(None, max_time, max_memory)
    callback: Optional[Progress] = None
    bar: Optional[_Tqdm] = None
    own_bar = False
    if callable(progress):
        callback = progress
    elif progress:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            own_bar = True
        else:
            bar = _Tqdm(tqdm)
            callback = bar
    try:
        native = _grundy.tables_build(
            rows, cols, os.fspath(out), threads, callback, own_bar, max_time, max_memory
        )
    finally:
        if bar is not None:
            bar.close()
    return Database(native)


__all__ = ["Database", "open", "build"]


def _cells(count: int) -> str:
    """`1 cell`, `3 cells`."""
    return f"{count} cell" if count == 1 else f"{count} cells"
