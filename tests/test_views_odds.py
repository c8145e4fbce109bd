"""The odds views without a browser: set widget values, read the labels and the chart sources.

Expected numbers are exact values worked out by hand (the dice tables, the attack and kill
odds, the spawn and horror processes), never recomputed with the code under test.
"""

from fractions import Fraction

import pytest

from machina_nb.rules.rulings import Rules
from machina_nb.views.app import Explorer
from machina_nb.views.odds import HEAT_POOLS, OddsView, ProcessesView, exact


@pytest.fixture(scope="module")
def odds():
    return OddsView()


@pytest.fixture(autouse=True)
def reset(odds):
    """Every test starts from the Mi-Go of manual p24: 1H1L vs armor 3, no modifier, no essence."""
    for name, value in (("high", 1), ("low", 1), ("kind", "physical"), ("defense", 3),
                        ("modifier", 0), ("essence", 0), ("health", 2), ("attacks", 2)):
        getattr(odds, name).value = value
    odds.blockers.value = "2,3,4"
    odds.rules = Rules()


def test_manual_p24_spec_e2_mi_go_armor_3_is_5_9_and_5_6_with_one_essence(odds):
    assert "<b>5/9 (55.56%)</b>" in odds.probability.value
    odds.essence.value = 1
    assert "<b>5/6 (83.33%)</b>" in odds.probability.value
    odds.essence.value = 2
    assert "<b>35/36 (97.22%)</b>" in odds.probability.value
    odds.essence.value = 3
    assert "<b>1 (100%)</b>" in odds.probability.value


def test_spec_e2_moving_the_defense_slider_changes_the_fraction(odds):
    shown = {}
    for armor in range(0, 7):
        odds.defense.value = armor
        shown[armor] = odds.probability.value.split("<b>")[-1].split("</b>")[0]
    # 1H+1L: P(S >= k)
    assert shown == {0: "1 (100%)", 1: "35/36 (97.22%)", 2: "5/6 (83.33%)", 3: "5/9 (55.56%)",
                     4: "1/4 (25.00%)", 5: "1/18 (5.56%)", 6: "0 (0%)"}


def test_spec_e2_expected_essence_spent_is_shown(odds):
    odds.essence.value = 1
    # the least needed: spend 1 exactly when S = 2 (5/18 in the pmf of 1H+1L)
    assert "5/18 (27.78%)" in odds.essence_spent.value


def test_spec_e1_pmf_chart_holds_the_worked_pmf_of_1h2l(odds):
    odds.low.value = 2
    data = odds.sources["pmf"].data
    expected = ["1/216", "1/27", "1/8", "17/72", "5/18", "5/24", "5/54", "1/54"]
    assert data["total"] == list(range(8))
    assert [e.split(" ")[0] for e in data["exact"]] == expected
    assert data["p"] == pytest.approx([float(Fraction(e)) for e in expected])


def test_charts_mark_the_defense_threshold_and_colour_hits(odds):
    odds.defense.value = 4
    odds.essence.value = 1
    data = odds.sources["pmf"].data
    colours = dict(zip(data["total"], data["colour"]))
    assert colours[4] == colours[5] != colours[3] != colours[2]
    assert odds.sources["threshold"].data["k"] == [4]
    assert odds.sources["threshold"].data["exact"] == ["1/4 (25.00%)"]
    cumulative = dict(zip(odds.sources["cumulative"].data["k"],
                          odds.sources["cumulative"].data["exact"]))
    assert cumulative[3] == "5/9 (55.56%)" and cumulative[6] == "0 (0%)"


