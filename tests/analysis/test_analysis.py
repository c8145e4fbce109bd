"""The analysis board: situation files, ask, ruling sensitivity, export, and the CLI.

Sensitivity is checked against an independent oracle (every question asked under every
reading of every switch); each switch has a shipped situation whose readings differ.
"""

import functools
import json
import re
from fractions import Fraction

import pytest

from machina_nb.cli import main
from machina_nb.rules.analysis.ask import ask
from machina_nb.rules.analysis.export import board_svg, to_markdown
from machina_nb.rules.analysis.sensitivity import brute_sensitivity, sensitivity
from machina_nb.rules.analysis.situation import load_situation, load_situations
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError
from machina_nb.rules.rulings import SWITCHES

FOLDER = content_root() / "situations"
SITUATIONS = load_situations()


def situation(name):
    return load_situation(FOLDER / f"{name}.toml")


# --- loading ------------------------------------------------------------------------------------

def test_every_shipped_situation_loads_and_answers_every_question():
    assert len(SITUATIONS) >= 8
    for s in SITUATIONS.values():
        answers = ask(s)
        assert [a.name for a in answers] == [q.name for q in s.questions]
        json.dumps({a.name: a.value for a in answers})   # plain values only


GOOD = '''kind = "situation"
id = "bad"
title = "a bad situation"
map = \'\'\'
+-+-+-+
|K . .|
+ + + +
|. . M|
+-+-+-+
\'\'\'

[unit.K]
card = "kim"

[unit.M]
card = "mi_go"
'''

PLAY = '\n[[question]]\nname = "q"\nask = "play"\nsteps = ["{}"]\nreport = ["positions"]\n'

BAD = [
    ("unknown card", GOOD.replace('card = "mi_go"', 'card = "shoggoth"'), (16, 8), "unknown card"),
    ("unit on a wall", GOOD.replace("|K . .|", "|. .K.|"), (6, 5), "unknown border character"),
    ("two units on a space", GOOD + "\n[unit.H]\ncard = \"hank\"\nat = [0, 0]\n", (20, 6),
     "one unit per space"),
    ("off the board", GOOD + "\n[unit.H]\ncard = \"hank\"\nat = [5, 1]\n", (20, 6),
     "off the 3x2 board"),
    ("unknown switch", GOOD + '\n[rulings]\n"los.vertx" = "touch_ok"\n', (19, 15),
     "unknown switch"),
    ("unknown reading", GOOD + '\n[rulings]\n"los.vertex" = "maybe"\n', (19, 16),
     "unknown reading"),
    ("letter without a unit", GOOD.replace('[unit.M]\ncard = "mi_go"\n', ""), (8, 6),
     "has no entry in the board's legend"),
    ("question about no unit", GOOD + '\n[[question]]\nname = "q"\nask = "sight"\nfrom = "K"\n'
     'to = "Z"\n', (22, 6), "not a unit letter"),
    ("play step of no verb", GOOD + PLAY.format('K jumps'), (21, 13), "is not a step"),
    ("play step misshapen", GOOD + PLAY.format('K moves to nowhere'), (21, 13),
     "write it like 'K moves to (2, 1)'"),
    ("play step of no unit", GOOD + PLAY.format('Z starts'), (21, 11), "not a unit letter"),
    ("play step off the board", GOOD + PLAY.format('K moves to (5, 0)'), (21, 22),
     "off the 3x2 board"),
    ("play step of no ability", GOOD + PLAY.format('K plays fireball on M'), (21, 19),
     "no ability 'fireball'"),
    ("play step not a step", GOOD + PLAY.format('jump'), (21, 11), "is not a step"),
    ("play trade of no item", GOOD + PLAY.format('K trades with M giving pocket_watch'),
     (21, 34), "'pocket_watch' is not an item card"),
    ("play trade of nothing", GOOD + PLAY.format('K trades with M'), (21, 26), "trades nothing"),
    ("setup item unknown", GOOD + '\n[[question]]\nname = "q"\nask = "setup"\n'
     'items = ["pocket_watch"]\n', (21, 9), "'items' is a list of item ids"),
    ("play fact unknown", GOOD + PLAY.format('K starts').replace('"positions"', '"mood"'),
     (22, 10), "'report' is a list of"),
    ("unknown game key", GOOD + '\n[game]\nthreats = 2\n', (19, 11), "unknown key 'threats'"),
    ("unknown deck card", GOOD + '\n[game]\nmonsters = ["kim"]\n', (19, 12),
     "not a monster card"),
]


