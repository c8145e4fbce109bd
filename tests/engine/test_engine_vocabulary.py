"""The ability vocabulary: two targets (p23), destroy and marker costs (p23, p26, p27), passive
and triggered abilities (p20, p22, p26-27), chosen scopes (p23), take (p25), treat map space
(p35), reinvoke explorer event (p37), a chapter ability outside the turn (p28).

The item examples are the items of content/items/core.toml (Force Alternator, Circular Saw,
Stygian Pendant, Blood-boost gun, the p22 artifact), equipped by an invented explorer; the
advanced ability and chapter examples sit on the invented carrier sample_tinkerer of
content/units/core.toml; other cards are invented here."""

from dataclasses import replace

import pytest
from engine_cases import CARDS, WHISPER, decision, explorer, monster, open_map

from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.cards.items import Equipped, Inventory, load_all_items
from machina_nb.rules.engine.actions import (
    Activate,
    EndTurn,
    Move,
    PlayAbility,
    apply,
    check,
    legal_actions,
)
from machina_nb.rules.engine.cardplay import attribute, can_target_ethereal, cards_in_play
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import roll_modifier
from machina_nb.rules.engine.holdings import set_inventory
from machina_nb.rules.engine.phases import start_new_round
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck, Lasting
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.errors import RulesError
from machina_nb.rules.rulings import Rules

RULES = Rules()
TINKERER = CARDS["sample_tinkerer"]
ITEMS = load_all_items()


def ability(card, name):
    return next(a for a in card.abilities if a.name == name)


def equip(state, who, *item_ids):
    """``who`` with the items ``item_ids`` equipped, each a main item (manual p31)."""
    return set_inventory(state, Inventory(who, tuple(Equipped(ITEMS[i]) for i in item_ids)),
                         RULES)


def turn(state, who):
    return replace(state, phase="explorer", active=who, turns=(who,))


def refused(state, action, rule, argument=None):
    """The action is refused naming ``rule`` (and ``argument``); the state is unchanged."""
    before = to_json(state)
    with pytest.raises(RulesError) as info:
        apply(state, action, RULES, ScriptedDice())
    assert rule in str(info.value), str(info.value)
    if argument is not None:
        assert info.value.argument == argument
    assert to_json(state) == before
    return info.value


# --- two targets: the Force Alternator (manual p23) --------------------------------

def alternator_state():
    state = scenario(open_map(3, 2, {0: "TM.", 1: ".K."}),
                     {"T": explorer("t"), "M": monster("m", armor=2),
                      "K": explorer("k", armor=3, will=2)})
    return turn(equip(state, "t", "force_alternator"), "t")


def test_manual_p23_two_targets_raise_the_first_and_lower_the_second():
    state = alternator_state()
    after, events = apply(state, PlayAbility("t", 0, ((1, 0), (1, 1))), RULES)
    assert (attribute(after, "m", "armor"), attribute(after, "m", "will")) == (3, 3)
    assert (attribute(after, "k", "armor"), attribute(after, "k", "will")) == (2, 1)
    assert after.markers_used("t") == 2
    assert {e.card for e in after.lasting} == {"item:force_alternator"}
    assert any("p23 (two targets)" in e.rule for e in events)
    assert from_json(to_json(after)) == after


def test_manual_p23_the_same_unit_may_be_both_targets():
    state = alternator_state()
    after, _ = apply(state, PlayAbility("t", 0, ((1, 0), (1, 0))), RULES)
    assert attribute(after, "m", "armor") == 2          # +1 then -1
    assert sorted(e.name for e in after.lasting) == ["alternator_lower", "alternator_raise"]
    plays = [a.target for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
             and a.index == 0]
    assert ((1, 0), (1, 0)) in plays and ((1, 0), (1, 1)) in plays and ((1, 1), (1, 0)) in plays


def test_manual_p23_a_two_target_ability_refuses_one_target():
    state = alternator_state()
    refused(state, PlayAbility("t", 0, (1, 0)), "manual p23 (two targets)", "target")
    refused(state, PlayAbility("t", 0, ((1, 0), (2, 0))), "manual p23", "target")
    refused(state, PlayAbility("t", 0, ((1, 0), (1, 1), (1, 1))), "manual p23", "target")


