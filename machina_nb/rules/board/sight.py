"""Line of sight, adjacency, targeting and map-tile scope on the board graph.

Line of sight runs centre to centre (manual p22) and is decided exactly in
integer arithmetic on *doubled* coordinates: space ``(x, y)`` has its centre at
``(2x+1, 2y+1)``, borders sit at one even and one odd coordinate and lattice
vertices at two even ones. A centre-to-centre segment never runs along a
border; it crosses a border at an inner point (a barrier there blocks), enters
a space (a barrier space blocks) or passes exactly through a vertex, where the
``los.vertex`` and ``los.space_squeeze`` rulings decide (switches los.vertex and los.space_squeeze).

>>> from machina_nb.rules.board.graph import Board, require_board
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

from collections.abc import Set
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Callable, Collection, Iterator, NoReturn, cast

import networkx as nx

from machina_nb.rules.board.barriers import (BorderTest, SpaceTest, barrier_borders_of, barrier_spaces_of,
                                             corner_rays, require_rules, trace, vertex_blocked)
from machina_nb.rules.board.graph import OBSTACLE_SPACES, Board, require_board
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.rulings import Rules
from machina_nb.rules.board.sight_tables import READINGS, BlockedBoxes, geometry, mask_table, ranged_mask

__all__ = [
    "Sight", "TargetVerdict", "line_of_sight", "ranged_line", "visible_from", "ranged_visible_from",
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
            parts = [f"the {_border_name(kind)} between {a} and {b}" for (a, b), kind in
                     zip(self.borders, self.kinds)] + [f"the space {p}" for p in self.spaces]
            what = ", and ".join(parts) + ", meeting"
        reading = f"; {self.reading}" if self.reading else ""
        return head + f"blocked by {what}{where} ({self.rule}{reading})"


@dataclass(frozen=True)
class TargetVerdict:
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


def _event_point(source: Point, dx: int, dy: int, X: int, Y: int, kind: str
                 ) -> tuple[Fraction, Fraction]:
    """The exact point (in space units) where the segment meets the event at doubled (X, Y)."""
    ex: int | Fraction = X
    ey: int | Fraction = Y
    if kind == "border" and X % 2:  # a vertical border (odd relative X): solve for y
        ey = Fraction(dy * X, dx)
    elif kind == "border":
        ex = Fraction(dx * Y, dy)
    return (Fraction(2 * source[0] + 1 + ex, 2), Fraction(2 * source[1] + 1 + ey, 2))


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


# --- the explained verdict ------------------------------------------------------------------------


def _walk(board: Board, a: Point, b: Point, rules: Rules, space_obstacle: SpaceTest | None,
          rule: str) -> Sight:
    dx, dy = b[0] - a[0], b[1] - a[1]
    border_barrier, space_barrier = barrier_borders_of(board), barrier_spaces_of(board)
    X0, Y0 = 2 * a[0] + 1, 2 * a[1] + 1
    point = None
    for kind, X, Y in trace(dx, dy):
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
    board, rules = require_board(board), require_rules(rules)
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
    board, rules = require_board(board), require_rules(rules)
    a, b = board.require(a, "a"), board.require(b, "b")
    return _walk(board, a, b, rules, _obstacle_space(board, rules, ethereal), RANGED_RULE)


def visible_from(board: Board, a: Point, rules: Rules) -> frozenset[Point]:
    """Every other space in line of sight of ``a``: the fast table form of :func:`line_of_sight`.

    The tables belong to the map's terrain (units never change sight), so a unit
    moving costs nothing and a door closing re-judges only that door's ends.

    Rules: manual p22 (line of sight).
    """
    board, rules = require_board(board), require_rules(rules)
    a = board.require(a, "a")
    return frozenset(geometry(board.terrain).clear(mask_table(board.terrain, rules, False), a)) - {a}


def ranged_visible_from(board: Board, a: Point, rules: Rules,
                        ethereal: Collection[str] = ()) -> frozenset[Point]:
    """Every other space whose plain-ranged line from ``a`` is clear (fast form of :func:`ranged_line`).

    Rules: manual p23 (ranged); switches ranged.obstacle_vertex and ethereal.blocks_ranged.
    """
    board, rules = require_board(board), require_rules(rules)
    a = board.require(a, "a")
    everyone, ethereal = rules["ethereal.blocks_ranged"] == "yes", frozenset(ethereal)
    blocking = frozenset(p for p, unit in board.occupancy if everyone or unit not in ethereal)
    mask = ranged_mask(board.terrain, rules, blocking)
    return frozenset(geometry(board.terrain).clear(mask, a)) - {a}


class VisiblePairs(Set[tuple[Point, Point]]):
    """Every pair ``(a, b)``, ``a < b``, in line of sight, as one bitset per source (manual p22).

    A read-only set of pairs: ``in``, ``len``, iteration, comparison with any set.
    Row ``i`` has bit ``j`` set when ``spaces[j]`` (``j > i``) is seen from ``spaces[i]``.

    Rules: manual p22 (line of sight).
    """

    __slots__ = ("spaces", "rows", "_order")
    spaces: tuple[Point, ...]
    rows: tuple[int, ...]
    _order: dict[Point, int]

    def __init__(self, spaces: tuple[Point, ...], rows: tuple[int, ...]):
        object.__setattr__(self, "spaces", tuple(spaces))
        object.__setattr__(self, "rows", tuple(rows))
        object.__setattr__(self, "_order", {p: i for i, p in enumerate(self.spaces)})

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("VisiblePairs is a value")

    def __contains__(self, pair: object) -> bool:
        try:
            a, b = cast("tuple[Point, Point]", pair)   # anything else fails here: no member
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
    board, rules = require_board(board), require_rules(rules)
    key = ("boxes",) + tuple(rules[n] for n in READINGS[:2])
    boxes = board.terrain.table(key, lambda t: BlockedBoxes(geometry(t),
                                                             mask_table(t, rules, False)))
    return VisiblePairs(boxes.geo.spaces, tuple(boxes.row(a, i)
                                                for i, a in enumerate(boxes.geo.spaces)))


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
    board, rules = require_board(board), require_rules(rules)
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
    board, rules = require_board(board), require_rules(rules)
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
    board, rules = require_board(board), require_rules(rules)
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
               ethereal_targeting: bool = False) -> TargetVerdict:
    """May ``source`` target ``target`` with ``icon`` (melee, ranged, ranged_through) and range ``reach``?

    Melee: the unit itself or an adjacent space. Ranged X: within range X and
    the line clear of barriers *and obstacles*; ranged through X: only barriers
    block. A unit named in ``ethereal`` is a legal target only with
    ``ethereal_targeting`` (an effect or a lit chapter space granting it).

    Rules: manual p20 (legal target), p22-23 (melee, ranged, ranged through), p25 (ethereal).
    """
    board, rules = require_board(board), require_rules(rules)
    source, target = board.require(source, "source"), board.require(target, "target")
    if icon not in ("melee", "ranged", "ranged_through"):
        raise RulesError("icon", f"expected melee, ranged or ranged_through, got {icon!r}")
    distance = range_between(board, source, target, rules)
    unit = board.unit_at(target)
    if unit is not None and unit in ethereal and not ethereal_targeting and target != source:
        return TargetVerdict(source, target, icon, False, f"{unit} is ethereal (manual p25)",
                         distance)
    if icon == "melee":
        if target == source:
            return TargetVerdict(source, target, icon, True, "yourself (manual p23)", 0)
        legal = adjacent(board, source, target, rules)
        sight = _neighbour_open(board, source, target, rules) if distance == 1 else None
        reason = "adjacent (manual p22)" if legal else "not adjacent (manual p22)"
        return TargetVerdict(source, target, icon, legal, reason, distance, sight)
    if distance is None or distance > reach:
        return TargetVerdict(source, target, icon, False,
                         f"out of range {reach}: range {distance} (manual p23; "
                         f"range.metric={rules['range.metric']}, range.count={rules['range.count']})",
                         distance)
    sight = (ranged_line(board, source, target, rules, ethereal) if icon == "ranged"
             else line_of_sight(board, source, target, rules))
    reason = "in range and line clear" if sight.visible else sight.explain()
    return TargetVerdict(source, target, icon, sight.visible, reason, distance, sight)


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

