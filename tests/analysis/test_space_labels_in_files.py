"""A situation file may give a space as ``[x, y]`` or as the board labels it (``"B3"``): unit
positions, the spaces a question names (``from``, ``to``, ``target``...), the players'
``choices`` and the ``[game]`` tokens (``lit``, ``destroyed``, ``exit_token``). Both forms give
the same answers; a label that names no space is one line with file:line:col."""

from __future__ import annotations

import re

import pytest
from cli_runs import ROOT, machina

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.errors import ContentError

SITUATIONS = ROOT / "content" / "situations"

SIGHT = '''kind = "situation"
id = "labels"
title = "Kim looks past a corner"
rules = "manual"
map = """
+-+-+-+-+-+
|. . . . .|
+ +-+-+D+ +
|. r . . s|
+-+-+-+-+-+
"""

[unit.K]
card = "kim"
at = {kim}

[unit.L]
card = "lorrai"
at = {lorrai}

[[question]]
name = "sees_the_spawn_space"
ask = "sight"
from = "K"
to = {spawn}

[[question]]
name = "adjacent_spaces"
ask = "adjacent"
from = {corner}
to = {below}
'''


def _values(text: str) -> list:
    return [a.value for a in ask(situation_from_text(text, "labels.toml"))]


def test_labels_and_points_give_the_same_answers_in_unit_positions_and_questions():
    points = SIGHT.format(kim="[0, 0]", lorrai="[3, 1]", spawn="[4, 1]", corner="[0, 0]",
                          below="[0, 1]")
    labels = SIGHT.format(kim='"A1"', lorrai='"D2"', spawn='"E2"', corner='"A1"',
                          below='"A2"')
    assert _values(labels) == _values(points)
    s = situation_from_text(labels, "labels.toml")
    assert [tuple(u.position) for u in s.units] == [(0, 0), (3, 1)]
    assert tuple(s.questions[1].get("from")) == (0, 0)


@pytest.mark.parametrize("name, pattern", [
    ("seal_lights", r"\[5, 0\]"),                   # the players' choices
    ("blocked_chapter_space", r"\[1, 0\]"),         # [game] lit
])
def test_shipped_situations_answer_the_same_with_labels(name, pattern):
    text = (SITUATIONS / f"{name}.toml").read_text(encoding="utf-8")
    relabelled = re.sub(pattern, lambda m: '"' + {"[5, 0]": "F1", "[1, 0]": "B1"}[m[0]] + '"',
                        text)
    assert relabelled != text
    assert _values(relabelled) == _values(text)


def test_game_tokens_take_labels():
    text = (SITUATIONS / "blocked_chapter_space.toml").read_text(encoding="utf-8")
    s = situation_from_text(text.replace("lit = [[1, 0]]", 'lit = ["B1"]'), "x.toml")
    assert s.base.lit == situation_from_text(text, "x.toml").base.lit


@pytest.mark.parametrize("old, new, words", [
    ("at = {lorrai}", 'at = "D0"', "'D0' is not a space as the board labels it"),
    ("to = {below}", 'to = "A0"', "'A0' is not a space as the board labels it"),
    ("to = {below}", 'to = "Z9"', "'Z9' is off the 5x2 board"),
])
def test_a_bad_label_is_one_line_with_file_line_col(old, new, words):
    text = SIGHT.replace(old, new).format(kim="[0, 0]", lorrai="[3, 1]", spawn="[4, 1]",
                                          corner="[0, 0]", below="[0, 1]")
    line = text.splitlines().index(new) + 1
    with pytest.raises(ContentError) as failed:
        situation_from_text(text, "labels.toml")
    message = str(failed.value)
    assert message.startswith(f"labels.toml:{line}:6: "), message
    assert words in message and "\n" not in message


def test_a_bad_label_in_game_tokens_names_its_place(tmp_path):
    text = (SITUATIONS / "blocked_chapter_space.toml").read_text(encoding="utf-8")
    path = tmp_path / "bad.toml"
    path.write_text(text.replace("lit = [[1, 0]]", 'lit = ["B0"]'), encoding="utf-8")
    result = machina("validate", str(path))
    assert result.returncode != 0
    line = text.splitlines().index("lit = [[1, 0]]") + 1
    assert re.search(rf"{re.escape(str(path))}:{line}:\d+: 'B0' is not a space as the board "
                     "labels it", result.stderr), result.stderr
    assert result.stderr.count("\n") <= 1
