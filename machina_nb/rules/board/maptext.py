"""The map text format: spaces, borders and units drawn in plain text.

A board ``W`` spaces wide and ``H`` tall is ``2H+1`` lines of ``2W+1``
characters. Space ``(x, y)`` (x the column from the west, y the row from the
north, both from 0) sits at line ``2y+1``, column ``2x+1`` (0-based); its
borders sit between spaces and even-even positions are corners (``+`` or a
blank, no meaning). content/README.md documents every character.

>>> layout = parse_map('''\\
... +-+-+
... |.|o|
... +d+-+
... e. s|
... +-+-+
... ''')
>>> layout.width, layout.height
(2, 2)
>>> layout.space(1, 0).name, layout.border((0, 0), (1, 0)).name
('PIT', 'WALL')
>>> layout.border((0, 0), (0, 1)).name
'DOOR_OPEN'
>>> layout.to_text().splitlines()[3]
'e. s|'

Rules: manual p11 (map tile overview), p35-37 (map elements), p22 (doors).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn

from machina_nb.rules.errors import ContentError, RulesError

__all__ = ["SpaceKind", "BorderKind", "Layout", "parse_map", "Point"]

Point = tuple[int, int]


class SpaceKind(enum.Enum):
    """What stands on a space (manual p35-37; classes in )."""

    FLOOR = "."
    TRAPPED = "t"
    PIT = "o"
    SPAWN = "s"
    RUBBLE = "r"
    BARREL = "b"
    CHEST = "c"
    EVENT = "v"
    WORKBENCH = "w"
    RECHARGE = "g"
    LEVER = "l"
    CHAPTER = "h"
    DESTROYED = "#"
    UNIDENTIFIABLE = "?"

    @property
    def char(self) -> str:
        """The space's character in map text (content/README.md).

        Rules: manual p35-37 (map spaces).
        """
        return self.value


class BorderKind(enum.Enum):
    """What lies on a border between two spaces, or on a tile's outer ring (manual p11, p35-36)."""

    OPEN = " "
    WALL = "wall"
    DOOR_OPEN = "d"
    DOOR_CLOSED = "D"
    DOOR_DESTROYED = "x"
    BOUNDARY = "boundary"
    EDGE = "e"
    DIRECTION = "E"
    JOINED = "joined"  # two tiles' edges joined on the board (manual p34); never in map text


_SPACE_CHARS = {k.value: k for k in SpaceKind}
_INNER_BORDER = {" ": BorderKind.OPEN, "d": BorderKind.DOOR_OPEN, "D": BorderKind.DOOR_CLOSED,
                 "x": BorderKind.DOOR_DESTROYED}
_RING_BORDER = {"e": BorderKind.EDGE, "E": BorderKind.DIRECTION}


