"""Items and inventory in the engine (manual p14, p19, p30-33, p37; 3.5 FAQ;
rulings C-17, D30)."""

from dataclasses import replace

import pytest
from engine_cases import CARDS, decision, explorer
from hypothesis import given, settings
from hypothesis import strategies as st
from item_cases import ITEMS, I, kim_at_chest, on_map, p31_apparel, p31_weapons, tree

from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.cards.items import (
    CLASS_ITEM_TYPES,
    Inventory,
    ItemDecks,
    attach,
    class_may_equip,
    equip_main,
    equipped_items,
    unequip,
    validate_inventory,
)
from machina_nb.rules.engine.actions import (
    Activate,
    Choose,
    EndTurn,
    PlayAbility,
    Trade,
    UseInventory,
    apply,
    explorer_abilities,
    legal_actions,
)
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import threat_up
from machina_nb.rules.engine.holdings import inventory_of, set_inventory
from machina_nb.rules.engine.inventory import RECHARGE_FACES, item_places, trade_partners
from machina_nb.rules.engine.resolution import NeedChoice, resolve
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()

# --- the inventory tree (manual p31-32) ----------------------------------------------

def test_manual_p31_the_inventory_example_is_valid():
    inv = Inventory("e", (p31_weapons(), p31_apparel()), (I["rotopod"], I["sanguivorous_egg"]))
    assert validate_inventory(inv) is inv


@pytest.mark.parametrize("host, upgrade, rule", [
    ("displacer_vest", "aeromantle", "a torso cannot upgrade another torso"),
    ("hobnailed_boots", "reconnoisseur", "a weapon cannot upgrade an apparel"),
])
def test_manual_p31_wrong_upgrades_are_refused(host, upgrade, rule):
    with pytest.raises(RulesError, match=rule + ".*manual p31"):
        validate_inventory(Inventory("e", (tree(host, tree(upgrade)),)))


def test_manual_p31_an_augment_needs_the_same_symbol():
    with pytest.raises(RulesError, match="same augment symbol.*manual p31"):
        validate_inventory(Inventory("e", (tree("aeromantle", None, tree("arcane_coating")),)))
    validate_inventory(Inventory("e", (tree("reconnoisseur", None, tree("arcane_coating")),)))


@pytest.mark.parametrize("mains, ok", [
    (("reconnoisseur", "blood_boost_gun"), True),     # two one-handed main weapons
    (("teleportabulus", "reconnoisseur"), False),     # the two-handed one forbids a second
    (("rotopod", "stygian_pendant"), False),           # one artifact only
    (("hobnailed_boots", "proximity_bender"), False),  # one main apparel
])
def test_manual_p31_one_main_item_per_type(mains, ok):
    inv = Inventory("e", tuple(tree(m) for m in mains))
    if ok:
        validate_inventory(inv)
    else:
        with pytest.raises(RulesError, match="one main"):
            validate_inventory(inv)


@pytest.mark.parametrize("inv, rule", [
    (Inventory("e", (tree("leather_holster"),)), "never a main item"),
    (Inventory("e", (tree("sanguivorous_egg"),)), "never equipped"),
    (Inventory("e", (tree("hobnailed_boots", tree("leather_holster")),)), "horizontal slot"),
    (Inventory("e", (tree("hobnailed_boots"),), (I["hobnailed_boots"],)), "appears twice"),
])
def test_manual_p31_p32_other_refusals(inv, rule):
    with pytest.raises(RulesError, match=rule):
        validate_inventory(inv)


def test_manual_p32_unequip_takes_the_upgrades_and_augments_along():
    inv = Inventory("e", (p31_apparel(),))
    after = unequip(inv, "aeromantle")
    assert [c.id for c in equipped_items(after)] == ["hobnailed_boots"]
    assert {c.id for c in after.unequipped} == {"aeromantle", "brass_goggles", "leather_holster"}


