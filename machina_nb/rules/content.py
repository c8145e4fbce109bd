"""Loading ``content/``: tiles, units, examples and rulings, validated.

Every content file is TOML with a top-level ``kind`` (``tile``, ``units``,
``example`` or ``rulings``). Loaders return complete immutable values or raise
:class:`~machina_nb.rules.errors.ContentError` naming the file, line and
column; nothing half-loads. content/README.md documents each format.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from machina_nb.rules.errors import ContentError

__all__ = [
    "content_root", "TomlFile", "read_toml", "read_text", "require", "optional", "expect_kind",
    "load_folder", "check_card_table", "read_card_file", "check_keys", "did_you_mean", "shown",
    "MAX_FILE_BYTES", "MAX_DEPTH",
]

MAX_FILE_BYTES = 1_000_000
"""The largest content file read (bytes): the shipped files are a few kilobytes each."""

MAX_DEPTH = 16
"""How deeply tables and lists may nest in a content file (effects nest 3 or 4 deep)."""


def did_you_mean(word: Any, choices: Iterable[object]) -> str:
    """`` (did you mean 'x'?)`` when ``word`` is close to one of ``choices``, else ``""``.
    """
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about user values."""
    try:
        text = repr(value)
    except ValueError:      # an integer too long to print
        text = f"<an integer of about {value.bit_length() * 3 // 10} digits>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def content_root() -> Path:
    """The ``content/`` folder: shipped inside the installed package, or the checkout's."""
    packaged = Path(str(resources.files("machina_nb"))) / "content"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "content"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("machina_nb content/ folder not found (neither packaged nor in a checkout)")


@dataclass(frozen=True)
class TomlFile:
    """A parsed TOML file that can point at the line and column of its keys."""

    path: str
    raw: str
    data: Mapping[str, Any]
    prefix: str = ""
    """Tables named to :meth:`where` sit under this dotted path (``cards.``): a view of the
    file in which one of its tables is read as if it were the top (:meth:`under`)."""

    def under(self, table: str) -> TomlFile:
        """This file read from ``[table]`` down: ``where("unit.x")`` finds ``[table.unit.x]``."""
        return TomlFile(self.path, self.raw, self.data, f"{self.prefix}{table}.")

    def where(self, table: str | None, key: str | None = None,
              occurrence: int = 0) -> tuple[int, int]:
        """1-based (line, column) of ``[table]`` (or ``[[table]]``) and of ``key`` inside it.

        ``table`` may be dotted (``side.a``); ``occurrence`` picks the n-th
        (0-based) header of an array of tables ``[[step]]``. Falls back to the
        table header, then to the file's first line, when the exact spot cannot
        be found. A table only made by its sub-tables (``[side]`` through
        ``[side.a]``) is placed at its first sub-table.
        """
        if self.prefix:
            table = f"{self.prefix}{table}" if table else self.prefix[:-1]
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
        """A :class:`ContentError` at ``[table]`` / ``key`` of this file."""
        line, col = self.where(table, key, occurrence)
        return ContentError(self.path, line, col, message)


_TOML_POS = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")


