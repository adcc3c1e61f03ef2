"""The examples in the docstrings of every public module run as written
and print what they show (`help(grundy.pawn)` shows no example without its
answer)."""

import doctest
import importlib

import pytest

MODULES = ["grundy", "grundy._data", "grundy.clear", "grundy.split", "grundy.pawn", "grundy.sum", "grundy.tables"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_print_what_they_show(name):
    module = importlib.import_module(name)
    # No shared globals and no ELLIPSIS: each example imports what it uses
    # and shows its whole output.
    failed, attempted = doctest.testmod(module, verbose=False, report=True, optionflags=0)
    assert failed == 0, f"{failed} of {attempted} examples of {name} failed (see above)"
