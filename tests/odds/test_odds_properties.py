"""Invariants of the odds and processes under every reading (hypothesis)."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from machina_nb.rules.odds.attacks import blockers_outcome, hit_chance, kill_chance
from machina_nb.rules.odds.dice import Pool
from machina_nb.rules.odds.processes import ChapterRatings, Party, Setup, play_rounds
from machina_nb.rules.rulings import SWITCHES, Rules

PROCESS_SWITCHES = ["spawn.procedure", "rating.floor", "spawn10.reset_on_limit",
                    "spawn.limit_scope", "adjust35.when", "threat35.amount", "n35",
                    "spawn35.reset_on_success", "threat.levelup", "level5_rule",
                    "threat35.no_horror_rating"]
ATTACK_SWITCHES = ["roll.floor", "essence.multi_blocker"]


def rules_for(names):
    return st.fixed_dictionaries({n: st.sampled_from(SWITCHES[n].readings) for n in names}).map(
        Rules)


pools = st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(sum).map(
    lambda hl: Pool.attack(*hl))
ratings = st.one_of(st.none(), st.integers(1, 9))


@settings(max_examples=60, deadline=None)
@given(rules_for(PROCESS_SWITCHES), st.lists(st.tuples(ratings, ratings, st.booleans()),
                                             min_size=1, max_size=3),
       st.integers(1, 3), st.lists(st.booleans(), max_size=3), st.integers(1, 4),
       st.integers(2, 5), st.integers(1, 5))
def test_play_rounds_is_a_distribution_under_every_reading(rules, chapters, starting, full,
                                                           rounds, positions, level):
    setup = Setup(tuple(ChapterRatings(*c) for c in chapters),
                  Party(starting, full_tiles=tuple(full[:starting])),
                  threat_positions=positions, level=level)
    result = play_rounds(setup, rules, rounds)
    assert sum(result.values()) == 1 and all(p > 0 for p in result.values())
    assert all(1 <= s.level <= 5 for s in result)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.lists(st.booleans(), min_size=1, max_size=3), st.randoms(),
       st.integers(1, 3), st.sampled_from(["none", "one"]))
def test_roll_order_does_not_change_the_number_of_successes(default, full, rng, rounds,
                                                                    floor):
    rules = Rules({"rating.floor": floor})
    shuffled = list(full)
    rng.shuffle(shuffled)

    def successes(order):
        setup = Setup((ChapterRatings(default),), Party(len(order), full_tiles=tuple(order)))
        out = {}
        for s, p in play_rounds(setup, rules, rounds).items():
            out[s.spawned + s.threat_from_limit] = out.get(s.spawned + s.threat_from_limit, 0) + p
        return out

    assert successes(full) == successes(shuffled)


@settings(max_examples=100, deadline=None)
@given(pools, st.integers(0, 9), st.integers(-3, 3), st.integers(0, 4),
       rules_for(ATTACK_SWITCHES))
def test_one_blocker_outcome_is_the_hit_chance(pool, defense, modifier, essence, rules):
    outcome = blockers_outcome(pool, [defense], rules, modifier, essence)
    assert sum(outcome.values()) == 1
    assert outcome.get(frozenset({0}), F(0)) == hit_chance(pool, defense, rules, modifier, essence)


@settings(max_examples=60, deadline=None)
@given(pools, st.integers(0, 9), st.integers(1, 3), st.integers(1, 4), st.integers(0, 3),
       rules_for(ATTACK_SWITCHES))
def test_kill_chance_grows_with_essence_and_attacks(pool, defense, health, attacks, essence,
                                                    rules):
    p = kill_chance(pool, defense, health, attacks, rules, essence=essence)
    assert 0 <= p <= 1
    assert kill_chance(pool, defense, health, attacks, rules, essence=essence + 1) >= p
    assert kill_chance(pool, defense, health, attacks + 1, rules, essence=essence) >= p
    if attacks < health:
        assert p == 0
