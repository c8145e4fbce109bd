"""Item cards and the inventory tree: main items, upgrades, augments, unequipped items.

An :class:`ItemCard` is a weapon, apparel (head, torso or legs), artifact or
consumable card. Its *symbols* say where it fits: ``upgrade_top`` is the
vertical slot on its top edge (another item may upgrade it there),
``upgrade_bottom`` the symbol on its bottom edge (it may upgrade an item whose
top slot matches), ``augment_slot`` the horizontal slot on its right side, and
``augment`` the augment symbol on its left edge, which makes it an augment card.
An explorer's :class:`Inventory` holds equipped trees (:class:`Equipped`: a main
item with at most one upgrade and one augment, each a tree again) and the
unequipped cards. :func:`validate_inventory` refuses the combinations the
manual forbids; :func:`equip_main`, :func:`attach` and :func:`unequip` change
an inventory and keep it valid. Nothing here knows the game state (see
:mod:`machina_nb.rules.engine.inventory`).

>>> boots = ItemCard("boots", "Boots", "apparel", slot="legs", upgrade_top="ring")
>>> vest = ItemCard("vest", "Vest", "apparel", slot="torso", upgrade_bottom="ring")
>>> inv = attach(equip_main(Inventory("kim", unequipped=(boots, vest)), "boots"), "boots",
...              "vest", "upgrade")
>>> [card.id for card in equipped_items(inv)], [c.id for c in unequip(inv, "boots").unequipped]
(['boots', 'vest'], ['boots', 'vest'])

Item cards are read from ``content/items`` (:func:`load_all_items`): TOML with
``kind = "items"``, one ``[item.<id>]`` each. Keys of an item table: ``name``, ``type`` (weapon, apparel, artifact,
consumable), ``slot`` (head, torso, legs: apparel), ``hands`` (1 or 2:
weapons), ``upgrade_top``, ``upgrade_bottom``, ``augment_slot``, ``augment``
(symbol names), ``level`` (1-3), ``bonuses`` (a table ``{ armor = 1 }``),
``text`` (the card in our words), ``enters_play`` (a list of effect tables),
``invented``, ``stated`` (which of the numbers the sources give), ``source``,
and ``[item.<id>.abilities.<name>]`` tables read and checked like unit abilities
(active, passive or triggered; the units loader's checks, then
:func:`~machina_nb.rules.cards.abilities.ability_from_record`). content/README.md
documents the format. Errors name file:line:col.

>>> items = load_all_items()
>>> bender = items["proximity_bender"]
>>> bender.type, bender.slot, dict(bender.bonuses)
('apparel', 'head', {'armor': 1})

Rules: manual p30-33 (items, inventory, inventory effects).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NoReturn, cast

from machina_nb.rules.cards.abilities import (
    Ability,
    Effect,
    ability_from_record,
    effects_from_records,
)
from machina_nb.rules.cards.units import read_abilities
from machina_nb.rules.content import (
    TomlFile,
    check_card_table,
    content_root,
    did_you_mean,
    load_folder,
    read_card_file,
    require,
    shown,
)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "ITEM_TYPES", "APPAREL_SLOTS", "ITEM_LEVELS", "BONUS_ATTRIBUTES", "CLASS_ITEM_TYPES",
    "ItemCard", "Equipped", "Inventory", "ItemDecks", "validate_inventory", "equip_main",
    "attach", "unequip", "unequip_all", "equipped_items", "all_items", "find_item",
    "item_bonuses", "class_may_equip", "ItemWindow", "load_items", "load_all_items",
    "item_level", "item_from_table",
]

ITEM_TYPES = ("weapon", "apparel", "artifact", "consumable")
"""The four item types, each with its own deck (manual p30)."""

APPAREL_SLOTS = ("head", "torso", "legs")
"""Where an apparel card is worn (manual p30)."""

ITEM_LEVELS = (1, 2, 3)
"""Item levels; level 1 at setup, the others added by chapters (manual p8, p30, p33)."""

BONUS_ATTRIBUTES = ("armor", "will", "health", "stamina")
"""Attributes an item may raise while in play; health and stamina raise the maximum (p19, p30)."""

CLASS_ITEM_TYPES = {"gunman": ("apparel",), "bruiser": ("weapon",), "mystic": ("artifact",),
                    "crafter": ("weapon", "apparel", "artifact", "consumable")}
"""The item types a class may equip at once when it gains an item (manual p33 table)."""


def _rule(argument: str, message: str, rule: str) -> NoReturn:
    raise RulesError(argument, f"{message} ({rule})")


@dataclass(frozen=True)
class ItemCard:
    """One item card: type, slot or hands, symbols, level, attribute bonuses, abilities.

    ``bonuses`` are (attribute, amount) pairs active while the item is in play
    (equipped; a consumable only when ``consumables_in_play`` says so);
    ``abilities`` are its abilities (active, passive, triggered); they belong to its owner
    (manual p27, p33);
    ``enters_play`` resolves each time it is equipped (manual p20, p32).
    ``invented`` marks numbers the sources do not give; ``source`` cites them;
    ``text`` is the card's text in our words (passives the engine does not model live here).
    ``level_printed``: the level is the number the manual prints before the card's name
    (manual p30; read by :func:`item_level`, switch item.printed_number).
    ``through_obstacles``: an augment that lets the weapon it is attached to target through
    obstacles, its ranged icons read as ranged through (Precision Scope, manual p30, p32).
    Rules: manual p30 (item types, symbols), p33 (item abilities).
    """

    id: str
    name: str
    type: str
    slot: str | None = None
    hands: int | None = None
    upgrade_top: str | None = None
    upgrade_bottom: str | None = None
    augment_slot: str | None = None
    augment: str | None = None
    level: int = 1
    bonuses: tuple[tuple[str, int], ...] = ()
    abilities: tuple[Ability, ...] = ()
    enters_play: tuple[Effect, ...] = ()
    invented: bool = True
    source: str = ""
    text: str = ""
    level_printed: bool = False
    through_obstacles: bool = False

    def __post_init__(self) -> None:
        if self.type not in ITEM_TYPES:
            raise RulesError("type", f"{self.id}: unknown item type {self.type!r}; expected one "
                             f"of {', '.join(ITEM_TYPES)} (manual p30)")
        if self.type == "apparel" and self.augment is None and self.slot not in APPAREL_SLOTS:
            raise RulesError("slot", f"{self.id}: apparel is worn on the head, torso or legs "
                             f"(manual p30), got {self.slot!r}")
        if self.slot is not None and (self.type != "apparel" or self.slot not in APPAREL_SLOTS):
            raise RulesError("slot", f"{self.id}: only apparel has a slot (head, torso, legs)")
        if self.type == "weapon" and self.augment is None and self.hands not in (1, 2):
            raise RulesError("hands", f"{self.id}: a weapon is one- or two-handed (manual p30), "
                             f"got {self.hands!r}")
        if self.hands is not None and (self.type != "weapon" or self.hands not in (1, 2)):
            raise RulesError("hands", f"{self.id}: only weapons have hands (1 or 2)")
        if self.type in ("artifact", "consumable") and (
                self.upgrade_top or self.upgrade_bottom or self.augment_slot or self.augment):
            raise RulesError("type", f"{self.id}: artifacts and consumables carry no upgrade or "
                             "augment symbols (manual p31)")
        if self.through_obstacles is not False and (self.through_obstacles is not True
                                                    or self.augment is None):
            raise RulesError("through_obstacles", f"{self.id}: only an augment lets the weapon "
                             "it augments target through obstacles (manual p30, p32)")
        if self.level not in ITEM_LEVELS:
            raise RulesError("level", f"{self.id}: item levels are 1-3 (manual p30)")
        for attribute, amount in self.bonuses:
            if attribute not in BONUS_ATTRIBUTES or not isinstance(amount, int) or \
                    not -9 <= amount <= 9:
                raise RulesError("bonuses", f"{self.id}: a bonus is (one of "
                                 f"{', '.join(BONUS_ATTRIBUTES)}, -9..9), got "
                                 f"({attribute!r}, {amount!r})")
        object.__setattr__(self, "bonuses", tuple(tuple(b) for b in self.bonuses))
        object.__setattr__(self, "abilities", tuple(self.abilities))
        object.__setattr__(self, "enters_play", tuple(self.enters_play))

    @property
    def is_augment(self) -> bool:
        """An augment card: it attaches only through a horizontal slot (manual p31-32)."""
        return self.augment is not None

    def label(self) -> str:
        """The card's name with its kind, for events (``Displacer Vest (torso apparel)``)."""
        kind = f"{self.slot} {self.type}" if self.slot else \
            f"{self.hands}-handed weapon" if self.hands else self.type
        return f"{self.name} ({'augment, ' if self.is_augment else ''}{kind})"


