"""The board view: the joined board graph drawn with bokeh, clicked in ipywidgets.

Drawing is a pure function, :func:`render_board` ``(board, highlights) ->
(figure, sources)`` over a :class:`machina_nb.rules.board.graph.Board` (built from a
map text with ``Board.from_layout`` or from joined tiles with
``PlayArea.board()``): spaces, walls, doors, joined and unexplored tile edges,
tile outlines and units. The figure is built once; every later change (a
click, another overlay, other rulings) only assigns ``source.data`` and the
verdict text.

What a click shows is an *overlay* (:mod:`machina_nb.views.overlays`, its names
offered here too). Colours, line styles and legend words are the board wing's one
palette (:mod:`machina_nb.rules.board.palette`), the same the still pictures use
(:mod:`machina_nb.rules.board.drawing`).

Coordinates are the board's: ``(x, y)``, x the column from the west and y the
row from the north; space ``(x, y)`` covers ``[x, x+1] x [y, y+1]``. The plot's
y axis runs downwards so the picture reads like the map text.

Rules: manual p11 (map tiles), p22 (doors), p34 (joined edges), p35-37 (map elements).
"""

from __future__ import annotations

import html
import math
from dataclasses import replace
from typing import Any, Callable, Mapping, cast

import ipywidgets as widgets
import traitlets
from bokeh.events import DoubleTap, Tap
from bokeh.core.property.vectorization import Value
from bokeh.models import CDSView, ColumnDataSource, FixedTicker, GroupFilter, HoverTool, Range1d
from bokeh.models.annotations import Legend
from bokeh.plotting import figure as new_figure
from jupyter_bokeh.widgets import BokehModel

from machina_nb.rules.board.drawing import (BORDER_GROUPS, border_segment, borders, extent,
                                            tile_outlines)
from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.highlights import Highlights, Segment
from machina_nb.rules.board.labels import column_name, plain_text, space_name
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.board.palette import (DANGER_SCALE, DIM, DIMMED_ROLES, DIRECTION_INK,
                                            FILLED_ROLES, GRID,
                                            HATCHED_ROLES, LABEL_INK, MAP_STYLES, ROLE_COLOURS,
                                            POINT_WORDS, ROLE_WORDS, SPACE_COLOURS, STYLES, TILE_INK,
                                            UNIT_FILL, UNIT_INK)
from machina_nb.rules.board.playarea import PlayArea, place_tile
from machina_nb.rules.board.tiles import load_tiles
from machina_nb.rules.rulings import Rules
from machina_nb.rules.rulings_words import cite_words
from machina_nb.views import setup_notebook
from machina_nb.views.fit import fit_holder
from machina_nb.views.reference import RuleLinks, manual_links
from machina_nb.views.overlays import (OVERLAYS, Overlay, Pick, adjacent_overlay, closest_overlay,
                                       nearest_overlay, reach_overlay, sight_line_highlights,
                                       sight_overlay)

__all__ = ["space_pixels", "SPACE_COLOURS", "ROLE_COLOURS", "HATCHED_ROLES", "ROLE_WORDS", "MAP_STYLES",
           "space_name", "plain_text", "legend_html", "drawn_colours", "Pick", "Highlights", "Overlay", "OVERLAYS",
           "render_board", "drawn_space_pixels", "highlight_data", "sight_overlay", "sight_line_highlights", "reach_overlay",
           "nearest_overlay", "closest_overlay", "adjacent_overlay", "as_board", "BoardView",
           "SHIPPED_TILES", "SHIPPED_UNITS", "shipped_board", "board_data", "redraw_board"]



def as_board(board: Board | Layout) -> Board:
    """``board`` itself, or the board of a map text layout (``Board.from_layout``)."""
    return board if isinstance(board, Board) else Board.from_layout(board)


def _segments(segments: list[Segment]) -> dict[str, list[float]]:
    return {"x0": [s[0][0] for s in segments], "y0": [s[0][1] for s in segments],
            "x1": [s[1][0] for s in segments], "y1": [s[1][1] for s in segments]}


# Screen angle (counter-clockwise, radians; y drawn downwards) pointing out of each side.
_OUTWARD = {(0, -1): 0.0, (-1, 0): math.pi / 2, (0, 1): math.pi, (1, 0): -math.pi / 2}


