"""The ``monster_turn`` question: a mindless monster's whole turn, action by action.

Each action is planned afresh (the plan re-evaluates after every action), told with its
reasons, and played through the engine; the turn stops where the players must choose, where
a die is not scripted, or where the monster stops being mindless: once an explorer has fallen
the monsters are scheming and the players move them, so a turn in which the monster destroys
an explorer is told up to the kill, and what follows is the players' (the game is lost if no
explorer is left).

Rules: manual p15-17 (the mindless turn), p15 (scheming monsters), p19 (death), p3 (losing).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from machina_nb.rules.analysis.attack_odds import attack_pools
from machina_nb.rules.analysis.play import event_words, option_words, point_words
from machina_nb.rules.analysis.questions import Question
from machina_nb.rules.analysis.situation import Situation
from machina_nb.rules.board.maptext import Point
from machina_nb.rules.engine.actions import MonsterAct, apply
from machina_nb.rules.engine.chance import ChanceNode, ScriptedDice
from machina_nb.rules.engine.monsters import mindless_step, monster_abilities
from machina_nb.rules.engine.plans import PlannedAbility, PlannedDoor, PlannedEnd, PlannedMove
from machina_nb.rules.engine.state import GameState, MonsterTurn
from machina_nb.rules.errors import RulesError
from machina_nb.rules.numbers import fraction_words
from machina_nb.rules.odds.attacks import hit_chance
from machina_nb.rules.rulings import Rules

__all__ = ["monster_turn", "MAX_TURN_STEPS"]

MAX_TURN_STEPS = 60
"""The most actions one monster turn may take here (a documented limit on runaway turns)."""

_OUTCOMES = ("roll", "hit", "miss", "health", "death", "destroy", "game")
"""The events of a monster's action told with its step: its rolls and what they did."""


def _name(situation: Situation, state: GameState, p: Point) -> str:
    """A space as the letter of the unit on it, or its coordinates."""
    unit = state.unit_at(p)
    letter = situation.letter_of(unit.id) if unit else None
    return letter or point_words(p)


def players_move(situation: Situation, state: GameState, mid: str) -> str | None:
    """Why the players move this monster, or None while it is mindless.

    Rules: manual p15 (scheming: the fallen explorers' players form a hive mind and move
    every monster), p25 (control monster overrides either mode).
    """
    who = situation.letter_of(mid) or mid
    holder = state.controller(mid)
    if holder is not None:
        return (f"{situation.letter_of(holder) or holder} controls {who} this turn: the "
                "players move it (manual p25: control monster)")
    if state.scheming:
        cards = situation.cards.units()
        fallen = ", ".join(cards[d].name if d in cards else d for d in state.dead)
        return (f"an explorer has fallen ({fallen}): the monsters are scheming, and the hive "
                f"mind of the fallen explorers' players moves {who} (ask actions for what "
                "it may do; manual p15)")
    return None


