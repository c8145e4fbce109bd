"""The Rulings tab in the served app: one rules state for every tab, and every shipped situation
of a switch drawn under two readings, boards and answers together."""

import pytest
from explorer_page import aim_sight, open_tab
from waits import WAIT, until

pytestmark = pytest.mark.browser

CLEAR, BLOCKED = "#009E73", "#D55E00"  # the sight line's colours (views.board.ROLE_COLOURS)
CORNER = ".rulings-case[data-situation='sight_corner']"
_LINE_COLOURS = """(side) => [...document.querySelectorAll(
    `.rulings-case[data-situation='sight_corner'] .rulings-side-${side} svg line`)]
  .filter(l => l.getAttribute('stroke-width') === '4').map(l => l.getAttribute('stroke'))"""


def open_rulings(page):
    open_tab(page, "Rulings")


def pick_switch(page, name: str):
    """Pick switch ``name`` (its option reads ``name (3 situations)`` or ``... (no situation yet)``)."""
    page.locator(".rulings-switch select").select_option(
        next(label for label in switch_labels(page) if label.startswith(name + " (")))


def switch_labels(page) -> list[str]:
    return page.locator(".rulings-switch option").evaluate_all("els => els.map(e => e.value)")


def side_says(page, side: str) -> tuple[str, list[str]]:
    """Side ``a`` or ``b`` of the sight corner situation: its text and its sight line's
    colours, read in one go (so both come from the same frame)."""
    text = page.locator(f"{CORNER} .rulings-side-{side}").inner_text()
    return text, page.evaluate(_LINE_COLOURS, side)


def test_manual_p22_a_reading_flipped_in_the_rulings_tab_changes_the_board_tab(
        explorer, artifacts):
    page = explorer.page
    aim_sight(page, (0, 0), (4, 4), "A1 cannot see E5")
    in_force = page.locator(".rules-in-force")
    assert in_force.inner_text().strip() == "In force: manual 1.0"

    open_rulings(page)
    text, lines = side_says(page, "a")
    assert "los.vertex = separating (in force)" in text and "blocked" in text
    assert lines[0] == BLOCKED and "#000000" in lines  # the line, and the walls that cut it
    text, lines = side_says(page, "b")
    assert "los.vertex = touch_ok (compared)" in text and "visible" in text and lines == [CLEAR]
    page.screenshot(path=str(artifacts / "rulings-separating.png"), full_page=True)

    page.locator(".rulings-reading-a button", has_text="touch_ok").click()
    page.locator(".rules-in-force", has_text="los.vertex = touch_ok").wait_for(timeout=WAIT)
    assert in_force.inner_text().strip() == "In force: manual 1.0; los.vertex = touch_ok"
    # the board and the answer beside it change together: never one without the other
    flipped = until(page, lambda: (lambda t, l: (t, l) if "touch_ok (in force)" in t else None)(
        *side_says(page, "a")), "side A under touch_ok")
    assert "visible" in flipped[0] and flipped[1] == [CLEAR]
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts / "rulings-touch-ok.png"), full_page=True)

    open_tab(page, "Board")
    page.locator(".board-verdict", has_text="A1 can see E5").wait_for(timeout=WAIT)
    assert "touch_ok" in page.locator(".board-verdict").inner_text()
    page.screenshot(path=str(artifacts / "board-after-flip.png"), full_page=True)

    page.locator("button.rules-clear").click()
    until(page, lambda: in_force.inner_text().strip() == "In force: manual 1.0",
          "the preset's readings back in force")
    page.locator(".board-verdict", has_text="A1 cannot see E5").wait_for(timeout=WAIT)


def test_manual_p22_nearest_compared_with_a_reading_that_differs_and_a_switch_without_one(
        explorer, artifacts):
    page = explorer.page
    open_rulings(page)
    pick_switch(page, "nearest.metric")
    page.locator(".rulings-side-b", has_text="nearest.metric = manhattan (compared)").first \
        .wait_for(timeout=WAIT)
    assert page.locator(".rulings-case").count() >= 3
    assert page.locator(".rulings-shown svg").count() == 2 * page.locator(".rulings-case").count()
    assert page.locator(".rulings-side-a [data-differs='yes']").count() >= 3
    assert page.locator(".rulings-legend .legend-entry").count() > 0
    page.screenshot(path=str(artifacts / "rulings-nearest-metric.png"), full_page=True)

    without = [label for label in switch_labels(page) if label.endswith("(no situation yet)")]
    if without:  # every switch may have a situation one day
        pick_switch(page, without[0].split(" (")[0])
        page.locator(".rulings-none").wait_for(timeout=WAIT)
        assert page.locator(".rulings-shown svg").count() == 0
        page.screenshot(path=str(artifacts / "rulings-no-situation.png"), full_page=True)
