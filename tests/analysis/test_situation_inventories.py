"""Whole inventories in situation files: main items, upgrades, augments, unequipped cards and
held consumables, refused at file:line:col where the inventory rules refuse them (manual
p30-32)."""

from __future__ import annotations

import pytest

from machina_nb.rules.analysis.draft import draft_of_situation, to_situation, to_toml
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.cards.items import equipped_items
from machina_nb.rules.engine.holdings import inventory_of
from machina_nb.rules.errors import ContentError

BOARD = '''
kind = "situation"
id = "full_inventory"
title = "The manual's inventory picture"
map = \'\'\'
+-+-+-+
|K . M|
+-+-+-+
\'\'\'

[unit.M]
card = "mi_go"
'''

PICTURE = BOARD + '''
[unit.K]
card = "kim"
items = ["teleportabulus", "hobnailed_boots"]
upgrades = { puncturing_revolver = "teleportabulus", aeromantle = "hobnailed_boots", brass_goggles = "aeromantle" }
augments = { precision_scope = "puncturing_revolver", leather_holster = "aeromantle" }
unequipped = ["rotopod"]
consumables = ["sanguivorous_egg"]
'''


def _tree(tree) -> tuple:
    return (tree.item.id, _tree(tree.upgrade) if tree.upgrade else None,
            _tree(tree.augment) if tree.augment else None)


def test_manual_p31_the_inventory_picture_loads_whole():
    """The manual's inventory example: a two-handed weapon upgraded by a revolver that is
    augmented by a scope; boots upgraded by a torso, which is upgraded by head apparel and
    augmented by a holster; an artifact unequipped; a consumable held (manual p31)."""
    s = situation_from_text(PICTURE, "picture.toml")
    inv = inventory_of(s.state_at(s.rules()), "kim")
    assert [_tree(t) for t in inv.equipped] == [
        ("teleportabulus", ("puncturing_revolver", None, ("precision_scope", None, None)), None),
        ("hobnailed_boots", ("aeromantle", ("brass_goggles", None, None),
                             ("leather_holster", None, None)), None)]
    assert [c.id for c in inv.unequipped] == ["rotopod", "sanguivorous_egg"]
    assert len(equipped_items(inv)) == 7


def test_full_inventory_survives_the_analysis_board_draft():
    s = situation_from_text(PICTURE, "picture.toml")
    again = to_situation(draft_of_situation(s))
    assert again.items == s.items
    assert to_toml(draft_of_situation(again)) == to_toml(draft_of_situation(s))


BOOTS = 'items = ["hobnailed_boots"]'
VEST_ON_BOOTS = 'upgrades = { aeromantle = "hobnailed_boots" }'


@pytest.mark.parametrize("lines, key, words", [
    ((BOOTS, 'upgrades = { aeromantle = "hobnailed_boots", displacer_vest = "aeromantle" }'),
     "upgrades", "torso cannot upgrade"),
    ((BOOTS, 'upgrades = { blood_boost_gun = "hobnailed_boots" }'), "upgrades", "cannot upgrade"),
    ((BOOTS, VEST_ON_BOOTS, 'augments = { precision_scope = "aeromantle" }'), "augments",
     "augment"),
    ((BOOTS, 'upgrades = { rotopod = "hobnailed_boots" }'), "upgrades", "artifact"),
    ((BOOTS, 'upgrades = { brass_goggles = "teleportabulus" }'), "upgrades", "not equipped"),
    ((BOOTS, 'consumables = ["rotopod"]'), "consumables", "not a consumable"),
    (('items = ["hobnailed_boots", "aeromantle"]',), "items", "one main apparel"),
    (('items = ["leather_holster"]',), "items", "augment"),
    ((BOOTS, 'unequipped = ["hobnailed_boots"]'), "unequipped", "twice"),
    ((BOOTS, 'unequipped = ["no_such_card"]'), "unequipped", "unknown item"),
])
def test_manual_p31_wrong_combinations_refused_at_their_key(lines, key, words):
    """The wrong combinations of manual p31, and the rules of p30 and p32, each refused at the
    key of the unit table that brings it."""
    text = BOARD + '\n[unit.K]\ncard = "kim"\n' + "\n".join(lines) + "\n"
    with pytest.raises(ContentError) as err:
        situation_from_text(text, "mine.toml")
    at = next(i for i, t in enumerate(text.split("\n")) if t.startswith(f"{key} =")) + 1
    assert str(err.value).startswith(f"mine.toml:{at}:"), str(err.value)
    assert words in str(err.value)


def test_manual_p30_only_explorers_hold_items():
    text = BOARD.replace('card = "mi_go"', 'card = "mi_go"\nconsumables = ["smelling_salts"]')
    text += '[unit.K]\ncard = "kim"\n'
    with pytest.raises(ContentError, match="only explorers hold items"):
        situation_from_text(text, "mine.toml")
