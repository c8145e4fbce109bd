"""The rules reference: the game's rules in the project's own words, a glossary, and search.

The reference is data (``content/reference/*.toml``, format in content/README.md): entries
organised as the manual is (setup, the round, its phases, actions, sight, attacks, monsters,
abilities, items, map spaces, events and chapters, the end), each with its manual pages and
links to what shows it at work: a situation (a board question), a worked example, a quiz
question and the ruling switches that touch it. Every linked id is checked to exist, so a
link never leads nowhere. The glossary maps a term to a short meaning and its entry.

It lives in the analysis wing because its links reach situations and quiz questions.

>>> ref = load_reference()
>>> ref.entry_for_page(22).title
'Line of sight'
>>> [hit.title for hit in ref.search("line of sight")][:1]
['Line of sight']
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from machina_nb.rules.content import (
    TomlFile,
    check_keys,
    content_root,
    did_you_mean,
    expect_kind,
    read_toml,
    require,
)
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import SWITCHES, load_rulings

__all__ = ["PARTS", "LINKS", "Entry", "Term", "Hit", "Reference", "load_reference_file",
           "load_reference", "MAX_QUERY"]

#: The parts of the reference, in the manual's order (the table of contents).
PARTS = ("Setup", "The round", "Actions and moving", "Sight and distance",
         "Attacks and essence", "Monsters", "Abilities and effects", "Items", "Map spaces",
         "Events and chapters", "The end")

#: What an entry may link to: the key in the file and what it names.
LINKS: Mapping[str, str] = {"situations": "a situation", "examples": "a worked example",
                            "quiz": "a quiz question", "rulings": "a ruling switch"}

MAX_QUERY = 200
"""The longest search text taken (characters)."""

_ENTRY_KEYS = ("id", "part", "title", "pages", "text", *LINKS)
_TERM_KEYS = ("term", "means", "entry")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_LAST_PAGE = 40
_PARAGRAPH_CHARS = 700


@dataclass(frozen=True)
class Entry:
    """One rule explained: ``id``, the ``part`` of :data:`PARTS` it belongs to, its ``title``,
    the manual ``pages`` it explains, its ``paragraphs`` (1-3, our own words) and the ids it
    links to: ``situations``, ``examples``, ``quiz`` questions and ``rulings`` (switch
    names). ``where`` is ``file:line`` of its table."""

    id: str
    part: str
    title: str
    pages: tuple[int, ...]
    paragraphs: tuple[str, ...]
    situations: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    quiz: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    where: str = ""

    @property
    def text(self) -> str:
        """The paragraphs, one blank line between them."""
        return "\n\n".join(self.paragraphs)

    @property
    def pages_text(self) -> str:
        """The pages as a citation: ``manual p15-16, p22``."""
        runs: list[list[int]] = []
        for page in sorted(set(self.pages)):
            if runs and page == runs[-1][-1] + 1:
                runs[-1].append(page)
            else:
                runs.append([page])
        return "manual " + ", ".join(f"p{r[0]}" + (f"-{r[-1]}" if len(r) > 1 else "")
                                     for r in runs)

    def links(self) -> tuple[tuple[str, str], ...]:
        """Every link as ``(kind, id)``, kinds in the order of :data:`LINKS`."""
        return tuple((kind, i) for kind in LINKS for i in getattr(self, kind))


@dataclass(frozen=True)
class Term:
    """A glossary term: the ``term``, what it ``means`` (one short line), the ``entry`` id
    that explains it."""

    term: str
    means: str
    entry: str
    where: str = ""


@dataclass(frozen=True)
class Hit:
    """One search result: its ``kind`` (``entry``, ``term`` or ``ruling``), the ``title`` shown
    (an entry's title, a term, a ruling's question), a short ``text``, the ``entry`` id to
    open (empty for a ruling no entry links) and, for a ruling, its ``switch`` name."""

    kind: str
    title: str
    text: str
    entry: str = ""
    switch: str = ""


@dataclass(frozen=True)
class Reference:
    """The whole reference: ``entries`` in table-of-contents order and the glossary
    ``terms`` in alphabetical order."""

    entries: tuple[Entry, ...]
    terms: tuple[Term, ...] = ()

    def entry(self, entry_id: str) -> Entry:
        """The entry with this id; an unknown id is an error naming the argument."""
        for entry in self.entries:
            if entry.id == entry_id:
                return entry
        raise RulesError("entry_id", f"no reference entry {entry_id!r}"
                         f"{did_you_mean(entry_id, [e.id for e in self.entries])}")

    def term(self, word: str) -> Term:
        """The glossary term ``word`` (any case); an unknown term is an error."""
        for term in self.terms:
            if term.term.lower() == str(word).strip().lower():
                return term
        raise RulesError("word", f"no glossary term {word!r}"
                         f"{did_you_mean(word, [t.term for t in self.terms])}")

    def parts(self) -> tuple[tuple[str, tuple[Entry, ...]], ...]:
        """The table of contents: each part of :data:`PARTS` that has entries, with them."""
        return tuple((part, found) for part in PARTS
                     if (found := tuple(e for e in self.entries if e.part == part)))

    def entry_for_page(self, page: int) -> Entry | None:
        """The entry that best explains manual page ``page``: of those citing it, the one
        citing fewest pages (the most specific), the first in reading order on a tie; None
        when no entry cites the page.
        """
        if isinstance(page, bool) or not isinstance(page, int):
            raise RulesError("page", f"a page must be a whole number, got {page!r}")
        citing = [e for e in self.entries if page in e.pages]
        return min(citing, key=lambda e: len(e.pages)) if citing else None

    def search(self, text: str) -> tuple[Hit, ...]:
        """Entries, glossary terms and ruling questions holding every word of ``text`` (any
        case; a word matches the start of a word): entries whose title matches first, then
        other entries, then terms, then rulings. Empty text finds nothing."""
        if not isinstance(text, str):
            raise RulesError("text", f"search text must be a string, got {type(text).__name__}")
        words = _words(text[:MAX_QUERY])
        if not words:
            return ()
        titled = [e for e in self.entries if _matches(words, e.title)]
        other = [e for e in self.entries if e not in titled
                 and _matches(words, " ".join((e.title, e.part, e.text)))]
        hits = [Hit("entry", e.title, _snippet(e.paragraphs[0]), e.id) for e in (*titled, *other)]
        hits += [Hit("term", t.term, t.means, t.entry) for t in self.terms
                 if _matches(words, f"{t.term} {t.means}")]
        linked = {switch: e.id for e in reversed(self.entries) for switch in e.rulings}
        for name, ruling in _rulings().items():
            prose = " ".join((name, ruling.question, *ruling.readings.values()))
            if _matches(words, prose):
                hits.append(Hit("ruling", ruling.question, name, linked.get(name, ""), name))
        return tuple(hits)


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9]+", text.lower()))


def _matches(words: tuple[str, ...], haystack: str) -> bool:
    found = _words(haystack)
    return all(any(w.startswith(q) for w in found) for q in words)


def _snippet(paragraph: str, limit: int = 160) -> str:
    flat = " ".join(paragraph.split())
    return flat if len(flat) <= limit else flat[:limit].rsplit(" ", 1)[0] + "…"


@functools.cache
def _rulings() -> Mapping[str, Any]:
    return load_rulings()


# --- loading ---------------------------------------------------------------------------------


def _ids_in(folder: Path, table: str | None) -> frozenset[str]:
    """The ids declared in a content folder: a top-level ``id`` (situations, examples) or the
    ids of its ``[[table]]`` entries (quiz questions, reference entries)."""
    found: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        data = read_toml(path).data
        if table is None:
            found.add(str(data.get("id", "")))
        else:
            found |= {str(t.get("id", "")) for t in data.get(table, ()) if isinstance(t, dict)}
    return frozenset(found)


@functools.cache
def _known(root: Path) -> Mapping[str, frozenset[str]]:
    """The ids each kind of link may name, read from the content folder ``root``."""
    return {"situations": _ids_in(root / "situations", None),
            "examples": _ids_in(root / "examples", None),
            "quiz": _ids_in(root / "quiz", "question"),
            "rulings": frozenset(SWITCHES)}


def _strings(toml: TomlFile, table: Mapping[str, Any], key: str, what: str, n: int,
             ) -> tuple[str, ...]:
    values = require(toml, table, "entry", key, list, what, n)
    if not all(isinstance(v, str) for v in values):
        raise toml.error("entry", key, f"{key!r} must be {what}", n)
    return tuple(values)


def _entry(toml: TomlFile, table: Any, n: int) -> Entry:
    def need(key: str, kind: type, what: str, choices: Collection[object] | None = None) -> Any:
        return require(toml, table, "entry", key, kind, what, n, choices=choices)

    if not isinstance(table, dict):
        raise toml.error("entry", None, "each [[entry]] must be a table", n)
    check_keys(toml, "entry", table, _ENTRY_KEYS, "a reference entry", n)
    entry_id = need("id", str, "an entry id")
    if not _ID.match(entry_id):
        raise toml.error("entry", "id", f"entry id {entry_id!r} must be lower-case letters, "
                         "digits and '_', starting with a letter", n)
    part = need("part", str, "a part of the reference", choices=PARTS)
    title = need("title", str, "the entry's title").strip()
    if not title:
        raise toml.error("entry", "title", "the title is empty", n)
    pages = need("pages", list, f"manual pages, whole numbers 1-{_LAST_PAGE}")
    if not pages or not all(isinstance(p, int) and not isinstance(p, bool)
                            and 1 <= p <= _LAST_PAGE for p in pages):
        raise toml.error("entry", "pages", f"'pages' must list manual pages, whole numbers "
                         f"1-{_LAST_PAGE}, got {pages!r}"[:160], n)
    paragraphs = tuple(" ".join(p.split()) for p in need("text", str, "1-3 paragraphs")
                       .strip().split("\n\n") if p.strip())
    if not 1 <= len(paragraphs) <= 3 or any(len(p) > _PARAGRAPH_CHARS for p in paragraphs):
        raise toml.error("entry", "text", f"the text must be 1-3 paragraphs (blank lines "
                         f"between), each at most {_PARAGRAPH_CHARS} characters", n)
    links = {kind: _strings(toml, table, kind, f"a list of {what} ids", n)
             for kind, what in LINKS.items() if kind in table}
    if not any(links.values()):
        raise toml.error("entry", None, f"entry {entry_id!r} links to nothing: give at least "
                         f"one of {', '.join(LINKS)}", n)
    known = _known(content_root())
    for kind, ids in links.items():
        for i in ids:
            if i not in known[kind]:
                raise toml.error("entry", kind, f"unknown {kind} id {i!r} ({LINKS[kind]})"
                                 f"{did_you_mean(i, known[kind])}", n)
    return Entry(entry_id, part, title, tuple(pages), paragraphs,
                 where=f"{toml.path}:{toml.where('entry', None, n)[0]}", **links)


def _term(toml: TomlFile, table: Any, n: int, entries: frozenset[str]) -> Term:
    if not isinstance(table, dict):
        raise toml.error("term", None, "each [[term]] must be a table", n)
    check_keys(toml, "term", table, _TERM_KEYS, "a glossary term", n)
    word, means, entry = (require(toml, table, "term", key, str, what, n).strip() for key, what
                          in (("term", "the term"), ("means", "a short meaning"),
                              ("entry", "the id of the entry explaining it")))
    if not word or not means:
        raise toml.error("term", "term" if not word else "means", "empty text", n)
    if entry not in entries:
        raise toml.error("term", "entry", f"unknown entry {entry!r}"
                         f"{did_you_mean(entry, entries)}", n)
    return Term(word, means, entry, f"{toml.path}:{toml.where('term', None, n)[0]}")


def _read(path: str | Path, entries: frozenset[str] | None) -> Reference:
    toml = read_toml(path)
    expect_kind(toml, "reference")
    check_keys(toml, None, toml.data, ("kind", "entry", "term"), "a reference file")
    tables = toml.data.get("entry", [])
    terms = toml.data.get("term", [])
    for key, value in (("entry", tables), ("term", terms)):
        if not isinstance(value, list):
            raise toml.error(None, key, f"'{key}' must be [[{key}]] tables")
    found = tuple(_entry(toml, table, n) for n, table in enumerate(tables))
    for n, entry in enumerate(found):
        if entry.id in (other.id for other in found[:n]):
            raise toml.error("entry", "id", f"duplicate entry id {entry.id!r}", n)
    ids = frozenset(e.id for e in found) | (
        _ids_in(content_root() / "reference", "entry") if entries is None else entries)
    return Reference(found, tuple(_term(toml, t, n, ids) for n, t in enumerate(terms)))


def load_reference_file(path: str | Path) -> Reference:
    """The entries and terms of one ``kind = "reference"`` file, checked strictly: unknown or
    missing keys, a part not in :data:`PARTS`, pages outside the manual, more than three
    paragraphs, no link, a link to an id that does not exist, a term naming an unknown entry
    (one of the file's or of the shipped reference) are errors at file:line:col.
    """
    return _read(path, None)


def load_reference(folder: str | Path | None = None) -> Reference:
    """The whole reference in ``content/reference`` (or ``folder``): entries in the order of
    :data:`PARTS` (file order within a part), terms alphabetical; ids unique across files,
    every term's entry among them. One bad file loads nothing.
    """
    return _load(Path(folder) if folder else content_root() / "reference")


@functools.cache
def _load(folder: Path) -> Reference:
    paths = sorted(folder.glob("*.toml"))
    ids = _ids_in(folder, "entry")
    entries: list[Entry] = []
    terms: list[Term] = []
    for path in paths:
        part = _read(path, ids)
        for n, entry in enumerate(part.entries):
            if entry.id in (e.id for e in entries):
                raise read_toml(path).error("entry", "id", f"duplicate entry id {entry.id!r} "
                                            "(used in another reference file)", n)
        entries += part.entries
        terms += part.terms
    if not entries:
        raise ContentError(str(folder), 1, 1, "no reference entries found")
    entries.sort(key=lambda e: PARTS.index(e.part))
    return Reference(tuple(entries), tuple(sorted(terms, key=lambda t: t.term.lower())))
