"""Click -> redrawn overlay in Chromium on the 2x2 shipped board (target: median <= 250 ms).

Serves ``notebooks/`` with Voila like the browser tests (:mod:`machina_nb.views.serve`),
opens the explorer in headless Chromium, picks the 2x2 board and times each click on a
space until the verdict text changes (the kernel ran the rules, the overlay's data and
the verdict came back). Three series of 12 clicks: a new sight source (every space's
visibility, 400 rows redrawn), a sight target (line, blocker, explanation), and reach.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from machina_nb.views.board import shipped_board
from machina_nb.views.serve import CHROMIUM_FLAGS, space_centre, voila

CLICKS = 12
TARGET_MS = 250
CHROMIUM = "/usr/bin/chromium"
DOUBLE_TAP_MS = 500  # clicks spaced past bokeh's double-tap interval, as a person clicks

_CHANGED = "(before) => document.querySelector('.board-verdict').innerText !== before"
_PAINTED = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def floor_spaces(board, count: int) -> list[tuple[int, int]]:
    """``count`` spaces spread over ``board``, each a floor space (no unit), in a fixed order."""
    spaces = [p for p in sorted(board) if board.space(p).name == "FLOOR" and not board.unit_at(p)]
    step = len(spaces) // count
    return spaces[::step][:count]


def timed_click(page, space, painted: bool = False) -> float:
    """Milliseconds from a click on ``space`` until the verdict changes (with ``painted``: and
    the browser has drawn two frames since, so the overlay's new data is on the canvas)."""
    before = page.locator(".board-verdict").inner_text()
    x, y = space_centre(page, space)
    start = time.perf_counter()
    page.mouse.click(x, y)
    page.wait_for_function(_CHANGED, arg=before, polling="raf", timeout=20_000)
    if painted:
        page.evaluate(_PAINTED)
    return (time.perf_counter() - start) * 1000


def series(page, spaces, overlay: str, source_each_time: bool, painted: bool = False
           ) -> list[float]:
    """Click each of ``spaces`` in ``overlay``; with ``source_each_time`` each click picks a
    new source (in the sight overlay the click after a source otherwise aims). Milliseconds."""
    page.locator(".board-overlay button", has_text=overlay).click()
    page.wait_for_timeout(300)
    times = []
    for space in spaces:
        if source_each_time:
            page.locator(".board-click button", has_text="source").click()
            page.wait_for_timeout(150)
        times.append(timed_click(page, space, painted))
        page.wait_for_timeout(DOUBLE_TAP_MS)
    return times


@contextmanager
def board_page(url: str, notebook: str, viewport: dict, timeout_ms: int) -> Iterator:
    """A Chromium page showing ``notebook`` served at ``url``, once its first board is drawn."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport=viewport)
            page.goto(f"{url}/voila/render/{notebook}", timeout=timeout_ms)
            page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=timeout_ms)
            yield page
        finally:
            browser.close()


def main() -> None:
    spaces = floor_spaces(shipped_board(), CLICKS)
    log = Path(tempfile.mkdtemp(prefix="bench-views-")) / "voila.log"
    with voila(log) as url, board_page(url, "explorer.ipynb", {"width": 1280, "height": 1100},
                                       90_000) as page:
        page.locator(".board-choice select").select_option("2x2 shipped tiles")
        page.wait_for_timeout(1500)
        timed_click(page, (3, 8))  # warm up on A: the first click builds the sight tables
        results = {
            "sight source": series(page, spaces, "sight", source_each_time=True),
            "sight target": series(page, spaces[-2::-1] + [(3, 8)], "sight",
                                   source_each_time=False),
            "reach (stamina 3)": series(page, spaces, "reach", source_each_time=False),
        }
    print_series(f"click -> verdict and overlay redrawn in Chromium, 2x2 shipped board (20x20), "
                 f"{CLICKS} clicks each; target median <= {TARGET_MS} ms", results)


def print_series(title: str, results: dict[str, list[float]]) -> None:
    """``title``, then each series' median, least and most (ms) against :data:`TARGET_MS`."""
    print(title)
    for name, times in results.items():
        median = statistics.median(times)
        print(f"  {name:<18} median {median:6.1f} ms   min {min(times):6.1f}   "
              f"max {max(times):6.1f}   {'ok' if median <= TARGET_MS else 'SLOW'}")


if __name__ == "__main__":
    main()
