"""The "Other games" tab without a browser: widgets drive the peers wing; plain words, fractions
with percentages, a legend for every colour."""

import pytest

from machina_nb.views.peers import OtherGamesView


@pytest.fixture(scope="module")
def view():
    return OtherGamesView()


def test_sight_on_one_map_under_both_games(view):
    assert "blocked by the wall between B1 and B2" in view.verdict_machina.value
    assert "visible along the line from the dot near the bottom-left corner of A1" in \
        view.verdict_mansions.value
    assert "Mansions summary (Line of Sight)" in view.verdict_mansions.value
    assert ".txt" not in view.verdict_mansions.value + view.distances.value
    view.source.value, view.target.value = (2, 1), (3, 1)      # through an open door
    assert "visible" in view.verdict_machina.value and "blocked" not in view.verdict_machina.value
    assert "the door between C2 and D2" in view.verdict_mansions.value
    mansions_sources = view._boards["mansions"][1]
    assert mansions_sources["overlay_lines"].data["role"] == ["blocked line"]
    view.source.value, view.target.value = (0, 0), (2, 1)


def test_the_geometric_readings_are_picked_in_the_tab(view):
    view.inset.value = "corner"
    assert "sight dots on the corners" in view.verdict_mansions.value
    assert "dot_inset" not in view.verdict_mansions.value
    view.inset.value = "eighth"


def test_the_chart_has_four_curves_with_fractions_and_percentages(view):
    data = view._curves["mansions"].data
    assert data["fraction"][data["x"].index(3)] == "7/10" and "70.0%" in data["percent"]
    assert view._curves["essence"].data["game"][0] == "1H2L + 2 essence"
    assert "7/10 (70.0%)" in view.curve_table.value
    view.essence.value = 0
    assert view._curves["essence"].data["y"] == view._curves["machina"].data["y"]
    view.essence.value = 2


def test_timing_shows_the_exact_value_of_deciding_after(view):
    assert "saved by deciding after" in view.timing.value
    assert "Machina Arcana" in view.timing.value and "Mansions of Madness" in view.timing.value
    assert "7/10 (≈ 0.70)" in view.timing.value  # Mansions: Luck 3 on attribute 3


def test_three_distance_notions_name_three_explorers(view):
    text = view.distances.value
    for row in ("Machina Arcana closest", "Arkham LCG nearest", "Machina Arcana nearest"):
        assert row in text
    assert "A 7, B 3, C 14" in text and "A 1, B 2, C 3" in text and "A 7, B 3, C 2" in text


def test_a_bad_bag_shows_one_line_and_changes_nothing(view):
    before = dict(view._curves["arkham"].data)
    view.bag.value = "+1,banana"
    assert "unknown token 'banana'" in view.chart_note.value.replace("&#x27;", "'")
    assert view._curves["arkham"].data == before
    view.bag.value = "+1,0,-1,auto_fail"
    assert "auto-fail" in view.chart_note.value
