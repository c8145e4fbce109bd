"""The one board drawer: a board and its highlights to a *scene*, and a scene to SVG text.

:func:`draw` is pure: ``(board, highlights) -> Scene``, a frozen tuple of primitives
(:class:`Rect`, :class:`Line`, :class:`Polyline`, :class:`Circle`, :class:`Text`) in board
coordinates, painted in order (later on top). Any backend draws a scene: :func:`svg` here,
a bitmap elsewhere. Every primitive names its :data:`machina_nb.rules.board.palette.STYLES`
key, so :func:`legend` lists what the picture shows in words.

Coordinates are the board's: x the column from the west, y the row from the north (y grows
downwards, as the map text reads); space ``(x, y)`` covers ``[x, x+1] x [y, y+1]``. Lengths
(``w``, ``h``, ``r``, a text's ``size``) are in board units (one space = 1); line widths
are in pixels, whatever the scale, as a pen's width.

>>> from machina_nb.rules.board.graph import Board
>>> from machina_nb.rules.board.maptext import parse_map
>>> scene = draw(Board.from_layout(parse_map("+-+-+\\n|. o|\\n+-+-+\\n")))
>>> [p.fill for p in scene.items if isinstance(p, Rect) and p.key == "space:pit"]
['#1f1f1f']
>>> svg(scene).startswith("<svg")
True

Rules: manual p11 (tiles, edges, direction symbol), p22 (walls and doors), p34 (joined
edges), p35-37 (space kinds) — drawn as they are, no rule applied.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol, Union

from machina_nb.rules.board.highlights import Highlights, Segment
from machina_nb.rules.board.labels import column_name, space_name
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.board.palette import (
    AXIS_INK,
    DIM,
    DIMMED_ROLES,
    DIRECTION_INK,
    FILLED_ROLES,
    GRID,
    HATCHED_ROLES,
    LABEL_INK,
    MAP_STYLES,
    ROLE_COLOURS,
    SIDE_COLOURS,
    SPACE_COLOURS,
    STYLES,
    TILE_INK,
    UNIT_FILL,
    UNIT_INK,
    point_key,
    role_key,
    space_key,
)


class Drawable(Protocol):
    """What the drawer reads of a board (a :class:`machina_nb.rules.board.graph.Board` has it
    all): its spaces, each space's kind and tile, the border between two spaces, the units."""

    def __iter__(self) -> Iterator[Point]: ...
    def __contains__(self, point: object) -> bool: ...
    def space(self, point: Point) -> SpaceKind: ...
    def tile_of(self, point: Point) -> str | None: ...
    def border(self, a: Point, b: Point) -> BorderKind: ...
    def units(self) -> Mapping[str, Point]: ...

