"""Line of sight, adjacency, targeting and map-tile scope on the board graph.

Line of sight runs centre to centre (manual p22) and is decided exactly in
integer arithmetic on *doubled* coordinates: space ``(x, y)`` has its centre at
``(2x+1, 2y+1)``, borders sit at one even and one odd coordinate and lattice
vertices at two even ones. A centre-to-centre segment never runs along a
border; it crosses a border at an inner point (a barrier there blocks), enters
a space (a barrier space blocks) or passes exactly through a vertex, where the
``los.vertex`` and ``los.space_squeeze`` rulings decide (spec §A6.2, D1, D2).

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

Rules: manual p22 (line of sight, adjacent), p23 (melee, ranged), p21-22 (map-tile scope); spec §A6, §A7, D1-D3, D6, D21.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Callable, Collection

import networkx as nx

from machina_nb.rules.board.graph import BARRIER_BORDERS, BARRIER_SPACES, OBSTACLE_SPACES, Board
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.rulings import Rules

__all__ = [
    "Sight", "Targeting", "line_of_sight", "ranged_line", "visible_from", "ranged_visible_from",
    "visible_pairs", "adjacent", "adjacent_spaces", "adjacent_borders", "door_target_spaces",
    "sight_view", "range_between", "in_range", "can_target", "melee_targets", "units_on_tile",
    "affected_units", "vertex_blocked", "barrier_borders_of", "barrier_spaces_of", "corner_rays",
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

    Rules: manual p22 (line of sight), p23 (ranged); spec §A6, D1-D3.
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

        Rules: manual p22 (line of sight); spec §A6.
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

    Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through); spec §A7.
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
    space entered (never the target). Pure integer arithmetic (spec §A6.2).
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

    Rules: manual p35-36 (walls, closed doors and unexplored edges are barriers); spec §A1.1.
    """
    blocking = BARRIER_BORDERS - set(open_kinds)
    seen: dict[tuple[Point, Point], bool] = {}

    def _test(a: Point, b: Point) -> bool:
        key = (a, b) if a < b else (b, a)
        if key not in seen:
            seen[key] = board.border(a, b) in blocking
        return seen[key]
    return _test


def barrier_spaces_of(board: Board) -> SpaceTest:
    """A test ``p -> bool``: is ``p`` a barrier space (rubble, unidentifiable, or off the map)?

    Rules: manual p35 (rubble), p11 (unidentifiable areas); spec §A1.1.
    """
    nodes = board.graph.nodes
    return lambda p: p not in nodes or nodes[p]["kind"] in BARRIER_SPACES


def corner_rays(vertex: Point) -> tuple[tuple[Point, Point], ...]:
    """The four border half-segments meeting at lattice ``vertex``, as pairs of spaces: N, S, W, E.

    >>> corner_rays((1, 1))[0]     # the N ray: between the two spaces north of the vertex
    ((0, 0), (1, 0))

    Rules: spec §0.1 (rays at a vertex), §A6.2.
    """
    vx, vy = vertex
    nw, ne, sw, se = (vx - 1, vy - 1), (vx, vy - 1), (vx - 1, vy), (vx, vy)
    return (nw, ne), (sw, se), (nw, sw), (ne, se)


def _obstacle_space(board: Board, rules: Rules, ethereal: Collection[str]) -> SpaceTest:
    """Obstacles for plain ranged targeting: obstacle spaces and units (manual p23, p25; spec C-19)."""
    nodes = board.graph.nodes
    ethereal_block = rules["ethereal.blocks_ranged"] == "yes"

    def _test(p: Point) -> bool:
        if p not in nodes:
            return False
        data = nodes[p]
        unit = data["unit"]
        if unit is not None and (ethereal_block or unit not in ethereal):
            return True
        return data["kind"] in OBSTACLE_SPACES
    return _test


def _side_cells(vx: int, vy: int, orientation: int) -> tuple[Point, Point]:
    """The two cells whose corners a segment through V(vx, vy) only touches.

    ``orientation`` +1: the segment runs NW<->SE (dx, dy of one sign), touching
    NE and SW; -1: it runs NE<->SW, touching NW and SE.
    """
    if orientation > 0:
        return (vx, vy - 1), (vx - 1, vy)
    return (vx - 1, vy - 1), (vx, vy)


