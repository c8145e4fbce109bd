"""Every event of the golden playthroughs and the worked examples said in the app's words:
units by name, spaces by their labels, no ``(x, y)`` pair, no raw unit id, no template brace;
and the transcripts' words unchanged (the golden files are diffed by their own tests)."""

import re

import pytest
from test_endgame import play_to_the_end
from test_playthrough import ITEM_BOARD, play
from test_worked_examples import ENGINE_EXAMPLES

from machina_nb.rules.board.labels import corner_name, point_name
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.engine.phrases import dice_words, literal, say
from machina_nb.rules.engine.worked import example_state, load_example, run_example

_PAIR = re.compile(r"\(-?\d+(?:/\d+)?, -?\d+(?:/\d+)?\)")


def _said(event, unit_ids):
    names = {unit_id: f"Unit{n}" for n, unit_id in enumerate(sorted(unit_ids))}
    text = say(event, names, space=point_name, point=corner_name, dice=dice_words)
    assert not _PAIR.search(text), text
    assert "{" not in text and "}" not in text, text
    for unit_id in unit_ids:
        assert not re.search(rf"(?<![\w-]){re.escape(unit_id)}(?![\w-])", text), (unit_id, text)
    assert say(event) == event.text
    return text


def _histories():
    yield play("manual", 1)
    yield play("v3_5", 2)
    yield play("player_aid", 3)
    yield play("manual", 7, board=ITEM_BOARD, items=tuple(load_all_items().values()))
    for preset in ("manual", "v3_5"):
        for ending in ("win", "loss"):
            yield play_to_the_end(preset, 5, ending)


def test_every_event_of_the_golden_playthroughs_is_said_with_names_and_labels():
    count = 0
    for history in _histories():
        states = [history.initial] + [s.state for s in history.steps]
        ids = {u.id for s in states for u in s.units}
        for step in history.steps:
            for event in step.events:
                _said(event, ids)
                count += 1
    assert count > 500


@pytest.mark.parametrize("path", ENGINE_EXAMPLES, ids=lambda p: p.stem)
def test_every_event_of_a_worked_example_is_said_with_names_and_labels(path):
    example = load_example(path)
    state, ids = example_state(example)
    unit_ids = set(ids.values()) | {u.id for u in state.units}
    for result in run_example(example):
        events = list(result.events)
        for act in result.actions:
            events += list(act.events) + list(getattr(act, "then", ()))
            unit_ids |= {u.id for u in act.after.units}
        for event in events:
            _said(event, unit_ids)


def test_a_template_brace_in_event_words_is_kept_as_a_brace():
    template, who, where = literal("a {strange} word for ann at (1, 2)", ["ann"])
    assert (who, where) == (("ann",), ((1, 2),))
    assert "{{strange}}" in template
