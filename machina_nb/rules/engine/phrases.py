"""The phrasebook: how an event, a citation and a monster's plan are said to a reader.

An event keeps its phrase with raw unit ids and ``(x, y)`` points (the transcripts' form);
:func:`say` says it with the reader's names for the units and for the spaces.

>>> from machina_nb.rules.engine.resolution import Event
>>> from machina_nb.rules.engine.cite import cite
>>> e = Event("move", "kim steps (0, 0) -> (1, 2)", cite("manual", 18, "movement"),
...           ("kim",), ((0, 0), (1, 2)))
>>> say(e)
'kim steps (0, 0) → (1, 2)'
>>> say(e, names={"kim": "Kim (K)"}, space=lambda p: "ABC"[p[0]] + str(p[1] + 1))
'Kim (K) steps A1 → B3'
>>> say_cite(e.cite)
'manual p18 (movement)'
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping, Protocol

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.engine.cite import Cite

__all__ = ["Phrase", "mentions", "say", "say_cite"]


class Phrase(Protocol):
    """What :func:`say` reads of an event (the resolution's ``Event`` is one): its phrase
    with raw ids and points, the unit ids it names and the points it names."""

    text: str
    who: tuple[str, ...]
    where: tuple[Point, ...]

_POINT = re.compile(r"\((-?\d+), (-?\d+)\)")


def _id_pattern(unit_id: str) -> str:
    return rf"(?<![\w-]){re.escape(unit_id)}(?![\w-])"


def mentions(text: str, units: Iterable) -> tuple[tuple[str, ...], tuple[Point, ...]]:
    """The unit ids (of ``units``) and the whole-space points a phrase names, in order of
    first mention."""
    found = []
    for unit in units:
        hit = re.search(_id_pattern(unit.id), text)
        if hit:
            found.append((hit.start(), unit.id))
    who = tuple(dict.fromkeys(i for _, i in sorted(found)))
    where = tuple(dict.fromkeys((int(m[1]), int(m[2])) for m in _POINT.finditer(text)))
    return who, where


def say(event: Phrase, names: Mapping[str, str] | None = None,
        space: Callable[[Point], str] | None = None) -> str:
    """The event's phrase for a reader: each unit it names by ``names`` (ids it lacks stay
    as they are; an id written after a unit's name is dropped) and each space it names by
    ``space`` (default ``(x, y)``)."""
    text = event.text
    if space is not None:
        wanted = set(event.where)
        text = _POINT.sub(lambda m: space((int(m[1]), int(m[2])))
                          if (int(m[1]), int(m[2])) in wanted else m[0], text)
    known = names or {}
    for unit_id in sorted(event.who, key=len, reverse=True):   # "mi_go-12" before "mi_go-1"
        if unit_id in known:
            # "Ghoul (ghoul-1) spawns": the id after the unit's name is the transcripts' alone
            text = text.replace(f" ({unit_id})", "")
            text = re.sub(_id_pattern(unit_id), known[unit_id], text)
    return text.replace("->", "→").replace(">=", "≥").replace("<=", "≤")


def say_cite(cite: Cite, label: Callable[[str], str] | None = None) -> str:
    """A citation as written, each switch said by ``label`` (its question) when given."""
    if label is None or not cite.switches:
        return str(cite)
    from_words = str(cite)
    for switch in cite.switches:
        from_words = from_words.replace(f"switch {switch}", label(switch))
    return from_words
