"""The board view: a map drawn with bokeh, clicked in ipywidgets.

Drawing is a pure function, :func:`render_board` ``(layout, highlights) ->
(figure, sources)``: the figure is built once and every later change (a click,
a new overlay) only assigns ``source.data``. What a click shows is an *overlay*:
a function ``overlay(layout, rules, selected) -> Highlights`` from the selected
space (under the rulings in force) to the spaces and lines to mark and the
verdict in words. :func:`neighbours` is the
first one (the 8 spaces around, naming the border crossed); line of sight, reach
and paths plug in the same way (``BoardView(layout, overlay=...)``).

Coordinates are the map text's: ``(x, y)``, x the column from the west and y the
row from the north; space ``(x, y)`` covers ``[x, x+1] x [y, y+1]``. The plot's
y axis runs downwards so the picture reads like the map text.

Rules: manual p11 (map tiles), p35-37 (map elements), p22 (doors).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Callable

import ipywidgets as widgets
import traitlets
from bokeh.events import Tap
from bokeh.models import (ColumnDataSource, FixedTicker, HoverTool, Legend, Range1d)
from bokeh.plotting import figure as new_figure
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.views import setup_notebook

__all__ = ["SPACE_COLOURS", "ROLE_COLOURS", "Highlights", "Overlay", "render_board",
           "highlight_data", "neighbours", "BoardView"]

#: Fill colour of each space kind (the legend names them in words).
SPACE_COLOURS: dict[SpaceKind, str] = {
    SpaceKind.FLOOR: "#ece6d6",
    SpaceKind.TRAPPED: "#f2a541",
    SpaceKind.PIT: "#1f1f1f",
    SpaceKind.SPAWN: "#c62828",
    SpaceKind.RUBBLE: "#8d8170",
    SpaceKind.BARREL: "#e65100",
    SpaceKind.CHEST: "#b8860b",
    SpaceKind.EVENT: "#7e57c2",
    SpaceKind.WORKBENCH: "#689f38",
    SpaceKind.RECHARGE: "#0288d1",
    SpaceKind.LEVER: "#a1887f",
    SpaceKind.CHAPTER: "#303f9f",
    SpaceKind.DESTROYED: "#5d4037",
    SpaceKind.UNIDENTIFIABLE: "#b0bec5",
}

#: Colour of each overlay role; later overlays (sight, reach, paths) add theirs here.
ROLE_COLOURS: dict[str, str] = {
    "selected": "#ffd600",
    "neighbour": "#00b8d4",
    "border": "#ff1744",
}

_BORDER_WORDS = {
    BorderKind.OPEN: "open",
    BorderKind.WALL: "wall",
    BorderKind.DOOR_OPEN: "open door",
    BorderKind.DOOR_CLOSED: "closed door",
    BorderKind.DOOR_DESTROYED: "destroyed door",
}

# Compass directions as (name, dx, dy); y grows to the south.
_COMPASS = (("N", 0, -1), ("NE", 1, -1), ("E", 1, 0), ("SE", 1, 1),
            ("S", 0, 1), ("SW", -1, 1), ("W", -1, 0), ("NW", -1, -1))

_PX_PER_SPACE = 36

Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Highlights:
    """What an overlay marks: spaces by role, line segments by role, the verdict in words.

    Roles are keys of :data:`ROLE_COLOURS`; ``verdict`` is plain text, one line per item.
    """

    spaces: tuple[tuple[Point, str], ...] = ()
    lines: tuple[tuple[Segment, str], ...] = ()
    verdict: tuple[str, ...] = ()

    def __post_init__(self):
        for _, role in self.spaces + self.lines:
            if role not in ROLE_COLOURS:
                raise ValueError(f"highlights: unknown role {role!r}; expected one of "
                                 f"{', '.join(ROLE_COLOURS)}")


#: An overlay: from the map, the rulings and the selected space to what to mark.
Overlay = Callable[[Layout, Rules, Point], Highlights]


def _kind_word(kind: SpaceKind) -> str:
    return kind.name.lower()


def _space_words(layout: Layout, point: Point) -> str:
    x, y = point
    unit = layout.unit_at(x, y)
    return f"({x}, {y}) {_kind_word(layout.space(x, y))}" + (f", unit {unit}" if unit else "")


def neighbours(layout: Layout, rules: Rules, selected: Point) -> Highlights:
    """The selected space and its 8 neighbours, naming the border crossed to each.

    A placeholder overlay until line of sight and reach land; it reads the map
    only and decides nothing, so ``rules`` is unused.

    >>> from machina_nb.rules.maptext import parse_map
    >>> h = neighbours(parse_map("+-+-+\\n|.|o|\\n+-+-+\\n"), Rules(), (0, 0))
    >>> h.verdict
    ('Space (0, 0) floor', 'E (1, 0) pit: wall')

    Rules: manual p35-36 (walls and doors between spaces).
    """
    x, y = selected
    spaces: list[tuple[Point, str]] = [(selected, "selected")]
    lines: list[tuple[Segment, str]] = []
    verdict = [f"Space {_space_words(layout, selected)}"]
    for name, dx, dy in _COMPASS:
        other = (x + dx, y + dy)
        if not (0 <= other[0] < layout.width and 0 <= other[1] < layout.height):
            continue
        spaces.append((other, "neighbour"))
        if dx and dy:
            verdict.append(f"{name} {_space_words(layout, other)}: across a corner")
            continue
        verdict.append(f"{name} {_space_words(layout, other)}: "
                       f"{_BORDER_WORDS[layout.border(selected, other)]}")
        lines.append((_border_segment(selected, other), "border"))
    return Highlights(tuple(spaces), tuple(lines), tuple(verdict))


def _border_segment(a: Point, b: Point) -> Segment:
    """The segment between orthogonal neighbours ``a`` and ``b``."""
    (ax, ay), (bx, by) = a, b
    if ay == by:
        x = max(ax, bx)
        return (x, ay), (x, ay + 1)
    y = max(ay, by)
    return (ax, y), (ax + 1, y)


def _segments(segments: list[Segment]) -> dict[str, list[float]]:
    return {"x0": [s[0][0] for s in segments], "y0": [s[0][1] for s in segments],
            "x1": [s[1][0] for s in segments], "y1": [s[1][1] for s in segments]}


def _borders(layout: Layout) -> dict[BorderKind, list[tuple[Segment, str]]]:
    """Every border segment by kind, with the outward side for ring borders ('' inside)."""
    found: dict[BorderKind, list[tuple[Segment, str]]] = {kind: [] for kind in BorderKind}
    w, h = layout.width, layout.height
    for y in range(h):
        for x in range(w + 1):
            side = "W" if x == 0 else "E" if x == w else ""
            found[layout.vertical[y][x]].append((((x, y), (x, y + 1)), side))
    for y in range(h + 1):
        for x in range(w):
            side = "N" if y == 0 else "S" if y == h else ""
            found[layout.horizontal[y][x]].append((((x, y), (x + 1, y)), side))
    return found


# Screen angle (counter-clockwise, radians) pointing a triangle marker out of each side.
_OUTWARD = {"N": 0.0, "W": math.pi / 2, "S": math.pi, "E": -math.pi / 2}


def highlight_data(highlights: Highlights) -> dict[str, dict[str, list]]:
    """The overlay sources' data for ``highlights`` (keys ``overlay`` and ``overlay_lines``)."""
    spaces = highlights.spaces
    lines = highlights.lines
    return {
        "overlay": {"x": [p[0] + 0.5 for p, _ in spaces], "y": [p[1] + 0.5 for p, _ in spaces],
                    "role": [role for _, role in spaces],
                    "colour": [ROLE_COLOURS[role] for _, role in spaces]},
        "overlay_lines": {**_segments([segment for segment, _ in lines]),
                          "role": [role for _, role in lines],
                          "colour": [ROLE_COLOURS[role] for _, role in lines]},
    }


