"""Mansions of Madness 1e: d10 tests by enumerating the faces, corner-dot sight against a slow
reference on random boards under every geometric reading, monster steps.

The slow reference reads the walls straight from the map text (not through the board graph)
and tests every dot-to-dot line against every wall segment with an exact segment intersection
(Mansions summary: Attribute Tests; Line of Sight; Moving Monsters).
"""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.errors import RulesError
from machina_nb.rules.peers import mansions
from machina_nb.rules.rulings import Rules

# --- d10 attribute tests ---------------------------------------------------------------------------


def faces_passing(target):
    return Fraction(sum(1 for face in range(1, 11)
                        if face == 1 or (face != 10 and face <= target)), 10)


@pytest.mark.parametrize("attribute", range(0, 12))
@pytest.mark.parametrize("modifier", [-3, -1, 0, 2])
def test_d10_chance_enumerates_the_ten_faces(attribute, modifier):
    assert mansions.pass_chance(attribute, modifier) == faces_passing(attribute + modifier)


@settings(max_examples=80)
@given(st.integers(0, 20), st.integers(-20, 20), st.integers(0, 8), st.booleans(), st.booleans())
def test_d10_chance_is_clamp_of_attribute_plus_modifiers_over_ten(a, m, luck, point, stunned):
    test = mansions.attribute_test(a, m, luck, point, stunned)
    target = a + m + (luck if point else 0) - (2 if stunned else 0)
    assert test.p_pass == Fraction(min(9, max(1, target)), 10) == faces_passing(target)


def test_skill_point_adds_luck_before_the_roll_never_to_luck():
    assert mansions.pass_chance(3, luck=4, skill_point=True) == Fraction(7, 10)
    assert mansions.pass_chance(3, luck=4) == Fraction(3, 10)  # luck given but no point spent
    with pytest.raises(RulesError) as info:
        mansions.attribute_test(4, luck=4, skill_point=True, tested="Luck")
    assert info.value.argument == "skill-point"
    with pytest.raises(RulesError) as info:
        mansions.attribute_test(4, skill_point=True)
    assert info.value.argument == "luck"


def test_stun_is_minus_two_and_one_always_passes_ten_always_fails():
    assert mansions.pass_chance(5, stunned=True) == Fraction(3, 10)
    assert mansions.pass_chance(0, -5) == Fraction(1, 10)
    assert mansions.pass_chance(15) == Fraction(9, 10)
    text = mansions.attribute_test(5, -1, stunned=True).explain()
    assert "roll of 2 or less" in text and "20.0%" in text and "Attribute Tests" in text


# --- sight: a slow, obviously correct reference ------------------------------------------------------

BLOCKING = {BorderKind.WALL, BorderKind.BOUNDARY, BorderKind.EDGE, BorderKind.DIRECTION,
            BorderKind.DOOR_OPEN, BorderKind.DOOR_CLOSED}


def wall_segments(layout):
    """Every blocking border of the map as a segment between two grid points."""
    segments = []
    for y in range(layout.height):
        for x in range(layout.width + 1):
            if layout.vertical[y][x] in BLOCKING:
                segments.append(((x, y), (x, y + 1)))
    for y in range(layout.height + 1):
        for x in range(layout.width):
            if layout.horizontal[y][x] in BLOCKING:
                segments.append(((x, y), (x + 1, y)))
    return segments


def cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def sub(a, b):
    return (Fraction(a[0]) - b[0], Fraction(a[1]) - b[1])


