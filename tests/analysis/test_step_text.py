"""One notation for an action, written and read: every legal action of every shipped
situation, and of the positions a random game reaches from them, is written as a step of the
play notation and read back into the same action.

Rules: manual p12 (explorer actions), p15 (the monster queue), p19 (contributed essence),
p32 (trade), p34-37 (the map actions).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.analysis.notation import NotationError, parse_step
from machina_nb.rules.analysis.situation import load_situations, situation_from_text
from machina_nb.rules.analysis.step_text import read_action, write_action
from machina_nb.rules.engine.actions import (
    Activate,
    Choose,
    PlayAbility,
    UseInventory,
    apply,
    legal_actions,
)
from machina_nb.rules.engine.chance import SeededDice
from machina_nb.rules.errors import RulesError

SITUATIONS = load_situations()
WITHOUT_LINE = (Choose,)   # a decision's answer


def letters_of(situation, state):
    """The situation's letters, and a free letter for each unit that came into play later."""
    letters = {u.id: u.letter for u in situation.units}
    free = [chr(c) for c in range(ord("A"), ord("Z") + 1) if chr(c) not in letters.values()]
    for unit in state.units:
        if unit.id not in letters:
            letters[unit.id] = free.pop(0)
    return letters


def _round_trip(situation, state, rules) -> int:
    letters = letters_of(situation, state)
    written = 0
    for action in legal_actions(state, rules):
        if isinstance(action, WITHOUT_LINE) or action.choices:
            with pytest.raises(NotationError):
                write_action(action, state, rules, letters)
            continue
        text = write_action(action, state, rules, letters)
        assert parse_step(text).text == text
        assert read_action(text, state, rules, letters) == action, text
        written += 1
    return written


@pytest.mark.parametrize("sid", sorted(SITUATIONS))
def test_every_legal_action_of_a_situation_reads_back_as_written(sid):
    s = SITUATIONS[sid]
    rules = s.rules()
    _round_trip(s, s.state_at(rules), rules)


def test_the_situations_write_every_kind_of_step():
    kinds = set()
    for s in SITUATIONS.values():
        rules = s.rules()
        state = s.state_at(rules)
        for action in legal_actions(state, rules):
            if not isinstance(action, WITHOUT_LINE) and not action.choices:
                kinds.add(type(action).__name__)
                if getattr(action, "contributions", ()):
                    kinds.add("contributed")
                if isinstance(action, UseInventory) and action.owner != action.actor:
                    kinds.add("inventory of another")
    assert {"StartTurn", "EndTurn", "Move", "Activate", "PlayAbility", "SealSpawn",
            "UseInventory", "contributed", "inventory of another"} <= kinds


def test_manual_p19_contributed_essence_is_written_and_read():
    s = SITUATIONS["recharge_die"]
    rules = s.rules()
    state = s.state_at(rules)
    letters = letters_of(s, state)
    action = next(a for a in legal_actions(state, rules) if isinstance(a, Activate))
    explorer = next(u.id for u in state.units if u.side == "explorer" and u.id != action.actor) \
        if sum(u.side == "explorer" for u in state.units) > 1 else action.actor
    given = Activate(action.actor, action.space, action.option, ((explorer, 2),),
                     essence=action.essence)
    text = write_action(given, state, rules, letters)
    assert f"with {letters[explorer]} contributing 2" in text
    assert read_action(text, state, rules, letters) == given


def test_a_played_ability_names_its_target_by_letter_where_a_unit_stands():
    for s in SITUATIONS.values():
        rules = s.rules()
        state = s.state_at(rules)
        letters = letters_of(s, state)
        for a in legal_actions(state, rules):
            if isinstance(a, PlayAbility) and a.target is not None and not a.choices \
                    and not isinstance(a.target[0], tuple) \
                    and state.unit_board().occupant(a.target):
                text = write_action(a, state, rules, letters)
                assert f" on {letters[state.unit_board().occupant(a.target)]}" in text
                return
    raise AssertionError("a shipped situation should play an ability on a unit")


@settings(max_examples=40)
@given(st.sampled_from(sorted(SITUATIONS)), st.integers(0, 2 ** 16), st.integers(1, 25))
def test_positions_a_random_game_reaches_write_and_read_every_action(sid, seed, steps):
    s = SITUATIONS[sid]
    for state in random_positions(s, seed, steps):
        _round_trip(s, state, s.rules())


def random_positions(situation, seed: int, steps: int):
    """The situation's position and up to ``steps`` more, each after a legal action drawn
    with ``seed`` (the walk stops at the game's end or an action the engine refuses)."""
    rules = situation.rules()
    state = situation.state_at(rules)
    rng = random.Random(seed)
    for _ in range(steps):
        yield state
        actions = legal_actions(state, rules)
        if not actions or state.over:
            return
        try:
            state, _ = apply(state, rng.choice(actions), rules, SeededDice(rng))
        except RulesError:
            return


INVENTORY = '''
kind = "situation"
id = "inventory_steps"
title = "Kim rearranges her inventory"
map = \'\'\'
+-+-+-+-+
|K P . M|
+-+-+-+-+
\'\'\'

[unit.M]
card = "mi_go"

[unit.K]
card = "kim"
items = ["teleportabulus", "hobnailed_boots"]
upgrades = { puncturing_revolver = "teleportabulus", aeromantle = "hobnailed_boots" }
augments = { precision_scope = "puncturing_revolver", leather_holster = "aeromantle" }
unequipped = ["rotopod", "brass_goggles"]

[unit.P]
card = "phillip"
items = ["circular_saw"]

[turn]
phase = "explorer"
active = "K"
'''

INVENTORY_STEPS = (
    "K uses inventory",
    "K uses inventory equipping hobnailed_boots and teleportabulus",
    "K uses inventory equipping hobnailed_boots upgrading hobnailed_boots with aeromantle "
    "augmenting aeromantle with leather_holster upgrading aeromantle with brass_goggles",
    "K uses inventory equipping teleportabulus upgrading teleportabulus with puncturing_revolver "
    "augmenting puncturing_revolver with precision_scope giving rotopod to P",
    "K uses inventory giving rotopod to P and brass_goggles to P",
    "K uses inventory on P",
    "K uses inventory on P equipping circular_saw",
    "K uses inventory on P giving circular_saw to K",
)


@pytest.mark.parametrize("text", INVENTORY_STEPS)
def test_manual_p32_use_inventory_is_read_and_written_back(text):
    """Unequip all, then equip main items, upgrades and augments in order, then give items to
    adjacent explorers; on one's own inventory or an adjacent explorer's (manual p32)."""
    s = situation_from_text(INVENTORY, "inventory_steps.toml")
    rules = s.rules()
    state = s.state_at(rules)
    letters = {u.id: u.letter for u in s.units}
    action = read_action(text, state, rules, letters)
    assert isinstance(action, UseInventory)
    apply(state, action, rules)                     # legal: the engine takes it
    assert write_action(action, state, rules, letters) == text


def test_manual_p32_the_offered_inventory_steps_read_back():
    s = situation_from_text(INVENTORY, "inventory_steps.toml")
    rules = s.rules()
    written = [write_action(a, s.state_at(rules), rules, {u.id: u.letter for u in s.units})
               for a in legal_actions(s.state_at(rules), rules) if isinstance(a, UseInventory)]
    assert "K uses inventory" in written and "K uses inventory on P" in written
    assert _round_trip(s, s.state_at(rules), rules) > len(written)