__all__ = ["Rect", "Line", "Polyline", "Circle", "Text", "Primitive", "Scene", "draw", "svg",
           "legend", "border_segment", "borders", "tile_outlines", "extent", "BORDER_GROUPS"]


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: top-left corner ``(x, y)``, size ``w`` by ``h`` (board units).

    ``fill`` is a colour or ``""`` (none); ``stroke`` a colour or ``""`` (no outline) drawn
    ``width`` pixels wide with ``dash`` (``solid``, ``dashed``, ``dotted``) and ``opacity``
    (0 to 1, the outline only); ``fill_opacity`` is the fill's (below 1: a veil over what is
    beneath); ``hatch`` True fills it with diagonal lines in ``stroke``'s colour instead
    (``stroke`` then draws no outline). ``title`` is a tooltip (may be empty).
    """

    x: float
    y: float
    w: float
    h: float
    key: str
    fill: str = ""
    stroke: str = ""
    width: float = 1
    dash: str = "solid"
    hatch: bool = False
    opacity: float = 1.0
    title: str = ""
    fill_opacity: float = 1.0


@dataclass(frozen=True)
class Line:
    """A straight segment from ``(x0, y0)`` to ``(x1, y1)`` in ``colour``, ``width`` pixels wide,
    with ``dash`` (``solid``, ``dashed``, ``dotted``) and round ends."""

    x0: float
    y0: float
    x1: float
    y1: float
    key: str
    colour: str
    width: float = 1
    dash: str = "solid"


@dataclass(frozen=True)
class Polyline:
    """Joined segments through ``points`` (``((x, y), ...)``) in ``colour``, ``width`` pixels;
    ``closed`` joins the last point to the first and ``fill`` (a colour or ``""``) fills it."""

    points: tuple[tuple[float, float], ...]
    key: str
    colour: str
    width: float = 1
    closed: bool = False
    fill: str = ""


@dataclass(frozen=True)
class Circle:
    """A disc centred on ``(x, y)`` with radius ``r`` (board units), ``fill`` colour and a ring
    in ``stroke``, ``width`` pixels wide."""

    x: float
    y: float
    r: float
    key: str
    fill: str
    stroke: str
    width: float = 2


@dataclass(frozen=True)
class Text:
    """``text`` at ``(x, y)`` in ``colour``, ``size`` board units high (a backend may raise it
    to a legible minimum), ``bold`` or not. ``anchor`` is which end of the text sits at ``x``
    (``start``, ``middle``, ``end``); ``baseline`` is which part sits at ``y`` (``top``,
    ``middle``, ``bottom``)."""

    x: float
    y: float
    text: str
    key: str
    colour: str
    size: float = 0.35
    anchor: str = "middle"
    baseline: str = "middle"
    bold: bool = False


Primitive = Union[Rect, Line, Polyline, Circle, Text]


@dataclass(frozen=True)
class Scene:
    """A drawn board: ``items`` painted in order inside ``bounds`` ``(x0, y0, x1, y1)`` (board
    units; they include the margin of the column letters and row numbers)."""

    items: tuple[Primitive, ...]
    bounds: tuple[float, float, float, float]


#: The board's border kinds drawn together, by the name of their style in MAP_STYLES.
BORDER_GROUPS: dict[str, tuple[BorderKind, ...]] = {
    "walls": (BorderKind.WALL, BorderKind.BOUNDARY),
    "joined": (BorderKind.JOINED,),
    "edges": (BorderKind.EDGE, BorderKind.DIRECTION),
    "door_closed": (BorderKind.DOOR_CLOSED,),
    "door_open": (BorderKind.DOOR_OPEN,),
    "door_destroyed": (BorderKind.DOOR_DESTROYED,),
}
_MARGIN = 0.8  # board units left and above the map for the row numbers and column letters


def border_segment(a: Point, b: Point) -> Segment:
    """The segment between orthogonal neighbours ``a`` and ``b``.

    >>> border_segment((0, 0), (1, 0))
    ((1, 0), (1, 1))
    """
    (ax, ay), (bx, by) = a, b
    if ay == by:
        x = max(ax, bx)
        return (x, ay), (x, ay + 1)
    y = max(ay, by)
    return (ax, y), (ax + 1, y)


def borders(board: Drawable) -> tuple[dict[BorderKind, list[Segment]], list[tuple[Point, Point]]]:
    """Every border segment by kind (each drawn once), and the direction-symbol pairs
    ``(inside, outside)``."""
    found: dict[BorderKind, list[Segment]] = {kind: [] for kind in BorderKind}
    arrows = []
    for p in sorted(board):
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            q = (p[0] + dx, p[1] + dy)
            if q in board and (dx < 0 or dy < 0):
                continue  # drawn from the other side
            kind = board.border(p, q)
            found[kind].append(border_segment(p, q))
            if kind is BorderKind.DIRECTION:
                arrows.append((p, q))
    return found, arrows


_CUT_TILE = re.compile(r"^\d+,\d+$")


def tile_outlines(board: Drawable) -> list[tuple[tuple[int, int, int, int], str]]:
    """Each map tile's box ``(x0, y0, x1, y1)`` (inclusive spaces) and name. A fixed map is cut
    into 10x10 tiles named by their place (``0,0``): those are named ``tile 1``, ``tile 2``...
    in reading order, and a map that is one such tile has no outline (its edge is the board's)."""
    corners: dict[str, list[int]] = {}
    for p in board:
        tile = board.tile_of(p)
        if tile is None:
            continue
        box = corners.setdefault(tile, [p[0], p[1], p[0], p[1]])
        box[:] = [min(box[0], p[0]), min(box[1], p[1]), max(box[2], p[0]), max(box[3], p[1])]
    tiles = sorted(corners)
    if len(tiles) == 1 and _CUT_TILE.match(tiles[0]):
        tiles = []
    order = sorted(tiles, key=lambda t: (corners[t][1], corners[t][0]))
    names = {t: (f"tile {n}" if _CUT_TILE.match(t) else t) for n, t in enumerate(order, 1)}
    return [((corners[t][0], corners[t][1], corners[t][2], corners[t][3]), names[t])
            for t in tiles]


def extent(board: Drawable) -> tuple[int, int, int, int]:
    """The bounding box ``(x0, y0, x1, y1)`` of the board's spaces (x1, y1 exclusive); one
    empty space's box when the board has no space."""
    xs, ys = [p[0] for p in board] or [0], [p[1] for p in board] or [0]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def draw(board: Drawable, highlights: Highlights = Highlights()) -> Scene:
    """``board`` with ``highlights`` on top as a :class:`Scene`.

    Painted in order: the axis letters and numbers, the spaces by kind, tile outlines, marked
    spaces (outlined, or hatched), walls and tile edges, direction symbols, doors, marked
    lines, units (a white disc ringed by side, its letter), numbers on spaces and marked
    points (✕).

    Rules: manual p11 (tiles, edges, direction symbol), p22 (doors), p35-37 (space kinds).
    """
    x0, y0, x1, y1 = extent(board)
    items: list[Primitive] = _axes(x0, y0, x1, y1) + _spaces(board) + _tiles(board)
    items += [_marked_space(p, role) for p, role in highlights.spaces]
    found, arrows = borders(board)
    for name in ("walls", "joined", "edges"):
        items += _border_lines(name, found)
    items += [_arrow(p, q) for p, q in arrows]
    for name in ("door_closed", "door_open", "door_destroyed"):
        items += _border_lines(name, found)
    items += [Line(a[0], a[1], b[0], b[1], role_key(role), ROLE_COLOURS[role], 4)
              for (a, b), role in highlights.lines]
    items += _units(board, dict(highlights.sides))
    items += [Text(p[0] + 0.95, p[1] + 0.97, text, "label", LABEL_INK, 0.34, "end", "bottom",
                   True) for p, text in highlights.labels]
    for (x, y), role in highlights.points:
        cross = ((x - 0.19, y - 0.19), (x + 0.19, y + 0.19), (x, y), (x - 0.19, y + 0.19),
                 (x + 0.19, y - 0.19))  # one stroke through the centre: an ✕
        items.append(Polyline(cross, point_key(role), ROLE_COLOURS[role], 4))
    return Scene(tuple(items), (x0 - _MARGIN, y0 - _MARGIN, x1 + 0.15, y1 + 0.15))


def _axes(x0: int, y0: int, x1: int, y1: int) -> list[Primitive]:
    top: list[Primitive] = [Text(i + 0.5, y0 - 0.25, column_name(i), "axis", AXIS_INK, 0.34, baseline="bottom")
           for i in range(x0, x1)]
    left: list[Primitive] = [Text(x0 - 0.4, j + 0.5, str(j + 1), "axis", AXIS_INK, 0.34) for j in range(y0, y1)]
    return top + left


def _spaces(board: Drawable) -> list[Primitive]:
    out: list[Primitive] = []
    for p in sorted(board):
        kind = board.space(p)
        out.append(Rect(p[0], p[1], 1, 1, space_key(kind), fill=SPACE_COLOURS[kind],
                        stroke=GRID, title=f"{space_name(p)} ({kind.name.lower()})"))
    return out


def _tiles(board: Drawable) -> list[Primitive]:
    out: list[Primitive] = []
    for (a, b, c, d), name in tile_outlines(board):
        out.append(Rect(a, b, c - a + 1, d - b + 1, "tile", stroke=TILE_INK, width=2,
                        dash="dotted", opacity=0.6))
        out.append(Text(a + 0.1, b + 0.1, name, "tile", TILE_INK, 0.28, "start", "top"))
    return out


def _marked_space(p: Point, role: str) -> Rect:
    if role in DIMMED_ROLES:    # a veil over the whole space
        return Rect(p[0], p[1], 1, 1, role_key(role), fill=ROLE_COLOURS[role], fill_opacity=DIM)
    if role in FILLED_ROLES:    # a graded scale: the inner square filled
        return Rect(p[0] + 0.1, p[1] + 0.1, 0.8, 0.8, role_key(role), fill=ROLE_COLOURS[role])
    hatched = role in HATCHED_ROLES
    return Rect(p[0] + 0.1, p[1] + 0.1, 0.8, 0.8, role_key(role), stroke=ROLE_COLOURS[role],
                width=3, hatch=hatched)


def _border_lines(name: str, found: Mapping[BorderKind, list[Segment]]) -> list[Primitive]:
    colour, width, dash, _ = MAP_STYLES[name]
    return [Line(a[0], a[1], b[0], b[1], f"border:{name}", colour, width, dash)
            for kind in BORDER_GROUPS[name] for a, b in found[kind]]


def _arrow(inside: Point, outside: Point) -> Polyline:
    """The direction symbol: a triangle on the edge pointing off the tile."""
    (a, b) = border_segment(inside, outside)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    ox, oy = outside[0] - inside[0], outside[1] - inside[1]
    tip = (mx + 0.22 * ox, my + 0.22 * oy)
    left = (mx - 0.16 * ox - 0.19 * oy, my - 0.16 * oy + 0.19 * ox)
    right = (mx - 0.16 * ox + 0.19 * oy, my - 0.16 * oy - 0.19 * ox)
    return Polyline((tip, left, right), "direction", UNIT_FILL, 1, closed=True,
                    fill=DIRECTION_INK)


def _units(board: Drawable, sides: dict[str, str]) -> list[Primitive]:
    out: list[Primitive] = []
    for p, unit in sorted((p, u) for u, p in board.units().items()):
        side = sides.get(unit, "unit")
        out.append(Circle(p[0] + 0.5, p[1] + 0.5, 0.34, f"unit:{side}", UNIT_FILL,
                          SIDE_COLOURS[side], 2))
        out.append(Text(p[0] + 0.5, p[1] + 0.5, unit, "letter", UNIT_INK, 0.42, bold=True))
    return out


def legend(scene: Scene) -> tuple[tuple[str, str, str, str], ...]:
    """What the scene shows, once each in first-drawn order: ``(key, colour, look, words)``.

    The axis letters, the grid and units' letters explain themselves and are left out; a
    role drawn as a line or a ✕ is sampled as such (``line``, ``mark``).
    """
    seen: dict[str, tuple[str, str, str, str]] = {}
    for item in scene.items:
        if item.key in seen or item.key in ("axis", "grid", "letter"):
            continue
        style = STYLES[item.key]
        look = style.look
        if item.key.startswith("role:") and not isinstance(item, Rect):
            look = "line" if isinstance(item, Line) else "mark"
        seen[item.key] = (item.key, style.colour, look, style.words)
    return tuple(seen.values())


_DASHES = {"solid": "", "dashed": "7 5", "dotted": "1 6"}
_ANCHOR_DY = {"top": "0.8em", "middle": "0.35em", "bottom": "0"}
_ids = itertools.count(1)


def svg(scene: Scene, px: int = 32, css: str = "board-svg") -> str:
    """``scene`` as SVG text, ``px`` pixels a space, the ``<svg>`` element of class ``css``.

    Texts are never under 9 pixels high; hatches are patterns unique to this picture.
    """
    x0, y0, x1, y1 = scene.bounds
    width, height = (x1 - x0) * px, (y1 - y0) * px
    serial = next(_ids)
    pen = _Pen(px, x0, y0, serial)
    hatched = sorted({i.stroke for i in scene.items if isinstance(i, Rect) and i.hatch})
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='{html.escape(css)}' "
             f"width='{width:.0f}' height='{height:.0f}' viewBox='0 0 {width:.0f} {height:.0f}' "
             "font-family='sans-serif' role='img'><defs>",
             *(pen.pattern(c) for c in hatched), "</defs>"]
    parts += [pen.item(i) for i in scene.items]
    return "".join(parts) + "</svg>"


