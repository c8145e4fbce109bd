"""Destroying map spaces (manual p35) and sealing spawn spaces (manual p36): tokens and units."""

from dataclasses import replace

import pytest
from engine_cases import decision, explorer, monster, open_map

from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.board.sight import line_of_sight
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.engine.actions import Move, PlayAbility, SealSpawn, apply
from machina_nb.rules.engine.cardeffects import treat_space
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import destroy_map_space, destroyed_tokens, refresh_space
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()


def test_manual_p36_sealing_records_the_two_tokens_it_logs():
    state = scenario(open_map(5, 1, {0: "hPs.h"}), {"P": explorer("phillip")}, threat=3)
    state = replace(state.update_unit("phillip", essence=4), phase="explorer", active="phillip",
                    turns=("phillip",))
    after, events = apply(state, SealSpawn("phillip", (2, 0), choices=((0, 0),)), RULES)
    assert destroyed_tokens(after, (2, 0)) == 2
    assert any("two destroyed tokens" in e.text for e in events)


def spawn_with_ghoul():
    """Phillip at (0, 0); a ghoul stands on the spawn space (2, 0)."""
    return scenario(open_map(3, 1, {0: "P.G"}), {"P": explorer("phillip"),
                                                "G": monster("ghoul")},
                    spaces={"G": SpaceKind.SPAWN})


def test_manual_p35_destroying_a_spawn_space_destroys_its_unit_and_takes_two_tokens():
    state = spawn_with_ghoul()
    r = new_resolution(state, RULES, ScriptedDice([]))
    resolve(r, (Effect("destroy_target"),), state.unit("phillip"), (2, 0), "demolish")
    assert not r.state.has_unit("ghoul")
    assert destroyed_tokens(r.state, (2, 0)) == 2
    assert r.state.space_kind((2, 0)) is SpaceKind.DESTROYED
    assert any("two destroyed tokens" in e.text and "manual p35" in e.rule for e in r.events)


def test_manual_p35_destroying_an_empty_floor_space_takes_one_token():
    state = spawn_with_ghoul()
    r = new_resolution(state, RULES, ScriptedDice([]))
    resolve(r, (Effect("destroy_target"),), state.unit("phillip"), (1, 0), "demolish")
    assert destroyed_tokens(r.state, (1, 0)) == 1 and r.state.has_unit("ghoul")


def test_manual_p35_refresh_removes_both_tokens_of_a_destroyed_spawn_space():
    state = spawn_with_ghoul()
    r = new_resolution(state, RULES, ScriptedDice([]))
    resolve(r, (Effect("destroy_target"),), state.unit("phillip"), (2, 0), "demolish")
    refresh_space(r, (2, 0), "refresh")
    assert destroyed_tokens(r.state, (2, 0)) == 0
    assert r.state.space_kind((2, 0)) is SpaceKind.SPAWN


# --- monsters placed from map text have a card (manual p19) --------------------------------

def test_manual_p19_a_killed_monster_placed_from_map_text_goes_to_the_destroyed_pile():
    state = spawn_with_ghoul()
    assert state.unit("ghoul").origin is not None
    r = new_resolution(state, RULES, ScriptedDice([]))
    resolve(r, (Effect("lose_health", scope="target", amount=2),), state.unit("phillip"),
            (2, 0), "blow")
    assert not r.state.has_unit("ghoul")
    assert [c.id for c in r.state.monsters.destroyed] == ["ghoul"]


def test_manual_p19_a_killed_monster_below_the_monster_level_leaves_the_game():
    state = replace(spawn_with_ghoul(), level=2)
    r = new_resolution(state, RULES, ScriptedDice([]))
    resolve(r, (Effect("lose_health", scope="target", amount=2),), state.unit("phillip"),
            (2, 0), "blow")
    assert r.state.monsters.destroyed == () and [c.id for c in r.state.removed] == ["ghoul"]


# --- B17 example 1: an ability targeting an adjacent event space (manual p23) --------------

SPARK = Ability("Spark", Cost(stamina=3), Targeting("melee", 0, "event"),
                (Effect("lose_health", scope="any_monster_adjacent_target", amount=1),))


