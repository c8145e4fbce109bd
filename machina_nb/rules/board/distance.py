"""Movement, paths, reach within stamina, nearest and closest on the board graph.

Movement and *closest* are filtered views of the one board graph
(:func:`movement_view`, :func:`closest_view`), never copies of the map. For
speed, each view's neighbour lists are a table of the map's terrain (made per
space on first use, per reading of the switches); the units on a board only
redo the lists next to their own spaces. Searches walk those lists.

>>> from machina_nb.rules.board.graph import Board
>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.rulings import Rules
>>> board = Board.from_layout(parse_map('''\\
... +-+-+-+
... |. . .|
... + +-+D+
... |. . .|
... +-+-+-+
... '''))
>>> dict(reach(board, (0, 0), 1, Rules()))
{(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1}
>>> closest(board, (2, 0), [(2, 1), (0, 1)], Rules()).candidates   # the closed door counts as open
((2, 1),)
>>> paths = shortest_paths(board, (2, 0), (2, 1), Rules())           # walking: round the wall
>>> paths.cost, paths.count(), next(iter(paths))
(4, 2, ((2, 0), (1, 0), (0, 0), (1, 1), (2, 1)))

Rules: manual p34 (move), p22 (nearest, closest), p15-16 (monster paths), p35 (pits), p25 (ethereal); rulings D4, D5, D7, D8, D9, D14, D46.
"""

from __future__ import annotations

import heapq
import math
import types
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Collection, Iterable, Iterator, Mapping

import networkx as nx

from machina_nb.rules.board.graph import BARRIER_SPACES, OBSTACLE_SPACES, PASSABLE_SPACES, Board, Terrain
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.rules.board.sight import (adjacent_spaces, barrier_borders_of, barrier_spaces_of, corner_rays, require_rules, vertex_blocked)

__all__ = [
    "Mover", "Paths", "Ranking", "SquareRoot", "movement_view", "closest_view", "legal_step", "steps",
    "step_cost", "reach", "shortest_paths", "nearest", "closest", "closest_paths", "closer",
    "walking_distance", "nearest_by_walking", "closest_steps", "closest_distances_from",
    "step_lists", "walking_distances", "GrowingDistances",
]


@dataclass(frozen=True)
class Mover:
    """Who is moving, as far as movement rules care (manual p25, p34, p35).

    ``unit``: the mover's own unit id (its space does not block it);
    ``mindless``: a mindless monster never steps into a pit (manual p35) and
    plans its path per ``path.units`` (switches path.units and mindless.blocked); ``ethereal``: moves through
    units (manual p25); ``move_through``: a move-through effect passes
    obstacles and impassable spaces, pit to pit costs 0 and it may not end on a
    pit (manual p34; per ``pit.voluntary_entry``, switch pit.voluntary_entry);
    ``obstacles_only`` with it: the effect passes obstacles (units, action spaces,
    barrels, destroyed spaces) but not barrier spaces such as rubble (the Aeromantle,
    manual p30).

    Rules: manual p25 (ethereal), p34 (move, move-through), p35 (pits); switch pit.voluntary_entry.
    """

    unit: str | None = None
    mindless: bool = False
    ethereal: bool = False
    move_through: bool = False
    obstacles_only: bool = False


@dataclass(frozen=True)
class Paths:
    """Every tied shortest path from ``start`` to ``goal``, held as a DAG (manual p16: the shortest path).

    ``cost`` is None when the goal cannot be reached. Iterate for the paths
    (tuples of spaces from start to goal, in sorted order); :meth:`count`
    counts them without listing.

    Rules: manual p15-16 (shortest path; ties are the explorers' choice); switches path.units and mindless.blocked.
    """

    start: Point
    goal: Point
    cost: int | None
    predecessors: tuple[tuple[Point, tuple[Point, ...]], ...]

    def __iter__(self) -> Iterator[tuple[Point, ...]]:
        if self.cost is None:
            return
        successors: dict[Point, list[Point]] = {}
        for node, preds in self.predecessors:
            for p in preds:
                successors.setdefault(p, []).append(node)
        for nodes in successors.values():
            nodes.sort()
        stack = [(self.start,)]
        while stack:
            path = stack.pop()
            if path[-1] == self.goal:
                yield path
                continue
            stack.extend(path + (n,) for n in reversed(successors.get(path[-1], ())))

    def count(self) -> int:
        """How many tied shortest paths there are (counted on the DAG, not listed).

        Rules: manual p15-16 (shortest path; ties are the explorers' choice); switches path.units and mindless.blocked.
        """
        if self.cost is None:
            return 0
        preds = dict(self.predecessors)
        ways: dict[Point, int] = {}
        for node in _topological(preds):
            ways[node] = sum(ways[p] for p in preds[node]) if preds[node] else 1
        return ways[self.goal]


def _topological(preds: Mapping[Point, tuple[Point, ...]]) -> list[Point]:
    """Nodes of a predecessor DAG ordered so that every node comes after its predecessors."""
    order: list[Point] = []
    seen: set[Point] = set()
    for root in preds:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(preds[root]))]
        while stack:
            node, pending = stack[-1]
            for p in pending:
                if p not in seen:
                    seen.add(p)
                    stack.append((p, iter(preds[p])))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


