"""Spawn, horror, threat and level processes (manual p13-14, 3.5 §Spawn Phase)."""

import itertools
import math
from collections import Counter
from fractions import Fraction as F

import pytest

from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.processes import (
    ChapterRatings,
    Party,
    Setup,
    adjusted_spawn_rating,
    countdown_cycle,
    event_space_roll,
    long_run_invokes,
    long_run_spawn_attempts,
    lower_threat,
    marginal,
    play_rounds,
    raise_threat,
    renewal_mean,
    renewal_pmf,
    roll_chance,
    round_report,
    spawn_chain,
)
from machina_nb.rules.rulings import Rules

MANUAL, V35 = Rules(), Rules.preset("v3_5")


def fr(text):
    return [F(x) for x in text.replace(",", " ").split()]


E10 = {
    1: ("9/10, 1/10", "11/10", 0.9091),
    2: ("4/5, 9/50, 1/50", "61/50", 0.8197),
    3: ("7/10, 6/25, 27/500, 3/500", "683/500", 0.7321),
    4: ("3/5, 7/25, 12/125, 27/1250, 3/1250", "1933/1250", 0.6467),
    5: ("1/2, 3/10, 7/50, 6/125, 27/2500, 3/2500", "4433/2500", 0.5640),
    6: ("2/5, 3/10, 9/50, 21/250, 18/625, 81/12500, 9/12500", "25799/12500", 0.4845),
    7: ("3/10, 7/25, 21/100, 63/500, 147/2500, 63/3125, 567/125000, 63/125000",
        "305593/125000", 0.4090),
    8: ("1/5, 6/25, 28/125, 21/125, 63/625, 147/3125, 252/15625, 567/156250, 63/156250",
        "461843/156250", 0.3383),
    9: ("1/10, 9/50, 27/125, 126/625, 189/1250, 567/6250, 1323/31250, 1134/78125, "
        "5103/1562500, 567/1562500", "5719087/1562500", 0.2732),
}


@pytest.mark.parametrize("d", sorted(E10))
def test_manual_p14_horror_renewal_table(d):
    pmf, mean, rate = E10[d]
    assert list(renewal_pmf(d, MANUAL).values()) == fr(pmf)
    assert list(renewal_pmf(d, MANUAL)) == list(range(1, len(fr(pmf)) + 1))
    assert renewal_mean(d, MANUAL) == F(mean)
    assert round(float(long_run_invokes(d, MANUAL)), 4) == rate


def test_closed_formula_for_the_wait():
    for d in range(1, 10):
        for t, p in renewal_pmf(d, MANUAL).items():
            formula = math.prod((1 - roll_chance(d - j) for j in range(t - 1)), start=F(1))
            assert p == formula * roll_chance(d - t + 1)


def test_manual_p14_illustration_current_horror_3():
    setup = Setup((ChapterRatings(horror_rating=4),), Party(1, full_tiles=()), horror=3)
    assert marginal(play_rounds(setup, MANUAL, 1), "invoked") == {0: F(3, 10), 1: F(7, 10)}


E8 = """2 0.8197/0.8182 1.6393/1.6364 2.4590/2.4545 3.2787/3.2727
3 0.7321/0.7317 1.4641/1.4634 2.1962/2.1951 2.9283/2.9268
4 0.6467/0.6466 1.2933/1.2931 1.9400/1.9397 2.5867/2.5862
5 0.5640/0.5639 1.1279/1.1278 1.6919/1.6917 2.2558/2.2556
6 0.4845/0.4845 0.9690/0.9690 1.4535/1.4535 1.9381/1.9380
7 0.4090/0.4090 0.8181/0.8181 1.2271/1.2271 1.6362/1.6361
8 0.3383/0.3383 0.6766/0.6766 1.0150/1.0149 1.3533/1.3533
9 0.2732/0.2732 0.5464/0.5464 0.8196/0.8196 1.0928/1.0928"""


@pytest.mark.parametrize("row", E8.splitlines())
def test_manual_p13_long_run_spawns_both_floors(row):
    d, *cells = row.split()
    floor_one = MANUAL.replace({"rating.floor": "one"})
    for m, cell in enumerate(cells, start=1):
        none, one = (float(x) for x in cell.split("/"))
        assert round(float(long_run_spawn_attempts(int(d), m, MANUAL)), 4) == none
        assert round(float(long_run_spawn_attempts(int(d), m, floor_one)), 4) == one


