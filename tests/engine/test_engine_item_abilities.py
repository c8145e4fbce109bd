"""The items the manual names carry their abilities (content/items/core.toml), and destroying an
item: Blood-boost gun (manual p27), Stygian Pendant (p27), Circular Saw (p27), Veil Lantern
(the p22 artifact), destroy an item (p26), a destroyed consumable waiting for its marker
(p27). The Force Alternator (p23) and the saw's bite outside the
turn are played from equipped items in tests/engine/test_engine_vocabulary.py."""

from dataclasses import replace

import pytest
from engine_cases import explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.items import (
    Equipped,
    Inventory,
    ItemCard,
    equipped_items,
    load_all_items,
)
from machina_nb.rules.engine.actions import PlayAbility, Trade, apply, legal_actions
from machina_nb.rules.engine.cardplay import attribute, can_target_ethereal, cards_in_play
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import roll_modifier
from machina_nb.rules.engine.holdings import inventory_of, set_inventory
from machina_nb.rules.engine.phases import start_new_round
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.targets import unpaid_cost
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

RULES = Rules()
ITEMS = load_all_items()
STAB = Ability("Stab", Cost(stamina=1), Targeting("melee", 0, "monster"),
               (Effect("attack", high=1),))


def turn(state, who):
    return replace(state, phase="explorer", active=who, turns=(who,))


def holding(state, who, equipped=(), unequipped=()):
    """``who`` holds ``equipped`` (trees or item ids, main items) and ``unequipped`` ids."""
    trees = tuple(Equipped(ITEMS[t]) if isinstance(t, str) else t for t in equipped)
    return set_inventory(state, Inventory(who, trees, tuple(ITEMS[i] for i in unequipped)),
                         RULES)


def new_round(state):
    r = new_resolution(state, RULES, ScriptedDice())
    start_new_round(r, "test")
    return r.state, r.events


# --- Blood-boost gun (manual p27) ----------------------------------------------------

def gun_state(equipped=True):
    state = scenario(open_map(2, 1, {0: "BM"}), {"B": explorer("b", stamina=6, abilities=(STAB,)),
                                                 "M": monster("m", armor=0, health=5)})
    kept = {"equipped": ("blood_boost_gun",)} if equipped else {"unequipped": ("blood_boost_gun",)}
    return turn(holding(state, "b", **kept), "b")