@dataclass(frozen=True)
class Equipped:
    """An equipped item with what is attached to it: one upgrade (vertical), one augment
    (horizontal), each itself a tree (manual p31: upgrades can be upgraded).

    Rules: manual p31 (main item, upgrades, augments).
    """

    item: ItemCard
    upgrade: Equipped | None = None
    augment: Equipped | None = None

    def cards(self) -> Iterator[ItemCard]:
        """This item, then its upgrade's tree, then its augment's tree.

        Rules: manual p31-32 (upgrades and augments hang off an item).
        """
        yield self.item
        for child in (self.upgrade, self.augment):
            if child is not None:
                yield from child.cards()


@dataclass(frozen=True)
class Inventory:
    """An explorer's items: equipped trees (main items first) and unequipped cards.

    ``applied`` records the attribute changes the equipped items made to the
    explorer's unit, so that unequipping takes back exactly what was given
    (attributes stay within 0-9, manual p18). ``spent`` holds used consumables
    whose lasting effect still holds a marker: they wait for it, unusable (manual p27).
    Rules: manual p31 (inventory), p19 (attributes changed by items), p27 (markers).
    """

    owner: str
    equipped: tuple[Equipped, ...] = ()
    unequipped: tuple[ItemCard, ...] = ()
    applied: tuple[tuple[str, int], ...] = ()
    spent: tuple[ItemCard, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "equipped", tuple(self.equipped))
        object.__setattr__(self, "unequipped", tuple(self.unequipped))
        object.__setattr__(self, "spent", tuple(self.spent))
        object.__setattr__(self, "applied", tuple(tuple(a) for a in self.applied))

    @property
    def empty(self) -> bool:
        """No item and no attribute change left.

        Rules: manual p31 (inventory), p19 (items change attributes).
        """
        return not (self.equipped or self.unequipped or self.spent) and \
            not any(v for _, v in self.applied)


