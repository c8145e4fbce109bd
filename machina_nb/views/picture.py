"""A board as a still picture (SVG), drawn like the board view and explained by the same legend.

:func:`svg_board` draws a :class:`Board` and :class:`Highlights` from the same columns the
bokeh board view plots (:func:`board_data`, :func:`highlight_data`) with the same colours,
line styles and axis labels, as SVG text. A picture is a string, so it goes into the page in
the same message as the words beside it (and its legend,
:func:`machina_nb.views.board.legend_html` of the same columns): a view that shows a picture and its answer in one
HTML widget never shows an old picture beside a new answer. Pictures also cost nothing to
build (no plot is converted), so a view can show several.

Rules: manual p11 (tiles, edges, direction symbol), p22 (walls and doors), p35-37 (space
kinds) — drawn as they are, no rule applied.
"""

from __future__ import annotations

import html
import itertools
from typing import Mapping

from machina_nb.rules.board.graph import Board
from machina_nb.views.board import MAP_STYLES, Highlights, board_data, highlight_data, space_name

__all__ = ["svg_board", "picture_columns", "merged_columns", "space_px"]

_AXIS = 22  # pixels left and above the board for the row numbers and column letters
_DASHES = {"solid": "", "dashed": "7 5", "dotted": "1 6"}
_GRID, _TILE_INK, _LABEL_INK, _UNIT_INK = "#c8c0ad", "#3949ab", "#0d47a1", "#212121"
_ids = itertools.count(1)


def space_px(board: Board, width: int = 520, least: int = 16, most: int = 48) -> int:
    """Pixels a side of a space so the board fits about ``width`` pixels (``least`` to ``most``)."""
    xs, ys = [p[0] for p in board] or [0], [p[1] for p in board] or [0]
    side = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
    return max(least, min(most, width // side))


def picture_columns(board: Board, highlights: Highlights = Highlights()
                    ) -> dict[str, dict[str, list]]:
    """The columns a picture is drawn from: the map's and the overlay's, by source name."""
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
              css: str = "board-svg", columns: Mapping[str, Mapping[str, list]] | None = None
              ) -> str:
    """``board`` with ``highlights`` as SVG text, ``px`` pixels a space (default: fit 520 px).

    Columns are lettered along the top and rows numbered down the left, as the board view
    labels them; ``columns`` (from :func:`picture_columns`) saves computing them again.
    """
    px = px or space_px(board)
    data = columns or picture_columns(board, highlights)
    xs = [x - 0.5 for x in data["spaces"]["x"]] or [0.0]
    ys = [y - 0.5 for y in data["spaces"]["y"]] or [0.0]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
    frame = _Frame(px, x0, y0, next(_ids))
    width, height = _AXIS + px * (x1 - x0) + 4, _AXIS + px * (y1 - y0) + 4
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='{css}' width='{width:.0f}' "
             f"height='{height:.0f}' viewBox='0 0 {width:.0f} {height:.0f}' "
             "font-family='sans-serif' role='img'>", frame.hatches(data["overlay"]),
             *frame.axes(x0, y0, x1, y1), *frame.spaces(data["spaces"]),
             *frame.tiles(data["tiles"]), *frame.overlay(data["overlay"])]
    for name in ("walls", "joined", "edges"):
        parts += frame.segments(data[name], *MAP_STYLES[name][:3])
    parts += frame.arrows(data["direction"])
    for name in ("door_closed", "door_open", "door_destroyed"):
        parts += frame.segments(data[name], *MAP_STYLES[name][:3])
    lines = data["overlay_lines"]
    for i, colour in enumerate(lines["colour"]):
        parts += frame.segments({key: [lines[key][i]] for key in ("x0", "y0", "x1", "y1")},
                                colour, 4, "solid")
    parts += [*frame.units(data["units"]), *frame.labels(data["overlay_labels"]),
              *frame.crosses(data["overlay_points"]), "</svg>"]
    return "".join(parts)


