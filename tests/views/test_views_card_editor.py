"""The analysis board's card editor, headless: type a card, see its problems at the field and
its words, save it, place it, ask, save the file and load it again (manual p18, p20-27)."""

from __future__ import annotations

import pytest

from machina_nb.rules.analysis.ask import ask
from machina_nb.views.analysis import AnalysisBoardView
from tests.analysis.test_own_cards import _card_folder


@pytest.fixture
def view(monkeypatch):
    monkeypatch.delenv("MACHINA_CARDS", raising=False)
    return AnalysisBoardView()


def type_ghoul(editor):
    editor.id.value, editor.name.value = "ghoul", "Ghoul"
    editor.stats["armor"].value, editor.stats["stamina"].value = 1, 3
    editor.add_ability("gnaw")
    editor.stamina.value, editor.target.value = 1, "melee"
    editor.op.value, editor.high.value, editor.low.value = "attack", 1, 1
    editor.add_effect()


def test_manual_p18_a_problem_shows_at_its_field(view):
    editor = view.card_editor
    editor.stats["armor"].value = 12
    assert "0-9" in editor.errors["armor"].value
    assert not editor.errors["will"].value
    editor.stats["armor"].value = 1
    assert not editor.errors["armor"].value
    editor.id.value = "mi_go"
    assert "shipped" in editor.errors["id"].value


def test_manual_p20_the_card_in_words_as_it_is_built(view):
    editor = view.card_editor
    type_ghoul(editor)
    assert "gnaw: costs 1 stamina; targets an adjacent explorer; attack with 1 high and 1 " \
        "low dice." in editor.words.value
    assert "attack on target" in editor.effects_html.value
    editor.drop_effect()
    assert "no effect yet" in editor.words.value


def test_type_place_ask_save_and_load_gives_the_same_answers(view):
    editor = view.card_editor
    type_ghoul(editor)
    editor.save_card()
    assert "is in the situation" in editor.message.value
    board = view.editor
    board.tool.value, board.card.value = "place", "ghoul"
    board.click((5, 0))
    letter = board.draft.units[-1].letter
    assert board.draft.units[-1].card == "ghoul"
    board.tool.value = "ask"
    board.click((5, 0))
    before = [a.value for a in ask(view.situation)]
    text = view.situation_text()
    assert "[cards.unit.ghoul.abilities.gnaw]" in text and f"[unit.{letter}]" in text
    assert view.load(text, "saved.toml")
    assert [a.value for a in ask(view.situation)] == before
    assert any(a.kind == "attack_odds" and "gnaw" in str(a.value) for a in ask(view.situation))


def test_a_folder_of_card_files_is_a_setting(view, tmp_path):
    folder, path = _card_folder(tmp_path)
    view.card_editor.use_folder(str(folder))
    assert "1 card(s)" in view.card_editor.message.value
    assert ("Sarall (monster)", "my_sarall") in view.editor.card.options
    assert view.load(path.read_text(encoding="utf-8"), "s.toml")
    view.editor.start_from("situation:own_cards")
    assert {"my_sarall", "ghoul"} <= set(view.editor.draft.cards.units())
    view.card_editor.use_folder(str(tmp_path / "nowhere"))
    assert "not a folder" in view.card_editor.message.value


def test_manual_p31_a_whole_inventory_on_the_board(view):
    """Unequipped cards, consumables and attached cards are set on the board and written to
    the file; a combination the rules refuse is refused in one line (manual p31-32)."""
    board = view.editor
    board.unit.value = "L"                                  # Lorrai on the starting board
    board.items.value = ("hobnailed_boots",)
    board.unequipped.value = ("rotopod",)
    board.consumables.value = ("sanguivorous_egg",)
    board.attach_card.value, board.attach_how.value = "aeromantle", "upgrades"
    board.attach_host.value = "hobnailed_boots"
    board.held_box.children[3].children[1].click()         # attach
    held = board.draft.unit("L").held
    assert held.upgrades == (("aeromantle", "hobnailed_boots"),)
    assert held.unequipped == ("rotopod",) and held.consumables == ("sanguivorous_egg",)
    assert "the upgrade of Hobnailed Boots" in board.attached.value
    text = view.situation_text()
    assert 'upgrades = { aeromantle = "hobnailed_boots" }' in text
    board.attach_card.value, board.attach_host.value = "displacer_vest", "aeromantle"
    board.held_box.children[3].children[1].click()
    assert "torso cannot upgrade" in board.message.value
    assert board.draft.unit("L").held.upgrades == (("aeromantle", "hobnailed_boots"),)


def test_a_card_of_the_situation_comes_back_to_be_edited(view):
    editor = view.card_editor
    type_ghoul(editor)
    editor.save_card()
    editor.id.value, editor.name.value = "other", "Other"
    assert ("Ghoul", "ghoul") in editor.typed.options
    editor.typed.value = "ghoul"
    assert (editor.id.value, editor.name.value, editor.stats["armor"].value) == ("ghoul",
                                                                                 "Ghoul", 1)
    assert "gnaw: costs 1 stamina" in editor.words.value
    editor.stats["health"].value = 4
    editor.save_card()
    assert view.editor.draft.cards.units()["ghoul"].health == 4
    assert len(view.editor.draft.cards.typed_here().cards) == 1
