"""Attack odds (manual p24, p18-19, p26, p36-37), with independent oracles."""

import itertools
from collections import Counter
from fractions import Fraction as F
from functools import cache

import pytest

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.attacks import (
    attack_odds,
    barrel_chain_hit_chance,
    barrel_explosion,
    barrel_hit_chance,
    blockers_outcome,
    effect_roll_chance,
    expected_hits,
    final_total,
    hit_chance,
    kill_chance,
    trap_damage,
)
from machina_nb.rules.odds.dice import HIGH, LOW, Die, Pool
from machina_nb.rules.rulings import Rules

RULES = Rules()
MI_GO = Pool.attack(high=1, low=1)
ALWAYS_ONE = Pool.of({Die("one", (1,)): 1})
ALWAYS_TWO = Pool.of({Die("two", (2,)): 1})


def test_manual_p24_mi_go_example():
    assert [hit_chance(MI_GO, 3, RULES, essence=e) for e in range(4)] == \
        [F(5, 9), F(5, 6), F(35, 36), F(1)]
    assert MI_GO.distribution().probability(3) == F(11, 36)


def test_expected_essence_follows_the_formula():
    dist = MI_GO.distribution()
    for defense, modifier, essence in itertools.product(range(10), range(-2, 3), range(5)):
        expected = sum(((defense - modifier - s) * dist.probability(s)
                        for s in range(defense - modifier - essence, defense - modifier)), F(0))
        odds = attack_odds(MI_GO, defense, RULES, modifier, essence)
        assert odds.expected_spent == expected
        assert odds.hit == hit_chance(MI_GO, defense, RULES, modifier, essence)
        assert sum(odds.spent.values()) == 1


def test_essence_policy_spends_the_least_needed():
    odds = attack_odds(MI_GO, 3, RULES, essence=2)
    assert odds.spent == {0: F(5, 9) + F(1, 36), 1: F(5, 18), 2: F(5, 36)}


@pytest.mark.parametrize("reading, expected", [("none", F(5, 6)), ("clamp0", F(1))])
def test_roll_floor_against_zero_defence(reading, expected):
    rules = RULES.replace({"roll.floor": reading})
    assert hit_chance(Pool.attack(high=1), 0, rules, modifier=-1) == expected
    assert attack_odds(Pool.attack(high=1), 0, rules, modifier=-1).hit == expected
    # A barrel needs a final total of 1 under both readings.
    assert barrel_hit_chance(Pool.attack(high=1), rules, modifier=-1) == F(1, 2)


def test_clamp_applies_after_essence():
    rules = RULES.replace({"roll.floor": "clamp0"})
    # S - 3 is negative on every roll of one low die; one essence never reaches armor 1.
    assert hit_chance(Pool.attack(low=1), 1, rules, modifier=-3, essence=1) == 0
    assert final_total(Pool.attack(low=1), rules, modifier=-3).pmf() == {0: F(1)}


def test_barrel_hit_and_explosion():
    assert barrel_hit_chance(Pool.attack(low=1), RULES) == F(5, 6)
    assert barrel_hit_chance(Pool.attack(1, 1), RULES) == F(35, 36)
    three_high = [hit_chance(Pool.attack(high=3), a, RULES) for a in range(1, 10)]
    assert three_high == [F(x) for x in
                          ["215/216", "209/216", "191/216", "13/18", "1/2", "5/18", "25/216", "7/216", "1/216"]]
    outcome = barrel_explosion([2, 5], RULES)
    assert outcome[frozenset({0, 1})] == F(1, 2)


@pytest.mark.parametrize("reading, expected", [
    ("yes_new_roll", F(215, 216) * F(191, 216)),
    ("yes_same_roll", F(191, 216)),
    ("no", F(0)),
])
def test_barrel_chain_readings(reading, expected):
    rules = RULES.replace({"barrel.chain": reading})
    assert barrel_chain_hit_chance(3, 2, rules) == expected
    assert barrel_chain_hit_chance(3, 1, rules) == F(191, 216)


def brute_force_joint(high, low, defenses, modifier=0):
    faces = [HIGH.faces] * high + [LOW.faces] * low
    counts = Counter(frozenset(i for i, a in enumerate(defenses) if sum(r) + modifier >= a)
                     for r in itertools.product(*faces))
    total = 6 ** (high + low)
    return {k: F(v, total) for k, v in counts.items()}


def test_one_roll_several_blockers_is_correlated():
    defenses = [2, 3, 5, 3]
    outcome = blockers_outcome(Pool.attack(3), defenses, RULES)
    assert outcome == brute_force_joint(3, 0, defenses)
    for i, a in enumerate(defenses):
        assert sum(p for hit, p in outcome.items() if i in hit) == hit_chance(
            Pool.attack(3), a, RULES)
    assert expected_hits(outcome) == sum(hit_chance(Pool.attack(3), a, RULES) for a in defenses)
    # Perfect correlation: the two armor-3 blockers are always hit together.
    assert all((1 in hit) == (3 in hit) for hit in outcome)