def test_manual_p24_a_lowered_armor_is_hit_by_a_lower_total():
    state = alternator_state()
    state, _ = apply(state, PlayAbility("t", 0, ((1, 1), (1, 0))), RULES)
    stab = Ability("Stab", Cost(), Targeting("melee", 0, "monster"), (Effect("attack", low=1),))
    state = state.update_unit("k", abilities=(stab,))
    after, events = apply(state, PlayAbility("k", 0, (1, 0)), RULES, ScriptedDice([1]))
    assert after.unit("m").health == 1 and any("1 >= armor 1" in e.text for e in events)


# --- destroy as cost (manual p23 advanced examples, p26) -----------------------

def lever_state(lever=True):
    row = "lTM" if lever else ".TM"
    state = scenario(open_map(3, 1, {0: row}), {"T": TINKERER, "M": monster("m")})
    return turn(state, "sample_tinkerer")


def test_manual_p23_destroying_the_lever_is_paid_before_the_banish():
    state = lever_state()
    action = PlayAbility("sample_tinkerer", 1, (2, 0), destroy=(0, 0))
    assert action in legal_actions(state, RULES)
    after, events = apply(state, action, RULES)
    assert (0, 0) in after.destroyed and not after.has_unit("m")
    kinds = [e.kind for e in events]
    assert kinds.index("pay") < kinds.index("ability") < kinds.index("banished")
    assert after.unit("sample_tinkerer").essence == 0        # banish: no kill, no essence (p19)
    assert not any(e.kind == "roll" for e in events)         # destroying is not activating


def test_manual_p23_the_destroy_cost_is_checked_before_resolving():
    refused(lever_state(False), PlayAbility("sample_tinkerer", 1, (2, 0), destroy=(0, 0)),
            "manual p23, p26", "destroy")
    refused(lever_state(), PlayAbility("sample_tinkerer", 1, (2, 0)), "manual p23", "destroy")
    refused(lever_state(), PlayAbility("sample_tinkerer", 3, destroy=(0, 0)),
            "manual p20", "destroy")
    assert not [a for a in legal_actions(lever_state(False), RULES)
                if isinstance(a, PlayAbility) and a.index == 1]


SMASH = Ability("Smash", Cost(stamina=1), Targeting("melee", 0, "event"),
                (Effect("destroy_target"),))


def test_manual_p26_another_effect_destroying_the_event_space_does_not_pay_the_cost():
    card = replace(TINKERER, abilities=TINKERER.abilities + (SMASH,))
    state = turn(scenario(open_map(4, 1, {0: "vT.M"}), {"T": card, "M": monster("m")}),
                 "sample_tinkerer")
    burn = PlayAbility("sample_tinkerer", 2, destroy=(0, 0))
    check(state, burn, RULES)
    state, _ = apply(state, PlayAbility("sample_tinkerer", 4, (0, 0)), RULES)   # Smash
    assert (0, 0) in state.destroyed
    refused(state, burn, "manual p23, p26 (cost, not condition)", "destroy")


def test_manual_p26_the_burn_pays_with_the_event_space_and_attacks_the_nearest_monster():
    state = turn(scenario(open_map(5, 1, {0: "vTM.N"}), {"T": TINKERER, "M": monster("m"),
                                                         "N": monster("n")}),
                 "sample_tinkerer")
    after, events = apply(state, PlayAbility("sample_tinkerer", 2, destroy=(0, 0)), RULES,
                          ScriptedDice([3, 3]))
    assert (0, 0) in after.destroyed and after.unit("m").health == 1
    assert after.unit("n").health == 2


def test_manual_p23_any_monster_next_to_the_targeted_event_space_the_players_choose():
    state = turn(scenario(open_map(3, 2, {0: "MvN", 1: ".T."}),
                          {"T": TINKERER, "M": monster("m"), "N": monster("n")}),
                 "sample_tinkerer")
    info = decision(state, PlayAbility("sample_tinkerer", 0, (1, 0)), RULES)
    assert info.options == ("m", "n")
    after, _ = apply(state, PlayAbility("sample_tinkerer", 0, (1, 0), choices=("n",)), RULES)
    assert after.unit("n").health == 1 and after.unit("m").health == 2
    assert (1, 0) not in after.destroyed                  # a target, not a cost
    plays = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
             and a.index == 0]
    assert [a.choices for a in plays] == [()]             # the monster is chosen in play


# --- chosen scopes: nearest monster, any monster (manual p23 table) ---------------

