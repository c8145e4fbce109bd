"""docs/RULES_INDEX.md stays honest: every module and test it names exists, each entry comes
once, and, with the rule sources beside the checkout, its entries and pages are exactly those
of the index at the end of the manual."""

import os
import re
from pathlib import Path

import pytest
from seeds import seed_text

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "RULES_INDEX.md"
MANUAL = seed_text("manual")
ROW = re.compile(r"^\| (?P<entry>[^|]+?) \| (?P<pages>[^|]+?) \| `(?P<module>[^`]+)` \| "
                 r"`(?P<file>tests/[^`:]+)::(?P<test>test_\w+)(?:\[(?P<param>[^\]]+)\])?` \|$")


def rows():
    lines = [line for line in INDEX.read_text(encoding="utf-8").splitlines()
             if line.startswith("| ") and not line.startswith(("| entry", "|---"))]
    parsed = [ROW.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m][:3]
    return parsed


def test_every_module_and_test_the_index_table_names_exists():
    for row in rows():
        module = ROOT / "machina_nb" / "rules" / row["module"]
        assert module.is_file(), row["module"]
        test_file = ROOT / row["file"]
        assert test_file.is_file(), row["file"]
        assert re.search(rf"^def {row['test']}\(", test_file.read_text(encoding="utf-8"),
                         re.M), f"{row['file']} has no {row['test']}"
        if row["param"]:        # a worked example: its file ships
            assert (ROOT / "content" / "examples" / f"{row['param']}.toml").is_file()
        assert re.fullmatch(r"\d+(–\d+)?(, \d+(–\d+)?)*", row["pages"]), row["pages"]


def test_each_index_entry_comes_once_and_the_coverage_line_counts_them():
    entries = [row["entry"] for row in rows()]
    assert len(entries) == len(set(entries))
    text = INDEX.read_text(encoding="utf-8")
    assert f"{len(entries)} of {len(entries)} entries are rule-bearing" in text


def manual_index() -> dict[str, str]:
    """The manual's index: entry -> pages, from the extracted text (entries end in pages)."""
    text = MANUAL.read_text(encoding="utf-8")
    body = text[text.index("\nINDEX\n"):text.index("\nGAME ROUND")]
    found = re.findall(r"^(.+?) \(.*\) (\d[\d–, ]*)$", body, re.M)
    return {name.strip(): pages.strip() for name, pages in found}


def test_the_table_lists_exactly_the_manuals_index_with_its_pages():
    if not MANUAL.exists():
        message = ("the rule sources are not beside the checkout (set MACHINA_SEEDS to the "
                   "seeds folder)")
        if os.environ.get("MACHINA_REQUIRE_SEEDS"):
            pytest.fail(message + " (MACHINA_REQUIRE_SEEDS is set: CI must run this check)")
        pytest.skip(message)
    table = {row["entry"]: row["pages"] for row in rows()}
    assert table == manual_index()
