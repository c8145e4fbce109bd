"""The engine modules' docstring examples run (tiny maps, one line each)."""

import doctest
import importlib

import pytest

MODULES = ["abilities", "actions", "cardplay", "cards", "chance", "effects", "game", "monsters",
           "phases", "state", "terrain", "worked", "items", "itemcards", "inventory"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"machina_nb.rules.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
