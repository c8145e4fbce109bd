"""Movement, paths, reach within stamina, nearest and closest on the board graph.

Movement and *closest* are filtered views of the one board graph
(:func:`movement_view`, :func:`closest_view`), never copies of the map. For
speed, each view's neighbour lists are a table of the map's terrain (made per
space on first use, per reading of the switches); the units on a board only
redo the lists next to their own spaces. Searches walk those lists.

>>> from machina_nb.rules.board.graph import Board, require_board
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
import types
from typing import Callable, Collection, Iterable, Mapping, Sequence

import networkx as nx

from machina_nb.rules.board.graph import (BARRIER_SPACES, OBSTACLE_SPACES, PASSABLE_SPACES, Board, Terrain,
                                         require_board)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Point, SpaceKind
from machina_nb.rules.rulings import Rules
from machina_nb.rules.board.sight import (adjacent_spaces, barrier_borders_of, barrier_spaces_of, corner_rays, require_rules, vertex_blocked)
from machina_nb.rules.board.barriers import BorderTest, SpaceTest
from machina_nb.rules.board.distance_values import Distance, Mover, Paths, Ranking, SquareRoot
from machina_nb.rules.board.step_tables import (STEP_READINGS, GrowingDistances, Overlay, StepLists, Steps,
                                                ViewSteps)

__all__ = [
    "Mover", "Paths", "Ranking", "SquareRoot", "movement_view", "closest_view", "legal_step", "steps",
    "step_cost", "reach", "shortest_paths", "nearest", "closest", "closest_paths", "closer",
    "walking_distance", "nearest_by_walking", "closest_steps", "closest_distances_from",
    "step_lists", "walking_distances", "GrowingDistances",
]




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
    board, rules = require_board(board), require_rules(rules)
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
def _terrain_squeezer(terrain: Terrain) -> SpaceTest:
    nodes = terrain.graph._node

    def _squeezer(p: Point) -> bool:
        data = nodes.get(p)
        return data is None or data["kind"] in BARRIER_SPACES or data["kind"] in OBSTACLE_SPACES
    return _squeezer


def _move_steps(terrain: Terrain, rules: Rules, mindless: bool, move_through: bool,
                obstacles_only: bool = False) -> Steps:
    """The terrain's movement steps, units apart (a table of the terrain)."""
    def _filters(t: Terrain) -> tuple[SpaceTest, BorderTest]:
        nodes = t.graph._node

        def _enterable(p: Point) -> bool:
            kind = nodes[p]["kind"]
            through = move_through and not (obstacles_only and kind in BARRIER_SPACES)
            return not (mindless and kind is SpaceKind.PIT) and (through or kind in PASSABLE_SPACES)
        return _enterable, _edge_filter(t, rules, barrier_borders_of(t), barrier_spaces_of(t),
                                        _terrain_squeezer(t))
    key = ("move", tuple(rules[r] for r in STEP_READINGS), mindless, move_through,
           obstacles_only)
    steps: Steps = terrain.table(key, lambda t: Steps(t.graph, *_filters(t)),
                                 lambda old, t: old.patched(*_filters(t), t))
    return steps


def _movement_index(board: Board, rules: Rules, mover: Mover, ethereal: Collection[str],
                    units_block: bool = True) -> StepLists:
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

    def _build() -> Overlay:
        limit = 2 if squeeze == "blocked_if_both" else 1
        squeezer = _terrain_squeezer(terrain)
        nodes = terrain.graph._node
        near = {(x + dx, y + dy) for x, y in blocked | squeezing for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)}
        lists: dict[Point, tuple[Point, ...]] = {}
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
        return Overlay(base, lists)
    return terrain.recent(("move units", tuple(rules[r] for r in STEP_READINGS), mover.mindless,
                           mover.move_through, mover.obstacles_only, blocked, squeezing), _build)