@dataclass(frozen=True, eq=False)
class SquareRoot:
    """The exact square root of a whole number: a straight distance on the grid, kept exact.

    Compared and ordered exactly (by squares) with other roots, whole numbers and
    fractions; printed as sympy prints it (``3*sqrt(2)``, ``2``), without sympy.

    >>> SquareRoot(18), SquareRoot(9) == 3, SquareRoot(5) < 3, SquareRoot(8) > SquareRoot(7)
    (3*sqrt(2), True, True, True)

    Rules: manual p22 (nearest: counted directly); switch nearest.metric.
    """

    square: int

    def __post_init__(self):
        if not isinstance(self.square, int) or isinstance(self.square, bool) or self.square < 0:
            raise RulesError("square", f"expected a whole number >= 0, got {self.square!r}")

    def parts(self) -> tuple[int, int]:
        """``(k, m)`` with ``sqrt(square) == k * sqrt(m)`` and ``m`` free of square factors."""
        k, m, f = 1, self.square, 2
        while f * f <= m:
            while m % (f * f) == 0:
                k, m = k * f, m // (f * f)
            f += 1
        return k, m

    def _square_of(self, other) -> Fraction | None:
        if isinstance(other, SquareRoot):
            return Fraction(other.square)
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool) and other >= 0:
            return Fraction(other) ** 2
        return None

    def _compare(self, other, test) -> bool:
        square = self._square_of(other)
        if square is None:
            if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
                return test(1, 0)  # a root is never below a negative number
            return NotImplemented
        return test(Fraction(self.square), square)

    def __eq__(self, other) -> bool:
        return self._compare(other, lambda a, b: a == b)

    def __lt__(self, other) -> bool:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other) -> bool:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other) -> bool:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other) -> bool:
        return self._compare(other, lambda a, b: a >= b)

    def __hash__(self) -> int:
        root = math.isqrt(self.square)
        return hash(root) if root * root == self.square else hash(("sqrt", self.square))

    def __float__(self) -> float:
        return math.sqrt(self.square)

    def __str__(self) -> str:
        k, m = self.parts()
        if m <= 1:
            return str(k * m)
        return f"sqrt({m})" if k == 1 else f"{k}*sqrt({m})"

    __repr__ = __str__


@dataclass(frozen=True)
class Ranking:
    """Candidates ranked by a distance: the best ``distance`` and EVERY tied ``candidates`` (manual p16).

    ``distances`` lists each reachable candidate with its distance (unreachable
    ones are left out); ``reading`` names the switches used. Ties are the
    explorers' choice, never broken here.

    Rules: manual p16 (ties: the explorers decide), p22 (nearest, closest); rulings D7, D8, D9.
    """

    measure: str
    distance: object | None
    candidates: tuple[Point, ...]
    distances: tuple[tuple[Point, object], ...]
    reading: str
    rule: str


# --- what a step may do ------------------------------------------------------------------------

SpaceTest = Callable[[Point], bool]
BorderTest = Callable[[Point, Point], bool]


def _diagonal_open(a: Point, b: Point, rules: Rules, border_barrier: BorderTest,
                   space_barrier: SpaceTest, squeezer: SpaceTest) -> bool:
    """May a step go diagonally from ``a`` to ``b``? ``move.diagonal`` and ``move.squeeze`` (switches move.diagonal and move.squeeze)."""
    vertex = (max(a[0], b[0]), max(a[1], b[1]))
    sides = ((b[0], a[1]), (a[0], b[1]))
    reading = rules["move.diagonal"]
    if reading == "follow_los":
        orientation = 1 if (b[0] - a[0]) * (b[1] - a[1]) > 0 else -1
        if vertex_blocked(vertex, orientation, rules, border_barrier, space_barrier)[0]:
            return False
    elif reading == "no_corner_cut":
        if any(border_barrier(p, q) for p, q in corner_rays(vertex)) or \
                any(space_barrier(s) for s in sides):
            return False
    elif not any(not border_barrier(a, s) and not border_barrier(s, b) and not space_barrier(s)
                 for s in sides):  # one_L_open
        return False
    squeeze = rules["move.squeeze"]
    if squeeze == "allowed":
        return True
    squeezed = sum(squeezer(s) for s in sides)
    return not ((squeeze == "blocked_if_both" and squeezed == 2)
                or (squeeze == "blocked_if_either" and squeezed >= 1))


def _edge_filter(board: Board | Terrain, rules: Rules, border_barrier: BorderTest,
                 space_barrier: SpaceTest, squeezer: SpaceTest) -> Callable[[Point, Point], bool]:
    adj = (board.terrain if isinstance(board, Board) else board).graph._adj
    diagonals: dict[tuple[Point, Point], bool] = {}  # a diagonal step is open both ways or neither

    def _open_edge(a: Point, b: Point) -> bool:
        if not adj[a][b]["diagonal"]:
            return not border_barrier(a, b)
        key = (a, b) if a < b else (b, a)
        hit = diagonals.get(key)
        if hit is None:
            hit = diagonals[key] = _diagonal_open(a, b, rules, border_barrier, space_barrier,
                                                  squeezer)
        return hit
    return _open_edge


def _require_mover(mover: object) -> Mover:
    if not isinstance(mover, Mover):
        raise RulesError("mover", f"expected a Mover, got {type(mover).__name__}")
    return mover


