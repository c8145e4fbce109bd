"""Effects that decide which other effects resolve: conditionals, effect rolls and counted
conditions.

Rules: manual p26 (conditionals, effect roll, counted condition).
"""

from __future__ import annotations

from collections.abc import Sequence

from machina_nb.rules.board.maptext import Point
from machina_nb.rules.cards.abilities import Effect
from machina_nb.rules.engine.resolution import Resolution, EffectStep, resolve
from machina_nb.rules.engine.targets import units_in_scope
from machina_nb.rules.engine.state import GameState, Unit
from machina_nb.rules.rulings import Rules

__all__ = ["conditional_effect", "effect_roll_effect", "count_effect"]


# --- conditions -------------------------------------------------------------------------------

def _condition(state: GameState, rules: Rules, effect: Effect, user: Unit | None,
               target: Point | None, hits: tuple[str, ...]) -> bool:
    if effect.condition == "any_monster_wounded_on_tile":
        scope = units_in_scope(state, rules, "monsters_on_tile", user, target)
        return any(state.unit(m).wounded for m in scope)
    if effect.condition == "target_wounded":
        u = state.unit_at(target) if target is not None else None
        return bool(u and u.wounded)
    return bool(hits)


def _resolve_then(r: Resolution, effects: Sequence[Effect], step: EffectStep) -> None:
    resolve(r, effects, step.user, step.target, step.why, step.essence_budget, step.second)

# --- handlers of conditional effects (the table is vocabulary.EFFECT_HANDLERS) ----------------

def conditional_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Resolve ``then`` when the condition holds, else ``otherwise`` (manual p26).

    Rules: manual p26 (conditionals).
    """
    holds = _condition(r.state, r.rules, e, step.user, step.target, step.hits)
    r.emit("condition", "condition_true" if holds else "condition_false",
           "manual p26 (conditionals)", words=(str(e.condition),), cause=step.label)
    _resolve_then(r, e.then if holds else e.otherwise, step)


def effect_roll_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Roll a d10: at least the amount resolves ``then``, else ``otherwise`` (manual p26).

    Rules: manual p26 (effect roll).
    """
    value = r.roll("d10", f"{step.why}: effect roll {e.amount}")
    ok = value >= e.amount
    r.emit("effect_roll", "effect_roll_up" if ok else "effect_roll_down",
           "manual p26 (effect roll)", amounts=(value, e.amount), cause=step.label)
    _resolve_then(r, e.then if ok else e.otherwise, step)


def count_effect(r: Resolution, e: Effect, step: EffectStep) -> None:
    """Count towards N; at N the count starts again and ``then`` resolves (manual p26).

    Rules: manual p26 (counted condition).
    """
    key = e.key or step.why
    n = r.state.count(key) + 1
    counts = dict(r.state.counts)
    counts[key] = 0 if n >= e.amount else n
    r.set(counts=tuple(sorted(counts.items())))
    r.emit("count", "count", "manual p26 (counted condition)", amounts=(n, e.amount),
           words=(key,), cause=step.label)
    if n >= e.amount:
        _resolve_then(r, e.then, step)
