"""Arkham LCG skill tests: exact answers against a brute force over every order of the bag.

The oracle shuffles nothing: it walks every permutation of the (distinguishable) tokens, each
equally likely, and reads the draw(s) from its front, so chains and draw-two-keep-one come out
of plain counting (Arkham summary, Skills and skill tests).
"""

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.errors import RulesError
from machina_nb.rules.peers import arkham
from machina_nb.rules.peers.arkham import Bag
from machina_nb.rules.rulings import Rules

READINGS = [
    {},
    {"arkham.reveal_another": "chain_marked"},
    {"arkham.draw": "best_of_two"},
    {"arkham.skill_floor": "zero"},
    {"arkham.reveal_another": "chain_marked", "arkham.draw": "best_of_two",
     "arkham.skill_floor": "zero"},
]


def _draw(bag, order, start, chain):
    """One draw (a chain when marked) read from ``order`` at ``start``: (failed, mod, next)."""
    failed, total, i = False, 0, start
    while True:
        token = order[i]
        value = bag.modifier(token)
        failed = failed or value is None
        total += value or 0
        i += 1
        if not (chain and str(token) in bag.reveals_another and i < len(order)):
            return failed, total, i


def brute_success(bag, skill, difficulty, rules, commit=0):
    chain = rules["arkham.reveal_another"] == "chain_marked"
    two = rules["arkham.draw"] == "best_of_two"
    wins = count = 0
    for order in permutations(bag.tokens):
        failed, total, nxt = _draw(bag, order, 0, chain)
        if two and nxt < len(order):
            f2, t2, _ = _draw(bag, order, nxt, chain)
            if failed or (not f2 and t2 > total):
                failed, total = f2, t2
        value = skill + commit + total
        if rules["arkham.skill_floor"] == "zero":
            value = max(0, value)
        wins += not failed and value >= difficulty
        count += 1
    return Fraction(wins, count)


NIGHT = "+1,0,0,-1,-1,-2,skull,auto_fail,elder_sign"


def test_summary_skill_test_worked_by_hand():
    bag = Bag.parse(NIGHT, values="skull=-2", elder_sign=1)
    # skill 3 vs 3: succeed on +1, 0, 0, elder sign (+1) -> 4 of 9
    assert arkham.success_chance(bag, 3, 3, Rules()) == Fraction(4, 9)
    # one icon: -1 twice more -> 6 of 9
    assert arkham.icon_gain(bag, 3, 3, Rules()) == Fraction(2, 9)
    odds = arkham.skill_test(bag, 3, 3, Rules())
    assert odds.auto_fail == Fraction(1, 9)
    assert "4/9 (44.4%)" in odds.explain() and "Skills and skill tests" in odds.explain()


def test_a_scenario_token_worth_zero_is_not_treated_as_missing():
    bag = Bag.parse("skull,cultist", values="skull=0,cultist=0")
    assert arkham.success_chance(bag, 2, 2, Rules()) == 1


@pytest.mark.parametrize("changes", READINGS)
@pytest.mark.parametrize("tokens, values, marked", [
    ("+1,0,-1,-2,auto_fail", "", ()),
    ("0,-1,cultist,skull,auto_fail,elder_sign", "cultist=-2,skull=0", ("cultist",)),
    ("-1,+1,cultist,tablet,elder_thing", "cultist=0,tablet=-3,elder_thing=1", ("cultist", "tablet")),
    ("-2,-2,cultist,auto_fail", "cultist=1", ("cultist", "-2")),
])
def test_every_reading_matches_the_brute_force_over_all_orders(changes, tokens, values, marked):
    rules = Rules().replace(changes)
    bag = Bag.parse(tokens, values=values, elder_sign=2, reveals_another=marked)
    for skill, difficulty in [(0, 0), (1, 1), (2, 3), (3, 2), (4, 6), (1, 0)]:
        for commit in (0, 1):
            expected = brute_success(bag, skill, difficulty, rules, commit)
            assert arkham.success_chance(bag, skill, difficulty, rules, commit) == expected


def test_readings_differ_where_the_prose_says():
    chained = Rules().replace({"arkham.reveal_another": "chain_marked"})
    bag = Bag.parse("-1,+1,cultist", values="cultist=0", reveals_another=["cultist"])
    assert arkham.success_chance(bag, 3, 3, Rules()) == Fraction(2, 3)
    assert arkham.success_chance(bag, 3, 3, chained) == Fraction(1, 2)
    two = Rules().replace({"arkham.draw": "best_of_two"})
    bag = Bag.parse("+1,auto_fail")
    assert arkham.success_chance(bag, 2, 3, Rules()) == Fraction(1, 2)
    assert arkham.success_chance(bag, 2, 3, two) == 1
    floor = Rules().replace({"arkham.skill_floor": "zero"})
    assert arkham.success_chance(Bag.parse("-3"), 1, 0, Rules()) == 0
    assert arkham.success_chance(Bag.parse("-3"), 1, 0, floor) == 1


