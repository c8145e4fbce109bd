"""The rules object: presets, switches, differences (spec appendix, §C, §D)."""

import pytest

from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules


def test_manual_is_the_default_preset():
    assert Rules() == Rules.preset("manual")
    assert all(Rules()[name] == switch.default for name, switch in SWITCHES.items())


def test_v3_5_changes_the_spawn_procedure_and_event_space_cost():
    differences = {name: (a, b) for name, a, b in Rules().differences(Rules.preset("v3_5"))}
    assert differences["spawn.procedure"] == ("v1_0", "v3_5")
    assert differences["cost.event_space"] == ("2", "1")
    assert differences["threat.levelup"] == ("on_reach", "on_increase_from_last")


def test_every_preset_reading_is_declared():
    for name in PRESETS:
        rules = Rules.preset(name)
        for switch, reading in rules.items():
            assert reading in SWITCHES[switch].readings


def test_replace_returns_a_new_object_and_leaves_the_old_unchanged():
    rules = Rules()
    flipped = rules.replace({"los.vertex": "any_two"})
    assert flipped["los.vertex"] == "any_two" and rules["los.vertex"] == "separating"
    assert flipped.name == "manual+"
    assert rules.replace(los_vertex="touch_ok")["los.vertex"] == "touch_ok"


@pytest.mark.parametrize("changes, argument", [
    ({"los.vertx": "any_two"}, "switch"),
    ({"los.vertex": "sometimes"}, "los.vertex"),
])
def test_unknown_switches_and_readings_are_refused_naming_the_argument(changes, argument):
    with pytest.raises(RulesError) as info:
        Rules().replace(changes)
    assert info.value.argument == argument


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        Rules().name = "x"


def test_summary_marks_readings_off_the_default():
    text = Rules.preset("v3_5").summary()
    assert "spawn.procedure" in text and "(default v1_0)" in text
