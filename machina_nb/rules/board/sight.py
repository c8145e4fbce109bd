"""Line of sight, adjacency, targeting and map-tile scope on the board graph.

Line of sight runs centre to centre (manual p22) and is decided exactly in
integer arithmetic on *doubled* coordinates: space ``(x, y)`` has its centre at
``(2x+1, 2y+1)``, borders sit at one even and one odd coordinate and lattice
vertices at two even ones. A centre-to-centre segment never runs along a
border; it crosses a border at an inner point (a barrier there blocks), enters
a space (a barrier space blocks) or passes exactly through a vertex, where the
``los.vertex`` and ``los.space_squeeze`` rulings decide (switches los.vertex and los.space_squeeze).

>>> from machina_nb.rules.board.graph import Board
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> board = Board.from_layout(parse_map('''\\
... +-+-+-+
... |. . .|
... + +-+ +
... |. r .|
... +-+-+-+
... '''))
>>> line_of_sight(board, (0, 1), (2, 1), Rules()).visible      # rubble between
False
>>> print(line_of_sight(board, (0, 0), (2, 1), Rules()).explain())
(0, 0) -> (2, 1): blocked by the wall between (1, 0) and (1, 1) at (3/2, 1) (manual p22 (line of sight))
>>> sorted(visible_from(board, (0, 0), Rules()))
[(0, 1), (1, 0), (1, 1), (2, 0)]

Rules: manual p22 (line of sight, adjacent), p23 (melee, ranged), p21-22 (map-tile scope); rulings D1, D2, D3, D6, D21.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Set
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Callable, Collection, Iterable, Iterator

import networkx as nx

from machina_nb.rules.board.graph import BARRIER_BORDERS, BARRIER_SPACES, OBSTACLE_SPACES, Board, Terrain
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.rulings import Rules

__all__ = [
    "Sight", "Targeting", "line_of_sight", "ranged_line", "visible_from", "ranged_visible_from",
    "visible_pairs", "adjacent", "adjacent_spaces", "adjacent_borders", "door_target_spaces",
    "sight_view", "range_between", "in_range", "can_target", "melee_targets", "units_on_tile",
    "affected_units", "VisiblePairs", "vertex_blocked", "barrier_borders_of", "barrier_spaces_of", "corner_rays",
    "require_rules",
]


LOS_RULE = "manual p22 (line of sight)"
RANGED_RULE = "manual p23 (ranged: obstacles block too)"
DOORS = frozenset({BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED, BorderKind.DOOR_DESTROYED})
WALLS_AND_DOORS = DOORS | {BorderKind.WALL, BorderKind.BOUNDARY}  # a tile's boundary is drawn as wall


@dataclass(frozen=True)
class Sight:
    """The verdict on one line of sight, able to explain itself (manual p22, p23).

    ``blocker`` is None when visible, else ``"border"`` (the line crosses a
    barrier border inside it), ``"space"`` (it enters a blocking space),
    ``"vertex"`` (it passes through a lattice vertex that the rulings close).
    ``borders`` are the blocking borders as pairs of spaces (``kinds`` their
    kinds), ``spaces`` the blocking spaces, ``point`` the exact point (x, y) where the line meets the
    blocker, ``reading`` the switches that decided it.

    Rules: manual p22 (line of sight), p23 (ranged); rulings D1, D2, D3.
    """

    source: Point
    target: Point
    visible: bool
    blocker: str | None = None
    borders: tuple[tuple[Point, Point], ...] = ()
    spaces: tuple[Point, ...] = ()
    point: tuple[Fraction, Fraction] | None = None
    reading: str = ""
    rule: str = LOS_RULE
    kinds: tuple[BorderKind, ...] = ()

    def __bool__(self) -> bool:
        return self.visible

    def explain(self) -> str:
        """One line saying what was decided and why, with the citation.

        Rules: manual p22 (line of sight).
        """
        head = f"{self.source} -> {self.target}: "
        if self.visible:
            return head + f"visible ({self.rule})"
        where = f" at ({self.point[0]}, {self.point[1]})" if self.point else ""
        if self.blocker == "border":
            (a, b), = self.borders
            what = f"the {_border_name(self.kinds[0])} between {a} and {b}"
        elif self.blocker == "space":
            what = f"the space {self.spaces[0]}"
        else:
            parts = [f"the {_border_name(kind)} {a}|{b}" for (a, b), kind in
                     zip(self.borders, self.kinds)] + [f"the space {p}" for p in self.spaces]
            what = " and ".join(parts) + " meeting"
        reading = f"; {self.reading}" if self.reading else ""
        return head + f"blocked by {what}{where} ({self.rule}{reading})"


@dataclass(frozen=True)
class Targeting:
    """Whether ``source`` may target ``target`` with a targeting icon, and why (manual p20, p23).

    Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through).
    """

    source: Point
    target: Point
    icon: str
    legal: bool
    reason: str
    distance: int | None
    sight: Sight | None = None

    def __bool__(self) -> bool:
        return self.legal


def _border_name(kind: BorderKind) -> str:
    return {BorderKind.WALL: "wall", BorderKind.DOOR_CLOSED: "closed door",
            BorderKind.BOUNDARY: "map boundary", BorderKind.EDGE: "unexplored edge",
            BorderKind.DIRECTION: "unexplored edge"}.get(kind, kind.name.lower())


# --- the exact walk of a centre-to-centre segment -------------------------------------------


def _trace(dx: int, dy: int) -> tuple[tuple[str, int, int], ...]:
    """Events met by the segment from a centre to the centre ``dx, dy`` spaces away, in order.

    Positions are doubled and relative to the source centre: ``("border", X, Y)``
    a border crossed at an inner point (its midpoint is ``(X, Y)``), ``("vertex",
    X, Y)`` a lattice vertex passed through, ``("space", X, Y)`` the centre of a
    space entered (never the target). Pure integer arithmetic.
    """
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    cx = cy = 0
    events = []
    while (cx, cy) != (dx, dy):
        # Parameters of the next vertical and horizontal grid lines, compared crosswise.
        vx = abs(2 * cx + sx) * ady if sx else None
        hy = abs(2 * cy + sy) * adx if sy else None
        if hy is None or (vx is not None and vx < hy):
            events.append(("border", 2 * cx + sx, 2 * cy))
            cx += sx
        elif vx is None or hy < vx:
            events.append(("border", 2 * cx, 2 * cy + sy))
            cy += sy
        else:
            events.append(("vertex", 2 * cx + sx, 2 * cy + sy))
            cx += sx
            cy += sy
        if (cx, cy) != (dx, dy):
            events.append(("space", 2 * cx, 2 * cy))
    return tuple(events)


def _event_point(source: Point, dx: int, dy: int, X: int, Y: int, kind: str
                 ) -> tuple[Fraction, Fraction]:
    """The exact point (in space units) where the segment meets the event at doubled (X, Y)."""
    if kind == "border" and X % 2:  # a vertical border (odd relative X): solve for y
        Y = Fraction(dy * X, dx)
    elif kind == "border":
        X = Fraction(dx * Y, dy)
    return (Fraction(2 * source[0] + 1 + X, 2), Fraction(2 * source[1] + 1 + Y, 2))


# --- what blocks: borders, spaces, vertices ----------------------------------------------------

BorderTest = Callable[[Point, Point], bool]
SpaceTest = Callable[[Point], bool]


def barrier_borders_of(board: Board, open_kinds: Collection[BorderKind] = ()) -> BorderTest:
    """A test ``(a, b) -> bool``: is the border between neighbours ``a`` and ``b`` a barrier?

    Borders of ``open_kinds`` count as open (closed doors, for *closest*).
    Memoised: build a new test after the board changes.

    Rules: manual p35-36 (walls, closed doors and unexplored edges are barriers).
    """
    blocking = BARRIER_BORDERS - set(open_kinds)
    border = _terrain_of(board).border
    seen: dict[tuple[Point, Point], bool] = {}

    def _test(a: Point, b: Point) -> bool:
        key = (a, b) if a < b else (b, a)
        hit = seen.get(key)
        if hit is None:
            hit = seen[key] = border(a, b) in blocking
        return hit
    return _test


def barrier_spaces_of(board: Board) -> SpaceTest:
    """A test ``p -> bool``: is ``p`` a barrier space (rubble, unidentifiable, or off the map)?

    Rules: manual p35 (rubble), p11 (unidentifiable areas).
    """
    nodes = _terrain_of(board).graph._node

    def _test(p: Point) -> bool:
        data = nodes.get(p)
        return data is None or data["kind"] in BARRIER_SPACES
    return _test


def _terrain_of(board: Board | Terrain) -> Terrain:
    return board.terrain if isinstance(board, Board) else board


def corner_rays(vertex: Point) -> tuple[tuple[Point, Point], ...]:
    """The four border half-segments meeting at lattice ``vertex``, as pairs of spaces: N, S, W, E.

    >>> corner_rays((1, 1))[0]     # the N ray: between the two spaces north of the vertex
    ((0, 0), (1, 0))

    Rules: manual p22 (line of sight through a point where walls meet); switch los.vertex.
    """
    vx, vy = vertex
    nw, ne, sw, se = (vx - 1, vy - 1), (vx, vy - 1), (vx - 1, vy), (vx, vy)
    return (nw, ne), (sw, se), (nw, sw), (ne, se)


def _obstacle_space(board: Board, rules: Rules, ethereal: Collection[str]) -> SpaceTest:
    """Obstacles for plain ranged targeting: obstacle spaces and units (manual p23, p25; switch ethereal.blocks_ranged)."""
    nodes = board.terrain.graph.nodes
    occupant = board.occupant
    ethereal_block = rules["ethereal.blocks_ranged"] == "yes"

    def _test(p: Point) -> bool:
        if p not in nodes:
            return False
        unit = occupant(p)
        if unit is not None and (ethereal_block or unit not in ethereal):
            return True
        return nodes[p]["kind"] in OBSTACLE_SPACES
    return _test


def vertex_blocked(
    vertex: Point, orientation: int, rules: Rules, border_barrier: BorderTest,
    space_barrier: SpaceTest, space_obstacle: SpaceTest | None = None,
) -> tuple[bool, tuple[tuple[Point, Point], ...], tuple[Point, ...]]:
    """Does a segment through lattice ``vertex`` get blocked there? (rulings D1, D2, D3)

    Returns ``(blocked, barrier rays, closing side spaces)``. ``orientation`` is
    +1 when the segment runs NW<->SE and -1 for NE<->SW. A *detour* is the way
    round the vertex through one side cell, crossing the two rays that bound
    it. Readings: ``los.vertex`` ``separating`` (both detours cut), ``touch_ok``
    (never), ``any_two`` (two or more barrier rays); ``los.space_squeeze``
    ``blocked`` folds barrier side spaces in (each cuts its own detour, or
    counts once for ``any_two``); with ``space_obstacle`` given (plain ranged
    targeting), ``ranged.obstacle_vertex`` adds obstacle side spaces the same
    way (``separating``), on any touch (``any_touch``) or never (``corner_ok``).

    >>> wall = lambda a, b: {a, b} == {(0, 1), (1, 1)}
    >>> vertex_blocked((1, 1), 1, Rules(), wall, lambda p: False)[0]   # a single wall end
    False

    Rules: manual p22 (touching the end of a barrier); rulings D1, D2, D3.
    """
    rays = corner_rays(vertex)
    (nw, ne), (sw, se) = rays[0], rays[1]
    n, s, w, e = border_barrier(nw, ne), border_barrier(sw, se), border_barrier(nw, sw), \
        border_barrier(ne, se)
    # The two cells whose corners the segment only touches: NE and SW when it runs NW<->SE.
    side1, side2 = (ne, sw) if orientation > 0 else (nw, se)
    walled1, walled2 = (n or e, s or w) if orientation > 0 else (n or w, s or e)
    closing = [c for c in (side1, side2) if space_barrier(c)] \
        if rules["los.space_squeeze"] == "blocked" else []
    reading = rules["los.vertex"]
    if reading == "touch_ok":
        blocked = len(closing) == 2
    elif reading == "separating":
        blocked = (walled1 or side1 in closing) and (walled2 or side2 in closing)
    else:  # any_two
        blocked = n + s + w + e + len(closing) >= 2
    if not blocked and space_obstacle is not None:
        obstacles = [c for c in (side1, side2) if space_obstacle(c)]
        ranged = rules["ranged.obstacle_vertex"]
        both = closing + obstacles
        if obstacles and (ranged == "any_touch" or ranged == "separating" and (
                (walled1 or side1 in both) and (walled2 or side2 in both))):
            blocked, closing = True, both
    if not blocked:
        return False, (), ()
    return True, tuple(r for r, hit in zip(rays, (n, s, w, e)) if hit), tuple(sorted(set(closing)))


# --- the explained verdict ------------------------------------------------------------------------


def require_rules(rules: object) -> Rules:
    """``rules`` if it is a :class:`Rules` object, else a :class:`RulesError` naming ``rules``."""
    if not isinstance(rules, Rules):
        raise RulesError("rules", f"expected a Rules object, got {type(rules).__name__}")
    return rules


def _walk(board: Board, a: Point, b: Point, rules: Rules, space_obstacle: SpaceTest | None,
          rule: str) -> Sight:
    dx, dy = b[0] - a[0], b[1] - a[1]
    border_barrier, space_barrier = barrier_borders_of(board), barrier_spaces_of(board)
    X0, Y0 = 2 * a[0] + 1, 2 * a[1] + 1
    point = None
    for kind, X, Y in _trace(dx, dy):
        ax, ay = X0 + X, Y0 + Y
        if kind != "space":  # a space is entered where the last border or vertex was met
            point = _event_point(a, dx, dy, X, Y, kind)
        if kind == "border":
            if ax % 2 == 0:
                p, q = ((ax - 2) // 2, (ay - 1) // 2), (ax // 2, (ay - 1) // 2)
            else:
                p, q = ((ax - 1) // 2, (ay - 2) // 2), ((ax - 1) // 2, ay // 2)
            if border_barrier(p, q):
                return Sight(a, b, False, "border", ((p, q),), (), point, "", rule,
                             (board.border(p, q),))
        elif kind == "space":
            cell = ((ax - 1) // 2, (ay - 1) // 2)
            if space_barrier(cell) or (space_obstacle is not None and space_obstacle(cell)):
                return Sight(a, b, False, "space", (), (cell,), point, "", rule)
        else:
            orientation = 1 if dx * dy > 0 else -1
            blocked, rays, sides = vertex_blocked((ax // 2, ay // 2), orientation, rules,
                                                  border_barrier, space_barrier, space_obstacle)
            if blocked:
                reading = f"los.vertex={rules['los.vertex']}"
                if sides:
                    reading += f", los.space_squeeze={rules['los.space_squeeze']}"
                if space_obstacle is not None:
                    reading += f", ranged.obstacle_vertex={rules['ranged.obstacle_vertex']}"
                return Sight(a, b, False, "vertex", rays, sides, point, reading, rule,
                             tuple(board.border(p, q) for p, q in rays))
    return Sight(a, b, True, rule=rule)


def line_of_sight(board: Board, a: Point, b: Point, rules: Rules) -> Sight:
    """Is ``b`` in line of sight of ``a``? An exact, explained verdict (manual p22).

    The segment joins the two centres. It is blocked where it crosses a barrier
    border at an inner point, enters a barrier space (rubble, unidentifiable
    or off-map area; the two end spaces never block), or passes through a
    lattice vertex the rulings close (:func:`vertex_blocked`). Obstacles never
    block sight (see :func:`ranged_line`).

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+\\n|. .|\\n+ +-+\\n|. .|\\n+-+-+\\n"))
    >>> line_of_sight(board, (0, 0), (1, 1), Rules()).visible   # one wall end: touching only
    True
    >>> board = board.with_border((0, 1), (1, 1), BorderKind.WALL)   # an L round the target
    >>> sight = line_of_sight(board, (0, 0), (1, 1), Rules())
    >>> sight.visible, sight.blocker, sight.point
    (False, 'vertex', (Fraction(1, 1), Fraction(1, 1)))

    Rules: manual p22 (line of sight); switches los.vertex and los.space_squeeze.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    return _walk(board, a, b, rules, None, LOS_RULE)