def render_board(layout: Layout, highlights: Highlights = Highlights()):
    """Draw ``layout`` with ``highlights`` on top; return ``(figure, sources)``.

    ``sources`` maps a name to its ``ColumnDataSource``: ``spaces``, ``walls``
    (walls and the tile boundary), ``door_open``, ``door_closed``,
    ``door_destroyed``, ``edges``, ``direction``, ``units``, ``overlay`` and
    ``overlay_lines``. Change what is shown by assigning ``sources[name].data``.

    Rules: manual p11 (edges, direction symbol), p35-37 (space kinds), p22 (doors).
    """
    w, h = layout.width, layout.height
    points = [(x, y) for y in range(h) for x in range(w)]
    borders = _borders(layout)
    ring_edges = borders[BorderKind.EDGE] + borders[BorderKind.DIRECTION]
    units = [(letter, point) for letter, point in layout.units]
    data = {
        "spaces": {
            "x": [x + 0.5 for x, _ in points], "y": [y + 0.5 for _, y in points],
            "kind": [_kind_word(layout.space(*p)) for p in points],
            "colour": [SPACE_COLOURS[layout.space(*p)] for p in points],
            "coords": [f"({x}, {y})" for x, y in points],
            "unit": [layout.unit_at(*p) or "" for p in points],
        },
        "walls": _segments([s for s, _ in borders[BorderKind.WALL] + borders[BorderKind.BOUNDARY]]),
        "door_open": _segments([s for s, _ in borders[BorderKind.DOOR_OPEN]]),
        "door_closed": _segments([s for s, _ in borders[BorderKind.DOOR_CLOSED]]),
        "door_destroyed": _segments([s for s, _ in borders[BorderKind.DOOR_DESTROYED]]),
        "edges": _segments([s for s, _ in ring_edges]),
        "direction": {
            "x": [(a[0] + b[0]) / 2 for (a, b), _ in borders[BorderKind.DIRECTION]],
            "y": [(a[1] + b[1]) / 2 for (a, b), _ in borders[BorderKind.DIRECTION]],
            "angle": [_OUTWARD[side] for _, side in borders[BorderKind.DIRECTION]],
        },
        "units": {"x": [p[0] + 0.5 for _, p in units], "y": [p[1] + 0.5 for _, p in units],
                  "letter": [letter for letter, _ in units]},
        **highlight_data(highlights),
    }
    sources = {name: ColumnDataSource(columns, name=name) for name, columns in data.items()}

    fig = new_figure(
        frame_width=_PX_PER_SPACE * w, frame_height=_PX_PER_SPACE * h,
        x_range=Range1d(-0.3, w + 0.3), y_range=Range1d(h + 0.3, -0.3),  # y grows south
        tools="", toolbar_location=None, x_axis_location="above",
        background_fill_color="#fafafa", name="board",
    )
    fig.grid.visible = False
    for axis, n in ((fig.xaxis, w), (fig.yaxis, h)):
        axis.ticker = FixedTicker(ticks=[i + 0.5 for i in range(n)])
        axis.major_label_overrides = {i + 0.5: str(i) for i in range(n)}
        axis.major_tick_line_color = None
        axis.minor_tick_line_color = None
    fig.add_layout(Legend(location="top_left", label_text_font_size="9pt", spacing=0), "right")

    spaces = fig.rect("x", "y", 1, 1, source=sources["spaces"], fill_color="colour",
                      line_color="#c8c0ad", line_width=1, legend_field="kind")
    fig.rect("x", "y", 1, 1, source=sources["overlay"], fill_color="colour", fill_alpha=0.45,
             line_color="colour", line_width=3)
    fig.segment("x0", "y0", "x1", "y1", source=sources["walls"], line_color="#212121",
                line_width=6, line_cap="round", legend_label="wall")
    fig.segment("x0", "y0", "x1", "y1", source=sources["edges"], line_color="#2e7d32",
                line_width=6, legend_label="edge")
    fig.scatter("x", "y", source=sources["direction"], marker="triangle", angle="angle",
                size=14, fill_color="#2e7d32", line_color="white", legend_label="direction symbol")
    fig.segment("x0", "y0", "x1", "y1", source=sources["door_closed"], line_color="#6d4c41",
                line_width=8, legend_label="door (closed)")
    fig.segment("x0", "y0", "x1", "y1", source=sources["door_open"], line_color="#6d4c41",
                line_width=3, line_dash="dashed", legend_label="door (open)")
    fig.segment("x0", "y0", "x1", "y1", source=sources["door_destroyed"], line_color="#d32f2f",
                line_width=3, line_dash="dotted", legend_label="door (destroyed)")
    fig.segment("x0", "y0", "x1", "y1", source=sources["overlay_lines"], line_color="colour",
                line_width=4)
    fig.scatter("x", "y", source=sources["units"], size=24, fill_color="white",
                line_color="#212121", line_width=2, legend_label="unit")
    fig.text("x", "y", text="letter", source=sources["units"], text_align="center",
             text_baseline="middle", text_font_style="bold", text_font_size="12pt")
    fig.add_tools(HoverTool(renderers=[spaces], tooltips=[
        ("space", "@coords"), ("kind", "@kind"), ("unit", "@unit")]))
    return fig, sources


