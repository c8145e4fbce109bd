"""Card texts the engine once kept as text only, executable now: Hobnailed Boots on a horror
event, the Precision Scope's fire through obstacles, the Aeromantle's move through obstacles
(manual p30, p32, p34), consumables' passives when consumables are in play (switch
consumables_in_play, manual p30), and triggered abilities on cards without an owner: the
chapter and the current events (manual p21-22, p26)."""

from dataclasses import replace

import pytest
from engine_cases import SHIVERS, explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.cards.events import Chapter, EventCard
from machina_nb.rules.cards.items import Equipped, Inventory, ItemCard, load_all_items
from machina_nb.rules.engine.actions import Move, PlayAbility, apply, legal_actions
from machina_nb.rules.engine.cardplay import attribute
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import destroy_unit, invoke_horror_event
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.phases import start_new_round
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
I = load_all_items()


def turn(state, who):
    return replace(state, phase="explorer", active=who, turns=(who,))


def wearing(state, who, *trees, unequipped=(), rules=RULES):
    return set_inventory(state, Inventory(who, tuple(trees),
                                          tuple(I[i] for i in unequipped)), rules)


# --- Hobnailed Boots: a move of up to 1 space whenever a horror event comes (manual p30) -----

def test_manual_p30_hobnailed_boots_move_their_wearer_on_a_horror_event():
    state = scenario(open_map(3, 1, {0: "A.B"}), {"A": explorer("a"), "B": explorer("b")},
                     horror_events=Deck((SHIVERS,)))
    state = wearing(state, "a", Equipped(I["hobnailed_boots"]))
    r = new_resolution(state, RULES, ScriptedDice([0, 0, 0, 0]), choices=((1, 0),))
    invoke_horror_event(r, "the horror phase")
    assert r.state.unit("a").position == (1, 0) and r.state.unit("b").position == (2, 0)
    trigger = next(e for e in r.events if e.kind == "trigger")
    assert "Hobnailed Boots" in trigger.text and "manual p26" in trigger.rule
    assert [e.kind for e in r.events].index("horror") < [e.kind for e in r.events].index("trigger")


def test_manual_p30_unequipped_boots_do_nothing():
    state = scenario(open_map(3, 1, {0: "A.B"}), {"A": explorer("a"), "B": explorer("b")},
                     horror_events=Deck((SHIVERS,)))
    state = wearing(state, "a", unequipped=("hobnailed_boots",))
    r = new_resolution(state, RULES, ScriptedDice([0, 0, 0, 0]))
    invoke_horror_event(r, "the horror phase")
    assert r.state.unit("a").position == (0, 0)


# --- Precision Scope: the weapon it augments targets through obstacles (manual p30) ---------

REVOLVER = Equipped(I["puncturing_revolver"], None, Equipped(I["precision_scope"]))


@pytest.mark.parametrize("tree, legal", [(REVOLVER, True),
                                         (Equipped(I["puncturing_revolver"]), False)])
def test_manual_p30_p32_the_precision_scope_lets_its_weapon_fire_through_obstacles(tree, legal):
    """A chest stands between the gunner and the monster: a plain ranged icon is blocked by
    the obstacle (p23); with the scope attached the revolver targets through it."""
    state = scenario(open_map(3, 1, {0: "AcM"}), {"A": explorer("a", stamina=6),
                                                  "M": monster("m")})
    state = turn(wearing(state, "a", tree), "a")
    shots = [a for a in legal_actions(state, RULES)
             if isinstance(a, PlayAbility) and a.target == (2, 0)]
    assert bool(shots) is legal


def test_manual_p32_an_augment_changes_only_the_item_it_is_attached_to():
    with pytest.raises(RulesError):
        ItemCard("lens", "Lens", "artifact", through_obstacles=True)


# --- Aeromantle: you can move through obstacles (manual p30, p34) -------------------------

def mantle_state(equipped=True):
    state = scenario(open_map(4, 1, {0: "AcG."}), {"A": explorer("a", stamina=4),
                                                   "G": monster("g")})
    tree = (Equipped(I["aeromantle"]),) if equipped else ()
    return turn(wearing(state, "a", *tree, unequipped=() if equipped else ("aeromantle",)), "a")


