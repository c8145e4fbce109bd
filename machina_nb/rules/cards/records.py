"""A content record: a frozen, ordered, read-only table as read from TOML."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Record"]


@dataclass(frozen=True)
class Record:
    """A TOML table kept as-is but frozen: items in file order, lists as tuples, tables as Records.

    Rules: manual p18-21 (unit cards and their abilities, kept as printed data).
    """

    items: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, table: Mapping[str, Any]) -> Record:
        """Freeze a parsed TOML table.

        Rules: manual p20 (ability records).
        """
        return cls(tuple((key, _freeze(value)) for key, value in table.items()))

    def get(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, or ``default``.

        Rules: manual p20 (ability records).
        """
        return dict(self.items).get(key, default)

    def __getitem__(self, key: str) -> Any:
        return dict(self.items)[key]

    def __contains__(self, key: object) -> bool:
        return any(k == key for k, _ in self.items)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self.items)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return Record.of(value)
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value

