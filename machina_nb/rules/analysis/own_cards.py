"""A player's own cards: the cards of their box that we do not ship, typed into a situation
file or kept in a folder of card files, joined to the shipped cards for one situation.

A situation file may hold ``[cards.unit.<id>]``, ``[cards.item.<id>]``,
``[cards.event.<id>]`` and ``[cards.chapter.<id>]`` tables, each with exactly the keys of
its content file (``content/units``, ``items``, ``events``, ``chapters``; abilities as
sub-tables ``[cards.unit.<id>.abilities.<name>]``), checked as strictly, at file:line:col.
A folder of card files (:func:`load_card_folder`) holds files of the four content kinds.
An own card may not take the id of a shipped card, nor of another own card.
:class:`OwnCards` answers the lookups a situation makes: the shipped cards and its own.

>>> text = '''
... [cards.unit.ghoul]
... name = "Ghoul"
... kind = "monster"
... level = 1
... armor = 1
... will = 1
... stamina = 3
... health = 2
... invented = true
... source = "my box"
... '''
>>> from machina_nb.rules.content import TomlFile
>>> import tomllib
>>> own = read_own_cards(TomlFile("mine.toml", text, tomllib.loads(text)))
>>> own.units()["ghoul"].health, "mi_go" in own.units(), own.ids("unit")
(2, True, ('ghoul',))

Rules: manual p6 (the cards), p18 (unit cards), p30 (item cards), p14 and p37 (event cards),
p28 (chapter cards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from machina_nb.rules.analysis.catalog import chapter_cards, event_cards, item_cards, unit_cards
from machina_nb.rules.cards.catalog import check_references
from machina_nb.rules.cards.events import chapter_from_table, event_from_table
from machina_nb.rules.cards.items import item_from_table
from machina_nb.rules.cards.records import Record
from machina_nb.rules.cards.units import unit_from_table
from machina_nb.rules.content import TomlFile, check_keys, read_card_file, read_toml
from machina_nb.rules.errors import RulesError

__all__ = ["CARD_KINDS", "OwnCard", "OwnCards", "NO_CARDS", "read_own_cards",
           "load_card_folder"]

CARD_KINDS = ("unit", "item", "event", "chapter")
"""The kinds of card a player may bring, as the tables under ``[cards]`` name them."""

_FILE_KINDS = {"units": "unit", "items": "item", "events": "event", "chapters": "chapter"}
_WHAT = {"units": "a units file", "items": "an items file", "events": "an events file",
         "chapters": "a chapters file"}
_FOLDERS = {kind: folder for folder, kind in _FILE_KINDS.items()}
_READERS: dict[str, Callable[[TomlFile, str, Any], Any]] = {
    "unit": unit_from_table, "item": item_from_table, "event": event_from_table,
    "chapter": chapter_from_table}
_SHIPPED: dict[str, Callable[[], Mapping[str, Any]]] = {
    "unit": unit_cards, "item": item_cards, "event": event_cards, "chapter": chapter_cards}


@dataclass(frozen=True)
class OwnCard:
    """One card a player brought.

    Rules: manual p6 (the cards).
    """

    kind: str
    """One of :data:`CARD_KINDS`."""
    id: str
    """Its id, new among the shipped cards and the other own cards."""
    card: Any
    """The loaded card, as the shipped card of its kind is loaded."""
    table: Record
    """The keys as written, to write the card back into a situation file."""
    origin: str = ""
    """Where it was typed: ``""`` for the situation file itself, else the card file's name."""


@dataclass(frozen=True)
class OwnCards:
    """The own cards of one situation, and the lookups of each kind: shipped cards and own.

    Rules: manual p6 (the cards).
    """

    cards: tuple[OwnCard, ...] = ()

    def ids(self, kind: str) -> tuple[str, ...]:
        """The ids of the own cards of ``kind``, in the order they were typed."""
        return tuple(c.id for c in self.cards if c.kind == kind)

    def joined(self, more: OwnCards) -> OwnCards:
        """These cards and ``more`` (whose ids are new)."""
        return OwnCards(self.cards + more.cards)

    def typed_here(self) -> OwnCards:
        """Only the cards typed into the situation file itself."""
        return OwnCards(tuple(c for c in self.cards if not c.origin))

    def from_files(self) -> OwnCards:
        """Only the cards that came from card files."""
        return OwnCards(tuple(c for c in self.cards if c.origin))

    def units(self) -> Mapping[str, Any]:
        """The unit cards by id: the shipped ones and these."""
        return self._lookups["unit"]

    def items(self) -> Mapping[str, Any]:
        """The item cards by id: the shipped ones and these."""
        return self._lookups["item"]

    def events(self) -> Mapping[str, Any]:
        """The horror and explorer event cards by id: the shipped ones and these."""
        return self._lookups["event"]

    def chapters(self) -> Mapping[str, Any]:
        """The chapter cards by id: the shipped ones and these."""
        return self._lookups["chapter"]

    @cached_property
    def _lookups(self) -> dict[str, Mapping[str, Any]]:
        out: dict[str, Mapping[str, Any]] = {}
        for kind, shipped in _SHIPPED.items():
            own = {c.id: c.card for c in self.cards if c.kind == kind}
            out[kind] = MappingProxyType({**shipped(), **own}) if own else shipped()
        return out


