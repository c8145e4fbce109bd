"""The explorer as a newcomer meets it, in Chromium: every tab in plain words, a legend entry
for every colour drawn, a quiz answered wrong then right. Screenshots in test-artifacts/."""

import re

import pytest
from explorer_page import aim_sight, click_space, fresh_board, load_explorer, open_tab
from test_rulings_panel import pick
from waits import WAIT, board_shown, changed_pixels, painted, until

from machina_nb.rules.analysis.quiz import board_of, load_quiz

pytestmark = pytest.mark.browser

# What a newcomer must never read: a dataclass repr, a dict literal, None, Python's power
# sign, a placeholder, a reference to the project's specification.
FORBIDDEN = [
    (re.compile(r"\b[A-Z]\w*\(\w+="), "a dataclass repr"),
    (re.compile(r"\{\s*['\"]"), "a dict literal"),
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"\*\*"), "**"),
    (re.compile(r"placeholder", re.I), "placeholder"),
    (re.compile(r"spec §"), "spec §"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt"), "a source file's name"),
    (re.compile(r"\(\d+, \d+\)"), "a space as a pair of numbers"),
]


def open_app(page, voila):
    """The explorer in a page of the test's own (the tests here share the ``explorer``)."""
    load_explorer(page, voila)


def visible_text(page) -> str:
    return page.locator(".jp-OutputArea, body").first.inner_text()


def assert_plain(text: str, where: str):
    for pattern, what in FORBIDDEN:
        found = pattern.search(text)
        assert not found, f"{where}: {what} in the visible text: ...{text[max(0, found.start() - 80):found.end() + 80]}..."


def press(page, button, changes):
    """Click ``button`` and wait until ``changes`` (a locator) shows a new text, not blank (a
    view may clear a text before it writes the next)."""
    before = changes.inner_text()
    button.click()
    until(page, lambda: (lambda now: now.strip() and now != before)(changes.inner_text()),
          f"a new text after {before[:40]!r}")


def test_a_tour_of_every_tab_reads_in_plain_words(explorer, artifacts):
    page = explorer.page
    aim_sight(page, (4, 0), (8, 5), "I6")
    painted(page)
    page.screenshot(path=str(artifacts / "tour-board.png"), full_page=True)
    assert_plain(visible_text(page), "Board")
    for title in ("Odds", "Round", "Rulings", "Examples", "Quiz", "Other games",
                  "Analysis board"):
        open_tab(page, title)
        if title == "Round":
            for _ in range(2):
                press(page, page.locator("button.step-phase"), page.locator(".event-log"))
            if page.locator("button.step-option").count():      # a choice the players make
                press(page, page.locator("button.step-option").first, page.locator(".event-log"))
        if title == "Rulings":
            pick(page, "How is 'nearest' counted?")
            page.locator(".rulings-side-b", has_text="nearest counts columns plus rows (compared)") \
                .first.wait_for(timeout=WAIT)
        if title == "Examples":
            for _ in range(3):
                if page.locator("button.example-next").is_enabled():
                    press(page, page.locator("button.example-next"),
                          page.locator(".example-step"))
        painted(page)
        page.screenshot(path=str(artifacts / f"tour-{title.lower().replace(' ', '-')}.png"),
                        full_page=True)
        assert_plain(visible_text(page), title)


_COLOURS_DRAWN = """(selector) => {
  const found = new Set();
  for (const view of window.Bokeh.index.roots) {
    if (!view || !view.el || !view.el.closest(selector) || !view.model.renderers) continue;
    if (view.el.getBoundingClientRect().width === 0) continue;   // a plot on a hidden tab
    for (const r of view.model.renderers) {
      const data = r.data_source && r.data_source.data;
      if (data && data.colour && data.colour.length) data.colour.forEach(c => found.add(c));
    }
  }
  return Array.from(found);
}"""


def test_every_colour_drawn_on_the_board_has_a_legend_entry(explorer, artifacts):
    page = explorer.page
    fresh_board(page)
    canvas = page.locator(".board-plot canvas").first
    click_space(page, (4, 0))
    page.locator(".board-verdict", has_text="From E1").wait_for(timeout=WAIT)
    page.mouse.move(0, 0)
    painted(page)
    before = canvas.screenshot()
    click_space(page, (6, 2))
    page.locator(".board-verdict", has_text="G3").wait_for(timeout=WAIT)
    page.mouse.move(0, 0)
    changed_pixels(page, canvas, before)    # the line of sight is drawn

    def drawn_and_legend():
        drawn = set(page.evaluate(_COLOURS_DRAWN, ".board-plot"))
        legend = set(page.locator(".board-legend .legend-swatch").evaluate_all(
            "els => els.map(e => e.dataset.colour)"))
        return (drawn, legend) if drawn and drawn <= legend else None
    try:      # the legend is written just after the drawing: wait for the two to agree
        until(page, drawn_and_legend, "a legend entry for every colour drawn")
    finally:
        page.locator(".board-legend").screenshot(path=str(artifacts / "legend.png"))
    drawn, legend = drawn_and_legend()
    assert drawn and drawn <= legend, drawn - legend


def test_a_quiz_question_answered_wrong_then_one_answered_right(explorer, artifacts):
    page = explorer.page
    open_tab(page, "Quiz")
    # 1H1L against armor 3 hits 5/9 of the time: any other option is wrong
    page.locator("button.quiz-option", has_text="5/6").click()
    page.locator(".quiz-feedback", has_text="Not quite").wait_for(timeout=WAIT)
    assert "5/9 (55.56%)" in page.locator(".quiz-feedback").inner_text()
    assert "Rule: manual p24" in page.locator(".quiz-feedback").inner_text()
    painted(page)
    page.screenshot(path=str(artifacts / "quiz-wrong.png"), full_page=True)
    # the nearest unit to the Mi-Go on A1 is Lorrai on C3 (2 across and down, manual p22)
    question = load_quiz()[4]
    assert question.id == "nearest-count"
    page.locator(".quiz-pick select").select_option(index=4)
    page.locator(".quiz-prompt", has_text=question.prompt[:40]).wait_for(timeout=WAIT)
    page.locator(".quiz-board-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    board_shown(page, 1 + max(x for x, _ in board_of(question).graph), ".quiz-board-plot")
    painted(page)
    click_space(page, (2, 2), ".quiz-board-plot")
    page.locator(".quiz-feedback", has_text="Right.").wait_for(timeout=WAIT)
    page.mouse.move(0, 0)  # no hover tooltip in the picture
    painted(page)
    page.screenshot(path=str(artifacts / "quiz-right.png"), full_page=True)
    assert "Score: 1 of 2" in page.locator(".quiz-score").inner_text()
