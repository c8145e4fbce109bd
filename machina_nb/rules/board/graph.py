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

A board is a value: its :class:`Terrain` (spaces, borders, tokens; built once
per map) and its occupancy (which unit stands where). Changes return new
boards that share the terrain, so tables derived from a terrain (sight masks,
step lists) serve every board of that map, and a changed terrain patches them.

>>> from machina_nb.rules.board.maptext import parse_map
>>> board = Board.from_layout(parse_map("+-+-+\\n|. .|\\n+-+-+\\n"))
>>> moved = board.with_unit((0, 0), "P").with_unit((1, 0), "P")
>>> moved.units(), board.units(), moved.terrain is board.terrain
({'P': (1, 0)}, {}, True)

>>> from machina_nb.rules.board.maptext import parse_map
>>> board = Board.from_layout(parse_map("+-+-+\\n|. r|\\n+D+-+\\n|.|.|\\n+-+-+\\n"))
>>> board.space((1, 0)).name, board.border((0, 0), (0, 1)).name
('RUBBLE', 'DOOR_CLOSED')
>>> board.border((1, 1), (2, 1)).name       # off the map: the boundary
'BOUNDARY'
>>> sorted(board.graph[(0, 0)])
[(0, 1), (1, 0), (1, 1)]

Rules: manual p11 (map tiles), p22 (adjacency, doors), p34-36 (map elements).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, TypeVar, cast

import networkx as nx

from machina_nb.rules.board import drawing
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.errors import RulesError

_T = TypeVar("_T")

__all__ = [
    "Board", "Terrain", "PASSABLE_SPACES", "OBSTACLE_SPACES", "BARRIER_SPACES", "BARRIER_BORDERS",
    "NEIGHBOUR_STEPS", "ring_spaces", "pair", "require_board",
]

PASSABLE_SPACES = frozenset({SpaceKind.FLOOR, SpaceKind.TRAPPED, SpaceKind.PIT, SpaceKind.SPAWN})
"""Spaces a unit may enter (manual p35)."""

OBSTACLE_SPACES = frozenset({
    SpaceKind.CHEST, SpaceKind.EVENT, SpaceKind.WORKBENCH, SpaceKind.RECHARGE, SpaceKind.LEVER,
    SpaceKind.CHAPTER, SpaceKind.BARREL, SpaceKind.DESTROYED,
})
"""Spaces that stop movement and plain ranged targeting but not sight (manual p35-37)."""

BARRIER_SPACES = frozenset({SpaceKind.RUBBLE, SpaceKind.UNIDENTIFIABLE})
"""Spaces that stop movement and block line of sight (manual p35)."""

BARRIER_BORDERS = frozenset({
    BorderKind.WALL, BorderKind.DOOR_CLOSED, BorderKind.BOUNDARY, BorderKind.EDGE,
    BorderKind.DIRECTION,
})
"""Borders that stop movement and block sight: walls, closed doors, unexplored edges (manual p35-36)."""

