"""The Rules tab: the rules of the game in our own words, searchable, with a glossary and the
course notebooks.

Everything shown comes from :mod:`machina_nb.rules.analysis.reference` (``content/reference``):
a search box (entries, glossary terms and the rulings' questions), the table of contents by
part, the entry open (its title, text, manual pages and links to what shows it at work), the
glossary, and the notebooks of the course.

**Citations elsewhere.** Any text that cites the manual ("manual p22 (line of sight)", "manual
p15-16, p22") can lead to its entry:

* :func:`manual_links` turns the text into HTML where each citation is followed by a small
  "(Rules: title)" marked ``manual-link``, with the entry's title as its tooltip;
* :func:`rule_buttons` gives one button per entry cited; pass it a function that opens an
  entry, e.g. ``lambda entry_id: open_rule(app, entry_id)`` with :func:`open_rule`, which
  switches the app to the Rules tab showing that entry.

A tab wires a citation in two lines: show ``manual_links(text)`` in its HTML and put
``rule_buttons(text, opener)`` under it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import ipywidgets as widgets

from machina_nb.rules.analysis.reference import LINKS, Entry, Hit, Reference, load_reference
from machina_nb.rules.content import content_root, read_toml
from machina_nb.rules.rulings import load_rulings

__all__ = ["NOTEBOOKS", "ReferenceView", "RuleLinks", "manual_links", "rule_buttons",
           "cited_entries", "open_rule", "open_link", "link_label"]

#: The course notebooks (in ``notebooks/``) and what each teaches. The app is served with
#: only the explorer notebook; open these in JupyterLab (``jupyter lab`` in the checkout).
NOTEBOOKS: tuple[tuple[str, str], ...] = (
    ("00_tour.ipynb", "a tour of the explorer: what it answers and how it cites the manual"),
    ("01_map_tiles_and_sight.ipynb", "how tiles join into a map, and who can see whom"),
    ("02_moving_nearest_closest.ipynb", "what a move costs, and nearest against closest"),
    ("03_exact_odds.ipynb", "the attack dice and the exact chance of a hit"),
    ("04_spawn_and_horror.ipynb", "how the spawn and horror ratings move over the rounds"),
    ("05_mindless_monster.ipynb", "how a mindless monster picks its target and walks"),
    ("06_ambiguous_rulings.ipynb", "the rules that can be read two ways, side by side"),
    ("07_items_and_abilities.ipynb", "inventories, upgrades, augments and card abilities"),
    ("08_analysis_board.ipynb", "writing down a position from your table and asking about it"),
    ("09_other_games.ipynb", "the same questions in Arkham Horror LCG and Mansions of Madness"),
    ("10_quiz.ipynb", "questions to check what the other notebooks taught"),
)

#: The tab that shows each kind of link, by its title in the app.
LINK_TABS = {"situations": "Analysis board", "examples": "Examples", "quiz": "Quiz",
             "rulings": "Rulings"}

_KIND_WORDS = {"situations": "Board question", "examples": "Worked example",
               "quiz": "Quiz question", "rulings": "Ruling"}
_ONE = r"p\d+(?:[-–]\d+)?(?:\s*\([^()]{0,60}\))?"
_CITATION = re.compile(rf"\bmanual\s+({_ONE}(?:\s*(?:,|and)\s*{_ONE})*)")
_PAGES = re.compile(r"p(\d+)(?:[-–](\d+))?")


def _esc(text: str) -> str:
    return html.escape(str(text))


def _pages_of(cited: str) -> tuple[int, ...]:
    pages: list[int] = []
    for m in _PAGES.finditer(cited):
        first, last = int(m[1]), int(m[2] or m[1])
        pages += range(first, min(last, first + 40) + 1)
    return tuple(pages)


def cited_entries(text: str, reference: Reference | None = None) -> tuple[Entry, ...]:
    """The entries the manual citations in ``text`` lead to, one per page cited (the most
    specific entry for it), each once, in the order cited."""
    reference = reference or load_reference()
    found: list[Entry] = []
    for m in _CITATION.finditer(text):
        for page in _pages_of(m[1]):
            entry = reference.entry_for_page(page)
            if entry is not None and entry not in found:
                found.append(entry)
    return tuple(found)


def manual_links(text: str, reference: Reference | None = None) -> str:
    """``text`` as HTML with each manual citation marked as a link to its entry: the citation
    as written, then "(Rules: title)" in small type, a ``manual-link`` with the entry's title
    as tooltip and ``data-entry`` (ids, space separated). Put :func:`rule_buttons` (or a
    :class:`RuleLinks`) beside it to open the entries."""
    reference = reference or load_reference()
    out, last = [], 0
    for m in _CITATION.finditer(text):
        entries = cited_entries(m[0], reference)
        out.append(_esc(text[last:m.start()]))
        if entries:
            titles = "; ".join(e.title for e in entries)
            out.append(f"{_esc(m[0])} <small class='manual-link' data-entry="
                       f"'{' '.join(e.id for e in entries)}' title='Rules tab: {_esc(titles)}'>"
                       f"(Rules: {_esc(titles)})</small>")
        else:
            out.append(_esc(m[0]))
        last = m.end()
    return "".join(out) + _esc(text[last:])


def rule_buttons(text: str, open_entry: Callable[[str], object],
                 reference: Reference | None = None, skip: str = "") -> widgets.HBox:
    """One button per entry the citations in ``text`` lead to ("Rule: Line of sight (manual
    p22)"), each calling ``open_entry(entry_id)``; ``skip`` leaves out one entry id."""
    buttons = []
    for entry in cited_entries(text, reference):
        if entry.id == skip:
            continue
        button = widgets.Button(description=f"Rule: {entry.title}",
                                tooltip=f"{entry.title} ({entry.pages_text})",
                                layout=widgets.Layout(width="auto"))
        button.add_class("manual-link-button")
        button.on_click(lambda _, i=entry.id: open_entry(i))
        buttons.append(button)
    box = widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))
    box.add_class("manual-links")
    return box


