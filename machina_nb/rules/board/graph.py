"""One networkx graph of the map: a node per space, an edge per pair of neighbours.

Nodes are global ``(x, y)`` points (x from the west, y from the north) with
attributes ``kind`` (:class:`SpaceKind`, what the space is now), ``printed``
(the kind printed on the tile, kept when the space is destroyed), ``tokens`` (a
sorted tuple of token names such as ``"destroyed"`` or ``"light"``), ``tile``
(the tile side key, or None for a plain example board) and ``unit`` (a unit
id, or None). Edges join the 8 neighbours of every space, across joined tiles
too; an orthogonal edge carries the ``border`` it crosses, a diagonal edge
``border=None`` and ``diagonal=True``. Movement,
closest and sight are views or filters of this one graph, never copies.

>>> from machina_nb.rules.board.maptext import parse_map
>>> board = Board.from_layout(parse_map("+-+-+\\n|. r|\\n+D+-+\\n|.|.|\\n+-+-+\\n"))
>>> board.space((1, 0)).name, board.border((0, 0), (0, 1)).name
('RUBBLE', 'DOOR_CLOSED')
>>> board.border((1, 1), (2, 1)).name       # off the map: the boundary
'BOUNDARY'
>>> sorted(board.graph[(0, 0)])
[(0, 1), (1, 0), (1, 1)]

Rules: manual p11 (map tiles), p22 (adjacency, doors), p34-36 (map elements); spec §A1, §0.1.
"""

from __future__ import annotations

from typing import Iterator

import networkx as nx

from machina_nb.rules.errors import RulesError
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind

__all__ = [
    "Board", "PASSABLE_SPACES", "OBSTACLE_SPACES", "BARRIER_SPACES", "BARRIER_BORDERS",
    "NEIGHBOUR_STEPS", "ring_spaces", "pair",
]

PASSABLE_SPACES = frozenset({SpaceKind.FLOOR, SpaceKind.TRAPPED, SpaceKind.PIT, SpaceKind.SPAWN})
"""Spaces a unit may enter (manual p35; spec §A1.1)."""

OBSTACLE_SPACES = frozenset({
    SpaceKind.CHEST, SpaceKind.EVENT, SpaceKind.WORKBENCH, SpaceKind.RECHARGE, SpaceKind.LEVER,
    SpaceKind.CHAPTER, SpaceKind.BARREL, SpaceKind.DESTROYED,
})
"""Spaces that stop movement and plain ranged targeting but not sight (manual p35-37; spec §A1.1)."""

BARRIER_SPACES = frozenset({SpaceKind.RUBBLE, SpaceKind.UNIDENTIFIABLE})
"""Spaces that stop movement and block line of sight (manual p35; spec §A1.1)."""

BARRIER_BORDERS = frozenset({
    BorderKind.WALL, BorderKind.DOOR_CLOSED, BorderKind.BOUNDARY, BorderKind.EDGE,
    BorderKind.DIRECTION,
})
"""Borders that stop movement and block sight: walls, closed doors, unexplored edges (manual p35-36)."""

