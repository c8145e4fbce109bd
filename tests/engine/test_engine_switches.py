"""Engine switches not covered elsewhere: each reading on a situation where they differ."""

from dataclasses import replace

import pytest
from engine_cases import explorer, monster, open_map

from machina_nb.rules.board.maptext import BorderKind, SpaceKind, parse_map
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.units import UnitCard
from machina_nb.rules.engine.actions import (
    Choose,
    Door,
    EndTurn,
    MonsterAct,
    Move,
    PlayAbility,
    apply,
    legal_actions,
)
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.game import new_game
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, MonsterTurn
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
GHOUL = monster("ghoul")
SUMMON = Ability("Summon", Cost(stamina=1), Targeting(), (Effect("spawn"),))


@pytest.mark.parametrize("reading, acts", [("acts_this_phase", 2), ("next_round", 1)])
def test_a_monster_spawned_in_the_monster_phase(reading, acts):
    """The first monster's ability spawns a monster: does it act this phase?"""
    caller = monster("caller", stamina=1, abilities=(SUMMON,))
    state = scenario(open_map(4, 3, {0: "s..s", 2: "E.C."}),
                     {"E": explorer("e"), "C": caller}, monsters=Deck((GHOUL,)))
    state = replace(state, phase="monster", done=(), monster_turn=MonsterTurn("caller"))
    rules = RULES.replace({"queue.mid_phase_spawn": reading})
    turns = set()
    while state.phase == "monster":
        action = legal_actions(state, rules)[0]
        assert isinstance(action, (MonsterAct, Choose))     # or where the new monster goes
        turns.add(action.actor)
        state, _ = apply(state, action, rules, ScriptedDice([0] * 6))
    turns.discard("players")
    assert len(turns) == acts and len(state.queue) == 2


@pytest.mark.parametrize("reading, top", [("9", 9), ("card_value", 4)])
def test_essence_maximum(reading, top):
    card = UnitCard("kim", "Kim", "explorer", armor=2, will=2, health=5, stamina=5,
                    essence_max=4)
    game = new_game(parse_map(open_map(2, 1)), [(card, (0, 0))],
                    rules=RULES.replace({"essence.max": reading}))
    assert game.unit("kim").max_essence == top


@pytest.mark.parametrize("reading, origins", [
    ("nearest_to_activating_explorer", None), ("players_choose_tile", ((0, 1), (3, 1))),
    ("all_tiles_each", None)])
def test_card_spawn_with_no_activating_unit(reading, origins):
    """A horror event's «enters play» spawns a monster; two explorers on two tiles."""
    state = scenario(open_map(4, 3, {0: "s..s", 1: "A..B"}), {"A": explorer("a"),
                                                             "B": explorer("b")},
                     tile_size=2, monsters=Deck((GHOUL, GHOUL)))
    r = new_resolution(state, RULES.replace({"spawn.card_origin": reading}), ScriptedDice())
    if reading == "all_tiles_each":
        resolve(r, (Effect("spawn"),), None, None, "horror event")
        assert len(r.state.queue) == 2
        return
    from machina_nb.rules.engine.resolution import NeedChoice
    with pytest.raises(NeedChoice) as info:
        resolve(r, (Effect("spawn"),), None, None, "horror event")
    assert info.value.options == ((0, 1), (3, 1))
    if origins is not None:   # with an activating explorer the players still choose
        r = new_resolution(state, RULES.replace({"spawn.card_origin": reading}), ScriptedDice())
        with pytest.raises(NeedChoice):
            resolve(r, (Effect("spawn"),), state.unit("a"), None, "explorer event")


def test_default_spawns_near_the_activating_explorer():
    state = scenario(open_map(4, 3, {0: "s..s", 1: "A..B"}), {"A": explorer("a"),
                                                             "B": explorer("b")},
                     tile_size=2, monsters=Deck((GHOUL,)))
    r = new_resolution(state, RULES, ScriptedDice())
    resolve(r, (Effect("spawn"),), state.unit("b"), None, "explorer event")
    assert r.state.monsters_in_play[0].position == (3, 0)


# --- scheming monsters (manual p15) ---------------------------------------------------------

