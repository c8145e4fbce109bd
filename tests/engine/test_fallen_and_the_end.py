"""Fallen explorers and the end of the game in situation files: a position may start after an
explorer died (the monsters are then scheming, manual p15), a mindless monster's turn that
destroys an explorer is told up to the kill and handed to the players, and ``play`` reports
whether the game is won, lost or going on (manual p3, p28). ``attack_odds`` counts every
source of abilities the engine counts (manual p20-21, p30-31)."""

import pytest

from machina_nb.rules.analysis.ask import answer, ask, questions_about
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.content import content_root
from machina_nb.rules.errors import ContentError

FOLDER = content_root() / "situations"


def answers(name):
    s = load_situation(FOLDER / f"{name}.toml")
    return {a.name: a for a in ask(s)}, s


BASE = '''kind = "situation"
id = "t"
title = "t"
map = \'\'\'
+-+-+-+-+-+
|M K . . .|
+-+-+-+-+-+
\'\'\'

[unit.M]
card = "mi_go"

[unit.K]
card = "kim"
{kim}

[turn]
phase = "monster"
active = "M"

[game]
{game}
'''


def situation(kim="", game="", questions=""):
    return situation_from_text(BASE.format(kim=kim, game=game) + questions, "t.toml")


def test_manual_p15_a_situation_may_start_with_a_fallen_explorer():
    got, s = answers("fallen_scheming")
    assert s.base.dead == ("phillip",) and s.base.scheming and s.base.starting_explorers == 2
    turn = got["mi_go_turn"].value
    assert len(turn["steps"]) == 1 and "the players move M" in turn["steps"][0]
    assert "scheming" in turn["steps"][0] and turn["stamina_left"] == 5
    assert "ends the turn" in got["hive_mind"].value
    assert any(a.startswith("activates") for a in got["hive_mind"].value)  # the lever
    plays = got["hive_mind_plays"].value
    assert plays["played"] == "all 2 steps" and plays["positions"]["M"] == "(2, 1)"
    assert plays["outcome"] == "going on"


@pytest.mark.parametrize("fallen, message", [
    ('"mi_go"', "not an explorer card"),
    ('"nobody"', "not an explorer card"),
    ('"kim"', "on the board"),
    ('"phillip", "phillip"', "named twice"),
])
def test_manual_p19_a_fallen_explorer_must_be_an_explorer_off_the_board(fallen, message):
    with pytest.raises(ContentError, match=message) as err:
        situation(game=f"fallen = [{fallen}]")
    assert err.value.line > 1


def test_manual_p3_every_explorer_fallen_is_a_lost_game_not_a_position():
    text = BASE.replace('[unit.K]\ncard = "kim"\n{kim}\n', "").replace("M K", "M .")
    with pytest.raises(ContentError, match="every explorer has fallen"):
        situation_from_text(text.format(kim="", game='fallen = ["kim"]'), "t.toml")


def test_manual_p15_p19_a_mindless_turn_that_destroys_an_explorer_is_told_to_the_kill():
    got, _ = answers("fallen_mid_turn")
    turn = got["mi_go_turn"].value
    assert "explorer kim is destroyed" in turn["steps"][0]
    assert "the players move M" in turn["steps"][1] and len(turn["steps"]) == 2
    assert turn["stamina_left"] == 3 and "outcome" not in turn
    played = got["turn_played"].value
    assert played["played"] == "all 3 steps" and played["positions"]["K"] == "destroyed"
    assert played["positions"]["M"] == "(2, 0)" and played["phase"] == "explorer"


LAST = '''
[[question]]
name = "turn"
ask = "monster_turn"
monster = "M"
dice = [3, 2]

[[question]]
name = "played"
ask = "play"
steps = ["M takes its turn", "the monsters take their turns"]
dice = [3, 2]
report = ["positions", "phase", "outcome"]
'''


def test_manual_p3_the_last_explorer_destroyed_loses_the_game():
    s = situation(kim="health = 1\narmor = 0", questions=LAST)
    got = {a.name: a.value for a in ask(s)}
    assert got["turn"]["outcome"] == "lost" and "the game is lost" in got["turn"]["steps"][0]
    assert got["played"]["phase"] == "over" and got["played"]["outcome"] == "lost"
    assert got["played"]["played"] == "all 2 steps"


def test_manual_p3_p28_the_victory_chapter_wins_though_an_explorer_fell():
    got, _ = answers("last_light")
    value = got["the_last_chapter"].value
    assert value == {"played": "all 1 step", "chapter": "The Last Light", "phase": "over",
                     "outcome": "won"}


def test_manual_p28_the_endgame_cards_come_into_play_and_carry_the_victory():
    got, s = answers("endgame_seals")
    assert [c.name for c in s.base.endgame] == ["The Last Stand"]
    value = got["into_the_endgame"].value
    assert value["chapter"] == "The Last Stand" and value["essence"] == {"K": 0}
    assert value["outcome"] == "won" and value["phase"] == "over"


def test_a_game_going_on_reports_its_phase():
    s = situation(questions=LAST.replace("dice = [3, 2]\nreport", "dice = [0, 0]\nreport"))
    got = {a.name: a.value for a in ask(s)}
    assert got["played"]["outcome"] == "going on" and got["played"]["phase"] != "over"


# --- attack_odds counts every source of abilities -----------------------------------------------

ODDS = '''
[[question]]
name = "odds"
ask = "attack_odds"
attacker = "{who}"
'''


def odds(who, kim="", game="", rules=None):
    s = situation(kim=kim, game=game, questions=ODDS.format(who=who))
    return answer(s, s.questions[0], rules or s.rules())


def test_manual_p30_31_an_equipped_weapon_attacks_in_attack_odds():
    got = odds("K", kim='items = ["puncturing_revolver"]')
    assert "shoot on M" in got.value and "an item" in " ".join(got.why)
    assert odds("K").value == {}


def test_manual_p20_21_the_current_horror_event_lends_monsters_its_attack():
    got = odds("M", game='horror_destroyed = ["lash"]')
    assert list(got.value) == ["lash on K", "probe on K"]   # the event first (manual p16)
    assert "the current horror event" in got.why[0]


def test_a_horror_event_bound_to_the_monster_counts_where_the_reading_counts_it():
    s = situation(game='bound = { M = ["hunger"] }', questions=ODDS.format(who="M"))
    literal = answer(s, s.questions[0], s.rules()).value
    aid = answer(s, s.questions[0],
                 s.rules().replace({"monster.ability_sources": "bound_event_and_card"})).value
    assert "gnaw on K" not in literal and list(aid)[0] == "gnaw on K"


def test_manual_p20_the_questions_about_an_explorer_include_her_weapons_attacks():
    armed = situation(kim='items = ["puncturing_revolver"]')
    kinds = {q.ask for q in questions_about(armed, "K")}
    assert "attack_odds" in kinds
    assert any(q.name == "k_shoot_on_m" for q in questions_about(armed, "K"))
    assert "attack_odds" not in {q.ask for q in questions_about(situation(), "K")}


def test_manual_p15_actions_default_to_the_monster_whose_turn_it_is():
    s = situation(game='fallen = ["phillip"]',
                  questions='\n[[question]]\nname = "acts"\nask = "actions"\n')
    assert "ends the turn" in ask(s)[0].value
