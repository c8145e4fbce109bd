"""The map text format: text <-> Layout round trips, rotation, lookups (content/README.md).

Rules: manual p11 (map tiles), p34 (tiles rotate when joined), p35-37 (map elements).
"""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.board import tiles
from machina_nb.rules.board.maptext import BorderKind, Layout, SpaceKind, parse_map

SIDES = [side for tile in tiles.load_tiles().values() for side in tile.sides]
SPACE_CHARS = [kind.value for kind in SpaceKind]


@st.composite
def boards(draw, max_size=6):
    """Random valid map text with a legend: any space, border and corner characters, some units."""
    width, height = draw(st.integers(1, max_size)), draw(st.integers(1, max_size))
    cells = [(x, y) for y in range(height) for x in range(width)]
    letters = draw(st.lists(st.sampled_from(string.ascii_uppercase), unique=True,
                            max_size=min(5, len(cells))))
    places = draw(st.permutations(cells))[:len(letters)]
    units = dict(zip(places, letters))
    legend = {letter: draw(st.sampled_from(list(SpaceKind))) for letter in letters}
    lines = []
    for row in range(2 * height + 1):
        chars = []
        for col in range(2 * width + 1):
            ring_row, ring_col = row in (0, 2 * height), col in (0, 2 * width)
            if row % 2 == 0 and col % 2 == 0:
                chars.append(draw(st.sampled_from("+ ")))
            elif row % 2 == 1 and col % 2 == 1:
                point = (col // 2, row // 2)
                chars.append(units.get(point) or draw(st.sampled_from(SPACE_CHARS)))
            elif row % 2 == 1:  # a vertical border
                chars.append(draw(st.sampled_from("|eE" if ring_col else " |dDx")))
            else:
                chars.append(draw(st.sampled_from("-eE" if ring_row else " -dDx")))
        lines.append("".join(chars))
    return "\n".join(lines) + "\n", legend


def rotate_point(point, height):
    """Clockwise quarter turn of a point on a board ``height`` rows tall (independent oracle)."""
    x, y = point
    return (height - 1 - y, x)


def neighbour_pairs(layout):
    for y in range(layout.height):
        for x in range(layout.width):
            if x + 1 < layout.width:
                yield (x, y), (x + 1, y)
            if y + 1 < layout.height:
                yield (x, y), (x, y + 1)


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.key)
def test_every_tile_side_round_trips(side):
    text = side.layout.to_text()
    assert parse_map(text) == side.layout
    assert parse_map(text).to_text() == text


@pytest.mark.parametrize("side", SIDES, ids=lambda s: s.key)
def test_four_quarter_turns_of_a_tile_side_are_the_identity(side):
    assert side.layout.rotated(4) == side.layout
    assert side.layout.rotated(1).rotated(3) == side.layout
    assert side.layout.rotated(2).rotated(2) == side.layout


@settings(max_examples=200, deadline=None)
@given(boards())
def test_random_boards_round_trip(board):
    text, legend = board
    layout = parse_map(text, legend=legend)
    assert layout.to_text() == text
    assert parse_map(layout.to_text(), legend=legend) == layout


@settings(max_examples=200, deadline=None)
@given(boards())
def test_rotation_moves_spaces_borders_ring_and_units_by_the_oracle(board):
    text, legend = board
    layout = parse_map(text, legend=legend)
    turned = layout.rotated(1)
    h = layout.height
    assert (turned.width, turned.height) == (layout.height, layout.width)
    assert layout.rotated(4) == layout
    for y in range(layout.height):
        for x in range(layout.width):
            assert turned.space(*rotate_point((x, y), h)) == layout.space(x, y)
            assert turned.unit_at(*rotate_point((x, y), h)) == layout.unit_at(x, y)
    for a, b in neighbour_pairs(layout):
        assert turned.border(rotate_point(a, h), rotate_point(b, h)) == layout.border(a, b)
    # North becomes east, east south, south west, west north (manual p34: tiles rotate).
    old = {(side, i): kind for side, i, kind in layout.ring()}
    new = {(side, i): kind for side, i, kind in turned.ring()}
    for (side, i), kind in old.items():
        moved = {"N": ("E", i), "E": ("S", h - 1 - i), "S": ("W", i), "W": ("N", h - 1 - i)}[side]
        assert new[moved] == kind
    assert parse_map(turned.to_text(), legend=legend) == turned


def test_a_quarter_turn_of_a_small_board_by_hand():
    """A pit west of a closed door and a floor space with an edge to the east (manual p34)."""
    layout = parse_map("+-+-+\n|oD.e\n+-+-+\n")
    turned = layout.rotated(1)
    assert turned.to_text() == "+-+\n|o|\n+D+\n|.|\n+e+\n"
    assert (turned.width, turned.height) == (1, 2)
    assert turned.space(0, 0) is SpaceKind.PIT and turned.space(0, 1) is SpaceKind.FLOOR
    assert turned.border((0, 0), (0, 1)) is BorderKind.DOOR_CLOSED
    assert turned.horizontal[2][0] is BorderKind.EDGE  # the east edge is now on the south
    assert ("S", 0, BorderKind.EDGE) in turned.ring()
    assert layout.rotated(-1) == layout.rotated(3)


def test_space_and_border_lookups_on_the_gatehouse():
    """t01a: a spawn in the north-west room, an open door east of it, a closed door to the south."""
    gatehouse = tiles.load_tiles()["t01"].side("a").layout
    assert gatehouse.space(0, 0) is SpaceKind.SPAWN
    assert gatehouse.space(9, 0) is SpaceKind.EVENT
    assert gatehouse.space(2, 2) is SpaceKind.CHEST
    assert gatehouse.border((3, 2), (4, 2)) is BorderKind.DOOR_OPEN
    assert gatehouse.border((4, 2), (3, 2)) is BorderKind.DOOR_OPEN
    assert gatehouse.border((7, 3), (7, 4)) is BorderKind.DOOR_CLOSED
    assert gatehouse.border((1, 5), (1, 6)) is BorderKind.DOOR_DESTROYED
    assert gatehouse.border((3, 0), (4, 0)) is BorderKind.WALL
    assert gatehouse.border((4, 4), (5, 4)) is BorderKind.OPEN
    assert gatehouse.horizontal[0][5] is BorderKind.DIRECTION
    assert gatehouse.vertical[0][0] is BorderKind.BOUNDARY
    with pytest.raises(ValueError, match="not orthogonal neighbours"):
        gatehouse.border((0, 0), (1, 1))


def test_units_sit_on_the_legend_space_kind():
    layout = parse_map("+-+-+\n|K h|\n+-+-+\n", legend={"K": SpaceKind.CHAPTER})
    assert layout.units == (("K", (0, 0)),)
    assert layout.space(0, 0) is SpaceKind.CHAPTER and layout.unit_at(1, 0) is None
    assert isinstance(layout, Layout)
