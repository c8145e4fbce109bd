"""The explorer at the table: on a laptop (1280x800), a tablet (768x1024) and a phone
(390x844), measured by element geometry in Chromium, on every tab.

On every size and tab each board or chart lies within the window's width, nothing is drawn
over it (the element at each point of it is the plot itself), the page is no wider than
the window and no control or text reaches past its edge. After a click on a laptop the answer's first line and the board's top are both
in view; on a phone a tap on the board answers. No request leaves the machine and no tab
logs a console error. A screenshot of each tab at each size is saved in test-artifacts/
(``table_<tab>_<size>.png``).
"""

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
from waits import LOAD, WAIT, board_shown, painted

from machina_nb.rules.analysis.quiz import board_of, load_quiz
from machina_nb.views.app import TAB_TITLES
from machina_nb.views.board import space_name
from machina_nb.views.serve import space_centre

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "tablet": (768, 1024), "phone": (390, 844)}

#: Every plot's box: the boards (``board-holder``) and the charts (``plot-holder``).
PLOTS = ".board-holder, .plot-holder"

# Each shown plot box: its place, and the points of it (a 5x5 grid in the part inside the
# window) where something else is on top. Boxes are scrolled into view one by one.
_PLOTS_SEEN = """(selector) => {
  const found = [];
  for (const box of document.querySelectorAll(selector)) {
    if (box.offsetParent === null || box.getBoundingClientRect().width === 0) continue;
    box.scrollIntoView({block: "start"});
    const r = box.getBoundingClientRect();
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
    const covered = [];
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
      const x = r.left + 2 + (r.width - 4) * i / 4, y = top + 2 + (bottom - top - 4) * j / 4;
      if (x < 0 || x >= innerWidth) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && !box.contains(hit)) covered.push([Math.round(x), Math.round(y), hit.className]);
    }
    found.push({left: r.left, right: r.right, width: r.width, covered});
  }
  window.scrollTo(0, 0);
  return found;
}"""

_PAGE_WIDTH = "() => document.scrollingElement.scrollWidth"

# The controls and texts shown that reach past the window's edge (cut off there).
_CUT = """() => {
  const cut = [];
  const shown = "button, input, select, textarea, .widget-label, .widget-html-content, "
                + ".widget-readout, .lm-TabBar-tab";
  for (const e of document.querySelectorAll(shown)) {
    if (e.offsetParent === null) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > innerWidth + 1 || r.left < -1))
      cut.push((e.innerText || e.value || e.className || e.tagName).toString().slice(0, 40));
  }
  return cut;
}"""


@pytest.fixture(scope="module")
def table(browser, voila):
    """The app loaded once at laptop size; each test sets the size it needs (the page
    reflows, no reload). Every request the page makes and every console error are kept."""
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


