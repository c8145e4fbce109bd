"""Units: explorers and monsters with their attributes, read from ``content/units``.

A units file is TOML with ``kind = "units"`` and one table per unit,
``[unit.<id>]``; content/README.md documents every key. Each ability is kept
as a frozen raw record; the keys the engine reads (cost, target, effects in the
vocabulary of :mod:`machina_nb.rules.cards.abilities`...) are checked on loading, and
a bad one is an error at its file:line:col. A card's «enters play» is a table
``[unit.<id>.enters_play]`` with ``text`` and ``effects``, checked the same way.

>>> from machina_nb.rules.content import content_root
>>> mi_go = load_units(content_root() / "units" / "core.toml")["mi_go"]
>>> mi_go.kind, mi_go.armor, mi_go.health
('monster', 3, 2)

Rules: manual p18 (units and attributes), p19 (class), p6 (unit cards).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from machina_nb.rules.cards.abilities import Ability as CardAbility
from machina_nb.rules.cards.abilities import (
    Effect,
    ability_from_record,
    effect_from_record,
    effects_from_records,
)
from machina_nb.rules.cards.records import Record
from machina_nb.rules.content import (
    TomlFile,
    check_card_table,
    content_root,
    load_folder,
    optional,
    read_card_file,
    require,
    shown,
)
from machina_nb.rules.errors import ContentError, RulesError

__all__ = [
    "ATTRIBUTES", "UNIT_KINDS", "EXPLORER_CLASSES", "MONSTER_LEVELS",
    "Record", "PrintedAbility", "UnitEntry", "load_units", "load_all_units", "read_abilities",
    "ATTRIBUTE_MAX", "SIDES", "Side", "check_attribute", "UnitCard", "unit_card", "content_cards",
    "unit_from_table",
]

ATTRIBUTES = ("armor", "will", "stamina", "health", "essence")
"""The five attributes, each 0-9 (manual p18)."""

UNIT_KINDS = ("explorer", "monster")
"""The two kinds of unit (manual p18)."""

EXPLORER_CLASSES = ("gunman", "bruiser", "mystic", "crafter")
"""Explorer classes and (in that order) their main item types apparel, weapon, artifact, any (manual p33)."""

MONSTER_LEVELS = (1, 2, 3, 4)
"""Levels printed on monster cards (manual p8: level 1 at start, 2-4 added later)."""

_STATED_NAMES = ("class", "level") + ATTRIBUTES
_UNIT_KEYS = {"name", "kind", "class", "level", *ATTRIBUTES, "immobile", "ethereal",
              "invented", "stated", "source", "abilities", "enters_play"}
_ENTERS_PLAY_KEYS = {"text", "effects", "source"}


@dataclass(frozen=True)
class PrintedAbility:
    """One ability as written on the unit card, in our words; ``record`` holds its raw keys.

    Rules: manual p20-21 (abilities; the engine issue defines the model).
    """

    name: str
    text: str
    record: Record


@dataclass(frozen=True)
class UnitEntry:
    """An explorer or a monster card: class, level, attributes, flags and abilities (manual p18).

    ``invented`` is true when some numbers are ours, not the sources'; then
    ``stated`` names the ones the sources do give (``source`` cites them).
    ``enters_play`` holds the raw effect records of the card's «enters play»: an
    explorer's when placed on a tile, a monster's when spawned or placed (manual p20).

    Rules: manual p18 (units, attributes 0-9), p6 (class on explorer cards, level on monster
    cards), p20 («enters play»).
    """

    id: str
    name: str
    kind: str
    unit_class: str | None
    level: int | None
    armor: int
    will: int
    stamina: int
    health: int
    essence: int
    immobile: bool
    ethereal: bool
    abilities: tuple[PrintedAbility, ...]
    invented: bool
    stated: tuple[str, ...]
    source: str
    enters_play: tuple[Record, ...] = ()

    def attribute(self, name: str) -> int:
        """The starting value of attribute ``name`` (one of :data:`ATTRIBUTES`; manual p18)."""
        if name not in ATTRIBUTES:
            raise KeyError(f"unknown attribute {name!r}; expected one of {', '.join(ATTRIBUTES)}")
        value: int = getattr(self, name)
        return value


def load_units(path: str | Path) -> dict[str, UnitEntry]:
    """Every unit of one ``kind = "units"`` file, by id, or a :class:`ContentError` at file:line:col.

    Rules: manual p18 (attributes 0-9, essence only for explorers), p33 (classes).
    """
    toml, tables = read_card_file(path, "units", "unit", "a units file")
    units = {}
    for unit_id, table in tables.items():
        units[unit_id] = _unit(toml, unit_id, table)
    return units


def unit_from_table(toml: TomlFile, unit_id: str, table: Any) -> UnitEntry:
    """One ``[unit.<id>]`` table of ``toml`` as a unit card, checked as a units file checks it
    (a :class:`ContentError` at its file:line:col); ``toml`` may be a view
    (:meth:`~machina_nb.rules.content.TomlFile.under`) of a file holding the table deeper.

    Rules: manual p18 (attributes 0-9), p33 (classes), p20-27 (abilities).
    """
    return _unit(toml, unit_id, table)


def _unit(toml: TomlFile, unit_id: str, table: Any) -> UnitEntry:
    name = check_card_table(toml, "unit", unit_id, table, _UNIT_KEYS, "a unit")
    title = require(toml, table, name, "name", str, "the name printed on the card")
    kind = require(toml, table, name, "kind", str, "'explorer' or 'monster'")
    if kind not in UNIT_KINDS:
        raise toml.error(name, "kind", f"unknown unit kind {kind!r}; expected 'explorer' or "
                         "'monster' (manual p18)")
    unit_class, level = None, None
    if kind == "explorer":
        unit_class = require(toml, table, name, "class", str, "the explorer's class")
        if unit_class not in EXPLORER_CLASSES:
            raise toml.error(name, "class", f"unknown class {unit_class!r}; expected one of "
                             f"{', '.join(EXPLORER_CLASSES)} (manual p33)")
        if "level" in table:
            raise toml.error(name, "level", "explorers have no level; only monster cards do "
                             "(manual p6)")
    else:
        level = require(toml, table, name, "level", int, "the monster's level 1-4")
        if level not in MONSTER_LEVELS:
            raise toml.error(name, "level", f"monster level {level} out of range 1-4 (manual p8)")
        if "class" in table:
            raise toml.error(name, "class", "monsters have no class; only explorers do (manual p6)")
    values = {}
    for attribute in ATTRIBUTES:
        if attribute == "essence" and attribute not in table:
            values[attribute] = 0
            continue
        value = require(toml, table, name, attribute, int, f"the {attribute} value, an integer 0-9")
        if not 0 <= value <= 9:
            raise toml.error(name, attribute, f"{attribute} {value} out of range: attributes are "
                             "0-9 (manual p18)")
        values[attribute] = value
    if kind == "monster" and values["essence"]:
        raise toml.error(name, "essence", "only explorers have essence (manual p18)")
    flags = {}
    for flag in ("immobile", "ethereal"):
        flags[flag] = table.get(flag, False)
        if not isinstance(flags[flag], bool):
            raise toml.error(name, flag, f"{flag!r} must be true or false, got {flags[flag]!r}")
    invented = require(toml, table, name, "invented", bool,
                       "true when some numbers are ours, false when all come from the sources")
    stated = require(toml, table, name, "stated", list,
                     "the list of numbers the sources give") if "stated" in table else []
    for entry in stated:
        if entry not in _STATED_NAMES:
            raise toml.error(name, "stated", f"'stated' names {entry!r}; expected some of "
                             f"{', '.join(_STATED_NAMES)}")
    if not invented and stated:
        raise toml.error(name, "stated", "'stated' lists the sourced numbers of an invented "
                         "unit; with invented = false every number is sourced")
    source = require(toml, table, name, "source", str, "the citation, e.g. 'manual p24'")
    abilities = read_abilities(toml, name, table.get("abilities", {}), kind)
    enters_play = _enters_play(toml, name, table["enters_play"]) if "enters_play" in table \
        else ()
    return UnitEntry(unit_id, title, kind, unit_class, level, immobile=flags["immobile"],
                ethereal=flags["ethereal"], abilities=abilities, invented=invented,
                stated=tuple(stated), source=source, enters_play=enters_play, **values)


def read_abilities(toml: TomlFile, card: str, tables: Any, side: str) -> tuple[PrintedAbility, ...]:
    """The ``[<card>.abilities.<name>]`` tables of a unit or item card, each checked to be
    readable by the engine, else a :class:`ContentError` at the offending key.

    Rules: manual p20-27 (abilities, costs, targeting, effects).
    """
    if not isinstance(tables, dict):
        raise toml.error(card, "abilities", "'abilities' must be tables "
                         f"[{card}.abilities.<name>]")
    abilities = []
    for ability_id, table in tables.items():
        name = f"{card}.abilities.{ability_id}"
        if not isinstance(table, dict):
            raise toml.error(f"{card}.abilities", ability_id, f"ability {ability_id!r} must be "
                             f"a table [{name}]")
        text = require(toml, table, name, "text", str, "what the ability does, in our words")
        optional(toml, table, name, "source", str, "the citation, e.g. 'manual p21'")
        abilities.append(PrintedAbility(ability_id, text, Record.of(table)))
        _check_ability(toml, name, abilities[-1], side)
    return tuple(abilities)


def _enters_play(toml: TomlFile, unit: str, table: Any) -> tuple[Record, ...]:
    """``[<unit>.enters_play]``: ``text`` and ``effects`` (effect tables as in abilities),
    checked like abilities; the raw effect records in printed order.

    Rules: manual p20 («enters play»: an explorer placed on a tile, a monster spawned or
    placed).
    """

    name = f"{unit}.enters_play"
    if not isinstance(table, dict):
        raise toml.error(unit, "enters_play", f"'enters_play' must be a table [{name}] with "
                         "text and effects")
    for key in table:
        if key not in _ENTERS_PLAY_KEYS:
            raise toml.error(name, key, f"unknown key {key!r} in «enters play»; expected "
                             f"{', '.join(sorted(_ENTERS_PLAY_KEYS))}")
    require(toml, table, name, "text", str, "what happens, in our words")
    optional(toml, table, name, "source", str, "the citation, e.g. 'manual p20'")
    effects = require(toml, table, name, "effects", list, "a list of effect tables")
    if not all(isinstance(e, dict) for e in effects):
        raise toml.error(name, "effects", "'effects' must be a list of effect tables "
                         "{ op = ..., ... }")
    _readable(toml, name, "«enters play»", lambda: effects_from_records(effects))
    return tuple(Record.of(e) for e in effects)


_KEY_ALIASES = {"target": ("target_kind", "target")}
_QUOTED = re.compile(r"'([^']*)'")


def _check_ability(toml: TomlFile, table: str, ability: PrintedAbility, side: str) -> None:
    """The engine must be able to read the ability: else an error at the offending key.

    Rules: manual p20-27 (abilities, costs, targeting, effects).
    """

    _readable(toml, table, f"ability {ability.name!r}",
              lambda: ability_from_record(ability.name, ability.record, side))


def _readable(toml: TomlFile, table: str, what: str, read: Callable[[], object]) -> None:
    """Call ``read()``; a :class:`RulesError` becomes a :class:`ContentError` at the key (and
    value) it names inside ``[table]``, any other failure one at the table's header."""
    try:
        read()
    except RulesError as exc:
        message = str(exc).split(": ", 1)[-1]
        value = _QUOTED.search(message)
        raise _spot(toml, table, _KEY_ALIASES.get(exc.argument, (exc.argument,)),
                    value[1] if value else None, message) from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        raise toml.error(table, None, f"{what} cannot be read: {shown(str(exc), 120)}") from None


