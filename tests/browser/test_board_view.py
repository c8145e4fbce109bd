"""The board view in the served app: clicks pick spaces, overlays redraw, the verdict explains.

Spaces are clicked at their centres, located from the plot's frame and ranges
(:func:`machina_nb.views.serve.space_centre`, via ``explorer_page.click_space``).
Screenshots go to test-artifacts/.
"""

import pytest
from explorer_page import click_space, fresh_board
from waits import WAIT, changed_pixels, painted

pytestmark = pytest.mark.browser


def verdict(page):
    return page.locator(".board-verdict").inner_text()


def test_manual_p22_click_a_space_then_a_target_draws_sight_and_the_explanation(explorer,
                                                                                 artifacts):
    page = explorer.page
    fresh_board(page)
    canvas = page.locator(".board-plot canvas").first
    before = canvas.screenshot()
    click_space(page, (2, 3))
    page.locator(".board-verdict", has_text="From C4 (floor)").wait_for(timeout=WAIT)
    assert "spaces in sight" in verdict(page)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    painted(page)
    selected = changed_pixels(page, canvas, before, str(artifacts / "board-sight-from-2-3.png"))
    assert selected != before
    click_space(page, (7, 2))  # through the corner where a wall meets a closed door
    page.locator(".board-verdict", has_text="C4 → H3").wait_for(timeout=WAIT)
    assert ("blocked by the wall between E3 and F3, and the closed door between E4 and F4, "
            "meeting at the corner shared by E3, E4, F3 and F4 (manual p22 (line of sight) "
            "(Rules: Line of sight); a corner blocks only when its walls cut the line off)"
            ) in verdict(page)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    painted(page)
    aimed = changed_pixels(page, canvas, selected, str(artifacts / "board-sight-target-7-2.png"))
    page.screenshot(path=str(artifacts / "board-demo-sight.png"), full_page=True)
    assert aimed != selected
    assert page.locator(".board-title").inner_text() == "Line of sight from C4 to H3"


def test_shipped_2x2_board_blocking_point_reach_and_closest_ties(explorer, artifacts):
    page = explorer.page
    fresh_board(page, "2x2 shipped tiles")
    canvas = page.locator(".board-plot canvas").first
    click_space(page, (3, 8))
    page.locator(".board-verdict", has_text="From D9 (floor, Phillip (explorer))").wait_for(timeout=WAIT)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    painted(page)
    source_pixels = canvas.screenshot()
    click_space(page, (12, 5))
    page.locator(".board-verdict", has_text="D9 → M6").wait_for(timeout=WAIT)
    assert ("blocked by the wall between D9 and E9, 1/3 of the way down it "
            "(manual p22 (line of sight) (Rules: Line of sight))") in verdict(page)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    sight_pixels = changed_pixels(page, canvas, source_pixels)
    page.screenshot(path=str(artifacts / "board-2x2-sight.png"), full_page=True)

    page.locator(".board-overlay button", has_text="reach").click()
    page.locator(".board-title", has_text="Reach within stamina 3 from D9").wait_for(
        timeout=WAIT)
    assert "17 spaces within stamina 3" in verdict(page)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    painted(page)
    reach_pixels = changed_pixels(page, canvas, sight_pixels,
                                  str(artifacts / "board-2x2-reach.png"))
    assert reach_pixels != sight_pixels

    page.locator(".board-overlay button", has_text="closest").click()
    page.locator(".board-verdict", has_text="Closest to D9").wait_for(timeout=WAIT)
    assert "Mi-Go (monster) on G15 and Lorrai (explorer) on M6, 13 spaces away (a tie" in verdict(page)
    page.mouse.move(0, 0)  # no hover tooltip in the pictures
    changed_pixels(page, canvas, reach_pixels)
    page.screenshot(path=str(artifacts / "board-2x2-closest.png"), full_page=True)
