"""Movement, reach, tied paths, nearest and closest (manual p15-17, p22, p25, p34-35; rulings D4-D9, D14, D46).

Catalogue situations are in its coordinates (y north); here the y of every
point is flipped into ours (y south).
"""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import sqrt
from test_sight import NE, SW, assert_rejected, board_of, rays_board

from machina_nb.rules.board.distance import (
    Mover,
    SquareRoot,
    closer,
    closest,
    closest_paths,
    closest_view,
    legal_step,
    movement_view,
    nearest,
    reach,
    shortest_paths,
    step_cost,
    steps,
)
from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.rulings import Rules

# --- D4 move.diagonal, D5 move.squeeze ---------------------------------------------------------------


def test_move_diagonal_past_a_wall_end():
    # A wall on the S ray of the crossed vertex; step (0,0) -> (1,1) with y growing north, ours SW -> NE.
    board = rays_board("S")
    expected = {"follow_los": 1, "no_corner_cut": 2, "one_L_open": 1}
    for reading, cost in expected.items():
        rules = Rules().replace({"move.diagonal": reading})
        assert legal_step(board, SW, NE, rules) is (cost == 1), reading
        assert shortest_paths(board, SW, NE, rules).cost == cost, reading
    assert Rules()["move.diagonal"] == "follow_los"


def test_one_l_open_differs_from_follow_los_when_sight_is_stricter():
    # Under los.vertex=any_two an L round a side cell closes sight, but the other L route is open.
    board = rays_board("N", "W")
    rules = Rules().replace({"los.vertex": "any_two"})
    assert not legal_step(board, SW, NE, rules)
    assert legal_step(board, SW, NE, rules.replace({"move.diagonal": "one_L_open"}))
    assert not legal_step(board, SW, NE, rules.replace({"move.diagonal": "no_corner_cut"}))


@pytest.mark.parametrize("cells, allowed, if_both, if_either", [
    ("U..V", True, False, False),   # units on both side cells ((0,1) and (1,0) with y growing north)
    ("U...", True, True, False),    # a single unit at one side
])
def test_move_squeeze_between_units(cells, allowed, if_both, if_either):
    board = rays_board(cells=cells)
    for reading, expected in (("allowed", allowed), ("blocked_if_both", if_both),
                              ("blocked_if_either", if_either)):
        rules = Rules().replace({"move.squeeze": reading})
        assert legal_step(board, SW, NE, rules) is expected, reading
    assert Rules()["move.squeeze"] == "allowed"


def test_steps_follow_units_and_doors_changing():
    board = rays_board(cells="U..V")
    both = Rules().replace({"move.squeeze": "blocked_if_both"})
    assert not legal_step(board, SW, NE, both)
    board = board.without_unit((1, 1))
    assert legal_step(board, SW, NE, both)
    board = board.with_border(SW, (1, 1), BorderKind.WALL).with_border((0, 0), NE, BorderKind.WALL)
    assert not legal_step(board, SW, NE, Rules())  # the walls now cross the corner


def test_two_rubble_spaces_squeeze_shut_by_default():
    board = rays_board(cells="r..r")
    assert not legal_step(board, SW, NE, Rules())
    assert legal_step(board, SW, NE, Rules().replace({"los.space_squeeze": "visible"}))


# --- legal steps, pits, ethereal, move-through ----------------------------------------------------------


def test_manual_p34_steps_go_to_passable_unoccupied_spaces_not_across_walls():
    board = board_of("+-+-+-+\n|M|. c|\n+ + + +\n|. U r|\n+-+-+-+\n")
    assert steps(board, (0, 0), Rules(), Mover("M")) == ((0, 1),)
    assert steps(board, (1, 0), Rules()) == ((0, 1),)   # not the chest, the unit, the rubble


def test_manual_p35_mindless_monsters_never_step_into_a_pit():
    board = board_of("+-+-+-+\n|M o .|\n+-+-+-+\n")
    assert legal_step(board, (0, 0), (1, 0), Rules(), Mover("M"))
    assert not legal_step(board, (0, 0), (1, 0), Rules(), Mover("M", mindless=True))
    # a pit ends a plain move: the unit is destroyed there, it never walks on through
    assert (2, 0) not in reach(board, (0, 0), 5, Rules(), Mover("M"))
    assert reach(board, (0, 0), 5, Rules(), Mover("M"))[(1, 0)] == 1


