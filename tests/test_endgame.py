"""The end of the game (manual p3, p28): the explorers win when the last chapter is passed
and lose when the last explorer is destroyed. Golden playthroughs to a win and to a loss
under the manual (1.0) and the 3.5 update, diffed line by line as in test_playthrough.py."""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from test_playthrough import assert_golden
from engine_cases import CHAPTER, NEXT_CHAPTER, SHIVERS, SURGE, WHISPER, explorer, monster
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.engine.actions import ChapterSpace, EndTurn, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice, SeededDice
from machina_nb.rules.engine.effects import destroy_unit, next_chapter
from machina_nb.rules.engine.game import History, new_game, replay, transcript
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

HERE = Path(__file__).parent / "playthroughs"

# Ann starts at (0, 0) next to the chapter space (1, 0); Bo at (6, 3) next to (5, 3).
WIN_BOARD = parse_map(
    "+-+-+-+-+-+-+-+\n"
    "|. h . s . . .|\n"
    "+ + + + + + + +\n"
    "|. . . . . . .|\n"
    "+ + + + + + + +\n"
    "|. . . . . . .|\n"
    "+ + + + + + + +\n"
    "|s . . . . h .|\n"
    "+-+-+-+-+-+-+-+\n")

# Two frail explorers among spawn spaces: the monsters soon destroy them.
LOSS_BOARD = parse_map(
    "+-+-+-+-+-+\n"
    "|s . . . s|\n"
    "+ + + + + +\n"
    "|. . . . .|\n"
    "+ + + + + +\n"
    "|s . . . s|\n"
    "+-+-+-+-+-+\n")


def _game(preset: str, seed: int, ending: str):
    rules = Rules.preset(preset)
    if ending == "win":
        explorers = [(explorer("ann", stamina=4), (0, 0)), (explorer("bo"), (6, 3))]
        board, chapters = WIN_BOARD, (CHAPTER, NEXT_CHAPTER)
    else:
        explorers = [(explorer("ann", health=1, armor=0, will=0), (2, 1)),
                     (explorer("bo", health=1, armor=0, will=0), (2, 2))]
        board, chapters = LOSS_BOARD, (replace(CHAPTER, spawn_rating=2), NEXT_CHAPTER)
    game = new_game(board, explorers, chapters,
                    monsters=[monster("ghoul", stamina=5), monster("brute", health=3)] * 3,
                    horror_events=(SHIVERS, SURGE), explorer_events=(WHISPER,), rules=rules,
                    seed=seed)
    if ending == "win":         # enough essence for an unlit chapter space each (manual p36)
        for who in ("ann", "bo"):
            game = game.update_unit(who, essence=3)
    return game, rules


def play_to_the_end(preset: str, seed: int, ending: str, rounds: int = 12) -> History:
    """Explorers activate a chapter space when they can (win) or end their turns (loss)."""
    game, rules = _game(preset, seed, ending)
    history, dice, policy = History.start(game, rules), SeededDice(seed), random.Random(seed)
    while history.state.round <= rounds and not history.state.over:
        actions = legal_actions(history.state, rules)
        chapter = [a for a in actions if isinstance(a, ChapterSpace)]
        ends = [a for a in actions if isinstance(a, EndTurn)]
        if ending == "win" and chapter:
            action = chapter[0]
        elif ending == "loss" and ends:
            action = ends[0]
        else:
            action = policy.choice(actions)
        history = history.apply(action, dice, choose=lambda need: policy.choice(need.options))
    return history


@pytest.mark.parametrize("preset", ["manual", "v3_5"])
@pytest.mark.parametrize("ending, over", [("win", "won"), ("loss", "lost")])
def test_manual_p3_p28_golden_playthrough_to_the_end(preset, ending, over):
    history = play_to_the_end(preset, 5, ending)
    assert history.state.over == over
    assert not legal_actions(history.state, history.rules)       # nothing after the end
    text = transcript(history)
    assert_golden(text, HERE / f"{preset}_seed5_{ending}.txt")
    last = "the explorers win" if ending == "win" else "the game is lost"
    assert last in text.splitlines()[-1] or any(last in line for line in text.splitlines()[-3:])
    assert replay(history.initial, history.log(), history.rules) == history.state


def test_manual_p28_passing_the_last_chapter_wins_the_game():
    game, rules = _game("manual", 1, "win")
    r = new_resolution(game, rules, ScriptedDice())
    next_chapter(r, "the first chapter space")
    assert r.state.chapter == NEXT_CHAPTER and not r.state.over
    next_chapter(r, "the second chapter space")
    assert r.state.over == "won"
    assert any(e.kind == "game" and "manual p28" in e.rule for e in r.events)


def test_manual_p3_p19_the_last_explorer_destroyed_loses_the_game():
    game, rules = _game("manual", 1, "loss")
    r = new_resolution(game, rules, ScriptedDice())
    destroy_unit(r, "ann", None, "test")
    assert not r.state.over and r.state.scheming             # monsters scheming (p15, p19)
    destroy_unit(r, "bo", None, "test")
    assert r.state.over == "lost"
    assert any(e.kind == "game" and "manual p3" in e.rule for e in r.events)