class RuleLinks(widgets.HBox):
    """The buttons under a view's cited text that open the entries it cites in the Rules tab.

    A view keeps one as ``rule_links`` and calls :meth:`show` with the text it shows; the app
    calls :meth:`connect` with a function that opens an entry (:func:`open_rule`). Until then
    (a view on its own in a notebook) it shows nothing, since there is no Rules tab to open.
    CSS class ``manual-links``; each button ``manual-link-button``.
    """

    def __init__(self, opener: Callable[[str], None] | None = None):
        super().__init__(layout=widgets.Layout(flex_flow="row wrap"))
        self.add_class("manual-links")
        self.opener = opener
        self.text = ""

    def show(self, text: str) -> None:
        """Buttons for the citations in ``text`` (none without an opener)."""
        self.text = text
        self.children = rule_buttons(text, self._open).children if self.opener else ()

    def connect(self, opener: Callable[[str], None]) -> None:
        """Open entries with ``opener`` from now on (and show the buttons of the text shown)."""
        self.opener = opener
        self.show(self.text)

    def _open(self, entry_id: str) -> None:
        if self.opener is not None:
            self.opener(entry_id)


def link_label(kind: str, ident: str) -> str:
    """What a link shows: a situation's title, an example's title, a quiz prompt or a
    ruling's question."""
    if kind == "rulings":
        return load_rulings()[ident].question
    if kind == "quiz":
        for path in sorted((content_root() / "quiz").glob("*.toml")):
            for q in read_toml(path).data.get("question", ()):
                if q.get("id") == ident:
                    return str(q.get("prompt", ident))
        return ident
    data = read_toml(content_root() / kind / f"{ident}.toml").data
    return str(data.get("title", ident))


