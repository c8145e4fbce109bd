"""A board as a still picture (SVG): the board wing's one drawer, explained by the same legend.

:func:`svg_board` is :func:`machina_nb.rules.board.drawing.draw` and
:func:`~machina_nb.rules.board.drawing.svg`: the same colours, line styles and axis labels as
the board view and the shared answers. A picture is a string, so it goes into the page in the
same message as the words beside it (and its legend, :func:`machina_nb.views.board.legend_html`
of :func:`picture_columns`): a view that shows a picture and its answer in one HTML widget
never shows an old picture beside a new answer. Pictures also cost nothing to build (no plot is
converted), so a view can show several.

Rules: manual p11 (tiles, edges, direction symbol), p22 (walls and doors), p35-37 (space
kinds) — drawn as they are, no rule applied.
"""

from __future__ import annotations

from typing import Mapping

from machina_nb.rules.board.drawing import draw, svg
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights
from machina_nb.views.board import board_data, highlight_data

__all__ = ["svg_board", "picture_columns", "merged_columns", "space_px"]


def space_px(board: Board, width: int = 520, least: int = 16, most: int = 48) -> int:
    """Pixels a side of a space so the board fits about ``width`` pixels (``least`` to ``most``)."""
    xs, ys = [p[0] for p in board] or [0], [p[1] for p in board] or [0]
    side = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
    return max(least, min(most, width // side))


def picture_columns(board: Board, highlights: Highlights = Highlights()
                    ) -> dict[str, dict[str, list]]:
    """The columns of a picture's legend (:func:`machina_nb.views.board.legend_html`): the
    map's and the overlay's, by source name, as the board view has them."""
    return {**board_data(board), **highlight_data(highlights)}


def merged_columns(*pictures: Mapping[str, Mapping[str, list]]) -> dict[str, dict[str, list]]:
    """Several pictures' columns joined, source by source (for one legend under them all)."""
    out: dict[str, dict[str, list]] = {}
    for columns in pictures:
        for name, data in columns.items():
            into = out.setdefault(name, {key: [] for key in data})
            for key, values in data.items():
                into.setdefault(key, []).extend(values)
    return out


def svg_board(board: Board, highlights: Highlights = Highlights(), *, px: int | None = None,
              css: str = "board-svg") -> str:
    """``board`` with ``highlights`` as SVG text, ``px`` pixels a space (default: fit 520 px).

    Columns are lettered along the top and rows numbered down the left, as the board view
    labels them.
    """
    return svg(draw(board, highlights), px=px or space_px(board), css=css)
