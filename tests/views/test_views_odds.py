"""The odds views without a browser: set widget values, read the labels and the chart sources.

Expected numbers are exact values worked out by hand (the dice tables, the attack and kill
odds, the spawn and horror processes), never recomputed with the code under test.
"""

from fractions import Fraction

import pytest
from marks import unmarked

from machina_nb.rules.rulings import Rules
from machina_nb.views.app import Explorer
from machina_nb.views.odds import HEAT_POOLS, MORE_SECTIONS, OddsView, ProcessesView, exact


@pytest.fixture(scope="module")
def odds():
    view = OddsView()
    for section in range(len(MORE_SECTIONS)):  # open every folded section once: built
        view.more.selected_index = section
    view.more.selected_index = None
    return view


@pytest.fixture(autouse=True)
def reset(odds):
    """Every test starts from the Mi-Go of manual p24 typed in (no card picked): 1H1L vs
    armor 3, no modifier, no essence."""
    odds.attacker.value = odds.target.value = None
    for name, value in (("high", 1), ("low", 1), ("kind", "physical"), ("defense", 3),
                        ("modifier", 0), ("essence", 0), ("health", 2), ("attacks", 2)):
        getattr(odds, name).value = value
    odds.blockers.value = "2,3,4"
    odds.rules = Rules()


def test_manual_p24_mi_go_armor_3_is_5_9_and_5_6_with_one_essence(odds):
    assert "<b>5/9 (55.56%)</b>" in odds.probability.value
    odds.essence.value = 1
    assert "<b>5/6 (83.33%)</b>" in odds.probability.value
    odds.essence.value = 2
    assert "<b>35/36 (97.22%)</b>" in odds.probability.value
    odds.essence.value = 3
    assert "<b>1 (100%)</b>" in odds.probability.value


def test_moving_the_defense_slider_changes_the_fraction(odds):
    shown = {}
    for armor in range(0, 7):
        odds.defense.value = armor
        shown[armor] = odds.probability.value.split("<b>")[-1].split("</b>")[0]
    # 1H+1L: P(S >= k)
    assert shown == {0: "1 (100%)", 1: "35/36 (97.22%)", 2: "5/6 (83.33%)", 3: "5/9 (55.56%)",
                     4: "1/4 (25.00%)", 5: "1/18 (5.56%)", 6: "0 (0%)"}


def test_expected_essence_spent_is_shown(odds):
    odds.essence.value = 1
    # the least needed: spend 1 exactly when S = 2 (5/18 in the pmf of 1H+1L)
    assert "5/18 (27.78%)" in odds.essence_spent.value


def test_pmf_chart_holds_the_worked_pmf_of_1h2l(odds):
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


def test_heat_map_covers_every_pool_and_defense(odds):
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


def test_generating_function_is_typeset_as_mathml(odds):
    """G(z) = z**5/18 + ... + 1/36 for 1H1L, typeset (MathML renders offline in Chromium)."""
    shown = odds.derivation.value
    assert "<math display='block'>" in shown and "**" not in shown
    assert "<mfrac><msup><mi>z</mi><mn>5</mn></msup><mn>18</mn></mfrac>" in shown
    assert "<mfrac><mn>1</mn><mn>36</mn></mfrac>" in shown


def test_manual_p25_arcane_compares_with_will(odds):
    odds.kind.value = "arcane"
    assert odds.defense.description == "will"
    assert "against will 3" in odds.probability.value


def test_one_roll_against_several_blockers(odds):
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


def test_kill_table_mi_go_health_2(odds):
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


def test_roll_floor_reading_changes_defense_0_with_a_penalty(odds):
    odds.defense.value, odds.modifier.value = 0, -3
    none = odds.probability.value
    odds.rules = Rules().replace({"roll.floor": "clamp0"})
    assert "<b>1 (100%)</b>" in odds.probability.value and none != odds.probability.value
    assert "an attack total never goes below 0" in odds.citation.value


def test_essence_multi_blocker_readings(odds):
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


def test_horror_invokes_and_long_run_rates(proc):
    data = proc.sources["invoked"].data
    assert dict(zip(data["x"], data["left_exact"]))[1] == "7/10 (70.00%)"  # q(3)
    summary = proc.summary.value
    assert "500/683" in summary  # 1 / E[T_3] (E[T] = 683/500)
    # 3.5, rating 8, one explorer: 7/2 attempts over 7 rounds = 1/2 per round
    assert "0.5 (exactly 1/2)" in summary.split("spawn attempts a round")[1]


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


def test_3_5_non_blocking_chapter_stops_spawning_after_its_timer():
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


def test_heat_map_follows_the_rules(odds):
    odds.modifier.value = -3

    def cell():
        data = odds.sources["heat"].data
        return dict(zip(zip(data["pool"], data["defense"]), data["exact"]))["1H0L", "0"]

    assert cell() == "1/6 (16.67%)"  # 1H - 3 >= 0 needs a 3
    odds.rules = Rules().replace({"roll.floor": "clamp0"})
    assert cell() == "1 (100%)"


# -- picking the attacker and the target from the cards --------------------------------------

@pytest.fixture()
def fresh():
    return OddsView()