def simulate_1_0(default, rollers, rounds, start=None, floor="none"):
    """Every d10 sequence, played out literally (the manual p13 procedure): spawns -> chance."""
    counts = Counter()
    n_rolls = rollers * rounds
    for rolls in itertools.product(range(10), repeat=n_rolls):
        r, spawned = default if start is None else start, 0
        for u in rolls:
            if u >= r:
                spawned += 1
                r = default
            else:
                r = max(1, r - 1) if floor == "one" else r - 1
        counts[spawned] += 1
    return {k: F(v, 10 ** n_rolls) for k, v in sorted(counts.items())}


@pytest.mark.parametrize("default, rollers, rounds, floor", [
    (2, 2, 2, "none"), (3, 1, 4, "none"), (2, 3, 1, "one"), (5, 2, 2, "one"), (1, 2, 2, "none"),
])
def test_spawn_chain_matches_enumerating_every_roll(default, rollers, rounds, floor):
    rules = MANUAL.replace({"rating.floor": floor})
    assert spawn_chain(default, rollers, rounds, rules) == \
        simulate_1_0(default, rollers, rounds, floor=floor)


def test_exact_long_run_is_reached_by_the_chain():
    # From the stationary start the mean per round stays m / E[T]; from a reset it tends to it.
    chain = spawn_chain(4, 2, 60, MANUAL)
    mean = sum(k * p for k, p in chain.items()) / 60
    assert abs(float(mean - long_run_spawn_attempts(4, 2, MANUAL))) < 0.01


FAQ = {8: [8, 7, 6, 5], 4: [4, 3, 3, 3], 2: [2, 2, 2, 2]}


@pytest.mark.parametrize("d", sorted(FAQ))
def test_3_5_faq_spawn_rating_numbers(d):
    assert [adjusted_spawn_rating(d, n) for n in range(1, 5)] == FAQ[d]


@pytest.mark.parametrize("d", sorted(FAQ))
def test_3_5_faq_numbers_come_out_of_the_process(d):
    for n, expected in zip(range(1, 5), FAQ[d]):
        setup = Setup((ChapterRatings(spawn_rating=d),), Party(n))
        spawned = marginal(play_rounds(setup, V35, 1), "spawned")
        q = roll_chance(expected)
        assert spawned == {k: math.comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(n + 1)
                           if q ** k * (1 - q) ** (n - k)}
        assert marginal(play_rounds(setup, V35, 1), "spawn_rating") == {expected - 1: 1}


def test_adjustment_formula_for_every_rating():
    for d, n in itertools.product(range(1, 10), range(1, 5)):
        assert adjusted_spawn_rating(d, n) == (d if d <= 3 else max(3, d - (n - 1)))


E9 = """2 | 2,1,4/5,0.80 | 2,1,8/5,1.60 | 2,1,12/5,2.40 | 2,1,16/5,3.20
3 | 3,2,3/2,0.75 | 3,2,3,1.50 | 3,2,9/2,2.25 | 3,2,6,3.00
4 | 4,3,21/10,0.70 | 3,2,3,1.50 | 3,2,9/2,2.25 | 3,2,6,3.00
5 | 5,4,13/5,0.65 | 4,3,21/5,1.40 | 3,2,9/2,2.25 | 3,2,6,3.00
6 | 6,5,3,0.60 | 5,4,26/5,1.30 | 4,3,63/10,2.10 | 3,2,6,3.00
7 | 7,6,33/10,0.55 | 6,5,6,1.20 | 5,4,39/5,1.95 | 4,3,42/5,2.80
8 | 8,7,7/2,0.50 | 7,6,33/5,1.10 | 6,5,9,1.80 | 5,4,52/5,2.60
9 | 9,8,18/5,0.45 | 8,7,7,1.00 | 7,6,99/10,1.65 | 6,5,12,2.40"""


@pytest.mark.parametrize("row", E9.splitlines())
def test_3_5_countdown_cycle_table(row):
    d, *cells = (c.strip() for c in row.split("|"))
    for n, cell in enumerate(cells, start=1):
        reset, rounds, attempts, per_round = cell.split(",")
        cycle = countdown_cycle(int(d), n)
        assert (cycle.reset, cycle.rounds, cycle.attempts) == (int(reset), int(rounds),
                                                               F(attempts))
        assert round(float(cycle.per_round), 2) == float(per_round)
        assert long_run_spawn_attempts(int(d), n, V35) == cycle.per_round


@pytest.mark.parametrize("d, n", [(6, 2), (9, 4), (3, 1), (8, 3)])
def test_whole_cycles_of_the_process_give_the_cycle_mean(d, n):
    cycle = countdown_cycle(d, n)
    setup = Setup((ChapterRatings(spawn_rating=d, blocking=True),), Party(n))
    result = marginal(play_rounds(setup, V35, 2 * cycle.rounds), "spawned")
    assert sum(k * p for k, p in result.items()) == 2 * cycle.attempts


