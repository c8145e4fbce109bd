"""Dice, pools and exact distributions (manual p4-5, p24), with oracles."""

import itertools
import sys
from collections import Counter
from fractions import Fraction as F

import pytest

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.dice import D10, HIGH, LOW, Die, Pool, RechargeDie
from machina_nb.rules.odds.genfunc import (
    closed_forms,
    generating_function,
    hit_probability_from_generating_function,
    probabilities_from_generating_function,
)


def brute_force(high, low):
    """P(S = s) by enumerating every face combination (itertools.product)."""
    faces = [HIGH.faces] * high + [LOW.faces] * low
    counts = Counter(sum(roll) for roll in itertools.product(*faces))
    total = 6 ** (high + low)
    return {s: F(c, total) for s, c in sorted(counts.items())}


def test_single_dice():
    assert LOW.distribution.pmf() == {0: F(1, 6), 1: F(1, 2), 2: F(1, 3)}
    assert HIGH.distribution.pmf() == {0: F(1, 6), 1: F(1, 3), 2: F(1, 3), 3: F(1, 6)}
    assert LOW.distribution.mean == F(7, 6) and HIGH.distribution.mean == F(3, 2)


def test_manual_p26_game_die_zero_counts_as_zero():
    d10 = D10.distribution
    assert d10.minimum == 0 and d10.maximum == 9
    assert d10.at_least(0) == 1 and d10.at_least(10) == 0 and d10.at_least(7) == F(3, 10)


E1_PMFS = {
    (1, 1): [F(1, 36), F(5, 36), F(5, 18), F(11, 36), F(7, 36), F(1, 18)],
    (1, 2): [F(1, 216), F(1, 27), F(1, 8), F(17, 72), F(5, 18), F(5, 24), F(5, 54), F(1, 54)],
    (3, 0): [F(1, 216), F(1, 36), F(1, 12), F(35, 216), F(2, 9), F(2, 9), F(35, 216), F(1, 12),
             F(1, 36), F(1, 216)],
    (0, 3): [F(1, 216), F(1, 24), F(11, 72), F(7, 24), F(11, 36), F(1, 6), F(1, 27)],
}


@pytest.mark.parametrize("pool", sorted(E1_PMFS))
def test_worked_pmfs(pool):
    expected = dict(enumerate(E1_PMFS[pool]))
    assert Pool.attack(*pool).distribution().pmf() == expected
    assert probabilities_from_generating_function(Pool.attack(*pool)) == expected


E1_2 = {
    (0, 1): "5/6 1/3 0 0 0 0",
    (1, 0): "5/6 1/2 1/6 0 0 0",
    (1, 1): "35/36 5/6 5/9 1/4 1/18 0",
    (0, 2): "35/36 29/36 4/9 1/9 0 0",
    (2, 0): "35/36 31/36 23/36 13/36 5/36 1/36",
    (1, 2): "215/216 23/24 5/6 43/72 23/72 1/9",
    (2, 1): "215/216 26/27 31/36 2/3 5/12 7/36",
    (0, 3): "215/216 103/108 173/216 55/108 11/54 1/27",
    (3, 0): "215/216 209/216 191/216 13/18 1/2 5/18",
    (2, 2): "1295/1296 1285/1296 155/162 559/648 149/216 25/54",
}


@pytest.mark.parametrize("pool", sorted(E1_2))
def test_exact_tails(pool):
    expected = [F(x) for x in E1_2[pool].split()]
    dist = Pool.attack(*pool).distribution()
    assert [dist.at_least(k) for k in range(1, 7)] == expected


def test_three_high_tail():
    dist = Pool.attack(high=3).distribution()
    assert [dist.at_least(k) for k in (7, 8, 9, 10)] == [F(25, 216), F(7, 216), F(1, 216), 0]


E1_1_MEANS = {(h, l): F(3 * h, 2) + F(7 * l, 6) for h in range(4) for l in range(4) if h + l}


@pytest.mark.parametrize("pool", sorted(E1_1_MEANS))
def test_means_and_zero_chance(pool):
    dist = Pool.attack(*pool).distribution()
    assert dist.mean == E1_1_MEANS[pool]
    assert dist.probability(0) == F(1, 6 ** sum(pool))


