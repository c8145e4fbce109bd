"""Click -> redraw on a 40x40 situation in Chromium (target: median <= 250 ms, the
same as on the 20x20 board of ``bench_views``).

Writes a one-cell notebook showing the board view (:class:`machina_nb.views.board.BoardView`)
on a 40x40 board of walled 10x10 rooms with doors, rubble, obstacles and pits
(``bench_scale.walled_text``) and four units, serves it with Voila like the browser tests and
times, in headless Chromium, each click on a space until the verdict has changed and the
browser has drawn two frames since (the overlay's new data is on the canvas). Four series of
12 clicks: a new sight source (every one of the 1,600 spaces in or out of sight), a sight
target (the line, what blocks it and why), reach within 3 stamina, and the closest units with
every shortest path.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

import nbformat

from benchmarks.bench_scale import walled_text
from benchmarks.bench_views import (
    CLICKS,
    TARGET_MS,
    board_page,
    floor_spaces,
    print_series,
    series,
    timed_click,
)
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.views.serve import voila

SIDE = 40
UNITS = {"A": (3, 3), "B": (36, 5), "M": (20, 22), "N": (8, 33)}
NAMES = {"A": "Phillip (explorer)", "B": "Lorrai (explorer)", "M": "Mi-Go (monster)",
         "N": "Sarall (monster)"}
NOTEBOOK = "board_40x40.ipynb"


def board_40x40() -> Board:
    """The benchmark's board: 40x40, walled rooms with doors and obstacles, units A, B, M, N."""
    legend = {letter: SpaceKind.FLOOR for letter in UNITS}
    return Board.from_layout(parse_map(walled_text(SIDE, UNITS), legend=legend))


def write_notebook(folder: Path) -> None:
    """A notebook that shows the board view on :func:`board_40x40`'s map."""
    source = (
        "from machina_nb.rules.board.graph import Board\n"
        "from machina_nb.rules.board.maptext import SpaceKind, parse_map\n"
        "from machina_nb.views.board import BoardView\n"
        f"TEXT = {walled_text(SIDE, UNITS)!r}\n"
        f"layout = parse_map(TEXT, legend={{letter: SpaceKind.FLOOR for letter in {''.join(UNITS)!r}}})\n"
        f"BoardView(Board.from_layout(layout), names={NAMES!r})")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, folder / NOTEBOOK)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-40x40-"))
    write_notebook(folder)
    board = board_40x40()
    spaces = floor_spaces(board, CLICKS)
    with voila(folder / "voila.log", folder=folder) as url, \
            board_page(url, NOTEBOOK, {"width": 1900, "height": 1600}, 120_000) as page:
        timed_click(page, UNITS["A"], painted=True)  # warm up: the first sight tables
        results = {
            "sight source": series(page, spaces, "sight", True, painted=True),
            "sight target": series(page, spaces[-2::-1] + [UNITS["A"]], "sight", False,
                                   painted=True),
            "reach (stamina 3)": series(page, spaces, "reach", False, painted=True),
            "closest + paths": series(page, spaces, "closest", False, painted=True),
        }
    print_series(f"click -> verdict and overlay drawn in Chromium, {SIDE}x{SIDE} walled board, "
                 f"{CLICKS} clicks each; target median <= {TARGET_MS} ms", results)
    every = statistics.median(t for times in results.values() for t in times)
    print(f"  {'every click':<18} median {every:6.1f} ms   "
          f"{'ok' if every <= TARGET_MS else 'SLOW'}")


if __name__ == "__main__":
    main()