def _top(page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    painted(page)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tab", TAB_TITLES)
def test_every_plot_fits_the_width_uncovered(table, artifacts, tab, size):
    page, _, _ = table
    _resize(page, size)
    open_tab(page, tab)
    _top(page)
    page.screenshot(path=str(artifacts / f"table_{tab.replace(' ', '_')}_{size}.png"))
    width = SIZES[size][0]
    plots = page.evaluate(_PLOTS_SEEN, PLOTS)
    painted(page)
    if tab in ("Board", "Round", "Examples", "Analysis board", "Odds", "Other games"):
        assert plots, f"no plot shown on the {tab} tab"
    for plot in plots:
        assert plot["left"] >= 0 and plot["right"] <= width + 1, (tab, size, plot)
        assert not plot["covered"], (tab, size, plot["covered"])
    assert page.evaluate(_PAGE_WIDTH) <= width + 1, (tab, size)
    assert not page.evaluate(_CUT), (tab, size, page.evaluate(_CUT))


def _in_view(page, answer: str, board: str) -> None:
    """The answer's first line and the board's top are both inside the laptop's window."""
    height = SIZES["laptop"][1]
    first, canvas = _box(page, answer), _box(page, f"{board} canvas")
    assert 0 <= canvas["y"] < height, (board, canvas)
    assert first["y"] >= 0 and first["y"] + 20 <= height, (answer, first)


def test_board_tab_after_a_click_answer_and_board_in_view(table):
    page, _, _ = table
    _resize(page, "laptop")
    fresh_board(page)
    _top(page)
    click_space(page, (4, 0))
    page.locator(".board-verdict", has_text=f"From {space_name((4, 0))}").wait_for(timeout=WAIT)
    painted(page)
    _in_view(page, ".board-verdict", ".board-plot")


def test_round_tab_after_an_action_log_and_board_in_view(table):
    page, _, _ = table
    _resize(page, "laptop")
    open_tab(page, "Round")
    _top(page)
    page.locator("button.step-action").click()
    page.wait_for_function("() => !document.querySelector('.event-log').innerText"
                           ".includes('No actions yet')", timeout=WAIT)
    painted(page)
    _in_view(page, ".event-log", ".board-holder:visible")


def test_examples_tab_after_a_step_answer_and_board_in_view(table):
    page, _, _ = table
    _resize(page, "laptop")
    open_tab(page, "Examples")
    _top(page)
    page.locator("button.example-next").click()
    page.locator(".example-step", has_text="Step 1").wait_for(timeout=WAIT)
    painted(page)
    _in_view(page, ".example-step", ".example-board")


def test_analysis_board_after_a_click_answers_and_board_in_view(table):
    page, _, _ = table
    _resize(page, "laptop")
    open_tab(page, "Analysis board")
    _top(page)
    click_space(page, (0, 3), ".analysis-board-plot")     # Sarall (S) on A4
    page.locator(".analysis-answers", has_text="Sarall (S)").wait_for(timeout=WAIT)
    painted(page)
    _in_view(page, ".analysis-answers", ".analysis-board-plot")


def test_quiz_after_a_click_feedback_and_board_in_view(table):
    page, _, _ = table
    _resize(page, "laptop")
    open_tab(page, "Quiz")
    index, question = next((i, q) for i, q in enumerate(load_quiz()) if q.id == "nearest-count")
    page.locator(".quiz-pick select").select_option(index=index)
    page.locator(".quiz-prompt", has_text=question.prompt[:40]).wait_for(timeout=WAIT)
    board_shown(page, 1 + max(x for x, _ in board_of(question).graph), ".quiz-board-plot")
    _top(page)
    click_space(page, (2, 2), ".quiz-board-plot")
    page.locator(".quiz-feedback", has_text="Right.").wait_for(timeout=WAIT)
    painted(page)
    _in_view(page, ".quiz-feedback", ".quiz-board-plot")


def test_the_header_is_one_line_on_a_laptop(table):
    page, _, _ = table
    _resize(page, "laptop")
    _top(page)
    tabs = page.get_by_role("tab", name="Board", exact=True).bounding_box()
    assert tabs is not None and tabs["y"] < 100, tabs


def test_tab_titles_are_not_cut_on_a_phone(table):
    page, _, _ = table
    _resize(page, "phone")
    _top(page)
    for title in TAB_TITLES:
        label = page.get_by_role("tab", name=title, exact=True).locator(".lm-TabBar-tabLabel")
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), title
    _resize(page, "laptop")


def test_no_request_leaves_the_machine_and_no_console_error(table):
    """Run last in the module: every tab has been opened at every size by then."""
    page, requests, errors = table
    outside = [url for url in requests if not url.startswith(("http://127.0.0.1", "data:",
                                                              "blob:", "ws://127.0.0.1"))]
    assert not outside, outside
    assert not real_errors(errors), real_errors(errors)


def test_on_a_phone_a_tap_on_the_board_answers(browser, voila, artifacts):
    """A phone's window (touch, 390x844): the board scales to the width and a tap on a space
    answers for that space."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{voila}/voila/render/explorer.ipynb", timeout=LOAD)
        page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=LOAD)
        painted(page)
        holder = _box(page, ".board-holder")
        assert holder["x"] >= 0 and holder["x"] + holder["width"] <= 391, holder
        page.locator(".board-holder").first.scroll_into_view_if_needed()
        painted(page)
        page.touchscreen.tap(*space_centre(page, (11, 7)))
        page.locator(".board-verdict", has_text=f"From {space_name((11, 7))}").wait_for(
            timeout=WAIT)
        painted(page)
        page.screenshot(path=str(artifacts / "table_phone_tap.png"))
        assert not real_errors(errors), real_errors(errors)
    finally:
        context.close()
