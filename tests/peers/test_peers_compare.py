"""Side by side: chance curves, the exact value of deciding after the roll, three distance notions.

Oracles: the odds wing's own essence accounting (``attack_odds.expected_spent``, manual p18),
enumeration of the d10's faces and of the chaos bag's tokens.
"""

from fractions import Fraction

import pytest

from machina_nb.rules.board.graph import Board
from machina_nb.rules.board.maptext import SpaceKind, parse_map
from machina_nb.rules.odds import attacks
from machina_nb.rules.odds.dice import parse_dice
from machina_nb.rules.peers import compare
from machina_nb.rules.peers.arkham import Bag
from machina_nb.rules.rulings import Rules


@pytest.mark.parametrize("dice, defense, essence", [("1H1L", 3, 2), ("2H1L", 5, 3), ("3L", 2, 1)])
def test_manual_p18_essence_after_the_roll_costs_what_the_odds_wing_says(dice, defense, essence):
    pool = parse_dice(dice).pool
    timing = compare.essence_timing(pool, defense, essence, Rules())
    odds = attacks.attack_odds(pool, defense, Rules(), 0, essence)
    assert timing.chance == odds.hit and timing.spent_after == odds.expected_spent
    assert timing.spent_before == essence and timing.value == essence - odds.expected_spent


def test_arkham_icons_deciding_after_the_draw_enumerated_by_token():
    bag = Bag.parse("+1,0,-1,-2,auto_fail")
    timing = compare.icon_timing(bag, 2, 3, 2, Rules())
    # token +1: needs 0; 0: 1 icon; -1: 2 icons; -2: 3 (too many); auto-fail: none helps
    assert timing.chance == Fraction(3, 5)
    assert timing.spent_after == Fraction(0 + 1 + 2, 5) and timing.value == 2 - Fraction(3, 5)


def test_mansions_skill_point_deciding_after_the_roll_enumerated_by_face():
    timing = compare.skill_point_timing(3, 4)
    # the point matters on faces 4-7 only
    assert (timing.chance_without, timing.chance) == (Fraction(3, 10), Fraction(7, 10))
    assert timing.spent_after == Fraction(4, 10) and timing.value == Fraction(6, 10)


def test_the_three_curves_read_the_same_way():
    margins = range(-3, 11)
    pool = parse_dice("1H2L").pool
    for m, p in compare.machina_curve(pool, margins):
        if 0 <= m <= 9:
            assert p == attacks.hit_chance(pool, m, Rules())
        else:
            assert p == (1 if m < 0 else 0)
    for m, p in compare.mansions_curve(margins):
        faces = sum(1 for f in range(1, 11) if f == 1 or (f != 10 and f <= 10 - m))
        assert p == Fraction(faces, 10)
    bag = Bag.parse("+1,0,-1,auto_fail")
    assert dict(compare.arkham_curve(bag, margins, Rules()))[0] == Fraction(2, 4)
    assert dict(compare.arkham_curve(bag, margins, Rules()))[-3] == Fraction(3, 4)


def test_closest_nearest_and_arkhams_nearest_can_name_three_different_explorers():
    legend = {k: SpaceKind.FLOOR for k in "MABC"}
    board = Board.from_layout(parse_map(
        "+-+-+-+-+-+\n"
        "|M .|B . .|\n"
        "+ + +-+-+d+\n"
        "|. .d. . A|\n"
        "+-+-+-+-+-+\n"
        "|C . . . .|\n"
        "+-+-+-+-+-+\n", legend=legend))
    notions = compare.distance_notions(board, (0, 0), {"A": (4, 1), "B": (2, 0), "C": (0, 2)},
                                       Rules())
    by = {n.notion: n for n in notions}
    assert by["Machina Arcana nearest"].winners == ("B", "C")
    assert dict(by["Machina Arcana closest"].distances)["C"] is None   # walled off
    assert by["Arkham LCG nearest"].winners == ("A",)  # one door away, B is two
    assert by["Machina Arcana closest"].winners == ("A",)
