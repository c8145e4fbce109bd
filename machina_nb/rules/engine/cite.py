"""A citation as a value: which source, which pages and heading, which switches' readings
and which rulings applied; ``str`` gives the written form the transcripts use.

>>> str(cite("manual", 18, "health"))
'manual p18 (health)'
>>> str(Cite("manual", (35,), switches=("pit.voluntary_entry",)))
'manual p35; switch pit.voluntary_entry'
>>> c = parse_cite("manual p21-23 (scope)")
>>> c.pages, c.heading, str(c)
((21, 22, 23), 'scope', 'manual p21-23 (scope)')
>>> str(parse_cite("ruling D36 (yes_same_roll)"))
'ruling D36 (yes_same_roll)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from machina_nb.rules.sources import SOURCES, source_of

__all__ = ["Cite", "cite", "parse_cite"]

_PART = re.compile(r"(?P<prefix>.*?)\s*p(?P<first>\d+)(?:-(?P<last>\d+))?(?:\s*\((?P<head>[^()]*)\))?$")


@dataclass(frozen=True)
class Cite:
    """Where a rule is written and what was read into it.

    ``source`` is a key of :data:`machina_nb.rules.sources.SOURCES` ('' when only switches
    or rulings are cited); ``pages`` the pages cited, in order (a range is every page of
    it); ``heading`` the words naming the passage; ``switches`` the switches whose reading
    applied; ``rulings`` the ruling ids (with their reading) that applied; ``written`` the
    written form when it is not one :meth:`__str__` builds (a section of the update, say).
    """

    source: str = ""
    pages: tuple[int, ...] = ()
    heading: str = ""
    switches: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    written: str = ""

    def __str__(self) -> str:
        if self.written:
            return self.written
        parts = []
        if self.source:
            text = SOURCES[self.source].prefixes[0] if self.source != "update" else "3.5"
            if self.pages:
                first, last = self.pages[0], self.pages[-1]
                pages = f"p{first}" if first == last else f"p{first}-{last}"
                text = f"{text} {pages}"
            if self.heading:
                text = f"{text} ({self.heading})"
            parts.append(text)
        parts += [f"ruling {r}" for r in self.rulings]
        parts += [f"switch {s}" for s in self.switches]
        return "; ".join(parts)


def cite(source: str, page: int | tuple[int, int] = (), heading: str = "",
         *switches: str) -> Cite:
    """A citation of ``source`` at ``page`` (a page or a ``(first, last)`` range) under
    ``heading``, with the switches whose reading applied."""
    if isinstance(page, int):
        pages: tuple[int, ...] = (page,)
    else:
        pages = tuple(range(page[0], page[1] + 1)) if page else ()
    return Cite(source, pages, heading, tuple(switches))


def _one(part: str) -> dict | None:
    if part.startswith("switch "):
        return {"switches": (part[len("switch "):],)}
    if part.startswith("ruling "):
        return {"rulings": (part[len("ruling "):],)}
    found = _PART.match(part)
    source = source_of(part)
    if found is None or source is None:
        return None
    last = int(found["last"] or found["first"])
    return {"source": source.key, "pages": tuple(range(int(found["first"]), last + 1)),
            "heading": found["head"] or ""}


def parse_cite(text: str | Cite) -> Cite:
    """The :class:`Cite` a written citation means (the written form is kept when it is not
    one a :class:`Cite` writes back the same)."""
    if isinstance(text, Cite):
        return text
    fields: dict = {}
    for part in text.split("; "):
        one = _one(part)
        if one is None or ("source" in one and "source" in fields):
            return Cite(written=text)
        for key, value in one.items():
            fields[key] = fields.get(key, ()) + value if key in ("switches", "rulings") else value
    made = Cite(**fields)
    return made if str(made) == text else Cite(written=text)
