"""Browser test fixtures: the notebooks served by Voila on a free loopback port, driven by
Playwright in Debian's chromium (JUPYTER_NOTES.md: playwright cannot download a browser here).

The tests never skip: a missing chromium fails them with how to install it.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from explorer_page import load_explorer, watch_errors

from machina_nb.views.serve import CHROMIUM_FLAGS, ROOT, VoilaError
from machina_nb.views.serve import voila as serve_voila

ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder the browser tests write screenshots to (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# The explorer's kernel pool (voila.json) refills 10 s after a page takes its kernel; the
# tests load the app every few seconds, so the next kernel starts preheating at once.
FAST_POOL = ("--VoilaKernelManager.fill_delay=0",)


@pytest.fixture(scope="session")
def voila(artifacts) -> str:
    """Voila serving ``notebooks/`` on 127.0.0.1:<free port>, BokehJS inline; yields its base URL."""
    try:
        with serve_voila(artifacts / "voila.log", extra_args=FAST_POOL) as url:
            yield url
    except VoilaError as error:
        pytest.fail(str(error))


def chromium_path() -> str:
    """Debian's chromium (or ``$MACHINA_CHROMIUM``); fail, never skip, when it is missing."""
    path = os.environ.get("MACHINA_CHROMIUM", "/usr/bin/chromium")
    if not (os.access(path, os.X_OK) or shutil.which(path)):
        pytest.fail(f"no Chromium at {path}: the browser tests need it and never skip. Install it "
                    f"(Debian: `sudo apt-get install chromium`, or run `make test` as root, which "
                    f"runs scripts/ensure-chromium) or set MACHINA_CHROMIUM to a Chromium binary.")
    return path


@pytest.fixture(scope="session")
def browser():
    """Headless chromium under Playwright, with the flags that work offline here."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                              args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture
def page(browser):
    """A fresh page (1280x900) for one test."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        yield context.new_page()
    finally:
        context.close()


@dataclass
class Shared:
    """The explorer app loaded in one page, and the console errors it has shown since."""

    page: Any
    errors: list[str]


@pytest.fixture(scope="module")
def explorer(browser, voila) -> Shared:
    """The explorer app, loaded once for the tests of a module (a load starts a kernel and runs
    the app notebook); a test that needs the board as it opens calls ``fresh_board``."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        load_explorer(page, voila)
        yield Shared(page, errors)
    finally:
        context.close()