def test_reset_at_one_is_flagged_and_drifts_negative():
    with pytest.raises(RulesError):
        countdown_cycle(1, 1)
    setup = Setup((ChapterRatings(spawn_rating=1, blocking=True),), Party(1))
    assert marginal(play_rounds(setup, V35, 3), "spawn_rating") == {-2: 1}


def test_3_5_timer_advances_a_non_blocking_chapter_and_resets_both_sliders():
    setup = Setup((ChapterRatings(spawn_rating=2, horror_rating=3),
                   ChapterRatings(spawn_rating=5, horror_rating=4)),
                  Party(1), threat_positions=10)
    after = play_rounds(setup, V35, 2)
    assert marginal(after, "chapter") == {1: 1}
    assert marginal(after, "spawn_rating") == {4: 1}
    # Threat: +3 from the timer (printed horror 3), plus round 1 and round 2 horror rolls.
    assert min(marginal(after, "threat")) == 4
    past_last = play_rounds(Setup((ChapterRatings(spawn_rating=2),), Party(1)), V35, 4)
    assert marginal(past_last, "chapter") == {1: 1}
    assert marginal(past_last, "spawn_rating") == {None: 1}


@pytest.mark.parametrize("reading, spawn_ratings", [
    ("every_reset", [4, 3, 2, 1, 4]),
    ("rating1_only", [7, 6, 5, 4, 3]),
    ("every_phase_start", [4, 2, 1, 4, 2]),
])
def test_3_5_when_the_adjustment_applies(reading, spawn_ratings):
    rules = V35.replace({"adjust35.when": reading})
    setup = Setup((ChapterRatings(spawn_rating=8, blocking=True),), Party(4))
    for rounds, expected in enumerate(spawn_ratings, start=1):
        assert marginal(play_rounds(setup, rules, rounds), "spawn_rating") == {expected: 1}
    if reading == "rating1_only":
        # 8 counts down to 1 in seven rounds; the blocking reset then adjusts it to 5.
        assert marginal(play_rounds(setup, rules, 8), "spawn_rating") == {4: 1}


@pytest.mark.parametrize("reading, threat", [
    ("default_printed", {5: F(1, 5), 6: F(4, 5)}),
    ("current_slider", {3: F(1, 5), 4: F(4, 5)}),
])
def test_3_5_threat_amount_when_the_timer_fires(reading, threat):
    rules = V35.replace({"threat35.amount": reading})
    setup = Setup((ChapterRatings(spawn_rating=4, horror_rating=4, blocking=True),),
                  Party(1, full_tiles=()), threat_positions=10, spawn=1, horror=2)
    assert marginal(play_rounds(setup, rules, 1), "threat") == threat


@pytest.mark.parametrize("reading, chapter, rating", [("zero", 1, 2), ("skip_rule", 0, 0)])
def test_3_5_a_chapter_with_no_horror_rating(reading, chapter, rating):
    """Rating 2 counts down to 1 in round 1; round 2's timer advances the chapter (``zero``:
    +0 threat) or is skipped (``skip_rule``: the rating falls on to 0)."""
    rules = V35.replace({"threat35.no_horror_rating": reading})
    setup = Setup((ChapterRatings(spawn_rating=2), ChapterRatings(spawn_rating=3)),
                  Party(1, full_tiles=()))
    after = play_rounds(setup, rules, 2)
    assert marginal(after, "chapter") == {chapter: 1}
    assert marginal(after, "spawn_rating") == {rating: 1}


@pytest.mark.parametrize("reading, first_rating", [
    ("alive_explorers", 7), ("starting_explorers", 6), ("explorers_in_play", 8),
])
def test_3_5_which_explorers_count(reading, first_rating):
    rules = V35.replace({"n35": reading})
    setup = Setup((ChapterRatings(spawn_rating=8),), Party(3, alive=2, in_play=1))
    assert marginal(play_rounds(setup, rules, 1), "spawn_rating") == {first_rating - 1: 1}


@pytest.mark.parametrize("reading, ratings", [
    ("no", {4: F(1)}),
    ("yes", {4: F(1, 2), 7: F(1, 2)}),
])
def test_3_5_reset_on_success(reading, ratings):
    rules = V35.replace({"spawn35.reset_on_success": reading})
    setup = Setup((ChapterRatings(spawn_rating=8),), Party(1), spawn=5)
    assert marginal(play_rounds(setup, rules, 1), "spawn_rating") == ratings


