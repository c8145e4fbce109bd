"""The danger overlay: the explorer's reach coloured by the exact chance it is destroyed in the
monster phase, a clicked space's breakdown in plain words, and the monster phase as a chart."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from machina_nb.rules.analysis.risk import MAX_MONSTERS
from machina_nb.rules.analysis.risk_answer import CHOICE_REASON, choice_phrase, risk_map, whose_turn
from machina_nb.rules.analysis.risk_threats import threats
from machina_nb.rules.analysis.situation import load_situation, situation_from_text
from machina_nb.rules.board.drawing import Rect, draw
from machina_nb.rules.board.highlights import Highlights
from machina_nb.rules.board.palette import DANGER_SCALE
from machina_nb.rules.content import content_root
from machina_nb.rules.numbers import percent_label
from machina_nb.views.analysis import AnalysisBoardView
from machina_nb.views.app import Explorer
from machina_nb.views.board import BoardView, Pick, drawn_colours
from machina_nb.views.danger import DangerOverlay, danger_role, health_chart_html
from machina_nb.views.round_words import choice_words

SITUATIONS = content_root() / "situations"
KIM, HALL = (1, 1), (4, 1)          # Kim's own space (B2); a space between Mi-Go and Sarall (E2)

_IDS = re.compile(r"\(\d+, \d+\)|mi_go|sarall-|None|\w=\w|Fraction|\[|\{")


def _risk_map():
    s = load_situation(SITUATIONS / "risk_map.toml")
    return s, s.rules(), s.state_at(s.rules())


@pytest.fixture(scope="module")
def view():
    s, rules, state = _risk_map()
    return BoardView(s.layout, rules, overlay="danger",
                     overlays={"danger": DangerOverlay(lambda board: state)})


def test_the_scale_has_a_bin_of_its_own_for_never_and_one_hue_darkening():
    assert danger_role(Fraction(0)) == "danger 0"
    assert danger_role(Fraction(1, 100)) == "danger 1"
    assert danger_role(Fraction(1, 10)) == "danger 10"
    assert danger_role(Fraction(1)) == "danger 75"
    lightness = [sum(int(c[i:i + 2], 16) for i in (1, 3, 5)) for _, _, c, _ in DANGER_SCALE]
    assert lightness == sorted(lightness, reverse=True)
    assert percent_label(Fraction(999, 1000)) == ">99%" and percent_label(Fraction(1)) == "100%"


def test_manual_p34_the_reach_is_coloured_by_the_chance_and_every_colour_is_in_the_legend(view):
    view.select(KIM)
    data = view.sources["overlay"].data
    marked = dict(zip(zip(data["x"], data["y"]), data["role"]))
    assert marked[(4.5, 1.5)] == "danger 75"          # 25/27 between Mi-Go and Sarall
    assert marked[(0.5, 0.5)] == "danger 0"
    labels = dict(zip(zip(view.sources["overlay_labels"].data["x"],
                          view.sources["overlay_labels"].data["y"]),
                      view.sources["overlay_labels"].data["text"]))
    assert "93%" in labels.values() and "69%" in labels.values()
    shown = set(re.findall(r"data-colour='([^']+)'", view.legend.value))
    assert drawn_colours(view.sources) <= shown
    assert {c for _, _, c, _ in DANGER_SCALE} <= shown       # the whole scale, in percent
    assert all(f"{words}" in view.legend.value for *_, words in DANGER_SCALE)
    assert "19 spaces" in view.verdict.value and view.click.value == "target"


def test_manual_p16_a_clicked_space_says_its_breakdown_in_plain_words(view):
    view.select(KIM)
    view.on_tap(type("Tap", (), {"x": HALL[0] + 0.5, "y": HALL[1] + 0.5})())
    text = view.verdict.value
    assert "If Kim (K) ends its move on E2" in text
    assert "25/27 (92.59%)" in text                     # the percent beside the exact fraction
    assert "expected health lost 1.92 (exactly 415/216)" in text
    assert "Mi-Go (M) plays Probe on it (hit chance 5/6 (83.33%))" in text
    assert "Sarall (S) plays Rend on it" in text
    assert not _IDS.search(text), text
    assert view.title.value.startswith("<b>Danger for Kim (K)")


def test_another_explorer_clicked_is_picked_a_space_out_of_reach_is_said(view):
    view.select(KIM)
    view.on_tap(type("Tap", (), {"x": 7.5, "y": 0.5})())       # H1: out of Kim's reach
    assert "cannot end its move on H1" in view.verdict.value
    view.on_tap(type("Tap", (), {"x": 1.5, "y": 3.5})())       # Phillip has acted already
    assert view.selected == (1, 3)
    assert "is not taking its turn" in view.verdict.value
    assert not _IDS.search(view.verdict.value)


TIE = """kind = "situation"
id = "danger_tie"
title = "Kim's turn beside the Mi-Go, Phillip on its other side"
rules = "manual"
map = '''
+-+-+-+-+-+
|. P M K .|
+-+-+-+-+-+
'''

[unit.M]
card = "mi_go"

[unit.K]
card = "kim"
health = 1
stamina = 0

[unit.P]
card = "phillip"