def _tile_columns(board: Board) -> dict[str, list]:
    """Each map tile's outline (centre and size) and name, and where the name is written."""
    boxes = tile_outlines(board)
    return {"x": [(a + c + 1) / 2 for (a, _, c, _), _ in boxes],
            "y": [(b + d + 1) / 2 for (_, b, _, d), _ in boxes],
            "w": [c - a + 1 for (a, _, c, _), _ in boxes],
            "h": [d - b + 1 for (_, b, _, d), _ in boxes],
            "tile": [name for _, name in boxes], "lx": [box[0] + 0.1 for box, _ in boxes],
            "ly": [box[1] + 0.1 for box, _ in boxes]}


def _overlay_space_columns(spaces) -> dict[str, list]:
    """Columns of the overlay's spaces: an outline in the role's colour, a hatch or a veil."""
    return {"x": [p[0] + 0.5 for p, _ in spaces], "y": [p[1] + 0.5 for p, _ in spaces],
            "role": [role for _, role in spaces],
            "colour": [ROLE_COLOURS[role] for _, role in spaces],
            "edge": [_CLEAR if role in HATCHED_ROLES | DIMMED_ROLES | FILLED_ROLES
                     else ROLE_COLOURS[role] for _, role in spaces],
            "fill": [ROLE_COLOURS[role] if role in FILLED_ROLES else _CLEAR
                     for _, role in spaces],
            "filled": ["yes" if role in FILLED_ROLES else "no" for _, role in spaces],
            "hatch": ["/" if role in HATCHED_ROLES else " " for _, role in spaces]}


_CLEAR = "rgba(0, 0, 0, 0)"


def highlight_data(highlights: Highlights) -> dict[str, dict[str, list]]:
    """The overlay sources' data for ``highlights``.

    Keys ``overlay`` (spaces), ``overlay_lines``, ``overlay_points`` and ``overlay_labels``.
    """
    lines, points = highlights.lines, highlights.points
    return {
        "overlay": _overlay_space_columns(highlights.spaces),
        "overlay_lines": {**_segments([segment for segment, _ in lines]),
                          "role": [role for _, role in lines],
                          "colour": [ROLE_COLOURS[role] for _, role in lines]},
        "overlay_points": {"x": [p[0] for p, _ in points], "y": [p[1] for p, _ in points],
                           "role": [role for _, role in points],
                           "colour": [ROLE_COLOURS[role] for _, role in points]},
        # labels in the space's south-east corner, clear of a unit's letter
        "overlay_labels": {"x": [p[0] + 0.95 for p, _ in highlights.labels],
                           "y": [p[1] + 0.97 for p, _ in highlights.labels],
                           "text": [text for _, text in highlights.labels],
                           "colour": _label_inks(highlights)},
    }


def _dark(colour: str) -> bool:
    """Whether ``colour`` (``#rrggbb``) is dark enough that dark text on it is hard to read."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue < 128


def _label_inks(highlights: Highlights) -> list[str]:
    """The ink of each label: the label ink, or white on a space filled dark."""
    filled = {p: ROLE_COLOURS[role] for p, role in highlights.spaces if role in FILLED_ROLES}
    return [UNIT_FILL if p in filled and _dark(filled[p]) else LABEL_INK
            for p, _ in highlights.labels]


_SWATCH = "display:inline-block;width:18px;height:18px;vertical-align:middle;margin-right:6px;"


def _swatch(colour: str, style: str) -> str:
    """A legend sample drawn the way the board draws it: fill, outline, hatch, line or mark."""
    if style == "fill":
        look = f"background:{colour};border:1px solid {GRID};"
    elif style == "outline":
        look = f"border:3px solid {colour};box-sizing:border-box;"
    elif style == "dim":    # a floor space under the veil
        look = (f"background:linear-gradient({_veil(colour)},{_veil(colour)}),"
                f"{SPACE_COLOURS[SpaceKind.FLOOR]};border:1px solid {GRID};")
    elif style == "hatch":
        look = (f"background:repeating-linear-gradient(135deg,{colour} 0 2px,transparent 2px 6px);"
                f"border:1px solid {GRID};")
    elif style.startswith("line"):
        dash = style.split(":")[1] if ":" in style else "solid"
        look = f"height:0;width:22px;border-top:5px {dash} {colour};"
    else:  # a mark or text: the character itself in the colour
        return (f"<span class='legend-swatch' data-colour='{colour}' style='{_SWATCH}"
                f"color:{colour};font-weight:bold;text-align:center'>{html.escape(style)}</span>")
    return f"<span class='legend-swatch' data-colour='{colour}' style='{_SWATCH}{look}'></span>"


def _veil(colour: str) -> str:
    """``colour`` as a CSS colour :data:`DIM` opaque."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{DIM})"