@pytest.mark.parametrize("what, text, where, phrase", BAD, ids=[b[0] for b in BAD])
def test_bad_situation_files_are_refused_at_file_line_col(tmp_path, capsys, what, text, where,
                                                          phrase):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as refused:
        load_situation(path)
    assert (refused.value.line, refused.value.col) == where, str(refused.value)
    assert phrase in str(refused.value)
    assert main(["ask", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:{where[0]}:{where[1]}:" in err


def test_the_good_file_above_loads(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert [u.letter for u in load_situation(path).units] == ["K", "M"]


# --- ask ----------------------------------------------------------------------------------------

def test_manual_p22_corner_sight_depends_on_los_vertex():
    s = situation("sight_corner")
    assert ask(s)[0].value == "blocked"
    assert ask(s, s.rules().replace({"los.vertex": "touch_ok"}))[0].value == "visible"
    assert "manual p22" in ask(s)[0].why[0]


def test_manual_p16_sarall_targets_lowest_health_on_a_tie_and_walks_to_phillip():
    answers = {a.name: a for a in ask(situation("sarall_door"))}
    assert answers["closest_explorer"].value == {"distance": "4", "tied": ["L", "P"]}
    turn = answers["sarall_turn"].value
    assert turn["end"] == "(3, 3)" and turn["stamina_left"] == 1
    assert any("lowest health" in why for why in answers["sarall_turn"].why)
    # 1 high die and 1 low die against armor 2: only totals 0 and 1 miss (manual p24)
    assert answers["sarall_odds"].value["rend on P"] == "5/6"


# --- sensitivity --------------------------------------------------------------------------------

def test_sensitivity_on_a_sight_only_situation_lists_only_sight_switches(capsys):
    assert main(["sensitivity", str(FOLDER / "sight_corner.toml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [f["switch"] for f in out["sensitive"]] == ["los.vertex"]
    assert out["answers"] == {"sees_lorrai": "blocked"}
    assert out["sensitive"][0]["answers"]["touch_ok"] == {"sees_lorrai": "visible"}


def test_sensitivity_on_a_monster_turn_lists_the_switches_that_change_its_plan():
    found = {f.switch: f for f in sensitivity(situation("sarall_door"))}
    assert {"mindless.movement", "path.units"} <= set(found)
    assert "sarall_turn" in found["path.units"].changed
    plans = dict(found["path.units"].answers)
    assert plans["obstacles"] != plans["ignored"]


@pytest.mark.parametrize("name", ["sight_corner", "closest_pit", "sarall_door", "saw_outside_turn",
                                  "level_up_deck", "barrel_chain", "explore_offset"])
def test_traced_sensitivity_equals_asking_under_every_reading(name):
    s = situation(name)
    assert tuple(f.switch for f in sensitivity(s)) == brute_sensitivity(s)


# --- a situation for every switch ------------------------------------------------------------------

@functools.cache
def sensitive_switches(situation_id):
    return {f.switch for f in sensitivity(SITUATIONS[situation_id])}


GAME_SWITCHES = tuple(name for name in SWITCHES if not name.startswith(("arkham.", "mansions.")))
"""Machina Arcana's switches (the peer games' readings are shown in the Other games tab)."""
SHOWN = {name: [s for s in SITUATIONS.values() if name in s.shows] for name in GAME_SWITCHES}
WITHOUT_SITUATION = ()
"""The switches with no shipped situation yet, by name (their tests are expected to fail); a new
switch is listed here until a situation shows it."""
MISSING = set(WITHOUT_SITUATION)


def test_the_list_of_switches_without_a_situation_is_exact():
    assert {name for name, found in SHOWN.items() if not found} == MISSING


@pytest.mark.parametrize("switch", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="no situation yet"))
    if name in MISSING else name for name in GAME_SWITCHES])
def test_every_switch_has_a_shipped_situation_whose_readings_differ(switch):
    shown = SHOWN[switch]
    assert shown, f"no shipped situation shows {switch}"
    for s in shown:
        assert switch in sensitive_switches(s.id), s.id


# --- export and the command line --------------------------------------------------------------------

def test_markdown_export_embeds_the_board_and_the_answers_per_reading(tmp_path, capsys):
    out = tmp_path / "post.md"
    assert main(["sensitivity", str(FOLDER / "sight_corner.toml"), "--markdown", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "data:image/svg+xml;base64," in text and "| a corner never blocks sight | visible |" in text
    svg = board_svg(situation("sight_corner"))
    assert svg.count("<circle") == 2 and "stroke-dasharray" not in svg.split("<circle")[0][:0]


def test_markdown_names_spaces_and_units_as_the_board_labels_them():
    s = situation("sarall_door")
    text = to_markdown(s, found=())
    assert "Units: S = Sarall (monster) on A4, P = Phillip (explorer) on E4, " \
        "L = Lorrai (explorer) on A1." in text
    assert "targets Phillip (P), closest at 4" in text and "blocked by the wall between A2 and " \
        "A3" in text
    assert not re.search(r"\(\d+, \d+\)|\bphillip\b", text)
    svg = board_svg(s)
    for label in (">A</text>", ">E</text>", ">1</text>", ">4</text>"):
        assert label in svg


def test_markdown_says_so_when_no_reading_changes_anything():
    s = situation("sight_corner")
    assert "No other reading of any switch changes" in to_markdown(s, found=())


def test_ask_cli_takes_a_preset_and_switch_flips(capsys):
    path = str(FOLDER / "sight_corner.toml")
    assert main(["ask", path, "--set", "los.vertex=touch_ok", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"answers": {"sees_lorrai": "visible"}}
    assert main(["ask", path, "--set", "los.vertex"]) == 2
    assert "SWITCH=READING" in capsys.readouterr().err


def test_manual_p25_a_monster_pushed_into_a_lever_sets_it_off_per_reading():
    s = situation("push_lever")
    found = {f.switch: dict(f.answers) for f in sensitivity(s)}
    by_reading = {r: v[0][1][0] for r, v in found["traps.push_activator"].items()}
    assert by_reading["pusher"].endswith("(activator: K)")
    assert by_reading["pushed_unit"].endswith("(activator: M)")
    assert by_reading["none"].endswith("(activator: none)")
    assert all(v.startswith("ends on (2, 0)") for v in by_reading.values())


def test_rounds_answers_are_exact_distributions_summing_to_one():
    for a in ask(situation("spawn_rounds")):
        for field, dist in a.value.items():
            assert sum(Fraction(p) for p in dist.values()) == 1, (a.name, field)


# --- play: short scripted sequences through the engine ------------------------------------------

def played(name, **readings):
    s = situation(name)
    return ask(s, s.rules().replace(readings))[-1]


@pytest.mark.parametrize("reading, kim, phillip", [("killer_on_own_turn", 0, 0),
                                                   ("turn_owner", 0, 1),
                                                   ("killer_any_time", 1, 0)])
def test_manual_p18_p19_kim_kills_during_phillips_turn(reading, kim, phillip):
    """Kim bites the Mi-Go with her saw outside her turn, during Phillip's (manual p27: marker
    removal at any time): p18 credits the explorer whose turn it is, p19 the killer."""
    value = played("saw_outside_turn", **{"essence.kill_credit": reading}).value
    assert value["played"] == "all 4 steps" and value["positions"]["M"] == "out of play"
    assert value["essence"] == {"K": kim, "P": phillip}


@pytest.mark.parametrize("halve, rounding, left", [("yes", "floor", 4), ("yes", "ceil", 3),
                                                   ("no", "floor", 6)])
def test_manual_p14_level_up_removes_half_of_five_cards(halve, rounding, left):
    """Five monster cards at the level-up: half go (2 rounded down, 3 up) or none, and the
    level-2 Witch joins (manual p14)."""
    value = played("level_up_deck", **{"level.halve": halve, "half.rounding": rounding}).value
    assert value["level"] == 2 and value["threat"] == 1
    assert len(value["monster_deck"]) == left and value["monster_deck"][-1] == "Witch"


def test_manual_p16_a_play_stops_where_the_players_must_choose_and_says_so():
    value = played("hunger_binds").value
    assert value["played"].startswith("step 1 (the horror roll) waits for the players' choice")
    assert value["played"].endswith("S, M") and value["bound"] == {}


def test_manual_p12_a_refused_step_stops_the_play_and_cites_the_rule():
    answer = played("blocked_chapter_space", **{"chapter_space.when_blocked": "illegal"})
    assert answer.value["played"] == "step 1 (P activates (1, 0)) refused"
    assert "manual p29" in answer.why[-1] and answer.value["stamina"] == {"P": 6}


def test_manual_p34_exploring_past_the_2x2_area_scrolls_tiles_away():
    value = played("explore_scroll").value
    assert value["tiles"] == ["t03a at (10, -10)", "t04a at (0, -10)", "t05a at (0, -20)"]
    assert played("explore_scroll", **{"scroll.destroy": "all_explorer_free"}).value["tiles"] \
        == ["t04a at (0, -10)", "t05a at (0, -20)"]


def test_play_answers_are_plain_values_and_the_cli_prints_them(capsys):
    assert main(["ask", str(FOLDER / "recharge_die.toml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"answers": {"kim_recharges": {"played": "all 1 step", "stamina": {"K": 6},
                                                 "health": {"K": 5}}}}


def test_setup_reads_the_printed_essence_and_the_scenario_decks():
    value = played("setup_decks").value
    assert value["essence_maximum"] == {"K": 9, "W": 9}
    assert played("setup_decks", **{"essence.max": "card_value"}).value["essence_maximum"] == \
        {"K": 9, "W": 4}
    balanced = played("setup_decks", **{"setup.event_decks": "balanced_3_5"}).value
    assert balanced["horror_events"] == 2 and balanced["explorer_events"] == 2


@pytest.mark.parametrize("reading, end", [("any_targeting", "(3, 0)"),
                                          ("its_abilities", "(0, 0)")])
def test_manual_p25_p36_d40_the_chest_witch_and_the_ethereal_wisp(reading, end):
    """D40: units on a tile with a lit chapter space may target ethereal units (manual p36); the
    Witch's one ability aims at a chest. Allowed suffices (any_targeting), or it ignores her."""
    s = situation("witch_ethereal")
    turn = ask(s, s.rules().replace({"targetable.which_targeting": reading}))[0]
    assert turn.value["end"] == end


@pytest.mark.parametrize("reading, spawned, destroyed", [("set_aside", "mi_go-1", ["Sarall"]),
                                                         ("top_of_deck", "sarall-1", [])])
def test_manual_p25_the_beckoned_sarall_nothing_spawned(reading, spawned, destroyed):
    """The Beckoner takes the Sarall from the destroyed pile, but no spawn space is free on its
    tile (manual p13), so nothing draws it; Kim's spawn roll then brings the top monster card."""
    value = played("beckon_no_room", **{"take.found_card": reading}).value
    assert value["played"] == "all 3 steps" and value["positions"][spawned] == "(5, 2)"
    assert value["monsters_destroyed"] == destroyed


def test_manual_p8_p30_the_teleportabulus_waits_for_level_3_or_is_dealt_at_setup():
    """The Teleportabulus is printed with a 3, the Puncturing Revolver with a 2 (manual p30):
    read as levels they wait in the reserve at setup (manual p8, p33); otherwise they count as
    level 1 and are dealt into the weapon deck."""
    decks = played("teleportabulus_setup").value["item_decks"]
    assert decks["reserve"] == ["Puncturing Revolver", "Teleportabulus"]
    assert "Teleportabulus" not in decks["weapon"] and "Circular Saw" in decks["weapon"]
    dealt = played("teleportabulus_setup", **{"item.printed_number": "not_level"}).value
    assert dealt["item_decks"]["reserve"] == []
    assert "Teleportabulus" in dealt["item_decks"]["weapon"]
    assert dealt["horror_events"] == played("teleportabulus_setup").value["horror_events"]


@pytest.mark.parametrize("reading, mi_go", [("effect_stays", "out of play"),
                                            ("effect_ends", "(2, 1)")])
def test_manual_p27_p32_kims_boost_after_she_trades_the_gun_away(reading, mi_go):
    """Kim's hit with the Blood-boost Gun puts her marker on it (+1 to her later attack rolls,
    manual p27); she trades the gun to Phillip, where it arrives unequipped (manual p32). Her
    Reconnoisseur then rolls 2 against armor 3: the boost decides the hit."""
    value = played("boost_traded", **{"markers.item_unequipped": reading}).value
    assert value["played"] == "all 3 steps" and value["positions"]["M"] == mi_go
    assert bool(value["markers"]) is (reading == "effect_stays")
