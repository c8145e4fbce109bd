"""Horror events bound to monsters (aid §Monster Phase; ruling C-14) and bound events leaving play.

Under the aid's ``monster.ability_sources = bound_event_and_card`` a binding horror
event binds to a monster when invoked (which one: ``horror_bind.monster``); the
monster plays it first, then the current horror event, then its card. When the
monster is destroyed or banished the event goes on top of the destroyed horror
events (manual p24). The manual's reading knows no bound horror events.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_cases import explorer, monster, open_map

from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.cards.events import EventCard
from machina_nb.rules.engine.actions import RollHorror, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import destroy_unit
from machina_nb.rules.engine.monsters import monster_abilities
from machina_nb.rules.engine.resolution import NeedChoice, resolve
from machina_nb.rules.engine.saves import from_json, to_json
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.state import Deck
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

RULES = Rules()
AID = RULES.replace({"monster.ability_sources": "bound_event_and_card"})
GNAW = Ability("Gnaw", Cost(stamina=1), Targeting("melee"), (Effect("attack", low=1),))
ROAR = Ability("Roar", Cost(stamina=1), Targeting("melee"), (Effect("attack", high=1),))
HUNGER = EventCard("hunger", "Hunger", "horror", abilities=(GNAW,), binding=True)
RAGE = EventCard("rage", "Rage", "horror", abilities=(ROAR,))


def horror_phase(legend=None, deck=(HUNGER,)):
    """The horror roll is next; Rage is the current horror event, Hunger on top of the deck."""
    legend = legend or {"A": explorer("a"), "G": monster("ghoul"), "B": monster("brute")}
    row = "".join(c if c in legend else "." for c in "AG.B")
    state = scenario(open_map(4, 1, {0: row}), legend,
                     horror_events=Deck(deck, (RAGE,)), horror_rating=3)
    return replace(state, phase="horror", done=())


def invoke(state, rules, choices=()):
    r = new_resolution(state, rules, ScriptedDice(), choices)
    from machina_nb.rules.engine.effects import invoke_horror_event
    invoke_horror_event(r, "the horror roll")
    return r


@pytest.mark.parametrize("reading, bound, current, sources", [
    ("event_and_card", (), "hunger", [("horror", "Gnaw"), ("card", "Claw")]),
    ("bound_event_and_card", (("ghoul", "hunger"),), "rage",
     [("bound", "Gnaw"), ("horror", "Roar"), ("card", "Claw")])])
def test_a_binding_horror_event_is_bound_only_under_the_aids_reading(
        reading, bound, current, sources):
    """The horror roll invokes Hunger (binding). The manual: it becomes the current horror
    event (manual p14) and the ghoul plays it as such. The aid: it binds to the ghoul (the
    first in the queue here), Rage stays current, and the ghoul's abilities come in the aid's
    order: bound, current horror event, card (aid §Monster Phase)."""
    rules = RULES.replace({"monster.ability_sources": reading,
                           "horror_bind.monster": "first_in_queue"})
    after, events = apply(horror_phase(), RollHorror(), rules, ScriptedDice([9]))
    assert tuple((who, card.id) for who, card in after.bound) == bound
    assert after.horror_events.destroyed[0].id == current
    assert after.threat == 2                              # invoking raises threat (manual p14)
    got = [(source, a.name) for source, a in monster_abilities(after, after.unit("ghoul"), rules)]
    assert got == sources
    if bound:
        assert any("horror_bind.monster" in e.rule or "monster.ability_sources" in e.rule and "binds to ghoul" in e.text for e in events)
        assert from_json(to_json(after)) == after


@pytest.mark.parametrize("reading, holder", [("players_choose", None),
                                             ("first_in_queue", "ghoul"),
                                             ("last_in_queue", "brute")])
def test_horror_bind_monster(reading, holder):
    rules = AID.replace({"horror_bind.monster": reading})
    if holder is None:
        with pytest.raises(NeedChoice) as need:
            invoke(horror_phase(), rules)
        assert need.value.options == ("ghoul", "brute") and "manual p16" in need.value.rule
        holder, r = "brute", invoke(horror_phase(), rules, ("brute",))
    else:
        r = invoke(horror_phase(), rules)
    assert r.state.bound == ((holder, HUNGER),)
    assert RULES["horror_bind.monster"] == "players_choose"


def test_with_no_monster_in_play_it_is_an_ordinary_horror_event():
    r = invoke(horror_phase({"A": explorer("a")}), AID)
    assert r.state.bound == () and r.state.horror_events.destroyed[:2] == (HUNGER, RAGE)
    assert any("no monster in play" in e.text for e in r.events)


@pytest.mark.parametrize("banish", [False, True])
def test_manual_p24_p19_the_bound_event_goes_to_the_destroyed_pile_with_its_monster(banish):
    """Destroyed or banished, the ghoul takes Hunger out of play: on top of the destroyed
    horror events (a destroyed binding event goes on top of its destroyed deck, manual p24),
    where it is the current horror event (manual p21); the brute now uses it as such."""
    r = invoke(horror_phase(), AID.replace({"horror_bind.monster": "first_in_queue"}))
    assert r.state.horror_events.destroyed == (RAGE,)
    if banish:
        resolve(r, (Effect("banish"),), None, r.state.unit("ghoul").position, "Exorcism")
    else:
        destroy_unit(r, "ghoul", "a", "a fatal hit")
    assert not r.state.has_unit("ghoul") and r.state.bound == ()
    assert r.state.horror_events.destroyed == (HUNGER, RAGE)
    assert any("manual p24" in e.rule for e in r.events if "Hunger" in e.text)
    brute = [(s, a.name) for s, a in monster_abilities(r.state, r.state.unit("brute"), AID)]
    assert brute[0] == ("horror", "Gnaw")


def test_manual_p19_a_dead_explorers_bound_events_leave_the_game():
    pact = EventCard("pact", "Pact", "explorer", binding=True)
    state = scenario(open_map(2, 1, {0: "AG"}), {"A": explorer("a"), "G": monster("ghoul")})
    state = replace(state, bound=(("a", pact),))
    r = new_resolution(state, RULES, ScriptedDice())
    destroy_unit(r, "a", "ghoul", "claws")
    assert r.state.bound == () and pact not in r.state.explorer_events.destroyed
    assert any("removed from the game" in e.text and "manual p19" in e.rule for e in r.events)
