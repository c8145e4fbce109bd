"""A step of the play notation may name a space as the board labels it (``B3``, ``AA12``) as
well as ``(x, y)``: both read as the same action and a situation plays the same either way. A
label that names no space, a mistyped one or one off the board is refused in one line naming
the step and the label.

Rules: manual p12 (explorer actions), p34-37 (the map actions).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from cli_runs import ROOT, machina
from hypothesis import given, settings
from hypothesis import strategies as st
from test_step_text import letters_of, random_positions

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.notation import NotationError, parse_step
from machina_nb.rules.analysis.situation import load_situations, situation_from_text
from machina_nb.rules.analysis.step_text import StepRefused, read_action, write_action
from machina_nb.rules.board.labels import space_name
from machina_nb.rules.engine.actions import Choose, legal_actions
from machina_nb.rules.errors import ContentError

SITUATIONS = load_situations()
SITUATION_FILES = ROOT / "content" / "situations"
_PAIR = re.compile(r"\((\d+), (\d+)\)")


def labelled(text: str) -> str:
    """``text`` with every ``(x, y)`` the board labels written as that label (``(1, 2)`` ->
    ``B3``); a space west or north of the first column or row keeps ``(x, y)``."""
    return _PAIR.sub(lambda m: space_name((int(m[1]), int(m[2]))), text)


def _labelled_round_trip(situation, state, rules) -> int:
    """Every legal action written, its spaces relabelled, read back: the same action."""
    letters = letters_of(situation, state)
    relabelled = 0
    for action in legal_actions(state, rules):
        if isinstance(action, Choose) or action.choices:
            continue
        text = write_action(action, state, rules, letters)
        with_labels = labelled(text)
        assert parse_step(with_labels).text == with_labels
        assert read_action(with_labels, state, rules, letters) == action, with_labels
        relabelled += with_labels != text
    return relabelled


def test_the_shipped_situations_offer_steps_that_name_spaces():
    relabelled = 0
    for s in SITUATIONS.values():
        rules = s.rules()
        relabelled += _labelled_round_trip(s, s.state_at(rules), rules)
    assert relabelled > 50


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(SITUATIONS)), st.integers(0, 2 ** 16), st.integers(1, 20))
def test_every_legal_action_reads_back_with_labels_for_its_spaces(sid, seed, steps):
    s = SITUATIONS[sid]
    for state in random_positions(s, seed, steps):
        _labelled_round_trip(s, state, s.rules())


@pytest.mark.parametrize("text, points", [
    ("K moves to B3 C3 (3, 2)", "K moves to (1, 2) (2, 2) (3, 2)"),
    ("K opens the door to AA12", "K opens the door to (26, 11)"),
    ("K activates B1 for a roll with 2 essence", "K activates (1, 0) for a roll with 2 essence"),
    ("K plays alternate on M and C1", "K plays alternate on M and (2, 0)"),
    ("K plays alternate on B2 and M", "K plays alternate on (1, 1) and M"),
    ("K plays hex_bolt on M destroying D4", "K plays hex_bolt on M destroying (3, 3)"),
])
def test_a_label_reads_as_its_space(text, points):
    assert replace(parse_step(text), text="") == replace(parse_step(points), text="")
    assert [p for p, _ in parse_step(text).points()] == [p for p, _ in parse_step(points).points()]


@pytest.mark.parametrize("text, bad", [
    ("K moves to B0", "B0"),                        # rows count from 1
    ("K moves to B3 c3", "c3"),                     # the board prints capitals
    ("K activates 3B", "3B"),
    ("K opens the door to B-1", "B-1"),
    ("K plays hex_bolt on AAAA1", "AAAA1"),
    ("K moves to B3C3", "B3C3"),
    ("K plays hex_bolt on M destroying B10000", "B10000"),
])
def test_a_label_that_names_no_space_is_one_line_naming_the_step_and_the_label(text, bad):
    with pytest.raises(NotationError) as refused:
        parse_step(text)
    message = refused.value.message
    assert message.startswith(f"{text!r} names {bad!r}, which is no space as the board "
                              "labels it"), message
    assert "\n" not in message
    assert refused.value.column == text.index(bad)


def test_a_label_off_the_board_is_refused_when_read_against_the_state():
    s = SITUATIONS["recharge_die"]
    rules = s.rules()
    state = s.state_at(rules)
    letters = {u.id: u.letter for u in s.units}
    for text, said in (("K moves to Z9", "'Z9'"), ("K activates (25, 8)", "(25, 8)")):
        with pytest.raises(StepRefused) as refused:
            read_action(text, state, rules, letters)
        assert str(refused.value) == f"{text!r} names {said}, which is off the board"


_STEPS = re.compile(r'^(?:steps = .*|\s+"[A-Z] .*)$', re.M)
"""The lines of a situation file that hold play steps."""


def _steps_labelled(text: str) -> str:
    return _STEPS.sub(lambda m: labelled(m[0]), text)


@pytest.mark.parametrize("name", sorted(
    p.stem for p in SITUATION_FILES.glob("*.toml")
    if _steps_labelled(text := p.read_text(encoding="utf-8")) != text))
def test_a_situation_plays_the_same_with_labels_in_its_steps(name):
    text = (SITUATION_FILES / f"{name}.toml").read_text(encoding="utf-8")
    relabelled = _steps_labelled(text)
    points = ask(situation_from_text(text, f"{name}.toml"))
    labels = ask(situation_from_text(relabelled, f"{name}.toml"))
    assert [(a.name, a.marks, a.options, a.rolls) for a in labels] == \
        [(a.name, a.marks, a.options, a.rolls) for a in points]
    assert [labelled(repr((a.value, a.why))) for a in labels] == \
        [labelled(repr((a.value, a.why))) for a in points]


PLAY = '''kind = "situation"
id = "labelled_steps"
title = "Kim walks along a corridor"
map = """
+-+-+-+-+-+
|K . . . .|
+-+-+-+-+-+
"""

[unit.K]
card = "kim"

[turn]
phase = "explorer"
active = "K"

[[question]]
name = "walk"
ask = "play"
steps = ["K moves to {first} {second}"]
report = ["positions", "stamina"]
'''


def test_a_play_question_takes_labels_and_points_alike():
    points = ask(situation_from_text(PLAY.format(first="(1, 0)", second="(2, 0)"), "p.toml"))
    labels = ask(situation_from_text(PLAY.format(first="B1", second="C1"), "l.toml"))
    assert labels[0].value == points[0].value
    assert labels[0].value["played"] == "all 1 step"
    assert labels[0].marks == points[0].marks


@pytest.mark.parametrize("first, words", [
    ("F1", "'F1' is off the 5x1 board"),
    ("B2", "'B2' is off the 5x1 board"),
    ("B0", "'K moves to B0 C1' names 'B0', which is no space as the board labels it"),
    ("b1", "'K moves to b1 C1' names 'b1', which is no space as the board labels it"),
])
def test_a_bad_label_in_a_play_step_is_one_line_at_its_place(first, words, tmp_path):
    text = PLAY.format(first=first, second="C1")
    with pytest.raises(ContentError) as refused:
        situation_from_text(text, "steps.toml")
    line = text.splitlines().index(f'steps = ["K moves to {first} C1"]') + 1
    column = len('steps = ["K moves to ') + 1
    assert str(refused.value).startswith(f"steps.toml:{line}:{column}: {words}")
    assert "\n" not in str(refused.value)
    path = tmp_path / "steps.toml"
    path.write_text(text, encoding="utf-8")
    result = machina("validate", str(path))
    assert result.returncode != 0
    assert f"{path}:{line}:{column}: {words}" in result.stderr
    assert result.stderr.count("\n") <= 1 and "Traceback" not in result.stderr