class _Pen:
    """Board units to pixels, and the SVG of each primitive."""

    def __init__(self, px: int, x0: float, y0: float, serial: int):
        self.px, self.x0, self.y0, self.serial = px, x0, y0, serial

    def x(self, x: float) -> str:
        return f"{(x - self.x0) * self.px:.1f}"

    def y(self, y: float) -> str:
        return f"{(y - self.y0) * self.px:.1f}"

    def hatch_id(self, colour: str) -> str:
        return f"hatch{self.serial}-{colour.lstrip('#')}"

    def pattern(self, colour: str) -> str:
        return (f"<pattern id='{self.hatch_id(colour)}' width='5' height='5' "
                "patternUnits='userSpaceOnUse' patternTransform='rotate(45)'><line x1='0' y1='0' "
                f"x2='0' y2='5' stroke='{colour}' stroke-width='2' stroke-opacity='0.9'/>"
                "</pattern>")

    @staticmethod
    def stroke(colour: str, width: float, dash: str = "solid") -> str:
        if not colour:
            return "stroke='none'"
        dashes = _DASHES.get(dash, "")
        return (f"stroke='{colour}' stroke-width='{width:g}'"
                + (f" stroke-dasharray='{dashes}'" if dashes else ""))

    def item(self, i: Primitive) -> str:
        if isinstance(i, Rect):
            return self.rect(i)
        if isinstance(i, Line):
            return (f"<line x1='{self.x(i.x0)}' y1='{self.y(i.y0)}' x2='{self.x(i.x1)}' "
                    f"y2='{self.y(i.y1)}' {self.stroke(i.colour, i.width, i.dash)} "
                    "stroke-linecap='round'/>")
        if isinstance(i, Polyline):
            points = " ".join(f"{self.x(x)},{self.y(y)}" for x, y in i.points)
            tag = "polygon" if i.closed else "polyline"
            return (f"<{tag} points='{points}' fill='{i.fill or 'none'}' "
                    f"{self.stroke(i.colour, i.width)} stroke-linejoin='round'/>")
        if isinstance(i, Circle):
            return (f"<circle cx='{self.x(i.x)}' cy='{self.y(i.y)}' r='{i.r * self.px:.1f}' "
                    f"fill='{i.fill}' {self.stroke(i.stroke, i.width)}/>")
        return self.text(i)

    def rect(self, i: Rect) -> str:
        fill = f"url(#{self.hatch_id(i.stroke)})" if i.hatch else (i.fill or "none")
        stroke = self.stroke("" if i.hatch else i.stroke, i.width, i.dash)
        opacity = f" stroke-opacity='{i.opacity:g}'" if i.opacity != 1 else ""
        opacity += f" fill-opacity='{i.fill_opacity:g}'" if i.fill_opacity != 1 else ""
        title = f"<title>{html.escape(i.title)}</title>" if i.title else ""
        return (f"<rect x='{self.x(i.x)}' y='{self.y(i.y)}' width='{i.w * self.px:.1f}' "
                f"height='{i.h * self.px:.1f}' fill='{fill}' {stroke}{opacity}>{title}</rect>")

    def text(self, i: Text) -> str:
        size = max(9.0, i.size * self.px)
        weight = " font-weight='bold'" if i.bold else ""
        return (f"<text x='{self.x(i.x)}' y='{self.y(i.y)}' dy='{_ANCHOR_DY[i.baseline]}' "
                f"font-size='{size:.0f}' fill='{i.colour}' text-anchor='{i.anchor}'{weight}>"
                f"{html.escape(i.text)}</text>")