@dataclass(frozen=True)
class ItemDecks:
    """The four item decks (top card first), the shared destroyed pile, the levels to come and
    the cards *add item level* took out of the game.

    Rules: manual p30 (one deck per type, one shared destroyed item deck), p8 (level 1 at
    setup), p33 (add item level).
    """

    weapon: tuple[ItemCard, ...] = ()
    apparel: tuple[ItemCard, ...] = ()
    artifact: tuple[ItemCard, ...] = ()
    consumable: tuple[ItemCard, ...] = ()
    destroyed: tuple[ItemCard, ...] = ()
    reserve: tuple[ItemCard, ...] = ()
    removed: tuple[ItemCard, ...] = ()

    def __post_init__(self) -> None:
        for name in ITEM_TYPES + ("destroyed", "reserve", "removed"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for kind in ITEM_TYPES:
            wrong = [c.id for c in getattr(self, kind) if c.type != kind]
            if wrong:
                raise RulesError(kind, f"the {kind} deck holds {wrong}: each type has its own "
                                 "deck (manual p30)")

    @classmethod
    def deal(cls, cards: Iterable[ItemCard],
             shuffle: Callable[[tuple[ItemCard, ...], str], tuple[ItemCard, ...]] | None = None,
             rules: Rules | None = None) -> ItemDecks:
        """Level-1 cards into their type decks (each shuffled by ``shuffle(cards, reason)`` if
        given), the other levels into the reserve; each card's level as :func:`item_level`
        reads it under ``rules`` (manual p8: setup; switch item.printed_number)."""
        decks: dict[str, tuple[ItemCard, ...]] = {}
        for kind in ITEM_TYPES:
            deck = tuple(c for c in cards if c.type == kind and item_level(c, rules) == 1)
            decks[kind] = shuffle(deck, f"{kind} item deck") if shuffle else deck
        return cls(**decks, reserve=tuple(c for c in cards if item_level(c, rules) != 1))

    def deck(self, kind: str) -> tuple[ItemCard, ...]:
        """The deck of one item type, top card first.

        Rules: manual p30 (four item decks).
        """
        if kind not in ITEM_TYPES:
            raise RulesError("deck", f"unknown item deck {kind!r}; expected one of "
                             f"{', '.join(ITEM_TYPES)}")
        deck: tuple[ItemCard, ...] = getattr(self, kind)
        return deck


@dataclass(frozen=True)
class ItemWindow:
    """Free inventory steps an action space leaves to the explorer who activated it.

    After a recharge station the explorer may trade once with one of
    ``trade_partners`` (every explorer next to a recharge station or a
    workbench, any tile) and then resolve *use inventory*; after a workbench,
    only *use inventory*. Each costs no stamina; any other action closes the window.
    Rules: manual p33 (operate workbench), p37 (recharge station); 3.5 §Updated Action Spaces.
    """

    explorer: str
    trade_partners: tuple[str, ...] | None = None
    use_inventory: bool = True

    def __post_init__(self) -> None:
        if self.trade_partners is not None:
            object.__setattr__(self, "trade_partners", tuple(self.trade_partners))


# --- reading -------------------------------------------------------------------------------

def equipped_items(inventory: Inventory) -> tuple[ItemCard, ...]:
    """Every equipped card, tree by tree (main item, its upgrades, its augments).

    Rules: manual p31 (equipped items).
    """
    return tuple(card for tree in inventory.equipped for card in tree.cards())


def all_items(inventory: Inventory) -> tuple[ItemCard, ...]:
    """Every card of the inventory: equipped, then unequipped.

    Rules: manual p31 (inventory).
    """
    return equipped_items(inventory) + inventory.unequipped


def find_item(inventory: Inventory, item_id: str) -> ItemCard:
    """The card ``item_id`` in this inventory, or a :class:`RulesError` naming ``item``.

    Rules: manual p31 (inventory).
    """
    for card in all_items(inventory):
        if card.id == item_id:
            return card
    raise RulesError("item", f"{inventory.owner} has no item {item_id!r}")


def item_bonuses(inventory: Inventory, consumables_in_play: bool) -> dict[str, int]:
    """The attribute bonuses of the items in play: equipped ones, and held consumables when
    they count as in play (manual p19, p21, p30; switch consumables_in_play).

    Rules: manual p19 (attributes), p21 (cards in play), p30 (consumables); switch consumables_in_play.
    """
    cards = equipped_items(inventory)
    if consumables_in_play:
        cards += tuple(c for c in inventory.unequipped if c.type == "consumable")
    total: dict[str, int] = {}
    for card in cards:
        for attribute, amount in card.bonuses:
            total[attribute] = total.get(attribute, 0) + amount
    return total


def class_may_equip(unit_class: str | None, card: ItemCard) -> bool:
    """Whether gaining ``card`` lets an explorer of ``unit_class`` equip it at once as a main
    item (manual p33 table; never an augment or a consumable, which are not main items).

    Rules: manual p33 (gain item: class type), p31 (main items).
    """
    return card.type in CLASS_ITEM_TYPES.get(unit_class or "", ()) and not card.is_augment \
        and card.type != "consumable"


# --- validity --------------------------------------------------------------------------------

def validate_inventory(inventory: Inventory) -> Inventory:
    """Return ``inventory`` if the manual allows it, else raise :class:`RulesError` naming the rule.

    Main items: one per type, except two one-handed main weapons; never an
    augment or a consumable. Upgrades: same type, matching upgrade symbols, a
    torso never on a torso, no augment card in a vertical slot. Augments: an
    augment card whose symbol matches the host's horizontal slot. Artifacts are
    never upgraded, augmented or attached. Each card appears once.
    Rules: manual p31 (inventory, wrong combinations), p32 (equip, upgrade, augment).
    """
    seen: set[str] = set()
    for card in all_items(inventory) + inventory.spent:
        if card.id in seen:
            _rule("item", f"{card.id} appears twice in {inventory.owner}'s inventory",
                  "each card is in one place")
        seen.add(card.id)
    mains: dict[str, list[ItemCard]] = {}
    for tree in inventory.equipped:
        main = tree.item
        if main.is_augment:
            _rule("item", f"{main.name} is an augment: never a main item", "manual p32 (augment)")
        if main.type == "consumable":
            _rule("item", f"{main.name} is a consumable: used from the inventory, never equipped",
                  "manual p30-31 (consumables)")
        mains.setdefault(main.type, []).append(main)
        _check_tree(tree)
    for kind, cards in mains.items():
        two_one_handed = kind == "weapon" and len(cards) == 2 and all(c.hands == 1 for c in cards)
        if len(cards) > 1 and not two_one_handed:
            _rule("item", f"{', '.join(c.name for c in cards)}: one main {kind} only"
                  + (" (two main weapons must both be one-handed)" if kind == "weapon" else ""),
                  "manual p31 (inventory), p32 (equip main item)")
    return inventory


def _check_tree(node: Equipped) -> None:
    host = node.item
    if node.upgrade is not None:
        up = node.upgrade.item
        if host.type == "artifact" or up.type == "artifact":
            _rule("item", f"{up.name} on {host.name}: an artifact is never upgraded nor an "
                  "upgrade", "manual p31 (equipped artifact)")
        if up.is_augment:
            _rule("item", f"{up.name} is an augment: it attaches only through a horizontal slot",
                  "manual p32 (augment item)")
        if up.type != host.type:
            _rule("item", f"{up.name} ({up.type}) cannot upgrade {host.name} ({host.type}): "
                  f"a {up.type} cannot upgrade {_a(host.type)}",
                  "manual p31 (wrong combinations), p32 (upgrade: same type)")
        if host.slot == "torso" and up.slot == "torso":
            _rule("item", f"{up.name} cannot upgrade {host.name}: a torso cannot upgrade another "
                  "torso", "manual p31 (wrong combinations), p32 (upgrade item)")
        if host.upgrade_top is None or up.upgrade_bottom != host.upgrade_top:
            _rule("item", f"{up.name} cannot upgrade {host.name}: the upgrade symbols do not "
                  f"match ({_symbol(up.upgrade_bottom)} under {up.name}, "
                  f"{_symbol(host.upgrade_top)} on top of {host.name})",
                  "manual p32 (upgrade: matching symbol)")
        _check_tree(node.upgrade)
    if node.augment is not None:
        aug = node.augment.item
        if host.type == "artifact":
            _rule("item", f"{host.name} is an artifact: never augmented",
                  "manual p31 (equipped artifact)")
        if not aug.is_augment:
            _rule("item", f"{aug.name} is not an augment card (no augment symbol)",
                  "manual p32 (augment item)")
        if host.augment_slot is None or aug.augment != host.augment_slot:
            _rule("item", f"{aug.name} cannot augment {host.name}: it carries "
                  f"{_symbol(aug.augment)}, {host.name} takes {_symbol(host.augment_slot)} (an "
                  "augment fits only a slot with the same augment symbol)",
                  "manual p31 (wrong combinations), p32")
        _check_tree(node.augment)


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


# --- changing ----------------------------------------------------------------------------------

def _take_unequipped(inventory: Inventory, item_id: str) -> tuple[Inventory, ItemCard]:
    for card in inventory.unequipped:
        if card.id == item_id:
            return replace(inventory, unequipped=tuple(
                c for c in inventory.unequipped if c.id != item_id)), card
    if any(c.id == item_id for c in equipped_items(inventory)):
        _rule("item", f"{item_id} is already equipped", "manual p31")
    raise RulesError("item", f"{inventory.owner} has no item {item_id!r}")


def equip_main(inventory: Inventory, item_id: str, replacing: str | None = None) -> Inventory:
    """Equip an unequipped card as a main item, first unequipping ``replacing`` (a main item of
    the same type) if given (manual p32: equip main item).

    Rules: manual p31 (one main item per type, two one-handed weapons), p32 (equip main item).
    """
    if replacing is not None:
        if not any(t.item.id == replacing for t in inventory.equipped):
            _rule("replacing", f"{replacing} is not a main item of {inventory.owner}",
                  "manual p32 (unequip 1 main item of the same type)")
        card = find_item(inventory, item_id)
        old = find_item(inventory, replacing)
        if old.type != card.type:
            _rule("replacing", f"{old.name} is {_a(old.type)}, not {_a(card.type)}",
                  "manual p32 (unequip 1 main item of the same type)")
        inventory = unequip(inventory, replacing)
    inventory, card = _take_unequipped(inventory, item_id)
    return validate_inventory(replace(inventory, equipped=inventory.equipped + (Equipped(card),)))


def _symbol(name: str | None) -> str:
    """An upgrade or augment symbol in words: ``the ring symbol``, or ``no symbol``."""
    return f"the {name} symbol" if name else "no symbol"


def attach(inventory: Inventory, host_id: str, item_id: str, how: str) -> Inventory:
    """Attach an unequipped card to the equipped ``host_id`` as its ``upgrade`` or ``augment``
    (the slot must be free: unequip what is there first) (manual p32).

    Rules: manual p31 (upgrades, augments), p32 (upgrade item, augment item).
    """
    if how not in ("upgrade", "augment"):
        raise RulesError("how", f"expected 'upgrade' or 'augment', got {how!r}")
    inventory, card = _take_unequipped(inventory, item_id)
    found = []

    def _put(node: Equipped) -> Equipped:
        if node.item.id == host_id:
            if getattr(node, how) is not None:
                _rule("host", f"{node.item.name}'s {how} slot is taken: unequip "
                      f"{getattr(node, how).item.name} first", f"manual p32 ({how} item)")
            found.append(node)
            return replace(node, **cast(dict[str, Any], {how: Equipped(card)}))
        changes: dict[str, Any] = {k: _put(getattr(node, k)) for k in ("upgrade", "augment")
                   if getattr(node, k) is not None}
        return replace(node, **changes) if changes else node

    trees = tuple(_put(t) for t in inventory.equipped)
    if not found:
        _rule("host", f"{host_id} is not an equipped item of {inventory.owner}",
              f"manual p32 ({how}: only equipped items)")
    return validate_inventory(replace(inventory, equipped=trees))


def unequip(inventory: Inventory, item_id: str) -> Inventory:
    """Unequip an item: it and every upgrade and augment attached to it become unequipped
    (manual p32: unequip item).

    Rules: manual p32 (unequip item), p33 (gain item example).
    """
    gone: list[ItemCard] = []

    def _cut(node: Equipped) -> Equipped | None:
        if node.item.id == item_id:
            gone.extend(node.cards())
            return None
        changes: dict[str, Any] = {}
        for k in ("upgrade", "augment"):
            child = getattr(node, k)
            if child is not None:
                new = _cut(child)
                if new is not child:
                    changes[k] = new
        return replace(node, **changes) if changes else node

    trees = tuple(t for t in (_cut(t) for t in inventory.equipped) if t is not None)
    if not gone:
        _rule("item", f"{item_id} is not an equipped item of {inventory.owner}", "manual p32")
    return replace(inventory, equipped=trees, unequipped=inventory.unequipped + tuple(gone))


def unequip_all(inventory: Inventory) -> Inventory:
    """Every equipped card becomes unequipped.

    Rules: manual p32 (use inventory, step 1).
    """
    return replace(inventory, equipped=(),
                   unequipped=equipped_items(inventory) + inventory.unequipped)


# --- item card files (content/items) ---------------------------------------------------

_KEYS = {"name", "type", "slot", "hands", "upgrade_top", "upgrade_bottom", "augment_slot",
         "augment", "level", "bonuses", "text", "enters_play", "abilities", "invented", "stated",
         "source", "through_obstacles"}
_STATED = {"name", "type", "slot", "hands", "level", "bonuses", "text", "abilities"}


def item_level(card: ItemCard, rules: Rules | None = None) -> int:
    """The level an item card counts at: the decks at setup hold level 1, *add item level N*
    shuffles in level N (manual p8, p33). For the cards the manual prints (p30-31) the only
    level the sources give is the number before the name; ``item.printed_number = level``
    reads it as the level, ``not_level`` does not, and those cards then count as level 1,
    dealt at setup like every card whose level is unknown.
    Rules: manual p30 (three item levels; a number before each example item's name), p8,
    p33; switch item.printed_number.
    """
    if rules is None or not card.level_printed or rules.reads("item.printed_number", "level"):
        return card.level
    return 1


def load_items(path: str | Path) -> dict[str, ItemCard]:
    """Every item card of one ``kind = "items"`` file, by id, or a :class:`ContentError`.

    Rules: manual p30-33 (items).
    """
    toml, tables = read_card_file(path, "items", "item", "an items file")
    return {item_id: _item(toml, item_id, table) for item_id, table in tables.items()}


def item_from_table(toml: TomlFile, item_id: str, table: Any) -> ItemCard:
    """One ``[item.<id>]`` table of ``toml`` as an item card, checked as an items file checks
    it; ``toml`` may be a view of a file holding the table deeper.

    Rules: manual p30-33 (items).
    """
    return _item(toml, item_id, table)


def _item(toml: TomlFile, item_id: str, table: Any) -> ItemCard:
    name = check_card_table(toml, "item", item_id, table, _KEYS, "an item")
    fields: dict[str, Any] = {
        "name": require(toml, table, name, "name", str, "the name printed on the card"),
        "type": require(toml, table, name, "type", str, "weapon, apparel, artifact or consumable"),
        "invented": require(toml, table, name, "invented", bool,
                            "true when some numbers are ours"),
        "source": require(toml, table, name, "source", str, "the citation, e.g. 'manual p30'"),
    }
    for key, kind, what, bounds in (
            ("slot", str, "head, torso or legs", {"choices": APPAREL_SLOTS}),
            ("hands", int, "1 or 2", {"low": 1, "high": 2}),
            ("upgrade_top", str, "a symbol name", {}), ("upgrade_bottom", str, "a symbol name", {}),
            ("augment_slot", str, "a symbol name", {}), ("augment", str, "a symbol name", {}),
            ("level", int, "1, 2 or 3", {"low": 1, "high": 3}),
            ("through_obstacles", bool, "true for an augment that lets its weapon target "
             "through obstacles", {}),
            ("text", str, "the card's text in our words", {})):
        if key in table:
            fields[key] = require(toml, table, name, key, kind, what, **bounds)
    bonuses = require(toml, table, name, "bonuses", dict, "a table like { armor = 1 }") \
        if "bonuses" in table else {}
    for attribute, amount in bonuses.items():
        if attribute not in BONUS_ATTRIBUTES or not isinstance(amount, int) or \
                isinstance(amount, bool) or not -9 <= amount <= 9:
            raise toml.error(name, "bonuses", f"a bonus is one of {', '.join(BONUS_ATTRIBUTES)} "
                             f"= a whole number -9..9, got {shown(attribute)} = {shown(amount)}"
                             f"{did_you_mean(attribute, BONUS_ATTRIBUTES)}")
    fields["bonuses"] = tuple(bonuses.items())
    stated = require(toml, table, name, "stated", list, "the list of sourced fields") \
        if "stated" in table else []
    for entry in stated:
        if entry not in _STATED:
            raise toml.error(name, "stated", f"'stated' names {entry!r}; expected some of "
                             f"{', '.join(sorted(_STATED))}")
    fields["level_printed"] = "level" in stated and "level" in table
    fields["abilities"] = _abilities(toml, name, table.get("abilities", {}))
    try:
        fields["enters_play"] = effects_from_records(table.get("enters_play", ()), "enters_play")
        return ItemCard(item_id, **fields)
    except RulesError as exc:
        at = exc.argument if exc.argument in table else \
            "enters_play" if "enters_play" in table else None
        raise toml.error(name, at, str(exc)) from None


def _abilities(toml: TomlFile, item: str, tables: Any) -> tuple[Any, ...]:
    """The engine abilities of an item, checked by the units loader's code, so that a bad
    key (kind, trigger, cost destroy or marker, second target...) is an error at its
    file:line:col (manual p20-27)."""
    raw = read_abilities(toml, item, tables, "explorer")
    return tuple(a for a in (ability_from_record(x.name, x.record, "explorer") for x in raw)
                 if a is not None)


def load_all_items(folder: str | Path | None = None) -> dict[str, ItemCard]:
    """Every item card in ``content/items`` (or ``folder``), by id; ids unique across files.

    Rules: manual p30 (items).
    """
    return load_folder(Path(folder) if folder else content_root() / "items", load_items, "item")