def ranged_line(board: Board, a: Point, b: Point, rules: Rules,
                ethereal: Collection[str] = ()) -> Sight:
    """The line for plain *ranged* targeting: barriers and obstacles block (manual p23).

    Obstacles are obstacle spaces and units (ethereal units per
    ``ethereal.blocks_ranged``, ``ethereal`` naming them); the source and target
    spaces never block; corners per ``ranged.obstacle_vertex``.

    Rules: manual p23 (ranged), p25 (ethereal); switches ranged.obstacle_vertex and ethereal.blocks_ranged.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    return _walk(board, a, b, rules, _obstacle_space(board, rules, ethereal), RANGED_RULE)


# --- fast tables: one bit per border, space and vertex --------------------------------------------
#
# Every element of the bounding box gets a bit at index X + Y*S of its absolute doubled
# position (S = 2W + 1); vertices crossed NE<->SW use a second plane (+ P). The segment's
# events for an offset are translation invariant, so one mask per offset, shifted against a
# board-wide "blocked" mask, decides a pair with one AND. The blocked masks are tables of the
# terrain (``Terrain.table``, keyed by the readings): every board of a map shares them, a
# changed terrain patches only the elements its changes touch, and units only add the
# ranged obstacles of their own spaces (kept per set of blocking spaces).


@dataclass(frozen=True)
class _Frame:
    x0: int
    y0: int
    width: int
    height: int

    @property
    def _stride(self) -> int:
        return 2 * self.width + 1

    @property
    def _plane(self) -> int:
        return self._stride * (2 * self.height + 1)

    @property
    def _anchor(self) -> int:  # K: shifts every relative index to be >= 0
        return 2 * self.width + 2 * self.height * self._stride


_OFFSETS: dict[tuple[int, int], list] = {}


def _offsets(width: int, height: int) -> list:
    """The offset masks of one board size, by (dx + W-1) + (dy + H-1)(2W-1); each made on first use."""
    hit = _OFFSETS.get((width, height))
    if hit is None:
        hit = _OFFSETS[(width, height)] = [None] * ((2 * width - 1) * (2 * height - 1))
    return hit


_EAGER_OFFSETS = 10_000
"""Boards up to about 50x50 make every offset mask at once; bigger ones each on first use."""


def _offset_mask(frame: _Frame, k: int) -> int:
    """Make (once) the mask of the events met from a centre to the centre at offset number ``k``."""
    W, H = frame.width, frame.height
    cols = 2 * W - 1
    dx, dy = k % cols - (W - 1), k // cols - (H - 1)
    S, P, K = frame._stride, frame._plane, frame._anchor
    plane = P if dx * dy < 0 else 0
    mask = _bits(K + X + Y * S + (plane if kind == "vertex" else 0) for kind, X, Y in _trace(dx, dy))
    _offsets(W, H)[k] = mask
    return mask


def _bits(positions: Iterable[int]) -> int:
    """The number with exactly these bits set, built in one pass."""
    positions = list(positions)
    if not positions:
        return 0
    raw = bytearray(max(positions) // 8 + 1)
    for k in positions:
        raw[k >> 3] |= 1 << (k & 7)
    return int.from_bytes(raw, "little")


class _Geometry:
    """Where each space of one outline sits in the masks; shared by terrains with the same spaces."""

    def __init__(self, points: Iterable[Point]):
        self.spaces = spaces = tuple(sorted(points))
        if not spaces:
            raise RulesError("board", "the board has no spaces")
        xs, ys = [p[0] for p in spaces], [p[1] for p in spaces]
        self.frame = frame = _Frame(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        S, cols = frame._stride, 2 * frame.width - 1
        self.index = {p: (p[0] - frame.x0) + (p[1] - frame.y0) * cols for p in spaces}
        self.slots = [self.index[p] for p in spaces]
        self.order = {p: i for i, p in enumerate(spaces)}
        self.centre = {p: frame._anchor - (2 * (p[0] - frame.x0) + 1 + (2 * (p[1] - frame.y0) + 1) * S)
                       for p in spaces}
        self.middle = (frame.width - 1) + (frame.height - 1) * cols
        self.masks = masks = _offsets(frame.width, frame.height)
        self.complete = len(masks) <= _EAGER_OFFSETS
        if self.complete:
            for k, mask in enumerate(masks):
                if mask is None:
                    _offset_mask(frame, k)

    def position(self, gx: int, gy: int, plane: int = 0) -> int:
        """The bit of the element at absolute doubled (gx, gy); plane 1 for NE<->SW vertices."""
        f = self.frame
        return gx - 2 * f.x0 + (gy - 2 * f.y0) * f._stride + (f._plane if plane else 0)

    def elements(self) -> Iterator[tuple[int, int, int]]:
        """Every space, border and vertex (both planes) of the frame as ``(gx, gy, plane)``."""
        f = self.frame
        for gy in range(2 * f.y0, 2 * (f.y0 + f.height) + 1):
            for gx in range(2 * f.x0, 2 * (f.x0 + f.width) + 1):
                yield gx, gy, 0
                if gx % 2 == 0 and gy % 2 == 0:
                    yield gx, gy, 1

    def clear(self, mask: int, a: Point, first: int = 0, last: int | None = None) -> list[Point]:
        """The spaces ``spaces[first:last]`` whose line from ``a`` meets no bit of ``mask``.

        Rules: manual p22 (line of sight), p23 (plain ranged: obstacles block too).
        """
        return self.clear_shifted(mask << self.centre[a], a, first, last)

    def clear_shifted(self, blocked: int, a: Point, first: int = 0,
                      last: int | None = None) -> list[Point]:
        """:meth:`clear` with the mask already shifted to ``a`` (``mask << centre[a]``)."""
        masks, base = self.masks, self.middle - self.index[a]
        pairs = zip(self.spaces[first:last], self.slots[first:last])
        if self.complete:
            return [t for t, slot in pairs if not masks[base + slot] & blocked]
        frame = self.frame
        return [t for t, slot in pairs
                if not (masks[base + slot] or _offset_mask(frame, base + slot)) & blocked]


def _touched_elements(terrain) -> list[tuple[int, int, int]]:
    """The elements whose verdict a terrain's changes may alter: the changed space or border
    and the lattice vertices at its corners or ends (both planes)."""
    out = []
    for what, where in terrain.changes:
        if what == "border":
            (ax, ay), (bx, by) = where
            gx, gy = ax + bx + 1, ay + by + 1
            ends = ((gx, gy - 1), (gx, gy + 1)) if gx % 2 == 0 else ((gx - 1, gy), (gx + 1, gy))
        else:
            gx, gy = 2 * where[0] + 1, 2 * where[1] + 1
            ends = ((gx - 1, gy - 1), (gx + 1, gy - 1), (gx - 1, gy + 1), (gx + 1, gy + 1))
        out.append((gx, gy, 0))
        out.extend((vx, vy, plane) for vx, vy in ends for plane in (0, 1))
    return out


def _verdict(rules: Rules, border_barrier: BorderTest, space_barrier: SpaceTest,
             obstacle: SpaceTest | None) -> Callable[[int, int, int], bool]:
    """Is the element at doubled (gx, gy) (plane 1: a NE<->SW vertex) blocked? (rulings D1, D2, D3)"""
    def _blocked(gx: int, gy: int, plane: int) -> bool:
        if gx % 2 and gy % 2:
            cell = ((gx - 1) // 2, (gy - 1) // 2)
            return space_barrier(cell) or (obstacle is not None and obstacle(cell))
        if gy % 2:
            return border_barrier(((gx - 2) // 2, (gy - 1) // 2), (gx // 2, (gy - 1) // 2))
        if gx % 2:
            return border_barrier(((gx - 1) // 2, (gy - 2) // 2), ((gx - 1) // 2, gy // 2))
        return vertex_blocked((gx // 2, gy // 2), -1 if plane else 1, rules, border_barrier,
                              space_barrier, obstacle)[0]
    return _blocked


def _obstacle_spaces_of(terrain) -> SpaceTest:
    """Obstacle spaces of the terrain itself (units apart): plain ranged targeting (manual p23)."""
    nodes = terrain.graph.nodes
    return lambda p: p in nodes and nodes[p]["kind"] in OBSTACLE_SPACES


def _geometry(terrain) -> _Geometry:
    return terrain.table(("geometry",), lambda t: _Geometry(t.graph), lambda old, t: old)


def _mask_table(terrain, rules: Rules, ranged: bool) -> int:
    """The blocked mask of sight (``ranged`` False) or of plain ranged with the terrain's own
    obstacles: a table of the terrain, patched after a change."""
    names = _READINGS[:3] if ranged else _READINGS[:2]
    key = ("ranged" if ranged else "sight",) + tuple(rules[n] for n in names)

    def _judge(t) -> Callable[[int, int, int], bool]:
        return _verdict(rules, barrier_borders_of(t), barrier_spaces_of(t),
                        _obstacle_spaces_of(t) if ranged else None)

    def _build(t) -> int:
        geo, judge = _geometry(t), _judge(t)
        if not ranged:
            return _bits(geo.position(*e) for e in geo.elements() if judge(*e))
        obstacle, corners = _obstacle_spaces_of(t), []
        for x, y in geo.spaces:
            if obstacle((x, y)):
                corners += [(2 * x + 1, 2 * y + 1, 0)] + [
                    (2 * x + dx, 2 * y + dy, plane) for dx in (0, 2) for dy in (0, 2)
                    for plane in (0, 1)]
        return _mask_table(t, rules, False) | _bits(geo.position(*e) for e in corners if judge(*e))

    def _patch(old: int, t) -> int:
        geo, judge, touched = _geometry(t), _judge(t), _touched_elements(t)
        gone = _bits(geo.position(*e) for e in touched)
        return (old & ~gone) | _bits(geo.position(*e) for e in touched if judge(*e))
    return terrain.table(key, _build, _patch)


def _ranged_mask(board: Board, rules: Rules, ethereal: frozenset[str]) -> int:
    """The plain-ranged blocked mask with the board's units as obstacles (manual p23, p25; C-19).

    Only the units' own spaces and their corners are judged again, per set of blocking spaces.
    """
    terrain = board.terrain
    base = _mask_table(terrain, rules, True)
    everyone = rules["ethereal.blocks_ranged"] == "yes"
    blocking = frozenset(p for p, unit in board.occupancy if everyone or unit not in ethereal)
    if not blocking:
        return base

    def _build() -> int:
        geo, spaces = _geometry(terrain), _obstacle_spaces_of(terrain)
        judge = _verdict(rules, barrier_borders_of(terrain), barrier_spaces_of(terrain),
                         lambda p: p in blocking or spaces(p))
        touched = [(2 * x + 1, 2 * y + 1, 0) for x, y in blocking] + [
            (2 * x + dx, 2 * y + dy, plane) for x, y in blocking for dx in (0, 2)
            for dy in (0, 2) for plane in (0, 1)]
        return base | _bits(geo.position(*e) for e in touched if judge(*e))
    return terrain.recent(("ranged units", tuple(rules[n] for n in _READINGS[:3]), blocking), _build)


_READINGS = ("los.vertex", "los.space_squeeze", "ranged.obstacle_vertex")


def visible_from(board: Board, a: Point, rules: Rules) -> frozenset[Point]:
    """Every other space in line of sight of ``a``: the fast table form of :func:`line_of_sight`.

    The tables belong to the map's terrain (units never change sight), so a unit
    moving costs nothing and a door closing re-judges only that door's ends.

    Rules: manual p22 (line of sight).
    """
    rules = require_rules(rules)
    a = board.require(a, "a")
    return frozenset(_geometry(board.terrain).clear(_mask_table(board.terrain, rules, False), a)) - {a}


def ranged_visible_from(board: Board, a: Point, rules: Rules,
                        ethereal: Collection[str] = ()) -> frozenset[Point]:
    """Every other space whose plain-ranged line from ``a`` is clear (fast form of :func:`ranged_line`).

    Rules: manual p23 (ranged); switches ranged.obstacle_vertex and ethereal.blocks_ranged.
    """
    rules = require_rules(rules)
    a = board.require(a, "a")
    mask = _ranged_mask(board, rules, frozenset(ethereal))
    return frozenset(_geometry(board.terrain).clear(mask, a)) - {a}


class VisiblePairs(Set):
    """Every pair ``(a, b)``, ``a < b``, in line of sight, as one bitset per source (manual p22).

    A read-only set of pairs: ``in``, ``len``, iteration, comparison with any set.
    Row ``i`` has bit ``j`` set when ``spaces[j]`` (``j > i``) is seen from ``spaces[i]``.

    Rules: manual p22 (line of sight).
    """

    __slots__ = ("spaces", "rows", "_order")

    def __init__(self, spaces: tuple[Point, ...], rows: tuple[int, ...]):
        object.__setattr__(self, "spaces", tuple(spaces))
        object.__setattr__(self, "rows", tuple(rows))
        object.__setattr__(self, "_order", {p: i for i, p in enumerate(self.spaces)})

    def __setattr__(self, name, value):
        raise AttributeError("VisiblePairs is a value")

    def __contains__(self, pair: object) -> bool:
        try:
            a, b = pair
            i, j = self._order.get(a), self._order.get(b)
        except (TypeError, ValueError):
            return False
        return i is not None and j is not None and i < j and bool(self.rows[i] >> j & 1)

    def __iter__(self) -> Iterator[tuple[Point, Point]]:
        spaces = self.spaces
        for i, row in enumerate(self.rows):
            if row:
                a = spaces[i]
                for j, bit in enumerate(bin(row)[:1:-1]):
                    if bit == "1":
                        yield a, spaces[j]

    def __len__(self) -> int:
        return sum(row.bit_count() for row in self.rows)

    __hash__ = Set._hash

    def __repr__(self) -> str:
        return f"<{len(self)} visible pairs of {len(self.spaces)} spaces>"


def visible_pairs(board: Board, rules: Rules) -> VisiblePairs:
    """Every pair ``(a, b)`` with ``a < b`` in line of sight: all pairs at once (manual p22).

    Sight is symmetric (the same segment), so each unordered pair is decided once.
    Targets are taken a run of columns at a time: when no blocked element lies
    in the box between the source and the run, the whole run is in sight
    without a test each (an open board costs one look per source).

    Rules: manual p22 (line of sight).
    """
    rules = require_rules(rules)
    key = ("boxes",) + tuple(rules[n] for n in _READINGS[:2])
    boxes = board.terrain.table(key, lambda t: _BlockedBoxes(_geometry(t),
                                                             _mask_table(t, rules, False)))
    return VisiblePairs(boxes.geo.spaces, tuple(boxes.row(a, i)
                                                for i, a in enumerate(boxes.geo.spaces)))


class _BlockedBoxes:
    """Counts of blocked elements over boxes of the doubled grid (2D prefix sums), to decide a
    whole run of targets at once."""

    def __init__(self, geo: _Geometry, mask: int):
        f = geo.frame
        S, P = f._stride, f._plane
        rows = 2 * f.height + 1
        grid = [0] * (S * rows)
        bits = bin(mask)[:1:-1]
        for k, bit in enumerate(bits):
            if bit == "1":
                grid[k % P] = 1
        width = S + 1
        sums = [0] * (width * (rows + 1))
        for y in range(rows):
            run, row, above = 0, (y + 1) * width, y * width
            for x in range(S):
                run += grid[y * S + x]
                sums[row + x + 1] = sums[above + x + 1] + run
        self.geo, self.mask, self.sums, self.width = geo, mask, sums, width
        xs = [p[0] for p in geo.spaces]
        self.column = {x: (bisect_left(xs, x), bisect_right(xs, x)) for x in set(xs)}
        self.columns = sorted(self.column)

    def _count(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """Blocked elements with relative doubled x0 <= X <= x1, y0 <= Y <= y1."""
        s, w = self.sums, self.width
        return s[(y1 + 1) * w + x1 + 1] - s[y0 * w + x1 + 1] - s[(y1 + 1) * w + x0] + s[y0 * w + x0]

    def row(self, a: Point, i: int) -> int:
        """The bits ``j > i`` of the spaces seen from ``a = spaces[i]`` (manual p22: line of
        sight)."""
        geo, f = self.geo, self.geo.frame
        spaces = geo.spaces
        cx, cy = 2 * (a[0] - f.x0) + 1, 2 * (a[1] - f.y0) + 1
        out, blocked = 0, None
        todo = [(i + 1, self.column[a[0]][1])]
        later = bisect_right(self.columns, a[0])
        if later < len(self.columns):
            todo.append((self.column[self.columns[later]][0], len(spaces)))
        while todo:
            lo, hi = todo.pop()
            if lo >= hi:
                continue
            first, last = spaces[lo], spaces[hi - 1]
            ys = (first[1], last[1]) if first[0] == last[0] else (0 + f.y0, f.y0 + f.height - 1)
            bx0, bx1 = min(cx, 2 * (first[0] - f.x0) + 1), max(cx, 2 * (last[0] - f.x0) + 1)
            by0 = min(cy, 2 * (min(ys) - f.y0) + 1)
            by1 = max(cy, 2 * (max(ys) - f.y0) + 1)
            if not self._count(bx0, by0, bx1, by1):
                out |= ((1 << (hi - lo)) - 1) << lo
            elif last[0] - first[0] >= _RUN_COLUMNS:
                mid = self.column[(first[0] + last[0] + 1) // 2][0] if \
                    (first[0] + last[0] + 1) // 2 in self.column else (lo + hi) // 2
                todo += [(lo, mid), (mid, hi)]
            else:
                if blocked is None:
                    blocked = self.mask << geo.centre[a]
                order = geo.order
                for t in geo.clear_shifted(blocked, a, lo, hi):
                    out |= 1 << order[t]
        return out


_RUN_COLUMNS = 16
"""Runs of targets narrower than this many columns are tested one by one."""


# --- adjacency ---------------------------------------------------------------------------------------


def _touching_borders(board: Board) -> BorderTest:
    """Barrier borders with every boundary between two tiles open: touching spaces of two tiles
    are adjacent (``adjacency.across_tiles = any_touching_spaces``; switches join.other_edges
    and adjacency.across_tiles)."""
    nodes = board.terrain.graph._node
    barrier = barrier_borders_of(board)

    def _border_barrier(p: Point, q: Point) -> bool:
        if p in nodes and q in nodes and nodes[p]["tile"] != nodes[q]["tile"]:
            return False
        return barrier(p, q)
    return _border_barrier


def _neighbours_test(board: Board, rules: Rules) -> Callable[[Point, Point], bool]:
    """Whether neighbours ``a`` and ``b`` are adjacent: the verdict of :func:`_neighbour_open`
    without its explanation. Between orthogonal neighbours the centre-to-centre segment meets
    one border, between diagonal ones one vertex (manual p22; switch adjacency.across_tiles)."""
    spaces = barrier_spaces_of(board)
    border = _touching_borders(board) if \
        rules["adjacency.across_tiles"] == "any_touching_spaces" else barrier_borders_of(board)

    def _open(a: Point, b: Point) -> bool:
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx and dy:
            vertex = (max(a[0], b[0]), max(a[1], b[1]))
            return not vertex_blocked(vertex, 1 if dx * dy > 0 else -1, rules, border, spaces)[0]
        return not border(a, b)
    return _open


def _neighbour_open(board: Board, a: Point, b: Point, rules: Rules) -> Sight:
    """Line of sight between neighbours, with tile boundaries open per ``adjacency.across_tiles``."""
    if rules["adjacency.across_tiles"] == "any_touching_spaces":
        _border_barrier = _touching_borders(board)
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx and dy:
            v = (max(a[0], b[0]), max(a[1], b[1]))
            blocked, rays, sides = vertex_blocked(v, 1 if dx * dy > 0 else -1, rules,
                                                  _border_barrier, barrier_spaces_of(board))
            return Sight(a, b, not blocked, "vertex" if blocked else None, rays, sides,
                         (Fraction(v[0]), Fraction(v[1])) if blocked else None,
                         "adjacency.across_tiles=any_touching_spaces")
        if _border_barrier(a, b):
            return line_of_sight(board, a, b, rules)
        return Sight(a, b, True, reading="adjacency.across_tiles=any_touching_spaces")
    return line_of_sight(board, a, b, rules)


def adjacent(board: Board, a: Point, b: Point, rules: Rules) -> bool:
    """Are spaces ``a`` and ``b`` adjacent: neighbours and in line of sight? (manual p22)

    Across two tiles, per ``adjacency.across_tiles``: only through joined edges
    (``joined_edges_only``: an unjoined boundary is a barrier) or wherever the
    spaces touch (``any_touching_spaces``).

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+\\n|.|.|\\n+-+-+\\n"))
    >>> adjacent(board, (0, 0), (1, 0), Rules())
    False

    Rules: manual p22 (adjacent; index: adjacency across map tiles); switches join.other_edges and adjacency.across_tiles.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    return _neighbours_test(board, rules)(a, b)