def movement_view(board: Board, rules: Rules, mover: Mover = Mover(),
                  ethereal: Collection[str] = (), units_block: bool = True) -> nx.Graph:
    """The spaces a unit may move through and the steps between them: a view of the board graph.

    Nodes: passable spaces (any space under a move-through effect), never a pit
    for a mindless mover, never another unit's space unless one of the two is
    ethereal (``ethereal`` names the ethereal units) or ``units_block`` is off.
    Edges: orthogonal steps not across a barrier border; diagonal steps per
    ``move.diagonal`` and ``move.squeeze`` (units and obstacle or barrier
    spaces at the sides squeeze).

    Rules: manual p34 (move: adjacent, passable, unoccupied), p22 (adjacent), p25 (ethereal), p35 (pits); switches move.diagonal and move.squeeze.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    node_ok, edge_ok = _movement_filters(board, rules, mover, ethereal, units_block)
    return nx.subgraph_view(board.graph, filter_node=node_ok, filter_edge=edge_ok)


def _movement_filters(board: Board, rules: Rules, mover: Mover, ethereal: Collection[str],
                      units_block: bool) -> tuple[SpaceTest, BorderTest]:
    ethereal = frozenset(ethereal)
    nodes, occupant = board.terrain.graph._node, board.occupant
    space_barrier = barrier_spaces_of(board)

    def _squeezer(p: Point) -> bool:
        if p not in nodes:
            return True
        kind = nodes[p]["kind"]
        return (kind in BARRIER_SPACES or kind in OBSTACLE_SPACES
                or occupant(p) not in (None, mover.unit))

    def _enterable(p: Point) -> bool:
        kind = nodes[p]["kind"]
        if mover.mindless and kind is SpaceKind.PIT:
            return False
        if kind not in PASSABLE_SPACES and (not mover.move_through or (
                mover.obstacles_only and kind in BARRIER_SPACES)):
            return False
        unit = occupant(p)
        return (not units_block or unit is None or unit == mover.unit or mover.ethereal
                or mover.move_through or unit in ethereal)

    return _enterable, _edge_filter(board, rules, barrier_borders_of(board), space_barrier, _squeezer)


def closest_view(board: Board, rules: Rules, immobile: Collection[str] = ()) -> nx.Graph:
    """The graph *closest* is measured on: a view of the board graph (manual p22, p16).

    Steps avoid impassable spaces, walls and unexplored edges, but treat closed
    doors as open and ignore units, except immobile units (``immobile`` names
    them) per ``closest.immobile_units``: ``obstacle`` (p16) and ``rubble``
    (aid: also a barrier in the diagonal test) avoid them, ``ignore`` (p15,
    p22) does not. Pits per ``closest.pits``: ``count_through`` or ``avoid``.
    Diagonals per ``move.diagonal`` and ``move.squeeze``.

    Rules: manual p22 (closest), p15-16 (non-immobile units ignored); aid (immobile as rubble); switches closest.immobile_units and closest.pits.
    """
    rules = require_rules(rules)
    node_ok, edge_ok = _closest_filters(board, rules, immobile)
    return nx.subgraph_view(board.graph, filter_node=node_ok, filter_edge=edge_ok)


def _closest_filters(board: Board, rules: Rules, immobile: Collection[str]
                     ) -> tuple[SpaceTest, BorderTest]:
    immobile = frozenset(immobile)
    nodes, occupant = board.terrain.graph._node, board.occupant
    avoid_immobile = rules["closest.immobile_units"] != "ignore"
    rubble = rules["closest.immobile_units"] == "rubble"
    avoid_pits = rules["closest.pits"] == "avoid"

    def _plugged(p: Point) -> bool:
        return avoid_immobile and occupant(p) in immobile

    barrier = barrier_spaces_of(board)

    def _space_barrier(p: Point) -> bool:
        return barrier(p) or (rubble and _plugged(p))

    def _squeezer(p: Point) -> bool:
        return _space_barrier(p) or nodes[p]["kind"] in OBSTACLE_SPACES or _plugged(p)

    def _measurable(p: Point) -> bool:
        kind = nodes[p]["kind"]
        return (kind in PASSABLE_SPACES and not (avoid_pits and kind is SpaceKind.PIT)
                and not _plugged(p))

    border_barrier = barrier_borders_of(board, open_kinds=(BorderKind.DOOR_CLOSED,))
    return _measurable, _edge_filter(board, rules, border_barrier, _space_barrier, _squeezer)


# --- step lists of a view: tables of the terrain, units laid over them ------------------------

_STEP_READINGS = ("move.diagonal", "move.squeeze", "los.vertex", "los.space_squeeze",
                  "closest.immobile_units", "closest.pits")


class _Steps:
    """The sorted open steps from each space of a view, each list made on first use.

    Every space gets its list, even one the view leaves out: a search may start
    there (an immobile monster measuring its own closest explorer). Lists of a
    terrain changed from another are kept except near the change (``Terrain.touched``).
    """

    __slots__ = ("_adj", "_node_ok", "_edge_ok", "_lists", "_kept")

    def __init__(self, graph: nx.Graph, node_ok: SpaceTest, edge_ok: BorderTest,
                 lists: dict | None = None):
        self._adj, self._node_ok, self._edge_ok = graph._adj, node_ok, edge_ok
        self._lists = {} if lists is None else lists
        self._kept: dict[Point, bool] = {}   # node_ok per space, asked by up to 8 neighbours

    def get(self, n: Point, default=()) -> tuple[Point, ...]:
        hit = self._lists.get(n)
        if hit is None:
            near = self._adj.get(n)
            if near is None:
                return default
            edge_ok, in_view = self._edge_ok, self.in_view
            hit = self._lists[n] = tuple(sorted(v for v in near if in_view(v) and edge_ok(n, v)))
        return hit

    def in_view(self, n: Point) -> bool:
        """Whether the view keeps space ``n`` (its list is made either way)."""
        kept = self._kept.get(n)
        if kept is None:
            kept = self._kept[n] = self._node_ok(n)
        return kept

    def patched(self, node_ok: SpaceTest, edge_ok: BorderTest, terrain: Terrain) -> "_Steps":
        touched = terrain.touched()
        return _Steps(terrain.graph, node_ok, edge_ok,
                      {n: s for n, s in self._lists.items() if n not in touched})


class _Overlay:
    """Step lists with the units' own lists laid over a terrain's :class:`_Steps`."""

    __slots__ = ("_base", "_lists")

    def __init__(self, base: _Steps, lists: dict):
        self._base, self._lists = base, lists

    def get(self, n: Point, default=()) -> tuple[Point, ...]:
        hit = self._lists.get(n)
        return hit if hit is not None else self._base.get(n, default)


def _terrain_squeezer(terrain: Terrain) -> SpaceTest:
    nodes = terrain.graph._node

    def _squeezer(p: Point) -> bool:
        data = nodes.get(p)
        return data is None or data["kind"] in BARRIER_SPACES or data["kind"] in OBSTACLE_SPACES
    return _squeezer


def _move_steps(terrain: Terrain, rules: Rules, mindless: bool, move_through: bool,
                obstacles_only: bool = False) -> _Steps:
    """The terrain's movement steps, units apart (a table of the terrain)."""
    def _filters(t: Terrain) -> tuple[SpaceTest, BorderTest]:
        nodes = t.graph._node

        def _enterable(p: Point) -> bool:
            kind = nodes[p]["kind"]
            through = move_through and not (obstacles_only and kind in BARRIER_SPACES)
            return not (mindless and kind is SpaceKind.PIT) and (through or kind in PASSABLE_SPACES)
        return _enterable, _edge_filter(t, rules, barrier_borders_of(t), barrier_spaces_of(t),
                                        _terrain_squeezer(t))
    key = ("move", tuple(rules[r] for r in _STEP_READINGS), mindless, move_through,
           obstacles_only)
    return terrain.table(key, lambda t: _Steps(t.graph, *_filters(t)),
                         lambda old, t: old.patched(*_filters(t), t))