def test_decimals_row_1h3l():
    dist = Pool.attack(1, 3).distribution()
    row = [round(float(dist.at_least(k)), 4) for k in range(1, 10)]
    assert row == [0.9992, 0.9907, 0.9498, 0.8356, 0.6296, 0.3773, 0.1651, 0.0463, 0.0062]


POOLS_UP_TO_5 = [(h, l) for h in range(6) for l in range(6) if 0 < h + l <= 5]


@pytest.mark.parametrize("pool", POOLS_UP_TO_5)
def test_brute_force_agrees_with_convolution_and_generating_function(pool):
    expected = brute_force(*pool)
    assert Pool.attack(*pool).distribution().pmf() == expected
    assert probabilities_from_generating_function(Pool.attack(*pool)) == expected


def test_generating_function_threshold_matches_fast_path():
    pool = Pool.attack(2, 1)
    for k in range(-1, 10):
        assert hit_probability_from_generating_function(pool, k) == \
            pool.distribution().at_least(k)


def test_generating_function_is_shown_factored_and_expanded():
    pool = Pool.attack(1, 2)
    assert str(generating_function(pool, factored=True)) == \
        "(z**2/3 + z/2 + 1/6)**2*(z**3/6 + z**2/3 + z/3 + 1/6)"
    assert str(generating_function(pool)).startswith("z**7/54 + 5*z**6/54")


def test_closed_forms_agree_with_the_fast_path():
    import sympy
    forms = closed_forms()
    h, l, d, m = sympy.symbols("h l d m", integer=True, nonnegative=True)
    for hi, lo in POOLS_UP_TO_5:
        dist = Pool.attack(hi, lo).distribution()
        at = {h: hi, l: lo}
        assert F(str(forms["P(S>=1)"].subs(at))) == dist.at_least(1)
        assert F(str(forms["mean"].subs(at))) == dist.mean
        assert F(str(forms["P(S=max)"].subs(at))) == dist.probability(dist.maximum)
    assert forms["attempts_per_cycle_3_5"].subs({d: 8, m: 1}) == sympy.Rational(7, 2)


def test_custom_die_and_mixed_pool():
    coin = Die("coin", (0, 1))
    pool = Pool.of({coin: 2, HIGH: 1})
    assert pool.distribution().denominator == 24
    assert pool.distribution().probability(0) == F(1, 24)
    assert Pool.of({HIGH: 1, LOW: 2}) == Pool.attack(1, 2) == Pool.of([(LOW, 2), (HIGH, 1)])


def test_clamped_distribution_moves_negative_totals_to_zero():
    dist = (Pool.attack(1, 0).distribution() + -2).clamped(0)
    assert dist.pmf() == {0: F(5, 6), 1: F(1, 6)}


def test_recharge_die_is_a_parameter():
    assert RechargeDie(3, 2, 1).chances()["nothing"] == F(1, 6)
    with pytest.raises(RulesError) as info:
        RechargeDie(3, 3, 3)
    assert info.value.argument == "recharge_die"
    with pytest.raises(RulesError) as info:
        RechargeDie(-1, 4, 3)
    assert info.value.argument == "restore_health"


@pytest.mark.parametrize("high, low", [(0, 0), (-1, 2), (41, 0)])
def test_bad_pools_are_refused_naming_the_dice(high, low):
    with pytest.raises(RulesError) as info:
        Pool.attack(high, low)
    assert info.value.argument == "dice"


def test_importing_the_dice_does_not_import_sympy():
    import subprocess
    code = ("import sys; import machina_nb.rules.odds.dice, machina_nb.rules.odds.genfunc; "
            "print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_generating_functions_agree_with_the_fast_path_on_the_whole_hit_table():
    from machina_nb.rules.odds.attacks import hit_chance
    from machina_nb.rules.rulings import Rules
    for high, low in [(h, l) for h in range(7) for l in range(7) if h + l]:
        pool = Pool.attack(high, low)
        pmf = probabilities_from_generating_function(pool)
        for defense in range(10):
            for modifier in range(-3, 7):
                from_sympy = sum((p for s, p in pmf.items() if s + modifier >= defense), F(0))
                assert from_sympy == hit_chance(pool, defense, Rules(), modifier)