@pytest.mark.parametrize("reading, ratings", [
    ("yes", {6: F(7, 10), 2: F(3, 10)}),
    ("no", {3: F(7, 10), 2: F(3, 10)}),
])
def test_manual_p13_reset_at_the_monster_limit(reading, ratings):
    rules = MANUAL.replace({"spawn10.reset_on_limit": reading})
    setup = Setup((ChapterRatings(spawn_rating=6),), Party(1, full_tiles=(True,)), spawn=3)
    after = play_rounds(setup, rules, 1)
    assert marginal(after, "spawn_rating") == ratings
    assert marginal(after, "threat_from_limit") == {0: F(3, 10), 1: F(7, 10)}
    assert marginal(after, "spawned") == {0: 1}


@pytest.mark.parametrize("reading, spawned", [
    ("all_spawns", {0: F(1)}), ("phase_only", {0: F(1)}), ("none", {0: F(3, 10), 1: F(7, 10)}),
])
def test_monster_limit_scope_in_the_phase(reading, spawned):
    rules = MANUAL.replace({"spawn.limit_scope": reading})
    setup = Setup((ChapterRatings(spawn_rating=6),), Party(1, full_tiles=(True,)), spawn=3)
    assert marginal(play_rounds(setup, rules, 1), "spawned") == spawned


def test_manual_p13_roll_order_moves_spawns_not_successes():
    def run(full_tiles):
        setup = Setup((ChapterRatings(spawn_rating=6),), Party(2, full_tiles=full_tiles), spawn=3)
        return play_rounds(setup, MANUAL, 1)

    a_first, b_first = run((True, False)), run((False, True))
    successes = [Counter() for _ in range(2)]
    for counter, dist in zip(successes, (a_first, b_first)):
        for s, p in dist.items():
            counter[s.spawned + s.threat_from_limit] += p
    assert successes[0] == successes[1]
    assert marginal(a_first, "spawned") != marginal(b_first, "spawned")
    # Order A, B: A succeeds (7/10), resets to 6, and B then spawns with 4/10.
    assert marginal(a_first, "spawned")[1] == F(7, 10) * F(4, 10) + F(3, 10) * F(8, 10)


@pytest.mark.parametrize("reading, third_roll_fails", [("none", F(0)), ("one", F(1, 500))])
def test_manual_p13_rating_floor(reading, third_roll_fails):
    rules = MANUAL.replace({"rating.floor": reading})
    setup = Setup((ChapterRatings(spawn_rating=2),), Party(3))
    assert marginal(play_rounds(setup, rules, 1), "spawned").get(0, 0) == third_roll_fails


@pytest.mark.parametrize("reading, increments_to_level_up", [
    ("on_reach", 4), ("on_increase_from_last", 5),
])
def test_manual_p14_3_5_level_up_trigger(reading, increments_to_level_up):
    rules = MANUAL.replace({"threat.levelup": reading})
    threat, level, steps = 1, 1, 0
    while level == 1:
        threat, level, _ = raise_threat(threat, level, rules, positions=5)
        steps += 1
    assert (steps, threat, level) == (increments_to_level_up, 1, 2)


def test_manual_p14_level_up_round_in_the_process_differs_by_ruleset():
    # Horror rating 1 with the floor at 0: every round invokes with 9/10 or, after a miss, surely.
    setup = Setup((ChapterRatings(horror_rating=1),), Party(1, full_tiles=()), threat_positions=2)
    first_10 = marginal(play_rounds(setup, MANUAL, 3), "first_level_up")
    first_35 = marginal(play_rounds(setup, MANUAL.replace({"threat.levelup":
                                                           "on_increase_from_last"}), 3),
                        "first_level_up")
    assert first_10[1] == F(9, 10)
    assert 1 not in first_35 and first_35[2] == F(81, 100)


@pytest.mark.parametrize("reading, expected", [("yes", (3, 5, True)), ("no", (4, 5, False))])
def test_manual_p14_level_5_rule(reading, expected):
    rules = MANUAL.replace({"level5_rule": reading})
    assert raise_threat(3, 5, rules, positions=5) == expected


@pytest.mark.parametrize("reading, after_event_space", [("clamp_one", 1), ("seal_only", 0)])
def test_threat_floor(reading, after_event_space):
    rules = MANUAL.replace({"threat.floor": reading})
    assert lower_threat(1, 1, rules, source="seal") == 1
    assert lower_threat(1, 1, rules, source="event_space") == after_event_space
    assert lower_threat(4, 2, rules, source="card") == 2


