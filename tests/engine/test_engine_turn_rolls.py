"""Essence on any attack roll of the explorer's turn (manual p18): trap attacks and barrel
explosions set off on the explorer's turn take essence like their own attack rolls."""

from dataclasses import replace
from pathlib import Path

import pytest
from engine_cases import CARDS, explorer, monster, open_map

from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.engine.actions import Activate, PlayAbility, apply, legal_actions
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.effects import roll_modifier
from machina_nb.rules.engine.phases import PHASES_BY_NAME
from machina_nb.rules.engine.resolution import resolve
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.engine.vocabulary import new_resolution
from machina_nb.rules.rulings import Rules

ROOT = Path(__file__).resolve().parents[2]
RULES = Rules().replace({"traps.secondary": "none"})


def turn(state, who):
    return replace(state, phase="explorer", active=who, turns=(who,))


def trap_state(essence):
    """A pulls the lever at (1, 0); a ghoul (armor 5) stands on a trapped space."""
    state = scenario(open_map(3, 1, {0: "AlG"}), {"A": explorer("a"),
                                                 "G": monster("ghoul", armor=5, health=3)},
                     spaces={"G": SpaceKind.TRAPPED})
    return turn(state.update_unit("a", essence=essence), "a")


@pytest.mark.parametrize("budget, essence, hit", [(1, 1, True), (0, 1, False), (1, 0, False)])
def test_manual_p18_essence_on_a_trap_attack_of_the_explorers_turn(budget, essence, hit):
    """The trap rolls 1 + 1 + 2 = 4 against armor 5: 1 essence turns the miss into a hit."""
    after, events = apply(trap_state(essence), Activate("a", (1, 0), essence=budget), RULES,
                          ScriptedDice([1, 1, 2]))
    assert (after.unit("ghoul").health == 2) is hit
    assert after.unit("a").essence == (essence - 1 if hit else essence)
    spent = [e for e in events if e.kind == "essence"]
    assert bool(spent) is hit
    if hit:
        assert "any attack roll on their turn" in spent[0].rule


def test_manual_p18_no_essence_when_the_roll_cannot_hit_with_the_budget():
    """A roll of 3 needs 2 essence: a budget of 1 spends nothing."""
    after, _ = apply(trap_state(2), Activate("a", (1, 0), essence=1), RULES,
                     ScriptedDice([1, 1, 1]))
    assert after.unit("a").essence == 2 and after.unit("ghoul").health == 3


BARREL = open_map(4, 1, {0: "A.bG"})


@pytest.mark.parametrize("budget, hit", [(1, True), (0, False)])
def test_manual_p18_p35_essence_on_a_barrel_explosion_of_the_explorers_turn(budget, hit):
    """A shoots the barrel (a hit on 1 or more); it explodes with 3 high dice 1 + 1 + 1 = 3
    against the ghoul's armor 4: 1 essence on the explosion's roll makes it a hit."""
    gun = Ability("Gun", Cost(stamina=1), Targeting("ranged", 3, "unit"),
                  (Effect("attack", low=1),))
    state = scenario(BARREL, {"A": explorer("a", abilities=(gun,)),
                              "G": monster("ghoul", armor=4, health=3)})
    state = turn(state.update_unit("a", essence=1), "a")
    after, _ = apply(state, PlayAbility("a", 0, (2, 0), essence=budget), RULES,
                     ScriptedDice([1, 1, 1, 1]))
    assert (2, 0) in after.destroyed
    assert (after.unit("ghoul").health == 2) is hit
    assert after.unit("a").essence == (0 if hit else 1)


# --- Lorrai's hex bolt (manual p21) ---------------------------------------------------------

def lorrai_state():
    """Lorrai at (0, 0), a ghoul three spaces east at (3, 0), nothing between."""
    state = scenario(open_map(4, 1, {0: "L..G"}), {"L": CARDS["lorrai"],
                                                   "G": monster("ghoul", armor=2, will=2,
                                                                health=3)})
    return turn(state, "lorrai")


def test_manual_p21_lorrai_has_an_assumed_range_marked_in_her_card():
    bolt = CARDS["lorrai"].abilities[0]
    assert bolt.targeting.kind == "ranged_through" and bolt.targeting.range == 3
    text = (ROOT / "content" / "units" / "core.toml").read_text(encoding="utf-8")
    lorrai = text[text.index("[unit.lorrai.abilities.hex_bolt]"):]
    assert "assumed = { range =" in lorrai[:lorrai.index("[unit.lorrai.abilities.mend]")]


@pytest.mark.parametrize("low_die, hit", [(2, True), (0, False)])
def test_manual_p21_lorrai_hits_beyond_her_space_and_the_target_rolls_1_lower(low_die, hit):
    """Hit or miss, the ghoul three spaces away rolls 1 lower until the next Explorer phase."""
    state = lorrai_state()
    plays = [a for a in legal_actions(state, RULES) if isinstance(a, PlayAbility)
             and a.target == (3, 0)]
    assert plays, "the ghoul three spaces away is a legal target"
    after, events = apply(state, plays[0], RULES, ScriptedDice([low_die]))
    assert (after.unit("ghoul").health == 2) is hit
    assert roll_modifier(after, "ghoul") == -1
    # The ghoul's claw (1 high + 1 low) rolls 2 + 1 = 3 - 1 = 2 against Lorrai's armor 2.
    r = new_resolution(replace(after, phase="monster"), RULES, ScriptedDice([2, 1]))
    resolve(r, (Effect("attack", high=1, low=1),), r.state.unit("ghoul"), (0, 0), "claw")
    assert any("total 2" in e.text for e in r.events)
    # The start of the next Explorer phase returns Lorrai's marker: the -1 ends.
    r = new_resolution(replace(after, phase="explorer"), RULES, ScriptedDice([]))
    PHASES_BY_NAME["explorer"].on_begin(r)
    assert roll_modifier(r.state, "ghoul") == 0
