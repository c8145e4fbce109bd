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

Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Attribute Tests; Skill Points; Status
Effects: Stun; Range; Line of Sight; Movement; Moving Monsters); switches mansions.dot_inset,
mansions.wall_touch, mansions.diagonal.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from fractions import Fraction

from machina_nb.rules.board.graph import NEIGHBOUR_STEPS, Board
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "SUMMARY", "SIGHT_BLOCKING", "MOVE_BLOCKING", "INSETS", "AttributeTest", "attribute_test",
    "pass_chance", "dots", "MansionsSight", "line_blocker", "line_of_sight", "visible_from",
    "range_between", "step_allowed", "monster_steps", "monster_distance",
]

SUMMARY = "Mansions summary 002_fdb2e90db6cbc320.txt"
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

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Attribute Tests; Skill Points; Stun).
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
                f"passes, a 10 always fails): chance {self.p_pass} ({float(self.p_pass):.1%}) "
                f"({TEST_RULE})")


def attribute_test(attribute: int, modifier: int = 0, luck: int | None = None,
                   skill_point: bool = False, stunned: bool = False,
                   tested: str = "") -> AttributeTest:
    """The exact chance to pass: clamp(A + M (+ Luck) (- 2 if stunned), 1, 9) / 10.

    ``tested`` names the attribute when it matters: a skill point never adds
    Luck to a Luck test.

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Attribute Tests: roll at or under, 1 always
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

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Attribute Tests).
    """
    return attribute_test(attribute, modifier, luck, skill_point, stunned).p_pass


# --- sight ------------------------------------------------------------------------------------------


def dots(space: Point, rules: Rules) -> tuple[FPoint, ...]:
    """The four sight dots of ``space``: north-west, north-east, south-west, south-east.

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight: dots inside the corners);
    switch mansions.dot_inset.
    """
    x, y = space
    i = INSETS[rules["mansions.dot_inset"]]
    near, far = Fraction(0) + i, Fraction(1) - i
    return tuple((x + dx, y + dy) for dy in (near, far) for dx in (near, far))


def _vertical(board: Board, x: int, y: int) -> BorderKind:
    """The border on the grid line x from (x, y) to (x, y + 1)."""
    return board.border((x - 1, y), (x, y))


def _horizontal(board: Board, x: int, y: int) -> BorderKind:
    """The border on the grid line y from (x, y) to (x + 1, y)."""
    return board.border((x, y - 1), (x, y))


def _name(kind: BorderKind, a: Point, b: Point) -> str:
    if kind in (BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED):
        what = "door" if kind is BorderKind.DOOR_OPEN else "barred door"
    elif kind is BorderKind.WALL:
        what = "wall"
    else:
        what = "map's edge"
    return f"the {what} between {a} and {b}"


def _rays(board: Board, x: int, y: int, blocking: frozenset[BorderKind]
          ) -> list[tuple[tuple[int, int], str]]:
    """The blocking borders that end at grid point (x, y), as directions away from it."""
    rays = []
    for (rx, ry), kind, a, b in (
        ((0, -1), _vertical(board, x, y - 1), (x - 1, y - 1), (x, y - 1)),
        ((0, 1), _vertical(board, x, y), (x - 1, y), (x, y)),
        ((-1, 0), _horizontal(board, x - 1, y), (x - 1, y - 1), (x - 1, y)),
        ((1, 0), _horizontal(board, x, y), (x, y - 1), (x, y)),
    ):
        if kind in blocking:
            rays.append(((rx, ry), _name(kind, a, b)))
    return rays


def _corner(board: Board, x: int, y: int, d: tuple, touch_blocks: bool,
            blocking: frozenset[BorderKind]) -> str | None:
    """Why a line (or step) with direction ``d`` through grid point (x, y) is blocked there."""
    rays = _rays(board, x, y, blocking)
    sides = {}
    for (rx, ry), name in rays:
        sides.setdefault((d[0] * ry - d[1] * rx > 0) - (d[0] * ry - d[1] * rx < 0), name)
    if 0 in sides:
        return f"runs along {sides[0]}"
    if 1 in sides and -1 in sides:
        return f"crosses {sides[1]} and {sides[-1]} where they meet at ({x}, {y})"
    if touch_blocks and sides:
        return f"touches the end of {next(iter(sides.values()))} at ({x}, {y})"
    return None


def _events(p: Fraction, q: Fraction) -> set[Fraction]:
    """The parameters t in [0, 1] where the coordinate going from p to q is a whole number."""
    if p == q:
        return set()
    low, high = min(p, q), max(p, q)
    return {(k - p) / (q - p) for k in range(math.ceil(low), math.floor(high) + 1)}


