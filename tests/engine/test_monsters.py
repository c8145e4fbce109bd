"""The mindless monster turn: the manual's Examples A-F (p16-17) and the monster switches.

Boards are our reconstructions of the manual's example pictures, with y flipped to our
coordinates (y grows south). Each test runs the monster's turn through the
engine and checks the outcome the manual states.
"""

from dataclasses import replace

import pytest
from engine_cases import CARDS, CLAW, decision, explorer, monster, open_map

from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.engine.actions import MonsterAct, apply, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.monsters import (
    PlannedAbility,
    PlannedEnd,
    explorer_distances,
    mindless_step,
)
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Lasting, MonsterTurn
from machina_nb.rules.rulings import Rules

RULES = Rules()
PHILLIP, LORRAI = explorer("phillip"), explorer("lorrai")


def monster_phase(state, monster_id):
    """The state at the start of ``monster_id``'s turn (stamina as set in the state)."""
    others = tuple(m for m in state.queue if m != monster_id)
    return replace(state, phase="monster", done=others, monster_turn=MonsterTurn(monster_id))


def run_turn(state, rules=RULES, dice=(), choices=()):
    """Step the current monster until its turn ends; returns (state, events, actions taken)."""
    monster_id = state.monster_turn.monster
    dice = ScriptedDice(dice)
    choices = list(choices)
    events, taken = [], []
    while state.phase == "monster" and monster_id not in state.done and state.has_unit(monster_id):
        actions = legal_actions(state, rules)
        acts = [a for a in actions if isinstance(a, MonsterAct)]
        action = acts[0] if len(acts) == 1 else next(a for a in acts if a.choices[0] == choices[0])
        if len(acts) > 1:
            choices.pop(0)
        state, new = apply(state, action, rules, dice)
        events += new
        taken += [e for e in new if e.kind in ("move", "ability", "door")]
        if state.monster_turn is None or state.monster_turn.monster != monster_id:
            break
    return state, events, taken


# --- Example A (manual p16) --------------------------------------------------------

def example_a():
    text = open_map(5, 5, {0: "L....", 3: "...P.", 4: "S...."})
    return monster_phase(scenario(text, {"P": PHILLIP, "L": LORRAI, "S": CARDS["sarall"]}),
                         "sarall")


def test_manual_p16_example_a_sarall_moves_twice_then_cannot_afford_its_ability():
    state, events, taken = run_turn(example_a())
    sarall = state.unit("sarall")
    assert [e.kind for e in taken] == ["move", "move"]
    assert sarall.position == (2, 3)          # orthogonally facing Phillip
    assert sarall.stamina == 2                # below the ability's cost 3: wasted
    assert any("costs 3 stamina, only 2 left" in e.text for e in events)


def test_manual_p16_example_a_plan_gives_its_reasons():
    plan = mindless_step(example_a(), RULES, "sarall")
    assert dict(plan.distances) == {"phillip": 3, "lorrai": 4}
    assert plan.target == "phillip" and plan.goal == (2, 3) and len(plan.path) == 2
    assert plan.action.kind == "move"
    assert any("manual p16" in r for r in plan.reasons)


# --- Examples B and C (manual p16-17) --------------------------------------------

MI_GO_MAP = open_map(4, 6, {3: ".X..", 4: "MXL.", 5: ".X.."})


def example_b(with_phillip=True, rows=None, stamina=5):
    rows = rows or {3: ".X..", 4: "MXL.", 5: ".X.."}
    if with_phillip:
        rows = {**rows, 1: "..P."}
    legend = {"L": explorer("lorrain", health=4)}
    if with_phillip:
        legend["P"] = explorer("phillip", health=2)
    legend["M"] = (CARDS["mi_go"], {"stamina": stamina})
    text = open_map(4, 6, rows)
    xs = [(x, y) for y, row in rows.items() for x, c in enumerate(row) if c == "X"]
    state = scenario(text.replace("X", "."), legend)
    extra = tuple(replace(state.unit("mi_go"), id=f"x{i}", position=p, abilities=(),
                          max_stamina=0, stamina=0, card="blocker")
                  for i, p in enumerate(xs))
    state = replace(state, units=state.units + extra, queue=state.queue + tuple(u.id for u in extra))
    return monster_phase(state, "mi_go")


