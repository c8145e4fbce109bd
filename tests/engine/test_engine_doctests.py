"""The engine modules' docstring examples run (tiny maps, one line each)."""

import doctest
import importlib

import pytest

MODULES = ["cards.abilities", "engine.actions", "engine.cardplay", "cards.units", "engine.chance",
           "engine.effects", "engine.game", "engine.monsters", "engine.phases", "engine.state",
           "board.terrain", "engine.worked", "cards.items", "engine.inventory"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"machina_nb.rules.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