def scheming():
    """A scheming monster (an explorer has died) with an open door on its border."""
    state = scenario("+-+-+-+\n|MdE l|\n+-+-+-+\n", {"M": monster("m", stamina=5),
                                                      "E": explorer("e")}, dead=("x",))
    return replace(state, phase="monster", done=(), monster_turn=MonsterTurn("m"))


def test_manual_p15_scheming_monsters_are_moved_by_the_players():
    state = scheming()
    actions = legal_actions(state, RULES)
    assert not any(isinstance(a, MonsterAct) for a in actions)
    doors = {(a.op) for a in actions if isinstance(a, Door)}
    assert doors == {"close", "destroy"}          # open doors too (manual p15: 3 and 4)
    assert EndTurn("m") in actions
    closed, _ = apply(state, Door("m", (0, 0), (1, 0), "close"), RULES)
    assert closed.unit("m").stamina == 2 and closed.border((0, 0), (1, 0)) is BorderKind.DOOR_CLOSED
    with pytest.raises(RulesError) as info:
        apply(state, MonsterAct("m"), RULES)
    assert "manual p15 (scheming)" in str(info.value)


def test_manual_p15_scheming_monster_turn_ends_and_the_round_goes_on():
    state = scheming()
    state, events = apply(state, EndTurn("m"), RULES)
    assert state.phase == "explorer" and state.round == 2


def test_scheming_monster_may_play_abilities_on_explorers():
    claw = Ability("Claw", Cost(stamina=2), Targeting("melee"), (Effect("attack", high=1),))
    state = scheming()
    state = state.update_unit("m", abilities=(claw,))
    state = state.update_unit("m", position=(0, 0))
    acts = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)]
    assert acts and all(a.actor == "m" for a in acts)
    moves = [a for a in legal_actions(state, RULES) if isinstance(a, Move)]
    assert moves == []        # the explorer blocks the only step


# --- move effects (manual p23; ruling D44) ----------------------------------------------------

DOOR_CORRIDOR = ("+-+-+-+-+\n"
                 "|M .D. E|\n"
                 "+ +-+-+ +\n"
                 "|. . . .|\n"
                 "+-+-+-+-+\n")


@pytest.mark.parametrize("reading, end", [("avoid_doors", (2, 1)), ("stop_at_closed_door", (1, 0)),
                                          ("path_ignoring_doors_but_cannot_cross", (1, 0))])
def test_monsters_move_up_to_2_and_a_closed_door(reading, end):
    """A horror event: "monsters move up to 2". Through the door is best, but effect movement
    has no stamina to destroy it."""
    state = scenario(DOOR_CORRIDOR, {"E": explorer("e"), "M": monster("m")})
    r = new_resolution(state, RULES.replace({"move_effect.mindless_doors": reading}), ScriptedDice())
    resolve(r, (Effect("move", scope="monsters_all_tiles", amount=2),), None, None, "event")
    assert r.state.unit("m").position == end
    assert r.state.unit("m").stamina == state.unit("m").stamina     # no stamina spent


def test_manual_p23_explorers_move_where_the_players_choose():
    dash = Ability("Dash", Cost(stamina=1), Targeting(), (Effect("move", scope="self", amount=2),))
    state = scenario(open_map(4, 1, {0: "A..."}), {"A": explorer("a", abilities=(dash,))})
    state = replace(state, active="a", turns=("a",))
    plays = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)]
    waiting, _ = apply(state, plays[0], RULES)
    options = legal_actions(waiting, RULES)
    assert sorted(a.option for a in options) == [(0, 0), (1, 0), (2, 0)]
    after, _ = apply(waiting, options[-1], RULES)
    assert after.unit("a").position == (2, 0) and after.unit("a").stamina == 3


# --- teleport, switch, trigger traps, start a new round (manual p25, p28, p37) ----------------

