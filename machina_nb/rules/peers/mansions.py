"""Mansions of Madness (1st edition): d10 attribute tests, corner-dot sight, monster steps.

**Attribute tests.** Roll a d10: the test passes when the roll is at most the
attribute plus its modifiers; a 1 always passes and a 10 always fails, so the
chance is clamp(A + M, 1, 9) / 10. A skill point spent *before* the roll adds
Luck (never to a Luck test); a stunned investigator has -2.

>>> attribute_test(4, modifier=-1).p_pass
Fraction(3, 10)
>>> attribute_test(3, luck=4, skill_point=True).p_pass
Fraction(7, 10)

**Sight.** Each space has four dots just inside its corners. A figure sees a
space when at least one straight line from one of its dots to one of the
target's dots crosses no wall and no door (open or closed); figures and
markers never block. The same map text as Machina Arcana is read in Mansions
terms: ``|``/``-`` and the map's edge are walls, ``d`` a door, ``D`` a door
barred by a sealed-door marker or a barrier (it blocks sight and movement),
``x`` a doorway with no door; every space is a space (its Machina Arcana kind
is a marker here). Readings: ``mansions.dot_inset`` (where the dots sit) and
``mansions.wall_touch`` (whether touching a wall's end blocks).

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> board = Board.from_layout(parse_map("+-+-+-+\\n|. . .|\\n+-+ + +\\n|. .|.|\\n+-+-+-+\\n"))
>>> line_of_sight(board, (0, 1), (2, 1), Rules()).visible
False
>>> line_of_sight(board, (0, 0), (2, 1), Rules()).line
((Fraction(7, 8), Fraction(1, 8)), (Fraction(23, 8), Fraction(9, 8)))

Rules: Mansions summary (Attribute Tests; Skill Points; Status
Effects: Stun; Range; Line of Sight; Movement; Moving Monsters); switches mansions.dot_inset,
mansions.wall_touch, mansions.diagonal.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from machina_nb.rules.board.graph import NEIGHBOUR_STEPS, Board
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import chance_words
from machina_nb.rules.rulings import Rules

__all__ = [
    "SUMMARY", "SIGHT_BLOCKING", "MOVE_BLOCKING", "INSETS", "AttributeTest", "attribute_test",
    "pass_chance", "dots", "MansionsSight", "line_blocker", "line_of_sight", "visible_from",
    "range_between", "step_allowed", "monster_steps", "monster_distance",
]

SUMMARY = "Mansions summary"
TEST_RULE = f"{SUMMARY} (Attribute Tests; Skill Points)"
SIGHT_RULE = f"{SUMMARY} (Line of Sight)"
MOVE_RULE = f"{SUMMARY} (Movement; Moving Monsters)"

SIGHT_BLOCKING = frozenset({
    BorderKind.WALL, BorderKind.BOUNDARY, BorderKind.EDGE, BorderKind.DIRECTION,
    BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED,
})
"""Borders a line of sight may not cross: walls, the map's edge and every door."""
MOVE_BLOCKING = frozenset({
    BorderKind.WALL, BorderKind.BOUNDARY, BorderKind.EDGE, BorderKind.DIRECTION,
    BorderKind.DOOR_CLOSED,
})
"""Borders a monster may not step through: walls, the map's edge and barred doors (``D``)."""
INSETS = {"eighth": Fraction(1, 8), "quarter": Fraction(1, 4), "corner": Fraction(0)}
"""How far inside its corner each dot sits, as a fraction of a side (``mansions.dot_inset``)."""

FPoint = tuple[Fraction, Fraction]


# --- attribute tests ------------------------------------------------------------------------------