def line_blocker(board: Board, start: FPoint, end: FPoint, rules: Rules) -> str | None:
    """Why the straight line from ``start`` to ``end`` is blocked, or None when it is clear.

    The line is walked across the grid: where it crosses a grid line between
    two grid points it crosses that border; where it passes a grid point the
    borders meeting there decide (``mansions.wall_touch``); where it runs along
    a grid line every border it runs along blocks. The line's own two ends
    never count as touching.

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight: no brown wall or door
    crossed; figures and markers never block); switch mansions.wall_touch.
    """
    (px, py), (qx, qy) = start, end
    dx, dy = qx - px, qy - py
    touch = rules["mansions.wall_touch"] == "touch_blocks"
    for t in sorted(_events(px, qx) | _events(py, qy) | {Fraction(0), Fraction(1)}):
        x, y = px + t * dx, py + t * dy
        whole_x, whole_y = x.denominator == 1, y.denominator == 1
        if whole_x and whole_y:
            if 0 < t < 1:
                why = _corner(board, int(x), int(y), (dx, dy), touch, SIGHT_BLOCKING)
                if why:
                    return why
        elif whole_x and dx:
            row = math.floor(y)
            kind = _vertical(board, int(x), row)
            if kind in SIGHT_BLOCKING:
                return f"crosses {_name(kind, (int(x) - 1, row), (int(x), row))} at ({x}, {y})"
        elif whole_y and dy:
            col = math.floor(x)
            kind = _horizontal(board, col, int(y))
            if kind in SIGHT_BLOCKING:
                return f"crosses {_name(kind, (col, int(y) - 1), (col, int(y)))} at ({x}, {y})"
    return _along(board, start, end)


def _along(board: Board, start: FPoint, end: FPoint) -> str | None:
    """A line lying on a grid line is blocked by every border it runs along."""
    (px, py), (qx, qy) = start, end
    if px == qx and px.denominator == 1:
        for row in range(math.floor(min(py, qy)), math.ceil(max(py, qy))):
            kind = _vertical(board, int(px), row)
            if kind in SIGHT_BLOCKING:
                return f"runs along {_name(kind, (int(px) - 1, row), (int(px), row))}"
    if py == qy and py.denominator == 1:
        for col in range(math.floor(min(px, qx)), math.ceil(max(px, qx))):
            kind = _horizontal(board, col, int(py))
            if kind in SIGHT_BLOCKING:
                return f"runs along {_name(kind, (col, int(py) - 1), (col, int(py)))}"
    return None


@dataclass(frozen=True)
class MansionsSight:
    """A Mansions line-of-sight verdict: the clear ``line`` found, or why each line is blocked.

    ``blocked`` lists every dot-to-dot line tried and what blocks it (all of
    them when the target is not in sight); ``line`` is the first clear line in
    the order tried (shortest first).

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight).
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
            (a, b), (c, d) = self.line
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

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight: at least one line from a
    corner dot to a corner dot; walls and doors block; figures and markers do not); switches
    mansions.dot_inset, mansions.wall_touch.
    """
    if not isinstance(rules, Rules):
        raise RulesError("rules", f"expected a Rules object, got {type(rules).__name__}")
    a, b = board.require(a, "from"), board.require(b, "to")
    pairs = [(p, q) for p in dots(a, rules) for q in dots(b, rules) if p != q]
    pairs.sort(key=lambda pq: ((pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2, pq))
    blocked = []
    for p, q in pairs:
        why = line_blocker(board, p, q, rules)
        if why is None:
            return MansionsSight(a, b, True, (p, q), tuple(blocked), _reading(rules))
        blocked.append((p, q, why))
    return MansionsSight(a, b, False, None, tuple(blocked), _reading(rules))


def visible_from(board: Board, a: Point, rules: Rules) -> frozenset[Point]:
    """Every space a figure on ``a`` sees (``a`` included).

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Line of Sight).
    """
    return frozenset(b for b in board if line_of_sight(board, a, b, rules).visible)


def range_between(board: Board, a: Point, b: Point, rules: Rules) -> int | None:
    """Range in spaces when ``b`` is in sight (None when it is not).

    The count is of spaces away as a figure counts them on the grid, a diagonal
    step counting one (the larger of the two axis distances); sight decides
    whether there is a range at all, so walls and doors block range.

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Range; Line of Sight).
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

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Movement; Moving Monsters: one space at a
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
    return _corner(board, *corner, (dx, dy), strict, MOVE_BLOCKING) is None


def monster_steps(board: Board, a: Point, rules: Rules) -> tuple[Point, ...]:
    """Every space a monster on ``a`` may step to, clockwise from north.

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Moving Monsters).
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

    Rules: Mansions summary 002_fdb2e90db6cbc320.txt (Moving Monsters: one space at a time).
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
