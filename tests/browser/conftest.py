"""Browser test fixtures: the notebooks served by Voila on a free loopback port, driven by
Playwright in Debian's chromium (JUPYTER_NOTES.md: playwright cannot download a browser here).

The tests never skip: a missing chromium fails them with how to install it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
STARTUP_SECONDS = 60


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder the browser tests write screenshots to (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def voila(artifacts, tmp_path_factory) -> str:
    """Voila serving ``notebooks/`` on 127.0.0.1:<free port>, BokehJS inline; yields its base URL."""
    port = _free_port()
    env = dict(os.environ, BOKEH_RESOURCES="inline",
               # the kernelspec runs "python": make it this environment's
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
               JUPYTER_RUNTIME_DIR=str(tmp_path_factory.mktemp("jupyter-runtime")))
    log_path = artifacts / "voila.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "voila", str(NOTEBOOKS), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not _answers(url + "/"):
            if server.poll() is not None:
                pytest.fail(f"voila exited with {server.returncode}:\n{log_path.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not answer on {url} within {STARTUP_SECONDS} s:\n"
                            f"{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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


@pytest.fixture
def page(browser):
    """A fresh page (1280x900) for one test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()
