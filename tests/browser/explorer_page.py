"""The explorer app in a page: load it, pick a tab, start the Board tab afresh, each waiting on
the state it needs (``waits.py``), never on the clock.

A module's tests share one loaded app (the ``explorer`` fixture in conftest.py): loading it
starts a kernel and runs the app notebook, the costliest step of a browser test. A test that
clicks the board starts with :func:`fresh_board`, so what an earlier test picked does not leak.
"""

from __future__ import annotations

from waits import LOAD, WAIT, board_end, painted, until

from machina_nb.views.app import demo_layout
from machina_nb.views.board import shipped_board, space_name
from machina_nb.views.serve import space_centre

# Noise Voila makes offline that says nothing about the app (JUPYTER_NOTES.md).
HARMLESS = ("Unsatisfied version", "fontawesome", "Failed to load resource")

# What each tab shows once it is built and drawn.
TAB_READY = {
    "Board": ".board-plot canvas",
    "Odds": ".odds-pmf-plot canvas",
    "Round": ".phase-label",
    "Rulings": ".rulings-shown .rulings-case",
    "Examples": ".example-text",
    "Quiz": "button.quiz-option",
    "Other games": ".peers-chart canvas",
    "Analysis board": ".analysis-answers",
    "Rules": ".reference-entry",
}

BOARD_WIDTHS = {"demo": demo_layout().width,
                "2x2 shipped tiles": 1 + max(x for x, _ in shipped_board().graph)}

def watch_errors(page) -> list[str]:
    """The page's console errors and uncaught exceptions, collected from now on."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def real_errors(errors: list[str]) -> list[str]:
    """``errors`` without the offline noise (:data:`HARMLESS`)."""
    return [e for e in errors if not any(h.lower() in e.lower() for h in HARMLESS)]


def load_explorer(page, voila: str) -> None:
    """Open the explorer app and wait until its board is drawn."""
    page.goto(f"{voila}/voila/render/explorer.ipynb", timeout=LOAD)
    page.locator(".board-plot canvas").first.wait_for(state="visible", timeout=LOAD)
    painted(page)


def open_tab(page, title: str) -> None:
    """Pick the tab ``title`` (exactly: "Board" is not "Analysis board") and wait until it is
    built (its progress bar gone) and shows what it is for (:data:`TAB_READY`)."""
    tab = page.get_by_role("tab", name=title, exact=True)
    tab.click()
    until(page, lambda: tab.get_attribute("aria-selected") == "true", f"the {title} tab picked")
    page.wait_for_function("() => ![...document.querySelectorAll('.tab-building')]"
                           ".some(e => e.offsetParent !== null)", timeout=LOAD)
    page.locator(TAB_READY[title]).first.wait_for(state="visible", timeout=LOAD)
    painted(page)


def fresh_board(page, board: str = "demo") -> None:
    """The Board tab showing ``board`` with nothing picked, the sight overlay on, and the next
    click picking the source: as the app opens, whatever an earlier test clicked."""
    open_tab(page, "Board")
    choice = page.locator(".board-choice select")
    other = next(name for name in BOARD_WIDTHS if name != board)
    for name in (other, board):     # showing a board drops the pick
        choice.select_option(name)
        until(page, lambda name=name: board_end(page) == BOARD_WIDTHS[name] + 0.3,
              f"the {name} board shown")
    page.locator(".board-overlay button", has_text="sight").click()
    page.locator(".board-click button", has_text="source").click()
    page.locator(".board-verdict", has_text="Click a space").wait_for(timeout=WAIT)
    until(page, lambda: "mod-active" in (page.locator(".board-click button", has_text="source")
                                         .get_attribute("class") or ""), "source clicks")
    painted(page)


def click_space(page, space, selector: str = ".board-plot") -> None:
    """Click the centre of ``space`` on the board plot shown under ``selector``."""
    page.mouse.click(*space_centre(page, space, selector))


def aim_sight(page, source, target, says: str) -> None:
    """On the demo board afresh, pick ``source`` and aim the line of sight at ``target``; wait
    until the verdict says ``says``."""
    fresh_board(page)
    click_space(page, source)
    page.locator(".board-verdict", has_text=f"From {space_name(source)}").wait_for(timeout=WAIT)
    click_space(page, target)
    page.locator(".board-verdict", has_text=says).wait_for(timeout=WAIT)