def scope_state(scope):
    zap = Ability("Zap", Cost(stamina=1), Targeting(), (Effect("lose_health", scope=scope,
                                                               amount=1),))
    state = scenario(open_map(6, 1, {0: "M.A.NO"}), {"A": explorer("a", abilities=(zap,)),
                                                     "M": monster("m"), "N": monster("n"),
                                                     "O": monster("o")}, tile_size=5)
    return turn(state, "a")


def test_manual_p23_nearest_monster_ties_go_to_the_players():
    state = scope_state("nearest_monster")
    info = decision(state, PlayAbility("a", 0), RULES)
    assert info.options == ("m", "n")               # o is on another tile


@pytest.mark.parametrize("metric, options", [("chebyshev", ("m", "p")),
                                             ("manhattan", ("n", "p")), ("euclidean", ("p",))])
def test_the_nearest_monster_under_each_nearest_metric(metric, options):
    """m is 2 king steps away (2+2 orthogonal), n 3 (3), p 2 (1+2): readings differ (D7)."""
    zap = Ability("Zap", Cost(stamina=1), Targeting(), (Effect("lose_health", amount=1,
                                                               scope="nearest_monster"),))
    state = turn(scenario(open_map(4, 3, {0: "A..N", 2: ".PM."}),
                          {"A": explorer("a", abilities=(zap,)), "M": monster("m"),
                           "N": monster("n"), "P": monster("p")}), "a")
    rules = RULES.replace({"nearest.metric": metric})
    if len(options) > 1:
        info = decision(state, PlayAbility("a", 0), rules)
        assert info.options == options
    else:
        after, _ = apply(state, PlayAbility("a", 0), rules)
        assert after.unit("p").wounded and not after.unit("m").wounded


@pytest.mark.parametrize("scope, options", [("any_monster", ("m", "n")),
                                            ("any_monster_any_tile", ("m", "n", "o"))])
def test_manual_p23_any_monster_on_the_tile_or_on_any_tile(scope, options):
    state = scope_state(scope)
    info = decision(state, PlayAbility("a", 0), RULES)
    assert info.options == options
    after, _ = apply(state, PlayAbility("a", 0, choices=(options[-1],)), RULES)
    assert after.unit(options[-1]).health == 1


# --- marker removal: the Circular Saw and the Stygian Pendant (manual p27) -----------

def saw_state():
    """w holds the Circular Saw equipped: rev is ability 0, bite ability 1."""
    state = scenario(open_map(3, 1, {0: "WMK"}), {"W": explorer("w"), "K": explorer("k"),
                                                  "M": monster("m", armor=1)})
    return equip(state, "w", "circular_saw")


def test_manual_p27_the_saw_needs_its_marker():
    state = turn(saw_state(), "k")
    refused(state, PlayAbility("w", 1, (1, 0)), "manual p27", "index")


def test_manual_p27_the_saw_bites_outside_the_turn_by_returning_its_marker():
    state = turn(saw_state(), "w")
    state, _ = apply(state, PlayAbility("w", 0), RULES)
    assert state.lasting[0].card == "item:circular_saw" and roll_modifier(state, "w") == 1
    state, _ = apply(state, EndTurn("w"), RULES)
    state = turn(state, "k")
    bite = PlayAbility("w", 1, (1, 0))
    assert bite in legal_actions(state, RULES)
    after, events = apply(state, bite, RULES, ScriptedDice([1, 0]))
    assert after.lasting == () and after.unit("m").health == 1
    text = "\n".join(map(str, events))
    assert "marker returns from the circular_saw card" in text and "total 1" in text


def test_manual_p27_three_explorer_markers_then_a_returned_one_frees_a_lasting_effect():
    state = turn(saw_state(), "w")
    full = tuple(Lasting(f"x{i}", "roll_modifier", "w", "w", 0, "", "item:circular_saw")
                 for i in range(3))
    state = replace(state, lasting=full)
    after, events = apply(state, PlayAbility("w", 0), RULES)
    assert after.lasting == full and "no free marker" in events[-1].text
    after, _ = apply(after, PlayAbility("w", 1, (1, 0)), RULES, ScriptedDice([0, 0]))
    after, _ = apply(after, PlayAbility("w", 0), RULES)
    assert after.markers_used("w") == 3 and after.lasting[-1].name == "saw_rev"


PENDANT = EventCard("stygian_pendant", "Stygian Pendant", "explorer", binding=True,
                    abilities=ITEMS["stygian_pendant"].abilities)
