"""The Rules tab in Chromium: search a word, open the entry found, follow a link to its tab."""

import pytest
from explorer_page import open_tab, real_errors
from waits import WAIT, until

pytestmark = pytest.mark.browser


def test_searching_a_word_in_the_rules_tab_opens_its_entry(explorer, artifacts):
    page = explorer.page
    open_tab(page, "Rules")
    box = page.locator(".reference-search input")
    box.fill("closest")
    box.press("Enter")
    hit = page.locator("button.reference-hit", has_text="Rule: Closest").first
    hit.wait_for(state="visible", timeout=WAIT)
    hit.click()
    entry = page.locator(".reference-entry h3", has_text="Closest")
    entry.wait_for(state="visible", timeout=WAIT)
    assert "manual p15-16, p22" in page.locator(".reference-entry").inner_text()
    page.screenshot(path=str(artifacts / "rules-tab.png"), full_page=True)
    link = page.locator("button.reference-link", has_text="closest to the Sarall").first
    link.wait_for(state="visible", timeout=WAIT)
    link.click()
    quiz = page.get_by_role("tab", name="Quiz", exact=True)
    until(page, lambda: quiz.get_attribute("aria-selected") == "true", "the Quiz tab picked")
    page.locator(".quiz-prompt", has_text="Which unit is closest to the Sarall").first.wait_for(
        state="visible", timeout=WAIT)
    assert not real_errors(explorer.errors), explorer.errors