class BoardView(widgets.VBox):
    """The board in a notebook: click a space to select it and see the overlay's verdict.

    ``overlay`` (default :func:`neighbours`) turns the selected space into what to
    mark under ``rules``; assigning ``view.rules`` or ``view.overlay`` redraws it.
    The plot and the verdict carry the CSS classes ``board-plot`` and
    ``board-verdict`` (stable selectors for browser tests).
    """

    selected = traitlets.Tuple(default_value=None, allow_none=True)
    rules = traitlets.Instance(Rules)
    overlay = traitlets.Callable()

    def __init__(self, layout: Layout, rules: Rules | None = None,
                 overlay: Overlay = neighbours, **kwargs):
        setup_notebook()
        self.board_layout = layout
        self.figure, self.sources = render_board(layout)
        self.figure.on_event(Tap, self.on_tap)
        self.plot = BokehModel(self.figure)
        self.plot.add_class("board-plot")
        self.verdict = widgets.HTML("Click a space.")
        self.verdict.add_class("board-verdict")
        super().__init__([self.plot, self.verdict], rules=rules or Rules(), overlay=overlay,
                         **kwargs)

    @traitlets.observe("rules", "overlay")
    def _redraw(self, _change) -> None:
        if self.selected is not None:
            self.select(self.selected)

    def on_tap(self, event: Tap) -> None:
        """Select the space under a click (bokeh ``Tap`` in data coordinates); ignore the margin."""
        point = (math.floor(event.x), math.floor(event.y))
        if 0 <= point[0] < self.board_layout.width and 0 <= point[1] < self.board_layout.height:
            self.select(point)

    def select(self, point: Point) -> None:
        """Select ``point``: redraw the overlay (only ``source.data`` changes) and the verdict."""
        x, y = point
        if not (0 <= x < self.board_layout.width and 0 <= y < self.board_layout.height):
            raise ValueError(f"point: {point} is off the {self.board_layout.width}x"
                             f"{self.board_layout.height} board")
        highlights = self.overlay(self.board_layout, self.rules, (x, y))
        for name, data in highlight_data(highlights).items():
            self.sources[name].data = data
        self.verdict.value = "<br>".join(html.escape(line) for line in highlights.verdict)
        self.selected = (x, y)