def test_succeed_by_and_fail_by_and_the_three_tests():
    bag = Bag.parse("+1,0,-1,-2,auto_fail")
    # skill 3 vs 2: values 4, 3, 2, 1 and an auto-fail
    assert arkham.succeed_by(bag, 3, 2, 2, Rules()) == Fraction(1, 5)
    assert arkham.fail_by_at_most(bag, 3, 2, 1, Rules()) == Fraction(1, 5)
    assert arkham.fail_by_at_most(bag, 3, 5, 9, Rules()) == Fraction(4, 5)  # auto-fail apart
    assert arkham.fight(bag, 3, 2, Rules()).p_success == Fraction(3, 5)
    assert arkham.evade(bag, 3, 4, Rules()).p_success == Fraction(1, 5)
    assert arkham.investigate(bag, 3, 2, Rules(), commit=1).p_success == Fraction(4, 5)


def test_the_chance_with_chains_sums_to_one_over_margins_and_auto_fail():
    rules = Rules().replace({"arkham.reveal_another": "chain_marked"})
    bag = Bag.parse("0,-1,skull,skull,auto_fail", values="skull=-1", reveals_another=["skull"])
    odds = arkham.skill_test(bag, 2, 2, rules)
    assert odds.auto_fail + sum(p for _, p in odds.margins) == 1


@pytest.mark.parametrize("call, argument", [
    (lambda: Bag.parse("+1,banana"), "bag"),
    (lambda: Bag.parse(""), "bag"),
    (lambda: Bag.parse("+1,,0"), "bag"),
    (lambda: Bag.parse("skull"), "values"),
    (lambda: Bag.parse("elder_sign"), "elder-sign"),
    (lambda: Bag.parse("0", values="skull"), "values"),
    (lambda: Bag.parse("0", values="moon=1"), "values"),
    (lambda: Bag.parse(",".join(["0"] * 41)), "bag"),
    (lambda: arkham.success_chance(Bag.parse("0"), -1, 2, Rules()), "skill"),
    (lambda: arkham.success_chance(Bag.parse("0"), 1, 2, Rules(), commit=-1), "commit"),
])
def test_bad_input_names_the_argument(call, argument):
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.argument == argument


tokens = st.lists(st.one_of(st.integers(-4, 2), st.sampled_from(
    ["skull", "cultist", "auto_fail", "elder_sign"])), min_size=1, max_size=7)
any_rules = st.fixed_dictionaries({
    "arkham.reveal_another": st.sampled_from(["one_token", "chain_marked"]),
    "arkham.draw": st.sampled_from(["single", "best_of_two"]),
    "arkham.skill_floor": st.sampled_from(["none", "zero"]),
}).map(Rules().replace)


def _bag(tokens, marked):
    return Bag(tuple(tokens), (("skull", -1), ("cultist", -2)), 1,
               frozenset({"cultist"} if marked else set()))


@settings(max_examples=60, deadline=None)
@given(tokens, st.booleans(), any_rules, st.integers(0, 6), st.integers(0, 8), st.integers(0, 4))
def test_more_icons_never_lower_the_chance(tokens, marked, rules, skill, difficulty, commit):
    bag = _bag(tokens, marked)
    assert arkham.icon_gain(bag, skill, difficulty, rules, commit) >= 0


@settings(max_examples=60, deadline=None)
@given(tokens, st.booleans(), any_rules, st.integers(0, 6), st.integers(0, 8))
def test_auto_fail_caps_the_chance(tokens, marked, rules, skill, difficulty):
    bag = _bag(tokens, marked)
    odds = arkham.skill_test(bag, skill, difficulty, rules, commit=40)  # beats any chain
    assert odds.p_success == 1 - odds.auto_fail
    if "auto_fail" in tokens and rules["arkham.draw"] == "single":
        assert odds.p_success <= 1 - Fraction(tokens.count("auto_fail"), len(tokens))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(-3, 1), st.sampled_from(["skull", "auto_fail"])),
                min_size=1, max_size=6), st.booleans(), any_rules, st.integers(0, 5),
       st.integers(0, 6))
def test_hypothesis_against_the_brute_force(tokens, marked, rules, skill, difficulty):
    bag = Bag(tuple(tokens), (("skull", -1),), None,
              frozenset({"skull"} if marked else set()))
    assert arkham.success_chance(bag, skill, difficulty, rules) == \
        brute_success(bag, skill, difficulty, rules)
