"""The units and worked examples in content/: the numbers the manual states are the ones loaded."""

import dataclasses

import pytest

from machina_nb.rules import content
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.cards.units import ATTRIBUTES, load_all_units
from machina_nb.rules.errors import ContentError
from machina_nb.rules.rulings import Rules

UNITS = load_all_units()
DOORS = content.content_root() / "examples" / "p22_door_adjacency.toml"


def test_manual_p24_mi_go_has_armor_3_and_dies_to_a_second_hit():
    mi_go = UNITS["mi_go"]
    assert (mi_go.kind, mi_go.armor, mi_go.health) == ("monster", 3, 2)
    assert {"armor", "health"} <= set(mi_go.stated)


def test_manual_p16_p17_example_numbers():
    """Sarall has 4 stamina and a 3-stamina ability; the Witch 4 stamina; the Mi-Go 5 (Example C)."""
    assert UNITS["sarall"].stamina == 4
    assert UNITS["sarall"].abilities[0].record["cost"]["stamina"] == 3
    assert UNITS["witch"].stamina == 4
    assert UNITS["witch"].abilities[0].record["cost"]["stamina"] == 2  # 4 - 1 move - 1 left
    assert UNITS["mi_go"].stamina == 5
    assert UNITS["kthun"].immobile and not UNITS["sarall"].immobile
    assert UNITS["envoy_of_dagon"].abilities[1].record["range"] == 3


def test_manual_p33_kim_is_a_gunman_and_explorers_have_no_level():
    assert UNITS["kim"].unit_class == "gunman" and "class" in UNITS["kim"].stated
    assert all(u.level is None and u.unit_class for u in UNITS.values() if u.kind == "explorer")
    assert all(u.level in (1, 2, 3, 4) and u.unit_class is None and u.essence == 0
               for u in UNITS.values() if u.kind == "monster")


def test_manual_p18_attributes_are_0_to_9_and_units_are_frozen():
    for unit in UNITS.values():
        assert all(0 <= unit.attribute(name) <= 9 for name in ATTRIBUTES)
        assert unit.source and unit.invented in (True, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        UNITS["kim"].armor = 9
    with pytest.raises(KeyError, match="unknown attribute"):
        UNITS["kim"].attribute("luck")


def test_every_invented_number_is_marked():
    """No unit claims all its numbers from the sources: the manual prints no whole card."""
    assert all(unit.invented for unit in UNITS.values())


def test_manual_p22_door_example_board_matches_the_reconstruction():
    """The worked example's layout i, y flipped: Lorrai (0,2), Hank (1,2), Phillip (1,1), chapter space (1,3)."""
    example = load_example(DOORS)
    board = example.board
    assert example.page == "manual p22" and example.preset == "manual"
    assert {letter: example.unit(letter).name for letter, _ in example.units} == {
        "K": "Kim", "L": "Lorrai", "H": "Hank", "P": "Phillip"}
    assert dict(board.units) == {"K": (0, 0), "P": (1, 1), "L": (0, 2), "H": (1, 2)}
    assert board.space(1, 3) is SpaceKind.CHAPTER
    assert board.border((0, 2), (1, 2)) is BorderKind.DOOR_OPEN   # d1, on Lorrai's border
    assert board.border((0, 1), (1, 1)) is BorderKind.DOOR_OPEN   # d2, on Phillip's border
    assert board.border((0, 3), (1, 3)) is BorderKind.WALL
    assert board.border((0, 0), (1, 0)) is BorderKind.WALL
    assert example.rules() == Rules().replace({"los.vertex": "separating"})
    assert example.rules()["los.vertex"] == "separating"
    assert [step.do for step in example.steps][:3] == ["adjacent", "close_door", "close_door"]
    assert example.steps[-2].target == (0, 1) and example.steps[-1].target == "L"
    assert "at least one" in example.outcome


def test_an_example_can_be_loaded_against_given_units():
    with pytest.raises(ContentError, match="unknown unit 'kim'"):
        load_example(DOORS, units={})
