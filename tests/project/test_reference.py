"""The rules reference (content/reference): every entry has its pages, original text (the
originality test in test_rulings_content covers it) and links that lead somewhere; search
finds each entry by a word of its title; the glossary resolves; bad files are refused in one
line at file:line:col."""

import re

import pytest

from machina_nb.rules.analysis.quiz import load_quiz
from machina_nb.rules.analysis.reference import LINKS, PARTS, load_reference, load_reference_file
from machina_nb.rules.analysis.situation import load_situations
from machina_nb.rules.cards.examples import load_example
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError, RulesError
from machina_nb.rules.rulings import SWITCHES

REFERENCE = load_reference()
ENTRIES = {e.id: e for e in REFERENCE.entries}
SMALL_WORDS = {"a", "an", "and", "the", "of", "by", "its", "their", "what", "they"}


def test_the_reference_covers_the_manual_in_its_order():
    assert 35 <= len(REFERENCE.entries) <= 60 and len(REFERENCE.terms) >= 40
    assert [part for part, _ in REFERENCE.parts()] == list(PARTS)
    assert [PARTS.index(e.part) for e in REFERENCE.entries] == \
        sorted(PARTS.index(e.part) for e in REFERENCE.entries)


@pytest.mark.parametrize("entry_id", list(ENTRIES))
def test_every_entry_has_pages_short_text_and_a_link(entry_id):
    entry = ENTRIES[entry_id]
    assert entry.pages and all(1 <= p <= 40 for p in entry.pages)
    assert 1 <= len(entry.paragraphs) <= 3 and all(p.strip() for p in entry.paragraphs)
    assert entry.links(), entry_id


def test_every_link_names_something_that_exists_by_its_real_loader():
    known = {"situations": set(load_situations()),
             "examples": {load_example(p).id for p in (content_root() / "examples").glob("*.toml")},
             "quiz": {q.id for q in load_quiz()}, "rulings": set(SWITCHES)}
    assert set(known) == set(LINKS)
    for entry in REFERENCE.entries:
        for kind, ident in entry.links():
            assert ident in known[kind], f"{entry.id}: {kind} {ident}"


@pytest.mark.parametrize("entry_id", list(ENTRIES))
def test_search_finds_each_entry_by_a_word_of_its_title(entry_id):
    entry = ENTRIES[entry_id]
    words = [w for w in re.findall(r"[A-Za-z]+", entry.title) if w.lower() not in SMALL_WORDS]
    for word in words:
        assert entry_id in [h.entry for h in REFERENCE.search(word) if h.kind == "entry"], word


def test_search_covers_terms_and_ruling_questions_and_finds_nothing_for_nothing():
    kinds = {h.kind for h in REFERENCE.search("corner")}
    assert kinds == {"entry", "term", "ruling"} or {"entry", "ruling"} <= kinds
    ruling = next(h for h in REFERENCE.search("los.vertex") if h.kind == "ruling")
    assert ruling.switch == "los.vertex" and ruling.entry == "line_of_sight"
    assert REFERENCE.search("") == () and REFERENCE.search("   ") == ()
    assert REFERENCE.search("xyzzy") == ()
    first = REFERENCE.search("line of sight")[0]
    assert (first.kind, first.entry) == ("entry", "line_of_sight")
    with pytest.raises(RulesError, match="text"):
        REFERENCE.search(22)


def test_every_glossary_term_resolves_to_its_entry():
    for term in REFERENCE.terms:
        assert REFERENCE.entry(term.entry).id == term.entry
        assert REFERENCE.term(term.term.upper()) == term
        assert term.entry in [h.entry for h in REFERENCE.search(term.term) if h.kind == "term"]
    with pytest.raises(RulesError, match="no glossary term"):
        REFERENCE.term("flux capacitor")


@pytest.mark.parametrize("page, entry_id", [(22, "line_of_sight"), (13, "spawn_phase"),
                                            (24, "attack"), (34, "move"), (16, "mindless")])
def test_entry_for_page_picks_the_most_specific_entry(page, entry_id):
    assert REFERENCE.entry_for_page(page).id == entry_id


def test_every_page_of_the_rules_has_an_entry_and_others_have_none():
    for page in (3, 4, 7, *range(8, 38)):
        assert REFERENCE.entry_for_page(page) is not None, page
    assert REFERENCE.entry_for_page(99) is None
    with pytest.raises(RulesError, match="page"):
        REFERENCE.entry_for_page("22")


def test_pages_read_as_a_citation():
    assert ENTRIES["closest"].pages_text == "manual p15-16, p22"


GOOD = '''kind = "reference"

[[entry]]
id = "sight"
part = "Sight and distance"
title = "Sight"
pages = [22]
text = """
One paragraph.
"""
quiz = ["sight-corner"]
'''


@pytest.mark.parametrize("change, where, message", [
    (('quiz = ["sight-corner"]', 'quiz = ["sight-cornr"]'), (11, 8), "unknown quiz id"),
    (('quiz = ["sight-corner"]', 'rulings = ["los.vertx"]'), (11, 11), "did you mean"),
    (('quiz = ["sight-corner"]', ''), (3, 1), "links to nothing"),
    (('pages = [22]', 'pages = [0]'), (7, 9), "pages"),
    (('part = "Sight and distance"', 'part = "Sight"'), (5, 8), "unknown part"),
    (('title = "Sight"', 'titel = "Sight"'), (6, 9), "unknown key 'titel'"),
    (('One paragraph.', 'One.\n\nTwo.\n\nThree.\n\nFour.'), (8, 8), "1-3 paragraphs"),
])
def test_a_bad_entry_is_refused_at_its_line_and_column(tmp_path, change, where, message):
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_reference_file(path)
    assert (info.value.line, info.value.col) == where and message in info.value.message


def test_a_term_naming_an_unknown_entry_is_refused(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_text('kind = "reference"\n\n[[term]]\nterm = "Sight"\nmeans = "Seeing."\n'
                    'entry = "sightt"\n', encoding="utf-8")
    with pytest.raises(ContentError, match="unknown entry 'sightt'") as info:
        load_reference_file(path)
    assert info.value.line == 6
    path.write_text(GOOD + '\n[[term]]\nterm = "Sight"\nmeans = "Seeing."\nentry = "sight"\n',
                    encoding="utf-8")
    assert load_reference_file(path).terms[0].entry == "sight"


def test_the_same_entry_id_in_two_files_loads_nothing(tmp_path):
    for name in ("a.toml", "b.toml"):
        (tmp_path / name).write_text(GOOD, encoding="utf-8")
    with pytest.raises(ContentError, match="duplicate entry id 'sight'"):
        load_reference(tmp_path)