def test_manual_p30_p34_the_aeromantle_moves_through_obstacles_for_a_stamina_a_space():
    """Past a chest and a monster (both obstacles) to the free space 3 away, for 3 stamina;
    never ending on an obstacle."""
    state = mantle_state()
    moves = {a.to for a in legal_actions(state, RULES) if isinstance(a, Move)}
    assert (3, 0) in moves and (1, 0) not in moves and (2, 0) not in moves
    after, events = apply(state, Move("a", (3, 0)), RULES)
    assert after.unit("a").position == (3, 0) and after.unit("a").stamina == 1
    assert "manual p34" in events[-1].rule


def test_manual_p34_without_the_aeromantle_obstacles_stop_the_move():
    state = mantle_state(equipped=False)
    assert not [a for a in legal_actions(state, RULES) if isinstance(a, Move)]
    with pytest.raises(RulesError):
        apply(state, Move("a", (3, 0)), RULES)


def test_manual_p30_the_aeromantle_passes_obstacles_but_not_rubble():
    state = scenario(open_map(3, 1, {0: "Ar."}), {"A": explorer("a", stamina=4)})
    state = turn(wearing(state, "a", Equipped(I["aeromantle"])), "a")
    assert not [a for a in legal_actions(state, RULES) if isinstance(a, Move)]


# --- consumables' passives (manual p30; switch consumables_in_play) -------------------------

TONIC = ItemCard("tonic", "Tonic", "consumable", abilities=(
    Ability("Steel", kind="passive", effects=(
        Effect("attribute_modifier", scope="self", amount=2, attributes=("armor",)),)),))


@pytest.mark.parametrize("reading, armor", [("no", 2), ("yes", 4)])
def test_manual_p30_a_held_consumables_passive_acts_only_if_consumables_are_in_play(reading,
                                                                                   armor):
    rules = RULES.replace({"consumables_in_play": reading})
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", armor=2)})
    state = set_inventory(state, Inventory("a", (), (TONIC,)), rules)
    assert attribute(state, "a", "armor", rules) == armor


# --- triggered abilities on cards without an owner (manual p21-22, p26) --------------------

HARVEST = Chapter("harvest", "Harvest", 6, 4, abilities=(
    Ability("Reaping", kind="triggered", trigger="kill",
            effects=(Effect("restore_essence", scope="self", amount=1),)),))
DREAD = EventCard("dread", "Dread", "horror", abilities=(
    Ability("Creeping dread", kind="triggered", trigger="explorer_phase",
            effects=(Effect("lose_health", scope="explorers_on_tile", amount=1),)),))


def test_manual_p26_a_chapters_triggered_ability_fires_for_whoever_kills():
    """The chapter has no owner: a kill by any unit sets it off, and that unit is its
    activating unit ("self")."""
    state = scenario(open_map(3, 1, {0: "AMB"}), {"A": explorer("a"), "B": explorer("b"),
                                                  "M": monster("m")}, chapter=HARVEST)
    state = turn(state, "b")
    r = new_resolution(state, RULES, ScriptedDice())
    destroy_unit(r, "m", "b", "a stab")
    assert r.state.unit("b").essence == 2 and r.state.unit("a").essence == 0   # 1 kill + 1
    assert any(e.kind == "trigger" and "Reaping" in e.text for e in r.events)


def test_manual_p22_p26_a_current_horror_events_trigger_reaches_every_tile_once():
    """The current horror event has no owner and no activating unit: its «explorers on the
    tile» reaches every explorer on every tile (p22), once as the Explorer phase begins."""
    state = scenario(open_map(4, 1, {0: "A..B"}), {"A": explorer("a"), "B": explorer("b")},
                     tile_size=2, horror_events=Deck((), (DREAD,)))
    state, events = _new_round(state)
    assert state.unit("a").health == 4 and state.unit("b").health == 4
    assert sum(e.kind == "trigger" for e in events) == 1


def _new_round(state):
    r = new_resolution(state, RULES, ScriptedDice())
    start_new_round(r, "test")
    return r.state, r.events
