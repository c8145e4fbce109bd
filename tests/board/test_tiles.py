"""The original tile set in content/tiles: ten double-sided 10x10 tiles (manual p11).

Rules: manual p11 (each map tile is 10x10 with up to 4 edges on each side and
one direction symbol), p35-37 (the map elements the set must show).
"""

import collections
import tomllib

import pytest

from machina_nb.rules import content
from machina_nb.rules.board import tiles
from machina_nb.rules.board.maptext import BorderKind, SpaceKind

TILES = tiles.load_tiles()
SIDES = [side for tile in TILES.values() for side in tile.sides]


def ring_text(side):
    """The four sides of the outer ring as strings of border characters (from the map text)."""
    lines = side.layout.to_text().splitlines()
    return {
        "N": lines[0][1::2], "S": lines[-1][1::2],
        "W": "".join(line[0] for line in lines[1::2]),
        "E": "".join(line[-1] for line in lines[1::2]),
    }


def test_ten_tiles_twenty_sides_all_load():
    assert sorted(TILES) == [f"t{n:02}" for n in range(1, 11)]
    assert len(SIDES) == 20
    assert len({side.key for side in SIDES}) == 20
    assert len({side.name for side in SIDES}) == 20
    assert all(tile.name and tile.sides[0].side == "a" and tile.sides[1].side == "b"
               for tile in TILES.values())


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.key)
def test_manual_p11_each_side_is_10x10_with_one_direction_symbol_and_at_most_4_edges_a_side(side):
    assert (side.layout.width, side.layout.height) == (10, 10)
    ring = ring_text(side)
    assert sum(border.count("E") for border in ring.values()) == 1
    for border in ring.values():
        edge_runs = "".join(c if c in "eE" else " " for c in border).split()
        assert len(edge_runs) <= 4
    directions = [(s, i) for s, i, kind in side.layout.ring() if kind is BorderKind.DIRECTION]
    assert len(directions) == 1


def test_the_set_shows_every_space_kind_and_every_border_kind():
    spaces = collections.Counter(kind for side in SIDES for row in side.layout.spaces for kind in row)
    borders = collections.Counter(kind for side in SIDES
                                  for row in side.layout.vertical + side.layout.horizontal
                                  for kind in row)
    assert set(spaces) == set(SpaceKind)
    # JOINED exists only on a board, where two tiles meet (manual p34); map text never holds it.
    assert set(borders) == set(BorderKind) - {BorderKind.JOINED}


@pytest.mark.parametrize("tile", TILES.values(), ids=lambda t: t.id)
def test_the_stored_map_text_is_exactly_what_the_layout_prints(tile):
    """Round trip against the file itself, read without our loader."""
    with open(content.content_root() / "tiles" / f"{tile.id}.toml", "rb") as handle:
        raw = tomllib.load(handle)
    for side in tile.sides:
        assert raw["side"][side.side]["map"] == side.layout.to_text()


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.key)
def test_every_space_is_reachable_from_an_edge_and_doors_sit_in_wall_lines(side):
    """A plausible dungeon: no sealed rooms (unidentifiable areas aside); doors link walls (p36)."""
    layout = side.layout
    starts = [{"N": (i, 0), "S": (i, 9), "W": (0, i), "E": (9, i)}[s]
              for s, i, kind in layout.ring() if kind in (BorderKind.EDGE, BorderKind.DIRECTION)]
    seen, todo = set(starts), list(starts)
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (0 <= nx < 10 and 0 <= ny < 10 and (nx, ny) not in seen
                    and layout.border((x, y), (nx, ny)) is not BorderKind.WALL
                    and layout.space(nx, ny) is not SpaceKind.UNIDENTIFIABLE):
                seen.add((nx, ny))
                todo.append((nx, ny))
    sealed = [(x, y) for y in range(10) for x in range(10)
              if (x, y) not in seen and layout.space(x, y) is not SpaceKind.UNIDENTIFIABLE]
    assert sealed == []
    lines = layout.to_text().splitlines()
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            if (row + col) % 2 and char in "dDx":
                if row % 2:  # a vertical border: its wall line runs north-south
                    along = [lines[r][col] for r in (row - 2, row + 2) if 0 < r < len(lines) - 1]
                    walls = "|dDx"
                else:
                    along = [line[c] for c in (col - 2, col + 2) if 0 < c < len(line) - 1]
                    walls = "-dDx"
                assert any(c in walls for c in along), (side.key, row + 1, col + 1)


def test_the_readme_says_the_tiles_are_original():
    readme = " ".join((content.content_root() / "README.md").read_text(encoding="utf-8").split())
    assert "original" in readme and "not the printed" in readme