def _entry(colour: str, style: str, words: str) -> str:
    return (f"<div class='legend-entry'>{_swatch(colour, style)}"
            f"<span>{html.escape(words)}</span></div>")


def _columns(source) -> Mapping[str, list]:
    """A plot source's columns: a ``ColumnDataSource``'s data, or the columns themselves."""
    return getattr(source, "data", source)


def _has(sources, name: str) -> bool:
    data = _columns(sources[name])
    return bool(len(next(iter(data.values()), ())))


def legend_html(sources, names: Mapping[str, str] | None = None) -> str:
    """The legend beside a board: one entry per colour drawn now, read from the plot's sources.

    ``sources`` maps each source name of :func:`render_board` to its ``ColumnDataSource`` or
    to its columns (:func:`board_data` and :func:`highlight_data` give them). Space kinds
    present, the borders and marks present, each unit by name (``names``: letter -> name)
    and each overlay role in use with what it means (:data:`ROLE_WORDS`). Every sample
    carries ``data-colour`` with the colour it stands for.
    """
    names = names or {}
    parts = ["<div class='board-legend-body'>"]
    roles = []
    for name in ("overlay", "overlay_lines", "overlay_points"):
        for role in _columns(sources[name]).get("role", []):
            if (name, role) not in roles:
                roles.append((name, role))
    if any(role in FILLED_ROLES for _, role in roles):   # a graded scale: every step of it
        first = next(i for i, (_, role) in enumerate(roles) if role in FILLED_ROLES)
        scale = [("overlay", role) for role, _, _, _ in DANGER_SCALE]
        roles = [r for r in roles[:first] if r[1] not in FILLED_ROLES] + scale + \
            [r for r in roles[first:] if r[1] not in FILLED_ROLES]
    if roles or _has(sources, "overlay_labels"):
        parts.append("<b>What is marked</b>")
        for source, role in roles:
            style = {"overlay": "hatch" if role in HATCHED_ROLES else
                     "dim" if role in DIMMED_ROLES else
                     "fill" if role in FILLED_ROLES else "outline",
                     "overlay_lines": "line", "overlay_points": "✕"}[source]
            words = POINT_WORDS.get(role, ROLE_WORDS[role]) if style == "✕" else ROLE_WORDS[role]
            parts.append(_entry(ROLE_COLOURS[role], style, words))
        if _has(sources, "overlay_labels"):
            parts.append(_entry(LABEL_INK, "3", STYLES["label"].words))
    if _has(sources, "units"):
        parts.append("<b>Units</b>")
        for letter in sorted(set(_columns(sources["units"])["letter"])):
            who = names.get(letter, f"unit {letter}")
            parts.append(f"<div class='legend-entry legend-unit'><span style='{_SWATCH}"
                         f"border:2px solid {UNIT_INK};border-radius:50%;text-align:center;"
                         f"font-weight:bold;line-height:14px'>{html.escape(letter)}</span>"
                         f"<span>{html.escape(who)}</span></div>")
    parts.append("<b>Spaces</b>")
    spaces = _columns(sources["spaces"])
    kinds = dict(zip(spaces["kind"], spaces["colour"]))
    parts += [_entry(colour, "fill", kind) for kind, colour in sorted(kinds.items())]
    marks = [(name, style) for name, style in MAP_STYLES.items() if _has(sources, name)]
    if marks or _has(sources, "tiles") or _has(sources, "direction"):
        parts.append("<b>Borders</b>")
        parts += [_entry(colour, f"line:{dash}", words)
                  for _, (colour, _width, dash, words) in marks]
        if _has(sources, "direction"):
            parts.append(_entry(DIRECTION_INK, "▲", STYLES["direction"].words))
        if _has(sources, "tiles"):
            parts.append(_entry(TILE_INK, "line:dotted", STYLES["tile"].words))
    return "".join(parts) + "</div>"


def drawn_colours(sources) -> set[str]:
    """Every colour the board's glyphs draw now (the legend must explain each)."""
    found = set(_columns(sources["spaces"])["colour"])
    for name in ("overlay", "overlay_lines", "overlay_points"):
        found |= set(_columns(sources[name])["colour"])
    found |= {MAP_STYLES[name][0] for name in MAP_STYLES if _has(sources, name)}
    if _has(sources, "overlay_labels"):
        found.add(LABEL_INK)
    if _has(sources, "tiles"):
        found.add(TILE_INK)
    if _has(sources, "direction"):
        found.add(DIRECTION_INK)
    return found


