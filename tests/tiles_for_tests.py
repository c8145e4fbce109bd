"""Small tile sides written as map text for the board tests (not the shipped content)."""

from __future__ import annotations

from machina_nb.rules.board.maptext import parse_map
from machina_nb.rules.board.tiles import TileSide

MIDDLE = "....ee...."
"""An edge two spaces wide in the middle of a side: the same under every rotation."""


def tile_side(key: str, n: str = MIDDLE, e: str = MIDDLE, s: str = MIDDLE, w: str = MIDDLE,
              cells: dict[tuple[int, int], str] | None = None) -> TileSide:
    """A 10x10 tile side; each side is 10 characters: '.' boundary, 'e' edge, 'E' direction symbol.

    ``n`` and ``s`` run west to east, ``e`` and ``w`` north to south, as in ``Layout.ring()``.
    """
    cells = cells or {}

    def ring(chars: str, wall: str) -> list[str]:
        assert len(chars) == 10
        return [wall if c == "." else c for c in chars]

    north, south = ring(n, "-"), ring(s, "-")
    east, west = ring(e, "|"), ring(w, "|")
    lines = ["+" + "+".join(north) + "+"]
    for y in range(10):
        row = " ".join(cells.get((x, y), ".") for x in range(10))
        lines.append(west[y] + row + east[y])
        lines.append("+" + "+".join(south if y == 9 else [" "] * 10) + "+")
    return TileSide(key[:-1], key[-1], key, parse_map("\n".join(lines) + "\n"))


def start_side(key: str = "t00a") -> TileSide:
    """A starting tile: edges in the middle of each side, the direction symbol on the south."""
    return tile_side(key, s="....Ee....")


def drawn_side(key: str, **kw) -> TileSide:
    """A tile to draw: edges in the middle of each side, the direction symbol on the north."""
    return tile_side(key, n="....Ee....", **kw)
