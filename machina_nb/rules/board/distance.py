"""Movement, paths, reach within stamina, nearest and closest on the board graph.

Movement and *closest* are filtered views of the one board graph
(:func:`movement_view`, :func:`closest_view`), never copies of the map. For
speed, each view's neighbour lists are read once per board version and rulings
into a cached index; searches walk that index.

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

Rules: manual p34 (move), p22 (nearest, closest), p15-16 (monster paths), p35 (pits), p25 (ethereal); spec §A2, §A8, D4, D5, D7-D9, D14, D46.
"""

from __future__ import annotations

import heapq
import types
import weakref
from dataclasses import dataclass
from typing import Callable, Collection, Iterable, Iterator, Mapping

import networkx as nx

from machina_nb.rules.board.graph import BARRIER_SPACES, OBSTACLE_SPACES, PASSABLE_SPACES, Board
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.rules.board.sight import (adjacent_spaces, barrier_borders_of, barrier_spaces_of, corner_rays, require_rules, vertex_blocked)

__all__ = [
    "Mover", "Paths", "Ranking", "movement_view", "closest_view", "legal_step", "steps",
    "step_cost", "reach", "shortest_paths", "nearest", "closest", "closest_paths", "closer",
    "walking_distance", "nearest_by_walking",
]


@dataclass(frozen=True)
class Mover:
    """Who is moving, as far as movement rules care (manual p25, p34, p35).

    ``unit``: the mover's own unit id (its space does not block it);
    ``mindless``: a mindless monster never steps into a pit (manual p35) and
    plans its path per ``path.units`` (spec D14); ``ethereal``: moves through
    units (manual p25); ``move_through``: a move-through effect passes
    obstacles and impassable spaces, pit to pit costs 0 and it may not end on a
    pit (manual p34; per ``pit.voluntary_entry``, spec C-18).

    Rules: manual p25 (ethereal), p34 (move, move-through), p35 (pits); spec §A2, C-18.
    """

    unit: str | None = None
    mindless: bool = False
    ethereal: bool = False
    move_through: bool = False


@dataclass(frozen=True)
class Paths:
    """Every tied shortest path from ``start`` to ``goal``, held as a DAG (manual p16: the shortest path).

    ``cost`` is None when the goal cannot be reached. Iterate for the paths
    (tuples of spaces from start to goal, in sorted order); :meth:`count`
    counts them without listing.

    Rules: manual p15-16 (shortest path; ties are the explorers' choice); spec §A2, D14.
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

        Rules: manual p15-16 (shortest path; ties are the explorers' choice); spec D14.
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


@dataclass(frozen=True)
class Ranking:
    """Candidates ranked by a distance: the best ``distance`` and EVERY tied ``candidates`` (manual p16).

    ``distances`` lists each reachable candidate with its distance (unreachable
    ones are left out); ``reading`` names the switches used. Ties are the
    explorers' choice, never broken here.

    Rules: manual p16 (ties: the explorers decide), p22 (nearest, closest); spec §A8, D7-D9.
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
    """May a step go diagonally from ``a`` to ``b``? ``move.diagonal`` and ``move.squeeze`` (spec D4, D5)."""
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
    squeezed = sum(squeezer(s) for s in sides)
    squeeze = rules["move.squeeze"]
    return not ((squeeze == "blocked_if_both" and squeezed == 2)
                or (squeeze == "blocked_if_either" and squeezed >= 1))


def _edge_filter(board: Board, rules: Rules, border_barrier: BorderTest, space_barrier: SpaceTest,
                 squeezer: SpaceTest) -> Callable[[Point, Point], bool]:
    edges = board.graph.edges

    def _open_edge(a: Point, b: Point) -> bool:
        data = edges[a, b]
        if not data["diagonal"]:
            return not border_barrier(a, b)
        return _diagonal_open(a, b, rules, border_barrier, space_barrier, squeezer)
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

    Rules: manual p34 (move: adjacent, passable, unoccupied), p22 (adjacent), p25 (ethereal), p35 (pits); spec §A2.1, D4, D5.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    node_ok, edge_ok = _movement_filters(board, rules, mover, ethereal, units_block)
    return nx.subgraph_view(board.graph, filter_node=node_ok, filter_edge=edge_ok)


