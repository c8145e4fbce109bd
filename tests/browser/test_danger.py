"""The danger overlay in Chromium: pick an explorer, turn the overlay on, click a space, and read
its breakdown in plain words, in view at 1280x800 (manual p34 reach, p10-17 and p24 the monster
phase, p16 the explorers' choices). Screenshots in test-artifacts/."""

import re

import pytest
from explorer_page import click_space, fresh_board, open_tab
from waits import LOAD, WAIT, painted, until

from machina_nb.views.serve import space_centre

pytestmark = pytest.mark.browser

# What a reader must never see: a space as (x, y), a unit id, a repr, a dict, None.
FORBIDDEN = re.compile(r"\(\d+, \d+\)|mi_go|sarall-|\b[A-Z]\w*\(\w+=|\{\s*['\"]|\bNone\b")
SMALL = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def in_view(page, selector: str) -> bool:
    """Whether the first line of ``selector`` is inside the window (above the fold)."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + 20 <= page.viewport_size["height"]


def _centre(page, space, board):
    """The centre of ``space`` once the board plot is drawn that large, else None."""
    try:
        return space_centre(page, space, board)
    except LookupError:
        return None


def test_manual_p16_board_tab_danger_for_an_explorer_and_a_space_s_breakdown(explorer,
                                                                              artifacts):
    page = explorer.page
    fresh_board(page)
    page.set_viewport_size(SMALL)
    page.locator(".board-overlay button", has_text="danger").click()
    handle = page.locator(".board-stamina .noUi-handle")
    handle.focus()
    for _ in range(2):                           # 3 stamina left -> 1: a handful of spaces
        handle.press("ArrowLeft")
    until(page, lambda: page.locator(".board-stamina .widget-readout").inner_text().strip()
          == "1", "stamina 1")
    click_space(page, (4, 0))                    # Phillip (A) on E1
    page.locator(".board-verdict", has_text="With 1 stamina left, Phillip (A) can end its "
                 "move on").wait_for(timeout=LOAD)
    legend = page.locator(".board-legend").inner_text()
    assert "destroyed in the monster phase: 0%" in legend and "75% to 100%" in legend
    click_space(page, (4, 1))                    # E2, one step south
    verdict = page.locator(".board-verdict", has_text="If Phillip (A) ends its move on E2")
    verdict.wait_for(timeout=WAIT)
    text = verdict.inner_text()
    assert re.search(r"destroyed by the end of the monster phase \d+(/\d+)? \(\d+(\.\d+)?%\)",
                     text), text
    assert "expected health lost" in text and "Who attacks it" in text
    assert not FORBIDDEN.search(text), text
    page.mouse.move(0, 0)
    painted(page)
    assert in_view(page, ".board-verdict")
    page.screenshot(path=str(artifacts / "danger-board-1280.png"))
    page.set_viewport_size(PHONE)
    painted(page)
    page.screenshot(path=str(artifacts / "danger-board-390.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_manual_p16_analysis_board_danger_tool_and_the_monster_phase_chart(explorer, artifacts):
    page = explorer.page
    page.set_viewport_size(SMALL)
    open_tab(page, "Analysis board")
    page.locator(".analysis-start select").select_option(
        label="situation: Where is it safe for Kim to stand before the monsters move?")
    page.locator("button.analysis-start-go").click()
    chart = page.locator(".analysis-answers .danger-chart").first
    chart.wait_for(timeout=LOAD)
    assert "%" in chart.inner_text()
    page.locator(".analysis-tool button", has_text="danger").click()
    board = ".analysis-board-plot"
    until(page, lambda: _centre(page, (7, 3), board), "the situation's board")
    page.mouse.click(*space_centre(page, (1, 1), board))            # Kim (K) on B2
    page.locator(".analysis-danger", has_text="Kim (K) can end its move on 19 spaces").wait_for(
        timeout=WAIT)
    page.mouse.click(*space_centre(page, (4, 1), board))            # E2, between the monsters
    words = page.locator(".analysis-danger", has_text="If Kim (K) ends its move on E2")
    words.wait_for(timeout=WAIT)
    text = words.inner_text()
    assert "25/27 (92.59%)" in text and "Mi-Go (M) plays Probe on it" in text
    assert not FORBIDDEN.search(text), text
    assert in_view(page, ".analysis-danger")
    page.mouse.move(0, 0)
    painted(page)
    page.screenshot(path=str(artifacts / "danger-analysis-1280.png"))
    page.set_viewport_size(PHONE)
    painted(page)
    page.screenshot(path=str(artifacts / "danger-analysis-390.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