def _spot(toml: TomlFile, table: str, keys: tuple[str, ...], value: str | None,
          message: str) -> ContentError:
    """An error at ``key = "value"`` (or the first ``key =``) inside ``[table]``."""
    lines = toml.raw.split("\n")
    start = toml.where(table)[0]
    end = next((i for i in range(start, len(lines)) if lines[i].lstrip().startswith("[")),
               len(lines))
    patterns = [re.compile(r"\b" + re.escape(k) + r"\s*=\s*\"" + re.escape(value) + '"')
                for k in keys] if value is not None else []
    patterns += [re.compile(r"\b" + re.escape(k) + r"\s*=") for k in keys]
    for pattern in patterns:
        for i in range(start, end):
            m = pattern.search(lines[i])
            if m:
                return ContentError(toml.path, i + 1, m.start() + 1, message)
    return toml.error(table, None, message)


def load_all_units(folder: str | Path | None = None) -> dict[str, UnitEntry]:
    """Every unit in ``content/units`` (or ``folder``), by id; ids are unique across files.

    Rules: manual p18 (units).
    """
    return load_folder(Path(folder) if folder else content_root() / "units", load_units, "unit")


def unit_card(unit: UnitEntry) -> UnitCard:
    """An engine card from a content unit (:class:`machina_nb.rules.cards.units.UnitEntry`) (manual p18),
    with its «enters play» effects (manual p20). An essence value the card prints is its
    essence maximum under ``essence.max = card_value`` (switch essence.max).

    Rules: manual p18 (attributes, essence), p20-21 (abilities, «enters play»); switch essence.max.
    """
    abilities = tuple(a for a in (ability_from_record(x.name, x.record, unit.kind)
                                  for x in unit.abilities) if a is not None)
    behaviour = next((x.name for x in unit.abilities if x.record.get("override")), None)
    return UnitCard(unit.id, unit.name, unit.kind, unit.armor, unit.will, unit.health,
                    unit.stamina, unit.essence or None, unit.level or 1, unit.immobile, unit.ethereal, abilities,
                    behaviour, unit.invented, unit.source, unit_class=unit.unit_class,
                    enters_play=tuple(effect_from_record(e) for e in unit.enters_play))


