"""The Odds tab in a real browser: move the defense slider, read the exact fraction.

Expected fractions are the exact 1H1L table and the Mi-Go example (1H1L: P(S >= 3) = 5/9, P(S >= 4) = 1/4, P(S >= 2) = 5/6).
"""

import pytest
from explorer_page import open_tab, real_errors
from waits import LOAD, WAIT, changed_pixels, painted, until

pytestmark = pytest.mark.browser


def shown_chance(probability) -> str:
    return probability.locator("b").last.inner_text()


def test_manual_p24_defense_slider_changes_the_exact_fraction(explorer, artifacts):
    page = explorer.page
    open_tab(page, "Odds")
    probability = page.locator(".odds-probability")
    probability.wait_for(state="visible", timeout=WAIT)
    until(page, lambda: "%" in shown_chance(probability), "the chance shown")
    assert shown_chance(probability) == "5/9 (55.56%)"
    page.screenshot(path=str(artifacts / "odds-armor-3.png"), full_page=True)
    pmf = page.locator(".odds-pmf-plot canvas").first
    before = pmf.screenshot()

    handle = page.locator(".odds-defense .noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.locator(".odds-probability b", has_text="1/4").wait_for(timeout=WAIT)
    assert shown_chance(probability) == "1/4 (25.00%)"
    assert "against armor 4" in probability.inner_text()
    changed_pixels(page, pmf, before)  # the bars are recoloured at the new threshold
    page.screenshot(path=str(artifacts / "odds-armor-4.png"), full_page=True)

    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.locator(".odds-probability b", has_text="5/6").wait_for(timeout=WAIT)
    assert shown_chance(probability) == "5/6 (83.33%)"
    heat = page.locator(".odds-heat-plot canvas").first
    heat.scroll_into_view_if_needed()
    heat.screenshot(path=str(artifacts / "odds-heat-map.png"))
    summary = page.locator(".proc-summary")
    summary.scroll_into_view_if_needed()
    page.locator(".proc-plot canvas").last.wait_for(state="visible", timeout=WAIT)
    painted(page)
    page.screenshot(path=str(artifacts / "odds-processes.png"))
    assert not real_errors(explorer.errors), explorer.errors


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