def slow_clear(segments, p, q, touch_blocks):
    d = sub(q, p)
    touched = set()
    for a, b in segments:
        e = sub(b, a)
        ap = sub(a, p)
        den = cross(d, e)
        if den != 0:
            t, u = cross(ap, e) / den, cross(ap, d) / den
            if 0 <= t <= 1 and 0 <= u <= 1:
                if 0 < u < 1:
                    return False                      # through the wall's inside
                if 0 < t < 1:
                    touched.add(a if u == 0 else b)   # through the wall's end
        elif cross(ap, d) == 0:                       # on the same straight line
            dd = d[0] * d[0] + d[1] * d[1]
            ta = (ap[0] * d[0] + ap[1] * d[1]) / dd
            bp = sub(b, p)
            tb = (bp[0] * d[0] + bp[1] * d[1]) / dd
            low, high = max(0, min(ta, tb)), min(1, max(ta, tb))
            if high > low:
                return False                          # runs along the wall
            if high == low and 0 < low < 1:
                touched.add(a if low == ta else b)
    for v in touched:
        if touch_blocks:
            return False
        signs = set()
        for a, b in segments:
            if v in (a, b):
                ray = sub(b, a) if v == a else sub(a, b)
                c = cross(d, ray)
                signs.add((c > 0) - (c < 0))
        if 0 in signs or {1, -1} <= signs:
            return False
    return True


def slow_dots(space, inset):
    x, y = space
    return [(x + dx, y + dy) for dy in (inset, 1 - inset) for dx in (inset, 1 - inset)]


def slow_visible(layout, a, b, inset, touch_blocks):
    segments = wall_segments(layout)
    return any(slow_clear(segments, p, q, touch_blocks)
               for p in slow_dots(a, inset) for q in slow_dots(b, inset) if p != q)


def random_map(rng, w, h, walls=0.3, doors=0.1):
    lines = []
    for row in range(2 * h + 1):
        line = []
        for col in range(2 * w + 1):
            if row % 2 == 0 and col % 2 == 0:
                line.append("+")
            elif row % 2 == 1 and col % 2 == 1:
                line.append(rng.choice(".....r"))
            else:
                wall = "|" if row % 2 == 1 else "-"
                ring = col in (0, 2 * w) if row % 2 == 1 else row in (0, 2 * h)
                r = rng.random()
                line.append(wall if ring or r < walls else rng.choice("dDx") if r < walls + doors
                            else " ")
        lines.append("".join(line))
    return "\n".join(lines) + "\n"


GEOMETRY = [(inset, touch) for inset in mansions.INSETS for touch in ("touch_ok", "touch_blocks")]


@pytest.mark.parametrize("inset, touch", GEOMETRY)
@pytest.mark.parametrize("seed", range(4))
def test_sight_matches_the_slow_reference_on_random_boards(inset, touch, seed):
    rng = random.Random(seed * 31 + len(inset))
    layout = parse_map(random_map(rng, 4, 3))
    board = Board.from_layout(layout)
    rules = Rules().replace({"mansions.dot_inset": inset, "mansions.wall_touch": touch})
    spaces = sorted(board)
    for a in spaces[::2]:
        for b in spaces:
            fast = mansions.line_of_sight(board, a, b, rules)
            assert fast.visible == slow_visible(layout, a, b, mansions.INSETS[inset],
                                                touch == "touch_blocks"), (a, b)
            for p, q, _ in fast.blocked:
                assert not slow_clear(wall_segments(layout), p, q, touch == "touch_blocks")
            if fast.visible:
                assert slow_clear(wall_segments(layout), *fast.line, touch == "touch_blocks")


@pytest.mark.parametrize("inset, touch", GEOMETRY)
def test_every_line_through_grid_points_matches_the_slow_reference(inset, touch):
    """Lines between grid-aligned points on a walled board hit wall ends and joints often."""
    rng = random.Random(len(inset) * 7 + len(touch))
    layout = parse_map(random_map(rng, 4, 4, walls=0.45, doors=0.1))
    board = Board.from_layout(layout)
    rules = Rules().replace({"mansions.wall_touch": touch})
    segments = wall_segments(layout)
    points = [(Fraction(x, 2), Fraction(y, 2)) for x in range(1, 8) for y in range(1, 8)]
    for p in points[::3]:
        for q in points:
            if p != q:
                fast = mansions.line_blocker(board, p, q, rules) is None
                assert fast == slow_clear(segments, p, q, touch == "touch_blocks"), (p, q)


CORNER = parse_map("+-+-+-+-+\n|. . . .|\n+ + + + +\n|. .|. .|\n+-+-+-+-+\n")