@dataclass(frozen=True)
class Layout:
    """A parsed map: spaces, borders, corners and units; immutable (manual p11).

    ``vertical[y][x]`` is the border on the west side of space ``(x, y)``
    (``x == width`` is the east ring); ``horizontal[y][x]`` the border on the
    north side of ``(x, y)`` (``y == height`` is the south ring).
    """

    width: int
    height: int
    spaces: tuple[tuple[SpaceKind, ...], ...]
    vertical: tuple[tuple[BorderKind, ...], ...]
    horizontal: tuple[tuple[BorderKind, ...], ...]
    corners: tuple[tuple[str, ...], ...]
    units: tuple[tuple[str, Point], ...] = ()

    def space(self, x: int, y: int) -> SpaceKind:
        """The kind of space ``(x, y)`` (manual p35)."""
        self._check(x, y)
        return self.spaces[y][x]

    def _check(self, x: int, y: int) -> None:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)) or \
                not (0 <= x < self.width and 0 <= y < self.height):
            raise RulesError("space", f"({x!r:.20}, {y!r:.20}) is not a space of the "
                             f"{self.width}x{self.height} map")

    def border(self, a: Point, b: Point) -> BorderKind:
        """The border between orthogonal neighbours ``a`` and ``b`` (manual p22, p35)."""
        if not all(isinstance(p, tuple) and len(p) == 2 for p in (a, b)):
            raise RulesError("b", "expected two (x, y) spaces")
        (ax, ay), (bx, by) = a, b
        self._check(ax, ay)
        self._check(bx, by)
        if ay == by and abs(ax - bx) == 1:
            return self.vertical[ay][max(ax, bx)]
        if ax == bx and abs(ay - by) == 1:
            return self.horizontal[max(ay, by)][ax]
        raise RulesError("b", f"{a} and {b} are not orthogonal neighbours")

    def unit_at(self, x: int, y: int) -> str | None:
        """The legend letter of the unit on ``(x, y)``, if any.

        Rules: manual p18 (a unit's figure stands on the map), p22 (units are obstacles).
        """
        for letter, point in self.units:
            if point == (x, y):
                return letter
        return None

    def ring(self) -> tuple[tuple[str, int, BorderKind], ...]:
        """Every outer-ring border as ``(side, index, kind)``; side is N, E, S or W (manual p11).

        The index runs west to east on N and S, north to south on E and W.
        """
        w, h = self.width, self.height
        return (
            tuple(("N", x, self.horizontal[0][x]) for x in range(w))
            + tuple(("E", y, self.vertical[y][w]) for y in range(h))
            + tuple(("S", x, self.horizontal[h][x]) for x in range(w))
            + tuple(("W", y, self.vertical[y][0]) for y in range(h))
        )

    def to_text(self) -> str:
        """The map text; ``parse_map(layout.to_text()) == layout`` (content/README.md)."""
        units = dict((p, letter) for letter, p in self.units)
        lines = []
        for row in range(2 * self.height + 1):
            chars = []
            for col in range(2 * self.width + 1):
                x, y = col // 2, row // 2
                if row % 2 == 0 and col % 2 == 0:
                    chars.append(self.corners[y][x])
                elif row % 2 == 0:
                    chars.append(_border_char(self.horizontal[y][x], "-"))
                elif col % 2 == 0:
                    chars.append(_border_char(self.vertical[y][x], "|"))
                else:
                    chars.append(units.get((x, y), self.spaces[y][x].value))
            lines.append("".join(chars))
        return "\n".join(lines) + "\n"

    def rotated(self, quarter_turns: int) -> Layout:
        """The layout turned clockwise by ``quarter_turns`` x 90 degrees (manual p34: tiles rotate).

        >>> parse_map("+-+-+\\n|o .e\\n+-+-+\\n").rotated(1).to_text()
        '+-+\\n|o|\\n+ +\\n|.|\\n+e+\\n'
        """
        if not isinstance(quarter_turns, int) or isinstance(quarter_turns, bool):
            raise RulesError("quarter_turns", f"expected a whole number of quarter turns, got "
                             f"{type(quarter_turns).__name__}")
        layout = self
        for _ in range(quarter_turns % 4):
            layout = layout._rotated_once()
        return layout

    def _rotated_once(self) -> Layout:
        # Clockwise: old (x, y) -> new (H-1-y, x); new width = old height.
        w, h = self.width, self.height
        spaces = tuple(tuple(self.spaces[h - 1 - nx][ny] for nx in range(h)) for ny in range(w))
        # New vertical border west of (nx, ny) was the old horizontal border south of (ny, h-1-nx)
        # i.e. horizontal[h - nx][ny].
        vertical = tuple(tuple(self.horizontal[h - nx][ny] for nx in range(h + 1))
                         for ny in range(w))
        # New horizontal border north of (nx, ny) was the old vertical border west of old (ny, h-1-nx).
        horizontal = tuple(tuple(self.vertical[h - 1 - nx][ny] for nx in range(h))
                           for ny in range(w + 1))
        corners = tuple(tuple(self.corners[h - nx][ny] for nx in range(h + 1))
                        for ny in range(w + 1))
        # Units stay in reading order (north to south, west to east), as parse_map lists them.
        units = tuple(sorted(((letter, (h - 1 - y, x)) for letter, (x, y) in self.units),
                             key=lambda unit: (unit[1][1], unit[1][0])))
        return Layout(h, w, spaces, vertical, horizontal, corners, units)


def _border_char(kind: BorderKind, wall: str) -> str:
    if kind in (BorderKind.WALL, BorderKind.BOUNDARY):
        return wall
    char: str = kind.value
    return char