def test_manual_p16_example_b_tie_then_phillip_closest_and_attacked():
    state = example_b()
    first = mindless_step(state, RULES, "mi_go")
    assert dict(first.distances) == {"lorrain": 2, "phillip": 3}
    state, events, taken = run_turn(state, dice=(1, 1))
    positions = [e.text for e in taken]
    assert positions[0].endswith("(0, 3) (1 stamina)") and positions[1].endswith("(1, 2) (1 stamina)")
    assert any("tie" not in e.text and "lorrain 2, phillip 2" in e.text for e in events)
    assert taken[2].kind == "ability" and "on (2, 1)" in taken[2].text   # Phillip
    assert state.unit("mi_go").position == (1, 2)


@pytest.mark.parametrize("reading", ["keep_current", "apply_tiebreak"])
@pytest.mark.parametrize("reevaluate", ["every_action", "after_moves_only"])
def test_manual_p17_example_b_is_robust_to_retarget_readings(reading, reevaluate):
    rules = RULES.replace({"retarget.on_tie": reading, "mindless.reevaluate": reevaluate})
    state, _, taken = run_turn(example_b(stamina=4), rules, dice=(1, 1))
    assert state.unit("mi_go").position == (1, 2)
    assert taken[-1].kind == "ability"


@pytest.mark.parametrize("reading, end", [("every_action", (1, 2)), ("after_moves_only", (1, 2))])
def test_reevaluate_after_the_ability(reading, end):
    """C-24: with 5 stamina the Mi-Go has 1 left after its ability; it re-targeted Phillip after
    its last move under both readings, so it stays."""
    rules = RULES.replace({"mindless.reevaluate": reading})
    state, _, taken = run_turn(example_b(stamina=5), rules, dice=(1, 1))
    assert state.unit("mi_go").position == end


def test_manual_p17_example_c_long_route_reaches_lorrain():
    state, _, taken = run_turn(example_b(with_phillip=False), dice=(0, 0))
    assert [e.kind for e in taken][:3] == ["move", "move", "move"]
    assert state.unit("mi_go").position == (2, 3)   # orthogonally adjacent to Lorrain


LONG = {2: ".X..", 3: ".X..", 4: "MXL.", 5: ".X.."}


@pytest.mark.parametrize("stamina, moves", [(5, 5), (4, 0)])
def test_manual_p16_plan_on_full_budget_or_do_not_move(stamina, moves):
    """A variant of the Sarall worked example: 5 moves round four blockers; with 4 stamina no end point is closer."""
    state, _, taken = run_turn(example_b(False, LONG, stamina))
    assert sum(e.kind == "move" for e in taken) == moves
    assert state.unit("mi_go").position == ((2, 3) if moves else (0, 4))


def test_aid_greedy_step_never_takes_the_detour():
    """C-27: under the aid's greedy reading the Mi-Go never starts the detour."""
    rules = RULES.replace({"mindless.movement": "greedy_step"})
    state, _, taken = run_turn(example_b(False, LONG, 5), rules)
    assert taken == [] and state.unit("mi_go").position == (0, 4)


# --- Example D (manual p17) --------------------------------------------------------

def test_manual_p17_example_d_witch_destroys_a_chest_then_reaches_phillip():
    text = open_map(4, 2, {0: "..c.", 1: "W..P"})
    state = monster_phase(scenario(text, {"P": explorer("phillip", will=3),
                                          "W": CARDS["witch"]}), "witch")
    state, events, taken = run_turn(state, dice=(2, 1, 1))   # 1 high + 2 low = 4 >= will 3
    assert [e.kind for e in taken] == ["move", "ability", "move"]
    assert (2, 0) in state.destroyed                           # the chest
    assert state.unit("witch").position == (2, 1) and state.unit("witch").stamina == 0
    assert state.unit("phillip").health == 4
    assert any("arcane" in e.text for e in events)


