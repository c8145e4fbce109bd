"""The playing area: placed map tiles, entry/exit tokens and the map-tile deck.

A :class:`PlayArea` is a frozen value: the tiles placed so far (side, rotation,
origin), the pairs of spaces joined across tile edges, the entry and exit
tokens and the deck still to draw (tile-side keys, top first). It produces the
:class:`~machina_nb.rules.board.graph.Board` graph with :meth:`PlayArea.board`;
exploring returns an :class:`Exploration` (the new area, the tile placed, the
tiles scrolled away and the monsters banished); :func:`apply_exploration`
gives the board after it (the old board's spaces and units kept, the scrolled
tiles taken off and the new tile joined, without rebuilding the rest).

Tiles sit on a grid of 10x10 slots: a tile's slot is its origin divided by 10,
rounded to the nearest slot (a tile shifted by the ``orthogonal`` or
``any_adjacent`` readings of ``explore.offset`` stays in its slot).

>>> from machina_nb.rules.board.maptext import parse_map
>>> from machina_nb.rules.board.tiles import TileSide
>>> ring = "+" + "-+" * 4 + "E+" + "-+" * 5 + "\\n"
>>> body = ("|" + ". " * 9 + ".|\\n" + "+" + " +" * 9 + " +\\n") * 9 + "|" + ". " * 9 + ".|\\n"
>>> side = TileSide("t01", "a", "Hall", parse_map(ring + body + ring.replace("E", "e")))
>>> area = PlayArea.start([side], ("t01a",))
>>> area.entry, area.slots()
(((4, 0), (4, -1)), ((0, 0),))

Rules: manual p8 (starting tile), p11 (map tiles), p28 (entry/exit tokens), p34 (explore, scroll).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import cast

from machina_nb.rules.board.graph import PASSABLE_SPACES, Board, ring_spaces
from machina_nb.rules.board.maptext import BorderKind, Layout, Point, SpaceKind
from machina_nb.rules.board.sight import adjacent, require_rules
from machina_nb.rules.board.tiles import TILE_SIZE, TileSide
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

__all__ = [
    "Edge", "SIDES", "PlacedTile", "place_tile", "PlayArea", "Exploration", "explore_options",
    "explore", "apply_exploration", "entry_spaces", "spaces_at_entry",
]

Edge = tuple[Point, Point]
"""One ring border of a placed tile: ``(space inside the tile, point outside it)``."""

SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
"""The four sides of a tile and the step that leaves it through each (manual p11)."""

_CLOCKWISE = "NESW"
_EDGE_KINDS = frozenset({BorderKind.EDGE, BorderKind.DIRECTION})
_CITE_EXPLORE = "manual p34 (explore map tile)"
_CITE_SCROLL = "manual p34 (scroll map tile); switch scroll.destroy"


@dataclass(frozen=True)
class PlacedTile:
    """A tile side in the playing area: turned clockwise ``rotation`` quarter turns, NW space at ``origin``.

    Rules: manual p11 (map tiles), p34 (tiles are joined in any orientation).
    """

    side: TileSide
    rotation: int
    origin: Point
    layout: Layout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", self.side.layout.rotated(self.rotation))

    @property
    def key(self) -> str:
        """The tile-side key, e.g. ``t01a``."""
        return self.side.key

    @property
    def slot(self) -> Point:
        """The 10x10 grid slot the tile occupies (manual p34: the 2x2 playing area)."""
        ox, oy = self.origin
        return ((ox + TILE_SIZE // 2) // TILE_SIZE, (oy + TILE_SIZE // 2) // TILE_SIZE)

    def __contains__(self, point: object) -> bool:
        x, y = cast(Point, point)
        ox, oy = self.origin
        return ox <= x < ox + self.layout.width and oy <= y < oy + self.layout.height

    def ring(self) -> tuple[tuple[str, Edge, BorderKind], ...]:
        """Every outer-ring border as ``(side, (inside, outside), kind)`` in board coordinates.

        Rules: manual p11 (tile edges and the direction symbol), p34 (joining at edges).
        """
        return tuple((side, ring_spaces(self.layout, side, index, self.origin), kind)
                     for side, index, kind in self.layout.ring())

    def direction_symbol(self) -> tuple[str, Edge]:
        """The side and ring border carrying the direction symbol (manual p11)."""
        for side, edge, kind in self.ring():
            if kind is BorderKind.DIRECTION:
                return side, edge
        raise RulesError("side", f"tile side {self.key} has no direction symbol (manual p11)")


def place_tile(side: TileSide, rotation: int, origin: Point) -> PlacedTile:
    """A validated :class:`PlacedTile`: rotation a whole number of quarter turns 0-3, origin integers.

    >>> place_tile(None, 5, (0, 0))
    Traceback (most recent call last):
    ...
    machina_nb.rules.errors.RulesError: rotation: expected 0, 1, 2 or 3 quarter turns clockwise, got 5

    Rules: manual p34 (joining tiles; they turn, never flip).
    """
    if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 3:
        raise RulesError("rotation", f"expected 0, 1, 2 or 3 quarter turns clockwise, got {rotation!r}")
    if (not isinstance(origin, tuple) or len(origin) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in origin)):
        raise RulesError("origin", f"expected an (x, y) pair of integers, got {origin!r}")
    if not isinstance(side, TileSide):
        raise RulesError("side", f"expected a TileSide, got {side!r}")
    return PlacedTile(side, rotation, origin)


@dataclass(frozen=True)
class PlayArea:
    """The placed tiles, the joins between them, the entry/exit tokens and the deck (manual p8, p28, p34).

    ``library`` holds every tile side that may be drawn; ``deck`` the keys still to
    draw, top first. ``joined`` holds each pair of spaces joined across tile edges.

    Rules: manual p8 (map-tile deck, starting tile), p28 (entry/exit tokens), p34 (playing area).
    """

    library: tuple[TileSide, ...]
    deck: tuple[str, ...] = ()
    tiles: tuple[PlacedTile, ...] = ()
    joined: frozenset[frozenset[Point]] = frozenset()
    entry: Edge | None = None
    exit: Edge | None = None

    # --- building -----------------------------------------------------------------------------

    @classmethod
    def new(cls, sides: Iterable[TileSide], deck: Iterable[str]) -> PlayArea:
        """An empty playing area drawing from ``deck`` (tile-side keys, top first).

        Rules: manual p8 (shuffle the map-tile deck).
        """
        library = tuple(sides)
        if not all(isinstance(s, TileSide) for s in library):
            raise RulesError("sides", "expected TileSide values (content.load_tiles()[id].sides)")
        keys = {s.key for s in library}
        deck = tuple(deck)
        for key in deck:
            if key not in keys:
                raise RulesError("deck", f"unknown tile side {key!r}; known: {', '.join(sorted(keys))}")
        tile_ids = [area_side.tile for key in deck for area_side in library if area_side.key == key]
        if len(set(tile_ids)) != len(tile_ids):
            raise RulesError("deck", "a tile appears twice in the deck (each tile has two sides, "
                             "one deck card; manual p8)")
        return cls(library, deck)

    @classmethod
    def start(cls, sides: Iterable[TileSide], deck: Iterable[str]) -> PlayArea:
        """Setup: the bottom tile of the deck is the starting tile, the entry token on its direction symbol.

        The starting tile sits unturned at origin (0, 0). Rules: manual p8 (setup), p28 (place entry token).
        """
        area = cls.new(sides, deck)
        if not area.deck:
            raise RulesError("deck", "the map-tile deck is empty")
        tile = place_tile(area.side(area.deck[-1]), 0, (0, 0))
        return replace(area, deck=area.deck[:-1], tiles=(tile,), entry=tile.direction_symbol()[1])

    def place_entry_token(self) -> PlayArea:
        """Chapter effect: the top tile of the deck enters the empty area, the entry token on its symbol.

        Rules: manual p28 (place entry token).
        """
        if self.tiles:
            raise RulesError("area", "place entry token needs an empty playing area (manual p28)")
        if not self.deck:
            raise RulesError("deck", "the map-tile deck is empty")
        tile = place_tile(self.side(self.deck[0]), 0, (0, 0))
        return replace(self, deck=self.deck[1:], tiles=(tile,), entry=tile.direction_symbol()[1],
                       exit=None, joined=frozenset())

    def place_endgame(self, key: str) -> PlayArea:
        """*Enter endgame*: the endgame tile side ``key`` (set aside at setup) enters play
        unturned, apart from the placed tiles (one empty slot east of them, joined to none),
        with the entry token on its direction symbol. Where it goes is ours: the manual only
        says it is placed into play.

        Rules: manual p28 (enter endgame), p8 (the endgame tile is set aside at setup).
        """
        origin = (max(t.origin[0] + t.layout.width for t in self.tiles) + TILE_SIZE,
                  min(t.origin[1] for t in self.tiles)) if self.tiles else (0, 0)
        tile = place_tile(self.side(key), 0, origin)
        return replace(self, deck=tuple(k for k in self.deck if k != key),
                       tiles=self.tiles + (tile,), entry=tile.direction_symbol()[1])

    def clear(self, order: Iterable[str]) -> PlayArea:
        """The last explorer has exited: every placed tile goes under the deck in ``order``.

        ``order`` is the shuffle of the placed tile sides (randomness is the caller's).
        Every monster is banished; apply with ``board.without_tile`` per tile.
        Rules: manual p28 (place exit token: when the last surviving explorer exits), p34 (exit map tile).
        """
        order = tuple(order)
        if sorted(order) != sorted(t.key for t in self.tiles):
            raise RulesError("order", f"expected the placed tile sides in some order, got {order!r}")
        return replace(self, tiles=(), deck=self.deck + order, joined=frozenset(), entry=None,
                       exit=None)

    def exit_options(self) -> tuple[Edge, ...]:
        """Where the exit token may go: any unexplored edge except the entry token's edge.

        Rules: manual p28 (place exit token).
        """
        barred = set(self.edge_run(self.entry)) if self.entry else set()
        return tuple(e for e in self.unexplored_edges() if e not in barred)

    def place_exit_token(self, edge: Edge) -> PlayArea:
        """The activating explorer puts the exit token on an unexplored edge, pointing out.

        Rules: manual p28 (place exit token).
        """
        if edge not in self.exit_options():
            raise RulesError("edge", f"{edge!r} is not an unexplored edge free of the entry token "
                             "(manual p28)")
        return replace(self, exit=edge)

    def board(self) -> Board:
        """The one graph of every placed tile, joined across their edges.

        Rules: manual p11 (map tiles), p34 (joining); switches join.other_edges and adjacency.across_tiles.
        """
        board = Board()
        placed: list[PlacedTile] = []
        for tile in self.tiles:
            board = _stitch(board.with_layout(tile.layout, tile.key, tile.origin), tile, placed,
                            self.joined)
            placed.append(tile)
        return board

    # --- reading ------------------------------------------------------------------------------

    def side(self, key: str) -> TileSide:
        """The tile side with ``key`` from the library, or a :class:`RulesError` naming ``key``.

        Rules: manual p8 (the map-tile deck of double-sided tiles), p11 (map tiles).
        """
        for side in self.library:
            if side.key == key:
                return side
        raise RulesError("key", f"unknown tile side {key!r}")

    def tile(self, key: str) -> PlacedTile:
        """The placed tile with ``key``.

        Rules: manual p34 (the playing area).
        """
        for tile in self.tiles:
            if tile.key == key:
                return tile
        raise RulesError("tile", f"tile side {key!r} is not in the playing area")

    def tile_at(self, point: Point) -> PlacedTile | None:
        """The placed tile covering ``point``, if any.

        Rules: manual p21-22 (map-tile scope), p34 (the playing area).
        """
        for tile in self.tiles:
            if point in tile:
                return tile
        return None

    def slots(self) -> tuple[Point, ...]:
        """The grid slots of the placed tiles, in placement order (manual p34)."""
        return tuple(t.slot for t in self.tiles)

    def ring(self) -> dict[Edge, BorderKind]:
        """Every placed tile's ring border, by ``(inside, outside)``.

        Rules: manual p11 (tile edges), p34 (joining, unexplored edges).
        """
        return {edge: kind for tile in self.tiles for _, edge, kind in tile.ring()}

    def unexplored_edges(self) -> tuple[Edge, ...]:
        """Ring edges not joined to another tile, sorted.

        Rules: manual p34 (unexplored edge), p35 (an unexplored edge is a barrier).
        """
        return tuple(sorted(edge for edge, kind in self.ring().items()
                            if kind in _EDGE_KINDS and frozenset(edge) not in self.joined))

    def edge_run(self, edge: Edge) -> tuple[Edge, ...]:
        """The whole edge (the run of edge borders on one side) that ``edge`` belongs to.

        Rules: manual p11 (up to 4 edges a side).
        """
        ring = self.ring()
        if ring.get(edge) not in _EDGE_KINDS:
            raise RulesError("edge", f"{edge!r} is not an edge of a placed tile")
        (ix, iy), (ox, oy) = edge
        along = (1, 0) if iy != oy else (0, 1)
        run = [edge]
        for sign in (1, -1):
            step = 1
            while True:
                dx, dy = along[0] * sign * step, along[1] * sign * step
                other = ((ix + dx, iy + dy), (ox + dx, oy + dy))
                if ring.get(other) not in _EDGE_KINDS:
                    break
                run.append(other)
                step += 1
        return tuple(sorted(run))


def _stitch(board: Board, tile: PlacedTile, placed: Iterable[PlacedTile],
            joined: frozenset[frozenset[Point]]) -> Board:
    """The board with a tile just added connected to the tiles already there (manual p34; switches join.other_edges and adjacency.across_tiles)."""
    placed = tuple(placed)
    pairs: list[tuple[Point, Point, BorderKind | None]] = []
    ring = {edge: kind for other in placed for _, edge, kind in other.ring()}
    for _, (inside, outside), kind in tile.ring():
        if not any(outside in other for other in placed):
            continue
        facing = ring.get((outside, inside))
        if frozenset((inside, outside)) in joined:
            border = BorderKind.JOINED
        elif kind in _EDGE_KINDS and facing in _EDGE_KINDS:
            border = BorderKind.EDGE
        else:
            border = BorderKind.BOUNDARY
        pairs.append((inside, outside, border))
    for p in _ring_points(tile):
        for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
            q = (p[0] + dx, p[1] + dy)
            if q not in tile and q in board and any(q in other for other in placed):
                pairs.append((p, q, None))
    return board.with_connections(pairs)


def _ring_points(tile: PlacedTile) -> list[Point]:
    ox, oy = tile.origin
    w, h = tile.layout.width, tile.layout.height
    return [(ox + x, oy + y) for y in range(h) for x in range(w)
            if x in (0, w - 1) or y in (0, h - 1)]


def entry_spaces(area: PlayArea, board: Board, rules: Rules) -> tuple[Point, ...]:
    """Where explorers may be placed: free passable spaces on or adjacent to the entry token (manual p28).

    "On top of" the token is read as the space inside the direction symbol; "adjacent"
    as :func:`machina_nb.rules.board.sight.adjacent` to that space. Sorted; the players choose.
    Rules: manual p28 (place entry token), p22 (adjacent).
    """
    if area.entry is None:
        raise RulesError("area", "no entry token in the playing area (manual p28)")
    return spaces_at_entry(board, board.require(area.entry[0], "area"), rules)


def spaces_at_entry(board: Board, inside: Point, rules: Rules) -> tuple[Point, ...]:
    """Free passable spaces on ``inside`` (the entry token's space) or adjacent to it, sorted.

    A pit is never offered: a unit placed there would be destroyed (manual p35).
    Rules: manual p28 (place entry token), p22 (adjacent), p35 (pits).
    """
    near = [inside] + [q for q in board.terrain.graph[inside] if adjacent(board, inside, q, rules)]
    return tuple(sorted(p for p in near if board.unit_at(p) is None
                        and board.space(p) in PASSABLE_SPACES
                        and board.space(p) is not SpaceKind.PIT))


# --- explore and scroll ---------------------------------------------------------------------


@dataclass(frozen=True)
class Exploration:
    """One way an explore action can resolve (manual p34): what is placed, scrolled and banished.

    ``area`` is the playing area afterwards; ``banished`` the monsters on scrolled
    tiles (banished, not killed: manual p19) with where they stood; ``joined`` the
    pairs of spaces joined across the new tile's edges; ``warnings`` notes such as a
    direction symbol that is not next to the explorer under ``grid_snap``.

    Rules: manual p34 (explore map tile, scroll map tile), p19 (banish); rulings D19, D20, D21.
    """

    space: Point
    edge: Edge
    tile: PlacedTile
    destroyed: tuple[str, ...]
    banished: tuple[tuple[str, Point], ...]
    joined: tuple[frozenset[Point], ...]
    area: PlayArea
    warnings: tuple[str, ...] = ()
    rules: tuple[str, ...] = (_CITE_EXPLORE,)
    tokens_left: tuple[str, ...] = ()
    """The tokens (``entry``, ``exit``) that leave with a scrolled tile."""

    @property
    def misaligned(self) -> tuple[Point, Point] | None:
        """The direction symbol and the explorer's space when they are not next to each other
        (``explore.offset = grid_snap``), else None."""
        return _misaligned(self.tile, self.space)

    def explain(self) -> str:
        """One line for people: the tile placed, tiles scrolled, monsters banished, warnings, rules."""
        text = (f"explore from {self.space}: {self.tile.key} turned {self.tile.rotation} "
                f"at {self.tile.origin} (slot {self.tile.slot})")
        if self.destroyed:
            text += f"; scrolled away {', '.join(self.destroyed)}"
        if self.banished:
            text += "; banished " + ", ".join(f"{u} at {p}" for u, p in self.banished)
        for warning in self.warnings:
            text += f"; note: {warning}"
        return text + f" ({'; '.join(self.rules)})"


def _misaligned(tile: PlacedTile, space: Point) -> tuple[Point, Point] | None:
    """The tile's direction symbol and ``space`` when they are not next to each other."""
    where = tile.direction_symbol()[1][0]
    if max(abs(where[0] - space[0]), abs(where[1] - space[1])) != 1:
        return where, space
    return None


def explore_options(area: PlayArea, board: Board, space: Point, rules: Rules, *,
                    explorers: Collection[str], side: str | None = None) -> tuple[Exploration, ...]:
    """Every way the explorer on ``space`` can explore (manual p34); one entry when nothing is left open.

    The explorer must stand on an unexplored edge that carries no entry or exit
    token; the top tile of the deck is turned so its direction-symbol side faces
    the exploring edge and offset per ``explore.offset`` (D19); other aligned edges
    join per ``join.other_edges`` (D21); past the 2x2 limit tiles scroll away per
    ``scroll.destroy`` (D20), never tiles with explorers on them, and their monsters
    (every unit not in ``explorers``) are banished. ``side`` (N, E, S, W) picks the
    edge when the explorer's space touches two. Options differ only where the
    players choose; they come in a stable order (by offset, then destroyed tiles).
    Nothing changes: apply the chosen one with :func:`apply_exploration`.

    Rules: manual p34 (explore map tile, scroll map tile), p11 (direction symbol); rulings D19, D20, D21.
    """
    space, rules = board.require(space), require_rules(rules)
    explorers = frozenset(explorers)
    unit = board.unit_at(space)
    if unit is None or unit not in explorers:
        raise RulesError("space", f"no explorer stands on {space} (manual p34)")
    edges = [e for e in area.unexplored_edges() if e[0] == space]
    if side is not None:
        if side not in SIDES:
            raise RulesError("side", f"expected N, E, S or W, got {side!r}")
        edges = [e for e in edges if _side_of(e) == side]
    if not edges:
        raise RulesError("space", f"{space} is not on an unexplored edge"
                         + (f" on side {side}" if side else "") + " (manual p34)")
    if not area.deck:
        raise RulesError("deck", "the map-tile deck is empty: nothing to explore")
    new_side = area.side(area.deck[0])
    if any(t.side.tile == new_side.tile for t in area.tiles):
        raise RulesError("deck", f"tile {new_side.tile} is already in the playing area")
    options: list[Exploration] = []
    problems: list[str] = []
    for edge in edges:
        tokens = {area.entry, area.exit} & set(area.edge_run(edge))
        if tokens:
            problems.append(f"the edge at {edge} carries an "
                            f"{'entry' if area.entry in tokens else 'exit'} token (manual p34)")
            continue
        for tile, warnings in _join_placements(area, edge, new_side, rules):
            try:
                options.extend(_scrolls(area, board, space, edge, tile, warnings, explorers, rules))
            except RulesError as exc:
                problems.append(str(exc)[len(exc.argument) + 2:])
    if not options:
        raise RulesError("space", "cannot explore from here: " + "; ".join(dict.fromkeys(problems)))
    return tuple(options)


def explore(area: PlayArea, board: Board, space: Point, rules: Rules, *,
            explorers: Collection[str], side: str | None = None,
            option: int | None = None) -> tuple[Exploration, Board]:
    """Explore from ``space``: what happened and the board after it (manual p34).

    When the players have a choice (:func:`explore_options` gives several),
    ``option`` picks one by index; otherwise a :class:`RulesError` lists them.
    Rules: manual p34 (explore map tile).
    """
    options = explore_options(area, board, space, rules, explorers=explorers, side=side)
    if option is None:
        if len(options) > 1:
            raise RulesError("option", f"the players choose one of {len(options)} ways: "
                             + "; ".join(f"{i}: {o.explain()}" for i, o in enumerate(options)))
        option = 0
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < len(options):
        raise RulesError("option", f"expected an index below {len(options)}, got {option!r}")
    chosen = options[option]
    return chosen, apply_exploration(board, chosen)


def apply_exploration(board: Board, exploration: Exploration) -> Board:
    """The board after an exploration: scrolled tiles (and their monsters) gone, the new tile joined.

    Rules: manual p34 (explore map tile, scroll map tile).
    """
    for key in exploration.destroyed:
        board = board.without_tile(key)
    tile = exploration.tile
    board = board.with_layout(tile.layout, tile.key, tile.origin)
    return _stitch(board, tile, [t for t in exploration.area.tiles if t.key != tile.key],
                   exploration.area.joined)


def _side_of(edge: Edge) -> str:
    (ix, iy), (ox, oy) = edge
    return next(s for s, d in SIDES.items() if d == (ox - ix, oy - iy))


def _join_placements(area: PlayArea, edge: Edge, new_side: TileSide,
                     rules: Rules) -> list[tuple[PlacedTile, tuple[str, ...]]]:
    """Where the drawn tile may go: turned to face the edge, offset per ``explore.offset`` (D19)."""
    space, beyond = edge
    step = (beyond[0] - space[0], beyond[1] - space[1])
    facing = _CLOCKWISE[(_CLOCKWISE.index(_side_of(edge)) + 2) % 4]
    symbol_side = place_tile(new_side, 0, (0, 0)).direction_symbol()[0]
    rotation = (_CLOCKWISE.index(facing) - _CLOCKWISE.index(symbol_side)) % 4
    turned = place_tile(new_side, rotation, (0, 0))
    symbol = turned.direction_symbol()[1][0]
    reading = rules["explore.offset"]
    if reading == "grid_snap":
        slot = cast(PlacedTile, area.tile_at(space)).slot
        origins = [((slot[0] + step[0]) * TILE_SIZE, (slot[1] + step[1]) * TILE_SIZE)]
    else:
        along = (abs(step[1]), abs(step[0]))
        shifts = (0,) if reading == "orthogonal" else (-1, 0, 1)
        origins = [(beyond[0] + k * along[0] - symbol[0], beyond[1] + k * along[1] - symbol[1])
                   for k in shifts]
    placements: list[tuple[PlacedTile, tuple[str, ...]]] = []
    for origin in origins:
        tile = place_tile(new_side, rotation, origin)
        warnings: tuple[str, ...] = ()
        off = _misaligned(tile, space)
        if off is not None:
            warnings = (f"the direction symbol at {off[0]} is not next to the explorer at "
                        f"{space}: the edges do not line up on the grid (switch explore.offset, "
                        "grid_snap)",)
        placements.append((tile, warnings))
    return placements


def _scrolls(area: PlayArea, board: Board, space: Point, edge: Edge, tile: PlacedTile,
             warnings: tuple[str, ...], explorers: frozenset[str], rules: Rules) -> list[Exploration]:
    """The explorations placing ``tile``, with each allowed set of scrolled tiles (manual p34; D20)."""
    slots = {t.key: t.slot for t in area.tiles}
    on_tile = {t.key: [u for u, p in board.units().items() if p in t] for t in area.tiles}
    occupied = {k for k, units in on_tile.items() if any(u in explorers for u in units)}

    def _fits(kept: Iterable[str]) -> bool:
        cells = [slots[k] for k in kept] + [tile.slot]
        return (max(c[0] for c in cells) - min(c[0] for c in cells) <= 1
                and max(c[1] for c in cells) - min(c[1] for c in cells) <= 1)

    if _fits(slots):
        destroy_sets: list[tuple[str, ...]] = [()]
    else:
        reading = rules["scroll.destroy"]
        candidates: list[tuple[str, ...]]
        if reading == "minimal_opposite":
            axis = 0 if edge[0][0] != edge[1][0] else 1
            near = {tile.slot[axis], tile.slot[axis] - (edge[1][axis] - edge[0][axis])}
            candidates = [tuple(sorted(k for k, s in slots.items() if s[axis] not in near))]
        elif reading == "all_explorer_free":
            candidates = [tuple(sorted(k for k in slots if k not in occupied))]
        else:  # players_choose: any explorer-free tiles, at least as many as needed
            free = sorted(k for k in slots if k not in occupied)
            candidates = [c for n in range(1, len(free) + 1) for c in itertools.combinations(free, n)]
        destroy_sets = []
        for doomed in candidates:
            blocked = sorted(set(doomed) & occupied)
            if blocked:
                raise RulesError("space", f"scrolling would destroy {', '.join(blocked)}, where "
                                 f"explorers stand ({_CITE_SCROLL})")
            if _fits(k for k in slots if k not in doomed):
                destroy_sets.append(doomed)
        if not destroy_sets:
            raise RulesError("space", f"no scroll keeps the area within 2x2 ({_CITE_SCROLL})")
    options = []
    for doomed in destroy_sets:
        kept = tuple(t for t in area.tiles if t.key not in doomed)
        if any(_overlaps(tile, k) for k in kept):
            continue
        banished = tuple(sorted((u, p) for u, p in board.units().items()
                                if u not in explorers and any(p in area.tile(k) for k in doomed)))
        joined = _new_joins(kept, tile, edge, area, rules)
        kept_joins = frozenset(j for j in area.joined
                               if all(any(p in k for k in kept) for p in j))
        tokens = {name: token for name, token in (("entry", area.entry), ("exit", area.exit))
                  if token is not None and not any(token[0] in area.tile(k) for k in doomed)}
        notes = tuple(f"the {name} token leaves with its scrolled tile (the manual does not say)"
                      for name in ("entry", "exit")
                      if getattr(area, name) is not None and name not in tokens)
        new_area = replace(area, tiles=kept + (tile,), deck=area.deck[1:] + tuple(doomed),
                           joined=kept_joins | frozenset(joined), entry=tokens.get("entry"),
                           exit=tokens.get("exit"))
        cites: tuple[str, ...] = (_CITE_EXPLORE, "switch explore.offset",
                                  "switches join.other_edges and adjacency.across_tiles")
        if doomed:
            cites += (_CITE_SCROLL, "manual p19 (banish)")
        options.append(Exploration(space, edge, tile, doomed, banished, joined, new_area,
                                   warnings + notes, cites,
                                   tuple(n for n in ("entry", "exit")
                                         if getattr(area, n) is not None and n not in tokens)))
    if not options:
        raise RulesError("space", f"the tile would overlap a placed tile at {tile.origin} (manual p34)")
    return options


def _overlaps(a: PlacedTile, b: PlacedTile) -> bool:
    (ax, ay), (bx, by) = a.origin, b.origin
    return (ax < bx + b.layout.width and bx < ax + a.layout.width
            and ay < by + b.layout.height and by < ay + a.layout.height)


def _new_joins(kept: tuple[PlacedTile, ...], tile: PlacedTile, edge: Edge, area: PlayArea,
               rules: Rules) -> tuple[frozenset[Point], ...]:
    """Pairs joined by placing ``tile``: the exploring edge, and other aligned edges per D21."""
    ring = {e: kind for other in kept for _, e, kind in other.ring()}
    exploring = {(o, i) for i, o in area.edge_run(edge)}
    auto = rules["join.other_edges"] == "auto_connect_if_aligned"
    joins = []
    for _, (inside, outside), kind in tile.ring():
        if (kind in _EDGE_KINDS and ring.get((outside, inside)) in _EDGE_KINDS
                and ((inside, outside) in exploring or auto)):
            joins.append(frozenset((inside, outside)))
    return tuple(sorted(joins, key=sorted))