def test_touching_a_walls_end_is_a_reading():
    """The prose's example: a wall runs south from (2, 1); the line from the south-east dot of
    (0, 0) to the north-west dot of (3, 1) passes exactly through the wall's end (2, 1)."""
    board = Board.from_layout(CORNER)
    start, end = (Fraction(7, 8), Fraction(7, 8)), (Fraction(25, 8), Fraction(9, 8))
    assert mansions.line_blocker(board, start, end, Rules()) is None
    blocks = Rules().replace({"mansions.wall_touch": "touch_blocks"})
    assert "touches the end of the wall between (1, 1) and (2, 1)" in \
        mansions.line_blocker(board, start, end, blocks)


def test_a_line_through_a_straight_wall_joint_crosses_it_under_both_readings():
    board = Board.from_layout(parse_map("+-+-+-+\n|. .|.|\n+ + + +\n|. .|.|\n+-+-+-+\n"))
    start, end = (Fraction(9, 8), Fraction(7, 8)), (Fraction(23, 8), Fraction(9, 8))
    for touch in ("touch_ok", "touch_blocks"):
        why = mansions.line_blocker(board, start, end, Rules().replace(
            {"mansions.wall_touch": touch}))
        assert why and "crosses" in why


def test_doors_open_or_closed_block_sight_figures_and_markers_do_not():
    board = Board.from_layout(parse_map("+-+-+-+\n|A . r|\n+-+-+-+\n",
                                        legend={"A": SpaceKind.FLOOR}))
    assert mansions.line_of_sight(board, (0, 0), (1, 0), Rules()).visible
    seen = mansions.line_of_sight(board, (0, 0), (2, 0), Rules())
    assert seen.visible  # the rubble marker on (2, 0) does not block; the door is not between
    board = Board.from_layout(parse_map("+-+-+-+\n|.d.D.|\n+-+-+-+\n"))
    blocked = mansions.line_of_sight(board, (0, 0), (1, 0), Rules())
    assert not blocked.visible and "the door between (0, 0) and (1, 0)" in blocked.explain()
    assert "every one of the 16 dot-to-dot lines is blocked" in blocked.explain()
    assert not mansions.line_of_sight(board, (1, 0), (2, 0), Rules()).visible
    assert mansions.range_between(board, (0, 0), (2, 0), Rules()) is None


def test_range_counts_spaces_with_sight():
    board = Board.from_layout(CORNER)
    assert mansions.range_between(board, (0, 0), (3, 1), Rules()) == 3
    assert mansions.range_between(board, (0, 0), (0, 0), Rules()) == 0
    assert mansions.line_of_sight(board, (0, 0), (0, 0), Rules()).visible


def test_bad_arguments_name_them():
    board = Board.from_layout(CORNER)
    with pytest.raises(RulesError) as info:
        mansions.line_of_sight(board, (0, 0), (9, 9), Rules())
    assert info.value.argument == "to"
    with pytest.raises(RulesError) as info:
        mansions.step_allowed(board, (0, 0), (2, 0), Rules())
    assert info.value.argument == "to"


# --- monster movement ------------------------------------------------------------------------------


def test_monsters_step_through_doors_but_not_walls_or_barred_doors():
    board = Board.from_layout(parse_map("+-+-+-+\n|.d.D.|\n+ +-+-+\n|. . .|\n+-+-+-+\n"))
    assert mansions.step_allowed(board, (0, 0), (1, 0), Rules())          # a door: free
    assert not mansions.step_allowed(board, (1, 0), (2, 0), Rules())      # barred
    assert not mansions.step_allowed(board, (1, 0), (1, 1), Rules())      # a wall
    assert mansions.monster_distance(board, (2, 0), (0, 0), Rules()) is None
    assert mansions.monster_distance(board, (1, 0), (2, 1), Rules()) == 3