def content_cards() -> dict[str, UnitCard]:
    """Every unit in ``content/units`` as an engine card, by id (manual p18)."""
    return {uid: unit_card(u) for uid, u in load_all_units().items()}


ATTRIBUTE_MAX = 9
"""Every attribute lies in 0..9 (manual p18)."""


class Side(StrEnum):
    """Whose side a unit is on (manual p18); a ``str`` enum, so ``side == "monster"`` holds and
    it is written as its value."""

    EXPLORER = "explorer"
    MONSTER = "monster"

    def __repr__(self) -> str:
        return repr(self.value)   # shown as its word, as before it was an enum


SIDES = tuple(side.value for side in Side)


def check_attribute(name: str, value: int) -> None:
    """Refuse an attribute that is not a whole number 0-9 (manual p18)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= ATTRIBUTE_MAX:
        raise RulesError(name, f"attributes are whole numbers 0-{ATTRIBUTE_MAX} (manual p18), "
                               f"got {value!r}")


@dataclass(frozen=True)
class UnitCard:
    """A printed unit card: attributes, abilities, keywords (manual p18, p20).

    ``invented`` marks numbers the manual does not give.
    ``behaviour`` names an override of the mindless turn (manual p17 Example F).
    ``enters_play`` are the card's «enters play» effects: a monster's when it spawns, an
    explorer's when the entry token brings them onto the map (manual p13, p20, p28).
    ``unit_class`` is an explorer's class (gunman, bruiser, mystic, crafter; manual p33).
    Rules: manual p18 (units and attributes).
    """

    id: str
    name: str
    side: str
    armor: int = 0
    will: int = 0
    health: int = 1
    stamina: int = 0
    essence_max: int | None = None
    level: int = 1
    immobile: bool = False
    ethereal: bool = False
    abilities: tuple[CardAbility, ...] = ()
    behaviour: str | None = None
    invented: bool = True
    source: str = ""
    enters_play: tuple[Effect, ...] = ()
    unit_class: str | None = None

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise RulesError("side", f"expected explorer or monster, got {self.side!r}")
        object.__setattr__(self, "side", Side(self.side))
        for name in ("armor", "will", "health", "stamina"):
            check_attribute(name, getattr(self, name))
        object.__setattr__(self, "abilities", tuple(self.abilities))
        object.__setattr__(self, "enters_play", tuple(self.enters_play))

