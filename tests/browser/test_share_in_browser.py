"""Share links in Chromium: the app opened with ``?situation=`` of a shipped situation shows it
on the Analysis board with its answers (the kernel Voila keeps ready learns the query string
when the page takes it); the copy buttons put the link and the posts on the clipboard; the
picture link saves a PNG that decodes; a bad
link is one plain line and loads nothing.

Every wait is on a state of the page, never on the clock. Screenshots in test-artifacts/."""

import io
from pathlib import Path

import pytest
from explorer_page import real_errors, watch_errors
from PIL import Image
from waits import LOAD, WAIT, painted, until

from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.export import board_scene
from machina_nb.rules.analysis.share import situation_from_link, situation_link
from machina_nb.rules.analysis.situation import situation_from_text
from machina_nb.rules.content import content_root
from machina_nb.views.png import picture_size

pytestmark = pytest.mark.browser

SITUATION = content_root() / "situations" / "sight_corner.toml"


def open_link(page, voila, query):
    page.goto(f"{voila}/voila/render/explorer.ipynb?{query}", timeout=LOAD)
    tab = page.get_by_role("tab", name="Analysis board", exact=True)
    until(page, lambda: tab.get_attribute("aria-selected") == "true",
          "the Analysis board tab picked", LOAD)
    page.locator(".analysis-link-message p").wait_for(state="visible", timeout=LOAD)
    painted(page)


def link_said(page) -> str:
    return page.locator(".analysis-link-message").inner_text().strip()


def test_a_share_link_opens_the_situation_answered_and_copies(browser, voila, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = watch_errors(page)
    try:
        text = SITUATION.read_text(encoding="utf-8")
        open_link(page, voila, situation_link(text).partition("?")[2])
        assert "Opened from the link" in page.locator(".analysis-link-message").inner_text()
        answers = page.locator(".analysis-answers")
        answers.get_by_text("Can Kim (K) see Lorrai (L)?").wait_for(timeout=WAIT)
        assert "No: out of sight." in answers.inner_text()
        page.locator(".analysis-link-message").screenshot(
            path=str(artifacts / "share_link_opened.png"))
        link = page.locator(".analysis-link-text textarea").input_value()
        assert link.startswith(f"{voila}/voila/render/explorer.ipynb?situation=")
        reopened = situation_from_text(situation_from_link(link))   # as the app writes it
        assert ask(reopened) == ask(situation_from_text(text)) and reopened.title in link_said(page)
        page.locator("button.analysis-copy-link").click()
        page.locator("button.analysis-copy-link", has_text="Copied").wait_for(timeout=WAIT)
        assert page.evaluate("() => navigator.clipboard.readText()") == link
        page.locator("button.analysis-export").click()
        bbcode = page.locator(".analysis-bbcode-text textarea")
        until(page, lambda: bbcode.input_value().startswith("[size=14]"), "the BBCode made")
        page.locator("button.analysis-copy-bbcode").click()
        page.locator("button.analysis-copy-bbcode", has_text="Copied").wait_for(timeout=WAIT)
        assert page.evaluate("() => navigator.clipboard.readText()") == bbcode.input_value()
        assert link in bbcode.input_value()
        picture = page.locator("a.analysis-png")
        assert picture.get_attribute("download") == f"{reopened.id}.png"
        with page.expect_download(timeout=WAIT) as saved:
            picture.click()
        data = Path(saved.value.path()).read_bytes()
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        assert image.size == picture_size(board_scene(reopened, ask(reopened)))
        page.locator(".analysis-share").screenshot(path=str(artifacts / "share_panel.png"))
        assert not real_errors(errors), errors
    finally:
        context.close()


def test_a_bad_link_is_one_plain_line_and_loads_nothing(browser, voila):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_link(page, voila, "situation=not*a*situation")
        assert link_said(page) == ("This link cannot be opened: the situation code is not base64url "
                        "(letters, digits, - and _ only)")
        page.locator(".analysis-answers", has_text="mindless turn").wait_for(timeout=WAIT)
        assert not real_errors(errors), errors
    finally:
        context.close()