def monster_turn(situation: Situation, q: Question, rules: Rules, state: GameState
                 ) -> tuple[Any, ...]:
    """Rules: manual p15-17 (the mindless turn, action by action, re-evaluated each time),
    p15 (scheming), p19 (death), p3 (the last explorer destroyed loses the game)."""
    mid = situation.unit_id(q.get("monster"))
    if state.unit(mid).side != "monster":
        raise RulesError("monster", f"question {q.name}: {q.get('monster')} is an explorer; only "
                         "a monster takes a turn in the Monster phase (manual p15)")
    start = state.unit(mid).position
    if start is None:
        return ({"steps": [], "end": "off the map", "stamina_left": state.unit(mid).stamina},
                [f"{q.get('monster')} is not on the map: it takes no turn (manual p15)"])
    if state.over:
        return ({"steps": [f"the game is over ({state.over})"], "end": point_words(start),
                 "stamina_left": state.unit(mid).stamina},
                ["nothing more is played once the game has ended (manual p3)"])
    others = tuple(m for m in state.queue if m != mid)
    state = replace(state, phase="monster", queue=(mid,) + others, done=(),
                    monster_turn=MonsterTurn(mid))
    dice = ScriptedDice(tuple(q.get("dice", ())))
    choices = tuple(tuple(c) if isinstance(c, (list, tuple)) else c
                    for c in q.get("choices", ()))
    steps: list[str] = []
    why: list[str] = []
    options: tuple[Any, ...] = ()
    rolls: tuple[Any, ...] = ()
    marks: list[tuple[Point, str]] = [(start, "asked")]
    for _ in range(MAX_TURN_STEPS):
        if not (state.has_unit(mid) and state.monster_turn and state.monster_turn.monster == mid):
            break
        if state.over:
            break
        driven = players_move(situation, state, mid)
        if driven is not None:
            steps.append(f"the players move {q.get('monster')} from here: {driven}")
            break
        plan = mindless_step(state, rules, mid, choices)
        why.append("; ".join(map(str, plan.reasons)))
        if plan.options:
            shown = ", ".join(_option(situation, state, o) for o in plan.options)
            steps.append(f"the players choose the {plan.choice_of.split(' (')[0]}: {shown}")
            marks += [(o, "tied") for o in plan.options if _is_point(o)]
            options = tuple(plan.options)
            break
        step = _describe(situation, state, plan, rules)
        marks += _plan_marks(plan)
        try:
            after, events = apply(state, MonsterAct(mid, choices=choices), rules, dice)
        except ChanceNode as node:
            steps.append(f"{step}; waits for the {node.die} roll")
            rolls = (node.die, tuple(node.outcomes))
            break
        step += "".join(f"; {event_words(e)}" for e in events if e.kind in _OUTCOMES)
        if after.decision is not None:
            need = after.decision
            shown = ", ".join(_option(situation, state, o) for o in need.options)
            steps.append(f"{step}; the players choose {need.what}: {shown}")
            marks += [(o, "tied") for o in need.options if _is_point(o)]
            options = tuple(need.options)
            break
        state = after
        steps.append(step)
        if isinstance(plan.action, PlannedEnd):
            break
    m = state.unit(mid) if state.has_unit(mid) else None
    value = {"steps": steps,
             "end": point_words(m.position) if m and m.position else "removed",
             "stamina_left": m.stamina if m else 0}
    if state.over:
        value["outcome"] = state.over
    if m and m.position and not options and not rolls:
        marks.append((m.position, "end"))
    return value, why, tuple(marks), options, rolls


def _option(situation: Situation, state: GameState, option: Any) -> str:
    """An option in words: the letter of the unit on a space, else as ``option_words``."""
    return _name(situation, state, option) if _is_point(option) else \
        option_words(situation, option)


def _is_point(option: object) -> bool:
    return isinstance(option, tuple) and len(option) == 2 and all(isinstance(v, int)
                                                                   for v in option)


def _plan_marks(plan: Any) -> list[tuple[Point, str]]:
    """A planned action's space: where it moves to, or the target of its ability."""
    step = plan.action
    if isinstance(step, PlannedMove):
        return [(step.to, "step")]
    if isinstance(step, PlannedAbility) and step.target is not None and _is_point(step.target):
        return [(step.target, "target")]
    return []


def _describe(situation: Situation, state: GameState, plan: Any, rules: Rules) -> str:
    """One planned action in words, with the hit chance of an attack (manual p16, p24)."""
    step = plan.action
    if isinstance(step, PlannedMove):
        return f"moves to {point_words(step.to)}"
    if isinstance(step, PlannedDoor):
        return (f"destroys the closed door between {point_words(step.a)} and "
                f"{point_words(step.b)}")
    if isinstance(step, PlannedAbility):
        m = state.unit(plan.monster)
        from_card = [a for _, a in monster_abilities(state, m, rules)]
        ability = from_card[step.index] if step.index < len(from_card) else None
        target = step.target
        on = _name(situation, state, target) if target is not None else "itself"
        text = f"plays {ability.name if ability else 'an ability'} on {on}"
        victim = state.unit_at(target) if target is not None else None
        if ability is not None and victim is not None:
            for arcane, pool in attack_pools(ability):
                p = hit_chance(pool, victim.will if arcane else victim.armor, rules)
                text += f" (hit chance {fraction_words(p)})"
        return text
    return "ends its turn"
