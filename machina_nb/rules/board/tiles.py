"""Map tiles read from ``content/tiles``: two sides of map text each, checked.

A tile file has ``kind = "tile"``, an ``id`` and a side table ``[side.a]`` and
``[side.b]`` holding a 10x10 map and its edge openings. :func:`load_tiles` reads
them all; errors name file:line:col. content/README.md documents the format.

Rules: manual p11 (map tiles, joining edges).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from machina_nb.rules.board.maptext import BorderKind, Layout, SpaceKind, parse_map
from machina_nb.rules.content import (
    TomlFile,
    check_keys,
    content_root,
    expect_kind,
    read_toml,
    require,
    shown,
)
from machina_nb.rules.errors import ContentError

__all__ = ["TILE_SIZE", "MAX_EDGES_PER_SIDE", "MAX_BOARD_SIDE", "Tile", "TileSide", "load_tile",
           "load_tiles", "map_in_toml", "check_tile_layout", "check_board_size"]


TILE_SIZE = 10
"""A tile side is 10x10 spaces (manual p11)."""

MAX_EDGES_PER_SIDE = 4
"""At most four edges on each side of a tile side (manual p11)."""

MAX_BOARD_SIDE = 40
"""The widest and tallest board a content file may draw: twice the 2x2 play area of 10x10
tiles across (manual p11, p34); the worked examples are far smaller."""

_TILE_KEYS = {"kind", "id", "name", "side"}
_SIDE_KEYS = {"name", "map"}
_TILE_ID = re.compile(r"^[a-z0-9_]{1,32}$")


def check_board_size(layout: Layout, path: str, line: int = 1, col: int = 1) -> Layout:
    """``layout`` if it is at most :data:`MAX_BOARD_SIDE` spaces a side, else a ContentError.

    Rules: manual p11, p34.
    """
    if max(layout.width, layout.height) > MAX_BOARD_SIDE:
        raise ContentError(path, line, col, f"board {layout.width}x{layout.height} is too large: "
                           f"content boards are at most {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE} spaces")
    return layout


def map_in_toml(toml: TomlFile, table: str | None, key: str, text: str,
                legend: Mapping[str, SpaceKind] | None = None) -> Layout:
    """Parse map text stored under ``key`` in TOML; errors point into the TOML file.

    Rules: manual p11.
    """
    line, col = toml.where(table, key)
    # A ''' multi-line string starts on the next line (TOML trims the first newline).
    first = toml.raw.split("\n")[line - 1]
    offset = line if re.search(r"=\s*('''|\"\"\")\s*$", first) else line - 1
    rows = text.split("\n")
    if len(rows) > 2 * MAX_BOARD_SIDE + 2 or max(map(len, rows)) > 2 * MAX_BOARD_SIDE + 1:
        raise toml.error(table, key, f"the map is too large: content boards are at most "
                         f"{MAX_BOARD_SIDE}x{MAX_BOARD_SIDE} spaces")
    return parse_map(text, toml.path, legend, line_offset=offset)


@dataclass(frozen=True)
class TileSide:
    """One printed side of a map tile: a 10x10 layout with edges and one direction symbol (manual p11)."""

    tile: str
    side: str
    name: str
    layout: Layout

    @property
    def key(self) -> str:
        """``t01a``-style identifier of this side."""
        return f"{self.tile}{self.side}"


@dataclass(frozen=True)
class Tile:
    """A double-sided map tile (manual p11); the set in content/tiles is original, not printed."""

    id: str
    name: str
    sides: tuple[TileSide, ...]

    def side(self, name: str) -> TileSide:
        """Side ``a`` or ``b`` of this tile (manual p11: map tiles are double-sided)."""
        for side in self.sides:
            if side.side == name:
                return side
        raise KeyError(f"tile {self.id} has no side {name!r}")


def check_tile_layout(layout: Layout, toml: TomlFile, table: str | None, key: str) -> None:
    """A tile side is 10x10, with <= 4 edges a side and exactly one direction symbol (manual p11)."""
    def _fail(message: str, row: int | None = None, col: int | None = None) -> NoReturn:
        line, _ = toml.where(table, key)
        if row is None or col is None:
            raise toml.error(table, key, message)
        raise ContentError(toml.path, line + 1 + row, col + 1, message)

    if (layout.width, layout.height) != (TILE_SIZE, TILE_SIZE):
        _fail(f"a tile side is {TILE_SIZE}x{TILE_SIZE} spaces, got {layout.width}x{layout.height}")
    directions = []
    runs: dict[str, int] = {}
    previous: dict[str, int] = {}
    for side, index, kind in layout.ring():
        if kind in (BorderKind.EDGE, BorderKind.DIRECTION):
            if previous.get(side) != index - 1:
                runs[side] = runs.get(side, 0) + 1
            previous[side] = index
        if kind is BorderKind.DIRECTION:
            directions.append((side, index))
    for side, count in runs.items():
        if count > MAX_EDGES_PER_SIDE:
            row, col = _ring_position(layout, side, previous[side])
            _fail(f"side {side} has {count} edges; a tile side has at most {MAX_EDGES_PER_SIDE} "
                 "(manual p11)", row, col)
    if not directions:
        _fail("no direction symbol: exactly one 'E' edge per tile side (manual p11)")
    if len(directions) > 1:
        row, col = _ring_position(layout, *directions[1])
        _fail("a second direction symbol 'E': exactly one per tile side (manual p11)", row, col)


def _ring_position(layout: Layout, side: str, index: int) -> tuple[int, int]:
    """0-based (row, col) in the map text of a ring border."""
    return {
        "N": (0, 2 * index + 1),
        "S": (2 * layout.height, 2 * index + 1),
        "W": (2 * index + 1, 0),
        "E": (2 * index + 1, 2 * layout.width),
    }[side]


def load_tile(path: str | Path) -> Tile:
    """Load one ``kind = "tile"`` file with sides ``a`` and ``b`` (manual p11)."""
    toml = read_toml(path)
    expect_kind(toml, "tile")
    data = toml.data
    check_keys(toml, None, data, _TILE_KEYS, "a tile file")
    tile_id = require(toml, data, None, "id", str, "a tile id such as 't01'")
    if not _TILE_ID.match(tile_id):
        raise toml.error(None, "id", f"tile id {shown(tile_id)} must be 1-32 lower-case letters, "
                         "digits and '_'")
    name = require(toml, data, None, "name", str, "the tile's name")
    sides_table = require(toml, data, None, "side", dict, "a table of sides [side.a] and [side.b]")
    if set(sides_table) != {"a", "b"}:
        raise toml.error("side", None, f"a tile has exactly sides 'a' and 'b', got "
                         f"{shown(sorted(sides_table))}")
    sides = []
    for side_name in ("a", "b"):
        table = f"side.{side_name}"
        side = require(toml, sides_table, "side", side_name, dict, f"a table [{table}]")
        check_keys(toml, table, side, _SIDE_KEYS, "a tile side")
        side_title = require(toml, side, table, "name", str, "the side's name")
        text = require(toml, side, table, "map", str, "the side's map text")
        layout = map_in_toml(toml, table, "map", text)
        check_tile_layout(layout, toml, table, "map")
        sides.append(TileSide(tile_id, side_name, side_title, layout))
    return Tile(tile_id, name, tuple(sides))


def load_tiles(folder: str | Path | None = None) -> dict[str, Tile]:
    """Every tile in ``content/tiles`` (or ``folder``), by id (manual p11)."""
    folder = Path(folder) if folder else content_root() / "tiles"
    tiles: dict[str, Tile] = {}
    for path in sorted(folder.glob("*.toml")):
        tile = load_tile(path)
        if tile.id in tiles:
            raise ContentError(str(path), *read_toml(path).where(None, "id"),
                               f"duplicate tile id {tile.id!r}")
        tiles[tile.id] = tile
    return tiles

