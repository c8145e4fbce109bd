"""What blocks a line between space centres: barrier borders, barrier spaces, lattice vertices.

Shared by the exact line of sight and by its precomputed tables. Positions are
doubled: space ``(x, y)`` has its centre at ``(2x+1, 2y+1)``, borders sit at one
even and one odd coordinate and lattice vertices at two even ones.

Rules: manual p22 (line of sight), p23 (ranged), p35-36 (barriers); rulings D1, D2, D3.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from machina_nb.rules.board.graph import (
    BARRIER_BORDERS,
    BARRIER_SPACES,
    OBSTACLE_SPACES,
    Board,
    Terrain,
)
from machina_nb.rules.board.maptext import BorderKind, Point
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = ["BorderTest", "SpaceTest", "barrier_borders_of", "barrier_spaces_of", "corner_rays",
           "vertex_blocked", "require_rules", "trace", "judge_elements", "terrain_obstacles"]


def trace(dx: int, dy: int) -> tuple[tuple[str, int, int], ...]:
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
    events: list[tuple[str, int, int]] = []
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


# --- what blocks: borders, spaces, vertices ----------------------------------------------------

BorderTest = Callable[[Point, Point], bool]
SpaceTest = Callable[[Point], bool]


def barrier_borders_of(board: Board | Terrain, open_kinds: Collection[BorderKind] = ()) -> BorderTest:
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


def barrier_spaces_of(board: Board | Terrain) -> SpaceTest:
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


def require_rules(rules: object) -> Rules:
    """``rules`` if it is a :class:`Rules` object, else a :class:`RulesError` naming ``rules``."""
    if not isinstance(rules, Rules):
        raise RulesError("rules", f"expected a Rules object, got {type(rules).__name__}")
    return rules

def judge_elements(rules: Rules, border_barrier: BorderTest, space_barrier: SpaceTest,
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


def terrain_obstacles(terrain: Terrain) -> SpaceTest:
    """Obstacle spaces of the terrain itself (units apart): plain ranged targeting (manual p23)."""
    nodes = terrain.graph.nodes
    return lambda p: p in nodes and nodes[p]["kind"] in OBSTACLE_SPACES