class _Frame:
    """Board coordinates to picture pixels, and the SVG of each kind of mark."""

    def __init__(self, px: int, x0: float, y0: float, serial: int):
        self.px, self.x0, self.y0, self.serial = px, x0, y0, serial

    def x(self, x: float) -> str:
        return f"{_AXIS + (x - self.x0) * self.px:.1f}"

    def y(self, y: float) -> str:
        return f"{_AXIS + (y - self.y0) * self.px:.1f}"

    def hatch_id(self, colour: str) -> str:
        return f"hatch{self.serial}-{colour.lstrip('#')}"

    def hatches(self, overlay) -> str:
        """One hatch pattern per colour hatched (ids unique to this picture)."""
        colours = sorted({c for c, h in zip(overlay["colour"], overlay["hatch"]) if h.strip()})
        return "<defs>" + "".join(
            f"<pattern id='{self.hatch_id(c)}' width='5' height='5' patternUnits='userSpaceOnUse'"
            f" patternTransform='rotate(45)'><line x1='0' y1='0' x2='0' y2='5' stroke='{c}' "
            "stroke-width='2' stroke-opacity='0.9'/></pattern>" for c in colours) + "</defs>"

    def axes(self, x0, y0, x1, y1) -> list[str]:
        size = "font-size='11' fill='#444' text-anchor='middle'"
        top = [f"<text x='{self.x(i + 0.5)}' y='{_AXIS - 7}' {size}>"
               f"{space_name((i, 0))[:-1]}</text>" for i in range(int(x0), int(x1))]
        left = [f"<text x='{_AXIS / 2:.0f}' y='{self.y(j + 0.5)}' dy='4' {size}>{j + 1}</text>"
                for j in range(int(y0), int(y1))]
        return top + left

    def spaces(self, spaces) -> list[str]:
        px = self.px
        return [f"<rect x='{self.x(x - 0.5)}' y='{self.y(y - 0.5)}' width='{px}' height='{px}' "
                f"fill='{colour}' stroke='{_GRID}' stroke-width='1'><title>{coords} "
                f"({html.escape(kind)})</title></rect>"
                for x, y, colour, kind, coords in zip(spaces["x"], spaces["y"], spaces["colour"],
                                                       spaces["kind"], spaces["coords"])]

    def tiles(self, tiles) -> list[str]:
        out = []
        for x, y, w, h, name in zip(tiles["x"], tiles["y"], tiles["w"], tiles["h"], tiles["tile"]):
            out.append(f"<rect x='{self.x(x - w / 2)}' y='{self.y(y - h / 2)}' "
                       f"width='{w * self.px}' height='{h * self.px}' fill='none' "
                       f"stroke='{_TILE_INK}' stroke-width='2' stroke-opacity='0.6' "
                       "stroke-dasharray='1 5'/>")
            out.append(f"<text x='{self.x(x - w / 2 + 0.1)}' y='{self.y(y - h / 2 + 0.1)}' "
                       f"dy='9' font-size='9' fill='{_TILE_INK}'>{html.escape(name)}</text>")
        return out

    def overlay(self, overlay) -> list[str]:
        side = 0.8 * self.px
        out = []
        for x, y, colour, edge, hatch in zip(overlay["x"], overlay["y"], overlay["colour"],
                                             overlay["edge"], overlay["hatch"]):
            fill = f"url(#{self.hatch_id(colour)})" if hatch.strip() else "none"
            stroke = "none" if edge.startswith("rgba") else edge
            out.append(f"<rect x='{self.x(x - 0.4)}' y='{self.y(y - 0.4)}' width='{side:.1f}' "
                       f"height='{side:.1f}' fill='{fill}' stroke='{stroke}' stroke-width='3'/>")
        return out

    def segments(self, segments, colour: str, width: int, dash: str) -> list[str]:
        dashes = _DASHES.get(dash, "")
        extra = f" stroke-dasharray='{dashes}'" if dashes else ""
        return [f"<line x1='{self.x(a)}' y1='{self.y(b)}' x2='{self.x(c)}' y2='{self.y(d)}' "
                f"stroke='{colour}' stroke-width='{width}' stroke-linecap='round'{extra}/>"
                for a, b, c, d in zip(segments["x0"], segments["y0"], segments["x1"],
                                      segments["y1"])]

    def arrows(self, direction) -> list[str]:
        out = []
        for x, y, angle in zip(direction["x"], direction["y"], direction["angle"]):
            turn = -angle * 180 / 3.141592653589793  # bokeh turns counter-clockwise
            out.append(f"<polygon points='0,-7 6,5 -6,5' fill='#2e7d32' stroke='white' "
                       f"transform='translate({self.x(x)} {self.y(y)}) rotate({turn:.0f})'/>")
        return out

    def units(self, units) -> list[str]:
        radius = max(self.px * 0.34, 7)
        size = max(radius * 1.3, 9)
        return [f"<circle cx='{self.x(x)}' cy='{self.y(y)}' r='{radius:.1f}' fill='white' "
                f"stroke='{_UNIT_INK}' stroke-width='2'/><text x='{self.x(x)}' y='{self.y(y)}' "
                f"dy='{size * 0.35:.1f}' text-anchor='middle' font-weight='bold' "
                f"font-size='{size:.0f}'>"
                f"{html.escape(letter)}</text>"
                for x, y, letter in zip(units["x"], units["y"], units["letter"])]

    def labels(self, labels) -> list[str]:
        return [f"<text x='{self.x(x)}' y='{self.y(y)}' text-anchor='end' font-size='11' "
                f"font-weight='bold' fill='{_LABEL_INK}'>{html.escape(text)}</text>"
                for x, y, text in zip(labels["x"], labels["y"], labels["text"])]

    def crosses(self, points) -> list[str]:
        out = []
        for x, y, colour in zip(points["x"], points["y"], points["colour"]):
            cx, cy = float(self.x(x)), float(self.y(y))
            out.append(f"<path d='M{cx - 6:.1f},{cy - 6:.1f}L{cx + 6:.1f},{cy + 6:.1f}"
                       f"M{cx - 6:.1f},{cy + 6:.1f}L{cx + 6:.1f},{cy - 6:.1f}' stroke='{colour}' "
                       "stroke-width='4'/>")
        return out
