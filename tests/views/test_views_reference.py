"""The Rules tab without a browser: search, contents, an entry with its links, the glossary and
the notebooks; manual citations turned into links to their entries; a link opens its tab."""

import re
from pathlib import Path

import ipywidgets as widgets
import pytest

from machina_nb.rules.analysis.quiz import answer as quiz_answer
from machina_nb.rules.analysis.reference import load_reference
from machina_nb.views.app import TAB_TITLES, Explorer
from machina_nb.views.reference import (
    _KIND_WORDS,
    NOTEBOOKS,
    ReferenceView,
    RuleLinks,
    cited_entries,
    link_label,
    manual_links,
    rule_buttons,
)

ROOT = Path(__file__).resolve().parents[2]
SITUATION = sorted((ROOT / "content" / "situations").glob("*.toml"))[0].stem


@pytest.fixture(scope="module")
def view():
    return ReferenceView()


def test_typing_a_word_lists_the_entries_and_a_click_opens_one(view):
    view.search.value = "pit"
    hits = [b for b in view.hits.children if "reference-hit" in b._dom_classes]
    assert hits and any("Passable spaces, obstacles and barriers" in b.description for b in hits)
    next(b for b in hits if "obstacles and barriers" in b.description).click()
    assert view.entry.id == "map_elements"
    assert "Passable spaces, obstacles and barriers" in view.text.value
    assert "manual p11, p22, p35" in view.text.value
    view.search.value = "xyzzy"
    assert "nothing found" in view.hits.children[0].value


def test_the_contents_list_every_entry_by_part_and_open_it(view):
    buttons = [b for section in view.contents.children for b in section.children]
    assert len(buttons) == len(view.reference.entries)
    next(b for b in buttons if b.description == "Closest").click()
    assert view.entry.id == "closest" and "<h3>Closest</h3>" in view.text.value


def test_an_entry_names_its_links_and_its_neighbours_on_the_same_pages(view):
    view.show("line_of_sight")
    labels = [b.description for b in view.links.children[1:]]
    assert any(label.startswith("Quiz question: Can Phillip") for label in labels)
    assert any(label.startswith("Ruling: ") for label in labels)
    assert any(label.startswith("Board question: ") for label in labels)
    assert "Line of sight" not in [b.description for b in view.see_also.children]


def test_the_glossary_and_the_notebooks_are_shown(view):
    glossary, notebooks = view.glossary, view.notebooks
    assert "Barrier" in glossary.value and "stops both moving and seeing" in glossary.value
    for name, _ in NOTEBOOKS:
        assert (ROOT / "notebooks" / name).exists() and f"notebooks/{name}" in notebooks.value
    assert {p.name for p in (ROOT / "notebooks").glob("[0-9]*.ipynb")} == \
        {name for name, _ in NOTEBOOKS}


def test_manual_citations_become_links_and_buttons_to_their_entries():
    text = "Rule: manual p15-16, p22 (line of sight); switch los.vertex"
    assert [e.id for e in cited_entries(text)] == ["monster_phase", "mindless", "line_of_sight"]
    shown = manual_links(text)
    assert "class='manual-link'" in shown and "Rules: " in shown and "switch los.vertex" in shown
    assert manual_links("no citation <here>") == "no citation &lt;here&gt;"
    opened = []
    buttons = rule_buttons("manual p24 (attack), p18 (essence)", opened.append).children
    assert [b.description for b in buttons] == ["Rule: Attacks", "Rule: Units and their attributes"]
    buttons[0].click()
    assert opened == ["attack"]
    assert load_reference().entry(opened[0]).title == "Attacks"


def test_in_the_app_a_link_opens_its_tab_and_shows_the_thing():
    app = Explorer()
    app.tabs.selected_index = TAB_TITLES.index("Rules")
    view = app.reference
    view.show("line_of_sight")
    for start, tab in (("Quiz question: ", "Quiz"), ("Ruling: ", "Rulings")):
        next(b for b in view.links.children[1:] if b.description.startswith(start)).click()
        assert TAB_TITLES[app.tabs.selected_index] == tab
    assert app.rulings.switch.value == "los.vertex"
    assert app.quiz.questions[app.quiz.pick.value].id == "sight-open-room"
    view.show("mindless")
    next(b for b in view.links.children[1:] if b.description.startswith("Worked")).click()
    assert TAB_TITLES[app.tabs.selected_index] == "Examples"
    assert app.examples.pick.value == "p16_example_a_sarall"