def _movement_index(board: Board, rules: Rules, mover: Mover, ethereal: Collection[str],
                    units_block: bool = True):
    """Movement steps on ``board``: the terrain's table, with the lists next to units redone:
    no step into a unit's space (unless ethereal or not blocking), and under ``move.squeeze``
    ``blocked_if_*`` no diagonal squeezed by units (switch move.squeeze)."""
    ethereal = frozenset(ethereal)
    terrain = board.terrain
    base = _move_steps(terrain, rules, mover.mindless, mover.move_through, mover.obstacles_only)
    free = mover.ethereal or mover.move_through or not units_block
    blocked = frozenset(p for p, u in board.occupancy
                        if not (free or u == mover.unit or u in ethereal))
    squeeze = rules["move.squeeze"]
    squeezing = frozenset() if squeeze == "allowed" else \
        frozenset(p for p, u in board.occupancy if u != mover.unit)
    if not blocked and not squeezing:
        return base

    def _build() -> _Overlay:
        limit = 2 if squeeze == "blocked_if_both" else 1
        squeezer = _terrain_squeezer(terrain)
        nodes = terrain.graph._node
        near = {(x + dx, y + dy) for x, y in blocked | squeezing for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)}
        lists = {}
        for n in near:
            if n not in nodes:
                continue
            keep = []
            for v in base.get(n):
                if v in blocked:
                    continue
                if squeezing and v[0] != n[0] and v[1] != n[1]:
                    sides = ((v[0], n[1]), (n[0], v[1]))
                    if any(s in squeezing for s in sides) and \
                            sum(s in squeezing or squeezer(s) for s in sides) >= limit:
                        continue
                keep.append(v)
            lists[n] = tuple(keep)
        return _Overlay(base, lists)
    return terrain.recent(("move units", tuple(rules[r] for r in _STEP_READINGS), mover.mindless,
                           mover.move_through, mover.obstacles_only, blocked, squeezing), _build)