def test_manual_p23_advanced_example_1_the_event_space_spark():
    """3 stamina, target: the adjacent event space (1, 1); effect: any monster adjacent to
    that event space loses 1 health. G (2, 1) and H (1, 0) touch it; K (3, 1) does not."""
    state = scenario(open_map(4, 2, {0: ".H..", 1: "AvGK"}),
                     {"A": explorer("a", abilities=(SPARK,)), "G": monster("ghoul", health=2),
                      "H": (monster("ghoul", health=2), {"id": "hound"}),
                      "K": (monster("ghoul", health=2), {"id": "kraken"})},
                     phase="explorer", active="a", turns=("a",))
    need = decision(state, PlayAbility("a", 0, (1, 1)), RULES)
    assert set(need.options) == {"ghoul", "hound"}            # not the kraken
    after, events = apply(state, PlayAbility("a", 0, (1, 1), choices=("ghoul",)), RULES)
    assert after.unit("ghoul").health == 1 and after.unit("hound").health == 2
    assert after.unit("kraken").health == 2 and after.unit("a").stamina == 1
    assert (1, 1) not in after.destroyed          # the target is not a cost: it stays


def test_manual_p35_a_unit_stays_on_a_destroyed_space_that_was_not_a_spawn_space():
    """Only a destroyed spawn space destroys its unit; elsewhere the unit stays where it stands
    and the board is still built, with the space an obstacle nobody else may enter."""
    state = spawn_with_ghoul()
    r = new_resolution(state, RULES, ScriptedDice([]))
    destroy_map_space(r, (0, 0), None, "a collapse")
    after = r.state
    assert after.unit("phillip").position == (0, 0)
    assert after.space_kind((0, 0)) is SpaceKind.DESTROYED
    assert after.unit_board().unit_at((0, 0)) == "phillip"
    moved = replace(after, phase="explorer", active="phillip", turns=("phillip",))
    gone, _ = apply(moved, Move("phillip", (1, 0)), RULES)
    assert gone.unit("phillip").position == (1, 0)
    with pytest.raises(RulesError):           # an obstacle now: nobody moves onto it (p35)
        apply(gone, Move("phillip", (0, 0)), RULES)


# --- treat map space "also": the board shows the strongest kind (manual p35) ----------------

def _also(text, cards, space, kind, **fields):
    state = scenario(open_map(*text), cards, **fields)
    r = new_resolution(state, RULES, ScriptedDice([]))
    treat_space(r, space, kind, "a card", also=True)
    return r.state


def test_manual_p35_a_floor_also_rubble_blocks_moves_and_sight_and_stays_floor():
    state = _also((3, 1, {0: "A.B"}), {"A": explorer("a"), "B": explorer("b")}, (1, 0),
                  SpaceKind.RUBBLE)
    assert state.space_kind((1, 0)) is SpaceKind.FLOOR and state.is_kind((1, 0), SpaceKind.RUBBLE)
    turn = replace(state, phase="explorer", active="a", turns=("a",))
    with pytest.raises(RulesError):
        apply(turn, Move("a", (1, 0)), RULES)
    assert not line_of_sight(state.board(), (0, 0), (2, 0), RULES).visible


def test_manual_p35_a_floor_also_a_pit_destroys_who_moves_onto_it():
    state = _also((3, 1, {0: "A.."}), {"A": explorer("a")}, (1, 0), SpaceKind.PIT)
    turn = replace(state, phase="explorer", active="a", turns=("a",))
    after, _ = apply(turn, Move("a", (1, 0)), RULES)
    assert not after.has_unit("a")


def test_manual_p35_p25_a_push_into_a_chest_that_is_also_a_barrel_sets_it_off():
    """The manual's own example (p35): a chest treated also as an exploding barrel. Pushed
    into it, the unit counts it as hit (p25): it explodes, and it was a chest all along."""
    shove = Ability("Shove", Cost(stamina=1), Targeting("melee", 0, "monster"),
                    (Effect("push", amount=2),))
    state = _also((4, 1, {0: "AMc."}), {"A": explorer("a", abilities=(shove,)),
                                        "M": monster("m", armor=0, health=3)}, (2, 0),
                  SpaceKind.BARREL)
    turn = replace(state, phase="explorer", active="a", turns=("a",))
    after, events = apply(turn, PlayAbility("a", 0, (1, 0)), RULES, ScriptedDice([1, 1, 1]))
    assert any("barrel at (2, 0) explodes" in e.text for e in events)
    assert after.base_kind((2, 0)) is SpaceKind.CHEST
