"""Readings that were fixed in code and are switches now: each test builds a situation where
the readings differ (manual p14, p16, p21, p22, p24, p33, p35)."""

from dataclasses import replace

import pytest
from engine_cases import CARDS, SHIVERS, SURGE, WHISPER, explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.cards.items import Inventory, ItemDecks, equipped_items, load_all_items
from machina_nb.rules.engine.actions import Activate, MonsterAct, PlayAbility, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import destroy_unit, level5_loss, threat_up
from machina_nb.rules.engine.holdings import destroy_card, inventory_of, set_inventory
from machina_nb.rules.engine.monsters import mindless_step
from machina_nb.rules.engine.resolution import NeedChoice, resolve
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, MonsterTurn
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

RULES = Rules()
I = load_all_items()


# --- the closest explorer right behind a closed door (manual p16, p22) ---------------------

DOOR = ("+-+-+-+\n"
        "|. MDE|\n"
        "+ + +-+\n"
        "|. . .|\n"
        "+-+-+-+\n")


@pytest.mark.parametrize("reading, stamina, action, says", [
    ("stop", 6, "end", "counts as adjacent and the monster stops"),
    ("break_door", 6, "door", "destroys it for 4 stamina"),
    ("break_door", 3, "end", "only 3 stamina")])
def test_manual_p16_p22_a_closed_door_next_to_the_closest_explorer(reading, stamina, action,
                                                                   says):
    state = scenario(DOOR, {"E": explorer("e"), "M": monster("ghoul", stamina=stamina)},
                     phase="monster")
    plan = mindless_step(state, RULES.replace({"mindless.door_adjacent": reading}), "ghoul")
    assert plan.action.kind == action
    assert any(says in reason and "mindless.door_adjacent" in reason for reason in plan.reasons)
    if action == "door":
        assert {plan.action.a, plan.action.b} == {(1, 0), (2, 0)}


# --- who an exploding barrel's kill belongs to (manual p35, p18) ----------------------------

@pytest.mark.parametrize("reading, essence", [("hitter", 1), ("nobody", 0)])
def test_manual_p35_p18_barrel_credit(reading, essence):
    """A shoots the barrel; its explosion destroys the ghoul (health 1, armor 1)."""
    gun = Ability("Gun", Cost(stamina=1), Targeting("ranged", 3, "unit"),
                  (Effect("attack", low=1),))
    state = scenario(open_map(4, 1, {0: "A.bG"}), {"A": explorer("a", abilities=(gun,)),
                                                  "G": monster("ghoul", armor=1, health=1)},
                     phase="explorer", active="a", turns=("a",))
    after, _ = apply(state, PlayAbility("a", 0, (2, 0)),
                     RULES.replace({"barrel.credit": reading}), ScriptedDice([1, 1, 1, 1]))
    assert not after.has_unit("ghoul") and after.unit("a").essence == essence


# --- which cards half a deck loses (manual p14) --------------------------------------------

@pytest.mark.parametrize("reading, asked", [("top_after_shuffle", False),
                                            ("players_choose", True)])
def test_manual_p14_which_monster_cards_the_level_up_removes(reading, asked):
    brute = monster("brute", health=3)
    ghoul = monster("ghoul")
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     monsters=Deck((ghoul, brute)), threat=1)
    rules = RULES.replace({"half.which": reading})
    r = new_resolution(state, rules, ScriptedDice())
    if asked:
        with pytest.raises(NeedChoice) as need:
            threat_up(r, 4, "test")
        assert set(need.value.options) == {"ghoul", "brute"}
        r = new_resolution(state, rules, ScriptedDice(), choices=("brute",))
    threat_up(r, 4, "test")
    assert r.state.level == 2 and len(r.state.monsters.cards) == 1
    if asked:
        assert r.state.monsters.cards == (ghoul,)


# --- a released bound horror event (manual p21, p24) ----------------------------------------

@pytest.mark.parametrize("reading, current", [("becomes_current", "surge"),
                                              ("under_current", "shivers")])
def test_manual_p21_p24_a_released_bound_horror_event(reading, current):
    state = scenario(open_map(3, 1, {0: "A.G"}), {"A": explorer("a"), "G": monster("ghoul")},
                     horror_events=Deck((), (SHIVERS,)), bound=(("ghoul", SURGE),))
    r = new_resolution(state, RULES.replace({"bound.released_horror": reading}), ScriptedDice())
    destroy_unit(r, "ghoul", None, "test")
    assert r.state.horror_events.destroyed[0].id == current
    assert {c.id for c in r.state.horror_events.destroyed} == {"shivers", "surge"}


# --- equipping a gained item at once (manual p33) -------------------------------------------

@pytest.mark.parametrize("reading, equipped", [("keeper_only", False), ("receiver_too", True)])
def test_manual_p33_may_the_explorer_given_a_gained_item_equip_it_at_once(reading, equipped):
    """Kim opens the chest and gives the Proximity Bender to Jo (also a gunman) next to her."""
    state = scenario(open_map(5, 2, {0: "Kc...", 1: "J...."}),
                     {"K": CARDS["kim"], "J": (CARDS["kim"], {"id": "jo"})},
                     phase="explorer", active="kim", turns=("kim",),
                     items=ItemDecks(apparel=(I["proximity_bender"], I["aeromantle"])))
    choices = ("apparel", "apparel", "aeromantle", "top", "jo", "equip")
    after, _ = apply(state, Activate("kim", (1, 0), choices=choices),
                     RULES.replace({"gained_item.equip_at_once": reading}))
    jo = inventory_of(after, "jo")
    assert (I["proximity_bender"] in equipped_items(jo)) is equipped
    assert (I["proximity_bender"] in jo.unequipped) is not equipped


