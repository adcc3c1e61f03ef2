"""Plain data of the package's results, for ``json.dumps`` and any other
serialiser: :func:`grundy.to_data`."""

from typing import Any, Dict, Tuple

# The fields of each result class, by the class's name: its attributes, as
# the package documents them (0-based, as the command line's JSON).
_FIELDS: Dict[str, Tuple[str, ...]] = {
    "ClearMove": ("board", "top", "left", "bottom", "right"),
    "LargeMove": ("board", "top", "left", "bottom", "right"),
    "SplitMove": ("row", "col"),
    "PawnMove": ("pawn", "x", "y"),
    "Component": ("board", "cells", "value"),
    "ClearAnalysis": ("value", "winner", "winning_moves", "components", "board_values", "boards"),
    "LargeClearAnalysis": (
        "value",
        "winner",
        "winning_moves",
        "winning_moves_complete",
        "components",
        "classes",
        "stopped",
    ),
    "SplitAnalysis": ("value", "winner", "rows", "cols", "winning_moves", "candidates", "moves"),
    "PawnAnalysis": ("value", "values", "losing", "winner", "winning_moves", "winning_moves_complete"),
}


def to_data(obj: Any) -> Any:
    """``obj``, any result of this package (an analysis, a move, a
    component, an engine move's dict, a database's ``info()``, lists and
    tuples of them), as plain data that ``json.dumps`` writes: a move or a
    component as a dict of its fields (``{"board", "top", "left", "bottom",
    "right"}``, ``{"row", "col"}``, ``{"pawn", "x", "y"}``, ``{"board",
    "cells", "value"}``), an analysis as a dict of its attributes
    (``value``, ``winner``, ``winning_moves``, ...; a large board's
    components and classes as ``{"board", "cells", "value"}`` and
    ``{"cells", "count", "value"}``), tuples as lists, and a
    dict whose keys are not strings as a list of ``[key, value]`` pairs. Cells
    and rectangles stay 0-based, as in the command line's JSON.

    >>> import grundy, json
    >>> a = grundy.clear.analyze(["011", "000"])
    >>> json.dumps(grundy.to_data(a.winning_moves))
    '[{"board": 0, "top": 0, "left": 1, "bottom": 0, "right": 2}]'

    Raises:
        TypeError: for an object that is none of these.
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, dict):
        if all(isinstance(key, str) for key in obj):
            return {key: to_data(value) for key, value in obj.items()}
        return [[to_data(key), to_data(value)] for key, value in obj.items()]
    if isinstance(obj, (list, tuple)):
        return [to_data(item) for item in obj]
    kind = type(obj)
    fields = _FIELDS.get(kind.__name__)
    if fields is not None and kind.__module__.startswith("grundy"):
        data = {field: to_data(getattr(obj, field)) for field in fields}
        if kind.__name__ == "LargeClearAnalysis":
            # Its components and classes are tuples: named as the other
            # analyses' components are.
            data["components"] = [
                {"board": board, "cells": cells, "value": value}
                for board, cells, value in data["components"]
            ]
            data["classes"] = [
                {"cells": cells, "count": count, "value": value}
                for cells, count, value in data["classes"]
            ]
        return data
    # NumPy's integers and booleans, as a board's cells may be.
    if hasattr(obj, "item") and callable(obj.item) and type(obj).__module__ == "numpy":
        return obj.item()
    raise TypeError(f"to_data takes the package's results, not {kind.__name__}")
