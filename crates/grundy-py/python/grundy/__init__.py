"""grundy: Sprague-Grundy values, winners and winning moves of impartial
games on grids, from Python.

Games: ``grundy.clear`` (rectangle clearing, boards up to 64 cells, sums),
``grundy.split`` (the splitting game), ``grundy.pawn`` (a pawn among
impassable cells), ``grundy.sum`` (a row of boards with range queries and
updates) and ``grundy.tables`` (shape databases).

Conventions (as the command line's JSON): rows and columns count from 0,
rectangles are ``top``/``left``/``bottom``/``right`` inclusive, pawns use
``x``/``y``, boards and pawns are numbered from 0. Bad input raises
``ValueError`` with the command line's located message; a search that runs
out of ``max_positions``, ``max_time`` or ``max_memory`` raises
:class:`BudgetExceeded`, and so does a board refused for ``max_memory``
before any search (:class:`BoardTooLarge`, also a ``ValueError``). Long calls release the GIL and stop on Ctrl-C.
:func:`to_data` turns any result into plain data for ``json.dumps``.
"""

from ._errors import BoardTooLarge, BudgetExceeded
from ._data import to_data
from . import clear, pawn, split, sum, tables

__all__ = ["BoardTooLarge", "BudgetExceeded", "clear", "pawn", "split", "sum", "tables", "to_data"]
