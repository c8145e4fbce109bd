"""Every kind of content file and its loader: :func:`validate` reads any of them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.board.tiles import check_board_size, load_tile
from machina_nb.rules.cards.abilities import ability_from_record, effect_from_record
from machina_nb.rules.cards.events import load_all_events, load_chapters, load_events
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.cards.items import load_items
from machina_nb.rules.cards.units import UnitEntry, load_all_units, load_units
from machina_nb.rules.content import TomlFile, did_you_mean, read_text, read_toml, shown
from machina_nb.rules.errors import ContentError
from machina_nb.rules.rulings import rulings_in_file

__all__ = ["LOADERS", "validate", "check_references"]



LOADERS: dict[str, Callable[[Path], Any]] = {
    "tile": load_tile,
    "units": load_units,
    "items": load_items,
    "events": load_events,
    "chapters": load_chapters,
    "example": load_example,
}
"""Loader per ``kind`` (``rulings`` files are checked by :func:`rulings_in_file`)."""


def validate(path: str | Path, more: Mapping[str, Callable[[Path], Any]] | None = None) -> Any:
    """Load any content file by its ``kind``; raise :class:`ContentError` if it is bad.

    ``more`` adds loaders for kinds of the wings above the cards, which this wing cannot
    import: the command line gives situations, quizzes and Arkham locations (each refused
    at file:line:col by its own strict loader). An unknown kind lists every kind known.
    """
    path = Path(path)
    if path.suffix == ".map":
        return check_board_size(parse_map(read_text(path), str(path), legend={}), str(path))
    toml = read_toml(path)
    kind = toml.data.get("kind")
    if kind == "rulings":
        return rulings_in_file(toml)
    loaders = {**LOADERS, **(more or {})}
    if not isinstance(kind, str) or kind not in loaders:
        kinds = sorted([*loaders, "rulings"])
        raise toml.error(None, "kind" if "kind" in toml.data else None,
                         f"unknown content kind {shown(kind)}{did_you_mean(kind, kinds)}; "
                         f"expected one of: {', '.join(kinds)}")
    loaded = loaders[kind](path)
    if kind in ("units", "items", "events", "chapters"):
        check_references(toml, loaded)
    return loaded


_REFERENCES = {"take": "unit", "destroy_bound_event": "event"}
"""Effects whose ``key`` names another card: *take* a monster card (manual p25), destroy a
binding event (manual p26)."""


def _effects(card: Any, side: str) -> Iterator[Any]:
    """Every effect a loaded card holds, branches included (content units keep raw records)."""
    if isinstance(card, UnitEntry):
        found = [effect_from_record(e) for e in card.enters_play]
        for ability in card.abilities:
            engine = ability_from_record(ability.name, ability.record, side)
            found += list(engine.effects) if engine is not None else []
    else:
        found = [*getattr(card, "enters_play", ()), *getattr(card, "on_kill", ())]
        for ability in getattr(card, "abilities", ()):
            found += list(ability.effects)
    while found:
        effect = found.pop()
        yield effect
        found += [*effect.then, *effect.otherwise]


def check_references(toml: TomlFile, loaded: Mapping[str, Any],
                     more: Mapping[str, Collection[str]] | None = None) -> None:
    """Every card an effect names by ``key`` exists: the shipped cards, this file's and the
    ids ``more`` adds per kind (``unit``, ``event``: a player's own cards).

    Rules: manual p25 (take names a monster card), p26 (destroy a binding event).
    """
    known = {"unit": set(load_all_units()), "event": set(load_all_events())}
    for extra, ids in (more or {}).items():
        known[extra] |= set(ids)
    kinds: dict[object, str] = {"units": "unit", "events": "event"}
    kind = kinds.get(toml.data.get("kind"))
    if kind:
        known[kind] |= set(loaded)
    for card in loaded.values():
        side = getattr(card, "kind", "explorer")
        for effect in _effects(card, "monster" if side == "monster" else "explorer"):
            wanted = _REFERENCES.get(effect.op)
            if wanted and effect.key not in known[wanted]:
                line, col = _spot(toml, effect.key)
                raise ContentError(toml.path, line, col, f"{effect.op} names {effect.key!r}, "
                                   f"which is no {wanted} card{did_you_mean(effect.key, known[wanted])}")


def _spot(toml: TomlFile, value: str) -> tuple[int, int]:
    for i, line in enumerate(toml.raw.split("\n")):
        at = line.find(f'key = "{value}"')
        if at >= 0:
            return i + 1, at + len('key = "')
    return 1, 1

