"""Choices the players make while an action resolves: the game waits on a decision (manual p16).

Nothing probes an action to find its choices: a choice that arises while resolving leaves the
state before the action carrying a :class:`Decision`; the options are then the only legal
actions, and choosing one resolves the action again with the same dice.
"""

import json
from dataclasses import replace

import pytest
from engine_cases import CHAPTER, decision, explorer, monster, open_map

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.cards.items import Inventory, ItemDecks, load_all_items
from machina_nb.rules.engine.actions import (
    Activate,
    Choose,
    EndTurn,
    RollSpawn,
    apply,
    check,
    core,
    legal_actions,
)
from machina_nb.rules.engine.chance import ScriptedDice, SeededDice
from machina_nb.rules.engine.game import History, new_game, replay
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()


def spawn_tie():
    """Ann between two spawn spaces at the same distance; the roll will spawn a ghoul."""
    game = new_game(parse_map("+-+-+-+\n|s . s|\n+-+-+-+\n"), [(explorer("ann"), (1, 0))],
                    (CHAPTER,), monsters=[monster("ghoul")])
    return replace(game, phase="spawn", spawn_rating=1)


def test_manual_p13_p16_a_tied_spawn_space_waits_for_the_players():
    state = spawn_tie()
    waiting, events = apply(state, RollSpawn("ann"), RULES, ScriptedDice([5]))
    need = waiting.decision
    assert need.options == ((0, 0), (2, 0)) and "spawn space" in need.what
    assert "manual p13" in need.rule and need.rolls == (5,) and need.action == RollSpawn("ann")
    assert waiting == replace(state, decision=need)          # nothing moved yet
    assert [e.kind for e in events] == ["spawn_roll"]        # the roll is told now
    assert legal_actions(waiting, RULES) == (Choose(option=(0, 0)), Choose(option=(2, 0)))


def test_manual_p16_while_a_decision_waits_every_other_action_is_refused():
    waiting, _ = apply(spawn_tie(), RollSpawn("ann"), RULES, ScriptedDice([5]))
    with pytest.raises(RulesError, match="must first choose the spawn space"):
        check(waiting, RollSpawn("ann"), RULES)
    with pytest.raises(RulesError, match="not one of the options"):
        check(waiting, Choose(option=(1, 0)), RULES)
    with pytest.raises(RulesError, match="no choice to make"):
        check(spawn_tie(), Choose(option=(0, 0)), RULES)


def test_manual_p16_choosing_resumes_with_the_same_roll_and_tells_each_event_once():
    state = spawn_tie()
    waiting, first = apply(state, RollSpawn("ann"), RULES, ScriptedDice([5]))
    after, rest = apply(waiting, Choose(option=(2, 0)), RULES, ScriptedDice())  # no new roll
    answered, whole = apply(state, RollSpawn("ann", choices=((2, 0),)), RULES,
                            ScriptedDice([5]))
    assert after == answered and after.decision is None
    assert after.monsters_in_play[0].position == (2, 0)
    assert first + rest == whole


def test_a_waiting_game_saves_loads_and_resumes_alike():
    waiting, _ = apply(spawn_tie(), RollSpawn("ann"), RULES, ScriptedDice([5]))
    loaded = from_json(to_json(waiting))
    assert loaded == waiting
    assert apply(loaded, Choose(option=(0, 0)), RULES) == \
        apply(waiting, Choose(option=(0, 0)), RULES)


def test_a_saved_decision_must_name_an_action():
    waiting, _ = apply(spawn_tie(), RollSpawn("ann"), RULES, ScriptedDice([5]))
    data = json.loads(to_json(waiting))
    data["state"]["decision"]["action"] = {"$": "Deck"}
    with pytest.raises(RulesError, match="state.decision.action"):
        from_json(json.dumps(data))


def test_legal_actions_never_resolves_an_action_to_find_its_choices(monkeypatch):
    """The choices of the chest, the spawn tie and a monster's turn come as decisions."""
    def refuse(*_):
        raise AssertionError("legal_actions resolved an action")

    states = [spawn_tie()]
    game = History.start(scenario(open_map(5, 3, {0: "A.c.s", 2: "s.M.B"}),
                                  {"A": explorer("a"), "B": explorer("b"),
                                   "M": monster("m")}), RULES)
    dice = SeededDice(3)
    while game.state.round < 3:
        states.append(game.state)
        options = legal_actions(game.state, RULES)
        ends = [a for a in options if isinstance(a, EndTurn)]
        game = game.apply((ends or list(options))[0], dice)
    assert replay(game.initial, game.log(), RULES) == game.state
    assert {s.phase for s in states} >= {"explorer", "spawn", "monster"}
    monkeypatch.setattr(core, "_resolve", refuse)
    for state in states:
        assert legal_actions(state, RULES)


def test_the_decision_helper_sees_a_choice_after_the_roll():
    assert decision(spawn_tie(), RollSpawn("ann"), RULES, ScriptedDice([5])).options == (
        (0, 0), (2, 0))



def workbench():
    """The p33 workbench: three cards drawn, each from a deck the players name (B14 cards)."""
    items = load_all_items()
    state = scenario(open_map(5, 3, {0: "Aw..."}), {"A": explorer("a")}, phase="explorer",
                     active="a", items=ItemDecks(weapon=(items["reconnoisseur"],
                                                         items["blood_boost_gun"]),
                                                 artifact=(items["rotopod"],)))
    return set_inventory(state, Inventory("a", (), (items["sanguivorous_egg"],)), RULES)


WORKBENCH_ANSWERS = ("weapon", "weapon", "artifact", "none", "sanguivorous_egg", "none",
                     "rotopod", "a", "top", "destroy")


def test_manual_p33_the_workbench_asks_one_decision_at_a_time():
    """Answered one click at a time, or all ahead, the workbench ends in the same state."""
    ahead, _ = apply(workbench(), Activate("a", (1, 0), choices=WORKBENCH_ANSWERS), RULES)
    state, _ = apply(workbench(), Activate("a", (1, 0)), RULES)
    answers, asked = list(WORKBENCH_ANSWERS), []
    while state.decision is not None:       # the first answer left that fits, as ahead
        answer = next(a for a in answers if a in state.decision.options)
        answers.remove(answer)
        asked.append(state.decision.what)
        state, _ = apply(state, Choose(option=answer), RULES)
    assert state == ahead and answers == ["artifact", "a"]   # no choice: one deck, one keeper
    assert asked[:2] == ["the item deck for card 1 of 3", "the item deck for card 2 of 3"]
    first, *rest = WORKBENCH_ANSWERS
    waiting, _ = apply(workbench(), Activate("a", (1, 0)), RULES)
    together, _ = apply(waiting, Choose(option=first, choices=tuple(rest)), RULES)
    assert together == ahead