def test_manual_p25_teleport_within_and_switch_positions():
    blink = Ability("Blink", Cost(stamina=1), Targeting(), (Effect("teleport", scope="self",
                                                                   amount=1),))
    swap = Ability("Swap", Cost(stamina=1), Targeting("melee", 0, "monster"),
                   (Effect("switch"),))
    state = scenario(open_map(3, 1, {0: "AG."}), {"A": explorer("a", abilities=(blink, swap)),
                                                 "G": monster("ghoul")})
    state = replace(state, active="a", turns=("a",))
    blinks = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility) and a.index == 0]
    assert blinks == [PlayAbility("a", 0)]   # every space within 1 is taken: no choice, no move
    after, events = apply(state, PlayAbility("a", 1, (1, 0)), RULES)
    assert after.unit("a").position == (1, 0) and after.unit("ghoul").position == (0, 0)
    after, _ = apply(after, PlayAbility("a", 0, choices=((2, 0),)), RULES)
    assert after.unit("a").position == (2, 0)


def test_manual_p37_trigger_traps_effect_and_p28_start_a_new_round():
    state = scenario(open_map(3, 1, {0: "AGt"}), {"A": explorer("a"),
                                                 "G": monster("ghoul", armor=1)},
                     spaces={"G": SpaceKind.TRAPPED})
    r = new_resolution(replace(state, phase="monster", round=3), RULES, ScriptedDice([1, 0, 0]))
    resolve(r, (Effect("trigger_traps"), Effect("start_new_round")), state.unit("a"), None,
            "a horror event")
    assert r.state.unit("ghoul").health == 1
    assert r.state.phase == "explorer" and r.state.round == 4


@pytest.mark.parametrize("reading, size", [("full_core", 6), ("balanced_3_5", 4)])
def test_event_deck_preparation(reading, size):
    from machina_nb.rules.cards.events import EventCard
    core = [EventCard(f"core{i}", f"Core {i}", "horror") for i in range(4)]
    scenario_events = [EventCard(f"scen{i}", f"Scenario {i}", "horror") for i in range(2)]
    game = new_game(parse_map(open_map(2, 1)), [(explorer("a"), (0, 0))], horror_events=core,
                    scenario_horror_events=scenario_events,
                    rules=RULES.replace({"setup.event_decks": reading}))
    assert len(game.horror_events.cards) == size
    assert set(scenario_events) <= set(game.horror_events.cards)


# --- exploding barrels (manual p35; ruling D36) ------------------------------------------------

BARRELS = ("+-+-+-+-+\n"
           "|. b b G|\n"
           "+-+ + + +\n"
           "|E|. A .|\n"
           "+-+-+-+-+\n")


@pytest.mark.parametrize("chain, adjacency, ghoul_hit, explorer_hit", [
    ("yes_new_roll", "with_los", True, False), ("no", "with_los", False, False),
    ("yes_same_roll", "raw_8_neighbours", True, True)])
def test_barrel_chain_and_adjacency(chain, adjacency, ghoul_hit, explorer_hit):
    """A hits the barrel at (1, 0); a second barrel at (2, 0) stands next to a ghoul; explorer
    E touches the first barrel's corner, walled off from it."""
    state = scenario(BARRELS, {"A": explorer("a"), "E": explorer("e", armor=1),
                               "G": monster("ghoul", armor=1, health=3)})
    rules = RULES.replace({"barrel.chain": chain, "barrel.adjacency": adjacency})
    r = new_resolution(state, rules, ScriptedDice([1] + [1, 1, 1] * 3))
    resolve(r, (Effect("attack", low=1),), state.unit("a"), (1, 0), "shot")
    assert (1, 0) in r.state.destroyed
    assert (r.state.unit("ghoul").health < 3) is ghoul_hit
    assert (r.state.unit("e").health < 5) is explorer_hit


def test_manual_p35_a_barrel_is_a_unit_that_can_only_be_attacked():
    gun = Ability("Gun", Cost(stamina=1), Targeting("ranged", 3, "unit"), (Effect("attack",
                                                                                 low=1),))
    state = scenario(BARRELS, {"A": explorer("a", abilities=(gun,)), "E": explorer("e"),
                               "G": monster("ghoul")})
    state = replace(state, active="a", turns=("a",))
    targets = {a.target for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)}
    assert {(1, 0), (2, 0)} <= targets


