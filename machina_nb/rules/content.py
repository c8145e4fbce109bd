"""Loading ``content/``: tiles, units, examples and rulings, validated.

Every content file is TOML with a top-level ``kind`` (``tile``, ``units``,
``example`` or ``rulings``). Loaders return complete immutable values or raise
:class:`~machina_nb.rules.errors.ContentError` naming the file, line and
column; nothing half-loads. content/README.md documents each format.

Rules: content formats (content/README.md); tiles per manual p11.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping

from machina_nb.rules.errors import ContentError

__all__ = [
    "content_root", "TomlFile", "read_toml", "require", "expect_kind", "load_folder",
    "check_card_table", "read_card_file",
]


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


# --- tiles ----------------------------------------------------------------------------------


def read_card_file(path: str | Path, kind: str, table: str,
                   what: str) -> tuple[TomlFile, dict[str, Any]]:
    """Read a file of ``kind`` holding only ``kind`` and ``[<table>.<id>]`` tables; returns the
    file and the tables by id. ``what`` names the file in errors ("a units file").

    Rules: content formats (content/README.md); manual p18 (unit cards), p30 (item cards).
    """
    toml = read_toml(path)
    expect_kind(toml, kind)
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


# --- dispatch -------------------------------------------------------------------------------


def expect_kind(toml: TomlFile, kind: str) -> None:
    found = toml.data.get("kind")
    if found != kind:
        raise toml.error(None, "kind", f"expected kind = {kind!r}, got {found!r}")


