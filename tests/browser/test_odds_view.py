"""The Odds tab in a real browser: the answer in view, a target picked, a defense typed.

Expected fractions are the exact 1H1L table and the Mi-Go example (1H1L: P(S >= 3) = 5/9,
P(S >= 4) = 1/4, P(S >= 1) = 35/36 against the Witch's armor 1).
"""

import pytest
from explorer_page import open_tab, real_errors
from waits import LOAD, WAIT, changed_pixels, painted, until

pytestmark = pytest.mark.browser


def shown_chance(probability) -> str:
    return probability.locator("b").last.inner_text()


SMALL = {"width": 1280, "height": 800}
VIEWPORT = {"width": 1280, "height": 900}  # the shared page's size (conftest.py)


def test_manual_p24_the_answer_is_in_view_and_the_cards_fill_the_numbers(explorer, artifacts):
    """At 1280x800 the answer sentence sits in the window; picking the target and typing a
    defense change it; the folded sections open on a click."""
    page = explorer.page
    page.set_viewport_size(SMALL)
    try:
        open_tab(page, "Odds")
        probability = page.locator(".odds-probability")
        answer = probability.locator(".odds-answer")
        answer.wait_for(state="visible", timeout=WAIT)
        until(page, lambda: "%" in shown_chance(probability), "the chance shown")
        assert shown_chance(probability) == "5/9 (55.56%)"
        assert "Hank's Stunning Blow against the Mi-Go's armor 3 hits 5 times in 9" in \
            answer.inner_text()
        box = answer.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], box
        assert page.locator(".odds-heat-plot").count() == 0  # folded, not built yet
        page.screenshot(path=str(artifacts / "odds-1280x800.png"))
        _typed_defense_and_picked_target(page, probability)
        _folded_sections_open(page, artifacts)
        assert not real_errors(explorer.errors), explorer.errors
    finally:
        page.set_viewport_size(VIEWPORT)


def _typed_defense_and_picked_target(page, probability) -> None:
    pmf = page.locator(".odds-pmf-plot canvas").first
    before = pmf.screenshot()
    defense = page.locator(".odds-defense input")
    defense.fill("4")
    defense.press("Enter")
    page.locator(".odds-probability b", has_text="1/4").wait_for(timeout=WAIT)
    assert shown_chance(probability) == "1/4 (25.00%)"
    assert "against armor 4" in probability.inner_text()  # typed: the target is custom now
    changed_pixels(page, pmf, before)  # the bars are recoloured at the new threshold

    page.locator(".odds-target select").select_option(label="Witch (monster)")
    page.locator(".odds-probability b", has_text="35/36").wait_for(timeout=WAIT)
    assert "Witch: armor 1" in page.locator(".odds-origin").inner_text()
    assert page.locator(".odds-defense input").input_value() == "1"


def _folded_sections_open(page, artifacts) -> None:
    page.locator(".odds-more").get_by_text("Every pool against every defense").click()
    heat = page.locator(".odds-heat-plot canvas").first
    heat.wait_for(state="visible", timeout=WAIT)
    heat.scroll_into_view_if_needed()
    painted(page)
    heat.screenshot(path=str(artifacts / "odds-heat-map.png"))
    page.locator(".proc-fold").get_by_text("Spawn, horror and threat over rounds").click()
    summary = page.locator(".proc-summary")
    summary.wait_for(state="visible", timeout=WAIT)
    page.locator(".proc-plot canvas").last.wait_for(state="visible", timeout=WAIT)
    assert "exactly" in summary.inner_text()
    summary.scroll_into_view_if_needed()
    painted(page)
    page.screenshot(path=str(artifacts / "odds-processes.png"))


def test_notebook_04_serves_the_processes_view_side_by_side(page, voila, artifacts):
    """Notebook 04 in Voila: its checked cells run and the view at the bottom answers a change."""
    page.goto(f"{voila}/voila/render/04_spawn_and_horror.ipynb", timeout=LOAD)
    summary = page.locator(".proc-summary")
    summary.wait_for(state="visible", timeout=LOAD)
    page.locator(".proc-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    assert "2 explorer(s)" in summary.inner_text()
    handle = page.locator(".proc-explorers .noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.locator(".proc-summary", has_text="3 explorer(s)").wait_for(timeout=WAIT)
    summary.scroll_into_view_if_needed()
    painted(page)
    page.screenshot(path=str(artifacts / "notebook-04-processes.png"))