def test_manual_p32_equip_and_attach_refuse_what_does_not_fit():
    inv = Inventory("e", (), (I["hobnailed_boots"], I["proximity_bender"]))
    inv = equip_main(inv, "hobnailed_boots")
    with pytest.raises(RulesError, match="one main apparel"):
        equip_main(inv, "proximity_bender")
    swapped = equip_main(inv, "proximity_bender", replacing="hobnailed_boots")
    assert [c.id for c in equipped_items(swapped)] == ["proximity_bender"]
    with pytest.raises(RulesError, match="already equipped"):
        attach(inv, "hobnailed_boots", "hobnailed_boots", "upgrade")


def test_manual_p33_class_item_types():
    assert CLASS_ITEM_TYPES["gunman"] == ("apparel",)
    assert CLASS_ITEM_TYPES["bruiser"] == ("weapon",)
    assert CLASS_ITEM_TYPES["mystic"] == ("artifact",)
    assert set(CLASS_ITEM_TYPES["crafter"]) >= {"weapon", "apparel", "artifact"}
    assert class_may_equip("gunman", I["proximity_bender"])
    assert not class_may_equip("bruiser", I["proximity_bender"])
    assert not class_may_equip("crafter", I["leather_holster"])     # augments are never main


# --- attributes (manual p19; ruling C-17) ----------------------------------------------------

def test_manual_p19_lorrai_with_the_displacer_vest_has_armor_3_and_will_4():
    state = on_map({0: "L...."}, {"L": CARDS["lorrai"]})
    dressed = set_inventory(state, Inventory("lorrai", (tree("displacer_vest"),)), RULES)
    lorrai = dressed.unit("lorrai")
    assert (lorrai.armor, lorrai.will) == (3, 4)
    bare = set_inventory(dressed, unequip(inventory_of(dressed, "lorrai"), "displacer_vest"),
                         RULES)
    assert (bare.unit("lorrai").armor, bare.unit("lorrai").will) == (2, 3)


def test_manual_p18_bonuses_stay_within_0_9_and_come_off_exactly():
    state = on_map({0: "E...."}, {"E": (explorer("e", will=8), {})})
    on = set_inventory(state, Inventory("e", (tree("aeromantle"),)), RULES)     # will +3
    assert on.unit("e").will == 9
    off = set_inventory(on, unequip(inventory_of(on, "e"), "aeromantle"), RULES)
    assert off.unit("e").will == 8 and inventory_of(off, "e").applied == ()


@pytest.mark.parametrize("reading, will", [("no", 2), ("yes", 3)])
def test_consumables_in_play(reading, will):
    """Smelling Salts, held unequipped, carries a passive will +1: does it count?"""
    state = on_map({0: "E...."}, {"E": explorer("e")})
    rules = RULES.replace({"consumables_in_play": reading})
    held = set_inventory(state, Inventory("e", (), (I["smelling_salts"],)), rules)
    assert held.unit("e").will == will


# --- gain item, the chest (manual p33, p37) -------------------------------------------

def test_manual_p33_kim_equips_the_proximity_bender_from_a_chest():
    state = kim_at_chest()
    kim = state.unit("kim")
    assert (kim.armor, kim.will) == (3, 6)      # boots +1 armor, aeromantle +3, goggles +1 will
    choices = ("apparel", "weapon", "reconnoisseur", "top", "kim", "equip")
    after, events = apply(state, Activate("kim", (1, 0), choices=choices), RULES)
    inv = inventory_of(after, "kim")
    assert [t.item.id for t in inv.equipped] == ["proximity_bender"]
    assert equipped_items(inv) == (I["proximity_bender"],)
    assert {c.id for c in inv.unequipped} == {"hobnailed_boots", "aeromantle", "brass_goggles",
                                              "leather_holster"}
    kim = after.unit("kim")
    assert (kim.armor, kim.will, kim.stamina, kim.essence) == (3, 2, 3, 1)
    assert after.items.weapon == (I["reconnoisseur"],) and after.items.apparel == ()
    assert any("manual p33" in e.rule for e in events)