@pytest.mark.parametrize("reading, hit", [("none", False), ("clamp0", True)])
def test_roll_floor_against_a_zero_defence(reading, hit):
    """A -1 roll modifier and a roll of 0 against armor 0: -1 misses, or 0 hits."""
    from machina_nb.rules.engine.state import Lasting
    state = scenario(open_map(2, 1, {0: "AG"}), {"A": explorer("a"),
                                                "G": monster("ghoul", armor=0, health=2)},
                     lasting=(Lasting("curse", "roll_modifier", "a", "horror", -1),))
    r = new_resolution(state, RULES.replace({"roll.floor": reading}), ScriptedDice([0]))
    resolve(r, (Effect("attack", low=1),), state.unit("a"), (1, 0), "jab")
    assert (r.state.unit("ghoul").health == 1) is hit


def test_manual_p25_a_controlled_monster_is_played_by_its_controller():
    dominate = Ability("Dominate", Cost(stamina=1), Targeting("melee", 0, "monster"),
                       (Effect("control"),))
    bite = Ability("Bite", Cost(stamina=1), Targeting("melee"), (Effect("attack", high=1),))
    state = scenario(open_map(4, 1, {0: "AGH."}), {"A": explorer("a", abilities=(dominate,)),
                                                  "G": monster("ghoul", abilities=(bite,)),
                                                  "H": monster("hound", abilities=(bite,))})
    state = replace(state, active="a", turns=("a",))
    state, _ = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert state.controller("ghoul") == "a"
    state, events = apply(state, EndTurn("a"), RULES)
    assert state.phase == "monster" and any("controlled by a" in e.text for e in events)
    actions = legal_actions(state, RULES)
    assert not any(isinstance(a, MonsterAct) for a in actions)
    bites = {a.target for a in actions if isinstance(a, PlayAbility) and a.actor == "ghoul"}
    assert bites == {(0, 0), (1, 0), (2, 0)}            # even the other monster (p25)
    state, _ = apply(state, PlayAbility("ghoul", 0, (2, 0)), RULES, ScriptedDice([3]))
    assert state.unit("hound").health == 1
    state, _ = apply(state, EndTurn("ghoul"), RULES)
    assert [type(a).__name__ for a in legal_actions(state, RULES)][:1] == ["MonsterAct"]


@pytest.mark.parametrize("reading, asked", [("mandatory", False), ("optional", True)])
def test_pushing_a_unit_into_a_lever(reading, asked):
    """Under 3.5's "can also" the players decide whether the pushed unit activates the lever."""
    from machina_nb.rules.engine.resolution import NeedChoice
    state = scenario(open_map(4, 1, {0: "AG.l"}), {"A": explorer("a"), "G": monster("ghoul")})
    r = new_resolution(state, RULES.replace({"traps.push_activation": reading}),
                   ScriptedDice([0, 0, 0]))
    try:
        resolve(r, (Effect("push", amount=3),), state.unit("a"), (1, 0), "shove")
    except NeedChoice as need:
        assert asked and need.options == ("activate", "decline")
        return
    assert not asked and (3, 0) in r.state.destroyed      # the lever was used


@pytest.mark.parametrize("reading, lit", [("all_tokens", False), ("destroyed_tokens", True)])
def test_refresh_map_space(reading, lit):
    """C-20: a used-up lit chapter space carries a light token and a destroyed token.
    Refresh removes every token (manual p35) or only destroyed tokens (the index)."""
    state = scenario(open_map(3, 1, {0: "Ah."}), {"A": explorer("a")})
    state = replace(state, lit=((1, 0),), destroyed=((1, 0),))
    r = new_resolution(state, RULES.replace({"refresh.removes": reading}), ScriptedDice(), (), "a")
    resolve(r, (Effect("refresh_space"),), state.unit("a"), (1, 0), "Renew")
    assert r.state.destroyed == () and ((1, 0) in r.state.lit) is lit
    assert r.state.space_kind((1, 0)) is SpaceKind.CHAPTER


@pytest.mark.parametrize("reading, plays", [("event_and_card", "Claw"),
                                            ("bound_event_and_card", "Gnaw")])