def adjacent_spaces(board: Board, a: Point, rules: Rules) -> tuple[Point, ...]:
    """The spaces adjacent to ``a``, sorted (manual p22).

    Rules: manual p22 (adjacent).
    """
    rules, a = require_rules(rules), board.require(a, "a")
    is_open = _neighbours_test(board, rules)
    around = ((a[0] + dx, a[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)
    return tuple(sorted(p for p in around if p in board and is_open(a, p)))


def adjacent_borders(board: Board, a: Point) -> tuple[tuple[tuple[Point, Point], BorderKind], ...]:
    """The walls and doors adjacent to a unit on ``a``: only those on its own 4 borders (manual p22).

    Each entry is ``((a, neighbour), kind)``: walls (a tile's boundary counts as
    its drawn wall) and doors; a door touching only a corner of ``a`` is not adjacent.

    Rules: manual p22 (adjacent: walls and doors), p36 (doors).
    """
    a = board.require(a, "a")
    out = []
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        n = (a[0] + dx, a[1] + dy)
        kind = board.border(a, n)
        if kind in WALLS_AND_DOORS:
            out.append(((a, n), kind))
    return tuple(out)


def door_target_spaces(board: Board, door: tuple[Point, Point]) -> tuple[Point, Point]:
    """The spaces a "target door" ability may target for ``door``: both spaces it borders (manual p22).

    Rules: manual p22 (targeting a door: the space with the door on a border).
    """
    try:
        p, q = door
    except (TypeError, ValueError):
        raise RulesError("door", f"expected a pair of spaces, got {door!r}") from None
    p, q = board.require(p, "door"), board.require(q, "door")
    if board.border(p, q) not in DOORS:
        raise RulesError("door", f"there is no door between {p} and {q}")
    return (p, q)


def sight_view(board: Board, rules: Rules, ends: Collection[Point] = ()) -> nx.Graph:
    """The board's graph restricted to adjacent neighbours: a view, not a copy (manual p22).

    Barrier spaces are left out, except those named in ``ends`` (a range may
    end on rubble). Steps across two tiles follow ``adjacency.across_tiles``.

    Rules: manual p22 (adjacent); switches range.metric and range.count.
    """
    rules = require_rules(rules)
    barrier, ends = barrier_spaces_of(board), frozenset(ends)

    def _edge(p: Point, q: Point) -> bool:
        return _neighbour_open(board, p, q, rules).visible

    return nx.subgraph_view(board.graph, filter_node=lambda p: p in ends or not barrier(p),
                            filter_edge=_edge)


# --- range and targeting ----------------------------------------------------------------------------


def range_between(board: Board, a: Point, b: Point, rules: Rules) -> int | None:
    """The range from ``a`` to ``b`` per ``range.metric`` and ``range.count`` (manual p23).

    ``chebyshev``: king steps; ``euclidean``: the straight distance rounded to
    the nearest whole space (exactly, by integer square root);
    ``path_around_barriers``: steps between adjacent spaces, through obstacles
    but around barriers (None if there is no way round). ``range.count``
    ``steps`` counts self 0 and a neighbour 1; ``spaces_between`` one less.

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+-+-+\\n|. . . .|\\n+-+-+-+-+\\n"))
    >>> range_between(board, (0, 0), (3, 0), Rules())
    3

    Rules: manual p23 (range X: the spaces between); switches range.metric and range.count.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    metric = rules["range.metric"]
    if metric == "chebyshev":
        steps = max(dx, dy)
    elif metric == "euclidean":
        d2 = dx * dx + dy * dy
        root = isqrt(d2)
        steps = root + 1 if d2 > root * root + root else root
    else:
        view = sight_view(board, rules, ends=(a, b))
        try:
            steps = nx.shortest_path_length(view, a, b) if a != b else 0
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return None
    if rules["range.count"] == "spaces_between":
        steps = max(steps - 1, 0)
    return steps


def in_range(board: Board, a: Point, b: Point, reach: int, rules: Rules) -> bool:
    """Is ``b`` within range ``reach`` of ``a``? (manual p23; switches range.metric and range.count)

    Rules: manual p23 (range X); switches range.metric and range.count.
    """
    if not isinstance(reach, int) or isinstance(reach, bool) or reach < 0:
        raise RulesError("reach", f"expected a range X >= 0, got {reach!r}")
    distance = range_between(board, a, b, rules)
    return distance is not None and distance <= reach


def can_target(board: Board, source: Point, target: Point, rules: Rules, icon: str = "melee",
               reach: int = 0, ethereal: Collection[str] = (),
               ethereal_targeting: bool = False) -> Targeting:
    """May ``source`` target ``target`` with ``icon`` (melee, ranged, ranged_through) and range ``reach``?

    Melee: the unit itself or an adjacent space. Ranged X: within range X and
    the line clear of barriers *and obstacles*; ranged through X: only barriers
    block. A unit named in ``ethereal`` is a legal target only with
    ``ethereal_targeting`` (an effect or a lit chapter space granting it).

    Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through), p25 (ethereal).
    """
    rules = require_rules(rules)
    source, target = board.require(source, "source"), board.require(target, "target")
    if icon not in ("melee", "ranged", "ranged_through"):
        raise RulesError("icon", f"expected melee, ranged or ranged_through, got {icon!r}")
    distance = range_between(board, source, target, rules)
    unit = board.unit_at(target)
    if unit is not None and unit in ethereal and not ethereal_targeting and target != source:
        return Targeting(source, target, icon, False, f"{unit} is ethereal (manual p25)",
                         distance)
    if icon == "melee":
        if target == source:
            return Targeting(source, target, icon, True, "yourself (manual p23)", 0)
        legal = adjacent(board, source, target, rules)
        sight = _neighbour_open(board, source, target, rules) if distance == 1 else None
        reason = "adjacent (manual p22)" if legal else "not adjacent (manual p22)"
        return Targeting(source, target, icon, legal, reason, distance, sight)
    if distance is None or distance > reach:
        return Targeting(source, target, icon, False,
                         f"out of range {reach}: range {distance} (manual p23; "
                         f"range.metric={rules['range.metric']}, range.count={rules['range.count']})",
                         distance)
    sight = (ranged_line(board, source, target, rules, ethereal) if icon == "ranged"
             else line_of_sight(board, source, target, rules))
    reason = "in range and line clear" if sight.visible else sight.explain()
    return Targeting(source, target, icon, sight.visible, reason, distance, sight)


def melee_targets(board: Board, a: Point, rules: Rules) -> tuple[Point, ...]:
    """The spaces a melee ability from ``a`` may target: ``a`` itself and its adjacent spaces (manual p23).

    Rules: manual p23 (melee targeting).
    """
    a = board.require(a, "a")
    return tuple(sorted((a,) + adjacent_spaces(board, a, rules)))


# --- map-tile scope -----------------------------------------------------------------------------------


def units_on_tile(board: Board, point: Point) -> tuple[tuple[str, Point], ...]:
    """The units on the same map tile as ``point``, sorted by name (manual p21-22).

    Rules: manual p21-22 (map-tile scope).
    """
    tile = board.tile_of(board.require(point, "point"))
    return tuple(sorted((u, p) for u, p in board.units().items() if board.tile_of(p) == tile))


def affected_units(board: Board, activating: Point | None) -> tuple[tuple[str, Point], ...]:
    """Units an untargeted ability affects: those on the activating unit's tile; every tile with none.

    Rules: manual p21-22 (map-tile scope: no owner and no activating unit → every tile).
    """
    if activating is None:
        return tuple(sorted(board.units().items()))
    return units_on_tile(board, activating)

