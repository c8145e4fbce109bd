"""The rule sources the project implements, by short key (docs/SOURCES.md says the same).

Every citation in code, content, docs, tests and the app begins with one source's
citation prefix: ``manual p22 (line of sight)``, ``3.5 §Spawn Phase``, ``aid §Monster Phase``,
``Arkham summary (Skills and skill tests)``, ``Mansions summary (Line of Sight)``.

>>> SOURCES["mansions"].title
'Mansions of Madness (1st edition) rules summary'
>>> source_of("Arkham summary (Skills and skill tests)").key
'arkham'
>>> source_of("3.5 FAQ").key, source_of("player aid").key
('update', 'aid')
>>> source_of("a forum post") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Source", "SOURCES", "source_of"]


@dataclass(frozen=True)
class Source:
    """One rule source: its key, its title, its role and how a citation of it begins.

    ``prefixes[0]`` is the form written in new citations; the others are shorter forms
    already in use (``3.5 §Spawn Phase`` for the update, ``aid §Monster Phase`` for the aid).
    """

    key: str
    title: str
    role: str
    prefixes: tuple[str, ...]


SOURCES: dict[str, Source] = {s.key: s for s in (
    Source("manual", "Machina Arcana manual 1.0", "primary", ("manual",)),
    Source("update", "Machina Arcana 3.5 rules update", "variant", ("3.5 update", "3.5")),
    Source("aid", "Machina Arcana player aid", "variant", ("player aid", "aid")),
    Source("arkham", "Arkham Horror: The Card Game rules summary", "peer game",
           ("Arkham summary",)),
    Source("mansions", "Mansions of Madness (1st edition) rules summary", "peer game",
           ("Mansions summary",)),
)}
"""The sources by key, the primary source first."""


def source_of(citation: str) -> Source | None:
    """The source a citation cites (by its prefix, a whole word), or None for no known source."""
    for source in SOURCES.values():
        for prefix in source.prefixes:
            rest = citation[len(prefix):len(prefix) + 1]
            if citation.startswith(prefix) and not (rest.isalnum() or rest == "."):
                return source
    return None
