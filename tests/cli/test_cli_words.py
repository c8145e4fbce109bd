"""What the command line prints for people reads as plain words: every subcommand that reads a
situation, run over every shipped situation, prints no engine id, no ``(x, y)`` pair, no
``name=value`` pair, no switch id, no ``None`` and no repr. The JSON output keeps ids and
``(x, y)`` for scripts.

The sweep is bounded: ``show``, ``validate``, ``link``, ``ask`` and ``risk`` run on every
situation, ``sensitivity`` (which asks every question under every reading) on every fourth.
"""

from __future__ import annotations

import json
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest
from cli_runs import ROOT, machina

from machina_nb.rules.analysis import catalog

SITUATIONS = sorted((ROOT / "content" / "situations").glob("*.toml"))

# what a person should never read: each pattern with the reason it is refused
_REFUSED = {
    "a point (x, y)": r"\(-?\d+(/\d+)?, ?-?\d+(/\d+)?\)",
    "a list [x, y]": r"\[-?\d+, ?-?\d+\]",
    "a name=value pair": r"\b[a-z_][a-z0-9_.]* ?= ?[a-z0-9_]+\b",
    "an engine id": r"\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b",
    "a numbered unit id": r"\b[a-z][a-z_]*-\d+\b(?<!level-\d)(?<!rating-\d)",
    "a switch id": r"\b[a-z_]+\.[a-z_]+\b",
    "None": r"\bNone\b",
    "a repr": r"<[A-Za-z_.]+ |\{'|\w+\(\w+=",
}


@cache
def _unit_ids() -> re.Pattern[str]:
    """The shipped unit cards' ids (``kim``, ``mi_go``) as whole words."""
    ids = sorted(catalog.unit_cards(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def _own_words(path: Path, text: str) -> str:
    """The output without what the file itself names: its path and its questions' names (the
    names a player gave them, printed so they can find the question in the file)."""
    text = text.replace(str(path.relative_to(ROOT)), "FILE")
    for q in tomllib.loads(path.read_text(encoding="utf-8")).get("question", []):
        text = re.sub(rf"(?<![\w-]){re.escape(q['name'])}(?![\w-])", "QUESTION", text)
    return text


def _refused(path: Path, text: str) -> list[str]:
    found = []
    for line in _own_words(path, text).splitlines():
        if line.startswith("http"):        # a share link: its code is not words
            continue
        for why, pattern in _REFUSED.items():
            found += [f"{why} {m[0]!r} in: {line[:200]}" for m in re.finditer(pattern, line)]
        found += [f"a unit id {m[0]!r} in: {line[:200]}" for m in _unit_ids().finditer(line)]
    return found


def _active_explorer(path: Path) -> str | None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    active = data.get("turn", {}).get("active")
    card = data.get("unit", {}).get(active, {}).get("card")
    unit = catalog.unit_cards().get(card)
    return active if unit is not None and unit.kind == "explorer" else None


def _runs(path: Path) -> list[tuple[str, ...]]:
    file = str(path.relative_to(ROOT))
    runs = [("show", file), ("validate", file), ("link", file), ("ask", file)]
    if (letter := _active_explorer(path)) is not None:
        runs.append(("risk", file, "--unit", letter))
    if SITUATIONS.index(path) % 4 == 0:
        runs.append(("sensitivity", file))
    return runs


@pytest.mark.parametrize("path", SITUATIONS, ids=lambda p: p.stem)
def test_every_command_speaks_plain_words_on_every_shipped_situation(path):
    for args in _runs(path):
        result = machina(*args)
        assert result.returncode == 0, (args, result.stderr)
        assert _refused(path, result.stdout) == [], args


def test_the_sweep_refuses_what_it_should():
    shared = ROOT / "content" / "situations" / "shared_seal.toml"
    for bad in ["kim pays 2 stamina", "K moves to (1, 0)", "threat.floor = clamp_one",
                "switch threat.floor", "value None", "mi_go-1 spawns", "lay_a_seal",
                "<Event kind", "{'K': 1}"]:
        assert _refused(shared, bad), bad
    assert _refused(shared, "Kim (K) pays 2 stamina for sealing B1; Mi-Go 1 spawns on C2; "
                            "5/6 = 83.3%; a level-2 card; with_phillip (play)") == []


def test_shared_seal_says_who_pays_by_name_and_where_by_label():
    result = machina("ask", "content/situations/shared_seal.toml")
    assert "Phillip (P) contributes 2 essence to sealing B1" in result.stdout
    assert "ruling: threat never drops below its first position" in result.stdout


def test_json_keeps_ids_and_points_for_scripts():
    result = machina("ask", "content/situations/shared_seal.toml", "--json")
    answers = json.loads(result.stdout)["answers"]
    assert answers["with_phillip"]["essence"] == {"K": 0, "P": 1}
    risk = json.loads(machina("risk", "content/situations/risk_map.toml", "--unit", "K",
                              "--json").stdout)
    assert all(re.fullmatch(r"\(\d+, \d+\)", space) for space in risk["spaces"])
