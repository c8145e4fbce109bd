"""Golden playthroughs: seeded games written as text (actions, dice, events with their rules)
and diffed line by line. Set MACHINA_REGENERATE=1 to rewrite the files after a deliberate change."""

import difflib
import os
import random
from pathlib import Path

import pytest
from engine_cases import CHAPTER, NEXT_CHAPTER, SHIVERS, SURGE, WHISPER, explorer, monster

from machina_nb.rules.analysis.transcript import transcript
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.engine.actions import EndTurn, legal_actions
from machina_nb.rules.engine.chance import SeededDice
from machina_nb.rules.engine.game import History, new_game, replay
from machina_nb.rules.rulings import Rules

HERE = Path(__file__).parents[1] / "playthroughs"
BOARD = parse_map(
    "+-+-+-+-+-+-+-+\n"
    "|. . s . . c .|\n"
    "+ + + + +-+ + +\n"
    "|. . . . . . h|\n"
    "+ + + +D+ + + +\n"
    "|. . r . . . .|\n"
    "+ + + + + + + +\n"
    "|s . . . v . s|\n"
    "+-+-+-+-+-+-+-+\n")


ITEM_BOARD = parse_map(
    "+-+-+-+-+-+-+-+\n"
    "|. c . s . w .|\n"
    "+ + + + + + + +\n"
    "|. . . . . . h|\n"
    "+ + + +D+ + + +\n"
    "|. g . . . c .|\n"
    "+ + + + + + + +\n"
    "|s . . . v . s|\n"
    "+-+-+-+-+-+-+-+\n")


def play(preset: str, seed: int, rounds: int = 3, board=BOARD, items=()) -> History:
    """A seeded game: explorers take random legal actions, ending turns after a few."""
    rules = Rules.preset(preset)
    game = new_game(board, [(explorer("ann", stamina=4), (0, 0)), (explorer("bo"), (6, 3))],
                    (CHAPTER, NEXT_CHAPTER), monsters=[monster("ghoul"), monster("brute",
                                                                                health=3)] * 3,
                    horror_events=(SHIVERS, SURGE), explorer_events=(WHISPER,), rules=rules,
                    seed=seed, items=items)
    history, dice, policy = History.start(game, rules), SeededDice(seed), random.Random(seed)
    while history.state.round <= rounds and not history.state.over:
        actions = legal_actions(history.state, rules)
        ends = [a for a in actions if isinstance(a, EndTurn)]
        action = ends[0] if ends and policy.random() < 0.3 else policy.choice(actions)
        history = history.apply(action, dice, choose=lambda need: policy.choice(need.options))
    return history


def assert_golden(text: str, path) -> None:
    """The transcript equals its golden file (written when missing or MACHINA_REGENERATE is set)."""
    if os.environ.get("MACHINA_REGENERATE") or not path.exists():
        path.write_text(text)
    golden = path.read_text()
    diff = "\n".join(difflib.unified_diff(golden.splitlines(), text.splitlines(), "golden",
                                          "now", lineterm=""))
    assert text == golden, diff


@pytest.mark.parametrize("preset, seed, items", [("manual", 1, False), ("v3_5", 2, False),
                                                ("player_aid", 3, False), ("manual", 7, True)])
def test_golden_playthrough(preset, seed, items):
    """The seed-7 game has action spaces next to the explorers and the item decks (p30-37)."""
    history = play(preset, seed, board=ITEM_BOARD if items else BOARD,
                   items=tuple(load_all_items().values()) if items else ())
    assert_golden(transcript(history), HERE / f"{preset}_seed{seed}{'_items' if items else ''}.txt")
    assert replay(history.initial, history.log(), history.rules) == history.state


def test_undo_redo_and_the_log():
    history = play("manual", 1, rounds=1)
    n = history.position
    back = history.undo().undo()
    assert back.position == n - 2 and back.state == history.steps[n - 3].state
    assert back.redo().redo().state == history.state
    assert len(back.log()) == n - 2 and len(back.events()) < len(history.events())
    branched = back.apply(legal_actions(back.state, back.rules)[-1], SeededDice(9))
    assert len(branched.steps) == n - 1          # the redo steps are dropped


def test_history_answers_a_choice_made_after_a_roll():
    """The spawn roll succeeds, then the tied spawn spaces need the players' choice."""
    from dataclasses import replace as _replace

    from machina_nb.rules.engine.actions import Choose, RollSpawn
    from machina_nb.rules.engine.chance import ScriptedDice
    game = new_game(parse_map("+-+-+-+\n|s . s|\n+-+-+-+\n"),
                    [(explorer("ann"), (1, 0))], (CHAPTER,), monsters=[monster("ghoul")])
    game = _replace(game, phase="spawn", spawn_rating=1)
    start = History.start(game, Rules())
    waiting = start.apply(RollSpawn("ann"), ScriptedDice([5]))
    assert waiting.state.decision.options == ((0, 0), (2, 0)) and not game.monsters_in_play
    assert waiting.state == _replace(game, decision=waiting.state.decision)
    assert [e.kind for e in waiting.steps[-1].events][:1] == ["spawn_roll"]
    chosen = start.apply(RollSpawn("ann"), ScriptedDice([5]), choose=lambda need: need.options[-1])
    assert chosen.state.monsters_in_play[0].position == (2, 0)
    assert chosen.steps[-1].rolls == (5,) and chosen.steps[-1].action.choices == ((2, 0),)
    assert replay(chosen.initial, chosen.log(), chosen.rules) == chosen.state
    stepped = waiting.apply(Choose(option=(2, 0)), ScriptedDice())      # the choice as a step
    assert stepped.state == chosen.state and stepped.steps[-1].rolls == ()
    assert not any(e.kind == "spawn_roll" for e in stepped.steps[-1].events)   # told once
    assert replay(stepped.initial, stepped.log(), stepped.rules) == stepped.state
