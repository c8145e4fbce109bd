"""The Analysis board's card editor in Chromium: type a card of your own, give an explorer an
item, place both, ask, save, reload the page, load the file: the same answers (manual p18,
p20-24, p30).

Every wait is on a state of the page, never on the clock. Screenshots in test-artifacts/."""

import pytest
from test_analysis_board import click_space, message, open_tab, place, tool
from waits import WAIT, until

from machina_nb.rules.analysis.situation import situation_from_text

pytestmark = pytest.mark.browser


def fill(page, css, value):
    box = page.locator(f".{css} input")
    box.fill(str(value))
    box.press("Enter")


def answers(page):
    """The ghoul's turn and attack odds, as the answers panel shows them."""
    return [page.locator(f".analysis-answer[data-question='{name}']").inner_text()
            for name in ("g_turn", "g_attack_odds")]


def test_type_a_card_place_it_ask_save_reload_load_the_same_answers(page, voila, artifacts):
    open_tab(page, voila)
    page.locator(".analysis-start select").select_option(label="an empty board (size below)")
    page.locator(".analysis-width input").fill("5")
    page.locator(".analysis-height input").fill("1")
    page.locator(".analysis-height input").press("Enter")
    page.locator("button.analysis-start-go").click()
    message(page, "Started from an empty board")

    fill(page, "card-id", "ghoul")
    fill(page, "card-name", "Ghoul")
    fill(page, "card-armor", 12)
    page.locator(".card-error-armor", has_text="0-9").wait_for(timeout=WAIT)
    fill(page, "card-armor", 1)
    fill(page, "card-stamina", 3)
    page.locator(".card-new-ability input").fill("gnaw")
    page.locator("button.card-add-ability").click()
    page.locator(".card-ability select").wait_for(timeout=WAIT)
    fill(page, "card-cost-stamina", 1)
    page.locator(".card-target select").select_option(label="melee")
    page.locator(".card-op select").select_option(label="attack")
    fill(page, "card-high", 1)
    fill(page, "card-low", 1)
    page.locator("button.card-add-effect").click()
    page.locator(".card-words", has_text="gnaw: costs 1 stamina; targets an adjacent explorer; attack with 1 "
                 "high and 1 low dice").wait_for(timeout=WAIT)
    page.locator("button.card-save").click()
    page.locator(".card-message", has_text="is in the situation").wait_for(timeout=WAIT)

    tool(page, "place unit")
    place(page, "Kim (explorer)", (0, 0), "placed on A1 as K")
    place(page, "Ghoul (monster)", (4, 0), "placed on E1 as G")
    page.locator(".analysis-unit select").select_option(label="K: Kim (explorer)")
    until(page, lambda: page.locator(".analysis-items select").is_enabled(), "Kim's items")
    page.locator(".analysis-items select").select_option(label="Proximity Bender")
    message(page, "K holds 1 item")
    tool(page, "ask about")
    click_space(page, (4, 0))
    page.locator(".analysis-answers", has_text="About Ghoul (G)").wait_for(timeout=WAIT)
    before = answers(page)
    assert "gnaw" in before[0] and "gnaw" in before[1]
    page.screenshot(path=str(artifacts / "card-editor-built.png"))

    with page.expect_download() as saving:
        page.locator("a.analysis-save").click()
    saved = artifacts / "card-editor.toml"
    saving.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    situation = situation_from_text(text, saved.name)
    assert situation.cards.ids("unit") == ("ghoul",)
    assert "[cards.unit.ghoul.abilities.gnaw]" in text

    page.reload()
    open_tab(page, voila)
    with page.expect_file_chooser() as choosing:
        page.locator(".analysis-upload").click()
    choosing.value.set_files(str(saved))
    page.locator(".analysis-file-message", has_text="Loaded").wait_for(timeout=WAIT)
    until(page, lambda: page.locator(".analysis-text textarea").input_value() == text,
          "the loaded situation's text")
    until(page, lambda: answers(page) == before, "the same answers")
    page.screenshot(path=str(artifacts / "card-editor-loaded.png"))