def _closest_base(terrain: Terrain, rules: Rules, immobile: frozenset[str]) -> Steps:
    """Steps along the *closest* view of the terrain alone (a table of the terrain)."""
    def _filters(t: Terrain, view: Board) -> tuple[SpaceTest, BorderTest]:
        return _closest_filters(view, rules, immobile)
    base: Steps = terrain.table(("closest", tuple(rules[r] for r in STEP_READINGS)),
                                lambda t: Steps(t.graph, *_filters(t, Board(t))),
                                lambda old, t: old.patched(*_filters(t, Board(t)), t))
    return base


def _closest_index(board: Board, rules: Rules, immobile: Collection[str]) -> StepLists:
    """Steps along the *closest* view: the terrain's table, with the lists next to immobile
    units redone per ``closest.immobile_units`` (switch closest.immobile_units)."""
    if isinstance(immobile, str) or not isinstance(immobile, Collection) or not all(
            isinstance(unit, str) for unit in immobile):
        raise RulesError("immobile", f"expected a list of unit ids, got {immobile!r:.40}")
    immobile = frozenset(immobile)
    terrain = board.terrain
    readings = tuple(rules[r] for r in STEP_READINGS)
    base = _closest_base(terrain, rules, immobile)
    plugs = frozenset() if rules["closest.immobile_units"] == "ignore" else \
        frozenset(p for p, u in board.occupancy if u in immobile)
    if not plugs:
        return base

    def _build() -> Overlay:
        node_ok, edge_ok = _closest_filters(board, rules, immobile)
        nodes, adj = terrain.graph._node, terrain.graph._adj
        near = {(x + dx, y + dy) for x, y in plugs for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        return Overlay(base, {n: tuple(sorted(v for v in adj[n] if node_ok(v) and edge_ok(n, v)))
                               for n in near if n in nodes})
    return terrain.recent(("closest units", readings, plugs), _build)


def closest_steps(board: Board, rules: Rules) -> Mapping[Point, tuple[Point, ...]]:
    """The steps along :func:`closest_view` (no immobile units) from every space, sorted: ``()``
    from a space the view leaves out. One table of the terrain, shared with :func:`closest`.

    Rules: manual p22 (closest), p15-16 (closed doors open, units ignored); switches
    closest.pits, move.diagonal and move.squeeze.
    """
    board, rules = require_board(board), require_rules(rules)
    terrain = board.terrain
    return terrain.table(("closest lists", tuple(rules[r] for r in STEP_READINGS)),
                         lambda t: ViewSteps(t, _closest_base(t, rules, frozenset())))


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


def _search(board: Board, index: StepLists, start: Point, mover: Mover,
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
    board = require_board(board)
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


def _ranking(measure: str, scored: Sequence[tuple[Point, int, Distance]], reading: str,
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
    board, rules = require_board(board), require_rules(rules)
    start = board.require(start, "start")
    metric = rules["nearest.metric"]
    scored: list[tuple[Point, int, Distance]] = []
    key: int
    value: Distance
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
    board, rules = require_board(board), require_rules(rules)
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
    board, rules = require_board(board), require_rules(rules)
    start = board.require(start, "start")
    return GrowingDistances(_closest_index(board, rules, immobile), start)


def closest_paths(board: Board, start: Point, goal: Point, rules: Rules,
                  immobile: Collection[str] = ()) -> Paths:
    """Every tied path along :func:`closest_view` from ``start`` to ``goal`` (manual p16).

    Rules: manual p16 (the path to the closest explorer ignores closed doors and non-immobile units).
    """
    board, rules = require_board(board), require_rules(rules)
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
    best: int | None = within
    tied: list[Point] = []
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


def _walk_back(board: Board, rules: Rules, mover: Mover, ethereal: frozenset[str], target: Point,
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


def _walk(board: Board, rules: Rules, mover: Mover, index: StepLists, start: Point,
          target: Point, beside: tuple[Point, ...], within: int | None) -> int | None:
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
        def _measure(p: Point) -> Distance | None:
            return closest(board, p, [target], rules, immobile).distance
    else:
        def _measure(p: Point) -> Distance | None:
            return walking_distance(board, p, target, rules, mover, ethereal)
    before, after = _measure(start), _measure(end)
    if after is None:
        return False
    return before is None or after < before