def _movement_filters(board: Board, rules: Rules, mover: Mover, ethereal: Collection[str],
                      units_block: bool) -> tuple[SpaceTest, BorderTest]:
    ethereal = frozenset(ethereal)
    nodes = board.graph.nodes
    space_barrier = barrier_spaces_of(board)

    def _squeezer(p: Point) -> bool:
        if p not in nodes:
            return True
        data = nodes[p]
        return (data["kind"] in BARRIER_SPACES or data["kind"] in OBSTACLE_SPACES
                or data["unit"] not in (None, mover.unit))

    def _enterable(p: Point) -> bool:
        data = nodes[p]
        if mover.mindless and data["kind"] is SpaceKind.PIT:
            return False
        if not mover.move_through and data["kind"] not in PASSABLE_SPACES:
            return False
        unit = data["unit"]
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

    Rules: manual p22 (closest), p15-16 (non-immobile units ignored); aid (immobile as rubble); spec §A8.2, C-6, D8, D9.
    """
    rules = require_rules(rules)
    node_ok, edge_ok = _closest_filters(board, rules, immobile)
    return nx.subgraph_view(board.graph, filter_node=node_ok, filter_edge=edge_ok)


def _closest_filters(board: Board, rules: Rules, immobile: Collection[str]
                     ) -> tuple[SpaceTest, BorderTest]:
    immobile = frozenset(immobile)
    nodes = board.graph.nodes
    avoid_immobile = rules["closest.immobile_units"] != "ignore"
    rubble = rules["closest.immobile_units"] == "rubble"
    avoid_pits = rules["closest.pits"] == "avoid"

    def _plugged(p: Point) -> bool:
        return avoid_immobile and nodes[p]["unit"] in immobile

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


# --- cached neighbour index of a view ------------------------------------------------------------

_INDEX: "weakref.WeakKeyDictionary[Board, dict]" = weakref.WeakKeyDictionary()
_STEPS: "weakref.WeakKeyDictionary[Board, dict]" = weakref.WeakKeyDictionary()
_STEP_READINGS = ("move.diagonal", "move.squeeze", "los.vertex", "los.space_squeeze",
                  "closest.immobile_units", "closest.pits")


def _terrain(board: Board) -> tuple:
    """Everything a step test reads apart from units: every space's kind and every border."""
    graph = board.graph
    return (tuple(sorted(graph.nodes(data="kind"))),
            tuple(sorted((a, b, kind) for a, b, kind in graph.edges(data="border") if kind)))


def _index(board: Board, key: tuple, edge_key: tuple,
           build: Callable[[], tuple[SpaceTest, BorderTest]]) -> dict[Point, tuple[Point, ...]]:
    """A view's sorted neighbour lists, read once per board version and key.

    Every space gets its list, even one the view leaves out: a search may start
    there (an immobile monster measuring its own closest explorer). The open
    steps themselves (``edge_key`` names what they read besides the terrain)
    are kept across versions while the terrain is the same, so a unit moving
    only re-reads which spaces may be entered.
    """
    cache = _INDEX.setdefault(board, {})
    full_key = (board.version,) + key
    if full_key not in cache:
        for stale in [k for k in cache if k[0] != board.version]:
            del cache[stale]  # an older version's index
        node_ok, edge_ok = build()
        graph = board.graph
        shared = _STEPS.setdefault(board, {})
        terrain = shared.get("version") == board.version and shared["terrain"] or _terrain(board)
        if shared.get("terrain") != terrain:
            shared.clear()
        shared.update(version=board.version, terrain=terrain)
        if edge_key not in shared:
            shared[edge_key] = {n: tuple(sorted(v for v in graph[n] if edge_ok(n, v)))
                                for n in graph}
        keep = {n for n in graph if node_ok(n)}
        cache[full_key] = {n: tuple(v for v in steps if v in keep)
                           for n, steps in shared[edge_key].items()}
    return cache[full_key]


def _unit_spaces(board: Board, units: Collection[str] | None) -> tuple[Point, ...]:
    """Where the named units stand (all units when ``units`` is None), sorted."""
    return tuple(sorted(p for u, p in board.units().items() if units is None or u in units))


def _movement_index(board, rules, mover, ethereal, units_block=True):
    ethereal = frozenset(ethereal)
    readings = tuple(rules[r] for r in _STEP_READINGS)
    key = ("move", readings, mover, ethereal, units_block)
    # Units squeeze diagonal steps only under move.squeeze blocked_if_* (spec D5).
    squeezing = () if rules["move.squeeze"] == "allowed" else \
        tuple(p for p in _unit_spaces(board, None) if board.unit_at(p) != mover.unit)
    return _index(board, key, ("move", readings, squeezing),
                  lambda: _movement_filters(board, rules, mover, ethereal, units_block))


