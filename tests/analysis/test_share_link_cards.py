"""A share link carries the cards of the player's card files (``--cards DIR``,
``MACHINA_CARDS``, the app's card folder), not only the cards typed into the situation: the
link reopens the same situation with the same cards where the folder is not, and beside the
same folder too."""

from __future__ import annotations

import pytest
from cli_runs import machina

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.own_cards import NO_CARDS, load_card_folder
from machina_nb.rules.analysis.share import (
    carried_text,
    situation_from_link,
    situation_link,
    without_carried,
)
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.errors import ContentError
from machina_nb.views.analysis import AnalysisBoardView
from tests.analysis.test_own_cards import OWN_EVERY_KIND, _card_folder


def _values(situation):
    return [a.value for a in ask(situation)]


def test_cli_link_carries_the_card_folder_and_reopens_with_the_same_answers(tmp_path,
                                                                            monkeypatch):
    folder, path = _card_folder(tmp_path)
    monkeypatch.delenv("MACHINA_CARDS", raising=False)
    expected = _values(load_situation(path, load_card_folder(folder)))
    run = machina("link", str(path), "--cards", str(folder))
    assert run.returncode == 0, run.stderr
    text = situation_from_link(run.stdout.strip())
    assert "[cards.unit.my_sarall]" in text and "[cards.unit.my_sarall.abilities.rend]" in text
    assert _values(situation_from_text(text, "link")) == expected   # no folder needed
    monkeypatch.setenv("MACHINA_CARDS", str(folder))
    assert machina("link", str(path)).stdout == run.stdout


def test_without_the_folder_the_link_is_refused_in_one_line(tmp_path, monkeypatch):
    _, path = _card_folder(tmp_path)
    monkeypatch.delenv("MACHINA_CARDS", raising=False)
    run = machina("link", str(path))
    assert run.returncode == 2 and "unknown card 'my_sarall'" in run.stderr
    assert run.stderr.count("\n") == 1


def test_typed_cards_and_folder_cards_travel_together(tmp_path):
    folder, _ = _card_folder(tmp_path)
    library = load_card_folder(folder)
    text = OWN_EVERY_KIND
    linked = situation_from_link(situation_link(text, cards=library))
    again = situation_from_text(linked, "link")
    assert set(again.cards.typed_here().ids("unit")) == {"ghoul", "my_sarall"}
    assert _values(again) == _values(situation_from_text(text, "mine.toml", library))


def test_no_folder_no_change():
    assert carried_text(OWN_EVERY_KIND, NO_CARDS) == OWN_EVERY_KIND
    assert situation_from_link(situation_link(OWN_EVERY_KIND)) == OWN_EVERY_KIND


def test_a_carried_link_loads_beside_the_same_folder(tmp_path):
    folder, path = _card_folder(tmp_path)
    library = load_card_folder(folder)
    text = situation_from_link(situation_link(path.read_text(encoding="utf-8"), cards=library))
    with pytest.raises(ContentError, match="already the id"):
        situation_from_text(text, "link", library)
    assert without_carried(library, text).cards == ()
    situation_from_text(text, "link", without_carried(library, text))


def test_the_app_link_carries_the_card_folder_and_opens_anywhere(tmp_path, monkeypatch):
    monkeypatch.delenv("MACHINA_CARDS", raising=False)
    folder, path = _card_folder(tmp_path)
    here = AnalysisBoardView()
    here.card_editor.use_folder(str(folder))
    assert here.load(path.read_text(encoding="utf-8"), "s.toml")
    link = here.link_text.value
    assert link.startswith("http")
    expected = [a.value for a in here.answers]
    elsewhere = AnalysisBoardView()                  # no card folder there
    assert elsewhere.open_link(link.partition("?")[2])
    assert [a.value for a in elsewhere.answers] == expected
    assert here.open_link(link.partition("?")[2])   # beside the same folder: no clash
    assert [a.value for a in here.answers] == expected


def test_a_situation_with_typed_cards_links_with_its_own_cards_given_too():
    s = situation_from_text(OWN_EVERY_KIND, "mine.toml")
    assert situation_from_link(situation_link(OWN_EVERY_KIND, cards=s.cards)) == OWN_EVERY_KIND
    assert machina("link", "content/situations/own_cards.toml").returncode == 0