def test_monster_ability_sources(reading, plays):
    """C-14: the aid lets a monster play the horror events bound to it first; the manual
    knows only the current horror event and the card (manual p15, p20)."""
    from machina_nb.rules.cards.events import EventCard
    from machina_nb.rules.engine.monsters import mindless_step
    gnaw = Ability("Gnaw", Cost(stamina=1), Targeting("melee"), (Effect("attack", low=1),))
    hunger = EventCard("hunger", "Hunger", "horror", abilities=(gnaw,), binding=True)
    state = scenario(open_map(2, 1, {0: "AG"}), {"A": explorer("a"), "G": GHOUL})
    state = replace(state, phase="monster", monster_turn=MonsterTurn("ghoul"),
                    bound=(("ghoul", hunger),))
    rules = RULES.replace({"monster.ability_sources": reading})
    plan = mindless_step(state, rules, "ghoul")
    assert plan.action.kind == "ability" and any(f"plays {plays}" in why for why in plan.reasons)
    after, _ = apply(state, MonsterAct("ghoul"), rules, ScriptedDice([0] * 4))
    assert after.unit("ghoul").stamina == GHOUL.stamina - (1 if plays == "Gnaw" else 2)


@pytest.mark.parametrize("reading, hit", [("shared_total", {"ghoul", "brute"}),
                                          ("per_blocker", {"brute"})])
def test_essence_against_several_blockers(reading, hit):
    """D32: one roll of 2 against two blockers with armor 3 (manual p23: one roll for every
    blocker) and 1 essence to spend (manual p18). Shared: the total 3 hits both. Per blocker:
    the players choose the brute, and only the brute is hit."""
    ghoul, brute = monster("ghoul", armor=3, health=3), monster("brute", armor=3, health=3)
    state = scenario(open_map(3, 1, {0: "GAB"}), {"A": explorer("a"), "G": ghoul, "B": brute})
    state = state.update_unit("a", essence=2)
    rules = RULES.replace({"essence.multi_blocker": reading})
    r = new_resolution(state, rules, ScriptedDice([2]), ("brute",), "a")
    from machina_nb.rules.engine.effects import attack
    got = attack(r, "a", ("ghoul", "brute"), 1, 0, False, essence_budget=1)
    assert set(got) == hit and r.state.unit("a").essence == 1
    if reading == "per_blocker":            # unanswered, the choice is surfaced
        from machina_nb.rules.engine.resolution import NeedChoice
        with pytest.raises(NeedChoice):
            attack(new_resolution(state, rules, ScriptedDice([2]), (), "a"), "a", ("ghoul", "brute"),
                   1, 0, False, essence_budget=1)


@pytest.mark.parametrize("reading, after_roll, after_card, after_increase", [
    ("clamp_one", 1, 1, 2), ("seal_only", 0, -2, 1)])
def test_threat_floor(reading, after_roll, after_card, after_increase):
    """C-29: threat on the first position. Sealing a spawn space never goes below it (manual
    p36, both readings). A successful event-space roll (manual p37) and a card's -2 (manual p26)
    state no floor: clamp_one stops them at 1; seal_only keeps the deficit below position 1,
    and the next increase pays it back first (the state round-trips it)."""
    from machina_nb.rules.engine.actions import Activate, SealSpawn
    from machina_nb.rules.engine.effects import threat_up
    from machina_nb.rules.engine.saves import from_json, to_json
    rules = RULES.replace({"threat.floor": reading})
    state = scenario(open_map(3, 1, {0: "vPs"}), {"P": explorer("phillip", stamina=9)},
                     horror_rating=4, threat=1)
    state = replace(state, active="phillip").update_unit("phillip", essence=4)
    sealed, events = apply(state, SealSpawn("phillip", (2, 0)), rules)
    assert sealed.threat == 1 and any("manual p36" in e.rule for e in events
                                      if e.kind == "threat")
    rolled, events = apply(sealed, Activate("phillip", (0, 0), "roll"), rules, ScriptedDice([7]))
    assert rolled.threat == after_roll and from_json(to_json(rolled)) == rolled
    assert any(f"threat.floor = {reading}" in e.rule for e in events if e.kind == "threat")
    r = new_resolution(rolled, rules, ScriptedDice())
    resolve(r, (Effect("threat", amount=-2),), None, None, "a binding event's reward")
    assert r.state.threat == after_card
    r = new_resolution(rolled, rules, ScriptedDice())
    threat_up(r, 1, "a horror event")
    assert r.state.threat == after_increase and r.state.level == 1
