"""An explorer's whole inventory in a situation file: main items, upgrades, augments,
unequipped cards and held consumables, checked by the inventory rules play uses.

A unit table may give ``items`` (main items, equipped in order), ``upgrades`` and
``augments`` (tables ``card = "host"``: the card sits in the host's vertical upgrade slot or
horizontal augment slot; the host is a main item or a card attached to one),
``unequipped`` (cards held but not equipped) and ``consumables`` (consumable cards held).
:func:`read_holding` checks the keys at file:line:col, and builds the inventory once to
refuse what the manual forbids (one main item per type but two one-handed weapons; an upgrade
of the same type with the matching symbol; an augment with the host's augment symbol; never
an artifact upgraded or augmented; each card once); :func:`build_inventory` builds it.

>>> from machina_nb.rules.analysis.catalog import item_cards
>>> held = Holding(items=("displacer_vest",), consumables=("sanguivorous_egg",))
>>> inv = build_inventory("lorrai", held, item_cards())
>>> [t.item.name for t in inv.equipped], [c.name for c in inv.unequipped]
(['Displacer Vest'], ['Sanguivorous Egg'])

Rules: manual p30 (item types), p31 (inventory: main items, upgrades, augments, unequipped
items, consumables), p32 (equip, upgrade, augment).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from machina_nb.rules.cards.items import (
    Inventory,
    ItemCard,
    attach,
    equip_main,
    equipped_items,
    validate_inventory,
)
from machina_nb.rules.content import TomlFile
from machina_nb.rules.errors import RulesError

__all__ = ["INVENTORY_KEYS", "Holding", "read_holding", "build_inventory"]

INVENTORY_KEYS = ("items", "upgrades", "augments", "unequipped", "consumables")
"""The keys of a unit table that give an explorer's inventory (content/README.md)."""


@dataclass(frozen=True)
class Holding:
    """What an explorer holds, by item id, as the situation file gives it.

    Rules: manual p31 (inventory).
    """

    items: tuple[str, ...] = ()
    """Main items, equipped in this order."""
    upgrades: tuple[tuple[str, str], ...] = ()
    """(card, host): the card upgrades the host through its vertical slot."""
    augments: tuple[tuple[str, str], ...] = ()
    """(card, host): the card augments the host through its horizontal slot."""
    unequipped: tuple[str, ...] = ()
    """Cards held but not equipped."""
    consumables: tuple[str, ...] = ()
    """Consumable cards held (used from the inventory, never equipped)."""

    @property
    def empty(self) -> bool:
        """Nothing held."""
        return not (self.items or self.upgrades or self.augments or self.unequipped
                    or self.consumables)

    def cards(self) -> tuple[str, ...]:
        """Every card held, each key in the order of :data:`INVENTORY_KEYS`."""
        return (self.items + tuple(c for c, _ in self.upgrades)
                + tuple(c for c, _ in self.augments) + self.unequipped + self.consumables)


def read_holding(toml: TomlFile, name: str, entry: Mapping[str, Any],
                 items: Mapping[str, ItemCard], explorer: bool) -> Holding:
    """The inventory keys of the unit table ``[name]``, checked: known item cards, consumables
    that are consumables, only an explorer holding anything, and an inventory the rules allow;
    else a :class:`ContentError` at the key.

    Rules: manual p30 (consumables; only explorers hold items), p31-32 (inventory).
    """
    lists = {}
    for key in ("items", "unequipped", "consumables"):
        value = entry.get(key, [])
        if not isinstance(value, list) or any(not isinstance(i, str) for i in value):
            raise toml.error(name, key, f"'{key}' is a list of item ids")
        _known(toml, name, key, value, items)
        lists[key] = tuple(value)
    pairs = {}
    for key in ("upgrades", "augments"):
        value = entry.get(key, {})
        if not isinstance(value, dict) or any(not isinstance(h, str) for h in value.values()):
            raise toml.error(name, key, f"'{key}' is a table: card = \"host\" (the item it is "
                             "attached to), e.g. { aeromantle = \"teleportabulus\" }")
        _known(toml, name, key, list(value), items)
        pairs[key] = tuple(value.items())
    held = Holding(lists["items"], pairs["upgrades"], pairs["augments"], lists["unequipped"],
                   lists["consumables"])
    seen: set[str] = set()
    for key, ids in (("items", held.items), ("upgrades", [c for c, _ in held.upgrades]),
                     ("augments", [c for c, _ in held.augments]),
                     ("unequipped", held.unequipped), ("consumables", held.consumables)):
        for card in ids:
            if card in seen:
                raise toml.error(name, key, f"{items[card].name} is held twice: each card is "
                                 "in one place (manual p31)")
            seen.add(card)
    wrong = next((i for i in held.consumables if items[i].type != "consumable"), None)
    if wrong is not None:
        raise toml.error(name, "consumables", f"{items[wrong].name} is {items[wrong].type}, not "
                         "a consumable (manual p30)")
    if not held.empty and not explorer:
        key = next(k for k in INVENTORY_KEYS if k in entry)
        raise toml.error(name, key, "only explorers hold items (manual p30)")
    if not held.empty:
        try:
            build_inventory(name, held, items)
        except _Misfit as misfit:
            raise toml.error(name, misfit.key, f"the items do not fit: {misfit.reason}") \
                from None
    return held


def _known(toml: TomlFile, name: str, key: str, ids: list[str],
           items: Mapping[str, ItemCard]) -> None:
    bad = next((i for i in ids if i not in items), None)
    if bad is not None:
        raise toml.error(name, key, f"unknown item {bad!r}; items are ids from content/items "
                         "or the own cards")


class _Misfit(RulesError):
    """An inventory the rules refuse, and the key of the unit table that brought it."""

    def __init__(self, key: str, reason: str):
        super().__init__(key, reason)
        self.key, self.reason = key, reason


def build_inventory(owner: str, held: Holding, items: Mapping[str, ItemCard]) -> Inventory:
    """The inventory of ``owner`` holding ``held``: every card unequipped, then the main items
    equipped in order, then each upgrade and augment attached once its host is equipped;
    a :class:`RulesError` (naming the key at fault) for what the rules refuse.

    Rules: manual p31 (one main item per type, two one-handed weapons; upgrades of the same
    type with a matching symbol; augments with the same augment symbol; artifacts never
    upgraded nor augmented), p32 (equip main item, upgrade item, augment item).
    """
    inventory = Inventory(owner, (), tuple(items[i] for i in held.cards()))
    for card in held.items:
        inventory = _step(lambda inv, c=card: equip_main(inv, c), inventory, "items")
    pending = [("upgrades", c, h) for c, h in held.upgrades] + \
        [("augments", c, h) for c, h in held.augments]
    while pending:
        ready = [p for p in pending if p[2] in {c.id for c in equipped_items(inventory)}]
        if not ready:
            key, card, host = pending[0]
            raise _Misfit(key, f"{items[card].name} hangs on {host}, which is not equipped: "
                          "a host is a main item or a card attached to one (manual p31)")
        for key, card, host in ready:
            how = key[:-1]
            inventory = _step(lambda inv, c=card, h=host, w=how: attach(inv, h, c, w),
                              inventory, key)
            pending.remove((key, card, host))
    return _step(validate_inventory, inventory, "items")


def _step(change: Any, inventory: Inventory, key: str) -> Inventory:
    try:
        changed: Inventory = change(inventory)
    except RulesError as exc:
        raise _Misfit(key, str(exc).split(": ", 1)[-1]) from None
    return changed