def _number(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(name, f"expected a whole number from {low} to {high}, got {value!r}")
    return value


@dataclass(frozen=True)
class AttributeTest:
    """One d10 attribute test: the number to roll at or under, the exact chance, the parts.

    Rules: Mansions summary (Attribute Tests; Skill Points; Stun).
    """

    attribute: int
    modifier: int
    luck: int
    stunned: bool
    target: int
    p_pass: Fraction

    def explain(self) -> str:
        """One line: how the target is made, the chance with its percentage, the citation."""
        parts = [f"attribute {self.attribute}"]
        if self.modifier:
            parts.append(f"modifier {self.modifier:+d}")
        if self.luck:
            parts.append(f"Luck {self.luck:+d} (skill point)")
        if self.stunned:
            parts.append("stunned -2")
        return (f"{', '.join(parts)}: pass on a d10 roll of {self.target} or less (a 1 always "
                f"passes, a 10 always fails): chance {chance_words(self.p_pass)} "
                f"({TEST_RULE})")


def attribute_test(attribute: int, modifier: int = 0, luck: int | None = None,
                   skill_point: bool = False, stunned: bool = False,
                   tested: str = "") -> AttributeTest:
    """The exact chance to pass: clamp(A + M (+ Luck) (- 2 if stunned), 1, 9) / 10.

    ``tested`` names the attribute when it matters: a skill point never adds
    Luck to a Luck test.

    Rules: Mansions summary (Attribute Tests: roll at or under, 1 always
    passes, 10 always fails, modifiers before the roll; Skill Points; Status Effects: Stun -2).
    """
    attribute = _number("attribute", attribute, 0, 20)
    modifier = _number("modifier", modifier, -20, 20)
    added = 0
    if skill_point:
        if luck is None:
            raise RulesError("luck", "a skill point adds Luck: give the investigator's Luck")
        if tested.strip().lower() == "luck":
            raise RulesError("skill-point", "a skill point never adds Luck to a Luck test")
        added = _number("luck", luck, 0, 20)
    elif luck is not None:
        _number("luck", luck, 0, 20)
    target = attribute + modifier + added - (2 if stunned else 0)
    chance = Fraction(min(9, max(1, target)), 10)
    return AttributeTest(attribute, modifier, added, stunned, target, chance)


def pass_chance(attribute: int, modifier: int = 0, luck: int | None = None,
                skill_point: bool = False, stunned: bool = False) -> Fraction:
    """P(pass) of a d10 attribute test (see :func:`attribute_test`).

    Rules: Mansions summary (Attribute Tests).
    """
    return attribute_test(attribute, modifier, luck, skill_point, stunned).p_pass


# --- sight ------------------------------------------------------------------------------------------


def dots(space: Point, rules: Rules) -> tuple[FPoint, ...]:
    """The four sight dots of ``space``: north-west, north-east, south-west, south-east.

    Rules: Mansions summary (Line of Sight: dots inside the corners);
    switch mansions.dot_inset.
    """
    x, y = space
    i = INSETS[rules["mansions.dot_inset"]]
    near, far = Fraction(0) + i, Fraction(1) - i
    return tuple((x + dx, y + dy) for dy in (near, far) for dx in (near, far))


class _Walls:
    """The borders on the grid lines of one board, looked up once each (a cache for one call)."""

    def __init__(self, board: Board):
        self.board = board
        self._seen: dict[tuple[str, int, int], BorderKind] = {}

    def vertical(self, x: int, y: int) -> BorderKind:
        """The border on the grid line x from (x, y) to (x, y + 1)."""
        key = ("v", x, y)
        if key not in self._seen:
            self._seen[key] = self.board.border((x - 1, y), (x, y))
        return self._seen[key]

    def horizontal(self, x: int, y: int) -> BorderKind:
        """The border on the grid line y from (x, y) to (x + 1, y)."""
        key = ("h", x, y)
        if key not in self._seen:
            self._seen[key] = self.board.border((x, y - 1), (x, y))
        return self._seen[key]


def _name(kind: BorderKind, a: Point, b: Point) -> str:
    if kind in (BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED):
        what = "door" if kind is BorderKind.DOOR_OPEN else "barred door"
    elif kind is BorderKind.WALL:
        what = "wall"
    else:
        what = "map's edge"
    return f"the {what} between {a} and {b}"


def _rays(walls: _Walls, x: int, y: int, blocking: frozenset[BorderKind]
          ) -> list[tuple[tuple[int, int], str]]:
    """The blocking borders that end at grid point (x, y), as directions away from it."""
    rays = []
    for (rx, ry), kind, a, b in (
        ((0, -1), walls.vertical(x, y - 1), (x - 1, y - 1), (x, y - 1)),
        ((0, 1), walls.vertical(x, y), (x - 1, y), (x, y)),
        ((-1, 0), walls.horizontal(x - 1, y), (x - 1, y - 1), (x - 1, y)),
        ((1, 0), walls.horizontal(x, y), (x, y - 1), (x, y)),
    ):
        if kind in blocking:
            rays.append(((rx, ry), _name(kind, a, b)))
    return rays


def _corner(walls: _Walls, x: int, y: int, d: tuple[int, int], touch_blocks: bool,
            blocking: frozenset[BorderKind]) -> str | None:
    """Why a line (or step) with direction ``d`` through grid point (x, y) is blocked there."""
    sides: dict[int, str] = {}
    for (rx, ry), name in _rays(walls, x, y, blocking):
        turn = d[0] * ry - d[1] * rx
        sides.setdefault((turn > 0) - (turn < 0), name)
    if 0 in sides:
        return f"runs along {sides[0]}"
    if 1 in sides and -1 in sides:
        return f"crosses {sides[1]} and {sides[-1]} where they meet at ({x}, {y})"
    if touch_blocks and sides:
        return f"touches the end of {next(iter(sides.values()))} at ({x}, {y})"
    return None


def line_blocker(board: Board, start: FPoint, end: FPoint, rules: Rules) -> str | None:
    """Why the straight line from ``start`` to ``end`` is blocked, or None when it is clear.

    The line is walked across the grid: where it crosses a grid line between
    two grid points it crosses that border; where it passes a grid point the
    borders meeting there decide (``mansions.wall_touch``); where it runs along
    a grid line every border it runs along blocks. The line's own two ends
    never count as touching. When several things block, the first along the
    line is named.

    Rules: Mansions summary (Line of Sight: no brown wall or door
    crossed; figures and markers never block); switch mansions.wall_touch.
    """
    return _blocker(_Walls(board), start, end, rules["mansions.wall_touch"] == "touch_blocks")


def _blocker(walls: _Walls, start: FPoint, end: FPoint, touch: bool) -> str | None:
    coords = [Fraction(c) for point in (start, end) for c in point]
    scale = math.lcm(*(c.denominator for c in coords))
    px, py, qx, qy = (int(c * scale) for c in coords)  # whole numbers: a grid line is k * scale
    return _scaled_blocker(walls, (px, py), (qx, qy), scale, touch)


def _scaled_blocker(walls: _Walls, start: Point, end: Point, scale: int,
                    touch: bool) -> str | None:
    """:func:`line_blocker` on whole numbers: points are given ``scale`` times too large."""
    (px, py), (qx, qy) = start, end
    dx, dy = qx - px, qy - py
    first: tuple[int, int, Any] | None = None  # (t numerator, t denominator > 0, reason maker) of the first blocker
    for X in range(-(-min(px, qx) // scale) * scale, max(px, qx) + 1, scale) if dx else ():
        yn, yd = py * dx + (X - px) * dy, dx  # y = yn / yd, exactly
        if yd < 0:
            yn, yd = -yn, -yd
        tn, td = (X - px, dx) if dx > 0 else (px - X, -dx)
        if first is not None and tn * first[1] >= first[0] * td:
            continue
        if yn % (yd * scale) == 0:
            if px != X and qx != X:
                why = _corner(walls, X // scale, yn // (yd * scale), (dx, dy), touch,
                              SIGHT_BLOCKING)
                if why:
                    first = (tn, td, why)
            continue
        row, col = yn // (yd * scale), X // scale
        kind = walls.vertical(col, row)
        if kind in SIGHT_BLOCKING:
            first = (tn, td, ("v", kind, col, row, Fraction(yn, yd * scale)))
    for Y in range(-(-min(py, qy) // scale) * scale, max(py, qy) + 1, scale) if dy else ():
        xn, xd = px * dy + (Y - py) * dx, dy
        if xd < 0:
            xn, xd = -xn, -xd
        tn, td = (Y - py, dy) if dy > 0 else (py - Y, -dy)
        if first is not None and tn * first[1] >= first[0] * td:
            continue
        if xn % (xd * scale) == 0:
            if not dx and py != Y and qy != Y:  # a grid point on a line along the grid
                why = _corner(walls, xn // (xd * scale), Y // scale, (dx, dy), touch,
                              SIGHT_BLOCKING)
                if why:
                    first = (tn, td, why)
            continue
        col, row = xn // (xd * scale), Y // scale
        kind = walls.horizontal(col, row)
        if kind in SIGHT_BLOCKING:
            first = (tn, td, ("h", kind, col, row, Fraction(xn, xd * scale)))
    if first is None:
        return _along(walls, (px, py), (qx, qy), scale)
    return first[2] if isinstance(first[2], str) else _crossing_words(*first[2])


def _crossing_words(axis: str, kind: BorderKind, col: int, row: int, at: Fraction) -> str:
    if axis == "v":
        return f"crosses {_name(kind, (col - 1, row), (col, row))} at ({col}, {at})"
    return f"crosses {_name(kind, (col, row - 1), (col, row))} at ({at}, {row})"


def _along(walls: _Walls, start: Point, end: Point, scale: int) -> str | None:
    """A line lying on a grid line is blocked by every border it runs along."""
    (px, py), (qx, qy) = start, end
    if px == qx and px % scale == 0:
        for row in range(min(py, qy) // scale, -(-max(py, qy) // scale)):
            kind = walls.vertical(px // scale, row)
            if kind in SIGHT_BLOCKING:
                return f"runs along {_name(kind, (px // scale - 1, row), (px // scale, row))}"
    if py == qy and py % scale == 0:
        for col in range(min(px, qx) // scale, -(-max(px, qx) // scale)):
            kind = walls.horizontal(col, py // scale)
            if kind in SIGHT_BLOCKING:
                return f"runs along {_name(kind, (col, py // scale - 1), (col, py // scale))}"
    return None


@dataclass(frozen=True)
class MansionsSight:
    """A Mansions line-of-sight verdict: the clear ``line`` found, or why each line is blocked.

    ``blocked`` lists every dot-to-dot line tried and what blocks it (all of
    them when the target is not in sight); ``line`` is the first clear line in
    the order tried (shortest first).

    Rules: Mansions summary (Line of Sight).
    """

    source: Point
    target: Point
    visible: bool
    line: tuple[FPoint, FPoint] | None
    blocked: tuple[tuple[FPoint, FPoint, str], ...]
    reading: str

    def __bool__(self) -> bool:
        return self.visible

    def explain(self) -> str:
        """One paragraph: the clear line, or each blocked line and why, with the citation."""
        head = f"{self.source} -> {self.target}: "
        tail = f" ({SIGHT_RULE}; {self.reading})"
        if self.visible:
            (a, b), (c, d) = cast(tuple[FPoint, FPoint], self.line)
            return head + f"visible along the line from dot ({a}, {b}) to dot ({c}, {d})" + tail
        counts: dict[str, int] = {}
        for _, _, why in self.blocked:
            what = why.split(" at (")[0]
            counts[what] = counts.get(what, 0) + 1
        parts = [f"{what} ({n} line{'s' if n != 1 else ''})" for what, n in
                 sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
        return (head + f"not in sight: every one of the {len(self.blocked)} dot-to-dot lines is "
                "blocked: " + "; ".join(parts) + tail)


def _reading(rules: Rules) -> str:
    return (f"mansions.dot_inset={rules['mansions.dot_inset']}, "
            f"mansions.wall_touch={rules['mansions.wall_touch']}")


def line_of_sight(board: Board, a: Point, b: Point, rules: Rules) -> MansionsSight:
    """Does a figure on ``a`` see ``b``? Any clear line from a dot of ``a`` to a dot of ``b``.

    Rules: Mansions summary (Line of Sight: at least one line from a
    corner dot to a corner dot; walls and doors block; figures and markers do not); switches
    mansions.dot_inset, mansions.wall_touch.
    """
    if not isinstance(rules, Rules):
        raise RulesError("rules", f"expected a Rules object, got {type(rules).__name__}")
    a, b = board.require(a, "from"), board.require(b, "to")
    return _sight(_Walls(board), a, b, rules)


_SCALE = 8
"""Every dot's coordinates are whole eighths (:data:`INSETS`): sight works on eighths."""


def _scaled_dots(space: Point, rules: Rules) -> tuple[Point, ...]:
    x, y = space
    i = int(INSETS[rules["mansions.dot_inset"]] * _SCALE)
    near, far = i, _SCALE - i
    return tuple((_SCALE * x + dx, _SCALE * y + dy) for dy in (near, far) for dx in (near, far))


def _sight(walls: _Walls, a: Point, b: Point, rules: Rules) -> MansionsSight:
    pairs = [(p, q) for p in _scaled_dots(a, rules) for q in _scaled_dots(b, rules) if p != q]
    pairs.sort(key=lambda pq: ((pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2, pq))
    touch = rules["mansions.wall_touch"] == "touch_blocks"
    blocked: list[tuple[Point, Point, str]] = []
    for p, q in pairs:
        why = _scaled_blocker(walls, p, q, _SCALE, touch)
        if why is None:
            return MansionsSight(a, b, True, (_unscaled(p), _unscaled(q)),
                                 tuple((_unscaled(p), _unscaled(q), w) for p, q, w in blocked),
                                 _reading(rules))
        blocked.append((p, q, why))
    return MansionsSight(a, b, False, None,
                         tuple((_unscaled(p), _unscaled(q), w) for p, q, w in blocked),
                         _reading(rules))


def _unscaled(p: Point) -> FPoint:
    return (Fraction(p[0], _SCALE), Fraction(p[1], _SCALE))


def visible_from(board: Board, a: Point, rules: Rules) -> frozenset[Point]:
    """Every space a figure on ``a`` sees (``a`` included).

    Rules: Mansions summary (Line of Sight).
    """
    a = board.require(a, "from")
    walls = _Walls(board)
    return frozenset(b for b in board if _sight(walls, a, b, rules).visible)


def range_between(board: Board, a: Point, b: Point, rules: Rules) -> int | None:
    """Range in spaces when ``b`` is in sight (None when it is not).

    The count is of spaces away as a figure counts them on the grid, a diagonal
    step counting one (the larger of the two axis distances); sight decides
    whether there is a range at all, so walls and doors block range.

    Rules: Mansions summary (Range; Line of Sight).
    """
    if not line_of_sight(board, a, b, rules).visible:
        return None
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --- monster movement ----------------------------------------------------------------------------


def step_allowed(board: Board, a: Point, b: Point, rules: Rules) -> bool:
    """May a monster step from ``a`` to the neighbouring space ``b``?

    Orthogonal steps cross one border: never a wall, the map's edge or a barred
    door (``D``); normal doors are free. A diagonal step passes the corner the
    two spaces share: ``mansions.diagonal`` says which borders meeting there stop it.

    Rules: Mansions summary (Movement; Moving Monsters: one space at a
    time, diagonals allowed, never through walls or sealed doors); switch mansions.diagonal.
    """
    a, b = board.require(a, "from"), board.require(b, "to")
    dx, dy = b[0] - a[0], b[1] - a[1]
    if max(abs(dx), abs(dy)) != 1:
        raise RulesError("to", f"{a} and {b} are not neighbouring spaces")
    if dx == 0 or dy == 0:
        return board.border(a, b) not in MOVE_BLOCKING
    corner = (max(a[0], b[0]), max(a[1], b[1]))
    strict = rules["mansions.diagonal"] == "no_wall_at_corner"
    return _corner(_Walls(board), *corner, (dx, dy), strict, MOVE_BLOCKING) is None


def monster_steps(board: Board, a: Point, rules: Rules) -> tuple[Point, ...]:
    """Every space a monster on ``a`` may step to, clockwise from north.

    Rules: Mansions summary (Moving Monsters).
    """
    a = board.require(a, "from")
    found = []
    for dx, dy in NEIGHBOUR_STEPS:
        b = (a[0] + dx, a[1] + dy)
        if b in board and step_allowed(board, a, b, rules):
            found.append(b)
    return tuple(found)


def monster_distance(board: Board, a: Point, b: Point, rules: Rules) -> int | None:
    """The fewest monster steps from ``a`` to ``b`` (None when no way exists).

    Rules: Mansions summary (Moving Monsters: one space at a time).
    """
    a, b = board.require(a, "from"), board.require(b, "to")
    seen = {a: 0}
    queue = deque([a])
    while queue:
        p = queue.popleft()
        if p == b:
            return seen[p]
        for q in monster_steps(board, p, rules):
            if q not in seen:
                seen[q] = seen[p] + 1
                queue.append(q)
    return None