# --- the order of the cards the workbench returns (manual p33) ------------------------------

@pytest.mark.parametrize("reading, top", [("drawn_order", "reconnoisseur"),
                                          ("players_choose", "blood_boost_gun")])
def test_manual_p33_the_order_the_workbench_returns_cards_in(reading, top):
    state = scenario(open_map(5, 1, {0: "Aw..."}), {"A": explorer("a")}, phase="explorer",
                     active="a", turns=("a",),
                     items=ItemDecks(weapon=(I["reconnoisseur"], I["blood_boost_gun"]),
                                     artifact=(I["rotopod"],)))
    choices = ("weapon", "weapon", "artifact", "none", "none", "none", "rotopod", "a",
               "reconnoisseur", "top", "top")
    after, _ = apply(state, Activate("a", (1, 0), choices=choices),
                     RULES.replace({"workbench.return_order": reading}))
    assert after.items.weapon[0].id == top and len(after.items.weapon) == 2


# --- level 5 and the explorers who have exited (manual p14, p34) ----------------------------

@pytest.mark.parametrize("reading, reached", [("reached", True), ("not_reached", False)])
def test_manual_p14_level_five_and_an_explorer_who_has_exited(reading, reached):
    """Ann has exited with nothing equipped; Bo stays on the map."""
    state = scenario(open_map(3, 1, {0: "A.B"}), {"A": explorer("ann"), "B": explorer("bo")},
                     level=5)
    state = replace(state.update_unit("ann", position=None), exited=("ann",))
    state = set_inventory(state, Inventory("bo", (), (I["rotopod"],)), RULES)
    r = new_resolution(state, RULES.replace({"level5.exited": reading}), ScriptedDice())
    level5_loss(r, "level 5")
    assert r.state.has_unit("ann") is not reached


# --- a mindless monster's two-target and "up to N" abilities (manual p23, p25, p16) -------

BITE = Ability("Claw and bite", Cost(stamina=1), Targeting("melee", 0, "explorer", "explorer"),
               (Effect("lose_health", scope="target", amount=1),
                Effect("lose_health", scope="second_target", amount=1)))


@pytest.mark.parametrize("reading, a_health", [("first_only", 4), ("players_choose", 3)])
def test_manual_p23_p16_a_mindless_monsters_two_target_ability(reading, a_health):
    """The explorers pick A as the ghoul's target; under players_choose they also pick the
    second target (the same space may come twice, p23), here A again."""
    state = scenario(open_map(3, 1, {0: "AGB"}), {"A": explorer("a"), "B": explorer("b"),
                                                 "G": monster("ghoul", abilities=(BITE,))},
                     phase="monster", monster_turn=MonsterTurn("ghoul"))
    rules = RULES.replace({"mindless.two_targets": reading})
    after, events = apply(state, MonsterAct("ghoul", choices=((0, 0),)), rules, ScriptedDice())
    assert (after.unit("a").health, after.unit("b").health) == (a_health, 5)
    asked = [e for e in events if "second target" in e.text]
    assert bool(asked) is (reading == "players_choose")


@pytest.mark.parametrize("reading, end", [("players_choose", None), ("full_amount", (3, 0))])
def test_manual_p25_p16_a_mindless_monsters_push_up_to_n(reading, end):
    state = scenario(open_map(4, 1, {0: "GA.."}), {"A": explorer("a"), "G": monster("ghoul")},
                     phase="monster")
    r = new_resolution(state, RULES.replace({"mindless.up_to": reading}), ScriptedDice())
    shove = (Effect("push", scope="target", amount=2, up_to=True),)
    if end is None:
        with pytest.raises(NeedChoice) as need:
            resolve(r, shove, state.unit("ghoul"), (1, 0), "shove")
        assert len(need.value.options) == 3                 # 0, 1 or 2 spaces
        return
    resolve(r, shove, state.unit("ghoul"), (1, 0), "shove")
    assert r.state.unit("a").position == end


# --- a destroyed binding explorer event (manual p21, p26) -----------------------------------

@pytest.mark.parametrize("reading, current", [("becomes_current", "pendant"),
                                              ("under_current", "whisper")])
def test_manual_p21_p26_a_destroyed_binding_explorer_event(reading, current):
    pendant = EventCard("pendant", "Pendant", "explorer", binding=True)
    state = scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                     explorer_events=Deck((), (WHISPER,)), bound=(("a", pendant),))
    r = new_resolution(state, RULES.replace({"bound.destroyed_explorer_event": reading}),
                       ScriptedDice())
    assert destroy_card(r, "bound:pendant", "test")
    assert r.state.explorer_events.destroyed[0].id == current
    assert len(r.state.explorer_events.destroyed) == 2