def board_data(board: Board) -> dict[str, dict[str, list]]:
    """The map's sources' data: spaces, tile outlines, walls, doors, edges, direction, units.

    Rules: manual p11 (tiles, edges, direction symbol), p34 (joined edges), p35-37 (space kinds), p22 (doors).
    """
    points = sorted(board)
    found, arrows = borders(board)
    units = sorted((p, u) for u, p in board.units().items())
    return {
        "spaces": {
            "x": [x + 0.5 for x, _ in points], "y": [y + 0.5 for _, y in points],
            "kind": [board.space(p).name.lower() for p in points],
            "colour": [SPACE_COLOURS[board.space(p)] for p in points],
            "coords": [space_name(p) for p in points],
            "tile": [board.tile_of(p) or "" for p in points],
            "unit": [board.unit_at(p) or "" for p in points],
        },
        "tiles": _tile_columns(board),
        **{name: _segments([seg for kind in kinds for seg in found[kind]])
           for name, kinds in BORDER_GROUPS.items()},
        "direction": {
            "x": [(border_segment(p, q)[0][0] + border_segment(p, q)[1][0]) / 2 for p, q in arrows],
            "y": [(border_segment(p, q)[0][1] + border_segment(p, q)[1][1]) / 2 for p, q in arrows],
            "angle": [_OUTWARD[(q[0] - p[0], q[1] - p[1])] for p, q in arrows],
        },
        "units": {"x": [p[0] + 0.5 for p, _ in units], "y": [p[1] + 0.5 for p, _ in units],
                  "letter": [u for _, u in units]},
    }


def redraw_board(figure, sources, board: Board, px_per_space: int | None = None) -> None:
    """Show ``board`` in a figure made by :func:`render_board`: its map sources and ranges,
    ``px_per_space`` pixels a space (default: as drawn so far).

    Overlays are left as they are. Used when the map changes under a view (a door
    destroyed, a token placed, a tile explored, a board edited).
    Rules: manual p22 (doors), p34 (exploring), p35-36 (tokens).
    """
    for name, columns in board_data(board).items():
        sources[name].data = columns
    _legend_shown(figure)
    _frame(figure, board, px_per_space or drawn_space_pixels(figure))


def _legend_shown(figure) -> None:
    """Show a legend entry only while its glyph is on the board (an empty one draws no sample)."""
    for legend in figure.legend:
        for item in legend.items:
            if isinstance(item.label, Value):
                item.visible = any(len(next(iter(r.data_source.data.values()), ()))
                                   for r in item.renderers)


#: Pixels beside the frame (row numbers on the left) and above it (column letters).
_AXES = (40, 30)


def drawn_space_pixels(figure) -> int:
    """Pixels a side of a space in a figure of :func:`render_board` at its full size (on a
    window narrower than the figure it shrinks, keeping its shape)."""
    frame = figure.frame_width or figure.width - _AXES[0]
    return round(frame / (figure.x_range.end - figure.x_range.start - 0.6))


def _frame(figure, board: Board, px: int) -> None:
    """Fit the figure's ranges, size and axis ticks to the board, ``px`` pixels a space.

    The figure scales to the width it is given, never past ``px`` a space: on a phone the
    whole board is in view and a tap still lands on its space. With bokeh's own legend
    beside the frame, the frame keeps a fixed size instead."""
    x0, y0, x1, y1 = extent(board)
    figure.x_range.update(start=x0 - 0.3, end=x1 + 0.3)
    figure.y_range.update(start=y1 + 0.3, end=y0 - 0.3)  # y grows south
    frame_width, frame_height = px * (x1 - x0), px * (y1 - y0)
    if figure.legend:
        figure.update(frame_width=frame_width, frame_height=frame_height)
    else:
        width = frame_width + _AXES[0]
        figure.update(width=width, height=frame_height + _AXES[1], max_width=width,
                      sizing_mode="scale_width")
    for axis, lo, hi, label in ((figure.xaxis, x0, x1, column_name),
                                (figure.yaxis, y0, y1, lambda i: str(i + 1))):
        ticks = [i + 0.5 for i in range(lo, hi)]
        axis.ticker = FixedTicker(ticks=ticks)
        axis.major_label_overrides = {t: label(int(t - 0.5)) for t in ticks}


