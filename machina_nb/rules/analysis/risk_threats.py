"""Which monsters threaten an explorer standing on a space, and with which attack.

The exact monster phase (:mod:`machina_nb.rules.analysis.risk`) gives the chance; this names
who makes it. Each monster in the queue, in queue order, is followed through its mindless
turn (its moves and the doors it breaks, every plan made afresh) up to its first ability: a
monster whose first ability aims at the explorer threatens it, with that ability and the
chance it hits. No die is rolled on the way: a monster whose turn needs a roll, or waits for
the players to break a tie the explorer is not in, before its first ability is followed no
further; where the explorer is one of a tie, the monster is followed as if the players chose
it (the threat says so). The monsters after it start from where those before them ended
their moves.

Rules: manual p15-17 (the mindless turn, re-evaluated after every action), p24 (the attack
roll against armor or will).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from machina_nb.rules.analysis.attack_odds import attack_pools
from machina_nb.rules.engine.actions import MonsterAct, apply
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice
from machina_nb.rules.engine.monsters import mindless_step, monster_abilities
from machina_nb.rules.engine.plans import PlannedAbility, PlannedEnd
from machina_nb.rules.engine.state import GameState, MonsterTurn
from machina_nb.rules.errors import RulesError
from machina_nb.rules.odds.attacks import hit_chance
from machina_nb.rules.rulings import Rules

__all__ = ["Threat", "threats", "MAX_THREAT_STEPS"]

MAX_THREAT_STEPS = 60
"""The most actions of one monster's turn followed before its first ability."""


@dataclass(frozen=True)
class Threat:
    """A monster (its ``monster`` id) that aims its ability ``ability`` (the card's name) at the
    explorer; ``hits`` is the chance each of its attacks hits (one per attack of the ability,
    in card order); ``tie``: only if the players choose the explorer in a tie."""

    monster: str
    ability: str
    hits: tuple[Fraction, ...]
    tie: bool = False


def _aims_at(target: Any, space: Any) -> bool:
    """Whether an ability's target is the explorer's space (or a group holding it)."""
    if target == space:
        return True
    return isinstance(target, tuple) and any(isinstance(t, tuple) and t == space
                                             for t in target)


def _first_ability(state: GameState, rules: Rules, mid: str, uid: str
                   ) -> tuple[GameState, PlannedAbility | None, bool]:
    """The monster's turn up to its first planned ability (None if it ends first, or a roll
    or a tie without the explorer comes first); returns the state where it stands then, and
    whether the players chose the explorer in a tie on the way.

    Rules: manual p15-17 (the mindless turn), p16 (ties: the players choose).
    """
    others = tuple(m for m in state.queue if m != mid)
    turn = replace(state, phase="monster", queue=(mid,) + others, done=(),
                   monster_turn=MonsterTurn(mid))
    choices: tuple[Any, ...] = ()
    for _ in range(MAX_THREAT_STEPS):
        plan = mindless_step(turn, rules, mid, choices)
        if plan.options:
            mine = [o for o in plan.options if o in (uid, turn.unit(uid).position)]
            if not mine or choices:
                return turn, None, False
            choices = (mine[0],)
            continue
        if isinstance(plan.action, PlannedEnd):
            return turn, None, False
        if isinstance(plan.action, PlannedAbility):
            return turn, plan.action, bool(choices)
        try:
            after, _ = apply(turn, MonsterAct(mid, choices=choices), rules, ScriptedDice(()))
        except (ChanceNode, RulesError):
            return turn, None, False
        if after.decision is not None or not after.has_unit(mid):
            return after, None, False
        turn = after
    return turn, None, False


def threats(state: GameState, rules: Rules, uid: str) -> tuple[Threat, ...]:
    """The monsters whose first ability this Monster phase aims at explorer ``uid``, in queue
    order, each with the ability and its hit chances.

    Rules: manual p15-17 (the mindless turn), p24 (hit chance against armor or will).
    """
    space = state.unit(uid).position
    found = []
    for mid in state.queue:
        if not state.has_unit(mid) or state.unit(mid).position is None:
            continue
        turn, planned, tie = _first_ability(state, rules, mid, uid)
        if turn.has_unit(mid):   # the monsters after it start where it ended its moves
            state = state.update_unit(mid, position=turn.unit(mid).position)
        if planned is None or not _aims_at(planned.target, space):
            continue
        abilities = [a for _, a in monster_abilities(turn, turn.unit(mid), rules)]
        if planned.index >= len(abilities):
            continue
        ability = abilities[planned.index]
        victim = turn.unit(uid)
        hits = tuple(hit_chance(pool, victim.will if arcane else victim.armor, rules)
                     for arcane, pool in attack_pools(ability))
        found.append(Threat(mid, ability.name.replace("_", " "), hits, tie))
    return tuple(found)
