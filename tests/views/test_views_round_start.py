"""The Round tab starts a round from the demo game, a shipped situation or the Analysis
board's position, and its log reads one line per action with a summary closing each phase.

Rules: manual p10 (the round), p12-16 (its phases), p13 (spawn rolls).
"""

from __future__ import annotations

import re

import pytest

from machina_nb.rules.analysis.situation import load_situations, situation_from_text
from machina_nb.rules.engine.actions import legal_actions
from machina_nb.rules.rulings import Rules
from machina_nb.views.app import Explorer, demo_layout
from machina_nb.views.round_start import ANALYSIS, DEMO, RoundTab
from machina_nb.views.round_words import action_text


@pytest.fixture
def tab():
    return RoundTab(demo_layout(), Rules())


def _pick(tab, situation_id):
    s = load_situations()[situation_id]
    tab.start_from.value = f"situation: {s.title}"
    return s


def test_a_round_starts_from_a_shipped_situation_with_its_letters(tab):
    s = _pick(tab, "fallen_mid_turn")
    assert tab.start()
    for u in s.units:
        assert tab.stepper.labels[u.id] == u.letter   # the same letter as on the Analysis board
    assert "Playing on from situation" in tab.message.value


def test_the_analysis_board_position_needs_that_tab_open(tab):
    tab.start_from.value = ANALYSIS
    assert not tab.start()
    assert "Analysis board" in tab.message.value and "Traceback" not in tab.message.value


def test_the_app_starts_a_round_from_the_analysis_board():
    app = Explorer()
    app.build_tab(7)                                    # the Analysis board
    app.build_tab(2)                                    # the Round tab
    app.round_tab.start_from.value = ANALYSIS
    assert app.round_tab.start(), app.round_tab.message.value
    board = situation_from_text(app.analysis.situation_text())
    for u in board.units:
        assert app.round.labels[u.id] == u.letter


def test_rules_reach_the_round_being_played(tab):
    rules = Rules().replace({"spawn10.roll_order": "seating"})
    tab.rules = rules
    assert tab.stepper.rules == rules


def test_the_demo_round_logs_one_line_per_action_and_closes_each_phase(tab):
    assert tab.start_from.value == DEMO
    stepper = tab.stepper
    stepper.dice_mode.value = "scripted"
    stepper.script.value = "2 3"                       # both spawn rolls fail
    stepper.next_phase()                               # the explorers pass
    stepper.next_phase()                               # the spawn rolls, nobody asked who first
    log = stepper.event_log.value
    assert log.count("class='log-action'") == len(stepper.history.steps)
    assert "End of the explorer phase" in log and "End of the spawn phase" in log
    assert "spawn rating 6 → 4" in log
    assert "Phillip begins their turn" not in log      # the action's own sentence says it
    assert not re.search(r"\b[a-z_]+\.[a-z_]+\b", re.sub(r"<[^>]+>", " ", log)), \
        "no switch names in the log"


@pytest.mark.parametrize("sid", ["shared_seal", "inventory_steps", "contributor_chain"])
def test_manual_p19_p32_every_legal_action_reads_differently_in_the_round_tab(sid):
    """Each contributor split, inventory arrangement and trade the engine offers is its own
    line in the action picker: no two legal actions read the same."""
    situation = load_situations()[sid]
    rules = situation.rules()
    state = situation.state_at(rules)
    said = [action_text(state, rules, a) for a in legal_actions(state, rules)]
    assert len(said) == len(set(said)), sorted(said)