# --- Example E (manual p17) --------------------------------------------------------

TEND = Ability("Tend or smite", Cost(stamina=2), Targeting(), (Effect(
    "conditional", condition="any_monster_wounded_on_tile",
    then=(Effect("restore_health", scope="monsters_on_tile", amount=1),),
    otherwise=(Effect("attack", scope="explorers_on_tile", high=1, low=1, arcane=True),)),),
    once_per_turn=True)
KTHUN = replace(CARDS["kthun"], abilities=(TEND,))


def example_e(wounded=False):
    text = open_map(4, 3, {0: "K...", 2: "..PG"})
    state = scenario(text, {"P": explorer("phillip", will=2), "K": KTHUN,
                            "G": (monster("ghoul", health=3), {"health": 2 if wounded else 3})})
    return monster_phase(state, "kthun")


def test_manual_p17_example_e_kthun_heals_when_a_monster_is_wounded():
    state, _, taken = run_turn(example_e(wounded=True))
    assert state.unit("ghoul").health == 3 and len(taken) == 1
    assert state.unit("kthun").position == (0, 0)


def test_manual_p17_example_e_kthun_attacks_every_explorer_otherwise():
    state, _, taken = run_turn(example_e(), dice=(2, 1))
    assert state.unit("phillip").health == 4 and len(taken) == 1   # once per turn


def test_manual_p17_example_e_incapacitated_kthun_does_nothing():
    state = example_e()
    state = replace(state, lasting=(Lasting("stunning blow", "incapacitate", "kthun", "phillip"),))
    state, events, taken = run_turn(state)
    assert taken == [] and any("incapacitated" in e.text for e in events)


@pytest.mark.parametrize("reading, target", [("obstacle", "b"), ("rubble", "b"), ("ignore", "a")])
def test_immobile_unit_plugging_a_corridor(reading, target):
    """D9: an immobile unit in a 1-wide corridor; explorer a is 3 away through it, b 5 away."""
    text = ("+-+-+-+-+-+\n"
            "|M K . A .|\n"
            "+ +-+-+-+ +\n"
            "|. . . . B|\n"
            "+-+-+-+-+-+\n")
    # M to A through K: 3 steps; round the bottom to B: 5 steps, to A 6.
    state = scenario(text, {"A": explorer("a"), "B": explorer("b"),
                            "K": KTHUN, "M": monster("m", stamina=1)})
    state = monster_phase(state, "m")
    rules = RULES.replace({"closest.immobile_units": reading})
    plan = mindless_step(state, rules, "m")
    assert plan.target == target


# --- switches of the mindless turn ----------------------------------------------------------

@pytest.mark.parametrize("reading, distance", [("count_through", 3), ("avoid", 4)])
def test_closest_counts_through_pits_or_not(reading, distance):
    """D8: a column of pits between the Mi-Go and Lorrain (Example C with pits)."""
    state = scenario(open_map(4, 6, {3: ".o..", 4: "Mo.L", 5: ".o.."}),
                     {"L": explorer("lorrain"), "M": CARDS["mi_go"]})
    rules = RULES.replace({"closest.pits": reading})
    assert explorer_distances(state, rules, state.unit("lorrain"))[(0, 4)] == distance


def test_manual_p35_mindless_never_steps_into_a_pit():
    state = monster_phase(scenario(open_map(3, 1, {0: "MoE"}),
                                   {"E": explorer("e"), "M": monster("m")}), "m")
    state, _, taken = run_turn(state)
    assert taken == [] and state.unit("m").position == (0, 0)


def test_manual_p16_ties_go_to_lowest_health_then_the_players():
    text = open_map(5, 1, {0: "A.M.B"})
    state = monster_phase(scenario(text, {"A": explorer("a", health=3), "B": explorer("b",
                                                                                    health=3),
                                          "M": monster("m")}), "m")
    plan = mindless_step(state, RULES, "m")
    assert plan.options == ("a", "b") and "explorers choose" in plan.choice_of
    assert {a.choices for a in legal_actions(state, RULES)} == {("a",), ("b",)}
    decision(state, MonsterAct("m"), RULES)
    weaker = state.update_unit("b", health=2)
    assert mindless_step(weaker, RULES, "m").target == "b"