def test_manual_p33_or_she_keeps_it_and_uses_her_inventory_for_3_stamina():
    state = kim_at_chest()
    choices = ("apparel", "weapon", "reconnoisseur", "destroy", "kim", "keep_unequipped")
    state, _ = apply(state, Activate("kim", (1, 0), choices=choices), RULES)
    assert state.items.destroyed == (I["reconnoisseur"],)
    steps = (("main", "hobnailed_boots"), ("upgrade", "aeromantle", "hobnailed_boots"),
             ("upgrade", "proximity_bender", "aeromantle"),
             ("augment", "leather_holster", "aeromantle"))
    after, _ = apply(state, UseInventory("kim", steps=steps), RULES)
    assert after.unit("kim").stamina == state.unit("kim").stamina - 3
    assert [c.id for c in inventory_of(after, "kim").unequipped] == ["brass_goggles"]
    assert after.unit("kim").armor == 4     # base 2, boots +1, bender +1


def test_manual_p33_each_choice_is_offered_to_the_players():
    state = kim_at_chest()
    need = decision(state, Activate("kim", (1, 0)), RULES)
    assert set(need.options) == {"apparel", "weapon"}
    offered = [a for a in legal_actions(state, RULES) if isinstance(a, Activate)]
    assert offered == [Activate("kim", (1, 0))]            # the deck is chosen when it is used
    after, _ = apply(state, offered[0], RULES)
    assert legal_actions(after, RULES) == tuple(Choose(option=o) for o in need.options)


def test_manual_p33_a_bruiser_cannot_equip_apparel_at_once():
    state = kim_at_chest()
    state = state.update_unit("kim", unit_class="bruiser")
    choices = ("apparel", "weapon", "reconnoisseur", "top", "kim", "equip")
    after, _ = apply(state, Activate("kim", (1, 0), choices=choices), RULES)
    assert I["proximity_bender"] in inventory_of(after, "kim").unequipped


def test_manual_p33_the_gained_item_may_go_to_an_adjacent_explorer():
    state = on_map({0: "Kc..F", 1: "E...."}, {"K": CARDS["kim"], "E": explorer("e"),
                                              "F": explorer("f")}, phase="explorer", active="kim",
                   items=ItemDecks(apparel=(I["proximity_bender"], I["aeromantle"])))
    need = decision(state, Activate("kim", (1, 0), choices=("apparel", "apparel", "aeromantle",
                                                         "top")), RULES)
    assert need.options == ("kim", "e")       # f is not adjacent
    after, _ = apply(state, Activate("kim", (1, 0), choices=(
        "apparel", "apparel", "aeromantle", "top", "e")), RULES)
    assert inventory_of(after, "e").unequipped == (I["proximity_bender"],)
    assert after.items.apparel == (I["aeromantle"],)


def test_illegal_inventory_actions_leave_the_state_unchanged():
    state = kim_at_chest()
    before = to_json(state)
    with pytest.raises(RulesError, match="horizontal slot"):
        apply(state, UseInventory("kim", steps=(("main", "hobnailed_boots"),
                                                ("upgrade", "leather_holster",
                                                 "hobnailed_boots"))), RULES)
    with pytest.raises(RulesError, match="one main apparel"):
        apply(state, UseInventory("kim", steps=(("main", "aeromantle"),
                                                ("main", "hobnailed_boots"))), RULES)
    with pytest.raises(RulesError, match="stamina"):
        apply(state.update_unit("kim", stamina=2), UseInventory("kim"), RULES)
    assert to_json(state) == before


# --- trade, recharge station (manual p32, p37; 3.5 FAQ) --------------------------

def two_explorers(rows, **fields):
    state = on_map(rows, {"A": explorer("a"), "B": explorer("b"), **fields.pop("more", {})},
                   width=7, height=3, spaces=fields.pop("spaces", None), phase="explorer",
                   active="a", **fields)
    return set_inventory(state, Inventory("b", (p31_apparel(),)), RULES)