"""The pendant's abilities on a binding event: the same trigger on a bound card (manual p26)."""


def pendant_state(essence=2):
    state = scenario(open_map(2, 1, {0: "S."}), {"S": explorer("s")},
                     bound=(("s", PENDANT),))
    return turn(state.update_unit("s", essence=essence), "s")


def test_manual_p27_the_pendant_releases_its_marker_as_the_explorer_phase_begins():
    state, _ = apply(pendant_state(), PlayAbility("s", 0), RULES)
    assert state.lasting[0].card == "bound:stygian_pendant" and state.unit("s").essence == 1
    r = new_resolution(state, RULES, ScriptedDice())
    start_new_round(r, "test")
    after = r.state
    assert after.unit("s").essence == 2 and after.bound == () and after.lasting == ()
    assert after.explorer_events.destroyed == (PENDANT,)
    kinds = [(e.kind, e.rule) for e in r.events]
    assert ("trigger", "manual p26 (triggered conditions)") in kinds
    assert kinds.index(("trigger", "manual p26 (triggered conditions)")) < \
        [k for k, _ in kinds].index("stamina")


def test_manual_p27_without_its_marker_the_pendant_stays():
    r = new_resolution(pendant_state(), RULES, ScriptedDice())
    start_new_round(r, "test")
    assert r.state.bound == (("s", PENDANT),) and r.state.unit("s").essence == 2


def test_manual_p20_passive_and_triggered_abilities_are_never_played():
    state = pendant_state()
    refused(state, PlayAbility("s", 1), "manual p20 (ability types)", "index")
    assert not [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
                and a.index == 1]


# --- triggered abilities: on hit and on kill (manual p26-27) ------------------------

STAB = Ability("Stab", Cost(stamina=1), Targeting("melee", 0, "monster"),
               (Effect("attack", high=1),))
HARVEST = Ability("Harvest", kind="triggered", trigger="kill",
                  effects=(Effect("restore_stamina", scope="self", amount=2),))


def boost_state(health=5):
    """b has the Blood-boost gun equipped and attacks with Stab, its own card's ability."""
    card = explorer("b", stamina=6, abilities=(STAB, HARVEST))
    state = scenario(open_map(2, 1, {0: "BM"}), {"B": card, "M": monster("m", armor=0,
                                                                         health=health)})
    return turn(equip(state, "b", "blood_boost_gun"), "b")