def space_pixels(board: Board, width: int = 660) -> int:
    """Pixels a side of a space: the board fills about ``width`` pixels, never under 32 or
    over 64 a space."""
    x0, y0, x1, y1 = extent(board)
    return max(32, min(64, width // max(x1 - x0, y1 - y0, 1)))


def render_board(board: Board | Layout, highlights: Highlights = Highlights(), *,
                 px_per_space: int | None = None, legend: bool = False):
    """Draw ``board`` with ``highlights`` on top; return ``(figure, sources)``.

    ``sources`` maps a name to its ``ColumnDataSource``: ``spaces``, ``tiles``
    (outlines), ``walls`` (walls and tile boundaries), ``door_open``,
    ``door_closed``, ``door_destroyed``, ``joined`` (tile edges joined to
    another tile), ``edges`` (unexplored), ``direction``, ``units`` and the
    overlay sources of :func:`highlight_data`. Change what is shown by
    assigning ``sources[name].data`` (or :func:`redraw_board`). The legend is
    :func:`legend_html` beside the plot; ``legend=True`` also draws bokeh's own
    (space kinds and borders) inside the figure.

    Rules: manual p11 (tiles, edges, direction symbol), p34 (joined edges), p35-37 (space kinds), p22 (doors).
    """
    board = as_board(board)
    x0, y0, x1, y1 = extent(board)
    w, h = x1 - x0, y1 - y0
    px = px_per_space or space_pixels(board)
    data = {**board_data(board), **highlight_data(highlights)}
    sources = {name: ColumnDataSource(columns, name=name) for name, columns in data.items()}

    fig = new_figure(tools="", toolbar_location=None, x_axis_location="above",
                     x_range=Range1d(), y_range=Range1d(),
                     background_fill_color="#fafafa", name="board", min_border_left=_AXES[0],
                     min_border_top=_AXES[1], min_border_right=0, min_border_bottom=0)
    fig.grid.visible = False
    for axis in (fig.xaxis, fig.yaxis):
        axis.major_tick_line_color = None
        axis.minor_tick_line_color = None
        axis.major_label_text_font_size = "10pt"
    if legend:
        # Enough rows to fit the frame's height, more columns when needed: never clipped.
        rows = max(4, (px * h) // 19)
        fig.add_layout(Legend(location="top_left", label_text_font_size="9pt", spacing=0,
                              padding=4,  # type: ignore[arg-type]  # the stub wants a Property
                              nrows=rows, glyph_height=16, label_height=16), "right")

    _frame(fig, board, px)

    def key(label: str) -> dict:
        return {"legend_label": label} if legend else {}

    spaces = fig.rect("x", "y", 1, 1, source=sources["spaces"], fill_color="colour",
                      line_color=GRID, line_width=1,
                      **cast("dict[str, Any]", {"legend_field": "kind"} if legend else {}))
    fig.rect("x", "y", "w", "h", source=sources["tiles"], fill_color=None, line_color=TILE_INK,
             line_width=2, line_alpha=0.6, line_dash="dotted")
    fig.text("lx", "ly", text="tile", source=sources["tiles"], text_font_size="8pt",
             text_color=TILE_INK, text_baseline="top", text_alpha=0.8)
    _overlay_spaces(fig, sources["overlay"])
    for name in ("walls", "joined", "edges"):
        colour, width, dash, words = MAP_STYLES[name]
        fig.segment("x0", "y0", "x1", "y1", source=sources[name], line_color=colour,
                    line_width=width, line_dash=dash, line_cap="round", **key(words))
    fig.scatter("x", "y", source=sources["direction"], marker="triangle", angle="angle",
                size=14, fill_color=DIRECTION_INK, line_color=UNIT_FILL,
                **key(STYLES["direction"].words))
    for name in ("door_closed", "door_open", "door_destroyed"):
        colour, width, dash, words = MAP_STYLES[name]
        fig.segment("x0", "y0", "x1", "y1", source=sources[name], line_color=colour,
                    line_width=width, line_dash=dash, **key(words))
    fig.segment("x0", "y0", "x1", "y1", source=sources["overlay_lines"], line_color="colour",
                line_width=4)
    # a unit's disc in board units: it shrinks with the board on a narrow window
    fig.circle("x", "y", radius=0.28, source=sources["units"], fill_color="white",
               line_color=UNIT_INK, line_width=2, **key("unit"))
    fig.text("x", "y", text="letter", source=sources["units"], text_align="center",
             text_baseline="middle", text_font_style="bold", text_font_size="11pt")
    fig.text("x", "y", text="text", source=sources["overlay_labels"], text_align="right",
             text_baseline="bottom", text_font_size="9pt", text_font_style="bold",
             text_color="colour")
    fig.scatter("x", "y", source=sources["overlay_points"], marker="x", size=16,
                line_color="colour", line_width=4)
    fig.add_tools(HoverTool(renderers=[spaces], tooltips=[
        ("space", "@coords"), ("kind", "@kind"), ("tile", "@tile"), ("unit", "@unit")]))
    _legend_shown(fig)
    return fig, sources


def _overlay_spaces(fig, source: ColumnDataSource) -> None:
    """The overlay's spaces: an outline inside the space, a hatch or a veil over it, so the
    space kind shows beneath; a graded scale fills the inner square. One renderer per hatched role, its colour fixed: BokehJS builds a hatch pattern
    for every space when the pattern or its colour varies by row (seconds on a 40x40 board)."""
    fig.rect("x", "y", 0.8, 0.8, source=source, fill_color=None, line_color="edge", line_width=3,
             view=CDSView(filter=GroupFilter(column_name="hatch", group=" ")))
    fig.rect("x", "y", 0.8, 0.8, source=source, fill_color="fill", line_color=DANGER_SCALE[4][2],
             line_width=1, view=CDSView(filter=GroupFilter(column_name="filled", group="yes")))
    for role in sorted(DIMMED_ROLES):
        fig.rect("x", "y", 1, 1, source=source, fill_color=ROLE_COLOURS[role], fill_alpha=DIM,
                 line_color=None, view=CDSView(filter=GroupFilter(column_name="role", group=role)))
    for role in sorted(HATCHED_ROLES):
        fig.rect("x", "y", 0.8, 0.8, source=source, fill_color=None, line_color=None,
                 hatch_pattern="/", hatch_color=ROLE_COLOURS[role], hatch_scale=7,
                 hatch_weight=2, hatch_alpha=0.9,
                 view=CDSView(filter=GroupFilter(column_name="role", group=role)))


_WRAP = {"display": "flex", "flex_flow": "row wrap", "align_items": "flex-start",
         "grid_gap": "8px 16px"}
"""A row that wraps (layout keywords): side by side on a wide window, one under the other on a
narrow one."""


class BoardView(widgets.VBox):
    """The board in a notebook: click a space to select it and see the overlay's verdict.

    ``boards`` is one board (a :class:`Board` or a map text ``Layout``) or several
    by name, picked with the ``board-choice`` dropdown (each figure is built once,
    when first shown). ``overlay`` names one of :data:`OVERLAYS` (the
    ``board-overlay`` toggle buttons); in the sight overlay the click after a
    selection picks the target (the ``board-click`` toggle says what the next
    click sets). The plot, title, verdict and stamina slider carry the CSS
    classes ``board-plot``, ``board-title``, ``board-verdict`` and
    ``board-stamina`` (prefix ``css``, default ``board``). ``pick`` is drawn from
    the start (for a view that is never clicked). ``on_click``, when given, receives each
    clicked space instead of the overlay. ``overlays`` adds the owner's overlays by name (the
    app's danger overlay): one with ``aimed`` set aims the click after a selection, as sight
    does, unless its ``reselects(board, selected, point)`` says the click picks again; its
    ``widget`` (a progress line) is shown beside the board. Assigning ``view.rules`` redraws
    the overlay; only ``source.data`` and the texts change.
    """

    selected = cast("traitlets.TraitType[Point | None, Point | None]",
                    traitlets.Tuple(default_value=None, allow_none=True))
    target = cast("traitlets.TraitType[Point | None, Point | None]",
                  traitlets.Tuple(default_value=None, allow_none=True))
    rules = traitlets.Instance(Rules)

    def __init__(self, boards: Board | Layout | dict[str, Board | Layout],
                 rules: Rules | None = None, overlay: str = "sight", *, controls: bool = True,
                 legend: bool = True, px_per_space: int | None = None, css: str = "board",
                 pick: Pick | None = None, names: Mapping[str, str] | None = None,
                 on_click: Callable[[Point], object] | None = None,
                 overlays: Mapping[str, Overlay] | None = None, **kwargs):
        setup_notebook()
        self.overlays = {**OVERLAYS, **(overlays or {})}
        self.on_click = on_click
        self.last_tap: tuple[float, float] | None = None  # the last click, in board units
        self._css = css
        self.names = dict(names or {})
        self._with_legend = legend
        self._rules = rules or Rules()
        if not isinstance(boards, dict):
            boards = {"board": boards}
        self.boards = {name: as_board(b) for name, b in boards.items()}
        self._draw_options: dict[str, Any] = {"px_per_space": px_per_space}
        self._drawn: dict[str, tuple] = {}
        self.choice = widgets.Dropdown(options=list(self.boards), description="Board")
        self.choice.add_class(f"{css}-choice")
        self.overlay = widgets.ToggleButtons(options=list(self.overlays), value=overlay,
                                             description="Overlay")
        self.overlay.add_class(f"{css}-overlay")
        self.click = widgets.ToggleButtons(options=["source", "target"], value="source",
                                           description="Click sets")
        self.click.add_class(f"{css}-click")
        self.stamina = widgets.IntSlider(value=pick.stamina if pick else 3, min=0, max=12,
                                         description="Stamina")
        self.stamina.add_class(f"{css}-stamina")
        # the title keeps its height from the start: a click never moves the board
        self.title = widgets.HTML("<b>Click a space on the board.</b>",
                                  layout=widgets.Layout(height="28px", overflow="hidden"))
        self.title.add_class(f"{css}-title")
        self.verdict = widgets.HTML("Click a space.")
        self.verdict.add_class(f"{css}-verdict")
        self.rule_links = RuleLinks()
        self.legend = widgets.HTML()
        self.legend.add_class(f"{css}-legend")
        self.holder = widgets.Box(layout=widgets.Layout(min_width="0", flex="0 1 auto",
                                                        overflow="hidden"))
        self.holder.add_class("board-holder")
        self._show(self.choice.value, pick)
        parts = []
        if controls:
            parts = ([self.choice] if len(self.boards) > 1 else []) + [
                self.overlay, widgets.Box([self.click, self.stamina], layout=widgets.Layout(**_WRAP))]
        super().__init__([*parts, self.title, self._beside(legend)], rules=self._rules,
                         **kwargs)
        self.choice.observe(lambda change: self._show(change["new"]), "value")
        self.overlay.observe(self._redraw, "value")
        self.stamina.observe(self._redraw, "value")

    def _beside(self, legend: bool) -> widgets.Box:
        """The board with its answer (the verdict, then the legend) beside it where the window
        is wide enough, and directly under it where it is not: the answer's first line is in
        view with the board's top after any click. An owner may put more of its answer in
        ``self.answer`` (a column: the verdict, then the legend)."""
        working = [w for o in self.overlays.values() if (w := getattr(o, "widget", None))]
        answer = widgets.VBox([*working, self.verdict, self.rule_links,
                               *([self.legend] if legend else [])],
                              layout=widgets.Layout(flex="1 1 280px", min_width="260px",
                                                    max_width="520px"))
        answer.add_class(f"{self._css}-answer")
        self.answer = answer
        return widgets.Box([self.holder, answer], layout=widgets.Layout(**_WRAP))

    def _show(self, name: str, pick: Pick | None = None) -> None:
        """Show board ``name``, drawn with ``pick``'s overlay the first time (a plot's data set
        before the browser shows it never reaches the browser, so a first pick is drawn in)."""
        board = self.boards[name]
        highlights = Highlights()
        if pick is not None:
            pick = replace(pick, names=tuple(self.names.items()))
            highlights = self.overlays[self.overlay.value](board, self._rules, pick)
        if name not in self._drawn:
            figure, sources = render_board(board, highlights, **self._draw_options)
            figure.on_event(Tap, self.on_tap)
            figure.on_event(DoubleTap, self.on_tap)  # a quick second click is still a click
            plot = BokehModel(figure, layout=widgets.Layout(width="100%"))
            plot.add_class(f"{self._css}-plot")
            self._drawn[name] = figure, sources, plot
        else:
            self.refresh(*self._drawn[name][::2])
        self.board = board
        self.figure, self.sources, self.plot = self._drawn[name]
        fit_holder(self.holder, self.figure)
        self.holder.children = (self.plot,)
        self.selected = pick.selected if pick else None
        self.target = pick.target if pick else None
        self._texts(highlights)

    def show_board(self, name: str, board: Board | Layout) -> None:
        """Show ``board`` under ``name``: in a figure of its own the first time, redrawn into
        that figure later (a board of another size gets a new plot, sized to it)."""
        board = as_board(board)
        if name in self._drawn:
            figure, sources, _ = self._drawn[name]
            redraw_board(figure, sources, board)
        self.boards[name] = board
        self._show(name)

    @staticmethod
    def refresh(figure, plot: BokehModel) -> None:
        """Re-serialise ``figure`` into ``plot`` before it is shown again.

        A plot's browser view is rebuilt from the state serialised when it was made;
        data changed since then reached only the views alive at the time.
        """
        plot.update_from_model(figure)

    def _texts(self, highlights: Highlights) -> None:
        self.title.value = (f"<b>{html.escape(highlights.title or 'Click a space on the board.')}"
                            "</b>")
        lines = [cite_words(line) for line in highlights.verdict]
        self.verdict.value = "<br>".join(manual_links(line) for line in lines) or "Click a space."
        self.rule_links.show("\n".join(lines))
        if self._with_legend:
            self.legend.value = legend_html(self.sources, self.names)

    @traitlets.observe("rules")
    def _redraw(self, _change=None) -> None:
        if self.selected is not None:
            self.redraw()

    def on_tap(self, event: Tap) -> None:
        """A click (bokeh ``Tap`` in data coordinates): select the space, or aim the sight line at it.

        Clicks in the margin are ignored; only the sight overlay has a target.
        """
        self.last_tap = (cast(float, event.x), cast(float, event.y))
        point = (math.floor(self.last_tap[0]), math.floor(self.last_tap[1]))
        if point not in self.board:
            return
        if self.on_click is not None:  # the owner answers the click (the quiz)
            self.on_click(point)
            return
        overlay = self.overlays[self.overlay.value]
        aimed = self.overlay.value == "sight" or getattr(overlay, "aimed", False)
        reselects = getattr(overlay, "reselects", None)
        if self.click.value == "target" and aimed and self.selected and not (
                reselects and reselects(self.board, self.selected, point)):
            self.aim(point)
        else:
            self.select(point)

    def select(self, point: Point) -> None:
        """Select ``point`` (clearing the target) and redraw; in the sight overlay the next click aims."""
        point = self.board.require(point, "point")
        self.selected, self.target = point, None
        self.redraw()
        if self.overlay.value == "sight" or getattr(self.overlays[self.overlay.value], "aimed",
                                                    False):
            self.click.value = "target"

    def aim(self, point: Point | None) -> None:
        """Set (or clear, with None) the target of the line of sight and redraw."""
        if self.selected is None:
            raise ValueError("aim: select a space first")
        self.target = None if point is None else self.board.require(point, "point")
        self.redraw()

    def redraw(self) -> None:
        """Run the overlay on the current pick; assign the sources' data, the title and the verdict."""
        pick = Pick(cast(Point, self.selected), self.target, self.stamina.value, tuple(self.names.items()))
        highlights = self.overlays[self.overlay.value](self.board, self.rules, pick)
        for name, data in highlight_data(highlights).items():
            self.sources[name].data = data
        self._texts(highlights)


#: The 2x2 board of shipped tiles: (tile side, origin) and the units placed on it.
SHIPPED_TILES = (("t01a", (0, 0)), ("t05a", (10, 0)), ("t06a", (0, 10)), ("t07a", (10, 10)))
SHIPPED_UNITS = (("A", (3, 8)), ("B", (12, 5)), ("M", (6, 14)), ("N", (15, 16)))


def shipped_board() -> Board:
    """Four shipped tile sides joined in a 2x2 square (every facing pair of edges joined), with units.

    Explorers A and B, monsters M and N (see :data:`SHIPPED_TILES`, :data:`SHIPPED_UNITS`).

    Rules: manual p34 (joining map tiles; the 2x2 playing area).
    """
    tiles = load_tiles()
    sides = {side.key: side for tile in tiles.values() for side in tile.sides}
    placed = tuple(place_tile(sides[key], 0, origin) for key, origin in SHIPPED_TILES)
    edges = {edge for tile in placed for _, edge, kind in tile.ring()
             if kind in (BorderKind.EDGE, BorderKind.DIRECTION)}
    joined = frozenset(frozenset(edge) for edge in edges if (edge[1], edge[0]) in edges)
    board = PlayArea(tuple(sides.values()), tiles=placed, joined=joined).board()
    return board.with_units((point, unit) for unit, point in SHIPPED_UNITS)
