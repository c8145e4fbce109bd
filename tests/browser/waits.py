"""Waits on states, never on the clock: what the browser tests wait for, and how long at most.

Every wait here ends as soon as the page reaches the state asked for; the limits are only
ceilings for a slow machine (the defaults hold on a machine twice as slow as a loaded
2-core one; ``MACHINA_BROWSER_SLOWDOWN=3`` triples them).
"""

from __future__ import annotations

import os
import time

SLOWDOWN = float(os.environ.get("MACHINA_BROWSER_SLOWDOWN", "1") or 1)
WAIT = int(60_000 * SLOWDOWN)
"""Ceiling (ms) for a state reached after a click: a kernel round trip and a redraw."""
LOAD = int(180_000 * SLOWDOWN)
"""Ceiling (ms) for a notebook to be served, executed and drawn by Voila."""

_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def painted(page) -> None:
    """Wait until the browser has painted twice since now (layout and canvases settled)."""
    page.evaluate(_FRAMES)


def until(page, condition, what: str, timeout_ms: int = WAIT):
    """Wait, frame by frame, until ``condition()`` returns something truthy; return it."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_ms} ms waiting for {what}")
        painted(page)


def changed_pixels(page, locator, before: bytes, path: str | None = None) -> bytes:
    """Wait until ``locator`` looks different from the screenshot ``before``; the new pixels."""
    def shot():
        pixels = locator.screenshot(path=path) if path else locator.screenshot()
        return pixels if pixels != before else None
    return until(page, shot, "the picture to change")


def text_changes(page, locator, before: str) -> str:
    """Wait until ``locator``'s text differs from ``before``; the new text."""
    return until(page, lambda: (lambda t: t if t != before else None)(locator.inner_text()),
                 f"the text {before[:40]!r}... to change")


_X_END = """(selector) => {
  for (const view of window.Bokeh.index.roots) {
    if (!view || !view.frame || !view.el.closest(selector)) continue;
    if (view.el.getBoundingClientRect().width === 0) continue;
    return view.model.x_range.end;
  }
  return null;
}"""


def board_end(page, selector: str = ".board-plot") -> float | None:
    """The right end of the x range of the board plot shown under ``selector`` (a board's
    width plus 0.3 of margin), or None while none is shown."""
    return page.evaluate(_X_END, selector)


def board_shown(page, width: int, selector: str = ".board-plot") -> None:
    """Wait until the board plot under ``selector`` spans at least ``width`` spaces."""
    until(page, lambda: (board_end(page, selector) or 0) >= width,
          f"a board {width} spaces wide")
