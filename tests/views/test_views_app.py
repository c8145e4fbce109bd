"""The explorer app without a browser: one rules state for every tab, shown in words; a reading
flipped in the Rulings tab changes the Board tab's answer; tabs are built on first use."""

import pytest

from machina_nb.rules.rulings import Rules
from machina_nb.views.app import TAB_TITLES, TABS, Explorer

# On the demo board, A1 -> E5 runs exactly through a corner where walls meet (manual p22):
# blocked under the manual's reading, clear when a point never blocks (touch_ok).
SOURCE, TARGET = (0, 0), (4, 4)


@pytest.fixture
def app():
    return Explorer()


def sight_verdict(app) -> str:
    app.board.select(SOURCE)
    app.board.aim(TARGET)
    return app.board.verdict.value


def test_manual_p22_flipping_los_vertex_in_the_rulings_tab_changes_the_board_tab(app):
    assert "A1 cannot see E5" in sight_verdict(app)
    app.build_tab(TAB_TITLES.index("Rulings"))
    app.rulings.switch.value = "los.vertex"
    app.rulings.compare.value = "touch_ok"
    assert app.rules == Rules()                      # comparing changes nothing else
    app.rulings.use.click()
    assert app.rules == Rules().replace({"los.vertex": "touch_ok"})
    assert app.board.rules["los.vertex"] == "touch_ok"
    assert "A1 can see E5" in app.board.verdict.value
    assert "manual 1.0; changed: a corner never blocks sight" in app.in_force.value
    assert app.clear.layout.display != "none"


def test_the_line_above_the_tabs_names_the_preset_and_each_flipped_switch(app):
    assert app.in_force.value.endswith("manual 1.0") and app.clear.layout.display == "none"
    app.set_reading("los.vertex", "any_two")
    app.set_reading("nearest.metric", "manhattan")
    assert app.in_force.value.endswith("manual 1.0; changed: any corner where two walls meet "
                                       "blocks sight; nearest counts columns plus rows")
    assert app.flipped == (("los.vertex", "any_two"), ("nearest.metric", "manhattan"))


def test_another_preset_keeps_the_flipped_switches_until_they_are_cleared(app):
    app.set_reading("los.vertex", "any_two")
    app.preset.value = "v3_5"
    assert app.rules == Rules.preset("v3_5").replace({"los.vertex": "any_two"})
    assert "manual 1.0 with the 3.5 update; changed: any corner where two walls meet blocks " \
        "sight" in app.in_force.value
    app.clear.click()
    assert app.rules == Rules.preset("v3_5") and app.flipped == ()


def test_a_tab_built_after_a_flip_gets_the_rules_in_force_and_the_rulings_tab_shows_it(app):
    app.set_reading("los.vertex", "any_two")
    app.build_tab(TAB_TITLES.index("Odds"))
    assert app.odds.rules == app.processes.rules == app.rules
    app.build_tab(TAB_TITLES.index("Rulings"))
    assert app.rulings.rules == app.rules and "<b>any corner where two walls meet blocks sight</b> " \
        "(in force)" in app.rulings.about.value
    assert "any corner where two walls meet blocks sight (not the default)" in app.summary.value
    app.preset.value = "v3_5"
    assert app.odds.rules == app.rules == app.rulings.rules


def test_only_the_board_tab_is_built_when_the_app_opens(app):
    assert [title for title, _ in TABS][:1] == ["Board"] and len(TABS) == len(TAB_TITLES)
    assert all(hasattr(Explorer, method) for _, method in TABS)
    assert not hasattr(app, "odds") and not hasattr(app, "rulings")
    for index in range(1, len(TABS)):
        assert "tab-building" in app.tabs.children[index]._dom_classes
