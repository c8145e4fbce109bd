"""Explorer actions: costs, refusals naming their rule, contributing explorers, chapter spaces,
action spaces, abilities, the attack on the Mi-Go (p24) and counted conditions (p26, p29)."""

from dataclasses import replace

import pytest
from engine_cases import (
    CARDS,
    CHAPTER,
    NEXT_CHAPTER,
    SHIVERS,
    WHISPER,
    decision,
    explorer,
    monster,
    open_map,
)

from machina_nb.rules.board.maptext import BorderKind, SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.actions import (
    Activate,
    ChapterSpace,
    Door,
    EndTurn,
    Move,
    PlayAbility,
    SealSpawn,
    StartTurn,
    apply,
    check,
    contributors,
    legal_actions,
)
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()


def turn(state, who):
    """The state with ``who`` taking their turn (explorer phase)."""
    return replace(state, phase="explorer", active=who, turns=(who,))


def refused(state, action, rules=RULES, rule="manual"):
    with pytest.raises(RulesError) as info:
        apply(state, action, rules, ScriptedDice())
    assert rule in str(info.value)
    return info.value


# --- moving and doors ---------------------------------------------------------------------

def test_manual_p34_move_costs_one_stamina_and_must_be_adjacent():
    state = turn(scenario(open_map(3, 1, {0: "A.."}), {"A": explorer("a", stamina=2)}), "a")
    after, events = apply(state, Move("a", (1, 0)), RULES)
    assert after.unit("a").position == (1, 0) and after.unit("a").stamina == 1
    assert events[0].rule.startswith("manual p34")
    error = refused(state, Move("a", (2, 0)), rule="manual p22, p34")
    assert error.argument == "to"


def test_manual_p12_illegal_actions_leave_the_state_unchanged():
    state = turn(scenario(open_map(2, 1, {0: "AB"}), {"A": explorer("a"), "B": explorer("b")}),
                 "a")
    before = to_json(state)
    refused(state, Move("a", (1, 0)), rule="manual p22, p34")        # occupied
    refused(state, Move("b", (0, 0)), rule="manual p12")              # not b's turn
    assert to_json(state) == before


def test_manual_p35_entering_a_pit_destroys_the_explorer():
    state = scenario(open_map(3, 1, {0: "AoB"}), {"A": explorer("a"), "B": explorer("b")})
    after, events = apply(turn(state, "a"), Move("a", (1, 0)), RULES)
    assert not after.has_unit("a") and after.dead == ("a",) and after.scheming


def test_manual_p36_doors_open_close_destroy_costs():
    state = scenario("+-+-+\n|ADB|\n+-+-+\n", {"A": explorer("a", stamina=9),
                                                "B": explorer("b")})
    state = turn(state, "a")
    opened, _ = apply(state, Door("a", (0, 0), (1, 0), "open"), RULES)
    assert opened.border((0, 0), (1, 0)) is BorderKind.DOOR_OPEN
    assert opened.unit("a").stamina == 7
    refused(opened, Door("a", (0, 0), (1, 0), "destroy"), rule="manual p36")  # only closed doors
    smashed, _ = apply(state, Door("a", (0, 0), (1, 0), "destroy"), RULES)
    assert smashed.border((0, 0), (1, 0)) is BorderKind.DOOR_DESTROYED
    assert smashed.unit("a").stamina == 5


# --- contributing explorers (manual p19) ---------------------------------------------

B8 = open_map(5, 4, {0: "....K", 1: "..Ph.", 2: ".H...", 3: "L...."})


def b8_state(hank_at=None):
    text = B8 if hank_at is None else open_map(5, 4, {0: ".H..K", 1: "..Ph.", 3: "L...."})
    legend = {"P": explorer("phillip", stamina=6), "K": explorer("kim"), "H": explorer("hank"),
              "L": explorer("lorrai")}
    state = scenario(text, legend, chapter=CHAPTER, chapters=Deck((NEXT_CHAPTER,)))
    return turn(state, "phillip")


def test_manual_p19_contributors_kim_hank_lorrai():
    assert set(contributors(b8_state(), RULES, "phillip", (3, 1))) == {"kim", "hank", "lorrai"}


def test_manual_p19_contributor_chain_broken():
    assert set(contributors(b8_state(hank_at=(1, 0)), RULES, "phillip", (3, 1))) == \
        {"kim", "hank"}


