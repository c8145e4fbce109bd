"""Loading ``content/``: tiles, units, examples and rulings, validated.

Every content file is TOML with a top-level ``kind`` (``tile``, ``units``,
``example`` or ``rulings``). Loaders return complete immutable values or raise
:class:`~machina_nb.rules.errors.ContentError` naming the file, line and
column; nothing half-loads. content/README.md documents each format.

Rules: content formats (content/README.md); tiles per manual p11.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping

from machina_nb.rules.errors import ContentError
from machina_nb.rules.maptext import BorderKind, Layout, SpaceKind, parse_map
from machina_nb.rules.rulings import SWITCHES

__all__ = [
    "content_root", "TomlFile", "read_toml", "Tile", "TileSide", "load_tile", "load_tiles",
    "Ruling", "load_rulings", "rulings_in_file", "validate", "LOADERS", "load_folder",
    "check_card_table", "read_card_file",
]

TILE_SIZE = 10
MAX_EDGES_PER_SIDE = 4


def content_root() -> Path:
    """The ``content/`` folder: shipped inside the installed package, or the checkout's.

    Rules: content formats (content/README.md); tiles per manual p11.
    """
    packaged = Path(str(resources.files("machina_nb"))) / "content"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "content"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("machina_nb content/ folder not found (neither packaged nor in a checkout)")


@dataclass(frozen=True)
class TomlFile:
    """A parsed TOML file that can point at the line and column of its keys.

    Rules: content formats (content/README.md); errors per spec (file:line:col).
    """

    path: str
    raw: str
    data: Mapping[str, Any]

    def where(self, table: str | None, key: str | None = None,
              occurrence: int = 0) -> tuple[int, int]:
        """1-based (line, column) of ``[table]`` (or ``[[table]]``) and of ``key`` inside it.

        ``table`` may be dotted (``side.a``); ``occurrence`` picks the n-th
        (0-based) header of an array of tables ``[[step]]``. Falls back to the
        table header, then to the file's first line, when the exact spot cannot
        be found. A table only made by its sub-tables (``[side]`` through
        ``[side.a]``) is placed at its first sub-table.
        Rules: content formats (content/README.md; spec §0 conventions): errors name file:line:col.
        """
        lines = self.raw.split("\n")
        start = 0
        if table:
            header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*(#.*)?$")
            found = [i for i, line in enumerate(lines) if header.match(line)]
            if not found:
                sub = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\.")
                found = [i for i, line in enumerate(lines) if sub.match(line)][:1]
            if found:
                start = found[min(occurrence, len(found) - 1)]
        if key is None:
            return start + 1, 1
        pattern = re.compile(r"^(\s*)(" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=\s*')
        for i in range(start, len(lines)):
            if i > start and table and lines[i].lstrip().startswith("["):
                break
            m = pattern.match(lines[i])
            if m:
                return i + 1, m.end() + 1
        return start + 1, 1

    def error(self, table: str | None, key: str | None, message: str,
              occurrence: int = 0) -> ContentError:
        """A :class:`ContentError` at ``[table]`` / ``key`` of this file.

        Rules: content formats (content/README.md; spec §0 conventions): errors name file:line:col.
        """
        line, col = self.where(table, key, occurrence)
        return ContentError(self.path, line, col, message)


_TOML_POS = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")


def read_toml(path: str | Path) -> TomlFile:
    """Read a TOML file (stdlib ``tomllib``: no code runs); errors carry file:line:col.

    Rules: content formats (content/README.md); spec §0 (sources as data).
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(str(path), 1, 1, f"not UTF-8 text ({exc.reason})") from None
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_POS.match(str(exc))
        if m:
            raise ContentError(str(path), int(m[2]), int(m[3]), f"bad TOML: {m[1]}") from None
        raise ContentError(str(path), 1, 1, f"bad TOML: {exc}") from None
    return TomlFile(str(path), raw, data)


def require(toml: TomlFile, table: Mapping[str, Any], name: str | None, key: str,
            kind: type | tuple[type, ...], what: str, occurrence: int = 0) -> Any:
    """``table[key]``, checked to be of ``kind``; otherwise an error at that key.

    ``occurrence`` picks the entry of an array of tables (see :meth:`TomlFile.where`).
    Rules: content formats (content/README.md); manual p18 (card values), p11 (tiles).
    """
    if key not in table:
        raise toml.error(name, None, f"missing key {key!r} ({what})", occurrence)
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise toml.error(name, key, f"{key!r} must be {what}, got {value!r}", occurrence)
    return value


