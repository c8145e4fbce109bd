"""The explorer as a newcomer meets it, in Chromium: every tab in plain words, a legend entry
for every colour drawn, a quiz answered wrong then right. Screenshots in test-artifacts/."""

import re

import pytest

from machina_nb.views.serve import space_centre
from test_rulings_panel import pick_switch

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
]


def open_app(page, voila):
    page.goto(f"{voila}/voila/render/explorer.ipynb", timeout=120_000)
    page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=120_000)
    page.wait_for_timeout(500)


def open_tab(page, title: str):
    page.get_by_role("tab", name=title, exact=True).click()
    page.wait_for_function("() => ![...document.querySelectorAll('.tab-building')]"
                           ".some(e => e.offsetParent !== null)", timeout=120_000)
    page.wait_for_timeout(1500)


def visible_text(page) -> str:
    return page.locator(".jp-OutputArea, body").first.inner_text()


def assert_plain(text: str, where: str):
    for pattern, what in FORBIDDEN:
        found = pattern.search(text)
        assert not found, f"{where}: {what} in the visible text: ...{text[max(0, found.start() - 80):found.end() + 80]}..."


def test_a_tour_of_every_tab_reads_in_plain_words(page, voila, artifacts):
    open_app(page, voila)
    x, y = space_centre(page, (4, 0))
    page.mouse.click(x, y)
    page.locator(".board-verdict", has_text="From E1").wait_for(timeout=30_000)
    page.wait_for_timeout(700)
    x, y = space_centre(page, (8, 5))
    page.mouse.click(x, y)
    page.locator(".board-verdict", has_text="I6").wait_for(timeout=30_000)
    page.screenshot(path=str(artifacts / "tour-board.png"), full_page=True)
    assert_plain(visible_text(page), "Board")
    for title in ("Odds", "Round", "Rulings", "Examples", "Quiz"):
        open_tab(page, title)
        if title == "Round":
            for _ in range(2):
                page.locator("button.step-phase").click()
                page.wait_for_timeout(2500)
            page.locator("button.step-option").first.click()
            page.wait_for_timeout(2500)
        if title == "Rulings":
            pick_switch(page, "nearest.metric")
            page.wait_for_timeout(3000)
        if title == "Examples":
            for _ in range(3):
                if page.locator("button.example-next").is_enabled():
                    page.locator("button.example-next").click()
                    page.wait_for_timeout(1500)
        page.screenshot(path=str(artifacts / f"tour-{title.lower()}.png"), full_page=True)
        assert_plain(visible_text(page), title)


_COLOURS_DRAWN = """(selector) => {
  const found = new Set();
  for (const view of Object.values(window.Bokeh.index)) {
    if (!view || !view.el || !view.el.closest(selector) || !view.model.renderers) continue;
    for (const r of view.model.renderers) {
      const data = r.data_source && r.data_source.data;
      if (data && data.colour && data.colour.length) data.colour.forEach(c => found.add(c));
    }
  }
  return Array.from(found);
}"""


def test_every_colour_drawn_on_the_board_has_a_legend_entry(page, voila, artifacts):
    open_app(page, voila)
    x, y = space_centre(page, (4, 0))
    page.mouse.click(x, y)
    page.locator(".board-verdict", has_text="From E1").wait_for(timeout=30_000)
    page.wait_for_timeout(700)
    x, y = space_centre(page, (6, 2))
    page.mouse.click(x, y)
    page.locator(".board-verdict", has_text="G3").wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    page.locator(".board-legend").screenshot(path=str(artifacts / "legend.png"))
    drawn = set(page.evaluate(_COLOURS_DRAWN, ".board-plot"))
    legend = set(page.locator(".board-legend .legend-swatch").evaluate_all(
        "els => els.map(e => e.dataset.colour)"))
    assert drawn and drawn <= legend, drawn - legend


def test_a_quiz_question_answered_wrong_then_one_answered_right(page, voila, artifacts):
    open_app(page, voila)
    open_tab(page, "Quiz")
    options = page.locator("button.quiz-option")
    options.first.wait_for(timeout=30_000)
    # 1H1L against armor 3 hits 5/9 of the time: any other option is wrong
    page.locator("button.quiz-option", has_text="5/6").click()
    page.locator(".quiz-feedback", has_text="Not quite").wait_for(timeout=30_000)
    assert "5/9 (55.56%)" in page.locator(".quiz-feedback").inner_text()
    assert "Rule: manual p24" in page.locator(".quiz-feedback").inner_text()
    page.screenshot(path=str(artifacts / "quiz-wrong.png"), full_page=True)
    # the nearest unit to the Mi-Go on A1 is Lorrai on C3 (2 across and down, manual p22)
    page.locator(".quiz-pick select").select_option(index=4)
    page.locator(".quiz-board-plot canvas").first.wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(1500)
    x, y = space_centre(page, (2, 2), ".quiz-board-plot")
    page.mouse.click(x, y)
    page.locator(".quiz-feedback", has_text="Right.").wait_for(timeout=30_000)
    page.wait_for_timeout(1000)
    page.screenshot(path=str(artifacts / "quiz-right.png"), full_page=True)
    assert "Score: 1 of 2" in page.locator(".quiz-score").inner_text()