def test_manual_p32_trade_costs_2_and_items_arrive_unequipped():
    state = two_explorers({0: "AB....."})
    after, _ = apply(state, Trade("a", partner="b", take=("aeromantle",)), RULES)
    assert after.unit("a").stamina == state.unit("a").stamina - 2
    assert inventory_of(after, "a").unequipped == (I["aeromantle"],)
    b = inventory_of(after, "b")
    assert [c.id for c in equipped_items(b)] == ["hobnailed_boots"]
    assert {c.id for c in b.unequipped} == {"brass_goggles", "leather_holster"}
    assert after.unit("b").will == 2        # aeromantle and goggles no longer equipped
    with pytest.raises(RulesError, match="adjacent"):
        apply(two_explorers({0: "A.B...."}), Trade("a", partner="b", take=("aeromantle",)),
              RULES)


def test_3_5_faq_recharge_trade_partners():
    """B stands next to another recharge station far away, C next to a workbench, D nowhere,
    E next to the station A activates (3.5 FAQ)."""
    state = on_map({0: "AgE..gB", 1: ".......", 2: "wC...D."},
                   {"A": explorer("a"), "B": explorer("b"), "C": explorer("c"),
                    "D": explorer("d"), "E": explorer("e")}, width=7, height=3,
                   phase="explorer", active="a")
    state = set_inventory(state, Inventory("b", (tree("displacer_vest"),)), RULES)
    assert set(trade_partners(state, RULES, "a", (1, 0))) == {"b", "c", "e"}
    after, events = apply(state, Activate("a", (1, 0)), RULES, ScriptedDice([5]))
    assert RECHARGE_FACES[4] == "nothing" and after.item_window.trade_partners
    assert after.unit("a").stamina == state.unit("a").stamina - 1
    # a free trade with B, far away but next to another recharge station
    after, _ = apply(after, Trade("a", partner="b", take=("displacer_vest",)), RULES)
    assert after.unit("a").stamina == state.unit("a").stamina - 1
    assert after.unit("a").armor == state.unit("a").armor      # traded items arrive unequipped
    # then use inventory for free, but not on B: not adjacent
    with pytest.raises(RulesError, match="adjacent"):
        apply(after, UseInventory("a", owner="b"), RULES)
    dressed, _ = apply(after, UseInventory("a", steps=(("main", "displacer_vest"),)), RULES)
    assert dressed.unit("a").stamina == after.unit("a").stamina and dressed.item_window is None
    assert dressed.unit("a").armor == state.unit("a").armor + 1


@pytest.mark.parametrize("face, health, stamina", [(1, 4, 3), (3, 3, 4), (5, 3, 3)])
def test_the_recharge_die_faces_are_data(face, health, stamina):
    state = on_map({0: "Ag..."}, {"A": (explorer("a"), {"health": 3, "stamina": 4})},
                   phase="explorer", active="a")
    after, events = apply(state, Activate("a", (1, 0)), RULES, ScriptedDice([face]))
    assert (after.unit("a").health, after.unit("a").stamina) == (health, stamina)
    assert any("recharge.stamina" in e.rule for e in events)


def test_manual_p33_the_workbench():
    state = on_map({0: "Aw..."}, {"A": explorer("a")}, phase="explorer", active="a",
                   items=ItemDecks(weapon=(I["reconnoisseur"], I["blood_boost_gun"]),
                                   artifact=(I["rotopod"],)))
    state = set_inventory(state, Inventory("a", (), (I["sanguivorous_egg"],)), RULES)
    choices = ("weapon", "weapon", "artifact",
               "none", "sanguivorous_egg", "none",        # swap the egg for the second card
               "rotopod", "a",                            # keep the Rotopod
               "top", "destroy")                          # egg back on top? no: its deck
    after, _ = apply(state, Activate("a", (1, 0), choices=choices), RULES)
    inv = inventory_of(after, "a")
    assert {c.id for c in inv.unequipped} == {"blood_boost_gun", "rotopod"}
    assert after.items.consumable == (I["sanguivorous_egg"],)
    assert after.items.destroyed == (I["reconnoisseur"],)
    assert after.item_window is not None and after.item_window.trade_partners is None
    equip = UseInventory("a", steps=(("main", "rotopod"), ("main", "blood_boost_gun")))
    assert equip in legal_actions(after, RULES) or any(
        isinstance(a, UseInventory) and a.steps for a in legal_actions(after, RULES))
    dressed, _ = apply(after, equip, RULES)
    assert dressed.unit("a").stamina == after.unit("a").stamina
    closed, _ = apply(after, EndTurn("a"), RULES)
    assert closed.item_window is None