DOOR_MAP = ("+-+-+-+-+-+\n"
            "|M .D. . A|\n"
            "+ +-+-+-+ +\n"
            "|. . . . .|\n"
            "+-+-+-+-+-+\n")


@pytest.mark.parametrize("reading, first", [("free", (1, 0)), ("budgeted", (1, 1)),
                                            ("unaffordable_replan", (1, 0))])
def test_path_door_cost(reading, first):
    """D10: the route through the closed door is short; the open detour is longer."""
    state = monster_phase(scenario(DOOR_MAP, {"A": explorer("a"), "M": monster("m", stamina=5)}),
                          "m")
    plan = mindless_step(state, RULES.replace({"path.door_cost": reading}), "m")
    assert plan.path[0] == first


def test_manual_p16_mindless_destroys_a_blocking_closed_door_for_4():
    state = monster_phase(scenario(DOOR_MAP, {"A": explorer("a"), "M": monster("m", stamina=5)}),
                          "m")
    state, events, taken = run_turn(state)
    assert [e.kind for e in taken] == ["move", "door"]
    assert state.border((1, 0), (2, 0)).name == "DOOR_DESTROYED"
    assert state.unit("m").stamina == 0


@pytest.mark.parametrize("reading, goal, options", [
    ("tiebreak_only", (2, 2), ()), ("prefer_if_reachable", None, ((2, 3), (3, 2)))])
def test_facing_orthogonally(reading, goal, options):
    """D13: diagonal adjacency in 2 steps, orthogonal adjacency in 3 (stamina 3); the two
    orthogonal spaces tie, so the explorers choose."""
    text = open_map(5, 5, {0: "M....", 3: "...A."})
    state = monster_phase(scenario(text, {"A": explorer("a"), "M": monster("m", stamina=3,
                                                                           abilities=())}), "m")
    plan = mindless_step(state, RULES.replace({"facing.orthogonal": reading}), "m")
    assert (plan.goal, plan.options) == (goal, options)


@pytest.mark.parametrize("reading, moved", [("obstacles", True), ("ignored", False)])
def test_path_units(reading, moved):
    """D14: with units ignored in planning, Example C's Mi-Go is stuck behind the units."""
    state, _, taken = run_turn(example_b(with_phillip=False),
                               RULES.replace({"path.units": reading}), dice=(0, 0))
    assert (state.unit("mi_go").position == (2, 3)) is moved


@pytest.mark.parametrize("reading, moved", [("strict", False), ("replan_first", True)])
def test_mindless_blocked(reading, moved):
    """D14: planning with units ignored, Example C's Mi-Go finds its next space occupied.
    ``strict`` ends its turn there; ``replan_first`` re-plans round the units and walks on."""
    rules = RULES.replace({"path.units": "ignored", "mindless.blocked": reading})
    state, events, _ = run_turn(example_b(with_phillip=False), rules, dice=(0, 0))
    assert (state.unit("mi_go").position == (2, 3)) is moved
    assert any("mindless.blocked" in e.text for e in events)


@pytest.mark.parametrize("reading, end", [("closest_distance", (0, 2)),
                                          ("true_path_length", (3, 1))])
def test_closer_metric(reading, end):
    """D46: a line of monsters X walls the Mi-Go M off from A: closest distance 2 (units
    ignored), but 5 walking steps to adjacency. With 3 stamina no end point is closer by
    closest distance (manual p16: it does not move); by walking distance each step along the
    detour is, so it walks 3 steps to (3, 1), 2 steps from adjacency: set up for next round."""
    text = open_map(5, 3, {0: "A....", 1: "XYZ..", 2: "M...."})
    wall = {k: monster(k.lower(), abilities=()) for k in "XYZ"}
    state = monster_phase(scenario(text, {"A": explorer("a"), "M": monster("m", stamina=3,
                                                                           abilities=()),
                                          **wall}), "m")
    state, _, _ = run_turn(state, RULES.replace({"closer.metric": reading}))
    assert state.unit("m").position == end


