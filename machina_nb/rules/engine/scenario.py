"""A game state from map text whose upper-case letters are units: how tests and
the manual's examples set up a situation.

Rules: manual p8 (setup), p15 (queue).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.cards.events import Chapter
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.state import GameState, MapSpec, Side, Unit
from machina_nb.rules.errors import RulesError

__all__ = ["scenario"]


def scenario(map_text: str, legend: Mapping[str, UnitCard | tuple[UnitCard, Mapping[str, Any]]],
             spaces: Mapping[str, SpaceKind] | None = None, tile_size: int = 10,
             **fields: Any) -> GameState:
    """A state from map text whose upper-case letters are units (explorers seated in legend order).

    ``legend`` maps a letter to a card, or to ``(card, changes)`` with unit field
    changes (``stamina=2``, ``health=1``, ``id="m2"``). ``spaces`` gives the
    space under a letter (floor by default). Other keyword arguments set
    :class:`GameState` fields; monsters queue in legend order, each placed with its card,
    which goes to the destroyed pile when the monster is killed.
    Rules: manual p8 (setup), p15 (queue), p19 (destroyed monsters).
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
        if unit.side == Side.MONSTER:     # its card goes to the destroyed pile when killed (p19)
            unit = replace(unit, origin=card)
        units.append(_replace(unit, {k: v for k, v in changes.items() if k != "id"}))
    explorers = [u for u in units if u.side == Side.EXPLORER]
    monsters = [u for u in units if u.side == Side.MONSTER]
    fields.setdefault("chapter", Chapter("chapter", "Example chapter", None, None))
    chapter = fields["chapter"]
    fields.setdefault("spawn_rating", chapter.spawn_rating)
    fields.setdefault("horror_rating", chapter.horror_rating)
    fields.setdefault("starting_explorers", len(explorers))
    return GameState(MapSpec(layout, tile_size), units=tuple(explorers + monsters),
                     queue=tuple(m.id for m in monsters), **fields)


def _replace(unit: Unit, changes: Mapping[str, Any]) -> Unit:
    return replace(unit, **changes) if changes else unit