def test_spec_e1_2_heat_map_covers_every_pool_and_defense(odds):
    data = odds.sources["heat"].data
    assert len(data["p"]) == len(HEAT_POOLS) * 10 == 480
    cell = {(pool, d): e for pool, d, e in zip(data["pool"], data["defense"], data["exact"])}
    assert cell["2H2L", "3"] == "155/162 (95.68%)"
    assert cell["3H0L", "5"] == "1/2 (50.00%)"
    odds.essence.value = 1  # the heat map follows the essence
    cell = {(pool, d): e for pool, d, e in zip(data["pool"], odds.sources["heat"].data["defense"],
                                               odds.sources["heat"].data["exact"])}
    assert cell["1H1L", "3"] == "5/6 (83.33%)"
    assert odds.sources["heat_current"].data == {"pool": ["1H1L"], "defense": ["3"]}


def test_spec_e1_generating_function_is_typeset_as_mathml(odds):
    """G(z) = z**5/18 + ... + 1/36 for 1H1L, typeset (MathML renders offline in Chromium)."""
    shown = odds.derivation.value
    assert "<math display='block'>" in shown and "**" not in shown
    assert "<mfrac><msup><mi>z</mi><mn>5</mn></msup><mn>18</mn></mfrac>" in shown
    assert "<mfrac><mn>1</mn><mn>36</mn></mfrac>" in shown


def test_manual_p25_arcane_compares_with_will(odds):
    odds.kind.value = "arcane"
    assert odds.defense.description == "will"
    assert "against will 3" in odds.probability.value


def test_spec_e3_one_roll_against_several_blockers(odds):
    table = odds.blockers_table.value
    # 1H1L against 2,3,4: the pmf read by threshold, E[#hits] = 5/6 + 5/9 + 1/4
    cell = "</td><td style='padding:0 8px'>"
    assert f"no blocker{cell}1/6 " in table  # S <= 1: 1/36 + 5/36
    assert f"blocker 1 (armor 2){cell}5/18 " in table  # S = 2
    assert f"blocker 1 (armor 2), blocker 2 (armor 3){cell}11/36 " in table  # S = 3
    assert "blocker 1 (armor 2), blocker 2 (armor 3), blocker 3 (armor 4)</td><td style='padding:0 8px'>1/4" in table
    assert "59/36" in table


def test_bad_blockers_text_names_the_argument_and_keeps_nothing_evaluated(odds):
    odds.blockers.value = "2,__import__('os')"
    assert "blockers" in odds.blockers_table.value and "odds-error" in odds.blockers_table.value
    odds.blockers.value = "2,12"
    assert "odds-error" in odds.blockers_table.value


def test_spec_e4_kill_table_mi_go_health_2(odds):
    expected = {(2, 0): "25/81", (2, 1): "50/81", (2, 2): "275/324", (2, 3): "155/162",
                (3, 0): "425/729", (3, 1): "2525/2916", (3, 2): "11275/11664",
                (3, 3): "7735/7776"}
    for (n, e), p in expected.items():
        odds.attacks.value, odds.essence.value = n, e
        assert f"<b>{p} (" in odds.kill.value, (n, e)


def test_no_dice_is_refused_naming_the_argument(odds):
    odds.high.value = 0
    before = dict(odds.sources["pmf"].data)
    odds.low.value = 0
    assert "dice" in odds.probability.value and "odds-error" in odds.probability.value
    assert odds.sources["pmf"].data == before


def test_spec_d31_roll_floor_reading_changes_defense_0_with_a_penalty(odds):
    odds.defense.value, odds.modifier.value = 0, -3
    none = odds.probability.value
    odds.rules = Rules().replace({"roll.floor": "clamp0"})
    assert "<b>1 (100%)</b>" in odds.probability.value and none != odds.probability.value
    assert "roll.floor: clamp0" in odds.citation.value


def test_spec_d32_essence_multi_blocker_readings(odds):
    odds.essence.value = 2
    odds.blockers.value = "3,4"
    shared = odds.blockers_table.value
    odds.rules = Rules().replace({"essence.multi_blocker": "per_blocker"})
    assert odds.blockers_table.value != shared


def test_exact_formats_long_fractions_by_their_size():
    assert exact(Fraction(1, 3)) == "1/3 (33.33%)"
    assert exact(Fraction(1, 10 ** 70)) == \
        "0.00% (an exact fraction with a 71-digit denominator)"


