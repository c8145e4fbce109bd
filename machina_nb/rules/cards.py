"""Unit cards for the engine, read from ``content/units``; scenarios from map text.

:func:`unit_card` turns a content unit (:mod:`machina_nb.rules.units`, raw
ability records) into an engine :class:`~machina_nb.rules.state.UnitCard`
whose abilities use the fixed effect vocabulary of
:mod:`machina_nb.rules.abilities`. The record keys it reads: ``cost``
(stamina, essence, health, destroy, marker), ``target`` (melee, ranged,
ranged_through, or a kind of space such as chest — without an ``effects``
list the space is then destroyed before the attack, manual p17 Example D),
``target_kind`` (what an icon may target), ``second`` (the kind of a second
target, manual p23), ``range``, ``attack`` (kind, high, low, affects),
``once_per_turn``, ``kind`` (active, passive, triggered) and ``trigger``,
``override`` (a behaviour replacing the mindless turn), ``passive = true``
(a passive described in words only; the engine skips it), and ``effects`` (a
list of effect tables in the engine's vocabulary, used as written when present).
A unit's «enters play» effect tables become the card's ``enters_play``.

:func:`scenario` builds a :class:`GameState` from map text whose letters are
units — the way tests and the manual's examples set up a situation.

Rules: manual p18 (units), p20-21 (abilities), p23 (targeting), p24 (attack).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from machina_nb.rules.abilities import TARGET_KINDS, Ability, Cost, Effect, Targeting
from machina_nb.rules.errors import RulesError
from machina_nb.rules.maptext import SpaceKind, parse_map
from machina_nb.rules.state import Chapter, GameState, MapSpec, Unit, UnitCard
from machina_nb.rules.units import Record, load_all_units

__all__ = ["unit_card", "content_cards", "scenario", "effect_from_record",
           "ability_from_record", "COST_KEYS"]

_ICONS = ("melee", "ranged", "ranged_through")
_EFFECT_KEYS = {"op", "scope", "high", "low", "arcane", "amount", "condition", "then",
                "otherwise", "stacks", "key", "attributes", "also", "up_to"}
COST_KEYS = ("stamina", "essence", "health", "destroy", "marker")
"""Keys of an ability record's ``cost`` table (manual p20, p23, p27)."""


def effect_from_record(record: Mapping[str, Any] | Record) -> Effect:
    """One effect table (``op = "attack"``, ``high = 1`` ...) as an :class:`Effect` (spec A20)."""
    items = dict(record.items) if isinstance(record, Record) else dict(record)
    unknown = set(items) - _EFFECT_KEYS
    if unknown:
        raise RulesError("effects", f"unknown effect keys {sorted(unknown)}; expected "
                         f"{sorted(_EFFECT_KEYS)}")
    for branch in ("then", "otherwise"):
        items[branch] = tuple(effect_from_record(e) for e in items.get(branch, ()))
    return Effect(**items)


def ability_from_record(name: str, record: Record, side: str) -> Ability | None:
    """An engine :class:`Ability` from an ability record (keys in the module docstring), or
    None for a behaviour override or a passive written in words only; a bad value raises
    :class:`RulesError` naming its key (manual p20-27).

    Rules: manual p20-21 (abilities), p23 (targeting, two targets), p26-27 (costs, triggers).
    """
    if record.get("passive") or record.get("override"):
        return None
    cost = record.get("cost") or Record(())
    if not isinstance(cost, Record):
        raise RulesError("cost", f"ability {name}: a cost is a table {{ stamina = N, ... }}")
    unknown = set(cost) - set(COST_KEYS)
    if unknown:
        raise RulesError("cost", f"ability {name}: unknown cost keys {sorted(unknown)}; "
                         f"expected {', '.join(COST_KEYS)}")
    target = record.get("target")
    effects: list[Effect] = []
    if target is None:
        targeting = Targeting()
    elif target in _ICONS:
        targeting = Targeting(target, record.get("range", 0), record.get(
            "target_kind", "explorer" if side == "monster" else "unit"), record.get("second"))
    elif target in TARGET_KINDS:
        targeting = Targeting("melee", 0, target, record.get("second"))
        if target in ("chest", "event", "lever") and not record.get("effects"):
            effects.append(Effect("destroy_target"))
    else:
        raise RulesError("target", f"ability {name}: unknown target {target!r}")
    if record.get("effects"):
        effects += [effect_from_record(e) for e in record["effects"]]
    elif record.get("attack"):
        attack = record["attack"]
        scope = attack.get("affects", "target" if targeting.kind != "none" else "self")
        effects.append(Effect("attack", scope=scope, high=attack.get("high", 0),
                              low=attack.get("low", 0), arcane=attack.get("kind") == "arcane"))
    return Ability(name, Cost(cost.get("stamina", 0), cost.get("essence", 0),
                              cost.get("health", 0), cost.get("destroy"),
                              cost.get("marker", False)),
                   targeting, tuple(effects), bool(record.get("once_per_turn", False)),
                   record.get("kind", "active"), record.get("trigger"))


