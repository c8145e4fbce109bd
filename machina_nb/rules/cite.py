"""A citation as a value: which source, which pages, which heading, which switches and rulings.

Events and refusals carry a :class:`Cite` instead of a string, so a reader can say it in its
own words (:func:`machina_nb.rules.engine.phrases.say_cite`) while ``str(cite)`` keeps the
short form the transcripts have always printed.

>>> c = Cite("manual", ("p18",), "health")
>>> str(c)
'manual p18 (health)'
>>> str(Cite.parse("manual p13 (spawn phase); switch rating.floor"))
'manual p13 (spawn phase); switch rating.floor'
>>> Cite.parse("manual p34 (explore map tile); rulings D19, D21").rulings
('D19', 'D21')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from machina_nb.rules.sources import SOURCES, source_of

__all__ = ["Cite"]

_PAGES = re.compile(r"p\d+(?:-\d+)?(?:, p\d+(?:-\d+)?)*")
_SWITCH = re.compile(r"switch(?:es)? ([\w.]+(?: (?:and|,) [\w.]+)*)")
_RULING = re.compile(r"rulings? (D\d+(?:, D\d+)*)")


@dataclass(frozen=True)
class Cite:
    """Where a rule comes from.

    ``source`` is a key of :data:`machina_nb.rules.sources.SOURCES` (``""`` when the citation
    names only switches or rulings); ``pages`` the page references (``("p15", "p18")``);
    ``heading`` the words naming the passage (``"health"``); ``switches`` the names of the
    ruling switches the outcome depends on; ``rulings`` the ids of the rulings applied.
    ``wording`` keeps the exact text of a citation whose form the fields cannot rebuild (two
    headings, two sources); it is what ``str`` prints then.
    """

    source: str = ""
    pages: tuple[str, ...] = ()
    heading: str = ""
    switches: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    wording: str = ""

    def built(self) -> str:
        """The short form rebuilt from the fields (``manual p18 (health); switch x.y``)."""
        parts = []
        if self.source:
            head = SOURCES[self.source].prefixes[-1] if self.source == "update" else \
                SOURCES[self.source].prefixes[0]
            text = " ".join(p for p in (head, ", ".join(self.pages)) if p)
            parts.append(text + (f" ({self.heading})" if self.heading else ""))
        if self.switches:
            word = "switch" if len(self.switches) == 1 else "switches"
            parts.append(f"{word} {' and '.join(self.switches)}")
        if self.rulings:
            word = "ruling" if len(self.rulings) == 1 else "rulings"
            parts.append(f"{word} {', '.join(self.rulings)}")
        return "; ".join(parts)

    def __str__(self) -> str:
        return self.wording or self.built()

    @classmethod
    def parse(cls, text: str) -> Cite:
        """The citation written ``text`` (the transcripts' short form), its fields filled where
        they can be read; ``str`` of the result is ``text`` again."""
        source = source_of(text)
        pages = _PAGES.search(text)
        heading = re.search(r"^[^;(]*\(([^()]*)\)", text)
        switches = _SWITCH.search(text)
        rulings = _RULING.search(text)
        cite = cls(source.key if source else "",
                   tuple(pages[0].split(", ")) if pages and source else (),
                   heading[1] if heading and source else "",
                   tuple(re.split(r" and |, ", switches[1])) if switches else (),
                   tuple(rulings[1].split(", ")) if rulings else ())
        return cite if cite.built() == text else cls(
            cite.source, cite.pages, cite.heading, cite.switches, cite.rulings, text)
