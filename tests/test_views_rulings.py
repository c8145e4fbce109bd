"""The rulings panel without a browser: every situation under every reading, and the widgets.

Each situation is a small board where the readings of its switch give different answers
(spec §D); the expected verdicts follow the catalogue's tables, translated to our
coordinates (y from the north).
"""

import pytest

from machina_nb.rules.rulings import load_rulings
from machina_nb.rules.rulings import SWITCHES, Rules
from machina_nb.views.rulings import SITUATIONS, RulingsPanel, answer, door_example_board

# (switch, situation index among that switch's situations, reading, what the verdict says)
EXPECTED = [
    ("los.vertex", 0, "separating", "visible"),
    ("los.vertex", 0, "touch_ok", "visible"),
    ("los.vertex", 0, "any_two", "blocked by the wall A1|B1 and the wall A1|A2"),
    ("los.vertex", 1, "separating", "are not adjacent"),
    ("los.vertex", 1, "touch_ok", "are adjacent"),
    ("los.vertex", 1, "any_two", "are not adjacent"),
    ("los.space_squeeze", 0, "blocked", "blocked by the space A1 and the space B2"),
    ("los.space_squeeze", 0, "visible", "visible"),
    ("ranged.obstacle_vertex", 0, "separating", "blocked by the space A2 and the space B3"),
    ("ranged.obstacle_vertex", 0, "corner_ok", "visible"),
    ("ranged.obstacle_vertex", 0, "any_touch", "blocked by the space A2 and the space B3"),
    ("move.diagonal", 0, "follow_los", "allowed; the cheapest way there costs 1 stamina"),
    ("move.diagonal", 0, "no_corner_cut", "not allowed; it cannot get there at all"),
    ("move.diagonal", 0, "one_L_open", "allowed; the cheapest way there costs 1 stamina"),
    ("nearest.metric", 0, "chebyshev", "unit N on C3, at distance 2 "),
    ("nearest.metric", 0, "euclidean", "unit N on C3, at distance 2√2"),
    ("nearest.metric", 0, "manhattan", "unit M on D1, at distance 3"),
]


def situation(switch, index):
    return [s for s in SITUATIONS if s.switch == switch][index]


@pytest.mark.parametrize("switch, index, reading, says", EXPECTED)
def test_spec_d_each_reading_of_each_situation(switch, index, reading, says):
    s = situation(switch, index)
    verdict = answer(s, s.build(), Rules().replace({switch: reading}))
    assert says in verdict
    if says in ("visible", "allowed; the cheapest way there costs 1 stamina"):
        assert "blocked" not in verdict and "not allowed" not in verdict


def test_every_reading_of_every_situation_switch_is_covered():
    for s in SITUATIONS:
        covered = {r for sw, _, r, _ in EXPECTED if sw == s.switch}
        assert covered == set(SWITCHES[s.switch].readings), s.switch
        answers = {answer(s, s.build(), Rules().replace({s.switch: r})) for r in covered}
        assert len(answers) >= 2, f"{s.title}: the readings must give different answers"


def test_manual_p22_door_example_board_closed_doors():
    board = door_example_board(closed=True)
    assert board.unit_at((0, 2)) == "L" and board.unit_at((1, 1)) == "P"
    assert board.border((0, 1), (1, 1)).name == "DOOR_CLOSED"
    assert door_example_board().border((0, 1), (1, 1)).name == "DOOR_OPEN"


def test_panel_shows_question_readings_and_sources_from_content():
    panel = RulingsPanel()
    ruling = load_rulings()["los.vertex"]
    assert "los.vertex" in panel.about.value
    assert "manual p22 (line of sight)" in panel.about.value and "spec" not in panel.about.value
    for reading in ruling.readings:
        assert f"<b>{reading}</b>" in panel.about.value
    assert list(panel.reading_a.options) == list(SWITCHES["los.vertex"].readings)


def test_spec_d1_flipping_los_vertex_changes_verdict_a_and_the_board_beside_it():
    panel = RulingsPanel()
    assert panel.reading_a.value == "separating"
    assert panel.reading_b.value == "any_two"  # the first reading that answers differently
    assert "visible" in panel.verdict_a.value and "blocked" in panel.verdict_b.value
    view_a = panel.sides.children[0]
    assert view_a.sources["overlay_points"].data["x"] == []
    panel.reading_a.value = "any_two"
    assert panel.rules["los.vertex"] == "any_two"
    assert "blocked by the wall" in panel.verdict_a.value
    assert view_a.sources["overlay_points"].data["x"] == [1.0]  # the blocking corner drawn


def test_the_p22_situation_and_switches_without_a_board():
    panel = RulingsPanel()
    panel.situation.value = [v for _, v in panel.situation.options][1]
    assert "are not adjacent" in panel.verdict_b.value  # B stays any_two
    panel.reading_b.value = "touch_ok"
    assert "are not adjacent" in panel.verdict_a.value and "are adjacent" in panel.verdict_b.value
    panel.switch.value = "move.squeeze"
    assert panel.situation.value is None
    assert "No board situation" in panel.verdict_a.value and panel.sides.children == ()
    panel.switch.value = "nearest.metric"
    # compared by default with the reading whose answer differs (another unit), not one that
    # only words the same answer differently
    assert panel.reading_b.value == "manhattan"
    assert "unit N on C3, at distance 2 " in panel.verdict_a.value
    assert "unit M on D1, at distance 3" in panel.verdict_b.value
    panel.reading_b.value = "manhattan"
    assert "unit M on D1, at distance 3" in panel.verdict_b.value


def test_preset_sets_reading_a_to_the_presets_reading():
    panel = RulingsPanel(switch="nearest.metric")
    for preset in ("manual", "v3_5", "player_aid"):
        panel.preset.value = preset
        assert panel.reading_a.value == Rules.preset(preset)["nearest.metric"]
        assert panel.rules == Rules.preset(preset).replace({"nearest.metric": panel.reading_a.value})
