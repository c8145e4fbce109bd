"""Properties of sight, adjacency, paths and distances on random boards (manual p22, p34).

The line-of-sight oracle here is deliberately slow and plain: it lists every
point where the segment meets a grid line (exact Fractions), samples the
middle of every piece between them, and judges each point and piece against
the board directly, with the vertex rulings written as plain
compass formulas (rulings D1-D3).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from types import MappingProxyType

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sight import board_of

from machina_nb.rules.board.distance import (
    Mover,
    closest,
    legal_step,
    movement_view,
    nearest,
    reach,
    shortest_paths,
)
from machina_nb.rules.board.graph import Board, Terrain
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.board.sight import (
    adjacent,
    line_of_sight,
    ranged_line,
    ranged_visible_from,
    visible_from,
    visible_pairs,
)
from machina_nb.rules.board.terrain import move_steps, neighbours
from machina_nb.rules.rulings import Rules

BARRIER_BORDERS = {BorderKind.WALL, BorderKind.DOOR_CLOSED, BorderKind.BOUNDARY,
                   BorderKind.EDGE, BorderKind.DIRECTION}
BARRIER_SPACES = {SpaceKind.RUBBLE, SpaceKind.UNIDENTIFIABLE}
OBSTACLE_SPACES = {SpaceKind.CHEST, SpaceKind.EVENT, SpaceKind.WORKBENCH, SpaceKind.RECHARGE,
                   SpaceKind.LEVER, SpaceKind.CHAPTER, SpaceKind.BARREL, SpaceKind.DESTROYED}


# --- the slow oracle ------------------------------------------------------------------------------------


def reference_sight(board: Board, a, b, rules: Rules, ranged: bool = False,
                    ethereal=frozenset()) -> bool:
    nodes = board.graph.nodes

    def barrier_space(p):
        return p not in nodes or nodes[p]["kind"] in BARRIER_SPACES

    def obstacle(p):
        if not ranged or p not in nodes:
            return False
        unit = nodes[p]["unit"]
        if unit is not None and (rules["ethereal.blocks_ranged"] == "yes" or unit not in ethereal):
            return True
        return nodes[p]["kind"] in OBSTACLE_SPACES

    def barrier_border(p, q):
        return board.border(p, q) in BARRIER_BORDERS

    A = (Fraction(2 * a[0] + 1, 2), Fraction(2 * a[1] + 1, 2))
    B = (Fraction(2 * b[0] + 1, 2), Fraction(2 * b[1] + 1, 2))
    D = (B[0] - A[0], B[1] - A[1])
    ts = set()
    for axis in (0, 1):
        if D[axis]:
            lo, hi = sorted((A[axis], B[axis]))
            for k in range(math.floor(lo) + 1, math.ceil(hi)):
                ts.add((k - A[axis]) / D[axis])
    cuts = [Fraction(0)] + sorted(ts) + [Fraction(1)]
    for t0, t1 in zip(cuts, cuts[1:]):
        t = (t0 + t1) / 2
        cell = (math.floor(A[0] + t * D[0]), math.floor(A[1] + t * D[1]))
        if cell not in (a, b) and (barrier_space(cell) or obstacle(cell)):
            return False
    for t in ts:
        x, y = A[0] + t * D[0], A[1] + t * D[1]
        if x.denominator == 1 and y.denominator == 1:
            if vertex_closes(int(x), int(y), D, rules, barrier_border, barrier_space, obstacle):
                return False
        elif x.denominator == 1:
            if barrier_border((int(x) - 1, math.floor(y)), (int(x), math.floor(y))):
                return False
        elif barrier_border((math.floor(x), int(y) - 1), (math.floor(x), int(y))):
            return False
    return True


def vertex_closes(vx, vy, D, rules, barrier_border, barrier_space, obstacle) -> bool:
    """The corner readings at V(vx, vy), in compass terms (y grows south, so north is -y)."""
    quadrant = {"NW": (vx - 1, vy - 1), "NE": (vx, vy - 1), "SW": (vx - 1, vy), "SE": (vx, vy)}
    ray = {"N": ("NW", "NE"), "S": ("SW", "SE"), "W": ("NW", "SW"), "E": ("NE", "SE")}
    barrier = {r for r, (p, q) in ray.items() if barrier_border(quadrant[p], quadrant[q])}
    # The segment runs through two opposite quadrants; the other two are the detours.
    sides = ("NW", "SE") if (D[0] > 0) != (D[1] > 0) else ("NE", "SW")
    squeeze = rules["los.space_squeeze"] == "blocked"
    walls = {s: any(r in barrier for r in s) for s in sides}  # "NW" is bounded by rays N and W
    cells = {s: squeeze and barrier_space(quadrant[s]) for s in sides}
    reading = rules["los.vertex"]
    if reading == "touch_ok":
        closed = all(cells.values())
    elif reading == "separating":
        closed = all(walls[s] or cells[s] for s in sides)
    else:
        closed = len(barrier) + sum(cells.values()) >= 2
    if closed:
        return True
    in_the_way = {s: obstacle(quadrant[s]) for s in sides}
    if rules["ranged.obstacle_vertex"] == "any_touch":
        return any(in_the_way.values())
    if rules["ranged.obstacle_vertex"] == "separating":
        return any(in_the_way.values()) and all(
            walls[s] or cells[s] or in_the_way[s] for s in sides)
    return False


# --- random boards ------------------------------------------------------------------------------------------

SPACES = "......rrcbot#"
VERTICAL = "   |dDx"
HORIZONTAL = "   -dDx"

rulings = st.builds(
    lambda v, s, o, e: Rules().replace({"los.vertex": v, "los.space_squeeze": s,
                                        "ranged.obstacle_vertex": o, "ethereal.blocks_ranged": e}),
    st.sampled_from(["separating", "touch_ok", "any_two"]), st.sampled_from(["blocked", "visible"]),
    st.sampled_from(["separating", "corner_ok", "any_touch"]), st.sampled_from(["yes", "no"]),
)


@st.composite
def map_texts(draw, max_side: int = 6) -> str:
    w, h = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    cells = draw(st.lists(st.sampled_from(SPACES), min_size=w * h, max_size=w * h))
    vertical = draw(st.lists(st.sampled_from(VERTICAL), min_size=w * h, max_size=w * h))
    horizontal = draw(st.lists(st.sampled_from(HORIZONTAL), min_size=w * h, max_size=w * h))
    lines = ["+" + "-+" * w]
    for y in range(h):
        row = "|"
        for x in range(w):
            row += cells[y * w + x] + ("|" if x == w - 1 else vertical[y * w + x])
        lines.append(row)
        if y < h - 1:
            lines.append("+" + "".join(horizontal[y * w + x] + "+" for x in range(w)))
    lines.append("+" + "-+" * w)
    return "\n".join(lines) + "\n"


def with_units(draw, board: Board) -> Board:
    free = sorted(p for p in board if board.space(p) in (SpaceKind.FLOOR, SpaceKind.TRAPPED))
    chosen = draw(st.lists(st.sampled_from(free), max_size=4, unique=True)) if free else []
    return board.with_units((p, f"U{i}") for i, p in enumerate(chosen))


@st.composite
def boards(draw, max_side: int = 6) -> Board:
    return with_units(draw, board_of(draw(map_texts(max_side))))


@st.composite
def l_shaped_boards(draw) -> Board:
    """Three small tiles in an L (no tile in the south-east): lines may pass off the map."""
    west = parse_map(draw(map_texts(4)))
    east = parse_map(draw(map_texts(4)))
    board = Board().with_layout(west, "west", (0, 0)).with_layout(east, "east", (west.width, 0))
    board = board.with_layout(parse_map(draw(map_texts(4))), "south",
                              (0, max(west.height, east.height)))
    return with_units(draw, board)


# --- sight ---------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.one_of(boards(), l_shaped_boards()), rulings)
def test_fast_sight_agrees_with_the_slow_oracle_on_every_pair(board, rules):
    pairs = visible_pairs(board, rules)
    ethereal = {"U0"}
    for a in board:
        fast = visible_from(board, a, rules)
        fast_ranged = ranged_visible_from(board, a, rules, ethereal)
        for b in board:
            if a == b:
                continue
            expected = reference_sight(board, a, b, rules)
            assert (b in fast) is expected, (a, b)
            assert line_of_sight(board, a, b, rules).visible is expected, (a, b)
            assert ((min(a, b), max(a, b)) in pairs) is expected
            expected_ranged = reference_sight(board, a, b, rules, True, ethereal)
            assert (b in fast_ranged) is expected_ranged, (a, b)
            assert ranged_line(board, a, b, rules, ethereal).visible is expected_ranged, (a, b)


@settings(max_examples=100, deadline=None)
@given(boards(), rulings)
def test_manual_p22_sight_and_adjacency_are_symmetric(board, rules):
    for a in board:
        for b in visible_from(board, a, rules):
            assert a in visible_from(board, b, rules)
        for b in board:
            assert adjacent(board, a, b, rules) == adjacent(board, b, a, rules)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5), rulings)
def test_blocked_verdicts_point_at_a_real_blocker(board, rules):
    for a, b in itertools.permutations(board, 2):
        sight = line_of_sight(board, a, b, rules)
        if sight.visible:
            continue
        x, y = sight.point
        on_segment = (x - a[0] - Fraction(1, 2)) * (b[1] - a[1]) == (y - a[1] - Fraction(1, 2)) * (b[0] - a[0])
        assert on_segment and (sight.borders or sight.spaces)


# --- movement and distances -----------------------------------------------------------------------------------

movement_rulings = st.builds(
    lambda d, q, v: Rules().replace({"move.diagonal": d, "move.squeeze": q, "los.vertex": v}),
    st.sampled_from(["follow_los", "no_corner_cut", "one_L_open"]),
    st.sampled_from(["allowed", "blocked_if_both", "blocked_if_either"]),
    st.sampled_from(["separating", "touch_ok", "any_two"]),
)


@settings(max_examples=100, deadline=None)
@given(boards(), movement_rulings, st.data())
def test_every_step_of_every_path_is_legal_and_paths_are_graph_shortest(board, rules, data):
    passable = sorted(p for p in board if board.space(p) is not SpaceKind.PIT
                      and board.space(p) in (SpaceKind.FLOOR, SpaceKind.TRAPPED))
    if not passable:
        return
    start = data.draw(st.sampled_from(passable))
    mover = Mover(board.unit_at(start), mindless=True)
    view = movement_view(board, rules, mover)
    oracle = nx.single_source_shortest_path_length(view, start) if start in view else {start: 0}
    budget = reach(board, start, 4, rules, mover)
    for goal in board:
        paths = shortest_paths(board, start, goal, rules, mover)
        if paths.cost is None:
            assert goal not in oracle or board.unit_at(goal) not in (None, mover.unit)
            continue
        assert paths.cost == oracle[goal]
        assert (goal in budget) is (paths.cost <= 4)
        listed = list(itertools.islice(paths, 50))
        assert len(set(listed)) == len(listed) == min(paths.count(), 50)
        for path in listed:
            assert len(path) == paths.cost + 1 and path[0] == start and path[-1] == goal
            for p, q in zip(path, path[1:]):
                assert legal_step(board, p, q, rules, mover)


@settings(max_examples=100, deadline=None)
@given(boards(), st.sampled_from(["obstacle", "ignore", "rubble"]),
       st.sampled_from(["count_through", "avoid"]), st.data())
def test_closest_is_never_less_than_nearest(board, immobile, pits, data):
    rules = Rules().replace({"closest.immobile_units": immobile, "closest.pits": pits})
    start = data.draw(st.sampled_from(sorted(board)))
    goals = sorted(board)
    near = dict(nearest(board, start, goals, rules).distances)
    ranking = closest(board, start, goals, rules, immobile={"U1"})
    for goal, distance in ranking.distances:
        assert distance >= near[goal]
    assert all(dict(ranking.distances)[c] == ranking.distance for c in ranking.candidates)
    assert len(ranking.candidates) == sum(1 for _, d in ranking.distances if d == ranking.distance)


# --- caches follow every change ----------------------------------------------------------------------------

changes = st.lists(st.tuples(st.sampled_from(["unit", "border", "space"]), st.integers(0, 10**6),
                             st.integers(0, 10**6)), min_size=1, max_size=5)


def change(board: Board, what: str, i: int, j: int) -> Board:
    spaces = sorted(board)
    p = spaces[i % len(spaces)]
    if what == "unit":
        free = [q for q in spaces if board.space(q) is SpaceKind.FLOOR and not board.unit_at(q)]
        units = sorted(board.units())
        if units and free:
            return board.with_unit(free[j % len(free)], units[i % len(units)])
    elif what == "border":
        q = (p[0] + 1, p[1]) if j % 2 else (p[0], p[1] + 1)
        if q in board:
            kinds = [BorderKind.OPEN, BorderKind.WALL, BorderKind.DOOR_CLOSED, BorderKind.DOOR_OPEN]
            return board.with_border(p, q, kinds[j % 4])
    elif not board.unit_at(p):
        return board.with_space(p, [SpaceKind.FLOOR, SpaceKind.RUBBLE, SpaceKind.CHEST,
                                    SpaceKind.PIT][j % 4])
    return board


def from_scratch(board: Board) -> Board:
    """The same spaces, borders and units built anew: a terrain with no tables yet and no
    record of the changes that led to it (the oracle for tables patched after a change)."""
    graph = board.terrain.graph
    node = {p: MappingProxyType(dict(graph.nodes[p])) for p in sorted(graph)}
    adj: dict = {p: {} for p in node}
    for a, b, data in graph.edges(data=True):
        adj[a][b] = adj[b][a] = MappingProxyType(dict(data))
    return Board(Terrain(node, adj, dict(board.terrain.rings)), board.occupancy)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5), changes, rulings, movement_rulings)
def test_answers_after_a_change_equal_those_of_a_board_built_from_scratch(
        board, steps_of_change, sight_rules, move_rules):
    rules = move_rules.replace({k: sight_rules[k] for k in ("los.space_squeeze",
                                                             "ranged.obstacle_vertex")})
    for what, i, j in steps_of_change:
        for p in board:  # fill the tables of the board before the change
            visible_from(board, p, rules), reach(board, p, 3, rules)
            closest(board, p, sorted(board), rules, {"U0"})
        before = board.state()
        changed = change(board, what, i, j)
        assert board.state() == before                 # the old board never changes
        board, fresh = changed, from_scratch(changed)
        assert fresh == board and hash(fresh) == hash(board)
        assert visible_pairs(board, rules) == visible_pairs(fresh, rules)
        for p in board:
            seen, shot = visible_from(board, p, rules), ranged_visible_from(board, p, rules)
            assert seen == visible_from(fresh, p, rules)
            assert shot == ranged_visible_from(fresh, p, rules, ())
            for q in board:
                if q != p:
                    assert (q in seen) is line_of_sight(board, p, q, rules).visible
                    assert (q in shot) is ranged_line(board, p, q, rules).visible
            assert dict(reach(board, p, 3, rules)) == dict(reach(fresh, p, 3, rules))
            goals = sorted(board)
            assert closest(board, p, goals, rules, {"U0"}) == closest(fresh, p, goals, rules, {"U0"})
            assert neighbours(board, p, rules) == neighbours(fresh, p, rules)
            assert move_steps(board, p, rules, True) == move_steps(fresh, p, rules, True)


@st.composite
def wide_sparse_boards(draw) -> Board:
    """Open boards 17-30 spaces wide with a few walls and rubble: the all-pairs run of columns
    is then split, and many runs are decided by one box with nothing blocked in it."""
    w, h = draw(st.integers(17, 30)), draw(st.integers(1, 5))
    cells = [["."] * w for _ in range(h)]
    walls = set(draw(st.lists(st.tuples(st.integers(0, w - 2), st.integers(0, h - 1)), max_size=3)))
    for x, y in draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), max_size=2)):
        cells[y][x] = "r"
    lines = ["+" + "-+" * w]
    for y in range(h):
        lines.append("|" + "".join(cells[y][x] + ("|" if x == w - 1 or (x, y) in walls else " ")
                                   for x in range(w)))
        lines.append("+" + ("-+" if y == h - 1 else " +") * w)
    return board_of("\n".join(lines) + "\n")


@settings(max_examples=15, deadline=None)
@given(wide_sparse_boards(), rulings)
def test_all_pairs_by_runs_of_columns_agree_with_the_exact_walk(board, rules):
    pairs = visible_pairs(board, rules)
    spaces = sorted(board)
    expected = {(a, b) for i, a in enumerate(spaces) for b in spaces[i + 1:]
                if line_of_sight(board, a, b, rules).visible}
    assert pairs == expected and len(pairs) == len(expected)
    assert set(pairs) == expected and all(pair in pairs for pair in expected)
