"""The attacks a unit card can make and what its target defends with, read from the content."""

from machina_nb.rules.cards.attack_choices import (
    attack_choices,
    defense_attribute,
    defense_of,
    unit_attacks,
    weapon_attacks,
)
from machina_nb.rules.cards.items import load_all_items
from machina_nb.rules.cards.units import content_cards

CARDS = content_cards()
ITEMS = load_all_items()


def test_manual_p24_mi_go_defends_with_armor_3_against_physical_and_will_against_arcane():
    mi_go = CARDS["mi_go"]
    assert defense_of(mi_go, arcane=False) == 3 == mi_go.armor
    assert defense_of(mi_go, arcane=True) == mi_go.will
    assert (defense_attribute(False), defense_attribute(True)) == ("armor", "will")


def test_manual_p21_hex_bolt_is_an_arcane_attack_with_one_low_die():
    (hex_bolt,) = unit_attacks(CARDS["lorrai"])
    assert (hex_bolt.unit, hex_bolt.label, hex_bolt.high, hex_bolt.low, hex_bolt.arcane) == \
        ("Lorrai", "Hex Bolt", 0, 1, True)
    assert hex_bolt.defense == "will" and hex_bolt.weapon is None


def test_manual_p26_an_attack_inside_a_conditional_branch_is_found():
    (smite,) = unit_attacks(CARDS["kthun"])
    assert (smite.high, smite.low, smite.arcane) == (1, 1, True)


def test_abilities_without_an_attack_give_none():
    assert unit_attacks(CARDS["phillip"]) == ()
    assert unit_attacks(CARDS["sample_warden"]) == ()


def test_manual_p33_an_explorer_attacks_with_a_weapon_a_monster_does_not():
    revolver = ITEMS["puncturing_revolver"]
    (shoot,) = weapon_attacks(CARDS["kim"], revolver)
    assert (shoot.label, shoot.high, shoot.low, shoot.arcane, shoot.weapon) == \
        ("Puncturing Revolver: Shoot", 2, 0, False, "Puncturing Revolver")
    assert weapon_attacks(CARDS["mi_go"], revolver) == ()
    assert weapon_attacks(CARDS["kim"], ITEMS["precision_scope"]) == ()


def test_own_abilities_come_before_weapons():
    choices = attack_choices(CARDS["hank"], ITEMS)
    assert choices[0].label == "Stunning Blow" and all(c.weapon for c in choices[1:])
    assert attack_choices(CARDS["mi_go"], ITEMS) == unit_attacks(CARDS["mi_go"])