def test_manual_p19_others_pay_the_unlit_chapter_space_essence():
    state = b8_state()
    for who in ("kim", "hank", "lorrai"):
        state = state.update_unit(who, essence=1)
    action = ChapterSpace("phillip", (3, 1), (("kim", 1), ("hank", 1), ("lorrai", 1)))
    after, events = apply(state, action, RULES)
    assert after.unit("phillip").stamina == 3 and after.unit("phillip").essence == 0
    assert all(after.unit(w).essence == 0 for w in ("kim", "hank", "lorrai"))
    assert after.chapter == NEXT_CHAPTER and after.spawn_rating == 8
    assert (3, 1) in after.destroyed
    assert any(e.rule == "manual p19 (contributing explorers)" for e in events)


def test_manual_p19_a_non_adjacent_contributor_is_refused():
    state = b8_state(hank_at=(1, 0))
    state = state.update_unit("lorrai", essence=3)
    refused(state, ChapterSpace("phillip", (3, 1), (("lorrai", 3),)), rule="manual p19")


# --- chapter spaces (manual p36; rulings C-2, C-22) ----------------------------------------------

def lit_state(blocking=False):
    state = scenario(open_map(2, 1, {0: "Ph"}), {"P": explorer("phillip")},
                     chapter=replace(CHAPTER, blocking=blocking), chapters=Deck((NEXT_CHAPTER,)),
                     lit=((1, 0),))
    return turn(state, "phillip")


@pytest.mark.parametrize("reading, cost", [("1", 1), ("0", 0)])
def test_lit_chapter_space_cost(reading, cost):
    after, _ = apply(lit_state(), ChapterSpace("phillip", (1, 0)),
                     RULES.replace({"cost.chapter_lit": reading}))
    assert after.unit("phillip").stamina == 4 - cost and after.chapter == NEXT_CHAPTER


@pytest.mark.parametrize("reading, legal, consumed", [
    ("pay_and_consume", True, True), ("illegal", False, False), ("pay_no_consume", True, False)])
def test_chapter_space_in_a_blocking_chapter(reading, legal, consumed):
    state, rules = lit_state(blocking=True), RULES.replace({"chapter_space.when_blocked": reading})
    if not legal:
        refused(state, ChapterSpace("phillip", (1, 0)), rules, rule="chapter_space.when_blocked")
        return
    after, _ = apply(state, ChapterSpace("phillip", (1, 0)), rules)
    assert after.chapter == state.chapter and ((1, 0) in after.destroyed) is consumed


# --- seal spawn space, light chapter (manual p36; rulings C-23, D39) -----------------------------

def seal_state(map_row="hPs.h"):
    state = scenario(open_map(5, 1, {0: map_row}), {"P": explorer("phillip")}, threat=3)
    return turn(state.update_unit("phillip", essence=4), "phillip")


def test_manual_p36_seal_spawn_space():
    after, events = apply(seal_state(), SealSpawn("phillip", (2, 0), choices=((0, 0),)), RULES)
    assert after.threat == 2 and (2, 0) in after.destroyed
    assert after.unit("phillip").stamina == 1 and after.unit("phillip").essence == 0
    assert after.lit == ((0, 0),)


@pytest.mark.parametrize("reading, options", [("nearest", ((0, 0),)),
                                              ("any_on_tile", ((0, 0), (4, 0)))])
def test_light_chapter_choice(reading, options):
    """Under any_on_tile the seal waits for the players to pick the chapter space to light."""
    rules = RULES.replace({"light_chapter.choice": reading})
    seals = [a for a in legal_actions(seal_state(), rules) if isinstance(a, SealSpawn)]
    assert seals == [SealSpawn("phillip", (2, 0))]
    after, _ = apply(seal_state(), seals[0], rules)
    assert (after.decision.options if after.decision else after.lit) == options


@pytest.mark.parametrize("reading, lit", [("nothing", ()), ("nearest_any_tile", ((3, 0),))])
def test_light_chapter_with_none_on_the_tile(reading, lit):
    state = scenario(open_map(4, 1, {0: "Ps.h"}), {"P": explorer("phillip")}, tile_size=3,
                     threat=2)
    state = turn(state.update_unit("phillip", essence=4), "phillip")
    after, _ = apply(state, SealSpawn("phillip", (1, 0)),
                     RULES.replace({"light_chapter.no_target": reading}))
    assert after.lit == lit


# --- action spaces (manual p37; 3.5; ruling C-1) -------------------------------------------------

