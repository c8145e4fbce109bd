"""Essence on any attack roll of the explorer's turn (manual p18): trap attacks and barrel
explosions set off on the explorer's turn take essence like their own attack rolls."""

from dataclasses import replace

import pytest

from engine_cases import explorer, monster, open_map
from machina_nb.rules.board.maptext import SpaceKind
from machina_nb.rules.cards.abilities import Ability, Cost, Effect, Targeting
from machina_nb.rules.engine.actions import Activate, PlayAbility, apply
from machina_nb.rules.engine.chance import ScriptedDice
from machina_nb.rules.engine.scenario import scenario
from machina_nb.rules.rulings import Rules

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