# --- abilities of items, consumables (manual p20, p30, p33) -------------------------------------

def test_manual_p30_a_consumable_is_used_from_the_inventory_and_destroyed():
    state = on_map({0: "A...."}, {"A": (explorer("a"), {"health": 3})}, phase="explorer",
                   active="a")
    state = set_inventory(state, Inventory("a", (), (I["sanguivorous_egg"],)), RULES)
    names = [a.name for a in explorer_abilities(state, state.unit("a"))]
    assert names == ["devour"]
    after, _ = apply(state, PlayAbility("a", 0), RULES)
    assert after.unit("a").health == 4 and after.inventories == ()
    assert after.items.destroyed == (I["sanguivorous_egg"],)


def test_manual_p31_only_equipped_items_lend_their_abilities():
    state = on_map({0: "A...."}, {"A": explorer("a")}, phase="explorer", active="a")
    held = set_inventory(state, Inventory("a", (), (I["proximity_bender"],)), RULES)
    assert explorer_abilities(held, held.unit("a")) == ()
    worn = set_inventory(state, Inventory("a", (tree("proximity_bender"),)), RULES)
    assert [a.name for a in explorer_abilities(worn, worn.unit("a"))] == ["bend"]
    after, _ = apply(worn, PlayAbility("a", 0, choices=((1, 0),)), RULES)
    assert after.unit("a").position == (1, 0) and inventory_of(after, "a").equipped


# --- level 5, death, add item level (manual p14, p19, p33; ruling D30) ---------------------------

def level_five(inventory_b=True):
    state = on_map({0: "A.B.."}, {"A": explorer("a"), "B": explorer("b")}, level=5)
    state = set_inventory(state, Inventory("a", (p31_apparel(),)), RULES)
    if inventory_b:
        state = set_inventory(state, Inventory("b", (), (I["rotopod"],)), RULES)
    return state


def test_manual_p14_level_five_destroys_an_item_or_the_explorer():
    state = level_five()
    r = new_resolution(state, RULES, ScriptedDice(), choices=("aeromantle",))
    threat_up(r, 1, "a spawn at the limit")
    after = r.state
    assert after.threat == state.threat and not after.has_unit("b") and after.has_unit("a")
    inv = inventory_of(after, "a")
    assert [c.id for c in equipped_items(inv)] == ["hobnailed_boots"]
    assert I["aeromantle"] in after.items.destroyed
    assert I["rotopod"] in after.items.destroyed       # b's inventory, on b's death (p19)
    with pytest.raises(NeedChoice):                     # which item is the players' choice
        threat_up(new_resolution(state, RULES, ScriptedDice()), 1, "again")


@pytest.mark.parametrize("reading, removed", [("floor", 1), ("ceil", 2),
                                              ("players_choose", 2)])
def test_add_item_level_halves_each_deck(reading, removed):
    decks = ItemDecks(weapon=(I["reconnoisseur"], I["blood_boost_gun"], I["circular_saw"]),
                      artifact=(I["rotopod"], I["stygian_pendant"]),
                      reserve=(I["puncturing_revolver"], I["warding_lens"],
                               I["teleportabulus"]))
    state = replace(on_map({0: "A...."}, {"A": explorer("a")}), items=decks)
    r = new_resolution(state, RULES.replace({"half.rounding": reading}), ScriptedDice(),
                   choices=("ceil",))
    resolve(r, (Effect("add_item_level", amount=2),), None, None, "chapter 2")
    items = r.state.items
    assert len(items.weapon) == 3 - removed + 1 and len(items.artifact) == 1 + 1
    assert I["puncturing_revolver"] in items.weapon and I["warding_lens"] in items.artifact
    assert items.reserve == (I["teleportabulus"],)