NEIGHBOUR_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The 8 steps from a space to its neighbours, clockwise from north (manual p34)."""


def pair(point, argument: str = "space") -> Point:
    """``point`` as a tuple if it is a pair of ints (a list or tuple), else a RulesError naming
    ``argument``: ``"10"``, ``(0.9, 0)``, ``(True, 0)`` and ``(1, 2, 3)`` are all refused.

    Rules: manual p11 (spaces of the map grid); content/README.md (coordinates).
    """
    if isinstance(point, (tuple, list)) and len(point) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in point):
        return (point[0], point[1])
    text = repr(point)
    raise RulesError(argument, f"expected an (x, y) space of two whole numbers, got "
                     f"{text if len(text) <= 40 else text[:37] + '...'}")


def _kind(argument: str, value, kind):
    if not isinstance(value, kind):
        raise RulesError(argument, f"expected a {kind.__name__}, got {type(value).__name__}")
    return value


class Board:
    """The joined map as one graph of spaces (manual p11, p34; spec §0.1).

    Build it with :meth:`from_layout`; state changes (a door closed, a space
    destroyed, a unit placed) update the graph in place through
    :meth:`set_border`, :meth:`set_space` and :meth:`place_unit`.
    """

    def __init__(self, graph: nx.Graph | None = None):
        self.graph = graph if graph is not None else nx.Graph()
        self._rings: dict[tuple[Point, Point], BorderKind] = {}
        self.version = 0
        """Bumped by every change, so derived caches (sight tables) know when to refresh."""

    @classmethod
    def from_layout(cls, layout: Layout, tile: str | None = None, origin: Point = (0, 0)) -> "Board":
        """The board of one map (an example board or a single tile side) placed at ``origin``.

        Units drawn on the map become node ``unit`` attributes named by their legend letter.
        Rules: manual p11 (map tile overview).
        """
        board = cls()
        board.add_layout(layout, tile, origin)
        return board

    def add_layout(self, layout: Layout, tile: str | None, origin: Point) -> None:
        """Add a layout's spaces and inner borders at ``origin``; nothing changes on bad input.

        Rules: manual p11 (map tiles), p34 (joining), p35 (units stand on passable spaces).
        """
        if not isinstance(layout, Layout):
            raise RulesError("layout", f"expected a Layout (parse_map), got {type(layout).__name__}")
        if tile is not None and not isinstance(tile, str):
            raise RulesError("tile", f"expected a tile side name or None, got {type(tile).__name__}")
        ox, oy = origin = pair(origin, "origin")
        graph = self.graph
        units = {point: letter for letter, point in layout.units}
        taken = [(ox + x, oy + y) for y in range(layout.height) for x in range(layout.width)
                 if (ox + x, oy + y) in graph]
        if taken:
            raise RulesError("origin", f"space {taken[0]} is already on the board")
        for (x, y), letter in sorted(units.items()):
            if layout.space(x, y) not in PASSABLE_SPACES:
                raise RulesError("layout", f"unit {letter} stands on {layout.space(x, y).name.lower()}"
                                 f" at {(ox + x, oy + y)}: units stand only on passable spaces "
                                 "(manual p35)")
        for y in range(layout.height):
            for x in range(layout.width):
                p = (ox + x, oy + y)
                kind = layout.space(x, y)
                graph.add_node(p, kind=kind, printed=kind, tokens=(), tile=tile,
                               unit=units.get((x, y)))
        for y in range(layout.height):
            for x in range(layout.width):
                p = (ox + x, oy + y)
                if x + 1 < layout.width:
                    graph.add_edge(p, (p[0] + 1, p[1]), border=layout.vertical[y][x + 1],
                                   diagonal=False)
                if y + 1 < layout.height:
                    graph.add_edge(p, (p[0], p[1] + 1), border=layout.horizontal[y + 1][x],
                                   diagonal=False)
                for dx in (-1, 1):
                    q = (p[0] + dx, p[1] + 1)
                    if 0 <= x + dx < layout.width and y + 1 < layout.height:
                        graph.add_edge(p, q, border=None, diagonal=True)
        self.version += 1
        for side, index, kind in layout.ring():
            inside, outside = ring_spaces(layout, side, index, origin)
            self._rings[(inside, outside)] = kind

    # --- reading ---------------------------------------------------------------------------

    def __contains__(self, point: object) -> bool:
        return point in self.graph

    def __iter__(self) -> Iterator[Point]:
        return iter(self.graph)

    def require(self, point: Point, argument: str = "space") -> Point:
        """``point`` as a tuple if it is on the board, else a :class:`RulesError` naming ``argument``.

        Rules: manual p11 (the map is made of map spaces); spec §A1.
        """
        point = pair(point, argument)
        if point not in self.graph:
            raise RulesError(argument, f"{point} is not a space on the board")
        return point

    def space(self, point: Point) -> SpaceKind:
        """The kind of space at ``point`` (manual p35)."""
        return self.graph.nodes[self.require(point)]["kind"]

    def tile_of(self, point: Point) -> str | None:
        """The tile side a space belongs to (manual p21-22: map-tile scope)."""
        return self.graph.nodes[self.require(point)]["tile"]

    def unit_at(self, point: Point) -> str | None:
        """The unit standing on ``point``, if any.

        Rules: manual p18 (a unit's figure stands on the map), p22 (units are obstacles).
        """
        return self.graph.nodes[self.require(point)]["unit"]

    def printed(self, point: Point) -> SpaceKind:
        """The kind printed on the tile at ``point``, whatever tokens now lie on it.

        Rules: manual p35 (destroyed map space), p25 (teleport: non-destroyed spaces of a kind).
        """
        return self.graph.nodes[self.require(point)]["printed"]

    def tokens(self, point: Point) -> tuple[str, ...]:
        """The tokens on a space, sorted, e.g. ``("destroyed", "destroyed")``.

        Rules: manual p35 (destroyed map space), p36 (seal spawn space, light chapter).
        """
        return self.graph.nodes[self.require(point)]["tokens"]

    def tiles(self) -> tuple[str, ...]:
        """The tile sides on the board, sorted.

        Rules: manual p34 (the playing area).
        """
        return tuple(sorted({t for _, t in self.graph.nodes(data="tile") if t is not None}))

    def units(self) -> dict[str, Point]:
        """Every unit on the board and where it stands.

        Rules: manual p18 (a unit's figure stands on the map), p22 (units are obstacles).
        """
        return {data["unit"]: p for p, data in self.graph.nodes(data=True) if data["unit"]}

    def border(self, a: Point, b: Point) -> BorderKind:
        """The border between orthogonal neighbours ``a`` and ``b`` (manual p22, p35-36).

        A neighbour off the board lies behind the map's outer ring: the ring's own
        border (a tile boundary or an unexplored edge), or BOUNDARY.
        """
        a, b = pair(a, "a"), pair(b, "b")
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise RulesError("b", f"{a} and {b} are not orthogonal neighbours")
        data = self.graph.get_edge_data(a, b)
        if data is not None:
            return data["border"]
        return self._rings.get((a, b)) or self._rings.get((b, a)) or BorderKind.BOUNDARY

    # --- state changes (in place) ------------------------------------------------------------

    def set_border(self, a: Point, b: Point, kind: BorderKind) -> None:
        """Change the border between two neighbours, e.g. close or destroy a door (manual p36)."""
        a, b = self.require(a, "a"), self.require(b, "b")
        _kind("kind", kind, BorderKind)
        if not self.graph.has_edge(a, b) or self.graph.edges[a, b]["diagonal"]:
            raise RulesError("b", f"{a} and {b} are not orthogonal neighbours on the board")
        self.graph.edges[a, b]["border"] = kind
        self.version += 1

    def set_space(self, point: Point, kind: SpaceKind) -> None:
        """Change a space, e.g. destroy it or seal a spawn space (manual p35-36)."""
        point = self.require(point)
        self.graph.nodes[point]["kind"] = _kind("kind", kind, SpaceKind)
        self.version += 1

    def place_unit(self, point: Point, unit: str | None) -> None:
        """Put ``unit`` on ``point`` (None clears it); the space must be free and passable (manual p35)."""
        point = self.require(point)
        if unit is not None and not isinstance(unit, str):
            raise RulesError("unit", f"expected a unit name or None, got {type(unit).__name__}")
        kind = self.graph.nodes[point]["kind"]
        if unit is not None and kind not in PASSABLE_SPACES:
            raise RulesError("space", f"{point} is {kind.name.lower()}: units stand only on "
                             "passable spaces (manual p35)")
        if unit is not None and self.graph.nodes[point]["unit"] not in (None, unit):
            raise RulesError("space", f"{point} is occupied by {self.graph.nodes[point]['unit']}")
        self.graph.nodes[point]["unit"] = unit
        self.version += 1

    def add_token(self, point: Point, token: str) -> None:
        """Put a token on a space, e.g. ``"light"`` on a chapter space.

        Rules: manual p36 (light chapter).
        """
        node = self.graph.nodes[self.require(point)]
        if not isinstance(token, str):
            raise RulesError("token", f"expected a token name, got {type(token).__name__}")
        node["tokens"] = tuple(sorted((*node["tokens"], token)))
        self.version += 1

    def destroy_space(self, point: Point) -> str | None:
        """Destroy a space: destroyed tokens on it (two on a spawn space), and it becomes an obstacle.

        Returns the unit destroyed with a spawn space, which is removed from the board
        (manual p35); a unit on any other destroyed space stays. The printed kind is
        kept (:meth:`printed`). Rules: manual p35 (destroy map space), p36 (seal spawn space).
        """
        point = self.require(point)
        node = self.graph.nodes[point]
        spawn = node["printed"] is SpaceKind.SPAWN
        node["tokens"] = tuple(sorted((*node["tokens"], *("destroyed",) * (2 if spawn else 1))))
        node["kind"] = SpaceKind.DESTROYED
        unit = node["unit"] if spawn else None
        if unit is not None:
            node["unit"] = None
        self.version += 1
        return unit

    def connect(self, a: Point, b: Point, border: BorderKind | None) -> None:
        """Join two neighbouring spaces of different tiles (manual p34; spec D21).

        ``border`` is the border crossed by an orthogonal pair (JOINED, EDGE or BOUNDARY);
        a diagonal pair takes None.
        """
        a, b = self.require(a, "a"), self.require(b, "b")
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if max(dx, dy) != 1:
            raise RulesError("b", f"{a} and {b} are not neighbours")
        diagonal = dx == dy == 1
        if border is not None:
            _kind("border", border, BorderKind)
        if diagonal != (border is None):
            raise RulesError("border", "an orthogonal pair takes a border, a diagonal pair None")
        self.graph.add_edge(a, b, border=border, diagonal=diagonal)
        self.version += 1

    def remove_tile(self, tile: str) -> dict[str, Point]:
        """Take a tile side's spaces off the board; returns the units that stood on it.

        Rules: manual p34 (scroll map tile), p28 (exit: placed tiles go under the deck).
        """
        spaces = [p for p, t in self.graph.nodes(data="tile") if t == tile]
        if not spaces:
            raise RulesError("tile", f"tile {tile!r} is not on the board")
        removed = {self.graph.nodes[p]["unit"]: p for p in spaces if self.graph.nodes[p]["unit"]}
        gone = set(spaces)
        self.graph.remove_nodes_from(spaces)
        self._rings = {pair: kind for pair, kind in self._rings.items() if pair[0] not in gone}
        self.version += 1
        return removed

    def state(self) -> tuple:
        """A comparable snapshot of everything on the board (tests: "nothing changed").

        Rules: manual p11, p34-36 (map tiles, spaces, borders and units it records); spec §A1.
        """
        nodes = tuple(sorted((p, tuple(sorted(d.items(), key=lambda kv: kv[0])))
                             for p, d in self.graph.nodes(data=True)))
        edges = tuple(sorted(
            (min(a, b), max(a, b), d["border"].name if d["border"] else "", d["diagonal"])
            for a, b, d in self.graph.edges(data=True)))
        rings = tuple(sorted((pair, kind.name) for pair, kind in self._rings.items()))
        return nodes, edges, rings

    def copy(self) -> "Board":
        """An independent copy (for what-if questions).

        Rules: manual p11, p34-36 (map tiles, spaces, borders and units it copies); spec §A1.
        """
        clone = Board(self.graph.copy())
        clone._rings = dict(self._rings)
        return clone


def ring_spaces(layout: Layout, side: str, index: int, origin: Point) -> tuple[Point, Point]:
    """The space inside a ring border of ``layout`` placed at ``origin`` and the point outside it.

    >>> from machina_nb.rules.board.maptext import parse_map
    >>> ring_spaces(parse_map("+-+-+\\n|. .e\\n+-+-+\\n"), "E", 0, (10, 0))
    ((11, 0), (12, 0))

    Rules: manual p11 (map tile edges).
    """
    ox, oy = origin
    w, h = layout.width, layout.height
    inside, outside = {
        "N": ((index, 0), (index, -1)),
        "S": ((index, h - 1), (index, h)),
        "W": ((0, index), (-1, index)),
        "E": ((w - 1, index), (w, index)),
    }[side]
    return (inside[0] + ox, inside[1] + oy), (outside[0] + ox, outside[1] + oy)
