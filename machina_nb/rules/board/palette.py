"""One palette: the colour, line style and legend words of everything a board picture draws.

Every drawer of the board (the SVG of :mod:`machina_nb.rules.board.drawing`, the bokeh board
view, a PNG) takes its colours from here, so a pit is the same grey wherever it is shown and
every colour drawn has its words in the legend. Marks over the map use the Okabe–Ito colours,
which readers with any common colour-vision deficiency tell apart; marked spaces are outlined,
hatched or dimmed under a see-through veil, so the space kind stays visible beneath; only a
graded scale (:data:`DANGER_SCALE`) fills a space, and its inner square only, the kind showing at
the rim.

>>> STYLES["space:pit"].words
'pit'
>>> STYLES["role:visible"].colour
'#009E73'
"""

from __future__ import annotations

from dataclasses import dataclass

from machina_nb.rules.board.maptext import SpaceKind

__all__ = ["Style", "STYLES", "SPACE_COLOURS", "SPACE_WORDS", "ROLE_COLOURS", "ROLE_WORDS",
           "HATCHED_ROLES", "DIMMED_ROLES", "FILLED_ROLES", "DANGER_SCALE", "DIM", "MAP_STYLES", "SIDE_COLOURS", "SIDE_WORDS", "GRID", "TILE_INK",
           "LABEL_INK", "UNIT_INK", "AXIS_INK", "DIRECTION_INK", "UNIT_FILL", "space_key",
           "role_key", "point_key", "POINT_WORDS"]


@dataclass(frozen=True)
class Style:
    """How one thing is drawn and what the legend calls it.

    ``colour`` is ``#rrggbb``; ``look`` is how the legend samples it: ``fill`` (a filled
    square), ``outline`` (a square's border), ``hatch``, ``dim`` (a veil over the space),
    ``line``, ``mark`` (a character
    such as ✕ or ▲) or ``unit`` (a lettered disc); ``width`` is a line's width in pixels
    and ``dash`` is ``solid``, ``dashed`` or ``dotted``.
    """

    colour: str
    words: str
    look: str = "fill"
    width: int = 1
    dash: str = "solid"


#: Fill colour of each space kind.
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

#: The legend's words for each space kind: its name in lower case.
SPACE_WORDS: dict[SpaceKind, str] = {kind: kind.name.lower() for kind in SpaceKind}

#: Colour of each mark's role (spaces, lines and points), Okabe–Ito.
ROLE_COLOURS: dict[str, str] = {
    "selected": "#0072B2",
    "target": "#D55E00",
    "visible": "#009E73",
    "blocked": "#3D3D3D",
    "reach": "#56B4E9",
    "tied": "#D55E00",
    "candidate": "#56B4E9",
    "adjacent": "#009E73",
    "border": "#D55E00",
    "line": "#009E73",
    "blocked line": "#D55E00",
    "blocker": "#000000",
    "path": "#E69F00",
    "monster": "#0072B2",
    "goal": "#009E73",
    "end": "#56B4E9",
    "answer": "#009E73",
    "reply": "#D55E00",
    "asker": "#0072B2",
    "asked": "#D55E00",
    "step": "#E69F00",
    "can end here": "#56B4E9",
    "route": "#E69F00",
    "turn end": "#000000",
    "turn start": "#0072B2",
    "planned path": "#E69F00",
    "its target": "#D55E00",
    "planned from": "#0072B2",
    "spawn": "#CC79A7",
    "differs": "#000000",
}

#: The danger scale: the chance an explorer standing on a space is destroyed, in bins from
#: the least chance each holds (in percent), light to dark in one hue (ColorBrewer's
#: sequential purples: read by lightness, so every common colour-vision deficiency reads it).
#: Each bin is a role: (role, least percent, colour, words).
DANGER_SCALE: tuple[tuple[str, int, str, str], ...] = (
    ("danger 0", 0, "#f2f0f7", "0%: never destroyed"),
    ("danger 1", 1, "#dadaeb", "under 10%"),
    ("danger 10", 10, "#bcbddc", "10% to under 25%"),
    ("danger 25", 25, "#9e9ac8", "25% to under 50%"),
    ("danger 50", 50, "#756bb1", "50% to under 75%"),
    ("danger 75", 75, "#54278f", "75% to 100%"),
)
ROLE_COLOURS.update({role: colour for role, _, colour, _ in DANGER_SCALE})

#: Roles drawn as a fill of the space's inner square (the space kind shows at its rim).
FILLED_ROLES = frozenset(role for role, _, _, _ in DANGER_SCALE)

#: Roles drawn as a hatch over the space (the rest as an outline inside it, or a veil).
HATCHED_ROLES = frozenset({"differs"})

#: Roles drawn as a dark veil over the whole space, :data:`DIM` opaque: the space is dimmed,
#: its kind still plain beneath (out of sight on a board of hundreds of spaces).
DIMMED_ROLES = frozenset({"blocked"})
DIM = 0.4