def test_manual_p27_every_hit_boosts_later_rolls_up_to_two_stacks():
    state = boost_state()
    for expected in (1, 2, 2):
        state, events = apply(state, PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
        assert roll_modifier(state, "b") == expected
    assert "2 stack(s) reached" in events[-1].text
    assert state.unit("m").health == 2


def test_manual_p26_a_kill_triggers_the_owner_s_kill_ability():
    state, events = apply(boost_state(health=1), PlayAbility("b", 0, (1, 0)), RULES,
                          ScriptedDice([1]))
    assert not state.has_unit("m") and state.unit("b").stamina == 6     # 6 - 1 + 2, capped
    assert any(e.kind == "trigger" and "Harvest" in e.text for e in events)


def test_manual_p26_a_miss_triggers_nothing():
    state = boost_state().update_unit("m", armor=9)
    after, _ = apply(state, PlayAbility("b", 0, (1, 0)), RULES, ScriptedDice([1]))
    assert after.lasting == ()


# --- passive abilities (manual p20, p22) --------------------------------------------

def veil_state(tile_size=10):
    zap = Ability("Zap", Cost(stamina=1), Targeting("ranged", 5, "monster"),
                  (Effect("lose_health", amount=1),))
    card = explorer("a", abilities=(zap,))
    ghost = replace(monster("ghost"), ethereal=True)
    state = scenario(open_map(6, 1, {0: "S.AG.."}), {"S": explorer("s"), "A": card,
                                                     "G": ghost}, tile_size=tile_size)
    return turn(equip(state, "s", "veil_lantern"), "a")


def test_manual_p22_a_passive_lets_explorers_on_the_owner_s_tile_target_ethereal_units():
    state = veil_state()
    assert can_target_ethereal(state, state.unit("a"))
    assert PlayAbility("a", 0, (3, 0)) in legal_actions(state, RULES)


def test_manual_p22_the_passive_stops_at_the_owner_s_tile():
    state = veil_state(tile_size=2)             # the owner on tile (0, 0), the explorer on (1, 0)
    assert not can_target_ethereal(state, state.unit("a"))
    refused(state, PlayAbility("a", 0, (3, 0)), "manual p20 (legal target)", "target")


def test_manual_p20_passive_modifiers_act_on_rolls_and_attributes():
    sure = Ability("Sure hand", kind="passive", effects=(
        Effect("roll_modifier", scope="explorers_on_tile", amount=1),
        Effect("attribute_modifier", scope="self", amount=2, attributes=("armor",))))
    state = scenario(open_map(3, 1, {0: "A.B"}), {"A": explorer("a", abilities=(sure,)),
                                                  "B": explorer("b")})
    assert roll_modifier(state, "b") == 1 and attribute(state, "a", "armor") == 4
    assert attribute(state, "b", "armor") == 2
    assert [c.key for c in cards_in_play(state)][:2] == ["unit:a", "unit:b"]


def test_manual_p20_a_passive_ability_has_no_cost_and_no_target():
    with pytest.raises(RulesError):
        Ability("Bad", Cost(stamina=1), kind="passive")
    with pytest.raises(RulesError):
        Ability("Bad", kind="passive", effects=(Effect("lose_health", scope="self"),))
    with pytest.raises(RulesError):
        Ability("Bad", kind="triggered")


# --- a chapter ability outside the turn (manual p28) ---------------------------------

def sprint_state():
    from engine_cases import CHAPTER
    chapter = replace(CHAPTER, abilities=(ability(TINKERER, "wounded_sprint"),))
    state = scenario(open_map(5, 1, {0: "AB..."}), {"A": explorer("a"), "B": explorer("b")},
                     chapter=chapter)
    return turn(state, "a")


def test_manual_p28_any_explorer_may_sprint_outside_their_turn():
    state = sprint_state()
    plays = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
             and a.actor == "b"]
    assert plays == [PlayAbility("b", 0)]
    assert {(2, 0), (4, 0)} <= set(decision(state, plays[0], RULES).options)
    after, events = apply(state, PlayAbility("b", 0, choices=((4, 0),)), RULES)
    assert after.unit("b").position == (4, 0) and after.unit("b").health == 4
    assert after.unit("b").stamina == 4 and after.active == "a"


def test_manual_p28_the_sprint_in_the_monster_phase_too():
    state = replace(sprint_state(), phase="monster", active=None)
    after, _ = apply(state, PlayAbility("b", 0, choices=((3, 0),)), RULES)
    assert after.unit("b").position == (3, 0)


# --- take (manual p25) ---------------------------------------------------------------

CALL = Ability("Call the ghoul", Cost(stamina=1), Targeting(), (
    Effect("take", key="ghoul", then=(Effect("spawn"),)),))


def take_state(**fields):
    state = scenario(open_map(3, 1, {0: "A.s"}), {"A": explorer("a", abilities=(CALL,))},
                     **fields)
    return turn(state, "a")


GHOUL, BRUTE, IMP = monster("ghoul"), monster("brute"), monster("imp")


@pytest.mark.parametrize("fields, where", [
    ({"monsters": Deck((BRUTE, IMP, GHOUL))}, "deck"),
    ({"monsters": Deck((BRUTE,), (GHOUL,)), "reserve": (replace(GHOUL, level=2),)},
     "destroyed"),
    ({"monsters": Deck((BRUTE,)), "removed": (GHOUL,)}, "removed"),
    ({"monsters": Deck((BRUTE,)), "reserve": (IMP, GHOUL)}, "reserve"),
])
def test_manual_p25_take_searches_deck_destroyed_removed_then_not_yet_added(fields, where):
    after, events = apply(take_state(**fields), PlayAbility("a", 0), RULES)
    assert any(u.card == "ghoul" for u in after.units)
    assert any(e.kind == "take" and f"monster {where}" in e.text for e in events)
    assert GHOUL not in after.monsters.cards and after.monsters.cards[:1] != (GHOUL,)
    if where == "deck":
        assert after.monsters.cards == (BRUTE, IMP)


def test_manual_p25_take_finds_nothing():
    after, events = apply(take_state(monsters=Deck((BRUTE,))), PlayAbility("a", 0), RULES)
    assert any("no card 'ghoul'" in e.text for e in events)


