"""The explorer at the table: on a laptop (1280x800), a tablet (768x1024) and a phone
(390x844), measured by element geometry in Chromium. After a click the answer's first line and
the board's top are in view on a laptop; on every size the board's box fits the window's
width and nothing is drawn over the board; no request leaves the machine."""

from __future__ import annotations

import pytest
from explorer_page import (
    click_space,
    fresh_board,
    load_explorer,
    open_tab,
    real_errors,
    watch_errors,
)
from waits import WAIT, painted

from machina_nb.views.board import space_name

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "tablet": (768, 1024), "phone": (390, 844)}


@pytest.fixture(scope="module")
def table(browser, voila):
    """The app loaded once at laptop size; each test sets the size it needs (the page
    reflows, no reload). Every request the page makes is kept."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    errors = watch_errors(page)
    load_explorer(page, voila)
    yield page, requests, errors
    context.close()


def _resize(page, size: str) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    painted(page)
    painted(page)


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _fits_and_uncovered(page, board: str, others: tuple[str, ...], size: str, artifacts,
                        name: str) -> None:
    """The board's box within the window's width, and none of ``others`` over it."""
    width = SIZES[size][0]
    holder = _box(page, board)
    assert holder["x"] >= 0 and holder["x"] + holder["width"] <= width + 1, (size, holder)
    for other in others:
        assert not _overlap(holder, _box(page, other)), (size, other)
    page.screenshot(path=str(artifacts / f"table_{name}_{size}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_board_tab_answer_in_view_and_board_uncovered(table, artifacts, size):
    page, _, _ = table
    _resize(page, "laptop")
    fresh_board(page)
    _resize(page, size)
    page.locator(".board-holder:visible").first.scroll_into_view_if_needed()
    click_space(page, (4, 0))
    page.locator(".board-verdict", has_text=f"From {space_name((4, 0))}").wait_for(timeout=WAIT)
    painted(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    painted(page)
    if size == "laptop":
        verdict, canvas = _box(page, ".board-verdict"), _box(page, ".board-plot canvas")
        height = SIZES[size][1]
        assert 0 <= canvas["y"] < height and verdict["y"] + 20 <= height, (canvas, verdict)
    _fits_and_uncovered(page, ".board-holder:visible", (".board-verdict", ".board-legend"), size,
                        artifacts, "board")


@pytest.mark.parametrize("size", SIZES)
def test_round_tab_log_beside_or_under_the_board(table, artifacts, size):
    page, _, _ = table
    _resize(page, size)
    open_tab(page, "Round")
    page.evaluate("() => window.scrollTo(0, 0)")
    painted(page)
    if size == "laptop":
        log = page.get_by_text("Event log", exact=False).first.bounding_box()
        assert log is not None and log["y"] + 20 <= SIZES[size][1], log
    _fits_and_uncovered(page, ".board-holder:visible",
                        (".phase-label",), size, artifacts, "round")
    open_tab(page, "Board")


def test_the_header_is_one_line_on_a_laptop(table):
    page, _, _ = table
    _resize(page, "laptop")
    page.evaluate("() => window.scrollTo(0, 0)")
    tabs = page.get_by_role("tab", name="Board", exact=True).bounding_box()
    assert tabs is not None and tabs["y"] < 100, tabs


def test_no_request_leaves_the_machine_and_no_console_error(table):
    page, requests, errors = table
    outside = [url for url in requests if not url.startswith(("http://127.0.0.1", "data:",
                                                              "blob:", "ws://127.0.0.1"))]
    assert not outside, outside
    assert not real_errors(errors), real_errors(errors)