@pytest.mark.parametrize("word", ["sight", "closest", "spawn", "door", "essence", "trap"])
def test_after_a_search_the_buttons_belong_to_the_entry_opened(view, word):
    """Each hit opens its own entry, and the link and neighbour buttons read afterwards are
    that entry's, not those of the entry open before the search."""
    view.show(view.reference.entries[-1].id)
    hits = view.find(word)
    assert hits
    for button, hit in zip(view.hits.children[1:], hits):
        before = view.entry
        button.click()
        entry = view.entry
        if hit.entry:
            assert entry.id == hit.entry and f"<h3>{entry.title}" in view.text.value
        else:
            assert entry is before
        shown = [b.description for b in view.links.children[1:]]
        wanted = [f"{words}: {link_label(kind, ident)}"[:90]
                  for kind, ident in entry.links()
                  for words in (_KIND_WORDS[kind],)]
        assert shown == wanted, (word, hit.title, entry.id)
        neighbours = [b.description for b in view.see_also.children]
        assert neighbours == [f"Rule: {e.title}" for e in cited_entries(entry.pages_text)
                              if e.id != entry.id]


def _rule_buttons(links):
    return [b for b in links.children if "manual-link-button" in b._dom_classes]


def test_every_tab_that_cites_the_manual_opens_the_entry_in_the_rules_tab():
    """The Board tab's sight verdict, the Round tab's log, a ruling's sources, a worked
    example's steps, a quiz answer and the analysis board's answers each have buttons that
    open their manual citations' entries in the Rules tab, and show each citation marked as a
    link."""
    app = Explorer()
    for title in ("Board", "Round", "Rulings", "Examples", "Quiz", "Analysis board"):
        app.build_tab(TAB_TITLES.index(title))
    app.board.select((1, 1))
    app.round.next_action()
    app.rulings.switch.value = "los.vertex"
    app.examples.next_step()
    app.quiz.go(0)
    question = app.quiz.question
    app.quiz.reply(next(iter(quiz_answer(question, app.rules).correct)))
    app.analysis.editor.start.value = f"situation:{SITUATION}"
    app.analysis.editor.start_button.click()
    views = {"Board": (app.board.rule_links, app.board.verdict),
             "Analysis board": (app.analysis.rule_links, app.analysis.answers_html),
             "Round": (app.round.rule_links, app.round.event_log),
             "Rulings": (app.rulings.rule_links, app.rulings.about),
             "Examples": (app.examples.rule_links, app.examples.text),
             "Quiz": (app.quiz.rule_links, app.quiz.feedback)}
    for title, (links, shown) in views.items():
        assert "class='manual-link'" in shown.value, title
        buttons = _rule_buttons(links)
        assert buttons, title
        entry = next(e for e in load_reference().entries
                     if buttons[0].description == f"Rule: {e.title}")
        app.tabs.selected_index = TAB_TITLES.index(title)
        buttons[0].click()
        assert TAB_TITLES[app.tabs.selected_index] == "Rules", title
        assert app.reference.entry.id == entry.id, title


def test_a_view_on_its_own_shows_the_citation_links_but_no_buttons():
    view = RuleLinks()
    view.show("manual p22 (line of sight)")
    assert view.children == ()
    opened = []
    view.connect(opened.append)
    assert [b.description for b in view.children] == ["Rule: Line of sight"]
    view.children[0].click()
    assert opened == ["line_of_sight"]


def _widgets(widget, seen=None):
    """``widget`` and every widget it holds, each once."""
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    yield widget
    for child in getattr(widget, "children", ()) or ():
        yield from _widgets(child, seen)


def test_every_manual_citation_shown_in_any_tab_is_marked_as_a_link_and_has_a_button():
    """Walk every text of every tab after a click in each: each citation of the manual is
    followed by its link mark, and each tab showing one has a button opening its entry (the
    Rules tab's own entries are the places the links lead to, so they are left out)."""
    app = Explorer()
    for index in range(len(TAB_TITLES)):
        app.build_tab(index)
    app.board.select((1, 1))
    app.round.next_action()
    app.examples.next_step()
    app.quiz.go(0)
    app.quiz.reply(next(iter(quiz_answer(app.quiz.question, app.rules).correct)))
    app.analysis.editor.start.value = f"situation:{SITUATION}"
    app.analysis.editor.start_button.click()
    app.odds.more.selected_index = 1
    citation = re.compile(r"\bmanual\s+p\d+")
    for index, title in enumerate(TAB_TITLES):
        if title == "Rules":
            continue
        shown = [w for w in _widgets(app.tabs.children[index])
                 if isinstance(w, (widgets.HTML, widgets.HTMLMath, widgets.Label))]
        cited = False
        for widget in shown:
            for found in citation.finditer(widget.value):
                cited = True
                after = widget.value[found.end():]
                assert "manual-link" in after.split("manual p")[0], (title, widget.value)
        if cited:
            buttons = [b for w in _widgets(app.tabs.children[index])
                       if isinstance(w, RuleLinks) for b in _rule_buttons(w)]
            assert buttons, title