def test_manual_p19_a_monster_below_the_level_is_removed_and_can_be_taken_back():
    state = take_state(monsters=Deck((BRUTE,)), level=2)
    stab = Ability("Stab", Cost(), Targeting("melee", 0, "monster"), (Effect("banish"),))
    state = scenario(open_map(3, 1, {0: "AG."}), {"A": explorer("a", abilities=(stab, CALL)),
                                                  "G": GHOUL}, level=2, monsters=Deck((BRUTE,)))
    state = turn(state, "a")
    state = replace(state, units=tuple(replace(u, origin=GHOUL) if u.id == "ghoul" else u
                                       for u in state.units))
    after, _ = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert after.removed == (GHOUL,) and after.monsters.destroyed == ()
    assert from_json(to_json(after)) == after


def test_manual_p25_take_an_explorer_event_then_invoke_it():
    fetch = Ability("Fetch", Cost(stamina=1), Targeting(), (
        Effect("take", key="whisper", then=(Effect("invoke_explorer_event"),)),))
    other = EventCard("other", "Other", "explorer")
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", abilities=(fetch,))},
                          explorer_events=Deck((other, WHISPER))), "a")
    after, _ = apply(state, PlayAbility("a", 0), RULES)
    assert after.explorer_events.destroyed == (WHISPER,) and after.unit("a").essence == 1


# --- treat map space (manual p35) ----------------------------------------------------

BURY = Ability("Bury", Cost(stamina=1), Targeting("ranged", 3, "space"),
               (Effect("treat_space", key="rubble"),))


def test_manual_p35_a_space_treated_as_rubble_blocks_movement():
    state = turn(scenario(open_map(3, 1, {0: "A.."}), {"A": explorer("a", abilities=(BURY,))}),
                 "a")
    after, events = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert after.space_kind((1, 0)) is SpaceKind.RUBBLE
    assert after.base_kind((1, 0)) is SpaceKind.FLOOR
    assert after.static_board().space((1, 0)) is SpaceKind.RUBBLE
    refused(after, Move("a", (1, 0)), "manual p22, p34", "to")
    assert events[-1].rule == "manual p35 (treat map space)"
    assert from_json(to_json(after)) == after


def test_manual_p35_no_unit_is_left_on_a_space_treated_as_an_obstacle():
    state = turn(scenario(open_map(3, 1, {0: "AB."}), {"A": explorer("a", abilities=(BURY,)),
                                                      "B": explorer("b")}), "a")
    after, events = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert after.treated == () and "a unit stands on" in events[-1].text


def test_manual_p35_an_event_space_treated_as_floor_cannot_be_activated():
    heal = Ability("Heal", Cost(stamina=1), Targeting("melee", 0, "space"),
                   (Effect("treat_space", key="floor"),))
    state = turn(scenario(open_map(2, 1, {0: "Av"}), {"A": explorer("a", abilities=(heal,))}),
                 "a")
    after, _ = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    refused(after, Activate("a", (1, 0), "roll"), "manual p37", "space")


# --- reinvoke explorer event (manual p37) -------------------------------------------

ECHO = Ability("Echo", Cost(stamina=1), Targeting(), (Effect("reinvoke_explorer_event"),))


def test_manual_p37_reinvoking_resolves_the_current_explorer_event_again():
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", abilities=(ECHO,))},
                          explorer_events=Deck((), (WHISPER,))), "a")
    after, events = apply(state, PlayAbility("a", 0), RULES)
    assert after.unit("a").essence == 1
    assert any(e.rule == "manual p37 (reinvoke explorer event)" for e in events)


def test_manual_p37_with_no_current_explorer_event_nothing_happens():
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", abilities=(ECHO,))}),
                 "a")
    after, events = apply(state, PlayAbility("a", 0), RULES)
    assert after.unit("a").essence == 0 and "nothing happens" in events[-1].text


def test_manual_p37_an_event_that_reinvokes_itself_stops():
    loop = EventCard("loop", "Loop", "explorer", enters_play=(
        Effect("restore_essence", scope="self", amount=1), Effect("reinvoke_explorer_event")))
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", abilities=(ECHO,))},
                          explorer_events=Deck((), (loop,))), "a")
    after, events = apply(state, PlayAbility("a", 0), RULES)
    assert after.unit("a").essence == 1 and "already resolving" in events[-1].text