NEIGHBOUR_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The 8 steps from a space to its neighbours, clockwise from north (manual p34)."""



def pair(point: object, argument: str = "space") -> Point:
    """``point`` as a tuple if it is a pair of ints (a list or tuple), else a RulesError naming
    ``argument``: ``"10"``, ``(0.9, 0)``, ``(True, 0)`` and ``(1, 2, 3)`` are all refused.

    Rules: manual p11 (spaces of the map grid).
    """
    if isinstance(point, (tuple, list)) and len(point) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in point):
        return (point[0], point[1])
    text = repr(point)
    raise RulesError(argument, f"expected an (x, y) space of two whole numbers, got "
                     f"{text if len(text) <= 40 else text[:37] + '...'}")


def require_board(board: object, argument: str = "board") -> Board:
    """``board`` if it is a :class:`Board`, else a RulesError naming ``argument``."""
    if not isinstance(board, Board):
        raise RulesError(argument, f"expected a Board (Board.from_layout(parse_map(...))), got "
                         f"{'nothing' if board is None else 'a ' + type(board).__name__}")
    return board


def _attrs(**attrs: object) -> MappingProxyType[str, object]:
    return MappingProxyType(attrs)


def _freeze(node: dict[Point, Any], adj: dict[Point, Any]) -> Any:
    """A networkx graph over ready-made (never changed) node and adjacency dicts, frozen."""
    graph = nx.Graph()
    graph._node, graph._adj = node, adj
    return nx.freeze(graph)


def _pair(a: Point, b: Point) -> tuple[Point, Point]:
    return (a, b) if a < b else (b, a)


class Terrain:
    """The map without its units, an immutable value: spaces, borders and the outer ring.

    Nodes of :attr:`graph` carry ``kind``, ``printed``, ``tokens``, ``tile`` and
    ``unit`` (always None here: units belong to the :class:`Board`); edges
    carry ``border`` and ``diagonal``. The graph is frozen and its attribute
    dicts are read-only. A change (:meth:`changed`) returns a new terrain that
    shares every untouched part with this one and records what it changed, so
    tables derived from it (:meth:`table`) are patched, not rebuilt. Equal
    content compares and hashes equal, however it was built.

    Rules: manual p11 (map tiles), p22 (doors), p34-36 (map elements).
    """

    __slots__ = ("graph", "_rings", "_key", "_hash", "_tables", "_recent", "_parent",
                 "_changes", "__weakref__")
    graph: Any   # a frozen networkx.Graph
    _rings: dict[tuple[Point, Point], BorderKind]
    _key: tuple[Any, ...] | None
    _hash: int | None
    _tables: dict[tuple[Any, ...], object]
    _recent: dict[tuple[Any, ...], object]
    _parent: weakref.ref[Terrain] | None
    _changes: tuple[tuple[str, Any], ...]

    def __init__(self, node: dict[Point, Any] | None = None,
                 adj: dict[Point, Any] | None = None,
                 rings: dict[tuple[Point, Point], BorderKind] | None = None,
                 parent: Terrain | None = None,
                 changes: tuple[tuple[str, Any], ...] = ()) -> None:
        put = object.__setattr__
        put(self, "graph", _freeze({} if node is None else node, {} if adj is None else adj))
        put(self, "_rings", {} if rings is None else rings)
        put(self, "_key", None)
        put(self, "_hash", None)
        put(self, "_tables", {})
        put(self, "_recent", {})
        put(self, "_parent", None if parent is None else weakref.ref(parent))
        put(self, "_changes", changes)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Terrain is a value; use changed() for a new one")

    # --- value semantics -----------------------------------------------------------------

    def key(self) -> tuple[Any, ...]:
        """Everything on the terrain as one comparable tuple (spaces, borders, ring)."""
        key = self._key
        if key is None:
            graph = self.graph
            nodes = tuple(sorted((p, d["kind"].name, d["printed"].name, d["tokens"], d["tile"])
                                 for p, d in graph._node.items()))
            edges = tuple(sorted((min(a, b), max(a, b), d["border"].name if d["border"] else "",
                                  d["diagonal"]) for a, b, d in graph.edges(data=True)))
            rings = tuple(sorted((pair, kind.name) for pair, kind in self._rings.items()))
            key = (nodes, edges, rings)
            object.__setattr__(self, "_key", key)
        return key

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Terrain):
            return NotImplemented
        return len(self.graph) == len(other.graph) and self.key() == other.key()

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(self.key())
            object.__setattr__(self, "_hash", value)
        return value

    # --- reading ---------------------------------------------------------------------------

    @property
    def rings(self) -> Mapping[tuple[Point, Point], BorderKind]:
        """The borders of the outer ring, by (inside, outside) pair (manual p11)."""
        return MappingProxyType(self._rings)

    def border(self, a: Point, b: Point) -> BorderKind:
        """The border between orthogonal neighbours (see :meth:`Board.border`)."""
        data = self.graph._adj.get(a, {}).get(b)
        if data is not None:
            border: BorderKind = data["border"]
            return border
        return self._rings.get((a, b)) or self._rings.get((b, a)) or BorderKind.BOUNDARY

    @property
    def changes(self) -> tuple[tuple[str, Any], ...]:
        """What this terrain changed from the one it was made from: ``("space", p)`` and
        ``("border", (a, b))`` entries; empty for a terrain built from scratch."""
        return self._changes

    def touched(self) -> frozenset[Point]:
        """Spaces whose steps a change may alter: every space within one step of a changed
        space; for a changed border, the spaces round its two ends (a diagonal step past
        a corner reads the borders meeting there)."""
        out: set[Point] = set()
        for what, where in self._changes:
            if what == "space":
                x, y = where
                out.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
                continue
            (ax, ay), (bx, by) = where
            if ax != bx:   # a vertical border: its ends are above and below it
                out.update((x, y) for x in (ax, bx) for y in (ay - 1, ay, ay + 1))
            else:
                out.update((x, y) for x in (ax - 1, ax, ax + 1) for y in (ay, by))
        return frozenset(out)

    def table(self, key: tuple[Any, ...], build: Callable[[Terrain], _T],
              patch: Callable[[_T, Terrain], _T] | None = None) -> _T:
        """A table derived from this terrain alone, made once: ``build(terrain)``.

        ``key`` names the table and every switch reading it depends on. A
        terrain changed from one that still holds the table gets
        ``patch(that table, self)`` instead, which redoes only what
        :attr:`changes` touch. The table is a pure function of the terrain's
        content and ``key``, so equal terrains give equal tables.
        """
        hit = self._tables.get(key)
        if hit is None:
            parent = None if self._parent is None else self._parent()
            base = None if parent is None else parent._tables.get(key)
            hit = build(self) if base is None or patch is None else patch(cast(_T, base), self)
            self._tables[key] = hit
        return cast(_T, hit)

    def recent(self, key: tuple[Any, ...], build: Callable[[], _T], keep: int = 256) -> _T:
        """Like :meth:`table` for answers that also depend on units or a source: the last
        ``keep`` are kept (``key`` holds the occupancy or source they depend on)."""
        hit = self._recent.get(key)
        if hit is None:
            recent = self._recent
            while len(recent) >= keep:
                del recent[next(iter(recent))]
            hit = recent[key] = build()
        return cast(_T, hit)

    # --- changes (each returns a new terrain) ----------------------------------------------

    def changed(self, borders: Iterable[tuple[tuple[Point, Point], BorderKind]] = (),
                spaces: Iterable[tuple[Point, Mapping[str, object]]] = ()) -> Terrain:
        """A terrain with some borders and space attributes changed, sharing the rest.

        ``borders``: ``((a, b), kind)`` for orthogonal neighbours on the map;
        ``spaces``: ``(point, {"kind": ..., "tokens": ...})``. Nothing changes on bad input.
        Rules: manual p35-36 (doors, destroyed spaces, tokens).
        """
        node, adj = self.graph._node, self.graph._adj
        new_node, new_adj = None, None
        changes: list[tuple[str, Any]] = []
        for (a, b), kind in borders:
            data = adj.get(a, {}).get(b)
            if data is None or data["diagonal"]:
                raise RulesError("b", f"{a} and {b} are not orthogonal neighbours on the board")
            if not isinstance(kind, BorderKind):
                raise RulesError("kind", f"expected a BorderKind, got {kind!r}")
            if new_adj is None:
                new_adj = dict(adj)
            for p, _ in ((a, b), (b, a)):
                if new_adj[p] is adj[p]:
                    new_adj[p] = dict(adj[p])
            new_adj[a][b] = new_adj[b][a] = _border_attrs(kind)
            changes.append(("border", _pair(a, b)))
        for p, attrs in spaces:
            if p not in node:
                raise RulesError("space", f"{p} is not a space on the board")
            if new_node is None:
                new_node = dict(node)
            new_node[p] = _attrs(**{**new_node[p], **attrs})
            changes.append(("space", p))
        if not changes:
            return self
        return Terrain(node if new_node is None else new_node, adj if new_adj is None else new_adj,
                       self._rings, self, tuple(dict.fromkeys(changes)))

    def rebased(self) -> Terrain:
        """The same terrain as a fresh root: no record of what it was changed from (for a
        map's printed terrain, so states' changes are counted from it)."""
        return Terrain(self.graph._node, self.graph._adj, self._rings)

    def with_layout(self, layout: Layout, tile: str | None, origin: Point) -> Terrain:
        """This terrain with a layout's spaces and inner borders added at ``origin``.

        Rules: manual p11 (map tiles), p34 (joining).
        """
        ox, oy = origin
        node = dict(self.graph._node)
        adj = dict(self.graph._adj)
        taken = [(ox + x, oy + y) for y in range(layout.height) for x in range(layout.width)
                 if (ox + x, oy + y) in node]
        if taken:
            raise RulesError("origin", f"space {taken[0]} is already on the board")
        # one read-only attribute mapping per kind of space, shared
        kinds: dict[SpaceKind, MappingProxyType[str, object]] = {}
        for y in range(layout.height):
            row = layout.spaces[y]
            for x in range(layout.width):
                kind = row[x]
                data = kinds.get(kind)
                if data is None:
                    data = kinds[kind] = _attrs(kind=kind, printed=kind, tokens=(), tile=tile,
                                                unit=None)
                node[(ox + x, oy + y)] = data
                adj[(ox + x, oy + y)] = {}

        def _join(p: Point, q: Point, data: Mapping[str, object]) -> None:
            adj[p][q] = adj[q][p] = data
        for y in range(layout.height):
            for x in range(layout.width):
                p = (ox + x, oy + y)
                if x + 1 < layout.width:
                    _join(p, (p[0] + 1, p[1]), _border_attrs(layout.vertical[y][x + 1]))
                if y + 1 < layout.height:
                    _join(p, (p[0], p[1] + 1), _border_attrs(layout.horizontal[y + 1][x]))
                    for dx in (-1, 1):
                        if 0 <= x + dx < layout.width:
                            _join(p, (p[0] + dx, p[1] + 1), _DIAGONAL)
        rings = dict(self._rings)
        for side, index, edge in layout.ring():
            rings[ring_spaces(layout, side, index, origin)] = edge
        return Terrain(node, adj, rings)

    def with_connections(self, pairs: Iterable[tuple[Point, Point, BorderKind | None]]
                         ) -> Terrain:
        """This terrain with pairs of neighbouring spaces of different tiles joined: ``(a, b,
        border)``, the border crossed by an orthogonal pair, None for a diagonal pair.

        Rules: manual p34 (joining map tiles); switches join.other_edges and adjacency.across_tiles.
        """
        node, old = self.graph._node, self.graph._adj
        adj = dict(old)
        for a, b, border in pairs:
            for point, name in ((a, "a"), (b, "b")):
                if point not in node:
                    raise RulesError(name, f"{point} is not a space on the board")
            dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
            if max(dx, dy) != 1:
                raise RulesError("b", f"{a} and {b} are not neighbours")
            diagonal = dx == dy == 1
            if diagonal != (border is None):
                raise RulesError("border", "an orthogonal pair takes a border, a diagonal pair None")
            for p in (a, b):
                if adj[p] is old[p]:
                    adj[p] = dict(old[p])
            adj[a][b] = adj[b][a] = _DIAGONAL if diagonal else _border_attrs(border)
        return Terrain(node, adj, self._rings)

    def without_tile(self, tile: str) -> Terrain:
        """This terrain without a tile side's spaces (manual p34: scroll map tile).

        Rules: manual p34 (scroll map tile), p28 (exit).
        """
        gone = {p for p, d in self.graph._node.items() if d["tile"] == tile}
        if not gone:
            raise RulesError("tile", f"tile {tile!r} is not on the board")
        node = {p: d for p, d in self.graph._node.items() if p not in gone}
        adj = {p: ({q: d for q, d in near.items() if q not in gone}
                   if any(q in gone for q in near) else near)
               for p, near in self.graph._adj.items() if p not in gone}
        rings = {pair: kind for pair, kind in self._rings.items() if pair[0] not in gone}
        return Terrain(node, adj, rings)


_DIAGONAL = _attrs(border=None, diagonal=True)
_BORDER_ATTRS = {kind: _attrs(border=kind, diagonal=False) for kind in BorderKind}


def _border_attrs(kind: object) -> MappingProxyType[str, object]:
    """The read-only attributes of an orthogonal edge: one shared mapping per kind of border."""
    shared = _BORDER_ATTRS.get(kind) if isinstance(kind, BorderKind) else None
    return shared if shared is not None else _attrs(border=kind, diagonal=False)


class Board:
    """The joined map as one graph of spaces, with the units on it: an immutable value
    (manual p11, p34).

    A board is its :class:`Terrain` (built once per map, shared by every board
    of that map) and its occupancy (which unit stands where). Build it with
    :meth:`from_layout` (or ``PlayArea.board``); a change returns a new board:
    :meth:`with_unit`, :meth:`without_unit`, :meth:`with_border`,
    :meth:`with_space`, :meth:`with_token`, :meth:`with_destroyed`,
    :meth:`with_layout`, :meth:`with_connection`, :meth:`with_connections`,
    :meth:`without_tile`. Boards
    compare and hash by content.
    """

    __slots__ = ("terrain", "_units", "_graph", "_hash", "_occupancy")
    terrain: Terrain
    _units: dict[Point, str]
    _graph: Any   # a frozen networkx.Graph, made when first asked for
    _hash: int | None
    _occupancy: frozenset[tuple[Point, str]] | None

    def __init__(self, terrain: Terrain | None = None,
                 units: Mapping[Point, str] | Iterable[tuple[Point, str]] = ()) -> None:
        terrain = Terrain() if terrain is None else terrain
        if not isinstance(terrain, Terrain):
            raise RulesError("terrain", f"expected a Terrain, got {type(terrain).__name__}")
        placed: dict[Point, str] = {}
        items = units.items() if isinstance(units, Mapping) else units
        for point, unit in sorted(items):
            _check_stand(terrain, point, unit, placed)
            placed[point] = unit
        put = object.__setattr__
        put(self, "terrain", terrain)
        put(self, "_units", placed)
        put(self, "_graph", None)
        put(self, "_hash", None)
        put(self, "_occupancy", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Board is a value; use its with_... methods for a new one")

    @classmethod
    def _make(cls, terrain: Terrain, units: dict[Point, str]) -> Board:
        board = object.__new__(cls)
        put = object.__setattr__
        put(board, "terrain", terrain)
        put(board, "_units", units)
        put(board, "_graph", None)
        put(board, "_hash", None)
        put(board, "_occupancy", None)
        return board

    @classmethod
    def from_layout(cls, layout: Layout, tile: str | None = None, origin: Point = (0, 0)) -> Board:
        """The board of one map (an example board or a single tile side) placed at ``origin``.

        Units drawn on the map stand on their spaces, named by their legend letter.
        Rules: manual p11 (map tile overview).
        """
        if not isinstance(layout, Layout):
            raise RulesError("layout", f"expected a Layout (parse_map), got {type(layout).__name__}")
        if tile is not None and not isinstance(tile, str):
            raise RulesError("tile", f"expected a tile side name or None, got {type(tile).__name__}")
        return cls().with_layout(layout, tile, pair(origin, "origin"))

    # --- value semantics ------------------------------------------------------------------

    @property
    def occupancy(self) -> frozenset[tuple[Point, str]]:
        """Every ``(space, unit)`` pair on the board: the units as a value."""
        occupancy = self._occupancy
        if occupancy is None:
            occupancy = frozenset(self._units.items())
            object.__setattr__(self, "_occupancy", occupancy)
        return occupancy

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Board):
            return NotImplemented
        return self._units == other._units and self.terrain == other.terrain

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self.terrain, self.occupancy))
            object.__setattr__(self, "_hash", value)
        return value

    def _repr_svg_(self) -> str:
        """The board as a picture in Jupyter (:func:`machina_nb.rules.board.drawing.draw`)."""
        return drawing.svg(drawing.draw(self))

    def __repr__(self) -> str:
        return f"<Board of {len(self.terrain.graph)} spaces, {len(self._units)} units>"

    @property
    def graph(self) -> nx.Graph:
        """The board as one frozen networkx graph, units in the node ``unit`` attribute."""
        if self._graph is None:
            terrain = self.terrain.graph
            if not self._units:
                graph = terrain
            else:
                node = dict(terrain._node)
                for p, unit in self._units.items():
                    node[p] = _attrs(**{**node[p], "unit": unit})
                graph = _freeze(node, terrain._adj)
            object.__setattr__(self, "_graph", graph)
        return self._graph

    # --- reading ---------------------------------------------------------------------------

    def __contains__(self, point: object) -> bool:
        return point in self.terrain.graph._node

    def __iter__(self) -> Iterator[Point]:
        return iter(self.terrain.graph._node)

    def __len__(self) -> int:
        return len(self.terrain.graph._node)

    def require(self, point: Point, argument: str = "space") -> Point:
        """``point`` as a tuple if it is on the board, else a :class:`RulesError` naming ``argument``.

        Rules: manual p11 (the map is made of map spaces).
        """
        point = pair(point, argument)
        if point not in self.terrain.graph._node:
            raise RulesError(argument, f"{point} is not a space on the board")
        return point

    def _node(self, point: Point) -> Mapping[str, Any]:
        attrs: Mapping[str, Any] = self.terrain.graph._node[self.require(point)]
        return attrs

    def space(self, point: Point) -> SpaceKind:
        """The kind of space at ``point`` (manual p35)."""
        kind: SpaceKind = self._node(point)["kind"]
        return kind

    def tile_of(self, point: Point) -> str | None:
        """The tile side a space belongs to (manual p21-22: map-tile scope)."""
        tile: str | None = self._node(point)["tile"]
        return tile

    def unit_at(self, point: Point) -> str | None:
        """The unit standing on ``point``, if any.

        Rules: manual p18 (a unit's figure stands on the map), p22 (units are obstacles).
        """
        return self._units.get(self.require(point))

    def occupant(self, point: Point) -> str | None:
        """The unit on ``point`` without checking the point (None off the board or when free)."""
        return self._units.get(point)

    def printed(self, point: Point) -> SpaceKind:
        """The kind printed on the tile at ``point``, whatever tokens now lie on it.

        Rules: manual p35 (destroyed map space), p25 (teleport: non-destroyed spaces of a kind).
        """
        printed: SpaceKind = self._node(point)["printed"]
        return printed

    def tokens(self, point: Point) -> tuple[str, ...]:
        """The tokens on a space, sorted, e.g. ``("destroyed", "destroyed")``.

        Rules: manual p35 (destroyed map space), p36 (seal spawn space, light chapter).
        """
        tokens: tuple[str, ...] = self._node(point)["tokens"]
        return tokens

    def tiles(self) -> tuple[str, ...]:
        """The tile sides on the board, sorted.

        Rules: manual p34 (the playing area).
        """
        return tuple(sorted({d["tile"] for d in self.terrain.graph._node.values()
                             if d["tile"] is not None}))

    def units(self) -> dict[str, Point]:
        """Every unit on the board and where it stands (a new dict, in the order of the
        board's spaces: tile by tile as laid, row by row within a tile).

        Rules: manual p18 (a unit's figure stands on the map), p22 (units are obstacles).
        """
        order = self.terrain.table(("order",), lambda t: {p: i for i, p in enumerate(t.graph)},
                                   lambda old, t: old)
        return {unit: p for p, unit in sorted(self._units.items(), key=lambda pu: order[pu[0]])}

    def border(self, a: Point, b: Point) -> BorderKind:
        """The border between orthogonal neighbours ``a`` and ``b`` (manual p22, p35-36).

        A neighbour off the board lies behind the map's outer ring: the ring's own
        border (a tile boundary or an unexplored edge), or BOUNDARY.
        """
        a, b = pair(a, "a"), pair(b, "b")
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise RulesError("b", f"{a} and {b} are not orthogonal neighbours")
        return self.terrain.border(a, b)

    def state(self) -> tuple[Any, ...]:
        """A comparable snapshot of everything on the board (tests: "nothing changed").

        Rules: manual p11, p34-36 (map tiles, spaces, borders and units it records).
        """
        nodes = tuple(sorted((p, tuple(sorted(d.items(), key=lambda kv: kv[0])))
                             for p, d in self.graph._node.items()))
        edges = tuple(sorted(
            (min(a, b), max(a, b), d["border"].name if d["border"] else "", d["diagonal"])
            for a, b, d in self.graph.edges(data=True)))
        rings = tuple(sorted((pair, kind.name) for pair, kind in self.terrain.rings.items()))
        return nodes, edges, rings

    # --- changes (each returns a new board) --------------------------------------------------

    def with_unit(self, point: Point, unit: str) -> Board:
        """This board with ``unit`` on ``point`` (moved there if it stood elsewhere); the space
        must be passable and free of other units.

        Rules: manual p35 (units stand on passable spaces), p22 (one unit per space), p18.
        """
        point = self.require(point)
        if not isinstance(unit, str) or not unit:
            raise RulesError("unit", f"expected a unit id, got {unit!r}")
        units = {p: u for p, u in self._units.items() if u != unit}
        _check_stand(self.terrain, point, unit, units)
        units[point] = unit
        return Board._make(self.terrain, units)

    def without_unit(self, point: Point) -> Board:
        """This board with ``point`` cleared of its unit (the same board if it was free).

        Rules: manual p18 (a unit's figure leaves the map).
        """
        point = self.require(point)
        if point not in self._units:
            return self
        return Board._make(self.terrain, {p: u for p, u in self._units.items() if p != point})

    def with_units(self, placed: Iterable[tuple[Point, str | None]], *,
                   standing: bool = False) -> Board:
        """This board with several spaces set at once: ``(point, unit)``, None clears.

        Every space is cleared first, then filled, so units may trade places. ``standing``:
        the units already stand there (a game state's figures), so a space that became an
        obstacle under a unit keeps it: a destroyed space that was not a spawn space leaves
        its unit where it is (manual p35).
        Rules: manual p25 (switch positions), p35 (passable spaces; destroy map space),
        p22 (one unit per space).
        """
        placed = [(self.require(p), unit) for p, unit in placed]
        moving = {unit for _, unit in placed if unit is not None}
        cleared = {p for p, _ in placed}
        units = {p: u for p, u in self._units.items() if p not in cleared and u not in moving}
        for point, unit in placed:
            if unit is not None:
                if standing and units.get(point) in (None, unit):
                    units[point] = unit
                    continue
                _check_stand(self.terrain, point, unit, units)
                units[point] = unit
        return Board._make(self.terrain, units)

    def with_border(self, a: Point, b: Point, kind: BorderKind) -> Board:
        """This board with the border between two neighbours changed, e.g. a door closed (manual p36)."""
        a, b = self.require(a, "a"), self.require(b, "b")
        if not isinstance(kind, BorderKind):
            raise RulesError("kind", f"expected a BorderKind, got {kind!r}")
        return Board._make(self.terrain.changed(borders=(((a, b), kind),)), self._units)

    def with_space(self, point: Point, kind: SpaceKind) -> Board:
        """This board with a space changed, e.g. destroyed or a spawn space sealed (manual p35-36)."""
        point = self.require(point)
        if not isinstance(kind, SpaceKind):
            raise RulesError("kind", f"expected a SpaceKind, got {kind!r}")
        return Board._make(self.terrain.changed(spaces=((point, {"kind": kind}),)), self._units)

    def with_token(self, point: Point, token: str) -> Board:
        """This board with a token on a space, e.g. ``"light"`` on a chapter space.

        Rules: manual p36 (light chapter).
        """
        point = self.require(point)
        tokens = tuple(sorted((*self.tokens(point), token)))
        return Board._make(self.terrain.changed(spaces=((point, {"tokens": tokens}),)),
                           self._units)

    def with_destroyed(self, point: Point) -> Board:
        """This board with a space destroyed: destroyed tokens on it (two on a spawn space),
        and it becomes an obstacle.

        A unit on a destroyed spawn space is destroyed with it and leaves the board
        (read :meth:`unit_at` first to know which); a unit on any other destroyed
        space stays. The printed kind is kept (:meth:`printed`).
        Rules: manual p35 (destroy map space), p36 (seal spawn space).
        """
        point = self.require(point)
        spawn = self.printed(point) is SpaceKind.SPAWN
        tokens = tuple(sorted((*self.tokens(point), *("destroyed",) * (2 if spawn else 1))))
        terrain = self.terrain.changed(spaces=((point, {"kind": SpaceKind.DESTROYED,
                                                          "tokens": tokens}),))
        units = {p: u for p, u in self._units.items() if not (spawn and p == point)}
        return Board._make(terrain, units)

    def with_layout(self, layout: Layout, tile: str | None, origin: Point) -> Board:
        """This board with a layout's spaces, inner borders and drawn units added at ``origin``;
        nothing changes on bad input.

        Rules: manual p11 (map tiles), p34 (joining), p35 (units stand on passable spaces).
        """
        ox, oy = origin
        for letter, (x, y) in sorted(layout.units, key=lambda lp: (lp[1][1], lp[1][0])):
            if layout.space(x, y) not in PASSABLE_SPACES:
                raise RulesError("layout", f"unit {letter} stands on {layout.space(x, y).name.lower()}"
                                 f" at {(ox + x, oy + y)}: units stand only on passable spaces "
                                 "(manual p35)")
        terrain = self.terrain.with_layout(layout, tile, origin)
        units = dict(self._units)
        units.update(((ox + x, oy + y), letter) for letter, (x, y) in layout.units)
        return Board._make(terrain, dict(sorted(units.items())))

    def with_connection(self, a: Point, b: Point, border: BorderKind | None) -> Board:
        """This board with two neighbouring spaces of different tiles joined (manual p34; switches join.other_edges and adjacency.across_tiles).

        ``border`` is the border crossed by an orthogonal pair (JOINED, EDGE or BOUNDARY);
        a diagonal pair takes None.
        """
        return self.with_connections(((a, b, border),))

    def with_connections(self, pairs: Iterable[tuple[Point, Point, BorderKind | None]]
                         ) -> Board:
        """This board with several pairs joined at once (see :meth:`with_connection`).

        Rules: manual p34 (joining map tiles); switches join.other_edges and adjacency.across_tiles.
        """
        pairs = [(self.require(a, "a"), self.require(b, "b"), border) for a, b, border in pairs]
        return Board._make(self.terrain.with_connections(pairs), self._units)

    def without_tile(self, tile: str) -> Board:
        """This board without a tile side's spaces and the units on them (read
        :meth:`units_on` first to know which).

        Rules: manual p34 (scroll map tile), p28 (exit: placed tiles go under the deck).
        """
        terrain = self.terrain.without_tile(tile)
        nodes = terrain.graph._node
        return Board._make(terrain, {p: u for p, u in self._units.items() if p in nodes})

    def units_on(self, tile: str) -> dict[str, Point]:
        """The units standing on a tile side's spaces.

        Rules: manual p34 (scroll map tile: its units leave with it).
        """
        nodes = self.terrain.graph._node
        return {u: p for p, u in self._units.items() if nodes[p]["tile"] == tile}


def _check_stand(terrain: Terrain, point: Point, unit: str, placed: Mapping[Point, str]) -> None:
    """A unit may stand on ``point``: on the board, passable, not taken by another unit."""
    node = terrain.graph._node.get(point)
    if node is None:
        raise RulesError("space", f"{point} is not a space on the board")
    if node["kind"] not in PASSABLE_SPACES:
        raise RulesError("space", f"{point} is {node['kind'].name.lower()}: units stand only on "
                         "passable spaces (manual p35)")
    if placed.get(point) not in (None, unit):
        raise RulesError("space", f"{point} is occupied by {placed[point]}")


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
