"""The lumped chains of play_rounds against the slow joint chain they replaced, and their limits.

The reference oracle is the first implementation (one joint chain over every field,
kept in ``tests/reference_processes.py``); ``simulate_1_0`` in ``test_processes.py``
enumerates every roll for the 1.0 spawn chain.
"""

import re
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_processes import slow_play_rounds

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds import processes
from machina_nb.rules.odds.processes import (
    ChapterRatings,
    Party,
    RoundSummary,
    Setup,
    marginal,
    play_rounds,
    spawn_chain,
)
from machina_nb.rules.rulings import SWITCHES, Rules
from machina_nb.views.odds import ProcessesView

PROCESS_SWITCHES = ["spawn.procedure", "rating.floor", "spawn10.reset_on_limit",
                    "spawn.limit_scope", "adjust35.when", "threat35.amount", "n35",
                    "spawn35.reset_on_success", "threat.levelup", "level5_rule",
                    "threat35.no_horror_rating"]
FIELDS = ["chapter", "spawn_rating", "horror_rating", "threat", "level", "spawned",
          "threat_from_limit", "invoked", "level5_events", "first_level_up"]
MANUAL, V35 = Rules(), Rules.preset("v3_5")

every_reading = st.fixed_dictionaries(
    {n: st.sampled_from(SWITCHES[n].readings) for n in PROCESS_SWITCHES}).map(Rules)
ratings = st.one_of(st.none(), st.integers(1, 9))
overrides = st.one_of(st.none(), st.integers(-2, 9))


@st.composite
def setups(draw, max_starting=3):
    chapters = draw(st.lists(st.tuples(ratings, ratings, st.booleans()), min_size=1,
                             max_size=3))
    starting = draw(st.integers(1, max_starting))
    alive = draw(st.integers(0, starting))
    in_play = draw(st.integers(0, alive))
    full = draw(st.lists(st.booleans(), max_size=in_play))
    positions = draw(st.integers(2, 5))
    return Setup(tuple(ChapterRatings(*c) for c in chapters),
                 Party(starting, alive, in_play, tuple(full)),
                 threat_positions=positions, threat=draw(st.integers(1, positions)),
                 level=draw(st.integers(1, 5)), spawn=draw(overrides), horror=draw(overrides))


@settings(max_examples=150, deadline=None)
@given(every_reading, setups(), st.integers(1, 3))
def test_the_lumped_chains_equal_the_slow_joint_chain_under_every_reading(rules, setup, rounds):
    fast, slow = play_rounds(setup, rules, rounds), slow_play_rounds(setup, rules, rounds)
    assert len(fast) == len(slow)
    assert fast == slow and dict(fast.items()) == slow
    assert list(fast) == list(slow)  # the same order: by the summary's fields
    for field in FIELDS:
        assert marginal(fast, field) == marginal(slow, field)


@pytest.mark.parametrize("rules", [MANUAL, V35, MANUAL.replace({"rating.floor": "one"}),
                                   V35.replace({"spawn35.reset_on_success": "yes"}),
                                   V35.replace({"threat35.amount": "current_slider"})])
@pytest.mark.parametrize("explorers, rounds", [(4, 4), (2, 6)])
def test_longer_chains_equal_the_slow_joint_chain(rules, explorers, rounds):
    setup = Setup((ChapterRatings(6, 4, False), ChapterRatings(4, 3, True)), Party(explorers),
                  threat_positions=3)
    assert play_rounds(setup, rules, rounds) == slow_play_rounds(setup, rules, rounds)


def test_spawns_at_the_monster_limit_are_followed_jointly_and_exactly():
    setup = Setup((ChapterRatings(5, 4, True),), Party(3, full_tiles=(True, False, True)),
                  threat_positions=3)
    fast = play_rounds(setup, MANUAL, 3)
    assert len(fast._parts) == 1  # one joint chain: spawns raise threat here
    assert fast == slow_play_rounds(setup, MANUAL, 3)


def test_a_distribution_answers_like_the_dict_it_stands_for():
    setup = Setup((ChapterRatings(6, 5, True),), Party(2))
    fast, slow = play_rounds(setup, MANUAL, 2), slow_play_rounds(setup, MANUAL, 2)
    summary, p = next(iter(slow.items()))
    assert fast[summary] == p and summary in fast
    missing = RoundSummary(0, 6, 5, 1, 1, 99, 0, 0, 0, None)
    assert missing not in fast and "spawned" not in fast
    with pytest.raises(KeyError):
        fast[missing]
    assert sum(fast.values()) == 1
    assert repr(fast) == f"RoundDistribution({len(slow)} outcomes)"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([MANUAL, V35]), st.integers(1, 9), st.integers(1, 8), st.integers(1, 12))