@pytest.mark.parametrize("preset, cost", [("manual", 2), ("v3_5", 1), ("player_aid", 3)])
def test_event_space_cost(preset, cost):
    state = scenario(open_map(2, 1, {0: "Pv"}), {"P": explorer("phillip")},
                     explorer_events=Deck((WHISPER,)))
    after, events = apply(turn(state, "phillip"), Activate("phillip", (1, 0), "essence"),
                          Rules.preset(preset))
    assert after.unit("phillip").stamina == 4 - cost
    assert after.unit("phillip").essence == 2       # 1 for the space, 1 from Whisper
    assert after.explorer_events.destroyed == (WHISPER,) and (1, 0) in after.destroyed


@pytest.mark.parametrize("roll, threat", [(4, 1), (3, 2)])
def test_manual_p37_event_space_roll_against_the_horror_rating(roll, threat):
    state = scenario(open_map(2, 1, {0: "Pv"}), {"P": explorer("phillip")}, horror_rating=4,
                     threat=2, horror_events=Deck((), (SHIVERS,)))
    after, events = apply(turn(state, "phillip"), Activate("phillip", (1, 0), "roll"), RULES,
                          ScriptedDice([roll, 0, 0]))
    assert after.threat == threat
    assert any("reinvoke" in e.text for e in events) is (roll < 4)


def test_manual_p37_chest_restores_essence_and_is_destroyed():
    state = turn(scenario(open_map(2, 1, {0: "Pc"}), {"P": explorer("phillip")}), "phillip")
    after, _ = apply(state, Activate("phillip", (1, 0)), RULES)
    assert after.unit("phillip").essence == 1 and after.unit("phillip").stamina == 1
    refused(after, Activate("phillip", (1, 0)), rule="manual p37")


TRAPS = open_map(6, 1, {0: "tlAlBt"})


@pytest.mark.parametrize("reading, hits", [("other_nondestroyed", 0), ("any_including_activated",
                                                                     1)])
def test_which_levers_count_for_the_secondary_attack(reading, hits):
    """B stands next to the very lever A activates (1, 0): does it count for B's attack?"""
    state = scenario(open_map(4, 1, {0: "AlBG"}), {"A": explorer("a"), "B": explorer("b"),
                                                   "G": monster("ghoul", armor=5, health=3)},
                     spaces={"G": SpaceKind.TRAPPED})
    rules = RULES.replace({"traps.secondary_levers": reading})
    after, _ = apply(turn(state, "a"), Activate("a", (1, 0)), rules,
                     ScriptedDice([0, 0, 3, 2, 2, 2]))
    assert 3 - after.unit("ghoul").health == hits


@pytest.mark.parametrize("reading, rolls, hits", [
    ("per_explorer_own_tile", [0, 0, 3, 2, 2, 2], 1),
    ("once_activating_tile", [0, 0, 3, 2, 2, 2], 1),
    ("none", [0, 0, 3], 0)])
def test_secondary_trap_attacks(reading, rolls, hits):
    """A pulls lever (1, 0); B stands next to the other lever (3, 0); a monster is trapped."""
    state = scenario(TRAPS.replace("|t l A l B t|", "|t l A l B G|"),
                     {"A": explorer("a"), "B": explorer("b"), "G": monster("ghoul", armor=5,
                                                                              health=3)},
                     spaces={"G": SpaceKind.TRAPPED})
    rules = RULES.replace({"traps.secondary": reading})
    after, events = apply(turn(state, "a"), Activate("a", (1, 0)), rules, ScriptedDice(rolls))
    assert 3 - after.unit("ghoul").health == hits


# --- abilities, the attack example (manual p24) --------------------------------------

GUN = Ability("Arc pistol", Cost(stamina=2), Targeting("ranged", 3, "monster"),
              (Effect("attack", high=1, low=1),))


def mi_go_state(wounded):
    state = scenario(open_map(3, 1, {0: "P.M"}),
                     {"P": explorer("phillip", abilities=(GUN,)),
                      "M": (CARDS["mi_go"], {"health": 1 if wounded else 2})})
    return turn(state, "phillip")


@pytest.mark.parametrize("wounded", [False, True])
def test_manual_p24_attack_on_the_mi_go_just_barely_hits(wounded):
    state = mi_go_state(wounded)
    after, events = apply(state, PlayAbility("phillip", 0, (2, 0)), RULES, ScriptedDice([2, 1]))
    assert any("total 3" in e.text for e in events) and any(e.kind == "hit" for e in events)
    if wounded:
        assert not after.has_unit("mi_go") and after.queue == ()
        assert after.unit("phillip").essence == 1          # destroyed on Phillip's turn
    else:
        assert after.unit("mi_go").health == 1