def unit_card(unit) -> UnitCard:
    """An engine card from a content unit (:class:`machina_nb.rules.units.Unit`) (manual p18),
    with its «enters play» effects (manual p20).

    Rules: manual p18 (attributes), p20-21 (abilities, «enters play»).
    """
    abilities = tuple(a for a in (ability_from_record(x.name, x.record, unit.kind)
                                  for x in unit.abilities) if a is not None)
    behaviour = next((x.name for x in unit.abilities if x.record.get("override")), None)
    return UnitCard(unit.id, unit.name, unit.kind, unit.armor, unit.will, unit.health,
                    unit.stamina, None, unit.level or 1, unit.immobile, unit.ethereal, abilities,
                    behaviour, unit.invented, unit.source, unit_class=unit.unit_class,
                    enters_play=tuple(effect_from_record(e) for e in unit.enters_play))


def content_cards() -> dict[str, UnitCard]:
    """Every unit in ``content/units`` as an engine card, by id (manual p18)."""
    return {uid: unit_card(u) for uid, u in load_all_units().items()}


def scenario(map_text: str, legend: Mapping[str, UnitCard | tuple[UnitCard, Mapping]],
             spaces: Mapping[str, SpaceKind] | None = None, tile_size: int = 10,
             **fields) -> GameState:
    """A state from map text whose upper-case letters are units (explorers seated in legend order).

    ``legend`` maps a letter to a card, or to ``(card, changes)`` with unit field
    changes (``stamina=2``, ``health=1``, ``id="m2"``). ``spaces`` gives the
    space under a letter (floor by default). Other keyword arguments set
    :class:`GameState` fields; monsters queue in legend order.
    Rules: manual p8 (setup), p15 (queue).
    """
    kinds = {letter: (spaces or {}).get(letter, SpaceKind.FLOOR) for letter in legend}
    layout = parse_map(map_text, legend=kinds)
    where = dict(layout.units)
    units: list[Unit] = []
    for letter, entry in legend.items():
        card, changes = entry if isinstance(entry, tuple) else (entry, {})
        if letter not in where:
            raise RulesError("legend", f"letter {letter!r} is not on the map")
        unit = Unit.from_card(card, changes.get("id", card.id), where[letter])
        units.append(_replace(unit, {k: v for k, v in changes.items() if k != "id"}))
    explorers = [u for u in units if u.side == "explorer"]
    monsters = [u for u in units if u.side == "monster"]
    fields.setdefault("chapter", Chapter("chapter", "Example chapter", None, None))
    chapter = fields["chapter"]
    fields.setdefault("spawn_rating", chapter.spawn_rating)
    fields.setdefault("horror_rating", chapter.horror_rating)
    fields.setdefault("starting_explorers", len(explorers))
    return GameState(MapSpec(layout, tile_size), units=tuple(explorers + monsters),
                     queue=tuple(m.id for m in monsters), **fields)


def _replace(unit: Unit, changes: Mapping) -> Unit:
    return replace(unit, **changes) if changes else unit

