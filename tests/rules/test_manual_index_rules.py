"""Entries of the manual's index that no other test checked by name (docs/RULES_INDEX.md):
the monster queue (p15), reinvoking a horror event (p14), invoking an explorer event (p37),
the Explorer phase (p12), cards in play (p21), wounded (p18), the map tile elements (p11,
p35-37) and artifacts (p30-31)."""

from dataclasses import replace

import pytest
from engine_cases import SHIVERS, SURGE, WHISPER, explorer, monster, open_map

from machina_nb.rules.board.graph import BARRIER_SPACES, OBSTACLE_SPACES, PASSABLE_SPACES
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.cards.items import Equipped, Inventory, load_all_items, validate_inventory
from machina_nb.rules.engine.actions import MonsterAct, legal_actions
from machina_nb.rules.engine.cardplay import cards_in_play
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import (
    invoke_explorer_event,
    reinvoke_horror_event,
    spawn_monster,
)
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.phases import start_new_round
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, Lasting
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
I = load_all_items()


def test_manual_p15_the_monster_queue_acts_in_order_and_new_monsters_join_its_end():
    state = scenario(open_map(5, 1, {0: "A.MNs"}), {"A": explorer("a"), "M": monster("m"),
                                                    "N": monster("n")},
                     monsters=Deck((monster("late"),)))
    assert state.queue == ("m", "n")
    r = new_resolution(state, RULES, ScriptedDice())
    spawn_monster(r, (0, 0), False, "a spawn")
    assert r.state.queue[:2] == ("m", "n") and r.state.queue[2].startswith("late")
    monster_phase = replace(r.state, phase="monster", monster_turn=None, done=())
    first = [a for a in legal_actions(monster_phase, RULES) if isinstance(a, MonsterAct)]
    assert first and {a.actor for a in first} == {"m"}          # the first to enter acts first


def test_manual_p14_reinvoke_horror_event_resolves_the_current_horror_event_again():
    state = scenario(open_map(3, 1, {0: "A.M"}), {"A": explorer("a"),
                                                  "M": (monster("m", health=3), {"health": 1})},
                     horror_events=Deck((), (SURGE,)))
    r = new_resolution(state, RULES, ScriptedDice())
    reinvoke_horror_event(r, "an event space roll")
    assert r.state.unit("m").health == 2 and r.state.horror_events.destroyed == (SURGE,)
    assert r.state.threat == state.threat                 # no threat: it is not invoked anew


def test_manual_p37_invoke_explorer_event_draws_resolves_and_makes_it_current():
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     explorer_events=Deck((WHISPER,)))
    r = new_resolution(state, RULES, ScriptedDice())
    invoke_explorer_event(r, r.state.unit("a"), "an event space")
    assert r.state.explorer_events == Deck((), (WHISPER,)) and r.state.unit("a").essence == 1


def test_manual_p12_the_explorer_phase_restores_stamina_and_returns_the_markers():
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", stamina=5)})
    state = replace(state.update_unit("a", stamina=1), phase="monster",
                    lasting=(Lasting("grip", "roll_modifier", "a", "a", 1, "grip", "unit:a"),))
    r = new_resolution(state, RULES, ScriptedDice())
    start_new_round(r, "the round ends")
    assert r.state.phase == "explorer" and r.state.unit("a").stamina == 5
    assert r.state.lasting == () and r.state.active is None


def test_manual_p21_cards_in_play_unit_cards_bound_events_equipped_items_events_chapter():
    state = scenario(open_map(2, 1, {0: "AM"}), {"A": explorer("a"), "M": monster("m")},
                     horror_events=Deck((), (SHIVERS,)), explorer_events=Deck((), (WHISPER,)))
    state = set_inventory(state, Inventory("a", (Equipped(I["rotopod"]),),
                                           (I["sanguivorous_egg"],)), RULES)
    keys = {c.key for c in cards_in_play(state)}
    assert keys == {"unit:a", "unit:m", "item:rotopod", "horror_event:shivers",
                    "explorer_event:whisper", f"chapter:{state.chapter.id}"}
    owners = {c.key: c.owner for c in cards_in_play(state)}
    assert owners["item:rotopod"] == "a" and owners["horror_event:shivers"] is None


def test_manual_p18_a_unit_is_wounded_while_it_misses_at_least_one_health():
    state = scenario(open_map(2, 1, {0: "AM"}), {"A": explorer("a", health=5),
                                                 "M": (monster("m", health=2), {"health": 1})})
    assert not state.unit("a").wounded and state.unit("m").wounded


@pytest.mark.parametrize("char, kind, group", [
    (".", SpaceKind.FLOOR, PASSABLE_SPACES), ("t", SpaceKind.TRAPPED, PASSABLE_SPACES),
    ("o", SpaceKind.PIT, PASSABLE_SPACES), ("s", SpaceKind.SPAWN, PASSABLE_SPACES),
    ("r", SpaceKind.RUBBLE, BARRIER_SPACES), ("?", SpaceKind.UNIDENTIFIABLE, BARRIER_SPACES),
    ("b", SpaceKind.BARREL, OBSTACLE_SPACES), ("c", SpaceKind.CHEST, OBSTACLE_SPACES),
    ("v", SpaceKind.EVENT, OBSTACLE_SPACES), ("w", SpaceKind.WORKBENCH, OBSTACLE_SPACES),
    ("g", SpaceKind.RECHARGE, OBSTACLE_SPACES), ("l", SpaceKind.LEVER, OBSTACLE_SPACES),
    ("h", SpaceKind.CHAPTER, OBSTACLE_SPACES), ("#", SpaceKind.DESTROYED, OBSTACLE_SPACES)])
def test_manual_p11_p35_37_map_tile_elements_are_passable_obstacles_or_barriers(char, kind,
                                                                               group):
    layout = parse_map(f"+-+-+\n|. {char}|\n+-+-+\n")
    assert layout.space(1, 0) is kind and kind in group


def test_manual_p30_p31_an_artifact_takes_no_upgrade_and_no_augment():
    validate_inventory(Inventory("a", (Equipped(I["rotopod"]),)))
    for tree in (Equipped(I["rotopod"], Equipped(I["veil_lantern"])),
                 Equipped(I["rotopod"], None, Equipped(I["precision_scope"]))):
        with pytest.raises(RulesError):
            validate_inventory(Inventory("a", (tree,)))