def test_manual_p18_essence_spent_after_the_roll_turns_a_miss_into_a_hit():
    state = mi_go_state(False).update_unit("phillip", essence=2)
    after, events = apply(state, PlayAbility("phillip", 0, (2, 0), essence=2), RULES,
                          ScriptedDice([1, 1]))
    assert after.unit("mi_go").health == 1 and after.unit("phillip").essence == 1


def test_open_dice_list_the_outcomes_with_exact_probabilities():
    from fractions import Fraction
    with pytest.raises(ChanceNode) as info:
        apply(mi_go_state(False), PlayAbility("phillip", 0, (2, 0)), RULES)
    assert dict(info.value.outcomes) == {0: Fraction(1, 6), 1: Fraction(1, 3),
                                         2: Fraction(1, 3), 3: Fraction(1, 6)}


@pytest.mark.parametrize("reading, essence", [("killer_on_own_turn", 1), ("turn_owner", 1),
                                              ("killer_any_time", 1)])
def test_kill_credit_on_own_turn(reading, essence):
    after, _ = apply(mi_go_state(True), PlayAbility("phillip", 0, (2, 0)),
                     RULES.replace({"essence.kill_credit": reading}), ScriptedDice([3, 0]))
    assert after.unit("phillip").essence == essence


@pytest.mark.parametrize("reading, phase, phillip, ann", [
    ("killer_on_own_turn", "explorer", 0, 0), ("turn_owner", "explorer", 1, 0),
    ("killer_any_time", "explorer", 0, 1),
    ("killer_on_own_turn", "monster", 0, 0), ("turn_owner", "monster", 0, 0),
    ("killer_any_time", "monster", 0, 1)])
def test_manual_p18_p19_kill_credit_when_another_explorer_kills(reading, phase,
                                                                         phillip, ann):
    """Ann kills the Mi-Go with a free ability during Phillip's turn, or during the Monster
    phase: p18 credits the explorer whose turn it is, p19 the explorer who destroyed it."""
    state = scenario(open_map(3, 1, {0: "PAM"}), {"P": explorer("phillip"),
                                                 "A": explorer("ann"),
                                                 "M": (CARDS["mi_go"], {"health": 1})})
    state = replace(state, phase=phase, active="phillip" if phase == "explorer" else None)
    r = new_resolution(state, RULES.replace({"essence.kill_credit": reading}),
                       ScriptedDice([3, 2]))
    resolve(r, (Effect("attack", high=1, low=1),), state.unit("ann"), (2, 0), "free strike")
    assert not r.state.has_unit(state.queue[0])
    assert (r.state.unit("phillip").essence, r.state.unit("ann").essence) == (phillip, ann)


# --- counted conditions (manual p26, p29) -------------------------------------------

BLEED = Ability("Bleed for the way", Cost(health=1), Targeting(), (
    Effect("count", amount=4, key="bleed", then=(Effect("next_chapter"),)),))


def bleed_state():
    chapter = replace(CHAPTER, blocking=True, abilities=(BLEED,))
    state = scenario(open_map(2, 1, {0: "AB"}), {"A": explorer("a"), "B": explorer("b")},
                     chapter=chapter, chapters=Deck((NEXT_CHAPTER,)), horror_rating=4)
    return turn(state, "a")


def test_manual_p29_counted_chapter_ability_across_explorers_and_phases():
    state = bleed_state()
    state, _ = apply(state, PlayAbility("a", 0), RULES)
    state, _ = apply(state, EndTurn("a"), RULES)
    state, _ = apply(state, StartTurn("b"), RULES)
    state, _ = apply(state, PlayAbility("b", 0), RULES)
    state, _ = apply(state, PlayAbility("b", 0), RULES)
    assert state.count("bleed") == 3 and state.unit("b").health == 3
    state, _ = apply(state, EndTurn("b"), RULES)
    assert state.phase == "horror"
    state, events = apply(state, PlayAbility("a", 0), RULES)   # no stamina: out of turn is fine
    assert state.chapter == NEXT_CHAPTER and state.count("bleed") == 0


def test_manual_p12_abilities_costing_stamina_only_on_your_turn():
    state = bleed_state()
    stab = Ability("Stab", Cost(stamina=1), Targeting("melee", target="explorer"),
                   (Effect("attack", low=1),))
    state = state.update_unit("b", abilities=(stab,))
    refused(state, PlayAbility("b", 0, (0, 0)), rule="manual p12, p20")


# --- save and load ------------------------------------------------------------------------

