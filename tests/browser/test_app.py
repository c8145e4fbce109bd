"""The explorer app in a real browser: Voila on loopback, driven in Debian's chromium."""

import pytest
from explorer_page import HARMLESS, fresh_board, load_explorer, real_errors, watch_errors
from waits import WAIT, changed_pixels

pytestmark = pytest.mark.browser

__all__ = ["HARMLESS", "open_app"]


def open_app(page, voila) -> list[str]:
    """Load the explorer in a page of the test's own (the ``explorer`` fixture shares one
    between a module's tests); the console errors from now on."""
    errors = watch_errors(page)
    load_explorer(page, voila)
    return errors


def test_the_app_loads_with_the_board_drawn_and_no_console_errors(explorer, artifacts):
    page = explorer.page
    page.screenshot(path=str(artifacts / "app.png"), full_page=True)
    assert not real_errors(explorer.errors), explorer.errors
    assert "Click a space" in page.locator(".board-verdict").inner_text()


def test_clicking_a_space_changes_the_overlay_and_the_verdict(explorer, artifacts):
    page = explorer.page
    fresh_board(page)
    canvas = page.locator(".board-plot canvas").first
    before = canvas.screenshot(path=str(artifacts / "board-before.png"))
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.locator(".board-verdict", has_text="From ").wait_for(timeout=WAIT)
    after = changed_pixels(page, canvas, before, str(artifacts / "board-after.png"))
    assert after != before
