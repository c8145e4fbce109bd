"""Serve the notebooks with Voila on a free loopback port and find board spaces on the page.

Used by the browser tests (``tests/browser/conftest.py``) and the click benchmark
(``benchmarks/bench_views.py``), so both start the app the same way: BokehJS inline,
this environment's Python as the kernel, 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

__all__ = ["ROOT", "NOTEBOOKS", "CHROMIUM_FLAGS", "VoilaError", "free_port", "voila",
           "space_centre"]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


class VoilaError(RuntimeError):
    """Voila exited or did not answer in time; the message ends with its log."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


class _Log(threading.Thread):
    """Copies the server's output to the log file and notes the address it says it serves at
    (``Voilà ... is running at:`` and the address on the next line); ``ready`` is set then,
    or when the output ends (the server exited)."""

    def __init__(self, output, log_path: Path):
        super().__init__(daemon=True)
        self.output, self.log_path = output, log_path
        self.url: str | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        announced = False
        with open(self.log_path, "wb") as log:
            for line in iter(self.output.readline, b""):
                log.write(line)
                log.flush()
                text = line.decode(errors="replace").strip()
                if announced and text.startswith("http://127.0.0.1:") and self.url is None:
                    self.url = text.rstrip("/")
                    self.ready.set()
                announced = "is running at" in text
        self.ready.set()


@contextlib.contextmanager
def voila(log_path: Path, folder: Path = NOTEBOOKS, startup_seconds: float = 180,
          extra_args: tuple[str, ...] = ()) -> Iterator[str]:
    """Voila serving ``folder`` on 127.0.0.1:<free port> with BokehJS inline; yields the base URL.

    Voila reads ``voila.json`` at the repository root (a pre-started kernel for the
    explorer); ``extra_args`` are more command-line options. The server's output goes
    to ``log_path``; the URL is the one it announces there (it moves on when the port was
    taken meanwhile), checked to answer. It is stopped on exit.
    """
    runtime = tempfile.mkdtemp(prefix="jupyter-runtime-")
    env = dict(os.environ, BOKEH_RESOURCES="inline", JUPYTER_RUNTIME_DIR=runtime,
               # the page template without style sheets from a CDN (share/jupyter/voila)
               JUPYTER_PATH=os.pathsep.join(filter(None, [str(ROOT / "share" / "jupyter"),
                                                          os.environ.get("JUPYTER_PATH")])),
               PYTHONUNBUFFERED="1",   # its announcement reaches the log at once
               # the kernelspec runs "python": make it this environment's
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(folder), "--no-browser", f"--port={free_port()}",
         "--Voila.ip=127.0.0.1", "--show_tracebacks=True", *extra_args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    log = _Log(server.stdout, log_path)
    log.start()
    try:
        if not log.ready.wait(startup_seconds):
            raise VoilaError(f"voila did not say where it serves within {startup_seconds} s:\n"
                             f"{log_path.read_text(errors='replace')[-3000:]}")
        if log.url is None or not _answers(log.url + "/"):
            server.poll()
            raise VoilaError(f"voila exited with {server.returncode} or does not answer:\n"
                             f"{log_path.read_text(errors='replace')[-3000:]}")
        yield log.url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.join(timeout=30)
        cast(IO[bytes], server.stdout).close()


# The shown bokeh plot inside an element matching a CSS selector: its frame on the page
# and its data ranges (BokehJS keeps every root view in Bokeh.index.roots; Object.values of
# Bokeh.index throws once one figure is shown by two views, as a board shown again is).
_FRAME_JS = """(selector) => {
  for (const view of window.Bokeh.index.roots) {
    if (!view || !view.frame || !view.el.closest(selector)) continue;
    const box = view.el.getBoundingClientRect();
    if (box.width === 0) continue;
    const f = view.frame.bbox, m = view.model;
    return {left: box.left + f.left, top: box.top + f.top, width: f.width, height: f.height,
            x0: m.x_range.start, x1: m.x_range.end, y0: m.y_range.start, y1: m.y_range.end};
  }
  return null;
}"""


def space_centre(page, space: tuple[int, int], selector: str = ".board-plot") -> tuple[float, float]:
    """Page coordinates of the centre of ``space`` on the board plot shown under ``selector``.

    ``page`` is a Playwright page. The plot's y range runs from the bottom (``y0``) to the
    top (``y1``): the board's y grows to the south.
    """
    frame = page.evaluate(_FRAME_JS, selector)
    if frame is None:
        raise LookupError(f"no board plot is shown under the page element '{selector}'")
    x, y = space[0] + 0.5, space[1] + 0.5
    px = frame["left"] + frame["width"] * (x - frame["x0"]) / (frame["x1"] - frame["x0"])
    py = frame["top"] + frame["height"] * (y - frame["y1"]) / (frame["y0"] - frame["y1"])
    return px, py
