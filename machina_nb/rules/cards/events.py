"""Event and chapter cards read from ``content/events`` and ``content/chapters``.

An events file has ``kind = "events"`` and one ``[event.<id>]`` table per card:
``name``, ``kind`` (horror or explorer), ``text`` (the card in our words),
``binding`` (true for a binding event), ``enters_play`` and ``on_kill`` (lists of
effect tables, as in abilities), ``invented``, ``source``, and
``[event.<id>.abilities.<name>]`` tables read and checked like unit abilities.
A chapters file has ``kind = "chapters"`` and ``[chapter.<id>]`` tables: ``name``,
``spawn_rating`` and ``horror_rating`` (left out: the chapter has no such phase),
``blocking``, ``places_exit``, ``text``, ``enters_play``, ``invented``, ``source``
and abilities. content/README.md documents both. Errors name file:line:col.

>>> events = load_all_events()
>>> events["shivers"].kind, len(events["shivers"].enters_play)
('horror', 2)
>>> chapters = load_all_chapters()
>>> chapters["the_calm"].spawn_rating, chapters["the_calm"].horror_rating
(8, None)

Rules: manual p14 (horror events), p37 (explorer events), p26 (binding events), p28-29
(chapters).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from machina_nb.rules.cards.abilities import (
    Ability,
    Effect,
    ability_from_record,
    effects_from_records,
)
from machina_nb.rules.cards.units import check_attribute, read_abilities
from machina_nb.rules.content import (
    TomlFile,
    check_card_table,
    content_root,
    load_folder,
    optional,
    read_card_file,
    require,
)
from machina_nb.rules.errors import RulesError

_T = TypeVar("_T")

__all__ = ["EventCard", "Chapter", "load_events", "load_all_events", "load_chapters",
           "load_all_chapters", "event_from_table", "chapter_from_table"]

_EVENT_KEYS = {"name", "kind", "text", "binding", "enters_play", "on_kill", "abilities",
               "invented", "source"}
_CHAPTER_KEYS = {"name", "spawn_rating", "horror_rating", "blocking", "places_exit", "text",
                 "enters_play", "abilities", "invented", "source"}


def load_events(path: str | Path) -> dict[str, EventCard]:
    """Every event card of one ``kind = "events"`` file, by id, or a :class:`ContentError`.

    Rules: manual p14 (horror events), p37 (explorer events), p26 (binding events).
    """
    toml, tables = read_card_file(path, "events", "event", "an events file")
    return {card_id: _event(toml, card_id, table) for card_id, table in tables.items()}


def load_chapters(path: str | Path) -> dict[str, Chapter]:
    """Every chapter card of one ``kind = "chapters"`` file, by id, or a :class:`ContentError`.

    Rules: manual p28-29 (chapters), p13-14 (spawn and horror ratings).
    """
    toml, tables = read_card_file(path, "chapters", "chapter", "a chapters file")
    return {card_id: _chapter(toml, card_id, table) for card_id, table in tables.items()}


def load_all_events(folder: str | Path | None = None) -> dict[str, EventCard]:
    """Every event in ``content/events`` (or ``folder``), by id; ids unique across files.

    Rules: manual p14, p37 (event decks).
    """
    return load_folder(Path(folder) if folder else content_root() / "events", load_events,
                       "event")


def load_all_chapters(folder: str | Path | None = None) -> dict[str, Chapter]:
    """Every chapter in ``content/chapters`` (or ``folder``), by id; ids unique across files.

    Rules: manual p28-29 (the chapter deck).
    """
    return load_folder(Path(folder) if folder else content_root() / "chapters", load_chapters,
                       "chapter")


def event_from_table(toml: TomlFile, card_id: str, table: Any) -> EventCard:
    """One ``[event.<id>]`` table of ``toml`` as an event card, checked as an events file
    checks it; ``toml`` may be a view of a file holding the table deeper.

    Rules: manual p14, p37 (events), p26 (binding events).
    """
    return _event(toml, card_id, table)


def chapter_from_table(toml: TomlFile, card_id: str, table: Any) -> Chapter:
    """One ``[chapter.<id>]`` table of ``toml`` as a chapter card, checked as a chapters file
    checks it; ``toml`` may be a view of a file holding the table deeper.

    Rules: manual p28-29 (chapters).
    """
    return _chapter(toml, card_id, table)


def _event(toml: TomlFile, card_id: str, table: Any) -> EventCard:
    name = check_card_table(toml, "event", card_id, table, _EVENT_KEYS, "an event")
    kind = require(toml, table, name, "kind", str, "'horror' or 'explorer'")
    if kind not in ("horror", "explorer"):
        raise toml.error(name, "kind", f"an event is 'horror' or 'explorer', got {kind!r} "
                         "(manual p14, p37)")
    fields = _common(toml, name, table, "explorer" if kind == "explorer" else "monster")
    fields["binding"] = _flag(toml, table, name, "binding")
    fields["on_kill"] = _effects(toml, name, table, "on_kill")
    return _built(toml, name, table, lambda: EventCard(card_id, kind=kind, **fields))


def _chapter(toml: TomlFile, card_id: str, table: Any) -> Chapter:
    name = check_card_table(toml, "chapter", card_id, table, _CHAPTER_KEYS, "a chapter")
    fields = _common(toml, name, table, "explorer")
    for rating in ("spawn_rating", "horror_rating"):
        fields[rating] = optional(toml, table, name, rating, int, "a rating 0-9")
    for flag in ("blocking", "places_exit"):
        fields[flag] = _flag(toml, table, name, flag)
    return _built(toml, name, table, lambda: Chapter(card_id, **fields))


def _common(toml: TomlFile, name: str, table: Any, side: str) -> dict[str, Any]:
    """Name, text check, invented, source, «enters play» and abilities (every card kind)."""
    if "text" in table:
        require(toml, table, name, "text", str, "the card's text in our words")
    require(toml, table, name, "source", str, "the citation, e.g. 'manual p22'")
    abilities = read_abilities(toml, name, table.get("abilities", {}), side)
    return {"name": require(toml, table, name, "name", str, "the name printed on the card"),
            "invented": require(toml, table, name, "invented", bool,
                                "true when some numbers are ours"),
            "enters_play": _effects(toml, name, table, "enters_play"),
            "abilities": tuple(a for a in (ability_from_record(x.name, x.record, side)
                                           for x in abilities) if a is not None)}


def _flag(toml: TomlFile, table: Any, name: str, key: str) -> bool:
    return require(toml, table, name, key, bool, "true or false") if key in table else False


def _effects(toml: TomlFile, name: str, table: Any, key: str) -> tuple[Any, ...]:
    records = require(toml, table, name, key, list, "a list of effect tables") \
        if key in table else []
    try:
        return effects_from_records(records, key)
    except RulesError as exc:
        raise toml.error(name, key, f"{key}: {exc}") from None


def _built(toml: TomlFile, name: str, table: Any, build: Callable[[], _T]) -> _T:
    try:
        return build()
    except RulesError as exc:
        raise toml.error(name, exc.argument if exc.argument in table else None,
                         str(exc)) from None


@dataclass(frozen=True)
class EventCard:
    """A horror or explorer event: «enters play» effects and active abilities (manual p14, p37).

    ``on_kill`` is a triggered ability of a binding event: it resolves each time
    the explorer it is bound to kills a unit (manual p26 example).
    Rules: manual p14 (invoke horror event), p37 (invoke explorer event), p26 (binding events).
    """

    id: str
    name: str
    kind: str
    enters_play: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    binding: bool = False
    on_kill: tuple[Effect, ...] = ()
    invented: bool = True

    def __post_init__(self) -> None:
        if self.kind not in ("horror", "explorer"):
            raise RulesError("kind", f"an event is horror or explorer, got {self.kind!r}")
        object.__setattr__(self, "enters_play", tuple(self.enters_play))
        object.__setattr__(self, "abilities", tuple(self.abilities))
        object.__setattr__(self, "on_kill", tuple(self.on_kill))


@dataclass(frozen=True)
class Chapter:
    """A chapter card: default spawn and horror ratings (None = no such phase), blocking, exit.

    Rules: manual p28-29 (chapters, blocking, progress), p13-14 (ratings), 3.5 FAQ.
    """

    id: str
    name: str
    spawn_rating: int | None = 6
    horror_rating: int | None = 4
    blocking: bool = False
    places_exit: bool = False
    enters_play: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    invented: bool = True

    def __post_init__(self) -> None:
        for name in ("spawn_rating", "horror_rating"):
            value = getattr(self, name)
            if value is not None:
                check_attribute(name, value)
        object.__setattr__(self, "enters_play", tuple(self.enters_play))
        object.__setattr__(self, "abilities", tuple(self.abilities))