[turn]
phase = "explorer"
active = "K"
"""


def test_manual_p16_the_choices_assumed_are_said_in_the_ask_answers_words():
    s = situation_from_text(TIE, "danger_tie")
    rules = s.rules()
    uid, state = whose_turn(s, "K", s.state_at(rules), rules)
    here = state.unit(uid).position
    found = risk_map(state, rules, uid)
    overlay = DangerOverlay(lambda board: s.state_at(rules))
    shown = overlay(BoardView(s.layout).board, rules, Pick(here, here))
    choices = found[here].choices
    assert choices, "the Mi-Go's tie is the explorers' choice"
    for c in choices:
        said = f"assumed to choose the {choice_phrase(c, lambda o: choice_words(state, o))}"
        assert any(said in line and CHOICE_REASON in line for line in shown.verdict)
    assert any("target of probe: Phillip (rather than Kim)" in line for line in shown.verdict)
    assert any("Mi-Go (M) plays Probe on it if the players choose it in a tie" in line
               for line in shown.verdict)
    assert not any(_IDS.search(line) for line in shown.verdict)


CROWD = """kind = "situation"
id = "danger_crowd"
title = "Kim's turn with five Mi-Go in play"
rules = "manual"
map = '''
+-+-+-+-+-+-+-+
|K . M N O Q R|
+-+-+-+-+-+-+-+
'''
""" + "".join(f'\n[unit.{m}]\ncard = "mi_go"\n' for m in "MNOQR") + """
[unit.K]
card = "kim"

[turn]
phase = "explorer"
active = "K"
"""


def test_a_position_beyond_the_limits_is_refused_in_one_line():
    s = situation_from_text(CROWD, "danger_crowd")
    rules = s.rules()
    overlay = DangerOverlay(lambda board: s.state_at(rules))
    shown = overlay(BoardView(s.layout).board, rules, Pick((0, 0)))
    assert shown.verdict == (f"5 monsters in the queue: the monster phase is computed for at "
                             f"most {MAX_MONSTERS}",)
    assert overlay.widget.layout.display == "none"


def test_manual_p15_the_monsters_whose_first_ability_aims_at_the_space():
    s, rules, state = _risk_map()
    uid, state = whose_turn(s, "K", state, rules)
    assert threats(state.update_unit(uid, position=(0, 0)), rules, uid) == ()
    aimed = threats(state.update_unit(uid, position=HALL), rules, uid)
    assert [(s.letter_of(t.monster), t.ability, t.hits) for t in aimed] == [
        ("M", "probe", (Fraction(5, 6),)), ("S", "rend", (Fraction(5, 6),))]


def test_the_health_chart_has_a_bar_and_a_percent_per_health():
    chart = health_chart_html({2: Fraction(1, 216), 1: Fraction(5, 72), 0: Fraction(25, 27)})
    assert chart.count("<tr>") == 4
    assert "0 (destroyed)" in chart and "25/27 (92.59%)" in chart and "width:92.6%" in chart


def test_the_analysis_board_danger_tool_and_the_monster_phase_chart():
    view = AnalysisBoardView()
    view.editor.start_from("situation:risk_map")
    answers = view.answers_html.value
    assert "class='danger-chart'" in answers and "0 (destroyed)" not in answers.split(
        "data-question='phase_risk'")[0]
    assert "Kim (K)</b>: destroyed <b>0 (0%)</b>" in answers
    view.editor.tool.value = "danger"
    view.editor.click(KIM)
    assert "19 spaces" in view.danger.html.value
    view.editor.click(HALL)
    words = view.danger.html.value
    assert "25/27 (92.59%)" in words and "Mi-Go (M)" in words and not _IDS.search(words)
    assert view.editor.view.sources["overlay_labels"].data["text"]
    view.editor.tool.value = "ask"
    assert view.danger.html.value == ""


def test_the_board_tab_offers_danger_on_the_demo_game_with_the_slider_s_stamina():
    app = Explorer()
    board = app.board
    assert "danger" in board.overlay.options
    board.overlay.value = "danger"
    board.stamina.value = 0                       # only its own space: one monster phase
    phillip = board.board.units()["A"]
    board.select(phillip)
    assert "With 0 stamina left, Phillip (A) can end its move on 1 space," in board.verdict.value
    board.aim(phillip)
    assert "If Phillip (A) ends its move on E1" in board.verdict.value
    assert "%" in board.verdict.value and not _IDS.search(board.verdict.value)
    board.choice.value = "2x2 shipped tiles"
    board.select(board.board.units()["A"])
    assert "pick the demo board" in board.verdict.value


def test_a_still_picture_fills_the_danger_scale_s_inner_square_too():
    board = BoardView(load_situation(SITUATIONS / "risk_map.toml").layout).board
    scene = draw(board, Highlights((((4, 1), "danger 75"), ((1, 1), "selected"))))
    filled = [p for p in scene.items if isinstance(p, Rect) and p.key == "role:danger 75"]
    assert [(f.x, f.y, f.w, f.fill) for f in filled] == [(4.1, 1.1, 0.8, "#54278f")]


def test_a_spawn_space_where_a_unit_stands_is_said_as_that_space_and_a_safe_space_as_safe():
    app = Explorer()
    board = app.board
    board.overlay.value = "danger"
    board.stamina.value = 1
    board.select(board.board.units()["A"])
    board.aim((4, 1))
    text = board.verdict.value
    assert "end point: I6 (where Mi-Go 1 stands) (rather than I7, K6)" in text
    assert "no monster now in play aims its first ability at it" in text
    s, rules, state = _risk_map()
    view = BoardView(s.layout, rules, overlay="danger",
                     overlays={"danger": DangerOverlay(lambda b: state)})
    view.select(KIM)
    view.aim((0, 0))
    assert "Who attacks it: no monster." in view.verdict.value
