"""The Rulings tab in the served app: the rulings as questions, found by a word or a topic; every
shipped situation of a ruling drawn under the reading in force and the one compared, boards and
answers together; "use this reading everywhere" changes every tab, "compare" nothing else."""

import pytest
from explorer_page import aim_sight, open_tab, real_errors
from waits import WAIT, until

pytestmark = pytest.mark.browser

CLEAR, BLOCKED = "#009E73", "#D55E00"  # the sight line's colours (views.board.ROLE_COLOURS)
CORNER = ".rulings-case[data-situation='sight_corner']"
_LINE_COLOURS = """(side) => [...document.querySelectorAll(
    `.rulings-case[data-situation='sight_corner'] .rulings-side-${side} svg line`)]
  .filter(l => l.getAttribute('stroke-width') === '4').map(l => l.getAttribute('stroke'))"""


SEPARATING = "a corner blocks only when its walls cut the line off"
TOUCH_OK = "a corner never blocks sight"


def open_rulings(page):
    open_tab(page, "Rulings")


def switch_labels(page) -> list[str]:
    """The questions listed, as read (the list writes its spaces as no-break spaces)."""
    return [text.replace("\xa0", " ") for text in page.locator(".rulings-switch option")
            .evaluate_all("els => els.map(e => e.textContent)")]


def pick(page, words: str) -> None:
    """Pick the first question listed that holds ``words``."""
    page.locator(".rulings-switch select").select_option(
        index=next(i for i, text in enumerate(switch_labels(page)) if words in text))


def side_says(page, side: str) -> tuple[str, list[str]]:
    """Side ``a`` or ``b`` of the sight corner situation: its text and its sight line's
    colours, read in one go (so both come from the same frame)."""
    text = page.locator(f"{CORNER} .rulings-side-{side}").inner_text()
    return text, page.evaluate(_LINE_COLOURS, side)


def test_manual_p22_a_reading_used_everywhere_in_the_rulings_tab_changes_the_board_tab(
        explorer, artifacts):
    page = explorer.page
    aim_sight(page, (0, 0), (4, 4), "A1 cannot see E5")
    in_force = page.locator(".rules-in-force")
    assert in_force.inner_text().strip() == "In force: manual 1.0"

    open_rulings(page)
    assert "Does a corner where walls meet block sight?" in \
        page.locator(".rulings-about").inner_text()
    text, lines = side_says(page, "a")
    assert f"{SEPARATING} (in force)" in text and "blocked" in text
    assert "los.vertex" not in text and "=" not in text.split("\n")[0]
    assert lines[0] == BLOCKED and "#000000" in lines  # the line, and the walls that cut it
    text, lines = side_says(page, "b")
    assert f"{TOUCH_OK} (compared)" in text and "visible" in text and lines == [CLEAR]
    page.screenshot(path=str(artifacts / "rulings-separating.png"), full_page=True)

    # comparing another reading changes what B shows and nothing else
    page.locator(".rulings-compare label", has_text="any corner where two walls meet").click()
    until(page, lambda: "any corner where two walls meet blocks sight (compared)" in
          side_says(page, "b")[0], "side B under any_two")
    assert in_force.inner_text().strip() == "In force: manual 1.0"
    page.locator(".rulings-compare label", has_text=TOUCH_OK).click()
    until(page, lambda: f"{TOUCH_OK} (compared)" in side_says(page, "b")[0], "side B back")

    page.locator("button.rulings-use").click()
    page.locator(".rulings-notice", has_text="Now in force everywhere").wait_for(timeout=WAIT)
    assert TOUCH_OK in page.locator(".rulings-notice").inner_text()
    page.locator(".rules-in-force", has_text=TOUCH_OK).wait_for(timeout=WAIT)
    assert in_force.inner_text().strip() == f"In force: manual 1.0; changed: {TOUCH_OK}"
    # the board and the answer beside it change together: never one without the other
    flipped = until(page, lambda: (lambda t, l: (t, l) if f"{TOUCH_OK} (in force)" in t
                                   else None)(*side_says(page, "a")), "side A under touch_ok")
    assert "visible" in flipped[0] and flipped[1] == [CLEAR]
    page.mouse.move(0, 0)
    page.screenshot(path=str(artifacts / "rulings-touch-ok.png"), full_page=True)

    open_tab(page, "Board")
    page.locator(".board-verdict", has_text="A1 can see E5").wait_for(timeout=WAIT)
    page.screenshot(path=str(artifacts / "board-after-flip.png"), full_page=True)

    page.locator("button.rules-clear").click()
    until(page, lambda: in_force.inner_text().strip() == "In force: manual 1.0",
          "the preset's readings back in force")
    page.locator(".board-verdict", has_text="A1 cannot see E5").wait_for(timeout=WAIT)


def test_manual_p22_nearest_compared_with_a_reading_that_differs_and_a_ruling_without_a_board(
        explorer, artifacts):
    page = explorer.page
    open_rulings(page)
    page.locator(".rulings-search input").fill("nearest")
    until(page, lambda: len(switch_labels(page)) < 10, "the questions holding 'nearest'")
    assert any("How is 'nearest' counted?" in label for label in switch_labels(page))
    pick(page, "How is 'nearest' counted?")
    page.locator(".rulings-side-b", has_text="nearest counts columns plus rows (compared)").first \
        .wait_for(timeout=WAIT)
    assert page.locator(".rulings-case").count() >= 3
    assert page.locator(".rulings-shown svg").count() == 2 * page.locator(".rulings-case").count()
    assert page.locator(".rulings-side-a [data-differs='yes']").count() >= 3
    assert page.locator(".rulings-legend .legend-entry").count() > 0
    page.screenshot(path=str(artifacts / "rulings-nearest-metric.png"), full_page=True)

    page.locator(".rulings-search input").fill("")
    page.locator(".rulings-topic select").select_option(label="Other games")
    until(page, lambda: all(label.startswith("Other games: ") for label in switch_labels(page)),
          "the other games' questions")
    without = [label for label in switch_labels(page) if label.endswith("(no board)")]
    assert without, "the chaos bag rulings have no board"
    pick(page, without[0])
    page.locator(".rulings-none").wait_for(timeout=WAIT)
    assert page.locator(".rulings-shown svg").count() == 0
    page.screenshot(path=str(artifacts / "rulings-no-board.png"), full_page=True)
    assert not real_errors(explorer.errors), real_errors(explorer.errors)