def test_spawn_chain_is_a_distribution_and_grows_with_the_rounds(rules, default, rollers, rounds):
    """The first rounds' rolls are the same whatever follows, so one more round can only add
    spawns: P(at least k spawns) never falls (manual p13, 3.5 §Spawn Phase)."""
    shorter = spawn_chain(default, rollers, rounds, rules)
    longer = spawn_chain(default, rollers, rounds + 1, rules)
    assert sum(shorter.values()) == 1 == sum(longer.values())
    assert all(p > 0 for p in longer.values())
    for k in range(max(longer) + 1):
        assert sum(p for j, p in longer.items() if j >= k) >= \
            sum(p for j, p in shorter.items() if j >= k)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 7), st.integers(1, 6))
def test_1_0_more_explorers_roll_more_and_spawn_more(default, rollers, rounds):
    """In 1.0 the rating is shared and renewed per roll (manual p13): one explorer more is
    more rolls of the same chain, so the spawns grow stochastically."""
    fewer, more = (spawn_chain(default, m, rounds, MANUAL) for m in (rollers, rollers + 1))
    for k in range(max(more) + 1):
        assert sum(p for j, p in more.items() if j >= k) >= \
            sum(p for j, p in fewer.items() if j >= k)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 15), st.sampled_from(["on_reach",
                                                                "on_increase_from_last"]))
def test_manual_p14_invokes_and_the_level_only_grow_with_the_rounds(horror, rounds, levelup):
    rules = MANUAL.replace({"threat.levelup": levelup})
    setup = Setup((ChapterRatings(None, horror, True),), Party(1, full_tiles=()))
    before, after = play_rounds(setup, rules, rounds), play_rounds(setup, rules, rounds + 1)
    for field in ("invoked", "level"):
        a, b = marginal(before, field), marginal(after, field)
        for k in range(max(b) + 1):
            assert sum(p for j, p in b.items() if j >= k) >= \
                sum(p for j, p in a.items() if j >= k)
    # The chance that the level has risen by now never falls either.
    rose = [1 - marginal(d, "first_level_up").get(None, 0) for d in (before, after)]
    assert rose[1] >= rose[0]


def test_the_4_explorer_20_round_view_question_is_answered_by_the_parts():
    setup = Setup((ChapterRatings(6, 5, True),), Party(4))
    result = play_rounds(setup, MANUAL, 20)
    spawned = marginal(result, "spawned")
    assert sum(spawned.values()) == 1
    assert sum(k * p for k, p in spawned.items()) == sum(
        k * p for k, p in spawn_chain(6, 4, 20, MANUAL).items())
    assert sum(marginal(result, "invoked").values()) == 1


@pytest.mark.parametrize("call, limit", [
    (lambda: spawn_chain(9, 8, 200, MANUAL), "MAX_ROUNDS"),
    (lambda: spawn_chain(9, 8, 51, MANUAL), "MAX_SPAWN_ROLLS"),
    (lambda: play_rounds(Setup((ChapterRatings(5, 5),), Party(1)), MANUAL, 61), "MAX_HORROR_ROUNDS"),
    (lambda: play_rounds(Setup((ChapterRatings(5, 5),), Party(4, full_tiles=(True,) * 4)), MANUAL, 20),
     "MAX_JOINT_SIZE"),
    (lambda: play_rounds(Setup((ChapterRatings(5, 5),), Party(4)),
                         V35.replace({"spawn35.reset_on_success": "yes"}), 30), "MAX_JOINT_SIZE"),
    (lambda: list(play_rounds(Setup((ChapterRatings(9, 9),), Party(4)), MANUAL, 30)), "MAX_OUTCOMES"),
])
def test_work_past_a_documented_limit_is_refused_naming_it_and_the_rounds(call, limit):
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.argument == "rounds" and limit in str(info.value)


def test_the_joint_limit_says_how_many_rounds_fit_and_that_many_are_answered():
    setup = Setup((ChapterRatings(5, 5),), Party(4, full_tiles=(True,) * 4))
    with pytest.raises(RulesError) as info:
        play_rounds(setup, MANUAL, 20)
    most = int(re.search(r"at most (\d+) rounds", str(info.value)).group(1))
    size = lambda rounds: processes.round_chain._joint_size(processes.round_chain._Chain(setup, MANUAL), rounds)  # noqa
    assert size(most) <= processes.MAX_JOINT_SIZE < size(most + 1)
    assert sum(play_rounds(setup, MANUAL, 2).values()) == 1


def test_a_long_spawn_chain_keeps_its_extremes_exact():
    result = spawn_chain(9, 8, 20, MANUAL)
    assert sum(result.values()) == 1
    # A rating of 9 falls to 0 after nine misses, where the roll cannot fail (manual p13).
    assert min(result) == 16
    assert result[160] == F(1, 10 ** 160)


def test_the_processes_view_goes_to_the_chains_own_limit():
    view = ProcessesView(rating=6, horror=5, explorers=4, rounds=5)
    assert view.rounds.max == processes.MAX_HORROR_ROUNDS > 10
    view.rounds.value = 20
    assert "After 20 round(s)" in view.summary.value
    assert abs(sum(view.sources["spawned"].data["left"]) - 1) < 1e-9
