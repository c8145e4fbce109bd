"""The rules object: presets, switches, differences."""

import pytest

from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import PRESETS, SWITCHES, Rules, _declared_problems


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


def test_reads_is_a_checked_comparison():
    rules = Rules().replace({"los.vertex": "touch_ok"})
    assert rules.reads("los.vertex", "touch_ok") and not rules.reads("los.vertex", "any_two")
    for reading in SWITCHES["los.vertex"].readings:
        assert rules.reads("los.vertex", reading) == (rules["los.vertex"] == reading)


@pytest.mark.parametrize("switch, reading, argument", [
    ("los.vertx", "touch_ok", "switch"),  # unknown on purpose
    ("los.vertex", "touch-ok", "los.vertex"),  # unknown on purpose
])
def test_reads_refuses_an_unknown_switch_or_reading(switch, reading, argument):
    with pytest.raises(RulesError) as info:
        Rules().reads(switch, reading)  # unknown on purpose
    assert info.value.argument == argument


def test_reading_an_unknown_switch_raises_naming_the_closest_declared_one():
    with pytest.raises(RulesError) as info:
        Rules()["los.vertx"]  # unknown on purpose
    assert info.value.argument == "switch" and "did you mean 'los.vertex'" in str(info.value)
    assert "los.vertx" not in Rules() and "los.vertex" in Rules()  # unknown on purpose


@pytest.mark.parametrize("make", [
    lambda: Rules({"spawn.proc": "v3_5"}),  # unknown on purpose
    lambda: Rules({"spawn.procedure": "v3.5"}),  # unknown on purpose
    lambda: Rules().replace(spawn_procedur="v3_5"),  # unknown on purpose
    lambda: Rules.preset("v35"),  # unknown on purpose
])
def test_unknown_names_are_refused_by_every_way_of_making_rules(make):
    with pytest.raises(RulesError):
        make()


def test_the_declarations_name_distinct_switches_readings_and_known_presets():
    assert _declared_problems() == []
