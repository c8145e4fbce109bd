"""The rulings panel in the served app: flipping los.vertex changes a verdict and its board."""

import pytest
from waits import WAIT, changed_pixels, painted
from test_app import open_app

pytestmark = pytest.mark.browser


def test_spec_d1_flipping_los_vertex_changes_the_verdict(page, voila, artifacts):
    open_app(page, voila)
    page.locator(".lm-TabBar-tab", has_text="Rulings").click()
    verdict_a = page.locator(".rulings-verdict-a")
    verdict_a.wait_for(state="visible", timeout=120_000)
    page.locator(".rulings-board-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    page.wait_for_timeout(800)
    assert "los.vertex=separating" in verdict_a.inner_text()
    assert "A2 → B1: visible" in verdict_a.inner_text()
    assert "blocked by" in page.locator(".rulings-verdict-b").inner_text()
    assert "spec" not in page.locator(".rulings-about").inner_text()
    board_a = page.locator(".rulings-board-plot canvas").first
    before = board_a.screenshot()
    page.screenshot(path=str(artifacts / "rulings-separating.png"), full_page=True)

    page.locator(".rulings-reading-a button", has_text="any_two").click()
    page.locator(".rulings-verdict-a", has_text="los.vertex=any_two").wait_for(timeout=WAIT)
    assert "blocked by the wall A1|B1 and the wall A1|A2 meeting at the top-left corner of B2" \
        in verdict_a.inner_text()
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    painted(page)
    assert changed_pixels(page, board_a, before) != before  # the blocking corner is drawn
    page.screenshot(path=str(artifacts / "rulings-any-two.png"), full_page=True)