@pytest.mark.parametrize("reading, goal, end, score", [
    ("closest_distance", (0, 2), (0, 2), 2), ("true_path_length", (2, 2), (2, 2), 3)])
def test_closer_metric_picks_the_end_point(reading, goal, end, score):
    """D46: units X, Y, Z fence A's corner. With 2 stamina the closest-distance best end point
    is (0, 2) (closest distance 2 in 1 step), but it is 5 by walking: as far as the start.
    By walking distance the best is (2, 2): 3 (two steps from (1, 0), A's one free adjacent
    space). Each reading picks its own end point (manual p16: the best end point, then the
    shortest path) and the monster ends there."""
    text = open_map(5, 4, {0: "A....", 1: "XY...", 2: ".Z...", 3: "M...."})
    fence = {k: monster(k.lower(), abilities=()) for k in "XYZ"}
    state = monster_phase(scenario(text, {"A": explorer("a"), "M": monster("m", stamina=2,
                                                                           abilities=()),
                                          **fence}), "m")
    rules = RULES.replace({"closer.metric": reading})
    plan = mindless_step(state, rules, "m")
    assert plan.goal == goal and plan.options == ()
    assert [s for q, s, _ in plan.ends if q == goal] == [score]
    after, _, _ = run_turn(state, rules)
    assert after.unit("m").position == end


@pytest.mark.parametrize("reading, end", [("remaining_stamina", (0, 4)), ("max_stamina", (0, 2))])
def test_replan_budget(reading, end):
    """D12: 2 of 5 stamina left (an ability took 3). Planning on the remaining 2 finds no closer
    end point; planning on the full 5 picks the 5-step route and walks 2 steps of it."""
    state = example_b(False, LONG, stamina=5).update_unit("mi_go", stamina=2)
    state, _, _ = run_turn(state, RULES.replace({"replan.budget": reading}))
    assert state.unit("mi_go").position == end


@pytest.mark.parametrize("reading, target", [("keep_current", "l"), ("apply_tiebreak", "p")])
def test_retarget_on_a_tie(reading, target):
    """D11: mid-turn the current target L (health 4) and P (health 2) are equally close."""
    text = open_map(5, 1, {0: "L.M.P"})
    state = scenario(text, {"L": explorer("l", health=4), "P": explorer("p", health=2),
                            "M": monster("m", abilities=())})
    state = replace(state, phase="monster", monster_turn=MonsterTurn("m", target="l",
                                                                      played=("move",)))
    plan = mindless_step(state, RULES.replace({"retarget.on_tie": reading}), "m")
    assert plan.target == target


@pytest.mark.parametrize("reading, seen", [("monster_tile", False), ("explorer_tile", True)])
def test_ethereal_explorer_and_lit_chapter_tile(reading, seen):
    """D40: an ethereal explorer on a tile with a lit chapter space; the monster's tile has none."""
    text = open_map(4, 1, {0: "M.Eh"})
    state = scenario(text, {"E": (explorer("e"), {"ethereal": True}), "M": monster("m")},
                     tile_size=2, lit=((3, 0),))
    state = monster_phase(state, "m")
    plan = mindless_step(state, RULES.replace({"targetable.for_monsters": reading}), "m")
    assert (plan.target == "e") is seen


def test_manual_p25_ethereal_explorers_are_ignored():
    text = open_map(5, 1, {0: "E.M.F"})
    state = monster_phase(scenario(text, {"E": (explorer("e"), {"ethereal": True}),
                                          "F": explorer("f", health=9),
                                          "M": monster("m")}), "m")
    plan = mindless_step(state, RULES, "m")
    assert plan.target == "f" and any("ethereal" in r for r in plan.reasons)


def test_manual_p17_immobile_monster_never_moves():
    text = open_map(4, 1, {0: "K..E"})
    state = monster_phase(scenario(text, {"E": explorer("e"), "K": (KTHUN, {"stamina": 0})}),
                          "kthun")
    state, _, taken = run_turn(state)
    assert taken == [] and state.unit("kthun").position == (0, 0)