def test_manual_p27_b21_a_hit_with_any_weapon_boosts_later_rolls_while_the_gun_is_equipped():
    state = gun_state()
    for expected in (1, 2, 2):                   # Stab is the explorer's own, not the gun's
        state, events = apply(state, PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
        assert roll_modifier(state, "b") == expected
    assert {e.card for e in state.lasting} == {"item:blood_boost_gun"}
    assert state.markers_used("b") == 2 and "2 stack(s) reached" in events[-1].text
    assert any(e.kind == "trigger" and "boost (Blood-boost Gun)" in e.text for e in events)
    assert from_json(to_json(state)) == state
    after, _ = new_round(state)
    assert roll_modifier(after, "b") == 0        # until the next Explorer phase


def test_manual_p27_the_boost_raises_the_next_roll_total():
    state, _ = apply(gun_state(), PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
    state = state.update_unit("m", armor=2)
    after, events = apply(state, PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
    assert after.unit("m").health == 3           # 1 + 1 >= armor 2: a hit
    assert any("total 2" in e.text for e in events)


def test_manual_p27_an_unequipped_blood_boost_gun_does_nothing():
    state = gun_state(equipped=False)
    after, events = apply(state, PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
    assert after.unit("m").health == 4 and after.lasting == ()
    assert roll_modifier(after, "b") == 0 and not any(e.kind == "trigger" for e in events)


# --- Stygian Pendant (manual p27) ----------------------------------------------------

def pendant_state():
    state = scenario(open_map(2, 1, {0: "S."}), {"S": explorer("s", will=2)})
    return turn(holding(state, "s", ("stygian_pendant",)).update_unit("s", essence=2), "s")


def test_manual_p27_b23_the_pendant_returns_its_marker_restores_essence_and_is_destroyed():
    state, _ = apply(pendant_state(), PlayAbility("s", 0), RULES)          # glow
    assert state.lasting[0].card == "item:stygian_pendant" and state.unit("s").essence == 1
    assert attribute(state, "s", "will") == 3
    after, events = new_round(state)
    assert after.unit("s").essence == 2 and after.lasting == ()
    assert attribute(after, "s", "will") == 2
    assert after.items.destroyed[:1] == (ITEMS["stygian_pendant"],)
    assert inventory_of(after, "s").empty
    assert "item:stygian_pendant" not in [c.key for c in cards_in_play(after)]
    rules = [e.rule for e in events]
    assert "manual p26 (triggered conditions)" in rules
    assert "manual p26 (destroy an item)" in rules
    assert rules.index("manual p26 (triggered conditions)") < \
        [e.kind for e in events].index("stamina")          # before the markers come back
    assert from_json(to_json(after)) == after


def test_manual_p27_without_its_marker_the_equipped_pendant_stays():
    after, _ = new_round(pendant_state())
    assert equipped_items(inventory_of(after, "s")) == (ITEMS["stygian_pendant"],)
    assert after.unit("s").essence == 2 and after.items.destroyed == ()


# --- Circular Saw (manual p27) -------------------------------------------------------

def test_manual_p27_the_saw_bite_needs_the_saw_equipped_and_its_marker():
    state = scenario(open_map(3, 1, {0: "WMK"}), {"W": explorer("w"), "K": explorer("k"),
                                                  "M": monster("m", armor=1)})
    state = turn(holding(state, "w", ("circular_saw",)), "w")
    bite = ITEMS["circular_saw"].abilities[1]
    assert unpaid_cost(state, RULES, state.unit("w"), 1, bite)[1] == \
        "manual p27 (marker removal as a cost)"
    state, _ = apply(state, PlayAbility("w", 0), RULES)                     # rev
    assert unpaid_cost(state, RULES, state.unit("w"), 1, bite) is None
    unequipped = holding(state, "w", unequipped=("circular_saw",))
    assert not [a for a in legal_actions(turn(unequipped, "k"), RULES)
                if isinstance(a, PlayAbility) and a.actor == "w"]


# --- the p22 artifact: explorers on the owner's tile target ethereal units --------

@pytest.mark.parametrize("equipped, tile_size, sees", [(True, 10, True), (True, 2, False),
                                                       (False, 10, False)])
def test_manual_p22_b16_2_the_lantern_acts_on_its_owner_s_tile_while_equipped(equipped,
                                                                               tile_size, sees):
    state = scenario(open_map(6, 1, {0: "S.AG.."}),
                     {"S": explorer("s"), "A": explorer("a"),
                      "G": (monster("ghost"), {"ethereal": True})}, tile_size=tile_size)
    kept = {"equipped": ("veil_lantern",)} if equipped else {"unequipped": ("veil_lantern",)}
    state = holding(state, "s", **kept)
    assert can_target_ethereal(state, state.unit("a")) is sees
    assert can_target_ethereal(state, state.unit("s")) is equipped


# --- destroy an item (manual p26) and a consumable waiting for its marker (p27) ---------------

SPARK = Ability("Spark", Cost(stamina=1), Targeting(),
                (Effect("roll_modifier", scope="self", amount=1, key="spark"),))
BURST = Ability("Burst", Cost(destroy="card"), Targeting(),
                (Effect("restore_essence", scope="self", amount=1),))
FLARE = ItemCard("flare", "Flare", "weapon", hands=1, upgrade_top="rail", bonuses=(("armor", 1),),
                 abilities=(SPARK, BURST))


def test_manual_p26_a_destroyed_item_is_unequipped_its_markers_return_it_tops_the_pile():
    revolver = ITEMS["puncturing_revolver"]
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", armor=2)})
    state = turn(holding(state, "a", (Equipped(FLARE, upgrade=Equipped(revolver)),)), "a")
    state = replace(state, items=replace(state.items, destroyed=(ITEMS["rotopod"],)))
    assert state.unit("a").armor == 3
    state, _ = apply(state, PlayAbility("a", 0), RULES)                     # Spark
    assert roll_modifier(state, "a") == 1
    after, events = apply(state, PlayAbility("a", 1), RULES)                # Burst
    assert after.lasting == () and roll_modifier(after, "a") == 0
    assert after.items.destroyed == (FLARE, ITEMS["rotopod"])
    inv = inventory_of(after, "a")
    assert inv.equipped == () and inv.unequipped == (revolver,)
    assert after.unit("a").armor == 2 and after.unit("a").essence == 1
    kinds = [e.kind for e in events]
    assert kinds.index("markers") < kinds.index("essence")                  # a cost, paid first
    assert any(e.rule == "manual p26 (destroy an item: its markers return)" for e in events)
    assert from_json(to_json(after)) == after


@pytest.mark.parametrize("cost, effects", [
    (Cost(), (Effect("roll_modifier", scope="self", amount=1, key="tonic"),
              Effect("destroy_card"))),
    (Cost(destroy="card"), (Effect("roll_modifier", scope="self", amount=1, key="tonic"),)),
])
def test_manual_p27_a_destroyed_consumable_with_a_marker_waits_for_it(cost, effects):
    tonic = ItemCard("tonic", "Tonic", "consumable", abilities=(Ability("Quaff", cost,
                                                                        Targeting(), effects),))
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")})
    state = turn(set_inventory(state, Inventory("a", (), (tonic,)), RULES), "a")
    after, _ = apply(state, PlayAbility("a", 0), RULES)
    inv = inventory_of(after, "a")
    assert inv.spent == (tonic,) and inv.unequipped == () and after.items.destroyed == ()
    assert roll_modifier(after, "a") == 1
    assert not [a for a in legal_actions(after, RULES) if isinstance(a, PlayAbility)]
    later, _ = new_round(after)
    assert inventory_of(later, "a").empty and later.items.destroyed == (tonic,)


def test_manual_p14_p26_the_item_lost_at_level_five_takes_its_markers_back():
    from machina_nb.rules.engine.effects import level5_loss
    state = scenario(open_map(2, 1, {0: "W."}), {"W": explorer("w")})
    state = turn(holding(state, "w", ("circular_saw",)), "w")
    state, _ = apply(state, PlayAbility("w", 0), RULES)                     # rev: a marker
    r = new_resolution(state, RULES, ScriptedDice())
    level5_loss(r, "level 5")
    assert r.state.lasting == () and r.state.items.destroyed == (ITEMS["circular_saw"],)
    assert [e.kind for e in r.events] == ["level5", "markers", "item"]


@pytest.mark.parametrize("reading, boost", [("effect_stays", 1), ("effect_ends", 0)])
def test_manual_p27_a_traded_item_with_a_marker_on_it(reading, boost):
    """B's Blood-boost gun holds B's marker for the boost; B trades the gun to A next to her
    (it arrives unequipped, p32). Only a card removed from the game ends its effect (p27:
    effect_stays), or leaving the equipped items does (effect_ends)."""
    state = scenario(open_map(3, 1, {0: "ABM"}), {"A": explorer("a"),
                                                  "B": explorer("b", stamina=6, abilities=(STAB,)),
                                                  "M": monster("m", armor=0, health=5)})
    state = turn(holding(state, "b", equipped=("blood_boost_gun",)), "b")
    state, _ = apply(state, PlayAbility("b", 0, (2, 0)), RULES, ScriptedDice([1]))
    assert roll_modifier(state, "b") == 1
    rules = RULES.replace({"markers.item_unequipped": reading})
    after, events = apply(state, Trade("b", "a", give=("blood_boost_gun",)), rules)
    assert roll_modifier(after, "b") == boost and after.markers_used("b") == boost
    assert any("markers.item_unequipped" in e.text for e in events) is (boost == 0)