@pytest.mark.parametrize("reading, expected", [
    ("shared_total", {frozenset({0, 1}): F(1)}),
    ("per_blocker", {frozenset({0}): F(1)}),
])
def test_essence_with_several_blockers(reading, expected):
    rules = RULES.replace({"essence.multi_blocker": reading})
    assert blockers_outcome(ALWAYS_ONE, [2, 2], rules, essence=1) == expected
    # The worked situation (total 2 vs armor 2 and 3, spend 1) hits both either way.
    assert blockers_outcome(ALWAYS_TWO, [2, 3], rules, essence=1) == {frozenset({0, 1}): F(1)}


def test_per_blocker_spends_on_the_cheapest_first():
    rules = RULES.replace({"essence.multi_blocker": "per_blocker"})
    assert blockers_outcome(ALWAYS_ONE, [4, 2, 3], rules, essence=3) == {frozenset({1, 2}): F(1)}
    shared = blockers_outcome(ALWAYS_ONE, [4, 2, 3], RULES, essence=3)
    assert shared == {frozenset({0, 1, 2}): F(1)}


E4 = {
    2: [F(25, 81), F(50, 81), F(275, 324), F(155, 162)],
    3: [F(425, 729), F(2525, 2916), F(11275, 11664), F(7735, 7776)],
}


@pytest.mark.parametrize("attacks", sorted(E4))
def test_manual_p24_mi_go_kill_table(attacks):
    assert [kill_chance(MI_GO, 3, 2, attacks, RULES, essence=e) for e in range(4)] == E4[attacks]


def reference_kill(pool, defense, health, attacks, modifier, essence):
    """The kill-chance recursion over health, attacks and essence, written literally with Fractions (slow reference)."""
    pmf = pool.distribution().pmf()

    @cache
    def value(k, need, e):
        if need <= 0:
            return F(1)
        if k == 0:
            return F(0)
        total = F(0)
        for s, p in pmf.items():
            best = value(k - 1, need, e)
            cost = max(0, defense - modifier - s)
            if cost <= e:
                best = max(best, value(k - 1, need - 1, e - cost))
            total += p * best
        return total

    return value(attacks, health, essence)


@pytest.mark.parametrize("pool, defense, modifier", [
    (Pool.attack(1, 1), 3, 0), (Pool.attack(2, 0), 4, 1), (Pool.attack(0, 2), 5, -1),
])
def test_kill_dynamic_programme_matches_the_literal_recursion(pool, defense, modifier):
    for health, attacks, essence in itertools.product(range(1, 4), range(1, 4), range(4)):
        assert kill_chance(pool, defense, health, attacks, RULES, modifier, essence) == \
            reference_kill(pool, defense, health, attacks, modifier, essence)


def test_without_essence_is_binomial():
    p = hit_chance(MI_GO, 3, RULES)
    for health in range(1, 5):
        for k in range(1, 7):
            binomial = sum(F(__import__("math").comb(k, j)) * p ** j * (1 - p) ** (k - j)
                           for j in range(health, k + 1))
            assert kill_chance(MI_GO, 3, health, k, RULES) == binomial


@pytest.mark.parametrize("x, expected", [(0, F(1)), (7, F(3, 10)), (10, F(0))])
def test_manual_p26_effect_roll(x, expected):
    assert effect_roll_chance(x) == expected


def test_secondary_trap_odds():
    three_low = [hit_chance(Pool.attack(low=3), a, RULES) for a in range(1, 7)]
    assert three_low == [F(215, 216), F(103, 108), F(173, 216), F(55, 108), F(11, 54), F(1, 27)]


@pytest.mark.parametrize("reading, rolls_on_tile, rolls_elsewhere_only, rolls_off_activating", [
    ("per_explorer_own_tile", 2, 0, 2),
    ("once_activating_tile", 1, 1, 0),
    ("once_all_tiles", 1, 1, 1),
    ("none", 0, 0, 0),
])
def test_manual_p37_trap_secondary_readings(reading, rolls_on_tile, rolls_elsewhere_only,
                                                     rolls_off_activating):
    rules = RULES.replace({"traps.secondary": reading})
    p1, p2 = hit_chance(Pool.attack(3), 4, RULES), hit_chance(Pool.attack(low=3), 4, RULES)

    def expected_loss(secondary):
        return p1 + secondary * p2

    def mean(loss):
        return sum(k * p for k, p in loss.items())

    assert mean(trap_damage(4, rules, qualifying_on_tile=2)) == expected_loss(rolls_on_tile)
    assert mean(trap_damage(4, rules, qualifying_elsewhere=1)) == expected_loss(
        rolls_elsewhere_only)
    assert mean(trap_damage(4, rules, qualifying_on_tile=2, on_activating_tile=False)) == \
        expected_loss(rolls_off_activating)