def test_content_readme_documents_the_whole_vocabulary():
    """content/README.md names every op, scope, trigger and destroy cost the engine knows."""
    from machina_nb.rules.cards.abilities import DESTROY_COSTS, EFFECT_OPS, SCOPES, TRIGGERS
    from machina_nb.rules.content import content_root
    text = (content_root() / "README.md").read_text(encoding="utf-8")
    missing = [n for n in EFFECT_OPS + SCOPES + TRIGGERS + DESTROY_COSTS if f"`{n}`" not in text]
    assert missing == []


# --- horror markers and destroy-this-card costs (manual p27, p20) ------------------

GRIP = Ability("Grip", Cost(stamina=1), Targeting("melee", 0, "explorer"),
               (Effect("roll_modifier", amount=-1, key="grip"),))
RELEASE = Ability("Release", Cost(marker=True), Targeting("melee", 0, "explorer"),
                  (Effect("attack", high=1),))


def grip_state(lasting=()):
    state = scenario(open_map(2, 1, {0: "AM"}), {"A": explorer("a", armor=1),
                                                 "M": monster("m", abilities=(RELEASE, GRIP))},
                     phase="monster", lasting=lasting)
    return state


def test_manual_p27_a_mindless_monster_skips_a_marker_cost_it_cannot_pay_then_pays_it():
    from machina_nb.rules.engine.actions import MonsterAct
    state, events = apply(grip_state(), MonsterAct("m"), RULES)
    assert state.lasting[0].card == "unit:m" and state.lasting[0].holder == "horror"
    assert any("Release (from its card)" in e.text and "manual p27" in e.text for e in events)
    state, events = apply(state, MonsterAct("m"), RULES, ScriptedDice([1]))
    assert state.lasting == () and state.unit("a").health == 4
    assert any(e.kind == "markers" and "a horror marker returns" in e.text for e in events)


def test_manual_p5_p27_four_horror_markers_then_the_lasting_effect_is_skipped():
    from machina_nb.rules.engine.actions import MonsterAct
    full = tuple(Lasting(f"h{i}", "roll_modifier", "a", "horror", 0, "", "horror_event:x")
                 for i in range(4))
    state, events = apply(grip_state(full), MonsterAct("m"), RULES)
    assert state.lasting == full and any("no free marker" in e.text for e in events)


BURNT = EventCard("burnt_offering", "Burnt offering", "explorer", binding=True, abilities=(
    Ability("Offer", Cost(destroy="card"), Targeting(), (Effect("restore_essence", scope="self",
                                                                amount=2),)),))


def test_manual_p20_destroying_its_own_card_is_paid_before_the_effect():
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                          bound=(("a", BURNT),)), "a")
    after, events = apply(state, PlayAbility("a", 0), RULES)
    assert after.bound == () and after.explorer_events.destroyed == (BURNT,)
    assert after.unit("a").essence == 2
    kinds = [e.kind for e in events]
    assert kinds.index("destroy") < kinds.index("essence")
    refused(after, PlayAbility("a", 0), "manual p20", "index")     # the card is gone


def test_manual_p20_a_unit_card_is_not_destroyed_by_its_own_cost():
    card = explorer("a", abilities=BURNT.abilities)
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": card}), "a")
    refused(state, PlayAbility("a", 0), "manual p20 (destroy icon)", "index")


CLAW_M = Ability("Claw", Cost(stamina=2), Targeting("melee"), (Effect("attack", high=1),))


def test_manual_p22_a_monster_with_an_enabling_passive_heads_for_an_ethereal_explorer():
    from machina_nb.rules.engine.monsters import targetable_explorers
    sense = Ability("Sense", kind="passive", effects=(Effect("target_ethereal", scope="self"),))
    state = scenario(open_map(4, 1, {0: "AM.N"}),
                     {"A": (explorer("a"), {"ethereal": True}),
                      "M": monster("m", abilities=(CLAW_M, sense)), "N": monster("n")})
    assert [e.id for e in targetable_explorers(state, state.unit("m"), RULES)] == ["a"]
    assert targetable_explorers(state, state.unit("n"), RULES) == ()



def test_manual_p34_a_treated_space_scrolls_away_with_its_tile():
    from test_engine_explore import scroll_situation

    from machina_nb.rules.engine.actions import Explore
    state, rules = scroll_situation("minimal_opposite")
    state = replace(state, treated=(((6, 6), SpaceKind.RUBBLE),))
    after, _ = apply(state, Explore("P"), rules)
    assert after.treated == () and (6, 6) not in after.static_board()