@pytest.mark.parametrize("reading, in_deck", [("level", False), ("not_level", True)])
def test_manual_p30_the_number_before_an_item_name_read_as_its_level(reading, in_deck):
    """The Teleportabulus is printed with a 3 (p30). Read as its level, it waits in the reserve
    at setup and comes with add item level 3; otherwise it is dealt into the weapon deck (p8)."""
    rules = RULES.replace({"item.printed_number": reading})
    decks = ItemDecks.deal(tuple(ITEMS.values()), rules=rules)
    assert (I["teleportabulus"] in decks.weapon) is in_deck
    assert (I["teleportabulus"] in decks.reserve) is not in_deck
    assert I["warding_lens"] in decks.reserve           # a level of ours: read as it is
    state = replace(on_map({0: "A...."}, {"A": explorer("a")}),
                    items=ItemDecks(reserve=(I["teleportabulus"],)))
    r = new_resolution(state, rules, ScriptedDice())
    resolve(r, (Effect("add_item_level", amount=3),), None, None, "chapter 3")
    assert (I["teleportabulus"] in r.state.items.weapon) is not in_deck


# --- the state: JSON, legal actions, invariants -------------------------------------------------

def test_inventories_and_decks_round_trip_through_json():
    state = kim_at_chest()
    state = replace(state, items=replace(state.items, destroyed=(I["rotopod"],),
                                         reserve=(I["teleportabulus"],)))
    assert from_json(to_json(state)) == state
    assert item_places(state)["leather_holster"] == "kim"


def test_every_listed_inventory_action_applies():
    state = two_explorers({0: "AB.....", 1: "w......"})
    state = set_inventory(state, Inventory("a", (), (I["reconnoisseur"], I["rotopod"])), RULES)
    actions = [a for a in legal_actions(state, RULES) if isinstance(a, (UseInventory, Trade))]
    assert {type(a) for a in actions} == {UseInventory, Trade}
    assert UseInventory("a", owner="b") in actions      # on an adjacent explorer (p32)
    for action in actions:
        after, _ = apply(state, action, RULES)
        assert sorted(item_places(after).items()) == sorted(item_places(state).items()) or \
            isinstance(action, Trade)
        for inv in after.inventories:
            validate_inventory(inv)


CARD_IDS = sorted(ITEMS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(("main", "upgrade", "augment", "unequip")),
                          st.sampled_from(CARD_IDS), st.sampled_from(CARD_IDS)), max_size=25))
def test_inventory_operations_keep_the_tree_valid(ops):
    """Random equip/attach/unequip: every result is valid and holds each card exactly once."""
    inv = Inventory("e", (), tuple(ITEMS.values()))
    for op, item, host in ops:
        try:
            if op == "main":
                inv = equip_main(inv, item)
            elif op == "unequip":
                inv = unequip(inv, item)
            else:
                inv = attach(inv, host, item, op)
        except RulesError:
            continue
        validate_inventory(inv)
        ids = sorted(c.id for c in equipped_items(inv) + inv.unequipped)
        assert ids == CARD_IDS


@pytest.mark.parametrize("reading", ["yes", "no"])
def test_manual_p14_level_five_rule_per_reading(reading):
    """At level 5 an increase costs items (yes) or just raises threat (no; 3.5 silence)."""
    state = level_five()
    r = new_resolution(state, RULES.replace({"level5_rule": reading}), ScriptedDice(),
                   choices=("hobnailed_boots",))
    threat_up(r, 1, "a horror event")
    kept = equipped_items(inventory_of(r.state, "a"))
    if reading == "yes":
        assert kept == () and r.state.threat == state.threat
    else:
        assert len(kept) == 4 and r.state.threat == state.threat + 1 and r.state.has_unit("b")


