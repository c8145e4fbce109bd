"""The "Other games" tab in a real browser: both sight verdicts, the chart drawn, a change of
space redrawing both boards; screenshots of the tab and of the comparison chart.

Expected verdicts: manual p22 (a wall stops the centre line; an open door does not) and the
Mansions of Madness summary, Line of Sight (any corner-dot line; doors block).
"""

import pytest
from explorer_page import open_tab, real_errors
from waits import WAIT, changed_pixels, painted, text_changes

pytestmark = pytest.mark.browser


def test_other_games_tab_compares_sight_and_draws_the_chart(explorer, artifacts):
    page = explorer.page
    open_tab(page, "Other games")
    machina = page.locator(".peers-verdict-machina")
    mansions = page.locator(".peers-verdict-mansions")
    mansions.wait_for(state="visible", timeout=WAIT)
    assert "blocked by the wall" in machina.inner_text()
    assert "visible along the line from the dot near" in mansions.inner_text()
    page.screenshot(path=str(artifacts / "other-games.png"), full_page=True)

    boards = page.locator(".peers-verdict-mansions").locator("xpath=..").locator("canvas").first
    before, said = boards.screenshot(), machina.inner_text()
    page.locator(".peers-from select").select_option(label="C2")
    page.locator(".peers-to select").select_option(label="D2")
    page.locator(".peers-verdict-mansions", has_text="the door between C2 and D2").wait_for(
        timeout=WAIT)
    assert "blocked" not in text_changes(page, machina, said)
    changed_pixels(page, boards, before)

    chart = page.locator(".peers-chart").first
    chart.scroll_into_view_if_needed()
    painted(page)
    chart.screenshot(path=str(artifacts / "peers-chart.png"))
    assert "saved by deciding after" in page.locator(".peers-timing").inner_text()
    assert "Arkham LCG nearest" in page.locator(".peers-distances").inner_text()
    assert not real_errors(explorer.errors), explorer.errors
