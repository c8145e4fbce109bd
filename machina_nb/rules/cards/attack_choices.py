"""The attacks a unit card can make, and what the target defends with.

A unit attacks through its own abilities; an explorer also through the abilities of a weapon
card it may equip. Each attack found is an :class:`AttackChoice`: whose it is, the ability,
the dice and whether it is arcane. :func:`defense_attribute` and :func:`defense_of` say which
attribute of the target the total must reach: armor against a physical attack, will against
an arcane one.

>>> from machina_nb.rules.cards.units import content_cards
>>> cards = content_cards()
>>> [(c.label, c.high, c.low, c.arcane) for c in unit_attacks(cards["lorrai"])]
[('Hex Bolt', 0, 1, True)]
>>> defense_of(cards["mi_go"], arcane=True), defense_of(cards["mi_go"], arcane=False)
(2, 3)

Rules: manual p24 (an attack rolls its dice against armor, or will when arcane), p20-21
(abilities on unit cards), p30 and p33 (weapons and their abilities belong to the owner).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from machina_nb.rules.cards.abilities import Ability, Effect
from machina_nb.rules.cards.items import ItemCard
from machina_nb.rules.cards.units import UnitCard

__all__ = ["AttackChoice", "ability_label", "unit_attacks", "weapon_attacks", "attack_choices",
           "defense_attribute", "defense_of"]


@dataclass(frozen=True)
class AttackChoice:
    """One attack a unit can make: the ability (on its own card or on a weapon) and its roll."""

    unit: str
    """The attacking unit's card name ("Lorrai")."""
    ability: str
    """The ability's id as the card file names it ("hex_bolt")."""
    high: int
    """High dice rolled."""
    low: int
    """Low dice rolled."""
    arcane: bool
    """True for an arcane attack (compared with will), false for a physical one (armor)."""
    weapon: str | None = None
    """The weapon card's name when the ability is printed on a weapon, else None."""

    @property
    def label(self) -> str:
        """The ability's name in words, after the weapon's when on one ("Puncturing Revolver:
        Shoot")."""
        name = ability_label(self.ability)
        return f"{self.weapon}: {name}" if self.weapon else name

    @property
    def defense(self) -> str:
        """The target attribute the total must reach: ``armor`` or ``will`` (manual p24)."""
        return defense_attribute(self.arcane)


def ability_label(ability_id: str) -> str:
    """An ability id in words: ``hex_bolt`` -> ``Hex Bolt``.

    >>> ability_label("tend_or_smite")
    'Tend Or Smite'
    """
    return " ".join(word.capitalize() for word in ability_id.split("_"))


def _attack_effects(effects: Iterable[Effect]) -> Iterable[Effect]:
    """Every attack among ``effects``, inside conditional branches too, in printed order."""
    for effect in effects:
        if effect.op == "attack":
            yield effect
        yield from _attack_effects(effect.then)
        yield from _attack_effects(effect.otherwise)


def _choices(unit: str, abilities: Iterable[Ability], weapon: str | None) -> tuple[AttackChoice, ...]:
    found: list[AttackChoice] = []
    for ability in abilities:
        for effect in _attack_effects(ability.effects):
            choice = AttackChoice(unit, ability.name, effect.high, effect.low, effect.arcane, weapon)
            if choice not in found:
                found.append(choice)
    return tuple(found)


def unit_attacks(card: UnitCard) -> tuple[AttackChoice, ...]:
    """The attacks printed on ``card``'s own abilities, in card order (a roll once each).

    Rules: manual p20-21 (abilities), p24 (attack).
    """
    return _choices(card.name, card.abilities, None)


def weapon_attacks(card: UnitCard, weapon: ItemCard) -> tuple[AttackChoice, ...]:
    """The attacks ``weapon``'s abilities give the explorer ``card`` holding it; none for a
    monster (monsters hold no items) or for an item that is not a weapon.

    Rules: manual p30 (weapons), p33 (an item's abilities belong to its owner), p24 (attack).
    """
    if card.side != "explorer" or weapon.type != "weapon":
        return ()
    return _choices(card.name, weapon.abilities, weapon.name)


def attack_choices(card: UnitCard, items: Mapping[str, ItemCard] | Iterable[ItemCard] = ()
                   ) -> tuple[AttackChoice, ...]:
    """Every attack ``card`` can make: its own abilities first, then each weapon of ``items``
    (an explorer only), weapons in the order given.

    Rules: manual p24 (attack), p30 and p33 (weapons).
    """
    weapons = items.values() if isinstance(items, Mapping) else items
    return unit_attacks(card) + tuple(c for w in weapons for c in weapon_attacks(card, w))


def defense_attribute(arcane: bool) -> str:
    """``will`` for an arcane attack, ``armor`` for a physical one.

    Rules: manual p24 (a physical attack against armor, an arcane one against will).
    """
    return "will" if arcane else "armor"


def defense_of(card: UnitCard, arcane: bool) -> int:
    """The target's printed armor (physical attack) or will (arcane attack).

    Rules: manual p24 (the total must reach the target's armor or will).
    """
    defense: int = getattr(card, defense_attribute(arcane))
    return defense