def test_manual_p34_move_through_pits_costs_nothing_from_pit_to_pit_and_never_ends_there():
    board = board_of("+-+-+-+-+-+\n|M o o o .|\n+-+-+-+-+-+\n")
    mover = Mover("M", move_through=True)
    assert step_cost(board, (1, 0), (2, 0), mover) == 0
    assert step_cost(board, (0, 0), (1, 0), mover) == 1
    assert dict(reach(board, (0, 0), 2, Rules(), mover)) == {(0, 0): 0, (4, 0): 2}
    paths = shortest_paths(board, (0, 0), (4, 0), Rules(), mover)
    assert paths.cost == 2 and list(paths) == [((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))]


def test_pit_voluntary_entry_readings_for_move_through():
    board = board_of("+-+-+-+-+-+\n|M o o o .|\n+-+-+-+-+-+\n")
    mover = Mover("M", move_through=True)
    destroyed = Rules().replace({"pit.voluntary_entry": "always_destroy"})
    assert dict(reach(board, (0, 0), 4, destroyed, mover)) == {(0, 0): 0, (1, 0): 1}
    assert shortest_paths(board, (0, 0), (4, 0), destroyed, mover).cost is None
    assert Rules()["pit.voluntary_entry"] == "move_through_survives"


def test_manual_p25_units_move_through_ethereal_units_but_never_end_on_them():
    board = board_of("+-+-+-+\n|M G .|\n+-+-+-+\n")
    assert dict(reach(board, (0, 0), 2, Rules(), Mover("M"), ethereal={"G"})) == {
        (0, 0): 0, (2, 0): 2}
    assert dict(reach(board, (0, 0), 2, Rules(), Mover("M"))) == {(0, 0): 0}
    assert dict(reach(board, (0, 0), 2, Rules(), Mover("M", ethereal=True))) == {
        (0, 0): 0, (2, 0): 2}


