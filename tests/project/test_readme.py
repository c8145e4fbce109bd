"""The README's examples run as written (they are the documented public API)."""

import doctest
import re
from pathlib import Path

from machina_nb.views.app import TAB_TITLES

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples_run():
    result = doctest.testfile(str(README), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_lists_the_apps_tabs_in_order():
    """The README's "What is in the explorer" list names every tab the app has, in its order,
    and says how many."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## What is in the explorer", 1)[1].split("\n## ", 1)[0]
    assert tuple(re.findall(r"^- \*\*(.+?)\*\*:", section, re.M)) == TAB_TITLES
    words = {8: "eight", 9: "nine", 7: "seven"}
    assert f"has {words[len(TAB_TITLES)]} tabs" in section