def test_hit_by_both_loses_two():
    loss = trap_damage(3, Rules.preset("v3_5"), qualifying_on_tile=1)
    assert loss[2] == F(191, 216) * F(173, 216)
    assert sum(loss.values()) == 1


@pytest.mark.parametrize("call, argument", [
    (lambda: hit_chance(MI_GO, 12, RULES), "defense"),
    (lambda: hit_chance(MI_GO, -1, RULES), "defense"),
    (lambda: hit_chance(MI_GO, 3, RULES, essence=-1), "essence"),
    (lambda: hit_chance(MI_GO, 3, RULES, modifier=0.5), "modifier"),
    (lambda: hit_chance("1H1L", 3, RULES), "pool"),
    (lambda: kill_chance(MI_GO, 3, 0, 2, RULES), "health"),
    (lambda: kill_chance(MI_GO, 3, 2, 0, RULES), "attacks"),
    (lambda: blockers_outcome(MI_GO, [], RULES), "defenses"),
    (lambda: blockers_outcome(MI_GO, [3, 10], RULES), "defenses"),
    (lambda: effect_roll_chance(11), "threshold"),
    (lambda: barrel_chain_hit_chance(3, 0, RULES), "barrels"),
    (lambda: trap_damage(3, RULES, qualifying_on_tile=-1), "qualifying_on_tile"),
])
def test_bad_arguments_are_refused_naming_them(call, argument):
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.argument == argument


def test_icepool_agrees_on_the_whole_hit_table():
    import icepool
    high, low = icepool.Die(HIGH.faces), icepool.Die(LOW.faces)
    checked = 0
    for h in range(7):
        for l in range(7):
            if h + l == 0:
                continue
            die = (h @ high if h else icepool.Die([0])) + (l @ low if l else icepool.Die([0]))
            pool = Pool.attack(h, l)
            for defense in range(10):
                for modifier in range(-3, 7):
                    theirs = (die + modifier).probability(">=", defense)
                    assert hit_chance(pool, defense, RULES, modifier) == theirs
                    checked += 1
    assert checked == 4800


def test_explorer_survival_counts_essence_as_health():
    from machina_nb.rules.odds.attacks import survival_chance
    monster = Pool.attack(2, 0)
    assert survival_chance(monster, 3, 2, 1, 4, RULES) == 1 - kill_chance(monster, 3, 3, 4, RULES)
    assert survival_chance(monster, 3, 1, 0, 1, RULES) == 1 - hit_chance(monster, 3, RULES)


def test_stacking_lasting_boost():
    from machina_nb.rules.odds.attacks import LastingBoost
    one_low = Pool.attack(low=1)
    # Hit armor 2 with 1L (1/3); the stack then makes the second roll need only 1 (5/6).
    boost = LastingBoost(max_stacks=1)
    assert kill_chance(one_low, 2, 2, 2, RULES, boost=boost) == F(1, 3) * F(5, 6)
    assert kill_chance(one_low, 2, 2, 2, RULES) == F(1, 9)
    # No free marker, or no room for a stack: the plain binomial.
    assert kill_chance(one_low, 2, 2, 2, RULES, boost=LastingBoost(1, free_markers=0)) == F(1, 9)
    assert kill_chance(MI_GO, 3, 2, 3, RULES, essence=2, boost=LastingBoost(0)) == F(11275, 11664)
    # A stack already on from an earlier attack this round counts from the first roll.
    assert kill_chance(one_low, 2, 1, 1, RULES, boost=LastingBoost(2, stacks=1)) == F(5, 6)


def reference_kill_with_stacks(pool, defense, health, attacks, essence, max_stacks, markers):
    """The extended recursion of the attack odds, literally, with Fractions."""
    pmf = pool.distribution().pmf()

    @cache
    def value(k, need, e, stacks, free):
        if need <= 0:
            return F(1)
        if k == 0:
            return F(0)
        grow = free > 0 and stacks < max_stacks
        nxt = (stacks + 1, free - 1) if grow else (stacks, free)
        total = F(0)
        for s, p in pmf.items():
            best = value(k - 1, need, e, stacks, free)
            cost = max(0, defense - s - stacks)
            if cost <= e:
                best = max(best, value(k - 1, need - 1, e - cost, *nxt))
            total += p * best
        return total

    return value(attacks, health, essence, 0, markers)


def test_stacking_dynamic_programme_matches_the_literal_recursion():
    from machina_nb.rules.odds.attacks import LastingBoost
    for max_stacks, markers, essence in itertools.product(range(3), range(3), range(3)):
        for health, attacks in [(2, 3), (3, 4), (1, 2)]:
            boost = LastingBoost(max_stacks, free_markers=markers)
            assert kill_chance(MI_GO, 4, health, attacks, RULES, essence=essence, boost=boost) == \
                reference_kill_with_stacks(MI_GO, 4, health, attacks, essence, max_stacks, markers)