def read_text(path: str | Path) -> str:
    """The text of a content file: UTF-8, at most :data:`MAX_FILE_BYTES`; else a ContentError
    at 1:1. A file that cannot be opened raises the :class:`OSError` (the caller names it).
    """
    path = Path(path)
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ContentError(str(path), 1, 1, f"file too large: content files are at most "
                           f"{MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ContentError(str(path), line, col, f"not UTF-8 text ({exc.reason})") from None


def read_toml(path: str | Path) -> TomlFile:
    """Read a TOML file (stdlib ``tomllib``: no code runs); errors carry file:line:col.

    Every failure of the parser is a :class:`ContentError`: bad syntax at its position,
    nesting deeper than :data:`MAX_DEPTH`, integers too long to read.
    """
    raw = read_text(path)
    path = str(path)
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        m = _TOML_POS.match(str(exc))
        if m:
            raise ContentError(path, int(m[2]), int(m[3]), f"bad TOML: {m[1]}") from None
        raise ContentError(path, 1, 1, f"bad TOML: {exc}") from None
    except RecursionError:
        raise ContentError(path, 1, 1, f"tables or lists nested too deeply (at most "
                           f"{MAX_DEPTH} levels)") from None
    except (ValueError, MemoryError, OverflowError) as exc:
        raise ContentError(path, 1, 1, f"bad TOML: {str(exc).splitlines()[0][:120]}") from None
    toml = TomlFile(path, raw, data)
    _check_depth(toml)
    return toml


def _check_depth(toml: TomlFile) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (checked without recursion)."""
    stack: list[tuple[Any, int, object]] = [(toml.data, 1, None)]
    while stack:
        value, depth, key = stack.pop()
        if depth > MAX_DEPTH:
            raise toml.error(None, None, f"tables or lists nested more than {MAX_DEPTH} levels "
                             f"deep (under {key!r})")
        children = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for k, child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, key if isinstance(k, int) else k))


def require(toml: TomlFile, table: Mapping[str, Any], name: str | None, key: str,
            kind: type | tuple[type, ...], what: str, occurrence: int = 0,
            low: int | None = None, high: int | None = None,
            choices: Collection[object] | None = None) -> Any:
    """``table[key]``, checked to be of ``kind`` (an int never a bool), within ``low..high``
    and one of ``choices`` when given; otherwise an error at that key.

    ``occurrence`` picks the entry of an array of tables (see :meth:`TomlFile.where`).
    Rules: manual p18 (card values), p11 (tiles).
    """
    if not isinstance(table, Mapping):
        raise toml.error(name, None, f"{name or 'this'} must be a table, got {shown(table)}",
                         occurrence)
    if key not in table:
        raise toml.error(name, None, f"missing key {key!r} ({what})", occurrence)
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise toml.error(name, key, f"{key!r} must be {what}, got {shown(value)}", occurrence)
    if isinstance(value, int) and not isinstance(value, bool) and (
            (low is not None and value < low) or (high is not None and value > high)):
        raise toml.error(name, key, f"{key!r} {shown(value)} out of range {low}..{high} "
                         f"({what})", occurrence)
    if choices is not None and value not in choices:
        raise toml.error(name, key, f"unknown {key} {shown(value)}{did_you_mean(value, choices)};"
                         f" expected one of {', '.join(map(str, choices))}", occurrence)
    return value


def optional(toml: TomlFile, table: Mapping[str, Any], name: str | None, key: str,
             kind: type | tuple[type, ...], what: str, default: Any = None,
             **bounds: Any) -> Any:
    """``require`` for a key that may be left out (then ``default``)."""
    if isinstance(table, Mapping) and key not in table:
        return default
    return require(toml, table, name, key, kind, what, **bounds)


def check_keys(toml: TomlFile, name: str | None, table: Mapping[str, Any], keys: Iterable[str],
               what: str, occurrence: int = 0) -> None:
    """Refuse a key of ``table`` not in ``keys``, suggesting the closest known one."""
    for key in table:
        if key not in keys:
            raise toml.error(name, key, f"unknown key {key!r} in {what}"
                             f"{did_you_mean(key, keys)}; expected "
                             f"{', '.join(sorted(keys))}", occurrence)


# --- tiles ----------------------------------------------------------------------------------


def read_card_file(path: str | Path, kind: str, table: str,
                   what: str) -> tuple[TomlFile, dict[str, Any]]:
    """Read a file of ``kind`` holding only ``kind`` and ``[<table>.<id>]`` tables; returns the
    file and the tables by id. ``what`` names the file in errors ("a units file").

    Rules: manual p18 (unit cards), p30 (item cards).
    """
    toml = read_toml(path)
    expect_kind(toml, kind)
    for key in toml.data:
        if key not in ("kind", table):
            raise toml.error(None, key, f"unknown key {key!r}{did_you_mean(key, (table,))}; "
                             f"{what} has 'kind' and [{table}.<id>] tables")
    tables = require(toml, toml.data, None, table, dict,
                     f"tables [{table}.<id>], one per {table}")
    return toml, tables


_CARD_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def check_card_table(toml: TomlFile, kind: str, card_id: str, table: Any, keys: Iterable[str],
                     what: str) -> str:
    """Check one ``[<kind>.<id>]`` table: a lower-case id, a table, only known ``keys``;
    returns its dotted name. ``what`` names it in errors ("a unit", "an item").

    Rules: manual p18, p30.
    """
    name = f"{kind}.{card_id}"
    if not _CARD_ID.match(card_id):
        raise toml.error(name, None, f"{kind} id {card_id!r} must be lower-case letters, "
                         "digits and '_', starting with a letter")
    if not isinstance(table, dict):
        raise toml.error(None, None, f"'{name}' must be a table [{name}]")
    check_keys(toml, name, table, keys, what)
    return name


def load_folder(folder: Path, load: Callable[[Path], Mapping[str, Any]],
                table: str) -> dict[str, Any]:
    """Merge ``load(path)`` ({id: value}) over every ``*.toml`` in ``folder``, in name order;
    an id met twice is an error at its ``[<table>.<id>]`` header.

    Rules: manual p6.
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
    """Refuse a file whose top-level ``kind`` is not ``kind``."""
    found = toml.data.get("kind")
    if found != kind:
        raise toml.error(None, "kind", f"expected kind = {kind!r}, got {shown(found)}")


