"""Item cards read from ``content/items``: TOML with ``kind = "items"``, one ``[item.<id>]`` each.

Keys of an item table: ``name``, ``type`` (weapon, apparel, artifact,
consumable), ``slot`` (head, torso, legs: apparel), ``hands`` (1 or 2:
weapons), ``upgrade_top``, ``upgrade_bottom``, ``augment_slot``, ``augment``
(symbol names), ``level`` (1-3), ``bonuses`` (a table ``{ armor = 1 }``),
``text`` (the card in our words), ``enters_play`` (a list of effect tables),
``invented``, ``stated`` (which of the numbers the sources give), ``source``,
and ``[item.<id>.abilities.<name>]`` tables read and checked like unit abilities
(active, passive or triggered; the units loader's checks, then
:func:`machina_nb.rules.cards.ability_from_record`). content/README.md
documents the format. Errors name file:line:col.

>>> items = load_all_items()
>>> bender = items["proximity_bender"]
>>> bender.type, bender.slot, dict(bender.bonuses)
('apparel', 'head', {'armor': 1})

Rules: manual p30-33 (items); spec A20.6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from machina_nb.rules.cards import ability_from_record, effect_from_record
from machina_nb.rules.content import (TomlFile, check_card_table, content_root, load_folder,
                                      read_card_file, require)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.items import BONUS_ATTRIBUTES, ItemCard
from machina_nb.rules.units import read_abilities

__all__ = ["load_items", "load_all_items"]

_KEYS = {"name", "type", "slot", "hands", "upgrade_top", "upgrade_bottom", "augment_slot",
         "augment", "level", "bonuses", "text", "enters_play", "abilities", "invented", "stated",
         "source"}
_STATED = {"name", "type", "slot", "hands", "level", "bonuses", "text", "abilities"}


def load_items(path: str | Path) -> dict[str, ItemCard]:
    """Every item card of one ``kind = "items"`` file, by id, or a :class:`ContentError`.

    Rules: manual p30-33 (items); format in content/README.md.
    """
    toml, tables = read_card_file(path, "items", "item", "an items file")
    return {item_id: _item(toml, item_id, table) for item_id, table in tables.items()}


def _item(toml: TomlFile, item_id: str, table: Any) -> ItemCard:
    name = check_card_table(toml, "item", item_id, table, _KEYS, "an item")
    fields: dict[str, Any] = {
        "name": require(toml, table, name, "name", str, "the name printed on the card"),
        "type": require(toml, table, name, "type", str, "weapon, apparel, artifact or consumable"),
        "invented": require(toml, table, name, "invented", bool,
                            "true when some numbers are ours"),
        "source": require(toml, table, name, "source", str, "the citation, e.g. 'manual p30'"),
    }
    for key, kind, what in (("slot", str, "head, torso or legs"), ("hands", int, "1 or 2"),
                            ("upgrade_top", str, "a symbol name"),
                            ("upgrade_bottom", str, "a symbol name"),
                            ("augment_slot", str, "a symbol name"),
                            ("augment", str, "a symbol name"), ("level", int, "1, 2 or 3"),
                            ("text", str, "the card's text in our words")):
        if key in table:
            fields[key] = require(toml, table, name, key, kind, what)
    bonuses = require(toml, table, name, "bonuses", dict, "a table like { armor = 1 }") \
        if "bonuses" in table else {}
    for attribute, amount in bonuses.items():
        if attribute not in BONUS_ATTRIBUTES or not isinstance(amount, int) or \
                isinstance(amount, bool):
            raise toml.error(name, "bonuses", f"a bonus is one of {', '.join(BONUS_ATTRIBUTES)} "
                             f"= a whole number, got {attribute} = {amount!r}")
    fields["bonuses"] = tuple(bonuses.items())
    stated = require(toml, table, name, "stated", list, "the list of sourced fields") \
        if "stated" in table else []
    for entry in stated:
        if entry not in _STATED:
            raise toml.error(name, "stated", f"'stated' names {entry!r}; expected some of "
                             f"{', '.join(sorted(_STATED))}")
    fields["abilities"] = _abilities(toml, name, table.get("abilities", {}))
    try:
        fields["enters_play"] = tuple(effect_from_record(e) for e in table.get("enters_play", ()))
        return ItemCard(item_id, **fields)
    except RulesError as exc:
        key = exc.argument if exc.argument in table else \
            "enters_play" if "enters_play" in table and exc.argument == "effects" else None
        raise toml.error(name, key, str(exc)) from None


def _abilities(toml: TomlFile, item: str, tables: Any) -> tuple:
    """The engine abilities of an item, checked by the units loader's code, so that a bad
    key (kind, trigger, cost destroy or marker, second target...) is an error at its
    file:line:col (manual p20-27)."""
    raw = read_abilities(toml, item, tables, "explorer")
    return tuple(a for a in (ability_from_record(x.name, x.record, "explorer") for x in raw)
                 if a is not None)


def load_all_items(folder: str | Path | None = None) -> dict[str, ItemCard]:
    """Every item card in ``content/items`` (or ``folder``), by id; ids unique across files.

    Rules: manual p30 (items); format in content/README.md.
    """
    return load_folder(Path(folder) if folder else content_root() / "items", load_items, "item")