def parse_map(
    text: str,
    path: str = "<map>",
    legend: Mapping[str, SpaceKind] | None = None,
    line_offset: int = 0,
) -> Layout:
    """Parse map text into a :class:`Layout`, or raise :class:`ContentError` at file:line:col.

    ``legend`` maps each unit letter allowed on the map to the kind of space
    under it; ``None`` means no units may appear (tiles). ``line_offset`` is the
    number of file lines before the map's first line (for maps inside TOML).
    Rules: manual p11, p35-37.
    """
    if not isinstance(text, str):
        raise RulesError("text", f"expected map text, got {type(text).__name__}")
    if not isinstance(path, str):
        raise RulesError("path", f"expected a file name, got {type(path).__name__}")
    if legend is not None and (not isinstance(legend, Mapping) or not all(
            isinstance(k, str) and isinstance(v, SpaceKind) for k, v in legend.items())):
        raise RulesError("legend", "expected a mapping of unit letter to SpaceKind")
    if not isinstance(line_offset, int) or isinstance(line_offset, bool) or line_offset < 0:
        raise RulesError("line_offset", "expected a whole number of lines, 0 or more")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    def _fail(row: int, col: int, message: str) -> NoReturn:
        raise ContentError(path, row + 1 + line_offset, col + 1, message)

    if not lines:
        _fail(0, 0, "empty map: expected 2H+1 lines of 2W+1 characters")
    width_chars = len(lines[0])
    if width_chars < 3 or width_chars % 2 == 0:
        _fail(0, min(width_chars, 2), f"a map line must have an odd length 2W+1 >= 3, got {width_chars}")
    for row, line in enumerate(lines):
        if len(line) != width_chars:
            _fail(row, min(len(line), width_chars),
                 f"ragged line: expected {width_chars} characters like line 1, got {len(line)}")
    if len(lines) < 3 or len(lines) % 2 == 0:
        _fail(len(lines) - 1, 0, f"a map must have an odd number 2H+1 >= 3 of lines, got {len(lines)}")

    w, h = width_chars // 2, len(lines) // 2
    legend = legend if legend is not None else None
    spaces = [[SpaceKind.FLOOR] * w for _ in range(h)]
    vertical = [[BorderKind.OPEN] * (w + 1) for _ in range(h)]
    horizontal = [[BorderKind.OPEN] * w for _ in range(h + 1)]
    corners = [[" "] * (w + 1) for _ in range(h + 1)]
    units: list[tuple[str, Point]] = []
    seen_letters: dict[str, tuple[int, int]] = {}  # letter -> 1-based file (line, column)

    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            x, y = col // 2, row // 2
            if row % 2 == 0 and col % 2 == 0:
                if ch not in "+ ":
                    _fail(row, col, f"corner positions take '+' or a blank, got {ch!r}")
                corners[y][x] = ch
            elif row % 2 == 1 and col % 2 == 1:
                spaces[y][x] = _parse_space(ch, row, col, legend, _fail, units, seen_letters, x, y,
                                            line_offset)
            else:
                is_vertical = row % 2 == 1
                on_ring = (col in (0, width_chars - 1)) if is_vertical else (row in (0, len(lines) - 1))
                kind = _parse_border(ch, is_vertical, on_ring, row, col, _fail)
                if is_vertical:
                    vertical[y][x] = kind
                else:
                    horizontal[y][x] = kind

    return Layout(
        w, h,
        tuple(map(tuple, spaces)),
        tuple(map(tuple, vertical)),
        tuple(map(tuple, horizontal)),
        tuple(map(tuple, corners)),
        tuple(units),
    )


def _parse_space(ch: str, row: int, col: int, legend: Mapping[str, SpaceKind] | None,
                 fail: Callable[[int, int, str], NoReturn], units: list[tuple[str, Point]],
                 seen_letters: dict[str, tuple[int, int]], x: int, y: int,
                 line_offset: int) -> SpaceKind:
    if ch in _SPACE_CHARS:
        return _SPACE_CHARS[ch]
    if "A" <= ch <= "Z":
        if legend is None:
            fail(row, col, f"unit letter {ch!r} on a map that takes no units (tiles hold no units)")
        if ch not in legend:
            fail(row, col, f"unit letter {ch!r} has no entry in the board's legend")
        if ch in seen_letters:
            line, column = seen_letters[ch]
            fail(row, col, f"unit letter {ch!r} appears twice (first at line {line}, column {column})")
        seen_letters[ch] = (row + 1 + line_offset, col + 1)
        units.append((ch, (x, y)))
        return legend[ch]
    if ch in "|-":
        fail(row, col, f"wall character {ch!r} on a space position; walls go between spaces")
    expected = " ".join(repr(c) for c in _SPACE_CHARS)
    fail(row, col, f"unknown space character {ch!r}; expected one of {expected} or a unit letter")


def _parse_border(ch: str, is_vertical: bool, on_ring: bool, row: int, col: int,
                  fail: Callable[[int, int, str], NoReturn]) -> BorderKind:
    wall, other_wall = ("|", "-") if is_vertical else ("-", "|")
    where = "vertical" if is_vertical else "horizontal"
    if ch == other_wall:
        fail(row, col, f"{ch!r} is not a wall on a {where} border; use {wall!r}")
    if on_ring:
        if ch == wall:
            return BorderKind.BOUNDARY
        if ch in _RING_BORDER:
            return _RING_BORDER[ch]
        fail(row, col, f"the outer ring takes {wall!r} (boundary), 'e' (edge) or 'E' (edge with "
                       f"the direction symbol), got {ch!r}")
    if ch == wall:
        return BorderKind.WALL
    if ch in _INNER_BORDER:
        return _INNER_BORDER[ch]
    if ch in _RING_BORDER:
        fail(row, col, f"edge {ch!r} off the outer ring; edges sit only on a map's outer ring")
    fail(row, col, f"unknown border character {ch!r}; a {where} border takes ' ', {wall!r}, "
                   f"'d', 'D' or 'x'")
