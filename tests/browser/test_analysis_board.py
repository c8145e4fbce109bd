"""The Analysis board tab in Chromium: paint a wall, place a monster and two
explorers, save, reload the page, load the file: the same situation; the monster's plan and
the rulings that change it appear, and change when a door is closed (manual p16, p36).

Every wait is on a state of the page, never on the clock. Screenshots in test-artifacts/."""

import re

import pytest
from waits import LOAD, WAIT, painted, until

from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.views.serve import space_centre

pytestmark = pytest.mark.browser

BOARD = ".analysis-board-plot"

# What a newcomer must never read (as in test_teaching.py): a repr, a dict, None, "**".
FORBIDDEN = re.compile(r"\b[A-Z]\w*\(\w+=|\{\s*['\"]|\bNone\b|\*\*|placeholder|spec §")

# The shown board's frame and ranges (BokehJS keeps each root view in Bokeh.index.roots).
_RANGES = """(selector) => {
  for (const view of window.Bokeh.index.roots) {
    if (!view || !view.frame || !view.el.closest(selector)) continue;
    if (view.el.getBoundingClientRect().width === 0) continue;
    const m = view.model;
    return [m.x_range.end, m.y_range.start];
  }
  return null;
}"""


def shoot(page, path):
    """A screenshot of the whole tab: the page scrolls inside Voila, so a tall viewport."""
    page.set_viewport_size({"width": 1280, "height": 3200})
    painted(page)
    page.screenshot(path=str(path))
    page.locator(".analysis-editor").screenshot(path=str(path.with_suffix(".editor.png")))
    page.set_viewport_size({"width": 1280, "height": 900})
    painted(page)


def open_tab(page, voila):
    page.goto(f"{voila}/voila/render/explorer.ipynb", timeout=LOAD)
    page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=LOAD)
    page.get_by_role("tab", name="Analysis board", exact=True).click()
    page.locator(".analysis-answers", has_text="mindless turn").wait_for(timeout=LOAD)
    page.locator(f"{BOARD} canvas").first.wait_for(state="visible", timeout=WAIT)


def board_is(page, width, height):
    """Wait until the editor's board is drawn ``width`` x ``height`` spaces."""
    until(page, lambda: page.evaluate(_RANGES, BOARD) == [width + 0.3, height + 0.3],
          f"a {width}x{height} board")
    painted(page)


def message(page, text):
    page.locator(".analysis-message", has_text=text).wait_for(timeout=WAIT)


def tool(page, name):
    page.locator(".analysis-tool button", has_text=name).click()
    until(page, lambda: "mod-active" in (page.locator(".analysis-tool button", has_text=name)
                                         .get_attribute("class") or ""), f"the {name} tool")


def click_space(page, space, towards=(0.0, 0.0)):
    """Click ``space`` on the editor's board, ``towards`` a side (in spaces from its centre)."""
    x, y = space_centre(page, space, BOARD)
    x2, y2 = space_centre(page, (space[0] + 1, space[1] + 1), BOARD)
    page.mouse.click(x + towards[0] * (x2 - x), y + towards[1] * (y2 - y))


def set_border(page, space, towards, kind, expect):
    tool(page, "border")
    page.locator(".analysis-border-kind select").select_option(label=kind)
    click_space(page, space, towards)
    message(page, expect)


def place(page, card, space, expect):
    page.locator(".analysis-card select").select_option(label=card)
    click_space(page, space)
    message(page, expect)


def turn_text(page):
    return page.locator(".analysis-answer[data-question='s_turn']").inner_text()


def find_rulings(page):
    page.locator("button.analysis-find").click()
    page.locator(".analysis-sensitivity .analysis-sensitive").first.wait_for(timeout=WAIT)
    return page.locator(".analysis-sensitive").evaluate_all(
        "els => els.map(e => e.dataset.switch)")


def test_issue_11_build_save_reload_load_and_a_closed_door_changes_the_plan(
        page, voila, artifacts):
    open_tab(page, voila)
    page.locator(".analysis-start select").select_option(label="an empty board (size below)")
    page.locator(".analysis-width input").fill("6")
    page.locator(".analysis-height input").fill("3")
    page.locator(".analysis-height input").press("Enter")
    page.locator("button.analysis-start-go").click()
    message(page, "Started from an empty board")
    board_is(page, 6, 3)
    set_border(page, (2, 0), (0, 0.45), "wall", "Between C1 and C2: wall.")
    tool(page, "place unit")
    place(page, "Sarall (monster)", (0, 0), "placed on A1 as S")
    place(page, "Phillip (explorer)", (5, 0), "placed on F1 as P")
    place(page, "Lorrai (explorer)", (5, 2), "placed on F3 as L")
    tool(page, "ask about")
    click_space(page, (0, 0))
    page.locator(".analysis-answers", has_text="About Sarall (S)").wait_for(timeout=WAIT)
    plan = turn_text(page)
    assert "moves to B1" in plan and "moves to E3" in plan and "closest distances" in plan
    before = find_rulings(page)
    assert "mindless.movement" in before and "path.door_cost" not in before
    page.locator(".analysis-reading-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    shoot(page, artifacts / "analysis-built.png")
    shown = page.locator(".analysis-tab").inner_text()
    found = FORBIDDEN.search(shown)
    assert not found, shown[max(0, found.start() - 80):found.end() + 80]

    with page.expect_download() as saving:
        page.locator("a.analysis-save").click()
    saved = artifacts / "analysis-night.toml"
    saving.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    situation = situation_from_text(text, saved.name)
    assert [(u.letter, u.card, u.position) for u in situation.units] == [
        ("S", "sarall", (0, 0)), ("P", "phillip", (5, 0)), ("L", "lorrai", (5, 2))]

    page.reload()
    open_tab(page, voila)
    with page.expect_file_chooser() as choosing:
        page.locator(".analysis-upload").click()
    choosing.value.set_files(str(saved))
    page.locator(".analysis-file-message", has_text="Loaded").wait_for(timeout=WAIT)
    board_is(page, 6, 3)
    until(page, lambda: page.locator(".analysis-text textarea").input_value() == text,
          "the loaded situation's text")
    assert turn_text(page) == plan
    assert find_rulings(page) == before
    shoot(page, artifacts / "analysis-loaded.png")

    set_border(page, (1, 0), (0.45, 0), "closed door", "Between B1 and C1: closed door.")
    until(page, lambda: "moves to E3" not in turn_text(page), "the plan to change")
    assert "moves to B1" in turn_text(page) and "ends its turn" in turn_text(page)
    page.locator(".analysis-sensitivity", has_text="press the button again").wait_for(
        timeout=WAIT)
    after = find_rulings(page)
    assert "path.door_cost" in after and after != before
    page.locator(".analysis-reading-plot canvas").first.wait_for(state="visible", timeout=WAIT)
    shoot(page, artifacts / "analysis-door-closed.png")