def test_diagonal_steps_past_a_corner_are_a_reading():
    """The prose's example: (0, 1) -> (1, 0) passes (1, 1), where only the wall between (0, 0)
    and (1, 0) ends."""
    board = Board.from_layout(parse_map("+-+-+\n|.|.|\n+ + +\n|. .|\n+-+-+\n"))
    assert mansions.step_allowed(board, (0, 1), (1, 0), Rules())
    strict = Rules().replace({"mansions.diagonal": "no_wall_at_corner"})
    assert not mansions.step_allowed(board, (0, 1), (1, 0), strict)
    walled = Board.from_layout(parse_map("+-+-+\n|.|.|\n+ +-+\n|. .|\n+-+-+\n"))
    assert not mansions.step_allowed(walled, (0, 1), (1, 0), Rules())   # walls on both sides
    assert mansions.monster_steps(board, (0, 0), Rules()) == ((1, 1), (0, 1))


@pytest.mark.parametrize("seed", range(6))
def test_monster_steps_agree_with_the_borders_read_from_the_map(seed):
    rng = random.Random(seed)
    layout = parse_map(random_map(rng, 4, 3))
    board = Board.from_layout(layout)
    for rule in ("corner_crossing", "no_wall_at_corner"):
        rules = Rules().replace({"mansions.diagonal": rule})
        for a in board:
            for b in mansions.monster_steps(board, a, rules):
                dx, dy = b[0] - a[0], b[1] - a[1]
                if dx == 0 or dy == 0:
                    assert layout.border(a, b) not in mansions.MOVE_BLOCKING
                else:
                    # the four borders meeting at the shared corner, read from the map text
                    cx, cy = max(a[0], b[0]), max(a[1], b[1])
                    around = [layout.border((cx - 1, cy - 1), (cx, cy - 1)),
                              layout.border((cx - 1, cy), (cx, cy)),
                              layout.border((cx - 1, cy - 1), (cx - 1, cy)),
                              layout.border((cx, cy - 1), (cx, cy))]
                    blocking = [k in mansions.MOVE_BLOCKING for k in around]
                    if rule == "no_wall_at_corner":
                        assert not any(blocking)
                    else:
                        assert not all(blocking)


# Boards where the geometric readings answer differently (found by a random search and kept).
MAP_C = """\
+-+-+-+-+-+
|.|.|. .|.|
+ +d+-+ +-+
|. .|.|.d.|
+ +-+-+ + +
|. .d. .|.|
+ +-+-+-+-+
|. .|. . .|
+-+-+-+-+-+
"""
MAP_Q = """\
+-+-+-+-+-+
|.|. .d. .|
+ +-+ + +-+
|.d. . . .|
+ +-+ + + +
|. . . .|.|
+-+ +-+ + +
|. . .|. .|
+-+-+-+-+-+
"""
MAP_T = """\
+-+-+-+-+-+
|.d.|. . .|
+ + + + +d+
|. . .|.d.|
+ +-+ + +-+
|. . .d.d.|
+ +-+ + + +
|. .|. . .|
+-+-+-+-+-+
"""


@pytest.mark.parametrize("text, a, b, readings", [
    (MAP_Q, (0, 0), (2, 3), {("eighth", "touch_ok"): True, ("quarter", "touch_ok"): False}),
    (MAP_T, (0, 3), (3, 0), {("eighth", "touch_ok"): True, ("eighth", "touch_blocks"): False}),
    (MAP_C, (3, 0), (1, 3), {("corner", "touch_ok"): True, ("corner", "touch_blocks"): False}),
    (MAP_C, (1, 2), (3, 0), {("eighth", "touch_ok"): False, ("corner", "touch_ok"): True}),
])
def test_each_geometric_reading_changes_a_verdict(text, a, b, readings):
    layout = parse_map(text)
    board = Board.from_layout(layout)
    for (inset, touch), visible in readings.items():
        rules = Rules().replace({"mansions.dot_inset": inset, "mansions.wall_touch": touch})
        assert mansions.line_of_sight(board, a, b, rules).visible is visible
        assert slow_visible(layout, a, b, mansions.INSETS[inset], touch == "touch_blocks") is visible