def test_manual_p34_reach_within_stamina_costs_one_per_step():
    board = board_of("+-+-+-+\n|M . .|\n+ + + +\n|. . .|\n+-+-+-+\n")
    assert dict(reach(board, (0, 0), 1, Rules(), Mover("M"))) == {
        (0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1}
    assert reach(board, (0, 0), 2, Rules(), Mover("M"))[(2, 1)] == 2


# --- tied paths -------------------------------------------------------------------------------------------


def test_manual_p16_every_tied_shortest_path_is_kept():
    board = board_of("+-+-+-+\n|. . .|\n+ + + +\n|. . .|\n+ + + +\n|. . .|\n+-+-+-+\n")
    paths = shortest_paths(board, (0, 1), (2, 1), Rules())
    assert paths.cost == 2 and paths.count() == 3
    assert list(paths) == [((0, 1), (1, 0), (2, 1)), ((0, 1), (1, 1), (2, 1)),
                           ((0, 1), (1, 2), (2, 1))]


def test_unreachable_goal_has_no_paths():
    board = board_of("+-+-+\n|.|.|\n+-+-+\n")
    paths = shortest_paths(board, (0, 0), (1, 0), Rules())
    assert paths.cost is None and list(paths) == [] and paths.count() == 0


# --- D14 path.units -----------------------------------------------------------------------------------------

CORRIDOR = """\
+-+-+-+-+-+
|M . U . .|
+ +-+-+-+ +
|. . . . .|
+-+-+-+-+-+
"""


def test_path_units_obstacles_routes_round_units():
    board = board_of(CORRIDOR)
    mindless = Mover("M", mindless=True)
    around = shortest_paths(board, (0, 0), (3, 0), Rules(), mindless)
    assert all((2, 0) not in path for path in around)
    ignored = shortest_paths(board, (0, 0), (3, 0), Rules().replace({"path.units": "ignored"}),
                             mindless)
    assert ignored.cost == 3 and list(ignored) == [((0, 0), (1, 0), (2, 0), (3, 0))]
    assert around.cost > ignored.cost
    assert Rules()["path.units"] == "obstacles"


# --- D7 nearest.metric -------------------------------------------------------------------------------------

OPEN4 = "+-+-+-+-+\n" + "|. . . .|\n+ + + + +\n" * 3 + "|. . . .|\n+-+-+-+-+\n"


def flip(p, height=4):
    return (p[0], height - 1 - p[1])


@pytest.mark.parametrize("metric, best", [
    ("chebyshev", [(2, 2)]), ("manhattan", [(3, 0)]), ("euclidean", [(2, 2)]),
])
def test_nearest_metric_readings(metric, best):
    rules = Rules().replace({"nearest.metric": metric})
    ranking = nearest(board_of(OPEN4), flip((0, 0)), [flip((3, 0)), flip((2, 2))], rules)
    assert ranking.candidates == tuple(flip(p) for p in best)


def test_nearest_ties_are_all_returned():
    board = board_of(OPEN4)
    goals = [flip((3, 0)), flip((3, 3))]
    tie = nearest(board, flip((0, 0)), goals, Rules())
    assert tie.distance == 3 and set(tie.candidates) == set(goals)
    euclid = nearest(board, flip((0, 0)), goals, Rules().replace(nearest_metric="euclidean"))
    assert euclid.candidates == (flip((3, 0)),) and euclid.distance == 3
    far = dict(euclid.distances)[flip((3, 3))]
    assert far == SquareRoot(18) and sqrt(far.square) == 3 * sqrt(2)   # sympy as the oracle
    assert str(far) == str(3 * sqrt(2)) and far > 4 and far < Fraction(17, 4)


@given(st.integers(0, 2000), st.integers(0, 2000))
def test_euclidean_distances_compare_and_print_as_sympy_does(a, b):
    ra, rb = SquareRoot(a), SquareRoot(b)
    assert (ra < rb) == (sqrt(a) < sqrt(b)) and (ra == rb) == (a == b)
    assert str(ra) == str(sqrt(a)) and (hash(ra) == hash(math.isqrt(a))) == (math.isqrt(a) ** 2 == a)


def test_manual_p22_nearest_ignores_walls_and_rubble():
    board = board_of("+-+-+-+\n|.|r .|\n+-+-+-+\n")
    assert nearest(board, (0, 0), [(2, 0)], Rules()).distance == 2


# --- closest: D8 closest.pits, D9 closest.immobile_units -----------------------------------------------------

PITS = """\
+-+-+-+-+-+
|M . . . B|
+ + + + + +
|o o o . .|
+ + + + + +
|A . . . .|
+-+-+-+-+-+
"""


def test_closest_pits_readings():
    board = board_of(PITS)
    explorers = [(0, 2), (4, 0)]
    through = closest(board, (0, 0), explorers, Rules())
    assert through.candidates == ((0, 2),) and through.distance == 2
    avoid = closest(board, (0, 0), explorers, Rules().replace({"closest.pits": "avoid"}))
    assert avoid.candidates == ((4, 0),) and dict(avoid.distances)[(0, 2)] == 6
    assert Rules()["closest.pits"] == "count_through"


PLUG = """\
+-+-+-+-+-+
|M . K . A|
+ +-+-+-+ +
|. r r r .|
+ + + + + +
|. . . . B|
+-+-+-+-+-+
"""


@pytest.mark.parametrize("reading, target, distance_a", [
    ("ignore", (4, 0), 4), ("obstacle", (4, 2), 6), ("rubble", (4, 2), 6),
])
def test_closest_immobile_units_readings(reading, target, distance_a):
    board = board_of(PLUG)
    rules = Rules().replace({"closest.immobile_units": reading})
    ranking = closest(board, (0, 0), [(4, 0), (4, 2)], rules, immobile={"K"})
    assert ranking.candidates == (target,)
    assert dict(ranking.distances)[(4, 0)] == distance_a
    assert Rules()["closest.immobile_units"] == "obstacle"
    assert Rules.preset("player_aid")["closest.immobile_units"] == "rubble"


def test_immobile_units_as_rubble_also_squeeze_a_diagonal():
    # Two immobile units touching at the crossed corner: rubble closes it (ruling D2), obstacles do not.
    board = rays_board(cells="K..L")
    obstacle = closest(board, SW, [NE], Rules(), immobile={"K", "L"})
    rubble = closest(board, SW, [NE], Rules().replace(closest_immobile_units="rubble"),
                     immobile={"K", "L"})
    assert obstacle.distance == 1 and rubble.distance is None


def test_manual_p22_closest_treats_closed_doors_as_open_and_ignores_units():
    board = board_of("+-+-+-+\n|M U .|\n+-+-+D+\n|. . A|\n+-+-+-+\n")
    # through U's space, then diagonally past the end of the (open-counted) door
    assert closest(board, (0, 0), [(2, 1)], Rules()).distance == 2
    assert list(closest_paths(board, (0, 0), (2, 1), Rules())) == [((0, 0), (1, 0), (2, 1))]
    assert shortest_paths(board, (0, 0), (2, 0), Rules(), Mover("M")).cost is None


def test_manual_p17_an_immobile_monster_measures_its_own_closest_explorer():
    board = board_of("+-+-+-+\n|K . A|\n+-+-+-+\n")
    assert closest(board, (0, 0), [(2, 0)], Rules(), immobile={"K"}).distance == 2


def test_closest_views_are_views_of_the_one_graph():
    board = board_of(PLUG)
    for view in (closest_view(board, Rules(), {"K"}), movement_view(board, Rules())):
        assert nx.is_frozen(view) and view._graph is board.graph
        assert set(view) <= set(board.graph)
        assert (2, 0) not in view  # K's space: immobile (closest) or occupied (movement)


# --- D46 closer.metric ----------------------------------------------------------------------------------------

LOOP = """\
+-+-+-+-+-+
|M U E . .|
+ +-+-+-+ +
|. . . . .|
+-+-+-+-+-+
"""


def test_walking_distance_against_networkx():
    """1 + the shortest walk (units in the way) to a free space adjacent to the target; with
    ``within`` the search gives up beyond that distance (manual p16, p22; ruling D46)."""
    from machina_nb.rules.board.distance import movement_view, walking_distance
    from machina_nb.rules.board.sight import adjacent_spaces
    board, target = board_of(LOOP), (2, 0)
    view = movement_view(board, Rules(), Mover("M"))
    for start in [p for p in board if board.unit_at(p) in (None, "M") and p != target]:
        free = [b for b in adjacent_spaces(board, target, Rules()) if board.unit_at(b) is None]
        walks = [nx.shortest_path_length(view, start, b) for b in free
                 if start in view and nx.has_path(view, start, b)]
        expected = 1 + min(walks) if walks else None
        assert walking_distance(board, start, target, Rules(), Mover("M")) == expected
        if expected is not None:
            assert walking_distance(board, start, target, Rules(), Mover("M"),
                                    within=expected) == expected
            assert walking_distance(board, start, target, Rules(), Mover("M"),
                                    within=expected - 1) is None
    assert walking_distance(board, (0, 0), target, Rules(), Mover("M")) == 6


def test_nearest_by_walking_is_the_least_walking_distance():
    from machina_nb.rules.board.distance import nearest_by_walking, walking_distance
    board, target = board_of(LOOP), (2, 0)
    starts = [p for p in sorted(board) if board.unit_at(p) is None and p != target]
    each = {p: walking_distance(board, p, target, Rules(), Mover("M")) for p in starts}
    best = min(w for w in each.values() if w is not None)
    assert nearest_by_walking(board, starts, target, Rules(), Mover("M")) == (
        best, tuple(p for p in starts if each[p] == best))
    far = [p for p in starts if each[p] is not None and each[p] > 3]
    assert nearest_by_walking(board, far, target, Rules(), Mover("M"), within=3) == (None, ())


def test_closer_metric_readings():
    # Closest distance 2 through the unit; the walk to adjacency goes round the loop (5 steps).
    board = board_of(LOOP)
    start, end, target = (0, 0), (4, 0), (2, 0)
    assert closest(board, start, [target], Rules()).distance == 2
    assert closest(board, end, [target], Rules()).distance == 2
    assert not closer(board, start, end, target, Rules(), Mover("M"))
    assert closer(board, start, end, target, Rules().replace(closer_metric="true_path_length"),
                  Mover("M"))
    assert Rules()["closer.metric"] == "closest_distance"


# --- bad input ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call, argument", [
    (lambda b: reach(b, (0, 0), -1, Rules()), "stamina"),
    (lambda b: reach(b, (9, 0), 2, Rules()), "start"),
    (lambda b: reach(b, (0, 0), 2, Rules(), mover="M"), "mover"),
    (lambda b: shortest_paths(b, (0, 0), "goal", Rules()), "goal"),
    (lambda b: closest(b, (0, 0), [(1, 0), (7, 7)], Rules()), "goals"),
    (lambda b: closest(b, (0, 0), 5, Rules()), "goals"),
    (lambda b: nearest(b, (0, 0), [(1, 0)], None), "rules"),
    (lambda b: legal_step(b, (0, 0), (1, 5), Rules()), "b"),
])
def test_bad_input_names_the_argument_and_changes_nothing(call, argument):
    assert_rejected(board_of(CORRIDOR), call, argument)


def test_spaces_kinds_are_read_from_the_board():
    board = board_of(CORRIDOR)
    board = board.with_space((1, 0), SpaceKind.RUBBLE)
    assert (1, 0) not in reach(board, (0, 0), 3, Rules(), Mover("M"))


def test_the_docstring_examples_run():
    import doctest

    from machina_nb.rules.board import distance
    assert doctest.testmod(distance).failed == 0