def test_save_load_round_trips_exactly():
    state = bleed_state()
    state, _ = apply(state, PlayAbility("a", 0), RULES)
    assert from_json(to_json(state)) == state


def test_load_refuses_bad_text():
    with pytest.raises(RulesError) as info:
        from_json("{not json")
    assert info.value.argument == "text"


def test_check_names_the_argument():
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")}), "a")
    with pytest.raises(RulesError) as info:
        check(state, PlayAbility("a", 7), RULES)
    assert info.value.argument == "index"


# --- a binding event counting kills (manual p26) ------------------------------------

OATH = EventCard("oath", "Blood oath", "explorer", binding=True, on_kill=(
    Effect("count", amount=3, key="oath", then=(
        Effect("light_chapter"), Effect("threat", amount=-2),
        Effect("destroy_bound_event", key="oath"))),))
SHOVE = Ability("Shove", Cost(stamina=1), Targeting("melee", 0, "monster"),
                (Effect("push", amount=2),))
BANISH = Ability("Banish", Cost(stamina=1), Targeting("melee", 0, "monster"), (Effect("banish"),))


def oath_state(kills_so_far):
    state = scenario(open_map(4, 2, {0: "PG.o", 1: "h..."}),
                     {"P": explorer("phillip", abilities=(SHOVE, BANISH)),
                      "G": monster("ghoul")}, threat=4, bound=(("phillip", OATH),),
                     counts=(("oath", kills_so_far),))
    return turn(state, "phillip")


def test_manual_p26_a_push_into_a_pit_is_a_kill_that_counts():
    after, events = apply(oath_state(2), PlayAbility("phillip", 0, (1, 0)), RULES)
    assert not after.has_unit("ghoul")
    assert after.lit == ((0, 1),) and after.threat == 2 and after.bound == ()
    assert after.explorer_events.destroyed == (OATH,) and after.count("oath") == 0


def test_manual_p26_banish_is_not_a_kill():
    after, _ = apply(oath_state(2), PlayAbility("phillip", 1, (1, 0)), RULES)
    assert not after.has_unit("ghoul") and after.count("oath") == 2 and after.threat == 4


@pytest.mark.parametrize("pay, health, essence", [("health", 4, 2), ("essence", 5, 1)])
def test_manual_p18_essence_may_pay_for_health(pay, health, essence):
    """B10(b): the chapter's 'lose 1 health' cost may be paid with essence instead."""
    state = bleed_state().update_unit("a", essence=2)
    actions = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
               and a.actor == "a"]
    assert actions == [PlayAbility("a", 0)]
    assert sorted(decision(state, actions[0], RULES).options) == ["essence", "health"]
    after, _ = apply(state, PlayAbility("a", 0, choices=(pay,)), RULES)
    assert (after.unit("a").health, after.unit("a").essence) == (health, essence)
    assert after.count("bleed") == 1


# --- refusals name their rule; legal actions come in the documented order ----------------------

def busy_state():
    text = ("+-+-+-+-+\n"
            "|AD. c v|\n"
            "+ + + + +\n"
            "|s . B h|\n"
            "+-+-+-+-+\n")
    state = scenario(text, {"A": explorer("a", abilities=(GUN,)), "B": explorer("b")})
    return turn(state, "a")


ILLEGAL = [
    Move("a", (3, 1)), Move("b", (1, 1)), Door("a", (0, 0), (0, 1), "open"),
    Door("a", (0, 0), (1, 0), "destroy"), Activate("a", (2, 0)), Activate("a", (0, 1)),
    ChapterSpace("a", (3, 1)), SealSpawn("a", (0, 1)), PlayAbility("a", 0, (3, 1)),
    PlayAbility("a", 5), StartTurn("b"), EndTurn("b")]


@pytest.mark.parametrize("action", ILLEGAL, ids=lambda a: type(a).__name__)
def test_illegal_actions_are_refused_with_their_rule_and_change_nothing(action):
    state = busy_state().update_unit("a", stamina=1)
    before = to_json(state)
    with pytest.raises(RulesError) as info:
        apply(state, action, RULES, ScriptedDice())
    assert "manual p" in str(info.value)
    assert to_json(state) == before and action not in legal_actions(state, RULES)


def test_legal_actions_come_in_the_documented_order():
    kinds = [type(a).__name__ for a in legal_actions(busy_state(), RULES)]
    order = ["Move", "Door", "Activate", "ChapterSpace", "SealSpawn", "Exit", "PlayAbility",
             "EndTurn"]
    ranks = [order.index(k) for k in kinds]
    assert ranks == sorted(ranks) and kinds[-1] == "EndTurn"
    moves = [a.to for a in legal_actions(busy_state(), RULES) if isinstance(a, Move)]
    assert moves == sorted(moves)