def test_monster_abilities_target_any_adjacent_explorer_the_players_choose():
    text = open_map(3, 2, {0: "AMB"})
    state = monster_phase(scenario(text, {"A": explorer("a"), "B": explorer("b"),
                                          "M": monster("m", abilities=(CLAW,))}), "m")
    acts = legal_actions(state, RULES)
    assert {a.choices for a in acts} == {((0, 0),), ((2, 0),)}


def test_monster_phase_spawned_monster_uses_spawn_space_kind():
    assert SpaceKind.SPAWN.value == "s"


# --- Example F (manual p17) --------------------------------------------------------

def test_manual_p17_example_f_envoy_heads_for_the_rubble_and_stays():
    text = open_map(10, 1, {0: "r....M...E"})
    state = monster_phase(scenario(text, {"E": explorer("e"), "M": CARDS["envoy_of_dagon"]}),
                          "envoy_of_dagon")
    plan = mindless_step(state, RULES, "envoy_of_dagon")
    assert plan.target is None and plan.goal == (1, 0)
    assert any("Example F" in r for r in plan.reasons)
    state, _, taken = run_turn(state)
    assert state.unit("envoy_of_dagon").position == (1, 0) and len(taken) == 4
    stay = replace(state, done=(), monster_turn=MonsterTurn("envoy_of_dagon"))
    stay = stay.update_unit("envoy_of_dagon", stamina=4)
    assert mindless_step(stay, RULES, "envoy_of_dagon").action == PlannedEnd()


def test_manual_p17_example_f_envoy_attacks_an_explorer_within_3():
    text = open_map(10, 1, {0: "r....M..E."})
    state = monster_phase(scenario(text, {"E": explorer("e"), "M": CARDS["envoy_of_dagon"]}),
                          "envoy_of_dagon")
    plan = mindless_step(state, RULES, "envoy_of_dagon")
    assert plan.action == PlannedAbility(0, (8, 0))


def test_without_rubble_the_envoy_is_an_ordinary_mindless_monster():
    text = open_map(10, 1, {0: ".....M...E"})
    state = monster_phase(scenario(text, {"E": explorer("e"), "M": CARDS["envoy_of_dagon"]}),
                          "envoy_of_dagon")
    assert mindless_step(state, RULES, "envoy_of_dagon").target == "e"


@pytest.mark.parametrize("reading, first_move", [("every_action", (2, 0)),
                                                 ("after_moves_only", (4, 0))])
def test_reevaluate_after_an_ability(reading, first_move):
    """C-24: the monster shoves its adjacent target L far away; Phillip is now closer. Re-
    evaluating after every action turns it toward Phillip; after moves only it keeps L."""
    shove = Ability("Shove", Cost(stamina=1), Targeting("melee"), (Effect("push", amount=3),))
    text = open_map(8, 1, {0: "P..ML..."})
    state = monster_phase(scenario(text, {"P": explorer("p"), "L": explorer("l"),
                                          "M": monster("m", stamina=3, abilities=(shove,))}),
                          "m")
    state, _, taken = run_turn(state, RULES.replace({"mindless.reevaluate": reading,
                                                     "replan.when": "every_action"}))
    assert taken[0].kind == "ability" and state.unit("l").position == (7, 0)
    assert taken[1].kind == "move" and taken[1].text.endswith(f"-> {first_move} (1 stamina)")


@pytest.mark.parametrize("text", [
    open_map(4, 1, {0: "MGE."}),              # E's only free side is beyond a wall of units
    open_map(5, 2, {0: "M.GE.", 1: "...H."}),
])
def test_manual_p16_a_monster_that_cannot_walk_next_to_its_target_says_so_in_words(text):
    """Under closer.metric = true_path_length a target nobody can walk next to has no walking
    distance: the monster's reasons say so in words, never "None" (manual p16)."""
    cards = {"M": monster("m", stamina=3), "G": monster("g"), "E": explorer("e"),
             "H": monster("h")}
    state = monster_phase(scenario(text, {k: v for k, v in cards.items() if k in text}), "m")
    rules = RULES.replace({"closer.metric": "true_path_length"})
    plan = mindless_step(state, rules, "m")
    assert plan.reasons and not any("None" in reason for reason in plan.reasons)


