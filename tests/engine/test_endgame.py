"""The end of the game (manual p3, p28): the explorers win when the last chapter is passed
and lose when the last explorer is destroyed. Golden playthroughs to a win and to a loss
under the manual (1.0) and the 3.5 update, diffed line by line as in test_playthrough.py."""

import random
from dataclasses import replace
from pathlib import Path

import pytest
from engine_cases import CHAPTER, NEXT_CHAPTER, SHIVERS, SURGE, WHISPER, explorer, monster
from test_playthrough import assert_golden
from tiles_for_tests import drawn_side, start_side

from machina_nb.rules.analysis.transcript import transcript
from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.board.playarea import PlayArea
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.engine.actions import ChapterSpace, EndTurn, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice, SeededDice
from machina_nb.rules.engine.effects import destroy_unit, next_chapter
from machina_nb.rules.engine.game import History, new_game, replay
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.state import GameState, MapSpec, Unit
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

HERE = Path(__file__).parents[1] / "playthroughs"

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


# --- enter endgame, victory, defeat (manual p3, p28) ----------------------------------------

# A fixed map whose direction symbol (E on the west ring) is the endgame's entry token.
ENDGAME_BOARD = parse_map(
    "+-+-+-+-+-+\n"
    "|. . . . .|\n"
    "+ + + + + +\n"
    "E. . . . .|\n"
    "+ + + + + +\n"
    "|. . . . .|\n"
    "+-+-+-+-+-+\n")
FINALE = Chapter("finale", "Finale", spawn_rating=5, horror_rating=2,
                 enters_play=(Effect("restore_essence", scope="explorers_all_tiles", amount=1),))
DOOM = Chapter("doom", "Doom", enters_play=(Effect("enter_endgame"),))


def endgame_game():
    return new_game(ENDGAME_BOARD, [(explorer("ann"), (4, 0)), (explorer("bo"), (4, 2))],
                    (CHAPTER, DOOM), endgame_chapters=(FINALE,), seed=1)


def test_manual_p8_the_endgame_cards_are_set_aside_at_setup():
    game = endgame_game()
    assert game.endgame == (FINALE,) and FINALE not in game.chapters.cards


def test_manual_p28_enter_endgame_seats_the_explorers_at_its_entry_and_plays_its_cards():
    """The chapter that enters the endgame sends every explorer to the entry token (the
    players choosing their spaces) and plays the endgame card, whose «enters play» (its setup)
    resolves and whose ratings are set."""
    game = endgame_game()
    r = new_resolution(game, Rules(), ScriptedDice(), choices=((0, 1), (0, 0)))
    next_chapter(r, "the chapter space")
    s = r.state
    assert s.chapter == FINALE and s.endgame == () and not s.over
    assert {s.unit("ann").position, s.unit("bo").position} == {(0, 1), (0, 0)}
    assert s.unit("ann").essence == 1 and s.spawn_rating == 5 and s.horror_rating == 2
    assert any(e.kind == "endgame" and "manual p28" in e.rule for e in r.events)


@pytest.mark.parametrize("op, over", [("victory", "won"), ("defeat", "lost")])
def test_manual_p3_p28_victory_and_defeat_effects_end_the_game(op, over):
    game = endgame_game()
    r = new_resolution(game, Rules(), ScriptedDice())
    resolve(r, (Effect(op),), None, None, "the finale")
    assert r.state.over == over
    assert not legal_actions(r.state, Rules())
    assert any(e.kind == "game" and "manual p28" in e.rule and "p3" in e.rule for e in r.events)


def test_manual_p28_reset_ratings_returns_one_or_both_sliders():
    game = replace(endgame_game(), spawn_rating=2, horror_rating=1)
    r = new_resolution(game, Rules(), ScriptedDice())
    resolve(r, (Effect("reset_ratings", key="horror"),), None, None, "a chapter")
    assert (r.state.spawn_rating, r.state.horror_rating) == (2, CHAPTER.horror_rating)
    resolve(r, (Effect("reset_ratings"),), None, None, "a chapter")
    assert r.state.spawn_rating == CHAPTER.spawn_rating


def test_manual_p28_the_endgame_tile_enters_apart_from_the_placed_tiles():
    sides = [start_side(), drawn_side("t01a"), drawn_side("t09b")]
    area = PlayArea.start(sides, ("t01a", "t00a"))
    ann = Unit("ann", "Ann", "explorer", (4, 4), health=5, max_health=5)
    state = GameState(MapSpec(area=area), units=(ann,), endgame=(FINALE,))
    anywhere = tuple((x, y) for y in range(-10, 20) for x in range(20, 30))
    r = new_resolution(state, Rules(), ScriptedDice(), choices=anywhere)
    resolve(r, (Effect("enter_endgame", key="t09b"),), None, None, "doom")
    placed = r.state.map.area
    assert [t.key for t in placed.tiles] == ["t00a", "t09b"]
    assert placed.tile("t09b").origin[0] >= 20              # one empty slot east of the start
    assert r.state.tile_of(r.state.unit("ann").position) == "t09b"
    assert r.state.chapter == FINALE
