"""The exceptions of the grundy package."""

from typing import Any, Dict, Optional, Tuple, Union


class BudgetExceeded(RuntimeError):
    """A search ran out of a budget before it had an answer.

    Attributes:
        budget: the keyword argument that ran out: ``"max_positions"``,
            ``"max_time"`` or ``"max_memory"``.
        limit: its value.
        found: what the search found before it stopped, e.g. for
            ``clear.analyze`` ``{"positions_solved": 1000, "components":
            [...], "winner": "first", "value": None, "winning_moves":
            [...]}`` (every component whose value was found; who wins, and
            the winning moves found, when pairs of equal shapes or an
            outcome search prove them without the value, else ``None`` and
            ``[]``), or ``{"tiers": 12, "partial": path}`` for
            ``tables.build``.
    """

    def __init__(
        self,
        message: str,
        budget: str,
        limit: Optional[Union[int, float]],
        found: Dict[str, Any],
    ) -> None:
        super().__init__(message)
        self.budget = budget
        self.limit = limit
        self.found = found

    def __reduce__(self) -> Tuple[Any, ...]:
        # An exception pickles as its class called with `args`, here the
        # message alone: the other arguments travel too, so that a worker
        # of a process pool can send the error back.
        return (type(self), (self.args[0], self.budget, self.limit, self.found), self.__dict__)

    def __repr__(self) -> str:
        # As it is made, so that a notebook shows which budget ran out.
        found = ", ".join(f"{k!r}: {_short(v)}" for k, v in self.found.items())
        return (
            f"{type(self).__name__}({self.args[0]!r}, budget={self.budget!r}, "
            f"limit={self.limit!r}, found={{{found}}})"
        )

    def __str__(self) -> str:
        message = super().__str__()
        extra = ", ".join(f"{k}={_short(v)}" for k, v in self.found.items())
        return f"{message}; found: {extra}" if extra else message


def _short(value: Any) -> str:
    if isinstance(value, list):
        return f"{len(value)} item" if len(value) == 1 else f"{len(value)} items"
    return repr(value)


class BoardTooLarge(BudgetExceeded, ValueError):
    """A board refused before any search because it passes the memory
    budget: its text, its analysis, or (for ``engine_move``) its cells
    alone would take more than ``max_memory``. A :class:`BudgetExceeded`
    (``budget`` ``"max_memory"``, ``limit`` the bytes allowed, ``found``
    ``{"positions_solved": 0}``), as ``grundy clear`` refuses such a board
    with the budget's exit status 3; and a ``ValueError``, as the input's
    other refusals are."""
