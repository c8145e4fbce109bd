"""The manual's worked examples (content/examples) run through the engine and end as stated."""

import pytest

from machina_nb.rules.content import content_root
from machina_nb.rules.engine.worked import VERBS, load_example, run_example
from machina_nb.rules.errors import ContentError

ENGINE_EXAMPLES = sorted(p for p in (content_root() / "examples").glob("*.toml")
                         if all(s.do in VERBS for s in load_example(p).steps))


def test_the_engine_runs_the_manual_examples():
    names = {p.stem for p in ENGINE_EXAMPLES}
    assert {"p16_example_a_sarall", "p16_example_b_mi_go_tie", "p17_example_c_long_route",
            "p17_example_c_budget", "p17_example_d_witch", "p17_example_e_kthun",
            "p17_example_f_envoy", "p19_contributing_explorers",
            "p24_attack_mi_go", "p25_push_pull", "p25_push_into_pit",
            "faq35_spawn_numbers", "p22_door_adjacency", "p33_gain_item_kim"} <= names


WORKED_EXAMPLES = (
    ["p16_example_a_sarall"], ["p16_example_b_mi_go_tie"],
    ["p17_example_c_long_route", "p17_example_c_budget"], ["p17_example_d_witch"],
    ["p17_example_e_kthun"], ["p17_example_f_envoy"], ["p22_door_adjacency"],
    ["p19_contributing_explorers"], ["p24_attack_mi_go"], ["p26_counted_conditions"],
    ["faq35_spawn_numbers"], ["p25_push_pull", "p25_push_into_pit"], ["p34_scroll_map_tile"],
    ["p33_gain_item_kim"], ["p21_card_reading_lorrai"], ["p22_map_tile_scope"],
    ["p23_advanced_abilities"], ["p31_inventory"], ["p19_displacer_vest"],
    ["p23_force_alternator"], ["p27_lasting_stacks"], ["p26_conditionals"],
    ["p27_marker_removal"], ["p28_chapter_ability"], ["p29_default_chapter"],
    ["p13_spawn_slider", "p14_horror_slider"], ["faq35_recharge_trade"],
)
"""The 27 worked examples of the manual and the 3.5 update (the monster's turn, sight, attacks,
items, chapters, the spawn and horror sliders), each with the example files that reproduce it."""


def test_every_worked_example_of_the_manual_is_reproduced_with_its_outcome():
    """27 of 27: each has a file the engine runs to its stated outcome (the test below)."""
    assert len(WORKED_EXAMPLES) == 27
    names = {p.stem for p in ENGINE_EXAMPLES}
    for files in WORKED_EXAMPLES:
        for name in files:
            assert name in names, f"{name} is not an engine-run example"
            example = load_example(content_root() / "examples" / f"{name}.toml")
            assert example.outcome.strip() and example.steps, name
            assert any(s.record.get("expect") is not None for s in example.steps), name


@pytest.mark.parametrize("path", ENGINE_EXAMPLES, ids=lambda p: p.stem)
def test_worked_example_ends_as_the_source_states(path):
    example = load_example(path)
    results = run_example(example)
    failed = [(r.step.do, r.got, r.expected) for r in results if not r.ok]
    assert not failed, f"{example.page}: {failed}"
    for r in results:
        assert all(e.rule for e in r.events)      # every event cites its rule


def test_monster_turn_events_cite_the_manual_pages():
    results = run_example(load_example(content_root() / "examples" /
                                       "p16_example_b_mi_go_tie.toml"))
    rules = {e.rule for r in results for e in r.events}
    assert "manual p15-17" in rules and "manual p24 (attack)" in rules


def test_an_unknown_verb_names_the_step(tmp_path):
    text = (content_root() / "examples" / "p19_contributing_explorers.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('do = "contributors"', 'do = "teleport_everyone"'))
    with pytest.raises(ContentError) as info:   # the loader refuses it: nothing runs
        load_example(bad)
    assert "unknown do 'teleport_everyone'" in info.value.message


@pytest.mark.parametrize("path", [p for p in ENGINE_EXAMPLES
                                  if any(s.do == "monster_turn" for s in load_example(p).steps)],
                         ids=lambda p: p.stem)
def test_manual_p16_a_monster_turn_is_kept_action_by_action_one_space_at_most(path):
    """Each action of a mindless turn is one step of its plan (manual p16: it thinks again
    after each), so the monster moves at most one space per action; the actions' events are
    the turn's events, in order."""
    for result in run_example(load_example(path)):
        if result.step.do != "monster_turn":
            continue
        assert result.actions, "every monster turn here ends without a choice"
        monster = result.actions[0].plan.monster
        for act in result.actions:
            assert all(e.rule for e in act.events + act.then)
            if act.after.has_unit(monster):
                (x0, y0), (x1, y1) = act.before.unit(monster).position, \
                    act.after.unit(monster).position
                assert max(abs(x1 - x0), abs(y1 - y0)) <= (act.plan.action.kind == "move")
            assert [e.text for e in act.events if e.kind == "reason"] == \
                [f"{monster}: {r}" for r in act.plan.reasons]
        assert tuple(e for a in result.actions for e in a.events + a.then) == result.events
        assert result.actions[-1].after.monster_turn is None or \
            result.actions[-1].after.monster_turn.monster != monster