def test_manual_p24_opens_on_an_attack_on_the_mi_go_said_in_one_sentence(fresh):
    """Hank's Stunning Blow (1H1L, physical) against the Mi-Go's armor 3: 5/9, said first."""
    assert (fresh.attacker.value, fresh.target.value) == ("hank", "mi_go")
    assert (fresh.high.value, fresh.low.value, fresh.kind.value, fresh.defense.value) == \
        (1, 1, "physical", 3)
    assert "Hank's Stunning Blow against the Mi-Go's armor 3 hits 5 times in 9: " \
           "<b>5/9 (55.56%)</b>" in fresh.probability.value
    assert fresh.children[1] is fresh.probability  # the answer right under the pickers


def test_manual_p24_picking_the_mi_go_as_target_fills_armor_3_and_says_where_from(odds):
    odds.defense.value = 0
    odds.target.value = "mi_go"
    assert odds.defense.value == 3 and odds.defense.description == "armor"
    assert "Mi-Go: armor 3 (from its card" in odds.origin.value
    assert "%" in odds.probability.value and "5 times in 9" in odds.probability.value


def test_manual_p21_p24_hex_bolt_is_arcane_so_the_mi_go_defends_with_will(odds):
    odds.target.value = "mi_go"
    odds.attacker.value = "lorrai"
    assert odds.attack.value.label == "Hex Bolt"
    assert (odds.high.value, odds.low.value, odds.kind.value) == (0, 1, "arcane")
    assert odds.defense.value == 2 and odds.defense.description == "will"  # Mi-Go's will
    # one low die (0,1,1,1,2,2) reaches 2 on two faces of six
    assert "Lorrai's Hex Bolt against the Mi-Go's will 2 hits 1 time in 3: <b>1/3 (33.33%)</b>" \
        in odds.probability.value
    assert "Lorrai's Hex Bolt: 1 low die (0H1L), arcane (from Lorrai's card)" in odds.origin.value


def test_manual_p33_an_explorer_attacks_with_a_weapon_card(odds):
    odds.target.value = "mi_go"
    odds.attacker.value = "kim"
    labels = [label for label, _ in odds.attack.options]
    assert "Puncturing Revolver: Shoot" in labels
    odds.attack.value = dict(odds.attack.options)["Puncturing Revolver: Shoot"]
    assert (odds.high.value, odds.low.value, odds.defense.value) == (2, 0, 3)
    # two high dice (0,1,1,2,2,3) total 2 or less in 13 of 36 ways
    assert "<b>23/36 (63.89%)</b>" in odds.probability.value
    assert "from the Puncturing Revolver card" in odds.origin.value


def test_a_card_without_an_attack_leaves_the_dice_to_type(odds):
    odds.attacker.value = "sample_brute"  # a monster card printing no attack
    assert odds.attack.disabled and odds.attack.value is None
    assert "custom pool" in odds.origin.value


def test_typing_a_number_works_and_makes_the_pick_custom(odds):
    odds.attacker.value, odds.target.value = "hank", "mi_go"
    odds.high.value = 2  # typed: 2H1L is not the Stunning Blow any more
    assert odds.attacker.value is None and "custom pool" in odds.origin.value
    assert "'>A physical attack with 2 high and 1 low dice (2H1L) against the Mi-Go's" in \
        odds.probability.value
    odds.defense.value = 5  # not the Mi-Go's armor: the defense is typed now
    assert odds.target.value is None and "against armor 5" in odds.probability.value
    odds.defense.value = 12  # a typed number beyond the range is held at the largest
    assert odds.defense.value == 9


def test_manual_p24_switching_to_arcane_reads_the_targets_will(odds):
    odds.target.value = "mi_go"
    odds.kind.value = "arcane"
    assert odds.defense.value == 2 and odds.target.value == "mi_go"
    assert "<b>5/6 (83.33%)</b>" in odds.probability.value  # 1H1L at least 2


def test_modifier_and_essence_are_explained_beside_their_inputs(fresh):
    notes = [child for row in fresh.children[3].children for child in row.children
             if "odds-note" in child._dom_classes]
    assert len(notes) == 2
    assert "manual p24" in notes[0].value and "manual p18-19" in notes[1].value
    assert all(len(unmarked(note.value)) < 160 for note in notes)


def test_the_folded_sections_are_closed_and_built_when_opened(fresh):
    assert fresh.more.selected_index is None
    assert fresh.derivation.value == "" and fresh.sources["heat"].data["p"] == []
    assert all(section.children == () for section in fresh.more.children)
    fresh.more.selected_index = 2
    assert len(fresh.sources["heat"].data["p"]) == 480
    assert fresh.more.children[2].children


def test_the_explorer_folds_the_processes_below_the_attack_odds():
    app = Explorer()
    app.build_tab(1)
    assert app.processes.fold.selected_index is None
    assert app.processes.summary.value == ""  # nothing computed until opened
    app.processes.fold.selected_index = 0
    assert "exactly" in app.processes.summary.value


def test_plain_numbers_percentages_beside_fractions_and_decimal_means(odds):
    assert "1.64 (exactly 59/36)" in odds.blockers_table.value  # 5/6 + 5/9 + 1/4 hit on average
    odds.essence.value = 1
    odds.more.selected_index = 1
    shown = " ".join((odds.probability.value, odds.essence_spent.value, odds.blockers_table.value,
                      odds.kill.value, odds.origin.value, odds.citation.value))
    assert "≈" not in shown and "sqrt(" not in shown and "None" not in shown
    assert "0.28 (exactly 5/18)" in odds.essence_spent.value  # spend 1 exactly when S = 2
    odds.more.selected_index = None