# --- D12: when the path is established again (manual p16) ---------------------------------

@pytest.mark.parametrize("reading, end, stamina", [("on_target_change", (1, 1), 0),
                                                   ("every_action", (0, 3), 2)])
def test_manual_p16_d12_after_an_ability_the_path_is_kept_or_planned_again(reading, end,
                                                                           stamina):
    """Example C's board (p17) with a Witch next to a chest: it plans the 3-step way round the
    Saralls with 4 stamina, then spends 2 on the chest. on_target_change walks on along that
    path (2 steps); every_action plans again with 2 left, finds nothing closer and stays."""
    text = open_map(4, 5, {2: ".X..", 3: "WYL.", 4: "cZ.."})
    sarall = CARDS["sarall"]
    state = scenario(text, {"W": CARDS["witch"], "L": LORRAI, "X": (sarall, {"id": "x"}),
                            "Y": (sarall, {"id": "y"}), "Z": (sarall, {"id": "z"})})
    state = monster_phase(state, "witch")
    after, _, taken = run_turn(state, RULES.replace({"replan.when": reading}), dice=[0, 0, 0])
    assert taken[0].kind == "ability"
    assert after.unit("witch").position == end and after.unit("witch").stamina == stamina


@pytest.mark.parametrize("reading, moved", [("on_target_change", False), ("every_action", True)])
def test_manual_p16_d12_a_unit_pushed_into_the_established_path(reading, moved):
    """D12: mid-turn a unit now stands on the next step of the path the monster established.
    on_target_change keeps that path, so the step is blocked and the turn ends
    (mindless.blocked = strict); every_action plans again round the unit and walks on."""
    text = open_map(5, 3, {1: "MG..E"})
    state = scenario(text, {"M": monster("m", stamina=4), "G": monster("g"), "E": explorer("e")})
    path = ((0, 1), (1, 1), (2, 1), (3, 1))
    state = replace(state, phase="monster", done=("g",),
                    monster_turn=MonsterTurn("m", target="e", goal=(3, 1), path=path,
                                             played=("move",)))
    plan = mindless_step(state, RULES.replace({"replan.when": reading}), "m")
    assert (plan.action.kind == "move") is moved
    if not moved:
        assert any("occupied" in r and "blocked" in r for r in plan.reasons)
        assert any("switch replan.when" in r for r in plan.reasons)


@pytest.mark.parametrize("reading, seen", [("any_targeting", True), ("its_abilities", False)])
def test_manual_p25_p36_d40_which_targeting_counts_for_an_ethereal_explorer(reading, seen):
    """D40: the Witch, whose only ability aims at a chest, stands on a tile with a lit chapter
    space, as does the ethereal explorer. Allowed to target them, it heads for them under
    any_targeting; under its_abilities nothing it plays aims at an explorer, so it ignores them."""
    text = open_map(5, 1, {0: "W..Eh"})
    state = scenario(text, {"E": (explorer("e"), {"ethereal": True}), "W": CARDS["witch"]},
                     lit=((4, 0),))
    state = monster_phase(state, "witch")
    plan = mindless_step(state, RULES.replace({"targetable.which_targeting": reading}), "witch")
    assert (plan.target == "e") is seen
    if not seen:
        assert any("targetable.which_targeting" in r for r in plan.reasons)
    mi_go = monster_phase(scenario(text.replace("W", "M"), {"E": (explorer("e"),
                                                                  {"ethereal": True}),
                                                            "M": CARDS["mi_go"]},
                                   lit=((4, 0),)), "mi_go")    # a melee attacker: both agree
    assert mindless_step(mi_go, RULES.replace({"targetable.which_targeting": reading}),
                         "mi_go").target == "e"