def map_in_toml(toml: TomlFile, table: str | None, key: str, text: str,
                legend: Mapping[str, SpaceKind] | None = None) -> Layout:
    """Parse map text stored under ``key`` in TOML; errors point into the TOML file.

    Rules: map text format (content/README.md); manual p11.
    """
    line, _ = toml.where(table, key)
    # A ''' multi-line string starts on the next line (TOML trims the first newline).
    first = toml.raw.split("\n")[line - 1]
    offset = line if re.search(r"=\s*('''|\"\"\")\s*$", first) else line - 1
    return parse_map(text, toml.path, legend, line_offset=offset)


# --- tiles ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileSide:
    """One printed side of a map tile: a 10x10 layout with edges and one direction symbol (manual p11)."""

    tile: str
    side: str
    name: str
    layout: Layout

    @property
    def key(self) -> str:
        """``t01a``-style identifier of this side.

        Rules: manual p11 (double-sided map tiles).
        """
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


def check_tile_layout(layout: Layout, toml: TomlFile, table: str, key: str) -> None:
    """A tile side is 10x10, with <= 4 edges a side and exactly one direction symbol (manual p11)."""
    def _fail(message: str, row: int | None = None, col: int | None = None):
        line, _ = toml.where(table, key)
        if row is None:
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
    _expect_kind(toml, "tile")
    data = toml.data
    tile_id = require(toml, data, None, "id", str, "a tile id such as 't01'")
    name = require(toml, data, None, "name", str, "the tile's name")
    sides_table = require(toml, data, None, "side", dict, "a table of sides [side.a] and [side.b]")
    if set(sides_table) != {"a", "b"}:
        raise toml.error("side", None, f"a tile has exactly sides 'a' and 'b', got {sorted(sides_table)}")
    sides = []
    for side_name in ("a", "b"):
        table = f"side.{side_name}"
        side = sides_table[side_name]
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


def read_card_file(path: str | Path, kind: str, table: str,
                   what: str) -> tuple[TomlFile, dict[str, Any]]:
    """Read a file of ``kind`` holding only ``kind`` and ``[<table>.<id>]`` tables; returns the
    file and the tables by id. ``what`` names the file in errors ("a units file").

    Rules: content formats (content/README.md); manual p18 (unit cards), p30 (item cards).
    """
    toml = read_toml(path)
    _expect_kind(toml, kind)
    for key in toml.data:
        if key not in ("kind", table):
            raise toml.error(None, key, f"unknown key {key!r}; {what} has 'kind' and "
                             f"[{table}.<id>] tables")
    tables = require(toml, toml.data, None, table, dict,
                     f"tables [{table}.<id>], one per {table}")
    return toml, tables


_CARD_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def check_card_table(toml: TomlFile, kind: str, card_id: str, table: Any, keys,
                     what: str) -> str:
    """Check one ``[<kind>.<id>]`` table: a lower-case id, a table, only known ``keys``;
    returns its dotted name. ``what`` names it in errors ("a unit", "an item").

    Rules: content formats (content/README.md: ids, unknown keys are errors); manual p18, p30.
    """
    name = f"{kind}.{card_id}"
    if not _CARD_ID.match(card_id):
        raise toml.error(name, None, f"{kind} id {card_id!r} must be lower-case letters, "
                         "digits and '_', starting with a letter")
    if not isinstance(table, dict):
        raise toml.error(None, None, f"'{name}' must be a table [{name}]")
    for key in table:
        if key not in keys:
            raise toml.error(name, key, f"unknown key {key!r} in {what}; expected "
                             f"{', '.join(sorted(keys))}")
    return name


def load_folder(folder: Path, load: Callable[[Path], Mapping[str, Any]],
                table: str) -> dict[str, Any]:
    """Merge ``load(path)`` ({id: value}) over every ``*.toml`` in ``folder``, in name order;
    an id met twice is an error at its ``[<table>.<id>]`` header.

    Rules: content formats (content/README.md: ids unique across files); manual p6.
    """
    values: dict[str, Any] = {}
    for path in sorted(folder.glob("*.toml")):
        for key, value in load(path).items():
            if key in values:
                raise ContentError(str(path), *read_toml(path).where(f"{table}.{key}"),
                                   f"duplicate {table} id {key!r}")
            values[key] = value
    return values


# --- rulings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ruling:
    """The human-readable side of one switch: question, readings, sources, example (spec §C/§D)."""

    name: str
    question: str
    readings: Mapping[str, str]
    sources: tuple[str, ...]
    example: str