def vertex_blocked(
    vertex: Point, orientation: int, rules: Rules, border_barrier: BorderTest,
    space_barrier: SpaceTest, space_obstacle: SpaceTest | None = None,
) -> tuple[bool, tuple[tuple[Point, Point], ...], tuple[Point, ...]]:
    """Does a segment through lattice ``vertex`` get blocked there? (spec §A6.2, D1-D3)

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

    Rules: manual p22 (touching the end of a barrier); spec §A6.2, D1, D2, D3.
    """
    rays = corner_rays(vertex)
    n, s, w, e = (border_barrier(p, q) for p, q in rays)
    side1, side2 = _side_cells(*vertex, orientation)
    walled1, walled2 = (n or e, s or w) if orientation > 0 else (n or w, s or e)
    squeeze = rules["los.space_squeeze"] == "blocked"
    closing = [c for c in (side1, side2) if squeeze and space_barrier(c)]
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
    """``rules`` if it is a :class:`Rules` object, else a :class:`RulesError` naming ``rules``.

    Rules: spec appendix (every query takes the rules object).
    """
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
    >>> board.set_border((0, 1), (1, 1), BorderKind.WALL)         # an L round the target
    >>> sight = line_of_sight(board, (0, 0), (1, 1), Rules())
    >>> sight.visible, sight.blocker, sight.point
    (False, 'vertex', (Fraction(1, 1), Fraction(1, 1)))

    Rules: manual p22 (line of sight); spec §A6, D1, D2.
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

    Rules: manual p23 (ranged), p25 (ethereal); spec §A7.3, D3, C-19.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    return _walk(board, a, b, rules, _obstacle_space(board, rules, ethereal), RANGED_RULE)


# --- fast tables: one bit per border, space and vertex --------------------------------------------
#
# Every element of the bounding box gets a bit at index X + Y*S of its absolute doubled
# position (S = 2W + 1); vertices crossed NE<->SW use a second plane (+ P). The segment's
# events for an offset are translation invariant, so one mask per offset, shifted against a
# board-wide "blocked" mask, decides a pair with one AND.


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


_OFFSETS: dict[tuple[int, int], tuple[int, ...]] = {}


def _offset_masks(width: int, height: int) -> tuple[int, ...]:
    """Masks of every offset (dx, dy), at index (dx + W-1) + (dy + H-1)(2W-1); cached per size."""
    key = (width, height)
    if key not in _OFFSETS:
        frame = _Frame(0, 0, width, height)
        S, P, K = frame._stride, frame._plane, frame._anchor
        masks = []
        for dy in range(-height + 1, height):
            for dx in range(-width + 1, width):
                mask = 0
                plane = P if dx * dy < 0 else 0
                for kind, X, Y in _trace(dx, dy):
                    mask |= 1 << (K + X + Y * S + (plane if kind == "vertex" else 0))
                masks.append(mask)
        _OFFSETS[key] = tuple(masks)
    return _OFFSETS[key]