NO_CARDS = OwnCards()
"""No own cards: the shipped cards only."""


def read_own_cards(toml: TomlFile, table: Any = None, library: OwnCards = NO_CARDS) -> OwnCards:
    """The ``[cards]`` table of a situation file (``toml.data["cards"]`` unless ``table`` is
    given), joined to ``library`` (the cards of the player's card files); a card that is not
    as its content file would have it, or whose id is taken, is a :class:`ContentError` at its
    file:line:col.

    Rules: manual p6 (the cards), p18, p30, p14, p37, p28 (each kind's card).
    """
    table = toml.data.get("cards", {}) if table is None else table
    if not isinstance(table, dict):
        raise toml.error(None, "cards", "'cards' holds tables [cards.unit.<id>], "
                         "[cards.item.<id>], [cards.event.<id>] or [cards.chapter.<id>]")
    check_keys(toml, "cards", table, CARD_KINDS, "[cards]")
    view = toml.under("cards")
    found: list[OwnCard] = []
    for kind, cards in table.items():
        if not isinstance(cards, dict):
            raise toml.error("cards", kind, f"'cards.{kind}' holds tables [cards.{kind}.<id>], "
                             "one per card")
        for card_id, entry in cards.items():
            _check_new(view, kind, card_id, library, "the situation file")
            card = _READERS[kind](view, card_id, entry)
            found.append(OwnCard(kind, card_id, card, Record.of(entry)))
    own = OwnCards(tuple(found))
    _check_references(toml, own, library)
    return library.joined(own)


def load_card_folder(folder: str | Path) -> OwnCards:
    """Every card of the card files (``kind`` = units, items, events or chapters, as in
    ``content/``) in ``folder``, read in name order; a bad card, or an id a shipped card or an
    earlier file already has, is a :class:`ContentError` at its file:line:col.

    Rules: manual p6 (the cards), p18, p30, p14, p37, p28 (each kind's card).
    """
    where = Path(folder)
    if not where.is_dir():
        raise RulesError("cards", f"{folder} is not a folder of card files")
    found = NO_CARDS
    for path in sorted(where.glob("*.toml")):
        found = found.joined(_card_file(path, found))
    return found


def _card_file(path: Path, earlier: OwnCards) -> OwnCards:
    """One card file: its cards, each new among the shipped cards and ``earlier``."""
    toml = read_toml(path)
    file_kind = toml.data.get("kind")
    if file_kind not in _FILE_KINDS:
        raise toml.error(None, "kind" if "kind" in toml.data else None,
                         f"a card file has kind = {', '.join(map(repr, _FILE_KINDS))}")
    kind = _FILE_KINDS[file_kind]
    toml, tables = read_card_file(path, file_kind, kind, _WHAT[file_kind])
    found = []
    for card_id, entry in tables.items():
        _check_new(toml, kind, card_id, earlier, "an earlier card file")
        card = _READERS[kind](toml, card_id, entry)
        found.append(OwnCard(kind, card_id, card, Record.of(entry), str(path)))
    own = OwnCards(tuple(found))
    _check_references(toml, own, earlier)
    return own


def _check_new(toml: TomlFile, kind: str, card_id: str, library: OwnCards, where: str) -> None:
    """Refuse an own card whose id a shipped card or a card of ``library`` already has."""
    if card_id in _SHIPPED[kind]():
        raise toml.error(f"{kind}.{card_id}", None, f"{card_id!r} is the id of a shipped "
                         f"{kind} card (content/{_FOLDERS[kind]}); give your card a new id")
    if card_id in library.ids(kind):
        origin = next(c.origin for c in library.cards if c.kind == kind and c.id == card_id)
        raise toml.error(f"{kind}.{card_id}", None, f"{card_id!r} is already the id of a "
                         f"{kind} card of {origin or where}; give your card a new id")


def _check_references(toml: TomlFile, own: OwnCards, library: OwnCards) -> None:
    """Every card an own card's effect names (*take*, a binding event) exists.

    Rules: manual p25 (take), p26 (binding events).
    """
    every = library.joined(own)
    check_references(toml, {f"{c.kind}.{c.id}": c.card for c in own.cards},
                     {"unit": every.ids("unit"), "event": every.ids("event")})