@pytest.fixture(scope="module")
def proc():
    return ProcessesView(rating=8, horror=3, explorers=1, rounds=1)


def test_3_5_faq_rating_8_with_4_explorers_rolls_at_5(proc):
    """3.5 FAQ: 8 -> 5 for 4 explorers; one round, q(5) = 1/2 per roller."""
    proc.explorers.value = 4
    data = proc.sources["spawned"].data
    right = dict(zip(data["x"], data["right_exact"]))
    assert [right[k].split(" ")[0] for k in range(5)] == ["1/16", "1/4", "3/8", "1/4", "1/16"]
    # 1.0 (left): a per-roll renewal chain from 8: the first roll succeeds with 1/5
    left = dict(zip(data["x"], data["left_exact"]))
    assert left[0].split(" ")[0] == str(Fraction(4, 5) * Fraction(7, 10) * Fraction(6, 10)
                                        * Fraction(5, 10))
    proc.explorers.value = 1


def test_spec_e10_horror_invokes_and_long_run_rates(proc):
    data = proc.sources["invoked"].data
    assert dict(zip(data["x"], data["left_exact"]))[1] == "7/10 (70.00%)"  # q(3)
    summary = proc.summary.value
    assert "500/683" in summary  # 1 / E[T_3] (E[T] = 683/500)
    # 3.5, rating 8, one explorer: 7/2 attempts over 7 rounds = 1/2 per round
    assert "1/2 ≈ 0.5" in summary.split("spawn attempts a round")[1]


def test_processes_compare_follows_the_shared_rules_and_the_compare_preset(proc):
    proc.explorers.value = 2  # 1.0 rolls at 8 then 7; 3.5 rolls twice at 7
    proc.rules = Rules.preset("v3_5")
    data = proc.sources["spawned"].data
    assert data["left"] == data["right"]
    proc.compare.value = "manual"
    assert data["left"] != proc.sources["spawned"].data["right"]
    proc.rules, proc.compare.value, proc.explorers.value = Rules(), "v3_5", 1


def test_explorer_hands_the_preset_to_the_odds_views():
    app = Explorer()
    app.build_tab(1)                     # the Odds tab is built when first picked
    app.preset.value = "v3_5"
    assert app.odds.rules.name == app.processes.rules.name == "v3_5"
    assert app.tabs.titles[1] == "Odds"


def test_3_5_spec_e9_non_blocking_chapter_stops_spawning_after_its_timer():
    """Rating 3, one explorer: the countdown rolls at 3 and 2, then the timer fires in round 3.

    Blocking: it resets and rolls again; non-blocking: the chapter is over (3.5 §Spawn Phase).
    """
    view = ProcessesView(rating=3, horror=0, explorers=1, rounds=4)
    blocking = dict(zip(view.sources["spawned"].data["x"],
                        view.sources["spawned"].data["right_exact"]))
    view.blocking.value = False
    after = dict(zip(view.sources["spawned"].data["x"],
                     view.sources["spawned"].data["right_exact"]))
    assert blocking[3] != "0 (0%)" and after[3] == after[4] == "0 (0%)"  # x spans both columns
    # two rolls, at 3 then 2: P(both spawn) = 7/10 * 8/10
    assert after[2].startswith("14/25 ")
    assert "long-run horror" not in view.summary.value  # no horror rating: no such row


def test_spec_d31_heat_map_follows_the_rules(odds):
    odds.modifier.value = -3

    def cell():
        data = odds.sources["heat"].data
        return dict(zip(zip(data["pool"], data["defense"]), data["exact"]))["1H0L", "0"]

    assert cell() == "1/6 (16.67%)"  # 1H - 3 >= 0 needs a 3
    odds.rules = Rules().replace({"roll.floor": "clamp0"})
    assert cell() == "1 (100%)"
