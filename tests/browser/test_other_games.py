"""The "Other games" tab in a real browser: both sight verdicts, the chart drawn, a change of
space redrawing both boards; screenshots of the tab and of the comparison chart.

Expected verdicts: manual p22 (a wall stops the centre line; an open door does not) and the
Mansions summary 002_fdb2e90db6cbc320.txt, Line of Sight (any corner-dot line; doors block).
"""

import pytest
from test_app import HARMLESS, open_app

pytestmark = pytest.mark.browser


def open_other_games(page, voila):
    errors = open_app(page, voila)
    page.locator(".lm-TabBar-tab", has_text="Other games").first.click()
    page.locator(".peers-verdict-mansions").wait_for(state="visible", timeout=60_000)
    page.locator(".peers-chart canvas").first.wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(800)
    return errors


def test_other_games_tab_compares_sight_and_draws_the_chart(page, voila, artifacts):
    errors = open_other_games(page, voila)
    machina = page.locator(".peers-verdict-machina")
    mansions = page.locator(".peers-verdict-mansions")
    assert "blocked by the wall" in machina.inner_text()
    assert "visible along the line from dot" in mansions.inner_text()
    page.screenshot(path=str(artifacts / "other-games.png"), full_page=True)

    boards = page.locator(".peers-verdict-mansions").locator("xpath=..").locator("canvas").first
    before = boards.screenshot()
    page.locator(".peers-from select").select_option(label="(2, 1)")
    page.locator(".peers-to select").select_option(label="(3, 1)")
    page.locator(".peers-verdict-mansions", has_text="the door between (2, 1) and (3, 1)").wait_for(
        timeout=30_000)
    assert "blocked" not in machina.inner_text()
    page.wait_for_timeout(500)
    assert boards.screenshot() != before

    chart = page.locator(".peers-chart").first
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    chart.screenshot(path=str(artifacts / "peers-chart.png"))
    assert "saved by deciding after" in page.locator(".peers-timing").inner_text()
    assert "Arkham LCG nearest" in page.locator(".peers-distances").inner_text()
    real = [e for e in errors if not any(h.lower() in e.lower() for h in HARMLESS)]
    assert not real, real