def load_rulings(folder: str | Path | None = None) -> dict[str, Ruling]:
    """Every ruling in ``content/rulings``, checked against the code's switch declarations.

    A switch declared in code but missing here, or present here but unknown to
    the code, or with readings that differ, is an error (spec appendix).
    """
    folder = Path(folder) if folder else content_root() / "rulings"
    rulings: dict[str, Ruling] = {}
    for path in sorted(folder.glob("*.toml")):
        rulings_in_file(read_toml(path), rulings)
    missing = [name for name in SWITCHES if name not in rulings]
    if missing:
        raise ContentError(str(folder), 1, 1, "switches declared in code but not written in "
                           f"content/rulings: {', '.join(missing)}")
    return rulings


def rulings_in_file(toml: TomlFile, rulings: dict[str, Ruling] | None = None) -> dict[str, Ruling]:
    """The rulings of one ``kind = "rulings"`` file, added to ``rulings`` (spec §C/§D).

    ``rulings`` changes only when the whole file is good: nothing half-loads.
    """
    rulings = {} if rulings is None else rulings
    found: dict[str, Ruling] = {}
    _expect_kind(toml, "rulings")
    for name, entry in toml.data.items():
        if name == "kind":
            continue
        table = _quoted_table(name)
        if not isinstance(entry, dict):
            raise toml.error(None, name, f"{name!r} must be a table [\"{name}\"]")
        if name not in SWITCHES:
            raise toml.error(table, None, f"ruling {name!r} is not a switch the code declares")
        if name in rulings or name in found:
            raise toml.error(table, None, f"ruling {name!r} is written twice")
        question = require(toml, entry, table, "question", str, "a one-line question")
        readings = require(toml, entry, table, "readings", dict, "a table of reading = explanation")
        declared = SWITCHES[name].readings
        for reading, explanation in readings.items():
            if reading not in declared:
                raise toml.error(f"{table}.readings", reading,
                                 f"unknown reading {reading!r} for {name}; the code declares "
                                 f"{', '.join(declared)}")
            if not isinstance(explanation, str) or not explanation.strip():
                raise toml.error(f"{table}.readings", reading,
                                 f"reading {reading!r} of {name} needs an explanation (text)")
        for reading in declared:
            if reading not in readings:
                raise toml.error(f"{table}.readings", None,
                                 f"reading {reading!r} of {name} is not explained")
        sources = require(toml, entry, table, "sources", list, "a list of citations")
        example = require(toml, entry, table, "example", str, "a situation where readings differ")
        default = entry.get("default")
        if default is not None and default != SWITCHES[name].default:
            raise toml.error(table, "default", f"default {default!r} differs from the code's "
                             f"default {SWITCHES[name].default!r}")
        found[name] = Ruling(name, question, dict(readings), tuple(map(str, sources)), example)
    rulings.update(found)
    return rulings


def _quoted_table(name: str) -> str:
    return f'"{name}"' if "." in name else name


# --- dispatch -------------------------------------------------------------------------------


def _expect_kind(toml: TomlFile, kind: str) -> None:
    found = toml.data.get("kind")
    if found != kind:
        raise toml.error(None, "kind", f"expected kind = {kind!r}, got {found!r}")


def _deferred(module: str, function: str) -> Callable[[Path], Any]:
    """A loader from a module that imports this one (units, examples): looked up when called."""
    def _load(path: Path) -> Any:
        return getattr(importlib.import_module(module), function)(path)
    _load.__name__ = function
    return _load


LOADERS: dict[str, Callable[[Path], Any]] = {
    "tile": load_tile,
    "units": _deferred("machina_nb.rules.units", "load_units"),
    "items": _deferred("machina_nb.rules.itemcards", "load_items"),
    "events": _deferred("machina_nb.rules.eventcards", "load_events"),
    "chapters": _deferred("machina_nb.rules.eventcards", "load_chapters"),
    "example": _deferred("machina_nb.rules.examples", "load_example"),
}
"""Loader per ``kind`` (``rulings`` files are checked by :func:`rulings_in_file`)."""


def validate(path: str | Path) -> Any:
    """Load any content file by its ``kind``; raise :class:`ContentError` if it is bad.

    Rules: content formats (content/README.md): tiles (manual p11), units (p18), items (p30),
    events (p14, p37), chapters (p28), examples (spec §B), rulings (spec §D).
    """
    path = Path(path)
    if path.suffix == ".map":
        return parse_map(path.read_text(encoding="utf-8"), str(path), legend={})
    toml = read_toml(path)
    kind = toml.data.get("kind")
    if kind == "rulings":
        return rulings_in_file(toml)
    if kind not in LOADERS:
        raise toml.error(None, "kind" if "kind" in toml.data else None,
                         f"unknown content kind {kind!r}; expected one of: "
                         f"{', '.join(sorted([*LOADERS, 'rulings']))}")
    return LOADERS[kind](path)