@pytest.mark.parametrize("rules, cost", [(MANUAL, 2), (V35, 1), (Rules.preset("player_aid"), 3)])
def test_manual_p37_3_5_event_space_roll(rules, cost):
    roll = event_space_roll(3, rules)
    assert (roll.cost, roll.lower_threat, roll.reinvoke) == (cost, F(7, 10), F(3, 10))


def test_3_5_rolls_do_not_move_the_rating_but_1_0_rolls_do():
    setup = Setup((ChapterRatings(spawn_rating=5),), Party(2))
    # 3.5: adjusted to 4 for two explorers, rolled against twice, lowered once at the end.
    assert marginal(play_rounds(setup, V35, 1), "spawn_rating") == {3: 1}
    assert len(marginal(play_rounds(setup, MANUAL, 1), "spawn_rating")) > 1


def test_progress_is_reported_each_round():
    seen = []
    play_rounds(Setup((ChapterRatings(spawn_rating=5),), Party(1)), MANUAL, 3,
                progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("call, argument", [
    (lambda: play_rounds(Setup((ChapterRatings(5),), Party(1)), MANUAL, 0), "rounds"),
    (lambda: Party(0), "starting"),
    (lambda: Party(2, alive=3), "alive"),
    (lambda: Party(2, full_tiles=(True, True, True)), "full_tiles"),
    (lambda: ChapterRatings(spawn_rating=10), "spawn_rating"),
    (lambda: Setup((), Party(1)), "chapters"),
    (lambda: Setup((ChapterRatings(5),), Party(1), threat=9), "threat"),
    (lambda: adjusted_spawn_rating(5.5, 2), "default"),
    (lambda: adjusted_spawn_rating(5, 0), "explorers"),
    (lambda: renewal_mean(12, MANUAL), "default"),
    (lambda: spawn_chain(5, 0, 3, MANUAL), "rollers"),
    (lambda: marginal({}, "spawns"), "field"),
    (lambda: lower_threat(3, 1, MANUAL, source="magic"), "source"),
])
def test_bad_arguments_are_refused_naming_them(call, argument):
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.argument == argument


@pytest.mark.parametrize("reading, factor", [("on_reach", 4), ("on_increase_from_last", 5)])
def test_rounds_per_level_up_closed_form(reading, factor):
    from machina_nb.rules.odds.processes import rounds_per_level_up
    rules = MANUAL.replace({"threat.levelup": reading})
    assert rounds_per_level_up(4, 5, rules) == factor * F(1933, 1250)


@pytest.mark.parametrize("reading, removed", [
    ("floor", (4,)), ("ceil", (5,)), ("players_choose", (4, 5)),
])
def test_manual_p14_remove_half_of_an_odd_deck(reading, removed):
    from machina_nb.rules.odds.processes import cards_removed
    rules = MANUAL.replace({"half.rounding": reading})
    assert cards_removed(9, rules) == removed
    assert cards_removed(8, rules) == (4,)


def test_a_given_card_survives_with_n_minus_removed_over_n():
    from machina_nb.rules.odds.processes import surviving_copies
    assert surviving_copies(9, 1, 4) == {0: F(4, 9), 1: F(5, 9)}
    three = surviving_copies(10, 3, 5)
    assert sum(three.values()) == 1 and sum(k * p for k, p in three.items()) == F(3, 2)


def test_manual_p13_round_report_follows_the_spawn_procedure():
    """1.0 never advances a chapter here and has a renewal rate; 3.5 reports the chapter, and
    a countdown that resets at 1 has no long-run rate (3.5 §Spawn Phase)."""
    setup = Setup((ChapterRatings(spawn_rating=6, horror_rating=4),), Party(2))
    manual = round_report(setup, MANUAL)
    assert manual.fields == ("spawned", "invoked", "threat_from_limit", "threat", "level",
                             "first_level_up")
    assert manual.long_run_attempts == long_run_spawn_attempts(6, 2, MANUAL)
    v35 = round_report(Setup((ChapterRatings(spawn_rating=6),), Party(2)), V35)
    assert "invoked" not in v35.fields and v35.fields[-1] == "chapter"
    assert v35.long_run_attempts == F(13, 10)            # the E9 cycle for d = 6, n = 2
    assert round_report(Setup((ChapterRatings(spawn_rating=1),), Party(3)), V35) \
        .long_run_attempts is None
    assert round_report(Setup((ChapterRatings(horror_rating=3),), Party(1)), MANUAL) \
        .long_run_attempts is None


def test_3_5_the_adjustment_leaves_ratings_of_3_and_below_alone():
    """The countdown can take a rating to 0 or below; the adjustment never moves it."""
    assert [adjusted_spawn_rating(d, 4) for d in (-3, 0, 1, 3, 4)] == [-3, 0, 1, 3, 3]
