"""The explorer app in a real browser: Voila on loopback, driven in Debian's chromium."""

import pytest
from waits import LOAD, WAIT, changed_pixels, painted

pytestmark = pytest.mark.browser

# Noise Voila makes offline that says nothing about the app (JUPYTER_NOTES.md).
HARMLESS = ("Unsatisfied version", "fontawesome", "Failed to load resource")


def open_app(page, voila):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{voila}/voila/render/explorer.ipynb", timeout=LOAD)
    page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=LOAD)
    painted(page)
    return errors


def test_the_app_loads_with_the_board_drawn_and_no_console_errors(page, voila, artifacts):
    errors = open_app(page, voila)
    page.screenshot(path=str(artifacts / "app.png"), full_page=True)
    real = [e for e in errors if not any(h.lower() in e.lower() for h in HARMLESS)]
    assert not real, real
    assert "Click a space" in page.locator(".board-verdict").inner_text()


def test_clicking_a_space_changes_the_overlay_and_the_verdict(page, voila, artifacts):
    open_app(page, voila)
    canvas = page.locator(".board-plot canvas").first
    before = canvas.screenshot(path=str(artifacts / "board-before.png"))
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.locator(".board-verdict", has_text="From ").wait_for(timeout=WAIT)
    page.wait_for_timeout(300)
    after = canvas.screenshot(path=str(artifacts / "board-after.png"))
    assert before != after