def test_manual_p32_use_inventory_gives_items_to_adjacent_explorers():
    state = two_explorers({0: "AB.C...", 1: "......."}, more={"C": explorer("c")})
    gift = UseInventory("a", owner="b", steps=(("main", "hobnailed_boots"),),
                        gifts=(("aeromantle", "a"),))
    after, _ = apply(state, gift, RULES)
    assert inventory_of(after, "a").unequipped == (I["aeromantle"],)
    assert [c.id for c in equipped_items(inventory_of(after, "b"))] == ["hobnailed_boots"]
    with pytest.raises(RulesError, match="adjacent"):
        apply(state, replace(gift, gifts=(("aeromantle", "c"),)), RULES)
    with pytest.raises(RulesError, match="unequipped"):
        apply(state, replace(gift, gifts=(("hobnailed_boots", "a"),)), RULES)


def test_manual_p37_the_free_steps_end_with_any_other_action():
    state = on_map({0: "Ag..."}, {"A": explorer("a")}, phase="explorer", active="a")
    state = set_inventory(state, Inventory("a", (), (I["rotopod"],)), RULES)
    after, _ = apply(state, Activate("a", (1, 0)), RULES, ScriptedDice([6]))
    assert after.item_window is not None and from_json(to_json(after)) == after
    moved, _ = apply(after, legal_actions(after, RULES)[0], RULES)
    assert moved.item_window is None
    with pytest.raises(RulesError, match="stamina"):
        apply(moved.update_unit("a", stamina=2), UseInventory("a", steps=(("main", "rotopod"),)),
              RULES)


def test_manual_p32_a_trade_needs_items_each_side_holds():
    state = two_explorers({0: "AB....."})
    with pytest.raises(RulesError, match="at least one item"):
        apply(state, Trade("a", partner="b"), RULES)
    with pytest.raises(RulesError, match="does not hold"):
        apply(state, Trade("a", partner="b", give=("rotopod",)), RULES)


def test_manual_p27_a_used_consumable_with_a_lasting_effect_waits_for_its_marker():
    from machina_nb.rules.cards.abilities import Ability
    from machina_nb.rules.cards.items import ItemCard
    from machina_nb.rules.engine.effects import return_markers
    tonic = ItemCard("tonic", "Tonic", "consumable", abilities=(Ability("Quaff", effects=(
        Effect("roll_modifier", scope="self", amount=1, key="tonic"),)),))
    state = on_map({0: "A...."}, {"A": explorer("a")}, phase="explorer", active="a")
    state = set_inventory(state, Inventory("a", (), (tonic,)), RULES)
    after, _ = apply(state, PlayAbility("a", 0), RULES)
    assert inventory_of(after, "a").spent == (tonic,) and after.items.destroyed == ()
    assert explorer_abilities(after, after.unit("a")) == ()       # not usable meanwhile
    assert item_places(after)["tonic"] == "a" and from_json(to_json(after)) == after
    r = new_resolution(after, RULES, ScriptedDice())
    return_markers(r, "explorer", "explorer phase begins")
    assert r.state.items.destroyed == (tonic,) and r.state.inventories == ()


@pytest.mark.parametrize("reading, stamina", [("to_max", 5), ("plus_one", 3)])
def test_recharge_stamina(reading, stamina):
    """2 stamina left after paying for the station; the die shows 'restore stamina'."""
    state = on_map({0: "Ag..."}, {"A": (explorer("a", stamina=5), {"stamina": 3})},
                   phase="explorer", active="a")
    rules = RULES.replace({"recharge.stamina": reading})
    after, _ = apply(state, Activate("a", (1, 0)), rules, ScriptedDice([3]))
    assert RECHARGE_FACES[2] == "stamina" and after.unit("a").stamina == stamina