@pytest.mark.parametrize("name", ["engine.cardplay", "engine.triggers", "engine.cardeffects",
                                  "cards.abilities"])
def test_public_names_of_the_vocabulary_modules_cite_the_rules(name):
    import importlib
    module = importlib.import_module(f"machina_nb.rules.{name}")
    for public in module.__all__:
        obj = getattr(module, public)
        if callable(obj) and getattr(obj, "__module__", None) == module.__name__:
            assert "Rules: " in (obj.__doc__ or ""), public


def test_manual_p35_a_chest_treated_also_as_a_barrel_explodes_and_stays_a_chest():
    rig = Ability("Rig", Cost(stamina=1), Targeting("melee", 0, "chest"),
                  (Effect("treat_space", key="barrel", also=True),))
    shoot = Ability("Shoot", Cost(stamina=1), Targeting("ranged", 3, "unit"),
                    (Effect("attack", low=1),))
    state = turn(scenario(open_map(4, 2, {0: "Ac..", 1: "..M."}),
                          {"A": explorer("a", stamina=6, abilities=(rig, shoot)),
                           "M": monster("m", armor=1)}), "a")
    assert (1, 0) not in [a.target for a in legal_actions(state, RULES)
                          if isinstance(a, PlayAbility) and a.index == 1]
    state, events = apply(state, PlayAbility("a", 0, (1, 0)), RULES)
    assert state.space_kind((1, 0)) is SpaceKind.CHEST and state.is_kind((1, 0), SpaceKind.BARREL)
    assert events[-1].rule == "manual p35 (treat map space: extra features)"
    check(state, Activate("a", (1, 0)), RULES)                  # still a chest
    assert from_json(to_json(state)) == state
    after, events = apply(state, PlayAbility("a", 1, (1, 0)), RULES, ScriptedDice([1, 1, 1, 0]))
    assert any("barrel at (1, 0) explodes" in e.text for e in events)
    assert (1, 0) in after.destroyed and not after.is_kind((1, 0), SpaceKind.BARREL)
    assert after.unit("m").health == 1 and after.unit("a").health == 4
    with pytest.raises(RulesError):
        Effect("lose_health", also=True)


RITE = EventCard("rite", "Rite of haste", "explorer", binding=True, abilities=(
    Ability("Hasten", Cost(stamina=1), Targeting(), (
        Effect("roll_modifier", scope="self", amount=2, key="haste"), Effect("destroy_card"))),
    Ability("Linger", Cost(), Targeting(), (Effect("restore_health", scope="self", amount=1),))))


def test_manual_p27_a_destroyed_card_with_a_marker_waits_until_the_marker_returns():
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a")},
                          bound=(("a", RITE),)), "a")
    after, events = apply(state, PlayAbility("a", 0), RULES)
    assert after.bound == () and after.waiting == (RITE,)
    assert after.explorer_events.destroyed == () and roll_modifier(after, "a") == 2
    assert events[-1].rule == "manual p27 (destroyed card with markers)"
    refused(after, PlayAbility("a", 1), "manual p20", "index")     # no longer in play
    assert from_json(to_json(after)) == after
    r = new_resolution(after, RULES, ScriptedDice())
    start_new_round(r, "test")
    assert r.state.waiting == () and r.state.explorer_events.destroyed == (RITE,)
    assert r.state.lasting == ()


@pytest.mark.parametrize("reading, top", [("set_aside", "brute"), ("top_of_deck", "ghoul")])
def test_manual_p25_take_a_card_nothing_draws(reading, top):
    """Take the Ghoul from the destroyed pile with no effect after it: held for nothing, it goes
    back to the destroyed pile (set_aside); or it waits on top of the monster deck for the next
    spawn (top_of_deck)."""
    bare = Ability("Beckon", Cost(stamina=1), Targeting(), (Effect("take", key="ghoul"),))
    state = turn(scenario(open_map(2, 1, {0: "A."}), {"A": explorer("a", abilities=(bare,))},
                          monsters=Deck((BRUTE,), (GHOUL,))), "a")
    after, events = apply(state, PlayAbility("a", 0), RULES.replace({"take.found_card": reading}))
    assert after.monsters.cards[0].id == top
    assert (after.monsters.destroyed == (GHOUL,)) is (reading == "set_aside")
    assert any("take.found_card" in e.rule for e in events)