def _closest_index(board: Board, rules: Rules, immobile: Collection[str]):
    """Steps along the *closest* view: the terrain's table, with the lists next to immobile
    units redone per ``closest.immobile_units`` (switch closest.immobile_units)."""
    immobile = frozenset(immobile)
    terrain = board.terrain
    readings = tuple(rules[r] for r in _STEP_READINGS)

    def _filters(t: Terrain, view: Board) -> tuple[SpaceTest, BorderTest]:
        return _closest_filters(view, rules, immobile)
    base = terrain.table(("closest", readings),
                         lambda t: _Steps(t.graph, *_filters(t, Board(t))),
                         lambda old, t: old.patched(*_filters(t, Board(t)), t))
    plugs = frozenset() if rules["closest.immobile_units"] == "ignore" else \
        frozenset(p for p, u in board.occupancy if u in immobile)
    if not plugs:
        return base

    def _build() -> _Overlay:
        node_ok, edge_ok = _closest_filters(board, rules, immobile)
        nodes, adj = terrain.graph._node, terrain.graph._adj
        near = {(x + dx, y + dy) for x, y in plugs for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        return _Overlay(base, {n: tuple(sorted(v for v in adj[n] if node_ok(v) and edge_ok(n, v)))
                               for n in near if n in nodes})
    return terrain.recent(("closest units", readings, plugs), _build)


class _ViewSteps(Mapping):
    """A view's step lists as a read-only table over the board's spaces: the sorted steps from a
    space the view keeps, ``()`` from one it leaves out (what ``sorted(view[p])`` gives)."""

    __slots__ = ("_nodes", "_steps")

    def __init__(self, terrain: Terrain, steps: _Steps):
        self._nodes, self._steps = terrain.graph._node, steps

    def __getitem__(self, point: Point) -> tuple[Point, ...]:
        if point not in self._nodes:
            raise KeyError(point)
        return self._steps.get(point) if self._steps.in_view(point) else ()

    def __iter__(self) -> Iterator[Point]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


def closest_steps(board: Board, rules: Rules) -> Mapping[Point, tuple[Point, ...]]:
    """The steps along :func:`closest_view` (no immobile units) from every space, sorted: ``()``
    from a space the view leaves out. One table of the terrain, shared with :func:`closest`.

    Rules: manual p22 (closest), p15-16 (closed doors open, units ignored); switches
    closest.pits, move.diagonal and move.squeeze.
    """
    rules = require_rules(rules)
    terrain = board.terrain
    return terrain.table(("closest lists", tuple(rules[r] for r in _STEP_READINGS)),
                         lambda t: _ViewSteps(t, _closest_index(Board(t), rules, ())))


# --- steps, costs, searches -----------------------------------------------------------------------


def _survives_pits(rules: Rules, mover: Mover) -> bool:
    """Does the mover's own movement cross pits unharmed? Only under a move-through effect (switch pit.voluntary_entry)."""
    return mover.move_through and rules["pit.voluntary_entry"] == "move_through_survives"


def _can_end(board: Board, p: Point, mover: Mover, rules: Rules) -> bool:
    if board.occupant(p) not in (None, mover.unit):
        return False  # nobody ends on an occupied space, ethereal or not (manual p25)
    if mover.move_through:
        kind = board.terrain.graph._node[p]["kind"]
        if kind not in PASSABLE_SPACES:
            return False
        return kind is not SpaceKind.PIT or not _survives_pits(rules, mover)
    return True


def legal_step(board: Board, a: Point, b: Point, rules: Rules, mover: Mover = Mover(),
               ethereal: Collection[str] = ()) -> bool:
    """May a unit on ``a`` step to neighbour ``b`` and stop there? (manual p34)

    ``b`` must be one of the 8 neighbours, passable, unoccupied, not across a
    barrier border, the diagonal allowed by ``move.diagonal`` and ``move.squeeze``.

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+\\n|. r|\\n+ + +\\n|. .|\\n+-+-+\\n"))
    >>> legal_step(board, (0, 0), (1, 0), Rules()), legal_step(board, (0, 0), (1, 1), Rules())
    (False, True)

    Rules: manual p34 (move action), p22 (adjacent); switches move.diagonal and move.squeeze.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    a, b = board.require(a, "a"), board.require(b, "b")
    return b in _movement_index(board, rules, mover, ethereal).get(a, ()) and _can_end(board, b, mover, rules)


def step_lists(board: Board, rules: Rules, mover: Mover = Mover(),
               ethereal: Collection[str] = ()) -> Callable[[Point], tuple[Point, ...]]:
    """:func:`steps` as a function of the start space, the arguments checked once: for tables
    that ask it about many spaces of one board.

    Rules: manual p34 (move action).
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    index = _movement_index(board, rules, mover, ethereal)
    if not board.occupancy and not mover.move_through:   # every step may end where it goes
        return lambda a: index.get(a)

    def _steps(a: Point) -> tuple[Point, ...]:
        return tuple(b for b in index.get(a) if _can_end(board, b, mover, rules))
    return _steps


def steps(board: Board, a: Point, rules: Rules, mover: Mover = Mover(),
          ethereal: Collection[str] = ()) -> tuple[Point, ...]:
    """Every space a unit on ``a`` may step to and stop on, sorted (manual p34).

    Rules: manual p34 (move action).
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    a = board.require(a, "a")
    return tuple(b for b in _movement_index(board, rules, mover, ethereal).get(a, ())
                 if _can_end(board, b, mover, rules))


def step_cost(board: Board, a: Point, b: Point, mover: Mover = Mover()) -> int:
    """Stamina for one step: 1, or 0 from pit to pit under a move-through effect (manual p34).

    Rules: manual p34 (move: 1 stamina per space; move-through over pits).
    """
    nodes = board.terrain.graph._node
    pit = SpaceKind.PIT
    if mover.move_through and nodes[a]["kind"] is pit and nodes[b]["kind"] is pit:
        return 0
    return 1


def _search(board: Board, index: Mapping[Point, tuple[Point, ...]], start: Point, mover: Mover,
            limit: int | None = None, through_pits: bool = False,
            goals: Collection[Point] = ()) -> tuple[dict[Point, int], dict[Point, list[Point]]]:
    """Least stamina (then fewest steps) from ``start`` to every space, with every tied predecessor.

    With ``goals``, a breadth-first search stops after the layer that reaches the last of them.

    A pit ends a unit's movement (it is destroyed there, manual p35), so it is
    never stepped through unless ``through_pits`` (closest counting, or a
    move-through effect per ``pit.voluntary_entry``).
    """
    nodes = board.terrain.graph._node
    pit = SpaceKind.PIT
    preds: dict[Point, list[Point]] = {start: []}
    if not mover.move_through:  # every step costs 1: breadth first, layer by layer
        dist = {start: 0}
        frontier, d = [start], 0
        while frontier and (limit is None or d < limit):
            d += 1
            layer = []
            for u in frontier:
                if u != start and not through_pits and nodes[u]["kind"] is pit:
                    continue
                for v in index.get(u, ()):
                    dv = dist.get(v)
                    if dv is None:
                        dist[v] = d
                        preds[v] = [u]
                        layer.append(v)
                    elif dv == d:
                        preds[v].append(u)
            frontier = layer
            if goals and all(g in dist for g in goals):
                break
        return dist, preds
    best = {start: (0, 0)}
    heap = [(0, 0, start)]
    done = set()
    while heap:
        cost, hops, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u != start and not through_pits and nodes[u]["kind"] is pit:
            continue
        for v in index.get(u, ()):
            key = (cost + step_cost(board, u, v, mover), hops + 1)
            if limit is not None and key[0] > limit:
                continue
            old = best.get(v)
            if old is None or key < old:
                best[v] = key
                preds[v] = [u]
                heapq.heappush(heap, (key[0], key[1], v))
            elif key == old:
                preds[v].append(u)
    return {p: c for p, (c, _) in best.items()}, preds


def _require_stamina(stamina: object) -> int:
    if not isinstance(stamina, int) or isinstance(stamina, bool) or stamina < 0:
        raise RulesError("stamina", f"expected a whole number >= 0, got {stamina!r}")
    return stamina


def reach(board: Board, start: Point, stamina: int, rules: Rules, mover: Mover = Mover(),
          ethereal: Collection[str] = ()) -> Mapping[Point, int]:
    """Every space a unit on ``start`` can end on with ``stamina``, and the least stamina to get there.

    A read-only mapping, sorted by space; the start costs 0. Units block unless
    ethereal (either side); a plain mover's movement ends in a pit.

    Rules: manual p34 (move: 1 stamina per space), p25 (ethereal), p35 (pits).
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    start, stamina = board.require(start, "start"), _require_stamina(stamina)
    dist, _ = _search(board, _movement_index(board, rules, mover, ethereal), start, mover, stamina,
                      _survives_pits(rules, mover))
    return types.MappingProxyType({p: dist[p] for p in sorted(dist)
                                   if p == start or _can_end(board, p, mover, rules)})


def _paths(start: Point, goal: Point, dist: Mapping[Point, int],
           preds: Mapping[Point, list[Point]]) -> Paths:
    if goal not in dist:
        return Paths(start, goal, None, ())
    keep, stack = {}, [goal]
    while stack:
        node = stack.pop()
        if node in keep:
            continue
        keep[node] = tuple(sorted(preds[node]))
        stack.extend(keep[node])
    return Paths(start, goal, dist[goal], tuple(sorted(keep.items())))


def shortest_paths(board: Board, start: Point, goal: Point, rules: Rules, mover: Mover = Mover(),
                   ethereal: Collection[str] = ()) -> Paths:
    """Every least-stamina path from ``start`` to ``goal`` (ties: fewest steps), all kept (manual p16).

    A mindless mover plans per ``path.units``: ``obstacles`` routes round
    units, ``ignored`` routes through them (it will be blocked when it gets
    there); the goal itself must be free to end on.

    Rules: manual p34 (move), p16 (shortest path), p17 (Example C: the long route round units); switches path.units and mindless.blocked.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    start, goal = board.require(start, "start"), board.require(goal, "goal")
    units_block = not (mover.mindless and rules["path.units"] == "ignored")
    index = _movement_index(board, rules, mover, ethereal, units_block)
    dist, preds = _search(board, index, start, mover, through_pits=_survives_pits(rules, mover))
    if goal != start and not _can_end(board, goal, mover, rules):
        dist = {}
    return _paths(start, goal, dist, preds)


# --- nearest and closest --------------------------------------------------------------------------


def _goals(board: Board, goals: Iterable[Point]) -> tuple[Point, ...]:
    try:
        points = tuple(goals)
    except TypeError:
        raise RulesError("goals", f"expected spaces, got {goals!r}") from None
    return tuple(sorted({board.require(p, "goals") for p in points}))


def _ranking(measure: str, scored: list[tuple[Point, object, object]], reading: str,
             rule: str) -> Ranking:
    if not scored:
        return Ranking(measure, None, (), (), reading, rule)
    best = min(key for _, key, _ in scored)
    tied = tuple(p for p, key, _ in scored if key == best)
    value = next(v for _, key, v in scored if key == best)
    return Ranking(measure, value, tied, tuple((p, v) for p, _, v in scored), reading, rule)


def nearest(board: Board, start: Point, goals: Iterable[Point], rules: Rules) -> Ranking:
    """The nearest of ``goals``: a direct count ignoring everything between (manual p22).

    ``nearest.metric``: ``chebyshev`` (king steps), ``manhattan`` or
    ``euclidean`` (an exact :class:`SquareRoot`; compared exactly). Every tied
    goal is returned.

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+-+-+\\n|. . . .|\\n+ + + + +\\n|. . . .|\\n+-+-+-+-+\\n"))
    >>> nearest(board, (0, 0), [(3, 0), (2, 1)], Rules()).candidates
    ((2, 1),)

    Rules: manual p22 (nearest: count directly), p23 (ignoring walls, pits, units); switch nearest.metric.
    """
    rules = require_rules(rules)
    start = board.require(start, "start")
    metric = rules["nearest.metric"]
    scored = []
    for p in _goals(board, goals):
        dx, dy = abs(p[0] - start[0]), abs(p[1] - start[1])
        if metric == "chebyshev":
            key = value = max(dx, dy)
        elif metric == "manhattan":
            key = value = dx + dy
        else:
            key, value = dx * dx + dy * dy, SquareRoot(dx * dx + dy * dy)
        scored.append((p, key, value))
    return _ranking("nearest", scored, f"nearest.metric={metric}", "manual p22 (nearest)")


def closest(board: Board, start: Point, goals: Iterable[Point], rules: Rules,
            immobile: Collection[str] = ()) -> Ranking:
    """The closest of ``goals`` (e.g. explorers' spaces): steps along :func:`closest_view` (manual p22).

    The distance to a goal is the number of steps to reach its own space, so an
    adjacent explorer is at 1. Unreachable goals are left out; every tied goal
    is returned.

    Rules: manual p22 (closest), p15-16 (monster targeting); switches closest.immobile_units and closest.pits.
    """
    rules = require_rules(rules)
    start = board.require(start, "start")
    targets = _goals(board, goals)
    dist, _ = _search(board, _closest_index(board, rules, immobile), start, Mover(),
                      through_pits=True, goals=targets)
    scored = [(p, dist[p], dist[p]) for p in targets if p in dist]
    reading = (f"closest.immobile_units={rules['closest.immobile_units']}, "
               f"closest.pits={rules['closest.pits']}, move.diagonal={rules['move.diagonal']}")
    return _ranking("closest", scored, reading, "manual p22 (closest)")


def closest_distances_from(board: Board, start: Point, rules: Rules,
                           immobile: Collection[str] = ()) -> "GrowingDistances":
    """The closest distance from ``start`` to every space it reaches (the distances of
    :func:`closest` with every space a goal, without ranking them), searched only as far as
    they are asked for: see :class:`GrowingDistances`.

    Rules: manual p22 (closest), p15-16; switches closest.immobile_units and closest.pits.
    """
    rules = require_rules(rules)
    start = board.require(start, "start")
    return GrowingDistances(_closest_index(board, rules, immobile), start)


class GrowingDistances(Mapping):
    """Steps from one start along a view's step lists, found breadth first only as far as
    they are asked for: asking for a space searches until it is found or nothing is left, so a
    question about a near space on a big board costs a small search. Iterating (in the order
    of the spaces) or ``len`` finish the search. A read-only mapping; what it holds grows.

    Rules: manual p22 (closest: count the steps), p16 (the monster's distances).
    """

    __slots__ = ("_index", "_dist", "_frontier", "_depth", "_sorted")

    def __init__(self, index, start: Point):
        self._index, self._dist, self._frontier, self._depth = index, {start: 0}, [start], 0
        self._sorted: dict[Point, int] | None = None

    def _grow(self) -> bool:
        """Search one layer further; False when nothing was left to search."""
        if not self._frontier:
            return False
        depth, dist, index, layer = self._depth + 1, self._dist, self._index, []
        for u in self._frontier:
            for v in index.get(u, ()):
                if v not in dist:
                    dist[v] = depth
                    layer.append(v)
        self._frontier, self._depth = layer, depth
        return True

    def get(self, point: Point, default=None):
        dist = self._dist
        while point not in dist and self._grow():
            pass
        return dist.get(point, default)

    def within(self, depth: int) -> Mapping[Point, int]:
        """Every space at most ``depth`` steps away (perhaps some farther ones too)."""
        while self._depth < depth and self._grow():
            pass
        return types.MappingProxyType(self._dist)

    def __getitem__(self, point: Point) -> int:
        found = self.get(point)
        if found is None:
            raise KeyError(point)
        return found

    def __contains__(self, point: object) -> bool:
        return self.get(point) is not None

    def _complete(self) -> dict[Point, int]:
        if self._sorted is None:
            while self._grow():
                pass
            self._sorted = {p: self._dist[p] for p in sorted(self._dist)}
        return self._sorted

    def __iter__(self) -> Iterator[Point]:
        return iter(self._complete())

    def __len__(self) -> int:
        return len(self._complete())


def closest_paths(board: Board, start: Point, goal: Point, rules: Rules,
                  immobile: Collection[str] = ()) -> Paths:
    """Every tied path along :func:`closest_view` from ``start`` to ``goal`` (manual p16).

    Rules: manual p16 (the path to the closest explorer ignores closed doors and non-immobile units).
    """
    rules = require_rules(rules)
    start, goal = board.require(start, "start"), board.require(goal, "goal")
    dist, preds = _search(board, _closest_index(board, rules, immobile), start, Mover(),
                          through_pits=True, goals=(goal,))
    return _paths(start, goal, dist, preds)


def walking_distance(board: Board, start: Point, target: Point, rules: Rules,
                     mover: Mover = Mover(), ethereal: Collection[str] = (),
                     within: int | None = None) -> int | None:
    """1 + the least stamina to walk from ``start`` to a free space adjacent to ``target``.

    Units and closed doors stand in the way (the ``true_path_length`` reading of
    ``closer.metric``); 1 on a space adjacent to the target, 0 on it, None when
    no free adjacent space can be reached (or, with ``within``, none at that
    walking distance or less: the search stops there).

    Rules: manual p16 (getting closer), p22 (adjacent), p34 (move); switch closer.metric.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    start, target = board.require(start, "start"), board.require(target, "target")
    return _walk(board, rules, mover, _movement_index(board, rules, mover, ethereal), start,
                 target, adjacent_spaces(board, target, rules), within)


def nearest_by_walking(board: Board, starts: Iterable[Point], target: Point, rules: Rules,
                       mover: Mover = Mover(), ethereal: Collection[str] = (),
                       within: int | None = None) -> tuple[int | None, tuple[Point, ...]]:
    """The least :func:`walking_distance` from any of ``starts`` (at most ``within``) and
    every start at it, in the given order; ``(None, ())`` if none is within.

    Starts listed nearest first make it quicker: each later search stops at the best so far.
    Rules: manual p16 (the best end point), p22 (adjacent), p34 (move); switch closer.metric.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    target = board.require(target, "target")
    index = _movement_index(board, rules, mover, ethereal)
    beside = adjacent_spaces(board, target, rules)
    best, tied = within, []
    for start in starts:
        w = _walk(board, rules, mover, index, board.require(start, "starts"), target, beside,
                  best)
        if w is not None:
            tied = tied + [start] if w == best else [start]
            best = w
    return (best, tuple(tied)) if tied else (None, ())


def walking_distances(board: Board, target: Point, rules: Rules, mover: Mover = Mover(),
                      ethereal: Collection[str] = (), until: Point | None = None
                      ) -> Mapping[Point, int]:
    """:func:`walking_distance` to ``target`` from every space that has one, found at once by
    one search backwards from the free spaces adjacent to ``target`` (a read-only mapping).

    With ``until``, the search stops once it has found every space as near as ``until``
    (all of them when ``until`` has no walking distance): the mapping then holds exactly
    the spaces whose walking distance is at most ``until``'s. A table of the board, kept
    per question. Plain movers only: a move-through effect walks with
    :func:`walking_distance`.

    Rules: manual p16 (getting closer), p22 (adjacent), p34 (move); switch closer.metric.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    target = board.require(target, "target")
    until = None if until is None else board.require(until, "until")
    if mover.move_through:
        raise RulesError("mover", "walking_distances searches plain movers; walk a move-through "
                                  "effect with walking_distance")
    ethereal = frozenset(ethereal)
    key = ("walking", rules, board.occupancy, target, mover, ethereal, until)
    return board.terrain.recent(key, lambda: types.MappingProxyType(
        _walk_back(board, rules, mover, ethereal, target, until)))


def _walk_back(board: Board, rules: Rules, mover: Mover, ethereal: frozenset, target: Point,
               until: Point | None) -> dict[Point, int]:
    """Breadth first from the free spaces beside ``target`` along the steps taken backwards:
    a space reaches them in ``d`` steps iff the search meets it in layer ``d``. As in
    :func:`_search`, a pit is never stepped through (a space is searched on from only if it
    is an end of the walk or not a pit)."""
    index = _movement_index(board, rules, mover, ethereal)
    adj, nodes = board.terrain.graph._adj, board.terrain.graph._node
    beside = adjacent_spaces(board, target, rules)
    through = _survives_pits(rules, mover)
    ends = [q for q in beside if _can_end(board, q, mover, rules)]
    steps = dict.fromkeys(ends, 0)
    frontier, d = ends, 0
    while frontier and (until is None or until not in steps):
        d += 1
        layer = []
        for v in frontier:
            if steps[v] and not through and nodes[v]["kind"] is SpaceKind.PIT:
                continue
            for u in adj[v]:
                if u not in steps and v in index.get(u, ()):
                    steps[u] = d
                    layer.append(u)
        frontier = layer
    out = {p: 1 + k for p, k in steps.items()}
    out.update(dict.fromkeys(beside, 1))
    out[target] = 0
    if until is not None and until in out:
        limit = out[until]
        out = {p: w for p, w in out.items() if w <= limit}
    return out


def _walk(board, rules, mover, index, start, target, beside, within):
    if start == target or start in beside:
        found = 0 if start == target else 1
        return found if within is None or found <= within else None
    if within is not None and within < 2:
        return None
    dist, _ = _search(board, index, start, mover, None if within is None else within - 1,
                      _survives_pits(rules, mover))
    costs = [dist[q] for q in beside if q in dist and _can_end(board, q, mover, rules)]
    return 1 + min(costs) if costs else None


def closer(board: Board, start: Point, end: Point, target: Point, rules: Rules,
           mover: Mover = Mover(), ethereal: Collection[str] = (),
           immobile: Collection[str] = ()) -> bool:
    """Is ``end`` strictly closer to ``target`` than ``start`` is? Measured per ``closer.metric``.

    ``closest_distance``: the closest distance (doors open, units ignored);
    ``true_path_length``: 1 + the least stamina to walk to a space adjacent to
    ``target`` (units and closed doors in the way). An unreachable target is
    infinitely far.

    Rules: manual p16 (a monster does not move unless it gets closer); switch closer.metric.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    start, end = board.require(start, "start"), board.require(end, "end")
    target = board.require(target, "target")
    if rules["closer.metric"] == "closest_distance":
        def _measure(p: Point) -> int | None:
            return closest(board, p, [target], rules, immobile).distance
    else:
        def _measure(p: Point) -> int | None:
            return walking_distance(board, p, target, rules, mover, ethereal)
    before, after = _measure(start), _measure(end)
    if after is None:
        return False
    return before is None or after < before