def _closest_index(board, rules, immobile):
    immobile = frozenset(immobile)
    readings = tuple(rules[r] for r in _STEP_READINGS)
    key = ("closest", readings, immobile)
    plugs = () if rules["closest.immobile_units"] == "ignore" else _unit_spaces(board, immobile)
    return _index(board, key, ("closest", readings, plugs),
                  lambda: _closest_filters(board, rules, immobile))


# --- steps, costs, searches -----------------------------------------------------------------------


def _survives_pits(rules: Rules, mover: Mover) -> bool:
    """Does the mover's own movement cross pits unharmed? Only under a move-through effect (spec C-18)."""
    return mover.move_through and rules["pit.voluntary_entry"] == "move_through_survives"


def _can_end(board: Board, p: Point, mover: Mover, rules: Rules) -> bool:
    data = board.graph.nodes[p]
    if data["unit"] not in (None, mover.unit):
        return False  # nobody ends on an occupied space, ethereal or not (manual p25)
    if mover.move_through:
        if data["kind"] not in PASSABLE_SPACES:
            return False
        return data["kind"] is not SpaceKind.PIT or not _survives_pits(rules, mover)
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

    Rules: manual p34 (move action), p22 (adjacent); spec §A2.1, D4, D5.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    a, b = board.require(a, "a"), board.require(b, "b")
    return b in _movement_index(board, rules, mover, ethereal).get(a, ()) and _can_end(board, b, mover, rules)


def steps(board: Board, a: Point, rules: Rules, mover: Mover = Mover(),
          ethereal: Collection[str] = ()) -> tuple[Point, ...]:
    """Every space a unit on ``a`` may step to and stop on, sorted (manual p34).

    Rules: manual p34 (move action); spec §A2.1.
    """
    rules, mover = require_rules(rules), _require_mover(mover)
    a = board.require(a, "a")
    return tuple(b for b in _movement_index(board, rules, mover, ethereal).get(a, ())
                 if _can_end(board, b, mover, rules))


def step_cost(board: Board, a: Point, b: Point, mover: Mover = Mover()) -> int:
    """Stamina for one step: 1, or 0 from pit to pit under a move-through effect (manual p34).

    Rules: manual p34 (move: 1 stamina per space; move-through over pits); spec §A2.1, A2.2.
    """
    nodes = board.graph.nodes
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
    nodes = board.graph.nodes
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

    Rules: manual p34 (move: 1 stamina per space), p25 (ethereal), p35 (pits); spec §A2.
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

    Rules: manual p34 (move), p16 (shortest path), p17 (Example C: the long route round units); spec §A2, D14.
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
    ``euclidean`` (an exact sympy square root; compared exactly). Every tied
    goal is returned.

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> board = Board.from_layout(parse_map("+-+-+-+-+\\n|. . . .|\\n+ + + + +\\n|. . . .|\\n+-+-+-+-+\\n"))
    >>> nearest(board, (0, 0), [(3, 0), (2, 1)], Rules()).candidates
    ((2, 1),)

    Rules: manual p22 (nearest: count directly), p23 (ignoring walls, pits, units); spec §A8.1, D7.
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
            from sympy import sqrt
            key, value = dx * dx + dy * dy, sqrt(dx * dx + dy * dy)
        scored.append((p, key, value))
    return _ranking("nearest", scored, f"nearest.metric={metric}", "manual p22 (nearest)")


def closest(board: Board, start: Point, goals: Iterable[Point], rules: Rules,
            immobile: Collection[str] = ()) -> Ranking:
    """The closest of ``goals`` (e.g. explorers' spaces): steps along :func:`closest_view` (manual p22).

    The distance to a goal is the number of steps to reach its own space, so an
    adjacent explorer is at 1. Unreachable goals are left out; every tied goal
    is returned.

    Rules: manual p22 (closest), p15-16 (monster targeting); spec §A8.2, C-5, C-6, D8, D9.
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


def closest_paths(board: Board, start: Point, goal: Point, rules: Rules,
                  immobile: Collection[str] = ()) -> Paths:
    """Every tied path along :func:`closest_view` from ``start`` to ``goal`` (manual p16).

    Rules: manual p16 (the path to the closest explorer ignores closed doors and non-immobile units); spec §A8.2.
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

    Rules: manual p16 (getting closer), p22 (adjacent), p34 (move); spec D46.
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
    Rules: manual p16 (the best end point), p22 (adjacent), p34 (move); spec D46.
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

    Rules: manual p16 (a monster does not move unless it gets closer); spec D46.
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