#: What each role means, in the legend beside the board.
ROLE_WORDS: dict[str, str] = {
    "selected": "the space you picked",
    "target": "the space you aim at",
    "visible": "in sight of the picked space",
    "blocked": "out of sight (dimmed)",
    "reach": "reachable (number: stamina spent)",
    "tied": "nearest or closest (every tie marked; number: distance)",
    "candidate": "another unit (number: distance)",
    "adjacent": "adjacent: a melee attack reaches it",
    "border": "a wall or door on the picked space's border",
    "line": "line of sight: clear",
    "blocked line": "line of sight: blocked",
    "blocker": "what blocks the line",
    "path": "a shortest path",
    "monster": "the monster acting",
    "goal": "where its path leads",
    "end": "a space it could end its move on",
    "answer": "the right answer",
    "reply": "your answer",
    "asker": "whom the question is about (who looks, moves, acts or is pushed)",
    "asked": "what the question looks at or aims at",
    "step": "a space the monster moves to",
    "can end here": "a space it can end a move on",
    "route": "the monster's moves, in order",
    "turn end": "where the monster's turn ends",
    "turn start": "where the monster's turn began",
    "planned path": "its planned path, one step per action",
    "its target": "the explorer it targets",
    "planned from": "where the monster stood when it chose this action",
    "spawn": "where a spawned monster may go (every tie marked)",
    "differs": "marked under this reading only (hatched)",
    **{role: f"destroyed in the monster phase: {words}" for role, _, _, words in DANGER_SCALE},
}

#: What a role drawn as a point (✕) means, where it differs from the role's words.
POINT_WORDS: dict[str, str] = {"blocker": "where the line is cut"}

#: How the map's borders are drawn, and their legend words:
#: name -> (colour, line width in pixels, dash, words).
MAP_STYLES: dict[str, tuple[str, int, str, str]] = {
    "walls": ("#212121", 6, "solid", "wall"),
    "joined": ("#009E73", 3, "dashed", "joined tile edge (open)"),
    "edges": ("#2e7d32", 6, "solid", "unexplored tile edge"),
    "door_closed": ("#6d4c41", 8, "solid", "closed door"),
    "door_open": ("#6d4c41", 3, "dashed", "open door"),
    "door_destroyed": ("#D55E00", 3, "dotted", "destroyed door"),
}

#: The ring of a unit's disc by its side (the disc is white, its letter black).
SIDE_COLOURS: dict[str, str] = {"unit": "#212121", "explorer": "#0072B2", "monster": "#D55E00"}
SIDE_WORDS: dict[str, str] = {"unit": "unit (its letter)", "explorer": "explorer (its letter)",
                              "monster": "monster (its letter)"}

GRID = "#c8c0ad"            # the thin line around each space
TILE_INK = "#3949ab"        # map tile outlines and names
LABEL_INK = "#0d47a1"       # numbers written on spaces (steps, stamina)
UNIT_INK = "#212121"        # a unit's letter
AXIS_INK = "#444444"        # column letters and row numbers
DIRECTION_INK = "#2e7d32"   # the direction symbol on a tile edge
UNIT_FILL = "white"         # a unit's disc, and the rim of the direction symbol


def space_key(kind: SpaceKind) -> str:
    """The :data:`STYLES` key of a space kind (``space:pit``)."""
    return f"space:{kind.name.lower()}"


def role_key(role: str) -> str:
    """The :data:`STYLES` key of a mark's role (``role:visible``)."""
    return f"role:{role}"


def point_key(role: str) -> str:
    """The :data:`STYLES` key of a role drawn as a ✕ (``point:blocker``), or its role's key
    when the ✕ means what the role means."""
    return f"point:{role}" if role in POINT_WORDS else role_key(role)


def _styles() -> dict[str, Style]:
    out = {space_key(k): Style(c, SPACE_WORDS[k], "fill") for k, c in SPACE_COLOURS.items()}
    out.update({role_key(r): Style(c, ROLE_WORDS[r], "hatch" if r in HATCHED_ROLES else
                                   "dim" if r in DIMMED_ROLES else
                                   "fill" if r in FILLED_ROLES else "outline", 3)
                for r, c in ROLE_COLOURS.items()})
    out.update({point_key(r): Style(ROLE_COLOURS[r], words, "mark", 3)
                for r, words in POINT_WORDS.items()})
    out.update({f"border:{name}": Style(c, words, "line", width, dash)
                for name, (c, width, dash, words) in MAP_STYLES.items()})
    out.update({f"unit:{side}": Style(c, SIDE_WORDS[side], "unit", 2)
                for side, c in SIDE_COLOURS.items()})
    out.update({
        "direction": Style(DIRECTION_INK, "direction symbol", "mark"),
        "tile": Style(TILE_INK, "map tile outline and name", "line", 2, "dotted"),
        "label": Style(LABEL_INK, "number on a space: steps, stamina or a chance",
                       "mark"),
        "grid": Style(GRID, "edge of a space", "line"),
        "axis": Style(AXIS_INK, "column letter and row number", "mark"),
        "letter": Style(UNIT_INK, "a unit's letter", "mark"),
    })
    return out


#: Every style by key: ``space:<kind>``, ``role:<role>``, ``border:<name>`` (names of
#: :data:`MAP_STYLES`), ``unit:<side>``, ``direction``, ``tile``, ``label``, ``grid``,
#: ``axis`` and ``letter``.
STYLES: dict[str, Style] = _styles()