# --- exit token chapters (manual p28, p34) ------------------------------------

EDGES = ("+-+E+-+\n"
         "|. . .e\n"
         "+ + + +\n"
         "|A . G|\n"
         "+-+-+-+\n")


def test_manual_p28_exit_token_chapter_and_the_last_explorer_out():
    from machina_nb.rules.cards.events import Chapter
    from machina_nb.rules.engine.actions import Exit
    escape = Chapter("escape", "Escape", 5, 4, blocking=True, places_exit=True,
                     enters_play=(Effect("place_exit_token"),))
    regroup = Chapter("regroup", "Regroup", 6, 4, enters_play=(Effect("place_entry_token"),))
    state = scenario(EDGES, {"A": explorer("a"), "G": monster("ghoul")}, chapter=CHAPTER,
                     chapters=Deck((escape, regroup)))
    from machina_nb.rules.engine.effects import next_chapter
    r = new_resolution(turn(state, "a"), RULES, ScriptedDice(), actor="a")
    next_chapter(r, "test")
    state = r.state
    assert state.chapter == escape and state.exit_token == (2, 0)
    refused(state, Exit("a"), rule="manual p34")            # not on the token yet
    state = state.update_unit("a", position=(2, 0))
    after, events = apply(state, Exit("a", choices=((1, 0),)), RULES)
    assert not after.queue                                   # monsters banished
    assert after.chapter == regroup and after.exit_token is None
    assert after.unit("a").position == (1, 0) and after.exited == ()
    assert any(e.kind == "banished" for e in events)


# --- a "close target door" ability (manual p22) ---------------------------------------------

SHUT = Ability("Shut", Cost(stamina=1), Targeting("ranged", 3, "space"), (Effect("close_door"),))
DOORS = ("+-+-+-+-+\n"
         "|A .d.d.|\n"
         "+ + + + +\n"
         "|. . . .|\n"
         "+-+-+-+-+\n")


def test_manual_p22_a_door_ability_closes_a_door_on_the_targeted_space_players_choose():
    state = turn(scenario(DOORS, {"A": explorer("a", abilities=(SHUT,))}), "a")
    after, events = apply(state, PlayAbility("a", 0, (1, 0)), RULES)   # one door there
    assert after.border((1, 0), (2, 0)) is BorderKind.DOOR_CLOSED
    assert any(e.kind == "door" and "manual p22" in e.rule for e in events)
    need = decision(state, PlayAbility("a", 0, (2, 0)), RULES)
    assert need.options == (((2, 0), (1, 0)), ((2, 0), (3, 0)))
    after, _ = apply(state, PlayAbility("a", 0, (2, 0), choices=(((2, 0), (3, 0)),)), RULES)
    assert after.border((2, 0), (3, 0)) is BorderKind.DOOR_CLOSED
    assert after.border((1, 0), (2, 0)) is BorderKind.DOOR_OPEN


def test_manual_p22_no_open_door_on_the_targeted_space_closes_nothing():
    state = turn(scenario(DOORS, {"A": explorer("a", abilities=(SHUT,))}), "a")
    after, events = apply(state, PlayAbility("a", 0, (1, 1)), RULES)
    assert after.borders == state.borders
    assert any("no open door" in e.text for e in events)


# --- the state's copies ---------------------------------------------------------------------

def test_state_evolve_is_dataclasses_replace_with_the_same_checks():
    """The engine's fast copy gives what ``replace`` gives and refuses what it refuses
    (manual p25: no unit ends on another; p15: the queue holds the monsters in play)."""
    state = scenario(open_map(4, 1, {0: "AM.."}),
                     {"A": explorer("a"), "M": monster("m")})
    changes = {"round": 3, "lit": ((2, 0), (2, 0)), "destroyed": ((3, 0),)}
    assert state.evolve(**changes) == replace(state, **changes)
    assert state.evolve(**changes).lit == ((2, 0),)
    a = state.unit("a")
    with pytest.raises(RulesError, match="p25"):
        state.evolve(units=(replace(a, position=(1, 0)), state.unit("m")))
    with pytest.raises(RulesError, match="p15"):
        state.evolve(queue=())
    with pytest.raises(TypeError, match="roundd"):
        state.evolve(roundd=2)
    assert state.round == 1
