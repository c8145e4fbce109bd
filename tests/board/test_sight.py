"""Line of sight, adjacency, targeting and map-tile scope (manual p20-23; rulings D1-D3, D6, D21).

Situations worked out on paper are written with y growing north and translated here into
ours (y grows south): the y of every point is flipped.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.board.sight import (
    adjacent,
    adjacent_borders,
    adjacent_spaces,
    affected_units,
    can_target,
    door_target_spaces,
    in_range,
    line_of_sight,
    melee_targets,
    range_between,
    ranged_line,
    ranged_visible_from,
    units_on_tile,
    vertex_blocked,
    visible_from,
    visible_pairs,
)
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

UNIT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def board_of(text: str) -> Board:
    """A board from map text; capital letters are units standing on floor."""
    return Board.from_layout(parse_map(text, legend={c: SpaceKind.FLOOR for c in UNIT_LETTERS}))


def rays_board(*rays: str, cells: str = "....") -> Board:
    """A 2x2 board with walls on the named rays of the middle vertex V(1, 1) (N, E, S, W).

    ``cells`` gives the spaces NW, NE, SW, SE. With y growing north the
    line (0,1) -> (1,0) here is its SW -> NE line (0,0) -> (1,1) (ruling D1).
    """
    nw, ne, sw, se = cells
    n = "|" if "N" in rays else " "
    s = "|" if "S" in rays else " "
    w = "-" if "W" in rays else " "
    e = "-" if "E" in rays else " "
    return board_of(f"+-+-+\n|{nw}{n}{ne}|\n+{w}+{e}+\n|{sw}{s}{se}|\n+-+-+\n")


SW, NE = (0, 1), (1, 0)


# --- manual p22: the door example (layout i: two doors in one wall line) -------------------

DOORS = """\
+-+-+
|K|.|
+ + +
|.dP|
+ + +
|LdH|
+ + +
|.|h|
+-+-+
"""
LORRAI, HANK, PHILLIP, CHAPTER, KIM = (0, 2), (1, 2), (1, 1), (1, 3), (0, 0)
D1, D2 = (LORRAI, HANK), ((0, 1), PHILLIP)


def door_board(d1: str, d2: str) -> Board:
    board = board_of(DOORS)
    kinds = {"open": BorderKind.DOOR_OPEN, "closed": BorderKind.DOOR_CLOSED}
    return board.with_border(*D1, kinds[d1]).with_border(*D2, kinds[d2])


VIS, NOT = True, False


@pytest.mark.parametrize("d1, d2, phillip, hank, chapter", [
    # phillip and chapter: (touch_ok, separating, any_two) table
    ("open", "open", (VIS, VIS, VIS), VIS, (VIS, VIS, VIS)),
    ("closed", "open", (VIS, VIS, VIS), NOT, (VIS, NOT, NOT)),
    ("open", "closed", (VIS, VIS, VIS), VIS, (VIS, VIS, VIS)),
    ("closed", "closed", (VIS, NOT, NOT), NOT, (VIS, NOT, NOT)),
])
def test_manual_p22_door_example_adjacency_under_each_vertex_reading(d1, d2, phillip, hank, chapter):
    board = door_board(d1, d2)
    for i, reading in enumerate(("touch_ok", "separating", "any_two")):
        rules = Rules().replace({"los.vertex": reading})
        assert adjacent(board, LORRAI, PHILLIP, rules) is phillip[i], reading
        assert adjacent(board, LORRAI, HANK, rules) is hank, reading
        assert adjacent(board, LORRAI, CHAPTER, rules) is chapter[i], reading
        assert adjacent(board, PHILLIP, LORRAI, rules) is phillip[i]  # symmetric


def test_manual_p22_door_example_stated_outcomes_hold_by_default():
    both_open = door_board("open", "open")
    assert {HANK, PHILLIP, CHAPTER} <= set(adjacent_spaces(both_open, LORRAI, Rules()))
    for d1, d2 in (("open", "open"), ("closed", "open"), ("open", "closed")):
        assert adjacent(door_board(d1, d2), LORRAI, PHILLIP, Rules())  # at least one door open
    assert not adjacent(door_board("closed", "closed"), LORRAI, PHILLIP, Rules())


@pytest.mark.parametrize("d1, d2", [("open", "open"), ("closed", "open"), ("closed", "closed")])
def test_manual_p22_lorrai_may_close_her_own_door_but_not_phillips(d1, d2):
    own = {pair for pair, kind in adjacent_borders(door_board(d1, d2), LORRAI)}
    assert D1 in own and D2 not in own and (D2[1], D2[0]) not in own


@pytest.mark.parametrize("d1, d2", [("open", "open"), ("closed", "open"), ("closed", "closed")])
@pytest.mark.parametrize("icon", ["ranged", "ranged_through"])
def test_manual_p22_kim_can_target_a_space_of_either_door(d1, d2, icon):
    board = door_board(d1, d2)
    for door in (D1, D2):
        spaces = door_target_spaces(board, door)
        assert any(can_target(board, KIM, s, Rules(), icon, reach=3) for s in spaces), door


def test_door_target_spaces_rejects_a_wall():
    with pytest.raises(RulesError, match="door"):
        door_target_spaces(door_board("open", "open"), (LORRAI, (0, 3)))


# --- D1 los.vertex: rays meeting at a crossed vertex --------------------------------------------


@pytest.mark.parametrize("rays, touch_ok, separating, any_two", [
    ("NS", VIS, NOT, NOT),   # a straight wall (B7, two closed doors)
    ("SW", VIS, NOT, NOT),   # an L round the source's own corner
    ("NW", VIS, VIS, NOT),   # an L round a side cell (NW)
    ("S", VIS, VIS, VIS),    # a single wall end
])
def test_los_vertex_readings(rays, touch_ok, separating, any_two):
    board = rays_board(*rays)
    for reading, expected in (("touch_ok", touch_ok), ("separating", separating),
                              ("any_two", any_two)):
        rules = Rules().replace({"los.vertex": reading})
        assert line_of_sight(board, SW, NE, rules).visible is expected, reading
        assert (NE in visible_from(board, SW, rules)) is expected, reading
    assert Rules()["los.vertex"] == "separating"


def test_vertex_far_from_the_units_three_by_one():
    # (0,0) -> (3,1) passes through the vertex at its midpoint; ours: y flipped.
    board = board_of("+-+-+-+-+\n|. . . .|\n+ +-+ + +\n|. .|. .|\n+-+-+-+-+\n")
    # rays at V(2,1): W (the wall under (1,0)) and S (the wall between (1,1) and (2,1))
    sight = line_of_sight(board, (0, 1), (3, 0), Rules())
    assert not sight.visible and sight.blocker == "vertex"
    assert sight.point == (Fraction(2), Fraction(1))
    assert line_of_sight(board, (0, 1), (3, 0), Rules().replace(los_vertex="touch_ok")).visible


def test_the_verdict_explains_itself_with_reading_and_citation():
    sight = line_of_sight(rays_board("N", "S"), SW, NE, Rules())
    text = sight.explain()
    assert text == ("(0, 1) -> (1, 0): blocked by the wall between (0, 0) and (1, 0), and the "
                    "wall between (0, 1) and (1, 1), meeting at (1, 1) (manual p22 (line of "
                    "sight); los.vertex=separating)")
    assert set(sight.kinds) == {BorderKind.WALL}
    assert not sight  # a verdict is truthy only when visible


# --- D2 los.space_squeeze ----------------------------------------------------------------------


@pytest.mark.parametrize("rays, cells", [((), "r..r"), (("S",), "r...")])
def test_space_squeeze_readings(rays, cells):
    board = rays_board(*rays, cells=cells)
    assert not line_of_sight(board, SW, NE, Rules()).visible          # default: blocked
    visible = Rules().replace({"los.space_squeeze": "visible"})
    assert line_of_sight(board, SW, NE, visible).visible
    assert line_of_sight(board, SW, NE, Rules()).spaces[0] == (0, 0)


def test_manual_p22_touching_one_barrier_space_corner_is_in_sight():
    assert line_of_sight(rays_board(cells="r..."), SW, NE, Rules()).visible


# --- D3 ranged.obstacle_vertex, C-19 ethereal.blocks_ranged --------------------------------------

ARCHER = """\
+-+-+-+
|A . T|
+ + + +
|. . .|
+ + + +
|. . .|
+-+-+-+
"""


@pytest.mark.parametrize("units, corner_ok, separating, any_touch", [
    ([(1, 0), (0, 1)], VIS, NOT, NOT),   # ruling D3: units at (0,1) and (1,0), ours y-flipped
    ([(1, 0)], VIS, VIS, NOT),           # a single unit's corner
])
def test_ranged_obstacle_vertex_readings(units, corner_ok, separating, any_touch):
    # Archer at (0,0), y growing north, shooting at (2,2): ours (0,2) -> (2,0).
    board = board_of(ARCHER.replace("A", ".").replace("T", "."))
    board = board.with_units(((p[0], 2 - p[1]), f"U{i}") for i, p in enumerate(units))
    source, target = (0, 2), (2, 0)
    for reading, expected in (("corner_ok", corner_ok), ("separating", separating),
                              ("any_touch", any_touch)):
        rules = Rules().replace({"ranged.obstacle_vertex": reading})
        assert ranged_line(board, source, target, rules).visible is expected, reading
        assert (target in ranged_visible_from(board, source, rules)) is expected, reading
        assert line_of_sight(board, source, target, rules).visible  # obstacles never block sight
    assert Rules()["ranged.obstacle_vertex"] == "separating"


def test_manual_p23_obstacles_block_ranged_but_not_ranged_through():
    board = board_of("+-+-+-+\n|A c T|\n+-+-+-+\n")
    assert not can_target(board, (0, 0), (2, 0), Rules(), "ranged", reach=2)
    assert can_target(board, (0, 0), (2, 0), Rules(), "ranged_through", reach=2)
    assert ranged_line(board, (0, 0), (2, 0), Rules()).spaces == ((1, 0),)


@pytest.mark.parametrize("reading, blocked", [("yes", True), ("no", False)])
def test_ethereal_units_and_plain_ranged(reading, blocked):
    board = board_of("+-+-+-+\n|A G T|\n+-+-+-+\n")
    rules = Rules().replace({"ethereal.blocks_ranged": reading})
    assert ranged_line(board, (0, 0), (2, 0), rules, ethereal={"G"}).visible is not blocked
    assert ((2, 0) in ranged_visible_from(board, (0, 0), rules, ethereal={"G"})) is not blocked
    assert not ranged_line(board, (0, 0), (2, 0), rules).visible  # G not ethereal: it blocks


def test_manual_p25_ethereal_units_cannot_be_targeted_without_an_effect():
    board = board_of("+-+-+\n|A G|\n+-+-+\n")
    assert not can_target(board, (0, 0), (1, 0), Rules(), "melee", ethereal={"G"})
    assert can_target(board, (0, 0), (1, 0), Rules(), "melee", ethereal={"G"},
                      ethereal_targeting=True)


# --- D6 range.metric / range.count -----------------------------------------------------------------

OPEN4 = "+-+-+-+-+\n" + "|. . . .|\n+ + + + +\n" * 3 + "|. . . .|\n+-+-+-+-+\n"


@pytest.mark.parametrize("metric, count, distance", [
    ("chebyshev", "steps", 3), ("euclidean", "steps", 4), ("chebyshev", "spaces_between", 2),
    ("path_around_barriers", "steps", 3),
])
def test_range_readings(metric, count, distance):
    rules = Rules().replace({"range.metric": metric, "range.count": count})
    board = board_of(OPEN4)
    assert range_between(board, (0, 3), (3, 0), rules) == distance
    assert in_range(board, (0, 3), (3, 0), 3, rules) is (distance <= 3)
    assert range_between(board, (1, 1), (1, 1), rules) == 0  # a unit may target itself


def test_path_around_barriers_goes_round_a_wall():
    board = board_of("+-+-+\n|.|.|\n+ + +\n|. .|\n+-+-+\n")
    rules = Rules().replace({"range.metric": "path_around_barriers"})
    assert range_between(board, (0, 0), (1, 0), rules) == 2
    assert range_between(board, (0, 0), (1, 0), Rules()) == 1
    assert Rules()["range.metric"] == "chebyshev" and Rules()["range.count"] == "steps"


def test_path_around_barriers_may_end_on_rubble():
    board = board_of("+-+-+-+\n|. . r|\n+-+-+-+\n")
    rules = Rules().replace({"range.metric": "path_around_barriers"})
    assert range_between(board, (0, 0), (2, 0), rules) == 2


def test_manual_p23_ranged_out_of_range_says_why():
    verdict = can_target(board_of(OPEN4), (0, 0), (3, 3), Rules(), "ranged", reach=2)
    assert not verdict and "range 3" in verdict.reason and verdict.distance == 3


def test_manual_p23_melee_targets_self_and_adjacent():
    board = board_of("+-+-+-+\n|A|. .|\n+ + +-+\n|. . r|\n+-+-+-+\n")
    assert melee_targets(board, (0, 0), Rules()) == ((0, 0), (0, 1), (1, 1))
    assert can_target(board, (0, 0), (0, 0), Rules()).legal


# --- D21 adjacency.across_tiles ---------------------------------------------------------------------


def two_tiles(border: BorderKind) -> Board:
    layout = parse_map("+-+\n|.|\n+-+\n")
    board = Board().with_layout(layout, "west", (0, 0)).with_layout(layout, "east", (1, 0))
    return board.with_connection((0, 0), (1, 0), border)


@pytest.mark.parametrize("border, joined_only, touching", [
    (BorderKind.BOUNDARY, False, True), (BorderKind.JOINED, True, True),
])
def test_adjacency_across_tiles(border, joined_only, touching):
    board = two_tiles(border)
    assert adjacent(board, (0, 0), (1, 0), Rules()) is joined_only
    rules = Rules().replace({"adjacency.across_tiles": "any_touching_spaces"})
    assert adjacent(board, (0, 0), (1, 0), rules) is touching
    assert Rules()["adjacency.across_tiles"] == "joined_edges_only"


# --- map-tile scope ----------------------------------------------------------------------------------


def test_manual_p21_untargeted_abilities_affect_the_activating_units_tile_or_every_tile():
    board = Board().with_layout(parse_map("+-+-+\n|. .|\n+-+-+\n"), "west", (0, 0))
    board = board.with_layout(parse_map("+-+\n|.|\n+-+\n"), "east", (2, 0))
    board = board.with_unit((0, 0), "Kim").with_unit((1, 0), "Hank").with_unit((2, 0), "Mi-Go")
    assert units_on_tile(board, (0, 0)) == (("Hank", (1, 0)), ("Kim", (0, 0)))
    assert affected_units(board, (2, 0)) == (("Mi-Go", (2, 0)),)
    assert len(affected_units(board, None)) == 3


# --- fast tables and bad input ------------------------------------------------------------------------


def test_visible_pairs_agrees_with_visible_from_and_follows_changes():
    board = board_of(DOORS)
    pairs = visible_pairs(board, Rules())
    for a in board:
        assert {b for b in board if (min(a, b), max(a, b)) in pairs} == set(visible_from(board, a, Rules()))
    closed = board.with_border(*D1, BorderKind.DOOR_CLOSED)
    assert HANK not in visible_from(closed, LORRAI, Rules())
    assert HANK in visible_from(board, LORRAI, Rules())              # the old board is unchanged


def test_ranged_tables_follow_a_unit_moving():
    board = board_of("+-+-+-+\n|A U .|\n+ + + +\n|. . .|\n+-+-+-+\n")
    assert (2, 0) not in ranged_visible_from(board, (0, 0), Rules())
    board = board.with_unit((1, 1), "U")                            # U moves
    assert (2, 0) in ranged_visible_from(board, (0, 0), Rules())
    assert (2, 1) not in ranged_visible_from(board, (0, 0), Rules())  # the line enters (1,1)
    assert (1, 0) in visible_from(board, (0, 0), Rules())


def test_vertex_blocked_names_the_rays():
    walls = {((0, 0), (1, 0)), ((0, 1), (1, 1))}
    blocked, rays, sides = vertex_blocked((1, 1), -1, Rules(), lambda a, b: (a, b) in walls,
                                          lambda p: False)
    assert blocked and set(rays) == walls and sides == ()


@pytest.mark.parametrize("call, argument", [
    (lambda b: line_of_sight(b, (0, 0), (9, 9), Rules()), "b"),
    (lambda b: line_of_sight(b, "x", (0, 0), Rules()), "a"),
    (lambda b: visible_from(b, (0, -1), Rules()), "a"),
    (lambda b: line_of_sight(b, (0, 0), (1, 0), {"los.vertex": "any_two"}), "rules"),
    (lambda b: can_target(b, (0, 0), (1, 0), Rules(), "sling"), "icon"),
    (lambda b: in_range(b, (0, 0), (1, 0), -1, Rules()), "reach"),
    (lambda b: adjacent(b, None, (1, 0), Rules()), "a"),
])
def test_bad_input_names_the_argument_and_changes_nothing(call, argument):
    assert_rejected(board_of(DOORS), call, argument)


def assert_rejected(board: Board, call, argument: str) -> None:
    """``call(board)`` raises a RulesError naming ``argument`` and leaves the board as it was."""
    before = board.state()
    with pytest.raises(RulesError) as error:
        call(board)
    assert error.value.argument == argument
    assert board.state() == before


def test_the_docstring_examples_run():
    import doctest

    from machina_nb.rules.board import sight
    assert doctest.testmod(sight).failed == 0