class _Tables:
    """Per board version and rulings: the blocked masks for sight and for plain ranged.

    Spaces and borders are read every time (one pass); the vertex bits depend
    only on the barriers, so they are shared by every board state with the
    same barriers (a unit moving does not recompute them).
    """

    def __init__(self, board: Board, rules: Rules, ethereal: frozenset[str]):
        xs = [p[0] for p in board.graph]
        ys = [p[1] for p in board.graph]
        if not xs:
            raise RulesError("board", "the board has no spaces")
        frame = _Frame(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        self.frame = frame
        self.offsets = _offset_masks(frame.width, frame.height)
        border_barrier, space_barrier = barrier_borders_of(board), barrier_spaces_of(board)
        obstacle = _obstacle_space(board, rules, ethereal)
        S, P = frame._stride, frame._plane

        def _bit(gx: int, gy: int) -> int:  # absolute doubled position -> its bit
            return 1 << (gx - 2 * frame.x0 + (gy - 2 * frame.y0) * S)

        terrain, obstacles = 0, []
        for gy in range(2 * frame.y0, 2 * (frame.y0 + frame.height) + 1):
            for gx in range(2 * frame.x0 + 1 - gy % 2, 2 * (frame.x0 + frame.width) + 1, 2 - gy % 2):
                if gx % 2 and gy % 2:
                    cell = ((gx - 1) // 2, (gy - 1) // 2)
                    if space_barrier(cell):
                        terrain |= _bit(gx, gy)
                    elif obstacle(cell):
                        obstacles.append(cell)
                elif gx % 2 == 0 and gy % 2:
                    if border_barrier(((gx - 2) // 2, (gy - 1) // 2), (gx // 2, (gy - 1) // 2)):
                        terrain |= _bit(gx, gy)
                elif border_barrier(((gx - 1) // 2, (gy - 2) // 2), ((gx - 1) // 2, gy // 2)):
                    terrain |= _bit(gx, gy)
        key = (frame, terrain, rules["los.vertex"], rules["los.space_squeeze"])
        if key not in _VERTICES:
            vertices = 0
            for vy in range(frame.y0, frame.y0 + frame.height + 1):
                for vx in range(frame.x0, frame.x0 + frame.width + 1):
                    for orientation, plane in ((1, 0), (-1, P)):
                        if vertex_blocked((vx, vy), orientation, rules, border_barrier,
                                          space_barrier)[0]:
                            vertices |= _bit(2 * vx, 2 * vy) << plane
            while len(_VERTICES) >= 16:
                del _VERTICES[next(iter(_VERTICES))]
            _VERTICES[key] = vertices
        self.sight = sight = terrain | _VERTICES[key]
        ranged = 0
        for cx, cy in obstacles:  # the space itself, and the corners it may close (spec D3)
            ranged |= _bit(2 * cx + 1, 2 * cy + 1)
            for v in ((cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)):
                for orientation, plane in ((1, 0), (-1, P)):
                    corner = _bit(2 * v[0], 2 * v[1]) << plane
                    if (cx, cy) in _side_cells(*v, orientation) and not sight & corner and \
                            vertex_blocked(v, orientation, rules, border_barrier, space_barrier,
                                           obstacle)[0]:
                        ranged |= corner
        self.ranged = sight | ranged
        cols = 2 * frame.width - 1
        # Per space: its offset-table position and the shift aligning its blocked masks.
        self.spaces = sorted(board.graph)
        self.index = {p: (p[0] - frame.x0) + (p[1] - frame.y0) * cols for p in self.spaces}
        self.slots = [self.index[p] for p in self.spaces]
        self.centre = {p: frame._anchor - (2 * (p[0] - frame.x0) + 1 + (2 * (p[1] - frame.y0) + 1) * S)
                       for p in self.spaces}
        self.middle = (frame.width - 1) + (frame.height - 1) * cols

    def clear(self, a: Point, ranged: bool, first: int = 0) -> list[Point]:
        """The spaces from ``spaces[first]`` on whose line from ``a`` meets no blocked bit.

        Rules: manual p22 (line of sight), p23 (plain ranged: obstacles block too); spec §A6, §A7.
        """
        blocked = (self.ranged if ranged else self.sight) << self.centre[a]
        offsets, base = self.offsets, self.middle - self.index[a]
        return [t for t, slot in zip(self.spaces[first:], self.slots[first:])
                if not offsets[base + slot] & blocked]


_CACHE: "weakref.WeakKeyDictionary[Board, dict]" = weakref.WeakKeyDictionary()
_VERTICES: dict[tuple, int] = {}  # vertex bits by (frame, barrier bits, vertex readings)
_READINGS = ("los.vertex", "los.space_squeeze", "ranged.obstacle_vertex", "ethereal.blocks_ranged")


def _tables(board: Board, rules: Rules, ethereal: Collection[str] = ()) -> _Tables:
    ethereal = frozenset(ethereal)
    key = (board.version, tuple(rules[name] for name in _READINGS), ethereal)
    cache = _CACHE.setdefault(board, {})
    if key not in cache:
        for stale in [k for k in cache if k[0] != board.version]:
            del cache[stale]  # an older version's tables
        cache[key] = _Tables(board, rules, ethereal)
    return cache[key]


def visible_from(board: Board, a: Point, rules: Rules) -> frozenset[Point]:
    """Every other space in line of sight of ``a``: the fast table form of :func:`line_of_sight`.

    Tables are built once per board version and rulings, then each target costs one AND.

    Rules: manual p22 (line of sight); spec §A6.
    """
    rules = require_rules(rules)
    a = board.require(a, "a")
    return frozenset(_tables(board, rules).clear(a, ranged=False)) - {a}


def ranged_visible_from(board: Board, a: Point, rules: Rules,
                        ethereal: Collection[str] = ()) -> frozenset[Point]:
    """Every other space whose plain-ranged line from ``a`` is clear (fast form of :func:`ranged_line`).

    Rules: manual p23 (ranged); spec §A7.3, D3, C-19.
    """
    rules = require_rules(rules)
    a = board.require(a, "a")
    return frozenset(_tables(board, rules, ethereal).clear(a, ranged=True)) - {a}


def visible_pairs(board: Board, rules: Rules) -> frozenset[tuple[Point, Point]]:
    """Every pair ``(a, b)`` with ``a < b`` in line of sight: all pairs at once (manual p22).

    Sight is symmetric (the same segment), so each unordered pair is decided once.

    Rules: manual p22 (line of sight); spec §A6.
    """
    rules = require_rules(rules)
    tables = _tables(board, rules)
    return frozenset((a, t) for i, a in enumerate(tables.spaces)
                     for t in tables.clear(a, ranged=False, first=i + 1))


# --- adjacency ---------------------------------------------------------------------------------------


def _neighbour_open(board: Board, a: Point, b: Point, rules: Rules) -> Sight:
    """Line of sight between neighbours, with tile boundaries open per ``adjacency.across_tiles``."""
    if rules["adjacency.across_tiles"] == "any_touching_spaces":
        nodes = board.graph.nodes
        barrier = barrier_borders_of(board)

        def _border_barrier(p: Point, q: Point) -> bool:
            if p in nodes and q in nodes and nodes[p]["tile"] != nodes[q]["tile"]:
                return False  # touching spaces of two tiles are adjacent (spec D21)
            return barrier(p, q)
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

    Rules: manual p22 (adjacent; index: adjacency across map tiles); spec §A7.1, D21.
    """
    rules = require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    return _neighbour_open(board, a, b, rules).visible


def adjacent_spaces(board: Board, a: Point, rules: Rules) -> tuple[Point, ...]:
    """The spaces adjacent to ``a``, sorted (manual p22).

    Rules: manual p22 (adjacent); spec §A7.1.
    """
    a = board.require(a, "a")
    around = ((a[0] + dx, a[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    return tuple(sorted(p for p in around if p in board and adjacent(board, a, p, rules)))


def adjacent_borders(board: Board, a: Point) -> tuple[tuple[tuple[Point, Point], BorderKind], ...]:
    """The walls and doors adjacent to a unit on ``a``: only those on its own 4 borders (manual p22).

    Each entry is ``((a, neighbour), kind)``: walls (a tile's boundary counts as
    its drawn wall) and doors; a door touching only a corner of ``a`` is not adjacent.

    Rules: manual p22 (adjacent: walls and doors), p36 (doors); spec §A4.2.
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

    Rules: manual p22 (targeting a door: the space with the door on a border); spec §A4.2, B7.
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

    Rules: manual p22 (adjacent); spec §A7.1, D6.
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

    Rules: manual p23 (range X: the spaces between); spec §A7.3, D6.
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
    """Is ``b`` within range ``reach`` of ``a``? (manual p23; spec D6)

    Rules: manual p23 (range X); spec D6.
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

    Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through), p25 (ethereal); spec §A7, A10.
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

    Rules: manual p23 (melee targeting); spec §A7.2.
    """
    a = board.require(a, "a")
    return tuple(sorted((a,) + adjacent_spaces(board, a, rules)))


# --- map-tile scope -----------------------------------------------------------------------------------


def units_on_tile(board: Board, point: Point) -> tuple[tuple[str, Point], ...]:
    """The units on the same map tile as ``point``, sorted by name (manual p21-22).

    Rules: manual p21-22 (map-tile scope); spec §A7.5.
    """
    tile = board.tile_of(board.require(point, "point"))
    return tuple(sorted((u, p) for u, p in board.units().items() if board.tile_of(p) == tile))


def affected_units(board: Board, activating: Point | None) -> tuple[tuple[str, Point], ...]:
    """Units an untargeted ability affects: those on the activating unit's tile; every tile with none.

    Rules: manual p21-22 (map-tile scope: no owner and no activating unit → every tile); spec §A7.5.
    """
    if activating is None:
        return tuple(sorted(board.units().items()))
    return units_on_tile(board, activating)