def _tab(app, title: str) -> int:
    index = list(app.tabs.titles).index(title)
    app.build_tab(index)
    app.tabs.selected_index = index
    return index


def open_rule(app, entry_id: str) -> None:
    """Switch ``app`` (the explorer) to its Rules tab showing entry ``entry_id``."""
    _tab(app, "Rules")
    app.reference.show(entry_id)


def open_link(app, kind: str, ident: str) -> None:
    """Switch ``app`` (the explorer) to the tab that shows link ``(kind, ident)`` and show it
    there: a situation on the Analysis board, a worked example, a quiz question, a ruling."""
    _tab(app, LINK_TABS[kind])
    if kind == "examples":
        app.examples.choose(ident)
    elif kind == "quiz":
        app.quiz.pick.value = [q.id for q in app.quiz.questions].index(ident)
    elif kind == "rulings":
        app.rulings.switch.value = ident
    else:
        app.analysis.editor.start.value = f"situation:{ident}"
        app.analysis.editor.start_button.click()


class ReferenceView(widgets.VBox):
    """The rules reference: search, contents, the entry open, glossary, course notebooks.

    ``open_link`` (optional) is called with ``(kind, id)`` when a link of an entry is clicked
    (the app sets it to show the thing in its tab); without it a link only names what it leads
    to. CSS classes for tests: ``reference-view``, ``reference-search``, ``reference-hits``
    (each ``reference-hit``), ``reference-contents`` (each ``reference-toc-entry``),
    ``reference-entry`` (the entry's text), ``reference-links`` (each ``reference-link``),
    ``reference-see-also``, ``reference-glossary``, ``reference-notebooks``. Attributes:
    ``search``, ``hits``, ``contents``, ``text``, ``links``, ``see_also``, ``glossary``,
    ``notebooks``, and ``entry``, the entry shown.
    """

    def __init__(self, reference: Reference | None = None,
                 open_link: Callable[[str, str], None] | None = None):
        self.reference = reference or load_reference()
        self.open_link = open_link
        self.search = widgets.Text(placeholder="search: a word, a term, a question",
                                   layout=widgets.Layout(width="300px"))
        self.search.add_class("reference-search")
        self.hits = widgets.VBox()
        self.hits.add_class("reference-hits")
        self.text = widgets.HTML()
        self.text.add_class("reference-entry")
        self.links = widgets.VBox()
        self.links.add_class("reference-links")
        self.see_also = widgets.HBox()
        self.see_also.add_class("reference-see-also")
        self.search.observe(lambda change: self.find(change["new"]), "value")
        contents = self.contents = self._contents()
        self.glossary = widgets.HTML(self._glossary_html())
        self.glossary.add_class("reference-glossary")
        self.notebooks = widgets.HTML(_notebooks_html())
        self.notebooks.add_class("reference-notebooks")
        more = widgets.Accordion([self.glossary, self.notebooks], titles=("Glossary", "Course notebooks"),
                                 selected_index=None)
        page = widgets.VBox([self.text, self.links, self.see_also],
                            layout=widgets.Layout(flex="1 1 420px", min_width="300px"))
        side = widgets.VBox([self.search, self.hits, contents],
                            layout=widgets.Layout(width="320px", flex="0 0 auto"))
        super().__init__([widgets.HBox([side, page], layout=widgets.Layout(flex_flow="row wrap")),
                          more])
        self.add_class("reference-view")
        self.show(self.reference.entries[0].id)

    def _contents(self) -> widgets.Accordion:
        sections = []
        for _part, entries in self.reference.parts():
            buttons = []
            for entry in entries:
                button = widgets.Button(description=entry.title, tooltip=entry.pages_text,
                                        layout=widgets.Layout(width="280px"))
                button.add_class("reference-toc-entry")
                button.on_click(lambda _, i=entry.id: self.show(i))
                buttons.append(button)
            sections.append(widgets.VBox(buttons))
        contents = widgets.Accordion(sections, titles=tuple(p for p, _ in self.reference.parts()),
                                     selected_index=0, layout=widgets.Layout(width="310px"))
        contents.add_class("reference-contents")
        return contents

    def show(self, entry_id: str) -> Entry:
        """Open entry ``entry_id`` (an unknown id raises, naming the argument)."""
        entry = self.entry = self.reference.entry(entry_id)
        rows = []
        for kind, ident in entry.links():
            label = f"{_KIND_WORDS[kind]}: {link_label(kind, ident)}"
            button = widgets.Button(description=label[:90], tooltip=label,
                                    layout=widgets.Layout(width="auto", max_width="640px"))
            button.add_class("reference-link")
            button.on_click(lambda _, k=kind, i=ident: self._follow(k, i))
            rows.append(button)
        where = "; click one to open it in its tab" if self.open_link else \
            f"; find them in the {', '.join(sorted({LINK_TABS[k] for k, _ in entry.links()}))} tab(s)"
        self.links.children = [widgets.HTML(f"<b>See it at work</b><small>{_esc(where)}</small>"),
                               *rows]
        self.see_also.children = rule_buttons(entry.pages_text, self.show, self.reference,
                                              skip=entry.id).children
        # The entry's text goes last, so a page showing the new title already has its links.
        body = "".join(f"<p>{_esc(p)}</p>" for p in entry.paragraphs)
        self.text.value = (f"<h3>{_esc(entry.title)}</h3><p><small>{_esc(entry.part)} · "
                           f"{_esc(entry.pages_text)}</small></p>{body}")
        return entry

    def _follow(self, kind: str, ident: str) -> None:
        if self.open_link is not None:
            self.open_link(kind, ident)

    def find(self, text: str) -> tuple[Hit, ...]:
        """Search for ``text``; show up to 12 hits as buttons (an entry or a term opens its
        entry; a ruling opens the entry that links it, or the ruling in its tab)."""
        hits = self.reference.search(text)
        buttons = []
        for hit in hits[:12]:
            kind = {"entry": "Rule", "term": "Glossary", "ruling": "Ruling"}[hit.kind]
            button = widgets.Button(description=f"{kind}: {hit.title}"[:100],
                                    tooltip=f"{hit.title}: {hit.text}",
                                    layout=widgets.Layout(width="300px"))
            button.add_class("reference-hit")
            button.on_click(lambda _, h=hit: self._open_hit(h))
            buttons.append(button)
        note = (f"{len(hits)} found" + (", the first 12 shown" if len(hits) > 12 else "")
                if hits else ("nothing found" if text.strip() else ""))
        self.hits.children = [widgets.HTML(f"<small>{_esc(note)}</small>"), *buttons]
        return hits

    def _open_hit(self, hit: Hit) -> None:
        if hit.entry:
            self.show(hit.entry)
        else:
            self._follow("rulings", hit.switch)

    def _glossary_html(self) -> str:
        rows = "".join(f"<tr><td><b>{_esc(t.term)}</b></td><td>{_esc(t.means)}</td>"
                       f"<td><small>{_esc(self.reference.entry(t.entry).title)}</small></td></tr>"
                       for t in self.reference.terms)
        return ("<table class='glossary'><tr><th>term</th><th>meaning</th><th>read more in"
                f"</th></tr>{rows}</table>")


def _notebooks_html() -> str:
    items = "".join(f"<li><a class='notebook-link' href='{_esc(name)}' target='_blank'><code>"
                    f"notebooks/{_esc(name)}</code></a>: {_esc(what)}</li>"
                    for name, what in NOTEBOOKS)
    return ("<p>The course, one notebook per subject. This page shows only the explorer; "
            "open the notebooks in JupyterLab (run <code>jupyter lab</code> in the project "
            "folder and open the explorer there: each name below then opens its notebook):</p>"
            f"<ul>{items}</ul>")


assert set(LINKS) == set(LINK_TABS)
