"""The odds modules: their doctests run, and they import no UI library (the rules core stays free of views)."""

import doctest
import subprocess
import sys

import pytest

from machina_nb.rules.odds import attacks, dice, genfunc, processes

MODULES = [dice, genfunc, attacks, processes]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    result = doctest.testmod(module, globs={**vars(module)}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_odds_modules_import_without_ui_libraries():
    code = ("import sys; sys.modules['ipywidgets'] = None; sys.modules['bokeh'] = None; "
            "import machina_nb.rules.odds.dice, machina_nb.rules.odds.genfunc, "
            "machina_nb.rules.odds.attacks, machina_nb.rules.odds.processes")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_public_functions_cite_the_rules(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if callable(obj) and getattr(obj, "__doc__", None) and obj.__module__ == module.__name__:
            assert "Rules: " in obj.__doc__, name
